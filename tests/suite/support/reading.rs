//! The whole way from a screenshot to a reading with nothing known: calibrate, then read with
//! the default classifier settings, as `linkup solve` does without a profile.

use image::RgbaImage;
use linkup::vision::{self, ClassifierSettings, Geometry, Reading};

/// Calibrates on `image` and reads its board; panics (the test fails) if either step fails.
pub fn calibrate_and_read(image: &RgbaImage) -> (Geometry, Reading) {
    let geometry = vision::calibrate(image).expect("a board is found");
    let reading = vision::read_board(image, &geometry, &ClassifierSettings::default())
        .expect("the found board is read");
    (geometry, reading)
}
