//! `judge link` on its worst case for cell-by-cell searches: a 1000x999 board with about 0.2%
//! tiles, 3 cases of 49 queries, against the cost of merely scanning the same input.

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::judge::Input;
use linkup::judge::link::judge;
use std::fmt::Write;
use std::hint::black_box;

/// The big sparse HDOJ 1175 input, from a fixed seed.
fn sparse_input() -> String {
    let (n, m) = (1000usize, 999usize);
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = String::new();
    for _ in 0..3 {
        writeln!(out, "{n} {m}").unwrap();
        let mut tiles = Vec::new();
        for r in 0..n {
            for c in 0..m {
                let kind = if next() % 500 == 0 {
                    next() % 20 + 1
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
            let a = tiles[(next() % tiles.len() as u64) as usize];
            let b = tiles
                .iter()
                .rev()
                .find(|t| t.2 == a.2 && (t.0, t.1) != (a.0, a.1))
                .unwrap_or(&a);
            writeln!(out, "{} {} {} {}", a.0 + 1, a.1 + 1, b.0 + 1, b.1 + 1).unwrap();
        }
    }
    out.push_str("0 0\n");
    out
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

fn bench(c: &mut Criterion) {
    let input = sparse_input();
    let bytes = input.as_bytes();
    let mut group = c.benchmark_group("judge_link_1000x999_sparse");
    group.sample_size(20);
    group.bench_function("judge", |b| {
        b.iter(|| judge(black_box(bytes), false).unwrap())
    });
    group.bench_function("judge_border", |b| {
        b.iter(|| judge(black_box(bytes), true).unwrap())
    });
    group.bench_function("scan_only", |b| b.iter(|| scan_only(black_box(bytes))));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
