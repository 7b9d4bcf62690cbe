//! The HTML report of a variant analysis: one self-contained page (inline style and SVG, no
//! script, no address), with the tables of the terminal report and its plots (SVG).
//!
//! Invariant: every text that comes from the game or the arguments is escaped.

use std::fmt::Write as _;

use rulestone_agents::analysis::PlayStats;
use rulestone_session::notation::plural;

use crate::plots::{self, Pick};
use crate::{clip, limit_warnings, percent, percent_interval, Report, VariantReport};

const STYLE: &str = "
body { font-family: sans-serif; margin: 24px auto; max-width: 1140px; color: #222; }
h1 { font-size: 26px; margin-bottom: 4px; }
h2 { font-size: 20px; margin: 20px 0 4px; }
p.settings { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
th, td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #ddd; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
h3 { font-size: 16px; margin: 16px 0 4px; }
figure { margin: 0 0 12px; }
figure.side { display: flex; align-items: center; gap: 24px; }
figure.side figcaption { max-width: 480px; }
p.warning { color: #a00; font-weight: bold; }
figcaption { color: #444; font-size: 14px; max-width: 1100px; }
";

const RANDOM_PLAY: &str = "random play";
const SELF_PLAY: &str = "self-play";

/// The whole page.
///
/// # Errors
/// A plot could not be drawn.
pub fn page(report: &Report) -> Result<String, String> {
    let panels: [(&str, Pick); 2] = [
        (RANDOM_PLAY, |v| &v.stats.random),
        (SELF_PLAY, |v| &v.stats.self_play),
    ];
    let mut body = heading(report);
    for warning in limit_warnings(report) {
        let _ = writeln!(
            body,
            "<p class=\"warning\">Warning: {}</p>",
            escape(&warning)
        );
    }
    body.push_str(&figure(
        "Win rates",
        &plots::win_rates(report, &panels)?,
        &format!(
            "The share of games the first player ({}) won, the second player ({}) won, and \
             drawn, per variant, under random play and under self-play of {}. Bars are 95% \
             Wilson intervals: where two intervals do not overlap, the difference is unlikely \
             to be chance. Games stopped by the step limit, neither won nor drawn, are the fourth bar.",
            report.players[0], report.players[1], report.agent
        ),
    ));
    body.push_str(&side_figure(
        "Skill gradient",
        &plots::skill(report)?,
        &format!(
            "The score of {} against {} (wins plus half the draws, seats alternated), with \
             its 95% interval. Far above 50%: extra thinking pays off, so skill decides games; \
             near 50%: the variant is close to a lottery at this level of play. The square is \
             the share of these games stopped by the step limit, which count as draws.",
            report.stronger, report.agent
        ),
    ));
    body.push_str(&figure(
        "Game length",
        &plots::lengths(report)?,
        "How many decisions a game took (chance's included), per variant: the share of games \
         in each length bin under random play (grey) and self-play (blue). Each panel has its \
         own scale, with the same bins for both kinds of play.",
    ));
    body.push_str(&figure(
        "Branching factor by ply",
        &plots::branching(report, &panels)?,
        "The mean number of decisions open at a player's k-th turn, over the games that \
         reached it, drawn while at least half of the games did. A high, flat line is a game \
         that stays wide; a falling one narrows as the board fills.",
    ));
    body.push_str("<h2>The numbers</h2>\n");
    body.push_str(&play_table(report, RANDOM_PLAY, |v| &v.stats.random));
    body.push_str(&play_table(report, SELF_PLAY, |v| &v.stats.self_play));
    body.push_str(&skill_table(report));
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"generator\" content=\"{GENERATOR}\">\n\
         <title>{}: variant analysis</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\
         </body>\n</html>\n",
        escape(&report.game)
    ))
}

/// The page's `generator`: how `analyze --html` knows a page it may replace.
pub const GENERATOR: &str = "rulestone analyze";

fn heading(report: &Report) -> String {
    let mut out = format!("<h1>{}: variant analysis</h1>\n", escape(&report.game));
    let grid: Vec<String> = report
        .grid
        .iter()
        .map(|a| format!("{}={}", a.option, a.values.join(",")))
        .collect();
    let _ = writeln!(
        out,
        "<p class=\"settings\">{}; {}; {} of each kind of play per variant; \
         agent {}, stronger agent {}; seed {}; at most {} a game{}. The first player is \
         {}, the second {}. Rates are in % with 95% intervals.</p>",
        escape(&report.file),
        plural(report.variants.len(), "variant"),
        plural(report.games, "game"),
        escape(&report.agent),
        escape(&report.stronger),
        report.seed,
        plural(report.max_steps, "step"),
        if grid.is_empty() {
            String::new()
        } else {
            format!("; options {}", escape(&grid.join(" ")))
        },
        escape(&report.players[0]),
        escape(&report.players[1]),
    );
    out
}

fn play_table(report: &Report, title: &str, pick: impl Fn(&VariantReport) -> &PlayStats) -> String {
    let rows = report
        .variants
        .iter()
        .map(|v| {
            let s = pick(v);
            vec![
                percent_interval(s.first_wins.rate, s.first_wins.low, s.first_wins.high),
                percent_interval(s.second_wins.rate, s.second_wins.low, s.second_wins.high),
                percent_interval(s.draws.rate, s.draws.low, s.draws.high),
                percent_interval(s.step_limit.rate, s.step_limit.low, s.step_limit.high),
                format!("{:.1}", s.length.mean),
                format!("{}", s.length.median),
                s.branching
                    .mean
                    .map_or_else(|| "-".to_string(), |b| format!("{b:.1}")),
            ]
        })
        .collect();
    table(
        report,
        &format!("<h3>{}</h3>", capitalised(title)),
        &[
            "1st wins",
            "2nd wins",
            "draws",
            "step limit",
            "mean length",
            "median length",
            "branching",
        ],
        rows,
    )
}

fn skill_table(report: &Report) -> String {
    let rows = report
        .variants
        .iter()
        .map(|v| {
            let s = &v.stats.skill;
            let openings: Vec<String> = v
                .stats
                .self_play
                .openings
                .iter()
                .map(|o| format!("{} {}", o.decision, percent(o.share)))
                .collect();
            vec![
                percent_interval(s.score.rate, s.score.low, s.score.high),
                format!("{} / {} / {}", s.wins, s.draws + s.step_limit, s.losses),
                clip(&openings.join(", "), 80),
            ]
        })
        .collect();
    table(
        report,
        "<h3>Skill and openings</h3>",
        &[
            "stronger's score",
            "won / drawn / lost",
            "agent's first moves in self-play",
        ],
        rows,
    )
}

/// A table with a numbered variant column first.
fn table(report: &Report, title: &str, headers: &[&str], rows: Vec<Vec<String>>) -> String {
    let mut out = format!("{title}\n<table>\n<tr><th>#</th><th>variant</th>");
    for h in headers {
        let _ = write!(out, "<th>{}</th>", escape(h));
    }
    out.push_str("</tr>\n");
    for (i, (row, v)) in rows.into_iter().zip(&report.variants).enumerate() {
        let _ = write!(
            out,
            "<tr><td class=\"num\">{}</td><td>{}</td>",
            i + 1,
            escape(&v.label)
        );
        for cell in row {
            let _ = write!(out, "<td>{}</td>", escape(&cell));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

fn figure(title: &str, svg: &str, caption: &str) -> String {
    format!(
        "<h2>{}</h2>\n<figure>\n{svg}\n<figcaption>{}</figcaption>\n</figure>\n",
        escape(title),
        escape(caption)
    )
}

/// A narrow figure with its caption beside it.
fn side_figure(title: &str, svg: &str, caption: &str) -> String {
    format!(
        "<h2>{}</h2>\n<figure class=\"side\">\n{svg}\n<figcaption>{}</figcaption>\n</figure>\n",
        escape(title),
        escape(caption)
    )
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Text as HTML: `&`, `<`, `>` and `"` escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
