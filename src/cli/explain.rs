//! `rulestone explain`: the long explanation of a diagnostic code.

use std::fmt::Write as _;

use clap::Args;

use crate::diag::{self, CODES};

use super::{emit, CliError, Result};

#[derive(Clone, Debug, Args)]
pub struct ExplainArgs {
    /// The code, as shown in brackets in a report: `E0101` (case does not matter).
    #[arg(value_name = "CODE")]
    pub code: Option<String>,
}

/// Every code with its title, one per line.
fn list() -> String {
    let mut out = String::new();
    for c in CODES {
        let _ = writeln!(out, "{}  {}", c.code, c.title);
    }
    out
}

pub(crate) fn run(args: &ExplainArgs) -> Result<()> {
    let Some(code) = &args.code else {
        return emit(&list());
    };
    match diag::explain(code) {
        // The explanation opens with its own `# CODE: title` heading; add one if it does not.
        Some(info) if info.explanation.trim_start().starts_with('#') => {
            emit(&format!("{}\n", info.explanation.trim_end()))
        }
        Some(info) => emit(&format!(
            "# {}: {}\n\n{}\n",
            info.code,
            info.title,
            info.explanation.trim_end()
        )),
        None => {
            let known: Vec<&str> = CODES.iter().map(|c| c.code).collect();
            Err(CliError::new(format!("unknown code `{}`", code.trim()))
                .note(format!("the codes are: {}", known.join(", ")))
                .note("`rulestone explain` lists them with their titles")
                .into())
        }
    }
}
