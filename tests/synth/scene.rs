//! Drawing a [`Recipe`] into a frame with its exact truth: the deal, the surroundings and
//! clutter, the board panel and marks, the tiles and the selection, then the frame transforms
//! (rescale, JPEG, brightness and contrast) with the geometry scaled the same way.

use image::imageops;
use image::{Rgba, RgbaImage};
use linkup::board::{Board, Kind, Pos};
use linkup::vision::Geometry;

use super::Scene;
use super::art;
use super::paint::{self, Colour};
use super::recipe::{
    Background, Dice, EmojiBack, Fill, GlyphSet, Layout, Marks, Panel, Recipe, Rim, Selection,
    Style, clutter_margins,
};

/// Tile colours of the flat glyph style: distinct at a glance.
pub const TILE_COLOURS: [Colour; 12] = [
    [220, 50, 47, 255],
    [38, 139, 210, 255],
    [133, 153, 0, 255],
    [181, 137, 0, 255],
    [211, 54, 130, 255],
    [42, 161, 152, 255],
    [108, 113, 196, 255],
    [203, 75, 22, 255],
    [60, 60, 60, 255],
    [120, 70, 30, 255],
    [0, 100, 0, 255],
    [150, 0, 200, 255],
];

/// Glyphs of the flat glyph style (all in DejaVu Sans).
pub const GLYPHS: &str = "ABCDEFGHJKLMNPRSTUWXYZ2345679★♥♦♣♠●▲■◆♪";

/// Renders `recipe` into a [`Scene`].
pub fn render(recipe: &Recipe) -> Scene {
    let mut d = Dice::new(recipe.seed);
    // The deal has dice of its own, so that changing the layout changes nothing else.
    let board = deal(recipe, &mut Dice::new(recipe.seed ^ 0xdea1));
    let selected = if recipe.selection == Selection::None {
        None
    } else {
        let tiles: Vec<Pos> = board.tile_positions().collect();
        (!tiles.is_empty()).then(|| tiles[d.below(tiles.len())])
    };
    let [fw, fh] = recipe.frame;
    let mut img = RgbaImage::new(fw, fh);
    draw_background(&mut img, recipe, &mut d);

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
    draw_clutter(&mut img, recipe, &mut d, area, [ox, oy, board_w, board_h]);
    draw_panel(&mut img, recipe, &mut d, [ox, oy, board_w, board_h]);
    draw_marks(&mut img, recipe, &mut d, [ox, oy]);

    let faces = face_indices(recipe, &mut d);
    let look = TileLook::new(recipe, &mut d);
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
    let mut face = [0.0, 0.0, f64::from(tw), f64::from(th)];
    for pos in board.tile_positions() {
        let (x, y) = cell_xy(pos, ox, oy, px, py);
        let kind = board.get(pos);
        let is_selected = selected == Some(pos);
        face = draw_tile(&mut img, recipe, &look, &faces, kind, x, y, is_selected);
        if is_selected {
            draw_selection(&mut img, recipe, look.mark, x, y);
        }
    }
    if board.tiles() == 0 {
        face = face_rect(recipe);
    }

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

/// The truth board: kinds dealt (fours or pairs), shuffled, then pairs removed per layout.
fn deal(recipe: &Recipe, d: &mut Dice) -> Board {
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
            let line: Vec<Pos> = match d.below(4) {
                0 => (0..cols).map(|c| Pos::new(0, c as i32)).collect(),
                1 => (0..cols)
                    .map(|c| Pos::new(rows as i32 - 1, c as i32))
                    .collect(),
                2 => (0..rows).map(|r| Pos::new(r as i32, 0)).collect(),
                _ => (0..rows)
                    .map(|r| Pos::new(r as i32, cols as i32 - 1))
                    .collect(),
            };
            let keeper = line[d.below(line.len())];
            for &p in &line {
                if p != keeper && board.get(p) != 0 {
                    remove_pair(&mut board, p, Some(keeper), d);
                }
            }
            (keep, Some(keeper))
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

/// The art index of each kind (index `kind - 1`): distinct, drawn at random.
fn face_indices(recipe: &Recipe, d: &mut Dice) -> Vec<usize> {
    let max = recipe.style.max_kinds();
    let mut all: Vec<usize> = (0..max).collect();
    for i in (1..max).rev() {
        let j = d.below(i + 1);
        all.swap(i, j);
    }
    (0..recipe.kinds).map(|i| all[i % max]).collect()
}

/// A random pleasant colour: hue anywhere, saturation and lightness within bounds.
fn random_colour(d: &mut Dice, light: (f64, f64)) -> Colour {
    let h = d.range(0.0, 6.0);
    let s = d.range(0.15, 0.7);
    let l = d.range(light.0, light.1);
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    let v = |t: f64| ((t + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    [v(r), v(g), v(b), 255]
}

fn draw_background(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice) {
    let a = random_colour(d, (0.1, 0.8));
    let b = random_colour(d, (0.1, 0.8));
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    match recipe.background {
        Background::Solid => paint::fill_rect(img, 0, 0, w, h, a),
        Background::Vertical => paint::gradient(img, a, b, false),
        Background::Diagonal => paint::gradient(img, a, b, true),
        Background::Noise => {
            paint::fill_rect(img, 0, 0, w, h, a);
            let grain = d.between(4, 40);
            paint::noise(img, [0, 0, w, h], grain, d.range(15.0, 45.0), d.bits());
        }
        Background::Photo(name) => {
            let picture = art::background_picture(name, img.width(), img.height());
            imageops::replace(img, &picture, 0, 0);
        }
    }
}

/// Title bar, menu bar, score text, side panel and buttons, outside the board's rectangle.
fn draw_clutter(
    img: &mut RgbaImage,
    recipe: &Recipe,
    d: &mut Dice,
    area: [i64; 4],
    board: [i64; 4],
) {
    let c = recipe.clutter;
    let w = i64::from(img.width());
    let h = i64::from(img.height());
    let mut top = 0;
    if c.title_bar {
        let bar = if d.chance(0.5) {
            [48, 52, 60, 255]
        } else {
            [222, 222, 226, 255]
        };
        let ink = if bar[0] < 128 {
            [235, 235, 235, 255]
        } else {
            [30, 30, 30, 255]
        };
        paint::fill_rect(img, 0, 0, w, 28, bar);
        let title = d.pick(&[
            "Shisen-Sho",
            "Lianliankan",
            "Onet Connect",
            "KShisen",
            "Mahjong Connect",
        ]);
        let tw = paint::text_width(title, 14.0, true);
        paint::text(img, title, (w as f32 - tw) / 2.0, 6.0, 14.0, true, ink);
        for i in 0..3 {
            let x = w - 26 * (i + 1);
            paint::fill_rounded(img, x, 6, 16, 16, 8.0, [200, 80, 70, 255]);
        }
        top = 28;
    }
    if c.menu_bar {
        let bar = [236, 236, 236, 255];
        paint::fill_rect(img, 0, top, w, 24, bar);
        paint::fill_rect(img, 0, top + 23, w, 1, [190, 190, 190, 255]);
        let mut x = 8.0;
        for item in ["Game", "Move", "Settings", "Help"] {
            x += paint::text(
                img,
                item,
                x,
                top as f32 + 4.0,
                13.0,
                false,
                [20, 20, 20, 255],
            ) + 16.0;
        }
    }
    let mut bottom = h;
    if c.score {
        let bar = if d.chance(0.5) {
            [236, 236, 236, 255]
        } else {
            [30, 30, 34, 255]
        };
        let ink = if bar[0] > 128 {
            [20, 20, 20, 255]
        } else {
            [230, 230, 230, 255]
        };
        paint::fill_rect(img, 0, h - 26, w, 26, bar);
        let score = format!(
            "Score: {}   Time: {:02}:{:02}   Tiles left: {}",
            d.below(5000),
            d.below(60),
            d.below(60),
            d.below(144)
        );
        paint::text(img, &score, 10.0, (h - 22) as f32, 13.0, false, ink);
        bottom = h - 26;
    }
    if c.side_panel {
        let x = area[2];
        let panel = random_colour(d, (0.2, 0.85));
        paint::fill_rect(img, x, area[1], w - x, area[3] - area[1], panel);
        paint::fill_rect(
            img,
            x,
            area[1],
            2,
            area[3] - area[1],
            paint::shade(panel, 0.6),
        );
        let ink = if panel[0] as u32 + panel[1] as u32 + panel[2] as u32 > 380 {
            [20, 20, 20, 255]
        } else {
            [240, 240, 240, 255]
        };
        let lines = [
            "Player 1".to_string(),
            format!("Level {}", d.between(1, 9)),
            format!("Best: {}", d.below(9000)),
            "Hints: 3".to_string(),
            "Shuffles: 2".to_string(),
        ];
        for (i, line) in lines.iter().enumerate() {
            paint::text(
                img,
                line,
                (x + 14) as f32,
                (area[1] + 20 + 26 * i as i64) as f32,
                15.0,
                i == 0,
                ink,
            );
        }
        paint::fill_rounded(
            img,
            x + 14,
            area[1] + 160,
            140,
            36,
            6.0,
            paint::shade(panel, 0.7),
        );
        paint::text(
            img,
            "New game",
            (x + 40) as f32,
            (area[1] + 169) as f32,
            15.0,
            true,
            ink,
        );
    }
    if c.buttons {
        let [tw, th] = recipe.tile.map(i64::from);
        let y = bottom - th - 12;
        let y = y.max(board[1] + board[3] + 12);
        let labels = ["Hint", "Undo", "Shuffle", "New"];
        let button = random_colour(d, (0.3, 0.8));
        let ink = if button[0] as u32 + button[1] as u32 + button[2] as u32 > 380 {
            [20, 20, 20, 255]
        } else {
            [245, 245, 245, 255]
        };
        let bw = (tw * 2).max(60);
        let mut x = board[0];
        for label in labels {
            if x + bw > area[2] {
                break;
            }
            paint::fill_rounded(img, x, y, bw, th, 4.0, button);
            paint::outline_rect(img, x, y, bw, th, 1, paint::shade(button, 0.6));
            let size = (th as f32 * 0.4).clamp(10.0, 18.0);
            let lw = paint::text_width(label, size, true);
            paint::text(
                img,
                label,
                x as f32 + (bw as f32 - lw) / 2.0,
                y as f32 + (th as f32 - size * 1.2) / 2.0,
                size,
                true,
                ink,
            );
            x += bw + 10;
        }
    }
}

fn draw_panel(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice, board: [i64; 4]) {
    let margin = i64::from(d.between(6, 18));
    let [x, y, w, h] = [
        board[0] - margin,
        board[1] - margin,
        board[2] + 2 * margin,
        board[3] + 2 * margin,
    ];
    match recipe.panel {
        Panel::None => {}
        Panel::Plain => {
            let colour = random_colour(d, (0.15, 0.85));
            paint::fill_rect(img, x, y, w, h, colour);
        }
        Panel::Texture => {
            let colour = random_colour(d, (0.2, 0.7));
            paint::fill_rect(img, x, y, w, h, colour);
            paint::noise(
                img,
                [x, y, w, h],
                d.between(2, 12),
                d.range(8.0, 30.0),
                d.bits(),
            );
            paint::outline_rect(img, x, y, w, h, 3, paint::shade(colour, 0.55));
        }
    }
}

fn draw_marks(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice, origin: [i64; 2]) {
    let [tw, th] = recipe.tile.map(i64::from);
    let gap = i64::from(recipe.gap);
    let (px, py) = (tw + gap, th + gap);
    let colour = if d.chance(0.5) {
        [0, 0, 0, 90]
    } else {
        [255, 255, 255, 90]
    };
    let (rows, cols) = (recipe.rows as i64, recipe.cols as i64);
    // Boundaries sit in the middle of the gaps (and as far outside the edge cells).
    let xs: Vec<i64> = (0..=cols)
        .map(|c| origin[0] + c * px - gap / 2 - 1)
        .collect();
    let ys: Vec<i64> = (0..=rows)
        .map(|r| origin[1] + r * py - gap / 2 - 1)
        .collect();
    match recipe.marks {
        Marks::None => {}
        Marks::Lines => {
            let (x0, x1) = (xs[0], xs[xs.len() - 1]);
            let (y0, y1) = (ys[0], ys[ys.len() - 1]);
            for &x in &xs {
                paint::fill_rect(img, x, y0, 1, y1 - y0 + 1, colour);
            }
            for &y in &ys {
                paint::fill_rect(img, x0, y, x1 - x0 + 1, 1, colour);
            }
        }
        Marks::Dots => {
            for &y in &ys {
                for &x in &xs {
                    paint::fill_rect(img, x - 1, y - 1, 3, 3, colour);
                }
            }
        }
    }
}

/// Colours of a flat tile, chosen once per scene.
struct TileLook {
    /// Paper colour of emoji tiles and of glyph tiles that share one colour.
    paper: Colour,
    /// Ink of glyph tiles.
    ink: Colour,
    /// Glyph used by every kind when kinds differ only by colour.
    shared_glyph: char,
    /// Colour of the selection's tint, border or outline.
    mark: Colour,
}

impl TileLook {
    fn new(recipe: &Recipe, d: &mut Dice) -> TileLook {
        let paper = match recipe.style {
            Style::Glyph(_) if recipe.dark_ink => random_colour(d, (0.75, 0.92)),
            Style::Glyph(_) => random_colour(d, (0.25, 0.5)),
            _ => random_colour(d, (0.8, 0.97)),
        };
        let ink = if recipe.dark_ink {
            [25, 25, 25, 255]
        } else {
            [255, 255, 255, 255]
        };
        let glyphs: Vec<char> = GLYPHS.chars().collect();
        TileLook {
            paper,
            ink,
            shared_glyph: glyphs[d.below(glyphs.len())],
            mark: d.pick(&[
                [255, 0, 0, 255],
                [0, 160, 255, 255],
                [0, 200, 0, 255],
                [255, 200, 0, 255],
            ]),
        }
    }
}

/// The side of the square an emoji is drawn in on a face (or cell) of `side` pixels.
fn emoji_size(side: f64, back: EmojiBack) -> f64 {
    let k = if back == EmojiBack::Alone { 0.95 } else { 0.78 };
    (side * k).round().max(4.0)
}

/// The face rectangle inside a body for the recipe's style and rim.
fn face_rect(recipe: &Recipe) -> [f64; 4] {
    let [tw, th] = recipe.tile.map(f64::from);
    match (recipe.style, recipe.rim) {
        (Style::Mahjong(set), _) => {
            let [fx, fy, fw, fh] = set.face_fraction();
            [fx * tw, fy * th, fw * tw, fh * th]
        }
        (Style::Emoji(EmojiBack::Alone), _) => {
            let size = emoji_size(tw.min(th), EmojiBack::Alone);
            [(tw - size) / 2.0, (th - size) / 2.0, size, size]
        }
        (_, Rim::Raised(depth)) => [0.0, 0.0, tw - f64::from(depth), th - f64::from(depth)],
        _ => [0.0, 0.0, tw, th],
    }
}

/// Draws one tile with its top-left body corner at `(x, y)`; returns its face rectangle
/// relative to the body.
#[allow(clippy::too_many_arguments)]
fn draw_tile(
    img: &mut RgbaImage,
    recipe: &Recipe,
    look: &TileLook,
    faces: &[usize],
    kind: Kind,
    x: i64,
    y: i64,
    selected: bool,
) -> [f64; 4] {
    let [tw, th] = recipe.tile;
    let index = kind as usize - 1;
    let art_index = faces[index];
    let face = face_rect(recipe);
    if let Style::Mahjong(set) = recipe.style {
        let own_art = selected && recipe.selection == Selection::Art;
        let tile = art::mahjong_tile(set, art_index, tw, th, own_art);
        paint::draw_image(img, &tile, x, y);
        return face;
    }
    let [fx, fy, fw, fh] = face.map(|v| v.round() as i64);
    let (x0, y0) = (x + fx, y + fy);
    let body_colour = match recipe.style {
        Style::Glyph(GlyphSet::ColourOnly) => TILE_COLOURS[art_index % TILE_COLOURS.len()],
        Style::Glyph(GlyphSet::Mixed) => TILE_COLOURS[index % TILE_COLOURS.len()],
        _ => look.paper,
    };
    let (tw_i, th_i) = (i64::from(tw), i64::from(th));
    let radius = recipe.corner as f32;
    match recipe.style {
        Style::Emoji(EmojiBack::Alone) => {}
        Style::Emoji(EmojiBack::Rounded) => {
            let edge = paint::shade(body_colour, 0.75);
            paint::fill_rounded(img, x, y, tw_i, th_i, radius, edge);
            paint::fill_rounded(img, x0 + 1, y0 + 1, fw - 2, fh - 2, radius, body_colour);
        }
        _ => {
            let edge = paint::shade(body_colour, 0.6);
            paint::fill_rounded(img, x, y, tw_i, th_i, radius, edge);
            paint::fill_rounded(img, x0, y0, fw, fh, radius, body_colour);
        }
    }
    if matches!(recipe.rim, Rim::Raised(_)) && recipe.corner == 0 {
        // A light edge on the face's top and left, like a bevel.
        let light = paint::shade(body_colour, 1.25);
        paint::fill_rect(img, x0, y0, fw, 1, light);
        paint::fill_rect(img, x0, y0, 1, fh, light);
    }
    let (cx, cy) = (x0 as f32 + fw as f32 / 2.0, y0 as f32 + fh as f32 / 2.0);
    match recipe.style {
        Style::Emoji(back) => {
            let size = if back == EmojiBack::Alone {
                fw.min(fh).max(4) as u32
            } else {
                emoji_size(fw.min(fh) as f64, back) as u32
            };
            let picture = art::emoji(art_index, size);
            let ex = (f64::from(cx) - f64::from(size) / 2.0).round() as i64;
            let ey = (f64::from(cy) - f64::from(size) / 2.0).round() as i64;
            paint::draw_image(img, &picture, ex, ey);
        }
        Style::Glyph(set) => {
            let blank = recipe.blank_kind && index + 1 == recipe.kinds;
            if !blank {
                let glyphs: Vec<char> = GLYPHS.chars().collect();
                let c = match set {
                    GlyphSet::ColourOnly => look.shared_glyph,
                    GlyphSet::GlyphOnly => glyphs[art_index % glyphs.len()],
                    GlyphSet::Mixed => {
                        let q = index / TILE_COLOURS.len();
                        glyphs[(q * 13 + index) % glyphs.len()]
                    }
                };
                let size = fh as f32 * 0.55;
                paint::centred_glyph(img, c, cx, cy, size, fw as f32 * 0.7, look.ink);
            }
        }
        Style::Mahjong(_) => {}
    }
    face
}

/// Marks the selected tile, its body at `(x, y)`, in the recipe's way and `mark` colour.
fn draw_selection(img: &mut RgbaImage, recipe: &Recipe, mark: Colour, x: i64, y: i64) {
    let [tw, th] = recipe.tile.map(i64::from);
    match recipe.selection {
        Selection::None | Selection::Art => {}
        Selection::Tint => paint::fill_rect(img, x, y, tw, th, [mark[0], mark[1], mark[2], 110]),
        Selection::Border => {
            let t = (tw / 14).max(2);
            paint::outline_rect(img, x, y, tw, th, t, mark);
        }
        Selection::Outline => paint::outline_rect(img, x - 3, y - 3, tw + 6, th + 6, 2, mark),
        Selection::Inverted => {
            for yy in y.max(0)..(y + th).min(i64::from(img.height())) {
                for xx in x.max(0)..(x + tw).min(i64::from(img.width())) {
                    let p = img.get_pixel_mut(xx as u32, yy as u32);
                    for i in 0..3 {
                        p[i] = 255 - p[i];
                    }
                }
            }
        }
    }
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
