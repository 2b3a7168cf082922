//! The profile catalogue: where a profile named on the command line is found.
//!
//! Profiles come from four places. When names clash the first wins:
//! 1. a path (an argument with a path separator or a `.toml` ending), read as it is;
//! 2. `./calibration/NAME.toml` in the working folder;
//! 3. the user's config folder: `$XDG_CONFIG_HOME/linkup/NAME.toml`, else
//!    `~/.config/linkup/NAME.toml` (on macOS `~/Library/Application Support/linkup/`, on
//!    Windows `%APPDATA%\linkup\`);
//! 4. the profiles shipped with linkup (`calibration/*.toml` of its source), built into the
//!    binary, so `--profile xshisen` works from any folder.
//!
//! [`find`] (or [`Catalogue::find`]) hands back the profile's text and where it came from;
//! [`Catalogue::list`] lists every profile found, for `linkup profiles`; [`Catalogue::save`]
//! writes a user profile (`play --save NAME`: what a game taught) to the config folder.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use thiserror::Error;

use crate::profile::{PROFILE_DIR, Profile, ProfileError};
use crate::vision::{Templates, VisionError};

/// The shipped profiles, by name: the text of `calibration/NAME.toml` at build time.
pub const BUILT_IN: [(&str, &str); 4] = [
    ("kshisen", include_str!("../calibration/kshisen.toml")),
    ("xshisen", include_str!("../calibration/xshisen.toml")),
    (
        "xshisen-huge",
        include_str!("../calibration/xshisen-huge.toml"),
    ),
    (
        "xshisen-large",
        include_str!("../calibration/xshisen-large.toml"),
    ),
];

/// Makes the [`Source`] of a file found in one of the searched folders.
type Place = fn(PathBuf) -> Source;

/// The folder under the platform config folder that holds user profiles.
const APP_DIR: &str = "linkup";

/// Where a profile came from, in the order a clash is settled (first wins).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(tag = "kind", content = "path", rename_all = "kebab-case")]
pub enum Source {
    /// A path given on the command line.
    Path(PathBuf),
    /// `calibration/` in the working folder.
    Working(PathBuf),
    /// The user's config folder.
    Config(PathBuf),
    /// Built into the binary.
    BuiltIn,
}

impl Source {
    /// The file the profile was read from; `None` for a built-in one.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Source::Path(path) | Source::Working(path) | Source::Config(path) => Some(path),
            Source::BuiltIn => None,
        }
    }

    /// A short name for the place: `path`, `working folder`, `config folder`, `built in`.
    pub fn place(&self) -> &'static str {
        match self {
            Source::Path(_) => "path",
            Source::Working(_) => "working folder",
            Source::Config(_) => "config folder",
            Source::BuiltIn => "built in",
        }
    }
}

impl fmt::Display for Source {
    /// The file's path, or `built in` for a shipped profile.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file() {
            Some(path) => write!(f, "{}", path.display()),
            None => write!(f, "built in"),
        }
    }
}

/// A profile found by name or path: its TOML text and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The profile's name: the file stem, or the name asked for.
    pub name: String,
    /// The TOML text.
    pub text: String,
    /// Where the text came from.
    pub source: Source,
}

impl Found {
    /// Parses the profile. Errors name the file (or `built-in NAME`) and the line; a relative
    /// templates folder is taken from the profile's folder. A built-in profile has no folder, so
    /// it keeps no templates (kind ids are then numbered per frame).
    pub fn profile(&self) -> Result<Profile, ProfileError> {
        let file = match self.source.file() {
            Some(path) => path.display().to_string(),
            None => format!("built-in {}", self.name),
        };
        let mut profile = Profile::from_toml_in(&self.text, &file)?;
        match self.source.file() {
            Some(file) => {
                if let Some(dir) = profile.templates.as_mut().filter(|d| d.is_relative()) {
                    *dir = file.parent().unwrap_or(Path::new("")).join(&*dir);
                }
            }
            None => profile.templates = None,
        }
        Ok(profile)
    }
}

/// One name in the catalogue: where it is found, and the places it hides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Listed {
    /// The profile's name.
    pub name: String,
    /// Where `--profile NAME` reads it from.
    pub source: Source,
    /// Places with a profile of the same name that lose to `source`, in order.
    pub shadows: Vec<Source>,
}

/// Why a profile could not be found or the catalogue listed.
#[derive(Debug, Error)]
pub enum CatalogueError {
    /// No place has a profile of that name.
    #[error(
        "no profile named `{name}`: looked for {} and the built-in profiles ({}); give a path, or run `linkup profiles`",
        looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
        BUILT_IN.map(|(name, _)| name).join(", ")
    )]
    NotFound {
        /// The name asked for.
        name: String,
        /// The files looked for, in order.
        looked: Vec<PathBuf>,
    },
    /// `--save` would overwrite a profile.
    #[error("{} exists; give --force to overwrite it", path.display())]
    Exists {
        /// The profile file.
        path: PathBuf,
    },
    /// There is no config folder to save a profile in.
    #[error(
        "cannot save the profile: no config folder (set HOME or XDG_CONFIG_HOME, or APPDATA on Windows)"
    )]
    NoConfigFolder,
    /// A name to save under that is not a plain name.
    #[error("cannot save a profile named `{0}`: give a plain name, without a folder or .toml")]
    BadName(String),
    /// The profile or its templates could not be written.
    #[error("cannot write the profile {}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The templates could not be written.
    #[error("cannot write the profile's templates")]
    Templates(#[source] VisionError),
    /// A profile file (or a folder of them) could not be read.
    #[error("cannot read the profile {}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

/// The places profiles are looked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    /// The working folder's `calibration/`.
    pub working: PathBuf,
    /// The user's `linkup` config folder, when the platform has one.
    pub config: Option<PathBuf>,
}

impl Catalogue {
    /// The catalogue seen from the current folder with the current environment.
    pub fn from_env() -> Self {
        Catalogue {
            working: PathBuf::from(PROFILE_DIR),
            config: config_dir(|key| std::env::var_os(key)),
        }
    }

    /// Finds a profile by path or by name (see the module documentation for the order).
    pub fn find(&self, name_or_path: &str) -> Result<Found, CatalogueError> {
        if looks_like_path(name_or_path) {
            let path = PathBuf::from(name_or_path);
            let name = path.file_stem().map_or(name_or_path.to_string(), |s| {
                s.to_string_lossy().into_owned()
            });
            return Ok(Found {
                name,
                text: read(&path)?,
                source: Source::Path(path),
            });
        }
        let file = format!("{name_or_path}.toml");
        let mut looked = Vec::new();
        for (dir, place) in self.folders() {
            let path = dir.join(&file);
            if path.is_file() {
                return Ok(Found {
                    name: name_or_path.to_string(),
                    text: read(&path)?,
                    source: place(path),
                });
            }
            looked.push(path);
        }
        match BUILT_IN.iter().find(|(name, _)| *name == name_or_path) {
            Some((name, text)) => Ok(Found {
                name: name.to_string(),
                text: text.to_string(),
                source: Source::BuiltIn,
            }),
            None => Err(CatalogueError::NotFound {
                name: name_or_path.to_string(),
                looked,
            }),
        }
    }

    /// Every profile found by name, sorted by name, each with the place that wins and the
    /// places it hides. A folder that does not exist holds no profiles.
    pub fn list(&self) -> Result<Vec<Listed>, CatalogueError> {
        let mut places: BTreeMap<String, Vec<Source>> = BTreeMap::new();
        for (dir, place) in self.folders() {
            for (name, path) in toml_files(dir)? {
                places.entry(name).or_default().push(place(path));
            }
        }
        for (name, _) in BUILT_IN {
            places
                .entry(name.to_string())
                .or_default()
                .push(Source::BuiltIn);
        }
        Ok(places
            .into_iter()
            .map(|(name, mut sources)| {
                let source = sources.remove(0);
                Listed {
                    name,
                    source,
                    shadows: sources,
                }
            })
            .collect())
    }

    /// Where [`Catalogue::save`] writes the profile `name`: `CONFIG/NAME.toml`.
    pub fn save_path(&self, name: &str) -> Result<PathBuf, CatalogueError> {
        if name.is_empty() || looks_like_path(name) || name.contains('\\') {
            return Err(CatalogueError::BadName(name.to_string()));
        }
        let config = self.config.as_ref().ok_or(CatalogueError::NoConfigFolder)?;
        Ok(config.join(format!("{name}.toml")))
    }

    /// Checks that [`Catalogue::save`] may write the profile `name` (a plain name, a config
    /// folder, no such profile there unless `force`); its path.
    pub fn check_save(&self, name: &str, force: bool) -> Result<PathBuf, CatalogueError> {
        let path = self.save_path(name)?;
        if path.exists() && !force {
            return Err(CatalogueError::Exists { path });
        }
        Ok(path)
    }

    /// Writes `profile` as the user profile `name` (`CONFIG/NAME.toml`), with `templates`, if
    /// given, in `CONFIG/templates/NAME/` (the profile's `templates` then names that folder,
    /// relative to the profile). Never overwrites a profile unless `force`; `--profile NAME`
    /// finds it next time (unless `./calibration/NAME.toml` hides it).
    pub fn save(
        &self,
        name: &str,
        profile: &Profile,
        templates: Option<&Templates>,
        force: bool,
    ) -> Result<PathBuf, CatalogueError> {
        let path = self.check_save(name, force)?;
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let write_error = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CatalogueError::Write { path, source }
        };
        std::fs::create_dir_all(&dir).map_err(write_error(&dir))?;
        let mut profile = profile.clone();
        if let Some(templates) = templates {
            let relative = Path::new("templates").join(name);
            let folder = dir.join(&relative);
            remove_templates(&folder).map_err(write_error(&folder))?;
            templates.save(&folder).map_err(CatalogueError::Templates)?;
            profile.templates = Some(relative);
        }
        std::fs::write(&path, profile.to_toml()).map_err(write_error(&path))?;
        Ok(path)
    }

    /// The folders searched by name, first first, each with the [`Source`] of a file in it.
    fn folders(&self) -> Vec<(&Path, Place)> {
        let mut folders: Vec<(&Path, Place)> = vec![(self.working.as_path(), Source::Working)];
        if let Some(config) = &self.config {
            folders.push((config.as_path(), Source::Config));
        }
        folders
    }
}

/// Finds a profile by name or path from the current folder and environment: the text and
/// where it came from. [`Found::profile`] parses it.
pub fn find(name_or_path: &str) -> Result<Found, CatalogueError> {
    Catalogue::from_env().find(name_or_path)
}

/// Whether a profile argument is a path rather than a name: it has a path separator or ends
/// in `.toml`.
pub fn looks_like_path(name_or_path: &str) -> bool {
    name_or_path.contains(std::path::MAIN_SEPARATOR)
        || name_or_path.contains('/')
        || name_or_path.ends_with(".toml")
}

/// The platform's `linkup` config folder, from the environment variables `get` returns.
///
/// Linux and other Unix systems: `$XDG_CONFIG_HOME/linkup` when that is an absolute path, else
/// `$HOME/.config/linkup`; macOS: `$HOME/Library/Application Support/linkup`; Windows:
/// `%APPDATA%\linkup`. `None` when the variables needed are unset or empty.
pub fn config_dir(get: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let var = |key: &str| get(key).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = if cfg!(windows) {
        var("APPDATA")?
    } else if cfg!(target_os = "macos") {
        var("HOME")?.join("Library/Application Support")
    } else {
        match var("XDG_CONFIG_HOME").filter(|p| p.is_absolute()) {
            Some(dir) => dir,
            None => var("HOME")?.join(".config"),
        }
    };
    Some(base.join(APP_DIR))
}

/// Removes the `K.png` templates (K a number) from `dir`, so that a profile saved again does
/// not keep kinds of the old one; a folder that does not exist has none.
fn remove_templates(dir: &Path) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(err) => return Err(err),
    };
    for entry in entries {
        let path = entry?.path();
        let numbered = path
            .file_stem()
            .and_then(|s| s.to_str())
            .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
        if numbered && path.extension().is_some_and(|e| e == "png") {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Reads a profile file's text.
fn read(path: &Path) -> Result<String, CatalogueError> {
    std::fs::read_to_string(path).map_err(|source| CatalogueError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The `NAME.toml` files directly in `dir` as (NAME, path); none when `dir` does not exist.
fn toml_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, CatalogueError> {
    let error = |source| CatalogueError::Read {
        path: dir.to_path_buf(),
        source,
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(error(err)),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(error)?.path();
        let is_toml = path.extension().is_some_and(|e| e == "toml");
        if let (true, true, Some(stem)) = (is_toml, path.is_file(), path.file_stem()) {
            files.push((stem.to_string_lossy().into_owned(), path));
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |key| {
            vars.iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    #[cfg(all(unix, not(target_os = "macos")))]
    fn config_dir_honours_xdg_config_home_then_home() {
        let both = [("XDG_CONFIG_HOME", "/x/conf"), ("HOME", "/home/u")];
        assert_eq!(
            config_dir(env(&both)),
            Some(PathBuf::from("/x/conf/linkup"))
        );
        let relative = [("XDG_CONFIG_HOME", "conf"), ("HOME", "/home/u")];
        assert_eq!(
            config_dir(env(&relative)),
            Some(PathBuf::from("/home/u/.config/linkup"))
        );
        assert_eq!(
            config_dir(env(&[("HOME", "/home/u")])),
            Some(PathBuf::from("/home/u/.config/linkup"))
        );
        assert_eq!(config_dir(env(&[("HOME", "")])), None);
    }

    #[test]
    fn built_in_profiles_parse_and_drop_their_templates() {
        for (name, text) in BUILT_IN {
            let found = Found {
                name: name.to_string(),
                text: text.to_string(),
                source: Source::BuiltIn,
            };
            let profile = found.profile().unwrap();
            assert_eq!(profile.templates, None, "{name}");
        }
    }

    #[test]
    fn parse_errors_name_the_built_in_profile() {
        let found = Found {
            name: "broken".to_string(),
            text: "[board]\nrows = 2\n".to_string(),
            source: Source::BuiltIn,
        };
        assert_eq!(
            found.profile().unwrap_err().to_string(),
            "built-in broken: line 1: missing field `cols`"
        );
    }

    #[test]
    fn save_needs_a_plain_name_and_a_config_folder() {
        let catalogue = Catalogue {
            working: PathBuf::from("calibration"),
            config: Some(PathBuf::from("/x/conf/linkup")),
        };
        assert_eq!(
            catalogue.save_path("mine").unwrap(),
            PathBuf::from("/x/conf/linkup/mine.toml")
        );
        assert_eq!(
            catalogue.save_path("a/b").unwrap_err().to_string(),
            "cannot save a profile named `a/b`: give a plain name, without a folder or .toml"
        );
        assert!(catalogue.save_path("mine.toml").is_err());
        let homeless = Catalogue {
            config: None,
            ..catalogue
        };
        assert!(matches!(
            homeless.check_save("mine", true),
            Err(CatalogueError::NoConfigFolder)
        ));
    }

    #[test]
    fn names_and_paths() {
        assert!(looks_like_path("a/b"));
        assert!(looks_like_path("my.toml"));
        assert!(!looks_like_path("xshisen"));
    }
}
