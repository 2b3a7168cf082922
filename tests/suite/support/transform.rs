//! What a screenshot goes through on its way to linkup: rescaling, JPEG, a brightness change,
//! and PNG encoding for a file the binary reads.

use std::io::Cursor;

use image::{ImageFormat, RgbaImage, imageops};

/// `image` resized by `factor` (triangle filter, sizes rounded).
pub fn rescale(image: &RgbaImage, factor: f64) -> RgbaImage {
    let w = (f64::from(image.width()) * factor).round() as u32;
    let h = (f64::from(image.height()) * factor).round() as u32;
    imageops::resize(image, w, h, imageops::FilterType::Triangle)
}

/// `image` through a JPEG encoder at `quality` (1-100) and back.
pub fn jpeg(image: &RgbaImage, quality: u8) -> RgbaImage {
    let rgb = image::DynamicImage::ImageRgba8(image.clone()).to_rgb8();
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(&rgb)
        .unwrap();
    image::load(Cursor::new(bytes), ImageFormat::Jpeg)
        .unwrap()
        .to_rgba8()
}

/// `image` with every colour channel multiplied by `factor` (alpha kept).
pub fn brightness(image: &RgbaImage, factor: f32) -> RgbaImage {
    let mut out = image.clone();
    for p in out.pixels_mut() {
        for c in 0..3 {
            p.0[c] = (f32::from(p.0[c]) * factor).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

/// `image` encoded as a PNG file's bytes.
pub fn png_bytes(image: &RgbaImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image
        .write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png)
        .unwrap();
    bytes
}
