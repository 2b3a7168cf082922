//! The selected tile is found on the real games' screenshots, also after the transformations a
//! screenshot goes through, and nothing is reported selected where nothing is.

use image::RgbaImage;
use linkup::board::Pos;
use linkup::vision::{self, ClassifierSettings};

use crate::support::{brightness, calibrate_and_read, fixtures_dir, jpeg, load, rescale};

/// Calibrates, reads and reports the selected tiles.
fn selected(image: &RgbaImage) -> Vec<Pos> {
    let (geometry, reading) = calibrate_and_read(image);
    let settings = ClassifierSettings::default();
    vision::selected_tiles(image, &geometry, &settings, &reading.board)
}

#[test]
fn the_selected_tile_is_found_in_both_games() {
    for (stem, cell) in [
        ("xshisen-selected-8x18", Pos::new(0, 3)),
        ("kshisen-selected-8x18", Pos::new(0, 9)),
    ] {
        let image = load(stem);
        let copies: Vec<(&str, RgbaImage)> = vec![
            ("as captured", image.clone()),
            ("JPEG 70", jpeg(&image, 70)),
            ("brightness 0.9", brightness(&image, 0.9)),
            ("brightness 1.1", brightness(&image, 1.1)),
            ("x1.25", rescale(&image, 1.25)),
            ("x2", rescale(&image, 2.0)),
        ];
        for (what, copy) in copies {
            assert_eq!(selected(&copy), vec![cell], "{stem} {what}");
        }
    }
}

/// Fixtures whose JPEG copy calibrate misreads today (issue 11): 8x14 of 8x18 found on the
/// sparse traditional mid-game, and other lattices on the fresh 8x18 and 12x24 (so far read
/// from their PNGs only), and 7x18 of 8x18 on the jade mid-game (its last row, two tiles
/// with busy faces, lost), so no selection can be judged on them.
const JPEG_NOT_READ_YET: &[&str] = &[
    "kshisen-tileset-traditional-mid-8x18",
    "kshisen-tileset-traditional-fresh-8x18",
    "kshisen-tileset-traditional-fresh-12x24",
    "kshisen-tileset-jade-mid-8x18",
];

#[test]
fn nothing_is_selected_on_the_other_screenshots() {
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.extension().is_none_or(|e| e != "png") || stem.contains("selected") {
            continue;
        }
        let image = load(&stem);
        assert_eq!(selected(&image), Vec::<Pos>::new(), "{stem}");
        if !JPEG_NOT_READ_YET.contains(&stem.as_str()) {
            assert_eq!(
                selected(&jpeg(&image, 70)),
                Vec::<Pos>::new(),
                "{stem} JPEG"
            );
        }
    }
}
