//! `rulestone compile`: game files to a `rulestone` binary whose move generation is compiled
//! Rust ([`codegen`] crate), the way RBG compiles games to C++.
//!
//! The command writes a small Cargo crate (the generated module plus a `main` that registers it
//! and runs the ordinary CLI) and builds it with `cargo build --release`. The binary accepts
//! every command and file `rulestone` does; for the compiled programs it generates moves with
//! the compiled code, for anything else (another game, other options, a changed file) with the
//! interpreter, so it is never wrong, only sometimes not faster.
//!
//! The build is arranged so that only the first one is slow: no link-time optimisation unless
//! asked (a rebuild compiles only the generated module), and a binary run from its own build's
//! `target/release/` builds every crate in that target directory (one shared build of rulestone
//! and its dependencies), then copies the binary into the crate's `target/release/`. Cargo's lock
//! on the target directory orders concurrent builds; it is not held while a program it built runs
//! (`cargo run`, `cargo test`), so a compile started from one does not wait on it.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use super::load::{build, parse, shown, split_sets};
use super::{emit, CliError, Result};
use crate::codegen::{self, Unit};
use crate::Built;

#[derive(Debug, Args)]
pub struct CompileArgs {
    /// The game files (`.game`) to compile into one binary.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Set an option for every file, e.g. `--set base=5` (repeatable).
    ///
    /// Every combination of the values of enum options not set here is compiled (a game with
    /// `option variant: a | b | c` gives three programs); range options keep their defaults
    /// unless set.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// Directory of the generated crate; the binary lands in its `target/release/`.
    #[arg(long, value_name = "DIR", default_value = "target/rulestone-compiled")]
    pub out: PathBuf,

    /// Write the crate without building it.
    #[arg(long)]
    pub no_build: bool,

    /// Build with link-time optimisation: playouts a few percent faster on some games, but
    /// every build then re-optimises the whole program (minutes, not seconds, each time).
    #[arg(long)]
    pub lto: bool,

    /// Write only the generated Rust module to FILE (no crate, no build), to embed it in a
    /// crate of your own: `mod games;`, then pass `rulestone::runtime::Compiled::new(&games::TURNS)`
    /// to `rulestone::cli::main_with`, or ask that value for a program's `backend_for` and build
    /// engines with `Engine::with_backend`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["out", "no_build", "lto"])]
    pub module: Option<PathBuf>,

    /// The rulestone source tree the crate builds against [default: the one this binary was
    /// built from].
    #[arg(long, value_name = "DIR")]
    pub rulestone: Option<PathBuf>,
}

const BINARY: &str = "rulestone-compiled";

/// The generated crate's release profile. No link-time optimisation by default: with it every
/// build re-optimises the whole program (about a minute and a half on two cores, each time);
/// without it a rebuild compiles only the generated module and links, and the compiled move
/// generation runs as fast (it reaches rulestone through generics and function pointers); only
/// some games' playouts lose a few percent. One codegen unit keeps rulestone's engine as
/// optimised as in its own build.
fn profile(lto: bool) -> String {
    let lto = if lto { "\"thin\"" } else { "false" };
    format!("[profile.release]\ncodegen-units = 1\nlto = {lto}\n")
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

pub(crate) fn run(args: &CompileArgs) -> Result<()> {
    let forced = split_sets(&args.set)?;
    let mut programs = Vec::new();
    for path in &args.files {
        let (source, file) = parse(path)?;
        for mut sets in crate::check::options::variants(&file) {
            sets.retain(|(name, _)| !forced.iter().any(|(n, _)| n == name));
            sets.extend(forced.iter().cloned());
            let Built::Board(program) = build(path, &source, &file, &sets)? else {
                eprintln!(
                    "note: skipping `{}`: a table game's shots are simulated, not generated",
                    shown(path)
                );
                break;
            };
            // The same program twice (one file given twice, an option set to its default)
            // is compiled once; two files of one game name with different rules are both
            // compiled, the later one labelled with its file.
            let fingerprint = crate::runtime::compiled::fingerprint(&program);
            if programs.iter().any(|(_, _, f)| *f == fingerprint) {
                continue;
            }
            let mut label = label(&program.name, &sets);
            if programs.iter().any(|(l, _, _)| *l == label) {
                label = format!("{label} [{}]", shown(path));
            }
            programs.push((label, program, fingerprint));
        }
    }
    let units: Vec<Unit<'_>> = programs
        .iter()
        .map(|(label, program, _)| Unit {
            program,
            label: label.clone(),
        })
        .collect();
    if let Some(path) = &args.module {
        std::fs::write(path, codegen::emit(&units)).map_err(|e| CliError::io("write", path, &e))?;
        return emit(&format!(
            "wrote {} ({} compiled)\n",
            shown(path),
            super::plural(units.len(), "program")
        ));
    }
    let source = match &args.rulestone {
        Some(dir) => dir.clone(),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    };
    if !source.join("Cargo.toml").is_file() {
        return Err(CliError::new(format!(
            "no rulestone source at `{}` to build against",
            shown(&source)
        ))
        .note("pass the directory of rulestone's Cargo.toml with `--rulestone DIR`")
        .into());
    }
    write_crate(&args.out, &source, &codegen::emit(&units), args.lto)?;
    let mut report = format!(
        "wrote {} ({} compiled):\n",
        shown(&args.out),
        super::plural(units.len(), "program")
    );
    for u in &units {
        report.push_str(&format!("  {}\n", u.label));
    }
    emit(&report)?;
    let manifest = args.out.join("Cargo.toml");
    if args.no_build {
        return emit(&format!(
            "build it with: cargo build --release --manifest-path {}\n",
            shown(&manifest)
        ));
    }
    fetch(&manifest)?;
    let started = std::time::Instant::now();
    let shared = shared_target(args.rulestone.is_none());
    let mut build: Vec<&std::ffi::OsStr> = ["build", "--release", "--offline"]
        .iter()
        .map(std::ffi::OsStr::new)
        .collect();
    if let Some(dir) = &shared {
        eprintln!(
            "note: building in `{}`, the target directory of this binary's own build: rulestone \
             and its dependencies are built there once for every compiled crate",
            shown(dir)
        );
        build.extend([std::ffi::OsStr::new("--target-dir"), dir.as_os_str()]);
    }
    build.push(std::ffi::OsStr::new("--manifest-path"));
    let status = cargo(&build, &manifest, false)?;
    if !status.success() {
        return Err(CliError::new("cargo could not build the compiled crate")
            .note("its messages are above; `rulestone` itself still runs every game")
            .into());
    }
    let binary = place_binary(&args.out, shared.as_deref())?;
    emit(&format!(
        "built {} in {:.0} s\nuse it like rulestone, e.g.: {} bench {}\n",
        shown(&binary),
        started.elapsed().as_secs_f64(),
        shown(&binary),
        args.files.first().map(|p| shown(p)).unwrap_or_default()
    ))
}

/// The target directory of the release build this binary came from (`DIR/release/rulestone`),
/// when the crate builds against that build's source: every compiled crate then shares one
/// build of rulestone and its dependencies, so only the first compile builds them and later
/// ones (any game, any `--out`) compile just the generated module. A binary installed
/// elsewhere, or another source tree, builds in the crate's own directory.
fn shared_target(own_source: bool) -> Option<PathBuf> {
    if !own_source {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let release = exe.parent()?;
    if release.file_name()? != "release" || !release.join(".fingerprint").is_dir() {
        return None;
    }
    let writable = std::fs::metadata(release).is_ok_and(|m| !m.permissions().readonly());
    writable.then(|| release.parent().map(Path::to_path_buf))?
}

/// Where the binary lands: `OUT/target/release/`, copied there from a shared target directory.
fn place_binary(out: &Path, shared: Option<&Path>) -> Result<PathBuf> {
    let name = format!("{BINARY}{}", std::env::consts::EXE_SUFFIX);
    let binary = out.join("target/release").join(&name);
    if let Some(dir) = shared {
        let built = dir.join("release").join(&name);
        let folder = out.join("target/release");
        std::fs::create_dir_all(&folder).map_err(|e| CliError::io("create", &folder, &e))?;
        std::fs::copy(&built, &binary).map_err(|e| CliError::io("write", &binary, &e))?;
    }
    Ok(binary)
}

/// Runs cargo with `args` and the manifest; `quiet` hides its output.
fn cargo<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    manifest: &Path,
    quiet: bool,
) -> Result<std::process::ExitStatus> {
    let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    command.args(args).arg(manifest);
    if quiet {
        command
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
    }
    command.status().map_err(|e| {
        CliError::new(format!("cannot run cargo: {e}"))
            .note("compiling a game needs a Rust toolchain (https://rustup.rs)")
            .into()
    })
}

/// Makes sure every crate the lock file names is in cargo's cache: offline when they are
/// there already (the usual case after building rulestone), else downloaded once.
fn fetch(manifest: &Path) -> Result<()> {
    if cargo(&["fetch", "--offline", "--manifest-path"], manifest, true)?.success() {
        return Ok(());
    }
    eprintln!("note: some crates rulestone builds with are not in cargo's cache; downloading them");
    if cargo(&["fetch", "--manifest-path"], manifest, false)?.success() {
        return Ok(());
    }
    Err(
        CliError::new("cannot get the crates the compiled crate builds with")
            .note(format!(
                "on a machine with network, run `cargo fetch --manifest-path {}` once (or build \
             rulestone there), then compile again",
                shown(manifest)
            ))
            .into(),
    )
}

fn write_crate(out: &Path, source: &Path, module: &str, lto: bool) -> Result<()> {
    let manifest = format!(
        "# @generated by `rulestone compile`.\n[package]\nname = \"{BINARY}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n[dependencies]\n# The generated module (src/games.rs) builds on the runtime alone; src/main.rs is the\n# rulestone command line around it.\nrulestone-runtime = {{ path = {:?} }}\nrulestone = {{ path = {:?} }}\n\n{}\n# Not part of any enclosing workspace.\n[workspace]\n",
        source.join("crates").join("runtime").display().to_string(),
        source.display().to_string(),
        profile(lto)
    );
    let main = "//! @generated by `rulestone compile`: the rulestone CLI with compiled move generation.\n\n\
                mod games;\n\n\
                fn main() -> std::process::ExitCode {\n    \
                rulestone::cli::main_with(rulestone::runtime::Compiled::new(&games::TURNS))\n}\n";
    let src = out.join("src");
    std::fs::create_dir_all(&src).map_err(|e| CliError::io("create", &src, &e))?;
    for (path, text) in [
        (out.join("Cargo.toml"), manifest.as_str()),
        (src.join("main.rs"), main),
        (src.join("games.rs"), module),
    ] {
        std::fs::write(&path, text).map_err(|e| CliError::io("write", &path, &e))?;
    }
    // The versions rulestone itself was built with: no crate is resolved afresh, so the build
    // needs no network when they are in cargo's cache.
    let lock = source.join("Cargo.lock");
    let copy = out.join("Cargo.lock");
    if lock.is_file() {
        std::fs::copy(&lock, &copy).map_err(|e| CliError::io("write", &copy, &e))?;
    }
    Ok(())
}
