//! Tile templates: one picture per kind, so kind ids stay the same from frame to frame.
//!
//! [`read_board`](super::read_board) numbers kinds by first appearance, so the same face gets
//! another number once tiles are gone. A template folder (`templates/<game>/`, written by
//! `linkup calibrate --templates`) holds `K.png` for kind `K`, the whole tile as the game draws
//! it. [`Templates::relabel`] gives every kind of a reading the id of the template it matches;
//! kinds no template matches get fresh ids above the largest template id.
//!
//! Matching uses the classifier's own face comparison (normalised, shift tolerant, worst block),
//! sampled at sub-pixel offsets, so a selected, tinted or rescaled tile still matches its
//! template and near-duplicate faces stay apart. A kind takes its closest template when that is
//! clearly closer than the next (a ratio test) and close in absolute terms; each template goes to
//! at most one kind, closest pairs first. Before matching, the frame's tiles are framed as the
//! templates were: two calibrations of one game may place its 3D tiles on their faces in one
//! frame and on their bodies in another, a few pixels apart, so the cells are read where the
//! frame's typical tile (the per-pixel median of its tiles) lies over the templates' typical
//! tile (imageproc's template matching). Templates work best at the tile size they were cut at;
//! rescaled to another board size, most but not all faces are recognised (the rest get fresh
//! ids, never another face's).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use image::imageops::{FilterType, crop_imm, grayscale, resize};
use image::{GrayImage, RgbaImage};
use imageproc::template_matching::{MatchTemplateMethod, find_extremes, match_template};

use super::classify::{Face, faces_at};
use super::{ClassifierSettings, Geometry, Reading, VisionError};
use crate::board::{Board, EMPTY, Kind, Pos};

/// Most cells of one kind compared with the templates.
const SAMPLES_PER_KIND: usize = 1;

/// A match is at most this fraction of the typical distance between a kind and a template.
const MATCH_FRACTION: f32 = 0.5;

/// A match is closer than this fraction of the distance to the next best template.
const RATIO: f32 = 0.75;

/// Templates per kind compared at every sub-pixel offset.
const REFINED: usize = 4;

/// Sub-pixel offsets at which a template is sampled, both ways.
const STEPS: [f64; 3] = [-0.5, 0.0, 0.5];

/// Index of the unshifted sampling among a template's faces.
const CENTRE: usize = STEPS.len() * STEPS.len() / 2;

/// Most a frame's tiles may lie off the templates' framing, as a share of the tile's size each
/// way: a 3D side is up to 8% of a pitch, and one calibration may frame the faces where
/// another frames the bodies.
const MOST_SHIFT: f64 = 0.1;

/// Most tiles of a frame in its typical tile (spread over the board).
const TYPICAL_TILES: usize = 32;

/// Fewest tiles of a frame whose typical tile is framed against the templates'; with fewer
/// the frame is read where its geometry says.
const FEWEST_TYPICAL: usize = 4;

/// Tile pictures by kind id.
#[derive(Clone, Debug)]
pub struct Templates {
    /// Kind id and picture, in ascending id order.
    tiles: Vec<(Kind, RgbaImage)>,
    /// The folder they came from, for messages.
    source: PathBuf,
}

impl Templates {
    /// Templates from pictures (kind id, whole tile); `source` names them in messages.
    pub fn new(mut tiles: Vec<(Kind, RgbaImage)>, source: PathBuf) -> Templates {
        tiles.sort_by_key(|(kind, _)| *kind);
        Templates { tiles, source }
    }

    /// One template per kind of `board` (read from `image` at `geometry`): the first tile of
    /// each kind in row-major order.
    pub fn from_reading(image: &RgbaImage, geometry: &Geometry, board: &Board) -> Templates {
        let mut tiles: BTreeMap<Kind, RgbaImage> = BTreeMap::new();
        for pos in board.tile_positions() {
            tiles
                .entry(board.get(pos))
                .or_insert_with(|| tile_picture(image, geometry, pos));
        }
        Templates::new(tiles.into_iter().collect(), PathBuf::from("<reading>"))
    }

    /// Writes the templates to `dir` as `K.png`, creating the folder.
    pub fn save(&self, dir: &Path) -> Result<(), VisionError> {
        let bad = |file: &Path, what: String| VisionError::Template {
            file: file.to_path_buf(),
            what,
        };
        std::fs::create_dir_all(dir).map_err(|e| bad(dir, e.to_string()))?;
        for (kind, image) in &self.tiles {
            let path = dir.join(format!("{kind}.png"));
            image.save(&path).map_err(|e| bad(&path, e.to_string()))?;
        }
        Ok(())
    }

    /// How many templates there are.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Loads every `K.png` in `dir` (K a kind id from 1); other files are ignored.
    pub fn load(dir: &Path) -> Result<Templates, VisionError> {
        let bad = |file: &Path, what: String| VisionError::Template {
            file: file.to_path_buf(),
            what,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| bad(dir, e.to_string()))?;
        let mut tiles = BTreeMap::new();
        for entry in entries {
            let path = entry.map_err(|e| bad(dir, e.to_string()))?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("png") {
                continue;
            }
            let kind = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<Kind>().ok())
                .filter(|&k| k != EMPTY)
                .ok_or_else(|| {
                    bad(
                        &path,
                        "a template is named after its kind id: 1.png, 2.png, ...".into(),
                    )
                })?;
            let image = super::load_image(&path).map_err(|e| bad(&path, e.to_string()))?;
            if image.width() < 4 || image.height() < 4 {
                return Err(bad(&path, "the picture is too small for a tile".into()));
            }
            tiles.insert(kind, image);
        }
        if tiles.is_empty() {
            return Err(bad(dir, "no templates (K.png) in the folder".into()));
        }
        Ok(Templates::new(
            tiles.into_iter().collect(),
            dir.to_path_buf(),
        ))
    }

    /// The folder (or other source) the templates came from.
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// The kind ids that have a template, ascending.
    pub fn kinds(&self) -> Vec<Kind> {
        self.tiles.iter().map(|(k, _)| *k).collect()
    }

    /// Prepares the templates for frames read with `geometry` and `settings` (computes their
    /// faces at that tile size once).
    pub fn for_geometry(&self, geometry: &Geometry, settings: &ClassifierSettings) -> Matcher {
        let faces = self
            .tiles
            .iter()
            .map(|(kind, image)| (*kind, template_faces(image, geometry, settings)))
            .collect();
        let [w, h] = geometry.tile_size.map(|s| s.round().max(1.0) as u32);
        let sized: Vec<RgbaImage> = self
            .tiles
            .iter()
            .map(|(_, image)| {
                if image.dimensions() == (w, h) {
                    image.clone()
                } else {
                    resize(image, w, h, FilterType::Triangle)
                }
            })
            .collect();
        Matcher {
            faces,
            typical: median_picture(&sized).map(|p| grayscale(&p)),
            geometry: *geometry,
            settings: *settings,
        }
    }

    /// Renumbers `reading` with the template ids (see the module docs).
    pub fn relabel(
        &self,
        image: &RgbaImage,
        geometry: &Geometry,
        settings: &ClassifierSettings,
        reading: Reading,
    ) -> Reading {
        self.for_geometry(geometry, settings)
            .relabel(image, reading)
    }
}

/// Templates prepared for one geometry: their faces, ready to compare with a frame's cells.
#[derive(Clone, Debug)]
pub struct Matcher {
    /// Per template, its kind id and its faces at several sub-pixel offsets.
    faces: Vec<(Kind, Vec<Face>)>,
    /// The templates' typical tile at the frames' tile size (grey): what every tile shares.
    typical: Option<GrayImage>,
    geometry: Geometry,
    settings: ClassifierSettings,
}

impl Matcher {
    /// Renumbers `reading` (read from `image` with this matcher's geometry) with the template
    /// ids; kinds without a template get ids above the largest template id, in order of first
    /// appearance.
    pub fn relabel(&self, image: &RgbaImage, reading: Reading) -> Reading {
        let board = &reading.board;
        let mut samples: BTreeMap<Kind, Vec<Pos>> = BTreeMap::new();
        for pos in board.tile_positions() {
            let cells = samples.entry(board.get(pos)).or_default();
            if cells.len() < SAMPLES_PER_KIND {
                cells.push(pos);
            }
        }
        let kinds: Vec<Kind> = samples.keys().copied().collect();
        let cells: Vec<Pos> = samples.values().flatten().copied().collect();
        let geometry = self.framed_as_templates(image, board);
        let faces = faces_at(image, &geometry, &self.settings, &cells);
        // Coarse: every kind against every template at the template's own alignment (the
        // median sets the scale of unrelated faces). Fine: the closest few templates again at
        // every sub-pixel offset.
        let mut typical = Vec::with_capacity(kinds.len() * self.faces.len());
        let mut candidates: Vec<(f32, usize, usize)> = Vec::new();
        let mut offset = 0;
        for (k, kind) in kinds.iter().enumerate() {
            let own = &faces[offset..offset + samples[kind].len()];
            offset += own.len();
            let distance = |template: &[Face]| {
                own.iter()
                    .flat_map(|f| template.iter().map(move |t| f.centred_distance(t)))
                    .fold(f32::MAX, f32::min)
            };
            let mut coarse: Vec<(f32, usize)> = self
                .faces
                .iter()
                .enumerate()
                .map(|(t, (_, template))| (distance(&template[CENTRE..=CENTRE]), t))
                .collect();
            typical.extend(coarse.iter().map(|c| c.0));
            coarse.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut fine: Vec<(f32, usize)> = coarse
                .iter()
                .take(REFINED)
                .map(|&(_, t)| (distance(&self.faces[t].1), t))
                .collect();
            fine.sort_by(|a, b| a.0.total_cmp(&b.0));
            let second = fine.get(1).map_or(f32::MAX, |f| f.0);
            if let Some(&(best, t)) = fine.first().filter(|f| f.0 < RATIO * second) {
                candidates.push((best, k, t));
            }
        }
        // A kind's best template is a match when it is clearly the best (closer than `RATIO`
        // times the runner-up) and close in absolute terms (a fraction of the typical distance
        // between unrelated faces); each template goes to one kind, closest first.
        let limit = MATCH_FRACTION * crate::stats::median(&mut typical).unwrap_or(0.0);
        candidates.retain(|c| c.0 < limit);
        candidates.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut id_of: Vec<Option<Kind>> = vec![None; kinds.len()];
        let mut taken = vec![false; self.faces.len()];
        for &(_, k, t) in &candidates {
            if !taken[t] {
                id_of[k] = Some(self.faces[t].0);
                taken[t] = true;
            }
        }
        let largest = self.faces.iter().map(|(k, _)| *k).max().unwrap_or(0);
        Reading {
            board: renumbered(board, (&kinds, &id_of), largest),
            ..reading
        }
    }

    /// This matcher's geometry moved by whole pixels to where the typical tile of `board`'s
    /// tiles in `image` lies best over the templates' typical tile (least sum of squared
    /// differences, up to [`MOST_SHIFT`] of the tile each way); unmoved with fewer than
    /// [`FEWEST_TYPICAL`] tiles wholly in the image or where the move would leave it.
    fn framed_as_templates(&self, image: &RgbaImage, board: &Board) -> Geometry {
        let geometry = self.geometry;
        let Some(typical) = &self.typical else {
            return geometry;
        };
        let reach = geometry
            .tile_size
            .map(|s| (MOST_SHIFT * s).ceil().max(1.0) as u32);
        let (w, h) = (
            typical.width() + 2 * reach[0],
            typical.height() + 2 * reach[1],
        );
        let tiles: Vec<Pos> = board.tile_positions().collect();
        let every = tiles.len().div_ceil(TYPICAL_TILES).max(1);
        let windows: Vec<RgbaImage> = tiles
            .iter()
            .step_by(every)
            .filter_map(|&pos| {
                let r = geometry.cell_rect(pos);
                let x = r.x.round() as i64 - i64::from(reach[0]);
                let y = r.y.round() as i64 - i64::from(reach[1]);
                let inside = x >= 0
                    && y >= 0
                    && x + i64::from(w) <= i64::from(image.width())
                    && y + i64::from(h) <= i64::from(image.height());
                inside.then(|| crop_imm(image, x as u32, y as u32, w, h).to_image())
            })
            .collect();
        if windows.len() < FEWEST_TYPICAL {
            return geometry;
        }
        let Some(frame) = median_picture(&windows) else {
            return geometry;
        };
        let scores = match_template(
            &grayscale(&frame),
            typical,
            MatchTemplateMethod::SumOfSquaredErrors,
        );
        let (x, y) = find_extremes(&scores).min_value_location;
        let moved = Geometry {
            origin: [
                geometry.origin[0] + f64::from(x) - f64::from(reach[0]),
                geometry.origin[1] + f64::from(y) - f64::from(reach[1]),
            ],
            ..geometry
        };
        if moved.fits(image.width(), image.height()) {
            moved
        } else {
            geometry
        }
    }
}

/// `board` with each of its `kinds` (ascending) given its template id (`id_of`, by the kind's
/// index), and those with none fresh ids above `largest`, in order of first appearance.
fn renumbered(board: &Board, (kinds, id_of): (&[Kind], &[Option<Kind>]), largest: Kind) -> Board {
    let mut next = largest;
    let mut renamed: BTreeMap<Kind, Kind> = BTreeMap::new();
    for pos in board.tile_positions() {
        let kind = board.get(pos);
        let k = kinds.binary_search(&kind).expect("every kind was sampled");
        renamed.entry(kind).or_insert_with(|| {
            id_of[k].unwrap_or_else(|| {
                next += 1;
                next
            })
        });
    }
    let mut relabelled = board.clone();
    for pos in board.tile_positions() {
        relabelled.set(pos, renamed[&board.get(pos)]);
    }
    relabelled
}

/// The per-pixel, per-channel median of `pictures`, all of the first one's size; `None` when
/// there are none.
fn median_picture(pictures: &[RgbaImage]) -> Option<RgbaImage> {
    let (w, h) = pictures.first()?.dimensions();
    let mut colours: Vec<[u8; 3]> = Vec::with_capacity(pictures.len());
    Some(RgbaImage::from_fn(w, h, |x, y| {
        colours.clear();
        colours.extend(pictures.iter().map(|p| {
            let c = p.get_pixel(x, y).0;
            [c[0], c[1], c[2]]
        }));
        let [r, g, b] = super::features::median_colour(&colours);
        image::Rgba([r, g, b, 255])
    }))
}

/// The pixels of the tile at `pos` (its rectangle rounded to whole pixels, clipped to the image).
pub fn tile_picture(image: &RgbaImage, geometry: &Geometry, pos: Pos) -> RgbaImage {
    let r = geometry.cell_rect(pos);
    let (x, y) = (r.x.round().max(0.0) as u32, r.y.round().max(0.0) as u32);
    let w = (r.w.round() as u32).min(image.width().saturating_sub(x));
    let h = (r.h.round() as u32).min(image.height().saturating_sub(y));
    image::imageops::crop_imm(image, x, y, w, h).to_image()
}

/// The faces of a template picture, sampled as a tile of `geometry`'s size (the picture is
/// rescaled first when the game now draws its tiles at another size).
fn template_faces(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> Vec<Face> {
    let [w, h] = geometry.tile_size;
    // The faces are sampled at the frame's tile size (so they have the frame's bins); a
    // picture more than a pixel off that size is rescaled first.
    let close = |have: u32, want: f64| (f64::from(have) - want).abs() <= 1.0;
    let scaled;
    let picture = if close(image.width(), w) && close(image.height(), h) {
        image
    } else {
        let pixels = |v: f64| v.round().max(1.0) as u32;
        scaled = resize(image, pixels(w), pixels(h), FilterType::Triangle);
        &scaled
    };
    // The picture was cut at whole pixels, the frame's cells lie at fractional ones: sample
    // the template at sub-pixel offsets and keep every sampling.
    let cells = vec![Pos::new(0, 0)];
    STEPS
        .iter()
        .flat_map(|&dy| STEPS.iter().map(move |&dx| (dx, dy)))
        .map(|(dx, dy)| {
            let tile = Geometry {
                rows: 1,
                cols: 1,
                origin: [dx, dy],
                pitch: [w, h],
                tile_size: [w, h],
            };
            faces_at(picture, &tile, settings, &cells)
                .pop()
                .expect("one cell asked, one face")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::read_board;
    use crate::vision::test_pictures::patterned_tiles;

    #[test]
    fn a_frame_framed_a_few_pixels_off_is_read_where_the_templates_were_cut() {
        let kinds = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];
        let image = patterned_tiles(&kinds, (60, 50), (300, 260));
        let settings = ClassifierSettings::default();
        let cut_at = Geometry {
            rows: 4,
            cols: 4,
            origin: [62.0, 52.0],
            pitch: [40.0, 40.0],
            tile_size: [36.0, 36.0],
        };
        let first = read_board(&image, &cut_at, &settings).unwrap();
        let templates = Templates::from_reading(&image, &cut_at, &first.board);
        // Another calibration framed the same tiles 3 px right and 2 px down.
        let off = Geometry {
            origin: [65.0, 54.0],
            ..cut_at
        };
        let matcher = templates.for_geometry(&off, &settings);
        let later = read_board(&image, &off, &settings).unwrap();
        assert_eq!(matcher.framed_as_templates(&image, &later.board), cut_at);
        let relabelled = matcher.relabel(&image, later);
        assert_eq!(relabelled.board, first.board);
        // Framed as the templates were, the frame stays where it is.
        let same = templates.for_geometry(&cut_at, &settings);
        assert_eq!(same.framed_as_templates(&image, &first.board), cut_at);
    }
}
