//! The programs a set of game files compiles to: what `rulestone compile` and the bundled
//! games' build both generate code for.

use rulestone_ir::fingerprint::fingerprint;
use rulestone_ir::Program;

/// The programs to generate code for, each once, each with the label messages name it by.
#[derive(Debug, Default)]
pub struct CompileSet {
    entries: Vec<(String, Program, u64)>,
}

impl CompileSet {
    /// Adds the program of `file` (shown as `shown` where two files share a game name) built
    /// for `sets`. The same program twice (one file given twice, an option set to its
    /// default) is kept once; two files of one game name with different rules are both
    /// kept, the later one labelled with its file.
    pub fn add(&mut self, shown: &str, sets: &[(String, String)], program: Program) {
        let print = fingerprint(&program);
        if self.entries.iter().any(|(_, _, f)| *f == print) {
            return;
        }
        let mut label = label(&program.name, sets);
        if self.entries.iter().any(|(l, _, _)| *l == label) {
            label = format!("{label} [{shown}]");
        }
        self.entries.push((label, program, print));
    }

    /// The programs with their labels, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Program)> {
        self.entries.iter().map(|(l, p, _)| (l.as_str(), p))
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// How compiled programs are named in messages: the game and the options that were set.
#[must_use]
pub fn label(game: &str, sets: &[(String, String)]) -> String {
    if sets.is_empty() {
        game.to_string()
    } else {
        let s: Vec<String> = sets.iter().map(|(n, v)| format!("{n}={v}")).collect();
        format!("{game} ({})", s.join(", "))
    }
}
