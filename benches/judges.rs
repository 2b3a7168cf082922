//! Benchmarks of `linkup judge strokes` and `linkup judge gomoku` on large generated inputs.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::judge::{gomoku, strokes};

/// A small deterministic generator (xorshift64), so every run sees the same input.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..bound`.
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

/// One strokes case at the limits: n = 100000 vertices, m = 200000 random edges.
fn strokes_input() -> Vec<u8> {
    let (n, m) = (strokes::MAX_VERTICES, strokes::MAX_EDGES);
    let mut random = Xorshift(0x5eed_0003);
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
    let mut random = Xorshift(0x5eed_0004);
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
