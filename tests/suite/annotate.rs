//! `--annotate` pictures against reference images: the grid, kind ids and numbered paths are
//! drawn exactly as before. After a deliberate change to the drawing, run
//! `REGENERATE=1 cargo test --release --test suite annotate::` and look at the new pictures in
//! `tests/fixtures/annotated/` before committing them.

use image::RgbaImage;
use linkup::profile::Profile;
use linkup::solver::{Rules, greedy_plan};
use linkup::vision;

use crate::support::{fixture, fixture_path, linkup, load, root, scratch};

/// Draws `stem` with its expected grid, at its profile's geometry, with the greedy plan (stable
/// code, so the picture changes only when the drawing does), and compares it with the
/// reference picture.
fn check(stem: &str, profile: &str) {
    let (image, board) = fixture(stem);
    let profile = Profile::load(&root().join("calibration").join(profile)).unwrap();
    let plan = greedy_plan(&board, Rules::shisen_sho());
    assert!(!plan.moves.is_empty());
    let drawn = vision::annotate(&image, &profile.board, &board, &plan.moves);
    let reference = fixture_path(&format!("annotated/{stem}.png"));
    if std::env::var_os("REGENERATE").is_some() {
        drawn.save(&reference).unwrap();
        return;
    }
    let expected: RgbaImage = vision::load_image(&reference).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run REGENERATE=1 cargo test --release --test suite annotate::",
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
    let dir = scratch();
    let out = dir.path().join("annotated.png");
    let run = linkup(["solve", "--annotate", out.to_str().unwrap()]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let picture = vision::load_image(&out).unwrap();
    let bundled = load("xshisen-fresh-8x18");
    assert_eq!(picture.dimensions(), bundled.dimensions());
    assert_ne!(picture, bundled, "nothing was drawn");
}
