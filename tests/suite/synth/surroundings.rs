//! The surroundings of the board: background (solid, gradients, noise, pictures), the clutter
//! that is not tiles (title bar, menu bar, score text, side panel, buttons), the board panel and
//! the grid marks.

use image::RgbaImage;
use image::imageops;

use super::art;
use super::paint;
use super::recipe::{Background, Dice, Marks, Panel, Recipe};

/// Fills the frame with the recipe's background.
pub fn draw_background(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice) {
    let a = d.colour((0.1, 0.8));
    let b = d.colour((0.1, 0.8));
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
            let at = [d.unit(), d.unit()];
            let picture = art::background_picture(name, img.width(), img.height(), at);
            imageops::replace(img, &picture, 0, 0);
        }
    }
}

/// Title bar, menu bar, score text, side panel and buttons, outside the board's rectangle.
pub fn draw_clutter(
    img: &mut RgbaImage,
    recipe: &Recipe,
    d: &mut Dice,
    area: [i64; 4],
    board: [i64; 4],
) {
    let c = recipe.clutter;
    let top = if c.title_bar {
        draw_title_bar(img, d)
    } else {
        0
    };
    if c.menu_bar {
        draw_menu_bar(img, top);
    }
    let bottom = if c.score {
        draw_score_bar(img, d)
    } else {
        i64::from(img.height())
    };
    if c.side_panel {
        draw_side_panel(img, d, area);
    }
    if c.buttons {
        draw_buttons(img, recipe, d, area, board, bottom);
    }
}

/// A window title bar, dark or light, with a game's name and three buttons; returns its height.
fn draw_title_bar(img: &mut RgbaImage, d: &mut Dice) -> i64 {
    let w = i64::from(img.width());
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
    28
}

/// A light menu bar with four items, its top at `top`.
fn draw_menu_bar(img: &mut RgbaImage, top: i64) {
    let w = i64::from(img.width());
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

/// A score line along the bottom, light or dark; returns the y where it starts.
fn draw_score_bar(img: &mut RgbaImage, d: &mut Dice) -> i64 {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
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
    h - 26
}

/// A side panel right of `area` with a player's lines and a "New game" button.
fn draw_side_panel(img: &mut RgbaImage, d: &mut Dice, area: [i64; 4]) {
    let w = i64::from(img.width());
    let x = area[2];
    let panel = d.colour((0.2, 0.85));
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

/// A row of tile-high buttons under the board (above the score line when there is room),
/// from the board's left edge while they fit in `area`.
fn draw_buttons(
    img: &mut RgbaImage,
    recipe: &Recipe,
    d: &mut Dice,
    area: [i64; 4],
    board: [i64; 4],
    bottom: i64,
) {
    let [tw, th] = recipe.tile.map(i64::from);
    let y = bottom - th - 12;
    let y = y.max(board[1] + board[3] + 12);
    let labels = ["Hint", "Undo", "Shuffle", "New"];
    let button = d.colour((0.3, 0.8));
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

/// Draws the panel (if any) a few pixels larger than `board` (x, y, w, h).
pub fn draw_panel(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice, board: [i64; 4]) {
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
            let colour = d.colour((0.15, 0.85));
            paint::fill_rect(img, x, y, w, h, colour);
        }
        Panel::Texture => {
            let colour = d.colour((0.2, 0.7));
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

/// Draws grid lines or dots (if any) on the cell boundaries, in the middle of the gaps.
pub fn draw_marks(img: &mut RgbaImage, recipe: &Recipe, d: &mut Dice, origin: [i64; 2]) {
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
