//! `linkup solve [IMAGE]`: a dry run on a saved screenshot. Finds the board (or takes it from
//! a profile), reads the grid, prints it and the whole move plan; nothing is clicked.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use image::RgbaImage;
use serde::Serialize;

use crate::board::Board;
use crate::planner::{self, Budget};
use crate::profile::Profile;
use crate::solver::{Move, Plan, Rules};
use crate::vision::{self, Geometry, Reader, Reading};

/// The screenshot `solve` reads when given none: a freshly shuffled xshisen game.
pub const BUNDLED_SCREENSHOT: &[u8] = include_bytes!("../../tests/fixtures/xshisen-fresh-8x18.png");

/// Arguments of `linkup solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A PNG or JPEG screenshot of a link-up game; without it, a bundled xshisen screenshot.
    pub image: Option<PathBuf>,
    /// A calibration profile (a name in calibration/ or a path) instead of auto-calibration.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Print JSON: geometry, grid, moves and result.
    #[arg(long)]
    pub json: bool,
    /// Write a PNG with the grid, kinds and numbered move paths drawn over the screenshot.
    #[arg(long, value_name = "OUT.png")]
    pub annotate: Option<PathBuf>,
}

/// The JSON form of a dry run.
#[derive(Serialize)]
struct Json<'a> {
    rows: usize,
    cols: usize,
    origin: [f64; 2],
    pitch: [f64; 2],
    tile_size: [f64; 2],
    grid: Vec<Vec<u32>>,
    moves: &'a [Move],
    result: &'a str,
}

/// Loads a screenshot, naming the file in any error.
pub fn load_screenshot(path: &Path) -> anyhow::Result<RgbaImage> {
    vision::load_image(path).with_context(|| format!("{}", path.display()))
}

/// Reads a screenshot with vision's reader: the profile's (its geometry and templates) or,
/// without one, the board found by calibration. `name` names the image in errors.
pub fn read_screenshot(
    image: &RgbaImage,
    profile: Option<&Profile>,
    name: &str,
) -> anyhow::Result<Reading> {
    let reader = match profile {
        Some(p) => p.reader()?,
        None => Reader::calibrated(image).with_context(|| name.to_string())?,
    };
    reader.read(image).with_context(|| name.to_string())
}

/// Prints the cells the classifier is unsure of, if any, to stderr.
pub fn report_low_confidence(reading: &Reading) {
    if reading.low_confidence.is_empty() {
        return;
    }
    let cells: Vec<String> = reading
        .low_confidence
        .iter()
        .map(|p| p.to_string())
        .collect();
    eprintln!(
        "linkup: low confidence in {} cell(s): {}",
        cells.len(),
        cells.join(" ")
    );
}

/// Runs `linkup solve`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (image, name) = match &args.image {
        Some(path) => (load_screenshot(path)?, path.display().to_string()),
        None => (
            vision::decode_image(BUNDLED_SCREENSHOT).context("the bundled screenshot")?,
            "the bundled screenshot".to_string(),
        ),
    };
    let profile = match &args.profile {
        Some(p) => Some(crate::catalogue::find(p)?.profile()?),
        None => None,
    };
    let reading = read_screenshot(&image, profile.as_ref(), &name)?;
    let geometry = reading.geometry;
    let rules = profile.as_ref().map_or(Rules::shisen_sho(), Profile::rules);
    // The full-board planner: a complete clearing sequence whenever it finds one.
    let plan = planner::plan(&reading.board, rules, Budget::default()).plan;
    if let Some(out) = &args.annotate {
        vision::annotate(&image, &geometry, &reading.board, &plan.moves)
            .save(out)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    if args.json {
        outln!(
            "{}",
            serde_json::to_string(&json(&geometry, &reading.board, &plan))?
        )?;
    } else {
        outln!("{geometry}")?;
        out!("{}", reading.board)?;
        out!("{plan}")?;
    }
    report_low_confidence(&reading);
    Ok(ExitCode::SUCCESS)
}

fn json<'a>(geometry: &Geometry, board: &Board, plan: &'a Plan) -> Json<'a> {
    Json {
        rows: geometry.rows,
        cols: geometry.cols,
        origin: geometry.origin,
        pitch: geometry.pitch,
        tile_size: geometry.tile_size,
        grid: board.to_rows(),
        moves: &plan.moves,
        result: plan.result(),
    }
}
