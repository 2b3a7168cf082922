//! Input: clicking at a screen pixel, reading where the pointer is and pressing a key
//! combination ([`Keys`], a game's shuffle key), and how a game answers a click that does not
//! make a pair ([`SelectionRule`]).
//!
//! Everything that moves the mouse goes through [`Pointer`] (named so it does not clash with
//! enigo's own `Mouse` trait). The real one, [`EnigoPointer`] (cargo feature `desktop`), sends
//! XTest events with enigo; [`RecordingPointer`] records the clicks instead, for `--dry-run` and
//! tests; the simulated game has its own (`crate::sim::SimPointer`).

use std::fmt;
use std::io::Write;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Button {
    /// The left button: selects a tile.
    Left,
    /// The right button: xshisen cancels a selection with it.
    Right,
}

/// One click at a screen pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Click {
    /// Screen x.
    pub x: i32,
    /// Screen y.
    pub y: i32,
    /// Which button.
    pub button: Button,
}

impl fmt::Display for Click {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let button = match self.button {
            Button::Left => "left",
            Button::Right => "right",
        };
        write!(f, "{button} click at ({}, {})", self.x, self.y)
    }
}

/// How a game treats a second click that does not make a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionRule {
    /// xshisen: the first tile stays selected, clicking it again does not deselect it, a right
    /// click cancels the selection.
    KeepFirst,
    /// kshisen: the selection is dropped; clicking a selected tile again deselects it.
    DropOnMismatch,
}

/// How to cancel a selection (a profile's `selection.cancel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cancel {
    /// A right click on the selected tile (xshisen).
    #[default]
    RightClick,
    /// A second left click on the selected tile (kshisen); nothing is clicked when no tile is
    /// seen selected.
    ClickAgain,
}

/// One key of a [`Keys`] combination: a character or a named key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A character key, e.g. `s`.
    Char(char),
    /// A function key, `F1` to `F12`.
    Function(u8),
    /// `Return`.
    Return,
    /// `space`.
    Space,
    /// `Escape`.
    Escape,
    /// `Tab`.
    Tab,
    /// `BackSpace`.
    BackSpace,
    /// `Delete`.
    Delete,
    /// `Home`.
    Home,
    /// `End`.
    End,
    /// `Up`.
    Up,
    /// `Down`.
    Down,
    /// `Left`.
    Left,
    /// `Right`.
    Right,
}

/// A modifier held while the key is pressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    /// `ctrl`.
    Ctrl,
    /// `shift`.
    Shift,
    /// `alt`.
    Alt,
    /// `super`.
    Super,
}

/// The named keys, as xdotool spells them (compared without case).
const NAMED_KEYS: [(&str, Key); 14] = [
    ("return", Key::Return),
    ("enter", Key::Return),
    ("space", Key::Space),
    ("escape", Key::Escape),
    ("tab", Key::Tab),
    ("backspace", Key::BackSpace),
    ("delete", Key::Delete),
    ("home", Key::Home),
    ("end", Key::End),
    ("up", Key::Up),
    ("down", Key::Down),
    ("left", Key::Left),
    ("right", Key::Right),
    ("esc", Key::Escape),
];

/// A key combination in xdotool spelling: modifiers and one key joined by `+`, such as
/// `ctrl+s`, `F5` or `shift+Return` (a game's shuffle key).
///
/// ```
/// use linkup::input::{Key, Keys, Modifier};
///
/// let keys: Keys = "ctrl+s".parse().unwrap();
/// assert_eq!(keys.modifiers, [Modifier::Ctrl]);
/// assert_eq!(keys.key, Key::Char('s'));
/// assert_eq!(keys.to_string(), "ctrl+s");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keys {
    /// Held down, in order, while the key is pressed.
    pub modifiers: Vec<Modifier>,
    /// The key pressed.
    pub key: Key,
    /// The spelling parsed.
    spelling: String,
}

/// Why a key combination could not be parsed.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "cannot read the key combination `{spelling}`: {why} (write modifiers ctrl, shift, alt, super and one key joined by +, e.g. ctrl+s or F5)"
)]
pub struct KeysError {
    /// The text given.
    pub spelling: String,
    /// What is wrong.
    pub why: String,
}

impl std::str::FromStr for Keys {
    type Err = KeysError;

    fn from_str(spelling: &str) -> Result<Keys, KeysError> {
        let error = |why: String| KeysError {
            spelling: spelling.to_string(),
            why,
        };
        let parts: Vec<&str> = spelling.split('+').map(str::trim).collect();
        let (last, mods) = parts.split_last().expect("split gives at least one part");
        let modifiers = mods
            .iter()
            .map(|m| match m.to_ascii_lowercase().as_str() {
                "ctrl" | "control" => Ok(Modifier::Ctrl),
                "shift" => Ok(Modifier::Shift),
                "alt" => Ok(Modifier::Alt),
                "super" | "meta" => Ok(Modifier::Super),
                other => Err(error(format!("`{other}` is not a modifier"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let lower = last.to_ascii_lowercase();
        let mut chars = last.chars();
        let key = match (chars.next(), chars.next()) {
            (None, _) => return Err(error("no key after the modifiers".to_string())),
            (Some(c), None) => Key::Char(c),
            _ => match NAMED_KEYS.iter().find(|(name, _)| *name == lower) {
                Some(&(_, key)) => key,
                None => match lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
                    Some(n @ 1..=12) => Key::Function(n),
                    _ => return Err(error(format!("`{last}` is not a key"))),
                },
            },
        };
        Ok(Keys {
            modifiers,
            key,
            spelling: spelling.to_string(),
        })
    }
}

impl fmt::Display for Keys {
    /// The spelling parsed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelling)
    }
}

impl Serialize for Keys {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.spelling)
    }
}

impl<'de> Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Keys, D::Error> {
        let spelling = String::deserialize(deserializer)?;
        spelling.parse().map_err(serde::de::Error::custom)
    }
}

/// Why the pointer could not be moved, clicked or read.
#[derive(Debug, Error)]
pub enum InputError {
    /// The input connection could not be opened.
    #[error(
        "cannot open the input connection: {0}; is DISPLAY set and does the X server have the XTEST extension?"
    )]
    Connect(String),
    /// A click or a move failed.
    #[error("cannot send the {click}: {message}")]
    Send {
        /// The click that failed.
        click: Click,
        /// What the input library said.
        message: String,
    },
    /// The pointer position could not be read.
    #[error("cannot read the pointer position: {0}")]
    Position(String),
    /// A key combination could not be pressed.
    #[error("cannot press {keys}: {message}")]
    Press {
        /// The keys.
        keys: String,
        /// Why.
        message: String,
    },
}

/// Moves and clicks the pointer.
pub trait Pointer {
    /// Moves the pointer to the screen pixel `(x, y)` and clicks `button` there; the pointer
    /// stays at `(x, y)`.
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError>;

    /// Where the pointer is now, in screen pixels.
    fn position(&mut self) -> Result<(i32, i32), InputError>;

    /// Presses a key combination in the focused window (the game's, once it was clicked).
    /// The default presses nothing and says so.
    fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
        Err(InputError::Press {
            keys: keys.to_string(),
            message: "this input cannot press keys".to_string(),
        })
    }
}

impl<P: Pointer + ?Sized> Pointer for &mut P {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        (**self).click(x, y, button)
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        (**self).position()
    }

    fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
        (**self).press(keys)
    }
}

impl<P: Pointer + ?Sized> Pointer for Box<P> {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        (**self).click(x, y, button)
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        (**self).position()
    }

    fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
        (**self).press(keys)
    }
}

/// A pointer that sends nothing: it records each click (and prints it, if asked), and its
/// position is the last click's.
///
/// This is `--dry-run`: the same play loop, with the clicks as a value.
#[derive(Clone, Debug, Default)]
pub struct RecordingPointer {
    clicks: Vec<Click>,
    presses: Vec<Keys>,
    at: (i32, i32),
    print: bool,
}

impl RecordingPointer {
    /// A recorder whose pointer starts at `(0, 0)`.
    pub fn new() -> Self {
        RecordingPointer::default()
    }

    /// Also prints each click on standard output, one line each (`left click at (x, y)`).
    pub fn printing(mut self) -> Self {
        self.print = true;
        self
    }

    /// The clicks so far, in order.
    pub fn clicks(&self) -> &[Click] {
        &self.clicks
    }

    /// The key combinations pressed so far, in order.
    pub fn presses(&self) -> &[Keys] {
        &self.presses
    }
}

impl Pointer for RecordingPointer {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        let click = Click { x, y, button };
        if self.print {
            // A closed pipe loses the listing, not the dry run; its end reports the pipe.
            let _ = writeln!(std::io::stdout().lock(), "{click}");
        }
        self.clicks.push(click);
        self.at = (x, y);
        Ok(())
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        Ok(self.at)
    }

    fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
        if self.print {
            let _ = writeln!(std::io::stdout().lock(), "press {keys}");
        }
        self.presses.push(keys.clone());
        Ok(())
    }
}

#[cfg(feature = "desktop")]
pub use desktop::EnigoPointer;

#[cfg(feature = "desktop")]
mod desktop {
    use enigo::{Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};

    use super::{Button, Click, InputError, Key, Keys, Modifier, Pointer};

    /// enigo's key for one of ours.
    fn enigo_key(key: Key) -> enigo::Key {
        match key {
            Key::Char(c) => enigo::Key::Unicode(c),
            Key::Function(n) => [
                enigo::Key::F1,
                enigo::Key::F2,
                enigo::Key::F3,
                enigo::Key::F4,
                enigo::Key::F5,
                enigo::Key::F6,
                enigo::Key::F7,
                enigo::Key::F8,
                enigo::Key::F9,
                enigo::Key::F10,
                enigo::Key::F11,
                enigo::Key::F12,
            ][usize::from(n.clamp(1, 12)) - 1],
            Key::Return => enigo::Key::Return,
            Key::Space => enigo::Key::Space,
            Key::Escape => enigo::Key::Escape,
            Key::Tab => enigo::Key::Tab,
            Key::BackSpace => enigo::Key::Backspace,
            Key::Delete => enigo::Key::Delete,
            Key::Home => enigo::Key::Home,
            Key::End => enigo::Key::End,
            Key::Up => enigo::Key::UpArrow,
            Key::Down => enigo::Key::DownArrow,
            Key::Left => enigo::Key::LeftArrow,
            Key::Right => enigo::Key::RightArrow,
        }
    }

    /// The real pointer: XTest events through enigo's pure-Rust x11rb backend.
    ///
    /// enigo stamps every X11 button event with a server-side delay (`Settings::linux_delay`,
    /// 12 ms by default, for the press and again for the release, and the call waits for the
    /// server); [`EnigoPointer::new`] takes it as a parameter so the play loop can use 0.
    pub struct EnigoPointer {
        enigo: Enigo,
    }

    impl EnigoPointer {
        /// Connects to `$DISPLAY`; `delay_ms` is the XTest delay per button event.
        pub fn new(delay_ms: u32) -> Result<Self, InputError> {
            let settings = Settings {
                linux_delay: delay_ms,
                ..Settings::default()
            };
            let enigo = Enigo::new(&settings).map_err(|e| InputError::Connect(e.to_string()))?;
            Ok(EnigoPointer { enigo })
        }
    }

    impl Pointer for EnigoPointer {
        fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
            let click = Click { x, y, button };
            let send = |e: enigo::InputError| InputError::Send {
                click,
                message: e.to_string(),
            };
            self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(send)?;
            let button = match button {
                Button::Left => enigo::Button::Left,
                Button::Right => enigo::Button::Right,
            };
            self.enigo.button(button, Direction::Click).map_err(send)
        }

        fn position(&mut self) -> Result<(i32, i32), InputError> {
            self.enigo
                .location()
                .map_err(|e| InputError::Position(e.to_string()))
        }

        fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
            let fail = |e: enigo::InputError| InputError::Press {
                keys: keys.to_string(),
                message: e.to_string(),
            };
            let modifiers: Vec<enigo::Key> = keys
                .modifiers
                .iter()
                .map(|m| match m {
                    Modifier::Ctrl => enigo::Key::Control,
                    Modifier::Shift => enigo::Key::Shift,
                    Modifier::Alt => enigo::Key::Alt,
                    Modifier::Super => enigo::Key::Meta,
                })
                .collect();
            for &m in &modifiers {
                self.enigo.key(m, Direction::Press).map_err(fail)?;
            }
            let pressed = self.enigo.key(enigo_key(keys.key), Direction::Click);
            // Release the modifiers whatever happened, so none stays held down.
            for &m in modifiers.iter().rev() {
                self.enigo.key(m, Direction::Release).map_err(fail)?;
            }
            pressed.map_err(fail)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_in_xdotool_spelling() {
        let keys: Keys = "ctrl+shift+F5".parse().unwrap();
        assert_eq!(keys.modifiers, [Modifier::Ctrl, Modifier::Shift]);
        assert_eq!(keys.key, Key::Function(5));
        assert_eq!("Return".parse::<Keys>().unwrap().key, Key::Return);
        assert_eq!("h".parse::<Keys>().unwrap().key, Key::Char('h'));
        let err = "ctrl+hyper".parse::<Keys>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read the key combination `ctrl+hyper`: `hyper` is not a key (write modifiers ctrl, shift, alt, super and one key joined by +, e.g. ctrl+s or F5)"
        );
        assert!("cmd+s".parse::<Keys>().is_err());
        assert!("ctrl+".parse::<Keys>().is_err());
        assert!("F13".parse::<Keys>().is_err());
    }

    #[test]
    fn recorder_records_and_follows_clicks() {
        let mut p = RecordingPointer::new();
        assert_eq!(p.position().unwrap(), (0, 0));
        p.click(5, 6, Button::Left).unwrap();
        p.click(7, 8, Button::Right).unwrap();
        assert_eq!(p.position().unwrap(), (7, 8));
        assert_eq!(p.clicks().len(), 2);
        assert_eq!(p.clicks()[1].to_string(), "right click at (7, 8)");
        assert_eq!(
            serde_json::to_string(&p.clicks()[0]).unwrap(),
            r#"{"x":5,"y":6,"button":"left"}"#
        );
    }
}
