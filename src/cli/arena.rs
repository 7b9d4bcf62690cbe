//! `rulestone arena`: agents against each other in a round robin, seats alternated, with
//! score rates, confidence intervals and Elo ratings.

use std::time::Instant;

use clap::Args;
use rulestone_report::arena::ArenaReport;

use crate::agents::contest::{arena, ArenaConfig};
use crate::agents::spec::AGENTS_HELP;
use crate::agents::AgentSpec;
use crate::runtime::{Compiled, Game};

use super::any::{with_game, Games, OnGame};
use super::Format;
use super::{emit, stderr_is_tty, Bound, CliError, Fail, GameArgs, PositionArgs, Result};

/// The most agents of one round robin: every pair plays, and the games to play are listed
/// before they start.
const MAX_AGENTS: usize = 32;

/// The long help of `--agents`, with every agent's settings.
static AGENTS_LONG_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("The agents, separated by commas (at least two; an agent may meet itself).\n\n{AGENTS_HELP}")
});

#[derive(Clone, Debug, Args)]
pub struct ArenaArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// The agents, separated by commas, e.g. `mcts:iterations=2000,alphabeta:depth=4,random`
    /// (at least two, at most 32; `--help` lists every agent and setting).
    #[arg(long, value_name = "SPECS", long_help = AGENTS_LONG_HELP.as_str())]
    pub agents: String,

    /// Games per pair of agents (1 to 10,000); seats alternate, so an even number is fairest.
    #[arg(long, value_name = "N", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,

    /// Seed of the agents' and the games' random choices: the same seed gives the same
    /// results, whatever the number of threads.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,

    /// Worker threads; 0 for one per core (at most 256, as for `analyze`).
    #[arg(long, value_name = "T", default_value_t = 0,
          value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,

    /// Stop a game after this many decisions (at most 100,000) and count it as a draw.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(0..=super::MAX_PLIES))]
    pub max_steps: u32,

    /// Stop once this many seconds have passed (e.g. `60`): games not started are skipped,
    /// games still running are given up, and the tables are those of the games finished
    /// (exit status 3).
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub(crate) fn run(args: &ArenaArgs, compiled: Compiled) -> Result<()> {
    let specs = AgentSpec::parse_list(&args.agents).map_err(|e| {
        Fail::Error(CliError::new(format!("`--agents`: {}", e.message)).note(e.help))
    })?;
    if specs.len() < 2 {
        return Err(CliError::new("`--agents` needs at least two agents")
            .note("e.g. `--agents mcts,random`; an agent may meet itself: `--agents mcts,mcts`")
            .into());
    }
    if specs.len() > MAX_AGENTS {
        return Err(CliError::new(format!(
            "`--agents` lists {} agents, more than the limit of {MAX_AGENTS}",
            specs.len()
        ))
        .note("every pair of agents plays `--games` games; run a smaller round robin")
        .into());
    }
    let config = ArenaConfig {
        specs,
        games: args.games,
        seed: args.seed,
        max_steps: args.max_steps,
        threads: usize::from(args.threads),
        deadline: None,
    };
    let task = RoundRobin {
        config,
        format: args.format,
        time_limit: args.time_limit,
    };
    with_game(&args.game, args.position.after.as_deref(), compiled, task)
}

struct RoundRobin {
    config: ArenaConfig,
    format: Format,
    time_limit: Option<std::time::Duration>,
}

impl OnGame for RoundRobin {
    type Output = ();

    fn run<G: Game>(mut self, games: &Games<'_, G>) -> Result<()> {
        let n = self.config.specs.len();
        let total = u64::from(self.config.games) * (n * (n - 1) / 2) as u64;
        let bar = super::playout::progress(total);
        let tick = || {
            if let Some(b) = &bar {
                b.inc(1);
            }
        };
        let began = Instant::now();
        self.config.deadline = self.time_limit.map(|limit| began + limit);
        let make = |seed| {
            (games.start)(seed).map_err(|f| match f {
                Fail::Error(e) => e.message,
                _ => "a game could not be started".to_string(),
            })
        };
        let result = arena(&self.config, &make, &tick).map_err(CliError::new)?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        let players = match (games.start)(games.deal) {
            Ok(g) => super::any::players(&g),
            Err(_) => ["first".to_string(), "second".to_string()],
        };
        let stopped = self
            .time_limit
            .filter(|_| result.unplayed > 0)
            .map(Bound::Time);
        let report = ArenaReport {
            title: games.title.clone(),
            options: games.options.clone(),
            games: self.config.games,
            seed: self.config.seed,
            players,
            arena: result,
            stopped: stopped.map(|b| (b.flag(), b.json())),
        };
        let text = match self.format {
            Format::Text => rulestone_report::arena::table(&report),
            Format::Json => rulestone_report::arena::json(&report),
        };
        emit(&text)?;
        if stderr_is_tty() {
            eprintln!("{:.1} s", began.elapsed().as_secs_f64());
        }
        match stopped {
            Some(_) => Err(Fail::Stopped),
            None => Ok(()),
        }
    }
}
