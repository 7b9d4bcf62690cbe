//! How the language server's answers grow with the size of a file: document symbols, semantic
//! tokens and diagnostics on generated files of many declarations (pieces, defines, zones,
//! directions, counters) and of many comment lines, in CPU time of the thread that answers.
//! Hover and definition are timed twice: on a fresh analysis of the text (what the first
//! request about a document's version costs, and what every request cost when the server did
//! not keep its analysis) and on the analysis the server keeps for that version.
//!
//! `cargo run -p rulestone-lsp --example scale [--release] -- [SIZES...]`: each size is a number
//! of declarations and, times ten, of comment lines (default: 1000 16000). The answers should
//! grow as the sizes do (16 times the size, about 16 times the time); this measures, it asserts
//! nothing.

use std::io::Write;
use std::time::Duration;

use cpu_time::ThreadTime;
use rulestone_lsp::{analysis::Analysis, diagnostics, position, semantic, symbols};

/// A valid game with `n` declarations, a fifth of each kind, each used once in its turn.
fn declarations(n: usize) -> String {
    let mut s = String::from(
        "game \"scale\"\nplayers A, B\nboard {\n    axes x, y\n    cells x in 0..7, y in 0..7\n    name \"{letter(x)}{y + 1}\"\n}\n",
    );
    let mut uses = Vec::new();
    for i in 0..n {
        match i % 5 {
            0 => s.push_str(&format!("piece p{i} \"a\" \"b\"\n")),
            1 => s.push_str(&format!("define d{i} = {i}\n")),
            2 => s.push_str(&format!("zone z{i} = cells where x == {}\n", i % 8)),
            3 => s.push_str(&format!("direction e{i} = (1, {})\n", i % 3)),
            _ => {
                s.push_str(&format!("counter c{i} = 0\n"));
                uses.push(format!("    c{i} = d{}\n", i - 3));
            }
        }
    }
    s.push_str("turn {\n    pick c in empty\n    put p0 at c\n");
    for u in uses {
        s.push_str(&u);
    }
    s.push_str("}\non no moves {\n    lose mover\n}\n");
    s
}

/// A small valid game after `n` comment lines.
fn comments(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "// comment line {i}: pick to in zone é🎲 \"text\" {{hole}}\n"
        ));
    }
    s.push_str(&declarations(5));
    s
}

/// The CPU time of `f` on this thread.
fn cpu<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = ThreadTime::try_now().ok();
    let out = f();
    let spent = start.map(|t| t.elapsed()).unwrap_or_default();
    (spent, out)
}

fn measure(what: &str, text: &str) {
    let uri: lsp_types::Uri = "file:///scale.game".parse().expect("a URI");
    let (parse, file) = cpu(|| rulestone_syntax::parse(text));
    let Ok(file) = file else {
        let _ = writeln!(std::io::stdout(), "{what}: does not parse");
        return;
    };
    let (outline, symbols) = cpu(|| symbols::document_symbols(text, &file));
    let (names, _) = cpu(|| rulestone_check::resolve_names(&file));
    let (analysed, analysis) = cpu(|| Analysis::new(text));
    let (coloured, data) = cpu(|| semantic::tokens(&analysis));
    let tokens = analysed + coloured;
    let (checked, found) = cpu(|| diagnostics::diagnose(&uri, text));
    // The last counter assigned in the turn: a name used once, declared far above.
    let offset = text.rfind("\n    c").map_or(0, |i| i + 5);
    let at = position::position(text, offset);
    let (fresh, hovered) = cpu(|| {
        let a = Analysis::new(text);
        let target = a.target(offset);
        (target.is_some(), symbols::hover_in(&a, at).is_some())
    });
    let (kept, again) = cpu(|| {
        let target = analysis.target(offset);
        (target.is_some(), symbols::hover_in(&analysis, at).is_some())
    });
    assert_eq!(hovered, again);
    // A closed output (`| head`) ends the measuring quietly.
    let _ = writeln!(
        std::io::stdout(),
        "{what:>28} {:>9} bytes | parse {:>8.1} ms | symbols {:>8.1} ms ({} symbols) | semantic tokens {:>8.1} ms ({} tokens; names {:.1} ms, analysis {:.1} ms) | diagnostics {:>8.1} ms ({} found) | hover and definition {:>8.1} ms fresh, {:>6.2} ms kept ({})",
        text.len(),
        ms(parse),
        ms(outline),
        symbols.len(),
        ms(tokens),
        data.data.len(),
        ms(names),
        ms(analysed),
        ms(checked),
        found.len(),
        ms(fresh),
        ms(kept),
        if hovered.0 && hovered.1 { "found" } else { "not found" }
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1000, 16000]
    } else {
        sizes
    };
    for &n in &sizes {
        measure(&format!("{n} declarations"), &declarations(n));
    }
    for &n in &sizes {
        measure(&format!("{} comment lines", n * 10), &comments(n * 10));
    }
}
