//! What the test modules share: the real fixtures and their grids, the transformations a
//! screenshot goes through, calibrating and reading one, scratch folders, and the `linkup`
//! binary run as a user runs it.

mod fixtures;
mod reading;
mod run;
mod scratch;
mod transform;

pub use fixtures::{
    fixture, fixture_path, fixtures_dir, grid, load, no_board, root, same_up_to_renaming,
};
pub use reading::calibrate_and_read;
pub use run::{Linkup, Run, assert_one_line_error, linkup};
pub use scratch::{Scratch, scratch};
pub use transform::{brightness, jpeg, png_bytes, rescale};
