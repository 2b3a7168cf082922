//! Pitch and phase refined on the board alone: a fine comb, registered borders, a line fit.

use crate::stats::{mean_median, parabola_vertex};
use crate::vision::features::{peaks_only, sample, smooth};

use super::*;

/// Sub-pixel pitch and phase: the centre of mass of the edge near each of the board's
/// `count + 1` boundaries, then a least-squares line through them (twice, dropping boundaries
/// that sit more than a pixel and a half off the first line).
pub(super) fn refine_axis(profile: &[f32], axis: Axis, first: i64, count: usize) -> Axis {
    let mut fit = axis;
    let mut keep = vec![true; count + 1];
    for round in 0..4 {
        // A wide window first, then a narrow one that leaves out the tile's own content.
        let half = if round == 0 {
            0.15 * fit.pitch
        } else {
            (0.07 * fit.pitch).max(2.5)
        };
        let centres: Vec<Option<(f64, f64)>> = (0..=count)
            .map(|k| {
                let guess = fit.at((first + k as i64) as f64);
                let lo = (guess - half).ceil().max(0.0) as usize;
                let hi = ((guess + half).floor().max(0.0) as usize).min(profile.len() - 1);
                let (mut mass, mut moment) = (0f64, 0f64);
                for (x, &v) in profile.iter().enumerate().take(hi + 1).skip(lo) {
                    mass += f64::from(v);
                    moment += f64::from(v) * x as f64;
                }
                (mass > 0.0).then(|| (moment / mass, mass))
            })
            .collect();
        let points: Vec<(f64, f64, f64)> = centres
            .iter()
            .enumerate()
            .filter(|&(k, _)| keep[k])
            .filter_map(|(k, c)| c.map(|(x, m)| ((first + k as i64) as f64, x, m)))
            .collect();
        if points.len() < 2 {
            return fit;
        }
        let w: f64 = points.iter().map(|p| p.2).sum();
        let mk = points.iter().map(|p| p.2 * p.0).sum::<f64>() / w;
        let mx = points.iter().map(|p| p.2 * p.1).sum::<f64>() / w;
        let skk: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.0 - mk)).sum();
        let skx: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.1 - mx)).sum();
        if skk <= 0.0 {
            return fit;
        }
        let pitch = skx / skk;
        if (pitch - axis.pitch).abs() > 0.05 * axis.pitch {
            return fit;
        }
        fit = Axis {
            pitch,
            phase: mx - pitch * mk,
        };
        if round == 0 {
            for (k, c) in centres.iter().enumerate() {
                keep[k] =
                    c.is_some_and(|(x, _)| (x - fit.at((first + k as i64) as f64)).abs() <= 1.5);
            }
        }
    }
    fit
}

/// Most the borders' pitch may drift from the whole-pixel fit over the board (pixels) for the
/// whole-pixel fit to stand, exact, as on a screenshot at the game's own scale. Whole pixels
/// cannot show a drift under half a pixel (every boundary rounds to the pixel it would at the
/// whole pitch), yet copies of kinds that differ only by colour, read half a pixel apart, part
/// (seed 423: a frame rescaled to 44.07 px a row over 8 rows read as 44.00).
const WHOLE_PIXELS_DRIFT: f64 = 0.25;

/// How many times stronger a start's typical interior tooth must be than the best comb found
/// near the starts' for [`fine_comb`] to keep the start: on a small board a few interior teeth
/// may fall on the tiles' art (seed 35171, 4 rows: a start 1.7% off the pitch at 1.9 times).
const START_TEETH: f64 = 2.5;

/// The pitch and phase (within 1% and a fifth of a pitch of one of `starts`) whose comb of
/// `count + 1` teeth over the board collects the most edge: a centroid fit leans towards the
/// board's outer boundaries, which have an edge on one side only, while every tooth of the
/// right comb lands on a peak. Of the combs found near each start, the one whose typical
/// interior tooth is strongest is refined: the centroid fit can pull the pitch 2-3% off (a 3D
/// side or a gap weighs on one side of each boundary), where the comb that found the board
/// was right, and the other way round. A start whose typical interior tooth is over
/// [`START_TEETH`] times as strong as the best comb's stands in its place: on a sparse board
/// the search may end at the edge of its range, drawn by stray edges (seed 33067: 42.57 px
/// from a start at 43.00 px, the right pitch, whose interior teeth are 3.1 times as strong).
pub(super) fn fine_comb(
    profile: &[f32],
    signed: [&[f32]; 2],
    starts: &[Axis],
    first: i64,
    count: usize,
) -> Axis {
    let collect = |a: Axis| comb_sum(profile, a, (first, count), 0.0);
    // The typical interior tooth: the board's outer boundaries (and a panel's edge beside
    // them) can outweigh the rest in a sum.
    let interior_median = |a: Axis| -> f64 {
        let mut teeth: Vec<f64> = (1..count)
            .map(|k| f64::from(sample(profile, a.at((first + k as i64) as f64))))
            .collect();
        mean_median(&mut teeth).unwrap_or(0.0)
    };
    let search =
        |centre: Axis, pitch_span: f64, pitch_step: f64, phase_span: f64, phase_step: f64| {
            let mut best = (centre, collect(centre));
            let np = (pitch_span / pitch_step).round() as i64;
            let nq = (phase_span / phase_step).round() as i64;
            for i in -np..=np {
                let pitch = centre.pitch + i as f64 * pitch_step;
                // Keep the board's first boundary where it is while the pitch changes.
                let anchor = centre.at(first as f64) - pitch * first as f64;
                for j in -nq..=nq {
                    let a = Axis {
                        pitch,
                        phase: anchor + j as f64 * phase_step,
                    };
                    let v = collect(a);
                    if v > best.1 {
                        best = (a, v);
                    }
                }
            }
            best.0
        };
    // The refined start, given first, is often the start itself: search it once.
    let mut distinct = starts.to_vec();
    distinct.dedup();
    let best_by_teeth = |combs: &mut dyn Iterator<Item = Axis>| {
        combs
            .map(|a| (a, interior_median(a)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    };
    let searched = best_by_teeth(&mut distinct.iter().map(|&start| {
        search(
            start,
            0.01 * start.pitch,
            0.002 * start.pitch,
            0.2 * start.pitch,
            0.25,
        )
    }));
    let coarse = match (searched, best_by_teeth(&mut distinct.iter().copied())) {
        (Some((_, found)), Some((start, own))) if own > START_TEETH * found => start,
        (Some((comb, _)), _) => comb,
        _ => starts[0],
    };
    let fine = search(
        coarse,
        0.002 * coarse.pitch,
        0.0002 * coarse.pitch,
        0.5,
        0.05,
    );
    let registered = register_fit(profile, fine, first, count);
    let start = registered.map_or(fine, |(a, _)| a);
    match (registered, edge_fit(signed, start, first, count)) {
        // Whole pixels agree with the borders over the board: keep them exact.
        (Some((whole, true)), Some(edges))
            if (edges.pitch - whole.pitch).abs() * count as f64 <= WHOLE_PIXELS_DRIFT =>
        {
            whole
        }
        (_, Some(edges)) => edges,
        (_, None) => start,
    }
}

/// The pitch and phase that put the board's interior boundaries on a line (the outer
/// boundaries have an edge on one side only, or a 3D edge, and are left out).
///
/// A boundary is often several edges a pixel or two apart (an outline, a shadow, a gap) whose
/// strengths depend on which neighbours are present and on the brightness, so no single edge
/// or centroid marks every boundary at the same point. Instead:
/// 1. each boundary is put at its strongest edge near the comb's tooth and a robust line
///    (Theil-Sen) goes through them: most boundaries agree on one edge of the group and the
///    line ignores the rest;
/// 2. around that line each boundary is registered, at whole-pixel shifts, against the mean
///    shape of all of them (the whole group of edges); on a screenshot at the game's own
///    scale most then lie exactly on one robust line, which is the answer;
/// 3. otherwise (a rescaled screenshot, boundaries between pixels) the registration is
///    repeated twice on a smoothed profile to a fraction of a pixel.
///
/// `None` with fewer than two interior boundaries or when a fit leaves the comb by 1% or more.
pub(super) fn register_fit(
    profile: &[f32],
    axis: Axis,
    first: i64,
    count: usize,
) -> Option<(Axis, bool)> {
    if count < 3 || profile.len() < 3 {
        return None;
    }
    let reach = (0.04 * axis.pitch).max(2.0);
    let interior = |fit: Axis| -> Vec<(f64, f64)> {
        (1..count)
            .map(|k| {
                let kk = (first + k as i64) as f64;
                (kk, fit.at(kk))
            })
            .collect()
    };
    let line = |points: &[(f64, f64)]| {
        theil_sen(points)
            .filter(|&(pitch, _)| (pitch - axis.pitch).abs() < 0.01 * axis.pitch)
            .map(|(pitch, phase)| Axis { pitch, phase })
    };
    let peaks: Vec<(f64, f64)> = interior(axis)
        .into_iter()
        .filter_map(|(kk, guess)| Some((kk, strongest_near(profile, guess, reach)?)))
        .collect();
    let rough = line(&peaks).unwrap_or(axis);
    // On a screenshot at the game's own scale the boundaries sit on whole pixels: registered at
    // whole-pixel shifts, most lie exactly on one line, which is the answer.
    let whole = register(profile, &interior(rough), reach, false);
    let fit = line(&whole)?;
    let on_line = whole
        .iter()
        .filter(|&&(kk, x)| (x - fit.at(kk)).abs() < 0.05)
        .count();
    if 3 * on_line >= 2 * whole.len() {
        return Some((fit, true));
    }
    // A rescaled screenshot: boundaries fall between pixels; register to a fraction of one.
    let smoothed = smooth(&smooth(profile));
    let mut fit = fit;
    for _ in 0..2 {
        fit = line(&register(&smoothed, &interior(fit), reach, true))?;
    }
    Some((fit, false))
}

/// The pitch from every tile border on the board, to a fraction of a pixel. In each signed
/// profile (see [`signed_profiles`]) a tile's border sits at one offset from the boundary (read
/// from the profile folded at the pitch). The boundaries where that border is present are
/// registered against the mean shape of all of them (see [`register`]); a robust line (the
/// median of the slopes between borders of the same profile, a median intercept per profile)
/// drops the borders more than a third of a pixel off, and least squares through the rest, with
/// a common slope and an intercept per profile, gives the pitch. Each border is measured where it
/// is, whichever neighbours a tile has, and the slope comes from the whole extent of the board,
/// so a sparse board gets the pitch of a full one. The phase keeps `axis`'s boundary at the
/// board's middle (the tile span places the tiles afterwards).
///
/// `None` with fewer than three borders kept, or when the fit leaves `axis` by 1% or more.
pub(super) fn edge_fit(signed: [&[f32]; 2], axis: Axis, first: i64, count: usize) -> Option<Axis> {
    // (profile, k, position) of every border found.
    let points: Vec<(usize, f64, f64)> = signed
        .iter()
        .enumerate()
        .flat_map(|(class, raw)| {
            signed_borders(raw, axis, first, count)
                .into_iter()
                .map(move |(kk, x)| (class, kk, x))
        })
        .collect();
    let kept = borders_on_a_line(&points)?;
    let pitch = common_slope(&kept)?;
    if (pitch - axis.pitch).abs() >= 0.01 * axis.pitch {
        return None;
    }
    // The comb stays where `axis` put it at the board's middle.
    let mid = first as f64 + count as f64 / 2.0;
    Some(Axis {
        pitch,
        phase: axis.at(mid) - pitch * mid,
    })
}

/// The borders (boundary index, registered position) of one signed profile near the comb's
/// `count + 1` boundaries from `first`: the comb is shifted by up to 30% of a pitch to where
/// the profile's folded edge is strongest; a boundary counts where this border is present (a
/// tile on that side of it, at least 30% of the typical height), registered against the mean
/// shape of all of them.
fn signed_borders(raw: &[f32], axis: Axis, first: i64, count: usize) -> Vec<(f64, f64)> {
    let profile = peaks_only(raw, 4);
    if profile.len() < 3 {
        return Vec::new();
    }
    let folded = |t: f64| comb_sum(&profile, axis, (first, count), t);
    let steps = (0.3 * axis.pitch / 0.25) as i64;
    let Some(offset) = (-steps..=steps)
        .map(|i| i as f64 * 0.25)
        .max_by(|&a, &b| folded(a).total_cmp(&folded(b)))
    else {
        return Vec::new();
    };
    let near = (0.03 * axis.pitch).max(1.5);
    let present: Vec<(f64, f64, f32)> = (0..=count)
        .filter_map(|k| {
            let kk = (first + k as i64) as f64;
            let guess = axis.at(kk) + offset;
            let peak = strongest_near(&profile, guess, near)?;
            Some((kk, guess, profile[peak as usize]))
        })
        .collect();
    let mut heights: Vec<f64> = present.iter().map(|p| f64::from(p.2)).collect();
    let Some(typical) = mean_median(&mut heights) else {
        return Vec::new();
    };
    let boundaries: Vec<(f64, f64)> = present
        .iter()
        .filter(|p| f64::from(p.2) >= 0.3 * typical)
        .map(|p| (p.0, p.1))
        .collect();
    register(&smooth(&profile), &boundaries, near, true)
}

/// The borders (profile, k, position) within a third of a pixel of a robust line: the median
/// of the slopes between borders of the same profile, and each profile's median intercept.
/// `None` with fewer than three kept.
fn borders_on_a_line(points: &[(usize, f64, f64)]) -> Option<Vec<(usize, f64, f64)>> {
    let mut slopes: Vec<f64> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            if a.0 == b.0 && a.1 != b.1 {
                slopes.push((b.2 - a.2) / (b.1 - a.1));
            }
        }
    }
    let slope = mean_median(&mut slopes)?;
    let intercepts: Vec<Option<f64>> = (0..2)
        .map(|class| {
            let mut v: Vec<f64> = points
                .iter()
                .filter(|p| p.0 == class)
                .map(|p| p.2 - slope * p.1)
                .collect();
            mean_median(&mut v)
        })
        .collect();
    let kept: Vec<(usize, f64, f64)> = points
        .iter()
        .filter(|p| intercepts[p.0].is_some_and(|c| (c + slope * p.1 - p.2).abs() <= 1.0 / 3.0))
        .copied()
        .collect();
    (kept.len() >= 3).then_some(kept)
}

/// The least-squares slope through borders (profile, k, position) with a common slope and an
/// intercept per profile; `None` when all share one k.
fn common_slope(kept: &[(usize, f64, f64)]) -> Option<f64> {
    let means: Vec<(f64, f64)> = (0..2)
        .map(|class| {
            let (n, sk, sx) = kept
                .iter()
                .filter(|p| p.0 == class)
                .fold((0f64, 0f64, 0f64), |(n, sk, sx), p| {
                    (n + 1.0, sk + p.1, sx + p.2)
                });
            if n > 0.0 {
                (sk / n, sx / n)
            } else {
                (0.0, 0.0)
            }
        })
        .collect();
    let (skk, skx) = kept.iter().fold((0f64, 0f64), |(skk, skx), p| {
        let (mk, mx) = means[p.0];
        (skk + (p.1 - mk) * (p.1 - mk), skx + (p.1 - mk) * (p.2 - mx))
    });
    (skk > 0.0).then(|| skx / skk)
}

/// The index of the largest value of `profile` within `reach` of `centre` (ties to the one
/// nearer the centre); `None` when there is no edge there.
fn strongest_near(profile: &[f32], centre: f64, reach: f64) -> Option<f64> {
    let lo = (centre - reach).ceil().max(0.0) as usize;
    let hi = ((centre + reach).floor().max(0.0) as usize).min(profile.len().checked_sub(1)?);
    let i = (lo..=hi).max_by(|&a, &b| {
        profile[a].total_cmp(&profile[b]).then(
            (b as f64 - centre)
                .abs()
                .total_cmp(&(a as f64 - centre).abs()),
        )
    })?;
    (profile[i] > 0.0).then_some(i as f64)
}

/// Each boundary `(k, x)` moved to where the profile around it best matches the mean profile
/// around all of them: the correlation at whole-pixel shifts within `reach`, its peak placed to
/// a fraction of a pixel by a parabola when `subpixel` (give a smoothed profile then, so that a
/// boundary drawn between two pixels correlates as well as one on a pixel).
fn register(
    profile: &[f32],
    boundaries: &[(f64, f64)],
    reach: f64,
    subpixel: bool,
) -> Vec<(f64, f64)> {
    let at = |i: i64| -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| profile.get(i))
            .map_or(0.0, |&v| f64::from(v))
    };
    let half = (2.5 * reach).max(3.0).round() as i64;
    let shifts = reach.ceil() as i64;
    let shape: Vec<f64> = (-half..=half)
        .map(|t| {
            boundaries
                .iter()
                .map(|&(_, c)| at(c.round() as i64 + t))
                .sum::<f64>()
        })
        .collect();
    let correlation = |centre: i64| -> f64 {
        (-half..=half)
            .zip(&shape)
            .map(|(t, &w)| w * at(centre + t))
            .sum()
    };
    boundaries
        .iter()
        .map(|&(kk, c)| {
            let r = c.round() as i64;
            let scores: Vec<f64> = (-shifts..=shifts).map(|s| correlation(r + s)).collect();
            let best = (0..scores.len())
                .max_by(|&a, &b| {
                    scores[a]
                        .total_cmp(&scores[b])
                        // Ties (a flat correlation) go to the smallest shift.
                        .then((b as i64 - shifts).abs().cmp(&(a as i64 - shifts).abs()))
                })
                .unwrap_or(shifts as usize);
            let frac = if subpixel && best > 0 && best + 1 < scores.len() {
                parabola_vertex(scores[best - 1], scores[best], scores[best + 1])
            } else {
                0.0
            };
            (kk, (r + best as i64 - shifts) as f64 + frac)
        })
        .collect()
}

/// The line `x = phase + k * pitch` through `(k, x)` points by Theil-Sen: the median of the
/// pairwise slopes, then the median intercept. A boundary whose shape differs from the rest (a
/// tile beside an empty cell) can register a pixel off; a median ignores it where least squares
/// would lean towards it. `None` with fewer than two distinct `k`.
pub(super) fn theil_sen(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let mut slopes: Vec<f64> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            if b.0 != a.0 {
                slopes.push((b.1 - a.1) / (b.0 - a.0));
            }
        }
    }
    let slope = mean_median(&mut slopes)?;
    let mut intercepts: Vec<f64> = points.iter().map(|p| p.1 - slope * p.0).collect();
    Some((slope, mean_median(&mut intercepts)?))
}
