//! Drawing a [`Recipe`] into a frame with its exact truth: the deal, then the surroundings
//! ([`surroundings`](super::surroundings)) and the tiles ([`tile`](super::tile)), then the frame
//! transforms (rescale, JPEG, brightness and contrast) with the geometry scaled the same way.

use image::{Rgba, RgbaImage};
use linkup::board::{Board, Kind, Pos};
use linkup::vision::Geometry;

use super::Scene;
use super::recipe::{Dice, Fill, Layout, Recipe, Rim, Selection, clutter_margins};
use super::{paint, surroundings, tile};

/// Renders `recipe` into a [`Scene`].
pub fn render(recipe: &Recipe) -> Scene {
    let mut d = Dice::new(recipe.seed);
    let board = deal(recipe);
    // Drawn whether shown or not, so that the selection style changes nothing else.
    let tiles: Vec<Pos> = board.tile_positions().collect();
    let candidate = (!tiles.is_empty()).then(|| tiles[d.below(tiles.len())]);
    let selected = candidate.filter(|_| recipe.selection != Selection::None);
    let [fw, fh] = recipe.frame;
    let mut img = RgbaImage::new(fw, fh);
    surroundings::draw_background(&mut img, recipe, &mut d);

    let [tw, th] = recipe.tile;
    let gap = recipe.gap;
    let (px, py) = (i64::from(tw + gap), i64::from(th + gap));
    let board_w = recipe.cols as i64 * px - i64::from(gap);
    let board_h = recipe.rows as i64 * py - i64::from(gap);
    let [ml, mt, mr, mb] = clutter_margins(recipe.clutter, recipe.tile).map(i64::from);
    let area = [ml, mt, i64::from(fw) - mr, i64::from(fh) - mb];
    let slack_x = (area[2] - area[0] - board_w - 40).max(0);
    let slack_y = (area[3] - area[1] - board_h - 40).max(0);
    let (ox, oy) = if recipe.centred {
        (area[0] + 20 + slack_x / 2, area[1] + 20 + slack_y / 2)
    } else {
        (
            area[0] + 20 + d.below(slack_x as usize + 1) as i64,
            area[1] + 20 + d.below(slack_y as usize + 1) as i64,
        )
    };
    surroundings::draw_clutter(&mut img, recipe, &mut d, area, [ox, oy, board_w, board_h]);
    surroundings::draw_panel(&mut img, recipe, &mut d, [ox, oy, board_w, board_h]);
    surroundings::draw_marks(&mut img, recipe, &mut d, [ox, oy]);

    let look = tile::TileLook::new(recipe, &mut d);
    if let Rim::Raised(depth) = recipe.rim {
        for pos in board.tile_positions() {
            let (x, y) = cell_xy(pos, ox, oy, px, py);
            let off = i64::from(depth) + 1;
            let shadow = [0, 0, 0, 70];
            let (w, h) = (i64::from(tw), i64::from(th));
            paint::fill_rounded(
                &mut img,
                x + off,
                y + off,
                w,
                h,
                recipe.corner as f32,
                shadow,
            );
        }
    }
    // Top to bottom, each row right to left (as KMahjongg draws), so that art shadows falling
    // left and down go under the neighbours there.
    let mut order: Vec<Pos> = board.tile_positions().collect();
    order.sort_by_key(|p| (p.row, -p.col));
    for pos in order {
        let (x, y) = cell_xy(pos, ox, oy, px, py);
        let kind = board.get(pos);
        let is_selected = selected == Some(pos);
        tile::draw_tile(&mut img, recipe, &look, kind, x, y, is_selected);
        if is_selected {
            tile::draw_selection(&mut img, recipe, look.mark, x, y);
        }
    }
    let face = tile::face_rect(recipe);

    let geometry = Geometry {
        rows: recipe.rows,
        cols: recipe.cols,
        origin: [ox as f64, oy as f64],
        pitch: [px as f64, py as f64],
        tile_size: [f64::from(tw), f64::from(th)],
    };
    let mut scene = Scene {
        image: img,
        geometry,
        face,
        board,
        selected,
        recipe: recipe.clone(),
    };
    transform(&mut scene);
    scene
}

fn cell_xy(pos: Pos, ox: i64, oy: i64, px: i64, py: i64) -> (i64, i64) {
    (ox + i64::from(pos.col) * px, oy + i64::from(pos.row) * py)
}

/// The truth board of `recipe`: kinds dealt (fours or pairs), shuffled, then pairs removed
/// per layout. The deal has dice of its own, so that changing the layout changes nothing else.
pub fn deal(recipe: &Recipe) -> Board {
    deal_with(recipe, &mut Dice::new(recipe.seed ^ 0xdea1))
}

fn deal_with(recipe: &Recipe, d: &mut Dice) -> Board {
    let (rows, cols) = (recipe.rows, recipe.cols);
    let n = rows * cols;
    let k = recipe.kinds.max(1);
    let mut cells: Vec<Kind> = match recipe.fill {
        Fill::Fours => (0..n).map(|i| (i / 4 % k) as Kind + 1).collect(),
        Fill::Pairs => (0..n).map(|i| (i / 2 % k) as Kind + 1).collect(),
    };
    if n % 2 == 1 {
        cells[n - 1] = 0;
    }
    for i in (1..n).rev() {
        let j = d.below(i + 1);
        cells.swap(i, j);
    }
    let mut board = Board::new(rows, cols, cells).expect("a rows x cols board");
    let (keep, keeper) = match recipe.layout {
        Layout::Full => return board,
        Layout::Sparse(keep) => (keep, None),
        Layout::EdgeSingle(keep) => {
            let (r, c) = (rows as i32, cols as i32);
            let edges: [Vec<Pos>; 4] = [
                (0..c).map(|col| Pos::new(0, col)).collect(),
                (0..c).map(|col| Pos::new(r - 1, col)).collect(),
                (0..r).map(|row| Pos::new(row, 0)).collect(),
                (0..r).map(|row| Pos::new(row, c - 1)).collect(),
            ];
            let first = d.below(4);
            let keeper = (0..4).find_map(|i| {
                let line = &edges[(first + i) % 4];
                let keeper = keeper_on(&board, line, d)?;
                for &p in line {
                    if p != keeper && board.get(p) != 0 {
                        remove_pair(&mut board, p, Some(keeper), d);
                    }
                }
                Some(keeper)
            });
            (keep, keeper)
        }
    };
    let target = ((n as f64 * keep).round() as usize).max(2);
    let mut tries = 0;
    while board.tiles() > target && tries < 10 * n {
        tries += 1;
        let tiles: Vec<Pos> = board.tile_positions().collect();
        let p = tiles[d.below(tiles.len())];
        if Some(p) != keeper {
            remove_pair(&mut board, p, keeper, d);
        }
    }
    board
}

/// A tile of `line` that can stay alone there while the line's other tiles go in pairs: its
/// kind has at least twice as many tiles on the board as on the line (so each of the others of
/// its kind finds a mate that is not the keeper, and the keeper keeps one).
fn keeper_on(board: &Board, line: &[Pos], d: &mut Dice) -> Option<Pos> {
    let count = |kind: Kind, cells: &mut dyn Iterator<Item = Pos>| {
        cells.filter(|&p| board.get(p) == kind).count()
    };
    let fits: Vec<Pos> = line
        .iter()
        .copied()
        .filter(|&p| {
            let kind = board.get(p);
            kind != 0
                && count(kind, &mut board.tile_positions())
                    >= 2 * count(kind, &mut line.iter().copied())
        })
        .collect();
    (!fits.is_empty()).then(|| fits[d.below(fits.len())])
}

/// Removes the tile at `p` and another tile of its kind (never `keep`), if there is one.
fn remove_pair(board: &mut Board, p: Pos, keep: Option<Pos>, d: &mut Dice) {
    let kind = board.get(p);
    let mates: Vec<Pos> = board
        .tile_positions()
        .filter(|&q| q != p && Some(q) != keep && board.get(q) == kind)
        .collect();
    if mates.is_empty() {
        return;
    }
    let q = mates[d.below(mates.len())];
    board.set(p, 0);
    board.set(q, 0);
}
/// Rescale, JPEG, brightness and contrast, with the truth geometry scaled exactly.
fn transform(scene: &mut Scene) {
    let recipe = &scene.recipe;
    if recipe.scale != 1.0 {
        let (w, h) = scene.image.dimensions();
        let nw = (f64::from(w) * recipe.scale).round() as u32;
        let nh = (f64::from(h) * recipe.scale).round() as u32;
        scene.image = paint::resize(&scene.image, nw, nh);
        let sx = f64::from(nw) / f64::from(w);
        let sy = f64::from(nh) / f64::from(h);
        let g = &mut scene.geometry;
        g.origin = [g.origin[0] * sx, g.origin[1] * sy];
        g.pitch = [g.pitch[0] * sx, g.pitch[1] * sy];
        g.tile_size = [g.tile_size[0] * sx, g.tile_size[1] * sy];
        let f = scene.face;
        scene.face = [f[0] * sx, f[1] * sy, f[2] * sx, f[3] * sy];
    }
    if recipe.brightness != 1.0 || recipe.contrast != 1.0 {
        let (b, c) = (recipe.brightness, recipe.contrast);
        for p in scene.image.pixels_mut() {
            for i in 0..3 {
                let v = ((f64::from(p[i]) / 255.0 - 0.5) * c + 0.5) * b;
                p[i] = (v * 255.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
    if let Some(quality) = recipe.jpeg {
        let rgb = image::DynamicImage::ImageRgba8(scene.image.clone()).to_rgb8();
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
            .encode_image(&rgb)
            .expect("JPEG encoding in memory");
        scene.image = image::load_from_memory(&bytes)
            .expect("decoding the JPEG just made")
            .to_rgba8();
    }
    for p in scene.image.pixels_mut() {
        *p = Rgba([p[0], p[1], p[2], 255]);
    }
}
