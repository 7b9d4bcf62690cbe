//! Table games: resolution and checks of the table, discs, cards, army rules, turn and match
//! declarations, producing a [`TableGame`] whose names are all indices.

use std::collections::HashMap;

use miette::Diagnostic;
use thiserror::Error;

use super::error::{GameError, ResolveError};
use super::Checker;
use crate::syntax::ast::{
    self, ArmyRuleKind, BinaryOp, Bound, CaptureEffect, CaptureEvent, ItemKind, MatchRuleKind,
    OptionType, Physics, Quantity, ShotKind, TableItem,
};
use crate::syntax::{Ident, Span};

/// Problems particular to table games.
#[derive(Debug, Error, Diagnostic)]
pub enum TableError {
    #[error("`{axis}` is not an axis of the table")]
    #[diagnostic(
        code(E0901),
        help("a table's lines and walls are `x = N` (across the length) or `y = N` (across the width)")
    )]
    Axis {
        axis: String,
        #[label("expected `x` or `y`")]
        span: Span,
    },

    #[error("{what} must be greater than 0")]
    #[diagnostic(code(E0902), help("{help}"))]
    NotPositive {
        what: String,
        #[label("this is {value}")]
        span: Span,
        value: f64,
        help: String,
    },

    #[error("`{found}` is not {expected}")]
    #[diagnostic(code(E0903), help("{help}"))]
    WrongTableKind {
        found: String,
        expected: &'static str,
        #[label("not {expected}")]
        span: Span,
        help: String,
    },
}

/// A number of the table game: written in the file, or a parameter (index into `params`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Value(f64),
    Param(usize),
}

/// `x = at` or `y = at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

#[derive(Clone, Debug)]
pub struct DiscKind {
    pub name: String,
    pub letter: String,
    pub radius: Amount,
    /// `None`: proportional to area (radius squared).
    pub mass: Option<Amount>,
    /// One per army (an army rule `Kind exactly 1`): its stones are written without a number.
    pub single: bool,
}

/// `basic` (up to the `basic_speed` parameter, if declared) or `power N`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shot {
    Basic,
    Power(Amount),
}

#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    pub faction: usize,
    pub disc: usize,
    pub shot: Shot,
    pub by_hand: bool,
}

/// What every army must satisfy, each rule with its span in the game file.
#[derive(Clone, Debug, Default)]
pub struct ArmyRules {
    pub stones: Option<(Bound, Span)>,
    pub cards: Option<(Bound, Span)>,
    pub copies: Option<(Bound, Span)>,
    pub card_for_each_kind: Option<Span>,
    pub factions: Option<(Bound, Span)>,
    pub factions_differ: Option<Span>,
    /// Disc kind, its bound.
    pub per_kind: Vec<(usize, Bound, Span)>,
}

#[derive(Clone, Debug)]
pub struct Placement {
    pub discs: Vec<usize>,
    /// `None`: each player's home line.
    pub line: Option<usize>,
    pub alternating: bool,
}

#[derive(Clone, Debug)]
pub struct FreeShot {
    pub discs: Vec<usize>,
    pub shot: Shot,
    /// `shots OP n`: compares the number of stones shot this turn.
    pub when: Option<(BinaryOp, i64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Enter(usize),
    Cross(usize),
    OverWallShot,
    OverWallKnocked,
    OffTable,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    ByOpponentOfOwner,
    ByOpponentOfShooter,
    BackTo(usize),
}

#[derive(Clone, Debug)]
pub struct Penalty {
    pub name: String,
    pub text: String,
    pub warnings: u32,
}

/// A checked table game: every name resolved to an index.
#[derive(Clone, Debug, Default)]
pub struct TableGame {
    pub players: Vec<String>,
    /// Declared parameters and their defaults.
    pub params: Vec<(String, f64)>,
    pub length: Option<Amount>,
    pub width: Option<Amount>,
    /// The table's physical constants (those not given keep the runtime's defaults).
    pub physics: Vec<(Physics, Amount)>,
    /// The top speed of a `basic` shot.
    pub basic_speed: Option<Amount>,
    /// Degrees a simulated shot's angle may be off (not for cards played `by hand`).
    pub aim_noise: Option<Amount>,
    /// `referee when OPTION == WORD`.
    pub referee: Option<(String, String)>,
    pub walls: Vec<(Axis, Amount)>,
    pub lines: Vec<(String, Axis, Amount)>,
    /// Name, the line bounding it, and whether it lies on the side of larger coordinates.
    pub regions: Vec<(String, Axis, Amount, bool)>,
    /// Per player: the home line.
    pub homes: Vec<Option<usize>>,
    pub discs: Vec<DiscKind>,
    pub factions: Vec<String>,
    pub cards: Vec<Card>,
    pub rules: ArmyRules,
    /// The armies declared in the game file, used when none is given.
    pub armies: Vec<ast::Army>,
    pub setup: Vec<Placement>,
    pub draw: u32,
    pub free_shots: Vec<FreeShot>,
    pub captures: Vec<(Event, Effect)>,
    pub win_at: Option<Amount>,
    pub turns: Option<Amount>,
    pub sudden_death: bool,
    pub turn_clock: Option<Amount>,
    pub match_clock: Option<Amount>,
    pub penalties: Vec<Penalty>,
}

impl TableGame {
    /// The value of an amount for these parameter values.
    #[must_use]
    pub fn value(&self, amount: Amount, params: &[f64]) -> f64 {
        match amount {
            Amount::Value(v) => v,
            Amount::Param(i) => params.get(i).copied().unwrap_or(0.0),
        }
    }

    #[must_use]
    pub fn param(&self, name: &str) -> Option<usize> {
        self.params.iter().position(|(n, _)| n == name)
    }
}

/// Whether a file declares a table game.
#[must_use]
pub fn is_table_game(file: &ast::File) -> bool {
    file.items.iter().any(|i| {
        matches!(
            i.kind,
            ItemKind::Table(TableItem::Table { .. } | TableItem::Turn(_))
        )
    })
}

/// The kinds of names a table game declares, for lookups and duplicate reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Name {
    Param(usize),
    Line(usize),
    Region(usize),
    Disc(usize),
    Faction(usize),
    Card(usize),
    Army,
    Penalty,
    Other,
}

struct TableChecker<'c, 'a> {
    c: &'c mut Checker<'a>,
    names: HashMap<String, (Name, Span)>,
    game: TableGame,
}

impl Checker<'_> {
    /// Checks a table game; its result is kept for lowering.
    pub(super) fn check_table_game(&mut self) -> TableGame {
        let file = self.file;
        let mut t = TableChecker {
            c: self,
            names: HashMap::new(),
            game: TableGame::default(),
        };
        t.run(file);
        t.game
    }
}

impl TableChecker<'_, '_> {
    fn run(&mut self, file: &ast::File) {
        for item in &file.items {
            if let ItemKind::Players(ps) = &item.kind {
                self.game.players = ps.iter().map(|p| p.name.clone()).collect();
                self.game.homes = vec![None; ps.len()];
                for p in ps {
                    self.names.insert(p.name.clone(), (Name::Other, p.span));
                }
            }
            if let ItemKind::Option(o) = &item.kind {
                self.names
                    .insert(o.name.name.clone(), (Name::Other, o.name.span));
            }
        }
        // Declarations first, so that uses may come before them.
        for item in &file.items {
            if let ItemKind::Table(t) = &item.kind {
                self.declare(t);
            }
        }
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        for item in &file.items {
            if let ItemKind::Table(t) = &item.kind {
                if let Some(what) = once_name(t) {
                    let span = Span::new(item.span.start as usize, item.span.start as usize + 5);
                    if let Some(&first) = seen.get(what) {
                        self.c.report(GameError::Twice { what, span, first });
                    } else {
                        seen.insert(what, span);
                    }
                }
                self.resolve(file, t);
            }
        }
        for (what, example) in [
            ("table", "table 120 by 60 { wall y = 0  wall y = 60 }"),
            ("turn shots", "turn shots { draw 4  play every card }"),
            ("match", "match { win at 8 captures }"),
        ] {
            if !seen.contains_key(what) {
                self.c.report(GameError::Missing {
                    what,
                    example: example.into(),
                });
            }
        }
        if self.game.discs.is_empty() {
            self.c.report(GameError::Missing {
                what: "disc",
                example: "disc Stone \"S\" radius 2".into(),
            });
        }
        // `place ... on home` needs every player's home line.
        let uses_home = self.game.setup.iter().any(|p| p.line.is_none());
        if uses_home && self.game.homes.iter().any(Option::is_none) {
            self.c.report(GameError::Missing {
                what: "home",
                example: "home North on north_home".into(),
            });
        }
        let singles: Vec<usize> = self
            .game
            .rules
            .per_kind
            .iter()
            .filter(|(_, b, _)| b.max == Some(1))
            .map(|(k, _, _)| *k)
            .collect();
        for k in singles {
            if let Some(d) = self.game.discs.get_mut(k) {
                d.single = true;
            }
        }
    }

    fn declare(&mut self, item: &TableItem) {
        match item {
            TableItem::Param { name, value, .. } => {
                let i = self.game.params.len();
                if self.add(name, Name::Param(i)) {
                    self.game.params.push((name.name.clone(), *value));
                }
            }
            TableItem::Table { lines, regions, .. } => {
                for (name, _) in lines {
                    let i = self.game.lines.len();
                    if self.add(name, Name::Line(i)) {
                        self.game
                            .lines
                            .push((name.name.clone(), Axis::X, Amount::Value(0.0)));
                    }
                }
                for r in regions {
                    let i = self.game.regions.len();
                    if self.add(&r.name, Name::Region(i)) {
                        self.game.regions.push((
                            r.name.name.clone(),
                            Axis::X,
                            Amount::Value(0.0),
                            r.greater,
                        ));
                    }
                }
            }
            TableItem::Disc { name, letter, .. } => {
                let i = self.game.discs.len();
                if self.add(name, Name::Disc(i)) {
                    self.game.discs.push(DiscKind {
                        name: name.name.clone(),
                        letter: letter.0.clone(),
                        radius: Amount::Value(1.0),
                        mass: None,
                        single: false,
                    });
                }
            }
            TableItem::Factions(fs) => {
                for f in fs {
                    let i = self.game.factions.len();
                    if self.add(f, Name::Faction(i)) {
                        self.game.factions.push(f.name.clone());
                    }
                }
            }
            TableItem::Card(c) => {
                let i = self.game.cards.len();
                if self.add(&c.name, Name::Card(i)) {
                    self.game.cards.push(Card {
                        name: c.name.name.clone(),
                        faction: 0,
                        disc: 0,
                        shot: Shot::Basic,
                        by_hand: c.by_hand,
                    });
                }
            }
            TableItem::Army(a) if self.add(&a.name, Name::Army) => {
                self.game.armies.push(a.clone());
            }
            TableItem::Penalty {
                name,
                text,
                warnings,
            } if self.add(name, Name::Penalty) => {
                self.game.penalties.push(Penalty {
                    name: name.name.clone(),
                    text: text.clone(),
                    warnings: *warnings,
                });
            }
            _ => {}
        }
    }

    /// Declares a name; false (and E0102) if it is taken.
    fn add(&mut self, id: &Ident, name: Name) -> bool {
        if let Some(&(_, first)) = self.names.get(&id.name) {
            self.c.report(ResolveError::Duplicate {
                name: id.name.clone(),
                span: id.span,
                first,
            });
            return false;
        }
        self.names.insert(id.name.clone(), (name, id.span));
        true
    }

    fn lookup(&mut self, id: &Ident, expected: &'static str) -> Option<Name> {
        match self.names.get(&id.name) {
            Some(&(n, _)) => Some(n),
            None => {
                let mut candidates: Vec<&str> = self.names.keys().map(String::as_str).collect();
                candidates.sort_unstable();
                let help = super::suggest::closest(&id.name, candidates)
                    .map(|s| format!("did you mean `{s}`?"))
                    .or_else(|| Some(format!("declare {expected} named `{}`", id.name)));
                self.c.report(ResolveError::UnknownName {
                    name: id.name.clone(),
                    span: id.span,
                    help,
                });
                None
            }
        }
    }

    fn wrong(&mut self, id: &Ident, expected: &'static str, help: &str) {
        self.c.report(TableError::WrongTableKind {
            found: id.name.clone(),
            expected,
            span: id.span,
            help: help.to_string(),
        });
    }

    fn disc(&mut self, id: &Ident) -> Option<usize> {
        match self.lookup(id, "a disc")? {
            Name::Disc(i) => Some(i),
            _ => {
                self.wrong(id, "a disc kind", "name a kind declared with `disc`");
                None
            }
        }
    }

    fn line(&mut self, id: &Ident) -> Option<usize> {
        match self.lookup(id, "a line")? {
            Name::Line(i) => Some(i),
            _ => {
                self.wrong(id, "a line", "name a line declared in `table`");
                None
            }
        }
    }

    fn region(&mut self, id: &Ident) -> Option<usize> {
        match self.lookup(id, "a region")? {
            Name::Region(i) => Some(i),
            _ => {
                self.wrong(id, "a region", "name a region declared in `table`");
                None
            }
        }
    }

    fn faction(&mut self, id: &Ident) -> Option<usize> {
        match self.lookup(id, "a faction")? {
            Name::Faction(i) => Some(i),
            _ => {
                self.wrong(id, "a faction", "name a faction declared with `faction`");
                None
            }
        }
    }

    /// A quantity, which must be positive when `positive` names what it is.
    fn amount(&mut self, q: &Quantity, positive: Option<&str>) -> Amount {
        let (amount, value) = match q {
            Quantity::Number(v, _) => (Amount::Value(*v), *v),
            Quantity::Param(id) => match self.lookup(id, "a parameter") {
                Some(Name::Param(i)) => (Amount::Param(i), self.game.params[i].1),
                Some(_) => {
                    self.wrong(id, "a parameter", "name a `param`, or write a number");
                    return Amount::Value(1.0);
                }
                None => return Amount::Value(1.0),
            },
        };
        if let Some(what) = positive {
            if value <= 0.0 || !value.is_finite() {
                self.c.report(TableError::NotPositive {
                    what: what.to_string(),
                    span: q.span(),
                    value,
                    help: "give it a positive value".into(),
                });
            }
        }
        amount
    }

    fn axis(&mut self, id: &Ident) -> Axis {
        match id.name.as_str() {
            "x" => Axis::X,
            "y" => Axis::Y,
            _ => {
                self.c.report(TableError::Axis {
                    axis: id.name.clone(),
                    span: id.span,
                });
                Axis::X
            }
        }
    }

    fn shot(&mut self, s: &ShotKind) -> Shot {
        match s {
            ShotKind::Basic(_) => Shot::Basic,
            ShotKind::Power(q) => Shot::Power(self.amount(q, Some("a card's power"))),
        }
    }

    /// `referee when OPTION == WORD`: the option must be declared with that word.
    fn referee(&mut self, file: &ast::File, option: &Ident, word: &Ident) {
        let decl = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Option(o) if o.name.name == option.name => Some(o),
            _ => None,
        });
        let Some(decl) = decl else {
            self.c.report(ResolveError::UnknownName {
                name: option.name.clone(),
                span: option.span,
                help: Some("name an `option` of the game".into()),
            });
            return;
        };
        let known =
            matches!(&decl.ty, OptionType::Enum(ws) if ws.iter().any(|w| w.name == word.name));
        if !known {
            self.c.report(ResolveError::UnknownName {
                name: word.name.clone(),
                span: word.span,
                help: Some(format!("name one of the words of option `{}`", option.name)),
            });
            return;
        }
        self.game.referee = Some((option.name.clone(), word.name.clone()));
    }

    fn resolve(&mut self, file: &ast::File, item: &TableItem) {
        match item {
            TableItem::Param { .. }
            | TableItem::Factions(_)
            | TableItem::Army(_)
            | TableItem::Penalty { .. } => {}
            TableItem::Table {
                length,
                width,
                physics,
                walls,
                lines,
                regions,
            } => {
                for r in regions {
                    let axis = self.axis(&r.at.axis);
                    let value = self.amount(&r.at.at, None);
                    if let Some(Name::Region(i)) = self.names.get(&r.name.name).map(|n| n.0) {
                        self.game.regions[i].1 = axis;
                        self.game.regions[i].2 = value;
                    }
                }
                self.game.length = Some(self.amount(length, Some("the table's length")));
                self.game.width = Some(self.amount(width, Some("the table's width")));
                for (c, q) in physics {
                    let positive = match c {
                        Physics::Friction => Some("the friction"),
                        Physics::WallJumpSpeed => Some("the speed to go over a wall"),
                        Physics::TimeStep => Some("the time step"),
                        Physics::StoneRestitution | Physics::WallRestitution => None,
                    };
                    let a = self.amount(q, positive);
                    self.game.physics.push((*c, a));
                }
                for w in walls {
                    let axis = self.axis(&w.axis);
                    let at = self.amount(&w.at, None);
                    self.game.walls.push((axis, at));
                }
                for (name, at) in lines {
                    let axis = self.axis(&at.axis);
                    let value = self.amount(&at.at, None);
                    if let Some(Name::Line(i)) = self.names.get(&name.name).map(|n| n.0) {
                        self.game.lines[i].1 = axis;
                        self.game.lines[i].2 = value;
                    }
                }
            }
            TableItem::Home { player, line } => {
                let Some(p) = self.game.players.iter().position(|n| *n == player.name) else {
                    self.lookup(player, "a player");
                    if self.names.contains_key(&player.name) {
                        self.wrong(player, "a player", "name one of the `players`");
                    }
                    return;
                };
                let l = self.line(line);
                self.game.homes[p] = l;
            }
            TableItem::Disc {
                name, radius, mass, ..
            } => {
                let r = self.amount(radius, Some("a disc's radius"));
                let m = mass.as_ref().map(|m| self.amount(m, Some("a disc's mass")));
                if let Some(Name::Disc(i)) = self.names.get(&name.name).map(|n| n.0) {
                    self.game.discs[i].radius = r;
                    self.game.discs[i].mass = m;
                }
            }
            TableItem::Card(c) => {
                let faction = self.faction(&c.faction);
                let disc = self.disc(&c.disc);
                let shot = self.shot(&c.shot);
                if let Some(Name::Card(i)) = self.names.get(&c.name.name).map(|n| n.0) {
                    let card = &mut self.game.cards[i];
                    card.faction = faction.unwrap_or(0);
                    card.disc = disc.unwrap_or(0);
                    card.shot = shot;
                }
            }
            TableItem::ArmyRules(rules) => {
                for r in rules {
                    let rules = &mut self.game.rules;
                    match &r.kind {
                        ArmyRuleKind::Stones(b) => rules.stones = Some((*b, r.span)),
                        ArmyRuleKind::Cards(b) => rules.cards = Some((*b, r.span)),
                        ArmyRuleKind::Copies(b) => rules.copies = Some((*b, r.span)),
                        ArmyRuleKind::CardForEachKind => rules.card_for_each_kind = Some(r.span),
                        ArmyRuleKind::FactionsDiffer => rules.factions_differ = Some(r.span),
                        ArmyRuleKind::Factions(b) => rules.factions = Some((*b, r.span)),
                        ArmyRuleKind::Kind(kind, b) => {
                            if let Some(k) = self.disc(kind) {
                                self.game.rules.per_kind.push((k, *b, r.span));
                            }
                        }
                    }
                }
            }
            TableItem::Setup(places) => {
                for p in places {
                    let discs = p.kinds.iter().filter_map(|k| self.disc(k)).collect();
                    let line = if p.line.name == "home" {
                        None
                    } else {
                        self.line(&p.line)
                    };
                    self.game.setup.push(Placement {
                        discs,
                        line,
                        alternating: p.alternating,
                    });
                }
            }
            TableItem::Turn(t) => {
                if t.draw == 0 {
                    self.c.report(TableError::NotPositive {
                        what: "the number of cards drawn".into(),
                        span: t.draw_span,
                        value: 0.0,
                        help: "draw at least one card".into(),
                    });
                }
                self.game.draw = t.draw;
                self.game.basic_speed =
                    Some(self.amount(&t.basic_speed, Some("the basic shot's speed")));
                self.game.aim_noise = t.aim_noise.as_ref().map(|q| self.amount(q, None));
                for f in &t.free {
                    let discs = f.kinds.iter().filter_map(|k| self.disc(k)).collect();
                    let shot = self.shot(&f.shot);
                    let when = f.when.as_ref().and_then(|(name, op, n)| {
                        if name.name == "shots" {
                            Some((*op, *n))
                        } else {
                            self.c.report(ResolveError::UnknownName {
                                name: name.name.clone(),
                                span: name.span,
                                help: Some(
                                    "a free shot's condition counts `shots`: the stones shot this turn"
                                        .into(),
                                ),
                            });
                            None
                        }
                    });
                    self.game.free_shots.push(FreeShot { discs, shot, when });
                }
            }
            TableItem::Capture(rules) => {
                for r in rules {
                    let effect = match &r.effect {
                        CaptureEffect::ByOpponentOfOwner => Effect::ByOpponentOfOwner,
                        CaptureEffect::ByOpponentOfShooter => Effect::ByOpponentOfShooter,
                        CaptureEffect::BackTo(l) => match self.line(l) {
                            Some(i) => Effect::BackTo(i),
                            None => continue,
                        },
                    };
                    match &r.event {
                        CaptureEvent::Enter(regions) => {
                            for g in regions {
                                if let Some(i) = self.region(g) {
                                    self.game.captures.push((Event::Enter(i), effect));
                                }
                            }
                        }
                        CaptureEvent::Cross(lines) => {
                            for l in lines {
                                if let Some(i) = self.line(l) {
                                    self.game.captures.push((Event::Cross(i), effect));
                                }
                            }
                        }
                        CaptureEvent::OverWallShot => {
                            self.game.captures.push((Event::OverWallShot, effect));
                        }
                        CaptureEvent::OverWallKnocked => {
                            self.game.captures.push((Event::OverWallKnocked, effect));
                        }
                        CaptureEvent::OffTable => {
                            self.game.captures.push((Event::OffTable, effect))
                        }
                    }
                }
            }
            TableItem::Match(rules) => {
                for r in rules {
                    match &r.kind {
                        MatchRuleKind::WinAt(q) => {
                            self.game.win_at = Some(self.amount(q, Some("the captures to win")));
                        }
                        MatchRuleKind::Turns(q) => {
                            self.game.turns = Some(self.amount(q, Some("the number of turns")));
                        }
                        MatchRuleKind::SuddenDeath => self.game.sudden_death = true,
                        MatchRuleKind::Referee { option, word } => {
                            self.referee(file, option, word);
                        }
                        MatchRuleKind::MatchClock(q) => {
                            self.game.match_clock = Some(self.amount(q, Some("the match clock")));
                        }
                        MatchRuleKind::TurnClock(q) => {
                            self.game.turn_clock = Some(self.amount(q, Some("the turn clock")));
                        }
                    }
                }
            }
        }
    }
}

/// The declarations a table game has at most once.
fn once_name(item: &TableItem) -> Option<&'static str> {
    match item {
        TableItem::Table { .. } => Some("table"),
        TableItem::ArmyRules(_) => Some("army rules"),
        TableItem::Setup(_) => Some("setup table"),
        TableItem::Turn(_) => Some("turn shots"),
        TableItem::Capture(_) => Some("capture"),
        TableItem::Match(_) => Some("match"),
        _ => None,
    }
}
