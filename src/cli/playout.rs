//! `rulestone playout`: seeded random games from the start, with statistics.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::ir::score_text;
use crate::runtime::game::{EndFigures, Played};
use crate::runtime::{Game, GameResult};

use serde_json::json;

use super::any::{players, with_game, Games, OnGame};
use super::{
    emit, grouped, json_text, per_second, stderr_is_tty, Bound, CliError, Format, GameArgs, Result,
};

#[derive(Clone, Debug, Args)]
pub struct PlayoutArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// How many games to play (1 to a billion; the figures are added up game by game, so
    /// memory does not grow with N).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u64).range(1..=super::MAX_GAMES))]
    pub games: u64,

    /// Seed of the random moves: the same seed plays the same games.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Stop a game after this many moves and count it as unfinished (at most 100,000, the
    /// longest move list a record holds).
    #[arg(long, value_name = "M", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(0..=super::MAX_PLIES))]
    pub max_plies: u32,

    /// Stop once N moves were played in all: a game still running then is given up, the
    /// report covers the games finished, says that the bound stopped the run, and the exit
    /// status is 3. A bound on the work of a run of unknown length.
    #[arg(long, value_name = "N", value_parser = super::max_nodes, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// Stop once this many seconds have passed (e.g. `30`), inside a game too (it is given
    /// up): the report covers the games finished by then, says that the limit stopped the
    /// run, and the exit status is 3.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
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

/// `stopped by --time-limit 2 s: 37 of 100 games played`.
fn stopped_line(played: u64, asked: u64, noun: &str, bound: Bound) -> String {
    format!(
        "stopped by {}: {played} of {} played",
        bound.flag(),
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
    with_game(&args.game, None, compiled, Playouts { args })
}

/// Seeded random games of any game, with one report written from what the games kept.
struct Playouts<'a> {
    args: &'a PlayoutArgs,
}

impl OnGame for Playouts<'_> {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let args = self.args;
        let mut first = (games.start)(games.deal)?;
        if first.needs_reports() {
            return Err(CliError::new(format!(
                "a referee-mode {} cannot be simulated",
                games.kind
            ))
            .note("drop `--set mode=referee`, or use `play`")
            .into());
        }
        let aim = args.policy == Policy::Aim;
        let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
        let mut tally = Tally::new();
        let mut dropped = None;
        let bar = progress(args.games);
        let clock = super::clock::Clock::start()?;
        let start = Instant::now();
        let deadline = args.time_limit.map(|limit| start + limit);
        let mut stopped = None;
        for g in 0..args.games {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stopped = args.time_limit.map(Bound::Time);
                break;
            }
            if args.max_nodes.is_some_and(|max| tally.steps >= max) {
                stopped = args.max_nodes.map(Bound::Nodes);
                break;
            }
            // The bounds are looked at before each step of a game too: a game still running
            // when one is reached is given up, and not counted.
            let mut steps_left = args.max_nodes.map(|max| max.saturating_sub(tally.steps));
            let mut stop = || {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    return true;
                }
                match &mut steps_left {
                    Some(0) => true,
                    Some(left) => {
                        *left -= 1;
                        false
                    }
                    None => false,
                }
            };
            let played = if first.dealt() {
                // A game with its own chance at the start is dealt afresh each time.
                let mut game = (games.start)(args.seed.wrapping_mul(1_000_003).wrapping_add(g))?;
                let played = game.playout_until(&mut rng, args.max_plies, aim, &mut stop);
                dropped = dropped.or(game.dropped_moves());
                played
            } else {
                first.playout_until(&mut rng, args.max_plies, aim, &mut stop)
            };
            let Some(played) = played else {
                stopped = match steps_left {
                    Some(0) => args.max_nodes.map(Bound::Nodes),
                    _ => args.time_limit.map(Bound::Time),
                };
                break;
            };
            tally.add(&played);
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        }
        let (cpu, wall) = clock.elapsed();
        let (secs, wall_secs) = (cpu.as_secs_f64(), wall.as_secs_f64());
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        super::warn_dropped(dropped.or(first.dropped_moves()));
        let report = Report {
            args,
            games,
            players: players(&first),
            score_scale: first.score_scale(),
            shots: first.has_continuous_decisions(),
            tally: &tally,
            secs,
            wall_secs,
            stopped,
        };
        match args.format {
            Format::Json => emit(&json_text(&report.json()))?,
            Format::Text => emit(&report.text())?,
        }
        match stopped {
            Some(_) => Err(super::Fail::Stopped),
            None => Ok(()),
        }
    }
}

/// Figures added up over the games played.
struct Tally {
    played: u64,
    wins: [u64; 2],
    draws: u64,
    unfinished: u64,
    steps: u64,
    min_steps: u32,
    max_steps: u32,
    score_totals: [i64; 2],
    scored: u64,
    /// Continuous decisions taken (shots).
    continuous: u64,
    /// Per player, for games that count captures.
    captures: Option<[u64; 2]>,
    /// Total, least and most, for games that count turns.
    turns: Option<(u64, u32, u32)>,
    /// Games that went to sudden death, for games that can.
    sudden_deaths: Option<u64>,
    /// Per setup (army) chosen: its name, games, wins and captures.
    setups: Vec<Setup>,
}

/// How one setup (an army) fared.
struct Setup {
    name: String,
    games: u64,
    wins: u64,
    captures: u64,
}

impl Tally {
    fn new() -> Tally {
        Tally {
            played: 0,
            wins: [0; 2],
            draws: 0,
            unfinished: 0,
            steps: 0,
            min_steps: u32::MAX,
            max_steps: 0,
            score_totals: [0; 2],
            scored: 0,
            continuous: 0,
            captures: None,
            turns: None,
            sudden_deaths: None,
            setups: Vec::new(),
        }
    }

    fn add(&mut self, p: &Played) {
        self.played += 1;
        match p.result {
            Some(GameResult::Win(w)) => {
                if let Some(slot) = self.wins.get_mut(usize::from(w)) {
                    *slot += 1;
                }
            }
            Some(GameResult::Draw) => self.draws += 1,
            None => self.unfinished += 1,
        }
        if let Some(s) = p.scores {
            self.scored += 1;
            for (t, v) in self.score_totals.iter_mut().zip(s) {
                *t += i64::from(v);
            }
        }
        self.steps += u64::from(p.steps);
        self.min_steps = self.min_steps.min(p.steps);
        self.max_steps = self.max_steps.max(p.steps);
        self.continuous += p.continuous;
        self.add_end(&p.end, p.result);
    }

    /// Adds the game's own end figures.
    fn add_end(&mut self, end: &EndFigures, result: Option<GameResult>) {
        let caught = end.captures.unwrap_or_default();
        if end.captures.is_some() {
            let totals = self.captures.get_or_insert([0; 2]);
            for (t, c) in totals.iter_mut().zip(caught) {
                *t += u64::from(c);
            }
        }
        if let Some(t) = end.turns {
            let (total, min, max) = self.turns.get_or_insert((0, u32::MAX, 0));
            *total += u64::from(t);
            *min = (*min).min(t);
            *max = (*max).max(t);
        }
        if let Some(sudden) = end.sudden_death {
            *self.sudden_deaths.get_or_insert(0) += u64::from(sudden);
        }
        for (p, name) in end.setups.iter().flatten().enumerate() {
            let i = match self.setups.iter().position(|s| s.name == *name) {
                Some(i) => i,
                None => {
                    self.setups.push(Setup {
                        name: name.clone(),
                        games: 0,
                        wins: 0,
                        captures: 0,
                    });
                    self.setups.len() - 1
                }
            };
            let setup = &mut self.setups[i];
            setup.games += 1;
            setup.wins += u64::from(result == Some(GameResult::Win(u8::try_from(p).unwrap_or(0))));
            setup.captures += u64::from(caught[p]);
        }
    }
}

/// `x` per game, `0.00` with no game.
#[allow(clippy::cast_precision_loss)]
pub(super) fn mean(x: u64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        x as f64 / games as f64
    }
}

/// The report of a run, in text or JSON.
struct Report<'r, G> {
    args: &'r PlayoutArgs,
    games: &'r Games<'r, G>,
    players: [String; 2],
    /// Units of a score to a point (decimal scores are kept in hundredths).
    score_scale: i64,
    /// Whether the game takes shots, so that the policy choosing them matters.
    shots: bool,
    tally: &'r Tally,
    /// CPU seconds of the playouts (speeds are per CPU second), and wall-clock seconds.
    secs: f64,
    wall_secs: f64,
    /// The bound that stopped the run before every game was played.
    stopped: Option<Bound>,
}

impl<G> Report<'_, G> {
    fn policy(&self) -> &'static str {
        match self.args.policy {
            Policy::Random => "random",
            Policy::Aim => "aimed",
        }
    }

    fn cut(&self) -> Option<String> {
        let (played, asked) = (self.tally.played, self.args.games);
        let bound = self.stopped?;
        Some(stopped_line(played, asked, self.games.kind, bound))
    }

    fn text(&self) -> String {
        let (args, t, n) = (self.args, self.tally, self.tally.played);
        let mut out = format!(
            "{}: {} random, seed {}, at most {}",
            self.games.name,
            super::plural(n, self.games.kind),
            args.seed,
            super::plural(args.max_plies, "ply")
        );
        if self.shots {
            let _ = write!(out, ", {} shots", self.policy());
        }
        out.push('\n');
        if let Some(opts) = &self.games.options {
            let _ = writeln!(out, "options: {opts}");
        }
        if let Some(line) = self.cut() {
            let _ = writeln!(out, "{line}");
        }
        for (p, w) in t.wins.iter().enumerate() {
            let _ = write!(out, "{} wins: {w} ({})", self.players[p], percent(*w, n));
            if let Some(c) = t.captures {
                let _ = write!(out, ", captures mean {:.2}", mean(c[p], n));
            }
            out.push('\n');
        }
        for s in &t.setups {
            let _ = writeln!(
                out,
                "army {}: {}, wins {} ({}), captures mean {:.2}",
                s.name,
                super::plural(s.games, self.games.kind),
                s.wins,
                percent(s.wins, s.games),
                mean(s.captures, s.games)
            );
        }
        let _ = writeln!(out, "draws: {} ({})", t.draws, percent(t.draws, n));
        let _ = writeln!(
            out,
            "unfinished: {} ({})",
            t.unfinished,
            percent(t.unfinished, n)
        );
        if let Some(s) = t.sudden_deaths {
            let _ = writeln!(out, "sudden death: {s} ({})", percent(s, n));
        }
        if n > 0 {
            let _ = writeln!(
                out,
                "plies: mean {:.2}, min {}, max {}",
                mean(t.steps, n),
                t.min_steps,
                t.max_steps
            );
        }
        if let Some((total, min, max)) = t.turns.filter(|_| n > 0) {
            let _ = writeln!(
                out,
                "turns: mean {:.2}, min {min}, max {max}",
                mean(total, n)
            );
        }
        if t.scored > 0 {
            #[allow(clippy::cast_precision_loss)]
            let means: Vec<String> = t
                .score_totals
                .iter()
                .enumerate()
                .map(|(p, s)| {
                    let name = &self.players[p];
                    format!(
                        "{name} {} (mean {:.2})",
                        score_text(*s, self.score_scale),
                        *s as f64 / (self.score_scale as f64 * t.scored as f64)
                    )
                })
                .collect();
            let _ = writeln!(out, "scores: {}", means.join(", "));
        }
        let _ = write!(
            out,
            "speed: {} playouts/s",
            grouped(per_second(n, self.secs))
        );
        if self.shots {
            let _ = write!(
                out,
                ", {} shots/s",
                grouped(per_second(t.continuous, self.secs))
            );
        }
        let _ = writeln!(
            out,
            " (CPU {:.2} s, wall {:.2} s)",
            self.secs, self.wall_secs
        );
        out
    }

    fn json(&self) -> serde_json::Value {
        let (args, t, n) = (self.args, self.tally, self.tally.played);
        let per_player = |values: [serde_json::Value; 2]| -> serde_json::Map<_, _> {
            self.players.iter().cloned().zip(values).collect()
        };
        let options: serde_json::Map<String, serde_json::Value> = self
            .games
            .option_values
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        let mut report = json!({
            "game": self.games.name,
            "options": options,
            "games": n,
            "games_requested": args.games,
            "stopped_by_time_limit": matches!(self.stopped, Some(Bound::Time(_))),
            "stopped_by": self.stopped.map(Bound::json),
            "seed": args.seed,
            "max_plies": args.max_plies,
            "wins": per_player(t.wins.map(|w| json!(w))),
            "draws": t.draws,
            "unfinished": t.unfinished,
            "plies": {
                "mean": (n > 0).then(|| mean(t.steps, n)),
                "min": (n > 0).then_some(t.min_steps),
                "max": (n > 0).then_some(t.max_steps),
            },
            "score_totals": (t.scored > 0).then(|| per_player(t.score_totals.map(|s| score_json(s, self.score_scale)))),
            "playouts_per_second": per_second(n, self.secs),
            "cpu_seconds": self.secs,
            "seconds": self.wall_secs,
        });
        if self.shots {
            let setups: Vec<serde_json::Value> = t
                .setups
                .iter()
                .map(|s| json!({ "army": s.name, "games": s.games, "wins": s.wins, "captures": s.captures }))
                .collect();
            let more = json!({
                "shots_chosen": self.policy(),
                "shots": t.continuous,
                "captures": t.captures.map(|c| per_player(c.map(|x| json!(x)))),
                "armies": setups,
                "sudden_death": t.sudden_deaths,
                "turns": t.turns.filter(|_| n > 0).map(|(total, min, max)| json!({ "total": total, "min": min, "max": max })),
            });
            if let (Some(all), Some(more)) = (report.as_object_mut(), more.as_object()) {
                all.extend(more.clone());
            }
        }
        report
    }
}

/// A score total in JSON: an integer, or a decimal number for a decimal score.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn score_json(value: i64, scale: i64) -> serde_json::Value {
    if scale == 1 {
        json!(value)
    } else {
        json!(value as f64 / scale as f64)
    }
}
