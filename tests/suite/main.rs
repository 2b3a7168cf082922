//! linkup's integration tests, one test binary: `cargo test --release --test suite`.
//!
//! Each module is one area; pick one by its path, `cargo test --release --test suite vision::`.
//! The games under Xvfb are `e2e_games::` (minutes; a quick run skips them with
//! `-- --skip e2e_games::`). `support` holds what the modules share (fixtures, image
//! transforms, the binary runner); `synth` generates screenshots with exact truth.

mod support;
mod synth;

mod annotate;
mod cli;
mod e2e_games;
mod error_text;
mod errors;
mod function_length;
mod fuzz;
mod judge_cli;
mod planner;
mod play_fast;
mod play_sim;
mod profiles;
mod selection;
mod selection_live;
mod solver;
mod synth_vision;
mod templates;
mod vision;
mod vision_cli;
mod vision_tilesets;
