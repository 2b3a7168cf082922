//! The `linkup` binary as a user runs it: `plan` and `judge link`, output and exit codes.

use std::io::Write;

use crate::support::{Linkup, linkup, scratch};

const BUNDLED: &str = "tests/fixtures/boards/shisen_8x18.txt";

#[test]
fn plan_prints_moves_and_the_end_state() {
    let out = linkup(["plan", BUNDLED]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let text = out.stdout;
    assert!(
        text.lines()
            .next()
            .unwrap()
            .trim_start()
            .starts_with("1. ("),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("cleared in ") || last.starts_with("stuck: "),
        "{last}"
    );
}

#[test]
fn plan_json_has_the_documented_shape() {
    let out = linkup(["plan", BUNDLED, "--json"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let moves = json["moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    assert_eq!(moves[0]["a"].as_array().unwrap().len(), 2);
    assert!(moves[0]["path"].as_array().unwrap().len() >= 2);
    let left = json["left"].as_u64().unwrap();
    let result = json["result"].as_str().unwrap();
    assert_eq!(result == "cleared", left == 0);
    assert_eq!(moves.len() as u64 * 2 + left, 144);
}

#[test]
fn plan_reports_a_stuck_board() {
    let dir = scratch();
    let board = dir.write("stuck.txt", "1 2\n2 1\n");
    let out = linkup(["plan", board.to_str().unwrap()]);
    assert_eq!(out.code, Some(0), "{out:?}");
    assert_eq!(out.stdout, "stuck: 4 tiles left, no pair\n");
}

#[test]
fn plan_names_the_file_and_line_of_a_bad_board() {
    let dir = scratch();
    let board = dir.write("bad.txt", "1 1\n1 x\n");
    let out = linkup(["plan", board.to_str().unwrap()]);
    assert_eq!(out.code, Some(2));
    let err = out.stderr;
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("bad.txt") && err.contains("line 2, column 3"),
        "{err}"
    );
}

#[test]
fn plan_missing_file_is_one_line() {
    let out = linkup(["plan", "no/such/board.txt"]);
    assert_eq!(out.code, Some(2));
    let err = out.stderr;
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no/such/board.txt"), "{err}");
}

#[test]
fn judge_link_answers_the_sample() {
    let input = "3 4\n1 2 3 4\n0 0 0 0\n4 3 2 1\n4\n1 1 3 4\n1 1 2 4\n1 1 3 3\n2 1 2 4\n\
                 3 4\n0 1 4 3\n0 2 4 1\n0 0 0 0\n2\n1 1 2 4\n1 3 2 3\n0 0\n";
    let out = Linkup::new(["judge", "link"]).stdin(input).run();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert_eq!(out.stdout, "YES\nNO\nNO\nNO\nNO\nYES\n");
}

#[test]
fn judge_link_truncated_input_prints_no_partial_output() {
    let input = "1 2\n1 1\n1\n1 1 1 2\n2 2\n1 1\n";
    let out = Linkup::new(["judge", "link"]).stdin(input).run();
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "linkup: stdin: line 7: input ends early: expected a tile kind (a non-negative integer)\n"
    );
}

#[test]
fn judge_link_garbage_names_the_line() {
    let out = Linkup::new(["judge", "link"])
        .stdin("2 2\n1 1\n1 -1\n")
        .run();
    assert_eq!(out.code, Some(2));
    assert!(
        out.stderr.contains("line 3: expected a tile kind"),
        "{}",
        out.stderr
    );
}

#[test]
fn output_into_a_closed_pipe_is_a_quiet_success() {
    // `linkup plan b.txt | head -1`, made certain: linkup reads its input from stdin, and the
    // reader of its output is gone before that input arrives.
    let board = std::fs::read(BUNDLED).unwrap();
    let png = std::fs::read("tests/fixtures/xshisen-mid-8x18.png").unwrap();
    for (args, input) in [
        (&["plan", "/dev/stdin"][..], &board),
        (&["plan", "/dev/stdin", "--json"], &board),
        (&["solve", "/dev/stdin"], &png),
    ] {
        let mut child = Linkup::new(args).spawn();
        drop(child.stdout.take());
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert_eq!(stderr, "", "{args:?}");
    }
}

#[test]
fn play_refuses_a_shuffle_key_it_cannot_press_when_the_profile_is_loaded() {
    let base = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("calibration/xshisen.toml"),
    )
    .unwrap();
    let text = format!("{base}\n[shuffle]\nkey = \"ctrl+hyper\"\n");
    let line = text.lines().count();
    let dir = scratch();
    let path = dir.write("game.toml", &text);
    let out = linkup(["play", "--profile", path.to_str().unwrap()]);
    assert_eq!(out.code, Some(2));
    assert_eq!(
        out.stderr,
        format!(
            "linkup: {}: line {line}: cannot read the key combination `ctrl+hyper`: `hyper` is not a key (write modifiers ctrl, shift, alt, super and one key joined by +, e.g. ctrl+s or F5)\n",
            path.display()
        )
    );
}
