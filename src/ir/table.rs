//! Table games lowered for one set of option and parameter values: every amount is a number,
//! every name an index, and the armies are resolved to decks of card indices.

use crate::check::consteval::{Const, ConstEnv};
use crate::check::table::{Amount, Event, Shot, Step, TableGame};
pub use crate::check::table::{Axis, Compare, Effect, Measure, Placement, Term};
use crate::syntax::ast::{self, BinaryOp, Physics};

/// The physical constants of a table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhysicsConstants {
    pub friction: f64,
    pub stone_restitution: f64,
    pub wall_restitution: f64,
    pub wall_jump_speed: f64,
    pub time_step: f64,
}

impl Default for PhysicsConstants {
    fn default() -> Self {
        PhysicsConstants {
            friction: 20.0,
            stone_restitution: 0.9,
            wall_restitution: 0.6,
            wall_jump_speed: 40.0,
            time_step: 0.004,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Line {
    pub name: String,
    pub axis: Axis,
    pub at: f64,
    /// What happens to a stone whose centre crosses it (it leaves the table then).
    pub capture: Option<Effect>,
    /// A region's boundary: the capture applies only crossing into the region, towards larger
    /// (`Some(true)`) or smaller coordinates.
    pub only: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct DiscKind {
    pub name: String,
    pub letter: String,
    pub radius: f64,
    pub mass: f64,
    /// Written without a number: the army rules allow one per army.
    pub single: bool,
}

#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    pub faction: usize,
    pub disc: usize,
    pub max_speed: f64,
    pub by_hand: bool,
}

/// A player's army: factions, stones per disc kind, and the deck in the order written.
#[derive(Clone, Debug)]
pub struct Army {
    pub name: String,
    pub factions: Vec<usize>,
    pub stones: Vec<u32>,
    pub deck: Vec<usize>,
}

/// A step of the turn program, flattened: conditions jump.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Draw `count` cards, or (`to`) until the hand holds `count`.
    Draw { to: bool, count: u32 },
    /// Every card in hand is played or set aside, in any order.
    PlayEachCard,
    /// A shot without a card (`free` in notation) with a stone of one of these kinds.
    Shot { discs: Vec<usize>, max_speed: f64 },
    /// Go on at this step unless the condition holds.
    Unless(Vec<Compare<f64>>, usize),
    /// Go on at this step.
    Jump(usize),
}

#[derive(Clone, Debug)]
pub struct Penalty {
    pub name: String,
    pub text: String,
    pub warnings: u32,
}

/// A table game ready to run.
#[derive(Clone, Debug)]
pub struct TableProgram {
    pub name: String,
    pub players: Vec<String>,
    /// Option and parameter values, for display and records.
    pub settings: Vec<(String, String)>,
    pub length: f64,
    pub width: f64,
    pub physics: PhysicsConstants,
    pub walls: Vec<(Axis, f64)>,
    pub lines: Vec<Line>,
    /// Per player: the home line.
    pub homes: Vec<Option<usize>>,
    pub discs: Vec<DiscKind>,
    pub factions: Vec<String>,
    pub cards: Vec<Card>,
    /// The armies the game file declares (used when none is given).
    pub armies: Vec<Army>,
    pub setup: Vec<Placement>,
    pub aim_noise: f64,
    /// The turn program.
    pub steps: Vec<Op>,
    /// Index into `lines` (a region), points.
    pub points: Vec<(usize, u32)>,
    pub over_wall_shot: Option<Effect>,
    pub over_wall_knocked: Option<Effect>,
    pub off_table: Option<Effect>,
    /// `win when`: a player for whom one of these holds wins.
    pub wins: Vec<Vec<Compare<f64>>>,
    /// After this many turns the player with more of the quantity wins.
    pub after: Option<(u32, Measure)>,
    /// Level then: sudden death for this many turns, then a draw.
    pub sudden_death: Option<u32>,
    pub turn_clock: Option<f64>,
    /// Seconds for the whole match on a real clock; then it ends as after the last turn.
    pub match_clock: Option<f64>,
    pub penalties: Vec<Penalty>,
    pub referee: bool,
    /// The army rules say the players' factions differ.
    pub factions_differ: bool,
}

impl TableProgram {
    #[must_use]
    pub fn card(&self, name: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.name == name)
    }

    /// The turns of the match before its end (and any sudden death).
    #[must_use]
    pub fn turns(&self) -> Option<u32> {
        self.after.map(|(t, _)| t)
    }

    /// The match's rules as the game text writes them: `win when ...`, `after N turns: most Q`,
    /// `tie: ...` (what `info` shows).
    #[must_use]
    pub fn match_rules(&self) -> Vec<String> {
        let mut rules: Vec<String> = self
            .wins
            .iter()
            .map(|all| {
                let parts: Vec<String> = all.iter().map(ToString::to_string).collect();
                format!("win when {}", parts.join(" and "))
            })
            .collect();
        if let Some((turns, most)) = self.after {
            rules.push(format!("after {turns} turns: most {}", most.name()));
            rules.push(match self.sudden_death {
                Some(n) => format!("tie: sudden death for {n} turns"),
                None => "tie: draw".to_string(),
            });
        }
        rules
    }

    /// The captures that win at once, when a rule says just that (`win when captures >= N`).
    #[must_use]
    pub fn captures_to_win(&self) -> Option<u32> {
        self.wins.iter().find_map(|w| match w.as_slice() {
            [Compare {
                left: Term::Mine(Measure::Captures),
                op: BinaryOp::Ge,
                right: Term::Amount(n),
            }] =>
            {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                Some(n.max(0.0).ceil() as u32)
            }
            _ => None,
        })
    }
}

/// Lowers a checked table game for these parameter and option values.
///
/// # Errors
/// A value that makes the game meaningless (e.g. a negative radius set with `--set`).
pub fn lower(
    name: &str,
    game: &TableGame,
    params: &[f64],
    options: &ConstEnv,
) -> Result<TableProgram, String> {
    let v = |a: Amount| game.value(a, params);
    let positive = |a: Option<Amount>, what: &str| -> Result<f64, String> {
        let x = a.map_or(0.0, v);
        if x > 0.0 && x.is_finite() {
            Ok(x)
        } else {
            Err(format!("{what} must be greater than 0, not {x}"))
        }
    };
    let mut physics = PhysicsConstants::default();
    for (c, a) in &game.physics {
        let x = v(*a);
        match c {
            Physics::Friction => physics.friction = x,
            Physics::StoneRestitution => physics.stone_restitution = x,
            Physics::WallRestitution => physics.wall_restitution = x,
            Physics::WallJumpSpeed => physics.wall_jump_speed = x,
            Physics::TimeStep => physics.time_step = x,
        }
    }
    if !(physics.friction > 0.0 && physics.time_step > 0.0 && physics.wall_jump_speed > 0.0) {
        return Err("friction, time step and the speed over a wall must be greater than 0".into());
    }
    let effect_of = |e: Event| {
        game.captures
            .iter()
            .find(|(ev, _)| *ev == e)
            .map(|(_, f)| *f)
    };
    // Regions come after the lines, as their boundaries crossed one way.
    let lines = game
        .lines
        .iter()
        .enumerate()
        .map(|(i, (n, axis, at))| Line {
            name: n.clone(),
            axis: *axis,
            at: v(*at),
            capture: effect_of(Event::Cross(i)),
            only: None,
        })
        .chain(
            game.regions
                .iter()
                .enumerate()
                .map(|(i, (n, axis, at, greater))| Line {
                    name: n.clone(),
                    axis: *axis,
                    at: v(*at),
                    capture: effect_of(Event::Enter(i)),
                    only: Some(*greater),
                }),
        )
        .collect();
    let discs = game
        .discs
        .iter()
        .map(|d| {
            let radius = v(d.radius);
            DiscKind {
                name: d.name.clone(),
                letter: d.letter.clone(),
                radius,
                mass: d.mass.map_or(radius * radius, v),
                single: d.single,
            }
        })
        .collect::<Vec<_>>();
    if discs.iter().any(|d| !(d.radius > 0.0 && d.mass > 0.0)) {
        return Err("every disc's radius and mass must be greater than 0".into());
    }
    let basic = match game.basic_speed {
        Some(_) => positive(game.basic_speed, "the basic shot's speed")?,
        None => 0.0,
    };
    let shot_speed = |s: Shot| match s {
        Shot::Basic => basic,
        Shot::Power(a) => v(a),
    };
    let cards = game
        .cards
        .iter()
        .map(|c| Card {
            name: c.name.clone(),
            faction: c.faction,
            disc: c.disc,
            max_speed: shot_speed(c.shot),
            by_hand: c.by_hand,
        })
        .collect();
    let to_count = |a: Option<Amount>| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        a.map(|a| v(a).round().max(0.0) as u32)
    };
    let mut settings: Vec<(String, String)> = options
        .values
        .iter()
        .filter_map(|(k, c)| match c {
            Const::Int(i) => Some((k.clone(), i.to_string())),
            Const::Decimal(i) => Some((k.clone(), crate::syntax::ast::decimal_text(*i))),
            Const::Word(w) if w != k => Some((k.clone(), w.clone())),
            _ => None,
        })
        .collect();
    settings.sort();
    let referee = game
        .referee
        .as_ref()
        .is_some_and(|(o, w)| matches!(options.values.get(o), Some(Const::Word(x)) if x == w));
    let mut program = TableProgram {
        name: name.to_string(),
        players: game.players.clone(),
        settings,
        length: positive(game.length, "the table's length")?,
        width: positive(game.width, "the table's width")?,
        physics,
        walls: game.walls.iter().map(|(a, at)| (*a, v(*at))).collect(),
        lines,
        homes: game.homes.clone(),
        discs,
        factions: game.factions.clone(),
        cards,
        armies: Vec::new(),
        setup: game.setup.clone(),
        aim_noise: game.aim_noise.map_or(0.0, v),
        steps: Vec::new(),
        points: game
            .points
            .iter()
            .map(|(r, n)| (game.lines.len() + r, *n))
            .collect(),
        over_wall_shot: effect_of(Event::OverWallShot),
        over_wall_knocked: effect_of(Event::OverWallKnocked),
        off_table: effect_of(Event::OffTable),
        wins: game
            .wins
            .iter()
            .map(|c| condition(game, params, c))
            .collect(),
        after: game
            .after
            .and_then(|(t, m)| to_count(Some(t)).map(|t| (t, m))),
        sudden_death: to_count(game.sudden_death),
        turn_clock: game.turn_clock.map(v),
        match_clock: game.match_clock.map(v),
        penalties: game
            .penalties
            .iter()
            .map(|p| Penalty {
                name: p.name.clone(),
                text: p.text.clone(),
                warnings: p.warnings,
            })
            .collect(),
        referee,
        factions_differ: game.rules.factions_differ.is_some(),
    };
    flatten(game, params, &game.steps, &shot_speed, &mut program.steps);
    program.armies = game
        .armies
        .iter()
        .filter_map(|a| resolve_army(&program, a).ok())
        .collect();
    Ok(program)
}

/// A condition with its amounts valued.
fn condition(game: &TableGame, params: &[f64], c: &[Compare<Amount>]) -> Vec<Compare<f64>> {
    let term = |t: Term<Amount>| match t {
        Term::Amount(a) => Term::Amount(game.value(a, params)),
        Term::Mine(m) => Term::Mine(m),
        Term::Theirs(m) => Term::Theirs(m),
    };
    c.iter()
        .map(|c| Compare {
            left: term(c.left),
            op: c.op,
            right: term(c.right),
        })
        .collect()
}

/// Appends the steps to `out`, conditions as jumps; `speed` values a shot.
fn flatten(
    game: &TableGame,
    params: &[f64],
    steps: &[Step],
    speed: &dyn Fn(Shot) -> f64,
    out: &mut Vec<Op>,
) {
    for s in steps {
        match s {
            Step::Draw { to, count } => {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let count = game.value(*count, params).round().max(0.0) as u32;
                out.push(Op::Draw { to: *to, count });
            }
            Step::PlayEachCard => out.push(Op::PlayEachCard),
            Step::Shot { discs, shot } => out.push(Op::Shot {
                discs: discs.clone(),
                max_speed: speed(*shot),
            }),
            Step::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = condition(game, params, cond);
                let test = out.len();
                out.push(Op::Jump(0));
                flatten(game, params, then, speed, out);
                if otherwise.is_empty() {
                    out[test] = Op::Unless(cond, out.len());
                } else {
                    let jump = out.len();
                    out.push(Op::Jump(0));
                    out[test] = Op::Unless(cond, out.len());
                    flatten(game, params, otherwise, speed, out);
                    out[jump] = Op::Jump(out.len());
                }
            }
        }
    }
}

/// An army with its names resolved. Its rules are `check::deck`'s business; this only fails
/// on names the program does not know.
///
/// # Errors
/// The first unknown name.
pub fn resolve_army(program: &TableProgram, army: &ast::Army) -> Result<Army, String> {
    let mut factions = Vec::new();
    for f in &army.factions {
        let i = program
            .factions
            .iter()
            .position(|x| *x == f.name)
            .ok_or_else(|| format!("unknown faction `{}`", f.name))?;
        factions.push(i);
    }
    let mut stones = vec![0; program.discs.len()];
    for (kind, n, _) in &army.stones {
        let i = program
            .discs
            .iter()
            .position(|d| d.name == kind.name)
            .ok_or_else(|| format!("unknown stone kind `{}`", kind.name))?;
        stones[i] += n;
    }
    let mut deck = Vec::new();
    for (card, n, _) in &army.cards {
        let i = program
            .card(&card.name)
            .ok_or_else(|| format!("unknown card `{}`", card.name))?;
        deck.extend(std::iter::repeat_n(i, *n as usize));
    }
    Ok(Army {
        name: army.name.name.clone(),
        factions,
        stones,
        deck,
    })
}
