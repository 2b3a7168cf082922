//! Tests of classification, on drawn boards.

use crate::board::Pos;
use crate::vision::features::rgb_distance;

use super::*;

/// Issue 11 (seed 850: flat tiles on a busy textured panel with a thin margin, a smooth
/// wallpaper round it): the texture of an empty cell is the panel's, not a drawing, so
/// the empty cells stay empty.
#[test]
fn an_empty_cell_on_a_textured_panel_is_no_drawn_tile() {
    // 4 x 4 cells of 40 px from (40, 40), tiles 36 px of the kinds of KINDS_4X4; the panel
    // reaches 3 px past them.
    let img = diamonds_4x4(white_diamond, |x, y, fx, fy| {
        if (-1..161).contains(&fx) && (-1..161).contains(&fy) {
            // A busy pink texture: a hash of the position, 40 levels deep.
            let h = speckle(x, y);
            let l = 180 + h as u8;
            return [l, l - 60, l - 30];
        }
        [225, 220, 190]
    });
    let (origin, tile) = (42.0, 36.0);
    assert_empties_read(&img, origin, tile, &KINDS_4X4);
}

/// Issue 11 (seed 19302: touching tiles on a dark panel, a light page round it, and a
/// quarter of the kinds with faces in the page's very colour): an empty cell shows the
/// panel, so a face mostly in the page's colour, with a drawing on it, is a tile.
#[test]
fn a_tile_in_the_colour_round_the_panel_is_no_empty_cell() {
    // 4 x 4 cells of 40 px from (40, 40), each tile the whole cell with black strokes
    // 2 px wide across it, 10 px apart (a fifth of the face, reaching its edges, so that
    // its middle shows nothing the edge does not); kinds 1 and 3 in the page's mint,
    // the panel, a busy texture busier than the strokes, reaching 6 px past the board.
    const MINT: [u8; 3] = [160, 235, 200];
    let colours = [MINT, [40, 90, 210], MINT, [230, 190, 30]];
    let kinds = [[1, 0, 2, 0], [0, 3, 0, 4], [2, 0, 1, 0], [0, 4, 0, 3]];
    let img = RgbaImage::from_fn(240, 240, |x, y| {
        let (fx, fy) = (i64::from(x) - 40, i64::from(y) - 40);
        if (0..160).contains(&fx) && (0..160).contains(&fy) {
            let kind = kinds[(fy / 40) as usize][(fx / 40) as usize];
            let (u, v) = (fx % 40, fy % 40);
            if kind > 0 {
                let stroke = if kind % 2 == 1 { u } else { v };
                let [r, g, b] = if stroke % 10 < 2 {
                    [10, 10, 10]
                } else {
                    colours[kind - 1]
                };
                return image::Rgba([r, g, b, 255]);
            }
        }
        if (-6..166).contains(&fx) && (-6..166).contains(&fy) {
            // A busy dark texture: a hash of the position, 40 levels deep.
            let h = speckle(x, y);
            let l = 40 + h as u8;
            return image::Rgba([l, l - 20, l + 10, 255]);
        }
        image::Rgba([MINT[0], MINT[1], MINT[2], 255])
    });
    assert_empties_read(&img, 40.0, 40.0, &kinds);
}

/// Issue 11 (seed 394: a waterfall in a photo behind the board): a cell read as a tile
/// whose face shows only the gap's colours, with no drawing, is empty; a drawn tile and a
/// blank tile one colour bin from the gap's colour stay tiles.
#[test]
fn a_cell_showing_only_its_gap_is_empty() {
    // One row of five cells, pitch 40, tiles 32 (4 px of gap each side), on grey 128.
    let img = RgbaImage::from_fn(260, 90, |x, y| {
        let (px, py) = (f64::from(x) - 20.0, f64::from(y) - 20.0);
        let col = (px / 40.0).floor() as i32;
        let (tx, ty) = (px - 40.0 * f64::from(col) - 4.0, py - 4.0);
        let in_tile = (0.0..32.0).contains(&tx) && (0.0..32.0).contains(&ty);
        let in_pitch_box = (0.0..40.0).contains(&py) && (0..5).contains(&col);
        match col {
            // A patch of blue behind cell 2 that the band round the board never shows.
            2 if in_pitch_box => image::Rgba([40, 90, 200, 255]),
            // A blank tile of grey 116: one colour bin below the gap's 128.
            3 if in_tile => image::Rgba([116, 116, 116, 255]),
            // Drawn tiles: red with white stripes.
            0 | 1 | 4 if in_tile => {
                if (tx as i32 / 4) % 2 == 0 {
                    image::Rgba([255, 255, 255, 255])
                } else {
                    image::Rgba([200, 30, 30, 255])
                }
            }
            _ => image::Rgba([128, 128, 128, 255]),
        }
    });
    assert_eq!(
        tiles_left_in_a_row(&img, 24.0, 32.0),
        [true, true, false, true, true]
    );
}

/// Issue 11 (seed 752: flat tiles 4 px apart on a pink panel, a blank-faced kind in the
/// dark grey of the photo round the panel, so the colours round the board read it empty):
/// a cell read empty that shows none of its gap's colours is a tile; an empty cell, which
/// shows the panel as its gap does, stays empty.
#[test]
fn a_blank_tile_unlike_its_gap_is_a_tile() {
    // One row of five cells, pitch 40 from (20, 20), tiles 32 px: cell 1 blank dark grey,
    // cell 2 empty (the pink panel), the others red with white stripes.
    let img = RgbaImage::from_fn(240, 80, |x, y| {
        let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
        let col = px.div_euclid(40);
        let (u, v) = (px.rem_euclid(40), py);
        let in_tile = (0..5).contains(&col) && col != 2 && (4..36).contains(&u);
        if !in_tile || !(4..36).contains(&v) {
            return image::Rgba([180, 90, 140, 255]);
        }
        match col {
            1 => image::Rgba([60, 60, 60, 255]),
            _ if (u / 4) % 2 == 0 => image::Rgba([255, 255, 255, 255]),
            _ => image::Rgba([200, 30, 30, 255]),
        }
    });
    let geometry = Geometry {
        rows: 1,
        cols: 5,
        origin: [24.0, 24.0],
        pitch: [40.0, 40.0],
        tile_size: [32.0, 32.0],
    };
    let mut is_tile = vec![true, false, false, true, true];
    restore_unlike_gap(
        &img,
        &geometry,
        &ClassifierSettings::default(),
        &mut is_tile,
    );
    assert_eq!(is_tile, [true, true, false, true, true]);
}

/// Issue 11 (seed 26371: flat tiles on a speckled green panel, a blank-faced kind in a dark
/// grey the speckles also show): a cell read empty by colour whose face is still where the
/// texture round the board changes at nearly every pixel is a tile; an empty cell, which shows
/// the texture, stays empty.
#[test]
fn a_still_blank_tile_on_a_texture_is_a_tile() {
    // Tiles of the kinds of KINDS_4X4: kind 1 a blank grey face, the others a white diamond
    // on their colour; the texture everywhere else.
    let img = diamonds_4x4(
        |kind, diamond| match kind {
            1 => [70, 70, 70],
            _ if diamond => [255, 255, 255],
            _ => KIND_COLOURS[kind - 1],
        },
        |x, y, _, _| {
            let h = speckle(x, y);
            let l = 40 + h as u8;
            [l, l + 20, l + 10]
        },
    );
    assert_empties_read(&img, 42.0, 36.0, &KINDS_4X4);
}

/// Issue 11 (seed 39393: a flat panel reaching a tenth of a pitch past the board, a photo
/// round it, darker near the panel): the panel's band shows the photo, yet the panel nearer
/// the board is flat, so the empty cells, flat in the panel's colour, are not still tiles on
/// a texture.
#[test]
fn a_flat_panel_ending_in_its_band_is_no_texture() {
    let img = diamonds_4x4(white_diamond, |x, y, fx, fy| {
        // Pixels past the tiles' box (2..158).
        let past = |v: i64| (2 - v).max(v - 157);
        let h = speckle(x, y);
        let l = 100 + h as u8;
        // The panel's edge is ragged: every other line reaches a pixel further.
        let edge = 2 + i64::from((x + y) % 2);
        match past(fx).max(past(fy)) {
            d if d <= edge => [20, 40, 60],
            ..=6 => [l - 60, l - 70, l - 90],
            _ => [l + 40, l + 10, l - 90],
        }
    });
    assert_empties_read(&img, 42.0, 36.0, &KINDS_4X4);
}

/// Issue 11 (our Tk Shisen-Sho: white tiles with a black outline, the box found 3 px inside
/// them): a blank-faced tile shows only colours the ring round its box holds (the tiles'
/// own paper and outline), and it is still a tile; an empty cell is not.
#[test]
fn a_blank_tile_inside_a_box_too_small_is_a_tile() {
    // One row of five cells, pitch 40 from (20, 20); tiles 36 px with a 1 px black outline,
    // white paper; cell 2 empty (the grey gap), cell 3 blank, the others a red stripe.
    let img = RgbaImage::from_fn(240, 80, |x, y| {
        let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
        let col = px.div_euclid(40);
        let (u, v) = (px.rem_euclid(40), py);
        let in_tile = (0..5).contains(&col) && col != 2 && (2..38).contains(&u);
        if !in_tile || !(2..38).contains(&v) {
            return image::Rgba([128, 128, 128, 255]);
        }
        if u == 2 || u == 37 || v == 2 || v == 37 {
            image::Rgba([0, 0, 0, 255])
        } else if col != 3 && (17..23).contains(&u) && (8..32).contains(&v) {
            image::Rgba([200, 30, 30, 255])
        } else {
            image::Rgba([255, 255, 255, 255])
        }
    });
    assert_eq!(
        tiles_left_in_a_row(&img, 25.0, 30.0),
        [true, true, false, true, true]
    );
}

/// Issue 11 (seed 442: flat tiles with a darker 3D rim on the right and bottom, the box
/// found on the faces): a dark tile with a faint glyph shows only colours of its own rim,
/// which lies in the ring round its box on two sides; it is still a tile, and an empty
/// cell, whose gap shows all round, is not.
#[test]
fn a_faint_tile_whose_own_rim_lies_round_its_box_is_a_tile() {
    // One row of five cells, pitch 40 from (20, 20); bodies 34 px, the last 5 px of each
    // a rim; faces 29 px. Cell 2 empty (the grey gap), cell 3 dark grey with a faint bar,
    // the others red with white stripes.
    let img = RgbaImage::from_fn(240, 80, |x, y| {
        let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
        let col = px.div_euclid(40);
        let (u, v) = (px.rem_euclid(40), py);
        let in_body = (0..5).contains(&col) && col != 2 && (2..36).contains(&u);
        if !in_body || !(2..36).contains(&v) {
            return image::Rgba([128, 128, 128, 255]);
        }
        let rim = u >= 31 || v >= 31;
        let grey = |l: u8| image::Rgba([l, l, l, 255]);
        match (col, rim) {
            (3, true) => grey(50),
            (3, false) if (14..19).contains(&u) && (8..26).contains(&v) => grey(40),
            (3, false) => grey(60),
            (_, true) => image::Rgba([120, 20, 20, 255]),
            _ if (u / 3) % 2 == 0 => grey(255),
            _ => image::Rgba([200, 30, 30, 255]),
        }
    });
    assert_eq!(
        tiles_left_in_a_row(&img, 22.0, 29.0),
        [true, true, false, true, true]
    );
}

/// Which cells of a row of five (pitch 40, tiles `tile` px from (`origin`, `origin`)) are
/// still tiles after [`empty_like_gap`] on a grey 128 background, every cell a tile before.
fn tiles_left_in_a_row(img: &RgbaImage, origin: f64, tile: f64) -> Vec<bool> {
    let geometry = Geometry {
        rows: 1,
        cols: 5,
        origin: [origin, origin],
        pitch: [40.0, 40.0],
        tile_size: [tile, tile],
    };
    let mut is_tile = vec![true; 5];
    empty_like_gap(
        img,
        &geometry,
        &ClassifierSettings::default(),
        [128.0; 3],
        &mut is_tile,
    );
    is_tile
}

/// Kinds of a 4 x 4 board, two of each, half the cells empty (0).
const KINDS_4X4: [[usize; 4]; 4] = [[1, 0, 2, 0], [0, 3, 0, 4], [2, 0, 1, 0], [0, 4, 0, 3]];
/// The colour of each kind of [`KINDS_4X4`] (index `kind - 1`).
const KIND_COLOURS: [[u8; 3]; 4] = [[200, 40, 40], [40, 90, 210], [230, 190, 30], [30, 150, 60]];

/// A 240 x 240 picture of the 4 x 4 board of [`KINDS_4X4`]: cells of 40 px from (40, 40),
/// tiles of 36 px, each pixel of a tile coloured by `face` (its kind, and whether it lies in
/// the diamond in the tile's middle), every other pixel by `ground` (its x and y, and its
/// place from the board's corner).
fn diamonds_4x4(
    face: impl Fn(usize, bool) -> [u8; 3],
    ground: impl Fn(u32, u32, i64, i64) -> [u8; 3],
) -> RgbaImage {
    RgbaImage::from_fn(240, 240, |x, y| {
        let (fx, fy) = (i64::from(x) - 40, i64::from(y) - 40);
        let [r, g, b] = if (0..160).contains(&fx) && (0..160).contains(&fy) {
            let kind = KINDS_4X4[(fy / 40) as usize][(fx / 40) as usize];
            let (u, v) = (fx % 40, fy % 40);
            if kind > 0 && (2..38).contains(&u) && (2..38).contains(&v) {
                face(kind, (u - 20).abs() + (v - 20).abs() < 8)
            } else {
                ground(x, y, fx, fy)
            }
        } else {
            ground(x, y, fx, fy)
        };
        image::Rgba([r, g, b, 255])
    })
}

/// A face of [`diamonds_4x4`]: the kind's colour of [`KIND_COLOURS`], the diamond white.
fn white_diamond(kind: usize, diamond: bool) -> [u8; 3] {
    if diamond {
        [255, 255, 255]
    } else {
        KIND_COLOURS[kind - 1]
    }
}

/// A busy texture's depth at pixel (`x`, `y`): a hash of the position, 0..=40.
fn speckle(x: u32, y: u32) -> u32 {
    (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 41
}

/// Asserts that the 4 x 4 board of 40 px cells whose tiles (`tile` px) start at (`origin`,
/// `origin`) reads its empty cells where `kinds` has them.
fn assert_empties_read(img: &RgbaImage, origin: f64, tile: f64, kinds: &[[usize; 4]; 4]) {
    let geometry = Geometry {
        rows: 4,
        cols: 4,
        origin: [origin, origin],
        pitch: [40.0, 40.0],
        tile_size: [tile, tile],
    };
    let reading = read_board(img, &geometry, &ClassifierSettings::default()).unwrap();
    let empty: Vec<bool> = reading.board.cells().iter().map(|&k| k == 0).collect();
    let expected: Vec<bool> = kinds.iter().flatten().map(|&k| k == 0).collect();
    assert_eq!(empty, expected);
}

/// Issue 11 (seed 496: icons with no tile body on a panel ruled into cells, the tiles'
/// box the whole cell): the grid lines inside every cell's edge are not a tile's rim, so
/// the plain cells stay empty.
#[test]
fn grid_lines_round_every_cell_are_no_tile_rim() {
    // 4 x 4 cells of 40 px from (20, 20), a 2 px line on every boundary; the kinds of
    // KINDS_4X4 as coloured discs, the empty cells plain panel.
    let (kinds, colours) = (KINDS_4X4, KIND_COLOURS);
    let img = RgbaImage::from_fn(220, 220, |x, y| {
        let (fx, fy) = (i64::from(x) - 20, i64::from(y) - 20);
        let on_board = (-1..161).contains(&fx) && (-1..161).contains(&fy);
        let line = |v: i64| v.rem_euclid(40) == 0 || v.rem_euclid(40) == 39;
        if on_board && (line(fx) || line(fy)) {
            return image::Rgba([120, 60, 140, 255]);
        }
        if (0..160).contains(&fx) && (0..160).contains(&fy) {
            let kind = kinds[(fy / 40) as usize][(fx / 40) as usize];
            let (u, v) = (fx % 40 - 20, fy % 40 - 20);
            if kind > 0 && u * u + v * v < 12 * 12 {
                let [r, g, b] = colours[kind - 1];
                return image::Rgba([r, g, b, 255]);
            }
        }
        image::Rgba([190, 150, 200, 255])
    });
    let (origin, tile) = (19.0, 40.0);
    assert_empties_read(&img, origin, tile, &KINDS_4X4);
}

/// Issue 11: on the right grid every tile of a board dealt in pairs has a copy; on a grid
/// half a pitch off, each cell shows halves of two tiles, and those do not repeat.
#[test]
fn tiles_have_copies_only_on_the_right_grid() {
    // Kinds by row: A B C D / B D A C.
    let kinds = [[0, 1, 2, 3], [1, 3, 0, 2]];
    let img = crate::vision::test_pictures::patterned_tiles(&kinds, (30, 30), (220, 140));
    let at = |x: f64| Geometry {
        rows: 2,
        cols: 4,
        origin: [x, 30.0],
        pitch: [40.0, 40.0],
        tile_size: [40.0, 40.0],
    };
    let settings = ClassifierSettings::default();
    let cells: Vec<usize> = (0..8).collect();
    let share = |g: &Geometry| {
        let faces = faces_of(&img, g, &settings, &cells);
        let (dist, _) = face_distances(&faces.iter().collect::<Vec<_>>(), &settings);
        twin_share(&copies_of(&cells, &faces, &dist, &|_| true))
    };
    assert_eq!(share(&at(30.0)), 1.0);
    assert!(share(&at(10.0)) < 0.5, "{}", share(&at(10.0)));
}

/// Issue 11 (kshisen's plain background): tiles whose paper is the background's colour,
/// told apart only by their bevel, are tiles; the cells with no bevel stay empty.
#[test]
fn tiles_the_colour_of_the_background_are_read_by_their_rim() {
    let geometry = Geometry {
        rows: 3,
        cols: 4,
        origin: [60.0, 50.0],
        pitch: [40.0, 50.0],
        tile_size: [40.0, 50.0],
    };
    let empty = [(1, 1), (1, 2)];
    let with_glyph = [(0, 0), (0, 1), (0, 3), (2, 0), (2, 2), (2, 3)];
    let img = RgbaImage::from_fn(300, 260, |x, y| {
        let grey = |v: u8| image::Rgba([v, v, v, 255]);
        let (fx, fy) = (f64::from(x) - 60.0, f64::from(y) - 50.0);
        if fx < 0.0 || fy < 0.0 || fx >= 160.0 || fy >= 150.0 {
            return grey(238);
        }
        let (r, c) = ((fy / 50.0) as i32, (fx / 40.0) as i32);
        if empty.contains(&(r, c)) {
            return grey(238);
        }
        let (u, v) = (fx % 40.0, fy % 50.0);
        if u < 2.0 || v < 2.0 {
            grey(250)
        } else if u >= 37.0 || v >= 47.0 {
            grey(170)
        } else if with_glyph.contains(&(r, c))
            && (8.0..32.0).contains(&u)
            && (10.0..40.0).contains(&v)
        {
            image::Rgba([40, 90, 160, 255])
        } else {
            grey(238)
        }
    });
    let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
    for r in 0..3 {
        for c in 0..4 {
            let kind = reading.board.get(Pos::new(r, c));
            assert_eq!(kind == 0, empty.contains(&(r, c)), "({r}, {c}) read {kind}");
        }
    }
}

/// Issue 11 (a full board read empty): tiles with no rim whose paper is the background's
/// colour and whose drawing covers a small part of the face are tiles, by their drawing;
/// the plain cells stay empty.
#[test]
fn tiles_with_little_drawing_on_the_background_colour_are_tiles() {
    let geometry = Geometry {
        rows: 3,
        cols: 4,
        origin: [60.0, 50.0],
        pitch: [40.0, 50.0],
        tile_size: [40.0, 50.0],
    };
    let empty = [(1, 1), (1, 2)];
    let img = RgbaImage::from_fn(300, 260, |x, y| {
        let paper = image::Rgba([238, 238, 238, 255]);
        let (fx, fy) = (f64::from(x) - 60.0, f64::from(y) - 50.0);
        if fx < 0.0 || fy < 0.0 || fx >= 160.0 || fy >= 150.0 {
            return paper;
        }
        let (r, c) = ((fy / 50.0) as i32, (fx / 40.0) as i32);
        let (u, v) = (fx % 40.0, fy % 50.0);
        let stroke = (x + y) % 4 < 2;
        if !empty.contains(&(r, c))
            && (14.0..26.0).contains(&u)
            && (18.0..32.0).contains(&v)
            && stroke
        {
            image::Rgba([40, 90, 160, 255])
        } else {
            paper
        }
    });
    let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
    for r in 0..3 {
        for c in 0..4 {
            let kind = reading.board.get(Pos::new(r, c));
            assert_eq!(kind == 0, empty.contains(&(r, c)), "({r}, {c}) read {kind}");
        }
    }
}

/// A frame of icons drawn with no tile body: round `icons` (row, col, colour) of `radius`
/// pixels centred in their cells, on a board `panel` (a colour reaching `margin` pixels
/// past the board) or straight on the `outside` colour, which has a noise of +-`noise`
/// levels.
struct Icons {
    geometry: Geometry,
    outside: [u8; 3],
    noise: u8,
    panel: Option<([u8; 3], f64)>,
    radius: f64,
    icons: Vec<(i32, i32, [u8; 3])>,
}

impl Icons {
    fn render(&self) -> RgbaImage {
        let g = &self.geometry;
        let board = g.board_rect();
        RgbaImage::from_fn(320, 300, |x, y| {
            let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            for &(r, c, colour) in &self.icons {
                let [cx, cy] = g.cell_center(Pos::new(r, c));
                if (fx - cx).hypot(fy - cy) <= self.radius {
                    return image::Rgba([colour[0], colour[1], colour[2], 255]);
                }
            }
            if let Some((colour, margin)) = self.panel {
                let inside = fx >= board.x - margin
                    && fx < board.x + board.w + margin
                    && fy >= board.y - margin
                    && fy < board.y + board.h + margin;
                if inside {
                    return image::Rgba([colour[0], colour[1], colour[2], 255]);
                }
            }
            let hash = (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
            let offset = i32::from(self.noise) * 2 + 1;
            let jitter = (hash >> 16) as i32 % offset - i32::from(self.noise);
            let [r, g, b] = self
                .outside
                .map(|v| (i32::from(v) + jitter).clamp(0, 255) as u8);
            image::Rgba([r, g, b, 255])
        })
    }

    /// Asserts that exactly the icons' cells read as tiles.
    fn assert_read(&self) {
        let reading = read_board(
            &self.render(),
            &self.geometry,
            &ClassifierSettings::default(),
        )
        .unwrap();
        for r in 0..self.geometry.rows as i32 {
            for c in 0..self.geometry.cols as i32 {
                let kind = reading.board.get(Pos::new(r, c));
                let icon = self.icons.iter().any(|&(ir, ic, _)| (ir, ic) == (r, c));
                assert_eq!(kind != 0, icon, "({r}, {c}) read {kind}");
            }
        }
    }
}

const RED: [u8; 3] = [200, 40, 40];
const BLUE: [u8; 3] = [40, 60, 200];
/// Two pairs of icons on a 3x4 board.
const FOUR_ICONS: [(i32, i32, [u8; 3]); 4] = [(0, 1, RED), (1, 3, BLUE), (2, 0, RED), (2, 2, BLUE)];

/// A 3x4 board of 40x48 cells.
fn large_cells() -> Geometry {
    Geometry {
        rows: 3,
        cols: 4,
        origin: [50.0, 50.0],
        pitch: [40.0, 48.0],
        tile_size: [40.0, 48.0],
    }
}

/// Icons of `radius` on a green panel ending 2 px round the board, purple beyond.
fn icons_on_a_panel(radius: f64) -> Icons {
    Icons {
        geometry: large_cells(),
        outside: [120, 40, 120],
        noise: 0,
        panel: Some(([150, 200, 150], 2.0)),
        radius,
        icons: FOUR_ICONS.to_vec(),
    }
}

/// Issue 11 (emoji with no tile body, small cells): the rim steps narrower than a pixel are
/// read from the pixels they lie in; read as black, they made the icons' rim stand apart
/// from the background and every empty cell was read as a tile.
#[test]
fn empty_cells_stay_empty_beside_icons_on_small_cells() {
    let scene = Icons {
        geometry: Geometry {
            rows: 3,
            cols: 4,
            origin: [60.0, 50.0],
            pitch: [20.0, 24.0],
            tile_size: [20.0, 24.0],
        },
        outside: [200, 200, 200],
        noise: 0,
        panel: None,
        radius: 7.0,
        icons: vec![(0, 0, RED), (0, 2, BLUE), (1, 1, RED), (2, 3, BLUE)],
    };
    scene.assert_read();
}

/// Issue 11 (seed 1298: emoji with no tile body on a diagonal gradient): copies of an icon
/// at either end of the board show different backgrounds round them, so their papers
/// differ by far more than two kinds' colours do; they are one kind all the same (two
/// copies at each end had read as two kinds of two).
#[test]
fn copies_of_an_icon_over_a_gradient_are_one_kind() {
    let geometry = Geometry {
        rows: 2,
        cols: 8,
        origin: [40.0, 40.0],
        pitch: [40.0, 40.0],
        tile_size: [40.0, 40.0],
    };
    // Violet at the left to brown at the right; dark discs and dark green squares, two
    // of each at either end.
    const NAVY: [u8; 3] = [30, 20, 40];
    const GREEN: [u8; 3] = [20, 60, 20];
    let kind_at = |r: i32, c: i32| match c {
        0 | 7 => Some(if r == 0 { NAVY } else { GREEN }),
        1 | 6 => Some(if r == 0 { GREEN } else { NAVY }),
        _ => None,
    };
    let img = RgbaImage::from_fn(400, 160, |x, y| {
        let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
        if let Some(pos) = geometry.cell_at(fx, fy) {
            if let Some(colour) = kind_at(pos.row, pos.col) {
                let [cx, cy] = geometry.cell_center(pos);
                let inside = if colour == NAVY {
                    (fx - cx).hypot(fy - cy) <= 10.0
                } else {
                    (fx - cx).abs() <= 8.0 && (fy - cy).abs() <= 8.0
                };
                if inside {
                    return image::Rgba([colour[0], colour[1], colour[2], 255]);
                }
            }
        }
        let t = f64::from(x) / 400.0;
        let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
        image::Rgba([mix(200.0, 150.0), mix(110.0, 90.0), mix(220.0, 100.0), 255])
    });
    let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
    let board = &reading.board;
    let kind = |r, c| board.get(Pos::new(r, c));
    for (r, c) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let copy = if c == 0 { 7 } else { 6 };
        assert_ne!(kind(r, c), 0, "{board}");
        assert_eq!(kind(r, c), kind(r, copy), "{board}");
    }
    assert_ne!(kind(0, 0), kind(1, 0), "{board}");
}

/// Issue 11 (seed 490: emoji with no tile body over a photo): where the background
/// behind copies of an icon ranges from light to dark, it changes their normalised faces
/// as much as another icon would, and copies read as kinds of two or four. With the ground
/// behind each face taken out (see [`take_out_ground`]) every kind reads whole.
#[test]
fn copies_of_icons_over_light_and_dark_ground_are_one_kind() {
    let geometry = Geometry {
        rows: 4,
        cols: 6,
        origin: [40.0, 40.0],
        pitch: [40.0, 40.0],
        tile_size: [40.0, 40.0],
    };
    // Six icons, each half of its cell or less, in one dark ink; every kind four times,
    // on both the light left and the dark right.
    let kind_at = |r: i32, c: i32| (r * 6 + c + 3 * (r % 2)) % 6;
    let inside = |kind: i32, dx: f64, dy: f64| match kind {
        0 => dx.hypot(dy) <= 11.0,
        1 => dx.abs() <= 9.0 && dy.abs() <= 9.0,
        2 => dx.abs() <= 13.0 && dy.abs() <= 5.0,
        3 => dx.abs() <= 5.0 && dy.abs() <= 13.0,
        4 => dx.abs().max(dy.abs()) <= 12.0 && dx.abs().min(dy.abs()) <= 4.0,
        _ => (7.0..=12.0).contains(&dx.hypot(dy)),
    };
    let img = RgbaImage::from_fn(320, 240, |x, y| {
        let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
        if let Some(pos) = geometry.cell_at(fx, fy) {
            let [cx, cy] = geometry.cell_center(pos);
            if inside(kind_at(pos.row, pos.col), fx - cx, fy - cy) {
                return image::Rgba([120, 30, 30, 255]);
            }
        }
        // Light at the left to dark at the right, a little lighter down.
        let t = fx / 320.0;
        let level = 235.0 - 160.0 * t + 10.0 * fy / 240.0;
        let v = level.round() as u8;
        image::Rgba([v, v, (level * 0.9).round() as u8, 255])
    });
    let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
    let board = &reading.board;
    let mut kinds: Vec<Vec<Kind>> = vec![Vec::new(); 6];
    for r in 0..4 {
        for c in 0..6 {
            kinds[kind_at(r, c) as usize].push(board.get(Pos::new(r, c)));
        }
    }
    for (kind, read) in kinds.iter().enumerate() {
        assert!(
            read.iter().all(|&k| k != 0 && k == read[0]),
            "kind {kind}: {board}"
        );
    }
    let mut firsts: Vec<Kind> = kinds.iter().map(|read| read[0]).collect();
    firsts.dedup();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 6, "{board}");
}

/// A bin on the ground behind an icon takes the shared colour, one on the icon keeps its
/// own, and one between moves part of the way (see [`ground_moved`]).
#[test]
fn the_ground_takes_the_shared_colour_the_icon_stays() {
    // One bin per channel, a ring of one colour all round, black ink.
    let ring = [[100.0, 100.0, 100.0]; 4];
    let moved = |bin: [f32; 3]| ground_moved(&bin, &ring, [10.0, 20.0, 30.0], [0.0; 3], (1, 1), 4);
    // The ground's grain goes with it.
    assert_eq!(moved([104.0, 100.0, 100.0]), vec![10.0, 20.0, 30.0]);
    assert_eq!(moved([200.0, 40.0, 0.0]), vec![200.0, 40.0, 0.0]);
    let halfway = GROUND_NEAR + (GROUND_FAR - GROUND_NEAR) / 2.0;
    let part = moved([100.0 + halfway, 100.0, 100.0]);
    assert!(
        (part[0] - (100.0 + halfway + 10.0) / 2.0).abs() < 1e-3,
        "{part:?}"
    );
    // Half ink, half ground (an icon's edge): its half of ground takes the shared colour.
    let edge = moved([50.0, 50.0, 50.0]);
    assert!(
        edge.iter()
            .zip([5.0, 10.0, 15.0])
            .all(|(a, b)| (a - b).abs() < 1e-3),
        "{edge:?}"
    );
}

/// Issue 11 (emoji with no tile body): icons covering a fifth of their cell on a noisy
/// background are tiles by their middle, whose colours their edge does not show.
#[test]
fn small_icons_with_no_tile_body_are_tiles() {
    let scene = Icons {
        geometry: large_cells(),
        outside: [150, 150, 150],
        noise: 12,
        panel: None,
        radius: 9.0,
        icons: FOUR_ICONS.to_vec(),
    };
    scene.assert_read();
}

/// Issue 11 (emoji on a board panel): the rim of icons with no tile body is the panel
/// under them, no news against what the empty cells show; measured against the colour
/// outside the panel it had made every empty cell a tile.
#[test]
fn icons_on_a_panel_leave_the_empty_cells_empty() {
    icons_on_a_panel(15.0).assert_read();
}

/// Issue 11 (emoji on a panel, the board found as objects on a lattice): the panel ends
/// 1.5 px past the cells' boxes, too close for the margin band to show it, and every empty
/// cell read as a tile; the band within 3% of a pitch of the boxes shows it.
#[test]
fn a_panel_ending_right_at_the_cells_leaves_the_empty_cells_empty() {
    Icons {
        geometry: Geometry {
            rows: 3,
            cols: 4,
            origin: [32.0, 36.0],
            pitch: [64.0, 76.0],
            tile_size: [64.0, 76.0],
        },
        outside: [120, 40, 120],
        noise: 0,
        panel: Some(([150, 200, 150], 1.5)),
        radius: 16.0,
        icons: FOUR_ICONS.to_vec(),
    }
    .assert_read();
}

/// Issue 11 (small emoji on a panel close round the board): icons that leave most of their
/// cell in the panel's colour do not count against the panel being the background.
#[test]
fn small_icons_do_not_hide_a_panel_close_round_the_board() {
    icons_on_a_panel(9.0).assert_read();
}

/// Issue 11 (kinds that differ only by colour): tiles of one glyph in four colours, each
/// pixel jittered (compression noise): the copies of a colour differ about as much as the
/// colours do in shape, and a threshold from the median distance alone split them.
#[test]
fn thick_strokes_of_white_on_two_colours_stay_apart_by_their_pure_ends() {
    // Most bins mix the tile's colour with a white glyph half and half; a few are pure.
    let face = |colour: [f32; 3]| -> Colours {
        let bin = |b: usize, c: usize| match b {
            0..=2 => colour[c],
            3..=6 => 255.0,
            _ => (colour[c] + 255.0) / 2.0,
        };
        let values: Vec<f32> = (0..3)
            .flat_map(|c| (0..40).map(move |b| bin(b, c)))
            .collect();
        Colours::of(&values, 40)
    };
    let (brown, grey) = (face([120.0, 70.0, 30.0]), face([60.0, 60.0, 60.0]));
    assert!(brown.one_ink && grey.one_ink);
    let d = rgb_distance;
    assert!(
        d(brown.paper, grey.paper) <= COLOUR_APART,
        "the mixed paper alone is near"
    );
    assert!(brown.distance(&grey) > COLOUR_APART);
    assert!(brown.distance(&face([120.0, 70.0, 30.0])) < 1.0);
}

#[test]
fn one_glyph_in_four_colours_reads_as_four_kinds() {
    let geometry = Geometry {
        rows: 2,
        cols: 4,
        origin: [40.0, 40.0],
        pitch: [36.0, 44.0],
        tile_size: [34.0, 42.0],
    };
    let paper = [[200, 40, 40], [40, 150, 60], [40, 60, 200], [200, 170, 30]];
    // Kind of each cell, row-major: every colour twice.
    let kinds = [0, 1, 2, 3, 2, 0, 3, 1];
    let img = RgbaImage::from_fn(240, 170, |x, y| {
        let hash = (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
        let jitter = (hash >> 16) as i32 % 41 - 20;
        let shade = |v: i32| (v + jitter).clamp(0, 255) as u8;
        let Some(pos) = geometry.cell_at(f64::from(x), f64::from(y)) else {
            return image::Rgba([230, 230, 230, 255]);
        };
        let r = geometry.cell_rect(pos);
        let (u, v) = (f64::from(x) - r.x, f64::from(y) - r.y);
        if u >= r.w || v >= r.h {
            return image::Rgba([230, 230, 230, 255]);
        }
        let cross = (14.0..20.0).contains(&u) && (8.0..34.0).contains(&v)
            || (8.0..26.0).contains(&u) && (18.0..24.0).contains(&v);
        let [pr, pg, pb] = if cross {
            [250, 250, 250]
        } else {
            paper[kinds[pos.row as usize * 4 + pos.col as usize]]
        };
        image::Rgba([shade(pr), shade(pg), shade(pb), 255])
    });
    let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
    let cells = reading.board.cells();
    for a in 0..8 {
        for b in 0..8 {
            assert_eq!(
                cells[a] == cells[b],
                kinds[a] == kinds[b],
                "cells {a} and {b} read {:?}",
                cells
            );
        }
    }
}

#[test]
fn normalise_cancels_brightness_and_contrast() {
    let mut a = vec![
        10.0, 20.0, 30.0, 40.0, 10.0, 20.0, 30.0, 40.0, 5.0, 6.0, 7.0, 8.0,
    ];
    let mut b: Vec<f32> = a.iter().map(|v| v * 0.9 + 7.0).collect();
    normalise(&mut a, 4);
    normalise(&mut b, 4);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-4);
    }
}

#[test]
fn bins_are_the_same_grid_on_small_and_large_faces() {
    // xshisen's face at 1x and at 0.8x, kshisen's at 2x: three blocks across, four down.
    for (w, h) in [(22.8, 28.9), (16.7, 23.1), (60.8, 79.0)] {
        assert_eq!(bins(w, h), (12, 16), "{w} x {h}");
    }
    assert_eq!(bins(50.0, 20.0), (12, 4));
    assert_eq!(bins(0.0, f64::NAN), (12, 12));
}

#[test]
fn lane_sum_adds_everything() {
    let values: Vec<f32> = (1..=19).map(|v| v as f32).collect();
    assert_eq!(lane_sum(&values, |v| v), 190.0);
    assert_eq!(lane_sum(&values[..3], |v| v * v), 14.0);
}

/// Reproducible values in -2..2 (a linear congruential sequence).
fn wobbly(seed: u32, n: usize) -> Vec<f32> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32 * 4.0 - 2.0
        })
        .collect()
}

#[test]
fn block_distance_is_the_eight_lane_sum_bit_for_bit() {
    // The sum as first written: eight lanes over the block in order, then the lanes added.
    let reference = |a: &[f32], b: &[f32]| -> f32 {
        let mut worst = 0f32;
        for (ba, bb) in a.chunks_exact(BLOCK_LEN).zip(b.chunks_exact(BLOCK_LEN)) {
            let mut lanes = [0f32; 8];
            for (ca, cb) in ba.chunks_exact(8).zip(bb.chunks_exact(8)) {
                for l in 0..8 {
                    lanes[l] += (ca[l] - cb[l]) * (ca[l] - cb[l]);
                }
            }
            worst = worst.max(lanes.iter().sum::<f32>() / (3 * BLOCK * BLOCK) as f32);
        }
        worst.sqrt()
    };
    let len = 3 * 4 * BLOCK_LEN;
    for seed in 0..20 {
        let (a, b) = (wobbly(seed, len), wobbly(seed + 100, len));
        let d = block_distance(&a, &b, (12, 16), f32::MAX);
        assert_eq!(d.to_bits(), reference(&a, &b).to_bits(), "seed {seed}");
    }
}

#[test]
fn colour_ends_are_those_of_a_stable_sort() {
    // Many bins tie along the paper-ink line (two flat colours): the ends are the first and
    // last bins in order, as a stable sort by position along the line leaves them.
    let per_channel = 192;
    let mut values = vec![0f32; 3 * per_channel];
    for b in 0..per_channel {
        let ink = b % 3 == 0;
        for c in 0..3 {
            let level = if ink {
                40.0 + c as f32
            } else {
                230.0 - c as f32
            };
            values[c * per_channel + b] = level + (b % 7) as f32 * 0.5;
        }
    }
    let colours = Colours::of(&values, per_channel);
    let channel = |c: usize| &values[c * per_channel..(c + 1) * per_channel];
    let axis: [f32; 3] = std::array::from_fn(|c| colours.ink[c] - colours.paper[c]);
    let length2: f32 = axis.iter().map(|v| v * v).sum();
    let mut along: Vec<(f32, usize)> = (0..per_channel)
        .map(|b| {
            let d: [f32; 3] = std::array::from_fn(|c| channel(c)[b] - colours.paper[c]);
            (
                (0..3).map(|c| d[c] * axis[c]).sum::<f32>() / length2.max(1e-6),
                b,
            )
        })
        .collect();
    along.sort_by(|x, y| x.0.total_cmp(&y.0));
    let end_bins = per_channel / END_SHARE;
    let mean_of = |bins: &[(f32, usize)]| -> [f32; 3] {
        std::array::from_fn(|c| {
            bins.iter().map(|&(_, b)| channel(c)[b]).sum::<f32>() / bins.len() as f32
        })
    };
    assert_eq!(
        colours.ends,
        [
            mean_of(&along[..end_bins]),
            mean_of(&along[per_channel - end_bins..])
        ]
    );
}

#[test]
fn a_flat_face_is_all_zeros() {
    let mut a = vec![200.0; 12];
    a[3] = 201.0;
    normalise(&mut a, 4);
    assert!(a.iter().all(|&v| v == 0.0));
}

/// A face of one block (4 x 4 bins, 48 values) with paper colour `paper` and white ink: a
/// fixed pattern plus `offsets` (value index, amount), so that block distances are known.
fn block_face(paper: [f32; 3], offsets: &[(usize, f32)]) -> Face {
    let mut values: Vec<f32> = (0..BLOCK_LEN)
        .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 })
        .collect();
    for &(k, amount) in offsets {
        values[k] += amount;
    }
    Face {
        samplings: vec![values; 9],
        bins: (BLOCK, BLOCK),
        colours: Colours {
            paper,
            ink: [250.0; 3],
            one_ink: true,
            ends: [paper, [250.0; 3]],
        },
        raw: vec![vec![0.0; BLOCK_LEN]; 9],
    }
}

/// The offset that moves a one-block face by `distance`.
fn moved_by(distance: f32) -> f32 {
    distance * (BLOCK_LEN as f32).sqrt()
}

/// The papers of three kinds told apart by colour alone (red, blue, olive).
const THREE_PAPERS: [[f32; 3]; 3] = [
    [220.0, 50.0, 47.0],
    [38.0, 139.0, 210.0],
    [133.0, 153.0, 0.0],
];

/// Asserts that `group_faces` groups `faces` exactly as `kinds` do.
fn assert_grouped_as(faces: &[Face], kinds: &[usize]) {
    let faces: Vec<&Face> = faces.iter().collect();
    let (labels, _) = group_faces(&faces, &ClassifierSettings::default());
    assert!(same_grouping(&labels, kinds), "labels {labels:?}");
}

/// Whether `labels` group the faces exactly as `kinds` do.
fn same_grouping(labels: &[usize], kinds: &[usize]) -> bool {
    (0..kinds.len())
        .all(|a| (0..kinds.len()).all(|b| (labels[a] == labels[b]) == (kinds[a] == kinds[b])))
}

#[test]
fn copies_of_one_colour_whose_shapes_differ_by_offset_stay_one_kind() {
    // Issue 11 (glyph-colour seed 133): one glyph in three colours; each kind's copies
    // come at two sub-pixel offsets whose shapes differ by 0.15, above the kind threshold
    // (about 0.14: kinds differ by little more than that in shape, only by colour).
    let papers = THREE_PAPERS;
    let (kind_step, offset_step) = (moved_by(0.3), moved_by(0.15));
    let mut faces = Vec::new();
    let mut kinds = Vec::new();
    for (kind, paper) in papers.iter().enumerate() {
        for copy in 0..4 {
            let offset = if copy % 2 == 0 { 0.0 } else { offset_step };
            faces.push(block_face(*paper, &[(kind, kind_step), (10, offset)]));
            kinds.push(kind);
        }
    }
    assert_grouped_as(&faces, &kinds);
}

#[test]
fn copies_of_one_colour_drifting_across_the_board_stay_one_kind() {
    // Issue 11 (glyph-colour seed 1053): one glyph in three colours on a large board whose
    // pitch is a twentieth of a pixel off, so each kind's copies drift apart in shape
    // with their distance on the board (each with a little noise of its own), the
    // furthest by three and a half kind thresholds.
    let papers = THREE_PAPERS;
    let mut faces = Vec::new();
    let mut kinds = Vec::new();
    for copy in 0..12 {
        for (kind, paper) in papers.iter().enumerate() {
            let drift = moved_by(0.02 * copy as f32);
            let jitter = moved_by(if copy % 2 == 0 { 0.015 } else { -0.015 });
            faces.push(block_face(*paper, &[(10, drift), (20 + kind, jitter)]));
            kinds.push(kind);
        }
    }
    assert_grouped_as(&faces, &kinds);
}

/// A face of `paper` with a small mark (shape offsets), its bins all paper.
fn solid_face(paper: [f32; 3], offsets: &[(usize, f32)]) -> Face {
    let per_channel = BLOCK * BLOCK;
    let bins: Vec<f32> = (0..3 * per_channel)
        .map(|i| paper[i / per_channel])
        .collect();
    Face {
        raw: vec![bins; 9],
        ..block_face(paper, offsets)
    }
}

/// Faces of one shape painted `papers`, each copied exactly in colour (twice each, the
/// copies a little apart in shape: resampling), with the kind each belongs to.
fn flat_copies(papers: &[[f32; 3]]) -> (Vec<Face>, Vec<usize>) {
    let noise = moved_by(0.05);
    let faces = papers
        .iter()
        .enumerate()
        .flat_map(|(k, &paper)| {
            [
                solid_face(paper, &[(k, noise)]),
                solid_face(paper, &[(k + 8, noise)]),
            ]
        })
        .collect();
    let kinds = (0..papers.len()).flat_map(|k| [k, k]).collect();
    (faces, kinds)
}

#[test]
fn exact_copies_of_close_colours_stay_apart() {
    // Our browser game's colour-only tiles: one star on 40 colours, some 32 levels apart
    // (under the 44 that compression and tints need), every copy the same to a level.
    let (faces, kinds) = flat_copies(&[
        [90.0, 160.0, 60.0],
        [90.0, 160.0, 92.0],
        [200.0, 40.0, 40.0],
        [40.0, 40.0, 200.0],
    ]);
    assert_grouped_as(&faces, &kinds);
}

#[test]
fn a_tinted_copy_without_an_exact_copy_keeps_its_kind() {
    // Copies of one colour, one of them tinted 30 levels (selected): no exact copy of its
    // colour, so only the wide colour rule may part it, and 30 is under it.
    let (mut faces, mut kinds) = flat_copies(&[[200.0, 40.0, 40.0], [40.0, 40.0, 200.0]]);
    faces.push(solid_face([90.0, 160.0, 60.0], &[(3, moved_by(0.05))]));
    faces.push(solid_face([90.0, 160.0, 90.0], &[(11, moved_by(0.05))]));
    kinds.extend([2, 2]);
    assert_grouped_as(&faces, &kinds);
}

#[test]
fn two_shapes_of_one_colour_stay_two_kinds() {
    // Two glyphs on one paper, two copies each: copies 0.2 apart (so the kind threshold is
    // 0.6), the glyphs 0.75 apart, within twice the threshold but not alike.
    let paper = [211.0, 54.0, 130.0];
    let glyph = moved_by(0.75);
    let noise = moved_by(0.2);
    let faces = [
        block_face(paper, &[]),
        block_face(paper, &[(20, noise)]),
        block_face(paper, &[(0, glyph)]),
        block_face(paper, &[(0, glyph), (21, noise)]),
    ];
    let faces: Vec<&Face> = faces.iter().collect();
    let (labels, _) = group_faces(&faces, &ClassifierSettings::default());
    assert!(same_grouping(&labels, &[0, 0, 1, 1]), "labels {labels:?}");
}

#[test]
fn kinds_that_differ_by_a_small_corner_mark_stay_apart() {
    // GNOME postmodern's flowers and seasons: alike but for a small label in a corner (a
    // 2 x 2-bin mark, diluted in its 4 x 4-bin block under the kind threshold). Each kind
    // has a copy with noise spread over the whole face, which must stay linked to it; four
    // other kinds set the scale.
    let paper = [230.0, 225.0, 210.0];
    let corner: Vec<usize> = (0..2)
        .flat_map(|y| (0..2).flat_map(move |x| (0..3).map(move |c| (y * BLOCK + x) * 3 + c)))
        .collect();
    let mark: Vec<(usize, f32)> = corner.iter().map(|&k| (k, 0.9)).collect();
    let noise: Vec<(usize, f32)> = (0..BLOCK_LEN)
        .map(|k| (k, 0.03 * ((k * 37 % 7) as f32 - 3.0) / 3.0))
        .collect();
    let with = |a: &[(usize, f32)], b: &[(usize, f32)]| -> Vec<(usize, f32)> {
        a.iter().chain(b).copied().collect()
    };
    let mut faces = vec![
        block_face(paper, &[]),
        block_face(paper, &noise),
        block_face(paper, &mark),
        block_face(paper, &with(&mark, &noise)),
    ];
    let mut kinds = vec![0, 0, 1, 1];
    for other in 0..4 {
        let shape = [(30 + other, moved_by(2.0))];
        faces.push(block_face(paper, &shape));
        faces.push(block_face(paper, &with(&shape, &noise)));
        kinds.extend([2 + other, 2 + other]);
    }
    assert_grouped_as(&faces, &kinds);
}

/// The distances (`n * n`) between faces placed at `points` on a line.
fn line_distances(points: &[f32]) -> Vec<f32> {
    let n = points.len();
    (0..n * n)
        .map(|k| (points[k / n] - points[k % n]).abs())
        .collect()
}

#[test]
fn a_group_of_close_pairs_parts_into_the_pairs() {
    // Three kinds alike but for a small part (one suit's numbers), twins 0.2-0.5 apart,
    // kinds 1.1 apart or more: one group under a threshold the copies' noise raised.
    let points = [0.0f32, 0.3, 1.4, 1.6, 2.8, 3.3];
    let dist = line_distances(&points);
    let parts = split_into_pairs(&dist, points.len(), (0..6).collect(), 2.0);
    assert_eq!(parts, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
}

#[test]
fn copies_of_one_kind_closer_in_pairs_stay_one_group() {
    // Six copies of one kind in three closer pairs, all within the copies' noise; and
    // a group of four, which may be one kind of four copies, is never parted.
    let points = [0.0f32, 0.02, 0.2, 0.22, 0.4, 0.42];
    let dist = line_distances(&points);
    let group: Vec<usize> = (0..6).collect();
    assert_eq!(split_into_pairs(&dist, 6, group.clone(), 1.0), vec![group]);
    let apart = line_distances(&[0.0f32, 0.3, 1.4, 1.6]);
    let four: Vec<usize> = (0..4).collect();
    assert_eq!(split_into_pairs(&apart, 4, four.clone(), 2.0), vec![four]);
}

#[test]
fn odd_singleton_joins_its_closest_group() {
    // Faces 0, 1, 2 alike; 3 a bit off (a selected tile); 4, 5 another kind.
    let points = [0.0f32, 0.01, 0.02, 0.4, 5.0, 5.01];
    let n = points.len();
    let dist = line_distances(&points);
    let mut groups = vec![vec![0, 1, 2], vec![3], vec![4, 5]];
    repair_odd_groups(&dist, n, &mut groups);
    assert_eq!(groups.len(), 2);
    assert!(groups.iter().all(|g| g.len() % 2 == 0));
}

#[test]
fn faces_with_no_copy_do_not_swell_the_copy_noise() {
    // Two kinds of two exact copies (0.01 apart, 1.9 from each other) and five cells of
    // wallpaper read as tiles, each about 1.5 from everything: the copies' noise is the
    // copies' own, so the two kinds stay apart.
    let n = 9;
    let mut dist = vec![0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                dist[i * n + j] = 1.4 + 0.03 * (i + j) as f32;
            }
        }
    }
    for (a, b) in [(5, 7), (6, 8)] {
        dist[a * n + b] = 0.01;
        dist[b * n + a] = 0.01;
    }
    for (a, b) in [(5, 6), (5, 8), (7, 6), (7, 8)] {
        dist[a * n + b] = 1.9;
        dist[b * n + a] = 1.9;
    }
    let noise = copy_noise(&dist, n);
    assert!(noise < 0.1, "copy noise {noise}");
    assert!(COPY_NOISE_FACTOR * noise < 1.9);
}
