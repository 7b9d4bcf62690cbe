//! `rulestone lsp`: the language server ([`crate::lsp`]) on standard input and output.

use clap::Args;

use super::{CliError, Fail, Result};

#[derive(Clone, Debug, Args)]
pub struct LspArgs {}

pub(crate) fn run(_args: &LspArgs) -> Result<()> {
    let (connection, io_threads) = crate::lsp::transport::stdio();
    let served = crate::lsp::serve(&connection);
    // Closing the connection lets the writer thread finish.
    drop(connection);
    let joined = io_threads.join();
    served.map_err(|e| Fail::Error(CliError::new(format!("language server: {e}"))))?;
    joined.map_err(|e| Fail::Error(CliError::new(format!("language server: {e}"))))?;
    Ok(())
}
