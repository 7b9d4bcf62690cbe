//! The terminal table of a report, and the small formatting helpers the HTML page shares.

use std::fmt::Write as _;

use rulestone_agents::analysis::PlayStats;
use rulestone_session::notation::plural;

use super::{Report, VariantReport, LABEL_WIDTH, TABLE_WIDTH};

/// The terminal report: a heading, then a table per kind of play, one row per variant.
#[must_use]
pub fn table(report: &Report) -> String {
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
        plural(report.variants.len(), "variant"),
        plural(report.games, "game")
    );
    let _ = writeln!(
        out,
        "agent {}, stronger agent {}, seed {}, at most {} a game",
        report.agent,
        report.stronger,
        report.seed,
        plural(report.max_steps, "step")
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
/// unplayed, then one line per variant where at least a tenth of some kind of
/// play's games were stopped by the step limit, saying what it means and what to do.
pub fn limit_warnings(report: &Report) -> Vec<String> {
    let stop = report
        .stopped_flag
        .iter()
        .zip(report.unplayed)
        .map(|(flag, unplayed)| {
            format!(
                "stopped by {flag}: {} not played; the figures are those of the games finished",
                plural(unplayed, "game")
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
            plural(report.max_steps, "step"),
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
pub fn percent_interval(rate: f64, low: f64, high: f64) -> String {
    format!("{} [{}-{}]", whole(rate), whole(low), whole(high))
}

/// `55%`: a share outside a table of rates.
pub fn percent(rate: f64) -> String {
    format!("{}%", whole(rate))
}

pub fn whole(rate: f64) -> String {
    format!("{:.0}", rate * 100.0)
}

/// At most `width` characters, the last one `…` when cut.
pub fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}
