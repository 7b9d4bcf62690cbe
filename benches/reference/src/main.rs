//! Chess by a hand-written move generator (the `shakmaty` crate), measured the way
//! `rulestone bench` measures a game file: perft from the start position (copy-make, every move
//! applied, leaves included, as Rulestone's and RBG's perft do: not shakmaty's own `perft`,
//! which counts the last ply's moves without playing them), and random playouts
//! from it under the same drawing rules as `games/chess.game` (checkmate, stalemate,
//! insufficient material, third occurrence of a position, 100 half-moves without a capture or
//! pawn move), cut at 1,000 plies.
//!
//!     chess-reference perft DEPTH SECONDS    # repeats perft DEPTH until SECONDS (wall) pass
//!     chess-reference playouts SECONDS SEED  # random games until SECONDS (wall) pass
//!
//! It prints counts only; `benches/compare.py` divides them by the CPU time the process used.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use shakmaty::zobrist::{Zobrist64, ZobristHash};
use shakmaty::{Chess, EnPassantMode, Position};

const MAX_PLIES: u32 = 1000;

/// A small, fast generator (SplitMix64), so the playouts' cost is the chess and not the dice.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (multiply-shift; its bias is far below what a benchmark sees).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next() >> 32) * n as u128) >> 32) as usize
    }
}

/// Leaves `depth` plies below `pos`, every move played on a copy.
fn perft(pos: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut leaves = 0;
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(m);
        leaves += perft(&next, depth - 1);
    }
    leaves
}

/// One random game from the start; returns its plies.
fn playout(rng: &mut Rng, history: &mut Vec<u64>) -> u32 {
    let mut pos = Chess::default();
    history.clear();
    let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
    history.push(key(&pos));
    for ply in 0..MAX_PLIES {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return ply;
        }
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
        if pos.is_insufficient_material() {
            return ply + 1;
        }
        let k = key(&pos);
        // Only positions since the last capture or pawn move can repeat.
        let since = pos.halfmoves() as usize;
        let start = history.len().saturating_sub(since);
        let seen = history[start..].iter().filter(|&&h| h == k).count();
        history.push(k);
        if seen + 1 >= 3 || pos.halfmoves() >= 100 {
            return ply + 1;
        }
    }
    MAX_PLIES
}

fn run(args: &[String]) -> Result<(), String> {
    let number = |i: usize| -> Result<f64, String> {
        args.get(i)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("argument {i} must be a number"))
    };
    let mode = args.get(1).map(String::as_str).unwrap_or("");
    match mode {
        "perft" => {
            let depth = number(2)? as u32;
            let budget = Duration::from_secs_f64(number(3)?);
            let start = Instant::now();
            let (mut leaves, mut runs) = (0u64, 0u64);
            while runs == 0 || start.elapsed() < budget {
                leaves += perft(&Chess::default(), depth);
                runs += 1;
            }
            println!("leaves {leaves} runs {runs} depth {depth}");
        }
        "playouts" => {
            let budget = Duration::from_secs_f64(number(2)?);
            let mut rng = Rng(number(3)? as u64);
            let start = Instant::now();
            let (mut games, mut plies) = (0u64, 0u64);
            let mut history = Vec::new();
            while games == 0 || start.elapsed() < budget {
                plies += u64::from(playout(&mut rng, &mut history));
                games += 1;
            }
            println!("playouts {games} plies {plies}");
        }
        _ => {
            return Err("usage: chess-reference perft DEPTH SECONDS | playouts SECONDS SEED".into())
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("chess-reference: {e}");
            ExitCode::FAILURE
        }
    }
}
