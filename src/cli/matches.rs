//! `rulestone match`: a match of seeded random games scored by the game's `score`: a fixed
//! number of games (highest total wins) or first to a target total.

use crate::runtime::Compiled;
use std::fmt::Write as _;

use clap::{ArgGroup, Args};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::runtime::playout::random_game_until;

use super::load::{load, options_text, result_text};
use serde_json::json;

use super::{emit, json_text, plural, Bound, CliError, Format, GameArgs, Result};

#[derive(Clone, Debug, Args)]
#[command(group(ArgGroup::new("length").required(true).multiple(true).args(["games", "target"])))]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// Play this many games (1 to 10,000); the higher total wins the match.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GAMES)))]
    pub games: Option<u32>,

    /// Play until a player's total reaches this score (with `--games`: at most that many).
    #[arg(long, value_name = "POINTS")]
    pub target: Option<i64>,

    /// Seed of the random moves: the same seed plays the same match.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Stop a game after this many moves (at most 100,000; it then scores nothing).
    #[arg(long, value_name = "M", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(0..=super::MAX_PLIES))]
    pub max_plies: u32,

    /// Stop once this many seconds have passed (e.g. `60`), inside a game too (it is given up
    /// and not counted): the report covers the games finished, and the exit status is 3.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,

    /// How to report: `text` (a line per game, then the verdict), or `json` (one object with
    /// every game and the totals).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Without `--games`, a first-to-target match stops after this many games; `--games` is at most
/// this (each game's line is kept for the report).
const MAX_GAMES: u32 = 10_000;

pub(crate) fn run(args: &MatchArgs, compiled: Compiled) -> Result<()> {
    let loaded = load(&args.game, compiled)?;
    let program = &loaded.program;
    if program.score.is_none() {
        return Err(
            CliError::new(format!("{} declares no `score`", program.name))
                .note("a match adds up each game's scores; declare them with `score p = ...`")
                .into(),
        );
    }
    if let Some(t) = args.target {
        if t <= 0 {
            return Err(CliError::new(format!("--target must be positive, not {t}")).into());
        }
    }
    let mut engine = loaded.engine();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut moves = Vec::new();
    let deadline = args
        .time_limit
        .map(|limit| std::time::Instant::now() + limit);
    let mut out_of_time = || deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let mut stopped = None;
    let names = [program.player_name(0), program.player_name(1)];
    let mut out = format!("{}: match, seed {}", program.name, args.seed);
    match (args.games, args.target) {
        (Some(n), Some(t)) => {
            let _ = write!(
                out,
                ", first to {} in at most {}",
                plural(t, "point"),
                plural(n, "game")
            );
        }
        (Some(n), None) => {
            let _ = write!(out, ", {}", plural(n, "game"));
        }
        (None, Some(t)) => {
            let _ = write!(out, ", first to {}", plural(t, "point"));
        }
        (None, None) => {}
    }
    out.push('\n');
    if let Some(opts) = options_text(program) {
        let _ = writeln!(out, "options: {opts}");
    }
    let mut totals = [0i64; 2];
    let limit = args.games.unwrap_or(MAX_GAMES);
    let mut played = 0;
    let mut games = Vec::new();
    let scale = program.score_scale();
    let by_player = |values: [i64; 2]| {
        let [a, b] = values.map(|v| super::playout::score_json(v, scale));
        json!({ &names[0]: a, &names[1]: b })
    };
    let text = |v: i64| program.score_text(v);
    // A decimal score is kept in hundredths; the target is in points.
    let target = args.target.map(|t| t.saturating_mul(scale));
    while played < limit {
        if target.is_some_and(|t| totals.iter().any(|&s| s >= t)) {
            break;
        }
        let Some(p) = random_game_until(
            &mut engine,
            &mut rng,
            args.max_plies,
            &mut moves,
            &mut out_of_time,
        ) else {
            stopped = args.time_limit.map(Bound::Time);
            break;
        };
        played += 1;
        let scores = p.scores.unwrap_or([0, 0]);
        for (t, s) in totals.iter_mut().zip(scores) {
            *t += i64::from(s);
        }
        let result = match p.result {
            Some(r) => result_text(program, r),
            None => "unfinished".to_string(),
        };
        games.push(json!({
            "result": result,
            "plies": p.plies,
            "scores": by_player(scores.map(i64::from)),
            "totals": by_player(totals),
        }));
        let _ = writeln!(
            out,
            "game {played}: {result} in {}; score {} {}, {} {}; total {} {}, {} {}",
            plural(p.plies, "move"),
            names[0],
            text(scores[0].into()),
            names[1],
            text(scores[1].into()),
            names[0],
            text(totals[0]),
            names[1],
            text(totals[1])
        );
    }
    let verdict = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => format!("{} wins the match", names[0]),
        std::cmp::Ordering::Less => format!("{} wins the match", names[1]),
        std::cmp::Ordering::Equal => "the match is drawn".to_string(),
    };
    if args.format == Format::Json {
        let mut report = json!({
            "game": program.name,
            "options": program
                .options
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect::<serde_json::Map<_, _>>(),
            "seed": args.seed,
            "games_limit": args.games,
            "target": args.target,
            "games": games,
            "totals": by_player(totals),
            "verdict": verdict,
        });
        if let (Some(bound), Some(object)) = (stopped, report.as_object_mut()) {
            object.insert("stopped_by".to_string(), bound.json());
        }
        emit(&json_text(&report))?;
    } else {
        let _ = writeln!(
            out,
            "{verdict}: {} {}, {} {} after {}",
            names[0],
            text(totals[0]),
            names[1],
            text(totals[1]),
            plural(played, "game")
        );
        if let Some(bound) = stopped {
            let _ = writeln!(
                out,
                "match stopped by {}: the games above are all it finished",
                bound.flag()
            );
        }
        emit(&out)?;
    }
    match stopped {
        Some(_) => Err(super::Fail::Stopped),
        None => Ok(()),
    }
}
