//! Vision on kshisen with every tileset and background kmahjongg ships: the fixtures
//! `tests/fixtures/kshisen-tileset-*` and `kshisen-background-*` (see tests/fixtures/README.md)
//! read with the public API and compared with their hand-checked grids up to renaming of kinds.
//! Vision reads them all right today.
use std::collections::HashMap;

use linkup::board::{Board, Kind};
use linkup::vision::{self, ClassifierSettings};

use crate::support::{fixture, fixtures_dir, grid, same_up_to_renaming};

/// The fixtures, all read right.
const READ_RIGHT: &[&str] = &[
    "kshisen-tileset-traditional-mid-8x18",
    "kshisen-tileset-classic-fresh-8x18",
    "kshisen-tileset-classic-fresh-12x24",
    "kshisen-tileset-egypt-fresh-8x18",
    "kshisen-tileset-egypt-fresh-12x24",
    "kshisen-tileset-alphabet-fresh-8x18",
    "kshisen-background-default-fresh-8x18",
    "kshisen-background-default-fresh-12x24",
    "kshisen-background-default-mid-12x24",
    "kshisen-background-chinese-landscape-fresh-8x18",
    "kshisen-background-chinese-landscape-fresh-12x24",
    "kshisen-background-summerfield-fresh-8x18",
    "kshisen-background-summerfield-fresh-12x24",
    "kshisen-background-wood-light-fresh-8x18",
    "kshisen-background-wood-light-fresh-12x24",
    "kshisen-tileset-jade-fresh-8x18",
    "kshisen-background-color-plain-fresh-8x18",
    "kshisen-background-color-plain-fresh-12x24",
    "kshisen-tileset-alphabet-fresh-12x24",
    "kshisen-tileset-alphabet-mid-8x18",
    "kshisen-tileset-traditional-fresh-8x18",
    "kshisen-tileset-traditional-fresh-12x24",
    "kshisen-tileset-jade-fresh-12x24",
    "kshisen-tileset-jade-mid-8x18",
];

/// Cells of `a` outside the most common `b` value of their `a` kind (empty counts as a kind):
/// how far a grouping is from another, for failure messages.
fn cells_off_majority(a: &Board, b: &Board) -> usize {
    let mut counts: HashMap<(Kind, Kind), usize> = HashMap::new();
    for (&x, &y) in a.cells().iter().zip(b.cells()) {
        *counts.entry((x, y)).or_default() += 1;
    }
    let mut best: HashMap<Kind, usize> = HashMap::new();
    for (&(x, _), &n) in &counts {
        let m = best.entry(x).or_default();
        *m = (*m).max(n);
    }
    a.cells().len() - best.values().sum::<usize>()
}

/// Reads one fixture; what went wrong, if anything.
fn misreading(stem: &str) -> Option<String> {
    let (image, expected) = fixture(stem);
    let geometry = match vision::calibrate(&image) {
        Ok(g) => g,
        Err(e) => return Some(format!("{stem}: calibrate: {e}")),
    };
    let board = match vision::read_board(&image, &geometry, &ClassifierSettings::default()) {
        Ok(r) => r.board,
        Err(e) => return Some(format!("{stem}: read_board: {e}")),
    };
    if (board.rows(), board.cols()) != (expected.rows(), expected.cols()) {
        return Some(format!(
            "{stem}: {}x{} board found, {}x{} expected",
            board.rows(),
            board.cols(),
            expected.rows(),
            expected.cols()
        ));
    }
    if same_up_to_renaming(&board, &expected) {
        return None;
    }
    let wrong = cells_off_majority(&board, &expected).max(cells_off_majority(&expected, &board));
    Some(format!(
        "{stem}: {wrong} of {} cells wrong\nexpected\n{expected}found\n{board}",
        expected.cells().len()
    ))
}

fn assert_all_read_right(stems: &[&str]) {
    let failures: Vec<String> = stems.iter().filter_map(|s| misreading(s)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} misread:\n{}",
        failures.len(),
        stems.len(),
        failures.join("\n")
    );
}

#[test]
fn tileset_and_background_fixtures_read_right() {
    assert_all_read_right(READ_RIGHT);
}

/// Every fixture of this kind on disk is in exactly one list, and its grid has an even count
/// of every kind (a grid that could not be cleared would be a mistake in the fixture).
#[test]
fn every_tileset_and_background_fixture_is_listed_once_with_a_sound_grid() {
    let mut on_disk: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|name| name.strip_suffix(".png").map(str::to_owned))
        .filter(|stem| {
            stem.starts_with("kshisen-tileset-") || stem.starts_with("kshisen-background-")
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = READ_RIGHT.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk);
    for stem in &listed {
        let board = grid(stem);
        let mut counts: HashMap<Kind, usize> = HashMap::new();
        for &kind in board.cells().iter().filter(|&&k| k != 0) {
            *counts.entry(kind).or_default() += 1;
        }
        let odd: Vec<_> = counts.iter().filter(|(_, n)| *n % 2 == 1).collect();
        assert!(odd.is_empty(), "{stem}: odd counts (kind, count) {odd:?}");
    }
}
