//! Vision on generated screenshots with exact truth (`tests/suite/synth/`), and tests of the
//! generator itself.
//!
//! - `score` (ignored; run it by name) scores calibrate + read_board on the seeds of
//!   `SYNTH_SEEDS` (`1000..1300`; default `1000..1020`) and prints the tables;
//! - `SYNTH_LABEL=LABEL` keeps only the seeds whose recipe has that label (`style:kde-jade`);
//! - `SYNTH_LINES=1` prints one line per seed (`seed N exact|geometry|wrong: diagnosis [labels]`),
//!   to compare two versions seed by seed; `SYNTH_CENTRES=1` adds to every line with a
//!   found board how far its tile (0, 0) lies from the truth body and face centres;
//! - `SYNTH_DUMP=DIR` writes each scored scene's PNG, its truth and what vision made of it,
//!   and the scene with the true cells (green) and the found ones (magenta) boxed, to DIR;
//! - `generated_scenes_read_exactly` (ignored until vision reads them) holds vision to one
//!   scene of every style; `tuning_scenes_once_read_exactly_still_are` keeps 27 tuning scenes
//!   read exactly (one of each style and scenes a session fixed), a guard against regressions.
//! - `scene_fingerprints` (ignored; run it by name) prints a hash of each scene of
//!   `SYNTH_SEEDS`, to show that a refactor of the generator changed no pixel.

use crate::synth;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::PathBuf;

use linkup::board::Pos;

use synth::recipe::all_styles;
use synth::score::{self, Outcome};
use synth::{Layout, Recipe, Scene, Selection, Style, scene};

/// Seeds from `SYNTH_SEEDS` (`A..B`, or one seed), else `default`; with `SYNTH_LABEL` set
/// (`style:kde-jade`, `bg:photo`, ...), only the seeds whose recipe has that label.
fn seeds_from_env(default: Range<u64>) -> Vec<u64> {
    let seeds = seed_range_from_env(default);
    match std::env::var("SYNTH_LABEL") {
        Ok(label) => seeds
            .filter(|&seed| Recipe::random(seed).labels().contains(&label))
            .collect(),
        Err(_) => seeds.collect(),
    }
}

/// The range of `SYNTH_SEEDS` (`A..B`, or one seed), else `default`.
fn seed_range_from_env(default: Range<u64>) -> Range<u64> {
    let Ok(text) = std::env::var("SYNTH_SEEDS") else {
        return default;
    };
    let parse = |s: &str| -> u64 {
        s.trim()
            .parse()
            .unwrap_or_else(|e| panic!("SYNTH_SEEDS={text:?}: {e} (write A..B)"))
    };
    match text.split_once("..") {
        Some((a, b)) => parse(a)..parse(b),
        None => {
            let a = parse(&text);
            a..a + 1
        }
    }
}

/// Generates and scores the scenes of `seeds` on 2 threads, writing them to `SYNTH_DUMP` if
/// set; outcomes in seed order.
fn score_seeds(seeds: &[u64]) -> Vec<Outcome> {
    let dump = std::env::var_os("SYNTH_DUMP").map(PathBuf::from);
    let mut outcomes: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|part| {
                let dump = dump.clone();
                s.spawn(move || {
                    seeds
                        .iter()
                        .skip(part)
                        .step_by(2)
                        .map(|&seed| {
                            let start = std::time::Instant::now();
                            let scene = scene(seed);
                            let generation = start.elapsed();
                            let mut outcome = score::evaluate(&scene, seed);
                            outcome.generation = generation;
                            if let Some(dir) = &dump {
                                let vision = format!("vision: {}\n", outcome.diagnosis());
                                let boxes = score::boxes(&scene, outcome.found.as_ref());
                                scene
                                    .dump(dir, seed, &vision)
                                    .and_then(|()| {
                                        boxes
                                            .save(dir.join(format!("seed-{seed}-boxes.png")))
                                            .map_err(std::io::Error::other)
                                    })
                                    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
                            }
                            outcome
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a scoring thread"))
            .collect()
    });
    outcomes.sort_by_key(|o| o.seed);
    outcomes
}

#[test]
#[ignore = "a report, not a check: run it by name with --ignored --nocapture"]
fn score() {
    let seeds = seeds_from_env(1000..1020);
    let start = std::time::Instant::now();
    let outcomes = score_seeds(&seeds);
    if std::env::var_os("SYNTH_LINES").is_some() {
        for o in &outcomes {
            let verdict = match (o.exact(), o.geometry_right) {
                (true, _) => "exact",
                (false, true) => "geometry",
                (false, false) => "wrong",
            };
            println!(
                "seed {} {verdict}: {} [{}]",
                o.seed,
                o.diagnosis(),
                o.labels.join(" ")
            );
        }
    }
    println!("{}", score::report(&outcomes));
    println!(
        "{} scenes in {:.1} s (generation and vision, 2 threads)",
        outcomes.len(),
        start.elapsed().as_secs_f64()
    );
}

#[test]
#[ignore = "a measurement, not a check: run it by name with --ignored --nocapture"]
fn generation_time() {
    let seeds = seeds_from_env(1000..1300);
    // One pass to fill the art caches, one to time.
    for &seed in &seeds {
        scene(seed);
    }
    let mut times: Vec<f64> = seeds
        .iter()
        .map(|&seed| {
            let start = std::time::Instant::now();
            scene(seed);
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let count = times.len();
    let summary = score::time_summary(&mut times).unwrap_or_else(|| "no seeds".into());
    println!("{count} scenes on one thread, art cached: {summary}");
}

/// A fingerprint of each scene of `SYNTH_SEEDS` (default `1..61`): its pixels and its truth
/// hashed together, one `seed hash` line each. Refactors of the generator that must not change a
/// pixel compare these lines before and after (same toolchain: the hash is std's).
#[test]
#[ignore = "a report, not a check: run it by name with --ignored --nocapture"]
fn scene_fingerprints() {
    use std::hash::{DefaultHasher, Hash, Hasher};
    for seed in seeds_from_env(1..61) {
        let scene = scene(seed);
        let mut hasher = DefaultHasher::new();
        scene.image.as_raw().hash(&mut hasher);
        scene.truth_text().hash(&mut hasher);
        println!("seed {seed} {:016x}", hasher.finish());
    }
}

/// The first seed from 0 whose recipe has each style: one scene of every style.
fn one_seed_per_style() -> Vec<u64> {
    all_styles()
        .into_iter()
        .map(|style| {
            (0..10_000)
                .find(|&seed| Recipe::random(seed).style == style)
                .unwrap_or_else(|| panic!("no seed below 10000 draws {}", style.name()))
        })
        .collect()
}

#[test]
#[ignore = "until vision reads generated scenes (issue 11)"]
fn generated_scenes_read_exactly() {
    assert_read_exactly(&one_seed_per_style());
}

/// Tuning seeds read exactly: the first of each style and 206 (session 27: a small board of
/// touching tiles in a large frame, found only inside its merged objects); 228 and 445 (session 28:
/// borders at a multiple of the pitch, whose faces have no copies, give way to the objects' board),
/// 972 (the same, to the borders' own board at half the pitch) and 624 (a last row of 3D tiles,
/// left out by the borders, joins the board its tiles pair with); session 29: 423 (a pitch a
/// fraction of a pixel off whole pixels, colour-only kinds), 850 (a busy textured panel with a thin
/// margin); session 37: 433 (grid lines in the gaps inside boxes as long as the pitch), 81 and 631
/// (the objects' first reading finds a wrong lattice, a later one the board); session 43: 18263 (a
/// full board's top row, left out by the borders, whose boxes all hold the same strip of background
/// above the board); session 44: 18309 and 20221 (sparse boards on a panel, the boxes a few pixels
/// off the cells, so the empty cells along the grid lines show a strip of them: the panel's colours
/// must still read them empty); session 47: 60 (grid lines round touching tiles with ornaments
/// at their corners: the boxes keep their size) and 24038 (a last empty column marked by faint
/// dots of 3 px on a 70 px pitch); session 48: 751 and 158 (GNOME tiles whose faces' measures
/// mix a body's x with a face's y, until the bodies' silhouettes beside empty cells joined the
/// vote); session 50: 27269 (a sparse board on a textured panel: the borders' whole board
/// stands over the objects' board four columns short); session 53: 12300 (8 tiles on a 6 x 8
/// panel: the borders' comb at 3.2 pitches reads 18 cells as tiles, the objects' board 8) and
/// 12350 (touching flat tiles on a photo: the borders' board two columns and a row short);
/// session 57: 32383 (colour-only tiles with a note's stem down each face: the comb on the stems
/// put every cell half a pitch off, across two tiles); session 62: 37283 (colour-only tiles,
/// the first row holding one tile, whose nearest shape on the board was another kind's: the
/// row stayed off the board) and 39068 (a sparse board on a ruled texture, the tiles' boxes
/// the whole cell: every empty cell read as a tile); session 63: 40007 (small emoji on a ruled
/// texture, the boxes the whole cell: mostly texture, 21 kinds read as 17).
const READ_EXACTLY: [u64; 40] = [
    1, 2, 3, 4, 7, 8, 9, 10, 12, 18, 20, 21, 28, 34, 40, 60, 81, 104, 158, 206, 228, 423, 433, 445,
    624, 631, 751, 850, 972, 12300, 12350, 18263, 18309, 20221, 24038, 27269, 32383, 37283, 39068,
    40007,
];

#[test]
fn tuning_scenes_once_read_exactly_still_are() {
    assert_read_exactly(&READ_EXACTLY);
}

/// Seed 971 (session 29: a sparse board of small 3D tiles apart, its empty edge column marked
/// by dots) keeps its lines and cells. Since session 44 its centre lies 1.1 px from its
/// faces' (the mean tile's measure, between face and body on a 24 x 32 tile, joins the faces'
/// in the vote), just past the scorer's pixel. Seed 24333 (session 47: flat tiles on a panel,
/// every cell outlined, the last column empty): the outlines of the columns of tiles closed a
/// rectangle inside the panel, whose top and bottom go on past it to the panel's side.
#[test]
fn a_marked_empty_edge_column_stays_on_the_board() {
    for outcome in score_seeds(&[971, 24333]) {
        let found = outcome.found.expect("a board");
        assert_eq!(
            (found.rows, found.cols),
            (outcome.truth.rows, outcome.truth.cols),
            "{}",
            outcome.diagnosis()
        );
        assert_eq!(
            outcome.cells_right,
            outcome.cells,
            "{}",
            outcome.diagnosis()
        );
    }
}

/// Session 43, seed 19359 (a full 5 x 8 board of KDE's default tiles, held out until then):
/// the borders' comb at half the pitch halved every tile, the band round that board ran over
/// the last column of tiles, so their white read as the empty cells' colour and 22 of 40
/// tiles read empty. Joined in twos, the board reads every tile.
#[test]
fn a_board_of_half_tiles_read_mostly_empty_joins_its_halves() {
    let outcome = &score_seeds(&[19359])[0];
    assert!(
        !outcome.false_empty && outcome.cells_right == outcome.cells,
        "{}",
        outcome.diagnosis()
    );
}

/// Asserts that vision reads the scenes of `seeds` exactly, listing every one it misreads.
fn assert_read_exactly(seeds: &[u64]) {
    let outcomes = score_seeds(seeds);
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| !o.exact())
        .map(|o| format!("seed {} [{}]: {}", o.seed, o.labels[0], o.diagnosis()))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} scenes misread:\n{}",
        failed.len(),
        outcomes.len(),
        failed.join("\n")
    );
}

#[test]
fn the_same_seed_gives_the_same_pixels_and_truth() {
    for seed in [3, 1004] {
        let (a, b) = (scene(seed), scene(seed));
        assert!(
            a.image == b.image,
            "seed {seed}: pixels differ between two renders"
        );
        assert_eq!(a.truth_text(), b.truth_text(), "seed {seed}");
    }
    assert!(
        scene(3).image != scene(4).image,
        "two seeds drew the same picture"
    );
}

#[test]
fn every_kind_has_an_even_count() {
    for seed in 1000..1300 {
        let recipe = Recipe::random(seed);
        let board = synth::scene::deal(&recipe);
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for &k in board.cells() {
            if k != 0 {
                *counts.entry(k).or_default() += 1;
            }
        }
        for (k, n) in counts {
            assert!(n % 2 == 0, "seed {seed}: kind {k} appears {n} times");
            assert!(
                k as usize <= recipe.kinds,
                "seed {seed}: kind {k} of {}",
                recipe.kinds
            );
        }
    }
}

#[test]
fn layouts_leave_what_they_promise() {
    let mut sparse_seen = 0;
    for seed in 1000..1300 {
        let recipe = Recipe::random(seed);
        let board = synth::scene::deal(&recipe);
        let (rows, cols) = (board.rows() as i32, board.cols() as i32);
        let cells = (rows * cols) as usize;
        match recipe.layout {
            Layout::Full => assert_eq!(board.tiles(), cells, "seed {seed}: a full board"),
            Layout::Sparse(keep) => {
                sparse_seen += 1;
                let target = (cells as f64 * keep).round() as usize;
                assert!(
                    board.tiles() <= target.max(2) + 2 && board.tiles() < cells,
                    "seed {seed}: {} of {cells} tiles left, {target} wanted",
                    board.tiles()
                );
            }
            Layout::EdgeSingle(_) => {
                let count = |cells: &mut dyn Iterator<Item = Pos>| {
                    cells.filter(|&p| board.get(p) != 0).count()
                };
                let edges = [
                    count(&mut (0..cols).map(|c| Pos::new(0, c))),
                    count(&mut (0..cols).map(|c| Pos::new(rows - 1, c))),
                    count(&mut (0..rows).map(|r| Pos::new(r, 0))),
                    count(&mut (0..rows).map(|r| Pos::new(r, cols - 1))),
                ];
                assert!(
                    edges.contains(&1),
                    "seed {seed}: edge lines hold {edges:?} tiles"
                );
            }
        }
    }
    assert!(sparse_seen > 0);
}

#[test]
fn an_unmarked_board_is_judged_by_the_rows_and_columns_its_tiles_span() {
    let mut shrunk = 0;
    for seed in 1000..1100 {
        let recipe = Recipe::random(seed);
        let board = synth::scene::deal(&recipe);
        let unmarked = recipe.panel == synth::recipe::Panel::None
            && recipe.marks == synth::recipe::Marks::None;
        let empty_edge = |line: Vec<Pos>| line.iter().all(|&p| board.get(p) == 0);
        let (rows, cols) = (board.rows() as i32, board.cols() as i32);
        let empty_edges = empty_edge((0..cols).map(|c| Pos::new(0, c)).collect())
            || empty_edge((0..cols).map(|c| Pos::new(rows - 1, c)).collect())
            || empty_edge((0..rows).map(|r| Pos::new(r, 0)).collect())
            || empty_edge((0..rows).map(|r| Pos::new(r, cols - 1)).collect());
        if !(unmarked && empty_edges) {
            continue;
        }
        let scene = recipe.render();
        let evident = score::evident_geometry(&scene);
        let truth = scene.geometry;
        assert!(
            evident.rows * evident.cols < truth.rows * truth.cols,
            "seed {seed}: {evident} for {truth}"
        );
        for p in scene.board.tile_positions() {
            let [x, y] = truth.cell_center(p);
            let col = ((x - evident.origin[0]) / evident.pitch[0]).floor();
            let row = ((y - evident.origin[1]) / evident.pitch[1]).floor();
            assert!(
                (0.0..evident.cols as f64).contains(&col)
                    && (0.0..evident.rows as f64).contains(&row),
                "seed {seed}: tile {p:?} outside {evident}"
            );
        }
        shrunk += 1;
    }
    assert!(
        shrunk > 0,
        "no unmarked board with an empty edge line in 100 seeds"
    );
}

/// The recipe of `seed` with the frame left as drawn: no rescale, JPEG, colour shift or
/// selection.
fn untransformed(seed: u64) -> Recipe {
    untransformed_recipe(Recipe::random(seed))
}

/// `recipe` with the frame left as drawn: no rescale, JPEG, colour shift or selection.
fn untransformed_recipe(recipe: Recipe) -> Recipe {
    Recipe {
        scale: 1.0,
        jpeg: None,
        brightness: 1.0,
        contrast: 1.0,
        selection: Selection::None,
        ..recipe
    }
}

/// Mean absolute difference of two images over a rectangle.
fn mean_difference(a: &Scene, b: &Scene, rect: [i64; 4]) -> f64 {
    let [x, y, w, h] = rect;
    let mut sum = 0u64;
    let mut n = 0u64;
    for yy in y..y + h {
        for xx in x..x + w {
            let (p, q) = (
                a.image.get_pixel(xx as u32, yy as u32),
                b.image.get_pixel(xx as u32, yy as u32),
            );
            sum += (0..3).map(|i| u64::from(p[i].abs_diff(q[i]))).sum::<u64>();
            n += 3;
        }
    }
    sum as f64 / n.max(1) as f64
}

#[test]
fn truth_geometry_is_where_tiles_are_drawn() {
    for seed in one_seed_per_style() {
        let full_recipe = Recipe {
            layout: Layout::Full,
            ..untransformed(seed)
        };
        let bare_recipe = Recipe {
            layout: Layout::Sparse(0.0),
            ..full_recipe.clone()
        };
        let (full, bare) = (full_recipe.render(), bare_recipe.render());
        assert_eq!(full.geometry, bare.geometry, "seed {seed}");
        let g = full.geometry;
        let [tw, th] = g.tile_size.map(|v| v as i64);
        let alone = matches!(full.recipe.style, Style::Emoji(synth::EmojiBack::Alone));
        let [sl, st, sr, sb] = synth::tile::shadow_margins(&full.recipe).map(i64::from);
        let mut inside = vec![false; (full.image.width() * full.image.height()) as usize];
        for pos in full.board.tile_positions() {
            let r = g.cell_rect(pos);
            let (x, y) = (r.x as i64, r.y as i64);
            for yy in (y - st).max(0)..(y + th + sb).min(i64::from(full.image.height())) {
                for xx in (x - sl).max(0)..(x + tw + sr).min(i64::from(full.image.width())) {
                    inside[(yy as u32 * full.image.width() + xx as u32) as usize] = true;
                }
            }
            if bare.board.get(pos) != 0 {
                continue;
            }
            let name = full.recipe.style.name();
            assert!(
                mean_difference(&full, &bare, [x, y, tw, th]) > 4.0,
                "seed {seed} ({name}): nothing drawn in the body of {pos}"
            );
            if !alone {
                for (edge, rect) in [
                    ("top", [x, y, tw, 1]),
                    ("left", [x, y, 1, th]),
                    ("bottom", [x, y + th - 1, tw, 1]),
                    ("right", [x + tw - 1, y, 1, th]),
                ] {
                    assert!(
                        mean_difference(&full, &bare, rect) > 2.0,
                        "seed {seed} ({name}): the {edge} edge of {pos}'s body is not drawn"
                    );
                }
            }
        }
        for (i, (p, q)) in full.image.pixels().zip(bare.image.pixels()).enumerate() {
            if !inside[i] {
                let (x, y) = (i as u32 % full.image.width(), i as u32 / full.image.width());
                assert!(
                    p == q,
                    "seed {seed}: pixel ({x}, {y}) outside every body changed"
                );
            }
        }
    }
}

#[test]
fn every_style_and_label_is_reachable_within_300_seeds() {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 1000..1300 {
        for label in Recipe::random(seed).labels() {
            *seen.entry(label).or_default() += 1;
        }
    }
    let mut wanted: Vec<String> = all_styles()
        .into_iter()
        .map(|s| format!("style:{}", s.name()))
        .collect();
    wanted.extend(
        [
            "gap:0",
            "gap:1-3",
            "gap:4-8",
            "rim:flat",
            "rim:drawn-3d",
            "rim:art-3d",
            "shape:square",
            "shape:tall",
            "tile:small",
            "tile:medium",
            "tile:large",
            "board:full",
            "board:sparse",
            "board:edge-single",
            "fill:fours",
            "fill:pairs",
            "place:centred",
            "place:off-centre",
            "panel:none",
            "panel:plain",
            "panel:texture",
            "marks:none",
            "marks:lines",
            "marks:dots",
            "bg:solid",
            "bg:vgradient",
            "bg:dgradient",
            "bg:noise",
            "bg:photo",
            "clutter:title-bar",
            "clutter:menu-bar",
            "clutter:score",
            "clutter:side-panel",
            "clutter:buttons",
            "clutter:none",
            "selection:none",
            "selection:tint",
            "selection:border",
            "selection:outline",
            "selection:inverted",
            "selection:art",
            "corners:round",
            "corners:square",
            "kind:blank",
            "ink:dark",
            "ink:light",
            "scale:1",
            "scale:2",
            "scale:0.8-1",
            "scale:1-1.25",
            "jpeg:none",
            "jpeg:40-64",
            "jpeg:65-90",
            "colour:shifted",
        ]
        .map(String::from),
    );
    let rare: Vec<String> = wanted
        .iter()
        .filter(|w| seen.get(*w).copied().unwrap_or(0) < 3)
        .map(|w| format!("{w} ({})", seen.get(w).copied().unwrap_or(0)))
        .collect();
    assert!(
        rare.is_empty(),
        "seen fewer than 3 times in seeds 1000..1300: {rare:?}"
    );
}

#[test]
fn every_mahjong_face_is_drawn_and_distinct() {
    use synth::art::{self, Tileset};
    let sets = art::KDE_TILESETS
        .iter()
        .map(|&n| Tileset::Kde(n))
        .chain(art::GNOME_THEMES.iter().map(|&n| Tileset::Gnome(n)));
    for set in sets {
        let (w, h) = (48, (48.0 / set.aspect()).round() as u32);
        let tiles: Vec<_> = (0..art::MAHJONG_FACES)
            .map(|i| art::mahjong_tile(set, i, w, h, false).image.clone())
            .collect();
        let mut same = Vec::new();
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                let differing = tiles[i]
                    .pixels()
                    .zip(tiles[j].pixels())
                    .filter(|(p, q)| (0..4).any(|c| p[c].abs_diff(q[c]) > 40))
                    .count();
                if differing < 20 {
                    same.push((i, j));
                }
            }
        }
        assert!(
            same.is_empty(),
            "{}: faces look the same: {same:?}",
            set.name()
        );
    }
}

/// Where a dark-to-light step along row 0 crosses half height, in pixel-edge coordinates.
fn half_crossing(img: &image::RgbaImage) -> f64 {
    let v: Vec<f64> = (0..img.width())
        .map(|x| f64::from(img.get_pixel(x, 0)[0]))
        .collect();
    let i = v.iter().position(|&p| p >= 127.5).expect("a step");
    // Pixel i's centre is at i + 0.5; interpolate between the centres of i - 1 and i.
    let t = (127.5 - v[i - 1]) / (v[i] - v[i - 1]);
    i as f64 - 0.5 + t
}

#[test]
fn rescaling_moves_edges_exactly_as_the_geometry_scales() {
    let mut step = image::RgbaImage::from_pixel(200, 4, image::Rgba([0, 0, 0, 255]));
    for x in 80..200 {
        for y in 0..4 {
            step.put_pixel(x, y, image::Rgba([255, 255, 255, 255]));
        }
    }
    for width in [160u32, 190, 230, 250, 400] {
        let scaled = synth::paint::resize(&step, width, 4);
        let expected = 80.0 * f64::from(width) / 200.0;
        let found = half_crossing(&scaled);
        assert!(
            (found - expected).abs() < 0.1,
            "200 -> {width} px: the edge at 80 went to {found:.3}, not {expected:.3}"
        );
    }
}

#[test]
fn a_forced_style_at_2x_doubles_the_frame_and_the_geometry_exactly() {
    let style = Style::Emoji(synth::EmojiBack::Plain);
    let plain = untransformed_recipe(Recipe::random_in_style(11, style));
    let hidpi = Recipe {
        scale: 2.0,
        ..plain.clone()
    };
    let (a, b) = (plain.render(), hidpi.render());
    assert_eq!(b.recipe.style, style);
    assert_eq!(
        b.image.dimensions(),
        (2 * a.image.width(), 2 * a.image.height())
    );
    let (ga, gb) = (a.geometry, b.geometry);
    for i in 0..2 {
        assert_eq!(gb.origin[i], 2.0 * ga.origin[i]);
        assert_eq!(gb.pitch[i], 2.0 * ga.pitch[i]);
        assert_eq!(gb.tile_size[i], 2.0 * ga.tile_size[i]);
    }
    assert_eq!(b.face, a.face.map(|v| 2.0 * v));
    assert_eq!(a.board, b.board);
}

#[test]
fn the_selection_changes_only_the_selected_tile() {
    let styles = [
        (Style::Glyph(synth::GlyphSet::Mixed), Selection::Tint),
        (Style::Glyph(synth::GlyphSet::Mixed), Selection::Border),
        (Style::Emoji(synth::EmojiBack::Plain), Selection::Outline),
        (Style::Emoji(synth::EmojiBack::Rounded), Selection::Inverted),
        (
            Style::Mahjong(synth::art::Tileset::Kde("jade")),
            Selection::Art,
        ),
        (
            Style::Mahjong(synth::art::Tileset::Gnome("smooth")),
            Selection::Art,
        ),
    ];
    for (seed, (style, selection)) in styles.into_iter().enumerate() {
        let plain = untransformed_recipe(Recipe::random_in_style(seed as u64, style));
        let shown = Recipe {
            selection,
            ..plain.clone()
        }
        .render();
        let plain = plain.render();
        let pos = shown.selected.expect("a selected tile");
        assert_eq!(plain.selected, None);
        let r = shown.geometry.cell_rect(pos);
        // The outline style draws just outside the body.
        let (x0, y0) = (r.x as i64 - 3, r.y as i64 - 3);
        let (x1, y1) = ((r.x + r.w) as i64 + 3, (r.y + r.h) as i64 + 3);
        let mut changed = 0;
        for (i, (p, q)) in plain.image.pixels().zip(shown.image.pixels()).enumerate() {
            if p != q {
                let (x, y) = (
                    (i as u32 % plain.image.width()) as i64,
                    (i as u32 / plain.image.width()) as i64,
                );
                assert!(
                    (x0..x1).contains(&x) && (y0..y1).contains(&y),
                    "{selection:?} on {}: pixel ({x}, {y}) changed, away from {pos}",
                    style.name()
                );
                changed += 1;
            }
        }
        assert!(
            changed > 20,
            "{selection:?} on {}: the selection is not drawn",
            style.name()
        );
    }
}
