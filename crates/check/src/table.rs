//! Table games: resolution and checks of the table, discs, cards, army rules, turn and match
//! declarations, producing a [`TableGame`] whose names are all indices.

use std::collections::HashMap;

use miette::Diagnostic;
use thiserror::Error;

use super::error::{GameError, ResolveError};
use super::options::OptionError;
use super::Checker;
use rulestone_diag::Diag;
use rulestone_syntax::ast::{
    self, ArmyRuleKind, Bound, CaptureEffect, CaptureEvent, ItemKind, MatchRuleKind, OptionType,
    Physics, Quantity, ShotKind, TableItem, TableTerm, TurnStepKind,
};
use rulestone_syntax::{Ident, Span};

/// The table's vocabulary the program shares: what a condition measures and compares, an
/// axis, a capture's effect, a setup's placement.
pub use rulestone_ir::table::{Axis, Compare, Effect, Measure, Placement, Term};

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

    #[error("a `basic` shot, but no `basic shot up to` says how fast it may be")]
    #[diagnostic(
        code(E0904),
        help("declare the top speed of a basic shot, e.g. `basic shot up to 30`")
    )]
    NoBasicSpeed {
        #[label("a basic shot")]
        span: Span,
    },

    #[error("the turn never shoots a stone")]
    #[diagnostic(
        code(E0905),
        help("a turn needs a `shot` or `play each card` step, e.g. `table turn {{ shot Stone basic }}`")
    )]
    TurnWithoutShot {
        #[label("no `shot` or `play each card` in this turn")]
        span: Span,
    },

    #[error("`{name}` is not a quantity of each player")]
    #[diagnostic(code(E0906), help("{help}"))]
    NotPerPlayer {
        name: String,
        #[label("counted for the match, not per player")]
        span: Span,
        help: String,
    },

    #[error("a tie rule, but no `after N turns` rule for the match to be tied at")]
    #[diagnostic(
        code(E0907),
        help(
            "add a rule that compares the players at the end, e.g. `after 10 turns: most captures`"
        )
    )]
    TieWithoutAfter {
        #[label("nothing ends level")]
        span: Span,
    },
}

/// A step of the turn.
#[derive(Clone, Debug)]
pub enum Step {
    /// `draw N` / `draw to N`.
    Draw {
        to: bool,
        count: Amount,
    },
    PlayEachCard,
    Shot {
        discs: Vec<usize>,
        shot: Shot,
    },
    If {
        cond: Vec<Compare<Amount>>,
        then: Vec<Step>,
        otherwise: Vec<Step>,
    },
}

/// A number of the table game: written in the file, or a parameter (index into `params`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Value(f64),
    Param(usize),
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Enter(usize),
    Cross(usize),
    OverWallShot,
    OverWallKnocked,
    OffTable,
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
    /// Where each parameter is declared (its default's span), by parameter.
    pub param_spans: Vec<Span>,
    /// Each use of a parameter where the value must be greater than 0: the parameter, what the
    /// value is, the use's span, and whether it counts (is rounded to a whole number).
    /// [`TableGame::configure`] tests them for `--set` values.
    pub positive_params: Vec<(usize, String, Span, bool)>,
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
    /// The steps of a turn.
    pub steps: Vec<Step>,
    /// Region, points: a stone scores those of the first listed region holding its centre.
    pub points: Vec<(usize, u32)>,
    pub captures: Vec<(Event, Effect)>,
    /// `win when ...`: each a condition.
    pub wins: Vec<Vec<Compare<Amount>>>,
    /// `after N turns: most QUANTITY`.
    pub after: Option<(Amount, Measure)>,
    /// `tie: sudden death for N turns`.
    pub sudden_death: Option<Amount>,
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

    /// Splits `--set` pairs into parameter values (real numbers, the defaults where not set)
    /// and the pairs left for options, and tests every use that must be positive against the
    /// values set: what the checker tested for the defaults, for these values.
    ///
    /// # Errors
    /// A parameter value that is not a finite number (E0304), or one that makes a size, speed,
    /// count or clock 0 or negative (E0902, at the use).
    pub fn configure(&self, sets: &[(String, String)]) -> Result<SplitSets, Vec<Diag>> {
        let mut params: Vec<f64> = self.params.iter().map(|(_, v)| *v).collect();
        let mut options = Vec::new();
        let mut errors: Vec<Diag> = Vec::new();
        for (name, value) in sets {
            let Some(i) = self.param(name) else {
                options.push((name.clone(), value.clone()));
                continue;
            };
            match value.parse::<f64>() {
                Ok(v) if v.is_finite() => params[i] = v,
                _ => errors.push(Box::new(OptionError::BadValue {
                    kind: "parameter",
                    name: name.clone(),
                    value: value.clone(),
                    accepted: "a number".into(),
                    example: self.params[i].1.to_string(),
                    declared: self.param_spans.get(i).copied().unwrap_or_default(),
                })),
            }
        }
        for &(i, ref what, span, count) in &self.positive_params {
            let value = params.get(i).copied().unwrap_or(0.0);
            if too_small(value, count) {
                let name = self.params.get(i).map_or("", |(n, _)| n.as_str());
                errors.push(Box::new(TableError::NotPositive {
                    what: what.clone(),
                    span,
                    value,
                    help: positive_help(
                        value,
                        count,
                        &format!("`--set {name}=...` must give `{name}`"),
                    ),
                }));
            }
        }
        if errors.is_empty() {
            Ok((params, options))
        } else {
            Err(errors)
        }
    }
}

/// What a quantity must be.
#[derive(Clone, Copy)]
enum Must<'a> {
    Any,
    /// Greater than 0: a length, mass, speed or clock, named.
    Positive(&'a str),
    /// A count (of turns or cards), rounded to the nearest whole number: at least 1 once rounded.
    Count(&'a str),
}

/// Whether a value is too small for a positive quantity (or a count, which is rounded).
fn too_small(value: f64, count: bool) -> bool {
    !value.is_finite()
        || if count {
            value.round() < 1.0
        } else {
            value <= 0.0
        }
}

/// The help for [`TableError::NotPositive`]: what `fix` ("give it", "`--set n=...` must give
/// `n`") should do, and for a count, that it is rounded.
fn positive_help(value: f64, count: bool, fix: &str) -> String {
    if count && value > 0.0 && value.is_finite() {
        format!("a count is rounded to a whole number, and {value} rounds to 0: {fix} 1 or more")
    } else if count {
        format!("{fix} a whole number of 1 or more")
    } else {
        format!("{fix} a value greater than 0")
    }
}

/// Parameter values, and the `--set` pairs left for options.
pub type SplitSets = (Vec<f64>, Vec<(String, String)>);

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
                self.resolve(file, t, item.span);
            }
        }
        self.basic_needs_speed(file);
        for (what, example) in [
            ("table", "table 120 by 60 { wall y = 0  wall y = 60 }"),
            ("table turn", "table turn { shot Stone basic }"),
            ("match", "match { after 10 turns: most captures }"),
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
            TableItem::Param {
                name,
                value,
                value_span,
            } => {
                let i = self.game.params.len();
                if self.add(name, Name::Param(i)) {
                    self.game.params.push((name.name.clone(), *value));
                    self.game.param_spans.push(*value_span);
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

    /// A quantity, tested against what it must be ([`Must`]).
    fn amount(&mut self, q: &Quantity, must: Must) -> Amount {
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
        let (what, count) = match must {
            Must::Any => return amount,
            Must::Positive(what) => (what, false),
            Must::Count(what) => (what, true),
        };
        if let Amount::Param(i) = amount {
            let what = what.to_string();
            self.game.positive_params.push((i, what, q.span(), count));
        }
        if too_small(value, count) {
            self.c.report(TableError::NotPositive {
                what: what.to_string(),
                span: q.span(),
                value,
                help: positive_help(value, count, "give it"),
            });
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
            ShotKind::Power(q) => Shot::Power(self.amount(q, Must::Positive("a card's power"))),
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

    /// Resolves the names and amounts of one table-game declaration into `self.game`: a short
    /// dispatcher, with a helper for each declaration that holds a list of members.
    fn resolve(&mut self, file: &ast::File, item: &TableItem, item_span: Span) {
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
            } => self.resolve_table(length, width, physics, walls, lines, regions),
            TableItem::Home { player, line } => self.resolve_home(player, line),
            TableItem::Disc {
                name, radius, mass, ..
            } => {
                let r = self.amount(radius, Must::Positive("a disc's radius"));
                let m = mass
                    .as_ref()
                    .map(|m| self.amount(m, Must::Positive("a disc's mass")));
                if let Some(Name::Disc(i)) = self.names.get(&name.name).map(|n| n.0) {
                    self.game.discs[i].radius = r;
                    self.game.discs[i].mass = m;
                }
            }
            TableItem::Card(c) => self.resolve_card(c),
            TableItem::ArmyRules(rules) => self.resolve_army_rules(rules),
            TableItem::Setup(places) => self.resolve_setup(places),
            TableItem::Turn(steps) => {
                self.game.steps = self.steps(steps);
                if !shoots(&self.game.steps) {
                    self.c.report(TableError::TurnWithoutShot {
                        span: Span::new(item_span.start as usize, item_span.start as usize + 10),
                    });
                }
            }
            TableItem::BasicShot(q) => {
                self.game.basic_speed =
                    Some(self.amount(q, Must::Positive("the basic shot's speed")));
            }
            TableItem::AimNoise(q) => self.game.aim_noise = Some(self.amount(q, Must::Any)),
            TableItem::Points(points) => {
                for (region, n) in points {
                    if let Some(i) = self.region(region) {
                        self.game.points.push((i, *n));
                    }
                }
            }
            TableItem::Capture(rules) => self.resolve_captures(rules),
            TableItem::Match(rules) => self.resolve_match(file, rules),
        }
    }

    /// `table … { … }`: regions and lines were declared by the first pass, so here they only
    /// get their axis and position; the size, physics and walls are stored in order.
    fn resolve_table(
        &mut self,
        length: &Quantity,
        width: &Quantity,
        physics: &[(Physics, Quantity)],
        walls: &[ast::AxisAt],
        lines: &[(Ident, ast::AxisAt)],
        regions: &[ast::Region],
    ) {
        for r in regions {
            let axis = self.axis(&r.at.axis);
            let value = self.amount(&r.at.at, Must::Any);
            if let Some(Name::Region(i)) = self.names.get(&r.name.name).map(|n| n.0) {
                self.game.regions[i].1 = axis;
                self.game.regions[i].2 = value;
            }
        }
        self.game.length = Some(self.amount(length, Must::Positive("the table's length")));
        self.game.width = Some(self.amount(width, Must::Positive("the table's width")));
        for (c, q) in physics {
            let positive = match c {
                Physics::Friction => Must::Positive("the friction"),
                Physics::WallJumpSpeed => Must::Positive("the speed to go over a wall"),
                Physics::TimeStep => Must::Positive("the time step"),
                Physics::StoneRestitution | Physics::WallRestitution => Must::Any,
            };
            let a = self.amount(q, positive);
            self.game.physics.push((*c, a));
        }
        for w in walls {
            let axis = self.axis(&w.axis);
            let at = self.amount(&w.at, Must::Any);
            self.game.walls.push((axis, at));
        }
        for (name, at) in lines {
            let axis = self.axis(&at.axis);
            let value = self.amount(&at.at, Must::Any);
            if let Some(Name::Line(i)) = self.names.get(&name.name).map(|n| n.0) {
                self.game.lines[i].1 = axis;
                self.game.lines[i].2 = value;
            }
        }
    }

    /// `home PLAYER LINE`: a name that is not a player is reported as unknown, or as the wrong
    /// kind of name if the game declares it as something else.
    fn resolve_home(&mut self, player: &Ident, line: &Ident) {
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

    /// A card's faction, disc and shot; an unknown faction or disc (already reported) is kept
    /// as index 0.
    fn resolve_card(&mut self, c: &ast::CardDecl) {
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

    /// `army rules { … }`: each rule kept with its span, for the deck checks to quote; a later
    /// rule of the same kind replaces an earlier one, except rules per disc kind.
    fn resolve_army_rules(&mut self, rules: &[ast::ArmyRule]) {
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

    /// `setup { … }`: the line `home` means each player's home line, kept as `None`.
    fn resolve_setup(&mut self, places: &[ast::SetupPlace]) {
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

    /// `capture { … }`: one capture per event and region or line; a rule sending stones back
    /// to an unknown line (already reported) is dropped.
    fn resolve_captures(&mut self, rules: &[ast::CaptureRule]) {
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
                CaptureEvent::OffTable => self.game.captures.push((Event::OffTable, effect)),
            }
        }
    }

    /// `match { … }`: wins, limits, clocks and the referee; a tie rule needs an `after` rule,
    /// which may come later in the block, so it is checked at the end.
    fn resolve_match(&mut self, file: &ast::File, rules: &[ast::MatchRule]) {
        let mut tie = None;
        for r in rules {
            match &r.kind {
                MatchRuleKind::Win(cond) => {
                    let c = self.condition(cond);
                    self.game.wins.push(c);
                }
                MatchRuleKind::After { turns, most } => {
                    let t = self.amount(turns, Must::Count("the number of turns"));
                    if let Some(m) = self.measure(most, true) {
                        self.game.after = Some((t, m));
                    }
                }
                MatchRuleKind::SuddenDeath(q) => {
                    tie = Some(r.span);
                    self.game.sudden_death =
                        Some(self.amount(q, Must::Count("the turns of sudden death")));
                }
                MatchRuleKind::TieDraw => tie = Some(r.span),
                MatchRuleKind::Referee { option, word } => {
                    self.referee(file, option, word);
                }
                MatchRuleKind::MatchClock(q) => {
                    self.game.match_clock = Some(self.amount(q, Must::Positive("the match clock")));
                }
                MatchRuleKind::TurnClock(q) => {
                    self.game.turn_clock = Some(self.amount(q, Must::Positive("the turn clock")));
                }
            }
        }
        if let Some(span) = tie.filter(|_| self.game.after.is_none()) {
            self.c.report(TableError::TieWithoutAfter { span });
        }
    }

    fn steps(&mut self, steps: &[ast::TurnStep]) -> Vec<Step> {
        steps
            .iter()
            .map(|s| match &s.kind {
                TurnStepKind::Draw { to, count } => Step::Draw {
                    to: *to,
                    count: self.amount(count, Must::Count("the number of cards drawn")),
                },
                TurnStepKind::PlayEachCard => Step::PlayEachCard,
                TurnStepKind::Shot { kinds, shot } => Step::Shot {
                    discs: kinds.iter().filter_map(|k| self.disc(k)).collect(),
                    shot: self.shot(shot),
                },
                TurnStepKind::If {
                    cond,
                    then,
                    otherwise,
                } => Step::If {
                    cond: self.condition(cond),
                    then: self.steps(then),
                    otherwise: self.steps(otherwise),
                },
            })
            .collect()
    }

    fn condition(&mut self, cond: &[ast::TableCmp]) -> Vec<Compare<Amount>> {
        cond.iter()
            .filter_map(|c| {
                let left = self.term(&c.left)?;
                let right = self.term(&c.right)?;
                Some(Compare {
                    left,
                    op: crate::operators::cmp_op(c.op)?,
                    right,
                })
            })
            .collect()
    }

    fn term(&mut self, t: &TableTerm) -> Option<Term<Amount>> {
        match t {
            TableTerm::Number(v, _) => Some(Term::Amount(Amount::Value(*v))),
            TableTerm::Opponent(id) => self.measure(id, true).map(Term::Theirs),
            TableTerm::Name(id) => {
                if let Some(m) = Measure::named(&id.name) {
                    return Some(Term::Mine(m));
                }
                match self.names.get(&id.name).map(|n| n.0) {
                    Some(Name::Param(i)) => Some(Term::Amount(Amount::Param(i))),
                    Some(_) => {
                        self.wrong(id, "a quantity", QUANTITIES);
                        None
                    }
                    None => {
                        self.unknown_quantity(id);
                        None
                    }
                }
            }
        }
    }

    /// E0101 for a name that is no quantity, suggesting the nearest one.
    fn unknown_quantity(&mut self, id: &Ident) {
        const NAMES: [&str; 7] = [
            "shots", "turns", "captures", "points", "stones", "hand", "deck",
        ];
        let help = super::suggest::closest(&id.name, NAMES.to_vec()).map_or_else(
            || QUANTITIES.to_string(),
            |s| format!("did you mean `{s}`?"),
        );
        self.c.report(ResolveError::UnknownName {
            name: id.name.clone(),
            span: id.span,
            help: Some(help),
        });
    }

    /// A quantity's name; with `per_player`, one each player has.
    fn measure(&mut self, id: &Ident, per_player: bool) -> Option<Measure> {
        let Some(m) = Measure::named(&id.name) else {
            self.unknown_quantity(id);
            return None;
        };
        if per_player && !m.per_player() {
            self.c.report(TableError::NotPerPlayer {
                name: id.name.clone(),
                span: id.span,
                help: "compare the players by `captures`, `points`, `stones`, `hand` or `deck`"
                    .into(),
            });
            return None;
        }
        Some(m)
    }

    /// After everything is resolved: a `basic` shot needs `basic shot up to`.
    fn basic_needs_speed(&mut self, file: &ast::File) {
        if self.game.basic_speed.is_some() {
            return;
        }
        fn in_steps(steps: &[ast::TurnStep]) -> Option<Span> {
            steps.iter().find_map(|s| match &s.kind {
                TurnStepKind::Shot {
                    shot: ShotKind::Basic(span),
                    ..
                } => Some(*span),
                TurnStepKind::If {
                    then, otherwise, ..
                } => in_steps(then).or_else(|| in_steps(otherwise)),
                _ => None,
            })
        }
        let first = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Table(TableItem::Card(c)) => match c.shot {
                ShotKind::Basic(span) => Some(span),
                ShotKind::Power(_) => None,
            },
            ItemKind::Table(TableItem::Turn(steps)) => in_steps(steps),
            _ => None,
        });
        if let Some(span) = first {
            self.c.report(TableError::NoBasicSpeed { span });
        }
    }
}

/// What a condition may compare.
const QUANTITIES: &str = "a condition compares numbers, parameters and the quantities `shots`, `turns`, `captures`, `points`, `stones`, `hand` and `deck` (`opponent captures`: the other player's)";

/// Whether the steps hold a shot or the playing of cards.
fn shoots(steps: &[Step]) -> bool {
    steps.iter().any(|s| match s {
        Step::Shot { .. } | Step::PlayEachCard => true,
        Step::If {
            then, otherwise, ..
        } => shoots(then) || shoots(otherwise),
        Step::Draw { .. } => false,
    })
}

/// The declarations a table game has at most once.
fn once_name(item: &TableItem) -> Option<&'static str> {
    match item {
        TableItem::Table { .. } => Some("table"),
        TableItem::ArmyRules(_) => Some("army rules"),
        TableItem::Setup(_) => Some("setup table"),
        TableItem::Turn(_) => Some("table turn"),
        TableItem::BasicShot(_) => Some("basic shot"),
        TableItem::AimNoise(_) => Some("aim noise"),
        TableItem::Points(_) => Some("points"),
        TableItem::Capture(_) => Some("capture"),
        TableItem::Match(_) => Some("match"),
        _ => None,
    }
}
