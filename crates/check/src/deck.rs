//! Armies against a table game's army rules: unknown and repeated entries, cards outside the
//! army's factions, and every `army rules` bound (E0911–E0920).
//!
//! An army may come from the game file itself or from a deck file (`rulestone check --deck`), so
//! every label points into the army's own source; the rule an army breaks is quoted in the help
//! instead of labelled, since it may live in another file.

use miette::Diagnostic;
use thiserror::Error;

use super::table::TableGame;
use rulestone_diag::Diag;
use rulestone_syntax::ast::{self, Bound};
use rulestone_syntax::{Ident, Span};

/// Violations of a game's army rules by an army.
#[derive(Debug, Error, Diagnostic)]
pub enum DeckError {
    #[error("unknown {what} `{name}`")]
    #[diagnostic(code(E0911))]
    Unknown {
        what: &'static str,
        name: String,
        #[label("not a {what} of this game")]
        span: Span,
        #[help]
        help: Option<String>,
    },

    #[error("{what} `{name}` is listed twice in army `{army}`")]
    #[diagnostic(code(E0912), help("{help}"))]
    Repeated {
        what: &'static str,
        name: String,
        army: String,
        #[label(primary, "listed again here")]
        span: Span,
        #[label("first listed here")]
        first: Span,
        help: String,
    },

    #[error("card `{card}` is not of a faction of army `{army}`")]
    #[diagnostic(
        code(E0913),
        help("an army plays only cards of its factions ({factions}); remove `{card}`, or add `{faction}` to the army's `factions`")
    )]
    CardFaction {
        card: String,
        faction: String,
        army: String,
        /// The army's factions, backticked and comma-separated.
        factions: String,
        #[label("a card of faction `{faction}`")]
        span: Span,
    },

    #[error("army `{army}` has {found}, but the army rules ask for {bound}")]
    #[diagnostic(code(E0914), help("the game's army rules say `stones {bound}`; {fix}"))]
    Stones {
        army: String,
        /// "9 stones".
        found: String,
        bound: Bound,
        fix: String,
        #[label("{found} in all")]
        span: Span,
    },

    #[error("army `{army}` has {found}, but the army rules ask for {bound}")]
    #[diagnostic(code(E0915), help("the game's army rules say `{kind} {bound}`; {fix}"))]
    KindStones {
        army: String,
        kind: String,
        /// "4 `Core` stones".
        found: String,
        bound: Bound,
        fix: String,
        label: String,
        #[label("{label}")]
        span: Span,
    },

    #[error("army `{army}` has {found}, but the army rules ask for {bound}")]
    #[diagnostic(code(E0916), help("the game's army rules say `cards {bound}`; {fix}"))]
    Cards {
        army: String,
        /// "18 cards".
        found: String,
        bound: Bound,
        fix: String,
        #[label("{found} in all")]
        span: Span,
    },

    #[error("army `{army}` has {found} of card `{card}`, but the army rules ask for {bound}")]
    #[diagnostic(
        code(E0917),
        help("the game's army rules say `copies {bound}`, for each card; {fix}")
    )]
    Copies {
        army: String,
        card: String,
        /// "4 copies".
        found: String,
        bound: Bound,
        fix: String,
        #[label("{found}")]
        span: Span,
    },

    #[error("army `{army}` fields `{kind}` stones but has no card for them")]
    #[diagnostic(
        code(E0918),
        help("the game's army rules say `card for each stone kind`; {fix}")
    )]
    NoCardForKind {
        army: String,
        kind: String,
        fix: String,
        #[label("no card of the army shoots a `{kind}`")]
        span: Span,
    },

    #[error("army `{army}` has {found}, but the army rules ask for {bound}")]
    #[diagnostic(
        code(E0919),
        help("the game's army rules say `factions {bound}`; {fix}")
    )]
    Factions {
        army: String,
        /// "3 factions".
        found: String,
        bound: Bound,
        fix: String,
        #[label("{found}")]
        span: Span,
    },

    #[error("armies `{first}` and `{second}` share faction `{faction}`")]
    #[diagnostic(
        code(E0920),
        help("the game's army rules say `factions differ between players`; give the two players armies of different factions")
    )]
    SharedFaction {
        first: String,
        second: String,
        faction: String,
        #[label("also a faction of `{first}`")]
        span: Span,
    },
}

/// Every violation of the game's army rules by one army, with spans in the army's own source.
///
/// One helper per concern, run in this order; the errors are then sorted by position (a
/// stable sort, so errors at the same place keep that order).
#[must_use]
pub fn check_army(game: &TableGame, army: &ast::Army) -> Vec<Diag> {
    let mut out: Vec<DeckError> = Vec::new();
    let resolved = resolve_entries(game, army, &mut out);
    cards_outside_factions(game, army, &resolved, &mut out);
    stone_total(game, army, &mut out);
    stones_per_kind(game, army, &resolved.stones, &mut out);
    card_total(game, army, &mut out);
    copies_per_card(game, army, &resolved.cards, &mut out);
    card_for_each_kind(game, army, &resolved, &mut out);
    faction_count(game, army, &mut out);

    let mut diags: Vec<(u32, Diag)> = out
        .into_iter()
        .map(|e| (primary_start(&e), Box::new(e) as Diag))
        .collect();
    diags.sort_by_key(|(start, _)| *start);
    diags.into_iter().map(|(_, d)| d).collect()
}

/// An army's entries resolved against the game, index for index with the army's lists;
/// `None` for an entry the game does not know (already reported).
struct ResolvedEntries {
    factions: Vec<Option<usize>>,
    stones: Vec<Option<usize>>,
    cards: Vec<Option<usize>>,
}

/// Names: each entry resolved, or reported; repeated entries reported once each.
fn resolve_entries(
    game: &TableGame,
    army: &ast::Army,
    out: &mut Vec<DeckError>,
) -> ResolvedEntries {
    let name = &army.name.name;
    let factions = army
        .factions
        .iter()
        .map(|f| resolve(game, Category::Faction, f, out))
        .collect();
    let stones = army
        .stones
        .iter()
        .map(|(k, _, _)| resolve(game, Category::Kind, k, out))
        .collect();
    let cards = army
        .cards
        .iter()
        .map(|(c, _, _)| resolve(game, Category::Card, c, out))
        .collect();
    repeats(
        name,
        "faction",
        army.factions.iter().map(|f| (f, None)),
        out,
    );
    repeats(
        name,
        "stone kind",
        army.stones.iter().map(|(k, n, _)| (k, Some(*n))),
        out,
    );
    repeats(
        name,
        "card",
        army.cards.iter().map(|(c, n, _)| (c, Some(*n))),
        out,
    );
    ResolvedEntries {
        factions,
        stones,
        cards,
    }
}

/// Cards outside the army's factions (not when a faction is unknown: the card may be of it).
fn cards_outside_factions(
    game: &TableGame,
    army: &ast::Army,
    resolved: &ResolvedEntries,
    out: &mut Vec<DeckError>,
) {
    let factions = &resolved.factions;
    if !factions.iter().all(Option::is_some) {
        return;
    }
    let list = backticked(army.factions.iter().map(|f| f.name.as_str()));
    for ((entry, _, span), card) in army.cards.iter().zip(&resolved.cards) {
        let Some(card) = card.and_then(|c| game.cards.get(c)) else {
            continue;
        };
        if !factions.contains(&Some(card.faction)) {
            out.push(DeckError::CardFaction {
                card: entry.name.clone(),
                faction: faction_name(game, card.faction),
                army: army.name.name.clone(),
                factions: list.clone(),
                span: *span,
            });
        }
    }
}

/// The rule on the total number of stones, labelled on the whole `stones` list.
fn stone_total(game: &TableGame, army: &ast::Army, out: &mut Vec<DeckError>) {
    let Some((bound, _)) = game.rules.stones else {
        return;
    };
    let total: u32 = army.stones.iter().map(|s| s.1).fold(0, u32::saturating_add);
    if !bound.holds(total) {
        out.push(DeckError::Stones {
            army: army.name.name.clone(),
            found: plural(total, "stone", "stones"),
            bound,
            fix: fix(bound, total, "stone", "stones"),
            span: list_span(army.stones.iter().map(|s| s.2)).unwrap_or(army.name.span),
        });
    }
}

/// The rules on the stones of one kind, added up over the entries of that kind; labelled on
/// the first such entry, or on the whole list when the kind is missing.
fn stones_per_kind(
    game: &TableGame,
    army: &ast::Army,
    stones: &[Option<usize>],
    out: &mut Vec<DeckError>,
) {
    let stones_span = list_span(army.stones.iter().map(|s| s.2)).unwrap_or(army.name.span);
    for &(kind, bound, _) in &game.rules.per_kind {
        let Some(disc) = game.discs.get(kind) else {
            continue;
        };
        let of_kind = || {
            army.stones
                .iter()
                .zip(stones)
                .filter(move |(_, k)| **k == Some(kind))
                .map(|(s, _)| s)
        };
        let count: u32 = of_kind().map(|s| s.1).fold(0, u32::saturating_add);
        if bound.holds(count) {
            continue;
        }
        let first = of_kind().next().map(|s| s.2);
        let kind_name = &disc.name;
        let noun = (
            format!("`{kind_name}` stone"),
            format!("`{kind_name}` stones"),
        );
        let (label, span, fix_text) = match first {
            Some(span) => (
                plural(count, &noun.0, &noun.1),
                span,
                fix(bound, count, &noun.0, &noun.1),
            ),
            None => (
                format!("no `{kind_name}` stone in this list"),
                stones_span,
                format!(
                    "add `{kind_name} {}` to the army's `stones`",
                    bound.min.unwrap_or(1)
                ),
            ),
        };
        let found = if count == 0 {
            format!("no {}", noun.0)
        } else {
            plural(count, &noun.0, &noun.1)
        };
        out.push(DeckError::KindStones {
            army: army.name.name.clone(),
            kind: kind_name.clone(),
            found,
            bound,
            fix: fix_text,
            label,
            span,
        });
    }
}

/// The rule on the total number of cards, labelled on the whole `cards` list.
fn card_total(game: &TableGame, army: &ast::Army, out: &mut Vec<DeckError>) {
    let Some((bound, _)) = game.rules.cards else {
        return;
    };
    let total: u32 = army.cards.iter().map(|c| c.1).fold(0, u32::saturating_add);
    if !bound.holds(total) {
        out.push(DeckError::Cards {
            army: army.name.name.clone(),
            found: plural(total, "card", "cards"),
            bound,
            fix: fix(bound, total, "card", "cards"),
            span: list_span(army.cards.iter().map(|c| c.2)).unwrap_or(army.name.span),
        });
    }
}

/// Copies of each card, added up over repeated entries, reported at the first entry.
fn copies_per_card(
    game: &TableGame,
    army: &ast::Army,
    cards: &[Option<usize>],
    out: &mut Vec<DeckError>,
) {
    let Some((bound, _)) = game.rules.copies else {
        return;
    };
    for (i, ((entry, _, span), card)) in army.cards.iter().zip(cards).enumerate() {
        if card.is_none() || army.cards[..i].iter().any(|c| c.0.name == entry.name) {
            continue;
        }
        let count: u32 = army
            .cards
            .iter()
            .filter(|c| c.0.name == entry.name)
            .map(|c| c.1)
            .fold(0, u32::saturating_add);
        if count == 0 || bound.holds(count) {
            continue;
        }
        out.push(DeckError::Copies {
            army: army.name.name.clone(),
            card: entry.name.clone(),
            found: plural(count, "copy", "copies"),
            bound,
            fix: fix(bound, count, "copy", "copies"),
            span: *span,
        });
    }
}

/// A card for each kind fielded (not when a card is unknown: it may shoot that kind); the fix
/// names a card of the army's factions that would do, if there is one.
fn card_for_each_kind(
    game: &TableGame,
    army: &ast::Army,
    resolved: &ResolvedEntries,
    out: &mut Vec<DeckError>,
) {
    let ResolvedEntries {
        factions,
        stones,
        cards,
    } = resolved;
    if game.rules.card_for_each_kind.is_none() || !cards.iter().all(Option::is_some) {
        return;
    }
    for (i, ((entry, count, span), kind)) in army.stones.iter().zip(stones).enumerate() {
        let Some(kind) = *kind else { continue };
        if *count == 0 || stones[..i].contains(&Some(kind)) {
            continue;
        }
        let has_card = army.cards.iter().zip(cards).any(|(c, card)| {
            c.1 > 0
                && card
                    .and_then(|i| game.cards.get(i))
                    .is_some_and(|c| c.disc == kind)
        });
        if has_card {
            continue;
        }
        let example = game
            .cards
            .iter()
            .find(|c| c.disc == kind && factions.contains(&Some(c.faction)))
            .map(|c| format!(", e.g. `{} 1`", c.name))
            .unwrap_or_default();
        out.push(DeckError::NoCardForKind {
            army: army.name.name.clone(),
            kind: entry.name.clone(),
            fix: format!(
                "add a card that shoots a `{}`{example}, or remove the `{}` stones",
                entry.name, entry.name
            ),
            span: *span,
        });
    }
}

/// The rule on the number of distinct factions, labelled on the whole `factions` list.
fn faction_count(game: &TableGame, army: &ast::Army, out: &mut Vec<DeckError>) {
    let Some((bound, _)) = game.rules.factions else {
        return;
    };
    let mut distinct: Vec<&str> = army.factions.iter().map(|f| f.name.as_str()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let count = u32::try_from(distinct.len()).unwrap_or(u32::MAX);
    if !bound.holds(count) {
        out.push(DeckError::Factions {
            army: army.name.name.clone(),
            found: plural(count, "faction", "factions"),
            bound,
            fix: fix(bound, count, "faction", "factions"),
            span: list_span(army.factions.iter().map(|f| f.span)).unwrap_or(army.name.span),
        });
    }
}

/// Problems between the two players' armies (e.g. the same faction when the rules say
/// `factions differ between players`); labels point into the second army's source.
#[must_use]
pub fn check_opponents(game: &TableGame, first: &ast::Army, second: &ast::Army) -> Vec<Diag> {
    let mut out: Vec<Diag> = Vec::new();
    if game.rules.factions_differ.is_none() {
        return out;
    }
    for (i, f) in second.factions.iter().enumerate() {
        let repeated = second.factions[..i].iter().any(|g| g.name == f.name);
        if !repeated && first.factions.iter().any(|g| g.name == f.name) {
            out.push(Box::new(DeckError::SharedFaction {
                first: first.name.name.clone(),
                second: second.name.name.clone(),
                faction: f.name.clone(),
                span: f.span,
            }));
        }
    }
    out
}

/// The lists of names an army's entries refer to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Category {
    Faction,
    Kind,
    Card,
}

impl Category {
    fn what(self) -> &'static str {
        match self {
            Category::Faction => "faction",
            Category::Kind => "stone kind",
            Category::Card => "card",
        }
    }

    /// The declaration of the game file that declares such names.
    fn keyword(self) -> &'static str {
        match self {
            Category::Faction => "faction",
            Category::Kind => "disc",
            Category::Card => "card",
        }
    }

    fn names(self, game: &TableGame) -> Vec<&str> {
        match self {
            Category::Faction => game.factions.iter().map(String::as_str).collect(),
            Category::Kind => game.discs.iter().map(|d| d.name.as_str()).collect(),
            Category::Card => game.cards.iter().map(|c| c.name.as_str()).collect(),
        }
    }
}

/// The index of a name in its category, or `None` after reporting it (E0911).
fn resolve(
    game: &TableGame,
    category: Category,
    id: &Ident,
    out: &mut Vec<DeckError>,
) -> Option<usize> {
    let names = category.names(game);
    if let Some(i) = names.iter().position(|n| *n == id.name) {
        return Some(i);
    }
    let what = category.what();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    let other = [Category::Faction, Category::Kind, Category::Card]
        .into_iter()
        .filter(|c| *c != category)
        .find(|c| c.names(game).contains(&id.name.as_str()));
    let help = if let Some(s) = super::suggest::closest(&id.name, sorted.iter().copied()) {
        Some(format!("did you mean `{s}`?"))
    } else if let Some(other) = other {
        Some(format!("`{}` is a {}, not a {what}", id.name, other.what()))
    } else if names.is_empty() {
        Some(format!("the game declares no {what}"))
    } else if names.len() <= 8 {
        Some(format!(
            "the game's {what}s are {}",
            backticked(names.iter().copied())
        ))
    } else {
        Some(format!(
            "name a {what} declared with `{}` in the game file",
            category.keyword()
        ))
    };
    out.push(DeckError::Unknown {
        what,
        name: id.name.clone(),
        span: id.span,
        help,
    });
    None
}

/// Reports every entry whose name was listed before in the same list (E0912). Counted entries
/// carry their count, so that the help can give the merged entry.
fn repeats<'a>(
    army: &str,
    what: &'static str,
    entries: impl Iterator<Item = (&'a Ident, Option<u32>)>,
    out: &mut Vec<DeckError>,
) {
    let entries: Vec<(&Ident, Option<u32>)> = entries.collect();
    for (i, (id, _)) in entries.iter().enumerate() {
        let Some((first, _)) = entries[..i].iter().find(|(f, _)| f.name == id.name) else {
            continue;
        };
        let same = entries.iter().filter(|(e, _)| e.name == id.name);
        let help = if entries.iter().all(|(_, n)| n.is_some()) {
            let total = same.filter_map(|(_, n)| *n).fold(0, u32::saturating_add);
            format!(
                "list each {what} once, with the counts added up: `{} {total}`",
                id.name
            )
        } else {
            format!("list each {what} once")
        };
        out.push(DeckError::Repeated {
            what,
            name: id.name.clone(),
            army: army.to_string(),
            span: id.span,
            first: first.span,
            help,
        });
    }
}

fn faction_name(game: &TableGame, i: usize) -> String {
    game.factions.get(i).cloned().unwrap_or_default()
}

/// "`A`, `B`"
fn backticked<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The span from the first to the last of a list's entries.
fn list_span(spans: impl Iterator<Item = Span>) -> Option<Span> {
    spans.reduce(Span::merge)
}

/// "1 stone", "9 stones".
fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// How to bring `count` into `bound`: "add 2 more cards", "remove 1 copy".
fn fix(bound: Bound, count: u32, one: &str, many: &str) -> String {
    let noun = |n: u32| if n == 1 { one } else { many };
    match (bound.min, bound.max) {
        (Some(min), _) if count < min => {
            let n = min - count;
            format!("add {n} more {}", noun(n))
        }
        (_, Some(max)) if count > max => {
            let n = count - max;
            format!("remove {n} {}", noun(n))
        }
        _ => String::new(),
    }
}

/// Where the header of a problem points, to report an army's problems in source order.
fn primary_start(e: &DeckError) -> u32 {
    let labels: Vec<miette::LabeledSpan> = e.labels().map(Iterator::collect).unwrap_or_default();
    labels
        .iter()
        .find(|l| l.primary())
        .or_else(|| labels.first())
        .map_or(0, |l| u32::try_from(l.offset()).unwrap_or(u32::MAX))
}
