//! Turn programs with nested loops, generated (`tests/loopgen/`): whatever `check` lets
//! through, listing moves and playing end within the step bound, with bounded memory, on both
//! backends.
//!
//! The compiled backend runs only code generated ahead of time, so a fixed corpus of programs
//! written in the grammar (`tests/loops/*.game`) is compiled into `tests/compiled/runaway.rs`,
//! and `corpus_agrees_on_both_backends` asserts the same bounds on both backends and the same
//! moves. The `loops` fuzz target (`fuzz/checks.rs`) drives the property from fuzzer input.

use proptest::prelude::*;
use rand::SeedableRng as _;
use rulestone::runtime::Engine;

mod common;
mod loopgen;

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every generated program keeps the bounds on the interpreter.
    #[test]
    fn nested_loops_stay_within_bounds(seed in any::<u64>()) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let stmts = loopgen::stmts(&mut rng, loopgen::DEPTH);
        loopgen::check_and_run(&loopgen::game(&stmts));
    }
}

/// The runaway fixtures' generated code, with the corpus's: for the compiled backend.
#[rustfmt::skip]
#[path = "compiled/runaway.rs"]
mod runaway;

/// The corpus of loop programs runs with the same bounds on both backends, and lists the same
/// moves; `check` passes each.
#[test]
fn corpus_agrees_on_both_backends() {
    use rulestone::runtime::{BackendKind, Compiled};
    const COMPILED: Compiled = Compiled::new(&runaway::TURNS);
    let mut paths = Vec::new();
    common::files(&common::root().join("tests/loops"), "game", &mut paths);
    assert!(paths.len() >= 5, "the corpus is in tests/loops");
    for path in &paths {
        let source = std::fs::read_to_string(path).expect("readable");
        let diags = rulestone::diagnose(&source, &[]);
        assert!(!rulestone::diag::has_errors(&diags), "{}", path.display());
    }
    let units = common::variants(&paths);
    let run = move || {
        for (label, program) in &units {
            let mut fast = Engine::with_backend(program, COMPILED.backend_for(program));
            assert_eq!(fast.backend(), BackendKind::Compiled, "{label}");
            let mut slow = Engine::new(program);
            let compiled = loopgen::run_bounded(&mut fast, label);
            let interpreted = loopgen::run_bounded(&mut slow, label);
            assert_eq!(
                compiled, interpreted,
                "{label}: both backends list the same"
            );
        }
    };
    // On a thread with the command line's stack, since unoptimised generated code takes more
    // per call.
    let worker = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .expect("a thread");
    worker.join().expect("the runs end");
}
