//! The simulated game: an in-process link-up game behind the same [`Screen`] and [`Pointer`]
//! traits as the real desktop, so the play loop can be tested end to end without X.
//!
//! [`SimGame`] keeps a [`Board`] and plays by the given [`Rules`] (border and gravity included),
//! renders window frames from real xshisen tile faces (cropped from xshisen's sorted opening
//! board, `templates/xshisen-sim/faces.png`: kinds 1 to 36), and takes clicks with either game's
//! selection behaviour ([`SelectionRule`]). It draws a selected tile stippled black as xshisen
//! does, shows a removed pair with its connecting line for a few captures as the real games do,
//! and ticks a clock outside the board on every capture. Scripted [`SimEvent`]s let tests move
//! the pointer as a person would, move the window, cover it or close it.
//!
//! [`SimScreen`] and [`SimPointer`] share one game through `Rc<RefCell<..>>`. [`SimReader`] is a
//! board reader for the simulated game only: it knows the faces and the layout and matches
//! them exactly, standing in for vision in tests.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::Duration;

use image::{Rgba, RgbaImage};
use thiserror::Error;

use crate::board::{Board, EMPTY, Kind, Pos};
use crate::capture::{CaptureError, Frame, Screen, WindowRect, check_not_black};
use crate::clock::Clock;
use crate::input::{Button, Click, InputError, Keys, Pointer, SelectionRule};
use crate::solver::{Rules, connect, remove_pair};
use crate::vision::{BoardReader, Geometry, ReadError, Reading};

/// The tile faces, 18 per row, 30x38 pixels each, cropped from xshisen 1.51's sorted board.
const FACES_PNG: &[u8] = include_bytes!("../templates/xshisen-sim/faces.png");
/// Faces per row of the sprite sheet.
const SHEET_COLS: u32 = 18;
/// xshisen's background green.
const BACKGROUND: Rgba<u8> = Rgba([0, 64, 0, 255]);
/// xshisen's menu bar grey.
const MENU: Rgba<u8> = Rgba([196, 196, 196, 255]);
/// The connecting line.
const LINE: Rgba<u8> = Rgba([255, 0, 0, 255]);

/// Where things are in the simulated window, in window pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Top-left corner of cell (0, 0)'s face.
    pub origin: [u32; 2],
    /// Cell pitch.
    pub pitch: [u32; 2],
    /// Face size.
    pub tile: [u32; 2],
    /// Space right of and below the last cell.
    pub margin: [u32; 2],
    /// Height of the menu bar at the top.
    pub menu_height: u32,
}

impl Layout {
    /// xshisen's default size: faces 30x38 at a pitch of 32x40, the first at (33, 95); an 8x18
    /// board makes the same 640x454 window as xshisen.
    pub fn xshisen() -> Self {
        Layout {
            origin: [33, 95],
            pitch: [32, 40],
            tile: [30, 38],
            margin: [31, 39],
            menu_height: 33,
        }
    }

    /// The window size for a board of `rows` x `cols`, `(width, height)`.
    pub fn window_size(&self, rows: usize, cols: usize) -> (u32, u32) {
        (
            self.origin[0] + cols as u32 * self.pitch[0] + self.margin[0],
            self.origin[1] + rows as u32 * self.pitch[1] + self.margin[1],
        )
    }

    /// The geometry of a board of `rows` x `cols` in this layout.
    pub fn geometry(&self, rows: usize, cols: usize) -> Geometry {
        Geometry {
            rows,
            cols,
            origin: self.origin.map(f64::from),
            pitch: self.pitch.map(f64::from),
            tile_size: self.tile.map(f64::from),
        }
    }

    /// The top-left corner of `pos`'s face (also for the ring outside the board).
    fn corner(&self, pos: Pos) -> (i64, i64) {
        (
            i64::from(self.origin[0]) + i64::from(pos.col) * i64::from(self.pitch[0]),
            i64::from(self.origin[1]) + i64::from(pos.row) * i64::from(self.pitch[1]),
        )
    }

    /// The cell under window pixel `(x, y)` (the gap right of and below a face belongs to its
    /// cell), or `None` outside the grid of `rows` x `cols`.
    fn hit(&self, x: i32, y: i32, rows: usize, cols: usize) -> Option<Pos> {
        let dx = i64::from(x) - i64::from(self.origin[0]);
        let dy = i64::from(y) - i64::from(self.origin[1]);
        if dx < 0 || dy < 0 {
            return None;
        }
        let (col, row) = (dx / i64::from(self.pitch[0]), dy / i64::from(self.pitch[1]));
        (row < rows as i64 && col < cols as i64).then(|| Pos::new(row as i32, col as i32))
    }
}

/// The tile faces: kind `k` is drawn with face `k - 1`.
#[derive(Clone, Debug)]
pub struct Faces {
    faces: Vec<RgbaImage>,
}

impl Faces {
    /// The 36 xshisen faces shipped in `templates/xshisen-sim/faces.png`.
    pub fn xshisen() -> &'static Faces {
        static FACES: OnceLock<Faces> = OnceLock::new();
        FACES.get_or_init(|| {
            let sheet = image::load_from_memory_with_format(FACES_PNG, image::ImageFormat::Png)
                .expect("the shipped sprite sheet is a PNG")
                .to_rgba8();
            let (w, h) = (30, 38);
            let rows = sheet.height() / h;
            let faces = (0..rows * SHEET_COLS)
                .map(|i| {
                    let (r, c) = (i / SHEET_COLS, i % SHEET_COLS);
                    image::imageops::crop_imm(&sheet, c * w, r * h, w, h).to_image()
                })
                .collect();
            Faces { faces }
        })
    }

    /// Number of kinds that have a face.
    pub fn len(&self) -> usize {
        self.faces.len()
    }

    /// Whether there is no face at all.
    pub fn is_empty(&self) -> bool {
        self.faces.is_empty()
    }

    /// The face of `kind`, if there is one.
    pub fn face(&self, kind: Kind) -> Option<&RgbaImage> {
        (kind as usize)
            .checked_sub(1)
            .and_then(|i| self.faces.get(i))
    }
}

/// Why a simulated game cannot be set up.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum SimError {
    /// The board uses a kind that has no face.
    #[error(
        "the board has kind {kind} but the simulated game has faces for kinds 1 to {faces} only"
    )]
    NoFace {
        /// The kind.
        kind: Kind,
        /// Kinds with a face.
        faces: usize,
    },
}

/// The faces, if every kind on `board` has one.
fn check_faces(board: &Board) -> Result<&'static Faces, SimError> {
    let faces = Faces::xshisen();
    match board
        .cells()
        .iter()
        .find(|&&k| k != EMPTY && faces.face(k).is_none())
    {
        Some(&kind) => Err(SimError::NoFace {
            kind,
            faces: faces.len(),
        }),
        None => Ok(faces),
    }
}

/// The empty window: the background green under a grey menu bar.
fn background(layout: &Layout, width: u32, height: u32) -> RgbaImage {
    let mut background = RgbaImage::from_pixel(width, height, BACKGROUND);
    for y in 0..layout.menu_height.min(height) {
        for x in 0..width {
            background.put_pixel(x, y, MENU);
        }
    }
    background
}

/// Something that happens to the simulated desktop after a number of removals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimEvent {
    /// A person moves the pointer to this screen pixel.
    MovePointer(i32, i32),
    /// The window moves to this screen position.
    MoveWindow(i32, i32),
    /// Another window covers the game: captures come out black.
    Cover,
    /// The game window is closed.
    Close,
}

/// A removed pair still on show with its connecting line.
#[derive(Clone, Debug)]
struct Linger {
    board: Board,
    ends: [Pos; 2],
    line: Vec<Pos>,
    captures_left: usize,
    /// With a removal time: on show until the game's clock reaches this.
    until: Option<Duration>,
}

/// The simulated game.
#[derive(Debug)]
pub struct SimGame {
    board: Board,
    rules: Rules,
    selection: SelectionRule,
    selected: Option<Pos>,
    layout: Layout,
    faces: &'static Faces,
    window: WindowRect,
    open: bool,
    covered: bool,
    pointer: (i32, i32),
    linger: usize,
    lingering: Option<Linger>,
    /// Kinds the game matches with each other although they are drawn differently.
    match_groups: Vec<Vec<Kind>>,
    /// A shuffle button: its centre in window pixels (a 20-pixel square).
    shuffle_button: Option<[i32; 2]>,
    /// A shuffle key.
    shuffle_key: Option<Keys>,
    /// Shuffles done.
    shuffles: usize,
    /// How long a removed pair stays on show, on the game's clock (instead of `linger`).
    removal_time: Option<Duration>,
    /// The game's clock, shared with [`SimClock`]s.
    time: Rc<Cell<Duration>>,
    win_dialog: bool,
    captures: usize,
    removals: usize,
    refused: usize,
    clicks: Vec<Click>,
    stray: Vec<Click>,
    schedule: Vec<(usize, SimEvent)>,
    /// A new deal to start right after that many removals.
    redeal: Option<(usize, Board)>,
    background: RgbaImage,
    /// Clicks the game ignores, by their number among all clicks (from 0).
    dropped: Vec<usize>,
    /// Captures a second click of a pair waits before the game takes it (0: at once).
    second_click_late: usize,
    /// A second click waiting: the capture count it is taken at, and its cell.
    queued_click: Option<(usize, Pos)>,
}

impl SimGame {
    /// A game on `board` with xshisen's layout and faces, the window at screen `(10, 20)`.
    pub fn new(board: Board, rules: Rules, selection: SelectionRule) -> Result<Self, SimError> {
        let faces = check_faces(&board)?;
        let layout = Layout::xshisen();
        let (width, height) = layout.window_size(board.rows(), board.cols());
        let background = background(&layout, width, height);
        Ok(SimGame {
            board,
            rules,
            selection,
            selected: None,
            layout,
            faces,
            window: WindowRect {
                x: 10,
                y: 20,
                width,
                height,
            },
            open: true,
            covered: false,
            pointer: (0, 0),
            linger: 0,
            lingering: None,
            match_groups: Vec::new(),
            shuffle_button: None,
            shuffle_key: None,
            shuffles: 0,
            removal_time: None,
            time: Rc::new(Cell::new(Duration::ZERO)),
            win_dialog: false,
            captures: 0,
            removals: 0,
            refused: 0,
            clicks: Vec::new(),
            stray: Vec::new(),
            schedule: Vec::new(),
            redeal: None,
            background,
            dropped: Vec::new(),
            second_click_late: 0,
            queued_click: None,
        })
    }

    /// Starts a new game on `board` right after the `removals`-th removal, the window resized
    /// to fit it, as kshisen does when its board size setting changes.
    pub fn redeal_after(&mut self, removals: usize, board: Board) -> Result<(), SimError> {
        check_faces(&board)?;
        self.redeal = Some((removals, board));
        Ok(())
    }

    /// Puts `board` in play and resizes the window (and its background) to fit it.
    fn deal(&mut self, board: Board) {
        let (width, height) = self.layout.window_size(board.rows(), board.cols());
        self.background = background(&self.layout, width, height);
        self.window.width = width;
        self.window.height = height;
        self.board = board;
        self.selected = None;
        self.lingering = None;
    }

    /// Ignores the clicks numbered `clicks` among all clicks (from 0), as a game busy drawing a
    /// removal drops a click.
    pub fn with_dropped_clicks(mut self, clicks: &[usize]) -> Self {
        self.dropped = clicks.to_vec();
        self
    }

    /// Takes the second click of a pair only `captures` captures after it comes, as a game busy
    /// drawing does (the first tile shows selected meanwhile).
    pub fn with_second_click_late(mut self, captures: usize) -> Self {
        self.second_click_late = captures;
        self
    }

    /// Shows each removed pair and its line for this many captures before it disappears.
    pub fn with_linger(mut self, captures: usize) -> Self {
        self.linger = captures;
        self
    }

    /// Makes the kinds of each group match each other, as a game that draws one kind two ways
    /// (a letter in two cases) does; each keeps its own face.
    pub fn with_match_groups(mut self, groups: Vec<Vec<Kind>>) -> Self {
        self.match_groups = groups;
        self
    }

    /// Gives the game a shuffle button centred on window pixel `at` (outside the board, in
    /// the menu bar, say): a left click there shuffles the tiles.
    pub fn with_shuffle_button(mut self, at: [i32; 2]) -> Self {
        self.shuffle_button = Some(at);
        self
    }

    /// Gives the game a shuffle key: pressing it shuffles the tiles.
    pub fn with_shuffle_key(mut self, keys: Keys) -> Self {
        self.shuffle_key = Some(keys);
        self
    }

    /// Shuffles done.
    pub fn shuffles(&self) -> usize {
        self.shuffles
    }

    /// Takes a key press: the shuffle key shuffles, any other does nothing.
    pub fn press(&mut self, keys: &Keys) {
        if self.open && self.shuffle_key.as_ref() == Some(keys) {
            self.shuffle();
        }
    }

    /// Moves every tile's kind on to the next tile (row-major, the last to the first): a
    /// deterministic stand-in for a shuffle, which keeps the tiles where they are.
    fn shuffle(&mut self) {
        let tiles: Vec<Pos> = self.board.tile_positions().collect();
        let kinds: Vec<Kind> = tiles.iter().map(|&p| self.board.get(p)).collect();
        for (i, &pos) in tiles.iter().enumerate() {
            self.board
                .set(pos, kinds[(i + kinds.len() - 1) % kinds.len()]);
        }
        self.selected = None;
        self.shuffles += 1;
    }

    /// Whether the game takes kinds `a` and `b` as a pair.
    fn kinds_match(&self, a: Kind, b: Kind) -> bool {
        a == b
            || self
                .match_groups
                .iter()
                .any(|g| g.contains(&a) && g.contains(&b))
    }

    /// Shows each removed pair and its line for `time` on the game's clock (see
    /// [`SimGame::clock`]), as a real game animates a removal, however often it is captured.
    pub fn with_removal_time(mut self, time: Duration) -> Self {
        self.removal_time = Some(time);
        self
    }

    /// A clock that is the game's: the loop's sleeps move the game's time, so a removal time
    /// passes as the loop waits.
    pub fn clock(&self) -> SimClock {
        SimClock(Rc::clone(&self.time))
    }

    /// Shows a message box over the board once it is cleared, as xshisen does.
    pub fn with_win_dialog(mut self) -> Self {
        self.win_dialog = true;
        self
    }

    /// Puts the window's top-left corner at screen `(x, y)`.
    pub fn with_window_at(mut self, x: i32, y: i32) -> Self {
        self.window.x = x;
        self.window.y = y;
        self
    }

    /// Makes `event` happen right after the `removals`-th removal (0: before any click).
    pub fn schedule(&mut self, removals: usize, event: SimEvent) {
        if removals == 0 {
            self.apply(event);
        } else {
            self.schedule.push((removals, event));
        }
    }

    /// Shares the game between a [`SimScreen`] and a [`SimPointer`].
    pub fn into_shared(self) -> (SimScreen, SimPointer) {
        let game = Rc::new(RefCell::new(self));
        (SimScreen(Rc::clone(&game)), SimPointer(game))
    }

    /// The true board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The selected tile.
    pub fn selected(&self) -> Option<Pos> {
        self.selected
    }

    /// The window's screen rectangle.
    pub fn window(&self) -> WindowRect {
        self.window
    }

    /// The geometry of the board in the window's image.
    pub fn geometry(&self) -> Geometry {
        self.layout.geometry(self.board.rows(), self.board.cols())
    }

    /// Pairs removed.
    pub fn removals(&self) -> usize {
        self.removals
    }

    /// Second clicks that did not make a pair.
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// Every click received, in screen pixels.
    pub fn clicks(&self) -> &[Click] {
        &self.clicks
    }

    /// Clicks that landed outside the board rectangle (or outside the window).
    pub fn stray_clicks(&self) -> &[Click] {
        &self.stray
    }

    /// Captures taken.
    pub fn captures(&self) -> usize {
        self.captures
    }

    fn apply(&mut self, event: SimEvent) {
        match event {
            SimEvent::MovePointer(x, y) => self.pointer = (x, y),
            SimEvent::MoveWindow(x, y) => {
                self.window.x = x;
                self.window.y = y;
            }
            SimEvent::Cover => self.covered = true,
            SimEvent::Close => self.open = false,
        }
    }

    /// Takes a click at a screen pixel.
    pub fn click(&mut self, x: i32, y: i32, button: Button) {
        let click = Click { x, y, button };
        self.clicks.push(click);
        self.pointer = (x, y);
        if self.dropped.contains(&(self.clicks.len() - 1)) {
            return;
        }
        let (wx, wy) = (x - self.window.x, y - self.window.y);
        let geometry = self.geometry();
        let cell = (self.open
            && self.window.contains(x, y)
            && geometry.board_rect().contains(f64::from(wx), f64::from(wy)))
        .then(|| {
            self.layout
                .hit(wx, wy, self.board.rows(), self.board.cols())
        })
        .flatten();
        let on_shuffle = self.shuffle_button.is_some_and(|[bx, by]| {
            (wx - bx).abs() <= 10 && (wy - by).abs() <= 10 && self.window.contains(x, y)
        });
        if on_shuffle && self.open && button == Button::Left {
            self.shuffle();
            return;
        }
        let Some(cell) = cell else {
            self.stray.push(click);
            return;
        };
        match button {
            Button::Right => {
                if self.selection == SelectionRule::KeepFirst {
                    self.selected = None;
                }
            }
            Button::Left => self.left_click(cell),
        }
    }

    fn left_click(&mut self, cell: Pos) {
        if self.board.get(cell) == EMPTY {
            return;
        }
        let Some(first) = self.selected else {
            self.selected = Some(cell);
            return;
        };
        if first == cell {
            if self.selection == SelectionRule::DropOnMismatch {
                self.selected = None;
            }
            return;
        }
        if self.second_click_late > 0 {
            self.queued_click = Some((self.captures + self.second_click_late, cell));
            return;
        }
        self.second_click(first, cell);
    }

    /// Takes `cell` as the second tile of a pair whose first is `first`.
    fn second_click(&mut self, first: Pos, cell: Pos) {
        let path = self
            .kinds_match(self.board.get(first), self.board.get(cell))
            .then(|| {
                let mut one_kind = self.board.clone();
                one_kind.set(cell, self.board.get(first));
                connect(&one_kind, first, cell, self.rules)
            })
            .flatten();
        match path {
            Some(path) => {
                let until = self.removal_time.map(|t| self.time.get() + t);
                if self.linger > 0 || until.is_some() {
                    self.lingering = Some(Linger {
                        board: self.board.clone(),
                        ends: [first, cell],
                        line: path.points().to_vec(),
                        captures_left: self.linger,
                        until,
                    });
                }
                remove_pair(&mut self.board, first, cell, self.rules);
                self.selected = None;
                self.removals += 1;
                let due: Vec<SimEvent> = self
                    .schedule
                    .iter()
                    .filter(|(n, _)| *n == self.removals)
                    .map(|&(_, e)| e)
                    .collect();
                for event in due {
                    self.apply(event);
                }
                if let Some((_, board)) = self.redeal.take_if(|(n, _)| *n == self.removals) {
                    self.deal(board);
                }
            }
            None => {
                self.refused += 1;
                if self.selection == SelectionRule::DropOnMismatch {
                    self.selected = None;
                }
            }
        }
    }

    /// Renders the window as it looks now (one capture: the clock ticks, a linger counts down).
    pub fn render(&mut self) -> RgbaImage {
        self.captures += 1;
        if let Some((_, cell)) = self.queued_click.take_if(|(due, _)| *due <= self.captures)
            && let Some(first) = self.selected
            && self.board.get(cell) != EMPTY
        {
            self.second_click(first, cell);
        }
        let mut image = self.background.clone();
        let now = self.time.get();
        let linger = self
            .lingering
            .take()
            .filter(|l| l.until.is_none_or(|until| now < until));
        let (board, selected, line) = match &linger {
            Some(l) => (&l.board, l.ends.to_vec(), Some(&l.line)),
            None => (&self.board, self.selected.into_iter().collect(), None),
        };
        for pos in board.tile_positions() {
            let face = self
                .faces
                .face(board.get(pos))
                .expect("faces checked at start");
            let (x0, y0) = self.layout.corner(pos);
            blit(
                &mut image,
                face,
                x0 as u32,
                y0 as u32,
                selected.contains(&pos),
            );
        }
        if let Some(points) = line {
            self.draw_line(&mut image, points);
        }
        if self.win_dialog && linger.is_none() && self.board.is_cleared() {
            // xshisen's "Your time is ..." box, over the middle of the board.
            let (w, h) = image.dimensions();
            for y in h / 3..h * 2 / 3 {
                for x in w / 4..w * 3 / 4 {
                    image.put_pixel(x, y, MENU);
                }
            }
        }
        self.draw_clock(&mut image);
        self.lingering = linger.and_then(|mut l| {
            l.captures_left = l.captures_left.saturating_sub(1);
            (l.until.is_some() || l.captures_left > 0).then_some(l)
        });
        image
    }

    fn draw_line(&self, image: &mut RgbaImage, points: &[Pos]) {
        let centre = |p: Pos| {
            let (x, y) = self.layout.corner(p);
            (
                x + i64::from(self.layout.tile[0] / 2),
                y + i64::from(self.layout.tile[1] / 2),
            )
        };
        for w in points.windows(2) {
            let ((x0, y0), (x1, y1)) = (centre(w[0]), centre(w[1]));
            for x in x0.min(x1) - 1..=x0.max(x1) + 1 {
                for y in y0.min(y1) - 1..=y0.max(y1) + 1 {
                    if x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height()
                    {
                        image.put_pixel(x as u32, y as u32, LINE);
                    }
                }
            }
        }
    }

    /// A small box in the menu bar that changes on every capture, like the games' clocks.
    fn draw_clock(&self, image: &mut RgbaImage) {
        let shade = if self.captures % 2 == 0 { 255 } else { 128 };
        let x0 = image.width().saturating_sub(60);
        for y in 8..20.min(image.height()) {
            for x in x0..image.width().saturating_sub(10) {
                image.put_pixel(x, y, Rgba([shade, shade, shade, 255]));
            }
        }
    }
}

/// Copies `face` to `(x0, y0)`, stippled black when selected (xshisen's highlight).
fn blit(image: &mut RgbaImage, face: &RgbaImage, x0: u32, y0: u32, selected: bool) {
    let (fw, fh) = face.dimensions();
    let width = image.width() as usize;
    let buf: &mut [u8] = image.as_mut();
    let src: &[u8] = face.as_raw();
    for dy in 0..fh as usize {
        let start = ((y0 as usize + dy) * width + x0 as usize) * 4;
        let row = &mut buf[start..start + fw as usize * 4];
        row.copy_from_slice(&src[dy * fw as usize * 4..(dy + 1) * fw as usize * 4]);
        if selected {
            for dx in (dy % 2..fw as usize).step_by(2) {
                row[dx * 4..dx * 4 + 3].copy_from_slice(&[0, 0, 0]);
            }
        }
    }
}

/// The simulated game's screen.
#[derive(Clone, Debug)]
pub struct SimScreen(Rc<RefCell<SimGame>>);

impl SimScreen {
    /// The shared game, to inspect it in tests.
    pub fn game(&self) -> Rc<RefCell<SimGame>> {
        Rc::clone(&self.0)
    }
}

impl Screen for SimScreen {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        let mut game = self.0.borrow_mut();
        if !game.open {
            return Err(CaptureError::WindowGone {
                wanted: "the simulated game".to_string(),
            });
        }
        let mut image = game.render();
        if game.covered {
            image = RgbaImage::from_pixel(image.width(), image.height(), Rgba([0, 0, 0, 255]));
        }
        check_not_black(&image)?;
        Ok(Frame {
            image,
            window: game.window,
        })
    }
}

/// The simulated game's clock: time moves only when the loop sleeps, as a
/// [`crate::clock::FakeClock`], and the game sees it (a removal shown for a time ends when the loop
/// has waited it out).
#[derive(Clone, Debug)]
pub struct SimClock(Rc<Cell<Duration>>);

impl Clock for SimClock {
    fn now(&self) -> Duration {
        self.0.get()
    }

    fn sleep(&mut self, d: Duration) {
        self.0.set(self.0.get() + d);
    }
}

/// The simulated game's pointer.
#[derive(Clone, Debug)]
pub struct SimPointer(Rc<RefCell<SimGame>>);

impl Pointer for SimPointer {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        self.0.borrow_mut().click(x, y, button);
        Ok(())
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        Ok(self.0.borrow().pointer)
    }

    fn press(&mut self, keys: &Keys) -> Result<(), InputError> {
        self.0.borrow_mut().press(keys);
        Ok(())
    }
}

/// A board reader for the simulated game only: it knows the layout and the faces, and matches
/// each cell exactly (the nearest face when a line is drawn over it). Not vision: it stands in
/// for vision so the play loop can be tested end to end.
#[derive(Clone, Debug)]
pub struct SimReader {
    rows: usize,
    cols: usize,
    layout: Layout,
    faces: &'static Faces,
    exact: HashMap<Vec<u8>, (Kind, bool)>,
}

impl SimReader {
    /// A reader for a `rows` x `cols` board in xshisen's layout with xshisen's faces.
    pub fn new(rows: usize, cols: usize) -> Self {
        let faces = Faces::xshisen();
        let mut exact = HashMap::new();
        for (i, face) in faces.faces.iter().enumerate() {
            let kind = i as Kind + 1;
            for selected in [false, true] {
                let mut img = RgbaImage::new(face.width(), face.height());
                blit(&mut img, face, 0, 0, selected);
                exact.insert(img.into_raw(), (kind, selected));
            }
        }
        SimReader {
            rows,
            cols,
            layout: Layout::xshisen(),
            faces,
            exact,
        }
    }

    fn read_cell(&self, frame: &RgbaImage, pos: Pos) -> Result<(Kind, bool), ReadError> {
        let (x0, y0) = self.layout.corner(pos);
        let [w, h] = self.layout.tile;
        if x0 < 0 || y0 < 0 || x0 as u32 + w > frame.width() || y0 as u32 + h > frame.height() {
            return Err(ReadError::msg(format!(
                "cell {pos} lies outside the {}x{} frame",
                frame.width(),
                frame.height()
            )));
        }
        let block = image::imageops::crop_imm(frame, x0 as u32, y0 as u32, w, h).to_image();
        if let Some(&hit) = self.exact.get(block.as_raw()) {
            return Ok(hit);
        }
        let background = block.pixels().filter(|&&p| p == BACKGROUND).count();
        if background * 2 > (w * h) as usize {
            return Ok((EMPTY, false));
        }
        // A line drawn over a tile: the nearest face, plain or stippled, if few pixels differ.
        let mut best = (usize::MAX, EMPTY, false);
        for (i, face) in self.faces.faces.iter().enumerate() {
            for selected in [false, true] {
                let mut img = RgbaImage::new(w, h);
                blit(&mut img, face, 0, 0, selected);
                let d = img
                    .pixels()
                    .zip(block.pixels())
                    .filter(|(a, b)| a != b)
                    .count();
                if d < best.0 {
                    best = (d, i as Kind + 1, selected);
                }
            }
        }
        if best.0 * 5 > (w * h) as usize {
            return Err(ReadError::msg(format!(
                "cell {pos} matches no tile face (is a dialog covering the board?)"
            )));
        }
        Ok((best.1, best.2))
    }
}

impl BoardReader for SimReader {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut board = Board::empty(self.rows, self.cols);
        let mut selected = Vec::new();
        for row in 0..self.rows as i32 {
            for col in 0..self.cols as i32 {
                let pos = Pos::new(row, col);
                let (kind, sel) = self.read_cell(frame, pos)?;
                board.set(pos, kind);
                if sel && kind != EMPTY {
                    selected.push(pos);
                }
            }
        }
        let geometry = self.layout.geometry(self.rows, self.cols);
        Ok(Reading {
            selected,
            ..Reading::certain(board, geometry)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(selection: SelectionRule) -> SimGame {
        let board = Board::from_rows(&[[1, 2, 0], [2, 3, 1], [3, 4, 4]]);
        SimGame::new(board, Rules::shisen_sho(), selection).unwrap()
    }

    fn click_cell(g: &mut SimGame, pos: Pos, button: Button) {
        let [x, y] = g.geometry().cell_center(pos);
        let (sx, sy) = g.window().to_screen(x, y);
        g.click(sx, sy, button);
    }

    #[test]
    fn shipped_faces_are_36_distinct_kinds() {
        let faces = Faces::xshisen();
        assert_eq!(faces.len(), 36);
        let distinct: std::collections::HashSet<_> =
            faces.faces.iter().map(|f| f.as_raw().clone()).collect();
        assert_eq!(distinct.len(), 36);
        assert_eq!(Layout::xshisen().window_size(8, 18), (640, 454));
    }

    #[test]
    fn unknown_kind_is_refused() {
        let board = Board::from_rows(&[[37, 37]]);
        let err = SimGame::new(board, Rules::default(), SelectionRule::KeepFirst).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the board has kind 37 but the simulated game has faces for kinds 1 to 36 only"
        );
    }

    #[test]
    fn xshisen_keeps_the_first_tile_and_right_click_cancels() {
        let mut g = game(SelectionRule::KeepFirst);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        click_cell(&mut g, Pos::new(0, 1), Button::Left);
        assert_eq!(g.selected(), Some(Pos::new(0, 0)));
        assert_eq!(g.refused(), 1);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        assert_eq!(g.selected(), Some(Pos::new(0, 0)));
        click_cell(&mut g, Pos::new(1, 1), Button::Right);
        assert_eq!(g.selected(), None);
    }

    #[test]
    fn kshisen_drops_the_selection_on_a_mismatch() {
        let mut g = game(SelectionRule::DropOnMismatch);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        click_cell(&mut g, Pos::new(0, 1), Button::Left);
        assert_eq!(g.selected(), None);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        assert_eq!(g.selected(), None);
    }

    #[test]
    fn a_linked_pair_goes_and_clicks_off_the_board_are_stray() {
        let mut g = game(SelectionRule::KeepFirst);
        click_cell(&mut g, Pos::new(2, 1), Button::Left);
        click_cell(&mut g, Pos::new(2, 2), Button::Left);
        assert_eq!(g.removals(), 1);
        assert_eq!(g.board().get(Pos::new(2, 2)), EMPTY);
        g.click(0, 0, Button::Left);
        assert_eq!(g.stray_clicks().len(), 1);
    }

    #[test]
    fn reader_reads_what_the_game_renders_with_selection_and_line() {
        let mut g = game(SelectionRule::KeepFirst).with_linger(1);
        let mut reader = SimReader::new(3, 3);
        click_cell(&mut g, Pos::new(0, 0), Button::Left);
        let r = reader.read(&g.render()).unwrap();
        assert_eq!(&r.board, g.board());
        assert_eq!(r.selected, vec![Pos::new(0, 0)]);
        // (0,0) and (1,2) link around the top border; the line is drawn for one capture.
        let before = g.board().clone();
        click_cell(&mut g, Pos::new(1, 2), Button::Left);
        assert_eq!(g.removals(), 1);
        let lingering = reader.read(&g.render()).unwrap();
        assert_eq!(lingering.board, before);
        let after = reader.read(&g.render()).unwrap();
        assert_eq!(&after.board, g.board());
        assert!(after.selected.is_empty());
    }

    #[test]
    fn reader_refuses_a_cell_that_matches_no_face() {
        let mut g = game(SelectionRule::KeepFirst);
        let mut frame = g.render();
        for y in 100..130 {
            for x in 40..60 {
                frame.put_pixel(x, y, Rgba([200, 200, 200, 255]));
            }
        }
        let err = SimReader::new(3, 3).read(&frame).unwrap_err();
        assert_eq!(
            err.to_string(),
            "cannot read the board: cell (0,0) matches no tile face (is a dialog covering the board?)"
        );
    }
}
