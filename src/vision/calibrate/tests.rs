//! Tests of the calibration steps, on drawn boards.

use crate::vision::pictures::PictureCentre;

use super::*;

/// Issue 11 (seed 624: a last row of 3D tiles left out): the row next to the board whose
/// tiles have copies in the board joins it; the empty lines round it do not.
#[test]
fn a_line_of_tiles_with_copies_in_the_board_joins_it() {
    // Four rows of four patterned tiles, each kind four times (a link-up board holds
    // every kind an even number of times, which the reading's kinds rely on).
    let kinds = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];
    let img = crate::vision::test_pictures::patterned_tiles(&kinds, (60, 50), (300, 260));
    let three_rows = Geometry {
        rows: 3,
        cols: 4,
        origin: [62.0, 52.0],
        pitch: [40.0, 40.0],
        tile_size: [36.0, 36.0],
    };
    let grown = grown_by_copies(&img, three_rows);
    assert_eq!((grown.rows, grown.cols), (4, 4));
    assert_eq!(grown.origin, three_rows.origin);
}

/// Seed 12300: a comb at 3.2 pitches over a sparse board is coarser than the objects'
/// board inside it; a board on the same pitch, or beside it, is not finer within it.
#[test]
fn a_finer_lattice_within_a_coarse_one_is_told_apart() {
    let coarse = Geometry {
        rows: 6,
        cols: 3,
        origin: [619.4, 149.0],
        pitch: [147.36, 53.0],
        tile_size: [147.36, 48.0],
    };
    let fine = Geometry {
        rows: 6,
        cols: 8,
        origin: [646.0, 148.6],
        pitch: [46.0, 53.0],
        tile_size: [43.0, 44.0],
    };
    assert!(finer_within(&fine, &coarse));
    assert!(!finer_within(&coarse, &fine));
    let same_pitch = Geometry { cols: 2, ..coarse };
    assert!(!finer_within(&same_pitch, &coarse));
    let beside = Geometry {
        origin: [100.0, 500.0],
        ..fine
    };
    assert!(!finer_within(&beside, &coarse));
}
use image::Rgba;

/// A synthetic board: `rows` x `cols` light tiles with a dark mark, on a dark background.
fn synthetic(rows: u32, cols: u32, pitch: (u32, u32), gap: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(400, 300, Rgba([20, 60, 20, 255]));
    for r in 0..rows {
        for c in 0..cols {
            let (x0, y0) = (37 + c * pitch.0, 41 + r * pitch.1);
            for y in y0..y0 + pitch.1 - gap {
                for x in x0..x0 + pitch.0 - gap {
                    img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                }
            }
            // A mark of one of five kinds around the middle of the face, as tilesets
            // centre their pictures.
            let mark = (r * cols + c) % 5;
            let (mx, my) = (x0 + (pitch.0 - gap) / 2 - 4, y0 + (pitch.1 - gap) / 2 - 3);
            for d in 0..6 {
                img.put_pixel(mx + mark * 2, my + d, Rgba([200, 0, 0, 255]));
                img.put_pixel(mx + 8 - mark * 2, my + d, Rgba([200, 0, 0, 255]));
            }
        }
    }
    img
}

/// Cells of `half` x 40 pixels in 4 rows of 8 from (0, 0): halves of tiles, a dark side on
/// the left of every other cell (`halves`), or whole tiles with a mark of one of five kinds.
fn cells_of(halves: bool, half: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(8 * half, 160, Rgba([230, 230, 220, 255]));
    for r in 0..4u32 {
        for c in 0..8u32 {
            let (x0, y0) = (c * half, r * 40);
            let dark = if halves {
                c % 2 == 0
            } else {
                (r * 8 + c * 3) % 5 < 2
            };
            let width = if halves { 4 } else { 3 + (r * 8 + c) % 5 };
            if dark {
                for y in y0..y0 + 40 {
                    for x in x0..x0 + width {
                        img.put_pixel(x, y, Rgba([40, 40, 40, 255]));
                    }
                }
            }
        }
    }
    img
}

#[test]
fn halves_of_tiles_alternate_and_tiles_do_not() {
    let along = |pitch: f64| (Axis { pitch, phase: -1.0 }, (0, 8));
    let across = (
        Axis {
            pitch: 40.0,
            phase: -1.0,
        },
        (0, 4),
    );
    assert!(cells_alternate(
        &cells_of(true, 20),
        along(20.0),
        across,
        true
    ));
    assert!(!cells_alternate(
        &cells_of(false, 20),
        along(20.0),
        across,
        true
    ));
    // Along the other axis the rows are alike.
    assert!(!cells_alternate(
        &cells_of(true, 20),
        across,
        along(20.0),
        false
    ));
}

#[test]
fn finds_a_synthetic_board_with_gaps() {
    let g = calibrate(&synthetic(5, 8, (30, 38), 2)).unwrap();
    assert_eq!((g.rows, g.cols), (5, 8));
    assert!((g.pitch[0] - 30.0).abs() < 0.3, "{g:?}");
    assert!((g.pitch[1] - 38.0).abs() < 0.38, "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    assert!((g.origin[1] - 41.0).abs() < 1.0, "{g:?}");
    assert!((g.tile_size[0] - 28.0).abs() < 1.0, "{g:?}");
}

/// [`synthetic`]'s 5 x 8 tiles with gaps, the faces of the last column striped black
/// every other pixel up to near their rim; `touching`: each of them also fills the gap to
/// its neighbour in the column before.
fn busy_last_column(touching: bool) -> RgbaImage {
    let mut img = synthetic(5, 8, (30, 38), 2);
    for r in 0..5 {
        let (x0, y0) = (37 + 7 * 30, 41 + r * 38);
        if touching {
            for y in y0..y0 + 36 {
                for x in x0 - 2..x0 {
                    img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                }
            }
        }
        for y in y0 + 5..y0 + 31 {
            for x in (x0 + 4..x0 + 24).step_by(2) {
                img.put_pixel(x, y, Rgba([0, 0, 0, 255]));
            }
        }
    }
    img
}

#[test]
fn a_rim_of_busy_faces_joins_the_board_its_lattice_runs_on_through() {
    // 5 x 8 tiles with gaps; the faces of the last column striped black every other
    // pixel up to near their rim, so that their insides have more edge than their borders
    // (kshisen's jade) and they are no candidates.
    let img = busy_last_column(false);
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
}

#[test]
fn a_rim_of_busy_faces_joins_the_board_across_the_side_it_shares_with_a_tile() {
    // As above, but each face of the last column touches its neighbour in the column
    // before (no gap between them): the side they share shows no edge on the lattice, the
    // busy face's first stripe standing out instead.
    let img = busy_last_column(true);
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
}

#[test]
fn the_borders_are_sought_on_a_given_pitch_at_its_best_phase() {
    // The objects' board (see `calibrate`): the board's borders found on its pitches,
    // with no candidate axes; their box holds the objects' board.
    let img = synthetic(5, 8, (30, 38), 2);
    let edges = Edges::of(&img);
    let objects = Geometry {
        rows: 4,
        cols: 8,
        origin: [38.0, 42.0],
        pitch: [30.2, 37.9],
        tile_size: [26.0, 34.0],
    };
    let g = find_board_from_borders(&edges, Search::Objects(&objects)).unwrap();
    assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    assert!((g.pitch[1] - 38.0).abs() < 0.25, "{g:?}");
    assert!(covers_most_of(pixel_box(&g), pixel_box(&objects)));
}

/// Light 32 x 40 tiles with a mark at a 40 x 48 pitch from (37, 41), none beside another
/// (rows 0, 2 and 4 only, columns apart): 8 px gaps, so every tile's far border lies a gap
/// inside its cell on the comb through the near ones.
fn lone_tiles_with_gaps() -> RgbaImage {
    let mut img = RgbaImage::from_pixel(400, 300, Rgba([20, 60, 20, 255]));
    let cells = [
        (0, 0),
        (0, 3),
        (0, 5),
        (2, 1),
        (2, 4),
        (4, 0),
        (4, 2),
        (4, 5),
    ];
    for (r, c) in cells {
        let (x0, y0) = (37 + c * 40, 41 + r * 48);
        for y in y0..y0 + 40 {
            for x in x0..x0 + 32 {
                img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
            }
        }
        for y in y0 + 14..y0 + 26 {
            for x in x0 + 12..x0 + 20 {
                img.put_pixel(x, y, Rgba([200, 0, 0, 255]));
            }
        }
    }
    img
}

#[test]
fn lone_tiles_with_gaps_are_found_on_the_objects_board() {
    let img = lone_tiles_with_gaps();
    let edges = Edges::of(&img);
    // The objects' board: cells centred on the tiles.
    let objects = Geometry {
        rows: 5,
        cols: 6,
        origin: [33.0, 37.0],
        pitch: [40.0, 48.0],
        tile_size: [40.0, 48.0],
    };
    let ((x0, x1), (y0, y1)) = pixel_box(&objects);
    let xs = phases_over(&column_profile(&edges.vertical, y0, y1), 40.0, (x0, x1));
    let ys = phases_over(&row_profile(&edges.horizontal, x0, x1), 48.0, (y0, y1));
    assert!(first_board(&edges, &xs, &ys, Sides::OnComb).is_err());
    let g = find_board_from_borders(&edges, Search::Objects(&objects)).unwrap();
    assert_eq!((g.rows, g.cols), (5, 6), "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    assert!((g.origin[1] - 41.0).abs() < 1.0, "{g:?}");
    assert!((g.tile_size[0] - 32.0).abs() < 1.5, "{g:?}");
}

#[test]
fn a_side_drawn_along_one_axis_only_is_part_of_the_tiles() {
    // Touching tiles 30 x 38 with a 6 px darker side at the left of each (a 3D side) and a
    // dark line under each: a strip parts the tiles across x only, so it is no gap.
    let mut img = synthetic(5, 8, (30, 38), 0);
    for r in 0..5 {
        for c in 0..8 {
            let (x0, y0) = (37 + c * 30, 41 + r * 38);
            for y in y0..y0 + 38 {
                for x in x0..x0 + 6 {
                    img.put_pixel(x, y, Rgba([150, 140, 110, 255]));
                }
            }
            for x in x0..x0 + 30 {
                img.put_pixel(x, y0 + 37, Rgba([40, 40, 40, 255]));
            }
        }
    }
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (5, 8));
    assert!((g.tile_size[0] - 30.0).abs() < 0.5, "{g:?}");
    assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
}

#[test]
fn a_second_edge_is_a_gap_only_where_the_strip_parts_the_tiles() {
    // Boundaries at 20 + 40k, a second edge 6 px after each.
    let mut profile = vec![0f32; 400];
    for k in 0..9 {
        profile[20 + 40 * k] = 10.0;
        profile[26 + 40 * k] = 6.0;
    }
    let axis = Axis {
        pitch: 40.0,
        phase: 20.0,
    };
    let tile = Rgba([235, 235, 235, 255]);
    let background = Rgba([90, 60, 30, 255]);
    let colours = Colours {
        tile: [235.0; 3],
        background: Some([90.0, 60.0, 30.0]),
    };
    // The strip (pixels 21..27 after each boundary) shows the tiles' colour: a 3D edge
    // covered by the next tile, or a line inside the faces. Not a gap.
    let plain = RgbaImage::from_pixel(400, 50, tile);
    let across = Across {
        image: &plain,
        vertical: true,
        band: (0, 50),
        colours,
    };
    let span = tile_span(&profile, axis, (0, 8), &across);
    assert_eq!((span.whole, span.parted), ((20.0, 40.0), None));
    // The strip shows the background all along: a gap the tile size leaves out.
    let gapped = RgbaImage::from_fn(400, 50, |x, _| {
        if (21..27).contains(&(x % 40)) {
            background
        } else {
            tile
        }
    });
    let across = Across {
        image: &gapped,
        ..across
    };
    let span = tile_span(&profile, axis, (0, 8), &across);
    assert_eq!(
        (span.whole, span.parted),
        ((20.0, 40.0), Some((26.0, 34.0)))
    );
}

#[test]
fn a_layer_of_the_side_is_no_gap_where_the_background_shows_beside_it() {
    // Boundaries at 20 + 40k; the strongest second edge 6 px before each bounds the dark
    // bottom layer of a 3D side (pixels 15..21), a weaker one 5 px after bounds the
    // background (pixels 21..26) between the tiles: the gap.
    let mut profile = vec![0f32; 400];
    for k in 0..9 {
        profile[14 + 40 * k] = 8.0;
        profile[20 + 40 * k] = 10.0;
        profile[25 + 40 * k] = 5.0;
    }
    let axis = Axis {
        pitch: 40.0,
        phase: 20.0,
    };
    let image = RgbaImage::from_fn(400, 50, |x, _| match x % 40 {
        15..=20 => Rgba([20, 20, 20, 255]),
        21..=25 => Rgba([120, 160, 140, 255]),
        _ => Rgba([235, 235, 235, 255]),
    });
    let across = Across {
        image: &image,
        vertical: true,
        band: (0, 50),
        colours: Colours {
            tile: [235.0; 3],
            background: Some([120.0, 160.0, 140.0]),
        },
    };
    let span = tile_span(&profile, axis, (0, 8), &across);
    assert_eq!(
        (span.whole, span.parted),
        ((20.0, 40.0), Some((25.0, 35.0)))
    );
}

#[test]
fn a_third_of_the_pitch_that_scores_best_is_not_the_reference() {
    // Tile borders every 60 px and two weaker lines inside each tile a third apart: the
    // comb at 20 px collects the most, but its teeth alternate (one in three is strong).
    let mut profile = vec![0f32; 900];
    for k in 0..14 {
        profile[30 + 60 * k] = 10.0;
        profile[31 + 60 * k] = 10.0;
        profile[50 + 60 * k] = 4.0;
        profile[70 + 60 * k] = 4.0;
    }
    let axis = find_axes(&axis_peaks(&profile))[0];
    assert!((axis.pitch - 60.0).abs() < 0.5, "{axis:?}");
}

#[test]
fn the_multiples_of_a_fraction_of_the_pitch_are_candidates() {
    // Strokes every 12 px inside tiles 60 px apart: when 12 px is chosen, 60 px is among
    // the candidates tried next.
    let mut profile = vec![0f32; 900];
    for x in (30..870).step_by(12) {
        profile[x] = 6.0;
    }
    for k in 0..14 {
        profile[30 + 60 * k] = 10.0;
    }
    let axes = find_axes(&axis_peaks(&profile));
    assert!(
        axes.iter().any(|a| (a.pitch - 60.0).abs() < 0.5),
        "{axes:?}"
    );
}

#[test]
fn the_comb_refined_is_the_one_whose_interior_teeth_are_strong() {
    // Boundaries every 40 px from 20, and a panel's strong edges 8 px outside the board:
    // a comb 4% wider puts its end teeth on the panel and collects more in sum.
    let mut profile = vec![0f32; 480];
    for k in 0..=10 {
        profile[20 + 40 * k] = 10.0;
    }
    profile[12] = 100.0;
    profile[428] = 100.0;
    let silent = vec![0f32; 480];
    let wide = Axis {
        pitch: 41.6,
        phase: 12.0,
    };
    let right = Axis {
        pitch: 40.0,
        phase: 20.0,
    };
    for starts in [[wide, right], [right, wide]] {
        let fit = fine_comb(&profile, [&silent, &silent], &starts, 0, 10);
        assert!((fit.pitch - 40.0).abs() < 0.05, "{fit:?}");
        assert!((fit.at(5.0) - 220.0).abs() < 0.5, "{fit:?}");
    }
}

/// Issue 11 (seed 33067: a sparse 6 x 10 board, 43 px rows): a start on the right pitch stands
/// when the search near it is drawn to the edge of its range by edges off the board's lines.
#[test]
fn a_start_whose_interior_teeth_are_strong_is_kept() {
    // Boundaries every 43 px from 10, and a panel's strong edge where a comb 1% narrower
    // puts its last tooth.
    let mut profile = vec![0f32; 320];
    for k in 1..6 {
        profile[10 + 43 * k] = 10.0;
    }
    profile[10] = 10.0;
    profile[265] = 100.0;
    let silent = vec![0f32; 320];
    let right = Axis {
        pitch: 43.0,
        phase: 10.0,
    };
    let fit = fine_comb(&profile, [&silent, &silent], &[right], 0, 6);
    assert!((fit.pitch - 43.0).abs() < 0.05, "{fit:?}");
    assert!((fit.at(3.0) - 139.0).abs() < 0.5, "{fit:?}");
}

/// Issue 11 (seed 423: a frame rescaled to a pitch of 44.07 px over 8 rows): a drift of
/// half a pixel over the board, which whole pixels cannot show, is not taken for none. At
/// that drift the copies of kinds that differ only by colour part.
#[test]
fn a_pitch_a_fraction_off_whole_pixels_is_measured() {
    let pitch = 44.07;
    // Light tiles of 36 px with a dark mark, each drawn by the share of each pixel it
    // covers, as a rescaled frame draws them.
    let img = RgbaImage::from_fn(460, 440, |x, y| {
        // The share of pixel `v` that the span `from..to` of every cell covers.
        let cover = |v: u32, (from, to): (f64, f64)| -> f64 {
            let (a, b) = (f64::from(v), f64::from(v) + 1.0);
            let k = ((a - 20.0) / pitch).floor().clamp(0.0, 8.0);
            let (t0, t1) = (20.0 + k * pitch + from, 20.0 + k * pitch + to);
            if !(0.0..8.0).contains(&k) {
                return 0.0;
            }
            (b.min(t1) - a.max(t0)).clamp(0.0, 1.0)
        };
        let tile = cover(x, (0.0, 36.0)) * cover(y, (0.0, 36.0));
        let mark = cover(x, (12.0, 24.0)) * cover(y, (10.0, 14.0));
        let level = 30.0 + tile * (235.0 - 30.0) - mark * (235.0 - 40.0);
        Rgba([level as u8, level as u8, level as u8, 255])
    });
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (8, 8));
    assert!((g.pitch[0] - pitch).abs() < 0.05, "{g:?}");
    assert!((g.pitch[1] - pitch).abs() < 0.05, "{g:?}");
}

/// Issue 11 (seed 813: a sparse board of flat tiles on a photo): a board none of whose
/// tiles touches another is found, its tiles a cell or two apart.
#[test]
fn a_board_of_tiles_that_touch_none_is_found() {
    let (pitch, tile) = (30u32, 26u32);
    let mut img = RgbaImage::from_pixel(400, 320, Rgba([20, 60, 20, 255]));
    let (rows, cols) = ([0u32, 2, 5, 7], [0u32, 3, 5, 8, 10]);
    for (i, (r, c)) in rows
        .iter()
        .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
        .enumerate()
    {
        let (x0, y0) = (31 + c * pitch, 43 + r * pitch);
        for y in y0..y0 + tile {
            for x in x0..x0 + tile {
                img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
            }
        }
        // One of five kinds, four tiles each: two bars at a spacing of their own.
        let mark = i as u32 % 5;
        for d in 0..8 {
            img.put_pixel(x0 + 9 + mark, y0 + 9 + d, Rgba([200, 0, 0, 255]));
            img.put_pixel(x0 + 17 - mark, y0 + 9 + d, Rgba([200, 0, 0, 255]));
        }
    }
    // The borders' comb on the whole image: boundaries at x = 31 + 30k, y = 43 + 30k.
    let edges = Edges::of(&img);
    let (x_axis, y_axis) = (
        Axis {
            pitch: 30.0,
            phase: 30.0,
        },
        Axis {
            pitch: 30.0,
            phase: 42.0,
        },
    );
    assert_cells_and_board(&img, &edges, (x_axis, y_axis), (8, 11, 20));
}

/// Issue 11 (seeds 728, 812, 971: sparse boards whose edge lines keep no tile): a line
/// of cells whose far corners carry the board's dots joins it; the ground past the dots
/// does not.
#[test]
fn empty_edge_lines_marked_by_dots_join_the_board() {
    let (pitch, tile) = (30u32, 24u32);
    let mut img = RgbaImage::from_pixel(400, 320, Rgba([70, 110, 160, 255]));
    // Dots on every corner of 6 x 10 cells from (40, 50), the tiles in the middle 4 x 8.
    for l in 0..=6u32 {
        for k in 0..=10u32 {
            let (x, y) = (40 + k * pitch, 50 + l * pitch);
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                img.put_pixel(x - 1 + dx, y - 1 + dy, Rgba([20, 30, 50, 255]));
            }
        }
    }
    for i in 0..32u32 {
        let (r, c) = (1 + i / 8, 1 + i % 8);
        let (x0, y0) = (43 + c * pitch, 53 + r * pitch);
        for y in y0..y0 + tile {
            for x in x0..x0 + tile {
                img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
            }
        }
        let mark = i % 4;
        for d in 0..8 {
            img.put_pixel(x0 + 7 + mark, y0 + 8 + d, Rgba([200, 0, 0, 255]));
            img.put_pixel(x0 + 15 - mark, y0 + 8 + d, Rgba([200, 0, 0, 255]));
        }
    }
    let tiles_only = Geometry {
        rows: 4,
        cols: 8,
        origin: [73.0, 83.0],
        pitch: [30.0, 30.0],
        tile_size: [24.0, 24.0],
    };
    let grown = grown_by_marks(&img, tiles_only);
    assert_eq!((grown.rows, grown.cols), (6, 10), "{grown:?}");
    assert_eq!(grown.origin, [43.0, 53.0]);
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (6, 10), "{g:?}");
}

/// Issue 11 (seed 24038: a sparse board of 70 px cells, its last column empty and marked by
/// faint dots of 3 px, a tenth of a disc's pixels): the dots mark the corners all the same.
#[test]
fn faint_dots_much_smaller_than_the_disc_mark_the_corners() {
    let ground = [180u8, 80, 120];
    let mut img = RgbaImage::from_fn(560, 400, |x, y| {
        let shade = ((x + y) / 40) as u8;
        Rgba([ground[0] - shade, ground[1], ground[2] + shade, 255])
    });
    // Dots (black at a third) on every corner of 5 x 7 cells from (20, 20).
    for l in 0..=5u32 {
        for k in 0..=7u32 {
            for dy in 0..3 {
                for dx in 0..3 {
                    let (x, y) = (19 + k * 70 + dx, 19 + l * 70 + dy);
                    let p = img.get_pixel_mut(x, y);
                    for c in 0..3 {
                        p.0[c] = (f32::from(p.0[c]) * 0.65) as u8;
                    }
                }
            }
        }
    }
    // Tiles in the first six columns of the middle three rows, two kinds.
    for i in 0..18u32 {
        let (r, c) = (1 + i / 6, i % 6);
        let (x0, y0) = (25 + c * 70, 25 + r * 70);
        for y in y0..y0 + 60 {
            for x in x0..x0 + 60 {
                img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
            }
        }
        for d in 0..30 {
            img.put_pixel(x0 + 20 + 10 * (i % 2), y0 + 15 + d, Rgba([20, 90, 20, 255]));
        }
    }
    let tiles_only = Geometry {
        rows: 3,
        cols: 6,
        origin: [25.0, 95.0],
        pitch: [70.0, 70.0],
        tile_size: [60.0, 60.0],
    };
    let grown = grown_by_marks(&img, tiles_only);
    assert_eq!((grown.rows, grown.cols), (5, 7), "{grown:?}");
    assert_eq!(grown.origin, [25.0, 25.0]);
}

/// Issue 11 (seed 433: grid lines in the gaps, the box as long as the pitch): the box keeps
/// off the lines, so empty cells framed by them read as empty.
#[test]
fn a_box_as_long_as_the_pitch_keeps_off_the_grid_lines() {
    let pitch = 30u32;
    let mut img = RgbaImage::from_pixel(400, 320, Rgba([40, 50, 70, 255]));
    // Light lines one pixel wide round 6 x 10 cells from (40, 50).
    for k in 0..=10u32 {
        for y in 50..=50 + 6 * pitch {
            img.put_pixel(40 + k * pitch, y, Rgba([200, 200, 210, 255]));
        }
    }
    for l in 0..=6u32 {
        for x in 40..=40 + 10 * pitch {
            img.put_pixel(x, 50 + l * pitch, Rgba([200, 200, 210, 255]));
        }
    }
    // Tiles of 24 px on every other cell, four kinds by a bar's place.
    let mut kinds = vec![0u32; 60];
    for i in (0..60).filter(|i| (i / 10 + i % 10) % 2 == 0) {
        let (r, c) = (i as u32 / 10, i as u32 % 10);
        let (x0, y0) = (44 + c * pitch, 54 + r * pitch);
        for y in y0..y0 + 24 {
            for x in x0..x0 + 24 {
                img.put_pixel(x, y, Rgba([60, 120, 130, 255]));
            }
        }
        let kind = (i as u32 / 2) % 4;
        for d in 0..10 {
            img.put_pixel(x0 + 4 + 4 * kind, y0 + 7 + d, Rgba([240, 240, 240, 255]));
        }
        kinds[i] = kind + 1;
    }
    let whole_cells = Geometry {
        rows: 6,
        cols: 10,
        origin: [40.0, 50.0],
        pitch: [30.0, 30.0],
        tile_size: [30.0, 30.0],
    };
    let g = grown_by_marks(&img, whole_cells);
    for a in 0..2 {
        // The line before the first tile at 40 or 50, the next a pitch on.
        let line = [40.0, 50.0][a];
        assert!(g.origin[a] >= line + 1.0, "{g:?}");
        assert!(g.origin[a] + g.tile_size[a] <= line + 30.0, "{g:?}");
        assert!(g.tile_size[a] >= 18.0, "{g:?}");
    }
    let read = crate::vision::read_board(&img, &g, &ClassifierSettings::default()).unwrap();
    let empty: Vec<bool> = read.board.cells().iter().map(|&k| k == 0).collect();
    let drawn_empty: Vec<bool> = kinds.iter().map(|&k| k == 0).collect();
    assert_eq!(empty, drawn_empty, "{}", read.board);
}

/// Issue 11 (seed 397: a comb at half the pitch): cells that are halves of tiles show no
/// kind in columns of both parities and lie side by side; a board read on the tiles'
/// own lattice mixes its kinds' parities. Seeds 12210 and 12227: a blank kind's halves
/// read alike, and halves off the tiles' phase read every other cell empty; seeds 13041
/// and 240: one kind misread onto both parities among many, or among a few by chance.
#[test]
fn halves_of_tiles_are_told_from_tiles() {
    // Six kinds of tile, each read as a left half (odd kind) and a right half (even).
    let halves: Board = "1 2 3 4 5 6 7 8 9 10 11 12\n3 4 1 2 7 8 5 6 11 12 9 10"
        .parse()
        .unwrap();
    assert!(halves_begin(&halves, 0).contains(&0));
    assert!(halves_begin(&halves, 1).is_empty());
    let tiles: Board = "1 2 3 4 5 6\n2 1 4 3 6 5\n3 4 5 6 1 2\n6 5 2 1 4 3"
        .parse()
        .unwrap();
    assert!(halves_begin(&tiles, 0).is_empty());
    assert!(halves_begin(&tiles, 1).is_empty());
    // A blank kind (13) reads alike in both halves, side by side.
    let blank: Board = "1 2 13 13 3 4 5 6 7 8 9 10 11 12\n3 4 1 2 13 13 7 8 5 6 11 12 9 10"
        .parse()
        .unwrap();
    assert!(halves_begin(&blank, 0).contains(&0));
    // A half lattice off the tiles' phase: the cells straddling two tiles read empty.
    let straddling: Board = "1 0 2 0 3 0 4 0 5 0 6 0\n2 0 1 0 4 0 3 0 6 0 5 0"
        .parse()
        .unwrap();
    assert_eq!(halves_begin(&straddling, 0), vec![0, 1]);
    assert!(halves_begin(&straddling, 1).is_empty());
    // One half misread (row 3, column 1: a left half of kind 1) among 23 kinds of halves.
    let misread: Board = "1 2 3 4 5 6 7 8 9 10 11 12\n\
                          13 14 15 16 17 18 19 20 21 22 23 24\n\
                          3 4 1 2 7 8 5 6 11 12 9 10\n\
                          15 1 13 14 19 20 17 18 23 24 21 22"
        .parse()
        .unwrap();
    assert!(halves_begin(&misread, 0).contains(&0));
    // Whole tiles of a sparse board: 8 of 9 kinds on one parity by chance.
    let sparse: Board = "1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0 9 0\n\
                         0 9 1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0"
        .parse()
        .unwrap();
    assert!(halves_begin(&sparse, 0).is_empty());
    // Each kind's pair in one row (seed 14127) says nothing of the rows' parities.
    let rowwise: Board = "1 0 1 2 0 2\n3 3 0 4 0 4\n5 0 5 6 6 0\n7 7 0 0 8 8"
        .parse()
        .unwrap();
    assert!(halves_begin(&rowwise, 1).is_empty());
}

/// The first axes `find_axes` gives for an image, across x and y.
fn first_axes(image: &RgbaImage) -> (Axis, Axis) {
    let (w, h) = image.dimensions();
    let x = find_axes(&axis_peaks(&column_profile(
        &vertical_edges(image),
        0,
        h as usize,
    )))[0];
    let y = find_axes(&axis_peaks(&row_profile(
        &horizontal_edges(image),
        0,
        w as usize,
    )))[0];
    (x, y)
}

#[test]
fn the_larger_of_two_grids_is_the_board_whichever_comes_first() {
    // The board of 5 x 8 tiles on the left, and a patch of small squares on the right (a
    // texture, a keypad): both are grids of alike cells with four sides.
    let background = Rgba([20, 60, 20, 255]);
    let mut board = RgbaImage::from_pixel(560, 300, background);
    image::imageops::replace(&mut board, &synthetic(5, 8, (30, 38), 2), 0, 0);
    let mut patch = RgbaImage::from_pixel(560, 300, background);
    for r in 0..7u32 {
        for c in 0..7u32 {
            for y in 0..14 {
                for x in 0..14 {
                    patch.put_pixel(420 + c * 16 + x, 60 + r * 16 + y, Rgba([200, 200, 90, 255]));
                }
            }
        }
    }
    let mut both = board.clone();
    for (x, y, p) in patch.enumerate_pixels() {
        if *p != background {
            both.put_pixel(x, y, *p);
        }
    }
    let (bx, by) = first_axes(&board);
    let (px, py) = first_axes(&patch);
    assert!((px.pitch - 16.0).abs() < 0.5, "{px:?}");
    let edges = Edges::of(&both);
    for (xs, ys) in [([px, bx], [py, by]), ([bx, px], [by, py])] {
        let (x, _, extent) = first_board(&edges, &xs, &ys, Sides::OnComb).unwrap();
        assert!((x.pitch - 30.0).abs() < 0.5, "{x:?}");
        assert_eq!((extent.rows, extent.cols), (5, 8));
    }
}

#[test]
fn a_board_is_as_large_as_its_tiles_not_its_box() {
    // The board of 5 x 8 tiles on the left; on the right, squares on a 40 px lattice (no
    // whole multiple of the board's pitches): four touching and four more up to four cells
    // apart, whose box (6 x 6 cells) is larger than the board but whose squares cover much
    // less.
    let background = Rgba([20, 60, 20, 255]);
    let mut board = RgbaImage::from_pixel(640, 400, background);
    image::imageops::replace(&mut board, &synthetic(5, 8, (30, 38), 2), 0, 0);
    let mut patch = RgbaImage::from_pixel(640, 400, background);
    let squares = [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (0, 4),
        (4, 0),
        (4, 4),
        (5, 5),
    ];
    for (r, c) in squares {
        for y in 0..36 {
            for x in 0..36 {
                patch.put_pixel(330 + c * 40 + x, 60 + r * 40 + y, Rgba([200, 200, 90, 255]));
            }
        }
    }
    let mut both = board.clone();
    for (x, y, p) in patch.enumerate_pixels() {
        if *p != background {
            both.put_pixel(x, y, *p);
        }
    }
    let (bx, by) = first_axes(&board);
    let (px, py) = first_axes(&patch);
    assert!(
        (px.pitch - 40.0).abs() < 0.5 && (py.pitch - 40.0).abs() < 0.5,
        "{px:?} {py:?}"
    );
    let edges = Edges::of(&both);
    let (_, _, sparse) = first_board(&edges, &[px], &[py], Sides::OnComb).unwrap();
    assert_eq!((sparse.rows, sparse.cols), (6, 6));
    for (xs, ys) in [([px, bx], [py, by]), ([bx, px], [by, py])] {
        let (x, _, extent) = first_board(&edges, &xs, &ys, Sides::OnComb).unwrap();
        assert!((x.pitch - 30.0).abs() < 0.5, "{x:?}");
        assert_eq!((extent.rows, extent.cols), (5, 8));
    }
}

#[test]
fn the_second_phase_of_the_pitch_is_a_candidate() {
    // Tile borders every 40 px from 20, and an inner frame 10 px inside every tile that
    // collects more: when the frame's comb is the first axis, the borders' is the second.
    let mut profile = vec![0f32; 600];
    for k in 0..14 {
        profile[20 + 40 * k] = 10.0;
        profile[30 + 40 * k] = 12.0;
    }
    let frame = Axis {
        pitch: 40.0,
        phase: 30.0,
    };
    let borders = other_phase(&profile, frame).unwrap();
    assert_eq!((borders.pitch, borders.phase), (40.0, 20.0));
    // With nothing else repeating at the pitch, there is no second phase.
    let mut alone = vec![0f32; 600];
    for k in 0..14 {
        alone[30 + 40 * k] = 12.0;
    }
    assert_eq!(other_phase(&alone, frame), None);
}

#[test]
fn theil_sen_ignores_a_minority_of_outliers() {
    let mut points: Vec<(f64, f64)> = (0..10).map(|k| (k as f64, 3.0 + 40.0 * k as f64)).collect();
    points[2].1 += 1.0;
    points[7].1 -= 1.0;
    let (slope, intercept) = theil_sen(&points).unwrap();
    assert!((slope - 40.0).abs() < 1e-9 && (intercept - 3.0).abs() < 1e-9);
    assert_eq!(theil_sen(&[(1.0, 5.0)]), None);
}

/// A profile with a group of edges at each boundary `start + k * pitch`: a main edge and,
/// at some boundaries, a stronger one a pixel before it (a tile beside an empty cell).
fn boundary_profile(start: f64, pitch: f64, stronger_before: &[usize]) -> Vec<f32> {
    let mut profile = vec![0f32; 520];
    for k in 0..=10 {
        let at = start + k as f64 * pitch;
        // Area-sampled: an edge between two pixels shares its weight between them.
        let i = at.floor() as usize;
        let t = (at - at.floor()) as f32;
        profile[i] += 10.0 * (1.0 - t);
        profile[i + 1] += 10.0 * t;
        if stronger_before.contains(&k) {
            profile[i - 1] += 14.0;
        }
        profile[i + 2] += 3.0;
    }
    profile
}

#[test]
fn registration_lands_on_whole_pixels_whatever_the_boundary_mix() {
    let profile = boundary_profile(20.0, 40.0, &[1, 2, 6]);
    let start = Axis {
        pitch: 40.15,
        phase: 19.4,
    };
    let fit = register_fit(&profile, start, 0, 10).unwrap().0;
    assert!((fit.pitch - 40.0).abs() < 1e-9, "{fit:?}");
    assert!((fit.at(5.0) - 220.0).abs() < 1e-9, "{fit:?}");
}

#[test]
fn registration_finds_a_fractional_pitch() {
    let profile = boundary_profile(20.3, 41.6, &[]);
    let start = Axis {
        pitch: 41.5,
        phase: 20.0,
    };
    let fit = register_fit(&profile, start, 0, 10).unwrap().0;
    assert!((fit.pitch - 41.6).abs() < 0.02, "{fit:?}");
}

/// An area-sampled peak of `height` at fractional position `at`, spread over three pixels.
fn add_peak(profile: &mut [f32], at: f64, height: f32) {
    for (i, v) in profile.iter_mut().enumerate() {
        let d = (i as f64 - at).abs();
        *v += height * (1.0 - d / 1.5).max(0.0) as f32;
    }
}

#[test]
fn edge_fit_finds_the_pitch_of_a_sparse_rescaled_board() {
    // Tiles' leading borders in one profile, trailing borders (2 px before the next
    // boundary) in the other; many tiles missing, so whole boundaries lack one border.
    let (start, pitch) = (20.3, 25.58 + 0.02);
    let mut rise = vec![0f32; 560];
    let mut fall = vec![0f32; 560];
    for k in 0..20 {
        let at = start + k as f64 * pitch;
        if k % 3 != 1 && k < 20 {
            add_peak(&mut rise, at, 30.0);
        }
        if k % 4 != 2 && k > 0 {
            add_peak(&mut fall, at - 2.0, 25.0);
        }
    }
    let guess = Axis {
        pitch: 25.55,
        phase: 20.0,
    };
    let fit = edge_fit([&rise, &fall], guess, 0, 19).unwrap();
    assert!((fit.pitch - pitch).abs() < 0.005, "{fit:?}");
}

#[test]
fn a_side_is_an_edge_only_where_it_runs_the_whole_side() {
    let mut img = RgbaImage::from_pixel(60, 90, Rgba([20, 20, 20, 255]));
    for y in 0..90 {
        // x = 10: an edge all the way down; x = 40: one down the lower two thirds only.
        for x in 10..60 {
            if x < 40 || y < 30 {
                img.put_pixel(x, y, Rgba([230, 230, 230, 255]));
            }
        }
    }
    let map = vertical_edges(&img);
    assert!(side_line(&map, (7.5, 11.5), (5.0, 85.0), true).0 > 100.0);
    assert_eq!(side_line(&map, (37.5, 41.5), (5.0, 85.0), true).0, 0.0);
}

/// Tiles drawn in 3D, `pitch` apart with a gap of `gap`: a body whose side, `side` px
/// deep, shows on the left and at the bottom in two layers (a dark base 3 px deep, a
/// lighter band), a light face flush with the body's top right corner, and on each face a
/// picture of bars (one of five kinds) spanning the face's middle, so that the pictures
/// are centred on the face. Returns the image, tile (0, 0)'s face centre and its body's.
fn three_d_board(
    rows: u32,
    cols: u32,
    pitch: (u32, u32),
    (gap, side): (u32, u32),
) -> (RgbaImage, [f64; 2], [f64; 2]) {
    let mut img = RgbaImage::from_pixel(520, 460, Rgba([60, 90, 140, 255]));
    let (bw, bh) = (pitch.0 - gap, pitch.1 - gap);
    let (fw, fh) = (bw - side, bh - side);
    let (left, top) = (31, 27);
    for r in 0..rows {
        for c in 0..cols {
            let (x0, y0) = (left + c * pitch.0, top + r * pitch.1);
            for y in y0..y0 + bh {
                for x in x0..x0 + bw {
                    // The outer layer of the side, then a lighter band, then the face.
                    let depth = (x - x0).min(y0 + bh - 1 - y);
                    let colour = match depth {
                        d if d < 3 => Rgba([30, 110, 60, 255]),
                        d if d < side => Rgba([200, 190, 150, 255]),
                        _ => Rgba([240, 236, 225, 255]),
                    };
                    img.put_pixel(x, y, colour);
                }
            }
            let (fx, fy) = (x0 + side, y0);
            let kind = (r * cols + c) % 5;
            let ink = Rgba([150, 20 + 40 * kind as u8, 30, 255]);
            // Two horizontal bars across the picture's width, two vertical bars down its
            // height: the picture spans the face's middle, inset 6 px on every side.
            for i in 0..2 {
                let y = fy + 8 + (kind + 3 * i) * (fh - 18) / 8;
                let x = fx + 7 + (kind + 3 * i) * (fw - 16) / 8;
                for t in 0..2 {
                    for xx in fx + 6..fx + fw - 6 {
                        img.put_pixel(xx, y + t, ink);
                    }
                    for yy in fy + 6..fy + fh - 6 {
                        img.put_pixel(x + t, yy, ink);
                    }
                }
            }
        }
    }
    let face_centre = [
        f64::from(left + side) + f64::from(fw) / 2.0,
        f64::from(top) + f64::from(fh) / 2.0,
    ];
    let body_centre = [
        f64::from(left) + f64::from(bw) / 2.0,
        f64::from(top) + f64::from(bh) / 2.0,
    ];
    (img, face_centre, body_centre)
}

#[test]
fn the_pictures_centre_is_the_faces_centre_whatever_the_side() {
    let (img, face, _) = three_d_board(6, 8, (50, 62), (5, 8));
    let axes = |pitch: f64, at: f64| Axis {
        pitch,
        phase: at - 1.0,
    };
    // Combs on the body's edges, and on the outer layer's inner edge.
    for (x0, y0) in [(31.0, 27.0), (34.0, 30.0)] {
        let (x, y) = (axes(50.0, x0), axes(62.0, y0));
        let cx = drawing_centre(&img, (x, (0, 8)), (y, (0, 6)), true).unwrap();
        let cy = drawing_centre(&img, (y, (0, 6)), (x, (0, 8)), false).unwrap();
        assert!((cx - face[0]).abs() < 0.5, "x {cx} face {face:?}");
        assert!((cy - face[1]).abs() < 0.5, "y {cy} face {face:?}");
    }
}

#[test]
fn a_run_over_a_level_grows_from_the_middle_and_wraps_round() {
    // Bins 3..=6 at the level or over it; the ends cross the level half-way to the bins
    // beside them.
    let fold = [0.0, 0.0, 0.0, 4.0, 5.0, 5.0, 3.0, 1.0, 0.0, 0.0];
    let middle = drawn_run(&fold, 2.0).unwrap();
    assert!((middle - (2.5 + 6.5) / 2.0).abs() < 1e-9, "{middle}");
    // A run across the end of the period.
    let wrapped = [5.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 5.0];
    let middle = drawn_run(&wrapped, 2.0).unwrap();
    assert!((middle - (7.0 + 11.5) / 2.0).abs() < 1e-9, "{middle}");
    assert_eq!(drawn_run(&[3.0; 6], 2.0), None);
}

#[test]
fn tiles_moved_onto_their_pictures_go_where_the_tiles_measured_them() {
    let spans = [(100.0, 40.0), (200.0, 50.0)];
    let pitch = [44.0, 54.0];
    let measured = |spread: f64| {
        Some(PictureCentre {
            centre: [121.5, 226.0],
            spread: [spread, spread],
        })
    };
    // x was moved (onto the fold's centre, 123.0); y stands on its span.
    let moved = [123.0 - 20.0, 200.0];
    // Onto the measured centre, a pitch away counting the same; y stays.
    let far = Some(PictureCentre {
        centre: [121.5 - 44.0, 226.0],
        spread: [0.5, 0.5],
    });
    assert_eq!(onto_pictures(moved, spans, far, pitch), [101.5, 200.0]);
    assert_eq!(
        onto_pictures(moved, spans, measured(0.5), pitch),
        [101.5, 200.0]
    );
    // Pictures that disagree, or none measured: the move stands.
    assert_eq!(onto_pictures(moved, spans, measured(2.0), pitch), moved);
    assert_eq!(onto_pictures(moved, spans, None, pitch), moved);
}

#[test]
fn tiles_move_onto_faces_and_pictures_only_where_the_two_agree() {
    let spans = [(100.0, 40.0), (200.0, 50.0)];
    let pitch = [44.0, 54.0];
    let origin = [101.0, 201.0];
    let centre = |x: f64, y: f64, spread: f64| {
        Some(PictureCentre {
            centre: [x, y],
            spread: [spread, spread],
        })
    };
    // Half a pixel apart on x, a pitch and a pixel apart on y: the midpoint.
    let both = (
        centre(121.5, 226.5, 0.5),
        centre(122.0, 226.5 + 54.0 + 1.0, 0.5),
    );
    assert_eq!(onto_faces(origin, spans, both, pitch), [101.75, 202.0]);
    // Within half a pixel of the tiles' centre on x: x stays.
    let near = (centre(121.0, 226.5, 0.5), centre(121.4, 227.5, 0.5));
    assert_eq!(onto_faces(origin, spans, near, pitch), [101.0, 202.0]);
    // Two pixels apart on y, or either spread wide, or either missing: the tiles stay.
    let apart = (centre(121.5, 226.0, 0.5), centre(121.5, 228.0, 0.5));
    assert_eq!(onto_faces(origin, spans, apart, pitch), origin);
    let spread = (centre(121.5, 226.0, 1.5), centre(121.5, 226.0, 0.5));
    assert_eq!(onto_faces(origin, spans, spread, pitch), origin);
    let one = (None, centre(121.5, 226.0, 0.5));
    assert_eq!(onto_faces(origin, spans, one, pitch), origin);
}

#[test]
fn tiles_move_onto_their_pictures_only_when_far_off_them() {
    let pitch = [50.0, 60.0];
    // Both spans' centres (25, 30) within 9% of a pitch of the pictures': they stand.
    let spans = [(0.0, 50.0), (0.0, 60.0)];
    let near = [Some(29.0), Some(26.0)];
    let unframed = [false, false];
    assert_eq!(
        centred_on_drawings(spans, (near, unframed, unframed), pitch),
        [0.0, 0.0]
    );
    // y 6 px off (10%): both axes move onto the pictures (a pitch away counts the same).
    let far = [Some(79.0), Some(24.0)];
    assert_eq!(
        centred_on_drawings(spans, (far, unframed, unframed), pitch),
        [4.0, -6.0]
    );
    // Within half a pixel an axis stays; no picture, no move.
    let close = [Some(25.4), Some(24.0)];
    assert_eq!(
        centred_on_drawings(spans, (close, unframed, unframed), pitch),
        [0.0, -6.0]
    );
    assert_eq!(
        centred_on_drawings(spans, ([None, None], unframed, unframed), pitch),
        [0.0, 0.0]
    );
}

#[test]
fn tiles_near_their_pictures_move_onto_them_when_edges_frame_them_both_ways() {
    let pitch = [50.0, 60.0];
    let spans = [(0.0, 50.0), (0.0, 60.0)];
    let near = [Some(29.0), Some(26.0)];
    // Edges centred on the pictures on both axes: a face there, the spans move.
    assert_eq!(
        centred_on_drawings(spans, (near, [true, true], [false, false]), pitch),
        [4.0, -4.0]
    );
    // On one axis only: the spans stand.
    assert_eq!(
        centred_on_drawings(spans, (near, [true, false], [false, false]), pitch),
        [0.0, 0.0]
    );
    // Spans within a pixel of the pictures on both axes frame them already: they stand.
    let closer = [Some(25.9), Some(29.2)];
    assert_eq!(
        centred_on_drawings(spans, (closer, [true, true], [false, false]), pitch),
        [0.0, 0.0]
    );
}

/// A board's edge profile folded at a pitch of 40 from boundary 9 (edges at 10 + offset):
/// a strong edge at offset 0 (the body's outer edge), a layer inside the side at 4, the
/// face's edge at 8 and the far edge at 36 shared by face and body; a weak stroke at 20.
fn layered_side_fold() -> EdgeFold {
    let mut profile = vec![0f32; 130];
    for k in 0..3 {
        let base = 9 + 40 * k;
        profile[base] = 100.0;
        profile[base + 4] = 60.0;
        profile[base + 8] = 30.0;
        profile[base + 20] = 10.0;
        profile[base + 36] = 90.0;
    }
    let axis = Axis {
        pitch: 40.0,
        phase: 9.0,
    };
    EdgeFold::new(&profile, axis, (0, 2)).unwrap()
}

#[test]
fn pictures_are_framed_by_two_edges_centred_on_them() {
    let fold = layered_side_fold();
    // The face 18..46 is centred at 32: framed, also a pitch away; the body 10..46
    // (centre 28) and the box 14..46 (centre 30) frame their own centres too.
    assert!(framed_by_edges(&fold, 32.0));
    assert!(framed_by_edges(&fold, 72.5));
    assert!(framed_by_edges(&fold, 28.0));
    // The stroke is too weak to count as an edge: 20 (between it and the body's outer
    // edge) is not framed; nor are 25 and 65 (25 a pitch on), 3 px from any pair's middle;
    // nor 26, half a pitch from the far edge, which only that edge and its copy a pitch
    // on bound.
    assert!(!framed_by_edges(&fold, 20.0));
    assert!(!framed_by_edges(&fold, 25.0));
    assert!(!framed_by_edges(&fold, 65.0));
    assert!(!framed_by_edges(&fold, 26.0));
}

#[test]
fn a_span_that_meets_no_framing_edge_is_off_the_frame() {
    // Edges at 10 (body), 14 (a layer inside the side), 18 (the face) and 46 (the far
    // edge of face and body); the face 18..46 frames 32, and so do the edges at 14 and 50
    // (the body's edge a pitch on).
    let fold = layered_side_fold();
    // The face, the body and a box from the side's layer all meet a framing edge.
    assert!(!off_the_frame((18.0, 28.0), &fold, 32.0));
    assert!(!off_the_frame((10.0, 36.0), &fold, 32.0));
    assert!(!off_the_frame((54.5, 31.5), &fold, 72.0));
    // A span 12..42 meets none (each end 2 px or more from one).
    assert!(off_the_frame((12.0, 30.0), &fold, 32.0));
    // Pictures nothing frames: no frame to be off.
    assert!(!off_the_frame((12.0, 30.0), &fold, 20.0));
}

#[test]
fn tiles_off_the_edges_that_frame_their_pictures_move_onto_them() {
    let pitch = [50.0, 60.0];
    let spans = [(0.0, 50.0), (0.0, 60.0)];
    let near = [Some(29.0), Some(26.0)];
    // Framed on y alone, within 9% of a pitch: the spans stand while they meet the
    // framing edges, and both move when the y span meets none.
    assert_eq!(
        centred_on_drawings(spans, (near, [false, true], [false, false]), pitch),
        [0.0, 0.0]
    );
    assert_eq!(
        centred_on_drawings(spans, (near, [false, true], [false, true]), pitch),
        [4.0, -4.0]
    );
}

#[test]
fn a_span_inside_a_layered_side_grows_to_the_body() {
    // Each tile's body edge at 10 (+ 40k), a layer inside its side at 14, the face's edge
    // at 18 and the far edge at 46 shared by face and body (see layered_side_fold).
    let fold = layered_side_fold();
    // The pictures centred on the face (32, or a pitch on): the side is at the start. A
    // span on the layer grows to the body's outer edge; the body stands.
    assert_eq!(side_to_body((14.0, 32.0), &fold, 32.0), (10.0, 36.0));
    assert_eq!(side_to_body((14.0, 32.0), &fold, 72.0), (10.0, 36.0));
    assert_eq!(side_to_body((10.0, 36.0), &fold, 32.0), (10.0, 36.0));
    // Pictures centred on the span (the face itself) say nothing of where a side is.
    assert_eq!(side_to_body((18.0, 28.0), &fold, 32.0), (18.0, 28.0));
    assert_eq!(side_to_body((14.0, 32.0), &fold, 30.0), (14.0, 32.0));
    // The pictures at 28, left of the span 18..46: the side is at its end, where the
    // next tile's edges at 50 and 54 lie before its start at 58; the outermost wins.
    assert_eq!(side_to_body((18.0, 28.0), &fold, 28.0), (18.0, 36.0));
}

#[test]
fn a_move_that_takes_the_board_out_of_the_image_is_not_made() {
    let g = Geometry {
        rows: 2,
        cols: 3,
        origin: [10.0, 4.0],
        pitch: [30.0, 40.0],
        tile_size: [28.0, 38.0],
    };
    // The board ends at x 98 and y 82 in a 100 x 90 image.
    assert_eq!(moved_within(g, [11.5, 2.0], 100, 90).origin, [11.5, 2.0]);
    assert_eq!(moved_within(g, [13.0, 4.0], 100, 90).origin, [10.0, 4.0]);
    assert_eq!(moved_within(g, [10.0, -3.0], 100, 90).origin, [10.0, 4.0]);
}

#[test]
fn three_d_tiles_are_centred_on_their_face_or_body() {
    // Issue 11: the tile box landed between face and body, an edge inside the 3D side
    // taken for the tile's.
    let (img, face, body) = three_d_board(6, 8, (50, 62), (5, 14));
    let g = calibrate(&img).unwrap();
    assert_eq!((g.rows, g.cols), (6, 8), "{g:?}");
    let centre = [
        g.origin[0] + g.tile_size[0] / 2.0,
        g.origin[1] + g.tile_size[1] / 2.0,
    ];
    let off = |target: [f64; 2]| (centre[0] - target[0]).hypot(centre[1] - target[1]);
    assert!(
        off(face).min(off(body)) <= 1.0,
        "{g:?}: centre {centre:?}, face {face:?}, body {body:?}"
    );
}

/// One row of `cols` cells: kept tiles (strict, paper-coloured) at `tiles`, and at `lone`
/// a loose cell as strong as them whose face hides its paper.
fn one_row(cols: usize, tiles: &[usize], lone: usize) -> CellEvidence {
    let paper = [230.0, 225.0, 200.0];
    let mut cells = CellEvidence {
        row0: 0,
        col0: 0,
        rows: 1,
        cols,
        candidate: vec![false; cols],
        weakest_side: vec![0.0; cols],
        loose: vec![false; cols],
        weakest_loose: vec![0.0; cols],
        ring: vec![[0.0; 3]; cols],
        sides: vec![[(0.0, 0.0); 4]; cols],
        reach: 1,
    };
    for &i in tiles {
        cells.candidate[i] = true;
        cells.loose[i] = true;
        cells.weakest_side[i] = 140.0;
        cells.weakest_loose[i] = 140.0;
        cells.ring[i] = paper;
    }
    cells.loose[lone] = true;
    cells.weakest_loose[lone] = 120.0;
    cells.ring[lone] = [180.0, 85.0, 77.0];
    cells
}

#[test]
fn a_strong_loose_cell_of_another_colour_joins_only_next_to_a_tile() {
    let paper = [230.0, 225.0, 200.0];
    let next_to = one_row(6, &[0, 1, 2, 3], 4);
    assert!(next_to.joins(4, &[0, 1, 2, 3], paper, 140.0));
    // The same cell a cell away from the tiles is clutter, not a tile.
    let apart = one_row(6, &[0, 1, 2, 3], 5);
    assert!(!apart.joins(5, &[0, 1, 2, 3], paper, 140.0));
    // And next to them but weaker than the board's borders.
    let mut weak = one_row(6, &[0, 1, 2, 3], 4);
    weak.weakest_loose[4] = 70.0;
    assert!(!weak.joins(4, &[0, 1, 2, 3], paper, 140.0));
}

#[test]
fn weak_cells_unlike_the_tiles_are_no_tiles_strong_ones_are() {
    // Row 1: six tiles of paper at the typical border (60); above them, two texture cells
    // alike each other but not the paper, at 22; and one flat tile of another colour at 60.
    let paper = [230.0, 225.0, 200.0];
    let brown = [90.0, 70.0, 30.0];
    let mut cells = CellEvidence {
        row0: 0,
        col0: 0,
        rows: 2,
        cols: 6,
        candidate: vec![false; 12],
        weakest_side: vec![0.0; 12],
        loose: vec![false; 12],
        weakest_loose: vec![0.0; 12],
        ring: vec![[0.0; 3]; 12],
        sides: vec![[(0.0, 0.0); 4]; 12],
        reach: 1,
    };
    for (i, strength, ring) in (6..12)
        .map(|i| (i, 60.0, paper))
        .chain([(1, 22.0, brown), (4, 22.0, brown)])
    {
        cells.candidate[i] = true;
        cells.weakest_side[i] = strength;
        cells.ring[i] = ring;
    }
    let (_, _, cluster, _) = tiles_at(&cells, 60.0).unwrap();
    assert_eq!(cluster, (6..12).collect::<Vec<_>>());
    cells.weakest_side[4] = 60.0;
    let (_, _, mut cluster, _) = tiles_at(&cells, 60.0).unwrap();
    cluster.sort_unstable();
    assert_eq!(cluster, [4, 6, 7, 8, 9, 10, 11]);
}

/// A 4 x 6 board of 30 x 38 cells at (60, 60) whose first and last columns are empty (and
/// a cell in each of the next), on a panel 8 px larger than the board (`panel`), or
/// between two lines down the whole image at the same places (`lines`: a window's or a
/// side panel's edges), in an image `height` pixels high.
fn sparse_on_panel(panel: bool, lines: bool, height: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(400, height, Rgba([20, 60, 20, 255]));
    let mut fill = |x0: u32, x1: u32, y0: u32, y1: u32, colour: [u8; 3]| {
        for y in y0..y1 {
            for x in x0..x1 {
                img.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
            }
        }
    };
    if panel {
        fill(52, 248, 52, 220, [120, 80, 40]);
    }
    if lines {
        fill(51, 53, 0, height, [200, 200, 200]);
        fill(247, 249, 0, height, [200, 200, 200]);
    }
    // The outer tiles' own edges break off at an empty cell (a panel's edge does not).
    let empty = [(1, 1), (2, 4)];
    for r in 0..4 {
        for c in (1..5).filter(|&c| !empty.contains(&(r, c))) {
            let (x0, y0) = (60 + c * 30, 60 + r * 38);
            fill(x0, x0 + 28, y0, y0 + 36, [240, 240, 230]);
            let mark = (r * 6 + c) % 5;
            fill(
                x0 + 8 + mark * 2,
                x0 + 10 + mark * 2,
                y0 + 12,
                y0 + 24,
                [200, 0, 0],
            );
        }
    }
    img
}

#[test]
fn a_board_on_a_panel_spans_the_panel_whatever_its_edge_columns_hold() {
    // The panel's foot 10 px above the image's: its sides show they end at its top.
    for height in [300, 230] {
        let g = calibrate(&sparse_on_panel(true, false, height)).unwrap();
        assert_eq!((g.rows, g.cols), (4, 6), "{height}: {g:?}");
        assert!((g.origin[0] - 60.0).abs() < 1.0, "{height}: {g:?}");
        assert!((g.pitch[0] - 30.0).abs() < 0.3, "{height}: {g:?}");
    }
    // Lines that go on past the board are no panel: the tiles alone give the board.
    let g = calibrate(&sparse_on_panel(false, true, 300)).unwrap();
    assert_eq!((g.rows, g.cols), (4, 4), "{g:?}");
    assert!((g.origin[0] - 90.0).abs() < 1.0, "{g:?}");
}

#[test]
fn the_objects_board_grows_to_its_panel_past_a_grainy_corner() {
    let mut img = sparse_on_panel(true, false, 300);
    // A wallpaper's grain where the panel's right side would go on above it.
    for y in 0..52 {
        for x in 246..250 {
            let v = if (x + y) % 2 == 0 { 35 } else { 5 };
            img.put_pixel(x, y, Rgba([v, 60, 20, 255]));
        }
    }
    let edges = Edges::of(&img);
    // The objects span the four middle columns, the whole cells.
    let objects = Geometry {
        rows: 4,
        cols: 4,
        origin: [90.0, 60.0],
        pitch: [30.0, 38.0],
        tile_size: [30.0, 38.0],
    };
    let g = on_panel(&edges, objects);
    assert_eq!((g.rows, g.cols), (4, 6), "{g:?}");
    assert!((g.origin[0] - 60.0).abs() < 0.5, "{g:?}");
    // Lines down the whole image are no panel.
    let lines = sparse_on_panel(false, true, 300);
    assert_eq!(on_panel(&Edges::of(&lines), objects), objects);
}

/// Touching 30 x 38 tiles, `rows` x `cols` from (37, 41), parted by a faint line, three of
/// them with a dark frame drawn just inside their border (kshisen's white dragon).
fn faint_borders_and_three_framed(rows: u32, cols: u32) -> RgbaImage {
    let mut img = RgbaImage::from_pixel(400, 300, Rgba([60, 40, 20, 255]));
    let framed = [(1, 2), (3, 7), (4, 4)];
    for r in 0..rows {
        for c in 0..cols {
            let (x0, y0) = (37 + c * 30, 41 + r * 38);
            for y in y0..y0 + 38 {
                for x in x0..x0 + 30 {
                    let faint = x == x0 || y == y0;
                    let (dx, dy) = ((x - x0).min(x0 + 29 - x), (y - y0).min(y0 + 37 - y));
                    let frame = framed.contains(&(r, c)) && (2..4).contains(&dx.min(dy));
                    let v = if frame {
                        0
                    } else if faint {
                        200
                    } else {
                        235
                    };
                    img.put_pixel(x, y, Rgba([v, v, v.saturating_sub(10), 255]));
                }
            }
            // A small mark of one of five kinds in the middle.
            let mark = (r * cols + c) % 5;
            for d in 0..6 {
                img.put_pixel(x0 + 11 + mark * 2, y0 + 16 + d, Rgba([200, 0, 0, 255]));
            }
        }
    }
    img
}

#[test]
fn a_few_faces_framed_along_their_border_do_not_set_the_typical_border() {
    let img = faint_borders_and_three_framed(6, 10);
    let edges = Edges::of(&img);
    let (x_axis, y_axis) = (
        Axis {
            pitch: 30.0,
            phase: 7.0,
        },
        Axis {
            pitch: 38.0,
            phase: 3.0,
        },
    );
    // At the 98th percentile the framed faces alone are tiles.
    assert!(
        find_extent(
            &edges,
            x_axis,
            y_axis,
            (Outliers::Typical, Growth::None, Sides::OnComb)
        )
        .is_err()
    );
    assert_cells_and_board(&img, &edges, (x_axis, y_axis), (6, 10, 60));
}

/// Asserts that the tile-like cells on the axes make a board of (rows, cols) holding
/// `tiles` (see [`find_extent`], looking past outliers), and that calibrate finds a board
/// of that size.
fn assert_cells_and_board(
    img: &RgbaImage,
    edges: &Edges,
    (x_axis, y_axis): (Axis, Axis),
    (rows, cols, tiles): (usize, usize, usize),
) {
    let (extent, found) = find_extent(
        edges,
        x_axis,
        y_axis,
        (Outliers::LookPast, Growth::None, Sides::OnComb),
    )
    .unwrap();
    assert_eq!((extent.rows, extent.cols, found), (rows, cols, tiles));
    let g = calibrate(img).unwrap();
    assert_eq!((g.rows, g.cols), (rows, cols), "{g:?}");
}

#[test]
fn the_measures_most_agree_on_give_their_median() {
    // One vote each, two needed: two measures a pixel apart outvote one far off; the lone one
    // stands for nothing.
    let one_vote = |points: &[[f64; 2]]| points.iter().map(|&p| (p, 1)).collect::<Vec<_>>();
    let agreed = |points: &[[f64; 2]]| most_agreed(&one_vote(points), 1.0, 2);
    let two = agreed(&[[10.0, 20.0], [10.6, 20.6], [14.0, 16.0]]).unwrap();
    assert!((two[0] - 10.3).abs() < 1e-9 && (two[1] - 20.3).abs() < 1e-9);
    // No two agree: no centre.
    assert_eq!(agreed(&[[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]]), None);
    // Two groups as large: the first point's group.
    let tie = agreed(&[[0.0, 0.0], [5.0, 5.0], [0.5, 0.0], [5.0, 5.5]]);
    assert_eq!(tie, Some([0.25, 0.0]));
    // A point with two others near it draws from both, though they lie 1.6 apart.
    let chain = agreed(&[[0.0, 0.0], [0.8, 0.0], [-0.8, 0.0], [9.0, 9.0]]);
    assert_eq!(chain, Some([0.0, 0.0]));
    // Two on whole pixels and one half a pixel off: the median stays on the two.
    let rounded = agreed(&[[48.0, 114.0], [48.0, 114.5], [48.0, 114.0]]);
    assert_eq!(rounded, Some([48.0, 114.0]));
}

#[test]
fn a_measure_with_enough_votes_stands_alone_and_outvotes_two_weak_ones() {
    let measures = [([10.0, 20.0], 3), ([15.0, 25.0], 1), ([15.5, 25.0], 1)];
    assert_eq!(most_agreed(&measures, 1.0, 3), Some([10.0, 20.0]));
    // Two weak measures that agree do not reach three votes.
    assert_eq!(most_agreed(&measures[1..], 1.0, 3), None);
    // The strong one and a weak one beside it: their median.
    let beside = [([10.0, 20.0], 3), ([10.5, 20.0], 1), ([30.0, 30.0], 3)];
    assert_eq!(most_agreed(&beside, 1.0, 3), Some([10.25, 20.0]));
}

/// Session 50, seed 27269 (a sparse board of small 3D tiles on a textured panel): the borders
/// found the whole board, but the panel's empty cells read as tiles without copies, and the
/// objects' board four columns short paired a larger share of its tiles. On one lattice the
/// longer board stands when its tiles beyond the shorter one pair with the shorter one's.
#[test]
fn of_two_boards_on_one_lattice_the_longer_stands_where_its_extra_tiles_pair() {
    let kinds = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];
    let mut img = crate::vision::test_pictures::patterned_tiles(&kinds, (60, 50), (300, 260));
    let whole = Geometry {
        rows: 4,
        cols: 4,
        origin: [62.0, 52.0],
        pitch: [40.0, 40.0],
        tile_size: [36.0, 36.0],
    };
    // The first three rows, their boxes a pixel smaller round the same centres.
    let short = Geometry {
        rows: 3,
        origin: [62.5, 52.5],
        tile_size: [35.0, 35.0],
        ..whole
    };
    let read = |img: &RgbaImage, g: &Geometry| Paired::read(img, g).expect("the tiles read");
    let better = |img: &RgbaImage, a: (&Geometry, &Paired), b: (&Geometry, &Paired)| {
        nested_better(img, (a.0, Some(a.1)), (b.0, Some(b.1)))
    };
    let (whole_read, short_read) = (read(&img, &whole), read(&img, &short));
    let short_over_whole = better(&img, (&short, &short_read), (&whole, &whole_read));
    assert_eq!(short_over_whole, Some(false));
    let whole_over_short = better(&img, (&whole, &whole_read), (&short, &short_read));
    assert_eq!(whole_over_short, Some(true));

    // A row of alike buttons on the same lattice below: they pair with each other, not with
    // the board's tiles, so the board with them does not replace the board.
    for c in 0..4 {
        let (x, y) = (62 + 40 * c, 52 + 160);
        let cell = imageproc::rect::Rect::at(x, y).of_size(36, 36);
        imageproc::drawing::draw_filled_rect_mut(&mut img, cell, Rgba([200, 60, 60, 255]));
        let bar = imageproc::rect::Rect::at(x + 4, y + 14).of_size(28, 8);
        imageproc::drawing::draw_filled_rect_mut(&mut img, bar, Rgba([250, 250, 250, 255]));
    }
    let with_buttons = Geometry { rows: 5, ..whole };
    let (whole_read, buttons_read) = (read(&img, &whole), read(&img, &with_buttons));
    assert!(buttons_read.twins > whole_read.twins);
    let buttons_over_whole = better(&img, (&with_buttons, &buttons_read), (&whole, &whole_read));
    assert_eq!(buttons_over_whole, None);
}

#[test]
fn a_blank_image_has_no_board() {
    let img = RgbaImage::from_pixel(300, 200, Rgba([90, 90, 90, 255]));
    assert!(matches!(calibrate(&img), Err(VisionError::NoBoard(_))));
}

/// A board of `rows` x `cols` from its cells, row-major.
fn board_of(rows: usize, cols: usize, cells: Vec<Kind>) -> Board {
    Board::new(rows, cols, cells).expect("a valid board")
}

#[test]
fn a_kind_over_a_third_of_the_tiles_is_the_ground() {
    // 56 empty cells read as one kind round 28 tiles of 14 kinds in pairs (seed 33298).
    let mut cells: Vec<Kind> = vec![1; 84];
    for (i, cell) in cells.iter_mut().step_by(3).enumerate() {
        *cell = 2 + (i / 2) as Kind;
    }
    assert_eq!(ground_kind(&board_of(7, 12, cells)), Some(1));
    // Pairs and fours of many kinds, and one kind on exactly a third of the tiles: no ground.
    let pairs: Vec<Kind> = (0..24).map(|i| 1 + i / 2).collect();
    assert_eq!(ground_kind(&board_of(4, 6, pairs)), None);
    let third: Vec<Kind> = (0..24).map(|i| if i < 8 { 1 } else { 2 + i / 4 }).collect();
    assert_eq!(ground_kind(&board_of(4, 6, third)), None);
    // A small board's few kinds are not the ground, however large a share they hold.
    let small: Vec<Kind> = (0..12).map(|i| 1 + i / 6).collect();
    assert_eq!(ground_kind(&board_of(3, 4, small)), None);
}

#[test]
fn the_ground_only_counts_against_a_board() {
    use crate::vision::classify::TileCopy;
    let copy = |cell: usize, copy: Option<usize>| TileCopy {
        cell,
        copy,
        blank: false,
    };
    // 9 cells of the ground, all copies of each other, and 4 tiles of which 2 have a copy.
    let mut cells: Vec<Kind> = vec![1; 13];
    cells[9..].copy_from_slice(&[2, 2, 3, 4]);
    let board = board_of(1, 13, cells);
    let mut copies: Vec<TileCopy> = (0..9).map(|c| copy(c, Some((c + 1) % 9))).collect();
    copies.extend([
        copy(9, Some(10)),
        copy(10, Some(9)),
        copy(11, None),
        copy(12, None),
    ]);
    assert_eq!(judged(&board, &copies), (0.5, 4));
    // Without the ground, a share higher than with it does not stand.
    let mut all_paired: Vec<TileCopy> = (0..9).map(|c| copy(c, None)).collect();
    all_paired.extend([
        copy(9, Some(10)),
        copy(10, Some(9)),
        copy(11, Some(12)),
        copy(12, Some(11)),
    ]);
    let (share, tiles) = judged(&board, &all_paired);
    assert!(
        (share - 4.0 / 13.0).abs() < 1e-9 && tiles == 4,
        "{share} {tiles}"
    );
    // Under four tiles left: no evidence.
    let few = board_of(1, 11, [vec![1; 9], vec![2, 2]].concat());
    let few_copies: Vec<TileCopy> = (0..11).map(|c| copy(c, Some(c ^ 1))).collect();
    assert_eq!(judged(&few, &few_copies), (0.0, 2));
}

#[test]
fn a_board_mostly_paired_gives_way_only_to_one_pairing_half_its_area() {
    let lattice = |rows: usize, cols: usize, pitch: [f64; 2]| Geometry {
        rows,
        cols,
        origin: [0.0, 0.0],
        pitch,
        tile_size: pitch,
    };
    let read = |share: f64, tiles: usize| Paired {
        board: board_of(1, 1, vec![0]),
        share,
        twins: (share * tiles as f64).round() as usize,
        unsure: 0,
        judged_share: share,
        judged_tiles: tiles,
    };
    // Seed 36026: the board, 23 of 24 tiles paired, against half its rows reading 7 that pair.
    let board = lattice(4, 6, [72.0, 72.0]);
    let halves = lattice(4, 6, [72.0, 36.0]);
    assert!(!pairs_better(
        (&halves, &read(1.0, 7)),
        (&board, &read(23.0 / 24.0, 24))
    ));
    // The board itself beats a lattice at half the pitch, which reads each tile as four.
    let quarters = lattice(20, 40, [36.0, 36.0]);
    assert!(pairs_better(
        (&board, &read(1.0, 24)),
        (&quarters, &read(0.97, 90))
    ));
    // A best board that pairs poorly (the background's texture) gives way on share alone.
    let texture = lattice(38, 70, [25.0, 27.0]);
    assert!(pairs_better(
        (&board, &read(0.97, 24)),
        (&texture, &read(0.6, 505))
    ));
    // And never to a lower share.
    assert!(!pairs_better(
        (&board, &read(0.9, 24)),
        (&halves, &read(0.95, 7))
    ));
    // Seed 39223: on a tie in share, the larger paired area (the board, not a lattice at
    // another pitch over two of its columns, whose tiles differ only by colour).
    let two_columns = lattice(8, 2, [26.4, 35.8]);
    let full = lattice(8, 14, [31.4, 35.7]);
    assert!(pairs_better(
        (&full, &read(1.0, 112)),
        (&two_columns, &read(1.0, 16))
    ));
    assert!(!pairs_better(
        (&two_columns, &read(1.0, 16)),
        (&full, &read(1.0, 112))
    ));
}

/// Issue 11 (seed 40007: small emoji on a ruled texture, the boxes the whole cell): the boxes
/// are mostly texture and the classifier is unsure of most tiles, though they pair; boxes a
/// little smaller read the same tiles, as paired, surer, and are taken. On a flat panel the
/// same board reads sure and keeps its boxes.
#[test]
fn boxes_filling_the_pitch_shrink_where_the_classifier_is_unsure() {
    let whole_cells = Geometry {
        rows: 4,
        cols: 6,
        origin: [40.0, 40.0],
        pitch: [48.0, 48.0],
        tile_size: [48.0, 48.0],
    };
    let textured = icons_on_a_ruled_panel(60);
    let shrunk = shrunk_to_pairs(&textured, whole_cells, None);
    assert!(shrunk.tile_size[0] < 47.0, "{shrunk:?}");
    assert_eq!(shrunk.pitch, whole_cells.pitch);
    let centre = |g: &Geometry| [0, 1].map(|i| g.origin[i] + g.tile_size[i] / 2.0);
    assert_eq!(centre(&shrunk), centre(&whole_cells));
    let flat = icons_on_a_ruled_panel(0);
    assert_eq!(shrunk_to_pairs(&flat, whole_cells, None), whole_cells);
}

/// A 4 x 6 board of 48 px cells from (40, 40): six kinds of small icons (12 px discs, squares
/// and diamonds in six colours), four of each, on a panel ruled 2 px dark at the cells' edges
/// and speckled by up to `texture` levels.
fn icons_on_a_ruled_panel(texture: u32) -> image::RgbaImage {
    const KINDS: [[usize; 6]; 4] = [
        [1, 2, 3, 4, 5, 6],
        [6, 5, 4, 3, 2, 1],
        [2, 1, 6, 5, 4, 3],
        [3, 4, 1, 2, 6, 5],
    ];
    const COLOURS: [[u8; 3]; 6] = [
        [200, 40, 40],
        [40, 90, 210],
        [230, 190, 30],
        [30, 150, 60],
        [150, 60, 180],
        [240, 120, 20],
    ];
    image::RgbaImage::from_fn(400, 300, |x, y| {
        let (fx, fy) = (i64::from(x) - 40, i64::from(y) - 40);
        if !(0..288).contains(&fx) || !(0..192).contains(&fy) {
            return Rgba([90, 90, 110, 255]);
        }
        let (u, v) = (fx % 48, fy % 48);
        if u < 2 || v < 2 {
            return Rgba([70, 60, 40, 255]);
        }
        let kind = KINDS[(fy / 48) as usize][(fx / 48) as usize];
        let (du, dv) = (u - 25, v - 25);
        let in_icon = match kind % 3 {
            0 => du * du + dv * dv <= 36,
            1 => du.abs() <= 5 && dv.abs() <= 5,
            _ => du.abs() + dv.abs() <= 6,
        };
        if in_icon {
            let [r, g, b] = COLOURS[kind - 1];
            return Rgba([r, g, b, 255]);
        }
        let speck = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % (texture + 1);
        let level = |base: u32, share: u32| (base + speck / share) as u8;
        Rgba([level(150, 1), level(140, 1), level(60, 2), 255])
    })
}
