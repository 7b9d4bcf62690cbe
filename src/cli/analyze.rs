//! `rulestone analyze`: a variant-analysis report for game designers. The `--set` values make
//! a grid of variants of any kind of game ([`with_variants`]), played by
//! [`crate::agents::analysis`], and reported as a terminal table, JSON or an HTML page with
//! plots ([`super::report`]).
//!
//! Invariant: everything printed or written, except progress on standard error, depends only
//! on the arguments other than `--threads` (an agent with a time budget aside).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use serde::Serialize;

use crate::agents::analysis::{self, AnalysisConfig, Play, PlayStats, VariantStats};
use crate::agents::{AgentSpec, SpecError};
use crate::check::options::split_set;
use crate::runtime::{Compiled, Game};

use super::any::{with_variants, OnVariants, Variants};
use super::load::shown;
use super::Format;
use super::{emit, stderr_is_tty, CliError, Result};

/// The largest grid of variants `analyze` runs.
pub const MAX_VARIANTS: usize = 64;

/// Above this many variants, progress is one bar for all of them.
const BARS_SHOWN: usize = 12;

/// The widest variant label in the terminal table.
const LABEL_WIDTH: usize = 24;

/// The terminal table's width.
const TABLE_WIDTH: usize = 100;

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

/// The whole report: what the JSON holds and the table and the HTML page show.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Report {
    pub game: String,
    pub file: String,
    /// The players' names, first seat first.
    pub players: [String; 2],
    pub agent: String,
    pub stronger: String,
    pub games: u32,
    pub seed: u64,
    pub max_steps: u32,
    /// The `--set` options and their values, in the order given.
    pub grid: Vec<Axis>,
    pub variants: Vec<VariantReport>,
    /// The bound that stopped the analysis before every game was played (`--time-limit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<serde_json::Value>,
    /// Games the bound left unplayed, all variants together.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unplayed: Option<u64>,
    /// The bound as typed, for the warning (`--time-limit 5 s`).
    #[serde(skip)]
    pub stopped_flag: Option<String>,
}

/// One `--set` option and its values.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Axis {
    pub option: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct VariantReport {
    /// The options that vary across the grid, `width=4 height=5`.
    pub label: String,
    /// Every option of the variant with its value, defaults included.
    pub options: BTreeMap<String, String>,
    #[serde(flatten)]
    pub stats: VariantStats,
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
            super::report::write(&report, &path, file)?;
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

/// The variants: every combination of the `--set` values, the last option varying fastest.
#[derive(Clone, Debug)]
struct Grid {
    axes: Vec<Axis>,
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

impl Grid {
    fn variants(&self) -> Vec<Vec<(String, String)>> {
        let mut combos = vec![Vec::new()];
        for axis in &self.axes {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    axis.values.iter().map(move |v| {
                        let mut c = c.clone();
                        c.push((axis.option.clone(), v.clone()));
                        c
                    })
                })
                .collect();
        }
        combos
    }

    /// Variant `v`'s varying options, `width=4 height=5`; with nothing varying, every `--set`
    /// (or `defaults`).
    fn label(&self, v: usize) -> String {
        let combos = self.variants();
        let Some(combo) = combos.get(v) else {
            return String::new();
        };
        let varying: Vec<String> = combo
            .iter()
            .filter(|(option, _)| {
                self.axes
                    .iter()
                    .any(|a| a.option == *option && a.values.len() > 1)
            })
            .map(|(o, v)| format!("{o}={v}"))
            .collect();
        let shown = if varying.is_empty() {
            combo.iter().map(|(o, v)| format!("{o}={v}")).collect()
        } else {
            varying
        };
        if shown.is_empty() {
            "defaults".to_string()
        } else {
            shown.join(" ")
        }
    }
}

/// Creates the HTML file before any game is played, so that a bad path fails at once.
fn open_html(path: &PathBuf) -> Result<(PathBuf, std::fs::File)> {
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
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| CliError::new(format!("cannot write JSON: {e}")).into())
}

/// The terminal report: a heading, then a table per kind of play, one row per variant.
pub(crate) fn table(report: &Report) -> String {
    let mut out = heading(report);
    for warning in limit_warnings(report) {
        out.push_str(&wrapped(&format!("warning: {warning}"), 100, "  "));
    }
    out.push('\n');
    out.push_str(&play_table(report, "random play", |v| &v.stats.random));
    out.push('\n');
    out.push_str(&play_table(report, "self-play", |v| &v.stats.self_play));
    out.push('\n');
    out.push_str(&skill_table(report));
    out
}

fn heading(report: &Report) -> String {
    let mut out = format!(
        "{} ({}): {}, {} of each kind of play per variant\n",
        report.game,
        report.file,
        super::plural(report.variants.len(), "variant"),
        super::plural(report.games, "game")
    );
    let _ = writeln!(
        out,
        "agent {}, stronger agent {}, seed {}, at most {} a game",
        report.agent,
        report.stronger,
        report.seed,
        super::plural(report.max_steps, "step")
    );
    if !report.grid.is_empty() {
        let grid: Vec<String> = report
            .grid
            .iter()
            .map(|a| format!("{}={}", a.option, a.values.join(",")))
            .collect();
        let _ = writeln!(out, "options: {}", grid.join(" "));
    }
    let _ = writeln!(
        out,
        "1st is {}, 2nd is {}; rates in % with 95% intervals; limit: games stopped at the step limit",
        report.players[0], report.players[1]
    );
    out
}

/// The share of a kind of play's games stopped by the step limit from which the report warns
/// that its rates say little.
const LIMIT_WARNING: f64 = 0.1;

/// The warnings on games that did not count fully: first the games `--time-limit` left
/// unplayed, then one line per variant where at least [`LIMIT_WARNING`] of some kind of
/// play's games were stopped by the step limit, saying what it means and what to do.
pub(crate) fn limit_warnings(report: &Report) -> Vec<String> {
    let stop = report
        .stopped_flag
        .iter()
        .zip(report.unplayed)
        .map(|(flag, unplayed)| {
            format!(
                "stopped by {flag}: {} not played; the figures are those of the games finished",
                super::plural(unplayed, "game")
            )
        });
    stop.chain(report.variants.iter().filter_map(|v| {
        let skill = &v.stats.skill;
        let shares = [
            (
                "random",
                v.stats.random.step_limit.count,
                v.stats.random.games,
            ),
            (
                "self-play",
                v.stats.self_play.step_limit.count,
                v.stats.self_play.games,
            ),
            ("skill", skill.step_limit, skill.games),
        ];
        let stopped: Vec<String> = shares
            .iter()
            .filter(|(_, n, games)| {
                *games > 0 && f64::from(*n) >= LIMIT_WARNING * f64::from(*games)
            })
            .map(|(kind, n, games)| format!("{n} of {games} {kind} games"))
            .collect();
        if stopped.is_empty() {
            return None;
        }
        let variant = if report.grid.is_empty() || v.label.is_empty() {
            String::new()
        } else {
            format!("variant {}: ", v.label)
        };
        Some(format!(
            "{variant}{} stopped at the step limit ({}), neither won nor drawn: the rates \
                 and the skill score say little about this variant; raise `--max-steps`, or \
                 make sure the game ends",
            join_and(&stopped),
            super::plural(report.max_steps, "step"),
        ))
    }))
    .collect()
}

/// `text` in lines of at most `width` columns, broken between words, each line after the
/// first starting with `indent`; a newline ends every line.
fn wrapped(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = indent.to_string();
        } else if !line.is_empty() && line != indent {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Win rates by seat, step-limit hits, length and branching of one kind of play.
fn play_table(report: &Report, title: &str, of: impl Fn(&VariantReport) -> &PlayStats) -> String {
    let headers = [
        title,
        "1st wins",
        "2nd wins",
        "draws",
        "limit",
        "length (median)",
        "branching",
    ];
    let rows = report
        .variants
        .iter()
        .map(|v| {
            let s = of(v);
            vec![
                clip(&v.label, LABEL_WIDTH),
                percent_interval(s.first_wins.rate, s.first_wins.low, s.first_wins.high),
                percent_interval(s.second_wins.rate, s.second_wins.low, s.second_wins.high),
                percent_interval(s.draws.rate, s.draws.low, s.draws.high),
                whole(s.step_limit.rate),
                format!("{:.1} ({})", s.length.mean, s.length.median),
                s.branching
                    .mean
                    .map_or_else(|| "-".to_string(), |b| format!("{b:.1}")),
            ]
        })
        .collect();
    columns(&headers, rows)
}

/// The stronger agent's score and the agent's favourite first moves in self-play.
fn skill_table(report: &Report) -> String {
    let headers = [
        "skill",
        "stronger's score",
        "agent's first moves (self-play)",
    ];
    let rows: Vec<Vec<String>> = report
        .variants
        .iter()
        .map(|v| {
            let score = &v.stats.skill.score;
            let openings: Vec<String> = v
                .stats
                .self_play
                .openings
                .iter()
                .map(|o| format!("{} {}", o.decision, percent(o.share)))
                .collect();
            vec![
                clip(&v.label, LABEL_WIDTH),
                percent_interval(score.rate, score.low, score.high),
                openings.join(", "),
            ]
        })
        .collect();
    let used = rows
        .iter()
        .map(|r| r[0].chars().count())
        .chain([headers[0].len()])
        .max()
        .unwrap_or(0)
        + headers[1].len()
        + 4;
    let rows = rows
        .into_iter()
        .map(|mut r| {
            r[2] = clip(&r[2], TABLE_WIDTH.saturating_sub(used));
            r
        })
        .collect();
    columns(&headers, rows)
}

/// Left-aligned columns two spaces apart, trailing spaces trimmed.
fn columns(headers: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let mut text = String::new();
        for (cell, w) in cells.iter().zip(&widths) {
            let _ = write!(text, "{cell:<w$}  ");
        }
        text.trim_end().to_string() + "\n"
    };
    let mut out = line(headers.iter().map(ToString::to_string).collect());
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// `55 [40-69]`: a rate and its interval in whole percent.
pub(crate) fn percent_interval(rate: f64, low: f64, high: f64) -> String {
    format!("{} [{}-{}]", whole(rate), whole(low), whole(high))
}

/// `55%`: a share outside a table of rates.
pub(crate) fn percent(rate: f64) -> String {
    format!("{}%", whole(rate))
}

pub(crate) fn whole(rate: f64) -> String {
    format!("{:.0}", rate * 100.0)
}

/// At most `width` characters, the last one `…` when cut.
pub(crate) fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
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

    #[test]
    fn clipping_marks_the_cut() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(percent_interval(0.5, 0.3456, 0.7), "50 [35-70]");
    }
}
