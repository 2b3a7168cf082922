//! Where the tiles' pictures lie in their cells, measured tile by tile.
//!
//! Every tile of a set is the same body and face with a different picture, and tilesets draw
//! the picture centred on the face. A tile's picture is where it differs both from the typical
//! tile (the per-pixel median over the board's cells: the shared body, side and face) and from
//! its own ground (the commonest colour of its middle: a flat tile's own colour, when kinds
//! differ by colour). The middle of the picture's extent, grown from the cell's middle, is that
//! tile's face centre. Pictures differ in size and shape, but their extents share one centre:
//! the median over the tiles gives the face's centre, where a fold of the picture energy over
//! the board is pulled by lopsided pictures (a letter heavier on one side, a bamboo's stalks).

use image::RgbaImage;

use crate::stats::median;

use super::features::commonest_bin;

/// Most cells sampled (spread over the board).
const MOST_CELLS: usize = 96;

/// Smallest colour step (sum over the three channels) between a tile's pixel and the typical
/// tile's, and between it and the tile's own ground, for it to count as part of the tile's
/// picture: above JPEG noise and the jitter of a rescaled frame, below the contrast of any
/// drawn picture.
const PICTURE_STEP: i32 = 60;

/// Fewest picture pixels a column (row) of a cell must hold to count as drawn: a stray pixel
/// of noise is not a picture.
const DRAWN_PIXELS: u32 = 2;

/// Widest run of undrawn columns (rows), as a share of the pitch, a picture may hold inside it
/// (the space between a bamboo's stalks); a wider one parts the picture from what lies beyond
/// its face (the gap, where a photo background changes from cell to cell).
const HOLE: f64 = 0.08;

/// Fewest tiles whose pictures must be measured for their centre to count.
const FEWEST_TILES: usize = 4;

/// The tiles' pictures' centre and how well the tiles agree on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PictureCentre {
    /// Image coordinates (x, y) of the centre in the board's first cell.
    pub centre: [f64; 2],
    /// The median distance (x, y; pixels) of the tiles' own picture centres from it.
    pub spread: [f64; 2],
}

/// One sampled cell: its top-left pixel, and how far that lies from the cell's true start.
#[derive(Clone, Copy)]
struct Cell {
    pixel: [i64; 2],
    shift: [f64; 2],
}

/// The pictures' centre in cell (`first_row`, `first_col`) of the lattice `x` (phase, pitch)
/// by `y` (a profile index i is the step between pixels i and i + 1: a boundary at phase p
/// lies at p + 1), from up to [`MOST_CELLS`] of its `cols` by `rows` cells. `None` when the
/// pitch is under 8 pixels or fewer than a quarter of the cells (and [`FEWEST_TILES`]) show a
/// picture apart from the cell's edges.
pub(super) fn picture_centre(
    image: &RgbaImage,
    x: (f64, f64),
    y: (f64, f64),
    first_col_and_cols: (i64, usize),
    first_row_and_rows: (i64, usize),
) -> Option<PictureCentre> {
    let (first, bins, cells) = lattice_cells(image, x, y, first_col_and_cols, first_row_and_rows)?;
    let typical = typical_tile(image, &cells, bins);
    let holes = [(HOLE * x.1).ceil() as usize, (HOLE * y.1).ceil() as usize];
    let centres: Vec<[f64; 2]> = cells
        .iter()
        .filter_map(|cell| own_picture_centre(image, cell, &typical, bins, holes))
        .collect();
    agreed_centre(first, &centres, cells.len())
}

/// The first cell's corner (image coordinates), the cells' size in whole pixels and the
/// sampled cells (see [`sampled_cells`]) of the lattice `x` by `y` over the board's cells, as
/// [`picture_centre`] takes them; `None` when the pitch is under 8 pixels or fewer than
/// [`FEWEST_TILES`] cells lie in the image.
fn lattice_cells(
    image: &RgbaImage,
    x: (f64, f64),
    y: (f64, f64),
    (first_col, cols): (i64, usize),
    (first_row, rows): (i64, usize),
) -> Option<([f64; 2], [usize; 2], Vec<Cell>)> {
    let bins = [x.1.round() as usize, y.1.round() as usize];
    if bins[0] < 8 || bins[1] < 8 {
        return None;
    }
    let first = [
        x.0 + first_col as f64 * x.1 + 1.0,
        y.0 + first_row as f64 * y.1 + 1.0,
    ];
    let cells = sampled_cells(image, first, [x.1, y.1], (cols, rows), bins);
    (cells.len() >= FEWEST_TILES).then_some((first, bins, cells))
}

/// The median of the tiles' own `centres` (offsets from their cells' true start) placed in
/// the first cell at `first`, and their spread; `None` when fewer than a quarter of the
/// `sampled` cells (and [`FEWEST_TILES`]) gave one.
fn agreed_centre(first: [f64; 2], centres: &[[f64; 2]], sampled: usize) -> Option<PictureCentre> {
    if centres.len() < FEWEST_TILES.max(sampled / 4) {
        return None;
    }
    let middle_and_spread = |axis: usize| {
        let mut v: Vec<f64> = centres.iter().map(|c| c[axis]).collect();
        let m = median(&mut v).unwrap_or(0.0);
        let mut d: Vec<f64> = v.iter().map(|c| (c - m).abs()).collect();
        (m, median(&mut d).unwrap_or(0.0))
    };
    let (mx, sx) = middle_and_spread(0);
    let (my, sy) = middle_and_spread(1);
    Some(PictureCentre {
        centre: [first[0] + mx, first[1] + my],
        spread: [sx, sy],
    })
}

/// Largest colour step (sum over the three channels) between a pixel and a tile's own ground
/// for the pixel to be ground: JPEG noise and the shading of a face stay under it, a 3D side
/// or the gap beside the face do not.
const GROUND_STEP: i32 = 40;

/// Share of a cell's rows (columns) a column (row) must hold of the tile's own ground to be
/// part of the face: a picture leaves margins of ground above and below it on every column.
const FACE_GROUND: f64 = 0.1;

/// The faces' centre in cell (`first_row`, `first_col`), as [`picture_centre`] but from the
/// extent of each tile's own ground (the face a picture is drawn on) rather than of its
/// picture: the ground runs edge to edge of the face and stops at a 3D side, a frame or the
/// gap. `None` as for [`picture_centre`], and when the ground reaches the cell's edges
/// (tiles that touch, with no side: the span places them).
pub(super) fn face_centre(
    image: &RgbaImage,
    x: (f64, f64),
    y: (f64, f64),
    first_col_and_cols: (i64, usize),
    first_row_and_rows: (i64, usize),
) -> Option<PictureCentre> {
    let (first, bins, cells) = lattice_cells(image, x, y, first_col_and_cols, first_row_and_rows)?;
    let holes = [(HOLE * x.1).ceil() as usize, (HOLE * y.1).ceil() as usize];
    let least = [
        ((FACE_GROUND * bins[1] as f64).ceil() as u32).max(DRAWN_PIXELS),
        ((FACE_GROUND * bins[0] as f64).ceil() as u32).max(DRAWN_PIXELS),
    ];
    let centres: Vec<[f64; 2]> = cells
        .iter()
        .filter_map(|cell| own_face_centre(image, cell, bins, holes, least))
        .collect();
    agreed_centre(first, &centres, cells.len())
}

/// The centre (offsets from the cell's true start) of the face of `cell`: the run of columns
/// and of rows holding at least `least` pixels within [`GROUND_STEP`] of the cell's own ground
/// (see [`extent_centre`]).
fn own_face_centre(
    image: &RgbaImage,
    cell: &Cell,
    bins: [usize; 2],
    holes: [usize; 2],
    least: [u32; 2],
) -> Option<[f64; 2]> {
    let own = own_ground(image, cell, bins);
    extent_centre(image, cell, (bins, holes, least), |colour, _| {
        step(colour, own) <= GROUND_STEP
    })
}

/// Up to [`MOST_CELLS`] of the `cols` by `rows` cells from `first` (image coordinates of the
/// first cell's corner) at `pitch`, spread over the board, each `bins` big and wholly in the
/// image.
fn sampled_cells(
    image: &RgbaImage,
    first: [f64; 2],
    pitch: [f64; 2],
    (cols, rows): (usize, usize),
    bins: [usize; 2],
) -> Vec<Cell> {
    let (w, h) = (i64::from(image.width()), i64::from(image.height()));
    let total = rows * cols;
    let step = total.div_ceil(MOST_CELLS).max(1);
    (0..total)
        .step_by(step)
        .filter_map(|i| {
            let start = [
                first[0] + (i % cols) as f64 * pitch[0],
                first[1] + (i / cols) as f64 * pitch[1],
            ];
            let pixel = [start[0].round() as i64, start[1].round() as i64];
            let inside = pixel[0] >= 0
                && pixel[1] >= 0
                && pixel[0] + bins[0] as i64 <= w
                && pixel[1] + bins[1] as i64 <= h;
            inside.then(|| Cell {
                pixel,
                shift: [pixel[0] as f64 - start[0], pixel[1] as f64 - start[1]],
            })
        })
        .collect()
}

/// The pixel at offset (`i`, `j`) of `cell` (inside the image, as [`sampled_cells`] keeps).
fn pixel_at(image: &RgbaImage, cell: &Cell, i: usize, j: usize) -> [u8; 3] {
    let x = cell.pixel[0] as usize + i;
    let y = cell.pixel[1] as usize + j;
    let at = (y * image.width() as usize + x) * 4;
    let raw = image.as_raw();
    [raw[at], raw[at + 1], raw[at + 2]]
}

/// Sum over the channels of the steps between two colours.
fn step(a: [i32; 3], b: [i32; 3]) -> i32 {
    (0..3).map(|k| (a[k] - b[k]).abs()).sum()
}

/// The centre (offsets from the cell's true start, x and y) of the picture of `cell`: the run
/// of drawn columns and of drawn rows of the pixels at least [`PICTURE_STEP`] from both the
/// `typical` tile and the cell's own ground (see [`extent_centre`]).
fn own_picture_centre(
    image: &RgbaImage,
    cell: &Cell,
    typical: &[[u8; 3]],
    bins: [usize; 2],
    holes: [usize; 2],
) -> Option<[f64; 2]> {
    let own = own_ground(image, cell, bins);
    let least = [DRAWN_PIXELS; 2];
    extent_centre(image, cell, (bins, holes, least), |colour, at| {
        let shared = typical[at].map(i32::from);
        step(colour, shared) >= PICTURE_STEP && step(colour, own) >= PICTURE_STEP
    })
}

/// The centre (offsets from the cell's true start, x and y) of the pixels of `cell` that
/// `counts` (given the colour and the index in the cell, row-major): the run of columns and of
/// rows holding at least `least` such pixels, grown from the middle across `holes` (see
/// [`drawn_extent`]), over the cell's `bins`. `None` when either run reaches the cell's edge
/// or none is found.
fn extent_centre(
    image: &RgbaImage,
    cell: &Cell,
    (bins, holes, least): ([usize; 2], [usize; 2], [u32; 2]),
    counts: impl Fn([i32; 3], usize) -> bool,
) -> Option<[f64; 2]> {
    let mut columns = vec![0u32; bins[0]];
    let mut lines = vec![0u32; bins[1]];
    for (j, line) in lines.iter_mut().enumerate() {
        for (i, column) in columns.iter_mut().enumerate() {
            let colour = pixel_at(image, cell, i, j).map(i32::from);
            if counts(colour, j * bins[0] + i) {
                *column += 1;
                *line += 1;
            }
        }
    }
    let (x0, x1) = drawn_extent(&columns, holes[0], least[0])?;
    let (y0, y1) = drawn_extent(&lines, holes[1], least[1])?;
    // Pixel k covers k..k + 1 from the cell's top-left pixel.
    Some([
        (x0 + x1 + 1) as f64 / 2.0 + cell.shift[0],
        (y0 + y1 + 1) as f64 / 2.0 + cell.shift[1],
    ])
}

/// The commonest colour (see [`commonest_bin`], its mean) of the middle 70% of `cell`, every
/// other pixel each way (a ground's commonest colour needs no more): the tile's own ground,
/// which its picture is drawn on (a mahjong tile's face, a flat tile's colour).
fn own_ground(image: &RgbaImage, cell: &Cell, bins: [usize; 2]) -> [i32; 3] {
    let middle = (bins[1] * 3 / 20..bins[1] * 17 / 20)
        .step_by(2)
        .flat_map(|j| {
            (bins[0] * 3 / 20..bins[0] * 17 / 20)
                .step_by(2)
                .map(move |i| (i, j))
        })
        .map(|(i, j)| pixel_at(image, cell, i, j));
    match commonest_bin(middle) {
        Some((sums, n)) => std::array::from_fn(|k| (sums[k] / n) as i32),
        None => [0; 3],
    }
}

/// The per-pixel, per-channel median of `cells` over a `bins` window: the body, side and face
/// that all tiles share (and, on a sparse board, the background).
fn typical_tile(image: &RgbaImage, cells: &[Cell], bins: [usize; 2]) -> Vec<[u8; 3]> {
    let mut values: [Vec<u8>; 3] = std::array::from_fn(|_| Vec::with_capacity(cells.len()));
    let mut typical = Vec::with_capacity(bins[0] * bins[1]);
    for j in 0..bins[1] {
        for i in 0..bins[0] {
            values.iter_mut().for_each(Vec::clear);
            for cell in cells {
                let p = pixel_at(image, cell, i, j);
                for k in 0..3 {
                    values[k].push(p[k]);
                }
            }
            typical.push(std::array::from_fn(|k| median(&mut values[k]).unwrap_or(0)));
        }
    }
    typical
}

/// The first and last drawn index (holding at least `least`) of the run grown from
/// the drawn index nearest the middle of `counts`, across holes of at most `hole` undrawn
/// indices; `None` when nothing is drawn in the middle half (a cell's picture lies round its
/// middle: a line drawn along the cell's edge, the grid of an empty cell, is none) or the run
/// reaches either end (it is not apart from the cell's edge).
fn drawn_extent(counts: &[u32], hole: usize, least: u32) -> Option<(usize, usize)> {
    let n = counts.len();
    let drawn = |i: usize| counts[i] >= least;
    let middle = n / 2;
    let seed = (0..=n / 4)
        .flat_map(|d| [middle.checked_sub(d), Some(middle + d)])
        .flatten()
        .find(|&i| i < n && drawn(i))?;
    let (mut lo, mut hi) = (seed, seed);
    while let Some(i) = (1..=hole + 1)
        .map_while(|d| lo.checked_sub(d))
        .find(|&i| drawn(i))
    {
        lo = i;
    }
    while let Some(i) = (1..=hole + 1)
        .map(|d| hi + d)
        .take_while(|&i| i < n)
        .find(|&i| drawn(i))
    {
        hi = i;
    }
    (lo > 0 && hi < n - 1).then_some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn a_drawn_run_spans_small_holes_and_stops_at_wide_ones() {
        //            0  1  2  3  4  5  6  7  8  9 10 11
        let counts = [5, 5, 0, 0, 0, 3, 0, 4, 4, 0, 0, 0];
        assert_eq!(drawn_extent(&counts, 1, DRAWN_PIXELS), Some((5, 8)));
        assert_eq!(
            drawn_extent(&counts, 3, DRAWN_PIXELS),
            None,
            "reaches the first column"
        );
        assert_eq!(drawn_extent(&[0; 12], 1, DRAWN_PIXELS), None);
        // A line along the cell's edge with nothing in the middle (seed 23313: the grid
        // lines of a sparse board's empty cells) is no picture.
        assert_eq!(
            drawn_extent(&[0, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0], 1, DRAWN_PIXELS),
            None
        );
        // A stray pixel is not drawn.
        assert_eq!(
            drawn_extent(&[0, 0, 0, 1, 0, 6, 6, 0, 0, 0], 1, DRAWN_PIXELS),
            Some((5, 6))
        );
    }

    /// A board of 4 x 6 tiles 40 x 50 at pitch 44 x 54 from (20, 30): each body a 6 px dark
    /// side on the left and a light face, a picture on the face lopsided (an L: a thick bar
    /// and a thin foot) and of a size that changes with the kind, its bounding box centred on
    /// the face.
    fn board_of_lopsided_pictures() -> RgbaImage {
        let mut image = RgbaImage::from_pixel(320, 280, Rgba([30, 90, 40, 255]));
        for r in 0..4u32 {
            for c in 0..6u32 {
                let (x0, y0) = (20 + c * 44, 30 + r * 54);
                for y in y0..y0 + 50 {
                    for x in x0..x0 + 40 {
                        let side = x < x0 + 6;
                        let colour = if side {
                            [120, 100, 60]
                        } else {
                            [235, 230, 210]
                        };
                        image.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
                    }
                }
                // The face is x0 + 6 .. x0 + 40: centre x0 + 23, y0 + 25.
                let half = [6 + 3 * ((r * 6 + c) % 4), 8 + 3 * ((r * 6 + c) % 5)];
                let (cx, cy) = (x0 + 23, y0 + 25);
                let ink = Rgba([200, 20, 20, 255]);
                // A thick bar down the left of the box, and a foot two pixels high along its
                // bottom.
                for y in cy - half[1]..cy + half[1] {
                    for x in cx - half[0]..cx - half[0] + 4 {
                        image.put_pixel(x, y, ink);
                    }
                }
                for y in cy + half[1] - 2..cy + half[1] {
                    for x in cx - half[0]..cx + half[0] {
                        image.put_pixel(x, y, ink);
                    }
                }
            }
        }
        image
    }

    #[test]
    fn the_pictures_centre_is_the_middle_of_their_extents_not_of_their_ink() {
        let image = board_of_lopsided_pictures();
        // Boundaries at phase + k * pitch; a cell starts a pixel after its boundary.
        let found = picture_centre(&image, (19.0, 44.0), (29.0, 54.0), (0, 6), (0, 4)).unwrap();
        assert!((found.centre[0] - 43.0).abs() < 0.26, "{found:?}");
        assert!((found.centre[1] - 55.0).abs() < 0.26, "{found:?}");
        assert!(found.spread[0] < 0.6 && found.spread[1] < 0.6, "{found:?}");
    }

    #[test]
    fn the_faces_centre_is_the_middle_of_their_ground() {
        let mut image = board_of_lopsided_pictures();
        // A dark line along each tile's top and bottom: the face is x0 + 6 .. x0 + 40 by
        // y0 + 2 .. y0 + 48, centred where the pictures are.
        for r in 0..4u32 {
            for c in 0..6u32 {
                let (x0, y0) = (20 + c * 44, 30 + r * 54);
                for x in x0..x0 + 40 {
                    for y in [y0, y0 + 1, y0 + 48, y0 + 49] {
                        image.put_pixel(x, y, Rgba([60, 50, 30, 255]));
                    }
                }
            }
        }
        let found = face_centre(&image, (19.0, 44.0), (29.0, 54.0), (0, 6), (0, 4)).unwrap();
        assert!((found.centre[0] - 43.0).abs() < 0.26, "{found:?}");
        assert!((found.centre[1] - 55.0).abs() < 0.26, "{found:?}");
        // Without the lines the ground reaches the cells' top edge: no centre.
        let plain = board_of_lopsided_pictures();
        assert_eq!(
            face_centre(&plain, (19.0, 44.0), (29.0, 54.0), (0, 6), (0, 4)),
            None
        );
    }

    #[test]
    fn pictures_that_touch_the_cell_edges_give_no_centre() {
        // Stripes across whole cells: nothing is apart from the cells' edges.
        let image = RgbaImage::from_fn(320, 280, |x, _| {
            if (x / 3) % 2 == 0 {
                Rgba([0, 0, 0, 255])
            } else {
                Rgba([255, 255, 255, 255])
            }
        });
        assert_eq!(
            picture_centre(&image, (19.0, 44.0), (29.0, 54.0), (0, 6), (0, 4)),
            None
        );
    }
}
