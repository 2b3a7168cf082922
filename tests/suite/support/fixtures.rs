//! The real fixtures (`tests/fixtures/`): screenshots, their hand-checked grids, the comparison
//! of grids up to renaming.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use image::RgbaImage;
use linkup::board::Board;
use linkup::vision;

/// The repository's root, where `calibration/`, `templates/` and `tests/` are.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/fixtures/`.
pub fn fixtures_dir() -> PathBuf {
    root().join("tests/fixtures")
}

/// A file in `tests/fixtures/`, by its name there (`annotated/xshisen-fresh-8x18.png`).
pub fn fixture_path(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// A fixture's screenshot: `tests/fixtures/<stem>.png`.
pub fn load(stem: &str) -> RgbaImage {
    vision::load_image(&fixture_path(&format!("{stem}.png"))).unwrap()
}

/// The hand-checked grid of a fixture: `tests/fixtures/<stem>.grid.txt`.
pub fn grid(stem: &str) -> Board {
    let path = fixture_path(&format!("{stem}.grid.txt"));
    std::fs::read_to_string(path).unwrap().parse().unwrap()
}

/// A fixture's screenshot and grid.
pub fn fixture(stem: &str) -> (RgbaImage, Board) {
    (load(stem), grid(stem))
}

/// Whether two boards are the same up to a renaming of the kinds (empty stays empty).
pub fn same_up_to_renaming(a: &Board, b: &Board) -> bool {
    if (a.rows(), a.cols()) != (b.rows(), b.cols()) {
        return false;
    }
    let mut forward = HashMap::new();
    let mut backward = HashMap::new();
    a.cells().iter().zip(b.cells()).all(|(&x, &y)| {
        (x == 0) == (y == 0)
            && *forward.entry(x).or_insert(y) == y
            && *backward.entry(y).or_insert(x) == x
    })
}

/// A `width` x `height` screenshot with no board: one flat blue-grey.
pub fn no_board(width: u32, height: u32) -> RgbaImage {
    RgbaImage::from_pixel(width, height, image::Rgba([90, 120, 160, 255]))
}
