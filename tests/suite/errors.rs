//! The `linkup` binary on bad input: a corrupt screenshot, a malformed board, a broken profile,
//! garbage on a judge's stdin. Each exits with code 2 and one `linkup: ...` line on stderr,
//! never a panic (exit code 101).

use std::path::Path;

use crate::support::{Linkup, Run, assert_one_line_error, scratch};

/// Runs `linkup ARGS` in `dir` with `stdin` as standard input.
fn linkup_in(dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    Linkup::new(args).dir(dir).stdin(stdin).run()
}

#[test]
fn solve_on_a_corrupt_png_is_one_line() {
    let dir = scratch();
    let png = include_bytes!("../fixtures/xshisen-fresh-8x18.png");
    // The signature and header survive; the picture data is cut short.
    dir.write("cut.png", &png[..png.len() / 3]);
    let run = linkup_in(dir.path(), &["solve", "cut.png"], b"");
    assert_one_line_error(&run, "linkup: cut.png: cannot decode the image (");
}

#[test]
fn solve_on_bytes_that_are_no_image_is_one_line() {
    let dir = scratch();
    dir.write("noise.png", b"\x89PNG\r\n\x1a\nnot really");
    let run = linkup_in(dir.path(), &["solve", "noise.png"], b"");
    assert_one_line_error(&run, "linkup: noise.png: cannot decode the image (");
}

#[test]
fn solve_with_a_broken_profile_names_the_file_and_line() {
    let dir = scratch();
    dir.write("broken.toml", "[board]\nrows = \"eight\"\n");
    let run = linkup_in(dir.path(), &["solve", "--profile", "broken.toml"], b"");
    assert_one_line_error(&run, "linkup: broken.toml: line 2: ");
}

#[test]
fn plan_on_malformed_board_text_names_the_line() {
    let dir = scratch();
    dir.write("board.txt", "1 2\n2 1 x\n");
    let run = linkup_in(dir.path(), &["plan", "board.txt"], b"");
    assert_one_line_error(
        &run,
        "linkup: board.txt is not a board (one row per line, kinds separated by spaces, 0 = empty): \
         line 2, column 5: expected a tile kind (a non-negative integer), found `x`\n",
    );
}

#[test]
fn plan_on_binary_garbage_is_one_line() {
    let dir = scratch();
    dir.write("board.txt", [0xff, 0xfe, 0, 1, 2, b'\n', 0x80]);
    let run = linkup_in(dir.path(), &["plan", "board.txt", "--planner"], b"");
    assert_one_line_error(&run, "linkup: ");
}

#[test]
fn judges_on_garbage_are_one_line() {
    let dir = scratch();
    let garbage: &[u8] = b"3 x\n\xff\xfe\x00 garbage \r\n";
    for judge in [
        &["judge", "link"][..],
        &["judge", "link", "--border"],
        &["judge", "strokes"],
        &["judge", "strokes", "--circuit"],
        &["judge", "strokes", "--paths"],
        &["judge", "gomoku"],
        &["judge", "gomoku", "--overline"],
    ] {
        let run = linkup_in(dir.path(), judge, garbage);
        assert_one_line_error(&run, "linkup: stdin: line 1: ");
    }
}

#[test]
fn solve_on_a_missing_file_names_the_cause_once() {
    let dir = scratch();
    let run = linkup_in(dir.path(), &["solve", "missing.png"], b"");
    assert_one_line_error(
        &run,
        "linkup: missing.png: cannot read the image: No such file or directory (os error 2)\n",
    );
}

#[test]
fn solve_with_a_missing_profile_names_the_cause_once() {
    let dir = scratch();
    let run = linkup_in(dir.path(), &["solve", "--profile", "missing.toml"], b"");
    assert_one_line_error(
        &run,
        "linkup: cannot read the profile missing.toml: No such file or directory (os error 2)\n",
    );
}
