//! The planner on fixed-seed 8x18 xshisen deals, with and without gravity.

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::deal::{Fill, deal};
use linkup::planner::{Budget, plan};
use linkup::solver::Rules;

fn planner(c: &mut Criterion) {
    let mut group = c.benchmark_group("planner 8x18");
    group.sample_size(20);
    for seed in [1, 2, 3, 5] {
        let board = deal(8, 18, Fill::Xshisen, seed);
        for gravity in [false, true] {
            let rules = Rules {
                gravity,
                ..Rules::shisen_sho()
            };
            let name = format!("seed {seed}{}", if gravity { " gravity" } else { "" });
            group.bench_function(name, |b| {
                b.iter(|| plan(std::hint::black_box(&board), rules, Budget::nodes(20_000)))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, planner);
criterion_main!(benches);
