//! Solver speed on an 8x18 Shisen-Sho board (144 tiles, 36 kinds x 4), full and half-cleared.

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::board::{Board, Pos};
use linkup::deal::{Fill, deal};
use linkup::solver::{NextPair, Rules, connect, next_pair, pairs, remove_pair};
use std::hint::black_box;

/// The board after greedy removals until at most `left` tiles remain.
fn cleared_down_to(mut board: Board, rules: Rules, left: usize) -> Board {
    let mut last = None;
    while board.tiles() > left {
        match next_pair(&board, rules, last) {
            NextPair::Found(m) => {
                remove_pair(&mut board, m.a, m.b, rules);
                last = Some(m.a);
            }
            _ => break,
        }
    }
    board
}

fn bench(c: &mut Criterion) {
    let rules = Rules::shisen_sho();
    let full = deal(8, 18, Fill::Xshisen, 7);
    let half = cleared_down_to(full.clone(), rules, 72);
    for (name, board) in [("full", &full), ("half", &half)] {
        let (a, b) = pairs(board, rules)[0];
        let far = pairs(board, rules)
            .into_iter()
            .max_by_key(|&(a, b): &(Pos, Pos)| a.row.abs_diff(b.row) + a.col.abs_diff(b.col))
            .unwrap();
        c.bench_function(&format!("connect/{name}/first_pair"), |bench| {
            bench.iter(|| connect(black_box(board), a, b, rules))
        });
        c.bench_function(&format!("connect/{name}/farthest_pair"), |bench| {
            bench.iter(|| connect(black_box(board), far.0, far.1, rules))
        });
        c.bench_function(&format!("pairs/{name}"), |bench| {
            bench.iter(|| pairs(black_box(board), rules))
        });
        c.bench_function(&format!("next_pair/{name}"), |bench| {
            bench.iter(|| next_pair(black_box(board), rules, Some(Pos::new(4, 9))))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
