//! What the loop learns of a game from its answers, as small pieces the loop consults:
//! whether a removal let tiles fall ([`gravity_shown`]), how long a removal takes to finish on
//! screen ([`RemovalTimes`]) and which kinds the game matches although they look different
//! ([`KindGroups`]).

use std::time::Duration;

use image::RgbaImage;

use crate::board::{Board, Kind, Pos};
use crate::solver::{Move, Rules, connect, remove_pair};
use crate::vision::{ClassifierSettings, Face, Reading, tile_faces};

/// What a removal of `a` and `b` from `before` shows about gravity, given the board read once
/// it was done (`after`, kinds numbered as the reader likes): `Some(true)` when it is the board
/// with the pair removed and the tiles above dropped (and not the board with two holes),
/// `Some(false)` the reverse, `None` when both boards are the same (nothing above the pair) or
/// the reading is neither (a misread, a new deal).
pub fn gravity_shown(before: &Board, a: Pos, b: Pos, rules: Rules, after: &Board) -> Option<bool> {
    let removed = |gravity: bool| {
        let mut board = before.clone();
        remove_pair(&mut board, a, b, Rules { gravity, ..rules });
        board.renumbered()
    };
    let (dropped, holes) = (removed(true), removed(false));
    if dropped == holes {
        return None;
    }
    let seen = after.renumbered();
    if seen == dropped {
        Some(true)
    } else if seen == holes {
        Some(false)
    } else {
        None
    }
}

/// How long removals took to finish on screen: from the pair's second click to the first of
/// the two frames that agreed on the board without it. Each time is an upper bound (the board
/// cannot show the pair gone before the game removed it; a slow capture on a busy machine only
/// adds), so the estimate is the lower quartile of the last [`RemovalTimes::WINDOW`] removals:
/// slow frames do not move it, and it comes down quickly from a belief that was too long.
#[derive(Clone, Debug, Default)]
pub struct RemovalTimes {
    samples: Vec<Duration>,
}

impl RemovalTimes {
    /// Removals the estimate looks back on.
    pub const WINDOW: usize = 15;
    /// Removals measured before the estimate is reported.
    pub const ENOUGH: usize = 3;

    /// Adds one removal's time.
    pub fn push(&mut self, took: Duration) {
        if self.samples.len() == Self::WINDOW {
            self.samples.remove(0);
        }
        self.samples.push(took);
    }

    /// Removals measured so far (at most [`RemovalTimes::WINDOW`]).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether nothing was measured yet.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The lower quartile of the removals kept, once [`RemovalTimes::ENOUGH`] were measured.
    pub fn estimate(&self) -> Option<Duration> {
        if self.samples.len() < Self::ENOUGH {
            return None;
        }
        let mut sorted = self.samples.clone();
        sorted.sort_unstable();
        Some(sorted[sorted.len() / 4])
    }
}

/// Colour distance (0-255 per channel) beyond which two faces are told apart by colour, as
/// vision's classifier tells kinds apart: look-alikes are faces of one colour.
const COLOUR_APART: f32 = 44.0;

/// Whether two faces share their paper colour and, when each is drawn in one ink, their ink.
fn same_colour(a: &Face, b: &Face) -> bool {
    let d = |x: [f32; 3], y: [f32; 3]| (0..3).map(|c| (x[c] - y[c]).powi(2)).sum::<f32>().sqrt();
    let (ca, cb) = (&a.colours, &b.colours);
    d(ca.paper, cb.paper) <= COLOUR_APART
        && (!(ca.one_ink && cb.one_ink) || d(ca.ink, cb.ink) <= COLOUR_APART)
}

/// The distance between two faces, whichever is compared with the other's shifted samplings.
fn face_distance(a: &Face, b: &Face) -> f32 {
    a.distance(b).min(b.distance(a))
}

/// One face per kind on `board`: the first tile of the kind that is not shown selected (else
/// the first), from the faces of every cell (row-major).
fn faces_by_kind(faces: &[Face], board: &Board, selected: &[Pos]) -> Vec<(Kind, Face)> {
    let mut out: Vec<(Kind, Face, bool)> = Vec::new();
    for pos in board.tile_positions() {
        let kind = board.get(pos);
        let plain = !selected.contains(&pos);
        let face = &faces[pos.row as usize * board.cols() + pos.col as usize];
        match out.iter_mut().find(|(k, _, _)| *k == kind) {
            Some(entry) if plain && !entry.2 => *entry = (kind, face.clone(), true),
            Some(_) => {}
            None => out.push((kind, face.clone(), plain)),
        }
    }
    out.into_iter().map(|(k, f, _)| (k, f)).collect()
}

/// Kinds the game matches although they look different (a letter in two cases, the flowers and
/// seasons of a mahjong set), learned by trying look-alike pairs or given by a profile.
///
/// Kinds are known by the ids of the game's first reading (with a profile's templates, the
/// template ids), kept from frame to frame by face: each later reading's kinds are matched to
/// the nearest face of that first reading, because a reader without templates numbers kinds
/// afresh in every frame. A group is merged into one kind (its smallest id) before the policy
/// sees the board, so the solver treats it as one kind.
#[derive(Clone, Debug, Default)]
pub struct KindGroups {
    /// The first frame and its reading, until the table is needed.
    first: Option<(RgbaImage, Reading)>,
    /// One face per kind of the first reading.
    table: Vec<(Kind, Face)>,
    /// The groups, each sorted, in the first reading's ids.
    groups: Vec<Vec<Kind>>,
    /// Look-alike pairs the game refused.
    refused: Vec<[Kind; 2]>,
    /// Look-alike pairs that may still be refused before the loop stops trying.
    tries_left: usize,
}

impl KindGroups {
    /// Groups given by a profile (ids of the first reading), trying at most `tries` look-alike
    /// pairs the game refuses.
    pub fn new(groups: &[Vec<Kind>], tries: usize) -> Self {
        let mut kinds = KindGroups {
            tries_left: tries,
            ..KindGroups::default()
        };
        for group in groups {
            for pair in group.windows(2) {
                kinds.join([pair[0], pair[1]]);
            }
        }
        kinds
    }

    /// The groups so far, each sorted, in the first reading's ids.
    pub fn groups(&self) -> &[Vec<Kind>] {
        &self.groups
    }

    /// Keeps the game's first frame and reading: its kinds are the ids groups are told in.
    pub fn remember_first(&mut self, frame: &RgbaImage, reading: &Reading) {
        if self.first.is_none() && self.table.is_empty() {
            self.first = Some((frame.clone(), reading.clone()));
        }
    }

    /// `reading` with its kinds in the first reading's ids and every group merged into one
    /// kind; as it is while there is no group.
    pub fn merged(&mut self, frame: &RgbaImage, mut reading: Reading) -> Reading {
        if self.groups.is_empty() {
            return reading;
        }
        let faces = tile_faces(frame, &reading.geometry, &ClassifierSettings::default());
        let renamed = self.in_first_ids(&faces, &reading);
        reading.board = self.merge(&renamed);
        reading
    }

    /// The nearest look-alike pair that links on `reading`'s board, when the board needs one:
    /// tiles remain and no pair of one kind links (`stuck`), or a kind has an odd count (then
    /// the pair has a tile of such a kind). Kinds of one colour only, nearest faces first, and
    /// never a pair of kinds the game refused. Also the pair's kinds, in the first reading's
    /// ids, for [`KindGroups::accepted`] or [`KindGroups::refused`].
    pub fn look_alike(
        &mut self,
        frame: &RgbaImage,
        reading: &Reading,
        rules: Rules,
        stuck: bool,
    ) -> Option<(Move, [Kind; 2])> {
        if self.tries_left == 0 || reading.board.tiles() < 2 {
            return None;
        }
        if !stuck && !has_odd_kind(&reading.board) {
            return None;
        }
        let faces = tile_faces(frame, &reading.geometry, &ClassifierSettings::default());
        let renamed = self.in_first_ids(&faces, reading);
        let board = self.merge(&renamed);
        let mut counts: Vec<(Kind, usize)> = Vec::new();
        for pos in board.tile_positions() {
            match counts.iter_mut().find(|(k, _)| *k == board.get(pos)) {
                Some(entry) => entry.1 += 1,
                None => counts.push((board.get(pos), 1)),
            }
        }
        let odd = |k: Kind| counts.iter().any(|&(c, n)| c == k && n % 2 == 1);
        let by_kind = faces_by_kind(&faces, &board, &reading.selected);
        let pairs = look_alike_pairs(&by_kind)
            .into_iter()
            .filter(|&[k1, k2]| (stuck || odd(k1) || odd(k2)) && !self.refused.contains(&[k1, k2]));
        pairs
            .into_iter()
            .find_map(|[k1, k2]| Some((linking_pair(&board, k1, k2, rules)?, [k1, k2])))
    }

    /// The game removed a look-alike pair: its kinds are one from now on. The group joined.
    pub fn accepted(&mut self, kinds: [Kind; 2]) -> Vec<Kind> {
        self.join(kinds)
    }

    /// The game refused a look-alike pair: it is not tried again.
    pub fn refused(&mut self, kinds: [Kind; 2]) {
        self.tries_left = self.tries_left.saturating_sub(1);
        if !self.refused.contains(&kinds) {
            self.refused.push(kinds);
        }
    }

    /// Puts both kinds in one group (joining their groups); the group.
    fn join(&mut self, kinds: [Kind; 2]) -> Vec<Kind> {
        let mut group: Vec<Kind> = kinds.to_vec();
        self.groups.retain(|g| {
            let touches = g.iter().any(|k| kinds.contains(k));
            if touches {
                group.extend(g);
            }
            !touches
        });
        group.sort_unstable();
        group.dedup();
        self.groups.push(group.clone());
        self.groups.sort();
        group
    }

    /// `board` with every group's kinds replaced by the group's smallest.
    fn merge(&self, board: &Board) -> Board {
        let mut merged = board.clone();
        for pos in board.tile_positions() {
            let kind = board.get(pos);
            if let Some(group) = self.groups.iter().find(|g| g.contains(&kind)) {
                merged.set(pos, group[0]);
            }
        }
        merged
    }

    /// `reading`'s board with each kind renamed to the first reading's kind of the nearest face
    /// (`faces`: every cell's face in the reading's frame). Kinds stay as read when there is no
    /// first reading to compare with.
    fn in_first_ids(&mut self, faces: &[Face], reading: &Reading) -> Board {
        if let Some((image, first)) = self.first.take() {
            let all = tile_faces(&image, &first.geometry, &ClassifierSettings::default());
            self.table = faces_by_kind(&all, &first.board, &first.selected);
        }
        if self.table.is_empty() {
            return reading.board.clone();
        }
        let board = &reading.board;
        let names: Vec<(Kind, Kind)> = faces_by_kind(faces, board, &reading.selected)
            .into_iter()
            .map(|(kind, face)| {
                let nearest = self
                    .table
                    .iter()
                    .map(|(k, f)| (face_distance(&face, f), *k))
                    .min_by(|x, y| x.0.total_cmp(&y.0))
                    .map_or(kind, |(_, k)| k);
                (kind, nearest)
            })
            .collect();
        let mut renamed = board.clone();
        for pos in board.tile_positions() {
            let kind = board.get(pos);
            let name = names.iter().find(|(k, _)| *k == kind).map_or(kind, |n| n.1);
            renamed.set(pos, name);
        }
        renamed
    }
}

/// The pairs of kinds whose faces share their colours, nearest faces first (each pair's
/// smaller kind first): the order look-alike pairs are tried in. `faces`: one per kind.
pub fn look_alike_pairs(faces: &[(Kind, Face)]) -> Vec<[Kind; 2]> {
    let mut pairs: Vec<(f32, [Kind; 2])> = Vec::new();
    for (i, (k1, f1)) in faces.iter().enumerate() {
        for (k2, f2) in &faces[i + 1..] {
            if same_colour(f1, f2) {
                pairs.push((face_distance(f1, f2), [*k1.min(k2), *k1.max(k2)]));
            }
        }
    }
    pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
    pairs.into_iter().map(|(_, kinds)| kinds).collect()
}

/// Whether some kind has an odd number of tiles on `board`.
pub(super) fn has_odd_kind(board: &Board) -> bool {
    let mut kinds: Vec<Kind> = board.tile_positions().map(|p| board.get(p)).collect();
    kinds.sort_unstable();
    kinds.chunk_by(|a, b| a == b).any(|run| run.len() % 2 == 1)
}

/// The first tile of `k1` and tile of `k2` (row-major) that link by `rules`, as though they
/// were one kind.
fn linking_pair(board: &Board, k1: Kind, k2: Kind, rules: Rules) -> Option<Move> {
    let of = |k: Kind| board.tile_positions().filter(move |&p| board.get(p) == k);
    for a in of(k1) {
        for b in of(k2) {
            let mut test = board.clone();
            test.set(b, k1);
            if let Some(path) = connect(&test, a, b, rules) {
                return Some(Move { a, b, path });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_with_an_odd_count_is_an_odd_reading() {
        assert!(!has_odd_kind(&Board::from_rows(&[[1, 2, 2, 1]])));
        assert!(!has_odd_kind(&Board::from_rows(&[[0, 0, 0, 0]])));
        assert!(has_odd_kind(&Board::from_rows(&[[1, 0, 0, 0]])));
        assert!(has_odd_kind(&Board::from_rows(&[[1, 2, 1, 1]])));
    }

    #[test]
    fn gravity_is_told_only_by_a_removal_with_tiles_above() {
        let rules = Rules::shisen_sho();
        let before = Board::from_rows(&[[3, 4], [1, 1]]);
        let (a, b) = (Pos::new(1, 0), Pos::new(1, 1));
        let dropped = Board::from_rows(&[[0, 0], [7, 8]]);
        let holes = Board::from_rows(&[[7, 8], [0, 0]]);
        assert_eq!(gravity_shown(&before, a, b, rules, &dropped), Some(true));
        assert_eq!(gravity_shown(&before, a, b, rules, &holes), Some(false));
        let misread = Board::from_rows(&[[7, 7], [0, 0]]);
        assert_eq!(gravity_shown(&before, a, b, rules, &misread), None);
        // Nothing above the pair: both rules leave the same board.
        let top = Board::from_rows(&[[1, 1], [3, 4]]);
        let after = Board::from_rows(&[[0, 0], [3, 4]]);
        let (a, b) = (Pos::new(0, 0), Pos::new(0, 1));
        assert_eq!(gravity_shown(&top, a, b, rules, &after), None);
    }

    #[test]
    fn removal_estimate_is_the_lower_quartile_of_the_last_removals() {
        let mut times = RemovalTimes::default();
        times.push(Duration::from_millis(120));
        times.push(Duration::from_millis(2000));
        assert_eq!(times.estimate(), None);
        times.push(Duration::from_millis(90));
        assert_eq!(times.estimate(), Some(Duration::from_millis(90)));
        for ms in [100, 110, 130, 3000, 2500, 105] {
            times.push(Duration::from_millis(ms));
        }
        // 90 100 105 110 120 130 2000 2500 3000: the third.
        assert_eq!(times.estimate(), Some(Duration::from_millis(105)));
        for _ in 0..RemovalTimes::WINDOW {
            times.push(Duration::from_millis(60));
        }
        assert_eq!(times.len(), RemovalTimes::WINDOW);
        assert_eq!(times.estimate(), Some(Duration::from_millis(60)));
    }
}
