//! Chess speed: the generic runtime (interpreter, and compiled as `rulestone compile` does) on
//! `games/chess.game` beside a hand-written move generator (the `cozy-chess` crate, a
//! benchmark-only dependency), in one run.
//!
//! Prints perft nodes/s (every leaf applied) from the start and random playouts/s for each,
//! measured in CPU time of this thread, and asserts the perft counts. The hand-written side's
//! random games end as the game file's do (OpenSpiel's rules): checkmate, stalemate, a dead
//! position (OpenSpiel's list), the third occurrence of a position, or 100 moves without a
//! capture or pawn move. Run with `cargo bench --bench chess`; `-- --quick` plays fewer games.

#[path = "common/timing.rs"]
mod timing;

use cozy_chess::{BitBoard, Board, Color, Move, Piece};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, playout::random_game, Engine};
use timing::{rate, timed};

const PERFT_DEPTH: u32 = 5;
const PERFT_NODES: u64 = 4_865_609;

fn cozy_perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            if depth == 1 {
                nodes += 1;
            } else {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
        }
        false
    });
    nodes
}

/// Neither side can mate, as OpenSpiel judges it (see `games/chess.game`).
fn dead(board: &Board) -> bool {
    let heavy = board.pieces(Piece::Pawn) | board.pieces(Piece::Rook) | board.pieces(Piece::Queen);
    if !heavy.is_empty() {
        return false;
    }
    let knights = board.pieces(Piece::Knight).len();
    let bishops = board.pieces(Piece::Bishop);
    (knights == 1 && bishops.is_empty())
        || (knights == 0
            && ((bishops & BitBoard::DARK_SQUARES).is_empty()
                || (bishops & BitBoard::LIGHT_SQUARES).is_empty()))
}

/// One random game from the start; its length in plies.
fn cozy_random_game(rng: &mut ChaCha8Rng, moves: &mut Vec<Move>, seen: &mut Vec<u64>) -> u32 {
    let mut board = Board::default();
    seen.clear();
    seen.push(board.hash());
    let mut plies = 0;
    loop {
        moves.clear();
        board.generate_moves(|list| {
            moves.extend(list);
            false
        });
        if moves.is_empty() {
            // Checkmate or stalemate.
            std::hint::black_box(board.checkers().is_empty());
            return plies;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        board.play_unchecked(mv);
        plies += 1;
        if board.halfmove_clock() == 0 {
            // Nothing before a capture or pawn move can come back.
            seen.clear();
        }
        let hash = board.hash();
        let repeats = seen.iter().filter(|&&h| h == hash).count();
        seen.push(hash);
        if dead(&board) || repeats >= 2 {
            return plies;
        }
        if board.halfmove_clock() >= 100 && board.checkers().is_empty() {
            return plies;
        }
        std::hint::black_box(board.side_to_move() == Color::White);
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let games = if quick { 200 } else { 2_000 };
    let generated = rulestone::cli::bundled();
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/chess.game"))
        .expect("games/chess.game");
    let program = rulestone::compile(&source, &[]).expect("chess.game compiles");
    println!("Chess benchmark (CPU time of this thread): perft {PERFT_DEPTH} = {PERFT_NODES}\n");

    let start = Board::default();
    let (nodes, t_perft) = timed(|| cozy_perft(&start, PERFT_DEPTH));
    assert_eq!(nodes, PERFT_NODES, "cozy-chess perft {PERFT_DEPTH}");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut moves, mut seen) = (Vec::new(), Vec::new());
    let (plies, t_play) = timed(|| {
        (0..games)
            .map(|_| u64::from(cozy_random_game(&mut rng, &mut moves, &mut seen)))
            .sum::<u64>()
    });
    let baseline_rate = f64::from(games) / t_play.cpu;
    println!(
        "  {:<12} perft {}",
        "cozy-chess",
        rate(nodes as f64, &t_perft)
    );
    println!(
        "  {:<12} playouts {} mean plies {:.1}",
        "cozy-chess",
        rate(f64::from(games), &t_play),
        plies as f64 / f64::from(games)
    );

    let backend = generated.backend_for(&program);
    for mut engine in [
        Engine::new(&program),
        Engine::with_backend(&program, backend),
    ] {
        let backend = engine.backend();
        let (nodes, t_perft) = timed(|| perft(&mut engine, PERFT_DEPTH));
        assert_eq!(nodes, PERFT_NODES, "{backend} perft {PERFT_DEPTH}");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut moves, mut undos) = (Vec::new(), Vec::new());
        let (plies, t_play) = timed(|| {
            (0..games)
                .map(|_| {
                    let p = random_game(&mut engine, &mut rng, 20_000, &mut moves, &mut undos);
                    u64::from(p.plies)
                })
                .sum::<u64>()
        });
        println!("  {backend:<12} perft {}", rate(nodes as f64, &t_perft));
        println!(
            "  {backend:<12} playouts {} mean plies {:.1}; {:.2}x cozy-chess",
            rate(f64::from(games), &t_play),
            plies as f64 / f64::from(games),
            f64::from(games) / t_play.cpu / baseline_rate
        );
    }
    println!("  goal: compiled >= 0.5x cozy-chess\n");
}
