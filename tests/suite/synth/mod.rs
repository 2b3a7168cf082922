//! Generated link-up screenshots with exact truth, deterministic from a seed.
//!
//! [`scene`] draws a frame the way a real game might (KDE and GNOME mahjong tiles, emoji, flat
//! letter tiles; gaps, rims, panels, grid marks, photos, clutter, a selected tile) and then
//! rescales it, passes it through JPEG and shifts its colours, keeping the true geometry, grid
//! and selection exact. [`Recipe::random`] draws the choices; a test can change any of them
//! before [`Recipe::render`].

pub mod art;
pub mod paint;
pub mod recipe;
pub mod scene;
pub mod score;
pub mod surroundings;
pub mod tile;

use image::RgbaImage;
use linkup::board::{Board, Pos};
use linkup::vision::Geometry;

// The recipe's choices, for tests that force them (this binary does not name them all).
#[allow(unused_imports)]
pub use recipe::{
    Background, Clutter, EmojiBack, Fill, GlyphSet, Layout, Marks, Panel, Recipe, Rim, Selection,
    Style,
};

/// A generated screenshot and its truth.
#[derive(Clone, Debug)]
pub struct Scene {
    /// The final frame, after every transform.
    pub image: RgbaImage,
    /// The board's place in `image`'s pixels: `origin` is the top-left of tile (0, 0)'s body
    /// (3D rim included, drop shadow excluded), `tile_size` the body's size.
    pub geometry: Geometry,
    /// The face rectangle inside a body, relative to the body: x, y, w, h.
    pub face: [f64; 4],
    /// The truth grid: 0 empty, kinds 1..K.
    pub board: Board,
    /// The tile shown selected, if any.
    pub selected: Option<Pos>,
    /// Everything chosen to draw it.
    pub recipe: Recipe,
}

/// The scene of `seed`: the same seed gives the same pixels on every machine.
pub fn scene(seed: u64) -> Scene {
    Recipe::random(seed).render()
}

impl Recipe {
    /// Draws this recipe.
    pub fn render(&self) -> Scene {
        scene::render(self)
    }
}

impl Scene {
    /// The truth as text: labels, geometry, face, selection and the grid, one row a line.
    pub fn truth_text(&self) -> String {
        let g = &self.geometry;
        let mut out = String::new();
        out.push_str(&format!("labels: {}\n", self.recipe.labels().join(" ")));
        out.push_str(&format!(
            "rows: {}\ncols: {}\norigin: {:.3} {:.3}\npitch: {:.3} {:.3}\ntile_size: {:.3} {:.3}\n",
            g.rows,
            g.cols,
            g.origin[0],
            g.origin[1],
            g.pitch[0],
            g.pitch[1],
            g.tile_size[0],
            g.tile_size[1]
        ));
        out.push_str(&format!(
            "face: {:.3} {:.3} {:.3} {:.3}\n",
            self.face[0], self.face[1], self.face[2], self.face[3]
        ));
        match self.selected {
            Some(p) => out.push_str(&format!("selected: {} {}\n", p.row, p.col)),
            None => out.push_str("selected: none\n"),
        }
        out.push_str("grid:\n");
        out.push_str(&self.board.to_string());
        out
    }

    /// Writes `DIR/seed-N.png` and `DIR/seed-N.txt` (the truth, then `note`).
    pub fn dump(&self, dir: &std::path::Path, seed: u64, note: &str) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        self.image
            .save(dir.join(format!("seed-{seed}.png")))
            .map_err(std::io::Error::other)?;
        std::fs::write(
            dir.join(format!("seed-{seed}.txt")),
            format!("{}{note}", self.truth_text()),
        )
    }
}
