//! Running the `rulestone` binary from a test: a fixed terminal width, no colour, from the crate
//! root, so outputs are the same on every machine and snapshots stay stable.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary with `args`, run from the crate root with a fixed terminal width and no colour.
pub fn cmd(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rulestone"));
    c.args(args)
        .current_dir(super::root())
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE");
    c
}

/// Runs the binary with `args` to its end.
pub fn run(args: &[&str]) -> Output {
    cmd(args).output().expect("run rulestone")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The exit code; `-1` when a signal ended the process.
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Exit code, standard output and standard error, as one text for a snapshot.
pub fn transcript(o: &Output) -> String {
    format!(
        "exit: {}\n--- stdout\n{}--- stderr\n{}",
        code(o),
        stdout(o),
        stderr(o)
    )
}

/// An empty scratch directory `group/name` under cargo's temporary directory for tests.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}
