//! The exact text of each stage's errors as `linkup` prints them (`{:#}`: the message, then
//! each cause once), made through the library: capture, vision, board, input, profile, play.
//! The binary's own one-line reports on bad files are in `errors`.

use std::path::Path;

use image::RgbaImage;
use linkup::board::Board;
use linkup::capture::{CaptureError, ReplayScreen, Screen};
use linkup::catalogue::Catalogue;
use linkup::input::{Button, Click, InputError};
use linkup::play::PlayError;
use linkup::profile::Profile;
use linkup::vision::{self, ClassifierSettings, Geometry, ReadError, VisionError};

use crate::support::{fixture, no_board, scratch};

/// The error as `linkup` prints it after `linkup: `.
fn printed(err: impl Into<anyhow::Error>) -> String {
    format!("{:#}", err.into())
}

/// The error `what` returned, as printed; panics if it succeeded.
fn printed_err<T, E: Into<anyhow::Error>>(what: Result<T, E>) -> String {
    match what {
        Ok(_) => panic!("expected an error"),
        Err(err) => printed(err),
    }
}

const NO_FILE: &str = "No such file or directory (os error 2)";

#[test]
fn capture_errors() {
    assert_eq!(
        printed_err(ReplayScreen::from_pngs(&["/nonexistent/frame.png"], [0, 0])),
        format!("cannot load the replay frame /nonexistent/frame.png: {NO_FILE}")
    );
    let mut replay = ReplayScreen::new(vec![RgbaImage::new(40, 30)], [0, 0]);
    assert_eq!(
        printed_err(replay.capture()),
        "another window covers the game window (a dialog?); close it or bring the game to the front"
    );
    assert_eq!(
        printed_err(replay.capture()),
        "the replay has no frames left after 1"
    );
}

#[test]
fn vision_errors() {
    assert_eq!(
        printed_err(vision::load_image(Path::new("/nonexistent/shot.png"))),
        format!("cannot read the image: {NO_FILE}")
    );
    let dir = scratch();
    let text = dir.write("notes.png", "hello, not a picture");
    assert_eq!(
        printed_err(vision::load_image(&text)),
        "cannot decode the image (The image format could not be determined); give a PNG or JPEG \
         screenshot"
    );
    let (image, _) = fixture("xshisen-fresh-8x18");
    let far = Geometry {
        rows: 8,
        cols: 18,
        origin: [900.0, 600.0],
        pitch: [32.0, 40.0],
        tile_size: [30.0, 38.0],
    };
    let (w, h) = image.dimensions();
    assert_eq!(
        printed_err(vision::read_board(
            &image,
            &far,
            &ClassifierSettings::default()
        )),
        // The far edge is the last tile's: 900 + 17 x 32 + 30, 600 + 7 x 40 + 38.
        format!(
            "the board geometry (8x18 cells from (900.0,600.0) to (1474.0,918.0)) does not fit \
             the {w}x{h} image; recalibrate with `linkup calibrate`"
        )
    );
    let plain = no_board(300, 200);
    assert!(
        printed_err(vision::calibrate(&plain)).starts_with("no board found: "),
        "{}",
        printed_err(vision::calibrate(&plain))
    );
    assert_eq!(
        printed(ReadError::from(VisionError::NothingRead {
            rows: 6,
            cols: 8
        })),
        "cannot read the board: found a 6x8 board but read no tile on it (a failure to read, not \
         an empty board); this tile art is not read yet: please report the screenshot"
    );
}

#[test]
fn board_errors() {
    assert_eq!(
        printed_err("1 2\n2 1 x\n".parse::<Board>()),
        "line 2, column 5: expected a tile kind (a non-negative integer), found `x`"
    );
    assert_eq!(
        printed_err("1 2\n2 1 2\n".parse::<Board>()),
        "line 2: expected 2 cells like the first row, found 3"
    );
    assert_eq!(
        printed_err("\n\n".parse::<Board>()),
        "the board is empty: expected at least one row of tile kinds"
    );
    assert_eq!(
        printed_err(Board::new(2, 3, vec![1, 1])),
        "a 2x3 board needs 6 cells, got 2"
    );
}

#[test]
fn input_errors() {
    let click = Click {
        x: 40,
        y: 50,
        button: Button::Right,
    };
    assert_eq!(
        printed(InputError::Send {
            click,
            message: "the X server went away".into()
        }),
        "cannot send the right click at (40, 50): the X server went away"
    );
    assert_eq!(
        printed(InputError::Connect("no XTEST".into())),
        "cannot open the input connection: no XTEST; is DISPLAY set and does the X server have \
         the XTEST extension?"
    );
}

#[test]
fn profile_errors() {
    assert_eq!(
        printed_err(Profile::load(Path::new("/nonexistent/game.toml"))),
        format!("cannot read the profile /nonexistent/game.toml: {NO_FILE}")
    );
    let text = printed_err(Profile::from_toml_in(
        "[board]\nrows = \"eight\"\n",
        "game.toml",
    ));
    assert!(text.starts_with("game.toml: line 2"), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    let dir = scratch();
    let catalogue = Catalogue {
        working: dir.path().join("calibration"),
        config: None,
    };
    assert_eq!(
        printed_err(catalogue.find("nosuchgame")),
        format!(
            "no profile named `nosuchgame`: looked for {} and the built-in profiles (kshisen, \
             xshisen, xshisen-huge, xshisen-large); give a path, or run `linkup profiles`",
            dir.path().join("calibration/nosuchgame.toml").display()
        )
    );
}

#[test]
fn play_errors_name_the_stage_that_stopped_them() {
    assert_eq!(
        printed(PlayError::from(CaptureError::WindowGone {
            wanted: "app XShisen".into()
        })),
        "stopped: the game window (app XShisen) has gone: it was closed"
    );
    assert_eq!(
        printed(PlayError::from(InputError::Position("no pointer".into()))),
        "stopped: cannot read the pointer position: no pointer"
    );
    assert_eq!(
        printed(PlayError::from(ReadError::from(VisionError::TooSmall {
            width: 20,
            height: 10
        }))),
        "stopped: cannot read the board: the image is 20x10 pixels, too small to hold a board"
    );
    assert_eq!(
        printed(PlayError::NeverStill { frames: 40 }),
        "stopped: the board did not stay still for two frames in 40 captures"
    );
}
