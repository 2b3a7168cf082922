//! Real tile art from Debian packages, rendered at any size and cached: KDE mahjong tilesets
//! (`kdegames-mahjongg-data-kf5`, SVG through resvg), GNOME Mahjongg's tile sheets
//! (`gnome-mahjongg`, unpacked by `.ci/install-deps`), Noto colour emoji
//! (`fonts-noto-color-emoji`, PNG bitmaps), and pictures: the KDE mahjongg backgrounds and
//! Debian's wallpapers (`desktop-base`, unpacked by `.ci/install-deps`).
//!
//! Every missing file panics with a message that names `.ci/install-deps`.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontVec};
use image::RgbaImage;
use image::imageops::{self, FilterType};
use resvg::{tiny_skia, usvg};

/// The KDE mahjong tilesets the generator uses (file stems under [`KDE_TILESETS_DIR`]).
pub const KDE_TILESETS: [&str; 6] = [
    "traditional",
    "egypt",
    "jade",
    "classic",
    "default",
    "alphabet",
];
/// Where `kdegames-mahjongg-data-kf5` puts the KDE tilesets.
pub const KDE_TILESETS_DIR: &str = "/usr/share/kmahjongglib/tilesets";
/// Where `kdegames-mahjongg-data-kf5` puts the KDE backgrounds.
pub const KDE_BACKGROUNDS_DIR: &str = "/usr/share/kmahjongglib/backgrounds";
/// The pictures behind boards: KDE mahjongg backgrounds (`kde-` and the file stem under
/// [`KDE_BACKGROUNDS_DIR`]) and Debian's desktop wallpapers (`debian-` and the file stem under
/// [`WALLPAPERS_DIR`]).
pub const PICTURES: [&str; 11] = [
    "kde-chinese_landscape",
    "kde-default",
    "kde-egyptian",
    "kde-summerfield",
    "kde-wood_light",
    "debian-emerald",
    "debian-futureprototype",
    "debian-homeworld",
    "debian-joy",
    "debian-moonlight",
    "debian-softwaves",
];
/// Where `.ci/install-deps` copies Debian's wallpapers (from `desktop-base`).
pub const WALLPAPERS_DIR: &str = "/usr/local/share/linkup-art/desktop-base";
/// GNOME Mahjongg's themes: tile sheets of 43 tiles by 2 rows (plain, selected).
pub const GNOME_THEMES: [&str; 3] = ["smooth", "edu_kang_xi", "postmodern"];
/// Where `.ci/install-deps` unpacks GNOME Mahjongg's themes.
pub const GNOME_THEMES_DIR: &str = "/usr/local/share/linkup-art/gnome-mahjongg/themes";
/// The colour emoji font.
pub const EMOJI_FONT: &str = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf";

/// The number of distinct-looking faces used from a mahjong tileset: the 34 suit and honour
/// faces, one season and one flower (some tilesets draw the four seasons, or the four flowers,
/// alike, as the game lets any two of them match).
pub const MAHJONG_FACES: usize = 36;

/// The tileset's own face number (0..42, KDE's element order and GNOME's sheet column) of
/// face `face` (0..[`MAHJONG_FACES`]).
fn tileset_face(face: usize) -> usize {
    match face {
        0..=34 => face,
        _ => 38,
    }
}

/// Single-codepoint emoji, distinct at a glance; those the font lacks are dropped at load.
const EMOJI: &str = "🍎🍊🍋🍉🍇🍓🍒🍑🍍🥝🍅🥕🌽🍄🌵🌲🌻🌹🐶🐱🐭🐹🐰🦊🐻🐼🐨🐯🦁🐮🐷🐸🐵🐔🐧🐦🐤🦆🦉🐴🦄🐝🐛🦋🐌🐞🐢🐍🐙🦀🐠🐬🐳⚽🏀🏈⚾🎾🎱🚗🚕🚌🚑🚒🚲🚀⭐🌙⛄🔥💧🎈🎁🔔🎵📷💡🔑";

/// Which mahjong tile art.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tileset {
    /// A KDE tileset by file stem.
    Kde(&'static str),
    /// A GNOME Mahjongg theme by file stem.
    Gnome(&'static str),
}

impl Tileset {
    /// `kde-jade`, `gnome-smooth`.
    pub fn name(self) -> String {
        match self {
            Tileset::Kde(n) => format!("kde-{n}"),
            Tileset::Gnome(n) => format!("gnome-{n}"),
        }
    }

    /// Body width over height of one tile as the art draws it.
    pub fn aspect(self) -> f64 {
        match self {
            Tileset::Kde(n) => {
                let m = kde_metrics(n);
                (m.level_offset[0] + m.face[0]) / (m.level_offset[1] + m.face[1])
            }
            Tileset::Gnome("postmodern") => 64.0 / 88.0,
            Tileset::Gnome(_) => 96.0 / 132.0,
        }
    }

    /// The face (the tile's top surface, where the picture is) inside a body, relative to the
    /// body: x, y, w, h as fractions of the body's width and height.
    ///
    /// A KDE tile element is the body with its drop shadow on the left and bottom
    /// (TileWidth = shadow + level offset + TileFaceWidth); the body is the level offset (the
    /// 3D side) and the face, which KMahjongg draws flush with the top right corner.
    pub fn face_fraction(self) -> [f64; 4] {
        match self {
            Tileset::Kde(n) => {
                let m = kde_metrics(n);
                let bw = m.level_offset[0] + m.face[0];
                let bh = m.level_offset[1] + m.face[1];
                [m.level_offset[0] / bw, 0.0, m.face[0] / bw, m.face[1] / bh]
            }
            // GNOME's tiles have their 3D side on the left and bottom; measured on the sheets.
            Tileset::Gnome("postmodern") => [7.0 / 64.0, 0.0, 57.0 / 64.0, 80.0 / 88.0],
            Tileset::Gnome(_) => [10.5 / 96.0, 0.0, 85.5 / 96.0, 120.5 / 132.0],
        }
    }
}

/// A KDE tileset's `.desktop` sizes (in the SVG's units).
#[derive(Clone, Copy, Debug)]
struct KdeMetrics {
    face: [f64; 2],
    level_offset: [f64; 2],
}

fn kde_metrics(name: &str) -> KdeMetrics {
    let path = format!("{KDE_TILESETS_DIR}/{name}.desktop");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| missing(&path, &e));
    let value = |key: &str| -> Option<f64> {
        text.lines()
            .find_map(|l| l.strip_prefix(key)?.strip_prefix('=')?.trim().parse().ok())
    };
    let level = value("LevelOffset");
    KdeMetrics {
        face: [
            value("TileFaceWidth").unwrap_or(69.0),
            value("TileFaceHeight").unwrap_or(89.0),
        ],
        level_offset: [
            value("LevelOffsetX").or(level).unwrap_or(12.0),
            value("LevelOffsetY").or(level).unwrap_or(12.0),
        ],
    }
}

fn missing(path: &str, e: &dyn std::fmt::Display) -> ! {
    panic!(
        "{path}: {e} (the generated screenshots need the art packages: sudo bash .ci/install-deps)"
    )
}

/// A cache from keys to shared values (pictures), filled on first use.
struct Cache<K, V = RgbaImage>(OnceLock<Mutex<HashMap<K, Arc<V>>>>);

impl<K: Eq + Hash + Clone, V> Cache<K, V> {
    const fn new() -> Self {
        Cache(OnceLock::new())
    }

    fn get(&self, key: &K, make: impl FnOnce() -> V) -> Arc<V> {
        let map = self.0.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(hit) = map.lock().unwrap_or_else(|p| p.into_inner()).get(key) {
            return Arc::clone(hit);
        }
        let made = Arc::new(make());
        map.lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key.clone())
            .or_insert(made)
            .clone()
    }
}

/// Parses an SVG or SVGZ file once (per path) and keeps the tree.
fn svg_tree(path: &str) -> Arc<usvg::Tree> {
    static TREES: OnceLock<Mutex<HashMap<String, Arc<usvg::Tree>>>> = OnceLock::new();
    let map = TREES.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = map.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(tree) = map.get(path) {
        return Arc::clone(tree);
    }
    let data = std::fs::read(path).unwrap_or_else(|e| missing(path, &e));
    let tree = usvg::Tree::from_data(&data, &usvg::Options::default())
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let tree = Arc::new(tree);
    map.insert(path.to_string(), Arc::clone(&tree));
    tree
}

/// A tiny-skia pixmap (premultiplied) as a straight-alpha `RgbaImage`.
fn pixmap_to_image(pixmap: &tiny_skia::Pixmap) -> RgbaImage {
    let mut out = RgbaImage::new(pixmap.width(), pixmap.height());
    for (p, q) in pixmap.pixels().iter().zip(out.pixels_mut()) {
        let c = p.demultiply();
        *q = image::Rgba([c.red(), c.green(), c.blue(), c.alpha()]);
    }
    out
}

/// Visible boxes of SVG elements by (tree address, element id, alpha threshold).
type ElementBounds = HashMap<(usize, String, u8), Option<[f32; 4]>>;

/// Renders the element `id` of `tree` with its visible part stretched to exactly `w` x `h`
/// pixels.
fn render_element(tree: &usvg::Tree, id: &str, w: u32, h: u32) -> Option<RgbaImage> {
    let node = tree.node_by_id(id)?;
    let [vx, vy, vw, vh] = visible_bounds(tree, id, FACE_ALPHA)?;
    let mut pixmap = tiny_skia::Pixmap::new(w.max(1), h.max(1))?;
    let view =
        tiny_skia::Transform::from_scale(w as f32 / vw, h as f32 / vh).pre_translate(-vx, -vy);
    render_mapped(node, view, &mut pixmap)?;
    Some(pixmap_to_image(&pixmap))
}

/// Renders `node` with `view` mapping canvas (SVG user) coordinates to the pixmap's pixels.
fn render_mapped(
    node: &usvg::Node,
    view: tiny_skia::Transform,
    pixmap: &mut tiny_skia::Pixmap,
) -> Option<()> {
    // resvg::render_node applies the node's own transform after moving its layer box to the
    // pixmap's corner; put the parents' transforms and that box back.
    let bbox = node.abs_layer_bounding_box()?;
    let own = match node {
        usvg::Node::Group(g) => g.transform(),
        _ => tiny_skia::Transform::identity(),
    };
    let parent = node.abs_transform().pre_concat(own.invert()?);
    let transform = view.pre_concat(parent).pre_translate(bbox.x(), bbox.y());
    resvg::render_node(node, transform, &mut pixmap.as_mut())
}

/// Pixels at least this opaque count as a face's art.
const FACE_ALPHA: u8 = 24;
/// Pixels at least this opaque count as a tile's body (its drop shadow is fainter).
const BODY_ALPHA: u8 = 250;
/// Any paint at all: the body with its shadow.
const ANY_ALPHA: u8 = 1;

/// The box (x, y, w, h in canvas coordinates) of the pixels element `id` paints with at least
/// `min_alpha`: its layer box can be far larger (empty groups, invisible helpers), so it is
/// measured on a rendering. Cached per tree, element and threshold.
fn visible_bounds(tree: &usvg::Tree, id: &str, min_alpha: u8) -> Option<[f32; 4]> {
    // Trees live as long as the program (kept by `svg_tree`), so their address names them.
    static BOUNDS: OnceLock<Mutex<ElementBounds>> = OnceLock::new();
    let key = (
        tree as *const usvg::Tree as usize,
        id.to_string(),
        min_alpha,
    );
    let map = BOUNDS.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(hit) = map.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return *hit;
    }
    let measured = (|| {
        let node = tree.node_by_id(id)?;
        let bbox = node.abs_layer_bounding_box()?;
        let k = (1024.0 / bbox.width().max(bbox.height())).clamp(0.25, 8.0);
        let (pw, ph) = (
            (bbox.width() * k).ceil() as u32,
            (bbox.height() * k).ceil() as u32,
        );
        let mut pixmap = tiny_skia::Pixmap::new(pw.max(1), ph.max(1))?;
        let view = tiny_skia::Transform::from_scale(k, k).pre_translate(-bbox.x(), -bbox.y());
        render_mapped(node, view, &mut pixmap)?;
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for (i, p) in pixmap.pixels().iter().enumerate() {
            if p.alpha() >= min_alpha {
                let (x, y) = (i as u32 % pw, i as u32 / pw);
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x + 1);
                y1 = y1.max(y + 1);
            }
        }
        (x1 > x0 && y1 > y0).then(|| {
            [
                bbox.x() + x0 as f32 / k,
                bbox.y() + y0 as f32 / k,
                (x1 - x0) as f32 / k,
                (y1 - y0) as f32 / k,
            ]
        })
    })();
    map.lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, measured);
    measured
}

/// KDE's face element id for face index `i` (0..42).
fn kde_face_id(i: usize) -> String {
    match i {
        0..=8 => format!("CHARACTER_{}", i + 1),
        9..=17 => format!("BAMBOO_{}", i - 8),
        18..=26 => format!("ROD_{}", i - 17),
        27..=30 => format!("WIND_{}", i - 26),
        31..=33 => format!("DRAGON_{}", i - 30),
        34..=37 => format!("SEASON_{}", i - 33),
        _ => format!("FLOWER_{}", i - 37),
    }
}

/// A rendered mahjong tile: its picture and where the body lies in it (the rest is the drop
/// shadow the art draws around the body).
pub struct MahjongTile {
    /// Body, face and shadow.
    pub image: RgbaImage,
    /// The body's top-left corner in `image`.
    pub body: [u32; 2],
}

impl MahjongTile {
    /// How far the shadow reaches beyond the body: left, top, right, bottom.
    pub fn shadow_margins(&self, w: u32, h: u32) -> [u32; 4] {
        let [x, y] = self.body;
        [
            x,
            y,
            self.image.width().saturating_sub(x + w),
            self.image.height().saturating_sub(y + h),
        ]
    }
}

/// A mahjong tile of `set` with face index `face` (0..[`MAHJONG_FACES`]) whose body is exactly
/// `w` x `h` pixels, in the tileset's own selected look when `selected`.
pub fn mahjong_tile(set: Tileset, face: usize, w: u32, h: u32, selected: bool) -> Arc<MahjongTile> {
    static TILES: Cache<(Tileset, usize, u32, u32, bool), MahjongTile> = Cache::new();
    TILES.get(&(set, face, w, h, selected), || match set {
        Tileset::Kde(name) => kde_tile(name, face, w, h, selected),
        Tileset::Gnome(name) => {
            let sheet = gnome_sheet(name, w, h);
            let row = u32::from(selected);
            let column = tileset_face(face) as u32;
            MahjongTile {
                image: imageops::crop_imm(&*sheet, column * w, row * h, w, h).to_image(),
                body: [0, 0],
            }
        }
    })
}

/// A KDE tile: the body element (TILE_1, or TILE_1_SEL) with its opaque part stretched to
/// `w` x `h` and its shadow around it, and the face art at its own scale, centred on the face.
fn kde_tile(name: &'static str, face: usize, w: u32, h: u32, selected: bool) -> MahjongTile {
    let path = format!("{KDE_TILESETS_DIR}/{name}.svgz");
    let tree = svg_tree(&path);
    let body_id = if selected { "TILE_1_SEL" } else { "TILE_1" };
    let node = tree
        .node_by_id(body_id)
        .unwrap_or_else(|| panic!("{path}: no element {body_id}"));
    let body = visible_bounds(&tree, body_id, BODY_ALPHA)
        .unwrap_or_else(|| panic!("{path}: {body_id} paints no opaque body"));
    let all = visible_bounds(&tree, body_id, ANY_ALPHA).unwrap_or(body);
    let (sx, sy) = (w as f32 / body[2], h as f32 / body[3]);
    let margin = |units: f32, scale: f32| (units * scale).ceil().max(0.0) as u32;
    let left = margin(body[0] - all[0], sx);
    let top = margin(body[1] - all[1], sy);
    let right = margin(all[0] + all[2] - body[0] - body[2], sx);
    let bottom = margin(all[1] + all[3] - body[1] - body[3], sy);
    let mut pixmap =
        tiny_skia::Pixmap::new(w + left + right, h + top + bottom).expect("a non-empty tile");
    let view = tiny_skia::Transform::from_translate(left as f32, top as f32)
        .pre_scale(sx, sy)
        .pre_translate(-body[0], -body[1]);
    render_mapped(node, view, &mut pixmap);
    let mut tile = pixmap_to_image(&pixmap);

    let id = kde_face_id(tileset_face(face));
    if tree.node_by_id(&id).is_none() {
        panic!("{path}: no element {id}");
    }
    let [fx, fy, fw, fh] = Tileset::Kde(name).face_fraction();
    let (face_w, face_h) = (fw * f64::from(w), fh * f64::from(h));
    // An element that paints nothing is a blank face (jade's white dragon).
    if let Some(art) = visible_bounds(&tree, &id, FACE_ALPHA) {
        // The art at the body's scale, shrunk (keeping its shape) if it would overflow.
        let (aw, ah) = (f64::from(art[2] * sx), f64::from(art[3] * sy));
        let k = (face_w / aw).min(face_h / ah).min(1.0);
        let (aw, ah) = (
            (aw * k).round().max(1.0) as u32,
            (ah * k).round().max(1.0) as u32,
        );
        if let Some(picture) = render_element(&tree, &id, aw, ah) {
            let cx = f64::from(left) + (fx + fw / 2.0) * f64::from(w);
            let cy = f64::from(top) + (fy + fh / 2.0) * f64::from(h);
            let x = (cx - f64::from(aw) / 2.0).round() as i64;
            let y = (cy - f64::from(ah) / 2.0).round() as i64;
            imageops::overlay(&mut tile, &picture, x, y);
        }
    }
    MahjongTile {
        image: tile,
        body: [left, top],
    }
}

/// GNOME Mahjongg's sheet for `name` resized so each tile is `w` x `h` (43 by 2 tiles).
fn gnome_sheet(name: &'static str, w: u32, h: u32) -> Arc<RgbaImage> {
    static SHEETS: Cache<(&'static str, u32, u32)> = Cache::new();
    SHEETS.get(&(name, w, h), || {
        let (sw, sh) = (43 * w, 2 * h);
        if name == "postmodern" {
            let path = format!("{GNOME_THEMES_DIR}/{name}.svg");
            let tree = svg_tree(&path);
            let size = tree.size();
            let mut pixmap = tiny_skia::Pixmap::new(sw, sh).expect("a non-empty sheet");
            let transform = tiny_skia::Transform::from_scale(
                sw as f32 / size.width(),
                sh as f32 / size.height(),
            );
            resvg::render(&tree, transform, &mut pixmap.as_mut());
            pixmap_to_image(&pixmap)
        } else {
            let path = format!("{GNOME_THEMES_DIR}/{name}.png");
            let full = gnome_png(name, &path);
            imageops::resize(&*full, sw, sh, FilterType::Lanczos3)
        }
    })
}

fn gnome_png(name: &'static str, path: &str) -> Arc<RgbaImage> {
    static PNGS: Cache<&'static str> = Cache::new();
    PNGS.get(&name, || {
        image::open(path)
            .unwrap_or_else(|e| missing(path, &e))
            .to_rgba8()
    })
}

/// The emoji font's characters that have a colour bitmap.
fn emoji_font() -> &'static (FontVec, Vec<char>) {
    static FONT: OnceLock<(FontVec, Vec<char>)> = OnceLock::new();
    FONT.get_or_init(|| {
        let bytes = std::fs::read(EMOJI_FONT).unwrap_or_else(|e| missing(EMOJI_FONT, &e));
        let font = FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{EMOJI_FONT}: {e}"));
        let chars = EMOJI
            .chars()
            .filter(|&c| {
                let id = font.glyph_id(c);
                id.0 != 0 && font.glyph_raster_image2(id, 128).is_some()
            })
            .collect();
        (font, chars)
    })
}

/// How many distinct emoji the generator can draw.
pub fn emoji_count() -> usize {
    emoji_font().1.len()
}

/// Emoji number `index` (0..[`emoji_count`]) scaled to fit `size` x `size`, centred, with
/// transparent surroundings.
pub fn emoji(index: usize, size: u32) -> Arc<RgbaImage> {
    static EMOJIS: Cache<(usize, u32)> = Cache::new();
    EMOJIS.get(&(index, size), || {
        let (font, chars) = emoji_font();
        let c = chars[index % chars.len()];
        let raster = font
            .glyph_raster_image2(font.glyph_id(c), 128)
            .unwrap_or_else(|| panic!("{EMOJI_FONT}: no bitmap for {c}"));
        let bitmap = image::load_from_memory(raster.data)
            .unwrap_or_else(|e| panic!("{EMOJI_FONT}: bitmap of {c}: {e}"))
            .to_rgba8();
        let (bw, bh) = bitmap.dimensions();
        let k = f64::from(size) / f64::from(bw.max(bh));
        let (nw, nh) = (
            (f64::from(bw) * k).round().max(1.0) as u32,
            (f64::from(bh) * k).round().max(1.0) as u32,
        );
        let small = imageops::resize(&bitmap, nw, nh, FilterType::Lanczos3);
        let mut out = RgbaImage::new(size, size);
        imageops::overlay(
            &mut out,
            &small,
            i64::from((size - nw) / 2),
            i64::from((size - nh) / 2),
        );
        out
    })
}

/// The picture `name` (one of [`PICTURES`]), made 1920x1080 once (rendered or resized to cover
/// it), cropped to `w` x `h` (frames are never larger) at `at`: the crop's place as fractions
/// of the room left and above (0.5, 0.5 is the centre).
pub fn background_picture(name: &'static str, w: u32, h: u32, at: [f64; 2]) -> RgbaImage {
    static FULL: Cache<&'static str> = Cache::new();
    let (fw, fh) = (1920u32, 1080u32);
    let full = FULL.get(&name, || {
        if let Some(stem) = name.strip_prefix("debian-") {
            let path = format!("{WALLPAPERS_DIR}/{stem}.png");
            let picture = image::open(&path)
                .unwrap_or_else(|e| missing(&path, &e))
                .to_rgba8();
            let (pw, ph) = picture.dimensions();
            if (pw, ph) == (fw, fh) {
                return picture;
            }
            let k = (f64::from(fw) / f64::from(pw)).max(f64::from(fh) / f64::from(ph));
            let (nw, nh) = (
                (f64::from(pw) * k).ceil() as u32,
                (f64::from(ph) * k).ceil() as u32,
            );
            let big = imageops::resize(&picture, nw, nh, FilterType::Triangle);
            return imageops::crop_imm(&big, (nw - fw) / 2, (nh - fh) / 2, fw, fh).to_image();
        }
        let stem = name.strip_prefix("kde-").unwrap_or(name);
        let path = format!("{KDE_BACKGROUNDS_DIR}/{stem}.svgz");
        let tree = svg_tree(&path);
        let size = tree.size();
        let k = (fw as f32 / size.width()).max(fh as f32 / size.height());
        let mut pixmap = tiny_skia::Pixmap::new(fw, fh).expect("a non-empty picture");
        pixmap.fill(tiny_skia::Color::from_rgba8(90, 90, 90, 255));
        resvg::render(
            &tree,
            tiny_skia::Transform::from_scale(k, k),
            &mut pixmap.as_mut(),
        );
        pixmap_to_image(&pixmap)
    });
    let (cw, ch) = (w.min(fw), h.min(fh));
    let x = (f64::from(fw - cw) * at[0].clamp(0.0, 1.0)).round() as u32;
    let y = (f64::from(fh - ch) * at[1].clamp(0.0, 1.0)).round() as u32;
    let crop = imageops::crop_imm(&*full, x, y, cw, ch).to_image();
    if (cw, ch) == (w, h) {
        crop
    } else {
        imageops::resize(&crop, w, h, FilterType::Triangle)
    }
}
