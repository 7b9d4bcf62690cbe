//! CPU and wall time of one measured run, shared by the benches (each bench is its own crate
//! and includes this file with `#[path]`).

use std::time::Instant;

use cpu_time::ThreadTime;

/// How long a measured run took: CPU time of this thread and wall time, in seconds.
pub struct Timing {
    pub cpu: f64,
    pub wall: f64,
}

/// Runs `f` and measures it.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Timing) {
    let (cpu, wall) = (ThreadTime::now(), Instant::now());
    let out = f();
    let t = Timing {
        cpu: cpu.elapsed().as_secs_f64(),
        wall: wall.elapsed().as_secs_f64(),
    };
    (out, t)
}

/// `count` per second of CPU time, with the wall-time rate beside it.
pub fn rate(count: f64, t: &Timing) -> String {
    format!(
        "{:>12.0}/s CPU ({:.0}/s wall)",
        count / t.cpu.max(1e-9),
        count / t.wall.max(1e-9)
    )
}
