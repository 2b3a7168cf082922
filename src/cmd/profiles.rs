//! `linkup profiles`: every profile `--profile NAME` can name, with where each comes from and
//! which places it hides (see [`crate::catalogue`] for the order).

use std::process::ExitCode;

use crate::catalogue::{Catalogue, Listed, Source};

/// Arguments of `linkup profiles`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print JSON: `[{"name":N,"source":{"kind":K,"path":P},"shadows":[...]}]`.
    #[arg(long)]
    pub json: bool,
}

/// Runs `linkup profiles`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let catalogue = Catalogue::from_env();
    let listed = catalogue.list()?;
    if args.json {
        outln!("{}", serde_json::to_string(&listed)?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let config = catalogue
        .config
        .as_ref()
        .map_or("no config folder".to_string(), |dir| {
            dir.display().to_string()
        });
    outln!(
        "# looked in {} (working folder), {config} (config folder), built in; the first wins",
        catalogue.working.display()
    )?;
    let width = listed.iter().map(|l| l.name.len()).max().unwrap_or(0);
    for entry in &listed {
        outln!("{}", line(entry, width))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `NAME  PLACE  FILE`, then `; hides PLACE FILE, ...` when other places have the name too.
fn line(entry: &Listed, width: usize) -> String {
    let file = entry
        .source
        .file()
        .map_or(String::new(), |p| p.display().to_string());
    let mut text = format!(
        "{:<width$}  {:<14}  {file}",
        entry.name,
        entry.source.place()
    );
    text.truncate(text.trim_end().len());
    if !entry.shadows.is_empty() {
        let hidden: Vec<String> = entry.shadows.iter().map(describe).collect();
        text.push_str(&format!("; hides {}", hidden.join(", ")));
    }
    text
}

/// `PLACE FILE`, or `built in`.
fn describe(source: &Source) -> String {
    match source.file() {
        Some(path) => format!("{} {}", source.place(), path.display()),
        None => source.place().to_string(),
    }
}
