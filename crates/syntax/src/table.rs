//! Pest pairs → AST for the declarations of table games, and the parser of deck files.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::{
    Army, ArmyRule, ArmyRuleKind, AxisAt, BinaryOp, Bound, CaptureEffect, CaptureEvent,
    CaptureRule, CardDecl, MatchRule, MatchRuleKind, Physics, Quantity, Region, SetupPlace,
    ShotKind, TableCmp, TableItem, TableTerm, TurnStep, TurnStepKind,
};
use super::error::SyntaxError;
use super::from_pairs::{from_pest, ident, int, meaningful, need, span, string, unclosed};
use super::parser::{GameParser, Rule};
use super::span::Span;

type Result<T> = std::result::Result<T, SyntaxError>;

/// The table-game declaration `rule`, from its meaningful children; `None` if `rule` is not one.
/// A short dispatcher: declarations with nested members have their own helper below.
pub(super) fn item<'a>(
    rule: Rule,
    item_span: Span,
    inner: &mut dyn Iterator<Item = Pair<'a, Rule>>,
) -> Result<Option<TableItem>> {
    let mut next = || need(inner.next());
    let item = match rule {
        Rule::param_decl => {
            let name = ident(&next()?);
            let v = next()?;
            TableItem::Param {
                name,
                value: decimal(&v)?,
                value_span: span(&v),
            }
        }
        Rule::table_decl => table_decl(&mut next)?,
        Rule::home_decl => TableItem::Home {
            player: ident(&next()?),
            line: ident(&next()?),
        },
        Rule::disc_decl => {
            let name = ident(&next()?);
            let letter = string(&next()?)?;
            let radius = quantity(next()?)?;
            let mass = next().ok().map(quantity).transpose()?;
            TableItem::Disc {
                name,
                letter,
                radius,
                mass,
            }
        }
        Rule::faction_decl => TableItem::Factions(each(&mut next, |p| Ok(ident(&p)))?),
        Rule::card_decl => {
            let name = ident(&next()?);
            let faction = ident(&next()?);
            let disc = ident(&next()?);
            let shot = shot_kind(next()?)?;
            let by_hand = next().is_ok();
            TableItem::Card(CardDecl {
                name,
                faction,
                disc,
                shot,
                by_hand,
            })
        }
        Rule::army_rules_decl => TableItem::ArmyRules(each(&mut next, army_rule)?),
        Rule::army_decl => TableItem::Army(army_body(item_span, &mut next)?),
        Rule::table_setup_decl => TableItem::Setup(each(&mut next, |p| setup_place(p, item_span))?),
        Rule::table_turn_decl => TableItem::Turn(steps(next()?)?),
        Rule::basic_shot_decl => TableItem::BasicShot(quantity(next()?)?),
        Rule::aim_noise_decl => TableItem::AimNoise(quantity(next()?)?),
        Rule::points_decl => TableItem::Points(each(&mut next, |p| {
            let mut it = meaningful(p.into_inner());
            let region = ident(&need(it.next())?);
            Ok((region, count(&need(it.next())?)?))
        })?),
        Rule::capture_decl => TableItem::Capture(each(&mut next, capture_rule)?),
        Rule::match_decl => TableItem::Match(each(&mut next, match_rule)?),
        Rule::penalty_decl => {
            let name = ident(&next()?);
            let (text, _) = string(&next()?)?;
            let w = next()?;
            TableItem::Penalty {
                name,
                text,
                warnings: u32::try_from(int(&w)?).unwrap_or(0),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(item))
}

/// `parse` applied to each remaining child, in order; the first error stops it.
fn each<'a, T>(
    next: &mut impl FnMut() -> Result<Pair<'a, Rule>>,
    mut parse: impl FnMut(Pair<'a, Rule>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut out = Vec::new();
    while let Ok(p) = next() {
        out.push(parse(p)?);
    }
    Ok(out)
}

/// `table LENGTH by WIDTH { … }`: the members are physics constants, walls, regions and named
/// lines, each gathered into its own list in source order.
fn table_decl<'a>(next: &mut impl FnMut() -> Result<Pair<'a, Rule>>) -> Result<TableItem> {
    let length = quantity(next()?)?;
    let width = quantity(next()?)?;
    let mut walls = Vec::new();
    let mut lines = Vec::new();
    let mut physics = Vec::new();
    let mut regions = Vec::new();
    while let Ok(p) = next() {
        let rule = p.as_rule();
        if let Some(c) = physics_constant(rule) {
            let mut qs = meaningful(p.into_inner());
            physics.push((c, quantity(need(qs.next())?)?));
            if c == Physics::StoneRestitution {
                physics.push((Physics::WallRestitution, quantity(need(qs.next())?)?));
            }
            continue;
        }
        match rule {
            Rule::table_region_decl => regions.push(table_region(p)?),
            Rule::wall_decl => walls.push(axis_at(need(meaningful(p.into_inner()).next())?)?),
            _ => {
                let mut it = meaningful(p.into_inner());
                let name = ident(&need(it.next())?);
                lines.push((name, axis_at(need(it.next())?)?));
            }
        }
    }
    Ok(TableItem::Table {
        length,
        width,
        physics,
        walls,
        lines,
        regions,
    })
}

/// The physics constant a table member sets, if it is one; restitution sets two (stones, then
/// walls).
fn physics_constant(rule: Rule) -> Option<Physics> {
    match rule {
        Rule::table_friction => Some(Physics::Friction),
        Rule::table_restitution => Some(Physics::StoneRestitution),
        Rule::table_jump => Some(Physics::WallJumpSpeed),
        Rule::table_step => Some(Physics::TimeStep),
        _ => None,
    }
}

/// A table region: a name, an axis and a position on it; a `>` in its text makes it the side
/// greater than the position.
fn table_region(p: Pair<'_, Rule>) -> Result<Region> {
    let greater = p.as_str().contains('>');
    let mut it = meaningful(p.into_inner());
    let name = ident(&need(it.next())?);
    let axis = ident(&need(it.next())?);
    let q = it.find(|q| q.as_rule() == Rule::quantity);
    let at = quantity(need(q)?)?;
    Ok(Region {
        name,
        at: AxisAt { axis, at },
        greater,
    })
}

/// One setup placement: kinds of discs, then the line they go on (the last name), optionally
/// `alternating`.
fn setup_place(p: Pair<'_, Rule>, item_span: Span) -> Result<SetupPlace> {
    let alternating = p.as_str().trim_end().ends_with("alternating");
    let mut names: Vec<_> = meaningful(p.into_inner()).map(|q| ident(&q)).collect();
    let line = names.pop().ok_or_else(|| missing(item_span))?;
    Ok(SetupPlace {
        kinds: names,
        line,
        alternating,
    })
}

/// One rule of a `match { … }` block. The match clock and the turn clock share a rule, told
/// apart by the word `match` in the text.
fn match_rule(p: Pair<'_, Rule>) -> Result<MatchRule> {
    let rule_span = span(&p);
    let r = need(p.into_inner().next())?;
    let rule = r.as_rule();
    let text = r.as_str().to_string();
    let mut qs = meaningful(r.into_inner());
    let q = qs.next();
    let kind = match rule {
        Rule::match_referee => {
            let option = ident(&need(q)?);
            let word = qs.find(|p| p.as_rule() == Rule::ident);
            MatchRuleKind::Referee {
                option,
                word: ident(&need(word)?),
            }
        }
        Rule::match_win => MatchRuleKind::Win(condition(need(q)?)?),
        Rule::match_after => MatchRuleKind::After {
            turns: quantity(need(q)?)?,
            most: ident(&need(qs.find(|p| p.as_rule() == Rule::ident))?),
        },
        Rule::match_tie => match q {
            Some(t) if t.as_rule() == Rule::tie_sudden => {
                MatchRuleKind::SuddenDeath(quantity(need(meaningful(t.into_inner()).next())?)?)
            }
            _ => MatchRuleKind::TieDraw,
        },
        Rule::match_clock if text.contains("match") => {
            MatchRuleKind::MatchClock(quantity(need(q)?)?)
        }
        _ => MatchRuleKind::TurnClock(quantity(need(q)?)?),
    };
    Ok(MatchRule {
        kind,
        span: rule_span,
    })
}

fn missing(at: Span) -> SyntaxError {
    SyntaxError::Unexpected {
        expected: "more input".into(),
        span: at.into(),
        found: "end of construct".into(),
    }
}

fn decimal(pair: &Pair<'_, Rule>) -> Result<f64> {
    pair.as_str()
        .parse::<f64>()
        .map_err(|_| SyntaxError::NumberTooLarge {
            text: pair.as_str().to_string(),
            span: span(pair).into(),
        })
}

fn quantity(pair: Pair<'_, Rule>) -> Result<Quantity> {
    let inner = need(pair.into_inner().next())?;
    if inner.as_rule() == Rule::decimal {
        Ok(Quantity::Number(decimal(&inner)?, span(&inner)))
    } else {
        Ok(Quantity::Param(ident(&inner)))
    }
}

fn axis_at(pair: Pair<'_, Rule>) -> Result<AxisAt> {
    let mut it = meaningful(pair.into_inner());
    let axis = ident(&need(it.next())?);
    let at = quantity(need(it.next())?)?;
    Ok(AxisAt { axis, at })
}

fn shot_kind(pair: Pair<'_, Rule>) -> Result<ShotKind> {
    let s = span(&pair);
    match meaningful(pair.into_inner()).next() {
        Some(q) => Ok(ShotKind::Power(quantity(q)?)),
        None => Ok(ShotKind::Basic(s)),
    }
}

fn count(pair: &Pair<'_, Rule>) -> Result<u32> {
    Ok(u32::try_from(int(pair)?).unwrap_or(u32::MAX))
}

fn bound(pair: Pair<'_, Rule>) -> Result<Bound> {
    let text = pair.as_str().to_string();
    let numbers: Vec<u32> = meaningful(pair.into_inner())
        .map(|p| count(&p))
        .collect::<Result<_>>()?;
    let first = numbers.first().copied();
    Ok(if text.starts_with("exactly") {
        Bound {
            min: first,
            max: first,
        }
    } else if text.contains("least") {
        Bound {
            min: first,
            max: None,
        }
    } else if text.contains("most") {
        Bound {
            min: None,
            max: first,
        }
    } else {
        Bound {
            min: first,
            max: numbers.get(1).copied(),
        }
    })
}

fn army_rule(pair: Pair<'_, Rule>) -> Result<ArmyRule> {
    let rule_span = span(&pair);
    let r = need(pair.into_inner().next())?;
    let rule = r.as_rule();
    let mut it = meaningful(r.into_inner());
    let kind = match rule {
        Rule::rule_stones => ArmyRuleKind::Stones(bound(need(it.next())?)?),
        Rule::rule_cards => ArmyRuleKind::Cards(bound(need(it.next())?)?),
        Rule::rule_copies => ArmyRuleKind::Copies(bound(need(it.next())?)?),
        Rule::rule_card_each => ArmyRuleKind::CardForEachKind,
        Rule::rule_factions_differ => ArmyRuleKind::FactionsDiffer,
        Rule::rule_factions => ArmyRuleKind::Factions(bound(need(it.next())?)?),
        _ => {
            let kind = ident(&need(it.next())?);
            ArmyRuleKind::Kind(kind, bound(need(it.next())?)?)
        }
    };
    Ok(ArmyRule {
        kind,
        span: rule_span,
    })
}

fn counted_list(pair: Pair<'_, Rule>) -> Result<Vec<(super::Ident, u32, Span)>> {
    meaningful(pair.into_inner())
        .map(|c| {
            let s = span(&c);
            let mut it = meaningful(c.into_inner());
            let name = ident(&need(it.next())?);
            let n = count(&need(it.next())?)?;
            Ok((name, n, s))
        })
        .collect()
}

fn army_body<'a>(
    army_span: Span,
    next: &mut dyn FnMut() -> Result<Pair<'a, Rule>>,
) -> Result<Army> {
    let name = ident(&next()?);
    let mut part = next()?;
    let mut factions = Vec::new();
    if part.as_rule() == Rule::army_factions {
        factions = meaningful(part.into_inner()).map(|p| ident(&p)).collect();
        part = next()?;
    }
    let stones = counted_list(part)?;
    let cards = match next() {
        Ok(p) => counted_list(p)?,
        Err(_) => Vec::new(),
    };
    Ok(Army {
        name,
        factions,
        stones,
        cards,
        span: army_span,
    })
}

/// The steps of a `step_block`.
fn steps(block: Pair<'_, Rule>) -> Result<Vec<TurnStep>> {
    meaningful(block.into_inner()).map(step).collect()
}

fn step(pair: Pair<'_, Rule>) -> Result<TurnStep> {
    let step_span = span(&pair);
    let rule = pair.as_rule();
    let to = pair
        .clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::kw_to);
    let mut it = meaningful(pair.into_inner());
    let kind = match rule {
        Rule::step_draw => TurnStepKind::Draw {
            to,
            count: quantity(need(it.next())?)?,
        },
        Rule::step_play => TurnStepKind::PlayEachCard,
        Rule::step_shot => {
            let mut kinds = Vec::new();
            let mut shot = None;
            for p in it {
                match p.as_rule() {
                    Rule::ident => kinds.push(ident(&p)),
                    Rule::shot_kind => shot = Some(shot_kind(p)?),
                    _ => {}
                }
            }
            TurnStepKind::Shot {
                kinds,
                shot: shot.ok_or_else(|| missing(step_span))?,
            }
        }
        _ => {
            let cond = condition(need(it.next())?)?;
            let then = steps(need(it.next())?)?;
            let otherwise = match it.next() {
                Some(p) if p.as_rule() == Rule::step_if => vec![step(p)?],
                Some(p) => steps(p)?,
                None => Vec::new(),
            };
            TurnStepKind::If {
                cond,
                then,
                otherwise,
            }
        }
    };
    Ok(TurnStep {
        kind,
        span: step_span,
    })
}

/// A `table_cond`: its comparisons.
fn condition(pair: Pair<'_, Rule>) -> Result<Vec<TableCmp>> {
    meaningful(pair.into_inner())
        .filter(|p| p.as_rule() == Rule::table_cmp)
        .map(|c| {
            let mut it = meaningful(c.into_inner());
            let left = term(need(it.next())?)?;
            let op = match need(it.next())?.as_str() {
                "==" => BinaryOp::Eq,
                "!=" => BinaryOp::Ne,
                "<=" => BinaryOp::Le,
                ">=" => BinaryOp::Ge,
                "<" => BinaryOp::Lt,
                _ => BinaryOp::Gt,
            };
            let right = term(need(it.next())?)?;
            Ok(TableCmp { left, op, right })
        })
        .collect()
}

fn term(pair: Pair<'_, Rule>) -> Result<TableTerm> {
    let inner = need(pair.into_inner().next())?;
    Ok(match inner.as_rule() {
        Rule::decimal => TableTerm::Number(decimal(&inner)?, span(&inner)),
        Rule::opponent_term => {
            TableTerm::Opponent(ident(&need(meaningful(inner.into_inner()).next())?))
        }
        _ => TableTerm::Name(ident(&inner)),
    })
}

fn capture_rule(pair: Pair<'_, Rule>) -> Result<CaptureRule> {
    let rule_span = span(&pair);
    let mut it = pair.into_inner();
    let event = need(it.next())?;
    let event_text = event.as_str().to_string();
    let event = if event_text.starts_with("enter") {
        CaptureEvent::Enter(meaningful(event.into_inner()).map(|p| ident(&p)).collect())
    } else if event_text.starts_with("cross") {
        CaptureEvent::Cross(meaningful(event.into_inner()).map(|p| ident(&p)).collect())
    } else if event_text.starts_with("off") {
        CaptureEvent::OffTable
    } else if event_text.ends_with("shot") {
        CaptureEvent::OverWallShot
    } else {
        CaptureEvent::OverWallKnocked
    };
    let effect = meaningful(it).find(|p| p.as_rule() == Rule::capture_effect);
    let effect = need(effect)?;
    let text = effect.as_str().to_string();
    let effect = if text.starts_with("back") {
        CaptureEffect::BackTo(ident(&need(meaningful(effect.into_inner()).next())?))
    } else if text.ends_with("owner") {
        CaptureEffect::ByOpponentOfOwner
    } else {
        CaptureEffect::ByOpponentOfShooter
    };
    Ok(CaptureRule {
        event,
        effect,
        span: rule_span,
    })
}

/// Parses a deck file: a sequence of `army` declarations.
///
/// # Errors
/// Every syntax problem found, each with a code and a span.
pub fn parse_deck(source: &str) -> std::result::Result<Vec<Army>, Vec<SyntaxError>> {
    if let Some(e) = super::from_pairs::too_deep(source) {
        return Err(vec![e]);
    }
    let mut pairs = GameParser::parse(Rule::deck_file, source)
        .map_err(|e| vec![unclosed(source).unwrap_or_else(|| from_pest(source, &e))])?;
    let Some(file) = pairs.next() else {
        return Ok(Vec::new());
    };
    let mut armies = Vec::new();
    for pair in file.into_inner() {
        if pair.as_rule() != Rule::army_decl {
            continue;
        }
        let army_span = span(&pair);
        let mut inner = meaningful(pair.into_inner());
        let mut next = || need(inner.next());
        armies.push(army_body(army_span, &mut next).map_err(|e| vec![e])?);
    }
    Ok(armies)
}
