//! `linkup calibrate IMAGE --name NAME` (or `--window NAME` for a live window): finds the board
//! in a screenshot, shows what it found, and writes `calibration/NAME.toml` (and with
//! `--templates`, one PNG per kind in `templates/NAME/`). Never overwrites without `--force`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::cmd::solve::{load_screenshot, read_screenshot, report_low_confidence};
use crate::profile::{PROFILE_DIR, Profile, RuleSettings, Window};
use crate::vision;

/// Arguments of `linkup calibrate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A PNG or JPEG screenshot (a window capture) of the game.
    #[arg(required_unless_present = "window", conflicts_with = "window")]
    pub image: Option<PathBuf>,
    /// Capture a live game window instead: the first whose title contains TITLE, else whose
    /// application name (X11 class) is TITLE.
    #[arg(long, value_name = "TITLE")]
    pub window: Option<String>,
    /// The profile's name: writes calibration/NAME.toml.
    #[arg(long)]
    pub name: String,
    /// The window's title, recorded in the profile.
    #[arg(long)]
    pub title: Option<String>,
    /// The window's application name (X11 class), recorded in the profile.
    #[arg(long)]
    pub app_name: Option<String>,
    /// Tiles fall down their column after a removal.
    #[arg(long)]
    pub gravity: bool,
    /// Also write one PNG per kind to templates/NAME/.
    #[arg(long)]
    pub templates: bool,
    /// Write an annotated PNG of what was found.
    #[arg(long, value_name = "OUT.png")]
    pub annotate: Option<PathBuf>,
    /// Overwrite an existing profile or templates.
    #[arg(long)]
    pub force: bool,
}

fn refuse_overwrite(path: &Path, force: bool) -> anyhow::Result<()> {
    if path.exists() && !force {
        bail!(
            "{} already exists; pass --force to overwrite it",
            path.display()
        );
    }
    Ok(())
}

/// Runs `linkup calibrate`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (image, name, found) = match (&args.image, &args.window) {
        (Some(path), _) => (load_screenshot(path)?, path.display().to_string(), None),
        (None, Some(wanted)) => {
            let (image, found) = capture_window(wanted)?;
            (image, format!("the window {wanted}"), Some(found))
        }
        (None, None) => bail!("give a screenshot or --window TITLE"),
    };
    let reading = read_screenshot(&image, None, &name)?;
    let geometry = reading.geometry;
    let out = Path::new(PROFILE_DIR).join(format!("{}.toml", args.name));
    refuse_overwrite(&out, args.force)?;
    let template_dir = Path::new("templates").join(&args.name);
    if args.templates {
        refuse_overwrite(&template_dir, args.force)?;
    }
    outln!("{geometry}")?;
    out!("{}", reading.board)?;
    report_low_confidence(&reading);
    let window = Window {
        title: args
            .title
            .clone()
            .or(found.as_ref().and_then(|f| f.title.clone())),
        app_name: args
            .app_name
            .clone()
            .or(found.as_ref().and_then(|f| f.app_name.clone())),
        // The image is a capture of the window, so its size is the window's.
        size: Some([image.width(), image.height()]),
    };
    let profile = Profile {
        templates: args.templates.then(|| Path::new("..").join(&template_dir)),
        rules: RuleSettings {
            gravity: args.gravity,
            ..RuleSettings::default()
        },
        ..Profile::new(window, geometry)
    };
    std::fs::create_dir_all(PROFILE_DIR).context("cannot create calibration/")?;
    std::fs::write(&out, profile.to_toml())
        .with_context(|| format!("cannot write {}", out.display()))?;
    outln!("wrote {}", out.display())?;
    if let Some(path) = &args.annotate {
        vision::annotate(&image, &geometry, &reading.board, &[])
            .save(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.templates {
        let templates = vision::Templates::from_reading(&image, &geometry, &reading.board);
        templates.save(&template_dir)?;
        outln!(
            "wrote {} templates to {}",
            templates.len(),
            template_dir.display()
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A live window captured for calibration, and how it was found (title or app name).
#[cfg(feature = "desktop")]
fn capture_window(wanted: &str) -> anyhow::Result<(image::RgbaImage, crate::capture::WindowMatch)> {
    use crate::capture::{Screen, XcapScreen};
    let (mut screen, found) = XcapScreen::find_title_or_app(wanted)?;
    let frame = screen
        .capture()
        .with_context(|| format!("capturing the window {wanted}"))?;
    Ok((frame.image, found))
}

/// Without the desktop feature there is no screen to capture.
#[cfg(not(feature = "desktop"))]
fn capture_window(
    _wanted: &str,
) -> anyhow::Result<(image::RgbaImage, crate::capture::WindowMatch)> {
    bail!("this linkup was built without the `desktop` feature: it cannot capture a window")
}
