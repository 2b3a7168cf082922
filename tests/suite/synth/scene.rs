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
    let selected = pick_selected(recipe, &board, &mut d);
    let [fw, fh] = recipe.frame;
    let mut img = RgbaImage::new(fw, fh);
    surroundings::draw_background(&mut img, recipe, &mut d);
    let (place, area) = place_board(recipe, &mut d);
    let rect = [
        place.origin[0],
        place.origin[1],
        place.size[0],
        place.size[1],
    ];
    surroundings::draw_clutter(&mut img, recipe, &mut d, area, rect);
    surroundings::draw_panel(&mut img, recipe, &mut d, rect);
    surroundings::draw_marks(&mut img, recipe, &mut d, place.origin);

    let look = tile::TileLook::new(recipe, &mut d);
    if let Rim::Raised(depth) = recipe.rim {
        draw_drop_shadows(&mut img, recipe, &board, &place, depth);
    }
    draw_tiles(&mut img, recipe, &look, &board, &place, selected);
    let mut scene = Scene {
        image: img,
        geometry: place.geometry(recipe),
        face: tile::face_rect(recipe),
        board,
        selected,
        recipe: recipe.clone(),
    };
    transform(&mut scene);
    scene
}

/// Where the board's tiles go in the frame, in whole pixels, before any transform.
struct Placement {
    /// The top-left of tile (0, 0)'s body.
    origin: [i64; 2],
    /// From one cell to the next: tile size plus gap.
    pitch: [i64; 2],
    /// The whole board's width and height.
    size: [i64; 2],
}

impl Placement {
    /// The top-left of the body of the tile at `pos`.
    fn cell_xy(&self, pos: Pos) -> (i64, i64) {
        (
            self.origin[0] + i64::from(pos.col) * self.pitch[0],
            self.origin[1] + i64::from(pos.row) * self.pitch[1],
        )
    }

    /// The truth geometry of a board placed here.
    fn geometry(&self, recipe: &Recipe) -> Geometry {
        Geometry {
            rows: recipe.rows,
            cols: recipe.cols,
            origin: self.origin.map(|v| v as f64),
            pitch: self.pitch.map(|v| v as f64),
            tile_size: recipe.tile.map(f64::from),
        }
    }
}

/// The tile to show selected, if the recipe shows one. Drawn whether shown or not, so that
/// the selection style changes nothing else.
fn pick_selected(recipe: &Recipe, board: &Board, d: &mut Dice) -> Option<Pos> {
    let tiles: Vec<Pos> = board.tile_positions().collect();
    let candidate = (!tiles.is_empty()).then(|| tiles[d.below(tiles.len())]);
    candidate.filter(|_| recipe.selection != Selection::None)
}

/// Places the board inside the area the clutter leaves (20 pixels in from it), centred or at a
/// random spot; returns the placement and that area (left, top, right, bottom).
fn place_board(recipe: &Recipe, d: &mut Dice) -> (Placement, [i64; 4]) {
    let [fw, fh] = recipe.frame;
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
    let placement = Placement {
        origin: [ox, oy],
        pitch: [px, py],
        size: [board_w, board_h],
    };
    (placement, area)
}

/// The soft drop shadow of each raised tile, `depth + 1` pixels down and right of its body.
fn draw_drop_shadows(
    img: &mut RgbaImage,
    recipe: &Recipe,
    board: &Board,
    place: &Placement,
    depth: u32,
) {
    let off = i64::from(depth) + 1;
    let [w, h] = recipe.tile.map(i64::from);
    for pos in board.tile_positions() {
        let (x, y) = place.cell_xy(pos);
        let shadow = [0, 0, 0, 70];
        paint::fill_rounded(img, x + off, y + off, w, h, recipe.corner as f32, shadow);
    }
}

/// Every tile, and the selection mark on the selected one. Top to bottom, each row right to
/// left (as KMahjongg draws), so that art shadows falling left and down go under the neighbours
/// there.
fn draw_tiles(
    img: &mut RgbaImage,
    recipe: &Recipe,
    look: &tile::TileLook,
    board: &Board,
    place: &Placement,
    selected: Option<Pos>,
) {
    let mut order: Vec<Pos> = board.tile_positions().collect();
    order.sort_by_key(|p| (p.row, -p.col));
    for pos in order {
        let (x, y) = place.cell_xy(pos);
        let is_selected = selected == Some(pos);
        tile::draw_tile(img, recipe, look, board.get(pos), x, y, is_selected);
        if is_selected {
            tile::draw_selection(img, recipe, look.mark, x, y);
        }
    }
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
    d.shuffle(&mut cells);
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
