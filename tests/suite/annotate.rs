//! `--annotate` pictures against reference images: the grid, kind ids and numbered paths are
//! drawn exactly as before. After a deliberate change to the drawing, run
//! `REGENERATE=1 cargo test --release --test annotate` and look at the new pictures in
//! `tests/fixtures/annotated/` before committing them.

use std::path::{Path, PathBuf};

use image::RgbaImage;
use linkup::board::Board;
use linkup::profile::Profile;
use linkup::solver::{Rules, greedy_plan};
use linkup::vision;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(name: &str) -> PathBuf {
    Path::new(ROOT).join("tests/fixtures").join(name)
}

/// Draws `stem` with its expected grid, at its profile's geometry, with the greedy plan (stable
/// code, so the picture changes only when the drawing does), and compares it with the
/// reference picture.
fn check(stem: &str, profile: &str) {
    let image = vision::load_image(&fixture(&format!("{stem}.png"))).unwrap();
    let board: Board = std::fs::read_to_string(fixture(&format!("{stem}.grid.txt")))
        .unwrap()
        .parse()
        .unwrap();
    let profile = Profile::load(&Path::new(ROOT).join("calibration").join(profile)).unwrap();
    let plan = greedy_plan(&board, Rules::shisen_sho());
    assert!(!plan.moves.is_empty());
    let drawn = vision::annotate(&image, &profile.board, &board, &plan.moves);
    let reference = fixture(&format!("annotated/{stem}.png"));
    if std::env::var_os("REGENERATE").is_some() {
        drawn.save(&reference).unwrap();
        return;
    }
    let expected: RgbaImage = vision::load_image(&reference).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run REGENERATE=1 cargo test --release --test annotate",
            reference.display()
        )
    });
    if drawn != expected {
        let out = std::env::temp_dir().join(format!("linkup-annotated-{stem}.png"));
        drawn.save(&out).unwrap();
        let differing = drawn
            .pixels()
            .zip(expected.pixels())
            .filter(|(a, b)| a != b)
            .count();
        panic!(
            "{stem}: the annotated picture differs from {} in {differing} pixels (sizes {:?} and {:?}); \
             this run's picture is {}; if the change is deliberate, run REGENERATE=1",
            reference.display(),
            drawn.dimensions(),
            expected.dimensions(),
            out.display()
        );
    }
}

#[test]
fn xshisen_annotated_as_before() {
    check("xshisen-mid-8x18", "xshisen.toml");
}

#[test]
fn solve_annotate_writes_the_picture_at_the_screenshot_size() {
    let out =
        std::env::temp_dir().join(format!("linkup-solve-annotate-{}.png", std::process::id()));
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_linkup"))
        .args(["solve", "--annotate"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let picture = vision::load_image(&out).unwrap();
    let bundled = vision::load_image(&fixture("xshisen-fresh-8x18.png")).unwrap();
    assert_eq!(picture.dimensions(), bundled.dimensions());
    assert_ne!(picture, bundled, "nothing was drawn");
    std::fs::remove_file(out).unwrap();
}
