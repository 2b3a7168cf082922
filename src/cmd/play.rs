//! `linkup play --profile NAME` or `linkup play --window TITLE`: play a real game window until
//! the board is empty. With no profile the board is found live from the window (and again when
//! it changes), and the game is played with the default rules and timings. `--save NAME` writes
//! what the game taught as a user profile, so that `--profile NAME` starts informed.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context;
use image::RgbaImage;
use indicatif::{ProgressBar, ProgressStyle};

use crate::capture::{Screen, WindowMatch};
use crate::catalogue::Catalogue;
use crate::input::{Cancel, Pointer};
use crate::planner::Budget;
use crate::play::{
    Config, Devices, End, Event, FrameRecorder, Greedy, LiveReader, Outcome, Planned, Policy,
    SystemClock, play,
};
use crate::profile::{Profile, Window};
use crate::vision::{BoardReader, ReadError, Reader, Reading, Templates};

/// The planner's budget per plan in live play: a plan is made once per game (and again after a
/// surprise), so it may search far longer than a benchmark deal.
const PLAY_BUDGET: Budget = Budget {
    nodes: 5_000_000,
    time: Some(Duration::from_secs(10)),
};

/// Exit code when the game is stuck: tiles left and no pair.
pub const STUCK_EXIT: u8 = 3;

/// Arguments of `linkup play`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("game").required(true).multiple(true).args(["profile", "window"])))]
pub struct Args {
    /// The game's profile: a name in calibration/ (e.g. xshisen) or a path to a .toml file.
    /// Without one, --window names the window and the board is found live.
    #[arg(long, value_name = "NAME|PATH")]
    pub profile: Option<String>,
    /// Find the window by this title (a part of it) or application name instead of the
    /// profile's [window]; with no --profile, find the board in it live.
    #[arg(long, value_name = "TITLE")]
    pub window: Option<String>,
    /// Stop after this many pairs.
    #[arg(long, value_name = "N")]
    pub max_moves: Option<usize>,
    /// Wait this long after each pair (overrides the profile's pace-ms).
    #[arg(long, value_name = "MS")]
    pub pace: Option<u64>,
    /// Read the window and print the clicks of the whole plan without clicking.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON event per line instead of the progress bar.
    #[arg(long)]
    pub json: bool,
    /// Use the line-ray search with last-success locality instead of the full-board planner.
    #[arg(long)]
    pub greedy: bool,
    /// The game drops tiles into emptied cells (overrides the profile).
    #[arg(long, conflicts_with = "no_gravity")]
    pub gravity: bool,
    /// The game does not drop tiles (overrides the profile).
    #[arg(long)]
    pub no_gravity: bool,
    /// Save every frame read, with the grid read from it, in DIR (a new or empty folder):
    /// `NNNN.png` and `NNNN.txt`, numbered in order, for looking into a game afterwards.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// After the game, write what it taught (window, board, selection, cancel, border,
    /// gravity, removal time, match groups, and tile templates from the first frame) as the
    /// user profile NAME in the config folder (~/.config/linkup/NAME.toml on Linux).
    #[arg(long, value_name = "NAME", conflicts_with = "dry_run")]
    pub save: Option<String>,
    /// Let --save overwrite a profile of that name.
    #[arg(long, requires = "save")]
    pub force: bool,
}

/// A reader that keeps the first frame it read tiles from, and that reading: the board and
/// the kind ids `--save` writes the profile and its templates from.
struct FirstReading<R> {
    inner: R,
    first: Option<(RgbaImage, Reading)>,
}

impl<R: BoardReader> BoardReader for FirstReading<R> {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let reading = self.inner.read(frame)?;
        if self.first.is_none() && reading.board.tiles() > 0 {
            self.first = Some((frame.clone(), reading.clone()));
        }
        Ok(reading)
    }
}

/// The profile `--save` writes: the one played with (else a new one for the window found and
/// the board first read), with the rules and pace the game was played under and what it
/// taught; and,
/// when that profile has no templates of its own, templates of the first frame's kinds (the
/// ids the learned match groups are in).
fn learned_profile(
    profile: Option<&Profile>,
    window: &WindowMatch,
    first: &(RgbaImage, Reading),
    config: &Config,
    outcome: &Outcome,
) -> (Profile, Option<Templates>) {
    let (image, reading) = first;
    let mut learned = profile.cloned().unwrap_or_else(|| {
        let window = Window {
            title: window.title.clone(),
            app_name: window.app_name.clone(),
            size: Some([image.width(), image.height()]),
        };
        Profile::new(window, reading.geometry)
    });
    learned.rules.gravity = config.rules.gravity;
    learned.rules.border = config.rules.border;
    learned.timing.pace_ms = config.pace.as_millis() as u64;
    let learned = learned.with_learned(&outcome.learned);
    let templates = learned
        .templates
        .is_none()
        .then(|| Templates::from_reading(image, &reading.geometry, &reading.board));
    (learned, templates)
}

/// The profile's loop settings (the defaults without one) with the command line's overrides.
///
/// Without a profile the loop first cancels a selection by clicking the selected tile again: a
/// right click opens a browser's context menu over the game (and a page may take any button as
/// a click), while a click on the selected tile is harmless where it cancels nothing, and the
/// loop then learns the right click.
fn config(profile: Option<&Profile>, args: &Args) -> Config {
    let mut config = profile.map_or_else(
        || Config {
            cancel: Cancel::ClickAgain,
            ..Config::default()
        },
        Profile::config,
    );
    if args.gravity {
        config.rules.gravity = true;
    }
    if args.no_gravity {
        config.rules.gravity = false;
    }
    if let Some(pace) = args.pace {
        config.pace = Duration::from_millis(pace);
    }
    config.max_moves = args.max_moves;
    config
}

/// Which window to play in.
#[cfg_attr(not(feature = "desktop"), allow(dead_code))]
enum Wanted {
    /// The window a profile describes.
    Described(WindowMatch),
    /// `--window`: the window whose title contains it, else whose application name it is (as
    /// `calibrate --window` takes it).
    TitleOrApp(String),
}

/// The window --window names, else the profile's.
fn wanted_window(profile: Option<&Profile>, args: &Args) -> anyhow::Result<Wanted> {
    match (&args.window, profile) {
        (Some(title), _) => Ok(Wanted::TitleOrApp(title.clone())),
        (None, Some(profile)) => Ok(Wanted::Described(profile.window_match())),
        (None, None) => anyhow::bail!("give --profile NAME or --window TITLE"),
    }
}

/// The profile's reader, or with no profile one that finds the board live in each frame.
fn reader(profile: Option<&Profile>) -> anyhow::Result<Box<dyn BoardReader>> {
    Ok(match profile {
        Some(profile) => Box::new(profile.reader()?),
        None => Box::new(LiveReader::new(|image: &RgbaImage| {
            Ok(Reader::calibrated(image)?)
        })),
    })
}

/// The window's screen and the pointer, and how the window was found.
type OpenedWindow = (Box<dyn Screen>, Box<dyn Pointer>, WindowMatch);

#[cfg(feature = "desktop")]
fn devices(wanted: Wanted) -> anyhow::Result<OpenedWindow> {
    use crate::capture::XcapScreen;
    let (screen, matched) = match wanted {
        Wanted::Described(wanted) => XcapScreen::find(wanted.clone()).map(|s| (s, wanted)),
        Wanted::TitleOrApp(name) => XcapScreen::find_title_or_app(&name),
    }
    .context("cannot find the game window (is the game running, under a window manager?)")?;
    let pointer = crate::input::EnigoPointer::new(0).context("cannot open the pointer")?;
    Ok((Box::new(screen), Box::new(pointer), matched))
}

#[cfg(not(feature = "desktop"))]
fn devices(_wanted: Wanted) -> anyhow::Result<OpenedWindow> {
    anyhow::bail!("this linkup was built without the `desktop` feature: it cannot capture or click")
}

/// Runs `linkup play`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let found = args
        .profile
        .as_deref()
        .map(crate::catalogue::find)
        .transpose()?;
    let profile = found.as_ref().map(|f| f.profile()).transpose()?;
    let config = config(profile.as_ref(), &args);
    let catalogue = Catalogue::from_env();
    if let Some(name) = &args.save {
        catalogue.check_save(name, args.force)?;
    }
    let (mut screen, mut pointer, window) = devices(wanted_window(profile.as_ref(), &args)?)?;
    let reader = reader(profile.as_ref())?;
    let reader: Box<dyn BoardReader> = match &args.record {
        Some(dir) => Box::new(FrameRecorder::new(reader, dir)?),
        None => Box::new(reader),
    };
    let mut reader = FirstReading {
        inner: reader,
        first: None,
    };
    let mut policy: Box<dyn Policy> = if args.greedy {
        Box::new(Greedy::default())
    } else {
        Box::new(Planned::new(PLAY_BUDGET))
    };
    if args.dry_run {
        return dry_run(screen.as_mut(), &mut reader, policy.as_mut(), &config);
    }

    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst))
        .context("cannot install the Ctrl-C handler")?;

    let bar = progress_bar(args.json);
    let mut observer = |event: &Event| show_event(bar.as_ref(), event);
    let mut clock = SystemClock::default();
    let devices = Devices {
        screen: screen.as_mut(),
        pointer: pointer.as_mut(),
        reader: &mut reader,
        clock: &mut clock,
    };
    let outcome = play(devices, policy.as_mut(), &config, &mut observer, &stop);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let outcome = outcome.with_context(|| match &found {
        Some(found) => format!("playing with the profile {}", found.source),
        None => "playing with no profile".to_string(),
    })?;
    report(&outcome, args.json)?;
    if let (Some(name), Some(first)) = (&args.save, &reader.first) {
        let (learned, templates) =
            learned_profile(profile.as_ref(), &window, first, &config, &outcome);
        let path = catalogue.save(name, &learned, templates.as_ref(), args.force)?;
        outln!(
            "saved what the game taught as the profile {name}: {}",
            path.display()
        )?;
    }
    Ok(match outcome.end {
        End::Cleared | End::MaxMoves { .. } => ExitCode::SUCCESS,
        End::Stuck { .. } => ExitCode::from(STUCK_EXIT),
        End::Interrupted => ExitCode::from(130),
    })
}

/// The progress bar shown while playing, unless the events go out as JSON.
fn progress_bar(json: bool) -> Option<ProgressBar> {
    (!json).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} tiles removed, {msg}")
                .expect("a valid template"),
        );
        bar
    })
}

/// Shows one event: on the progress bar, or as a JSON line when there is none.
fn show_event(bar: Option<&ProgressBar>, event: &Event) {
    match bar {
        // A reader that went away stops the events, not the game.
        None => {
            let _ = outln!("{}", serde_json::to_string(event).unwrap_or_default());
        }
        Some(bar) => match event {
            Event::Start { tiles, .. } => bar.set_length(*tiles as u64),
            Event::Removed { moves, .. } => {
                bar.set_position(*moves as u64 * 2);
                bar.set_message(format!("{moves} moves"));
            }
            Event::Refused { refused, .. } => bar.set_message(format!("{refused} refused")),
            _ => {}
        },
    }
}

/// Prints the end, what was learned about the game and the per-stage medians.
fn report(outcome: &Outcome, json: bool) -> std::io::Result<()> {
    let m = outcome.timings.medians();
    let ms = |d: Option<Duration>| {
        d.map_or("-".to_string(), |d| format!("{:.1}", d.as_secs_f64() * 1e3))
    };
    if json {
        let stage = |d: Option<Duration>| d.map(|d| d.as_secs_f64() * 1e3);
        let end = serde_json::json!({
            "event": "end",
            "end": outcome.end,
            "moves": outcome.moves,
            "refused": outcome.refused,
            "dropped": outcome.dropped,
            "seconds": outcome.elapsed.as_secs_f64(),
            "learned": outcome.learned,
            "median_ms": {
                "capture": stage(m.capture), "wait": stage(m.wait), "read": stage(m.read),
                "solve": stage(m.solve), "click": stage(m.click),
            },
        });
        outln!("{end}")?;
    }
    outln!("{outcome}")?;
    outln!("{}", outcome.learned)?;
    outln!(
        "median ms per stage: capture {}, wait {}, read {}, solve {}, click {}",
        ms(m.capture),
        ms(m.wait),
        ms(m.read),
        ms(m.solve),
        ms(m.click)
    )?;
    std::io::stdout().flush()
}

/// `--dry-run`: the loop against the game imagined from one capture; prints the board read,
/// every click it would send and how the game would end; nothing is clicked.
fn dry_run(
    screen: &mut dyn Screen,
    reader: &mut dyn BoardReader,
    policy: &mut dyn Policy,
    config: &Config,
) -> anyhow::Result<ExitCode> {
    let run = crate::play::dry_run(screen, reader, policy, config)?;
    out!("{}", run.board)?;
    for click in &run.clicks {
        outln!("{click}")?;
    }
    let moves = run.outcome.moves;
    match run.outcome.end {
        End::Stuck { tiles } => {
            outln!("stuck after {moves} moves: {tiles} tiles left, no pair")?;
            Ok(ExitCode::from(STUCK_EXIT))
        }
        End::MaxMoves { tiles } => {
            outln!("stopped after {moves} moves: {tiles} tiles left")?;
            Ok(ExitCode::SUCCESS)
        }
        End::Cleared => {
            outln!("would clear the board in {moves} moves")?;
            Ok(ExitCode::SUCCESS)
        }
        End::Interrupted => {
            outln!("interrupted after {moves} moves")?;
            Ok(ExitCode::from(130))
        }
    }
}
