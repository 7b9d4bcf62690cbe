//! `rulestone serve`: the browser playground ([`crate::server`]) on a local port.

use std::path::PathBuf;

use clap::Args;

use super::{CliError, Result};
use crate::runtime::Compiled;

#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// The directory whose `.game` files the page lists beside the bundled games (only files
    /// under it are read).
    pub dir: Option<PathBuf>,

    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8000)]
    pub port: u16,

    /// The address to listen on; anything but 127.0.0.1 lets other machines reach the page.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
}

pub(crate) fn run(args: &ServeArgs, compiled: Compiled) -> Result<()> {
    let config = crate::server::Config {
        dir: args.dir.clone(),
        host: args.host.clone(),
        port: args.port,
        compiled,
        work_time: crate::server::WORK_TIME,
    };
    let server = crate::server::Server::start(&config).map_err(|e| CliError::new(e.to_string()))?;
    println!("Rulestone playground: {}", server.url());
    println!("(stop with Ctrl-C)");
    server
        .wait()
        .map_err(|e| CliError::new(format!("the server stopped: {e}")).into())
}
