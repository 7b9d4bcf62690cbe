//! How the front end scales with the size of its input: parse, check and lower (what
//! `rulestone check` runs, diagnostics rendered), and `rulestone fmt`, each on a small and a 16
//! times larger generated file, in CPU time of this thread.
//!
//! Prints each time and the ratio of the large to the small; linear code costs about 16 times
//! as much on 16 times the input, and the goal is a ratio within 20. Run with
//! `cargo bench --bench scaling`; `-- --quick` measures inputs 4 times smaller, and
//! `-- --large` runs only the large inputs, once each (to profile them).

#[path = "common/scaled.rs"]
mod scaled;

// `rate` and wall time serve the throughput benches; this one compares CPU times.
#[allow(dead_code)]
#[path = "common/timing.rs"]
mod timing;

use timing::timed;

/// The worst ratio of large to small time accepted for 16 times the input.
const GOAL: f64 = 20.0;

/// What `rulestone check` does to a file: parse, check, lower, and render the diagnostics.
fn check(source: &str) -> (usize, usize) {
    let diags = rulestone::diagnose(source, &[]);
    let text = rulestone::diag::render(&diags, source, "scaled.game", false);
    let errors = diags
        .iter()
        .filter(|d| rulestone::diag::severity(d.as_ref()) == rulestone::diag::Severity::Error)
        .count();
    (errors, text.len())
}

/// What `rulestone fmt` does to a file.
fn fmt(source: &str) -> usize {
    match rulestone::syntax::format_source(source) {
        Ok(text) => text.len(),
        Err(e) => panic!("the generated file does not format: {e}"),
    }
}

/// The CPU seconds of `f` on `source`: the best of `runs` runs, so that a busy machine's
/// interruptions count less.
fn cpu<T>(source: &str, runs: usize, f: impl Fn(&str) -> T) -> f64 {
    (0..runs)
        .map(|_| timed(|| f(source)).1.cpu)
        .fold(f64::INFINITY, f64::min)
}

/// Measures `f` on the small and the large input and prints the ratio; returns whether it is
/// within [`GOAL`].
fn compare<T>(what: &str, small: (&str, &str), large: (&str, &str), f: impl Fn(&str) -> T) -> bool {
    if std::env::args().any(|a| a == "--large") {
        println!(
            "  {what:<28} {:>16} {:>8.3} s",
            large.0,
            cpu(large.1, 1, &f)
        );
        return true;
    }
    let (a, b) = (cpu(small.1, 3, &f), cpu(large.1, 2, &f));
    let ratio = b / a.max(1e-9);
    let ok = ratio <= GOAL;
    println!(
        "  {what:<28} {:>16} {a:>8.3} s   {:>16} {b:>8.3} s   x{ratio:>5.1} {}",
        small.0,
        large.0,
        if ok { "ok" } else { "OVER" }
    );
    ok
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let scale = if quick { 4 } else { 1 };
    let chess = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/chess.game"))
        .expect("games/chess.game");
    let (d1, c1, r1) = (1_000 / scale, 10_000 / scale, 4);
    let small_decls = scaled::declarations(d1);
    let large_decls = scaled::declarations(16 * d1);
    let small_comments = scaled::comments(c1);
    let large_comments = scaled::comments(16 * c1);
    let small_copies = scaled::repeated(&chess, r1);
    let large_copies = scaled::repeated(&chess, 16 * r1);
    for source in [&small_decls, &small_comments] {
        assert_eq!(
            check(source).0,
            0,
            "a generated game must check without errors"
        );
    }
    assert!(
        check(&small_copies).0 > 0,
        "a repeated game declares its names again"
    );

    let label = |n: usize, what: &str| format!("{n} {what}");
    println!("Scaling: 16 times the input, CPU time of this thread (goal: within x{GOAL})\n");
    let mut ok = true;
    ok &= compare(
        "check (parse, check, lower)",
        (&label(d1, "declarations"), &small_decls),
        (&label(16 * d1, "declarations"), &large_decls),
        check,
    );
    ok &= compare(
        "check, duplicate names",
        (&label(r1, "copies"), &small_copies),
        (&label(16 * r1, "copies"), &large_copies),
        check,
    );
    ok &= compare(
        "check",
        (&label(c1, "comments"), &small_comments),
        (&label(16 * c1, "comments"), &large_comments),
        check,
    );
    ok &= compare(
        "fmt",
        (&label(d1, "declarations"), &small_decls),
        (&label(16 * d1, "declarations"), &large_decls),
        fmt,
    );
    ok &= compare(
        "fmt",
        (&label(c1, "comments"), &small_comments),
        (&label(16 * c1, "comments"), &large_comments),
        fmt,
    );
    println!(
        "\n{}",
        if ok {
            "every ratio is within the goal"
        } else {
            "some ratio is over the goal"
        }
    );
}
