//! The README and the rule pages under `docs/rules/` as a newcomer reads them: every
//! `rulestone ...` command they show is one the current command line accepts, the game files
//! they name exist, every table is one block, links stay inside the repository, and the
//! README's commands run as written.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::error::ErrorKind;
use clap::Parser;
use rulestone::cli::Cli;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The README and every page under `docs/rules/`, with their paths.
fn pages() -> Vec<(String, String)> {
    let mut paths = vec![root().join("README.md")];
    if let Ok(dir) = fs::read_dir(root().join("docs/rules")) {
        let mut rules: Vec<PathBuf> = dir
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        rules.sort();
        paths.extend(rules);
    }
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).expect("read page");
            let name = p.strip_prefix(root()).unwrap_or(&p).display().to_string();
            (name, text)
        })
        .collect()
}

/// The ways a page runs the command line, each followed by its arguments.
const PREFIXES: [&str; 4] = [
    "rulestone ",
    "cargo run --release -- ",
    "target/release/rulestone ",
    "target/rulestone-compiled/target/release/rulestone-compiled ",
];

/// Splits a shell command line into words: whitespace outside quotes separates them.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for ch in line.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => word.push(ch),
            None if ch == '"' || ch == '\'' => {
                quote = Some(ch);
                started = true;
            }
            None if ch.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            None => {
                word.push(ch);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// The command lines of a page: the lines of its `sh` blocks (continuations joined, comments
/// and redirections dropped) and its inline code spans, when they run `rulestone`.
fn commands(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_sh = false;
    let mut in_other = false;
    let mut pending = String::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(lang) = trimmed.strip_prefix("```") {
            if in_sh || in_other {
                in_sh = false;
                in_other = false;
            } else if lang == "sh" {
                in_sh = true;
            } else {
                in_other = true;
            }
            continue;
        }
        if in_other {
            continue;
        }
        if in_sh {
            if let Some(head) = trimmed.strip_suffix('\\') {
                pending.push_str(head);
                pending.push(' ');
                continue;
            }
            pending.push_str(trimmed);
            let full = std::mem::take(&mut pending);
            let code = full.split(" #").next().unwrap_or("").trim();
            let code = code.split(" > ").next().unwrap_or("").trim();
            if !code.starts_with('#') && !code.is_empty() {
                found.push(code.to_string());
            }
            continue;
        }
        // An inline span runs a command when it gives it a file or a flag (`rulestone dump ir`
        // names the command; `rulestone COMMAND --help` is a pattern).
        for (i, span) in line.split('`').enumerate() {
            let w = words(span);
            let pattern = w
                .iter()
                .any(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase()));
            let arguments = w
                .iter()
                .skip(2)
                .any(|a| a.contains('.') || a.starts_with("--"));
            if i % 2 == 1 && arguments && !pattern {
                found.push(span.to_string());
            }
        }
    }
    found
        .into_iter()
        .filter(|c| PREFIXES.iter().any(|p| c.starts_with(p)))
        // Synopses with placeholders (`FILE [--set ...]`) are not commands to run.
        .filter(|c| !c.contains('[') && !c.contains("FILE") && !c.contains("..."))
        .collect()
}

#[test]
fn every_command_shown_is_accepted() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for (page, text) in pages() {
        for line in commands(&text) {
            let prefix = PREFIXES
                .iter()
                .find(|p| line.starts_with(*p))
                .expect("filtered by prefix");
            let mut argv = vec!["rulestone".to_string()];
            argv.extend(words(&line[prefix.len()..]));
            checked += 1;
            match Cli::try_parse_from(&argv) {
                Ok(_) => {}
                Err(e)
                    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {}
                Err(e) => problems.push(format!("{page}: `{line}`: {}", e.kind())),
            }
            for word in &argv {
                let named = Path::new(word);
                let stem = named.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                if word.starts_with("games/")
                    && word.ends_with(".game")
                    && !word.contains('*')
                    && stem.chars().any(|c| c.is_ascii_lowercase())
                    && !root().join(named).exists()
                {
                    problems.push(format!("{page}: `{line}` names a missing file `{word}`"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 10, "only {checked} commands found");
}

#[test]
fn tables_are_whole_and_links_stay_inside() {
    let inside = root().canonicalize().expect("the repository");
    let mut problems = Vec::new();
    for (page, text) in pages() {
        let lines: Vec<&str> = text.lines().collect();
        let mut in_code = false;
        for (i, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with("```") {
                in_code = !in_code;
            }
            if in_code {
                continue;
            }
            let row = line.starts_with('|');
            let after_row = i > 0 && lines[i - 1].starts_with('|');
            let is_separator = |l: &str| {
                l.starts_with('|') && l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' '))
            };
            // A table's first row is its header, followed by the separator row.
            if row && !after_row && !lines.get(i + 1).is_some_and(|l| is_separator(l)) {
                problems.push(format!(
                    "{page}:{}: a table row outside a table (a blank line splits a table?)",
                    i + 1
                ));
            }
            let lower = line.to_lowercase();
            if let Some(at) = lower.find("issue ") {
                if lower[at + 6..].starts_with(|c: char| c.is_ascii_digit()) {
                    problems.push(format!("{page}:{}: an internal issue number", i + 1));
                }
            }
            if line.contains("shared/rules") {
                problems.push(format!("{page}:{}: a path outside the repository", i + 1));
            }
        }
        // Links to files of the repository point at files that exist.
        let base = root().join(Path::new(&page).parent().unwrap_or(Path::new("")));
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or("");
            let target = target.split('#').next().unwrap_or("");
            if target.is_empty() || target.contains("://") {
                continue;
            }
            match base.join(target).canonicalize() {
                Ok(file) if file.starts_with(&inside) => {}
                Ok(_) => problems.push(format!("{page}: a link outside the repository `{target}`")),
                Err(_) => problems.push(format!("{page}: a link to a missing file `{target}`")),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The examples of `rulestone --help` and of every command's `--help` run commands the command
/// line accepts too (their text after the command, a comment, is left out).
#[test]
fn every_help_example_is_accepted() {
    use clap::CommandFactory;
    let cli = Cli::command();
    let mut texts: Vec<String> = cli
        .get_after_help()
        .map(ToString::to_string)
        .into_iter()
        .collect();
    for sub in cli.get_subcommands() {
        if let Some(help) = sub.get_after_help() {
            texts.push(help.to_string());
        }
    }
    let mut checked = 0;
    let mut problems = Vec::new();
    for text in &texts {
        for line in text.lines().map(str::trim) {
            let Some(rest) = PREFIXES.iter().find_map(|p| line.strip_prefix(p)) else {
                continue;
            };
            // The example ends where its comment starts: two spaces or more.
            let command = rest.split("  ").next().unwrap_or("");
            let command = command.split(" > ").next().unwrap_or("");
            let command = command.trim_end_matches('\\');
            let mut argv = vec!["rulestone".to_string()];
            argv.extend(words(command));
            checked += 1;
            if let Err(e) = Cli::try_parse_from(&argv) {
                if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                    problems.push(format!("`{line}`: {}", e.kind()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 30, "only {checked} examples found");
}

/// The quick start's first command installs the binary; the test stands in for that step by
/// putting the binary under test first on the `PATH`.
const INSTALL: &str = "cargo install --path . && ";

/// How long a shown command may run before the test stops it (a match of many games, a long
/// analysis): one that is still going then has met no error so far, which is what is checked.
const RUN_LIMIT: Duration = Duration::from_secs(8);

/// What running one command gave.
enum Ran {
    Finished(std::process::Output),
    Stopped,
}

/// Runs `line` with `sh` in `dir`, with `quit` on its standard input (for `play`), stopping its
/// whole process group after [`RUN_LIMIT`].
fn run_verbatim(line: &str, dir: &Path, path: &str) -> Ran {
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir)
        .env("PATH", path)
        .env("COLUMNS", "100")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .expect("start sh");
    if let Some(mut input) = child.stdin.take() {
        let _ = std::io::Write::write_all(&mut input, b"quit\n");
    }
    let started = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return Ran::Finished(child.wait_with_output().expect("collect output"));
        }
        if started.elapsed() > RUN_LIMIT {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            return Ran::Stopped;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A scratch directory laid out like the repository for the commands: the games and test games
/// linked in, and `target/release/rulestone` pointing at the binary under test, so files the
/// commands write (a report, a record) land in the scratch directory.
fn workspace() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-commands");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("target/release")).expect("scratch dir");
    for linked in ["games", "tests", "docs", "grammar"] {
        std::os::unix::fs::symlink(root().join(linked), dir.join(linked)).expect("link");
    }
    let binary = env!("CARGO_BIN_EXE_rulestone");
    std::os::unix::fs::symlink(binary, dir.join("target/release/rulestone")).expect("link");
    dir
}

/// Whether a command names a file by a placeholder (`games/G.game`) rather than a real one.
fn names_a_placeholder(line: &str) -> bool {
    words(line).iter().any(|w| {
        let stem = Path::new(w)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("");
        w.ends_with(".game") && !stem.chars().any(|c| c.is_ascii_lowercase())
    })
}

/// The README's commands, run as written: the quick start after its install step, and every
/// `rulestone ...` example in a code block or inline. Each must end with success, or still be
/// running without error when stopped after [`RUN_LIMIT`]. (`compile`, which builds a crate for
/// minutes, and the compiled binary's commands are left to their own tests.)
#[test]
fn readme_commands_run_verbatim() {
    let readme = fs::read_to_string(root().join("README.md")).expect("README");
    let dir = workspace();
    let binary_dir = Path::new(env!("CARGO_BIN_EXE_rulestone"))
        .parent()
        .expect("binary directory");
    let path = format!(
        "{}:{}",
        binary_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let quick_start = readme
        .lines()
        .find(|l| l.starts_with(INSTALL))
        .expect("the quick start installs with `cargo install --path .`");
    let mut lines = vec![quick_start[INSTALL.len()..].to_string()];
    lines.extend(commands(&readme).into_iter().filter(|c| {
        !c.starts_with(INSTALL)
            && !c.contains(" compile ")
            && !c.contains("rulestone-compiled")
            && !c.starts_with("cargo ")
            && !names_a_placeholder(c)
    }));
    lines.dedup();
    let mut problems = Vec::new();
    let (mut finished, mut stopped) = (0, 0);
    for line in &lines {
        eprintln!("running `{line}`");
        match run_verbatim(line, &dir, &path) {
            Ran::Stopped => stopped += 1,
            Ran::Finished(out) if out.status.success() => finished += 1,
            Ran::Finished(out) => problems.push(format!(
                "`{line}` exited with {:?}:\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        finished >= 6,
        "only {finished} commands finished ({stopped} stopped)"
    );
}

/// The language reference lists every built-in: each built-in function in the table of §4.4
/// (as `` `name(`` in a row) and each built-in value in the table of §4.3.
#[test]
fn reference_lists_every_builtin() {
    let reference = fs::read_to_string(root().join("grammar/README.md")).unwrap_or_default();
    let section = |from: &str, to: &str| -> String {
        let start = reference.find(from).unwrap_or(0);
        let end = reference[start..]
            .find(to)
            .map_or(reference.len(), |e| start + e);
        reference[start..end].to_string()
    };
    let functions = section("### 4.4 Built-in functions", "\n### ");
    let values = section("### 4.3 Built-in values", "\n### ");
    let mut missing = Vec::new();
    for (name, _) in rulestone::check::builtin_functions() {
        if !functions.contains(&format!("`{name}(")) {
            missing.push(format!("function {name} (§4.4)"));
        }
    }
    for name in rulestone::check::builtin_values() {
        if !values.contains(&format!("| `{name}` |")) {
            missing.push(format!("value {name} (§4.3)"));
        }
    }
    assert!(
        missing.is_empty(),
        "built-ins missing from the reference: {missing:?}"
    );
}
