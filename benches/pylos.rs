//! Pylos speed: the generic runtime (interpreter, and compiled as `rulestone compile` does)
//! beside the hand-written generator in `baseline/pylos.rs`.
//!
//! Prints perft nodes/s (every leaf applied) and random playouts/s for both, measured in CPU
//! time of this thread, and asserts the perft counts of `games/pylos.perft` (depth 7 included)
//! with both implementations. Run with `cargo bench --bench pylos`; `-- --quick` skips depth 7.

#[path = "baseline/pylos.rs"]
mod pylos;

#[path = "common/timing.rs"]
mod timing;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, playout::random_game, Engine, GameResult};
use timing::{rate, timed};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let generated = rulestone::cli::bundled();
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/pylos.game"))
        .expect("games/pylos.game");
    let variants = [
        ("basic", pylos::Variant::Basic, 58_746_240_u64),
        ("standard", pylos::Variant::Standard, 61_313_472),
        ("advanced", pylos::Variant::Advanced, 63_596_160),
    ];
    println!("Pylos benchmark (CPU time of this thread)\n");
    for (name, variant, depth7) in variants {
        let program = rulestone::compile(&source, &[("variant".into(), name.into())])
            .expect("pylos.game compiles");
        let depth = if quick { 5 } else { 7 };
        let expected = if quick { 524_376 } else { depth7 };
        let games = if quick { 2_000 } else { 20_000 };
        println!("{name}: perft {depth} = {expected}");

        let start = pylos::Pylos::new(variant, 4, 15);
        let (base_nodes, t_perft) = timed(|| pylos::perft(&start, depth));
        assert_eq!(base_nodes, expected, "baseline perft {depth} ({name})");
        let ((base_plies, _), t_play) = timed(|| pylos::random_playouts(variant, 4, 15, games, 1));
        let baseline_rate = games as f64 / t_play.cpu;
        println!(
            "  {:<12} perft {}",
            "baseline",
            rate(expected as f64, &t_perft)
        );
        println!(
            "  {:<12} playouts {} mean plies {:.1}",
            "baseline",
            rate(games as f64, &t_play),
            base_plies as f64 / games as f64
        );

        let backend = generated.backend_for(&program);
        for mut engine in [
            Engine::new(&program),
            Engine::with_backend(&program, backend),
        ] {
            let backend = engine.backend();
            let (nodes, t_perft) = timed(|| perft(&mut engine, depth));
            assert_eq!(nodes, expected, "{backend} perft {depth} ({name})");
            let mut rng = ChaCha8Rng::seed_from_u64(1);
            let (mut moves, mut undos) = (Vec::new(), Vec::new());
            let (plies, t_play) = timed(|| {
                let mut plies = 0u64;
                for _ in 0..games {
                    let p = random_game(&mut engine, &mut rng, 1000, &mut moves, &mut undos);
                    plies += u64::from(p.plies);
                    if let Some(GameResult::Win(w)) = p.result {
                        std::hint::black_box(w);
                    }
                }
                plies
            });
            println!("  {backend:<12} perft {}", rate(nodes as f64, &t_perft));
            println!(
                "  {backend:<12} playouts {} mean plies {:.1}; {:.2}x baseline",
                rate(games as f64, &t_play),
                plies as f64 / games as f64,
                games as f64 / t_play.cpu / baseline_rate
            );
        }
        println!("  target: runtime >= 0.5x baseline and >= 56,500 playouts/s\n");
    }
}
