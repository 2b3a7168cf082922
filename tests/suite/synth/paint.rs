//! Drawing on an opaque RGBA canvas: rectangles (plain, rounded, outlined), gradients, noise,
//! alpha compositing of pictures, and text in DejaVu Sans through `ab_glyph`.

use std::sync::OnceLock;

use ab_glyph::{Font, FontVec, PxScale, ScaleFont, point};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_rect_mut};
use imageproc::rect::Rect;
use linkup::random::scramble;

/// An RGBA colour; alpha 255 is opaque.
pub type Colour = [u8; 4];

/// The DejaVu fonts the generator writes with.
const DEJAVU: &str = "/usr/share/fonts/truetype/dejavu";

/// DejaVu Sans (regular or bold), read once. Panics naming the package when it is missing.
pub fn dejavu(bold: bool) -> &'static FontVec {
    static REGULAR: OnceLock<FontVec> = OnceLock::new();
    static BOLD: OnceLock<FontVec> = OnceLock::new();
    let (cell, file) = if bold {
        (&BOLD, "DejaVuSans-Bold.ttf")
    } else {
        (&REGULAR, "DejaVuSans.ttf")
    };
    cell.get_or_init(|| {
        let path = format!("{DEJAVU}/{file}");
        let bytes = std::fs::read(&path).unwrap_or_else(|e| {
            panic!("{path}: {e} (install fonts-dejavu-core: sudo bash .ci/install-deps)")
        });
        FontVec::try_from_vec(bytes).unwrap_or_else(|e| panic!("{path}: {e}"))
    })
}

/// Blends `colour` over the pixel at `(x, y)` with its alpha times `cover` (0..1); outside the
/// canvas nothing happens.
pub fn blend(img: &mut RgbaImage, x: i64, y: i64, colour: Colour, cover: f32) {
    if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    let a = (f32::from(colour[3]) / 255.0 * cover).clamp(0.0, 1.0);
    if a <= 0.0 {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    for i in 0..3 {
        let v = f32::from(p[i]) * (1.0 - a) + f32::from(colour[i]) * a;
        p[i] = v.round().clamp(0.0, 255.0) as u8;
    }
    p[3] = 255;
}

/// The rectangle `x, y, w, h` as imageproc's, clipped to a margin of one pixel round the
/// canvas (so far-off corners cost nothing and the same pixels show); `None` when empty.
fn clipped_rect(img: &RgbaImage, x: i64, y: i64, w: i64, h: i64) -> Option<Rect> {
    let clamp = |v: i64, size: u32| v.clamp(-1, i64::from(size) + 1) as i32;
    let (x0, y0) = (clamp(x, img.width()), clamp(y, img.height()));
    let (x1, y1) = (clamp(x + w, img.width()), clamp(y + h, img.height()));
    (x1 > x0 && y1 > y0).then(|| Rect::at(x0, y0).of_size((x1 - x0) as u32, (y1 - y0) as u32))
}

/// Fills the rectangle `x, y, w, h` (clipped to the canvas) with `colour`, blended by its alpha.
pub fn fill_rect(img: &mut RgbaImage, x: i64, y: i64, w: i64, h: i64, colour: Colour) {
    if colour[3] == 255 {
        if let Some(rect) = clipped_rect(img, x, y, w, h) {
            draw_filled_rect_mut(img, rect, Rgba(colour));
        }
        return;
    }
    let (x0, y0) = (x.max(0), y.max(0));
    let x1 = (x + w).min(i64::from(img.width()));
    let y1 = (y + h).min(i64::from(img.height()));
    for yy in y0..y1 {
        for xx in x0..x1 {
            blend(img, xx, yy, colour, 1.0);
        }
    }
}

/// Draws the outline of the rectangle `x, y, w, h`, `thickness` pixels wide, inside it.
pub fn outline_rect(
    img: &mut RgbaImage,
    x: i64,
    y: i64,
    w: i64,
    h: i64,
    thickness: i64,
    colour: Colour,
) {
    let t = thickness.min(w / 2).min(h / 2).max(1);
    if colour[3] == 255 {
        // Nested one-pixel outlines; imageproc's lines would blend the corners twice, so a
        // translucent outline is drawn as four bands below.
        for inset in 0..t {
            let (w, h) = (w - 2 * inset, h - 2 * inset);
            if let Some(rect) = clipped_rect(img, x + inset, y + inset, w, h) {
                draw_hollow_rect_mut(img, rect, Rgba(colour));
            }
        }
        return;
    }
    fill_rect(img, x, y, w, t, colour);
    fill_rect(img, x, y + h - t, w, t, colour);
    fill_rect(img, x, y + t, t, h - 2 * t, colour);
    fill_rect(img, x + w - t, y + t, t, h - 2 * t, colour);
}

/// Fills a rectangle with rounded corners of `radius`, anti-aliased at the corners.
pub fn fill_rounded(
    img: &mut RgbaImage,
    x: i64,
    y: i64,
    w: i64,
    h: i64,
    radius: f32,
    colour: Colour,
) {
    let r = radius.min(w as f32 / 2.0).min(h as f32 / 2.0).max(0.0);
    if r == 0.0 {
        fill_rect(img, x, y, w, h, colour);
        return;
    }
    for yy in y..y + h {
        for xx in x..x + w {
            let px = (xx - x) as f32 + 0.5;
            let py = (yy - y) as f32 + 0.5;
            let cx = px.clamp(r, w as f32 - r);
            let cy = py.clamp(r, h as f32 - r);
            let d = ((px - cx).powi(2) + (py - cy).powi(2)).sqrt();
            let cover = (r - d + 0.5).clamp(0.0, 1.0);
            if cover >= 1.0 {
                blend(img, xx, yy, colour, 1.0);
            } else if cover > 0.0 {
                blend(img, xx, yy, colour, cover);
            }
        }
    }
}

/// Linear interpolation between two colours, `t` in 0..1.
pub fn mix(a: Colour, b: Colour, t: f64) -> Colour {
    let t = t.clamp(0.0, 1.0);
    let mut out = [0u8; 4];
    for i in 0..4 {
        out[i] = (f64::from(a[i]) * (1.0 - t) + f64::from(b[i]) * t).round() as u8;
    }
    out
}

/// A colour darkened (`factor < 1`) or lightened (`factor > 1`) channel by channel.
pub fn shade(c: Colour, factor: f64) -> Colour {
    let f = |v: u8| (f64::from(v) * factor).round().clamp(0.0, 255.0) as u8;
    [f(c[0]), f(c[1]), f(c[2]), c[3]]
}

/// Fills the whole canvas with a gradient from `a` to `b`: top to bottom, or along the
/// diagonal from the top-left corner when `diagonal`.
pub fn gradient(img: &mut RgbaImage, a: Colour, b: Colour, diagonal: bool) {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    for (x, y, p) in img.enumerate_pixels_mut() {
        let t = if diagonal {
            (f64::from(x) + f64::from(y)) / (w + h)
        } else {
            f64::from(y) / h
        };
        *p = Rgba(mix(a, b, t));
    }
}

/// Adds value noise of `amplitude` (in grey levels) to the rectangle, smooth over cells of
/// `grain` pixels, from `seed`.
pub fn noise(img: &mut RgbaImage, rect: [i64; 4], grain: u32, amplitude: f64, seed: u64) {
    let grain = i64::from(grain.max(1));
    let lattice = |gx: i64, gy: i64| -> f64 {
        let z = scramble(
            seed ^ (gx as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                ^ (gy as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f),
        );
        (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let [x, y, w, h] = rect;
    for yy in y.max(0)..(y + h).min(i64::from(img.height())) {
        for xx in x.max(0)..(x + w).min(i64::from(img.width())) {
            let (gx, gy) = (xx.div_euclid(grain), yy.div_euclid(grain));
            let fx = (xx.rem_euclid(grain)) as f64 / grain as f64;
            let fy = (yy.rem_euclid(grain)) as f64 / grain as f64;
            let top = lattice(gx, gy) * (1.0 - fx) + lattice(gx + 1, gy) * fx;
            let bottom = lattice(gx, gy + 1) * (1.0 - fx) + lattice(gx + 1, gy + 1) * fx;
            let fine = lattice(xx * 7919, yy * 104_729) * 0.3;
            let v = (top * (1.0 - fy) + bottom * fy + fine) * amplitude;
            let p = img.get_pixel_mut(xx as u32, yy as u32);
            for i in 0..3 {
                p[i] = (f64::from(p[i]) + v).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// Composites `src` (straight alpha) over the canvas with its top-left corner at `(x, y)`.
pub fn draw_image(img: &mut RgbaImage, src: &RgbaImage, x: i64, y: i64) {
    for (sx, sy, p) in src.enumerate_pixels() {
        if p[3] == 0 {
            continue;
        }
        blend(img, x + i64::from(sx), y + i64::from(sy), p.0, 1.0);
    }
}

/// The width in pixels of `text` written at `size` pixels.
pub fn text_width(text: &str, size: f32, bold: bool) -> f32 {
    let font = dejavu(bold).as_scaled(PxScale::from(size));
    text.chars().map(|c| font.h_advance(font.glyph_id(c))).sum()
}

/// Writes `text` at `size` pixels with the top of its line box at `(x, y)`; returns its width.
pub fn text(
    img: &mut RgbaImage,
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    bold: bool,
    colour: Colour,
) -> f32 {
    let font = dejavu(bold);
    let scaled = font.as_scaled(PxScale::from(size));
    let baseline = y + scaled.ascent();
    let mut pen = x;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        let glyph = id.with_scale_and_position(PxScale::from(size), point(pen, baseline));
        pen += scaled.h_advance(id);
        if let Some(outline) = font.outline_glyph(glyph) {
            let bounds = outline.px_bounds();
            outline.draw(|gx, gy, cover| {
                blend(
                    img,
                    bounds.min.x as i64 + i64::from(gx),
                    bounds.min.y as i64 + i64::from(gy),
                    colour,
                    cover,
                );
            });
        }
    }
    pen - x
}

/// Writes one character in bold so that its ink is centred on `(cx, cy)`, its ink `size` pixels tall
/// at most (and `max_width` wide at most).
pub fn centred_glyph(
    img: &mut RgbaImage,
    c: char,
    cx: f32,
    cy: f32,
    size: f32,
    max_width: f32,
    colour: Colour,
) {
    let font = dejavu(true);
    let id = font.glyph_id(c);
    let probe = id.with_scale_and_position(PxScale::from(100.0), point(0.0, 0.0));
    let Some(outline) = font.outline_glyph(probe) else {
        return;
    };
    let b = outline.px_bounds();
    let (iw, ih) = (b.width().max(1.0), b.height().max(1.0));
    let scale = 100.0 * (size / ih).min(max_width / iw);
    let glyph = id.with_scale_and_position(PxScale::from(scale), point(0.0, 0.0));
    let Some(outline) = font.outline_glyph(glyph) else {
        return;
    };
    let b = outline.px_bounds();
    let ox = (cx - b.width() / 2.0).round() as i64;
    let oy = (cy - b.height() / 2.0).round() as i64;
    outline.draw(|gx, gy, cover| {
        blend(img, ox + i64::from(gx), oy + i64::from(gy), colour, cover);
    });
}

/// Taps of one output pixel along an axis: the first source index and the weights.
struct Taps {
    start: usize,
    weights: Vec<f32>,
}

/// Resampling taps from `src` to `dst` pixels along one axis: Catmull-Rom when enlarging, a
/// tent widened to the shrink factor (an area filter) when shrinking. Edge coordinates scale
/// exactly: source x maps to `x * dst / src`.
fn taps(src: u32, dst: u32) -> Vec<Taps> {
    let scale = f64::from(dst) / f64::from(src);
    let (support, widen) = if scale >= 1.0 {
        (2.0, 1.0)
    } else {
        (1.0, 1.0 / scale)
    };
    let kernel = |t: f64| -> f64 {
        let t = t.abs();
        if scale >= 1.0 {
            // Catmull-Rom (B = 0, C = 0.5).
            if t < 1.0 {
                1.5 * t * t * t - 2.5 * t * t + 1.0
            } else if t < 2.0 {
                -0.5 * t * t * t + 2.5 * t * t - 4.0 * t + 2.0
            } else {
                0.0
            }
        } else {
            (1.0 - t).max(0.0)
        }
    };
    (0..dst)
        .map(|x| {
            let centre = (f64::from(x) + 0.5) / scale - 0.5;
            let reach = support * widen;
            let lo = (centre - reach).floor().max(0.0) as i64;
            let hi = ((centre + reach).ceil() as i64).min(i64::from(src) - 1);
            let mut weights: Vec<f32> = (lo..=hi)
                .map(|i| kernel((i as f64 - centre) / widen) as f32)
                .collect();
            let sum: f32 = weights.iter().sum();
            if sum.abs() > f32::EPSILON {
                weights.iter_mut().for_each(|w| *w /= sum);
            }
            Taps {
                start: lo as usize,
                weights,
            }
        })
        .collect()
}

/// An opaque image resampled to `w` x `h` (separable: rows, then columns).
pub fn resize(img: &RgbaImage, w: u32, h: u32) -> RgbaImage {
    let (sw, sh) = img.dimensions();
    let across = taps(sw, w);
    let down = taps(sh, h);
    let src = img.as_raw();
    // Horizontal pass into f32 rows of the new width.
    let mut wide = vec![0f32; w as usize * sh as usize * 3];
    for y in 0..sh as usize {
        let row = &src[y * sw as usize * 4..(y + 1) * sw as usize * 4];
        let out = &mut wide[y * w as usize * 3..(y + 1) * w as usize * 3];
        for (x, t) in across.iter().enumerate() {
            let mut acc = [0f32; 3];
            for (k, &wt) in t.weights.iter().enumerate() {
                let p = (t.start + k) * 4;
                acc[0] += f32::from(row[p]) * wt;
                acc[1] += f32::from(row[p + 1]) * wt;
                acc[2] += f32::from(row[p + 2]) * wt;
            }
            out[x * 3..x * 3 + 3].copy_from_slice(&acc);
        }
    }
    // Vertical pass.
    let mut out = RgbaImage::new(w, h);
    let stride = w as usize * 3;
    let raw: &mut [u8] = &mut out;
    for (y, t) in down.iter().enumerate() {
        let mut acc = vec![0f32; stride];
        for (k, &wt) in t.weights.iter().enumerate() {
            let row = &wide[(t.start + k) * stride..(t.start + k + 1) * stride];
            for (a, &v) in acc.iter_mut().zip(row) {
                *a += v * wt;
            }
        }
        let dst = &mut raw[y * w as usize * 4..(y + 1) * w as usize * 4];
        for x in 0..w as usize {
            for c in 0..3 {
                dst[x * 4 + c] = acc[x * 3 + c].round().clamp(0.0, 255.0) as u8;
            }
            dst[x * 4 + 3] = 255;
        }
    }
    out
}
