//! `linkup solve` on bad input: a one-line error naming the file, a non-zero exit, no panic.

use std::path::PathBuf;
use std::process::Command;

fn linkup(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_linkup"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linkup-vision-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn assert_one_line_error(stderr: &str, code: i32, file: &str) {
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(file), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn not_an_image() {
    let path = scratch("notes.png", b"hello, not a picture");
    let (code, err) = linkup(&["solve", path.to_str().unwrap()]);
    assert_one_line_error(&err, code, "notes.png");
    assert!(err.contains("cannot decode the image"), "{err}");
}

#[test]
fn truncated_png() {
    let full = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/xshisen-fresh-8x18.png"
    ))
    .unwrap();
    let path = scratch("cut.png", &full[..full.len() / 2]);
    let (code, err) = linkup(&["solve", path.to_str().unwrap()]);
    assert_one_line_error(&err, code, "cut.png");
}

#[test]
fn image_without_a_board() {
    let mut bytes = Vec::new();
    image::RgbaImage::from_pixel(300, 200, image::Rgba([90, 120, 160, 255]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    let path = scratch("plain.png", &bytes);
    let (code, err) = linkup(&["solve", path.to_str().unwrap()]);
    assert_one_line_error(&err, code, "plain.png");
    assert!(err.contains("no board found"), "{err}");
}

#[test]
fn profile_that_does_not_fit() {
    let mut bytes = Vec::new();
    image::RgbaImage::from_pixel(100, 80, image::Rgba([90, 120, 160, 255]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    let path = scratch("small.png", &bytes);
    let profile = concat!(env!("CARGO_MANIFEST_DIR"), "/calibration/xshisen.toml");
    let (code, err) = linkup(&["solve", path.to_str().unwrap(), "--profile", profile]);
    assert_one_line_error(&err, code, "small.png");
    assert!(err.contains("does not fit the 100x80 image"), "{err}");
}

#[test]
fn calibrate_a_window_without_a_display() {
    let out = Command::new(env!("CARGO_BIN_EXE_linkup"))
        .args([
            "calibrate",
            "--window",
            "xshisen",
            "--name",
            "never-written",
        ])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // Without the desktop feature nothing can be captured at all, and it says so instead.
    let why = if cfg!(feature = "desktop") {
        "DISPLAY is not set"
    } else {
        "built without the `desktop` feature"
    };
    assert!(stderr.contains(why), "{stderr}");
    assert!(
        !std::env::temp_dir()
            .join("calibration/never-written.toml")
            .exists()
    );
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
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    let path = scratch("outlines.png", &png);
    let (code, err) = linkup(&["solve", path.to_str().unwrap()]);
    assert_one_line_error(&err, code, "outlines.png");
    assert!(err.contains("found a 6x8 board but read no tile"), "{err}");
}

/// Issue 13: the cause was printed twice ("...: No such file or directory (os error 2): No such
/// file or directory (os error 2)").
#[test]
fn r13_a_missing_file_names_its_cause_once() {
    let (code, err) = linkup(&["solve", "/nonexistent.png"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "linkup: /nonexistent.png: cannot read the image: No such file or directory (os error 2)\n"
    );
    let (code, err) = linkup(&["play", "--profile", "/nonexistent.toml"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err,
        "linkup: cannot read the profile /nonexistent.toml: No such file or directory (os error 2)\n"
    );
}
