//! Bad input never panics: seeded random damage to every bundled game's text (deleted, repeated
//! or swapped pieces of text) goes through every stage — parse, check, lower, engine, a few moves
//! with their notation — and each stage must answer with diagnostics or an error, never a panic.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::Engine;

/// Replaces a random slice of the text by another random slice (possibly empty).
fn damage(text: &str, rng: &mut ChaCha8Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let mut out = chars.clone();
    for _ in 0..rng.gen_range(1..=3) {
        let len = out.len();
        let at = rng.gen_range(0..=len);
        let cut = rng.gen_range(0..=8.min(len - at));
        let from = rng.gen_range(0..n);
        let take = rng.gen_range(0..=12.min(n - from));
        let insert: Vec<char> = if rng.gen_bool(0.5) {
            chars[from..from + take].to_vec()
        } else {
            Vec::new()
        };
        out.splice(at..at + cut, insert);
    }
    out.into_iter().collect()
}

/// How far a text got: 0 parse error, 1 check errors, 2 option or lowering error, 3 ran.
fn run_all_stages(source: &str) -> usize {
    let Ok(file) = rulestone::parse(source) else {
        return 0;
    };
    let (checked, diags) = rulestone::check(&file);
    // Rendering every diagnostic must work too.
    let _ = rulestone::diag::render(&diags, source, "mutant.game", false);
    let _ = rulestone::diag::render_json(&diags, source, "mutant.game");
    let Some(checked) = checked else {
        return 1;
    };
    let Ok(env) = rulestone::check::options::resolve(&checked.file, &[]) else {
        return 2;
    };
    let Ok(program) = rulestone::lower(&checked, &env) else {
        return 2;
    };
    let _ = rulestone::ir::dump::dump(&program);
    let mut engine = Engine::new(&program);
    let mut moves = Vec::new();
    for _ in 0..6 {
        engine.legal_moves(&mut moves);
        let Some(m) = moves.first().copied() else {
            let _ = engine.outcome();
            break;
        };
        let _ = engine.move_text(&m);
        let _ = engine.apply(&m);
    }
    3
}

#[test]
fn damaged_games_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut reached = [0usize; 4];
    for path in common::bundled_games() {
        let text = std::fs::read_to_string(&path).expect("readable game");
        for i in 0..1000 {
            let mutant = damage(&text, &mut rng);
            let outcome = std::panic::catch_unwind(|| run_all_stages(&mutant));
            match outcome {
                Ok(stage) => reached[stage] += 1,
                Err(_) => panic!(
                    "{} mutant {i} panicked; its text:\n{mutant}",
                    path.display()
                ),
            }
        }
    }
    // The damage must exercise every stage, not only the parser.
    eprintln!("stages reached (parse error, check error, lower error, ran): {reached:?}");
    assert!(
        reached[1] > 0 && reached[3] > 0,
        "stages reached: {reached:?}"
    );
}
