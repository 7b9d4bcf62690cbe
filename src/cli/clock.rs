//! The time a command's measurement took: CPU time of this thread, which other load on the
//! machine changes little, beside wall-clock time. Speeds are per CPU second.

use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

use super::{CliError, Result};

/// CPU time and wall time since a measurement started.
pub(crate) struct Clock {
    cpu: ThreadTime,
    wall: Instant,
}

impl Clock {
    pub(crate) fn start() -> Result<Clock> {
        let cpu = ThreadTime::try_now()
            .map_err(|e| CliError::new(format!("cannot read the thread's CPU time: {e}")))?;
        Ok(Clock {
            cpu,
            wall: Instant::now(),
        })
    }

    /// (cpu, wall) since the start; where the CPU clock cannot be read, wall time for both.
    pub(crate) fn elapsed(&self) -> (Duration, Duration) {
        let cpu = self
            .cpu
            .try_elapsed()
            .unwrap_or_else(|_| self.wall.elapsed());
        (cpu, self.wall.elapsed())
    }
}
