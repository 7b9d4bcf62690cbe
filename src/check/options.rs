//! Option values: the declared defaults, overridden by `--set NAME=VALUE`.

use super::consteval::{Const, ConstEnv};
use crate::syntax::ast::{File, ItemKind, OptionDecl, OptionType, OptionValue};

/// A bad `--set`: names the option and what it accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option `{name}`{}", known_list(.known))]
    Unknown { name: String, known: Vec<String> },
    #[error("option `{name}` takes {accepted}, not `{value}`")]
    BadValue {
        name: String,
        value: String,
        accepted: String,
    },
    #[error("`--set` expects NAME=VALUE, not `{0}`")]
    Malformed(String),
}

fn known_list(known: &[String]) -> String {
    if known.is_empty() {
        " (this game declares no options)".to_string()
    } else {
        format!(" (this game's options: {})", known.join(", "))
    }
}

/// What an option accepts, in words: `basic, standard or advanced`, `an integer from 2 to 6`.
#[must_use]
pub fn accepted(decl: &OptionDecl) -> String {
    match &decl.ty {
        OptionType::Enum(words) => {
            let w: Vec<String> = words.iter().map(|w| format!("`{}`", w.name)).collect();
            match w.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
                _ => w.join(""),
            }
        }
        OptionType::Range { lo, hi, .. } => format!("an integer from {lo} to {hi}"),
    }
}

/// Parses `value` as a value of the option.
///
/// # Errors
/// When the value is outside the option's type.
pub fn parse_value(decl: &OptionDecl, value: &str) -> Result<Const, OptionError> {
    let bad = || OptionError::BadValue {
        name: decl.name.name.clone(),
        value: value.to_string(),
        accepted: accepted(decl),
    };
    match &decl.ty {
        OptionType::Enum(words) => words
            .iter()
            .find(|w| w.name == value)
            .map(|w| Const::Word(w.name.clone()))
            .ok_or_else(bad),
        OptionType::Range { lo, hi, .. } => match value.trim().parse::<i64>() {
            Ok(v) if (*lo..=*hi).contains(&v) => Ok(Const::Int(v)),
            _ => Err(bad()),
        },
    }
}

/// The declared default, if it fits the option's type.
#[must_use]
pub fn default_value(decl: &OptionDecl) -> Option<Const> {
    let text = match &decl.default {
        OptionValue::Int(v, _) => v.to_string(),
        OptionValue::Word(w) => w.name.clone(),
    };
    parse_value(decl, &text).ok()
}

/// The options declared by a file.
pub fn declared(file: &File) -> impl Iterator<Item = &OptionDecl> {
    file.items.iter().filter_map(|i| match &i.kind {
        ItemKind::Option(o) => Some(o),
        _ => None,
    })
}

/// Builds the environment of option values (and enum words) from defaults and `--set` pairs.
///
/// # Errors
/// An unknown option name or a value outside the option's type.
pub fn resolve(file: &File, sets: &[(String, String)]) -> Result<ConstEnv, OptionError> {
    let mut env = ConstEnv::default();
    for decl in declared(file) {
        if let OptionType::Enum(words) = &decl.ty {
            for w in words {
                env.set(&w.name, Const::Word(w.name.clone()));
            }
        }
        if let Some(v) = default_value(decl) {
            env.set(&decl.name.name, v);
        }
    }
    for (name, value) in sets {
        let decl = declared(file)
            .find(|d| &d.name.name == name)
            .ok_or_else(|| OptionError::Unknown {
                name: name.clone(),
                known: declared(file).map(|d| d.name.name.clone()).collect(),
            })?;
        env.set(name, parse_value(decl, value)?);
    }
    Ok(env)
}

/// Splits `NAME=VALUE`.
///
/// # Errors
/// When there is no `=` or the name is empty.
pub fn split_set(arg: &str) -> Result<(String, String), OptionError> {
    match arg.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() => Ok((n.trim().to_string(), v.trim().to_string())),
        _ => Err(OptionError::Malformed(arg.to_string())),
    }
}

/// Every combination of the file's enum option values, as `--set` pairs in declaration order
/// (one empty combination when there are none). Range options keep their defaults: they size
/// boards and counts rather than choosing rules.
#[must_use]
pub fn variants(file: &File) -> Vec<Vec<(String, String)>> {
    let mut combos = vec![Vec::new()];
    for decl in declared(file) {
        if let OptionType::Enum(words) = &decl.ty {
            combos = combos
                .into_iter()
                .flat_map(|c| {
                    words.iter().map(move |w| {
                        let mut c = c.clone();
                        c.push((decl.name.name.clone(), w.name.clone()));
                        c
                    })
                })
                .collect();
        }
    }
    combos
}
