//! How long a search may think: wall-clock time (`time=`), CPU time of the searching thread
//! (`cpu=`), or both, the first reached ending the search.
//!
//! A CPU budget is what makes a timed agent repeatable: on a busy machine a wall-clock
//! budget buys fewer iterations, a CPU budget about the same number. Reading the thread's
//! CPU clock is a system call, so it is read every 16th look, not at each.

use std::time::{Duration, Instant};

use cpu_time::ThreadTime;

/// Looks at the clock between two readings of the thread's CPU time.
const CPU_EVERY: u32 = 16;

/// A search's budget in time, started when the search starts.
#[derive(Debug)]
pub struct Clock {
    started: Instant,
    wall: Option<Duration>,
    /// The thread's CPU time at the start, when there is a CPU budget and the platform can
    /// read that clock (where it cannot, the budget is counted in wall-clock time).
    cpu_started: Option<ThreadTime>,
    cpu: Option<Duration>,
    looks: u32,
    expired: bool,
}

impl Clock {
    /// Starts a budget of `wall` wall-clock time and `cpu` CPU time, either or both absent.
    #[must_use]
    pub fn start(wall: Option<Duration>, cpu: Option<Duration>) -> Clock {
        Clock {
            started: Instant::now(),
            wall,
            cpu_started: cpu.and_then(|_| ThreadTime::try_now().ok()),
            cpu,
            looks: 0,
            expired: false,
        }
    }

    /// Whether the search has a time budget at all.
    #[must_use]
    pub fn is_limited(&self) -> bool {
        self.wall.is_some() || self.cpu.is_some()
    }

    /// Whether the budget is spent. Once spent it stays spent.
    pub fn expired(&mut self) -> bool {
        if self.expired || !self.is_limited() {
            return self.expired;
        }
        let elapsed = self.started.elapsed();
        let wall_out = self.wall.is_some_and(|t| elapsed >= t);
        self.looks = self.looks.wrapping_add(1);
        let cpu_out = match (self.cpu, &self.cpu_started) {
            (Some(t), Some(at)) if self.looks.is_multiple_of(CPU_EVERY) => {
                at.try_elapsed().map_or(elapsed >= t, |spent| spent >= t)
            }
            (Some(t), None) => elapsed >= t,
            _ => false,
        };
        self.expired = wall_out || cpu_out;
        self.expired
    }

    /// Wall-clock time since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// What the search spent, for its summary: wall-clock seconds, and CPU seconds when it
    /// had a CPU budget (`0.52 s (0.50 s CPU)`).
    #[must_use]
    pub fn spent(&self) -> String {
        let wall = self.started.elapsed().as_secs_f64();
        match self
            .cpu_started
            .as_ref()
            .and_then(|at| at.try_elapsed().ok())
        {
            Some(cpu) => format!("{wall:.2} s ({:.2} s CPU)", cpu.as_secs_f64()),
            None => format!("{wall:.2} s"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin_until(clock: &mut Clock) -> u64 {
        let mut looks = 0u64;
        while !clock.expired() {
            looks += 1;
            std::hint::black_box(looks);
        }
        looks
    }

    #[test]
    fn a_cpu_budget_ends_a_busy_search() {
        let mut clock = Clock::start(None, Some(Duration::from_millis(20)));
        assert!(clock.is_limited());
        assert!(spin_until(&mut clock) > 0);
        assert!(clock.expired(), "a spent budget stays spent");
        assert!(clock.spent().contains("CPU"), "{}", clock.spent());
    }

    #[test]
    fn a_wall_budget_ends_a_sleeping_search() {
        let mut clock = Clock::start(Some(Duration::from_millis(5)), None);
        std::thread::sleep(Duration::from_millis(6));
        assert!(clock.expired());
        assert!(!clock.spent().contains("CPU"));
    }

    #[test]
    fn no_budget_never_expires() {
        let mut clock = Clock::start(None, None);
        assert!(!clock.is_limited());
        assert!((0..100).all(|_| !clock.expired()));
    }
}
