//! The judges on large generated inputs: `judge link` on its worst case for cell-by-cell
//! searches (a 1000x999 board with about 0.2% tiles, 3 cases of 49 queries) against the cost
//! of merely scanning the same input; `judge strokes` at its limits; `judge gomoku`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::judge::{Input, gomoku, link, strokes};
use linkup::random::SplitMix64;
use std::fmt::Write;

/// The big sparse HDOJ 1175 input.
fn link_input() -> Vec<u8> {
    let (n, m) = (1000usize, 999usize);
    let mut random = SplitMix64::new(0x5eed_0001);
    let mut out = String::new();
    for _ in 0..3 {
        writeln!(out, "{n} {m}").unwrap();
        let mut tiles = Vec::new();
        for r in 0..n {
            for c in 0..m {
                let kind = if random.below(500) == 0 {
                    random.below(20) + 1
                } else {
                    0
                };
                if kind != 0 {
                    tiles.push((r, c, kind));
                }
                out.push_str(if c == 0 { "" } else { " " });
                write!(out, "{kind}").unwrap();
            }
            out.push('\n');
        }
        writeln!(out, "49").unwrap();
        for _ in 0..49 {
            // Mostly tiles of the same kind far apart: the slow case for a search.
            let a = tiles[random.below(tiles.len() as u64) as usize];
            let b = tiles
                .iter()
                .rev()
                .find(|t| t.2 == a.2 && (t.0, t.1) != (a.0, a.1))
                .unwrap_or(&a);
            writeln!(out, "{} {} {} {}", a.0 + 1, a.1 + 1, b.0 + 1, b.1 + 1).unwrap();
        }
    }
    out.push_str("0 0\n");
    out.into_bytes()
}

/// Reads every token as a number and does nothing else: the floor for any judge.
fn scan_only(input: &[u8]) -> u64 {
    let mut input = Input::new(input);
    let mut sum = 0;
    while !input.at_end() {
        sum += input.uint("a number", u64::MAX).unwrap();
    }
    sum
}

/// One strokes case at the limits: n = 100000 vertices, m = 200000 random edges.
fn strokes_input() -> Vec<u8> {
    let (n, m) = (strokes::MAX_VERTICES, strokes::MAX_EDGES);
    let mut random = SplitMix64::new(0x5eed_0003);
    let mut text = format!("{n} {m}\n");
    for _ in 0..m {
        let a = 1 + random.below(n);
        let b = 1 + random.below(n);
        text.push_str(&format!("{a} {b}\n"));
    }
    text.into_bytes()
}

/// 1000 random half-full gomoku boards.
fn gomoku_input() -> Vec<u8> {
    let boards = 1000;
    let mut random = SplitMix64::new(0x5eed_0004);
    let mut text = format!("{boards}\n");
    for _ in 0..boards {
        for _ in 0..gomoku::SIZE {
            for _ in 0..gomoku::SIZE {
                text.push(match random.below(4) {
                    0 => 'W',
                    1 => 'B',
                    _ => '.',
                });
            }
            text.push('\n');
        }
        text.push('\n');
    }
    text.into_bytes()
}

fn judges(c: &mut Criterion) {
    let sparse = link_input();
    let mut group = c.benchmark_group("link 1000x999 sparse");
    group.sample_size(20);
    group.bench_function("judge", |b| {
        b.iter(|| link::judge(black_box(&sparse), false).unwrap())
    });
    group.bench_function("judge --border", |b| {
        b.iter(|| link::judge(black_box(&sparse), true).unwrap())
    });
    group.bench_function("scan only", |b| b.iter(|| scan_only(black_box(&sparse))));
    group.finish();

    let graph = strokes_input();
    for (name, report) in [
        ("strokes count n=100000 m=200000", strokes::Report::Count),
        (
            "strokes circuit n=100000 m=200000",
            strokes::Report::Circuit,
        ),
        ("strokes paths n=100000 m=200000", strokes::Report::Paths),
    ] {
        c.bench_function(name, |b| {
            b.iter(|| strokes::judge(black_box(&graph), report).expect("valid input"))
        });
    }
    let boards = gomoku_input();
    c.bench_function("gomoku 1000 boards", |b| {
        b.iter(|| gomoku::judge(black_box(&boards), false).expect("valid input"))
    });
}

criterion_group!(benches, judges);
criterion_main!(benches);
