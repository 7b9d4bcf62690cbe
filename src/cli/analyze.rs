//! `rulestone analyze`: a variant-analysis report for game designers. The `--set` values make
//! a grid of variants of any kind of game ([`with_variants`]), played by
//! [`crate::agents::analysis`], and reported as a terminal table, JSON or an HTML page with
//! plots ([`rulestone_report`]).
//!
//! Invariant: everything printed or written, except progress on standard error, depends only
//! on the arguments other than `--threads` (an agent with a time budget aside).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use rulestone_report::{clip, table, Axis, Grid, Report, VariantReport};

use crate::agents::analysis::{self, AnalysisConfig, Play, VariantStats};
use crate::agents::{AgentSpec, SpecError};
use crate::check::options::split_set;
use crate::runtime::{Compiled, Game};

use super::any::{with_variants, OnVariants, Variants};
use super::load::shown;
use super::output::{self, Output};
use super::Format;
use super::{emit, stderr_is_tty, CliError, Result};

/// The largest grid of variants `analyze` runs.
pub const MAX_VARIANTS: usize = 64;

/// Above this many variants, progress is one bar for all of them.
const BARS_SHOWN: usize = 12;

/// The widest variant label in the terminal table.
const LABEL_WIDTH: usize = 24;

#[derive(Clone, Debug, Args)]
pub struct AnalyzeArgs {
    /// The game file (`.game`); a board game.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Give an option one or several values, `--set NAME=V1,V2,...` (repeatable). The variants
    /// are every combination of the values; options not given keep their defaults.
    #[arg(long = "set", value_name = "NAME=V1,V2,...")]
    pub set: Vec<String>,

    /// The agent measured in self-play: `random`, `mcts` (settings iterations=N, time=T, c=X,
    /// steps=N) or `alphabeta` (depth=N, time=T, memory=MB), settings as `:key=value`. A time
    /// budget makes results depend on the machine.
    #[arg(long, value_name = "SPEC", default_value = "mcts:iterations=200")]
    pub agent: String,

    /// The stronger agent of the skill gradient [default: the agent with 4 times its budget
    /// (MCTS iterations or time), alpha-beta one ply deeper, for `random` mcts:iterations=100].
    #[arg(long, value_name = "SPEC")]
    pub stronger: Option<String>,

    /// Games per variant and kind of play (random play, self-play, stronger against agent).
    #[arg(long, value_name = "N", default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,

    /// Seed of every game: the same seed gives the same report, whatever `--threads`.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Worker threads; 0 for one per core.
    #[arg(long, value_name = "T", default_value_t = 0,
          value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,

    /// Stop a game after this many decisions and count it apart (neither won nor drawn); MCTS
    /// playouts stop there too (at most 100,000).
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(1..=super::MAX_PLIES))]
    pub max_steps: u32,

    /// Output on standard output: a table (`text`) or JSON.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Also write the report as one self-contained HTML page with plots.
    #[arg(long, value_name = "PATH")]
    pub html: Option<PathBuf>,

    /// Stop once this many seconds have passed (e.g. `300`): games not started are skipped,
    /// games still running are given up, the report is of the games finished and says so,
    /// and the exit status is 3. Games are played round by round across the variants, so each
    /// variant gets about as many.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,
}

pub(crate) fn run(args: &AnalyzeArgs, compiled: Compiled) -> Result<()> {
    let config = config(args)?;
    let grid = grid(&args.set)?;
    let task = Analyze {
        args,
        config,
        grid: &grid,
    };
    with_variants(&args.file, &grid.variants(), compiled, task)
}

/// The analysis of every variant of the grid, for any kind of game.
struct Analyze<'a> {
    args: &'a AnalyzeArgs,
    config: AnalysisConfig,
    grid: &'a Grid,
}

impl OnVariants for Analyze<'_> {
    type Output = ();

    fn run<G: Game>(self, variants: &Variants<'_, G>) -> Result<()> {
        let html = self.args.html.as_ref().map(open_html).transpose()?;
        let labels: Vec<String> = (0..variants.options.len())
            .map(|v| self.grid.label(v))
            .collect();
        let stats = play(&self.config, variants, &labels)?;
        let report = report(self.args, &self.config, self.grid, variants, labels, stats);
        if let Some((path, file)) = html {
            write_html(&report, &path, file)?;
        }
        match self.args.format {
            Format::Text => emit(&table(&report))?,
            Format::Json => emit(&json(&report)?)?,
        }
        match report.stopped_by {
            Some(_) => Err(super::Fail::Stopped),
            None => Ok(()),
        }
    }
}

/// Plays and measures every variant, with progress bars.
fn play<G: Game>(
    config: &AnalysisConfig,
    variants: &Variants<'_, G>,
    labels: &[String],
) -> Result<Vec<VariantStats>> {
    let games = u64::from(config.games) * Play::ALL.len() as u64;
    let bars = progress_bars(labels, games);
    let tick = |v: usize| {
        if let Some(bar) = bars.as_ref().and_then(|b| b.get(v)) {
            bar.inc(1);
        }
    };
    let count = variants.options.len();
    let stats = analysis::analyze(config, count, variants.start, &tick).map_err(CliError::new)?;
    for bar in bars.iter().flatten() {
        bar.finish_and_clear();
    }
    Ok(stats)
}

/// The analysis settings from the arguments.
fn config(args: &AnalyzeArgs) -> Result<AnalysisConfig> {
    let agent = spec("--agent", &args.agent)?;
    let stronger = match &args.stronger {
        Some(text) => spec("--stronger", text)?,
        None => analysis::stronger(&agent),
    };
    Ok(AnalysisConfig {
        agent,
        stronger,
        games: args.games,
        seed: args.seed,
        max_steps: args.max_steps,
        threads: usize::from(args.threads),
        deadline: args
            .time_limit
            .map(|limit| std::time::Instant::now() + limit),
    })
}

fn spec(flag: &str, text: &str) -> Result<AgentSpec> {
    AgentSpec::parse(text).map_err(|SpecError { message, help }| {
        CliError::new(format!("bad `{flag}`: {message}"))
            .note(help)
            .into()
    })
}

/// Reads `--set NAME=V1,V2,...` arguments into a grid of at most [`MAX_VARIANTS`] variants.
fn grid(sets: &[String]) -> Result<Grid> {
    let mut axes: Vec<Axis> = Vec::new();
    for set in sets {
        let (option, values) = split_set(set).map_err(|e| CliError::new(e.to_string()))?;
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        if values.iter().any(String::is_empty) {
            return Err(CliError::new(format!("`--set {set}` has an empty value"))
                .note("separate values with commas: `--set width=4,5`")
                .into());
        }
        if axes.iter().any(|a| a.option == option) {
            return Err(CliError::new(format!("`{option}` is set twice"))
                .note(format!(
                    "list its values in one `--set`: `--set {option}=V1,V2`"
                ))
                .into());
        }
        axes.push(Axis { option, values });
    }
    let size = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.values.len()))
        .unwrap_or(usize::MAX);
    if size > MAX_VARIANTS {
        return Err(CliError::new(format!(
            "the `--set` values make {} variants; analyze runs at most {MAX_VARIANTS}",
            if size == usize::MAX {
                "too many".to_string()
            } else {
                size.to_string()
            }
        ))
        .note("give fewer values, or split the grid over several runs")
        .into());
    }
    Ok(Grid { axes })
}

/// Creates the HTML file before any game is played, so that a bad path fails at once.
fn open_html(path: &PathBuf) -> Result<(PathBuf, std::fs::File)> {
    output::refuse_other(path, Output::Page)?;
    std::fs::File::create(path)
        .map(|f| (path.clone(), f))
        .map_err(|e| CliError::io("write", path, &e).into())
}

/// Progress on standard error when it is a terminal: one bar per variant (or one for all of
/// them in a large grid), counting finished games. Entry `v` is variant `v`'s bar.
fn progress_bars(labels: &[String], games_per_variant: u64) -> Option<Vec<ProgressBar>> {
    if !stderr_is_tty() {
        return None;
    }
    let style =
        ProgressStyle::with_template("{prefix:>24} {bar:30} {pos}/{len} games [{elapsed}]").ok()?;
    let multi = MultiProgress::new();
    let bar = |len: u64, prefix: String| {
        let bar = multi.add(ProgressBar::new(len));
        bar.set_style(style.clone());
        bar.set_prefix(prefix);
        bar
    };
    if labels.len() > BARS_SHOWN {
        let total = bar(
            games_per_variant * labels.len() as u64,
            format!("{} variants", labels.len()),
        );
        return Some(vec![total; labels.len()]);
    }
    Some(
        labels
            .iter()
            .map(|l| bar(games_per_variant, clip(l, LABEL_WIDTH)))
            .collect(),
    )
}

fn report<G>(
    args: &AnalyzeArgs,
    config: &AnalysisConfig,
    grid: &Grid,
    variants: &Variants<'_, G>,
    labels: Vec<String>,
    stats: Vec<VariantStats>,
) -> Report {
    let unplayed: u64 = stats.iter().map(|s| u64::from(s.unplayed)).sum();
    let stopped = args
        .time_limit
        .filter(|_| unplayed > 0)
        .map(super::Bound::Time);
    Report {
        game: variants.name.clone(),
        file: shown(&args.file),
        players: variants.players.clone(),
        agent: config.agent.to_string(),
        stronger: config.stronger.to_string(),
        games: config.games,
        seed: config.seed,
        max_steps: config.max_steps,
        grid: grid.axes.clone(),
        variants: variants
            .options
            .iter()
            .zip(labels)
            .zip(stats)
            .map(|((options, label), stats)| VariantReport {
                label,
                options: options.iter().cloned().collect(),
                stats,
            })
            .collect(),
        stopped_by: stopped.map(super::Bound::json),
        unplayed: stopped.map(|_| unplayed),
        stopped_flag: stopped.map(super::Bound::flag),
    }
}

fn json(report: &Report) -> Result<String> {
    rulestone_report::json(report).map_err(|e| CliError::new(e).into())
}

/// Writes the HTML page to `file` (created at `path` before the games were played).
fn write_html(report: &Report, path: &Path, mut file: std::fs::File) -> Result<()> {
    let page = rulestone_report::html::page(report)
        .map_err(|e| CliError::new(format!("cannot draw the report's plots: {e}")))?;
    file.write_all(page.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| CliError::io("write", path, &e).into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn grid_is_every_combination() {
        let g = grid(&sets(&["width=4,5", "height=4", "x=a, b"])).expect("a grid");
        let v = g.variants();
        assert_eq!(v.len(), 4);
        assert_eq!(
            v[1],
            [("width", "4"), ("height", "4"), ("x", "b")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(g.label(1), "width=4 x=b");
        assert_eq!(grid(&[]).expect("no sets").label(0), "defaults");
        assert_eq!(grid(&sets(&["base=3"])).expect("one").label(0), "base=3");
    }

    #[test]
    fn bad_grids_are_refused() {
        assert!(grid(&sets(&["width=4,,5"])).is_err());
        assert!(grid(&sets(&["width=4", "width=5"])).is_err());
        assert!(grid(&sets(&["=4"])).is_err());
        assert!(grid(&sets(&["a=1,2,3,4", "b=1,2,3,4", "c=1,2,3,4,5"])).is_err());
        assert!(grid(&sets(&["a=1,2,3,4", "b=1,2,3,4", "c=1,2,3,4"])).is_ok());
    }
}
