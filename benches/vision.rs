//! Vision speed: reading a 1280x1024 frame with a known geometry, finding its selected tile,
//! calibrating it, relabelling a kshisen frame with its shipped templates, and finding
//! the board in generated 1920x1080 screenshots (tile borders, and objects with no tile body).

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::vision::{self, ClassifierSettings};

#[path = "../tests/suite/synth/mod.rs"]
#[allow(dead_code, missing_docs)]
mod synth;

fn frame() -> image::RgbaImage {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/xshisen-screen-offset-1280x1024.png"
    );
    vision::load_image(std::path::Path::new(path)).expect("fixture loads")
}

/// A generated 1920x1080 screenshot drawn at its own scale: the recipe of `seed` unscaled.
fn generated(seed: u64) -> image::RgbaImage {
    let recipe = synth::Recipe {
        scale: 1.0,
        ..synth::Recipe::random(seed)
    };
    recipe.render().image
}

fn bench(c: &mut Criterion) {
    let image = frame();
    let geometry = vision::calibrate(&image).expect("board found");
    let settings = ClassifierSettings::default();
    c.bench_function("read_board 1280x1024 known geometry", |b| {
        b.iter(|| vision::read_board(&image, &geometry, &settings).expect("reads"))
    });
    let board = vision::read_board(&image, &geometry, &settings)
        .expect("reads")
        .board;
    c.bench_function("selected_tiles 1280x1024", |b| {
        b.iter(|| vision::selected_tiles(&image, &geometry, &settings, &board))
    });
    c.bench_function("calibrate 1280x1024", |b| {
        b.iter(|| vision::calibrate(&image).expect("board found"))
    });
    // A mid-game kshisen frame relabelled with the templates shipped for kshisen (framed as
    // the templates first, then matched).
    let root = env!("CARGO_MANIFEST_DIR");
    let path = format!("{root}/tests/fixtures/kshisen-mid-8x18.png");
    let kshisen = vision::load_image(std::path::Path::new(&path)).expect("fixture loads");
    let templates = vision::Templates::load(&std::path::Path::new(root).join("templates/kshisen"))
        .expect("shipped templates load");
    let kshisen_geometry = vision::calibrate(&kshisen).expect("board found");
    let matcher = templates.for_geometry(&kshisen_geometry, &settings);
    let reading = vision::read_board(&kshisen, &kshisen_geometry, &settings).expect("reads");
    c.bench_function("relabel kshisen 8x18 with templates", |b| {
        b.iter(|| matcher.relabel(&kshisen, reading.clone()))
    });
    // Seed 113: KDE alphabet tiles, a full 9x16 board, menu bar and score text; seed 98: emoji
    // with no tile body on a panel, found from the objects after the borders fail.
    for (seed, what) in [(113, "kde-alphabet"), (98, "emoji alone")] {
        let screenshot = generated(seed);
        assert_eq!(screenshot.dimensions(), (1920, 1080), "seed {seed}");
        c.bench_function(&format!("calibrate 1920x1080 {what}"), |b| {
            b.iter(|| vision::calibrate(&screenshot).expect("board found"))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
