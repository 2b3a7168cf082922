//! The selected tile on frames recorded from live games (`play --record`): the board read live,
//! the geometry found live, and the tiles really shown selected, checked by eye.
//!
//! Generated scenes miss what live games show (the board's rim, the game's shading, wallpaper
//! through a misread empty cell), and a rule that sees a selection where there is none stops
//! play. `tests/fixtures/live-frames/` keeps a few such frames; `count_on_recorded_games` (dev,
//! ignored) runs the rule over whole recordings.

use std::path::{Path, PathBuf};

use image::RgbaImage;
use linkup::board::{Board, Pos};
use linkup::vision::{self, ClassifierSettings, Geometry};
use serde::Deserialize;

use crate::support::root;

/// What a live frame fixture holds besides its picture (`NAME.toml` beside `NAME.png`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct LiveFrame {
    /// Where the game came from and what the frame shows.
    about: String,
    /// The board as the live loop read it (text form), misreadings included.
    board: String,
    /// The tiles the game really shows selected, `[row, col]`: nothing else may be reported.
    selected: Vec<[i32; 2]>,
    /// Those of them the rule must find (a pair being removed shows both tiles marked, and
    /// a kind all marked reports none).
    must_find: Vec<[i32; 2]>,
    /// The geometry the live loop read it at.
    geometry: Geometry,
}

fn live_frames_dir() -> PathBuf {
    root().join("tests/fixtures/live-frames")
}

/// The selected tiles `vision::selected_tiles` reports on `image` read as `board` at `geometry`.
fn selected(image: &RgbaImage, geometry: &Geometry, board: &Board) -> Vec<Pos> {
    vision::selected_tiles(image, geometry, &ClassifierSettings::default(), board)
}

fn cells(list: &[[i32; 2]]) -> Vec<Pos> {
    list.iter().map(|&[r, c]| Pos::new(r, c)).collect()
}

/// Issue 11: no tile is reported selected that the game does not show selected, on live frames
/// where an earlier rule saw one (a tile on lighter wallpaper, beside a tinted tile, an empty
/// cell read as a tile), and the selection the paper rule misses is found.
#[test]
fn issue11_live_frames_show_no_false_selection() {
    let mut checked = 0;
    for entry in std::fs::read_dir(live_frames_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let frame: LiveFrame = toml::from_str(&text).unwrap();
        let image = vision::load_image(&path.with_extension("png")).unwrap();
        let board: Board = frame.board.parse().unwrap();
        let found = selected(&image, &frame.geometry, &board);
        let (shown, needed) = (cells(&frame.selected), cells(&frame.must_find));
        let name = path.display();
        assert!(
            found.iter().all(|p| shown.contains(p)),
            "{name}: reported {found:?}, shown {shown:?} ({})",
            frame.about
        );
        assert!(
            needed.iter().all(|p| found.contains(p)),
            "{name}: reported {found:?}, must find {needed:?} ({})",
            frame.about
        );
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} live frames found");
}

/// One recorded frame: the board the live loop read from it and what it reported selected.
struct Recorded {
    board: Board,
    selected_live: String,
}

/// Reads a recorder's `NNNN.txt` (board lines, then `selected: ...`); `None` for an unreadable
/// frame.
fn recorded(path: &Path) -> Option<Recorded> {
    let text = std::fs::read_to_string(path).ok()?;
    let (board, rest) = text.split_once("selected:")?;
    Some(Recorded {
        board: board.parse().ok()?,
        selected_live: rest.trim().to_string(),
    })
}

/// Dev counter: `LINKUP_LIVE_RECORDINGS=DIR[:DIR...]` names `play --record` folders; each
/// game's geometry is found on its first frame (again when a board of another size is read),
/// and every frame's tiles reported selected are printed with what the live rule said.
#[test]
#[ignore = "dev counter: needs recorded games (LINKUP_LIVE_RECORDINGS)"]
fn count_on_recorded_games() {
    let dirs = std::env::var("LINKUP_LIVE_RECORDINGS").expect("LINKUP_LIVE_RECORDINGS is set");
    let (mut frames, mut flagged, mut tiles) = (0, 0, 0);
    for dir in dirs.split(':') {
        let mut stems: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "png"))
            .collect();
        stems.sort();
        let mut geometry: Option<Geometry> = None;
        let (mut game_frames, mut game_flagged) = (0, 0);
        for png in stems {
            let Some(rec) = recorded(&png.with_extension("txt")) else {
                continue;
            };
            let image = vision::load_image(&png).unwrap();
            let fits =
                geometry.is_some_and(|g| g.rows == rec.board.rows() && g.cols == rec.board.cols());
            if !fits {
                geometry = vision::calibrate(&image).ok();
                if let Some(g) = &geometry {
                    println!("{}: {g}", png.display());
                }
            }
            let Some(g) =
                geometry.filter(|g| g.rows == rec.board.rows() && g.cols == rec.board.cols())
            else {
                println!("{}: no geometry of the recorded size", png.display());
                continue;
            };
            let found = selected(&image, &g, &rec.board);
            game_frames += 1;
            if !found.is_empty() {
                game_flagged += 1;
                tiles += found.len();
                let cells: Vec<String> = found.iter().map(ToString::to_string).collect();
                println!(
                    "{}: selected {} (live rule: {})",
                    png.display(),
                    cells.join(" "),
                    rec.selected_live
                );
            }
        }
        println!("{dir}: {game_flagged} of {game_frames} frames with a selection");
        frames += game_frames;
        flagged += game_flagged;
    }
    println!("live-selection: {flagged} of {frames} frames with a selection, {tiles} tiles");
}
