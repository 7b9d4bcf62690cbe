//! The report of a variant analysis (`rulestone analyze`, and a campaign of the Python package
//! that plays its games on many machines): the [`Report`] of every variant's statistics, and
//! its three renderings, the terminal table ([`table`]), JSON ([`json`]) and one
//! self-contained HTML page with plots ([`html::page`]); and the report of a round robin
//! (`rulestone arena`), as a table or JSON ([`arena`]).
//!
//! Invariants: this crate only renders; the games are played and measured by
//! `rulestone-agents` (`analysis`, `contest`), so that the same statistics give the same
//! report whoever played them. Every rendering depends only on the [`Report`]; every text from the game or
//! the caller is escaped in the HTML page.

pub mod arena;
pub mod html;
mod plots;
mod table;

use std::collections::BTreeMap;

use rulestone_agents::analysis::VariantStats;
use serde::Serialize;

pub use table::{clip, limit_warnings, percent, percent_interval, table, whole};

/// The widest variant label in the terminal table.
const LABEL_WIDTH: usize = 24;

/// The terminal table's width.
const TABLE_WIDTH: usize = 100;

/// The whole report: what the JSON holds and the table and the HTML page show.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
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
pub struct Axis {
    pub option: String,
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    /// The options that vary across the grid, `width=4 height=5`.
    pub label: String,
    /// Every option of the variant with its value, defaults included.
    pub options: BTreeMap<String, String>,
    #[serde(flatten)]
    pub stats: VariantStats,
}

/// The variants: every combination of the `--set` values, the last option varying fastest.
#[derive(Clone, Debug)]
pub struct Grid {
    /// The options given, each with its values, in the order given.
    pub axes: Vec<Axis>,
}

impl Grid {
    /// Every variant's option values, the last option varying fastest.
    #[must_use]
    pub fn variants(&self) -> Vec<Vec<(String, String)>> {
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
    #[must_use]
    pub fn label(&self, v: usize) -> String {
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

/// The report as JSON, pretty-printed, ending with a newline.
///
/// # Errors
/// A number JSON cannot hold.
pub fn json(report: &Report) -> Result<String, String> {
    serde_json::to_string_pretty(report)
        .map(|s| s + "\n")
        .map_err(|e| format!("cannot write JSON: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(axes: &[(&str, &[&str])]) -> Grid {
        Grid {
            axes: axes
                .iter()
                .map(|(option, values)| Axis {
                    option: option.to_string(),
                    values: values.iter().map(ToString::to_string).collect(),
                })
                .collect(),
        }
    }

    #[test]
    fn grid_is_every_combination() {
        let g = grid(&[
            ("width", &["4", "5"]),
            ("height", &["4"]),
            ("x", &["a", "b"]),
        ]);
        let v = g.variants();
        assert_eq!(v.len(), 4);
        assert_eq!(
            v[1],
            [("width", "4"), ("height", "4"), ("x", "b")]
                .map(|(a, b)| (a.to_string(), b.to_string()))
        );
        assert_eq!(g.label(1), "width=4 x=b");
        assert_eq!(grid(&[]).label(0), "defaults");
        assert_eq!(grid(&[("base", &["3"])]).label(0), "base=3");
    }

    #[test]
    fn clipping_marks_the_cut() {
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
        assert_eq!(percent_interval(0.5, 0.3456, 0.7), "50 [35-70]");
    }
}
