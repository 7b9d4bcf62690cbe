//! Option values: the declared defaults, overridden by `--set NAME=VALUE`.

use super::consteval::{Const, ConstEnv};
use rulestone_syntax::ast::{
    decimal_text, number_text, parse_hundredths, File, ItemKind, OptionDecl, OptionType,
    OptionValue,
};
use rulestone_syntax::Span;

/// A bad `--set`: names the option and what it accepts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum OptionError {
    #[error("unknown option `{name}`")]
    #[diagnostic(code(E0303))]
    Unknown {
        name: String,
        #[help]
        help: String,
    },
    #[error("{kind} `{name}` takes {accepted}, not `{value}`")]
    #[diagnostic(
        code(E0304),
        help("pick a value the declaration allows, e.g. `--set {name}={example}`")
    )]
    BadValue {
        /// `option`, or a table game's `parameter`.
        kind: &'static str,
        name: String,
        value: String,
        accepted: String,
        example: String,
        #[label("declared here")]
        declared: Span,
    },
    #[error("unknown preset `{name}`")]
    #[diagnostic(code(E0303))]
    UnknownPreset {
        name: String,
        #[help]
        help: String,
    },
    #[error("`--set` expects NAME=VALUE, not `{0}`")]
    #[diagnostic(help("write the option's name, `=` and the value, e.g. `--set size=5`"))]
    Malformed(String),
}

/// The help of an unknown option: the closest declared name, or the list of names.
pub(crate) fn unknown_help(name: &str, known: &[String]) -> String {
    closest_or_list(name, known, "options", "this game declares no options")
}

/// The help of an unknown name among `known` (the game's `kinds`, e.g. `options`): the closest,
/// or the list; `none` when there is nothing to list.
fn closest_or_list(name: &str, known: &[String], kinds: &str, none: &str) -> String {
    if known.is_empty() {
        return none.to_string();
    }
    let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    match super::suggest::closest(name, known.iter().map(String::as_str)) {
        Some(best) => format!(
            "did you mean `{best}`? (this game's {kinds}: {})",
            list.join(", ")
        ),
        None => format!("this game's {kinds}: {}", list.join(", ")),
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
        OptionType::Range {
            lo,
            hi,
            decimal: false,
            ..
        } => format!("an integer from {lo} to {hi}"),
        OptionType::Range { lo, hi, .. } => format!(
            "a decimal number from {} to {} (at most two decimal places)",
            decimal_text(*lo),
            decimal_text(*hi)
        ),
    }
}

/// Parses `value` as a value of the option.
///
/// # Errors
/// When the value is outside the option's type.
pub fn parse_value(decl: &OptionDecl, value: &str) -> Result<Const, OptionError> {
    let bad = || OptionError::BadValue {
        kind: "option",
        name: decl.name.name.clone(),
        value: value.to_string(),
        accepted: accepted(decl),
        example: default_text(decl),
        declared: decl.name.span.merge(decl.default.span()),
    };
    match &decl.ty {
        OptionType::Enum(words) => words
            .iter()
            .find(|w| w.name == value)
            .map(|w| Const::Word(w.name.clone()))
            .ok_or_else(bad),
        OptionType::Range {
            lo, hi, decimal, ..
        } => {
            let v = if *decimal {
                parse_hundredths(value.trim())
            } else {
                value.trim().parse::<i64>().ok()
            };
            match v {
                Some(v) if (*lo..=*hi).contains(&v) && *decimal => Ok(Const::Decimal(v)),
                Some(v) if (*lo..=*hi).contains(&v) => Ok(Const::Int(v)),
                _ => Err(bad()),
            }
        }
    }
}

/// The declared default as written.
#[must_use]
pub fn default_text(decl: &OptionDecl) -> String {
    match &decl.default {
        OptionValue::Int(v, _) => number_text(*v, decl.is_decimal()),
        OptionValue::Word(w) => w.name.clone(),
    }
}

/// The declared default, if it fits the option's type.
#[must_use]
pub fn default_value(decl: &OptionDecl) -> Option<Const> {
    parse_value(decl, &default_text(decl)).ok()
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
    let sets = &with_presets(file, sets)?;
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
    let by_name = by_name(file);
    for (name, value) in sets {
        let decl = by_name.get(name.as_str()).copied().ok_or_else(|| {
            let known: Vec<String> = declared(file).map(|d| d.name.name.clone()).collect();
            OptionError::Unknown {
                name: name.clone(),
                help: unknown_help(name, &known),
            }
        })?;
        env.set(name, parse_value(decl, value)?);
    }
    Ok(env)
}

/// The declared options by name (the first of a name declared twice), so that reading N
/// values costs N lookups however many options the game declares.
pub(crate) fn by_name(file: &File) -> std::collections::HashMap<&str, &OptionDecl> {
    let mut map = std::collections::HashMap::new();
    for decl in declared(file) {
        map.entry(decl.name.name.as_str()).or_insert(decl);
    }
    map
}

/// The name `--set` gives a preset by: `--set preset=NAME` (a reserved word, so no option has it).
pub const PRESET: &str = "preset";

/// `sets` with each `preset=NAME` replaced by the preset's values, placed first so that the
/// other pairs override them whatever their order.
///
/// # Errors
/// A preset the file does not declare.
pub fn with_presets(
    file: &File,
    sets: &[(String, String)],
) -> Result<Vec<(String, String)>, OptionError> {
    let declared = super::presets::presets(file);
    let mut expanded = Vec::with_capacity(sets.len());
    for (_, wanted) in sets.iter().filter(|(n, _)| n == PRESET) {
        let Some((_, values)) = declared.iter().find(|(name, _)| name.name == *wanted) else {
            let known: Vec<String> = declared.iter().map(|(n, _)| n.name.clone()).collect();
            return Err(OptionError::UnknownPreset {
                name: wanted.clone(),
                help: unknown_preset_help(wanted, &known),
            });
        };
        expanded.extend(values.iter().cloned());
    }
    expanded.extend(sets.iter().filter(|(n, _)| n != PRESET).cloned());
    Ok(expanded)
}

fn unknown_preset_help(name: &str, known: &[String]) -> String {
    let none = "this game declares no presets (`preset NAME: OPTION = VALUE, ...`)";
    closest_or_list(name, known, "presets", none)
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
/// (one empty combination when there are none), then each preset's values (the other options
/// at their defaults). Range options keep their defaults: they size
/// boards and counts rather than choosing rules. Past [`MAX_COMBINATIONS`] only the empty
/// combination is returned: such a game fails its check (E1011), which building it reports.
#[must_use]
pub fn variants(file: &File) -> Vec<Vec<(String, String)>> {
    let mut combos = vec![Vec::new()];
    for decl in declared(file) {
        if let OptionType::Enum(words) = &decl.ty {
            if combos.len().saturating_mul(words.len()) > MAX_COMBINATIONS {
                return vec![Vec::new()];
            }
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
    for (_, sets) in super::presets::presets(file).into_iter().take(MAX_PRESETS) {
        combos.push(sets);
    }
    combos
}

/// The most presets a game may declare (E1011): `compile` builds a program for each.
pub const MAX_PRESETS: usize = 64;

impl super::Checked {
    /// The option values for `sets` (`NAME=VALUE` pairs) over the declared defaults, validated
    /// against the checked game's declarations.
    ///
    /// # Errors
    /// An unknown option name or a value outside the option's type, as a coded diagnostic.
    pub fn configure(&self, sets: &[(String, String)]) -> Result<ConstEnv, OptionError> {
        resolve(&self.file, sets)
    }
}

/// The most option combinations `check` lowers when it tries the options' extreme values.
pub const MAX_EXTREME_COMBINATIONS: usize = 256;

/// The most combinations of enumerated option words a game may have (E1011): `compile` builds a
/// program for each, and `check` lowers the game for each word.
pub const MAX_COMBINATIONS: usize = 256;

/// How many different words an enumerated option lists (a repeated word is E0302).
#[must_use]
pub fn distinct_words(words: &[rulestone_syntax::Ident]) -> usize {
    words
        .iter()
        .map(|w| w.name.as_str())
        .collect::<std::collections::HashSet<_>>()
        .len()
}

/// The option settings `check` tries beyond the defaults: every word of an enum option and
/// both ends of a range, first one option at a time, then every combination of them (when
/// there are at most [`MAX_EXTREME_COMBINATIONS`]). Settings equal to a default are left out,
/// so a file without options gets no combination at all. There are never more than
/// [`MAX_EXTREME_COMBINATIONS`] settings: past that many single-option settings (hundreds of
/// range options), the first ones in declaration order are tried. Only options `used` says
/// the rules read are varied: one nothing reads cannot change what is built, and leaving it
/// out keeps thousands of unused options to one build rather than one per option.
#[must_use]
pub fn extremes(file: &File, used: &dyn Fn(&str) -> bool) -> Vec<Vec<(String, String)>> {
    let choices: Vec<(String, Vec<String>)> = declared(file)
        .filter(|decl| used(&decl.name.name))
        .filter_map(|decl| {
            let default = default_text(decl);
            let mut values: Vec<String> = match &decl.ty {
                OptionType::Enum(words) => words.iter().map(|w| w.name.clone()).collect(),
                OptionType::Range {
                    lo, hi, decimal, ..
                } => vec![number_text(*lo, *decimal), number_text(*hi, *decimal)],
            };
            values.retain(|v| *v != default);
            values.dedup();
            (!values.is_empty()).then(|| (decl.name.name.clone(), values))
        })
        .collect();
    let mut combos: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for (name, values) in &choices {
        let mut next = Vec::new();
        for combo in &combos {
            next.push(combo.clone());
            for v in values {
                let mut c = combo.clone();
                c.push((name.clone(), v.clone()));
                next.push(c);
            }
        }
        combos = next;
        if combos.len() > MAX_EXTREME_COMBINATIONS {
            combos = choices
                .iter()
                .flat_map(|(n, vs)| vs.iter().map(move |v| vec![(n.clone(), v.clone())]))
                .take(MAX_EXTREME_COMBINATIONS)
                .collect();
            break;
        }
    }
    combos.retain(|c| !c.is_empty());
    combos.sort_by_key(Vec::len);
    combos
}

/// A problem that shows only for some option values: the inner diagnostic (its code, message,
/// labels and help), with the values named in the message and each option's declaration
/// labelled.
pub struct UnderOptions {
    pub inner: rulestone_diag::Diag,
    /// `width=30, height=20`.
    pub settings: String,
    /// Each option set away from its default: its declaration and the value.
    pub declared: Vec<(Span, String)>,
}

impl UnderOptions {
    /// Wraps `inner` for the settings `sets` of `file`'s options.
    #[must_use]
    pub fn new(
        file: &File,
        sets: &[(String, String)],
        inner: rulestone_diag::Diag,
    ) -> UnderOptions {
        let settings = sets
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let declared = sets
            .iter()
            .filter_map(|(n, v)| {
                let decl = declared(file).find(|d| d.name.name == *n)?;
                let at = match &decl.ty {
                    OptionType::Range { span, .. } => decl.name.span.merge(*span),
                    OptionType::Enum(_) => decl.name.span,
                };
                Some((at, format!("allows `{n}={v}`")))
            })
            .collect();
        UnderOptions {
            inner,
            settings,
            declared,
        }
    }
}

impl std::fmt::Debug for UnderOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnderOptions")
            .field("inner", &self.inner)
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Display for UnderOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}, with `{}`", self.inner, self.settings)
    }
}

impl std::error::Error for UnderOptions {}

impl miette::Diagnostic for UnderOptions {
    fn code<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.inner.code()
    }

    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }

    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.inner.help()
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let mut labels: Vec<miette::LabeledSpan> = self
            .inner
            .labels()
            .map(Iterator::collect)
            .unwrap_or_default();
        if !labels.iter().any(miette::LabeledSpan::primary) {
            if let Some(first) = labels.first_mut() {
                *first = miette::LabeledSpan::new_primary_with_span(
                    first.label().map(str::to_string),
                    *first.inner(),
                );
            }
        }
        for (span, text) in &self.declared {
            labels.push(miette::LabeledSpan::new_with_span(
                Some(text.clone()),
                *span,
            ));
        }
        Some(Box::new(labels.into_iter()))
    }
}

#[cfg(test)]
mod tests {
    use super::{extremes, variants, MAX_EXTREME_COMBINATIONS};

    /// A file of option declarations only (all these functions read).
    fn file(options: &[String]) -> rulestone_syntax::ast::File {
        let source = format!("game \"T\"\n{}\n", options.join("\n"));
        match rulestone_syntax::parse(&source) {
            Ok(file) => file,
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn combinations_stay_bounded() {
        // Thirty options of three words: 3^30 variants, never listed.
        let words: Vec<String> = (0..30)
            .map(|i| format!("option o{i}: a{i} | b{i} | c{i} = a{i}"))
            .collect();
        let f = file(&words);
        assert_eq!(variants(&f), vec![Vec::new()]);
        assert!(extremes(&f, &|_| true).len() <= MAX_EXTREME_COMBINATIONS);
        // Five of them: 243 variants, all listed.
        assert_eq!(variants(&file(&words[..5])).len(), 243);
        // Three hundred range options: 600 single settings, the first ones tried.
        let ranges: Vec<String> = (0..300).map(|i| format!("option r{i}: 1..9 = 5")).collect();
        assert_eq!(
            extremes(&file(&ranges), &|_| true).len(),
            MAX_EXTREME_COMBINATIONS
        );
        // The same options, none read by the rules: nothing to vary.
        assert!(extremes(&file(&ranges), &|_| false).is_empty());
    }
}
