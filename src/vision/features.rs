//! Low-level image measurements shared by calibration and classification: colour edge maps,
//! projection profiles, comb scores, and sampling of fractional rectangles.

use image::RgbaImage;

/// Edge strength along one direction, after keeping only straight edges.
///
/// `at(x, y)` is the colour difference (sum over R, G, B) between pixel `(x, y)` and its
/// neighbour to the right (vertical edges) or below (horizontal edges), kept only where the same
/// edge continues two pixels either side along the edge: glyph strokes and texture mostly
/// vanish, tile borders stay.
pub struct EdgeMap {
    /// Width of the map (the image's).
    pub width: usize,
    /// Height of the map (the image's).
    pub height: usize,
    values: Vec<f32>,
    /// Summed-area table, `(width + 1) * (height + 1)`: entry `(x, y)` holds the sum of the
    /// values above and left of it, modulo 2^32. The values are whole numbers, and a
    /// rectangle's sum taken with wrapping arithmetic is exact while it stays under 2^32.
    sums: Vec<u32>,
}

impl EdgeMap {
    /// The map of `values` (row-major, `width * height`), with its summed-area table.
    fn new(width: usize, height: usize, values: Vec<f32>) -> EdgeMap {
        let stride = width + 1;
        let mut sums = vec![0u32; stride * (height + 1)];
        for (y, row) in values.chunks_exact(width.max(1)).enumerate().take(height) {
            let (done, rest) = sums.split_at_mut((y + 1) * stride);
            let above = &done[y * stride + 1..];
            let mut row_sum = 0u32;
            for ((out, &up), &v) in rest[1..stride].iter_mut().zip(above).zip(row) {
                row_sum = row_sum.wrapping_add(v as u32);
                *out = up.wrapping_add(row_sum);
            }
        }
        EdgeMap {
            width,
            height,
            values,
            sums,
        }
    }

    /// The sum of the strengths over columns `xs` and rows `ys` (half-open, inside the map).
    pub fn sum(&self, xs: (usize, usize), ys: (usize, usize)) -> f64 {
        let stride = self.width + 1;
        let at = |x: usize, y: usize| self.sums[y * stride + x];
        let sum = at(xs.1, ys.1)
            .wrapping_sub(at(xs.0, ys.1))
            .wrapping_sub(at(xs.1, ys.0))
            .wrapping_add(at(xs.0, ys.0));
        f64::from(sum)
    }

    /// The strengths of row `y`.
    pub fn row(&self, y: usize) -> &[f32] {
        &self.values[y * self.width..(y + 1) * self.width]
    }
}

/// Distance over the three colour channels of two RGBA pixels.
fn colour_step(a: &[u8], b: &[u8]) -> f32 {
    (0..3)
        .map(|c| (i32::from(a[c]) - i32::from(b[c])).unsigned_abs())
        .sum::<u32>() as f32
}

/// The vertical-edge map (differences along x, straight along y).
pub fn vertical_edges(image: &RgbaImage) -> EdgeMap {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let mut diff = vec![0f32; w * h];
    for y in 0..h {
        let row = &raw[y * w * 4..(y + 1) * w * 4];
        for x in 0..w.saturating_sub(1) {
            diff[y * w + x] = colour_step(&row[x * 4..x * 4 + 4], &row[x * 4 + 4..x * 4 + 8]);
        }
    }
    let mut values = vec![0f32; w * h];
    for y in 2..h.saturating_sub(2) {
        for x in 0..w {
            let i = y * w + x;
            values[i] = diff[i].min(diff[i - 2 * w]).min(diff[i + 2 * w]);
        }
    }
    EdgeMap::new(w, h, values)
}

/// The horizontal-edge map (differences along y, straight along x).
pub fn horizontal_edges(image: &RgbaImage) -> EdgeMap {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let mut diff = vec![0f32; w * h];
    for y in 0..h.saturating_sub(1) {
        let row = &raw[y * w * 4..(y + 1) * w * 4];
        let below = &raw[(y + 1) * w * 4..(y + 2) * w * 4];
        for x in 0..w {
            diff[y * w + x] = colour_step(&row[x * 4..x * 4 + 4], &below[x * 4..x * 4 + 4]);
        }
    }
    let mut values = vec![0f32; w * h];
    for y in 0..h {
        for x in 2..w.saturating_sub(2) {
            let i = y * w + x;
            values[i] = diff[i].min(diff[i - 2]).min(diff[i + 2]);
        }
    }
    EdgeMap::new(w, h, values)
}

/// Signed straight-edge profiles of a band: for each position along the axis, the summed rise
/// and the summed fall of brightness (sum over R, G, B) from one pixel to the next across the
/// axis, kept only where the step has the same sign two pixels either side along the edge (the
/// weakest of the three counts). `vertical` sums the steps along x over rows `lo..hi` (one
/// value per column); otherwise the steps along y over columns `lo..hi` (one per row).
///
/// A tile's leading and trailing borders have opposite signs, so each of the two profiles
/// carries one border per tile whatever is beside it, where an unsigned profile merges a
/// tile's border with its neighbour's into one peak that moves when the neighbour is missing.
pub fn signed_profiles(
    image: &RgbaImage,
    vertical: bool,
    lo: usize,
    hi: usize,
) -> (Vec<f32>, Vec<f32>) {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    // `n` positions across the axis, `m` along the edge.
    let (n, m) = if vertical { (w, h) } else { (h, w) };
    let mut rise = vec![0f32; n];
    let mut fall = vec![0f32; n];
    let (lo, hi) = (lo.max(2), hi.min(m.saturating_sub(2)));
    if n < 2 || hi <= lo {
        return (rise, fall);
    }
    // Brightness steps across the axis for the lines `lo - 2..hi + 2` along it.
    let luma = |x: usize, y: usize| -> i32 {
        let p = (y * w + x) * 4;
        i32::from(raw[p]) + i32::from(raw[p + 1]) + i32::from(raw[p + 2])
    };
    let lines = hi + 2 - (lo - 2);
    let mut steps = vec![0i32; lines * (n - 1)];
    for (l, line) in steps.chunks_mut(n - 1).enumerate() {
        let j = lo - 2 + l;
        for (i, v) in line.iter_mut().enumerate() {
            *v = if vertical {
                luma(i + 1, j) - luma(i, j)
            } else {
                luma(j, i + 1) - luma(j, i)
            };
        }
    }
    for l in 2..lines - 2 {
        let (before, here, after) = (
            &steps[(l - 2) * (n - 1)..(l - 1) * (n - 1)],
            &steps[l * (n - 1)..(l + 1) * (n - 1)],
            &steps[(l + 2) * (n - 1)..(l + 3) * (n - 1)],
        );
        for i in 0..n - 1 {
            let (a, b, c) = (before[i], here[i], after[i]);
            if a > 0 && b > 0 && c > 0 {
                rise[i] += a.min(b).min(c) as f32;
            } else if a < 0 && b < 0 && c < 0 {
                fall[i] += a.max(b).max(c).unsigned_abs() as f32;
            }
        }
    }
    (rise, fall)
}

/// Sum of the vertical-edge map down each column, over rows `y0..y1`.
pub fn column_profile(map: &EdgeMap, y0: usize, y1: usize) -> Vec<f32> {
    let mut out = vec![0f32; map.width];
    for y in y0..y1.min(map.height) {
        for (o, v) in out.iter_mut().zip(map.row(y)) {
            *o += v;
        }
    }
    out
}

/// Sum of the horizontal-edge map along each row, over columns `x0..x1`.
pub fn row_profile(map: &EdgeMap, x0: usize, x1: usize) -> Vec<f32> {
    let x1 = x1.min(map.width);
    (0..map.height)
        .map(|y| map.row(y)[x0.min(x1)..x1].iter().sum())
        .collect()
}

/// Keeps the narrow peaks of a profile: subtracts a moving average over `2 * radius + 1`
/// samples and clips at zero.
pub fn peaks_only(profile: &[f32], radius: usize) -> Vec<f32> {
    let n = profile.len();
    let mut prefix = vec![0f64; n + 1];
    for (i, v) in profile.iter().enumerate() {
        prefix[i + 1] = prefix[i] + f64::from(*v);
    }
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(radius);
            let hi = (i + radius + 1).min(n);
            let mean = (prefix[hi] - prefix[lo]) / (hi - lo) as f64;
            (f64::from(profile[i]) - mean).max(0.0) as f32
        })
        .collect()
}

/// Smooths a profile with the kernel (1, 2, 1) / 4.
pub fn smooth(profile: &[f32]) -> Vec<f32> {
    let n = profile.len();
    (0..n)
        .map(|i| {
            let a = profile[i.saturating_sub(1)];
            let c = profile[(i + 1).min(n - 1)];
            (a + 2.0 * profile[i] + c) / 4.0
        })
        .collect()
}

/// The profile at a fractional position, linearly interpolated; zero outside.
pub fn sample(profile: &[f32], x: f64) -> f32 {
    if x < 0.0 || x > (profile.len() - 1) as f64 {
        return 0.0;
    }
    let i = x.floor() as usize;
    let t = (x - i as f64) as f32;
    if i + 1 >= profile.len() {
        return profile[i];
    }
    profile[i] * (1.0 - t) + profile[i + 1] * t
}

/// How much more edge a comb of teeth at `phase + k * pitch` collects than the comb shifted by
/// half a pitch, over positions `lo..hi`: the sum over teeth of each tooth's excess (teeth
/// that collect less count as zero, so clutter away from the board neither helps nor hurts).
pub fn comb_contrast(profile: &[f32], pitch: f64, phase: f64, lo: f64, hi: f64) -> f64 {
    let mut sum = 0f64;
    let first = ((lo - phase) / pitch).ceil() as i64;
    let mut k = first;
    loop {
        let x = phase + k as f64 * pitch;
        if x > hi {
            break;
        }
        sum +=
            (f64::from(sample(profile, x)) - f64::from(sample(profile, x + pitch / 2.0))).max(0.0);
        k += 1;
    }
    sum
}

/// How deep (from, to; shares of the pitch) the band outside a board lies where its
/// surroundings are read: clear of the tiles' shadows and the board's own frame, near enough
/// to be what runs on under the board.
pub const OUTSIDE_BAND: (f64, f64) = (0.15, 0.45);

/// The pixels of the band [`OUTSIDE_BAND`] outside the rectangle `[x0, y0, x1, y1]` (on all
/// four sides, where the background or the board panel shows), split by channel; `None` when
/// fewer than 30 of them lie in the image.
pub fn outside_band(image: &RgbaImage, rect: [f64; 4], pitch: [f64; 2]) -> Option<[Vec<u8>; 3]> {
    band_around(image, rect, pitch, OUTSIDE_BAND)
}

/// The pixels of a band from `depth.0` to `depth.1` of a pitch outside the rectangle
/// `[x0, y0, x1, y1]`, on all four sides, split by channel; `None` when fewer than 30 of them
/// lie in the image.
pub fn band_around(
    image: &RgbaImage,
    rect: [f64; 4],
    pitch: [f64; 2],
    depth: (f64, f64),
) -> Option<[Vec<u8>; 3]> {
    joined_sides(&side_bands(image, rect, pitch, depth))
}

/// The pixels of the `sides` of a band (see [`side_bands`]) in one, split by channel; `None`
/// when fewer than 30.
pub fn joined_sides(sides: &[[Vec<u8>; 3]]) -> Option<[Vec<u8>; 3]> {
    let mut channels: [Vec<u8>; 3] = Default::default();
    for side in sides {
        for (all, one) in channels.iter_mut().zip(side) {
            all.extend(one);
        }
    }
    (channels[0].len() >= 30).then_some(channels)
}

/// The pixels of the band of [`band_around`] side by side (left, right, top, bottom), each
/// split by channel (empty where the side lies outside the image).
pub fn side_bands(
    image: &RgbaImage,
    rect: [f64; 4],
    pitch: [f64; 2],
    depth: (f64, f64),
) -> [[Vec<u8>; 3]; 4] {
    let [x0, y0, x1, y1] = rect;
    let [px, py] = pitch;
    let (near, far) = depth;
    let bands = [
        (x0 - far * px, y0, x0 - near * px, y1),
        (x1 + near * px, y0, x1 + far * px, y1),
        (x0, y0 - far * py, x1, y0 - near * py),
        (x0, y1 + near * py, x1, y1 + far * py),
    ];
    bands.map(|band| {
        let mut channels: [Vec<u8>; 3] = Default::default();
        for p in rect_pixels(image, band, 1) {
            for c in 0..3 {
                channels[c].push(p[c]);
            }
        }
        channels
    })
}

/// The colours (R, G, B) of the pixels whose centres lie in `(x0, y0, x1, y1)` (clamped to the
/// image), every `step`-th each way, row by row.
pub fn rect_pixels(
    image: &RgbaImage,
    (x0, y0, x1, y1): (f64, f64, f64, f64),
    step: usize,
) -> impl Iterator<Item = &[u8]> + '_ {
    let (xa, xb) = pixel_range(x0, x1, image.width());
    let (ya, yb) = pixel_range(y0, y1, image.height());
    let (raw, w) = (image.as_raw(), image.width() as usize);
    let (xa, xb, step) = (xa as usize, xb as usize, step.max(1));
    (ya as usize..yb as usize).step_by(step).flat_map(move |y| {
        raw[(y * w + xa) * 4..(y * w + xb) * 4]
            .chunks(4 * step)
            .map(|p| &p[..3])
    })
}

/// The mean colour of every `step`-th pixel each way of `rect` (x0, y0, x1, y1): those whose
/// centres lie in it, or, for a rectangle narrower than a pixel, the pixel it lies in (see
/// [`pixel_range_at_least_one`]).
pub fn mean_colour(image: &RgbaImage, rect: (f64, f64, f64, f64), step: usize) -> [f32; 3] {
    let (xa, xb) = pixel_range_at_least_one(rect.0, rect.2, image.width());
    let (ya, yb) = pixel_range_at_least_one(rect.1, rect.3, image.height());
    let step = step.max(1);
    let mut sum = [0f32; 3];
    let mut count = 0usize;
    for y in (ya..yb).step_by(step) {
        for x in (xa..xb).step_by(step) {
            let p = image.get_pixel(x, y).0;
            for (s, &v) in sum.iter_mut().zip(&p) {
                *s += f32::from(v);
            }
            count += 1;
        }
    }
    sum.map(|s| s / count.max(1) as f32)
}

/// The integer pixel range `a..b` whose centres lie in `lo..hi`, clamped to `0..limit`.
pub fn pixel_range(lo: f64, hi: f64, limit: u32) -> (u32, u32) {
    let a = ((lo - 0.5).ceil().max(0.0) as u32).min(limit);
    let b = ((hi - 0.5).ceil().max(0.0) as u32).min(limit);
    (a, b.max(a))
}

/// Like [`pixel_range`], but never empty: when no pixel centre lies in `lo..hi` (a band
/// narrower than a pixel), the one pixel holding the band's middle (clamped to the image).
pub fn pixel_range_at_least_one(lo: f64, hi: f64, limit: u32) -> (u32, u32) {
    let (a, b) = pixel_range(lo, hi, limit);
    if a < b || limit == 0 {
        return (a, b);
    }
    let middle = ((lo + hi) / 2.0).floor().clamp(0.0, f64::from(limit - 1)) as u32;
    (middle, middle + 1)
}

/// The commonest colour bin of `pixels` (32 levels a channel, 512 bins): the per-channel
/// sums of its pixels and their count, for their mean; `None` when there are no pixels. Of
/// bins equally common, the last. A tile's own ground (the colour its picture is drawn on)
/// is the commonest colour of its pixels, however much the picture covers, as long as no
/// single colour of the picture covers more.
pub fn commonest_bin(pixels: impl Iterator<Item = [u8; 3]>) -> Option<([u32; 3], u32)> {
    let mut counts = [0u32; 512];
    let mut sums = [[0u32; 3]; 512];
    for p in pixels {
        let bin =
            (usize::from(p[0]) >> 5) << 6 | (usize::from(p[1]) >> 5) << 3 | usize::from(p[2]) >> 5;
        counts[bin] += 1;
        for c in 0..3 {
            sums[bin][c] += u32::from(p[c]);
        }
    }
    let (bin, &n) = counts.iter().enumerate().max_by_key(|&(_, &n)| n)?;
    (n > 0).then_some((sums[bin], n))
}

/// The per-channel median of `colours` (black for none).
pub fn median_colour(colours: &[[u8; 3]]) -> [u8; 3] {
    /// Colours whose channels are taken on the stack; more go to the heap.
    const ON_STACK: usize = 64;
    std::array::from_fn(|c| {
        if colours.len() <= ON_STACK {
            let mut values = [0u8; ON_STACK];
            for (v, p) in values.iter_mut().zip(colours) {
                *v = p[c];
            }
            crate::stats::median(&mut values[..colours.len()]).unwrap_or(0)
        } else {
            let mut values: Vec<u8> = colours.iter().map(|p| p[c]).collect();
            crate::stats::median(&mut values).unwrap_or(0)
        }
    })
}

/// The Euclidean distance between two colours (0-255 levels per channel).
pub fn rgb_distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|c| (a[c] - b[c]).powi(2)).sum::<f32>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commonest_bin_sums_its_pixels_and_counts_them() {
        let pixels = [[10, 20, 30], [12, 22, 28], [200, 0, 0], [31, 0, 31]];
        // The first two and the last share the bin of levels 0-31 on every channel.
        assert_eq!(commonest_bin(pixels.into_iter()), Some(([53, 42, 89], 3)));
        assert_eq!(commonest_bin(std::iter::empty()), None);
    }

    #[test]
    fn comb_contrast_peaks_at_the_true_pitch() {
        let mut profile = vec![0f32; 200];
        for k in 0..10 {
            profile[7 + k * 19] = 10.0;
        }
        let at = |pitch: f64| {
            (0..(pitch * 4.0) as usize)
                .map(|i| comb_contrast(&profile, pitch, i as f64 / 4.0, 0.0, 199.0))
                .fold(f64::MIN, f64::max)
        };
        assert!(at(19.0) > 1.5 * at(38.0));
        assert!(at(19.0) >= at(9.5));
        assert!(at(19.0) > at(21.0));
    }

    #[test]
    fn signed_profiles_keep_a_tiles_two_borders_apart() {
        // A light tile x 10..20 on a dark background: rise at x = 9, fall at x = 19.
        let img = RgbaImage::from_fn(30, 12, |x, _| {
            let v = if (10..20).contains(&x) { 220 } else { 20 };
            image::Rgba([v, v, v, 255])
        });
        let (rise, fall) = signed_profiles(&img, true, 0, 12);
        assert!(rise[9] > 0.0 && fall[9] == 0.0);
        assert!(fall[19] > 0.0 && rise[19] == 0.0);
        assert_eq!(rise.iter().filter(|&&v| v > 0.0).count(), 1);
        let (rise, fall) = signed_profiles(&img, false, 0, 30);
        assert!(rise.iter().chain(&fall).all(|&v| v == 0.0));
    }

    #[test]
    fn peaks_only_removes_a_plateau() {
        let mut profile = vec![5f32; 30];
        profile[15] = 20.0;
        let p = peaks_only(&profile, 4);
        assert_eq!(p[3], 0.0);
        assert!(p[15] > 10.0);
    }

    #[test]
    fn pixel_range_takes_centres_inside() {
        assert_eq!(pixel_range(0.0, 2.0, 10), (0, 2));
        assert_eq!(pixel_range(0.6, 2.4, 10), (1, 2));
        assert_eq!(pixel_range(8.0, 20.0, 10), (8, 10));
    }

    #[test]
    fn a_band_narrower_than_a_pixel_still_takes_one() {
        assert_eq!(pixel_range(3.6, 4.4, 10), (4, 4));
        assert_eq!(pixel_range_at_least_one(3.6, 4.4, 10), (4, 5));
        assert_eq!(pixel_range_at_least_one(3.0, 5.0, 10), (3, 5));
        assert_eq!(pixel_range_at_least_one(12.2, 12.3, 10), (9, 10));
        assert_eq!(pixel_range_at_least_one(1.0, 1.2, 0), (0, 0));
    }

    #[test]
    fn median_colour_is_the_upper_middle_per_channel_on_and_off_the_stack() {
        for n in [1usize, 2, 5, 64, 65, 200] {
            let colours: Vec<[u8; 3]> = (0..n)
                .map(|i| {
                    [
                        (i * 37 % 251) as u8,
                        (i * 11 % 7) as u8,
                        (255 - i % 256) as u8,
                    ]
                })
                .collect();
            let expected: [u8; 3] = std::array::from_fn(|c| {
                let mut values: Vec<u8> = colours.iter().map(|p| p[c]).collect();
                values.sort_unstable();
                values[n / 2]
            });
            assert_eq!(median_colour(&colours), expected, "{n} colours");
        }
        assert_eq!(median_colour(&[]), [0, 0, 0]);
    }
}
