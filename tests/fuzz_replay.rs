//! The fuzz targets' inputs, replayed on stable: every file saved under `fuzz/corpus/<target>/`
//! (the minimized corpora of the campaigns) and `fuzz/regressions/<target>/` (each crash, hang
//! or broken invariant a campaign found, kept once fixed) goes through the very checks the
//! target runs (`fuzz/checks.rs`), so a machine without the nightly toolchain still covers them.
//! A few seeds of each target's own kind (every bundled game for `game`) run too.

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;

/// Runs `check` on every file of the target's corpus and regression folders; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut count = 0;
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(folder).join(target)) else {
            continue;
        };
        let mut paths: Vec<_> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let run = std::panic::catch_unwind(|| check(&bytes));
            assert!(run.is_ok(), "{target}: {} fails", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn parse_check_inputs() {
    replay("parse_check", checks::parse_check);
    for (_, source) in checks::BUNDLED {
        checks::parse_check(source.as_bytes());
    }
}

#[test]
fn game_inputs() {
    replay("game", checks::game);
    for (_, source) in checks::BUNDLED {
        checks::game(source.as_bytes());
    }
}

#[test]
fn mutate_inputs() {
    replay("mutate", checks::mutate);
}

#[test]
fn typed_inputs() {
    replay("typed", checks::typed);
}

#[test]
fn record_inputs() {
    replay("record", checks::record);
}

#[test]
fn deck_inputs() {
    replay("deck", checks::deck);
}

#[test]
fn options_inputs() {
    replay("options", checks::options);
}

#[test]
fn shot_inputs() {
    replay("shot", checks::shot);
}

#[test]
fn generated_inputs() {
    replay("generated", checks::generated);
}

#[test]
fn loops_inputs() {
    replay("loops", checks::loops);
    for seed in 0u8..16 {
        checks::loops(&[seed, seed.wrapping_mul(37), 3, 1, 4]);
    }
}
