//! Fuzz targets, one per parser, run as property tests: no input of any kind panics.
//!
//! Each parser gets arbitrary bytes and mutated valid inputs (bytes flipped, inserted, deleted,
//! the input cut short or extended): arbitrary bytes alone rarely get past a PNG signature or a
//! judge's first line. Mutated PNGs get their chunk checksums fixed up afterwards, so the
//! mutations reach the decoder behind the checksum test.
//!
//! The suite runs a few hundred cases per target; `FUZZ_CASES=100000 cargo test --release --test
//! suite fuzz::` runs a long campaign.

use std::io::Cursor;

use image::{DynamicImage, ImageFormat, Rgba, RgbaImage};
use linkup::board::Board;
use linkup::judge::{gomoku, link, strokes};
use linkup::profile::Profile;
use linkup::vision::{self, ClassifierSettings, Geometry};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Cases per target: `FUZZ_CASES` if set, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// The proptest configuration of a target that runs `default` cases in the suite.
fn config(default: u32) -> Config {
    Config {
        cases: cases(default),
        failure_persistence: None,
        ..Config::default()
    }
}

/// One change to a valid input; positions are taken modulo the input's length.
#[derive(Clone, Debug)]
enum Mutation {
    /// XOR the byte at a position with a non-zero mask.
    Flip(usize, u8),
    /// Overwrite the byte at a position.
    Set(usize, u8),
    /// Insert bytes at a position.
    Insert(usize, Vec<u8>),
    /// Delete up to `n` bytes from a position.
    Delete(usize, usize),
    /// Cut the input at a position.
    Truncate(usize),
    /// Append bytes.
    Extend(Vec<u8>),
    /// Copy a run of the input over another place (repeats a chunk, a row, a token).
    Copy(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        4 => (at, 1..=255u8).prop_map(|(i, m)| Mutation::Flip(i, m)),
        2 => (at, prop_oneof![Just(0u8), Just(0xff), Just(b'0'), Just(b'9'), Just(b'\n'), Just(b' '), any::<u8>()])
            .prop_map(|(i, b)| Mutation::Set(i, b)),
        1 => (at, proptest::collection::vec(any::<u8>(), 1..16)).prop_map(|(i, b)| Mutation::Insert(i, b)),
        1 => (at, 1..64usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        1 => at.prop_map(Mutation::Truncate),
        1 => proptest::collection::vec(any::<u8>(), 1..64).prop_map(Mutation::Extend),
        1 => (at, at, 1..64usize).prop_map(|(from, to, n)| Mutation::Copy(from, to, n)),
    ]
}

/// Up to eight mutations, applied in order.
fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    proptest::collection::vec(mutation(), 1..8)
}

/// `seed` with `mutations` applied.
fn mutate(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = seed.to_vec();
    for m in mutations {
        let len = bytes.len().max(1);
        match m {
            Mutation::Flip(i, mask) => {
                if let Some(b) = bytes.get_mut(i % len) {
                    *b ^= mask;
                }
            }
            Mutation::Set(i, value) => {
                if let Some(b) = bytes.get_mut(i % len) {
                    *b = *value;
                }
            }
            Mutation::Insert(i, more) => {
                let at = i % (bytes.len() + 1);
                bytes.splice(at..at, more.iter().copied());
            }
            Mutation::Delete(i, n) => {
                let at = i % len;
                let end = (at + n).min(bytes.len());
                if at < end {
                    bytes.drain(at..end);
                }
            }
            Mutation::Truncate(i) => bytes.truncate(i % len),
            Mutation::Extend(more) => bytes.extend_from_slice(more),
            Mutation::Copy(from, to, n) => {
                let (from, to) = (from % len, to % len);
                let run: Vec<u8> = bytes.iter().skip(from).take(*n).copied().collect();
                for (offset, b) in run.into_iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(to + offset) {
                        *slot = b;
                    }
                }
            }
        }
    }
    bytes
}

/// A picture with edges, flat areas and colours, so every codec path has work to do.
fn seed_picture(width: u32, height: u32) -> RgbaImage {
    RgbaImage::from_fn(width, height, |x, y| {
        let tile = (x / 6 + y / 5) % 3;
        Rgba([
            (x * 37 % 256) as u8,
            (y * 53 % 256) as u8,
            [20, 140, 250][tile as usize],
            if (x + y) % 7 == 0 { 128 } else { 255 },
        ])
    })
}

/// The seed picture encoded as `format` in several pixel layouts.
fn encoded_seeds(format: ImageFormat) -> Vec<Vec<u8>> {
    let picture = DynamicImage::ImageRgba8(seed_picture(19, 11));
    let layouts = match format {
        ImageFormat::Png => vec![
            picture.clone(),
            DynamicImage::ImageRgb8(picture.to_rgb8()),
            DynamicImage::ImageLuma8(picture.to_luma8()),
            DynamicImage::ImageRgba16(picture.to_rgba16()),
        ],
        _ => vec![
            DynamicImage::ImageRgb8(picture.to_rgb8()),
            DynamicImage::ImageLuma8(picture.to_luma8()),
        ],
    };
    layouts
        .iter()
        .map(|image| {
            let mut bytes = Vec::new();
            image
                .write_to(&mut Cursor::new(&mut bytes), format)
                .expect("the seed encodes");
            bytes
        })
        .collect()
}

/// The CRC-32 of PNG chunks (ISO 3309), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Rewrites the checksum of every whole chunk after the 8-byte signature, so the decoder
/// looks past the checksum at the mutated content.
fn fix_png_checksums(bytes: &mut [u8]) {
    let mut at = 8;
    while at + 12 <= bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let Some(end) = (at + 8).checked_add(len).filter(|&e| e + 4 <= bytes.len()) else {
            break;
        };
        let crc = crc32(&bytes[at + 4..end]);
        bytes[end..end + 4].copy_from_slice(&crc.to_be_bytes());
        at = end + 4;
    }
}

/// Decodes `bytes` as linkup does a screenshot; a decoded picture is never empty.
fn check_decode(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(image) = vision::decode_image(bytes) {
        prop_assert!(image.width() > 0 && image.height() > 0);
        prop_assert_eq!(
            image.as_raw().len(),
            image.width() as usize * image.height() as usize * 4
        );
    }
    Ok(())
}

/// A text that parses as a board prints back to an equal board.
fn check_board(text: &str) -> Result<(), TestCaseError> {
    if let Ok(board) = text.parse::<Board>() {
        prop_assert!(board.rows() > 0 && board.cols() > 0);
        prop_assert_eq!(board.to_string().parse::<Board>(), Ok(board));
    }
    Ok(())
}

/// A text that parses as a profile writes back to TOML that parses again.
fn check_profile(text: &str) -> Result<(), TestCaseError> {
    match Profile::from_toml(text) {
        Ok(profile) => {
            let again = Profile::from_toml(&profile.to_toml());
            prop_assert!(again.is_ok(), "{:?}", again.err());
        }
        Err(err) => {
            let message = err.to_string();
            prop_assert!(message.starts_with("<text>: "), "{}", message);
        }
    }
    Ok(())
}

/// Every judge on `bytes`: an answer or an error naming a line, never a panic.
fn check_judges(bytes: &[u8]) -> Result<(), TestCaseError> {
    let results = [
        link::judge(bytes, false),
        link::judge(bytes, true),
        strokes::judge(bytes, strokes::Report::Count),
        strokes::judge(bytes, strokes::Report::Circuit),
        strokes::judge(bytes, strokes::Report::Paths),
        gomoku::judge(bytes, false),
        gomoku::judge(bytes, true),
    ];
    for result in results {
        if let Err(err) = result {
            let message = err.to_string();
            prop_assert!(message.starts_with("line "), "{}", message);
            prop_assert!(!message.contains('\n'), "{}", message);
        }
    }
    Ok(())
}

/// A small screenshot-like picture: a board of `kinds` (0 empty) in `rows` x `cols` cells of
/// `pitch` with `gap` pixels between tiles, `margin` pixels from the picture's edge, every
/// pixel then shifted by `jitter` noise.
#[derive(Clone, Debug)]
struct Scene {
    rows: usize,
    cols: usize,
    pitch: [u32; 2],
    gap: u32,
    margin: u32,
    kinds: Vec<u8>,
    jitter: Vec<u8>,
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        1..6usize,
        1..9usize,
        [6..30u32, 6..30u32],
        0..4u32,
        0..16u32,
    )
        .prop_flat_map(|(rows, cols, pitch, gap, margin)| {
            (
                proptest::collection::vec(0..6u8, rows * cols),
                proptest::collection::vec(any::<u8>(), 0..64),
            )
                .prop_map(move |(kinds, jitter)| Scene {
                    rows,
                    cols,
                    pitch,
                    gap: gap.min(pitch[0] - 2).min(pitch[1] - 2),
                    margin,
                    kinds,
                    jitter,
                })
        })
}

impl Scene {
    /// The picture and the true geometry of its board.
    fn draw(&self) -> (RgbaImage, Geometry) {
        let [px, py] = self.pitch;
        let width = 2 * self.margin + self.cols as u32 * px;
        let height = 2 * self.margin + self.rows as u32 * py;
        let mut image = RgbaImage::from_pixel(width, height, Rgba([30, 90, 40, 255]));
        for (index, &kind) in self.kinds.iter().enumerate() {
            if kind == 0 {
                continue;
            }
            let (r, c) = ((index / self.cols) as u32, (index % self.cols) as u32);
            let (x0, y0) = (self.margin + c * px, self.margin + r * py);
            for y in y0..y0 + py - self.gap {
                for x in x0..x0 + px - self.gap {
                    let ink = (x - x0) * u32::from(kind) / px == (y - y0) * 3 / py;
                    let v = if ink { 20 * kind } else { 230 };
                    image.put_pixel(x, y, Rgba([v, v.wrapping_add(kind * 9), 200, 255]));
                }
            }
        }
        if !self.jitter.is_empty() {
            for (i, pixel) in image.pixels_mut().enumerate() {
                let j = self.jitter[i % self.jitter.len()] % 16;
                pixel.0[0] = pixel.0[0].saturating_add(j);
            }
        }
        let geometry = Geometry {
            rows: self.rows,
            cols: self.cols,
            origin: [f64::from(self.margin), f64::from(self.margin)],
            pitch: [f64::from(px), f64::from(py)],
            tile_size: [f64::from(px - self.gap), f64::from(py - self.gap)],
        };
        (image, geometry)
    }
}

/// Vision as `linkup solve` runs it: calibrate, read with the geometry found, and read with
/// the true geometry; errors are fine, panics are not.
fn check_vision(image: &RgbaImage, truth: &Geometry) -> Result<(), TestCaseError> {
    let settings = ClassifierSettings::default();
    if let Ok(geometry) = vision::calibrate(image) {
        prop_assert!(geometry.rows > 0 && geometry.cols > 0);
        if let Ok(reading) = vision::read_board(image, &geometry, &settings) {
            prop_assert_eq!(reading.board.rows(), geometry.rows);
        }
    }
    if let Ok(reading) = vision::read_board(image, truth, &settings) {
        prop_assert_eq!(
            (reading.board.rows(), reading.board.cols()),
            (truth.rows, truth.cols)
        );
    }
    Ok(())
}

const SHIPPED_PROFILES: [&str; 4] = [
    include_str!("../../calibration/xshisen.toml"),
    include_str!("../../calibration/xshisen-large.toml"),
    include_str!("../../calibration/xshisen-huge.toml"),
    include_str!("../../calibration/kshisen.toml"),
];

const BOARD_TEXT: &str = include_str!("../fixtures/boards/shisen_8x18.txt");

const LINK_INPUT: &str = "3 4\n1 2 3 4\n0 0 0 0\n4 3 2 1\n4\n1 1 3 4\n1 1 2 4\n1 1 3 3\n2 1 2 4\n\
                          3 4\n0 1 4 3\n0 2 4 1\n0 0 0 0\n2\n1 1 2 4\n1 3 2 3\n0 0\n";

const STROKES_INPUT: &str = "3 3\n1 2\n2 3\n1 3\n\n4 2\n1 2\n3 4\n\n5 0\n";

/// Two gomoku boards: one with a winning move for black, one empty.
fn gomoku_input() -> String {
    let mut text = String::from("2\n");
    for row in 0..15 {
        text.push_str(if row == 7 {
            ".....BBBB..W...\n"
        } else if row == 8 {
            "....WWW........\n"
        } else {
            "...............\n"
        });
    }
    text.push('\n');
    for _ in 0..15 {
        text.push_str("...............\n");
    }
    text
}

#[test]
fn the_seeds_are_valid_inputs() {
    for format in [ImageFormat::Png, ImageFormat::Jpeg] {
        for seed in encoded_seeds(format) {
            let image = vision::decode_image(&seed).expect("a seed decodes");
            assert_eq!(image.dimensions(), (19, 11));
        }
    }
    for text in SHIPPED_PROFILES {
        Profile::from_toml(text).expect("a shipped profile parses");
    }
    BOARD_TEXT.parse::<Board>().expect("the board parses");
    assert_eq!(
        link::judge(LINK_INPUT.as_bytes(), false)
            .unwrap()
            .lines()
            .count(),
        6
    );
    assert_eq!(
        strokes::judge(STROKES_INPUT.as_bytes(), strokes::Report::Count).unwrap(),
        "1\n2\n0\n"
    );
    assert_eq!(
        gomoku::judge(gomoku_input().as_bytes(), false).unwrap(),
        "YES\nNO\n"
    );
}

#[test]
fn png_checksum_fix_up_keeps_a_valid_png_valid() {
    let mut seed = encoded_seeds(ImageFormat::Png).remove(0);
    let original = seed.clone();
    fix_png_checksums(&mut seed);
    assert_eq!(seed, original);
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn decoding_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        check_decode(&bytes)?;
    }

    #[test]
    fn decoding_a_mutated_png_never_panics(seed in 0..4usize, changes in mutations(), fix in any::<bool>()) {
        let mut bytes = mutate(&encoded_seeds(ImageFormat::Png)[seed], &changes);
        if fix {
            fix_png_checksums(&mut bytes);
        }
        check_decode(&bytes)?;
    }

    #[test]
    fn decoding_a_mutated_jpeg_never_panics(seed in 0..2usize, changes in mutations()) {
        check_decode(&mutate(&encoded_seeds(ImageFormat::Jpeg)[seed], &changes))?;
    }

    #[test]
    fn reading_a_small_scene_never_panics(scene in scene()) {
        let (image, truth) = scene.draw();
        check_vision(&image, &truth)?;
    }

    #[test]
    fn reading_arbitrary_pixels_never_panics(
        width in 1..100u32,
        height in 1..100u32,
        pixels in proptest::collection::vec(any::<u8>(), 1..256),
        geometry in ([1..6usize, 1..6usize], [-4.0..20.0f64, -4.0..20.0f64], [0.5..12.0f64, 0.5..12.0f64]),
    ) {
        let image = RgbaImage::from_fn(width, height, |x, y| {
            let i = (y * width + x) as usize * 4;
            Rgba(std::array::from_fn(|k| pixels[(i + k) % pixels.len()]))
        });
        let ([rows, cols], origin, pitch) = geometry;
        let truth = Geometry { rows, cols, origin, pitch, tile_size: [pitch[0] * 0.9, pitch[1] * 0.9] };
        check_vision(&image, &truth)?;
    }

    #[test]
    fn parsing_an_arbitrary_board_never_panics(text in "[0-9 \t\n#xé-]{0,200}|\\PC{0,100}") {
        check_board(&text)?;
    }

    #[test]
    fn parsing_a_mutated_board_never_panics(changes in mutations()) {
        let bytes = mutate(BOARD_TEXT.as_bytes(), &changes);
        check_board(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn parsing_an_arbitrary_profile_never_panics(text in "[a-z=\\[\\]\"0-9., \n#-]{0,200}|\\PC{0,100}") {
        check_profile(&text)?;
    }

    #[test]
    fn parsing_a_mutated_profile_never_panics(seed in 0..4usize, changes in mutations()) {
        let bytes = mutate(SHIPPED_PROFILES[seed].as_bytes(), &changes);
        check_profile(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn judging_arbitrary_bytes_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        check_judges(&bytes)?;
    }

    #[test]
    fn judging_arbitrary_numbers_never_panics(text in "([0-9]{1,3}[ \n]){0,60}") {
        check_judges(text.as_bytes())?;
    }

    #[test]
    fn judging_mutated_inputs_never_panics(seed in 0..3usize, changes in mutations()) {
        let seeds = [LINK_INPUT.to_string(), STROKES_INPUT.to_string(), gomoku_input()];
        check_judges(&mutate(seeds[seed].as_bytes(), &changes))?;
    }
}
