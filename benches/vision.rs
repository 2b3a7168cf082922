//! Vision speed: reading a 1280x1024 frame with a known geometry, and calibrating a screenshot.

use criterion::{Criterion, criterion_group, criterion_main};
use linkup::vision::{self, ClassifierSettings};

fn frame() -> image::RgbaImage {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/xshisen-screen-offset-1280x1024.png"
    );
    vision::load_image(std::path::Path::new(path)).expect("fixture loads")
}

fn bench(c: &mut Criterion) {
    let image = frame();
    let geometry = vision::calibrate(&image).expect("board found");
    let settings = ClassifierSettings::default();
    c.bench_function("read_board 1280x1024 known geometry", |b| {
        b.iter(|| vision::read_board(&image, &geometry, &settings).expect("reads"))
    });
    c.bench_function("calibrate 1280x1024", |b| {
        b.iter(|| vision::calibrate(&image).expect("board found"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
