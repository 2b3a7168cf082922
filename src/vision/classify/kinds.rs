//! Faces grouped into kinds: linked below a threshold, split where a group is too wide, repaired
//! where a group is odd.

use crate::vision::ClassifierSettings;
use crate::vision::features::rgb_distance;

use super::*;

/// [`group_faces_at`], measuring the distances itself.
#[cfg(test)]
pub(super) fn group_faces(
    faces: &[&Face],
    settings: &ClassifierSettings,
) -> (Vec<usize>, Vec<f32>) {
    let (dist, threshold) = face_distances(faces, settings);
    group_faces_at(faces, || vec![false; faces.len()], &dist, threshold)
}

/// Groups faces into kinds, given the distances between them (`n * n`) and the kind
/// threshold (see [`face_distances`]); returns a label per face (labels `0..groups`) and a
/// confidence. `on_ground()[i]`: face `i`'s paper is the background running on under the
/// board (see [`ground_under_cells`]), not a tile's own colour; asked only when two faces
/// alike in shape differ in colour.
pub(super) fn group_faces_at(
    faces: &[&Face],
    on_ground: impl Fn() -> Vec<bool>,
    dist: &[f32],
    threshold: f32,
) -> (Vec<usize>, Vec<f32>) {
    let n = faces.len();
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    // Faces of clearly different colours never link (normalisation hides colour), though the
    // odd-count repair below may still join them: a selected tile is tinted. Only pairs close
    // enough to link need the test.
    let mut linkable = dist.to_vec();
    let mut shifted: Vec<Option<Vec<Colours>>> = vec![None; n];
    let exact = exact_colour_copies(faces, dist, threshold);
    let ground = std::cell::OnceCell::new();
    for i in 0..n {
        for j in i + 1..n {
            if dist[i * n + j] >= threshold {
                continue;
            }
            let apart = colours_apart(faces, i, j, true, &mut shifted)
                || (exact[i] && exact[j] && papers_apart(faces[i], faces[j]));
            // Two icons drawn straight on a gradient show its colours round them: their
            // papers differ with where they lie, not with their kind.
            let apart = apart && {
                let on_ground: &Vec<bool> = ground.get_or_init(&on_ground);
                !(on_ground[i] && on_ground[j]) || colours_apart(faces, i, j, false, &mut shifted)
            };
            if apart {
                linkable[i * n + j] = f32::INFINITY;
                linkable[j * n + i] = f32::INFINITY;
            }
        }
    }
    link_by_colour(faces, dist, threshold, &mut linkable);
    part_local_differences(faces, threshold, &mut linkable);
    let mut groups: Vec<Vec<usize>> = link_groups(&linkable, n, threshold)
        .into_iter()
        .flat_map(|g| split_wide(&linkable, n, g, threshold))
        .flat_map(|g| split_into_pairs(dist, n, g, threshold))
        .collect();
    repair_odd_groups(dist, n, &mut groups);

    let mut labels = vec![0usize; n];
    for (label, g) in groups.iter().enumerate() {
        for &i in g {
            labels[i] = label;
        }
    }
    let confidence = (0..n)
        .map(|i| label_confidence(dist, &groups, &labels, i, threshold))
        .collect();
    (labels, confidence)
}

/// The distance between every pair of faces (`n * n`, row by row) and the kind threshold (see
/// [`kind_threshold`], raised to a few times the copies' own difference, [`copy_noise`]). The cheap
/// centred comparison for every pair sets the scale; the shift-tolerant one only for the pairs
/// close enough to matter.
pub(super) fn face_distances(faces: &[&Face], settings: &ClassifierSettings) -> (Vec<f32>, f32) {
    let n = faces.len();
    let mut dist = vec![0f32; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let d = faces[i].centred_distance(faces[j]);
            dist[i * n + j] = d;
            dist[j * n + i] = d;
        }
    }
    let threshold =
        kind_threshold(&dist, n, settings).max(COPY_NOISE_FACTOR * copy_noise(&dist, n));
    for i in 0..n {
        for j in i + 1..n {
            let d = dist[i * n + j];
            if d < 1.5 * threshold && d > 0.0 {
                let d = d
                    .min(faces[i].distance(faces[j]))
                    .min(faces[j].distance(faces[i]));
                dist[i * n + j] = d;
                dist[j * n + i] = d;
            }
        }
    }
    (dist, threshold)
}

/// How surely face `i` belongs to its group: its silhouette (the nearest other group's mean
/// distance against its own group's), halved when its group has an odd count.
fn label_confidence(
    dist: &[f32],
    groups: &[Vec<usize>],
    labels: &[usize],
    i: usize,
    threshold: f32,
) -> f32 {
    let n = labels.len();
    let own = &groups[labels[i]];
    let a = if own.len() > 1 {
        own.iter()
            .filter(|&&j| j != i)
            .map(|&j| dist[i * n + j])
            .sum::<f32>()
            / (own.len() - 1) as f32
    } else {
        threshold
    };
    let b = groups
        .iter()
        .enumerate()
        .filter(|&(l, _)| l != labels[i])
        .map(|(_, g)| g.iter().map(|&j| dist[i * n + j]).sum::<f32>() / g.len() as f32)
        .fold(f32::MAX, f32::min);
    let odd = if own.len() % 2 == 1 { 0.5 } else { 1.0 };
    if b == f32::MAX {
        odd
    } else {
        ((b - a) / b.max(a).max(1e-6)).clamp(0.0, 1.0) * odd
    }
}

/// Faces whose paper or ink colours differ by more than this (Euclidean, 0-255 levels) belong
/// to different kinds: well above compression noise and a sub-pixel offset's effect on a
/// stroke, below a glyph or a tile drawn in another colour. Every face in one frame shares its
/// brightness, so no normalisation is needed between them.
pub(super) const COLOUR_APART: f32 = 44.0;

/// Whether faces `i` and `j` differ clearly in colour: the centred colours of `i` against the
/// best-aligned sampling of `j` (a stroke split between two bins shifts a small face's ink).
/// The shifted samplings' colours of `j` are computed once, and only when the centred ones
/// are apart.
fn colours_apart(
    faces: &[&Face],
    i: usize,
    j: usize,
    papers: bool,
    shifted: &mut [Option<Vec<Colours>>],
) -> bool {
    let (a, b) = (faces[i], faces[j]);
    let apart = |c: &Colours| {
        let d = if papers {
            a.colours.distance(c)
        } else {
            a.colours.ink_distance(c)
        };
        d > COLOUR_APART
    };
    if !apart(&b.colours) {
        return false;
    }
    let per_channel = b.bins.0 * b.bins.1;
    shifted[j]
        .get_or_insert_with(|| b.raw.iter().map(|v| Colours::of(v, per_channel)).collect())
        .iter()
        .all(apart)
}

/// Whether two faces' papers (the commonest colour of their bins, which a stroke's sampling
/// hardly moves) differ by more than [`PAPER_APART`].
fn papers_apart(a: &Face, b: &Face) -> bool {
    rgb_distance(a.colours.paper, b.colours.paper) > PAPER_APART
}

/// Whether each face is painted on a solid paper (see [`solid_paper`]) and has an exact
/// copy: another face under the kind `threshold` in shape and within [`EXACT_COLOUR`] in
/// colour (flat fills copied to a level or two).
fn exact_colour_copies(faces: &[&Face], dist: &[f32], threshold: f32) -> Vec<bool> {
    let n = faces.len();
    (0..n)
        .map(|i| {
            solid_paper(faces[i])
                && (0..n).any(|j| {
                    j != i
                        && dist[i * n + j] < threshold
                        && faces[i].colours.distance(&faces[j].colours) <= EXACT_COLOUR
                })
        })
        .collect()
}

/// Whether most of a face's bins (at least [`SOLID_SHARE`]) lie within [`SOLID_LEVELS`] of its
/// paper: a flat tile with a mark on it, whose paper no sampling moves (on a face mostly
/// drawn, the commonest bin may be the drawing's).
fn solid_paper(face: &Face) -> bool {
    face.share_near(face.colours.paper, SOLID_LEVELS) >= SOLID_SHARE
}

/// Share of a face's bins that must show its paper for the paper to be solid.
const SOLID_SHARE: f32 = 0.5;

/// Farthest (Euclidean, 0-255 levels) a bin may lie from the paper to show it.
const SOLID_LEVELS: f32 = 16.0;

/// Most two faces' colours may differ to be exact copies (see [`exact_colour_copies`]).
const EXACT_COLOUR: f32 = 2.0;

/// The least paper difference (Euclidean, 0-255 levels) that parts two faces that both have
/// an exact copy (see [`exact_colour_copies`]): where copies match to a level or two, a game
/// may paint its kinds in colours closer than [`COLOUR_APART`], which allows for compression,
/// tints and the ink of small strokes sampled at another sub-pixel offset.
const PAPER_APART: f32 = 24.0;

/// Faces whose paper and ink colours differ by at most this (Euclidean, 0-255 levels) show
/// the same colours: above the difference between copies of one kind (up to 15 on the tuning
/// seeds, under JPEG and rescaling, where a stroke's edge falls in other bins), below that
/// between kinds told apart by colour alone (27 or more).
const SAME_COLOUR: f32 = 22.0;

/// How far apart in shape (times the kind threshold) the faces of one colour may lie and still
/// be taken for copies of one kind. Where every kind has one shape the threshold is the
/// copies' own noise, and on a large board a pitch a twentieth of a pixel off drifts copies
/// far apart on it by more (seed 1053: 3.5 thresholds); [`ONE_SHAPE_MOST`] still keeps two
/// shapes apart.
const ONE_SHAPE_FACTOR: f32 = 4.0;

/// The most two faces of one colour may differ in shape (worst block, in units of each
/// channel's spread) and still be taken for copies of one kind, however high the kind
/// threshold: copies of one flat tile differed by up to 0.34 on the tuning seeds (JPEG,
/// rescaling), two glyphs or emoji of one colour by 0.73 or more.
const ONE_SHAPE_MOST: f32 = 0.5;

/// Where colour alone tells kinds apart, links by colour: when the faces of face `i`'s colour
/// (within [`SAME_COLOUR`]) all lie within [`ONE_SHAPE_FACTOR`] thresholds (and
/// [`ONE_SHAPE_MOST`]) of each other in shape, they are copies of one kind whose shapes differ
/// by noise only. Copies of one flat tile, resampled at other sub-pixel offsets, can differ in
/// shape by more than the kind threshold, which is low when every kind has the same glyph (the
/// median distance between faces is then itself small), and split into two kinds. Faces of
/// one colour with clearly different shapes (glyph-only kinds, mahjong faces on one paper) do
/// not pass and keep the shape rule. Sets `linkable` to 0 between two faces of one colour that
/// both pass; it only adds links.
fn link_by_colour(faces: &[&Face], dist: &[f32], threshold: f32, linkable: &mut [f32]) {
    let n = faces.len();
    let limit = (ONE_SHAPE_FACTOR * threshold).min(ONE_SHAPE_MOST);
    let same: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && faces[i].colours.distance(&faces[j].colours) <= SAME_COLOUR)
                .collect()
        })
        .collect();
    // Faces of one colour mostly share one set: each set is checked once.
    let mut checked: std::collections::HashMap<Vec<usize>, bool> = Default::default();
    let one_kind: Vec<bool> = (0..n)
        .map(|i| {
            if same[i].is_empty() {
                return false;
            }
            let mut members = same[i].clone();
            members.push(i);
            members.sort_unstable();
            *checked.entry(members).or_insert_with_key(|members| {
                members
                    .iter()
                    .enumerate()
                    .all(|(x, &j)| members[x + 1..].iter().all(|&k| dist[j * n + k] < limit))
            })
        })
        .collect();
    for i in 0..n {
        if !one_kind[i] {
            continue;
        }
        for &j in &same[i] {
            if one_kind[j] {
                linkable[i * n + j] = 0.0;
                linkable[j * n + i] = 0.0;
            }
        }
    }
}

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// many kind thresholds: well above what the kind threshold lets through in a whole block.
const LOCAL_APART_FACTOR: f32 = 1.25;

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// (in units of each channel's spread): a clear mark, not the edge of a stroke.
const LOCAL_APART_MIN: f32 = 0.5;

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// many times each face's window distance to its nearest linked face (its copy): the noise of
/// copies (JPEG, rescaling, a selection's tint) stays well under that.
const LOCAL_COPY_FACTOR: f32 = 8.0;

/// Unlinks pairs of faces that the block distance links but that differ clearly in one small
/// place (see [`window_distance`]): kinds such as GNOME postmodern's flowers and seasons,
/// alike but for a small corner label, had merged. A linked pair is parted when its window
/// distance is over [`LOCAL_APART_FACTOR`] times `threshold`, over [`LOCAL_APART_MIN`], and
/// over [`LOCAL_COPY_FACTOR`] times each face's window distance to its nearest linked face
/// (every kind occurs at least twice, so that is mostly a copy: copies' noise spreads over the
/// whole face and never stands out in one window like a mark does).
fn part_local_differences(faces: &[&Face], threshold: f32, linkable: &mut [f32]) {
    let n = faces.len();
    let floor = (LOCAL_APART_FACTOR * threshold).max(LOCAL_APART_MIN);
    // The shift-tolerant distance of a pair, below `bound` (both ways round).
    let aligned = |i: usize, j: usize, bound: f32| -> f32 {
        let d = faces[i].window_distance(faces[j], bound);
        faces[j].window_distance(faces[i], d)
    };
    // The cheap centred distance for every linked pair (an upper bound); the shift-tolerant
    // one only where it matters: the pairs apart by it, and the nearest copies of their faces.
    let mut pairs: Vec<(usize, usize, f32)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if linkable[i * n + j] < threshold {
                pairs.push((i, j, faces[i].centred_window_distance(faces[j])));
            }
        }
    }
    let mut apart: Vec<(usize, usize, f32)> = Vec::new();
    for &(i, j, d) in &pairs {
        if d > floor {
            let d = aligned(i, j, d);
            if d > floor {
                apart.push((i, j, d));
            }
        }
    }
    let mut nearest: Vec<Option<f32>> = vec![None; n];
    for &(i, j, _) in &apart {
        for face in [i, j] {
            if nearest[face].is_none() {
                let near = pairs
                    .iter()
                    .filter(|&&(a, b, _)| a == face || b == face)
                    .fold(f32::MAX, |best, &(a, b, d)| aligned(a, b, best.min(d)));
                nearest[face] = Some(near);
            }
        }
    }
    for (i, j, d) in apart {
        let near = |face: usize| nearest[face].unwrap_or(f32::MAX);
        let copies = near(i).max(near(j));
        if d > LOCAL_COPY_FACTOR * copies {
            linkable[i * n + j] = f32::INFINITY;
            linkable[j * n + i] = f32::INFINITY;
        }
    }
}

/// How many times the copies' own difference (see [`copy_noise`]) two faces may differ and
/// still be the same kind.
pub(super) const COPY_NOISE_FACTOR: f32 = 3.0;

/// How much copies of one kind differ (compression, rescaling, a sub-pixel offset): the median over
/// faces of the distance to the nearest other face (`dist` is `n * n`). Every kind occurs at least
/// twice, so a face's nearest other face is mostly a copy of its own kind. Faces whose nearest lies
/// over [`NO_COPY_SHARE`] of the typical distance between faces have no copy (wallpaper read as
/// tiles in emptied cells late in a game: live kshisen 12x24, four tiles and five such cells, whose
/// nearest distances set the threshold above every distance and made the 3 and 5 of bamboo one
/// kind) and are left out, unless fewer than [`MIN_WITH_COPY`] faces have one. Kinds told apart
/// only by colour share one shape, so the median distance between all faces is itself copy noise,
/// and a fraction of it split copies of one kind; a threshold of a few times the copy noise keeps
/// them together, and colour parts the kinds. (Tuning seeds, true geometry: 1..200 kind mistakes
/// 161 -> 99 cells, 200..400 94 -> 52; factors 2.5 and 3.5 did about as well, 2 and 4 worse.) 0 for
/// fewer than three faces.
pub(super) fn copy_noise(dist: &[f32], n: usize) -> f32 {
    if n < 3 {
        return 0.0;
    }
    let mut nearest: Vec<f32> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| dist[i * n + j])
                .fold(f32::MAX, f32::min)
        })
        .collect();
    let limit = NO_COPY_SHARE * typical_distance(dist, n);
    let mut with_copy: Vec<f32> = nearest.iter().copied().filter(|&d| d <= limit).collect();
    if with_copy.len() >= MIN_WITH_COPY {
        return crate::stats::median(&mut with_copy).unwrap_or(0.0);
    }
    crate::stats::median(&mut nearest).unwrap_or(0.0)
}

/// Faces with a copy needed to measure the copy noise on them alone: two kinds' pairs.
const MIN_WITH_COPY: usize = 4;

/// A face whose nearest other face lies further than this share of the typical distance
/// between faces has no copy (see [`copy_noise`]).
pub(super) const NO_COPY_SHARE: f32 = 0.5;

/// The median distance between all pairs of faces (0 for fewer than two).
pub(super) fn typical_distance(dist: &[f32], n: usize) -> f32 {
    let mut all: Vec<f32> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| dist[i * n + j])
        .collect();
    if all.is_empty() {
        return 0.0;
    }
    let mid = all.len() / 2;
    *all.select_nth_unstable_by(mid, f32::total_cmp).1
}

/// The distance below which two faces are the same kind: a fraction of the median distance
/// between all faces (faces of different kinds are nearly unrelated after normalisation, so
/// the median is stable whatever the number of copies of each kind).
fn kind_threshold(dist: &[f32], n: usize, settings: &ClassifierSettings) -> f32 {
    settings.same_kind as f32 * typical_distance(dist, n)
}

/// Single-linkage groups of faces closer than `threshold`.
fn link_groups(dist: &[f32], n: usize, threshold: f32) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if dist[i * n + j] < threshold {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                if a != b {
                    parent[a] = b;
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for i in 0..n {
        let r = root(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[r]].push(i);
    }
    groups
}

/// Splits a group whose members are not all within `threshold` of each other, by complete
/// linkage: chains of near-duplicates come apart.
fn split_wide(dist: &[f32], n: usize, group: Vec<usize>, threshold: f32) -> Vec<Vec<usize>> {
    let wide = group
        .iter()
        .any(|&i| group.iter().any(|&j| dist[i * n + j] >= threshold));
    if !wide {
        return vec![group];
    }
    let mut clusters: Vec<Vec<usize>> = group.into_iter().map(|i| vec![i]).collect();
    loop {
        let mut best: Option<(usize, usize, f32)> = None;
        for a in 0..clusters.len() {
            for b in a + 1..clusters.len() {
                let d = clusters[a]
                    .iter()
                    .flat_map(|&i| clusters[b].iter().map(move |&j| dist[i * n + j]))
                    .fold(0.0, f32::max);
                if d < threshold && best.is_none_or(|(_, _, e)| d < e) {
                    best = Some((a, b, d));
                }
            }
        }
        let Some((a, b, _)) = best else {
            return clusters;
        };
        let moved = clusters.swap_remove(b);
        clusters[a].extend(moved);
    }
}

/// How much nearer each other than to the rest of their group two faces must be for the
/// group to part into such pairs (see [`split_into_pairs`]).
const PAIR_APART: f32 = 0.7;

/// How far (a share of the kind threshold) every other member of the group must lie from a
/// pair for the group to part: further than the copies' own noise.
const PAIR_OTHERS: f32 = 0.5;

/// A group of six or more faces that falls into pairs, each face's nearest in the group
/// being the face whose nearest it is, at most [`PAIR_APART`] of the way to any other
/// member and every other member at least [`PAIR_OTHERS`] of the kind `threshold` away,
/// parted into those pairs: kinds drawn alike but for one small part (the numbers of one
/// suit over a shared character) lie within a threshold raised by the copies' noise, while
/// copies of one kind stand nearer each other than to any other kind. A group of four stays:
/// one kind's four copies fall into two such pairs about as often as two kinds merge.
pub(super) fn split_into_pairs(
    dist: &[f32],
    n: usize,
    group: Vec<usize>,
    threshold: f32,
) -> Vec<Vec<usize>> {
    if group.len() < 6 || group.len() % 2 == 1 {
        return vec![group];
    }
    let nearest = |i: usize| {
        group
            .iter()
            .copied()
            .filter(|&j| j != i)
            .min_by(|&a, &b| dist[i * n + a].total_cmp(&dist[i * n + b]))
    };
    let mut pairs = Vec::new();
    for &i in &group {
        let Some(j) = nearest(i) else {
            return vec![group];
        };
        if nearest(j) != Some(i) {
            return vec![group];
        }
        let apart = group.iter().filter(|&&k| k != i && k != j).all(|&k| {
            let other = dist[i * n + k].min(dist[j * n + k]);
            dist[i * n + j] <= PAIR_APART * other && other >= PAIR_OTHERS * threshold
        });
        if !apart {
            return vec![group];
        }
        if i < j {
            pairs.push(vec![i, j]);
        }
    }
    pairs
}

/// Mean distance from face `i` to the members of `group`.
fn mean_distance(dist: &[f32], n: usize, i: usize, group: &[usize]) -> f32 {
    group.iter().map(|&j| dist[i * n + j]).sum::<f32>() / group.len().max(1) as f32
}

/// Every kind occurs an even number of times: pairs up groups of odd size, closest first, and
/// either merges them (when one is a single face, such as a selected tile that looked
/// different) or moves the face that fits the other group best.
pub(super) fn repair_odd_groups(dist: &[f32], n: usize, groups: &mut Vec<Vec<usize>>) {
    loop {
        let odd: Vec<usize> = (0..groups.len())
            .filter(|&g| groups[g].len() % 2 == 1)
            .collect();
        let mut best: Option<(usize, usize, f32)> = None;
        for (x, &a) in odd.iter().enumerate() {
            for &b in &odd[x + 1..] {
                let d = groups[a]
                    .iter()
                    .map(|&i| mean_distance(dist, n, i, &groups[b]))
                    .fold(f32::MAX, f32::min);
                if best.is_none_or(|(_, _, e)| d < e) {
                    best = Some((a, b, d));
                }
            }
        }
        let Some((a, b, _)) = best else {
            return;
        };
        if groups[a].len() == 1 || groups[b].len() == 1 {
            let (keep, gone) = (a.min(b), a.max(b));
            let moved = groups.swap_remove(gone);
            groups[keep].extend(moved);
            continue;
        }
        // Move the face whose move costs least: closer to the other group than to its own.
        let cost = |from: usize, to: usize, i: usize| -> f32 {
            let rest: Vec<usize> = groups[from].iter().copied().filter(|&j| j != i).collect();
            mean_distance(dist, n, i, &groups[to]) - mean_distance(dist, n, i, &rest)
        };
        let mut choice: Option<(usize, usize, usize, f32)> = None;
        for (from, to) in [(a, b), (b, a)] {
            for &i in &groups[from] {
                let c = cost(from, to, i);
                if choice.is_none_or(|(_, _, _, e)| c < e) {
                    choice = Some((from, to, i, c));
                }
            }
        }
        let Some((from, to, i, _)) = choice else {
            return;
        };
        groups[from].retain(|&j| j != i);
        groups[to].push(i);
    }
}
