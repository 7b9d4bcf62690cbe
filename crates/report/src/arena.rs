//! The report of a round robin (`rulestone arena`, and an arena campaign of the Python
//! package): every pairing's tally, score and interval, then the Elo ratings; as a table or
//! JSON.

use std::fmt::Write as _;

use rulestone_agents::contest::Arena;
use rulestone_session::notation::plural;

/// A round robin's results and what its report says about it.
#[derive(Clone, Debug)]
pub struct ArenaReport {
    /// The game's name and file, `NAME (path/to/file.game)`.
    pub title: String,
    /// The option values, `width=7, height=6`, if the game has options.
    pub options: Option<String>,
    /// Games per pair.
    pub games: u32,
    pub seed: u64,
    /// The players' names, first seat first.
    pub players: [String; 2],
    pub arena: Arena,
    /// The bound that stopped the round robin early: as typed (`--time-limit 5 s`) and as
    /// JSON.
    pub stopped: Option<(String, serde_json::Value)>,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The tables: every pairing from the first agent's side, then the Elo ratings.
#[must_use]
pub fn table(r: &ArenaReport) -> String {
    let a = &r.arena;
    let mut out = String::new();
    let _ = writeln!(out, "{}", r.title);
    if let Some(o) = &r.options {
        let _ = writeln!(out, "options: {o}");
    }
    let _ = writeln!(
        out,
        "{} per pair, seats alternated ({} and {}), seed {}\n",
        plural(r.games, "game"),
        r.players[0],
        r.players[1],
        r.seed
    );
    let width = a.agents.iter().map(String::len).max().unwrap_or(5).max(5);
    let _ = writeln!(
        out,
        "{:<width$}  {:<width$}  {:>5} {:>5} {:>5}  {:>7}  {:>17}  {:>7}",
        "agent", "opponent", "wins", "draws", "losses", "score", "95% interval", "length"
    );
    for p in &a.pairings {
        let t = p.tally;
        let (score, lo, hi) = t.score();
        let _ = writeln!(
            out,
            "{:<width$}  {:<width$}  {:>5} {:>5} {:>5}  {:>7}  {:>17}  {:>7.1}",
            a.agents[p.first],
            a.agents[p.second],
            t.wins,
            t.draws,
            t.losses,
            pct(score),
            format!("{} – {}", pct(lo), pct(hi)),
            p.mean_steps
        );
        if t.unfinished > 0 {
            let _ = writeln!(
                out,
                "  ({} reached the step limit and count as draws)",
                plural(t.unfinished, "game")
            );
        }
    }
    let mut ranked: Vec<(usize, f64)> = a.elo.iter().copied().enumerate().collect();
    ranked.sort_by(|x, y| y.1.total_cmp(&x.1));
    let _ = writeln!(out, "\n{:<width$}  {:>6}", "agent", "Elo");
    for (i, elo) in ranked {
        let _ = writeln!(out, "{:<width$}  {:>+6.0}", a.agents[i], elo);
    }
    if let Some((flag, _)) = &r.stopped {
        let _ = writeln!(
            out,
            "\narena stopped by {flag}: {} not played; the tables above are of the games finished",
            plural(a.unplayed, "game")
        );
    }
    out
}

/// The report as JSON, pretty-printed, ending with a newline.
#[must_use]
pub fn json(r: &ArenaReport) -> String {
    let a = &r.arena;
    let pairings: Vec<serde_json::Value> = a
        .pairings
        .iter()
        .map(|p| {
            let (score, lo, hi) = p.tally.score();
            serde_json::json!({
                "agent": a.agents[p.first],
                "opponent": a.agents[p.second],
                "wins": p.tally.wins,
                "draws": p.tally.draws,
                "losses": p.tally.losses,
                "unfinished": p.tally.unfinished,
                "score": score,
                "interval": [lo, hi],
                "mean_length": p.mean_steps,
            })
        })
        .collect();
    let elo: serde_json::Map<String, serde_json::Value> = a
        .agents
        .iter()
        .zip(&a.elo)
        .map(|(n, e)| (n.clone(), serde_json::json!(e)))
        .collect();
    let mut value = serde_json::json!({
        "game": r.title,
        "options": r.options,
        "games_per_pair": r.games,
        "seed": r.seed,
        "pairings": pairings,
        "elo": elo,
    });
    if let (Some((_, bound)), Some(object)) = (&r.stopped, value.as_object_mut()) {
        object.insert("stopped_by".to_string(), bound.clone());
        object.insert("unplayed".to_string(), serde_json::json!(a.unplayed));
    }
    format!("{value:#}\n")
}
