//! Capture: the game window's pixels and where the window is on the screen right now.
//!
//! Everything that reads the screen goes through [`Screen`]. The real one, [`XcapScreen`] (cargo
//! feature `desktop`), finds the game window with xcap and captures it; [`ReplayScreen`] replays
//! saved PNGs for tests; the simulated game has its own (`crate::sim::SimScreen`). A frame always
//! carries the window's current screen rectangle, because the window may move between frames and
//! clicks are converted to screen pixels from it.

use std::path::{Path, PathBuf};

use image::RgbaImage;
use thiserror::Error;

/// Where a window is on the screen, in screen pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct WindowRect {
    /// Left edge of the window's content.
    pub x: i32,
    /// Top edge of the window's content.
    pub y: i32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl WindowRect {
    /// The screen pixel of the window pixel `(wx, wy)` (rounded to the nearest pixel).
    pub fn to_screen(&self, wx: f64, wy: f64) -> (i32, i32) {
        (self.x + wx.round() as i32, self.y + wy.round() as i32)
    }

    /// Whether the screen pixel `(sx, sy)` lies inside the window.
    pub fn contains(&self, sx: i32, sy: i32) -> bool {
        let (dx, dy) = (
            i64::from(sx) - i64::from(self.x),
            i64::from(sy) - i64::from(self.y),
        );
        dx >= 0 && dy >= 0 && dx < i64::from(self.width) && dy < i64::from(self.height)
    }

    /// Whether the two rectangles share any pixel.
    pub fn overlaps(&self, other: &WindowRect) -> bool {
        let right = |r: &WindowRect| i64::from(r.x) + i64::from(r.width);
        let bottom = |r: &WindowRect| i64::from(r.y) + i64::from(r.height);
        i64::from(self.x) < right(other)
            && i64::from(other.x) < right(self)
            && i64::from(self.y) < bottom(other)
            && i64::from(other.y) < bottom(self)
    }
}

/// One captured frame: the window's pixels and where the window was when it was taken.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The window's content, `window.width` x `window.height` pixels.
    pub image: RgbaImage,
    /// The window's screen rectangle at capture time.
    pub window: WindowRect,
}

/// Why a frame could not be captured.
#[derive(Debug, Error)]
pub enum CaptureError {
    /// No window matched.
    #[error(
        "no window matches {wanted}; is the game running, and is a window manager running (xcap lists windows only under one, e.g. evilwm)?"
    )]
    NoWindow {
        /// What was looked for.
        wanted: String,
    },
    /// There is no display to find windows on.
    #[error(
        "no display to capture: DISPLAY is not set; run linkup in the desktop session where the game runs (or set DISPLAY, e.g. DISPLAY=:0)"
    )]
    NoDisplay,
    /// The window that was being played has gone.
    #[error("the game window ({wanted}) has gone: it was closed")]
    WindowGone {
        /// What was looked for.
        wanted: String,
    },
    /// The window is minimised.
    #[error("the game window ({wanted}) is minimised: restore it and start again")]
    Minimized {
        /// What was looked for.
        wanted: String,
    },
    /// Another window (a dialog, say) lies over the game, or the capture is all black.
    #[error(
        "another window covers the game window (a dialog?); close it or bring the game to the front"
    )]
    Covered,
    /// The captured image does not have the window's size.
    #[error("the capture is {got_w}x{got_h} pixels but the window is {want_w}x{want_h}")]
    SizeMismatch {
        /// Captured width.
        got_w: u32,
        /// Captured height.
        got_h: u32,
        /// Window width.
        want_w: u32,
        /// Window height.
        want_h: u32,
    },
    /// The capture library failed.
    #[error("screen capture failed: {0}")]
    Backend(String),
    /// A replayed PNG could not be loaded.
    #[error("cannot load the replay frame {}", path.display())]
    Replay {
        /// The PNG file.
        path: PathBuf,
        /// What went wrong.
        #[source]
        source: image::ImageError,
    },
    /// A replay has no frames left.
    #[error("the replay has no frames left after {shown}")]
    ReplayEnded {
        /// Frames shown.
        shown: usize,
    },
}

/// Captures the game window.
pub trait Screen {
    /// The window's current pixels and screen rectangle.
    ///
    /// Errors when the window is gone, minimised or covered (an all-black capture).
    fn capture(&mut self) -> Result<Frame, CaptureError>;
}

impl<S: Screen + ?Sized> Screen for &mut S {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        (**self).capture()
    }
}

impl<S: Screen + ?Sized> Screen for Box<S> {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        (**self).capture()
    }
}

/// Errors with [`CaptureError::Covered`] when every pixel of the image is black.
///
/// On X a window covered by another captures black, so every [`Screen`] checks this.
pub fn check_not_black(image: &RgbaImage) -> Result<(), CaptureError> {
    if image.pixels().all(|p| p.0[..3] == [0, 0, 0]) {
        Err(CaptureError::Covered)
    } else {
        Ok(())
    }
}

/// How to recognise the game window; every given field must match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WindowMatch {
    /// The application name (the WM_CLASS class), compared exactly, e.g. `XShisen`.
    pub app_name: Option<String>,
    /// A part of the window title, e.g. `Shisen-Sho` (xshisen's title reads as empty).
    pub title: Option<String>,
    /// The window's size in pixels, `[width, height]`.
    pub size: Option<[u32; 2]>,
}

impl WindowMatch {
    /// Match by application name only.
    pub fn app(name: &str) -> Self {
        WindowMatch {
            app_name: Some(name.to_string()),
            ..WindowMatch::default()
        }
    }

    /// Match by a part of the title only.
    pub fn title(part: &str) -> Self {
        WindowMatch {
            title: Some(part.to_string()),
            ..WindowMatch::default()
        }
    }

    /// Whether a window with these properties matches.
    pub fn matches(&self, app_name: &str, title: &str, width: u32, height: u32) -> bool {
        self.app_name.as_deref().is_none_or(|a| a == app_name)
            && self.title.as_deref().is_none_or(|t| title.contains(t))
            && self.size.is_none_or(|s| s == [width, height])
    }
}

impl std::fmt::Display for WindowMatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(a) = &self.app_name {
            parts.push(format!("app name `{a}`"));
        }
        if let Some(t) = &self.title {
            parts.push(format!("title containing `{t}`"));
        }
        if let Some([w, h]) = self.size {
            parts.push(format!("size {w}x{h}"));
        }
        if parts.is_empty() {
            f.write_str("any window")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// Replays saved PNG frames, one per capture, all at the same window rectangle.
///
/// For tests of everything after capture. The last frame repeats when `repeat_last` is set,
/// otherwise capturing past the end is [`CaptureError::ReplayEnded`].
#[derive(Clone, Debug)]
pub struct ReplayScreen {
    frames: Vec<RgbaImage>,
    origin: [i32; 2],
    next: usize,
    repeat_last: bool,
}

impl ReplayScreen {
    /// Replays images already in memory; the window's top-left corner is at `origin`.
    pub fn new(frames: Vec<RgbaImage>, origin: [i32; 2]) -> Self {
        ReplayScreen {
            frames,
            origin,
            next: 0,
            repeat_last: false,
        }
    }

    /// Loads PNG files, in order.
    pub fn from_pngs<P: AsRef<Path>>(paths: &[P], origin: [i32; 2]) -> Result<Self, CaptureError> {
        let frames = paths
            .iter()
            .map(|p| {
                image::open(p.as_ref())
                    .map(|i| i.to_rgba8())
                    .map_err(|source| CaptureError::Replay {
                        path: p.as_ref().to_path_buf(),
                        source,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::new(frames, origin))
    }

    /// Keeps showing the last frame once the others are used up.
    pub fn repeat_last(mut self, yes: bool) -> Self {
        self.repeat_last = yes;
        self
    }
}

impl Screen for ReplayScreen {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        let index = if self.next < self.frames.len() {
            self.next
        } else if self.repeat_last && !self.frames.is_empty() {
            self.frames.len() - 1
        } else {
            return Err(CaptureError::ReplayEnded { shown: self.next });
        };
        self.next += 1;
        let image = self.frames[index].clone();
        check_not_black(&image)?;
        Ok(Frame {
            window: WindowRect {
                x: self.origin[0],
                y: self.origin[1],
                width: image.width(),
                height: image.height(),
            },
            image,
        })
    }
}

#[cfg(feature = "desktop")]
pub use desktop::XcapScreen;

#[cfg(feature = "desktop")]
mod desktop {
    use super::{CaptureError, Frame, Screen, WindowMatch, WindowRect, check_not_black};

    /// The real screen: one game window found with xcap, followed by its id.
    ///
    /// xcap lists windows only under a window manager (it reads `_NET_CLIENT_LIST_STACKING`);
    /// xshisen's title reads as empty, so match it by app name `XShisen`.
    pub struct XcapScreen {
        wanted: WindowMatch,
        id: u32,
    }

    fn backend(err: xcap::XCapError) -> CaptureError {
        CaptureError::Backend(err.to_string())
    }

    impl XcapScreen {
        /// Finds the largest listed window that matches.
        ///
        /// The largest, because a game's dialogs share its app name: xshisen's "No pieces
        /// available to get" box is a 278x130 `XShisen` window listed above the game.
        pub fn find(wanted: WindowMatch) -> Result<Self, CaptureError> {
            if std::env::var_os("DISPLAY").is_none()
                && std::env::var_os("WAYLAND_DISPLAY").is_none()
            {
                return Err(CaptureError::NoDisplay);
            }
            let windows = xcap::Window::all().map_err(backend)?;
            let mut best: Option<(u64, u32)> = None;
            for w in windows {
                let app = w.app_name().unwrap_or_default();
                let title = w.title().unwrap_or_default();
                let (width, height) = (w.width().unwrap_or(0), w.height().unwrap_or(0));
                if wanted.matches(&app, &title, width, height) {
                    let area = u64::from(width) * u64::from(height);
                    let id = w.id().map_err(backend)?;
                    if best.is_none_or(|(a, _)| area > a) {
                        best = Some((area, id));
                    }
                }
            }
            match best {
                Some((_, id)) => Ok(XcapScreen { wanted, id }),
                None => Err(CaptureError::NoWindow {
                    wanted: wanted.to_string(),
                }),
            }
        }

        /// Finds the window whose title contains `wanted`, else the one whose application name
        /// is `wanted`; also says which of the two matched.
        pub fn find_title_or_app(wanted: &str) -> Result<(Self, WindowMatch), CaptureError> {
            let by_title = WindowMatch::title(wanted);
            match XcapScreen::find(by_title.clone()) {
                Ok(screen) => Ok((screen, by_title)),
                Err(_) => {
                    let by_app = WindowMatch::app(wanted);
                    Ok((XcapScreen::find(by_app.clone())?, by_app))
                }
            }
        }

        /// The X window id being captured.
        pub fn window_id(&self) -> u32 {
            self.id
        }

        /// Our window, and the screen rectangles of the windows stacked above it.
        fn window(&self) -> Result<(xcap::Window, Vec<WindowRect>), CaptureError> {
            // xcap lists the windows top first.
            let mut above = Vec::new();
            for w in xcap::Window::all().map_err(backend)? {
                if w.id().ok() == Some(self.id) {
                    return Ok((w, above));
                }
                let (width, height) = (w.width().unwrap_or(0), w.height().unwrap_or(0));
                // Tiny helper windows (group leaders, hidden score boxes) cover nothing.
                if width >= 16 && height >= 16 && !w.is_minimized().unwrap_or(true) {
                    above.push(WindowRect {
                        x: w.x().unwrap_or(0),
                        y: w.y().unwrap_or(0),
                        width,
                        height,
                    });
                }
            }
            Err(CaptureError::WindowGone {
                wanted: self.wanted.to_string(),
            })
        }
    }

    impl Screen for XcapScreen {
        fn capture(&mut self) -> Result<Frame, CaptureError> {
            let (w, above) = self.window()?;
            if w.is_minimized().map_err(backend)? {
                return Err(CaptureError::Minimized {
                    wanted: self.wanted.to_string(),
                });
            }
            let window = WindowRect {
                x: w.x().map_err(backend)?,
                y: w.y().map_err(backend)?,
                width: w.width().map_err(backend)?,
                height: w.height().map_err(backend)?,
            };
            if above.iter().any(|a| a.overlaps(&window)) {
                return Err(CaptureError::Covered);
            }
            let image = w.capture_image().map_err(backend)?;
            if (image.width(), image.height()) != (window.width, window.height) {
                return Err(CaptureError::SizeMismatch {
                    got_w: image.width(),
                    got_h: image.height(),
                    want_w: window.width,
                    want_h: window.height,
                });
            }
            check_not_black(&image)?;
            Ok(Frame { image, window })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn window_rect_converts_and_contains() {
        let r = WindowRect {
            x: 10,
            y: 20,
            width: 100,
            height: 50,
        };
        assert_eq!(r.to_screen(5.4, 5.6), (15, 26));
        assert!(r.contains(10, 20));
        assert!(r.contains(109, 69));
        assert!(!r.contains(110, 69));
        assert!(!r.contains(9, 20));
        let beside = WindowRect { x: 110, ..r };
        assert!(!r.overlaps(&beside));
        assert!(r.overlaps(&WindowRect { x: 109, ..r }));
        assert!(!r.overlaps(&WindowRect { y: 70, ..r }));
    }

    #[test]
    fn window_match_needs_every_given_field() {
        let m = WindowMatch {
            app_name: Some("XShisen".into()),
            size: Some([640, 454]),
            ..WindowMatch::default()
        };
        assert!(m.matches("XShisen", "", 640, 454));
        assert!(!m.matches("XShisen", "", 800, 600));
        assert!(!m.matches("kshisen", "", 640, 454));
        assert!(WindowMatch::title("Shisen").matches("x", "Shisen-Sho", 1, 1));
        assert_eq!(m.to_string(), "app name `XShisen`, size 640x454");
    }

    #[test]
    fn replay_gives_frames_then_ends_and_refuses_black() {
        let white = RgbaImage::from_pixel(4, 3, Rgba([255, 255, 255, 255]));
        let black = RgbaImage::from_pixel(4, 3, Rgba([0, 0, 0, 255]));
        let mut screen = ReplayScreen::new(vec![white, black], [7, 8]);
        let frame = screen.capture().unwrap();
        assert_eq!(
            frame.window,
            WindowRect {
                x: 7,
                y: 8,
                width: 4,
                height: 3
            }
        );
        assert!(matches!(screen.capture(), Err(CaptureError::Covered)));
        assert!(matches!(
            screen.capture(),
            Err(CaptureError::ReplayEnded { shown: 2 })
        ));
    }
}
