//! `linkup solve` on bad input: a one-line error naming the file, a non-zero exit, no panic.

use crate::support::{Linkup, Run, fixture_path, linkup, no_board, png_bytes, root, scratch};

/// Asserts exit code 2 and one error line on stderr that names `file`; returns the line.
fn assert_one_line_error(run: &Run, file: &str) -> String {
    assert_eq!(run.code, Some(2), "{run:?}");
    assert_eq!(run.stderr.lines().count(), 1, "{run:?}");
    assert!(run.stderr.contains(file), "{run:?}");
    assert!(!run.stderr.contains("panicked"), "{run:?}");
    run.stderr.clone()
}

#[test]
fn not_an_image() {
    let scratch = scratch();
    let path = scratch.write("notes.png", b"hello, not a picture");
    let err = assert_one_line_error(&linkup(["solve", path.to_str().unwrap()]), "notes.png");
    assert!(err.contains("cannot decode the image"), "{err}");
}

#[test]
fn truncated_png() {
    let full = std::fs::read(fixture_path("xshisen-fresh-8x18.png")).unwrap();
    let scratch = scratch();
    let path = scratch.write("cut.png", &full[..full.len() / 2]);
    assert_one_line_error(&linkup(["solve", path.to_str().unwrap()]), "cut.png");
}

#[test]
fn image_without_a_board() {
    let scratch = scratch();
    let path = scratch.write("plain.png", png_bytes(&no_board(300, 200)));
    let err = assert_one_line_error(&linkup(["solve", path.to_str().unwrap()]), "plain.png");
    assert!(err.contains("no board found"), "{err}");
}

#[test]
fn profile_that_does_not_fit() {
    let scratch = scratch();
    let path = scratch.write("small.png", png_bytes(&no_board(100, 80)));
    let profile = root().join("calibration/xshisen.toml");
    let err = assert_one_line_error(
        &linkup([
            "solve",
            path.to_str().unwrap(),
            "--profile",
            profile.to_str().unwrap(),
        ]),
        "small.png",
    );
    assert!(err.contains("does not fit the 100x80 image"), "{err}");
}

#[test]
fn calibrate_a_window_without_a_display() {
    let dir = scratch();
    let run = Linkup::new([
        "calibrate",
        "--window",
        "xshisen",
        "--name",
        "never-written",
    ])
    .env_remove("DISPLAY")
    .env_remove("WAYLAND_DISPLAY")
    .dir(dir.path())
    .run();
    let stderr = run.stderr;
    assert_eq!(run.code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // Without the desktop feature nothing can be captured at all, and it says so instead.
    let why = if cfg!(feature = "desktop") {
        "DISPLAY is not set"
    } else {
        "built without the `desktop` feature"
    };
    assert!(stderr.contains(why), "{stderr}");
    assert!(!dir.path().join("calibration/never-written.toml").exists());
}

/// Issue 11: a board whose tiles are not read is a failure, never "cleared in 0 moves". Empty
/// outlined squares on a grid look like tiles to calibration, yet every face is background.
#[test]
fn a_board_read_with_no_tiles_is_an_error() {
    let (pitch, size) = (40u32, 36u32);
    let img = image::RgbaImage::from_fn(500, 400, |x, y| {
        let (cx, cy) = (x.wrapping_sub(60), y.wrapping_sub(80));
        let inside = cx < 8 * pitch && cy < 6 * pitch;
        let (u, v) = (cx % pitch, cy % pitch);
        let outline =
            inside && u < size && v < size && (u < 2 || v < 2 || u >= size - 2 || v >= size - 2);
        let shade = if outline { 40 } else { 235 };
        image::Rgba([shade, shade, shade, 255])
    });
    let scratch = scratch();
    let path = scratch.write("outlines.png", png_bytes(&img));
    let err = assert_one_line_error(&linkup(["solve", path.to_str().unwrap()]), "outlines.png");
    assert!(err.contains("found a 6x8 board but read no tile"), "{err}");
}

/// Issue 13: the cause was printed twice ("...: No such file or directory (os error 2): No such
/// file or directory (os error 2)").
#[test]
fn r13_a_missing_file_names_its_cause_once() {
    let run = linkup(["solve", "/nonexistent.png"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    let err = run.stderr;
    assert_eq!(
        err,
        "linkup: /nonexistent.png: cannot read the image: No such file or directory (os error 2)\n"
    );
    let run = linkup(["play", "--profile", "/nonexistent.toml"]);
    assert_eq!(run.code, Some(2), "{run:?}");
    let err = run.stderr;
    assert_eq!(
        err,
        "linkup: cannot read the profile /nonexistent.toml: No such file or directory (os error 2)\n"
    );
}
