//! `rulestone playout`: seeded random games from the start, with statistics.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::runtime::playout::random_game;
use crate::runtime::GameResult;

use super::load::{load, options_text, player_name};
use serde_json::json;

use super::{emit, grouped, json_text, per_second, stderr_is_tty, Format, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct PlayoutArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,

    /// Seed of the random moves: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Stop a game after this many moves and count it as unfinished.
    #[arg(long, value_name = "M", default_value_t = 1000)]
    pub max_plies: u32,

    /// Play no new game once this many seconds have passed (e.g. `30`): the report covers the
    /// games finished by then and says that the limit stopped the run.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit)]
    pub time_limit: Option<Duration>,

    /// Table games: how shots are chosen.
    #[arg(long, value_enum, default_value_t = Policy::Random)]
    pub policy: Policy,

    /// How to report: `text` (labelled lines), or `json` (one object with the same figures).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How a simulated player of a table game chooses its shots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Policy {
    /// A random decision; a shot's angle and speed uniform in their ranges.
    Random,
    /// A random decision; a shot aimed at a random stone of the opponent's, at 60–100% of
    /// the top speed.
    Aim,
}

/// A progress bar of games on standard error, only when it is a terminal.
pub(crate) fn progress(games: u64) -> Option<ProgressBar> {
    if !stderr_is_tty() {
        return None;
    }
    let bar = ProgressBar::new(games);
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} games [{elapsed} < {eta}] {per_sec}")
    {
        bar.set_style(style);
    }
    Some(bar)
}

/// `stopped by --time-limit (2.0 s): 37 of 100 games played`.
pub(crate) fn stopped_line(played: u64, asked: u64, noun: &str, limit: Option<Duration>) -> String {
    format!(
        "stopped by --time-limit ({:.1} s): {played} of {} played",
        limit.unwrap_or_default().as_secs_f64(),
        super::plural(asked, noun)
    )
}

/// `12.5%` of `n` in `total`.
fn percent(n: u64, total: u64) -> String {
    if total == 0 {
        return "-".to_string();
    }
    #[allow(clippy::cast_precision_loss)]
    let p = n as f64 * 100.0 / total as f64;
    format!("{p:.1}%")
}

pub(crate) fn run(args: &PlayoutArgs, compiled: Compiled) -> Result<()> {
    if super::table::is_table(&args.game.file) {
        return super::table::playout(
            &args.game,
            args.games,
            args.seed,
            args.policy == Policy::Aim,
            args.time_limit,
            args.format,
        );
    }
    let loaded = load(&args.game, compiled)?;
    let program = &loaded.program;
    let mut engine = loaded.engine();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut moves = Vec::new();
    let mut undos = Vec::new();

    let mut wins = vec![0u64; program.players.len().max(2)];
    let (mut draws, mut unfinished) = (0u64, 0u64);
    let (mut total_plies, mut min, mut max) = (0u64, u32::MAX, 0u32);
    let mut score_totals = [0i64; 2];
    let mut scored = 0u64;
    let bar = progress(args.games);
    let start = Instant::now();
    let deadline = args.time_limit.map(|limit| start + limit);
    let mut played = 0u64;
    for _ in 0..args.games {
        if deadline.is_some_and(|d| Instant::now() >= d) || engine.exhausted {
            break;
        }
        played += 1;
        let p = random_game(
            &mut engine,
            &mut rng,
            args.max_plies,
            &mut moves,
            &mut undos,
        );
        match p.result {
            Some(GameResult::Win(w)) => {
                if let Some(slot) = wins.get_mut(usize::from(w)) {
                    *slot += 1;
                }
            }
            Some(GameResult::Draw) => draws += 1,
            None => unfinished += 1,
        }
        if let Some(s) = p.scores {
            scored += 1;
            for (t, v) in score_totals.iter_mut().zip(s) {
                *t += i64::from(v);
            }
        }
        total_plies += u64::from(p.plies);
        min = min.min(p.plies);
        max = max.max(p.plies);
        if let Some(bar) = &bar {
            bar.inc(1);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }

    loaded.steps_ok()?;
    super::warn_dropped(crate::runtime::game::dropped_moves(&engine));
    let n = played;
    let cut =
        (played < args.games).then(|| stopped_line(played, args.games, "game", args.time_limit));
    if args.format == Format::Json {
        let per_player = |values: &[i64]| -> serde_json::Map<String, serde_json::Value> {
            values
                .iter()
                .enumerate()
                .map(|(p, v)| {
                    let name = player_name(program, u8::try_from(p).unwrap_or(u8::MAX));
                    (name, json!(v))
                })
                .collect()
        };
        let wins: Vec<i64> = wins
            .iter()
            .map(|&w| i64::try_from(w).unwrap_or(i64::MAX))
            .collect();
        let options: serde_json::Map<String, serde_json::Value> = program
            .options
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        #[allow(clippy::cast_precision_loss)]
        let mean = (n > 0).then(|| total_plies as f64 / n as f64);
        return emit(&json_text(&json!({
            "game": program.name,
            "options": options,
            "games": n,
            "games_requested": args.games,
            "stopped_by_time_limit": cut.is_some(),
            "seed": args.seed,
            "max_plies": args.max_plies,
            "wins": per_player(&wins),
            "draws": draws,
            "unfinished": unfinished,
            "plies": { "mean": mean, "min": (n > 0).then_some(min), "max": (n > 0).then_some(max) },
            "score_totals": (scored > 0).then(|| per_player(&score_totals)),
            "playouts_per_second": per_second(n, secs),
            "seconds": secs,
        })));
    }
    let mut out = format!(
        "{}: {} random, seed {}, at most {}\n",
        program.name,
        super::plural(n, "game"),
        args.seed,
        super::plural(args.max_plies, "ply")
    );
    if let Some(opts) = options_text(program) {
        let _ = writeln!(out, "options: {opts}");
    }
    if let Some(line) = &cut {
        let _ = writeln!(out, "{line}");
    }
    for (p, w) in wins.iter().enumerate() {
        let name = player_name(program, u8::try_from(p).unwrap_or(u8::MAX));
        let _ = writeln!(out, "{name} wins: {w} ({})", percent(*w, n));
    }
    let _ = writeln!(out, "draws: {draws} ({})", percent(draws, n));
    let _ = writeln!(out, "unfinished: {unfinished} ({})", percent(unfinished, n));
    if n > 0 {
        #[allow(clippy::cast_precision_loss)]
        let mean = total_plies as f64 / n as f64;
        let _ = writeln!(out, "plies: mean {mean:.2}, min {min}, max {max}");
    }
    if scored > 0 {
        #[allow(clippy::cast_precision_loss)]
        let means: Vec<String> = score_totals
            .iter()
            .enumerate()
            .map(|(p, t)| {
                let name = player_name(program, u8::try_from(p).unwrap_or(u8::MAX));
                format!("{name} {t} (mean {:.2})", *t as f64 / scored as f64)
            })
            .collect();
        let _ = writeln!(out, "scores: {}", means.join(", "));
    }
    let _ = writeln!(
        out,
        "speed: {} playouts/s ({secs:.2} s)",
        grouped(per_second(n, secs))
    );
    emit(&out)
}
