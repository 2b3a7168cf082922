//! Time for the play loop and the simulated game, behind a trait so tests run instantly:
//! [`SystemClock`] sleeps for real, [`FakeClock`] only moves when slept.

use std::time::{Duration, Instant};

/// Time, so tests can fake it.
pub trait Clock {
    /// Time since some fixed start.
    fn now(&self) -> Duration;
    /// Waits `d`.
    fn sleep(&mut self, d: Duration);
}

/// The real clock.
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> Self {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn sleep(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A clock that only moves when slept: tests run instantly and deterministically.
#[derive(Clone, Copy, Debug, Default)]
pub struct FakeClock {
    now: Duration,
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        self.now
    }

    fn sleep(&mut self, d: Duration) {
        self.now += d;
    }
}
