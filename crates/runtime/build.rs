//! Computes the runtime's ABI key (`RULESTONE_RUNTIME_ABI`): what a compiled game loaded as a
//! plugin must share with the program that loads it, because the two pass the runtime's own
//! types (engines, programs, moves) to each other by reference. Layouts of Rust types are
//! fixed only for one compiler, one target and one source, so the key names the compiler
//! (`rustc -vV`), the target and a hash of the source of the runtime and of the crates whose
//! types it shares (the IR and the base vocabulary), with the lock file that pins the versions
//! of their dependencies. A plugin whose key differs is refused before any of its code runs.

use std::hash::Hasher;
use std::path::{Path, PathBuf};

use rulestone_base::hash::Fnv;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let mut hash = Fnv::default();
    let sources = [
        manifest.join("src"),
        manifest.join("Cargo.toml"),
        manifest.join("../ir/src"),
        manifest.join("../ir/Cargo.toml"),
        manifest.join("../base/src"),
        manifest.join("../base/Cargo.toml"),
        manifest.join("../../Cargo.lock"),
    ];
    for source in &sources {
        println!("cargo:rerun-if-changed={}", source.display());
        hash_tree(&mut hash, source);
    }
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .unwrap_or_default();
    let release = version
        .lines()
        .find_map(|l| l.strip_prefix("release: "))
        .unwrap_or("unknown");
    let commit = version
        .lines()
        .find_map(|l| l.strip_prefix("commit-hash: "))
        .unwrap_or("unknown");
    let target = std::env::var("TARGET").unwrap_or_default();
    let crate_version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let short = commit.get(..9).unwrap_or(commit);
    println!(
        "cargo:rustc-env=RULESTONE_RUNTIME_ABI=rulestone-runtime {crate_version} (source {:016x}), rustc {release} ({short}), {target}",
        hash.finish()
    );
}

/// Adds a file, or every file under a directory in name order, with its relative path.
fn hash_tree(hash: &mut Fnv, path: &Path) {
    if path.is_file() {
        if let Ok(bytes) = std::fs::read(path) {
            hash.write(path.file_name().map_or(&[][..], |n| n.as_encoded_bytes()));
            hash.write(&bytes);
        }
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut children: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    children.sort();
    for child in children {
        hash_tree(hash, &child);
    }
}
