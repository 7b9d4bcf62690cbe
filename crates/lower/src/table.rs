//! Table games lowered for one set of option and parameter values: every amount is a number,
//! every name an index, and the armies are resolved to decks of card indices.

use rulestone_check::consteval::{Const, ConstEnv};
use rulestone_check::table::{Amount, Event, Shot, Step, TableGame};
use rulestone_ir::table::{
    Army, Card, Compare, DiscKind, Effect, Line, Op, Penalty, PhysicsConstants, TableProgram, Term,
};
use rulestone_syntax::ast::{self, Physics};

/// Lowers a checked table game for these parameter and option values.
///
/// The values that must be positive are checked in a fixed order (physics, discs, the basic
/// shot, the table's size), so the same bad game always gives the same message.
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
    let physics = physics_constants(game, params)?;
    let lines = lines(game, params);
    let discs = discs(game, params)?;
    let basic = match game.basic_speed {
        Some(_) => positive(game, params, game.basic_speed, "the basic shot's speed")?,
        None => 0.0,
    };
    let shot_speed = |s: Shot| match s {
        Shot::Basic => basic,
        Shot::Power(a) => v(a),
    };
    let to_count = |a: Option<Amount>| {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        a.map(|a| v(a).round().max(0.0) as u32)
    };
    let mut program = TableProgram {
        name: name.to_string(),
        players: game.players.clone(),
        settings: settings(options),
        length: positive(game, params, game.length, "the table's length")?,
        width: positive(game, params, game.width, "the table's width")?,
        physics,
        walls: game.walls.iter().map(|(a, at)| (*a, v(*at))).collect(),
        lines,
        homes: game.homes.clone(),
        discs,
        factions: game.factions.clone(),
        cards: game
            .cards
            .iter()
            .map(|c| Card {
                name: c.name.clone(),
                faction: c.faction,
                disc: c.disc,
                max_speed: shot_speed(c.shot),
                by_hand: c.by_hand,
            })
            .collect(),
        armies: Vec::new(),
        setup: game.setup.clone(),
        aim_noise: game.aim_noise.map_or(0.0, v),
        steps: Vec::new(),
        points: game
            .points
            .iter()
            .map(|(r, n)| (game.lines.len() + r, *n))
            .collect(),
        over_wall_shot: effect_of(game, Event::OverWallShot),
        over_wall_knocked: effect_of(game, Event::OverWallKnocked),
        off_table: effect_of(game, Event::OffTable),
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
        penalties: penalties(game),
        referee: referee_on(game, options),
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

/// An amount that must be positive and finite; a missing one counts as 0, so it fails too.
fn positive(
    game: &TableGame,
    params: &[f64],
    a: Option<Amount>,
    what: &str,
) -> Result<f64, String> {
    let x = a.map_or(0.0, |a| game.value(a, params));
    if x > 0.0 && x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{what} must be greater than 0, not {x}"))
    }
}

/// The physics constants, the table's overriding the defaults; friction, time step and the
/// speed over a wall must be positive.
fn physics_constants(game: &TableGame, params: &[f64]) -> Result<PhysicsConstants, String> {
    let mut physics = PhysicsConstants::default();
    for (c, a) in &game.physics {
        let x = game.value(*a, params);
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
    Ok(physics)
}

/// What a capture rule does on event `e`, if any rule names it (the first one wins).
fn effect_of(game: &TableGame, e: Event) -> Option<Effect> {
    game.captures
        .iter()
        .find(|(ev, _)| *ev == e)
        .map(|(_, f)| *f)
}

/// The table's lines, each with its capture on crossing. Regions come after the lines, as
/// their boundaries crossed one way.
fn lines(game: &TableGame, params: &[f64]) -> Vec<Line> {
    let v = |a: Amount| game.value(a, params);
    game.lines
        .iter()
        .enumerate()
        .map(|(i, (n, axis, at))| Line {
            name: n.clone(),
            axis: *axis,
            at: v(*at),
            capture: effect_of(game, Event::Cross(i)),
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
                    capture: effect_of(game, Event::Enter(i)),
                    only: Some(*greater),
                }),
        )
        .collect()
}

/// The disc kinds; a disc without a mass weighs its radius squared, and every radius and
/// mass must be positive.
fn discs(game: &TableGame, params: &[f64]) -> Result<Vec<DiscKind>, String> {
    let v = |a: Amount| game.value(a, params);
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
    Ok(discs)
}

/// The option values the program was lowered with, sorted by name, for display; a word option
/// set to its own name is left out.
fn settings(options: &ConstEnv) -> Vec<(String, String)> {
    let mut settings: Vec<(String, String)> = options
        .values
        .iter()
        .filter_map(|(k, c)| match c {
            Const::Int(i) => Some((k.clone(), i.to_string())),
            Const::Decimal(i) => Some((k.clone(), rulestone_syntax::ast::decimal_text(*i))),
            Const::Word(w) if w != k => Some((k.clone(), w.clone())),
            _ => None,
        })
        .collect();
    settings.sort();
    settings
}

/// The penalties, as the program states them to the players.
fn penalties(game: &TableGame) -> Vec<Penalty> {
    game.penalties
        .iter()
        .map(|p| Penalty {
            name: p.name.clone(),
            text: p.text.clone(),
            warnings: p.warnings,
        })
        .collect()
}

/// Whether the game's referee option is set to the word that turns the referee on.
fn referee_on(game: &TableGame, options: &ConstEnv) -> bool {
    game.referee
        .as_ref()
        .is_some_and(|(o, w)| matches!(options.values.get(o), Some(Const::Word(x)) if x == w))
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
