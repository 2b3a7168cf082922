//! What the test modules share: the real fixtures and their grids, the transformations a
//! screenshot goes through, and the `linkup` binary run as a user runs it.

mod fixtures;
mod run;
mod transform;

pub use fixtures::{
    NOT_READ_YET, fixture, fixture_path, fixtures_dir, grid, load, root, same_up_to_renaming,
};
pub use run::{Linkup, Run, assert_one_line_error, linkup};
pub use transform::{brightness, jpeg, png_bytes, rescale};
