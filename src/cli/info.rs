//! `rulestone info`: what a game declares, for a reader meeting it for the first time: its
//! players, options (with their values), board, pieces, zones, counters, whether it has chance,
//! and a few moves from the start in its notation. Table games get their table, stone kinds,
//! factions, cards and armies instead of a board.

use std::fmt::Write as _;

use clap::Args;
use serde_json::{json, Value};

use crate::check::options::{accepted, declared};
use crate::ir::Program;
use crate::runtime::{Compiled, Game};
use crate::syntax::ast::{self, OptionType};

use std::path::Path;

use super::any::{with_game, Games, OnGame};
use super::load::{shown, split_sets};
use super::table::LoadedTable;
use super::Format;
use super::{emit, plural, CliError, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct InfoArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// How to report: `text` for people, or `json` (one object) for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How many moves from the start are shown as examples.
const EXAMPLES: usize = 3;

pub(crate) fn run(args: &InfoArgs, compiled: Compiled) -> Result<()> {
    with_game(
        &args.game,
        None,
        compiled,
        Info {
            format: args.format,
        },
    )
}

/// The report of any game: what it declares, then its decisions at the start.
struct Info {
    format: Format,
}

impl OnGame for Info {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let mut report = (games.describe)()?;
        let mut game = (games.start)(games.deal)?;
        let legal = game.decisions_text();
        report["moves_at_start"] = json!(legal.len());
        report["example_moves"] = json!(legal.iter().take(EXAMPLES).collect::<Vec<_>>());
        match self.format {
            Format::Text => emit(&text(&report)),
            Format::Json => {
                let s = serde_json::to_string_pretty(&report)
                    .map_err(|e| CliError::new(format!("cannot write JSON: {e}")))?;
                emit(&format!("{s}\n"))
            }
        }
    }
}

/// The declared options with what they accept, their defaults and their values here.
fn options(file: &ast::File, values: &[(String, String)]) -> Vec<Value> {
    declared(file)
        .map(|d| {
            let default = crate::check::options::default_text(d);
            let value = values
                .iter()
                .find(|(k, _)| *k == d.name.name)
                .map_or_else(|| default.clone(), |(_, v)| v.clone());
            let kind = match &d.ty {
                OptionType::Enum(words) => json!({
                    "type": "enum",
                    "values": words.iter().map(|w| w.name.clone()).collect::<Vec<_>>(),
                }),
                OptionType::Range { lo, hi, .. } => {
                    json!({"type": "integer", "min": lo, "max": hi})
                }
            };
            json!({
                "name": d.name.name,
                "accepts": accepted(d),
                "kind": kind,
                "default": default,
                "value": value,
            })
        })
        .collect()
}

/// The file's presets, each with its values as `--set` pairs would give them.
fn presets(file: &ast::File) -> Vec<Value> {
    crate::check::presets::presets(file)
        .into_iter()
        .map(|(name, sets)| {
            let values: Vec<String> = sets.iter().map(|(n, v)| format!("{n}={v}")).collect();
            json!({"name": name.name, "values": values.join(", ")})
        })
        .collect()
}

/// What a board game declares: its board, pieces, zones, counters...
pub(crate) fn board_part(path: &Path, file: &ast::File, program: &Program) -> Value {
    let board = &program.board;
    let mut counters = Vec::new();
    let mut tokens = Vec::new();
    let mut tracks = Vec::new();
    for item in &file.items {
        match &item.kind {
            ast::ItemKind::Counter {
                name,
                per_player,
                per_cell,
                view,
                ..
            } => {
                let per = if *per_cell {
                    "cell"
                } else if *per_player {
                    "player"
                } else {
                    "game"
                };
                let initial = (!*per_cell)
                    .then(|| program.counters.iter().find(|c| c.name == name.name))
                    .flatten()
                    .map(|c| c.initial);
                counters.push(json!({
                    "name": name.name,
                    "per": per,
                    "initial": initial,
                    "hidden": matches!(view, ast::CounterView::Hidden),
                }));
            }
            ast::ItemKind::Token { name, .. } => {
                let at = program
                    .counters
                    .iter()
                    .find(|c| c.name == name.name)
                    .and_then(|c| usize::try_from(c.initial).ok())
                    .and_then(|cell| board.names.get(cell));
                tokens.push(json!({"name": name.name, "at": at}));
            }
            ast::ItemKind::Track { name, .. } => tracks.push(json!(name.name)),
            _ => {}
        }
    }
    json!({
        "game": program.name,
        "file": shown(path),
        "kind": "board",
        "players": program.players,
        "options": options(file, &program.options),
        "presets": presets(file),
        "board": {
            "cells": board.len(),
            "axes": board.axes,
            "first_cell": board.names.first(),
            "last_cell": board.names.last(),
        },
        "pieces": program.pieces.iter().map(|p| json!({"name": p.name, "symbols": p.symbols})).collect::<Vec<_>>(),
        "shapes": program.shapes.iter().map(|s| json!({"name": s.name, "count": s.count, "points": s.points})).collect::<Vec<_>>(),
        "zones": program.zones.iter().map(|z| json!({"name": z.name, "cells": z.cells.len()})).collect::<Vec<_>>(),
        "counters": counters,
        "tokens": tokens,
        "tracks": tracks,
        "chance": program.has_chance(),
        "score": program.score.is_some(),
    })
}

/// What a table game declares: its table, stones, factions, cards and armies.
pub(crate) fn table_part(args: &GameArgs, file: &ast::File, table: &LoadedTable) -> Result<Value> {
    let program = &table.program;
    let (checked, _) = crate::check::check(file);
    let mut params = Vec::new();
    if let Some(game) = checked.and_then(|c| c.table) {
        let sets = split_sets(&args.set)?;
        let (values, _) = game.configure(&sets).map_err(|errors| {
            CliError::new(errors.first().map_or_else(String::new, ToString::to_string))
        })?;
        for ((name, default), value) in game.params.iter().zip(values) {
            params.push(json!({"name": name, "default": default, "value": value}));
        }
    }
    let armies: Vec<Value> = (0..2)
        .map(|p| {
            json!({
                "player": program.players.get(p),
                "armies": table.armies[p].iter().map(|a| json!({
                    "name": a.name,
                    "factions": a.factions.iter().filter_map(|&f| program.factions.get(f)).collect::<Vec<_>>(),
                    "stones": a.stones.iter().sum::<u32>(),
                    "cards": a.deck.len(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    Ok(json!({
        "game": program.name,
        "file": shown(&args.file),
        "kind": "table",
        "players": program.players,
        "options": options(file, &program.settings),
        "presets": presets(file),
        "params": params,
        "table": {"length": program.length, "width": program.width, "walls": program.walls.len(), "lines": program.lines.len()},
        "stones": program.discs.iter().map(|d| json!({"name": d.name, "letter": d.letter, "radius": d.radius, "mass": d.mass})).collect::<Vec<_>>(),
        "factions": program.factions,
        "cards": program.cards.len(),
        "armies": armies,
        "match": program.match_rules(),
        "captures_to_win": program.captures_to_win(),
        "turns": program.turns(),
        "referee": program.referee,
        "chance": true,
    }))
}

/// A JSON string or number as plain text.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The names of a JSON list of objects, `a, b, c`; `none` for an empty list.
fn names(list: &Value, describe: impl Fn(&Value) -> String) -> String {
    let items: Vec<String> = list
        .as_array()
        .map(|a| a.iter().map(describe).collect())
        .unwrap_or_default();
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

fn count(v: &Value) -> usize {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

/// The report as labelled lines.
fn text(r: &Value) -> String {
    let mut out = String::new();
    let table = r["kind"] == "table";
    let _ = writeln!(
        out,
        "{} ({}), a {} game",
        plain(&r["game"]),
        plain(&r["file"]),
        if table { "table" } else { "board" }
    );
    let players: Vec<String> = r["players"]
        .as_array()
        .map(|a| a.iter().map(plain).collect())
        .unwrap_or_default();
    if table {
        let _ = writeln!(
            out,
            "players: {} (who goes first is drawn)",
            players.join(", ")
        );
    } else {
        let _ = writeln!(
            out,
            "players: {} (moves first), {}",
            players.first().map_or("", String::as_str),
            players.get(1..).map(|p| p.join(", ")).unwrap_or_default()
        );
    }
    let opts = r["options"].as_array().cloned().unwrap_or_default();
    if opts.is_empty() {
        out.push_str("options: none\n");
    } else {
        out.push_str("options (--set NAME=VALUE):\n");
        let width = opts
            .iter()
            .map(|o| plain(&o["name"]).len() + plain(&o["value"]).len())
            .max()
            .unwrap_or(0);
        for o in &opts {
            let (name, value) = (plain(&o["name"]), plain(&o["value"]));
            let pad = width - name.len() - value.len();
            let _ = writeln!(
                out,
                "  {name} = {value}{:pad$}   {}; default {}",
                "",
                plain(&o["accepts"]),
                plain(&o["default"]),
            );
        }
    }
    let presets = r["presets"].as_array().cloned().unwrap_or_default();
    if !presets.is_empty() {
        out.push_str("presets (--set preset=NAME):\n");
        let width = presets
            .iter()
            .map(|p| plain(&p["name"]).len())
            .max()
            .unwrap_or(0);
        for p in &presets {
            let name = plain(&p["name"]);
            let _ = writeln!(out, "  {name:width$}   {}", plain(&p["values"]));
        }
    }
    if table {
        table_text(r, &mut out);
    } else {
        board_text(r, &mut out);
    }
    let _ = writeln!(
        out,
        "chance: {}",
        if r["chance"] == true {
            if table {
                "yes (the first player, the shuffles, aim noise; seeded by --deal)"
            } else {
                "yes (rolls)"
            }
        } else {
            "no"
        }
    );
    let total = count(&r["moves_at_start"]);
    let examples = names(&r["example_moves"], plain);
    let what = if table { "decision" } else { "move" };
    if total == 0 {
        let _ = writeln!(out, "{what}s at the start: none");
    } else {
        let _ = writeln!(out, "{what}s at the start: {} ({} in all)", examples, total);
    }
    out
}

fn board_text(r: &Value, out: &mut String) {
    let b = &r["board"];
    let axes: Vec<String> = b["axes"]
        .as_array()
        .map(|a| a.iter().map(plain).collect())
        .unwrap_or_default();
    let cells = count(&b["cells"]);
    let _ = writeln!(
        out,
        "board: {} ({} to {}), {} {}",
        plural(cells, "cell"),
        plain(&b["first_cell"]),
        plain(&b["last_cell"]),
        if axes.len() == 1 { "axis" } else { "axes" },
        axes.join(", ")
    );
    let _ = writeln!(
        out,
        "pieces: {}",
        names(&r["pieces"], |p| {
            let symbols: Vec<String> = p["symbols"]
                .as_array()
                .map(|a| a.iter().map(plain).collect())
                .unwrap_or_default();
            format!("{} ({})", plain(&p["name"]), symbols.join(" "))
        })
    );
    if r["shapes"].as_array().is_some_and(|a| !a.is_empty()) {
        let _ = writeln!(
            out,
            "shapes: {}",
            names(&r["shapes"], |s| format!(
                "{} ({} each, {})",
                plain(&s["name"]),
                count(&s["count"]),
                plural(
                    usize::try_from(s["points"].as_i64().unwrap_or(0)).unwrap_or(0),
                    "point"
                )
            ))
        );
    }
    let _ = writeln!(
        out,
        "zones: {}",
        names(&r["zones"], |z| format!(
            "{} ({})",
            plain(&z["name"]),
            plural(count(&z["cells"]), "cell")
        ))
    );
    let all = r["counters"].as_array().cloned().unwrap_or_default();
    let (hidden, shown): (Vec<Value>, Vec<Value>) =
        all.into_iter().partition(|c| c["hidden"] == true);
    let _ = writeln!(
        out,
        "counters: {}",
        names(&Value::Array(shown), |c| {
            let per = plain(&c["per"]);
            let name = plain(&c["name"]);
            match (per.as_str(), c["initial"].as_i64()) {
                ("game", Some(i)) => format!("{name} (starts at {i})"),
                (_, Some(i)) => format!("{name} per {per} (starts at {i})"),
                (_, None) => format!("{name} per {per}"),
            }
        })
    );
    if !hidden.is_empty() {
        let _ = writeln!(
            out,
            "hidden counters: {}",
            names(&Value::Array(hidden), |c| plain(&c["name"]))
        );
    }
    if r["tokens"].as_array().is_some_and(|a| !a.is_empty()) {
        let _ = writeln!(
            out,
            "tokens: {}",
            names(&r["tokens"], |t| format!(
                "{} (starts on {})",
                plain(&t["name"]),
                plain(&t["at"])
            ))
        );
    }
    if r["tracks"].as_array().is_some_and(|a| !a.is_empty()) {
        let _ = writeln!(out, "tracks: {}", names(&r["tracks"], plain));
    }
    let _ = writeln!(
        out,
        "score: {}",
        if r["score"] == true {
            "yes (`rulestone match` adds it up over games)"
        } else {
            "no"
        }
    );
}

fn table_text(r: &Value, out: &mut String) {
    let params = r["params"].as_array().cloned().unwrap_or_default();
    if !params.is_empty() {
        out.push_str("parameters (--set NAME=NUMBER):\n");
        let width = params
            .iter()
            .map(|p| plain(&p["name"]).len() + plain(&p["value"]).len())
            .max()
            .unwrap_or(0);
        for p in &params {
            let (name, value) = (plain(&p["name"]), plain(&p["value"]));
            let pad = width - name.len() - value.len();
            let _ = writeln!(
                out,
                "  {name} = {value}{:pad$}   default {}",
                "",
                plain(&p["default"])
            );
        }
    }
    let t = &r["table"];
    let _ = writeln!(
        out,
        "table: {} × {} units, {}, {}",
        plain(&t["length"]),
        plain(&t["width"]),
        plural(count(&t["walls"]), "wall"),
        plural(count(&t["lines"]), "line")
    );
    let _ = writeln!(
        out,
        "stones: {}",
        names(&r["stones"], |s| format!(
            "{} ({})",
            plain(&s["name"]),
            plain(&s["letter"])
        ))
    );
    let _ = writeln!(out, "factions: {}", names(&r["factions"], plain));
    let _ = writeln!(out, "cards: {}", count(&r["cards"]));
    if let Some(sides) = r["armies"].as_array() {
        for side in sides {
            let _ = writeln!(
                out,
                "armies of {}: {}",
                plain(&side["player"]),
                names(&side["armies"], |a| format!(
                    "{} ({}; {}, {})",
                    plain(&a["name"]),
                    names(&a["factions"], plain),
                    plural(count(&a["stones"]), "stone"),
                    plural(count(&a["cards"]), "card")
                ))
            );
        }
    }
    if let Some(rules) = r["match"].as_array() {
        for rule in rules {
            let _ = writeln!(out, "match: {}", plain(rule));
        }
    }
    if r["referee"] == true {
        out.push_str("referee mode: the referee types each shot's outcome\n");
    }
}
