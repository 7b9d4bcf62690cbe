//! `preset NAME: OPTION = VALUE, ...`: named sets of option values. Each must name declared
//! options (E0303), each once (E0302), with values their declarations allow (E0304); preset
//! names are unique (E0102). `check` then tries each preset as it tries `--set`, and `compile`
//! (with the bundled games' build) makes a program for each.

use std::collections::HashMap;

use super::error::{OptionDeclError, ResolveError};
use super::options::{self, OptionError};
use super::Checker;
use rulestone_syntax::ast::{File, ItemKind, OptionDecl, PresetSet};
use rulestone_syntax::{Ident, Span};

/// The file's presets, each as its name and its `--set` pairs, in file order.
#[must_use]
pub fn presets(file: &File) -> Vec<(&Ident, Vec<(String, String)>)> {
    file.items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Preset { name, sets } => Some((name, pairs(sets))),
            _ => None,
        })
        .collect()
}

fn pairs(sets: &[PresetSet]) -> Vec<(String, String)> {
    sets.iter()
        .map(|s| (s.option.name.clone(), s.value.clone()))
        .collect()
}

impl Checker<'_> {
    /// Each preset's names and values, and the presets' names.
    pub(super) fn check_presets(&mut self) {
        let file = self.file;
        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut count = 0;
        let declared = options::by_name(file);
        for item in &file.items {
            let ItemKind::Preset { name, sets } = &item.kind else {
                continue;
            };
            count += 1;
            if count == options::MAX_PRESETS + 1 {
                let count = presets(file).len();
                self.report(OptionDeclError::TooManyPresets {
                    count,
                    limit: options::MAX_PRESETS,
                    span: name.span,
                });
            }
            if let Some(&first) = names.get(name.name.as_str()) {
                self.report(ResolveError::Duplicate {
                    name: name.name.clone(),
                    span: name.span,
                    first,
                });
            } else {
                names.insert(&name.name, name.span);
            }
            self.check_preset(name, sets, &declared);
        }
    }

    fn check_preset(
        &mut self,
        preset: &Ident,
        sets: &[PresetSet],
        declared: &HashMap<&str, &OptionDecl>,
    ) {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for set in sets {
            let option = &set.option;
            if let Some(&first) = seen.get(option.name.as_str()) {
                self.report(OptionDeclError::PresetSetsTwice {
                    preset: preset.name.clone(),
                    name: option.name.clone(),
                    span: option.span.merge(set.span),
                    first,
                });
                continue;
            }
            seen.insert(&option.name, option.span.merge(set.span));
            let Some(&decl) = declared.get(option.name.as_str()) else {
                let known: Vec<String> = self.options.iter().map(|o| o.name.name.clone()).collect();
                let help = options::unknown_help(&option.name, &known);
                self.report(OptionDeclError::PresetUnknownOption {
                    preset: preset.name.clone(),
                    name: option.name.clone(),
                    span: option.span,
                    help,
                });
                continue;
            };
            if let Err(OptionError::BadValue {
                accepted, declared, ..
            }) = options::parse_value(decl, &set.value)
            {
                self.report(OptionDeclError::PresetBadValue {
                    preset: preset.name.clone(),
                    name: option.name.clone(),
                    value: set.value.clone(),
                    accepted,
                    span: set.span,
                    declared,
                });
            }
        }
    }
}
