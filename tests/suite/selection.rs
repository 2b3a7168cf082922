//! The selected tile is found on the real games' screenshots, also after the transformations a
//! screenshot goes through, and nothing is reported selected where nothing is.

mod support;

use std::io::Cursor;
use std::path::Path;

use image::{ImageFormat, RgbaImage, imageops};
use linkup::board::Pos;
use linkup::vision::{self, ClassifierSettings};
use support::NOT_READ_YET;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn load(stem: &str) -> RgbaImage {
    vision::load_image(&Path::new(FIXTURES).join(format!("{stem}.png"))).unwrap()
}

/// Calibrates, reads and reports the selected tiles.
fn selected(image: &RgbaImage) -> Vec<Pos> {
    let geometry = vision::calibrate(image).unwrap();
    let settings = ClassifierSettings::default();
    let reading = vision::read_board(image, &geometry, &settings).unwrap();
    vision::selected_tiles(image, &geometry, &settings, &reading.board)
}

fn jpeg(image: &RgbaImage) -> RgbaImage {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
    let mut bytes = Vec::new();
    let mut encoder =
        image::codecs::jpeg::JpegEncoder::new_with_quality(Cursor::new(&mut bytes), 70);
    encoder.encode_image(&rgb).unwrap();
    image::load_from_memory_with_format(&bytes, ImageFormat::Jpeg)
        .unwrap()
        .to_rgba8()
}

fn brightness(image: &RgbaImage, factor: f32) -> RgbaImage {
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for c in 0..3 {
            p.0[c] = (f32::from(p.0[c]) * factor).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

fn scaled(image: &RgbaImage, factor: f64) -> RgbaImage {
    let w = (f64::from(image.width()) * factor).round() as u32;
    let h = (f64::from(image.height()) * factor).round() as u32;
    imageops::resize(image, w, h, imageops::FilterType::Triangle)
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
            ("JPEG 70", jpeg(&image)),
            ("brightness 0.9", brightness(&image, 0.9)),
            ("brightness 1.1", brightness(&image, 1.1)),
            ("x1.25", scaled(&image, 1.25)),
            ("x2", scaled(&image, 2.0)),
        ];
        for (what, copy) in copies {
            assert_eq!(selected(&copy), vec![cell], "{stem} {what}");
        }
    }
}

/// Fixtures whose JPEG copy calibrate misreads today (issue 11): 8x14 of 8x18 found on the
/// sparse traditional mid-game, so no selection can be judged on it.
const JPEG_NOT_READ_YET: &[&str] = &["kshisen-tileset-traditional-mid-8x18"];

#[test]
fn nothing_is_selected_on_the_other_screenshots() {
    for entry in std::fs::read_dir(FIXTURES).unwrap() {
        let path = entry.unwrap().path();
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        if path.extension().is_none_or(|e| e != "png")
            || stem.contains("selected")
            || NOT_READ_YET.contains(&stem.as_str())
        {
            continue;
        }
        let image = load(&stem);
        assert_eq!(selected(&image), Vec::<Pos>::new(), "{stem}");
        if !JPEG_NOT_READ_YET.contains(&stem.as_str()) {
            assert_eq!(selected(&jpeg(&image)), Vec::<Pos>::new(), "{stem} JPEG");
        }
    }
}
