//! `rulestone serve`: a local web server for playing, editing and checking games in a browser.
//! The page (HTML, CSS and plain JavaScript, no build step) is embedded in the binary; the
//! server answers a small JSON API that the page calls.
//!
//! What it stands on: the game in play is `rulestone-session`'s (loading through the one
//! pipeline, positions, notation, legal moves with their parts), or for a game that declares a
//! table the runtime's `TableMatch` (see `table`), the board picture
//! `rulestone-draw`'s (each cell's group carries its name in `data-cell`, which is how the page
//! knows what was clicked), the agents `rulestone-agents`'s, and the editor's diagnostics are
//! the language server's own ([`rulestone_lsp::diagnostics::diagnose`]), so the page shows
//! what `rulestone check` and an editor show; the analysis tab's report is `rulestone analyze
//! --html`'s (`rulestone-agents` plays, `rulestone-report` renders).
//!
//! Invariants:
//! - No game is named here: the bundled games are read from `games/` when the crate is built
//!   (`build.rs`), the games of the served directory when listed.
//! - Only files under the served directory are read: a game id is a relative path of normal
//!   components, canonicalized and checked to stay under the directory's canonical path, so
//!   neither `..` nor a symbolic link leads out of it.
//! - Every limit is a clear JSON error (`{"error": {"code", "message", "notes"}}`): request
//!   bodies ([`MAX_BODY`]), game texts ([`MAX_TEXT`]), sessions ([`MAX_SESSIONS`], the least
//!   recently used evicted), listed moves ([`MAX_LEGAL`]), an agent's thinking
//!   ([`MAX_AGENT_CPU`]) and every request's work ([`WORK_TIME`]). A game's work is bounded by
//!   the pipeline's and the runtime's own limits (nesting depth, board size, `repeat` rounds,
//!   generation steps); the work runs on blocking threads, at most [`MAX_BUSY`] at once, so the
//!   server keeps answering while a request works, and a panic in one is an error answer.
//! - Nothing runs away: work whose answer nobody waits for any more (its request answered 503
//!   at its deadline, or its client gone) is told to stop, cooperatively: the checker asks
//!   between option combinations ([`rulestone_lower::diagnose_until`]), the runtime's engines
//!   (agents' copies included) share the request's flag as their alarm and list no more moves
//!   once it is raised. Such work gives its place back at once, up to [`MAX_OVERDUE`] of it,
//!   so later requests are served while it winds down.
//! - An analysis (the analysis tab's `rulestone analyze`) runs on a thread of its own, never
//!   on the request threads: at most [`MAX_ANALYSES`] at once, each stopped by
//!   [`ANALYSIS_TIME`], by a cancel, or when its page stops asking for it (see `analysis`).
//! - Each browser tab has its own session id; sessions share nothing but the loaded games'
//!   programs, which are read-only.

mod analysis;
mod api;
mod catalog;
mod play;
mod table;

use std::io;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::time::Duration;

use rulestone_runtime::Compiled;

pub use analysis::{ANALYSIS_TIME, MAX_ANALYSES};
pub use catalog::Catalog;

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 1 << 20;
/// The longest game text accepted from the page or read from the directory, in bytes.
pub const MAX_TEXT: usize = 512 << 10;
/// The most sessions kept; a new one beyond evicts the least recently used.
pub const MAX_SESSIONS: usize = 256;
/// The most legal moves sent to the page for one position.
pub const MAX_LEGAL: usize = 5000;
/// The most moves a shared link or a session may hold.
pub const MAX_MOVES: usize = 10_000;
/// The most CPU time an agent may think for one move.
pub const MAX_AGENT_CPU: Duration = Duration::from_secs(3);
/// The longest a request may work before it is answered with an error (unless
/// [`Config::work_time`] says otherwise); its work is then told to stop.
pub const WORK_TIME: Duration = Duration::from_secs(20);
/// The most requests working at once (loading, checking, playing, thinking); others wait.
pub const MAX_BUSY: usize = 8;
/// The most requests answered for being too long whose work has not stopped yet, beyond
/// [`MAX_BUSY`]: such work gives its place back at once, so that new requests are served while
/// it winds down; past this many, it keeps its place (and new requests wait, then are refused).
pub const MAX_OVERDUE: usize = 8;

/// The stack of each of the server's threads: checking, lowering and running recurse over the
/// rules as deep as they nest, which needs more than the default for unoptimised builds (as the
/// command line's own thread; only the pages used are ever committed).
const STACK_BYTES: usize = 64 << 20;

/// What the server serves and where it listens.
#[derive(Clone, Debug)]
pub struct Config {
    /// The directory whose `.game` files are listed beside the bundled games.
    pub dir: Option<PathBuf>,
    /// The address to listen on (`127.0.0.1` unless asked otherwise).
    pub host: String,
    /// The port (0: any free port).
    pub port: u16,
    /// The compiled move generators the games run on when one matches (the command line
    /// passes the ones linked into it); any other program runs on the interpreter.
    pub compiled: Compiled,
    /// The longest a request may work ([`WORK_TIME`]; tests set less).
    pub work_time: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            dir: None,
            host: "127.0.0.1".to_string(),
            port: 8000,
            compiled: Compiled::NONE,
            work_time: WORK_TIME,
        }
    }
}

/// Why the server could not start.
#[derive(Debug)]
pub struct StartError {
    pub message: String,
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for StartError {}

/// A running server: its address, and the thread that runs it.
pub struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl Server {
    /// Binds `config.host:config.port` and serves on a thread of its own.
    ///
    /// # Errors
    /// The directory cannot be read, the address cannot be bound, or the runtime not started.
    pub fn start(config: &Config) -> Result<Server, StartError> {
        let catalog =
            Catalog::new(config.dir.as_deref()).map_err(|message| StartError { message })?;
        let listener =
            TcpListener::bind((config.host.as_str(), config.port)).map_err(|e| StartError {
                message: format!("cannot listen on {}:{}: {e}", config.host, config.port),
            })?;
        let addr = listener.local_addr().map_err(|e| StartError {
            message: format!("cannot read the address listened on: {e}"),
        })?;
        listener.set_nonblocking(true).map_err(|e| StartError {
            message: format!("cannot set up the listening socket: {e}"),
        })?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_name("rulestone-serve")
            .thread_stack_size(STACK_BYTES)
            .build()
            .map_err(|e| StartError {
                message: format!("cannot start the server's runtime: {e}"),
            })?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let app = api::router(api::State::new(catalog, config.compiled, config.work_time));
        let thread = std::thread::spawn(move || {
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener)?;
                axum::serve(listener, app)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        Ok(Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address listened on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address.
    #[must_use]
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the server fails (or the process is ended).
    ///
    /// # Errors
    /// The server's IO error.
    pub fn wait(mut self) -> io::Result<()> {
        self.join()
    }

    fn join(&mut self) -> io::Result<()> {
        match self.thread.take() {
            Some(t) => t
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the server's thread failed"))),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    /// Stops serving (the thread ends once open connections close).
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
