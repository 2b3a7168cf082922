//! Tiles: the art of each kind, how a tile of each style is drawn with its face rectangle, and
//! how the selected tile is marked.

use image::RgbaImage;
use linkup::board::Kind;

use super::art;
use super::paint::{self, Colour};
use super::recipe::{Dice, EmojiBack, GlyphSet, Recipe, Rim, Selection, Style};

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

/// The art index of each kind (index `kind - 1`): distinct, drawn at random.
fn face_indices(recipe: &Recipe, d: &mut Dice) -> Vec<usize> {
    let max = recipe.style.max_kinds();
    let mut all: Vec<usize> = (0..max).collect();
    d.shuffle(&mut all);
    (0..recipe.kinds).map(|i| all[i % max]).collect()
}
/// How a scene's tiles look, chosen once per scene: each kind's art, and the colours of flat
/// tiles.
pub struct TileLook {
    /// The art index of each kind (index `kind - 1`).
    faces: Vec<usize>,
    /// Paper colour of emoji tiles and of glyph tiles that share one colour.
    paper: Colour,
    /// Ink of glyph tiles.
    ink: Colour,
    /// Glyph used by every kind when kinds differ only by colour.
    shared_glyph: char,
    /// Colour of the selection's tint, border or outline.
    pub mark: Colour,
}

impl TileLook {
    /// The art of `recipe`'s kinds and the colours and shared glyph of its flat tiles.
    pub fn new(recipe: &Recipe, d: &mut Dice) -> TileLook {
        let faces = face_indices(recipe, d);
        let paper = match recipe.style {
            Style::Glyph(_) if recipe.dark_ink => d.colour((0.75, 0.92)),
            Style::Glyph(_) => d.colour((0.25, 0.5)),
            _ => d.colour((0.8, 0.97)),
        };
        let ink = if recipe.dark_ink {
            [25, 25, 25, 255]
        } else {
            [255, 255, 255, 255]
        };
        let glyphs: Vec<char> = GLYPHS.chars().collect();
        TileLook {
            faces,
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
pub fn face_rect(recipe: &Recipe) -> [f64; 4] {
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

/// Draws one tile of `kind` with its top-left body corner at `(x, y)` (in the tileset's own
/// selected look when `selected` and the recipe asks for it).
pub fn draw_tile(
    img: &mut RgbaImage,
    recipe: &Recipe,
    look: &TileLook,
    kind: Kind,
    x: i64,
    y: i64,
    selected: bool,
) {
    let [tw, th] = recipe.tile;
    let index = kind as usize - 1;
    let art_index = look.faces[index];
    let face = face_rect(recipe);
    if let Style::Mahjong(set) = recipe.style {
        let own_art = selected && recipe.selection == Selection::Art;
        let tile = art::mahjong_tile(set, art_index, tw, th, own_art);
        let [bx, by] = tile.body.map(i64::from);
        paint::draw_image(img, &tile.image, x - bx, y - by);
        return;
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
}

/// Marks the selected tile, its body at `(x, y)`, in the recipe's way and `mark` colour.
pub fn draw_selection(img: &mut RgbaImage, recipe: &Recipe, mark: Colour, x: i64, y: i64) {
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

/// How far a tile's drop shadow reaches beyond its body (before rescaling): left, top, right,
/// bottom.
pub fn shadow_margins(recipe: &Recipe) -> [u32; 4] {
    let [tw, th] = recipe.tile;
    match (recipe.style, recipe.rim) {
        (Style::Mahjong(set), _) => art::mahjong_tile(set, 0, tw, th, false).shadow_margins(tw, th),
        (_, Rim::Raised(depth)) => [0, 0, depth + 1, depth + 1],
        _ => [0; 4],
    }
}
