//! Rulestone: a rules language, checker, compiler and generic runtime for two-player board games.
//!
//! Data flows one way through the stages; each stage has its own types:
//!
//! ```text
//!  .game text ──parse──▶ syntax::ast::File ──check──▶ check::Checked ──lower──▶ ir::Program
//!   (syntax)              (spans, names)     (diag)    (resolved, typed)  (ir)   (dense tables,
//!                                                                                 bytecode)
//!                                                            runtime::Engine ◀──────┘
//!                                          (state, legal moves, apply/undo, perft, playouts)
//! ```
//!
//! Optionally, `runtime::codegen` translates a `Program`'s move generation into Rust that
//! `rulestone compile` builds into a faster binary; an engine uses it only when its caller asks
//! for that backend, and only for the exact program it was generated from
//! (`runtime::Compiled::backend_for`).
//!
//! The pipeline runs here and nowhere else: [`compile`] (source to program, or every problem
//! as diagnostics) and [`diagnose`] (what `rulestone check` reports). `cli` is the only module
//! that touches files or the terminal; the stages are pure. `docs/architecture.md` states each
//! stage's invariants.

pub mod agents;
pub mod check;
pub mod cli;
pub mod diag;
pub mod ir;
pub mod lsp;
pub mod runtime;
pub mod syntax;

pub use check::check;
pub use ir::lower;
pub use syntax::parse;

/// Why a game source could not be turned into a program: every problem, as coded diagnostics
/// with spans into the source (at least one is an error).
#[derive(Debug)]
pub struct CompileError {
    pub diags: Vec<diag::Diag>,
    /// The option settings were refused (an unknown option or a value outside its type): a
    /// problem of the command line rather than of the game.
    pub bad_options: bool,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let problems: Vec<String> = self
            .diags
            .iter()
            .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
            .map(|d| match d.code() {
                Some(code) => format!("[{code}] {d}"),
                None => d.to_string(),
            })
            .collect();
        write!(f, "the game has errors: {}", problems.join("; "))
    }
}

impl std::error::Error for CompileError {}

/// The whole pipeline, the one place it runs: source text and `NAME=VALUE` option settings to
/// a runnable program (parse, check, configure the options, lower).
///
/// # Errors
/// Every problem found, as diagnostics: syntax and checker errors, a bad option, or a limit the
/// game breaks for these option values (each with its code, the value found and the limit).
pub fn compile(source: &str, options: &[(String, String)]) -> Result<ir::Program, CompileError> {
    let file = parse(source).map_err(|errors| CompileError {
        diags: diag::boxed(errors),
        bad_options: false,
    })?;
    compile_parsed(&file, options)
}

/// [`compile`] for a file already parsed.
///
/// # Errors
/// As [`compile`], less syntax errors.
pub fn compile_parsed(
    file: &syntax::ast::File,
    options: &[(String, String)],
) -> Result<ir::Program, CompileError> {
    let (checked, diags) = check(file);
    let Some(checked) = checked else {
        return Err(CompileError {
            diags,
            bad_options: false,
        });
    };
    let env = checked.configure(options).map_err(|e| CompileError {
        diags: vec![Box::new(e)],
        bad_options: true,
    })?;
    lower_under(&checked, options, &env).map_err(|d| CompileError {
        diags: vec![d],
        bad_options: false,
    })
}

/// The pipeline for a table game: its checked rules and its program for `NAME=VALUE` settings
/// of its parameters and options (parse aside, as [`compile_parsed`]).
///
/// # Errors
/// As [`compile_parsed`]: checker errors, a bad parameter or option value, or a parameter value
/// that makes a size, speed, count or clock 0 or negative.
pub fn compile_table_parsed(
    file: &syntax::ast::File,
    sets: &[(String, String)],
) -> Result<(check::table::TableGame, ir::table::TableProgram), CompileError> {
    let (checked, diags) = check(file);
    let Some((checked, game)) = checked
        .filter(|_| !diag::has_errors(&diags))
        .and_then(|c| c.table.clone().map(|t| (c, t)))
    else {
        let diags = diags
            .into_iter()
            .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
            .collect();
        return Err(CompileError {
            diags,
            bad_options: false,
        });
    };
    let program = lower_table(&checked, &game, sets)?;
    Ok((game, program))
}

/// Configures a checked table game's parameters and options and lowers it.
fn lower_table(
    checked: &check::Checked,
    game: &check::table::TableGame,
    sets: &[(String, String)],
) -> Result<ir::table::TableProgram, CompileError> {
    let bad_options = |diags| CompileError {
        diags,
        bad_options: true,
    };
    let (params, options) = game.configure(sets).map_err(bad_options)?;
    let env = checked
        .configure(&options)
        .map_err(|e| bad_options(vec![Box::new(e)]))?;
    ir::table::lower(&checked.game_name(), game, &params, &env).map_err(|e| CompileError {
        diags: vec![Box::new(ir::LowerError::internal(e))],
        bad_options: false,
    })
}

/// What `check` reports on a file called `name` (a path, as shown): [`diagnose`], unless it is
/// [`not_a_game_file`].
#[must_use]
pub fn diagnose_file(name: &str, source: &str, options: &[(String, String)]) -> Vec<diag::Diag> {
    match not_a_game_file(name, source) {
        Some(d) => vec![d],
        None => diagnose(source, options),
    }
}

/// E0006 for a file whose name does not end in `.game` and whose text does not begin as a game
/// file does (with a declaration keyword, comments aside; see [`syntax::looks_like_game`]):
/// such a file, e.g. a perft table caught by `games/*`, is said to be no game file rather than
/// given the syntax errors of reading it as one. A `.game` file is always read as one.
#[must_use]
pub fn not_a_game_file(name: &str, source: &str) -> Option<diag::Diag> {
    if name.ends_with(".game") {
        return None;
    }
    let first = syntax::looks_like_game(source).err()?;
    Some(Box::new(syntax::SyntaxError::NotAGameFile {
        name: name.to_string(),
        span: first.into(),
    }))
}

/// Everything `check` reports on a source text for the given option settings: syntax and
/// checker diagnostics, then, for a board game that checks clean, what the lowering finds for
/// these settings (a bad option, a limit broken). Without settings it also tries each option's
/// extreme values ([`check::options::extremes`]) and reports each limit they break once.
#[must_use]
pub fn diagnose(source: &str, options: &[(String, String)]) -> Vec<diag::Diag> {
    let file = match parse(source) {
        Ok(file) => file,
        Err(errors) => return diag::boxed(errors),
    };
    let (checked, mut diags) = check(&file);
    let Some(checked) = checked else {
        return diags;
    };
    if let Some(game) = &checked.table {
        if let Err(e) = lower_table(&checked, game, options) {
            diags.extend(e.diags);
        }
        return diags;
    }
    if let Err(d) = build(&checked, options) {
        diags.push(d);
        return diags;
    }
    if options.is_empty() {
        let mut seen = std::collections::HashSet::new();
        for sets in check::options::extremes(&checked.file) {
            if let Err(d) = build(&checked, &sets) {
                let at = d.labels().and_then(|mut l| l.next()).map(|l| l.offset());
                let key = (diag::code_of(d.as_ref()), at);
                if seen.insert(key) {
                    diags.push(d);
                }
            }
        }
    }
    diags
}

/// Configures the options and lowers.
fn build(checked: &check::Checked, sets: &[(String, String)]) -> Result<ir::Program, diag::Diag> {
    let env = checked
        .configure(sets)
        .map_err(|e| Box::new(e) as diag::Diag)?;
    lower_under(checked, sets, &env)
}

/// Lowers for configured options; a problem that only these settings show names them.
fn lower_under(
    checked: &check::Checked,
    sets: &[(String, String)],
    env: &check::consteval::ConstEnv,
) -> Result<ir::Program, diag::Diag> {
    lower(checked, env).map_err(|e| {
        let inner: diag::Diag = Box::new(e);
        if sets.is_empty() {
            inner
        } else {
            Box::new(check::options::UnderOptions::new(
                &checked.file,
                sets,
                inner,
            ))
        }
    })
}
