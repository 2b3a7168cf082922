//! linkup plays link-up tile games (Lianliankan, Onet, Shisen-Sho) on a real desktop by reading
//! the screen and clicking, the way a person would.
//!
//! The pipeline has four stages joined by values: capture a frame, read it into a [`board::Board`]
//! (vision), pick the next pair with the [`solver`], and click it. The board and solver stages
//! are pure; everything that talks to the operating system sits behind a small trait.

pub mod board;
pub mod capture;
pub mod catalogue;
pub mod cli;
pub mod clock;
pub mod deal;
pub mod input;
pub mod judge;
pub mod planner;
pub mod play;
pub mod profile;
pub mod random;
pub mod sim;
pub mod solver;
pub mod stats;
pub mod vision;

mod cmd;
