//! What a generated screenshot is made of: the [`Recipe`], every choice drawn from a seed by
//! [`Recipe::random`] and open to change before [`Recipe::render`](super::Recipe::render).

use linkup::random::SplitMix64;

use super::art::{self, Tileset};
use super::paint::Colour;

/// The seeded choices, a thin layer over the project's [`SplitMix64`].
pub struct Dice(SplitMix64);

impl Dice {
    /// Dice started from `seed`.
    pub fn new(seed: u64) -> Self {
        Dice(SplitMix64::new(seed))
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.0.below(u64::from(hi - lo) + 1) as u32
    }

    /// A fraction in `0..1`.
    pub fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A fraction in `lo..hi`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// One of `items`.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// Shuffles `items` uniformly ([`SplitMix64::shuffle`]).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        self.0.shuffle(items);
    }

    /// The next 64 random bits (to seed something else).
    pub fn bits(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A random pleasant colour: hue anywhere, saturation and lightness within `light`.
    pub fn colour(&mut self, light: (f64, f64)) -> Colour {
        let h = self.range(0.0, 6.0);
        let s = self.range(0.15, 0.7);
        let l = self.range(light.0, light.1);
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
}

/// The tile art.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// Mahjong tiles from a KDE tileset or a GNOME Mahjongg theme (3D bodies of their own).
    Mahjong(Tileset),
    /// Colour emoji on a tile or alone.
    Emoji(EmojiBack),
    /// Flat single-colour tiles with a letter, digit or symbol.
    Glyph(GlyphSet),
}

/// What an emoji sits on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmojiBack {
    /// A plain square tile.
    Plain,
    /// A rounded tile with a border.
    Rounded,
    /// Nothing: the emoji alone on the board (its cell is the body).
    Alone,
}

/// How flat glyph tiles tell their kinds apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlyphSet {
    /// One glyph, kinds differ only by tile colour.
    ColourOnly,
    /// One tile colour, kinds differ only by glyph.
    GlyphOnly,
    /// Colour and glyph both vary.
    Mixed,
}

/// The tile's edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rim {
    /// A flat tile, no shadow.
    Flat,
    /// A drawn 3D rim of `depth` pixels on the right and bottom (inside the body) and a drop
    /// shadow (outside it).
    Raised(u32),
    /// The tileset's own 3D body (mahjong art).
    Art,
}

/// Which cells hold tiles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// Every cell.
    Full,
    /// Pairs removed until about `keep` of the tiles are left.
    Sparse(f64),
    /// Sparse, and one edge row or column keeps a single tile.
    EdgeSingle(f64),
}

/// How kinds are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Four of each kind, like Shisen-Sho.
    Fours,
    /// Each kind an even count.
    Pairs,
}

/// The rectangle behind the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// No panel: the tiles sit on the surroundings.
    None,
    /// A plain rectangle of another colour.
    Plain,
    /// A textured (noisy) rectangle with a border.
    Texture,
}

/// Marks between cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marks {
    /// None.
    None,
    /// Thin grid lines between cells.
    Lines,
    /// Small dots at the cell corners.
    Dots,
}

/// The surroundings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Background {
    /// One colour.
    Solid,
    /// Top to bottom gradient.
    Vertical,
    /// Diagonal gradient.
    Diagonal,
    /// Smooth value noise.
    Noise,
    /// A picture, one of [`art::PICTURES`].
    Photo(&'static str),
}

/// The things around the board that are not tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clutter {
    /// A window title bar at the top.
    pub title_bar: bool,
    /// A menu bar with text.
    pub menu_bar: bool,
    /// Score and time text.
    pub score: bool,
    /// A side panel with text.
    pub side_panel: bool,
    /// Buttons about a tile's size with text.
    pub buttons: bool,
}

/// How the selected tile is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// No tile selected.
    None,
    /// A colour tint over the tile.
    Tint,
    /// A coloured border inside the body.
    Border,
    /// A coloured outline just outside the body.
    Outline,
    /// The tile's colours inverted.
    Inverted,
    /// The tileset's own selected art (mahjong styles).
    Art,
}

/// Everything a generated screenshot is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Recipe {
    /// The seed of the remaining random details (deal, colours, text).
    pub seed: u64,
    /// Tile art.
    pub style: Style,
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
    /// Tile body size before rescaling: width, height.
    pub tile: [u32; 2],
    /// Pixels between neighbouring bodies.
    pub gap: u32,
    /// The tile's edge.
    pub rim: Rim,
    /// How many kinds.
    pub kinds: usize,
    /// How kinds are counted.
    pub fill: Fill,
    /// Which cells hold tiles.
    pub layout: Layout,
    /// The rectangle behind the board.
    pub panel: Panel,
    /// Marks between cells.
    pub marks: Marks,
    /// The surroundings.
    pub background: Background,
    /// Title bar, menus, text, side panel, buttons.
    pub clutter: Clutter,
    /// Frame size before rescaling.
    pub frame: [u32; 2],
    /// Board centred in its area (else placed off-centre).
    pub centred: bool,
    /// How the selected tile is shown.
    pub selection: Selection,
    /// Corner radius of flat tiles in pixels before rescaling (0 square).
    pub corner: u32,
    /// A blank-faced kind (a tile with no face art) among the kinds (glyph style).
    pub blank_kind: bool,
    /// Dark ink on light tiles (glyph style), else white ink.
    pub dark_ink: bool,
    /// The whole frame rescaled by this factor (1 none, 2 HiDPI).
    pub scale: f64,
    /// JPEG quality the frame went through, if any.
    pub jpeg: Option<u8>,
    /// Brightness factor (1 unchanged).
    pub brightness: f64,
    /// Contrast factor (1 unchanged).
    pub contrast: f64,
}

/// Every style name the generator can choose (as in the `style:` label).
pub fn all_styles() -> Vec<Style> {
    let mut out: Vec<Style> = art::KDE_TILESETS
        .iter()
        .map(|&n| Style::Mahjong(Tileset::Kde(n)))
        .collect();
    out.extend(
        art::GNOME_THEMES
            .iter()
            .map(|&n| Style::Mahjong(Tileset::Gnome(n))),
    );
    out.extend([EmojiBack::Plain, EmojiBack::Rounded, EmojiBack::Alone].map(Style::Emoji));
    out.extend([GlyphSet::ColourOnly, GlyphSet::GlyphOnly, GlyphSet::Mixed].map(Style::Glyph));
    out
}

impl Style {
    /// `kde-jade`, `gnome-smooth`, `emoji-rounded`, `glyph-colour`.
    pub fn name(self) -> String {
        match self {
            Style::Mahjong(set) => set.name(),
            Style::Emoji(EmojiBack::Plain) => "emoji-plain".into(),
            Style::Emoji(EmojiBack::Rounded) => "emoji-rounded".into(),
            Style::Emoji(EmojiBack::Alone) => "emoji-alone".into(),
            Style::Glyph(GlyphSet::ColourOnly) => "glyph-colour".into(),
            Style::Glyph(GlyphSet::GlyphOnly) => "glyph-shape".into(),
            Style::Glyph(GlyphSet::Mixed) => "glyph-mixed".into(),
        }
    }

    /// How many distinct kinds the art can show.
    pub fn max_kinds(self) -> usize {
        match self {
            Style::Mahjong(_) => art::MAHJONG_FACES,
            Style::Emoji(_) => art::emoji_count(),
            Style::Glyph(GlyphSet::ColourOnly) => super::tile::TILE_COLOURS.len(),
            Style::Glyph(GlyphSet::GlyphOnly) => super::tile::GLYPHS.chars().count(),
            Style::Glyph(GlyphSet::Mixed) => 60,
        }
    }

    /// Body width over height the style prefers, if it insists on one.
    fn aspect(self) -> Option<f64> {
        match self {
            Style::Mahjong(set) => Some(set.aspect()),
            _ => None,
        }
    }
}

/// Board sizes (rows, cols) the generator picks from; real games use most of them.
const BOARDS: [(usize, usize); 14] = [
    (4, 6),
    (5, 8),
    (6, 8),
    (6, 10),
    (6, 14),
    (7, 12),
    (8, 12),
    (8, 14),
    (8, 16),
    (8, 18),
    (9, 16),
    (10, 16),
    (10, 20),
    (12, 24),
];

/// Frame sizes before rescaling.
const FRAMES: [[u32; 2]; 9] = [
    [500, 400],
    [640, 480],
    [800, 600],
    [960, 600],
    [1024, 768],
    [1280, 800],
    [1366, 768],
    [1600, 900],
    [1920, 1080],
];

impl Recipe {
    /// A recipe drawn from `seed`: every choice (style, board, sizes, surroundings, clutter,
    /// selection, transforms) made so that a few hundred seeds cover each many times.
    pub fn random(seed: u64) -> Recipe {
        Recipe::draw(seed, None)
    }

    /// A recipe drawn from `seed` like [`Recipe::random`] but in `style` (the kinds, tile
    /// shape and rim follow from it). The other public fields can then be changed at will:
    /// `Recipe { scale: 2.0, ..Recipe::random_in_style(7, style) }` is "this style, HiDPI".
    pub fn random_in_style(seed: u64, style: Style) -> Recipe {
        Recipe::draw(seed, Some(style))
    }

    fn draw(seed: u64, forced_style: Option<Style>) -> Recipe {
        let mut d = Dice::new(seed ^ 0x5eed_0f5c_3ee5);
        let styles = all_styles();
        let drawn = styles[d.below(styles.len())];
        let style = forced_style.unwrap_or(drawn);
        let (rows, cols) = d.pick(&BOARDS);
        let gap = if d.chance(0.3) { 0 } else { d.between(1, 8) };
        let rim = Rim::random(&mut d, style);
        let aspect = style.aspect().unwrap_or_else(|| {
            if d.chance(0.5) {
                1.0
            } else {
                d.range(0.72, 0.9)
            }
        });
        let clutter = Clutter::random(&mut d);
        let wanted_width = d.between(24, 80);
        let frame_pick = d.below(FRAMES.len());
        let (tile, frame) = fit(rows, cols, wanted_width, aspect, gap, clutter, frame_pick);
        let (fill, kinds) = Fill::random(&mut d, style, rows * cols);
        let layout = Layout::random(&mut d);
        let panel = d.pick(&[Panel::None, Panel::Plain, Panel::Texture]);
        let marks = Marks::random(&mut d);
        let background = Background::random(&mut d);
        let selection = Selection::random(&mut d, style);
        let scale = match d.below(6) {
            0 | 1 => 1.0,
            2 if frame[0] <= 1024 && frame[1] <= 800 => 2.0,
            _ => d.range(0.8, 1.25),
        };
        let jpeg = if d.chance(0.4) {
            Some(d.between(40, 90) as u8)
        } else {
            None
        };
        let (brightness, contrast) = if d.chance(0.4) {
            (d.range(0.8, 1.2), d.range(0.8, 1.2))
        } else {
            (1.0, 1.0)
        };
        Recipe {
            seed: d.bits(),
            style,
            rows,
            cols,
            tile,
            gap,
            rim,
            kinds,
            fill,
            layout,
            panel,
            marks,
            background,
            clutter,
            frame,
            centred: d.chance(0.6),
            selection,
            corner: corner_radius(&mut d, style, tile),
            blank_kind: matches!(style, Style::Glyph(_)) && d.chance(0.4),
            dark_ink: d.chance(0.3),
            scale,
            jpeg,
            brightness,
            contrast,
        }
    }

    /// Short labels of the choices, for the per-variation report: `style:kde-jade`, `gap:3`,
    /// `rim:3d`, `bg:photo`, `scale:0.8`, `jpeg:50`, `selection:tint`, `board:sparse`, ...
    pub fn labels(&self) -> Vec<String> {
        let family = match self.style {
            Style::Mahjong(Tileset::Kde(_)) => "kde",
            Style::Mahjong(Tileset::Gnome(_)) => "gnome",
            Style::Emoji(_) => "emoji",
            Style::Glyph(_) => "glyph",
        };
        let mut out = vec![
            format!("style:{}", self.style.name()),
            format!("family:{family}"),
        ];
        out.extend(self.tile_labels());
        out.extend(self.board_labels());
        out.extend(self.surroundings_labels());
        out.extend(self.look_labels());
        out.extend(self.frame_labels());
        out
    }

    /// The tile's gap, rim, shape and size.
    fn tile_labels(&self) -> Vec<String> {
        let gap = match self.gap {
            0 => "0",
            1..=3 => "1-3",
            _ => "4-8",
        };
        let rim = match self.rim {
            Rim::Flat => "rim:flat",
            Rim::Raised(_) => "rim:drawn-3d",
            Rim::Art => "rim:art-3d",
        };
        let aspect = f64::from(self.tile[0]) / f64::from(self.tile[1]);
        let shape = if aspect > 0.97 {
            "shape:square"
        } else {
            "shape:tall"
        };
        let size = match self.tile[0].min(self.tile[1]) {
            0..=31 => "tile:small",
            32..=55 => "tile:medium",
            _ => "tile:large",
        };
        vec![format!("gap:{gap}"), rim.into(), shape.into(), size.into()]
    }

    /// The board's size, layout, fill and place.
    fn board_labels(&self) -> Vec<String> {
        let layout = match self.layout {
            Layout::Full => "board:full",
            Layout::Sparse(_) => "board:sparse",
            Layout::EdgeSingle(_) => "board:edge-single",
        };
        let fill = match self.fill {
            Fill::Fours => "fill:fours",
            Fill::Pairs => "fill:pairs",
        };
        let place = if self.centred {
            "place:centred"
        } else {
            "place:off-centre"
        };
        vec![
            format!("board:{}x{}", self.rows, self.cols),
            layout.into(),
            fill.into(),
            place.into(),
        ]
    }

    /// The panel, grid marks, background and each piece of clutter (or `clutter:none`).
    fn surroundings_labels(&self) -> Vec<String> {
        let panel = match self.panel {
            Panel::None => "panel:none",
            Panel::Plain => "panel:plain",
            Panel::Texture => "panel:texture",
        };
        let marks = match self.marks {
            Marks::None => "marks:none",
            Marks::Lines => "marks:lines",
            Marks::Dots => "marks:dots",
        };
        let background = match self.background {
            Background::Solid => "bg:solid",
            Background::Vertical => "bg:vgradient",
            Background::Diagonal => "bg:dgradient",
            Background::Noise => "bg:noise",
            Background::Photo(_) => "bg:photo",
        };
        let mut out = vec![panel.into(), marks.into(), background.into()];
        let c = self.clutter;
        for (on, name) in [
            (c.title_bar, "clutter:title-bar"),
            (c.menu_bar, "clutter:menu-bar"),
            (c.score, "clutter:score"),
            (c.side_panel, "clutter:side-panel"),
            (c.buttons, "clutter:buttons"),
        ] {
            if on {
                out.push(name.into());
            }
        }
        if c == Clutter::default() {
            out.push("clutter:none".into());
        }
        out
    }

    /// The selection, and the corners, blank kind and ink of the styles that vary them.
    fn look_labels(&self) -> Vec<String> {
        let selection = match self.selection {
            Selection::None => "selection:none",
            Selection::Tint => "selection:tint",
            Selection::Border => "selection:border",
            Selection::Outline => "selection:outline",
            Selection::Inverted => "selection:inverted",
            Selection::Art => "selection:art",
        };
        let mut out = vec![selection.to_string()];
        if matches!(
            self.style,
            Style::Glyph(_) | Style::Emoji(EmojiBack::Plain | EmojiBack::Rounded)
        ) {
            out.push(
                if self.corner > 0 {
                    "corners:round"
                } else {
                    "corners:square"
                }
                .into(),
            );
        }
        if self.blank_kind {
            out.push("kind:blank".into());
        }
        if matches!(self.style, Style::Glyph(_)) {
            out.push(
                if self.dark_ink {
                    "ink:dark"
                } else {
                    "ink:light"
                }
                .into(),
            );
        }
        out
    }

    /// The frame's transforms (scale, JPEG, colour shift) and its size before them.
    fn frame_labels(&self) -> Vec<String> {
        let scale = if self.scale == 1.0 {
            "scale:1"
        } else if self.scale == 2.0 {
            "scale:2"
        } else if self.scale < 1.0 {
            "scale:0.8-1"
        } else {
            "scale:1-1.25"
        };
        let jpeg = match self.jpeg {
            None => "jpeg:none",
            Some(q) if q < 65 => "jpeg:40-64",
            Some(_) => "jpeg:65-90",
        };
        let mut out = vec![scale.to_string(), jpeg.into()];
        if self.brightness != 1.0 || self.contrast != 1.0 {
            out.push("colour:shifted".into());
        }
        let [w, h] = self.frame;
        out.push(format!("frame:{w}x{h}"));
        out
    }
}

impl Rim {
    /// The rim a `style` gets: the art's own for mahjong, flat for lone emoji, else drawn 3D
    /// (2..=5 pixels) or flat at even odds.
    fn random(d: &mut Dice, style: Style) -> Rim {
        match style {
            Style::Mahjong(_) => Rim::Art,
            Style::Emoji(EmojiBack::Alone) => Rim::Flat,
            _ if d.chance(0.5) => Rim::Raised(d.between(2, 5)),
            _ => Rim::Flat,
        }
    }
}

impl Clutter {
    /// Each piece of clutter on or off at its own odds.
    fn random(d: &mut Dice) -> Clutter {
        Clutter {
            title_bar: d.chance(0.5),
            menu_bar: d.chance(0.4),
            score: d.chance(0.5),
            side_panel: d.chance(0.3),
            buttons: d.chance(0.35),
        }
    }
}

impl Fill {
    /// How `cells` cells of `style` are filled, and with how many kinds: fours of `cells / 4`
    /// kinds (half the time, where the art has that many), else pairs of a number of kinds
    /// between `cells / 12` and what the art and the board hold.
    fn random(d: &mut Dice, style: Style, cells: usize) -> (Fill, usize) {
        let max_kinds = style.max_kinds();
        if cells % 4 == 0 && cells / 4 <= max_kinds && d.chance(0.5) {
            return (Fill::Fours, cells / 4);
        }
        let hi = max_kinds.min(cells / 2).max(2);
        let lo = (cells / 12).clamp(2, hi);
        (Fill::Pairs, lo + d.below(hi - lo + 1))
    }
}

impl Layout {
    /// Full half the time, else sparse or with single tiles along an edge.
    fn random(d: &mut Dice) -> Layout {
        match d.below(6) {
            0..=2 => Layout::Full,
            3 | 4 => Layout::Sparse(d.range(0.15, 0.8)),
            _ => Layout::EdgeSingle(d.range(0.3, 0.8)),
        }
    }
}

impl Marks {
    /// No marks half the time, else lines or dots.
    fn random(d: &mut Dice) -> Marks {
        match d.below(4) {
            0 => Marks::Lines,
            1 => Marks::Dots,
            _ => Marks::None,
        }
    }
}

impl Background {
    /// A photo a third of the time, else solid, a gradient or noise.
    fn random(d: &mut Dice) -> Background {
        match d.below(6) {
            0 => Background::Solid,
            1 => Background::Vertical,
            2 => Background::Diagonal,
            3 => Background::Noise,
            _ => Background::Photo(d.pick(&art::PICTURES)),
        }
    }
}

impl Selection {
    /// None two times in seven, else one of the ways of showing it (the art's own only for
    /// mahjong styles, tint in its place for the others).
    fn random(d: &mut Dice, style: Style) -> Selection {
        match d.below(7) {
            0 | 1 => Selection::None,
            2 => Selection::Tint,
            3 => Selection::Border,
            4 => Selection::Outline,
            5 => Selection::Inverted,
            _ if matches!(style, Style::Mahjong(_)) => Selection::Art,
            _ => Selection::Tint,
        }
    }
}

/// The corner radius of a `style` tile `tile` wide: a sixth of the width for rounded emoji
/// backs, sometimes round for plain emoji and glyphs, else square.
fn corner_radius(d: &mut Dice, style: Style, tile: [u32; 2]) -> u32 {
    match style {
        Style::Emoji(EmojiBack::Rounded) => tile[0] / 6,
        Style::Emoji(EmojiBack::Plain) | Style::Glyph(_) if d.chance(0.5) => {
            d.between(2, (tile[0] / 5).max(2))
        }
        _ => 0,
    }
}

/// Extra room the clutter takes: left, top, right, bottom.
pub fn clutter_margins(clutter: Clutter, tile: [u32; 2]) -> [u32; 4] {
    let top = if clutter.title_bar { 28 } else { 0 } + if clutter.menu_bar { 24 } else { 0 };
    let bottom =
        if clutter.score { 26 } else { 0 } + if clutter.buttons { tile[1] + 24 } else { 0 };
    let right = if clutter.side_panel { 180 } else { 0 };
    [0, top, right, bottom]
}

/// The tile size (near `wanted_width` wide, 24..80) and the frame (from [`FRAMES`], at least
/// `frame_pick` unless a larger one is needed) that hold the board with its surroundings.
fn fit(
    rows: usize,
    cols: usize,
    wanted_width: u32,
    aspect: f64,
    gap: u32,
    clutter: Clutter,
    frame_pick: usize,
) -> ([u32; 2], [u32; 2]) {
    let size = |w: u32| -> [u32; 2] {
        let h = (f64::from(w) / aspect).round() as u32;
        [w, h]
    };
    let needs = |tile: [u32; 2]| -> [u32; 2] {
        let [l, t, r, b] = clutter_margins(clutter, tile);
        let bw = cols as u32 * (tile[0] + gap) + 40;
        let bh = rows as u32 * (tile[1] + gap) + 40;
        [bw + l + r, bh + t + b]
    };
    let mut w = wanted_width.clamp(24, 80);
    loop {
        let tile = size(w);
        let [nw, nh] = needs(tile);
        let found = FRAMES[frame_pick..]
            .iter()
            .chain(FRAMES.iter())
            .find(|f| f[0] >= nw && f[1] >= nh);
        if let Some(&frame) = found {
            return (tile, frame);
        }
        if w <= 16 {
            return (tile, [nw.max(500), nh.max(400)]);
        }
        w -= 1;
    }
}
