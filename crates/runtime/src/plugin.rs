//! What a compiled game loaded as a plugin and the program that loads it agree on.
//!
//! `rulestone compile` builds a game's generated move generation into a shared library (a
//! plugin) that depends on this crate alone. The library exports two functions with C linkage:
//! [`ABI_SYMBOL`], which returns [`ABI_KEY`] as the plugin's copy of this crate was built with
//! (a NUL-terminated string), and [`COMPILED_SYMBOL`], which returns a pointer to its
//! [`Compiled`](crate::Compiled) table. The table's generators take the runtime's own types
//! (`Engine`, `Program`, `Move`) by reference, and Rust lays those out the same way only for
//! the same compiler, target and source: a loader calls the second function only when the
//! first returns the loader's own [`ABI_KEY`] (the `rulestone-plugin` crate does that).

/// The compiler, target and source this crate was built with (see its build script). Two
/// builds with one key lay out every type of the runtime the same way.
pub const ABI_KEY: &str = env!("RULESTONE_RUNTIME_ABI");

/// [`ABI_KEY`] followed by a NUL byte, as the plugin's [`ABI_SYMBOL`] returns it.
pub const ABI_KEY_NUL: &str = concat!(env!("RULESTONE_RUNTIME_ABI"), "\0");

/// The exported function that returns the plugin's ABI key: `extern "C" fn() -> *const c_char`.
pub const ABI_SYMBOL: &str = "rulestone_plugin_abi";

/// The exported function that returns the plugin's compiled generators:
/// `extern "C" fn() -> *const Compiled`, valid while the library stays loaded.
pub const COMPILED_SYMBOL: &str = "rulestone_plugin_compiled";
