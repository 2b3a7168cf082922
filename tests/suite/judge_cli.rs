//! The `linkup judge` subcommands as a user runs them: stdin in, stdout, stderr and exit code out.

use crate::support::{Linkup, Run};

/// Runs `linkup judge ARGS...` with `stdin` as its input.
fn judge(args: &[&str], stdin: &str) -> Run {
    Linkup::new(std::iter::once(&"judge").chain(args))
        .stdin(stdin)
        .run()
}

/// Asserts a successful run with exactly `stdout` and nothing on stderr.
fn assert_output(run: &Run, stdout: &str) {
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(0), stdout, "")
    );
}

/// Asserts a failed run: exit code 2, nothing on stdout, `stderr` as the one error line.
fn assert_error(run: &Run, stderr: &str) {
    assert_eq!(
        (run.code, run.stdout.as_str(), run.stderr.as_str()),
        (Some(2), "", stderr)
    );
}

const GRAPHS: &str = "3 3\n1 2\n2 3\n1 3\n\n4 2\n1 2\n3 4\n\n5 0\n";

/// A 15 x 15 board from its rows, each row followed by `\n`.
fn board(rows: &[&str]) -> String {
    rows.iter().map(|row| format!("{row}\n")).collect()
}

const EMPTY_ROW: &str = "...............";

#[test]
fn strokes_prints_the_fewest_strokes_per_case() {
    assert_output(&judge(&["strokes"], GRAPHS), "1\n2\n0\n");
}

#[test]
fn strokes_circuit_prints_1_or_0_per_case() {
    assert_output(&judge(&["strokes", "--circuit"], GRAPHS), "1\n0\n1\n");
}

#[test]
fn strokes_paths_prints_each_count_and_its_strokes() {
    let run = judge(&["strokes", "--paths"], GRAPHS);
    assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
    let lines: Vec<&str> = run.stdout.lines().collect();
    // Triangle: one closed stroke; two separate edges: one stroke each; no edges: none.
    assert_eq!(lines.len(), 1 + 1 + 1 + 2 + 1, "{lines:?}");
    assert_eq!(lines[0], "1");
    let triangle: Vec<&str> = lines[1].split(' ').collect();
    assert_eq!(triangle.len(), 4);
    assert_eq!(triangle.first(), triangle.last());
    assert_eq!(lines[2], "2");
    let mut edges = vec![lines[3], lines[4]];
    edges.sort_unstable();
    assert!(matches!(edges[0], "1 2" | "2 1"), "{edges:?}");
    assert!(matches!(edges[1], "3 4" | "4 3"), "{edges:?}");
    assert_eq!(lines[5], "0");
}

#[test]
fn strokes_rejects_a_vertex_outside_the_graph() {
    let run = judge(&["strokes"], "3 1\n1 2\n3 2\n1 7\n");
    assert_error(
        &run,
        "linkup: stdin: line 4: an edge end must be a vertex between 1 and 3, found 7\n",
    );
}

#[test]
fn strokes_rejects_truncated_input_without_partial_output() {
    // The first case is complete, but nothing is printed for it.
    let run = judge(&["strokes", "--paths"], "2 1\n1 2\n2 2\n1 2\n");
    assert_error(
        &run,
        "linkup: stdin: line 5: input ends early: expected an edge end (a vertex number)\n",
    );
}

#[test]
fn strokes_circuit_and_paths_do_not_go_together() {
    let run = judge(&["strokes", "--circuit", "--paths"], GRAPHS);
    assert_eq!(run.code, Some(2));
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("cannot be used with"), "{}", run.stderr);
}

#[test]
fn gomoku_answers_each_board() {
    // Board 1: black to move (4 each), `.BBBB` at the right edge: YES.
    // Board 2: the same stones and one more black one, so white moves: NO.
    let mut first = [EMPTY_ROW; 15];
    first[7] = "...........BBBB";
    first[0] = "W.W.W.W........";
    let mut second = first;
    second[1] = "B..............";
    let input = format!("2\n{}\n{}", board(&first), board(&second));
    assert_output(&judge(&["gomoku"], &input), "YES\nNO\n");
}

#[test]
fn gomoku_overline_accepts_six() {
    let mut rows = [EMPTY_ROW; 15];
    rows[7] = "....BB.BBB.....";
    rows[0] = "W.W.W.W.W......";
    let input = format!("1\n{}", board(&rows));
    assert_output(&judge(&["gomoku"], &input), "NO\n");
    assert_output(&judge(&["gomoku", "--overline"], &input), "YES\n");
}

#[test]
fn gomoku_rejects_a_bad_row_with_its_line() {
    let mut rows = [EMPTY_ROW; 15];
    rows[2] = "......X........";
    let input = format!("1\n{}", board(&rows));
    assert_error(
        &judge(&["gomoku"], &input),
        "linkup: stdin: line 4: expected row 3 of board 1: 15 cells of `.`, `W` or `B`, \
         found `......X........`\n",
    );
}

#[test]
fn gomoku_rejects_a_missing_board_without_partial_output() {
    let input = format!("2\n{}", board(&[EMPTY_ROW; 15]));
    assert_error(
        &judge(&["gomoku"], &input),
        "linkup: stdin: line 17: input ends early: expected row 1 of board 2: 15 cells of `.`, \
         `W` or `B`\n",
    );
}

#[test]
fn help_texts_describe_the_output() {
    let help = judge(&["strokes", "--help"], "").stdout;
    assert!(help.contains("--paths"), "{help}");
    assert!(help.contains("a case without edges prints 1"), "{help}");
}
