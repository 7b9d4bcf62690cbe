//! Pest pairs → AST. The only module that imports `pest::iterators`.

use std::sync::OnceLock;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use super::ast::{
    parse_hundredths, AssignOp, AxisRange, BinaryOp, Block, Board, CounterView, Expr, ExprKind,
    File, Item, ItemKind, OptionDecl, OptionType, OptionValue, PatternShape, PresetSet, RelItem,
    ShapeDecl, ShapePart, Stmt, StmtKind, Template, TemplatePart, TrackLane, UnaryOp, Vector,
    DECIMAL_SCALE,
};
use super::error::SyntaxError;
use super::parser::{GameParser, Rule};
use super::span::{Ident, Span};
use rulestone_diag::suggest;

type Result<T> = std::result::Result<T, SyntaxError>;

pub fn parse_file(source: &str) -> std::result::Result<File, Vec<SyntaxError>> {
    if let Some(e) = too_deep(source) {
        return Err(vec![e]);
    }
    let mut pairs = GameParser::parse(Rule::file, source).map_err(|e| {
        vec![foreign_operator(source, &e)
            .or_else(|| unclosed(source))
            .or_else(|| misspelt_keyword(source, &e))
            .unwrap_or_else(|| from_pest(source, &e))]
    })?;
    let Some(file) = pairs.next() else {
        return Ok(File { items: Vec::new() });
    };
    let mut items = Vec::new();
    let mut errors = Vec::new();
    for pair in file.into_inner() {
        if pair.as_rule() == Rule::EOI {
            continue;
        }
        match item(pair) {
            Ok(i) => items.push(i),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(File { items })
    } else {
        Err(errors)
    }
}

pub(super) fn span(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

pub(super) fn ident(pair: &Pair<'_, Rule>) -> Ident {
    Ident {
        name: pair.as_str().to_string(),
        span: span(pair),
    }
}

/// Skips keyword and punctuation pairs, which carry no information for the AST.
pub(super) fn meaningful<'a>(pairs: Pairs<'a, Rule>) -> impl Iterator<Item = Pair<'a, Rule>> {
    pairs.filter(|p| !is_token(p.as_rule()))
}

fn is_token(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::lbrace
            | Rule::rbrace
            | Rule::lparen
            | Rule::rparen
            | Rule::lbrack
            | Rule::rbrack
            | Rule::comma
            | Rule::colon
            | Rule::eq
            | Rule::bar
            | Rule::dotdot
    ) || rule_is_keyword(rule)
}

fn rule_is_keyword(rule: Rule) -> bool {
    format!("{rule:?}").starts_with("kw_")
}

/// A decimal literal (`7.5`, `-0.25`) in hundredths; more than two decimal places, or a value
/// whose hundredths do not fit in 32 bits, is an error.
pub(super) fn hundredths(pair: &Pair<'_, Rule>) -> Result<i64> {
    let text = pair.as_str();
    parse_hundredths(text).ok_or_else(|| SyntaxError::DecimalOutOfRange {
        text: text.to_string(),
        span: span(pair).into(),
    })
}

pub(super) fn int(pair: &Pair<'_, Rule>) -> Result<i64> {
    let text = pair.as_str();
    match text.parse::<i32>() {
        Ok(v) => Ok(i64::from(v)),
        Err(_) => Err(SyntaxError::NumberTooLarge {
            text: text.to_string(),
            span: span(pair).into(),
        }),
    }
}

/// One top-level declaration: a short dispatcher over the declaration's rule; each declaration
/// with more than a line or two of structure has its own helper below.
fn item(pair: Pair<'_, Rule>) -> Result<Item> {
    let item_span = span(&pair);
    let rule = pair.as_rule();
    let mut inner = meaningful(pair.into_inner());
    let kind = match rule {
        Rule::game_decl => {
            let (name, name_span) = string(&need(inner.next())?)?;
            ItemKind::Game { name, name_span }
        }
        Rule::players_decl => ItemKind::Players(inner.map(|p| ident(&p)).collect()),
        Rule::option_decl => ItemKind::Option(option_decl(&mut inner)?),
        Rule::preset_decl => {
            let name = ident(&need(inner.next())?);
            let sets = inner.map(preset_set).collect::<Result<_>>()?;
            ItemKind::Preset { name, sets }
        }
        Rule::board_decl => ItemKind::Board(board(&mut || inner.next())?),
        Rule::direction_decl => {
            let name = ident(&need(inner.next())?);
            let vector = vector(&need(inner.next())?)?;
            ItemKind::Direction { name, vector }
        }
        Rule::relation_decl => relation_decl(&mut inner)?,
        Rule::pattern_decl => pattern_decl(&mut inner)?,
        Rule::zone_decl => {
            let name = ident(&need(inner.next())?);
            let cells = expr(need(inner.next())?)?;
            ItemKind::Zone { name, cells }
        }
        Rule::piece_decl => {
            let name = ident(&need(inner.next())?);
            let symbols = inner.map(|p| string(&p)).collect::<Result<_>>()?;
            ItemKind::Piece { name, symbols }
        }
        Rule::counter_decl => counter_decl(&mut inner)?,
        Rule::map_decl => {
            let name = ident(&need(inner.next())?);
            let coords = inner.map(expr).collect::<Result<_>>()?;
            ItemKind::Map { name, coords }
        }
        Rule::token_decl => token_decl(&mut inner)?,
        Rule::track_decl => track_decl(&mut inner)?,
        Rule::status_decl => {
            let text = template(need(inner.next())?)?;
            let when = inner.next().map(expr).transpose()?;
            ItemKind::Status { text, when }
        }
        Rule::shape_decl => ItemKind::Shape(shape_decl(&mut inner)?),
        Rule::marker_decl => marker_decl(&mut inner)?,
        Rule::score_decl => {
            let player = ident(&need(inner.next())?);
            let e = expr(need(inner.next())?)?;
            ItemKind::Score { player, expr: e }
        }
        Rule::heuristic_decl => {
            let player = ident(&need(inner.next())?);
            let e = expr(need(inner.next())?)?;
            ItemKind::Heuristic { player, expr: e }
        }
        Rule::repetitions_decl => ItemKind::RepetitionsIgnore(
            inner
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| ident(&p))
                .collect(),
        ),
        Rule::define_decl => define_decl(&mut inner)?,
        Rule::procedure_decl => {
            let name = ident(&need(inner.next())?);
            let params = need(inner.next())?
                .into_inner()
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| ident(&p))
                .collect();
            let body = block(need(inner.next())?)?;
            ItemKind::Procedure { name, params, body }
        }
        Rule::setup_decl => ItemKind::Setup(block(need(inner.next())?)?),
        Rule::turn_decl => ItemKind::Turn(block(need(inner.next())?)?),
        Rule::no_moves_decl => ItemKind::NoMoves(block(need(inner.next())?)?),
        _ => match super::table::item(rule, item_span, &mut inner)? {
            Some(t) => ItemKind::Table(t),
            None => return Err(internal(item_span, rule)),
        },
    };
    Ok(Item {
        kind,
        span: item_span,
    })
}

/// `option NAME: TYPE = DEFAULT`. A fractional default makes a range decimal, and an integer
/// default of a decimal range is then scaled to hundredths like the range's bounds.
fn option_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<OptionDecl> {
    let name = ident(&need(inner.next())?);
    let mut ty = option_type(need(inner.next())?)?;
    let value = need(inner.next())?;
    let v = need(value.into_inner().next())?;
    let default = match v.as_rule() {
        Rule::signed_int => OptionValue::Int(int(&v)?, span(&v)),
        Rule::signed_fraction => {
            make_decimal(&mut ty);
            OptionValue::Int(hundredths(&v)?, span(&v))
        }
        _ => OptionValue::Word(ident(&v)),
    };
    let default = match (&ty, default) {
        (OptionType::Range { decimal: true, .. }, OptionValue::Int(d, s))
            if v.as_rule() == Rule::signed_int =>
        {
            OptionValue::Int(d * DECIMAL_SCALE, s)
        }
        (_, d) => d,
    };
    Ok(OptionDecl { name, ty, default })
}

/// `OPTION = VALUE` of a preset: the value kept as written.
fn preset_set(pair: Pair<'_, Rule>) -> Result<PresetSet> {
    let mut inner = meaningful(pair.into_inner());
    let option = ident(&need(inner.next())?);
    let value = need(inner.next())?;
    Ok(PresetSet {
        option,
        value: value.as_str().trim().to_string(),
        span: span(&value),
    })
}

/// `relation NAME = member | …`: each member with its optional player, kept in two parallel
/// lists.
fn relation_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let mut members = Vec::new();
    let mut players = Vec::new();
    for p in inner {
        let mut it = meaningful(p.into_inner());
        members.push(rel_item(need(it.next())?)?);
        players.push(it.next().map(|who| ident(&who)));
    }
    Ok(ItemKind::Relation {
        name,
        members,
        players,
    })
}

/// `pattern NAME = …`: either a line along a relation or a shape of vectors.
fn pattern_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let body = need(inner.next())?;
    let shape = match body.as_rule() {
        Rule::line_pattern => {
            let r = need(meaningful(body.into_inner()).next())?;
            PatternShape::Line(rel_item(r)?)
        }
        _ => {
            let mut vs = Vec::new();
            for v in body.into_inner() {
                vs.push(vector(&v)?);
            }
            PatternShape::Shape(vs)
        }
    };
    Ok(ItemKind::Pattern { name, shape })
}

/// `counter NAME [per player | per cell] = INIT [VIEW]`: the optional scope comes before the
/// initial value, the optional view after it.
fn counter_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let mut p = need(inner.next())?;
    let per_player = p.as_rule() == Rule::per_player;
    let per_cell = p.as_rule() == Rule::per_cell;
    if per_player || per_cell {
        p = need(inner.next())?;
    }
    let init = expr(p)?;
    let view = match inner.next() {
        None => CounterView::Plain,
        Some(v) => match meaningful(v.into_inner()).next() {
            Some(rel) => CounterView::Directions(ident(&rel)),
            None => CounterView::Hidden,
        },
    };
    Ok(ItemKind::Counter {
        name,
        per_player,
        per_cell,
        init,
        view,
    })
}

/// `token NAME at START [carried]`: the optional last child is the `carried` flag.
fn token_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let start = expr(need(inner.next())?)?;
    let carried = inner.next().is_some();
    Ok(ItemKind::Token {
        name,
        start,
        carried,
    })
}

/// `track NAME { … }`: each player's group of lanes, flattened into one lane per entry that
/// remembers its player.
fn track_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let mut lanes = Vec::new();
    for group in inner {
        let mut parts = meaningful(group.into_inner());
        let player = ident(&need(parts.next())?);
        for lane in parts {
            let cells = meaningful(lane.into_inner())
                .filter(|p| p.as_rule() == Rule::ident)
                .map(|p| ident(&p))
                .collect();
            lanes.push(TrackLane {
                player: player.clone(),
                cells,
            });
        }
    }
    Ok(ItemKind::Track { name, lanes })
}

/// `marker "S" on CELLS [LEGEND]`: the legend's text is the second child of its clause.
fn marker_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let symbol = string(&need(inner.next())?)?;
    let cells = expr(need(inner.next())?)?;
    let legend = match inner.next() {
        Some(p) => Some(string(&need(p.into_inner().nth(1))?)?),
        None => None,
    };
    Ok(ItemKind::Marker {
        symbol,
        cells,
        legend,
    })
}

/// `define NAME [PARAMS] = EXPR`: the parameter list is optional, so the body is either the
/// second or the third child.
fn define_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ItemKind> {
    let name = ident(&need(inner.next())?);
    let mut body = need(inner.next())?;
    let mut params = Vec::new();
    if body.as_rule() == Rule::define_params {
        params = body
            .into_inner()
            .filter(|p| p.as_rule() == Rule::ident)
            .map(|p| ident(&p))
            .collect();
        body = need(inner.next())?;
    }
    let e = expr(body)?;
    Ok(ItemKind::Define {
        name,
        params,
        expr: e,
    })
}

pub(super) fn need(pair: Option<Pair<'_, Rule>>) -> Result<Pair<'_, Rule>> {
    pair.ok_or_else(|| SyntaxError::Unexpected {
        expected: "more input".into(),
        span: Span::default().into(),
        found: "end of construct".into(),
    })
}

fn internal(span: Span, rule: Rule) -> SyntaxError {
    SyntaxError::Unexpected {
        expected: "a declaration".into(),
        span: span.into(),
        found: format!("unexpected {rule:?}"),
    }
}

fn option_type(pair: Pair<'_, Rule>) -> Result<OptionType> {
    let inner = need(pair.into_inner().next())?;
    match inner.as_rule() {
        Rule::enum_type => Ok(OptionType::Enum(
            meaningful(inner.into_inner()).map(|p| ident(&p)).collect(),
        )),
        _ => {
            let sp = span(&inner);
            let mut it = meaningful(inner.into_inner());
            let (lo, hi) = (need(it.next())?, need(it.next())?);
            let decimal = [&lo, &hi]
                .iter()
                .any(|p| p.as_rule() == Rule::signed_fraction);
            let bound = |p: &Pair<'_, Rule>| match (decimal, p.as_rule()) {
                (true, Rule::signed_fraction) => hundredths(p),
                (true, _) => Ok(int(p)? * DECIMAL_SCALE),
                (false, _) => int(p),
            };
            Ok(OptionType::Range {
                lo: bound(&lo)?,
                hi: bound(&hi)?,
                span: sp,
                decimal,
            })
        }
    }
}

/// Turns an integer option range into a decimal one (its default has a decimal point).
fn make_decimal(ty: &mut OptionType) {
    if let OptionType::Range {
        lo, hi, decimal, ..
    } = ty
    {
        if !*decimal {
            *lo *= DECIMAL_SCALE;
            *hi *= DECIMAL_SCALE;
            *decimal = true;
        }
    }
}

fn board<'a>(next: &mut impl FnMut() -> Option<Pair<'a, Rule>>) -> Result<Board> {
    let axes_pair = need(next())?;
    let axes = meaningful(axes_pair.into_inner())
        .map(|p| ident(&p))
        .collect();
    let cells_pair = need(next())?;
    let mut ranges = Vec::new();
    for r in meaningful(cells_pair.into_inner()) {
        let sp = span(&r);
        let mut it = meaningful(r.into_inner());
        let axis = ident(&need(it.next())?);
        let lo = expr(need(it.next())?)?;
        let hi = expr(need(it.next())?)?;
        ranges.push(AxisRange {
            axis,
            lo,
            hi,
            span: sp,
        });
    }
    let mut p = need(next())?;
    let mut filter = None;
    if p.as_rule() == Rule::cell_filter {
        filter = Some(expr(need(meaningful(p.into_inner()).next())?)?);
        p = need(next())?;
    }
    let name = template(need(meaningful(p.into_inner()).next())?)?;
    Ok(Board {
        axes,
        ranges,
        filter,
        name,
    })
}

fn shape_decl<'a>(inner: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<ShapeDecl> {
    let name = ident(&need(inner.next())?);
    let mut shape = ShapeDecl {
        name,
        count: None,
        points: None,
        flip: None,
        parts: Vec::new(),
        feet: None,
    };
    for p in inner {
        match p.as_rule() {
            Rule::shape_attr => {
                let keyword = p
                    .as_str()
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_string();
                let value = need(meaningful(p.into_inner()).next())?;
                match keyword.as_str() {
                    "count" => shape.count = Some(expr(value)?),
                    "points" => shape.points = Some(expr(value)?),
                    _ => shape.flip = Some(string(&value)?),
                }
            }
            Rule::shape_part => {
                let mut cells = Vec::new();
                let mut numbers = Vec::new();
                for q in meaningful(p.into_inner()) {
                    if q.as_rule() == Rule::vector {
                        cells.push(vector(&q)?);
                    } else {
                        numbers.push(q);
                    }
                }
                let (Some(b), Some(t)) = (numbers.first(), numbers.get(1)) else {
                    return Err(internal(Span::new(0, 0), Rule::shape_part));
                };
                shape.parts.push(ShapePart {
                    cells,
                    bottom: int(b)?,
                    top: int(t)?,
                    span_span: span(b).merge(span(t)),
                });
            }
            Rule::shape_feet => {
                let mut feet = Vec::new();
                for q in meaningful(p.into_inner()) {
                    feet.push(vector(&q)?);
                }
                shape.feet = Some(feet);
            }
            _ => {}
        }
    }
    Ok(shape)
}

fn vector(pair: &Pair<'_, Rule>) -> Result<Vector> {
    let mut components = Vec::new();
    for p in meaningful(pair.clone().into_inner()) {
        components.push(int(&p)?);
    }
    Ok(Vector {
        components,
        span: span(pair),
    })
}

fn rel_item(pair: Pair<'_, Rule>) -> Result<RelItem> {
    let inner = need(pair.into_inner().next())?;
    if inner.as_rule() == Rule::vector {
        Ok(RelItem::Vector(vector(&inner)?))
    } else {
        Ok(RelItem::Name(ident(&inner)))
    }
}

pub(super) fn string(pair: &Pair<'_, Rule>) -> Result<(String, Span)> {
    let inner = need(pair.clone().into_inner().next())?;
    Ok((unescape(&inner)?, span(pair)))
}

fn unescape(pair: &Pair<'_, Rule>) -> Result<String> {
    let raw = pair.as_str();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some((_, 'n')) => out.push('\n'),
            Some((_, e @ ('\\' | '"' | '{' | '}'))) => out.push(e),
            other => {
                let start = pair.as_span().start() + i;
                let end = start + 1 + other.map_or(0, |(_, c)| c.len_utf8());
                return Err(SyntaxError::BadEscape {
                    text: raw[i..end - pair.as_span().start()].to_string(),
                    span: Span::new(start, end).into(),
                });
            }
        }
    }
    Ok(out)
}

fn template(pair: Pair<'_, Rule>) -> Result<Template> {
    let sp = span(&pair);
    let mut parts = Vec::new();
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::tpl_text => parts.push(TemplatePart::Text(unescape(&p)?)),
            Rule::tpl_hole => {
                let e = need(p.into_inner().next())?;
                parts.push(TemplatePart::Hole(expr(e)?));
            }
            _ => {}
        }
    }
    Ok(Template { parts, span: sp })
}

fn block(pair: Pair<'_, Rule>) -> Result<Block> {
    let sp = span(&pair);
    let mut stmts = Vec::new();
    for p in meaningful(pair.into_inner()) {
        stmts.push(stmt(p)?);
    }
    Ok(Block { stmts, span: sp })
}

/// One statement: a short dispatcher over the statement's rule; statements with optional or
/// reordered parts have their own helper below.
fn stmt(pair: Pair<'_, Rule>) -> Result<Stmt> {
    let sp = span(&pair);
    let rule = pair.as_rule();
    let mut it = meaningful(pair.into_inner());
    let kind = match rule {
        Rule::place_stmt => place_stmt(&mut it)?,
        Rule::pick_stmt => {
            let var = ident(&need(it.next())?);
            let from = expr(need(it.next())?)?;
            let by = match it.next() {
                Some(p) => Some(expr(need(meaningful(p.into_inner()).next())?)?),
                None => None,
            };
            StmtKind::Pick { var, from, by }
        }
        Rule::roll_stmt => roll_stmt(&mut it)?,
        Rule::again_stmt => StmtKind::Again,
        Rule::while_stmt => StmtKind::While {
            cond: expr(need(it.next())?)?,
            body: block(need(it.next())?)?,
        },
        Rule::put_stmt => put_stmt(&mut it)?,
        Rule::remove_stmt => StmtKind::Remove {
            at: expr(need(it.next())?)?,
        },
        Rule::move_stmt => StmtKind::Move {
            what: expr(need(it.next())?)?,
            to: expr(need(it.next())?)?,
        },
        Rule::shift_stmt => StmtKind::Shift {
            what: expr(need(it.next())?)?,
            along: ident(&need(it.next())?),
        },
        Rule::enter_stmt => {
            let track = ident(&need(it.next())?);
            let mut rest: Vec<Expr> = it.map(expr).collect::<Result<_>>()?;
            let near = rest.pop().ok_or_else(|| internal(sp, rule))?;
            StmtKind::Enter {
                track,
                owner: rest.pop(),
                near,
            }
        }
        Rule::advance_stmt => StmtKind::Advance {
            track: ident(&need(it.next())?),
            owner: it.next().map(expr).transpose()?,
        },
        Rule::take_stmt => StmtKind::Take {
            track: ident(&need(it.next())?),
            owner: it.next().map(expr).transpose()?,
        },
        Rule::require_stmt => StmtKind::Require(expr(need(it.next())?)?),
        Rule::if_stmt => if_stmt(&mut it)?,
        Rule::either_stmt => StmtKind::Either(it.map(block).collect::<Result<_>>()?),
        Rule::first_stmt => StmtKind::First(it.map(block).collect::<Result<_>>()?),
        Rule::repeat_stmt => repeat_stmt(&mut it)?,
        Rule::distinct_stmt => StmtKind::Distinct(block(need(it.next())?)?),
        Rule::write_stmt => StmtKind::Write(template(need(it.next())?)?),
        Rule::win_stmt => StmtKind::Win(expr(need(it.next())?)?),
        Rule::lose_stmt => StmtKind::Lose(expr(need(it.next())?)?),
        Rule::draw_stmt => StmtKind::Draw,
        Rule::let_stmt => {
            let name = ident(&need(it.next())?);
            let value = expr(need(it.next())?)?;
            StmtKind::Let { name, value }
        }
        Rule::call_stmt => StmtKind::Call {
            name: ident(&need(it.next())?),
            args: it
                .filter(|p| p.as_rule() == Rule::expr)
                .map(expr)
                .collect::<Result<_>>()?,
            body: None,
        },
        Rule::assign_stmt => assign_stmt(&mut it)?,
        _ => return Err(internal(sp, rule)),
    };
    Ok(Stmt { kind, span: sp })
}

/// `place VAR in EXPR turned T on LAYER [max …] [feet …]`: each trailing option is told apart
/// by its rule, since either may be missing.
fn place_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let var = ident(&need(it.next())?);
    let from = expr(need(it.next())?)?;
    let turned = ident(&need(it.next())?);
    let layer = ident(&need(it.next())?);
    let mut max = None;
    let mut feet = None;
    for p in it.by_ref() {
        let value = need(meaningful(p.clone().into_inner()).next())?;
        if p.as_rule() == Rule::place_max {
            max = Some(expr(value)?);
        } else {
            feet = Some(expr(value)?);
        }
    }
    Ok(StmtKind::Place {
        var,
        from,
        turned,
        layer,
        max,
        feet,
    })
}

/// `roll C, … in LO..HI`: the counters are the identifiers, the two bounds the rest.
fn roll_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let mut counters = Vec::new();
    let mut bounds = Vec::new();
    for p in it {
        if p.as_rule() == Rule::ident {
            counters.push(ident(&p));
        } else {
            bounds.push(p);
        }
    }
    let mut bounds = bounds.into_iter();
    let lo = need(bounds.next())?;
    let hi = need(bounds.next())?;
    Ok(StmtKind::Roll {
        counters,
        lo: int(&lo)?,
        hi: int(&hi)?,
        range: span(&lo).merge(span(&hi)),
    })
}

/// `put PIECE [of OWNER] at CELL`: with one expression it is the cell, with two the first is
/// the owner.
fn put_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let piece = ident(&need(it.next())?);
    let a = expr(need(it.next())?)?;
    Ok(match it.next() {
        Some(b) => StmtKind::Put {
            piece,
            owner: Some(a),
            at: expr(b)?,
        },
        None => StmtKind::Put {
            piece,
            owner: None,
            at: a,
        },
    })
}

/// `if COND { … } [else …]`: an `else if` becomes an `else` block holding the nested `if`, so
/// every branch is a block.
fn if_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let cond = expr(need(it.next())?)?;
    let then = block(need(it.next())?)?;
    let otherwise = match it.next() {
        None => None,
        Some(p) if p.as_rule() == Rule::if_stmt => {
            let s = stmt(p)?;
            Some(Block {
                span: s.span,
                stmts: vec![s],
            })
        }
        Some(p) => Some(block(p)?),
    };
    Ok(StmtKind::If {
        cond,
        then,
        otherwise,
    })
}

/// `repeat LO..HI { … }`: a bound that does not fit a count is read as 0.
fn repeat_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let lo = need(it.next())?;
    let hi = need(it.next())?;
    let range = span(&lo).merge(span(&hi));
    let min = u32::try_from(int(&lo)?).unwrap_or(0);
    let max = u32::try_from(int(&hi)?).unwrap_or(0);
    Ok(StmtKind::Repeat {
        min,
        max,
        range,
        body: block(need(it.next())?)?,
    })
}

/// `TARGET[INDEX] (= | += | -=) VALUE`: the index is optional, so the operator is the second
/// or third child.
fn assign_stmt<'a>(it: &mut impl Iterator<Item = Pair<'a, Rule>>) -> Result<StmtKind> {
    let target = ident(&need(it.next())?);
    let mut p = need(it.next())?;
    let mut index = None;
    if p.as_rule() == Rule::expr {
        index = Some(expr(p)?);
        p = need(it.next())?;
    }
    let op = match p.as_str() {
        "+=" => AssignOp::Add,
        "-=" => AssignOp::Sub,
        _ => AssignOp::Set,
    };
    let value = expr(need(it.next())?)?;
    Ok(StmtKind::Assign {
        target,
        index,
        op,
        value,
    })
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_where, Assoc::Left))
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left))
            .op(Op::infix(Rule::op_union, Assoc::Left))
            .op(Op::infix(Rule::op_inter, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_rem, Assoc::Left))
            .op(Op::prefix(Rule::op_neg))
            .op(Op::postfix(Rule::field) | Op::postfix(Rule::index))
    })
}

fn expr(pair: Pair<'_, Rule>) -> Result<Expr> {
    expr_depth(pair).map(|(e, _)| e)
}

/// A node one level above children of depth `depth`, or the error when that is too deep.
fn deeper(depth: usize, span: Span) -> Result<usize> {
    if depth >= MAX_DEPTH {
        Err(SyntaxError::TooDeep {
            limit: MAX_DEPTH,
            span: span.into(),
        })
    } else {
        Ok(depth + 1)
    }
}

/// An expression with its depth (a leaf is 1). Operators chained without brackets build a deep
/// tree without deep recursion here, so this is where their depth is bounded.
fn expr_depth(pair: Pair<'_, Rule>) -> Result<(Expr, usize)> {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let (operand, depth) = rhs?;
            let op_span = span(&op);
            let depth = deeper(depth, op_span)?;
            let unary = if op.as_rule() == Rule::op_not {
                UnaryOp::Not
            } else {
                UnaryOp::Neg
            };
            Ok((
                Expr {
                    span: op_span.merge(operand.span),
                    kind: ExprKind::Unary {
                        op: unary,
                        operand: Box::new(operand),
                    },
                },
                depth,
            ))
        })
        .map_postfix(|lhs, op| {
            let (base, depth) = lhs?;
            let op_span = span(&op);
            let whole = base.span.merge(op_span);
            let inner = meaningful(op.clone().into_inner()).next();
            let (kind, depth) = if op.as_rule() == Rule::field {
                (
                    ExprKind::Field {
                        base: Box::new(base),
                        field: ident(&need(inner)?),
                    },
                    depth,
                )
            } else {
                let (index, d) = expr_depth(need(inner)?)?;
                (
                    ExprKind::Index {
                        base: Box::new(base),
                        index: Box::new(index),
                    },
                    depth.max(d),
                )
            };
            Ok((Expr { kind, span: whole }, deeper(depth, op_span)?))
        })
        .map_infix(|lhs, op, rhs| {
            let ((lhs, l), (rhs, r)) = (lhs?, rhs?);
            let depth = deeper(l.max(r), span(&op))?;
            let op = match op.as_rule() {
                Rule::op_where => BinaryOp::Where,
                Rule::op_or => BinaryOp::Or,
                Rule::op_and => BinaryOp::And,
                Rule::op_eq => BinaryOp::Eq,
                Rule::op_ne => BinaryOp::Ne,
                Rule::op_lt => BinaryOp::Lt,
                Rule::op_le => BinaryOp::Le,
                Rule::op_gt => BinaryOp::Gt,
                Rule::op_ge => BinaryOp::Ge,
                Rule::op_in => BinaryOp::In,
                Rule::op_union => BinaryOp::Union,
                Rule::op_inter => BinaryOp::Inter,
                Rule::op_add => BinaryOp::Add,
                Rule::op_sub => BinaryOp::Sub,
                Rule::op_mul => BinaryOp::Mul,
                Rule::op_div => BinaryOp::Div,
                _ => BinaryOp::Rem,
            };
            Ok((
                Expr {
                    span: lhs.span.merge(rhs.span),
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                },
                depth,
            ))
        })
        .parse(pair.into_inner())
}

fn primary(pair: Pair<'_, Rule>) -> Result<(Expr, usize)> {
    let sp = span(&pair);
    let (kind, depth) = match pair.as_rule() {
        Rule::number => (ExprKind::Int(int(&pair)?), 1),
        Rule::fraction => (ExprKind::Decimal(hundredths(&pair)?), 1),
        Rule::ident => (ExprKind::Name(ident(&pair)), 1),
        Rule::paren => return expr_depth(need(meaningful(pair.into_inner()).next())?),
        Rule::call => {
            let mut it = meaningful(pair.into_inner());
            let func = ident(&need(it.next())?);
            let args = it.map(expr_depth).collect::<Result<Vec<_>>>()?;
            let depth = args.iter().map(|(_, d)| *d).max().unwrap_or(0);
            let args = args.into_iter().map(|(e, _)| e).collect();
            (ExprKind::Call { func, args }, deeper(depth, sp)?)
        }
        Rule::if_expr => {
            let parts = meaningful(pair.into_inner())
                .filter(|p| p.as_rule() == Rule::expr)
                .map(expr_depth)
                .collect::<Result<Vec<_>>>()?;
            let depth = parts.iter().map(|(_, d)| *d).max().unwrap_or(0);
            let mut parts = parts.into_iter().map(|(e, _)| Box::new(e));
            let (Some(cond), Some(then), Some(otherwise)) =
                (parts.next(), parts.next(), parts.next())
            else {
                return Err(internal(sp, Rule::if_expr));
            };
            (
                ExprKind::If {
                    cond,
                    then,
                    otherwise,
                },
                deeper(depth, sp)?,
            )
        }
        Rule::cell_set => {
            let items = meaningful(pair.into_inner())
                .map(expr_depth)
                .collect::<Result<Vec<_>>>()?;
            let depth = items.iter().map(|(_, d)| *d).max().unwrap_or(0);
            let items = items.into_iter().map(|(e, _)| e).collect();
            (ExprKind::CellSet(items), deeper(depth, sp)?)
        }
        rule => return Err(internal(sp, rule)),
    };
    Ok((Expr { kind, span: sp }, depth))
}

/// How deep a text may nest: brackets, braces and prefix operators (checked on the text before
/// pest parses it), and operators chained in one expression (checked as the expression is
/// built). Every later stage recurses over the tree, so this bounds their stack use too.
pub const MAX_DEPTH: usize = 256;

/// The first place where the text nests deeper than [`MAX_DEPTH`], counting open brackets and
/// braces and runs of prefix operators (`not`, `-`), outside strings and comments. One pass
/// without recursion: it runs before the parser, whose recursion follows the same nesting.
pub(super) fn too_deep(source: &str) -> Option<SyntaxError> {
    let mut scan = DepthScan {
        open: Vec::new(),
        chains: vec![0],
        run: 0,
    };
    let bytes = source.as_bytes();
    let mut i = 0;
    let report = |at: usize, len: usize| {
        Some(SyntaxError::TooDeep {
            limit: MAX_DEPTH,
            span: Span::new(at, at + len).into(),
        })
    };
    // Template holes (`"... {expr} ..."`) open: the depth of `open` inside each.
    let mut holes: Vec<usize> = Vec::new();
    let mut in_string = false;
    // Whether the last token was a `}` (an `else` after it continues an `if` chain).
    let mut after_block = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            // To the end of the string, or into a hole, which nests like a brace.
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'{' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            in_string = false;
            scan.run = 0;
            if bytes.get(i) == Some(&b'{') {
                scan.push();
                holes.push(scan.open.len());
                if scan.depth() > MAX_DEPTH {
                    return report(i, 1);
                }
            }
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let word_end = bytes[i..]
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .map_or(bytes.len(), |n| i + n);
        let word = &bytes[i..word_end];
        // `if ... { } else if ... { } else if ...`: each `else` nests the next `if` inside.
        if let Some(chain) = scan.chains.last_mut() {
            // `if c then a else if ...`: each `then` is an `if` expression, which may nest.
            if (after_block && word == b"else") || word == b"then" {
                *chain += 1;
            } else if after_block {
                *chain = 0;
            }
        }
        after_block = false;
        match c {
            b'"' => in_string = true,
            b'}' if holes.last() == Some(&scan.open.len()) => {
                // The end of a template hole: back in its string.
                holes.pop();
                scan.pop();
                in_string = true;
            }
            b'(' | b'[' | b'{' => {
                scan.push();
                if scan.depth() > MAX_DEPTH {
                    return report(i, 1);
                }
            }
            b')' | b']' | b'}' => {
                scan.pop();
                after_block = c == b'}';
            }
            b'-' if bytes.get(i + 1) != Some(&b'=') => {
                scan.run += 1;
                if scan.depth() > MAX_DEPTH {
                    return report(i, 1);
                }
            }
            _ if !word.is_empty() => {
                if word == b"not" {
                    scan.run += 1;
                } else {
                    scan.run = 0;
                }
                if scan.depth() > MAX_DEPTH {
                    return report(i, word.len());
                }
                i = word_end;
                continue;
            }
            _ => scan.run = 0,
        }
        i += 1;
    }
    None
}

/// What [`too_deep`] tracks: open brackets, and the levels that nest without a bracket.
struct DepthScan {
    /// For each open bracket: the levels without brackets in effect where it opened.
    open: Vec<usize>,
    /// For the top level and each open bracket: the `else`s chained in it so far.
    chains: Vec<usize>,
    /// Prefix operators (`not`, `-`) in a row since the last operand or bracket.
    run: usize,
}

impl DepthScan {
    /// Levels without brackets in effect here.
    fn carried(&self) -> usize {
        self.open.last().copied().unwrap_or(0) + self.run + self.chains.last().copied().unwrap_or(0)
    }

    fn depth(&self) -> usize {
        self.open.len() + self.carried()
    }

    fn push(&mut self) {
        let carried = self.carried();
        self.open.push(carried);
        self.chains.push(0);
        self.run = 0;
    }

    fn pop(&mut self) {
        self.open.pop();
        if self.chains.len() > 1 {
            self.chains.pop();
        }
        self.run = 0;
    }
}

/// The bracket still open at the end of the text (outside strings and comments): a clearer
/// report than "expected ..." at the end of the file. When a block's `{` ends its line and a
/// later line indented no deeper than that line does not begin with `}`, the block most likely
/// lacks its `}` before that line, and both places are reported; otherwise the innermost
/// bracket still open is.
pub(super) fn unclosed(source: &str) -> Option<SyntaxError> {
    let mut open: Vec<(usize, char)> = Vec::new();
    // Every `{` outside strings and comments, in order.
    let mut braces: Vec<usize> = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '/' if chars.peek().is_some_and(|(_, n)| *n == '/') => {
                for (_, n) in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            '"' => {
                while let Some((_, n)) = chars.next() {
                    match n {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '{' | '(' | '[' => {
                open.push((i, c));
                if c == '{' {
                    braces.push(i);
                }
            }
            '}' | ')' | ']' => {
                let want = match c {
                    '}' => '{',
                    ')' => '(',
                    _ => '[',
                };
                match open.last() {
                    Some((_, o)) if *o == want => {
                        open.pop();
                    }
                    // A stray or mismatched closer: pest reports it better.
                    _ => return None,
                }
            }
            _ => {}
        }
    }
    let (at, c) = open.pop()?;
    let early = braces
        .iter()
        .find_map(|&b| block_left_early(source, b).map(|missing| (b, missing)));
    if let Some((brace, missing)) = early {
        return Some(SyntaxError::UnclosedBefore {
            open: Span::new(brace, brace + 1).into(),
            missing: missing.into(),
        });
    }
    let close = match c {
        '{' => '}',
        '(' => ')',
        _ => ']',
    };
    Some(SyntaxError::Unclosed {
        open: c,
        close,
        span: Span::new(at, at + 1).into(),
    })
}

/// For a `{` at the end of its line: the first later line (blank and comment lines aside)
/// indented no deeper than the line of the `{`, when that line does not begin with `}`, or
/// begins with a `}` indented less than the `{` line (it lines up with an outer block): the
/// block's text ends there, so its `}` is likely missing before it. The span covers that
/// line's first word or symbol.
fn block_left_early(source: &str, brace: usize) -> Option<Span> {
    let line_start = source[..brace].rfind('\n').map_or(0, |n| n + 1);
    let line_end = source[brace..]
        .find('\n')
        .map_or(source.len(), |n| brace + n);
    let rest = source[brace + 1..line_end].trim();
    if !(rest.is_empty() || rest.starts_with("//")) {
        return None;
    }
    let depth = indentation(&source[line_start..line_end]);
    let mut offset = (line_end + 1).min(source.len());
    for line in source[offset..].split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let text = line.trim();
        if text.is_empty() || text.starts_with("//") {
            continue;
        }
        let indent = indentation(line);
        if indent > depth {
            continue;
        }
        let start = here + (line.len() - line.trim_start().len());
        if text.starts_with('}') {
            // A `}` lined up with an outer block closes that one: this block's is missing.
            return (indent < depth).then(|| Span::new(start, start + 1));
        }
        let word = match text.find(|c: char| !(c.is_alphanumeric() || c == '_')) {
            Some(0) => text.chars().next().map_or(1, char::len_utf8),
            Some(n) => n,
            None => text.len(),
        };
        return Some(Span::new(start, start + word));
    }
    None
}

/// The width of a line's leading spaces and tabs, in characters.
fn indentation(line: &str) -> usize {
    line.chars().take_while(|c| *c == ' ' || *c == '\t').count()
}

/// A misspelt keyword where a statement or a declaration must begin: `pik c in empty` (read as
/// an assignment to `pik` that lacks its `=`), or `peice stone` at the top level. Only a word
/// within the usual typo distance of such a keyword (see [`rulestone_diag::suggest::closest`]) is
/// taken for one.
fn misspelt_keyword(source: &str, error: &pest::error::Error<Rule>) -> Option<SyntaxError> {
    use pest::error::{ErrorVariant, InputLocation};
    let ErrorVariant::ParsingError { positives, .. } = &error.variant else {
        return None;
    };
    let at = match error.location {
        InputLocation::Pos(p) | InputLocation::Span((p, _)) => p,
    };
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if positives.contains(&Rule::assign_op) {
        // The word just before the error was read as the name an assignment sets.
        let before = source[..at].trim_end();
        let start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_word_char(*c))
            .last()
            .map_or(before.len(), |(i, _)| i);
        let word = &before[start..];
        if word.is_empty() {
            return None;
        }
        let keyword = suggest::closest(word, starts(super::keywords::statement_starts()))?;
        let found_end = source[at..]
            .find(char::is_whitespace)
            .map_or(source.len(), |n| at + n)
            .max(at + usize::from(at < source.len()));
        return Some(SyntaxError::MisspeltKeyword {
            what: "a statement",
            word: word.to_string(),
            keyword: keyword.to_string(),
            span: Span::new(start, before.len()).into(),
            assignment: Some(Span::new(at, found_end).into()),
        });
    }
    if positives.contains(&Rule::kw_turn) {
        let end = source[at..]
            .find(|c: char| !is_word_char(c))
            .map_or(source.len(), |n| at + n);
        let word = &source[at..end];
        if word.is_empty() {
            return None;
        }
        let keyword = suggest::closest(word, starts(super::keywords::declaration_starts()))?;
        return Some(SyntaxError::MisspeltKeyword {
            what: "a declaration",
            word: word.to_string(),
            keyword: keyword.to_string(),
            span: Span::new(at, end).into(),
            assignment: None,
        });
    }
    None
}

/// Operators of other languages, and this language's word or symbol for each.
const FOREIGN_OPERATORS: [(&str, &str, &str); 3] = [
    ("&&", "and", "both conditions hold"),
    ("||", "or", "either condition holds"),
    (
        "!",
        "not",
        "the condition does not hold (`!=` is \"not equal\")",
    ),
];

/// An operator of another language (`&&`, `||`, `!`) in the text outside comments and
/// strings, which never parses here, or a lone `=` where pest stopped, which compares in
/// other languages (`==` here). Reported at its first use, with the operator meant.
fn foreign_operator(source: &str, error: &pest::error::Error<Rule>) -> Option<SyntaxError> {
    let at = match error.location {
        pest::error::InputLocation::Pos(p) | pest::error::InputLocation::Span((p, _)) => p,
    };
    let rest = source.get(at..).unwrap_or("");
    if rest.starts_with('=') && !rest.starts_with("==") {
        return Some(SyntaxError::ForeignOperator {
            found: "=",
            what: "does not compare",
            instead: "==",
            meaning: "`=` sets a counter or a variable; a comparison is `==`",
            span: Span::new(at, at + 1).into(),
        });
    }
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = source[i..].find('\n').map_or(bytes.len(), |n| i + n);
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            _ if !source.is_char_boundary(i) => i += 1,
            _ => {
                let text = &source[i..];
                let found = FOREIGN_OPERATORS.iter().find(|(op, _, _)| {
                    text.starts_with(op) && !(*op == "!" && text.starts_with("!="))
                });
                if let Some(&(found, instead, meaning)) = found {
                    return Some(SyntaxError::ForeignOperator {
                        found,
                        what: "is not an operator of this language",
                        instead,
                        meaning,
                        span: Span::new(i, i + found.len()).into(),
                    });
                }
                i += 1;
            }
        }
    }
    None
}

fn starts(words: &[String]) -> impl Iterator<Item = &str> {
    words.iter().map(String::as_str)
}

/// Turns pest's error into our diagnostic with friendly rule names.
pub(super) fn from_pest(source: &str, error: &pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match error.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    // Underline the token that was found (up to the next whitespace), or the end of input.
    let found_end = source[start..]
        .find(|c: char| c.is_whitespace())
        .map_or(source.len(), |n| start + n)
        .max(end);
    let found_text = &source[start..found_end];
    let found = if found_text.is_empty() {
        "end of file here".to_string()
    } else {
        format!("found `{}`", truncate(found_text))
    };
    let expected = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => describe(positives),
        ErrorVariant::CustomError { message } => message.clone(),
    };
    SyntaxError::Unexpected {
        expected,
        span: Span::new(
            start,
            found_end.max(start + usize::from(start < source.len())),
        )
        .into(),
        found,
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(24).collect()
}

fn describe(rules: &[Rule]) -> String {
    let keywords: Vec<String> = rules
        .iter()
        .filter_map(|r| format!("{r:?}").strip_prefix("kw_").map(str::to_string))
        .collect();
    let starts_declaration = keywords.iter().any(|k| k == "turn" || k == "board");
    let starts_statement = keywords.iter().any(|k| k == "pick" || k == "put");
    let mut names: Vec<String> = rules
        .iter()
        .filter(|r| !rule_is_keyword(**r))
        .map(|r| rule_name(*r).to_string())
        .collect();
    if starts_declaration {
        names.push("a declaration".into());
    } else if starts_statement {
        names.push("a statement".into());
    } else {
        names.extend(keywords.iter().map(|k| format!("`{k}`")));
    }
    // Operators and postfix forms can follow almost anything; naming them all is noise when
    // something more specific is expected too.
    if names.len() > 3 {
        names.retain(|n| n != "an operator" && n != "`.`" && n != "`[`" && n != "`(`");
    }
    // Everything that can start an operand is, to a reader, "an expression".
    if names.iter().any(|n| n == "a name") && names.iter().any(|n| n == "a number") {
        let starters = [
            "a name",
            "a number",
            "`{`",
            "`(`",
            "`not`",
            "`-`",
            "`if`",
            "a keyword",
        ];
        names.retain(|n| !starters.contains(&n.as_str()));
        names.push("an expression".into());
    }
    names.sort_unstable();
    names.dedup();
    match names.len() {
        0 => "something else".into(),
        1 => names[0].clone(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// The words used in "expected ..." messages.
fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of file",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::lbrack => "`[`",
        Rule::rbrack => "`]`",
        Rule::comma => "`,`",
        Rule::colon => "`:`",
        Rule::eq => "`=`",
        Rule::bar => "`|`",
        Rule::dotdot => "`..`",
        Rule::ident => "a name",
        Rule::number | Rule::signed_int | Rule::fraction | Rule::signed_fraction => "a number",
        Rule::string | Rule::template => "a string",
        Rule::expr | Rule::primary | Rule::call | Rule::paren | Rule::cell_set | Rule::if_expr => {
            "an expression"
        }
        Rule::vector => "a vector such as `(0, 1)`",
        Rule::define_params => "parameters such as `(c)`",
        Rule::rel_item | Rule::rel_member => "a vector or a direction name",
        Rule::block => "`{`",
        Rule::option_type | Rule::enum_type | Rule::int_range => "an option type",
        Rule::option_value => "a default value",
        Rule::axes_decl | Rule::kw_axes => "`axes`",
        Rule::cells_decl | Rule::kw_cells => "`cells`",
        Rule::name_decl | Rule::kw_name => "`name`",
        Rule::cell_filter => "`if`",
        Rule::axis_range => "an axis range such as `x in 0..7`",
        Rule::per_player => "`per player`",
        Rule::per_cell => "`per cell`",
        Rule::shape_attr => "`count`, `points` or `flip`",
        Rule::shape_part => "a shape cell such as `(0, 0): 0..1`",
        Rule::shape_feet => "`feet`",
        Rule::place_max => "`max`",
        Rule::place_feet => "`feet in`",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::infix
        | Rule::op_where
        | Rule::op_or
        | Rule::op_and
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_le
        | Rule::op_ge
        | Rule::op_lt
        | Rule::op_gt
        | Rule::op_in
        | Rule::op_union
        | Rule::op_inter
        | Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_rem => "an operator",
        Rule::field => "`.`",
        Rule::postfix | Rule::index => "`[`",
        Rule::item
        | Rule::game_decl
        | Rule::players_decl
        | Rule::option_decl
        | Rule::preset_decl
        | Rule::board_decl
        | Rule::direction_decl
        | Rule::relation_decl
        | Rule::map_decl
        | Rule::pattern_decl
        | Rule::zone_decl
        | Rule::piece_decl
        | Rule::counter_decl
        | Rule::shape_decl
        | Rule::score_decl
        | Rule::heuristic_decl
        | Rule::repetitions_decl
        | Rule::marker_decl
        | Rule::status_decl
        | Rule::define_decl
        | Rule::procedure_decl
        | Rule::setup_decl
        | Rule::turn_decl
        | Rule::no_moves_decl
        | Rule::param_decl
        | Rule::table_decl
        | Rule::home_decl
        | Rule::disc_decl
        | Rule::faction_decl
        | Rule::card_decl
        | Rule::army_rules_decl
        | Rule::army_decl
        | Rule::table_setup_decl
        | Rule::table_turn_decl
        | Rule::capture_decl
        | Rule::match_decl
        | Rule::penalty_decl => "a declaration",
        Rule::stmt
        | Rule::place_stmt
        | Rule::pick_stmt
        | Rule::roll_stmt
        | Rule::again_stmt
        | Rule::while_stmt
        | Rule::put_stmt
        | Rule::remove_stmt
        | Rule::require_stmt
        | Rule::if_stmt
        | Rule::either_stmt
        | Rule::first_stmt
        | Rule::repeat_stmt
        | Rule::distinct_stmt
        | Rule::write_stmt
        | Rule::win_stmt
        | Rule::lose_stmt
        | Rule::draw_stmt
        | Rule::let_stmt
        | Rule::call_stmt
        | Rule::assign_stmt => "a statement",
        Rule::kw_or => "`or`",
        Rule::kw_in => "`in`",
        Rule::kw_at => "`at`",
        Rule::kw_of => "`of`",
        Rule::kw_else => "`else`",
        Rule::kw_line => "`line`",
        Rule::kw_no => "`no`",
        Rule::kw_moves => "`moves`",
        Rule::kw_player => "`player`",
        Rule::kw_if => "`if`",
        _ => "a keyword",
    }
}

#[cfg(test)]
mod tests {
    use super::super::error::SyntaxError;
    use super::parse_file;

    const HEAD: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..2\n    name \"{letter(x)}\"\n}\npiece stone\n";

    /// The one error of a text that does not parse.
    fn error(body: &str) -> SyntaxError {
        let source = format!("{HEAD}{body}");
        match parse_file(&source) {
            Err(mut errors) if errors.len() == 1 => errors.remove(0),
            other => panic!("expected one error, got {other:?}"),
        }
    }

    /// The text at a miette span of `HEAD + body`.
    fn at(body: &str, span: miette::SourceSpan) -> String {
        let source = format!("{HEAD}{body}");
        source[span.offset()..span.offset() + span.len()].to_string()
    }

    #[test]
    fn a_missing_brace_is_placed_by_indentation() {
        let body = "turn {\n    pick c in empty\n    put stone at c\non no moves {\n    draw\n}\n";
        match error(body) {
            SyntaxError::UnclosedBefore { open, missing } => {
                assert_eq!(at(body, open), "{");
                assert_eq!(open.offset(), HEAD.len() + 5);
                assert_eq!(at(body, missing), "on");
            }
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn a_missing_brace_before_a_one_word_line_marks_the_word() {
        let body =
            "turn {\n    pick c in empty\n    if c == a1 {\n        put stone at c\n    draw\n}\n";
        match error(body) {
            SyntaxError::UnclosedBefore { missing, .. } => assert_eq!(at(body, missing), "draw"),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn text_before_a_typo_may_be_any_character() {
        let body = "turn {\n    pick c in empty\n    write \"é\"é pik\n}\n";
        let source = format!("{HEAD}{body}");
        assert!(parse_file(&source).is_err());
    }

    #[test]
    fn a_brace_open_to_the_end_is_reported_where_it_opens() {
        let body = "turn {\n    pick c in empty\n    put stone at c\n";
        assert!(matches!(
            error(body),
            SyntaxError::Unclosed { open: '{', .. }
        ));
    }

    #[test]
    fn misspelt_keywords_are_named() {
        let cases = [
            (
                "turn {\n    pik c in empty\n    put stone at c\n}\n",
                "pik",
                "pick",
            ),
            ("turn {\n    pick c in empty\n    drwa\n}\n", "drwa", "draw"),
            (
                "turn {\n    pick c in empty\n    put stone at c\n}\nno no moves { draw }\n",
                "no",
                "on",
            ),
            ("trun {\n    pick c in empty\n}\n", "trun", "turn"),
        ];
        for (body, word, keyword) in cases {
            match error(body) {
                SyntaxError::MisspeltKeyword {
                    word: w,
                    keyword: k,
                    span,
                    ..
                } => {
                    assert_eq!((w.as_str(), k.as_str()), (word, keyword), "{body}");
                    assert_eq!(at(body, span), word);
                }
                e => panic!("{body}: {e:?}"),
            }
        }
    }

    #[test]
    fn a_name_far_from_every_keyword_is_not_taken_for_one() {
        let body = "turn {\n    zebra c in empty\n}\n";
        assert!(matches!(error(body), SyntaxError::Unexpected { .. }));
    }

    /// The `if` expression of a one-statement turn `n = <expr>`.
    fn assigned(expr: &str) -> super::Expr {
        use super::super::ast::{ItemKind, StmtKind};
        let source = format!("{HEAD}counter n = 0\nturn {{\n    n = {expr}\n}}\n");
        let file = parse_file(&source).unwrap_or_else(|e| panic!("{expr}: {e:?}"));
        let turn = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Turn(block) => Some(block),
            _ => None,
        });
        match turn.and_then(|b| b.stmts.first()).map(|s| &s.kind) {
            Some(StmtKind::Assign { value, .. }) => value.clone(),
            other => panic!("{expr}: {other:?}"),
        }
    }

    /// `else` reaches as far as an expression can, and `else if` chains nest in the `else`.
    #[test]
    fn an_if_expression_takes_the_longest_else() {
        use super::super::ast::{BinaryOp, ExprKind};
        let e = assigned("if n > 0 then 1 else 2 + 3");
        let ExprKind::If { otherwise, .. } = &e.kind else {
            panic!("{e:?}")
        };
        assert!(matches!(
            otherwise.kind,
            ExprKind::Binary {
                op: BinaryOp::Add,
                ..
            }
        ));
        let e = assigned("(if n > 0 then 1 else 2) + 3");
        assert!(matches!(
            e.kind,
            ExprKind::Binary {
                op: BinaryOp::Add,
                ..
            }
        ));
        let e = assigned("if n > 0 then 1 else if n < 0 then -1 else 0");
        let ExprKind::If { otherwise, .. } = &e.kind else {
            panic!("{e:?}")
        };
        assert!(matches!(otherwise.kind, ExprKind::If { .. }));
    }

    /// A chain of `if` expressions counts towards the nesting limit, as brackets do, so the
    /// parser never recurses past it.
    #[test]
    fn a_long_chain_of_if_expressions_is_too_deep() {
        let chain = "if n > 0 then 1 else ".repeat(super::MAX_DEPTH + 1);
        let body = format!("counter n = 0\nturn {{\n    n = {chain}0\n}}\n");
        assert!(matches!(error(&body), SyntaxError::TooDeep { .. }));
    }
}
