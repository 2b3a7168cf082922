//! One axis of the lattice: its pitch and phase from the peaks of an edge profile.

use crate::stats::parabola_vertex;
use crate::vision::features::{comb_contrast, peaks_only, sample, smooth};

use super::*;

/// A periodic axis: boundaries at `phase + k * pitch` in profile coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Axis {
    pub(super) pitch: f64,
    pub(super) phase: f64,
}

impl Axis {
    /// Position of boundary `k` (fractional `k` allowed).
    pub(super) fn at(self, k: f64) -> f64 {
        self.phase + k * self.pitch
    }
}

/// The pitch and phase of the strongest repeating peaks in a profile, the same pitch at its
/// second phase (see [`other_phase`]), then the other candidates in order of comb contrast
/// (the other maxima of the autocorrelation and the multiples of the first): when the first is
/// a fraction of the true pitch (strokes repeating inside the tiles, text, a texture), no board
/// is found on it and the next is tried.
pub(super) fn find_axes(peaks: &[f32]) -> Vec<Axis> {
    let Some((first, scored)) = find_axis(peaks) else {
        return Vec::new();
    };
    let hi = (peaks.len() - 1) as f64;
    let max_pitch = (peaks.len() as f64 / 3.0).min(400.0);
    let mut others: Vec<(Axis, f64)> = scored;
    for k in 2..=8 {
        let pitch = first.pitch * f64::from(k);
        if pitch > max_pitch {
            break;
        }
        let (phase, score) = best_phase(peaks, pitch, 0.0, hi);
        others.push((Axis { pitch, phase }, score));
    }
    others.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut axes = vec![first];
    axes.extend(other_phase(peaks, first));
    for (axis, _) in others {
        if axes.iter().all(|a| (a.pitch - axis.pitch).abs() > 0.5) {
            axes.push(axis);
        }
    }
    axes.truncate(5);
    axes
}

/// The peaks of an edge profile the axes are sought in (see [`find_axes`]), smoothed and
/// capped (see [`cap_outliers`]).
pub(super) fn axis_peaks(profile: &[f32]) -> Vec<f32> {
    cap_outliers(&smooth(&peaks_only(profile, 5)))
}

/// The first axis at its second-best phase, when that collects at least half as much and lies
/// a few pixels away: an edge repeating inside every tile (an inner frame, a 3D side) can
/// collect more than the tiles' borders over the whole image, and a comb on it cuts every
/// tile in two, so no cell shows four borders.
pub(super) fn other_phase(peaks: &[f32], axis: Axis) -> Option<Axis> {
    let contrast = phase_contrasts(peaks, axis.pitch, 0.0, (peaks.len() - 1) as f64);
    let steps = contrast.len();
    let best = contrast.iter().map(|c| c.1).fold(0.0, f64::max);
    let apart = |phase: f64| {
        let d = (phase - axis.phase).rem_euclid(axis.pitch);
        d.min(axis.pitch - d) >= 3.0
    };
    (0..steps)
        .filter(|&i| {
            let (prev, next) = (
                contrast[(i + steps - 1) % steps].1,
                contrast[(i + 1) % steps].1,
            );
            let v = contrast[i].1;
            v >= 0.5 * best && v >= prev && v > next
        })
        .map(|i| contrast[i])
        .filter(|&(phase, _)| apart(phase))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(phase, _)| Axis {
            pitch: axis.pitch,
            phase,
        })
}

/// The chosen axis of a peak profile (see [`find_axes`]) and every candidate with its score.
fn find_axis(peaks: &[f32]) -> Option<(Axis, Vec<(Axis, f64)>)> {
    let n = peaks.len();
    let max_pitch = (n as f64 / 3.0).min(400.0);
    if max_pitch <= MIN_PITCH {
        return None;
    }
    let hi = (n - 1) as f64;
    let scored: Vec<(Axis, f64)> = candidate_pitches(peaks, max_pitch)
        .into_iter()
        .map(|pitch| {
            let (phase, score) = best_phase(peaks, pitch, 0.0, hi);
            (Axis { pitch, phase }, score)
        })
        .filter(|&(_, score)| score > 0.0)
        .collect();
    let chosen = choose_axis(peaks, &scored)?;
    Some((chosen, scored))
}

/// Candidate pitches up to `max_pitch`: local maxima of the peaks' autocorrelation of at
/// least 30% of its best, refined by a parabola.
fn candidate_pitches(peaks: &[f32], max_pitch: f64) -> Vec<f64> {
    let n = peaks.len();
    let mean = peaks.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
    let centred: Vec<f64> = peaks.iter().map(|&v| f64::from(v) - mean).collect();
    let lags = MIN_PITCH as usize - 2..=max_pitch as usize + 1;
    let auto: Vec<(usize, f64)> = lags
        .map(|lag| {
            let s: f64 = centred[..n - lag]
                .iter()
                .zip(&centred[lag..])
                .map(|(a, b)| a * b)
                .sum();
            (lag, s / (n - lag) as f64)
        })
        .collect();
    let best = auto.iter().map(|&(_, v)| v).fold(0.0, f64::max);
    if best <= 0.0 {
        return Vec::new();
    }
    let mut candidates = Vec::new();
    for i in 1..auto.len() - 1 {
        let (lag, v) = auto[i];
        if (lag as f64) < MIN_PITCH || v < 0.3 * best {
            continue;
        }
        if v >= auto[i - 1].1 && v > auto[i + 1].1 {
            let shift = parabola_vertex(auto[i - 1].1, v, auto[i + 1].1);
            candidates.push(lag as f64 + shift);
        }
    }
    candidates
}

/// The axis chosen among the scored combs. The comb sums over teeth, so a multiple of the
/// pitch misses boundaries and scores less, while clutter (menu bars, status lines) can still
/// favour one. A half pitch can score as well as the pitch, but every other tooth of it falls
/// mid-tile and collects nothing. Take the smallest pitch that scores at least half the best,
/// divides the best pitch a whole number of times (texture and glyph strokes give unrelated
/// small periods), in phase with it, and whose teeth do not alternate.
fn choose_axis(peaks: &[f32], scored: &[(Axis, f64)]) -> Option<Axis> {
    let top = scored.iter().map(|&(_, s)| s).fold(0.0, f64::max);
    // The reference is the best comb whose teeth do not alternate: one that does is a half or
    // a third of the true pitch (glyphs or a tile's inner frame repeating inside the tiles) and
    // no true pitch is a multiple of it.
    let steady: Vec<(Axis, f64)> = scored
        .iter()
        .copied()
        .filter(|&(axis, _)| !alternates(peaks, axis))
        .collect();
    let pool = if steady.is_empty() { scored } else { &steady };
    let best = pool.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.0;
    // ... and whose teeth include the best comb's teeth (a true pitch under a multiple of it).
    let divides = |axis: Axis| {
        let ratio = best.pitch / axis.pitch;
        let steps = (best.phase - axis.phase) / axis.pitch;
        (ratio - ratio.round()).abs() < 0.08 * ratio.round().max(1.0)
            && (steps - steps.round()).abs() < 0.15
    };
    Some(
        steady
            .iter()
            .filter(|&&(axis, score)| score >= 0.5 * top && divides(axis))
            .min_by(|a, b| a.0.pitch.total_cmp(&b.0.pitch))
            .map_or(best, |&(axis, _)| axis),
    )
}

/// Caps a peak profile at its 97th percentile: a line across the whole image (a menu bar, a
/// status bar) otherwise outweighs every tile boundary, and one such line decides which teeth
/// of a comb look strong.
fn cap_outliers(peaks: &[f32]) -> Vec<f32> {
    let mut sorted = peaks.to_vec();
    sorted.sort_by(f32::total_cmp);
    let Some(&cap) = sorted.get(sorted.len() * 97 / 100) else {
        return peaks.to_vec();
    };
    if cap <= 0.0 {
        return peaks.to_vec();
    }
    peaks.iter().map(|&v| v.min(cap)).collect()
}

/// Whether the comb's even teeth collect much more (or much less) than its odd teeth: the
/// mark of a comb at half the true pitch.
fn alternates(profile: &[f32], axis: Axis) -> bool {
    // Teeth collected by residue modulo 2 and modulo 3: at a half or a third of the true pitch
    // one residue class collects (nearly) everything.
    let mut sums = [[0f64; 3]; 2];
    let mut k = 0usize;
    let mut x = axis.phase;
    while x < (profile.len() - 1) as f64 {
        let tooth =
            f64::from(sample(profile, x)) - f64::from(sample(profile, x + axis.pitch / 2.0));
        sums[0][k % 2] += tooth.max(0.0);
        sums[1][k % 3] += tooth.max(0.0);
        k += 1;
        x += axis.pitch;
    }
    let uneven = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::MAX, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        lo < 0.4 * hi
    };
    uneven(&sums[0][..2]) || uneven(&sums[1])
}

/// The phase in `0..pitch` (quarter-pixel steps) with the best comb contrast, and that contrast.
pub(super) fn best_phase(profile: &[f32], pitch: f64, lo: f64, hi: f64) -> (f64, f64) {
    phase_contrasts(profile, pitch, lo, hi)
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0.0, 0.0))
}

/// Every phase in `0..pitch` (quarter-pixel steps) with its comb contrast.
fn phase_contrasts(profile: &[f32], pitch: f64, lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let steps = (pitch * 4.0).ceil() as usize;
    (0..steps)
        .map(|i| {
            let phase = i as f64 / 4.0;
            (phase, comb_contrast(profile, pitch, phase, lo, hi))
        })
        .collect()
}
