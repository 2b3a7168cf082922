//! `linkup calibrate IMAGE --name NAME`: finds the board in a screenshot, shows what it found,
//! and writes `calibration/NAME.toml` (and with `--templates`, one PNG per kind in
//! `templates/NAME/`). Never overwrites without `--force`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::board::Pos;
use crate::cmd::solve::{load_screenshot, read_screenshot, report_low_confidence};
use crate::profile::{PROFILE_DIR, Profile, RuleSettings, Window};
use crate::vision;

/// Arguments of `linkup calibrate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A PNG or JPEG screenshot (a window capture) of the game.
    pub image: PathBuf,
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
    let image = load_screenshot(&args.image)?;
    let name = args.image.display().to_string();
    let (geometry, reading) = read_screenshot(&image, None, &name)?;
    let out = Path::new(PROFILE_DIR).join(format!("{}.toml", args.name));
    refuse_overwrite(&out, args.force)?;
    let template_dir = Path::new("templates").join(&args.name);
    if args.templates {
        refuse_overwrite(&template_dir, args.force)?;
    }
    println!("{geometry}");
    print!("{}", reading.board);
    report_low_confidence(&reading);
    let profile = Profile {
        window: Window {
            title: args.title.clone(),
            app_name: args.app_name.clone(),
            // The image is a capture of the window, so its size is the window's.
            size: Some([image.width(), image.height()]),
        },
        board: geometry,
        rules: RuleSettings {
            gravity: args.gravity,
            ..RuleSettings::default()
        },
        timing: Default::default(),
        selection: Default::default(),
        shuffle: None,
        classifier: Default::default(),
    };
    std::fs::create_dir_all(PROFILE_DIR).context("cannot create calibration/")?;
    std::fs::write(&out, profile.to_toml())
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    if let Some(path) = &args.annotate {
        vision::annotate(&image, &geometry, &reading.board, &[])
            .save(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.templates {
        std::fs::create_dir_all(&template_dir)
            .with_context(|| format!("cannot create {}", template_dir.display()))?;
        let mut written = std::collections::BTreeSet::new();
        for pos in reading.board.tile_positions() {
            let kind = reading.board.get(pos);
            if written.insert(kind) {
                let path = template_dir.join(format!("{kind}.png"));
                crop(&image, &geometry, pos)
                    .save(&path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
        }
        println!(
            "wrote {} templates to {}",
            written.len(),
            template_dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The pixels of one tile.
fn crop(image: &image::RgbaImage, geometry: &vision::Geometry, pos: Pos) -> image::RgbaImage {
    let r = geometry.cell_rect(pos);
    let (x, y) = (r.x.round().max(0.0) as u32, r.y.round().max(0.0) as u32);
    let w = (r.w.round() as u32).min(image.width().saturating_sub(x));
    let h = (r.h.round() as u32).min(image.height().saturating_sub(y));
    image::imageops::crop_imm(image, x, y, w, h).to_image()
}
