//! Every flag that takes a value, of every command, given hostile numbers (`1e20`, `-5`,
//! `NaN`, a number past 64 bits, and a large but well-formed `99999`): the command must answer
//! with an error or do bounded work, never panic or abort, and a malformed or absurd number must
//! not start a run that goes on (each is stopped after [`PATIENCE`]).
//!
//! The flags are read from the CLI's own definition (clap), so a flag added later is tried too.
//! Each run happens in an empty temporary directory, so flags that name files write nothing
//! anywhere else.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::CommandFactory;

/// How long one command may run before it counts as a run that goes on.
const PATIENCE: Duration = Duration::from_secs(20);

/// Commands not tried: servers that wait for a client by design.
const SERVERS: [&str; 2] = ["lsp", "serve"];

/// Values no flag should accept as a reason to run on.
const MALFORMED: [&str; 4] = ["1e20", "-5", "NaN", "18446744073709551617"];

/// A well-formed value that is large: accepted or refused, it must not panic or abort.
const LARGE: &str = "99999";

/// How one run ended.
enum Ended {
    /// Exited with this status code (`None`: killed by a signal), with its standard error.
    Exited(Option<i32>, String),
    /// Still running after [`PATIENCE`]; killed.
    RanOn,
}

fn run(args: &[String], dir: &std::path::Path) -> Ended {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulestone"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rulestone");
    let mut stderr = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let text = reader.join().unwrap_or_default();
            return Ended::Exited(status.code(), text);
        }
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            return Ended::RanOn;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The arguments that put a command in front of a game: its positionals, each given the
/// bundled tic-tac-toe (or, for a code, a known diagnostic code).
fn positionals(sub: &clap::Command, game: &str) -> Vec<String> {
    sub.get_positionals()
        .filter(|a| a.is_required_set())
        .map(|a| {
            let name = a.get_id().as_str().to_ascii_lowercase();
            if name.contains("code") {
                "E0101".to_string()
            } else {
                game.to_string()
            }
        })
        .collect()
}

#[test]
fn numeric_flags_never_panic_or_run_on() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.game");
    let cli = rulestone::cli::Cli::command();
    let mut problems = Vec::new();
    let mut tried = 0;
    for sub in cli.get_subcommands() {
        let name = sub.get_name();
        if SERVERS.contains(&name) {
            continue;
        }
        let base = positionals(sub, game);
        for flag in sub.get_arguments() {
            let Some(long) = flag.get_long() else {
                continue;
            };
            if flag.is_positional() || !flag.get_action().takes_values() || names_a_path(flag) {
                continue;
            }
            for value in MALFORMED.iter().chain([&LARGE]) {
                let dir = tempdir(name, long);
                let mut args = vec![name.to_string()];
                args.extend(base.iter().cloned());
                args.push(format!("--{long}={value}"));
                tried += 1;
                let shown = args.join(" ");
                match run(&args, &dir) {
                    Ended::Exited(code, stderr) => {
                        if stderr.contains("panicked") || !matches!(code, Some(0..=2)) {
                            let first = stderr.lines().next().unwrap_or("").to_string();
                            problems.push(format!("`{shown}`: exit {code:?}: {first}"));
                        }
                    }
                    Ended::RanOn if *value != LARGE => {
                        problems.push(format!("`{shown}`: still running after {PATIENCE:?}"));
                    }
                    Ended::RanOn => eprintln!("note: `{shown}` ran on; stopped"),
                }
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
    assert!(tried > 50, "only {tried} runs: were the flags found?");
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// Whether a flag's value is a file or directory: no number, and a command writing there may
/// rightly run long (`compile --out` builds a crate).
fn names_a_path(flag: &clap::Arg) -> bool {
    flag.get_value_names().is_some_and(|names| {
        names.iter().any(|n| {
            ["PATH", "DIR", "FILE"]
                .iter()
                .any(|p| n.as_str().contains(p))
        })
    })
}

/// A fresh empty directory for one run.
fn tempdir(command: &str, flag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "rulestone-hostile-{}-{command}-{flag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a temporary directory");
    dir
}
