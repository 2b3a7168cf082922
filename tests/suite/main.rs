//! linkup's integration tests, one test binary: `cargo test --release --test suite`.
//!
//! Each module is one area; pick one by its path, `cargo test --release --test suite vision::`.
//! The games under Xvfb are `e2e_games::`.

// Three modules still include `support` each (one copy each, as when they were binaries).
#![allow(clippy::duplicate_mod)]

mod annotate;
mod cli;
mod e2e_games;
mod errors;
mod fuzz;
mod judge_cli;
mod planner;
mod play_sim;
mod profiles;
#[path = "selection.rs"]
mod selection;
mod solver;
#[path = "synth_vision.rs"]
mod synth_vision;
mod templates;
#[path = "vision.rs"]
mod vision;
mod vision_cli;
#[path = "vision_tilesets.rs"]
mod vision_tilesets;
