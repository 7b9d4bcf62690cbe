//! Loads a game compiled by `rulestone compile` (a shared library: a *plugin*) into a running
//! program, so that the command line, `rulestone serve` and the Python package all run it at
//! compiled speed without being rebuilt.
//!
//! A plugin and the program that loads it pass the runtime's own types to each other (the
//! generators take an `Engine` and a `Move` by reference), and Rust lays a type out the same way
//! only for one compiler, one target and one source. So before any of the plugin's Rust code
//! runs, [`load`] calls its C-linkage function that returns the ABI key its copy of the runtime
//! was built with ([`rulestone_runtime::plugin`]) and compares it with this program's own: a
//! plugin built by another compiler or from another version of rulestone is refused with both
//! keys named, and never called. A plugin's generators are used, as every compiled generator
//! is, only for the program whose fingerprint they carry ([`Compiled::backend_for`]): a changed
//! game file runs on the interpreter.
//!
//! This is the only crate of the workspace allowed `unsafe`, for the three things loading
//! needs: opening the library, looking up its two functions and calling them. A loaded library
//! is never unloaded: the table it returns points into it for the rest of the process.

use std::ffi::{c_char, CStr};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use libloading::{Library, Symbol};
use rulestone_runtime::plugin::{ABI_KEY, ABI_SYMBOL, COMPILED_SYMBOL};
use rulestone_runtime::Compiled;

/// Why a file could not be used as a compiled game.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    #[error("cannot load `{path}` as a compiled game: {reason}")]
    Load { path: String, reason: String },
    #[error("`{path}` is not a compiled game made by `rulestone compile`: it has no `{symbol}`")]
    NotAPlugin { path: String, symbol: &'static str },
    #[error(
        "`{path}` was compiled for another build of rulestone:\n  it was built with   {theirs}\n  \
         this program with {ours}"
    )]
    Mismatch {
        path: String,
        theirs: String,
        ours: &'static str,
    },
}

impl PluginError {
    /// What to do about it, for the note under the message.
    #[must_use]
    pub fn help(&self) -> &'static str {
        match self {
            PluginError::Load { .. } => "give the path of the library `rulestone compile` built",
            PluginError::NotAPlugin { .. } => {
                "compile the game with `rulestone compile FILE`, then pass the library it builds"
            }
            PluginError::Mismatch { .. } => {
                "compile the game again with this rulestone (`rulestone compile FILE`): a plugin \
                 must be built by the same Rust compiler from the same rulestone source"
            }
        }
    }
}

/// The plugins loaded so far, by canonical path: loading one again hands back its table.
static LOADED: Mutex<Vec<(PathBuf, Compiled)>> = Mutex::new(Vec::new());

/// Loads the compiled games of the plugin at `path` (once per process), after checking that it
/// was built for this runtime.
///
/// # Errors
/// The file cannot be opened as a shared library, does not export a plugin's functions, or
/// was built by another compiler or from another source of rulestone ([`PluginError`]).
pub fn load(path: &Path) -> Result<Compiled, PluginError> {
    Ok(load_once(path)?.0)
}

/// [`load`], also saying whether this call loaded the plugin (`true`) or it was loaded before
/// (`false`): the process's set of loaded plugins is kept here alone, so a caller that joins
/// each plugin's table into its own (Python's `load_compiled`) joins it only when new.
///
/// # Errors
/// As [`load`].
pub fn load_once(path: &Path) -> Result<(Compiled, bool), PluginError> {
    let shown = path.display().to_string();
    let full = std::fs::canonicalize(path).map_err(|e| PluginError::Load {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, compiled)) = loaded.iter().find(|(p, _)| *p == full) {
        return Ok((*compiled, false));
    }
    let compiled = open(&full, &shown)?;
    loaded.push((full, compiled));
    Ok((compiled, true))
}

/// Every plugin of `paths` joined to `base` (a program's own compiled generators). A program
/// in both runs on the plugin's code (the one asked for, which may have been built with
/// other settings); of two plugins, on the later one's.
///
/// # Errors
/// The first plugin that cannot be loaded, as [`load`].
pub fn load_all(base: Compiled, paths: &[PathBuf]) -> Result<Compiled, PluginError> {
    paths
        .iter()
        .try_fold(base, |all, path| Ok(load(path)?.and(all)))
}

/// Opens the library, checks its key and takes its table; the library stays loaded.
#[allow(unsafe_code)]
fn open(full: &Path, shown: &str) -> Result<Compiled, PluginError> {
    // SAFETY: opening a shared library runs its initialisers. The user names the file to load
    // (a plugin is code, as a program is); one built by `rulestone compile` has no
    // initialisers of its own.
    let library = unsafe { Library::new(full) }.map_err(|e| PluginError::Load {
        path: shown.to_string(),
        reason: e.to_string(),
    })?;
    same_abi(abi_key(&library, shown)?, shown)?;
    // SAFETY: the key matched, so the library was built by this compiler for this target
    // from this runtime's source: `COMPILED_SYMBOL` has the signature the generated code
    // gives it, and `Compiled` (and everything it points to) the layout this program uses.
    let table: Symbol<'_, unsafe extern "C" fn() -> *const Compiled> = unsafe {
        library.get(COMPILED_SYMBOL.as_bytes())
    }
    .map_err(|_| PluginError::NotAPlugin {
        path: shown.to_string(),
        symbol: COMPILED_SYMBOL,
    })?;
    // SAFETY: as above; the function returns the address of a static of the library.
    let pointer = unsafe { table() };
    // SAFETY: the pointer is to a static `Compiled` in the library, which is never unloaded
    // (`forget` below), so the reference and the `'static` table in it stay valid.
    let compiled = unsafe { pointer.as_ref() }
        .copied()
        .ok_or(PluginError::NotAPlugin {
            path: shown.to_string(),
            symbol: COMPILED_SYMBOL,
        })?;
    std::mem::forget(library);
    Ok(compiled)
}

/// The ABI key of the plugin at `path`, read without taking its table, for a program that
/// builds plugins to check one it built (`rulestone compile`): the library is opened, its
/// key function called and the library closed again.
///
/// # Errors
/// The file cannot be opened as a shared library or does not export a plugin's key.
#[allow(unsafe_code)]
pub fn abi_key_of(path: &Path) -> Result<String, PluginError> {
    let shown = path.display().to_string();
    // SAFETY: as in `open`: the caller names the library, and one built by `rulestone compile`
    // has no initialisers of its own. Nothing of it is kept once it is closed: the key is
    // copied out first.
    let library = unsafe { Library::new(path) }.map_err(|e| PluginError::Load {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    abi_key(&library, &shown)
}

/// Refuses a plugin whose runtime was built with another key than this program's.
fn same_abi(theirs: String, shown: &str) -> Result<(), PluginError> {
    if theirs == ABI_KEY {
        return Ok(());
    }
    Err(PluginError::Mismatch {
        path: shown.to_string(),
        theirs,
        ours: ABI_KEY,
    })
}

/// The ABI key the library's copy of the runtime was built with.
#[allow(unsafe_code)]
fn abi_key(library: &Library, shown: &str) -> Result<String, PluginError> {
    let missing = || PluginError::NotAPlugin {
        path: shown.to_string(),
        symbol: ABI_SYMBOL,
    };
    // SAFETY: a plugin's `ABI_SYMBOL` is `extern "C" fn() -> *const c_char` in every version
    // of rulestone, whatever else changed: it is the one thing read before the key is known.
    let function: Symbol<'_, unsafe extern "C" fn() -> *const c_char> =
        unsafe { library.get(ABI_SYMBOL.as_bytes()) }.map_err(|_| missing())?;
    // SAFETY: as above; the function returns the address of a NUL-terminated static string.
    let pointer = unsafe { function() };
    if pointer.is_null() {
        return Err(missing());
    }
    // SAFETY: non-null, and pointing to the library's NUL-terminated static key.
    let key = unsafe { CStr::from_ptr(pointer) };
    Ok(key.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shared library of the system that is no plugin: the C library exports no plugin key.
    fn libc() -> Option<&'static Path> {
        ["/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/libc.so.6"]
            .into_iter()
            .map(Path::new)
            .find(|p| p.exists())
    }

    #[test]
    fn a_missing_file_is_a_load_error() {
        let e = load(Path::new("/no/such/plugin.so")).err();
        assert!(matches!(e, Some(PluginError::Load { .. })), "{e:?}");
    }

    #[test]
    fn a_library_that_is_not_a_plugin_is_refused() {
        let Some(libc) = libc() else { return };
        let e = load(libc).err();
        assert!(matches!(e, Some(PluginError::NotAPlugin { .. })), "{e:?}");
    }

    #[test]
    fn a_plugin_of_another_build_is_refused_with_both_keys() {
        assert!(same_abi(ABI_KEY.to_string(), "p.so").is_ok());
        let other = ABI_KEY.replace("rustc", "rustc 0.0");
        let e = same_abi(other.clone(), "p.so").err().map(|e| e.to_string());
        let e = e.unwrap_or_default();
        assert!(e.contains(&other) && e.contains(ABI_KEY), "{e}");
    }

    #[test]
    fn the_key_names_the_compiler_the_target_and_the_source() {
        assert!(ABI_KEY.starts_with("rulestone-runtime "), "{ABI_KEY}");
        assert!(
            ABI_KEY.contains("(source ") && ABI_KEY.contains(", rustc "),
            "{ABI_KEY}"
        );
    }

    #[test]
    fn a_key_is_read_only_from_a_plugin() {
        let e = abi_key_of(Path::new("/no/such/plugin.so")).err();
        assert!(matches!(e, Some(PluginError::Load { .. })), "{e:?}");
        let Some(libc) = libc() else { return };
        let e = abi_key_of(libc).err();
        assert!(matches!(e, Some(PluginError::NotAPlugin { .. })), "{e:?}");
    }

    #[test]
    fn a_file_that_is_not_a_library_is_a_load_error() {
        let e = load(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/Cargo.toml"
        )))
        .err();
        assert!(matches!(e, Some(PluginError::Load { .. })), "{e:?}");
    }
}
