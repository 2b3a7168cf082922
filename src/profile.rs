//! Calibration profiles: what linkup knows about one game, kept as a TOML file in
//! `calibration/`.
//!
//! A profile names the window to find, the board geometry relative to the window's top-left
//! corner, the rules, the timings, how the game treats selections, an optional shuffle action
//! and the classifier settings. Unknown keys are errors, and every error names the file, the
//! line and the key; keys that parse but cannot be honoured together (a shuffle key and a
//! button; match groups without templates) are refused when the profile is loaded, not during
//! a game. [`Profile::config`] and
//! [`Profile::window_match`] turn a profile into the play loop's settings and the window to
//! find; [`Profile::reader`] into vision's reader.
//!
//! ```
//! use linkup::profile::Profile;
//!
//! let profile = Profile::from_toml(
//!     r#"
//!     [window]
//!     app-name = "XShisen"
//!     [board]
//!     rows = 8
//!     cols = 18
//!     origin = [35.0, 95.0]
//!     pitch = [32.0, 40.0]
//!     tile-size = [30.0, 38.0]
//!     "#,
//! )
//! .unwrap();
//! assert_eq!(profile.board.cols, 18);
//! assert!(profile.rules.border);
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use std::time::Duration;

use crate::board::Kind;
use crate::capture::WindowMatch;
use crate::input::{Keys, SelectionRule};
use crate::play::{Config, Learned, ShuffleAction};
use crate::solver::Rules;
use crate::vision::{ClassifierSettings, Geometry, Reader, Templates, VisionError};

pub use crate::input::Cancel;

/// Folder where profiles named by a bare name live.
pub const PROFILE_DIR: &str = "calibration";

/// One game's calibration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Profile {
    /// The folder of tile templates (`K.png` per kind id) that keep kind ids the same from
    /// frame to frame; a relative path is taken from the profile's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub templates: Option<PathBuf>,
    /// The window to find.
    #[serde(default)]
    pub window: Window,
    /// Where the board is, relative to the window's top-left corner.
    pub board: Geometry,
    /// The game's rules.
    #[serde(default)]
    pub rules: RuleSettings,
    /// How fast to play.
    #[serde(default)]
    pub timing: Timing,
    /// How the game treats selections.
    #[serde(default)]
    pub selection: Selection,
    /// How to ask the game for a shuffle when stuck, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shuffle: Option<Shuffle>,
    /// Classifier settings.
    #[serde(default)]
    pub classifier: ClassifierSettings,
}

/// How to find the game's window: by title, by application name (X11 class), or both.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct Window {
    /// The window title, as the window manager shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The application name (X11 class), for windows without a useful title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app_name: Option<String>,
    /// The window's size `[width, height]` in pixels the board geometry was measured in; only a
    /// window of this size matches.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<[u32; 2]>,
}

/// The rules, as a profile spells them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct RuleSettings {
    /// Paths may run through the ring just outside the board.
    pub border: bool,
    /// Tiles fall down their column after a removal.
    pub gravity: bool,
    /// Most turns a path may make.
    pub max_turns: u8,
    /// Kinds the game matches although they look different, by template id (`K` of
    /// `templates/NAME/K.png`), e.g. `[[3, 7]]`; needs `templates`, whose ids stay the same
    /// from frame to frame.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub match_groups: Vec<Vec<Kind>>,
}

impl Default for RuleSettings {
    /// The solver's default rules ([`Rules::default`]): one default for both.
    fn default() -> Self {
        Rules::default().into()
    }
}

impl From<Rules> for RuleSettings {
    fn from(r: Rules) -> RuleSettings {
        RuleSettings {
            border: r.border,
            gravity: r.gravity,
            max_turns: r.max_turns,
            match_groups: Vec::new(),
        }
    }
}

impl From<&RuleSettings> for Rules {
    fn from(r: &RuleSettings) -> Rules {
        Rules {
            max_turns: r.max_turns,
            border: r.border,
            gravity: r.gravity,
        }
    }
}

/// Timings, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct Timing {
    /// Pause between two clicks.
    pub pace_ms: u64,
    /// How long the game animates a removal before the board can be read again.
    pub removal_ms: u64,
    /// Whether the game takes clicks made while a removal is still on show (then `play`
    /// clicks planned pairs ahead); unset, `play` finds out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clicks_during_removal: Option<bool>,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            pace_ms: 120,
            removal_ms: 300,
            clicks_during_removal: None,
        }
    }
}

/// What the game does with a click on a tile that does not pair with the selected one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefusedClick {
    /// The first tile stays selected.
    #[default]
    KeepsFirst,
    /// The selection is dropped.
    Drops,
    /// The clicked tile becomes the selection.
    SelectsSecond,
}

/// Selection behaviour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct Selection {
    /// What a refused second click does.
    pub refused_click: RefusedClick,
    /// How to cancel a selection.
    pub cancel: Cancel,
}

/// A shuffle action: a key combination or a button position relative to the window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Shuffle {
    /// A key combination in xdotool spelling, such as `ctrl+s` or `F5`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<Keys>,
    /// A button to click, x and y relative to the window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub button: Option<[f64; 2]>,
}

/// Why a profile could not be used.
#[derive(Debug, Error)]
pub enum ProfileError {
    /// The file could not be read.
    #[error("cannot read the profile {}", file.display())]
    Read {
        /// The profile's path.
        file: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The text is not a valid profile.
    #[error("{file}: {message}")]
    Parse {
        /// The profile's path, or `<text>`.
        file: String,
        /// Line and what is wrong, naming the key.
        message: String,
    },
    /// A key that parses but that linkup cannot honour.
    #[error("{file}: {key}: {why}")]
    Unsupported {
        /// The profile's path, or `<text>`.
        file: String,
        /// The key, `[section] key`.
        key: &'static str,
        /// Why, and what to give instead.
        why: &'static str,
    },
}

impl Profile {
    /// A profile of the board at `geometry` in `window`, everything else at its default
    /// (xshisen's rules, timings and selection; no shuffle; no templates).
    pub fn new(window: Window, geometry: Geometry) -> Profile {
        Profile {
            templates: None,
            window,
            board: geometry,
            rules: RuleSettings::default(),
            timing: Timing::default(),
            selection: Selection::default(),
            shuffle: None,
            classifier: ClassifierSettings::default(),
        }
    }

    /// This profile with what a game taught: the selection rule, the cancel, border routing,
    /// gravity, the removal time, whether clicks are taken during a removal and the match
    /// groups, each where the game showed it (the
    /// rest stays as it was).
    pub fn with_learned(mut self, learned: &Learned) -> Profile {
        if let Some(rule) = learned.selection {
            self.selection.refused_click = match rule {
                SelectionRule::KeepFirst => RefusedClick::KeepsFirst,
                SelectionRule::DropOnMismatch => RefusedClick::Drops,
            };
        }
        if let Some(cancel) = learned.cancel {
            self.selection.cancel = cancel;
        }
        if let Some(border) = learned.border {
            self.rules.border = border;
        }
        if let Some(gravity) = learned.gravity {
            self.rules.gravity = gravity;
        }
        if let Some(ms) = learned.removal_ms {
            self.timing.removal_ms = ms;
        }
        if let Some(taken) = learned.clicks_during_removal {
            self.timing.clicks_during_removal = Some(taken);
        }
        if !learned.match_groups.is_empty() {
            self.rules.match_groups = learned.match_groups.clone();
        }
        self
    }

    /// Parses a profile from TOML text; errors read `<text>: line N: ...`.
    pub fn from_toml(text: &str) -> Result<Profile, ProfileError> {
        parse(text, "<text>")
    }

    /// Parses a profile from TOML text read from `file` (a path or a name such as `built-in
    /// xshisen`), which every error names; relative templates stay as written.
    pub fn from_toml_in(text: &str, file: &str) -> Result<Profile, ProfileError> {
        parse(text, file)
    }

    /// Reads and parses a profile file; errors name the file.
    pub fn load(path: &Path) -> Result<Profile, ProfileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ProfileError::Read {
            file: path.to_path_buf(),
            source,
        })?;
        let mut profile = parse(&text, &path.display().to_string())?;
        if let Some(dir) = &profile.templates {
            if dir.is_relative() {
                let base = path.parent().unwrap_or(Path::new(""));
                profile.templates = Some(base.join(dir));
            }
        }
        Ok(profile)
    }

    /// The profile as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a profile serialises")
    }

    /// The rules for the solver.
    pub fn rules(&self) -> Rules {
        (&self.rules).into()
    }

    /// The play loop's settings this profile describes: rules, selection and cancel, shuffle
    /// button, pace, and a settle time of at least four removal animations.
    pub fn config(&self) -> Config {
        let defaults = Config::default();
        Config {
            rules: self.rules(),
            match_groups: self.rules.match_groups.clone(),
            selection: match self.selection.refused_click {
                RefusedClick::KeepsFirst => SelectionRule::KeepFirst,
                RefusedClick::Drops | RefusedClick::SelectsSecond => SelectionRule::DropOnMismatch,
            },
            cancel: self.selection.cancel,
            shuffle: self
                .shuffle
                .as_ref()
                .and_then(|s| match (s.button, &s.key) {
                    (Some(at), _) => Some(ShuffleAction::Button(at)),
                    (None, Some(keys)) => Some(ShuffleAction::Key(keys.clone())),
                    (None, None) => None,
                }),
            pace: Duration::from_millis(self.timing.pace_ms),
            removal: Duration::from_millis(self.timing.removal_ms),
            clicks_during_removal: self.timing.clicks_during_removal,
            settle_timeout: defaults.settle_timeout.max(Duration::from_millis(
                self.timing.removal_ms.saturating_mul(4),
            )),
            ..defaults
        }
    }

    /// The window this profile names: its app name, title and size.
    pub fn window_match(&self) -> WindowMatch {
        WindowMatch {
            app_name: self.window.app_name.clone(),
            title: self.window.title.clone(),
            size: self.window.size,
        }
    }

    /// Vision's reader for this profile: its geometry, classifier settings and templates (read
    /// from the templates folder now).
    pub fn reader(&self) -> Result<Reader, VisionError> {
        let templates = self.templates.as_deref().map(Templates::load).transpose()?;
        Ok(Reader::new(self.board, self.classifier, templates.as_ref()))
    }
}

fn parse(text: &str, file: &str) -> Result<Profile, ProfileError> {
    let profile: Profile = toml::from_str(text).map_err(|e: toml::de::Error| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
        let detail = e.message().trim().replace('\n', " ");
        ProfileError::Parse {
            file: file.to_string(),
            message: match line {
                Some(line) => format!("line {line}: {detail}"),
                None => detail,
            },
        }
    })?;
    refuse_unsupported(&profile, file)?;
    Ok(profile)
}

/// Rejects keys that parse but that the loop cannot honour, so a profile fails when it is
/// loaded rather than in the middle of a game.
fn refuse_unsupported(profile: &Profile, file: &str) -> Result<(), ProfileError> {
    if let Some(shuffle) = &profile.shuffle {
        let why = match (&shuffle.key, shuffle.button) {
            (Some(_), Some(_)) => "give the shuffle key or its button, not both",
            (None, None) => "give key = \"ctrl+s\" (say) or button = [x, y]",
            _ => "",
        };
        if !why.is_empty() {
            return Err(ProfileError::Unsupported {
                file: file.to_string(),
                key: "[shuffle]",
                why,
            });
        }
    }
    if !profile.rules.match_groups.is_empty() && profile.templates.is_none() {
        return Err(ProfileError::Unsupported {
            file: file.to_string(),
            key: "[rules] match-groups",
            why: "kinds are named by template id, so give templates = FOLDER too",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "[board]\nrows = 2\ncols = 3\norigin = [1.0, 2.0]\npitch = [30.0, 40.0]\ntile-size = [28.0, 38.0]\n";

    #[test]
    fn minimal_profile_takes_defaults() {
        let p = Profile::from_toml(MINIMAL).unwrap();
        assert_eq!(p.rules, RuleSettings::default());
        assert_eq!(p.selection.refused_click, RefusedClick::KeepsFirst);
        assert_eq!(p.shuffle, None);
    }

    #[test]
    fn round_trips_through_toml() {
        let mut p = Profile::from_toml(MINIMAL).unwrap();
        p.window.app_name = Some("XShisen".into());
        p.shuffle = Some(Shuffle {
            key: None,
            button: Some([600.0, 20.0]),
        });
        assert_eq!(Profile::from_toml(&p.to_toml()).unwrap(), p);
    }

    #[test]
    fn unknown_key_is_named_with_its_line() {
        let text = format!("{MINIMAL}[timing]\npace = 3\n");
        let err = Profile::from_toml(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "<text>: line 8: unknown field `pace`, expected one of `pace-ms`, `removal-ms`, `clicks-during-removal`"
        );
    }

    #[test]
    fn missing_key_is_named() {
        let err = Profile::from_toml("[board]\nrows = 2\n").unwrap_err();
        assert_eq!(err.to_string(), "<text>: line 1: missing field `cols`");
    }

    #[test]
    fn bad_value_is_named() {
        let text = format!("{MINIMAL}[selection]\nrefused-click = \"sometimes\"\n");
        let err = Profile::from_toml(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "<text>: line 8: unknown variant `sometimes`, expected one of `keeps-first`, `drops`, `selects-second`"
        );
    }

    #[test]
    fn shuffle_key_is_pressed_and_a_bad_one_named_at_load() {
        let text = format!("{MINIMAL}[shuffle]\nkey = \"ctrl+s\"\n");
        let keys: Keys = "ctrl+s".parse().unwrap();
        let profile = Profile::from_toml(&text).unwrap();
        assert_eq!(profile.config().shuffle, Some(ShuffleAction::Key(keys)));
        assert_eq!(Profile::from_toml(&profile.to_toml()).unwrap(), profile);
        let bad = format!("{MINIMAL}[shuffle]\nkey = \"ctrl+hyper\"\n");
        let err = Profile::from_toml(&bad).unwrap_err().to_string();
        assert!(
            err.starts_with("<text>: line 8: cannot read the key combination `ctrl+hyper`"),
            "{err}"
        );
        let both = format!("{text}button = [1.0, 2.0]\n");
        assert_eq!(
            Profile::from_toml(&both).unwrap_err().to_string(),
            "<text>: [shuffle]: give the shuffle key or its button, not both"
        );
    }

    #[test]
    fn config_honours_selection_cancel_and_shuffle_button() {
        let text = format!(
            "{MINIMAL}[selection]\nrefused-click = \"drops\"\ncancel = \"click-again\"\n[shuffle]\nbutton = [600.0, 20.0]\n[timing]\nremoval-ms = 1000\n"
        );
        let config = Profile::from_toml(&text).unwrap().config();
        assert_eq!(config.selection, SelectionRule::DropOnMismatch);
        assert_eq!(config.cancel, Cancel::ClickAgain);
        assert_eq!(config.shuffle, Some(ShuffleAction::Button([600.0, 20.0])));
        assert_eq!(config.settle_timeout, Duration::from_millis(4000));
        assert_eq!(config.pace, Duration::from_millis(120));
        let xshisen = Profile::from_toml(MINIMAL).unwrap().config();
        assert_eq!(xshisen.cancel, Cancel::RightClick);
        assert_eq!(xshisen.settle_timeout, Duration::from_millis(2500));
    }

    #[test]
    fn match_groups_are_template_ids_and_need_templates() {
        let text = format!("{MINIMAL}[rules]\nmatch-groups = [[3, 7], [1, 2, 5]]\n");
        let err = Profile::from_toml(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "<text>: [rules] match-groups: kinds are named by template id, so give templates = FOLDER too"
        );
        let with_templates = format!("templates = \"t\"\n{text}");
        let profile = Profile::from_toml(&with_templates).unwrap();
        assert_eq!(
            profile.config().match_groups,
            vec![vec![3, 7], vec![1, 2, 5]]
        );
        assert_eq!(Profile::from_toml(&profile.to_toml()).unwrap(), profile);
    }

    #[test]
    fn load_names_the_file() {
        let err = Profile::load(Path::new("/nonexistent/x.toml")).unwrap_err();
        assert_eq!(
            format!("{:#}", anyhow::Error::from(err)),
            "cannot read the profile /nonexistent/x.toml: No such file or directory (os error 2)"
        );
    }
}
