//! The workspace's layering, read from `cargo metadata`: every dependency between Rulestone's
//! crates points down the stack that `docs/architecture.md` draws, and the runtime (which
//! generated code builds on) reaches neither the syntax tree, the checker, the parser, the
//! command line, the editor protocol nor the plots, directly or through another crate.
//!
//! Dependencies of tests (`[dev-dependencies]`) are not edges of the build: a stage's tests may
//! lower a real game through the crate above it.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Each crate's layer, bottom first; a crate may depend only on crates of lower layers.
const LAYERS: &[(&str, u8)] = &[
    ("rulestone-base", 0),
    ("rulestone-diag", 1),
    ("rulestone-ir", 1),
    ("rulestone-syntax", 2),
    ("rulestone-runtime", 2),
    ("rulestone-check", 3),
    ("rulestone-codegen", 3),
    ("rulestone-agents", 3),
    ("rulestone-draw", 3),
    ("rulestone-lower", 4),
    ("rulestone-lsp", 5),
    ("rulestone-session", 5),
    ("rulestone-precompiled", 5),
    ("rulestone-plugin", 3),
    ("rulestone-engine", 6),
    ("rulestone-report", 6),
    ("rulestone-server", 7),
    ("rulestone", 8),
    ("rulestone-python", 7),
];

/// What a crate must not reach, directly or through any crate it depends on.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "rulestone-runtime",
        &[
            "rulestone-syntax",
            "rulestone-check",
            "rulestone-lower",
            "rulestone-diag",
            "rulestone-lsp",
            "rulestone",
            "pest",
            "pest_derive",
            "clap",
            "lsp-server",
            "lsp-types",
            "plotters",
        ],
    ),
    (
        "rulestone-ir",
        &[
            "rulestone-syntax",
            "rulestone-check",
            "rulestone-lower",
            "rulestone-runtime",
            "pest",
            "clap",
        ],
    ),
    (
        "rulestone-codegen",
        &["rulestone-syntax", "rulestone-check", "pest", "clap"],
    ),
    ("rulestone-lsp", &["rulestone-runtime", "clap", "plotters"]),
    (
        "rulestone-session",
        &[
            "rulestone-agents",
            "rulestone-lsp",
            "rulestone",
            "clap",
            "plotters",
        ],
    ),
    (
        "rulestone-engine",
        &["rulestone-lsp", "rulestone", "clap", "plotters"],
    ),
    // The playground reaches plotters (SVG backend only) through `rulestone-report`, for the
    // analysis tab's report.
    ("rulestone-server", &["rulestone", "clap"]),
    // The bundled games' compiled code needs the runtime alone; its build script runs the
    // pipeline up to the code generator, nothing of the front ends.
    (
        "rulestone-precompiled",
        &[
            "rulestone-session",
            "rulestone-agents",
            "rulestone-lsp",
            "rulestone",
            "clap",
            "plotters",
        ],
    ),
    // The plugin loader needs the runtime alone (and the library it loads, the runtime alone).
    (
        "rulestone-plugin",
        &[
            "rulestone-syntax",
            "rulestone-check",
            "rulestone-lower",
            "rulestone-codegen",
            "rulestone",
            "clap",
        ],
    ),
    // The Python module reaches plotters (SVG backend only) through `rulestone-report`, for
    // a campaign's HTML page.
    ("rulestone-python", &["rulestone-lsp", "rulestone", "clap"]),
    (
        "rulestone-draw",
        &[
            "rulestone-syntax",
            "rulestone-check",
            "rulestone-lower",
            "rulestone-diag",
            "pest",
            "clap",
            "plotters",
        ],
    ),
];

/// Package name to the names of its normal and build dependencies.
type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every rule the graph breaks, as sentences; empty when the layering holds.
fn violations(graph: &Graph) -> Vec<String> {
    let layer = |name: &str| LAYERS.iter().find(|(n, _)| *n == name).map(|&(_, l)| l);
    let mut found = Vec::new();
    for (from, deps) in graph {
        let Some(mine) = layer(from) else {
            if from.starts_with("rulestone") {
                found.push(format!("`{from}` has no layer: add it to LAYERS"));
            }
            continue;
        };
        for to in deps {
            if let Some(theirs) = layer(to) {
                if theirs >= mine {
                    found.push(format!(
                        "`{from}` (layer {mine}) depends on `{to}` (layer {theirs}): an edge \
                         that does not point down"
                    ));
                }
            }
        }
    }
    for (from, banned) in FORBIDDEN {
        let reached = closure(graph, from);
        for name in banned.iter().filter(|b| reached.contains(**b)) {
            found.push(format!(
                "`{from}` reaches `{name}`, which it must not depend on"
            ));
        }
    }
    found
}

/// Every package `from` depends on, directly or not.
fn closure(graph: &Graph, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(next) = todo.pop() {
        for dep in graph.get(&next).into_iter().flatten() {
            if seen.insert(dep.clone()) {
                todo.push(dep.clone());
            }
        }
    }
    seen
}

/// The resolved graph of the workspace, without dev-dependencies.
fn workspace_graph() -> Graph {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let names: BTreeMap<&str, &str> = meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let mut graph = Graph::new();
    for node in meta["resolve"]["nodes"]
        .as_array()
        .expect("a resolved graph")
    {
        let name = names[node["id"].as_str().expect("an id")].to_string();
        let deps = graph.entry(name).or_default();
        for dep in node["deps"].as_array().expect("deps") {
            let kinds = dep["dep_kinds"].as_array().expect("dep kinds");
            let built = kinds.iter().any(|k| k["kind"].as_str() != Some("dev"));
            if built {
                deps.insert(names[dep["pkg"].as_str().expect("a package")].to_string());
            }
        }
    }
    graph
}

#[test]
fn every_dependency_points_down_and_the_runtime_stays_small() {
    let graph = workspace_graph();
    for (name, _) in LAYERS {
        assert!(
            graph.contains_key(*name),
            "`{name}` is not in the workspace"
        );
    }
    let found = violations(&graph);
    assert!(
        found.is_empty(),
        "the layering is broken:\n{}",
        found.join("\n")
    );
}

/// The check itself: an edge up the stack, and a forbidden crate reached through another, are
/// both reported.
#[test]
fn an_upward_or_forbidden_edge_is_reported() {
    let mut graph = workspace_graph();
    let edge = |g: &mut Graph, from: &str, to: &str| {
        g.entry(from.to_string())
            .or_default()
            .insert(to.to_string());
    };
    edge(&mut graph, "rulestone-ir", "rulestone-check");
    let found = violations(&graph);
    assert!(
        found
            .iter()
            .any(|v| v.contains("`rulestone-ir` (layer 1) depends on `rulestone-check`")),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .any(|v| v.contains("`rulestone-runtime` reaches `rulestone-syntax`")),
        "the runtime reaches the syntax tree through the IR: {found:?}"
    );
    let mut graph = workspace_graph();
    edge(&mut graph, "rulestone-runtime", "clap");
    let found = violations(&graph);
    // The crates above the runtime that must not reach it then reach it too.
    assert_eq!(
        found,
        [
            "`rulestone-runtime` reaches `clap`, which it must not depend on",
            "`rulestone-session` reaches `clap`, which it must not depend on",
            "`rulestone-engine` reaches `clap`, which it must not depend on",
            "`rulestone-server` reaches `clap`, which it must not depend on",
            "`rulestone-precompiled` reaches `clap`, which it must not depend on",
            "`rulestone-plugin` reaches `clap`, which it must not depend on",
            "`rulestone-python` reaches `clap`, which it must not depend on",
            "`rulestone-draw` reaches `clap`, which it must not depend on"
        ]
    );
}
