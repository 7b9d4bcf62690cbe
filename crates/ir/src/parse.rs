//! Reads the text form of a [`Program`] that [`super::dump::dump`] writes (described there):
//! `parse(&dump(p))` is `p`, and `dump(&parse(text)?)` is `text` for any text `dump` wrote.
//!
//! A hand-written, line-oriented reader: each line is one item; each error names the line and
//! what was expected there. Beyond the syntax it checks what would make the program unsafe to
//! run: every id names an existing table entry (sets, integers, conditions, relations,
//! patterns, templates, placement tables, counter slots, turn variables, `let` and `place`
//! slots, `distinct` blocks), every jump lands inside its program, and every non-empty program
//! ends with `done`.

use std::collections::HashMap;
use std::fmt;

use super::dump::references;
use super::{
    AssignKind, AssignSlot, Board, BoolExpr, CellRef, CellSet, CmpOp, Code, Counter, CounterView,
    DirExpr, Finish, IntExpr, IntOp, Marker, Op, Pattern, Piece, PlacedCell, Placement, Placements,
    PlayerRef, Program, Ray, Relation, SetExpr, Shape, Template, TemplatePart, Zone, MAX_PLACED,
    MAX_SET_LOCALS, MAX_VARS, NO_CELL, NO_DIR,
};

/// Why a text is not a program: the 1-based line and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrParseError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for IrParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for IrParseError {}

type Result<T> = std::result::Result<T, IrParseError>;

/// Reads a program from its text form.
///
/// # Errors
/// The first line that is not what the form expects there, or that refers to something the
/// program lacks, with what was expected.
pub fn parse(text: &str) -> Result<Program> {
    Parser::new(text).program()
}

/// How deeply direction values may nest.
const MAX_DEPTH: usize = 32;

/// Whether a character may appear in a bare name (see [`super::dump`]).
fn plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '\'')
}

/// One line, read left to right.
struct Cur<'t> {
    text: &'t str,
    pos: usize,
    line: usize,
}

impl<'t> Cur<'t> {
    fn rest(&self) -> &'t str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn error(&self, message: impl Into<String>) -> IrParseError {
        IrParseError {
            line: self.line,
            message: message.into(),
        }
    }

    /// "expected WHAT, found ..." at the current position.
    fn expected(&self, what: &str) -> IrParseError {
        let rest = self.rest().trim();
        let found = if rest.is_empty() {
            "the end of the line".to_string()
        } else {
            let mut shown: String = rest.chars().take(40).collect();
            if shown.len() < rest.len() {
                shown.push_str("...");
            }
            format!("`{shown}`")
        };
        self.error(format!("expected {what}, found {found}"))
    }

    fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.rest().is_empty()
    }

    fn peek(&mut self, lit: &str) -> bool {
        self.skip_ws();
        self.rest().starts_with(lit)
    }

    /// Consumes `lit` (after spaces) when it comes next.
    fn eat(&mut self, lit: &str) -> bool {
        if self.peek(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    /// Whether the word `w` comes next, not followed by more of a name.
    fn peek_word(&mut self, w: &str) -> bool {
        self.peek(w) && !self.rest()[w.len()..].starts_with(plain)
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.peek_word(w) {
            self.pos += w.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, lit: &str) -> Result<()> {
        if self.eat(lit) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{lit}`")))
        }
    }

    fn expect_word(&mut self, w: &str) -> Result<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{w}`")))
        }
    }

    fn end(&mut self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.expected("the end of the line"))
        }
    }

    /// Whether `prefix` and a digit come next (`s12`, `v0`).
    fn peek_id(&mut self, prefix: &str) -> bool {
        self.peek(prefix) && self.rest()[prefix.len()..].starts_with(|c: char| c.is_ascii_digit())
    }

    /// A decimal number, maybe negative, right here.
    fn number_here<T: TryFrom<i128>>(&mut self, what: &str) -> Result<T> {
        let rest = self.rest();
        let sign = usize::from(rest.starts_with('-'));
        let digits = rest[sign..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - sign);
        if digits == 0 {
            return Err(self.expected(what));
        }
        let text = &rest[..sign + digits];
        let value: i128 = text
            .parse()
            .map_err(|_| self.error(format!("`{text}` is too large for {what}")))?;
        let value = T::try_from(value)
            .map_err(|_| self.error(format!("`{text}` is out of range for {what}")))?;
        self.pos += sign + digits;
        Ok(value)
    }

    /// A number (after spaces).
    fn number<T: TryFrom<i128>>(&mut self, what: &str) -> Result<T> {
        self.skip_ws();
        self.number_here(what)
    }

    /// `PREFIX` then a number without a sign (`s12`).
    fn id<T: TryFrom<i128>>(&mut self, prefix: &str) -> Result<T> {
        if !self.peek_id(prefix) {
            return Err(self.expected(&format!("`{prefix}N`")));
        }
        self.pos += prefix.len();
        self.number_here(&format!("`{prefix}N`"))
    }

    /// A quoted string, with Rust's escapes.
    fn string(&mut self) -> Result<String> {
        if !self.eat("\"") {
            return Err(self.expected("a quoted string"));
        }
        let mut out = String::new();
        let rest = self.rest();
        let mut chars = rest.char_indices();
        while let Some((i, ch)) = chars.next() {
            match ch {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    let escaped = match chars.next().map(|(_, e)| e) {
                        Some('n') => '\n',
                        Some('t') => '\t',
                        Some('r') => '\r',
                        Some('0') => '\0',
                        Some('\\') => '\\',
                        Some('"') => '"',
                        Some('\'') => '\'',
                        Some('u') => {
                            let mut hex = String::new();
                            if chars.next().map(|(_, c)| c) != Some('{') {
                                return Err(self.error("expected `{` after `\\u` in a string"));
                            }
                            loop {
                                match chars.next().map(|(_, c)| c) {
                                    Some('}') => break,
                                    Some(h) if h.is_ascii_hexdigit() && hex.len() < 6 => {
                                        hex.push(h);
                                    }
                                    _ => {
                                        return Err(self.error(
                                            "expected hexadecimal digits and `}` after `\\u{`",
                                        ))
                                    }
                                }
                            }
                            u32::from_str_radix(&hex, 16)
                                .ok()
                                .and_then(char::from_u32)
                                .ok_or_else(|| {
                                    self.error(format!("`\\u{{{hex}}}` is no character"))
                                })?
                        }
                        _ => return Err(self.error("expected an escape (`\\n`, `\\\"`, ...)")),
                    };
                    out.push(escaped);
                }
                _ => out.push(ch),
            }
        }
        Err(self.error("expected the closing `\"` of a string"))
    }

    /// A name: a plain word or a quoted string.
    fn word(&mut self, what: &str) -> Result<String> {
        if self.peek("\"") {
            return self.string();
        }
        let rest = self.rest();
        let len = rest.find(|c: char| !plain(c)).unwrap_or(rest.len());
        if len == 0 {
            return Err(self.expected(what));
        }
        self.pos += len;
        Ok(rest[..len].to_string())
    }

    /// Names separated by `,` up to the end of the line (maybe none).
    fn word_list(&mut self, what: &str) -> Result<Vec<String>> {
        let mut out = Vec::new();
        if self.at_end() {
            return Ok(out);
        }
        loop {
            out.push(self.word(what)?);
            if !self.eat(",") {
                return Ok(out);
            }
        }
    }

    /// A direction index or `-` for none.
    fn dir_index(&mut self) -> Result<u8> {
        if self.eat("-") {
            return Ok(NO_DIR);
        }
        self.number("a vector index or `-`")
    }
}

/// The ways one list of names (cells, axes, players, shapes, facings) is referred to.
struct Refs {
    by_name: HashMap<String, usize>,
    len: usize,
    what: &'static str,
}

impl Refs {
    fn new(names: &[String], what: &'static str) -> Refs {
        let by_name = references(names)
            .into_iter()
            .enumerate()
            .filter(|(i, r)| names.get(*i) == Some(r))
            .map(|(i, r)| (r, i))
            .collect();
        Refs {
            by_name,
            len: names.len(),
            what,
        }
    }

    /// A name or `#INDEX`.
    fn read(&self, c: &mut Cur<'_>) -> Result<usize> {
        c.skip_ws();
        if c.eat("#") {
            let i: usize = c.number_here(&format!("a {} index", self.what))?;
            if i >= self.len {
                return Err(c.error(format!(
                    "there is no {} #{i} (there are {})",
                    self.what, self.len
                )));
            }
            return Ok(i);
        }
        let rest = c.rest();
        let len = rest.find(|ch: char| !plain(ch)).unwrap_or(rest.len());
        if len == 0 {
            return Err(c.expected(&format!("a {}", self.what)));
        }
        let name = &rest[..len];
        match self.by_name.get(name) {
            Some(&i) => {
                c.pos += len;
                Ok(i)
            }
            None => Err(c.error(format!("unknown {} `{name}`", self.what))),
        }
    }

    fn read_u8(&self, c: &mut Cur<'_>) -> Result<u8> {
        let i = self.read(c)?;
        u8::try_from(i).map_err(|_| c.error(format!("{} #{i} is out of range", self.what)))
    }

    fn read_u16(&self, c: &mut Cur<'_>) -> Result<u16> {
        let i = self.read(c)?;
        u16::try_from(i).map_err(|_| c.error(format!("{} #{i} is out of range", self.what)))
    }
}

/// What an id refers to, for the checks after the whole text is read.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Set,
    Int,
    Bool,
    Relation,
    Pattern,
    Table,
    Slot,
    Var,
    Local,
    Placed,
    Block,
    Player,
}

struct Parser<'t> {
    /// The non-blank lines, with their 1-based numbers.
    lines: Vec<(usize, &'t str)>,
    next: usize,
    /// The line number past the text, for "the text ends" errors.
    eof: usize,
    cells: Refs,
    axes: Refs,
    players: Refs,
    /// Every id read, checked once the tables are known.
    refs: Vec<(Kind, usize, usize)>,
    /// Templates as defined, with the line that defined them.
    templates: Vec<Option<(Template, usize)>>,
    /// Template uses: id and line.
    template_uses: Vec<(usize, usize)>,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Parser<'t> {
        let all: Vec<&str> = text.lines().collect();
        let lines = all
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| (i + 1, *l))
            .collect();
        Parser {
            lines,
            next: 0,
            eof: all.len() + 1,
            cells: Refs::new(&[], "cell"),
            axes: Refs::new(&[], "axis"),
            players: Refs::new(&[], "player"),
            refs: Vec::new(),
            templates: Vec::new(),
            template_uses: Vec::new(),
        }
    }

    /// The next line, whatever it is.
    fn line(&mut self, what: &str) -> Result<Cur<'t>> {
        match self.lines.get(self.next) {
            Some(&(line, text)) => {
                self.next += 1;
                Ok(Cur { text, pos: 0, line })
            }
            None => Err(IrParseError {
                line: self.eof,
                message: format!("expected {what}, found the end of the text"),
            }),
        }
    }

    /// The next line when it starts (unindented) with the word `kw`.
    fn top(&mut self, kw: &str) -> Option<Cur<'t>> {
        let &(line, text) = self.lines.get(self.next)?;
        let mut c = Cur { text, pos: 0, line };
        if text.starts_with(kw) && c.eat_word(kw) {
            self.next += 1;
            Some(c)
        } else {
            None
        }
    }

    /// The next line when it is indented.
    fn sub(&mut self) -> Option<Cur<'t>> {
        let &(line, text) = self.lines.get(self.next)?;
        if text.starts_with(char::is_whitespace) {
            self.next += 1;
            Some(Cur { text, pos: 0, line })
        } else {
            None
        }
    }

    /// A table of numbered entries under the heading `kw`: `  PREFIX0 = ...`, `  PREFIX1 = ...`,
    /// each read by `entry`, in order.
    fn numbered<T>(
        &mut self,
        kw: &str,
        prefix: &str,
        entry: fn(&mut Self, &mut Cur<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.expect_top(kw)?.end()?;
        let mut out = Vec::new();
        while let Some(mut c) = self.sub() {
            let i: usize = c.id(prefix)?;
            if i != out.len() {
                return Err(c.error(format!(
                    "expected `{prefix}{}`, found `{prefix}{i}`",
                    out.len()
                )));
            }
            c.expect("=")?;
            out.push(entry(self, &mut c)?);
            c.end()?;
        }
        Ok(out)
    }

    /// The next line, which must start with `kw`.
    fn expect_top(&mut self, kw: &str) -> Result<Cur<'t>> {
        if let Some(c) = self.top(kw) {
            return Ok(c);
        }
        let c = self.line(&format!("`{kw}`"))?;
        Err(c.expected(&format!("`{kw}`")))
    }

    fn record(&mut self, kind: Kind, id: usize, line: usize) {
        self.refs.push((kind, id, line));
    }

    /// `PREFIX` and an id, recorded as a reference of `kind`.
    fn id(&mut self, c: &mut Cur<'_>, prefix: &str, kind: Kind) -> Result<u16> {
        let id: u16 = c.id(prefix)?;
        self.record(kind, usize::from(id), c.line);
        Ok(id)
    }

    /// `KW [FLAG] iA, iB`, when the next line is one: an integer expression per player
    /// (`score`, `heuristic`), and whether the optional word `flag` was there.
    fn per_player_ints(
        &mut self,
        kw: &str,
        flag: Option<&str>,
    ) -> Result<(Option<[u16; 2]>, bool)> {
        let Some(mut c) = self.top(kw) else {
            return Ok((None, false));
        };
        let flagged = flag.is_some_and(|f| c.eat_word(f));
        let a = self.id(&mut c, "i", Kind::Int)?;
        c.expect(",")?;
        let b = self.id(&mut c, "i", Kind::Int)?;
        c.end()?;
        Ok((Some([a, b]), flagged))
    }

    /// `repetitions ignore slot N, ..., mover`, when the next line is one.
    fn history_ignores(&mut self) -> Result<super::HistoryIgnores> {
        let mut ignores = super::HistoryIgnores::default();
        let Some(mut c) = self.top("repetitions") else {
            return Ok(ignores);
        };
        c.expect_word("ignore")?;
        loop {
            if c.eat_word("mover") {
                ignores.mover = true;
            } else {
                c.expect_word("slot")?;
                let slot = self.num_ref(&mut c, "a counter slot", Kind::Slot)?;
                ignores.slots.push(slot);
            }
            if !c.eat(",") {
                break;
            }
        }
        c.end()?;
        Ok(ignores)
    }

    /// A bare number, recorded as a reference of `kind`.
    fn num_ref<T: TryFrom<i128> + Copy + Into<u64>>(
        &mut self,
        c: &mut Cur<'_>,
        what: &str,
        kind: Kind,
    ) -> Result<T> {
        let v: T = c.number(what)?;
        let id = usize::try_from(v.into()).unwrap_or(usize::MAX);
        self.record(kind, id, c.line);
        Ok(v)
    }

    // ---- the program ---------------------------------------------------------------------------

    fn program(mut self) -> Result<Program> {
        let mut c = self.expect_top("game")?;
        let name = c.string()?;
        c.end()?;
        let mut c = self.expect_top("players")?;
        let players = c.word_list("a player's name")?;
        self.players = Refs::new(&players, "player");
        let mut options = Vec::new();
        while let Some(mut c) = self.top("option") {
            let n = c.word("an option's name")?;
            c.expect("=")?;
            let v = c.word("an option's value")?;
            c.end()?;
            options.push((n, v));
        }
        let board = self.board()?;
        let relations = self.each("relation", |p, c, i| p.relation(c, i, &board))?;
        let patterns = self.each("pattern", Self::pattern)?;
        let zones = self.each("zone", Self::zone)?;
        let pieces = self.each("piece", Self::piece)?;
        let counters = self.each("counter", Self::counter)?;
        let (layers, layer_lines): (Vec<_>, Vec<_>) =
            self.each("layer", Self::layer)?.into_iter().unzip();
        let shapes = self.each("shape", Self::shape)?;
        let sets = self.numbered("sets", "s", Self::set_expr)?;
        let ints = self.numbered("ints", "i", Self::int_expr)?;
        let bools = self.numbered("bools", "b", Self::bool_expr)?;
        let setup = self.code("setup")?;
        let turn = self.code("turn")?;
        let no_moves = self.code("no moves")?;
        let mut distinct_blocks = 0;
        if let Some(mut c) = self.top("distinct") {
            c.expect_word("blocks")?;
            distinct_blocks = c.number("a number of blocks")?;
            c.end()?;
        }
        let (score, score_decimal) = self.per_player_ints("score", Some("decimal"))?;
        let (heuristic, _) = self.per_player_ints("heuristic", None)?;
        let history_ignores = self.history_ignores()?;
        let markers = self.each("marker", Self::marker)?;
        let status = self.each("status", Self::status)?;
        if let Some(mut c) = self.top("templates") {
            c.end()?;
            while let Some(mut c) = self.sub() {
                if !self.template_ref(&mut c)?.1 {
                    return Err(c.expected("`=` and the template's parts"));
                }
                c.end()?;
            }
        }
        let shape_names: Vec<String> = shapes.iter().map(|s: &Shape| s.name.clone()).collect();
        let shape_refs = Refs::new(&shape_names, "shape");
        let placements = self.each("placements", |p, c, i| p.placements(c, i, &shape_refs))?;
        let mut c = self.expect_top("end")?;
        c.end()?;
        if let Some(&(line, _)) = self.lines.get(self.next) {
            return Err(IrParseError {
                line,
                message: "expected nothing after `end`".into(),
            });
        }
        let end_line = c.line;
        let templates = self.resolve_templates(end_line)?;
        let program = Program {
            name,
            players,
            board,
            relations,
            patterns,
            zones,
            pieces,
            counters,
            sets,
            ints,
            bools,
            templates,
            setup,
            turn,
            no_moves,
            distinct_blocks,
            layers,
            shapes,
            placements,
            score,
            score_decimal,
            heuristic,
            markers,
            status,
            options,
            history_ignores,
            rule_spans: super::RuleSpans::default(),
            pick_spans: super::RuleSpans::default(),
        };
        self.check_refs(&program)?;
        check_layers(&program, &layer_lines)?;
        Ok(program)
    }

    /// Every line that starts with `kw`, in order, each read by `read` with its index.
    fn each<T>(
        &mut self,
        kw: &str,
        mut read: impl FnMut(&mut Self, Cur<'t>, usize) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut out = Vec::new();
        while let Some(c) = self.top(kw) {
            out.push(read(self, c, out.len())?);
        }
        Ok(out)
    }

    /// `zone #I NAME = CELLS`.
    fn zone(&mut self, mut c: Cur<'t>, i: usize) -> Result<Zone> {
        index(&mut c, i)?;
        let name = c.word("a zone's name")?;
        c.expect("=")?;
        let cells = self.cell_set(&mut c)?;
        c.end()?;
        Ok(Zone { name, cells })
    }

    /// `piece #I NAME symbols ["..", ..]`.
    fn piece(&mut self, mut c: Cur<'t>, i: usize) -> Result<Piece> {
        index(&mut c, i)?;
        let name = c.word("a piece's name")?;
        c.expect_word("symbols")?;
        c.expect("[")?;
        let mut symbols = Vec::new();
        if !c.eat("]") {
            loop {
                symbols.push(c.string()?);
                if c.eat("]") {
                    break;
                }
                c.expect(",")?;
            }
        }
        c.end()?;
        Ok(Piece { name, symbols })
    }

    /// `layer NAME slot N`, with its line for [`check_layers`].
    fn layer(&mut self, mut c: Cur<'t>, _: usize) -> Result<((String, u16), usize)> {
        let name = c.word("a layer's name")?;
        c.expect_word("slot")?;
        let base: u16 = c.number("a counter slot")?;
        c.end()?;
        Ok(((name, base), c.line))
    }

    /// `marker "TEXT" on sN legend "..."`.
    fn marker(&mut self, mut c: Cur<'t>, _: usize) -> Result<Marker> {
        let text = c.string()?;
        c.expect_word("on")?;
        let set = self.id(&mut c, "s", Kind::Set)?;
        c.expect_word("legend")?;
        let legend = c.string()?;
        c.end()?;
        Ok(Marker { text, set, legend })
    }

    /// `status tN [when bN]`.
    fn status(&mut self, mut c: Cur<'t>, _: usize) -> Result<(u16, Option<u16>)> {
        let (t, _) = self.template_ref(&mut c)?;
        let when = if c.eat_word("when") {
            Some(self.id(&mut c, "b", Kind::Bool)?)
        } else {
            None
        };
        c.end()?;
        Ok((t, when))
    }

    fn board(&mut self) -> Result<Board> {
        let mut c = self.expect_top("cells")?;
        let n: usize = c.number("the number of cells")?;
        if n > rulestone_base::MAX_CELLS {
            return Err(c.error(format!(
                "a board has at most {} cells, not {n}",
                rulestone_base::MAX_CELLS
            )));
        }
        c.expect("(")?;
        c.expect_word("axes")?;
        let mut axes = Vec::new();
        if !c.eat(")") {
            loop {
                axes.push(c.word("an axis name")?);
                if c.eat(")") {
                    break;
                }
                c.expect(",")?;
            }
        }
        c.end()?;
        let mut names = Vec::new();
        let mut coords = Vec::new();
        while let Some(mut c) = self.sub() {
            index_bare(&mut c, names.len())?;
            names.push(c.word("a cell's name")?);
            c.expect("(")?;
            for a in 0..axes.len() {
                if a > 0 {
                    c.expect(",")?;
                }
                coords.push(c.number::<i32>("a coordinate")?);
            }
            c.expect(")")?;
            c.end()?;
        }
        if names.len() != n {
            let line = self.lines.get(self.next).map_or(self.eof, |l| l.0);
            return Err(IrParseError {
                line,
                message: format!("expected {n} cells, found {}", names.len()),
            });
        }
        self.cells = Refs::new(&names, "cell");
        self.axes = Refs::new(&axes, "axis");
        Ok(Board::new(axes, names, coords))
    }

    fn relation(&mut self, mut c: Cur<'t>, i: usize, board: &Board) -> Result<Relation> {
        index(&mut c, i)?;
        let name = c.word("a relation's name")?;
        let per = c.eat_word("per");
        if per {
            c.expect_word("player")?;
        }
        c.end()?;
        let n = board.len();
        let mut masks: Vec<Option<CellSet>> = vec![None; n];
        let mut per_player = if per {
            vec![vec![CellSet::EMPTY; n]; self.players.len]
        } else {
            Vec::new()
        };
        let mut rays = Vec::new();
        let mut names = Vec::new();
        let mut opposite = None;
        let mut mirrors = Vec::new();
        while let Some(mut c) = self.sub() {
            if c.eat_word("vector") {
                index_bare(&mut c, rays.len())?;
                names.push(c.word("a vector's name")?);
                let owner = if c.eat_word("for") {
                    Some(self.players.read_u8(&mut c)?)
                } else {
                    None
                };
                c.expect(":")?;
                let mut next = vec![NO_CELL; n];
                while !c.at_end() {
                    let from = self.cells.read(&mut c)?;
                    c.expect(">")?;
                    let to = self.cells.read_u16(&mut c)?;
                    if next[from] != NO_CELL {
                        return Err(c.error("a cell has two next cells along one vector"));
                    }
                    next[from] = to;
                }
                rays.push(Ray::new(owner, next));
            } else if c.eat_word("opposite") {
                if opposite.is_some() {
                    return Err(c.error("a second `opposite` line in one relation"));
                }
                let mut list = Vec::new();
                while !c.at_end() {
                    list.push(c.dir_index()?);
                }
                opposite = Some(list);
            } else if c.eat_word("mirror") {
                let a = self.axes.read(&mut c)?;
                if a != mirrors.len() {
                    return Err(c.error(format!(
                        "expected the mirror line of axis #{}, found axis #{a}",
                        mirrors.len()
                    )));
                }
                let mut list = Vec::new();
                while !c.at_end() {
                    list.push(c.dir_index()?);
                }
                mirrors.push(list);
            } else {
                let cell = self.cells.read(&mut c)?;
                let twice = "a second line for one cell in one table";
                if c.eat_word("for") {
                    if !per {
                        return Err(c.error(
                            "a player's table in a relation without `per player` on its first line",
                        ));
                    }
                    let pl = self.players.read(&mut c)?;
                    c.expect("->")?;
                    let set = self.cell_set(&mut c)?;
                    c.end()?;
                    if !per_player[pl][cell].is_empty() {
                        return Err(c.error(twice));
                    }
                    per_player[pl][cell] = set;
                } else {
                    c.expect("->")?;
                    let set = self.cell_set(&mut c)?;
                    c.end()?;
                    if masks[cell].is_some() {
                        return Err(c.error(twice));
                    }
                    masks[cell] = Some(set);
                }
            }
        }
        let masks = masks
            .into_iter()
            .enumerate()
            .map(|(cell, m)| {
                m.unwrap_or_else(|| {
                    per_player
                        .iter()
                        .fold(CellSet::EMPTY, |acc, t| acc | t[cell])
                })
            })
            .collect();
        Ok(Relation {
            name,
            masks,
            per_player,
            rays,
            opposite: opposite.unwrap_or_default(),
            names,
            mirrors,
        })
    }

    fn pattern(&mut self, mut c: Cur<'t>, i: usize) -> Result<Pattern> {
        index(&mut c, i)?;
        let name = c.word("a pattern's name")?;
        c.expect("(")?;
        let count: usize = c.number("a number of entries")?;
        c.expect_word("entries")?;
        c.expect(")")?;
        c.end()?;
        let n = self.cells.len;
        let mut per_cell = vec![0u32; n];
        let mut instances = Vec::new();
        let mut last = 0;
        while let Some(mut c) = self.sub() {
            let cell = self.cells.read(&mut c)?;
            if cell < last {
                return Err(c.error("a pattern's lines go in board order"));
            }
            last = cell;
            c.expect_word("in")?;
            instances.push(self.cell_set(&mut c)?);
            c.end()?;
            per_cell[cell] += 1;
        }
        if instances.len() != count {
            let line = self.lines.get(self.next).map_or(self.eof, |l| l.0);
            return Err(IrParseError {
                line,
                message: format!(
                    "expected {count} entries of pattern #{i}, found {}",
                    instances.len()
                ),
            });
        }
        let mut offsets = vec![0u32];
        let mut total = 0u32;
        for k in per_cell {
            total += k;
            offsets.push(total);
        }
        Ok(Pattern {
            name,
            offsets,
            instances,
        })
    }

    fn counter(&mut self, mut c: Cur<'t>, i: usize) -> Result<Counter> {
        c.expect_word("slot")?;
        index_bare(&mut c, i)?;
        let name = c.word("a counter's name")?;
        let player = if c.eat("[") {
            let p = self.players.read_u8(&mut c)?;
            c.expect("]")?;
            Some(p)
        } else {
            None
        };
        c.expect("=")?;
        let initial = c.number("an initial value")?;
        let view = if c.eat("(hidden)") {
            CounterView::Hidden
        } else if c.eat("(directions of") {
            let r = self.id(&mut c, "rel#", Kind::Relation)?;
            c.expect(")")?;
            CounterView::Directions(r)
        } else {
            CounterView::Plain
        };
        c.end()?;
        Ok(Counter {
            name,
            player,
            initial,
            view,
        })
    }

    fn shape(&mut self, mut c: Cur<'t>, i: usize) -> Result<Shape> {
        index(&mut c, i)?;
        let name = c.word("a shape's name")?;
        c.expect_word("count")?;
        let count = c.number("a count")?;
        c.expect_word("points")?;
        let points = c.number("points")?;
        c.expect_word("stock")?;
        c.expect_word("slot")?;
        let stock: u16 = c.number("a counter slot")?;
        // Both players' stocks.
        self.record(Kind::Slot, usize::from(stock) + 1, c.line);
        let flip = if c.eat_word("flip") {
            Some(c.string()?)
        } else {
            None
        };
        c.end()?;
        Ok(Shape {
            name,
            count,
            points,
            flip,
            stock,
        })
    }

    fn placements(&mut self, mut c: Cur<'t>, i: usize, shapes: &Refs) -> Result<Placements> {
        index(&mut c, i)?;
        c.expect("(")?;
        let count: usize = c.number("a number of placements")?;
        c.expect_word("placements")?;
        c.expect(")")?;
        c.expect_word("facings")?;
        let facings = c.word_list("a facing's name")?;
        let facing_refs = Refs::new(&facings, "facing");
        let mut table = Placements {
            facings,
            by_shape: Vec::new(),
            instances: Vec::new(),
            parts: Vec::new(),
        };
        let mut by_shape_line = None;
        while let Some(mut c) = self.sub() {
            if c.eat_word("by") {
                c.expect_word("shape")?;
                if by_shape_line.is_some() {
                    return Err(c.error("a second `by shape` line in one table"));
                }
                while !c.at_end() {
                    let a: u32 = c.number("the first placement of a shape")?;
                    c.expect("..")?;
                    let b: u32 = c.number("the end of a shape's placements")?;
                    table.by_shape.push((a, b));
                }
                by_shape_line = Some(c.line);
                continue;
            }
            let shape = shapes.read_u8(&mut c)?;
            c.expect_word("at")?;
            let anchor = self.cells.read_u16(&mut c)?;
            c.expect_word("facing")?;
            let facing = facing_refs.read_u8(&mut c)?;
            let flipped = c.eat_word("flipped");
            c.expect(":")?;
            let first = u32::try_from(table.parts.len())
                .map_err(|_| c.error("too many parts in one table"))?;
            let mut cells = CellSet::EMPTY;
            let mut max_top = 0;
            let mut len = 0u8;
            while !c.at_end() {
                if len > 0 {
                    c.expect(",")?;
                }
                let cell = self.cells.read_u16(&mut c)?;
                let bottom = c.number("a bottom height")?;
                c.expect("-")?;
                let top = c.number_here("a top height")?;
                let foot = c.eat_word("foot");
                cells.insert(usize::from(cell));
                max_top = max_top.max(top);
                len = len
                    .checked_add(1)
                    .ok_or_else(|| c.error("more than 255 parts in one placement"))?;
                table.parts.push(PlacedCell {
                    cell,
                    bottom,
                    top,
                    foot,
                });
            }
            table.instances.push(Placement {
                shape,
                anchor,
                facing,
                flipped,
                cells,
                first,
                len,
                max_top,
            });
        }
        let line = self.lines.get(self.next).map_or(self.eof, |l| l.0);
        if table.instances.len() != count {
            return Err(IrParseError {
                line,
                message: format!(
                    "expected {count} placements in table #{i}, found {}",
                    table.instances.len()
                ),
            });
        }
        let line = by_shape_line.unwrap_or(line);
        if let Some((a, b)) = table
            .by_shape
            .iter()
            .find(|(a, b)| a > b || *b as usize > count)
        {
            return Err(IrParseError {
                line,
                message: format!("placements {a}..{b} are not within 0..{count}"),
            });
        }
        Ok(table)
    }

    /// One program: its header, then `PC  OP` lines.
    fn code(&mut self, kw: &str) -> Result<Code> {
        self.expect_top(kw)?.end()?;
        let mut ops = Vec::new();
        let mut targets = Vec::new();
        let mut last_line = None;
        while let Some(mut c) = self.sub() {
            index_bare(&mut c, ops.len())?;
            ops.push(self.op(&mut c, &mut targets)?);
            c.end()?;
            last_line = Some(c.line);
        }
        for (t, line) in targets {
            if t >= ops.len() {
                return Err(IrParseError {
                    line,
                    message: format!(
                        "jump target {t} is outside `{kw}`, which has {} ops",
                        ops.len()
                    ),
                });
            }
        }
        if let (Some(op), Some(line)) = (ops.last(), last_line) {
            if !matches!(op, Op::Done) {
                return Err(IrParseError {
                    line,
                    message: format!("expected `done` as the last op of `{kw}`"),
                });
            }
        }
        Ok(Code::new(ops))
    }

    fn resolve_templates(&mut self, end_line: usize) -> Result<Vec<Template>> {
        let mut out = Vec::new();
        for (t, def) in std::mem::take(&mut self.templates).into_iter().enumerate() {
            match def {
                Some((tpl, _)) => out.push(tpl),
                None => {
                    let line = self
                        .template_uses
                        .iter()
                        .find(|(u, _)| *u == t)
                        .map_or(end_line, |u| u.1);
                    return Err(IrParseError {
                        line,
                        message: format!(
                            "template t{t} is never defined (`t{t} = PARTS` where it is first used, or under `templates`)"
                        ),
                    });
                }
            }
        }
        if let Some(&(t, line)) = self.template_uses.iter().find(|(t, _)| *t >= out.len()) {
            return Err(IrParseError {
                line,
                message: format!("template t{t} is never defined (`t{t} = PARTS` where it is first used, or under `templates`)"),
            });
        }
        Ok(out)
    }

    fn check_refs(&self, p: &Program) -> Result<()> {
        for &(kind, id, line) in &self.refs {
            let (len, what, prefix) = match kind {
                Kind::Set => (p.sets.len(), "sets", "s"),
                Kind::Int => (p.ints.len(), "integers", "i"),
                Kind::Bool => (p.bools.len(), "conditions", "b"),
                Kind::Relation => (p.relations.len(), "relations", "rel#"),
                Kind::Pattern => (p.patterns.len(), "patterns", "pattern#"),
                Kind::Table => (p.placements.len(), "placement tables", "table "),
                Kind::Slot => (p.counters.len(), "counter slots", "slot "),
                Kind::Var => (MAX_VARS, "turn variables", "v"),
                Kind::Local => (MAX_SET_LOCALS, "`let` slots", "local"),
                Kind::Placed => (MAX_PLACED, "`place` slots", "placed"),
                Kind::Block => (p.distinct_blocks, "`distinct` blocks", "#"),
                Kind::Player => (p.players.len(), "players", "player#"),
            };
            if id >= len {
                return Err(IrParseError {
                    line,
                    message: format!("there is no `{prefix}{id}` (there are {len} {what})"),
                });
            }
        }
        Ok(())
    }

    // ---- templates -----------------------------------------------------------------------------

    /// `tN` (a use) or `tN = PARTS` (the definition); whether it was the definition.
    fn template_ref(&mut self, c: &mut Cur<'_>) -> Result<(u16, bool)> {
        let t: u16 = c.id("t")?;
        let i = usize::from(t);
        self.template_uses.push((i, c.line));
        if c.eat("=") {
            let parts = self.template_parts(c)?;
            if self.templates.len() <= i {
                self.templates.resize_with(i + 1, || None);
            }
            if let Some((_, first)) = &self.templates[i] {
                return Err(c.error(format!(
                    "template t{t} is defined twice (first on line {first})"
                )));
            }
            self.templates[i] = Some((Template { parts }, c.line));
            return Ok((t, true));
        }
        Ok((t, false))
    }

    fn template_parts(&mut self, c: &mut Cur<'_>) -> Result<Vec<TemplatePart>> {
        let mut parts = Vec::new();
        while !c.at_end() && !c.peek_word("when") {
            let part = if c.peek("\"") {
                TemplatePart::Text(c.string()?)
            } else if c.eat("letter(") {
                let i = self.id(c, "i", Kind::Int)?;
                c.expect(")")?;
                TemplatePart::Letter(i)
            } else if c.eat("decimal(") {
                let i = self.id(c, "i", Kind::Int)?;
                c.expect(")")?;
                TemplatePart::Decimal(i)
            } else if c.eat("shape(") {
                let (slot, table) = self.placed_in_table(c)?;
                TemplatePart::ShapeName { slot, table }
            } else if c.eat("facing(") {
                let (slot, table) = self.placed_in_table(c)?;
                TemplatePart::Facing { slot, table }
            } else if c.eat("name(") {
                let relation = self.id(c, "rel#", Kind::Relation)?;
                let dir = self.dir(c, 0)?;
                c.expect(")")?;
                TemplatePart::Dir { relation, dir }
            } else if c.peek_id("i") {
                TemplatePart::Int(self.id(c, "i", Kind::Int)?)
            } else if starts_cell_ref(c) {
                TemplatePart::Cell(self.cell_ref(c)?)
            } else if starts_player_ref(c) {
                TemplatePart::Player(self.player_ref(c)?)
            } else {
                return Err(c.expected(
                    "a template part (a string, `iN`, a cell, a player, `letter(..)`, `shape(..)`, `facing(..)` or `name(..)`)",
                ));
            };
            parts.push(part);
        }
        Ok(parts)
    }

    /// `placedN table T)`.
    fn placed_in_table(&mut self, c: &mut Cur<'_>) -> Result<(u8, u16)> {
        let slot: u8 = c.id("placed")?;
        self.record(Kind::Placed, usize::from(slot), c.line);
        c.expect_word("table")?;
        let table = self.num_ref(c, "a placement table", Kind::Table)?;
        c.expect(")")?;
        Ok((slot, table))
    }

    // ---- references ----------------------------------------------------------------------------

    fn var(&mut self, c: &mut Cur<'_>) -> Result<u8> {
        let v: u8 = c.id("v")?;
        self.record(Kind::Var, usize::from(v), c.line);
        Ok(v)
    }

    fn cell_set(&mut self, c: &mut Cur<'_>) -> Result<CellSet> {
        c.expect("{")?;
        let mut set = CellSet::EMPTY;
        while !c.eat("}") {
            if c.at_end() {
                return Err(c.expected("a cell or `}`"));
            }
            set.insert(self.cells.read(c)?);
        }
        Ok(set)
    }

    /// `vN`, `cell#N`, `candidate` or `cell(cN)`.
    fn cell_ref(&mut self, c: &mut Cur<'_>) -> Result<CellRef> {
        if c.eat_word("candidate") {
            Ok(CellRef::Candidate)
        } else if c.eat("cell#") {
            let cell: u16 = c.number_here("a cell index")?;
            if usize::from(cell) >= self.cells.len {
                return Err(c.error(format!(
                    "there is no cell #{cell} (there are {})",
                    self.cells.len
                )));
            }
            Ok(CellRef::Const(cell))
        } else if c.eat("cell(") {
            let slot = self.id(c, "c", Kind::Slot)?;
            c.expect(")")?;
            Ok(CellRef::Slot(slot))
        } else if c.peek_id("v") {
            Ok(CellRef::Var(self.var(c)?))
        } else {
            Err(c.expected("a cell (`vN`, `cell#N`, `candidate` or `cell(cN)`)"))
        }
    }

    /// `mover`, `opponent`, `player#N` or `owner(CELL)`.
    fn player_ref(&mut self, c: &mut Cur<'_>) -> Result<PlayerRef> {
        if c.eat_word("mover") {
            Ok(PlayerRef::Mover)
        } else if c.eat_word("opponent") {
            Ok(PlayerRef::Opponent)
        } else if c.eat("player#") {
            Ok(PlayerRef::Const(self.player_index(c)?))
        } else if c.eat("owner(") {
            let cell = self.cell_ref(c)?;
            c.expect(")")?;
            Ok(PlayerRef::Owner(cell))
        } else {
            Err(c.expected("a player (`mover`, `opponent`, `player#N` or `owner(CELL)`)"))
        }
    }

    fn player_index(&mut self, c: &mut Cur<'_>) -> Result<u8> {
        let i: u8 = c.number_here("a player index")?;
        self.record(Kind::Player, usize::from(i), c.line);
        Ok(i)
    }

    /// A cell reference as Rust's `Debug` writes it: `Var(N)`, `Const(N)`, `Candidate`,
    /// `Slot(N)`.
    fn cell_term(&mut self, c: &mut Cur<'_>) -> Result<CellRef> {
        if c.eat_word("Candidate") {
            return Ok(CellRef::Candidate);
        }
        let r = if c.eat("Var(") {
            let v: u8 = c.number("a turn variable")?;
            self.record(Kind::Var, usize::from(v), c.line);
            CellRef::Var(v)
        } else if c.eat("Const(") {
            let cell: u16 = c.number("a cell index")?;
            if usize::from(cell) >= self.cells.len {
                return Err(c.error(format!(
                    "there is no cell #{cell} (there are {})",
                    self.cells.len
                )));
            }
            CellRef::Const(cell)
        } else if c.eat("Slot(") {
            CellRef::Slot(self.num_ref(c, "a counter slot", Kind::Slot)?)
        } else {
            return Err(c.expected("a cell (`Var(N)`, `Const(N)`, `Candidate` or `Slot(N)`)"));
        };
        c.expect(")")?;
        Ok(r)
    }

    /// A player reference as Rust's `Debug` writes it.
    fn player_term(&mut self, c: &mut Cur<'_>) -> Result<PlayerRef> {
        if c.eat_word("Mover") {
            Ok(PlayerRef::Mover)
        } else if c.eat_word("Opponent") {
            Ok(PlayerRef::Opponent)
        } else if c.eat("Const(") {
            c.skip_ws();
            let i = self.player_index(c)?;
            c.expect(")")?;
            Ok(PlayerRef::Const(i))
        } else if c.eat("Owner(") {
            let cell = self.cell_term(c)?;
            c.expect(")")?;
            Ok(PlayerRef::Owner(cell))
        } else {
            Err(c.expected("a player (`Mover`, `Opponent`, `Const(N)` or `Owner(CELL)`)"))
        }
    }

    /// A direction value as Rust's `Debug` writes it.
    fn dir(&mut self, c: &mut Cur<'_>, depth: usize) -> Result<DirExpr> {
        if depth > MAX_DEPTH {
            return Err(c.error("a direction value nested too deeply"));
        }
        let d = if c.eat("Var(") {
            let v: u8 = c.number("a turn variable")?;
            self.record(Kind::Var, usize::from(v), c.line);
            DirExpr::Var(v)
        } else if c.eat("Neg(") {
            DirExpr::Neg(Box::new(self.dir(c, depth + 1)?))
        } else if c.eat("Turn(") {
            let d = self.dir(c, depth + 1)?;
            c.expect(",")?;
            DirExpr::Turn(Box::new(d), c.number("a number of places")?)
        } else if c.eat("Index(") {
            DirExpr::Index(self.num_ref(c, "an integer", Kind::Int)?)
        } else if c.eat("Mirror(") {
            let d = self.dir(c, depth + 1)?;
            c.expect(",")?;
            let axis: u8 = c.number("an axis")?;
            DirExpr::Mirror(Box::new(d), axis)
        } else {
            return Err(c.expected(
                "a direction (`Var(N)`, `Neg(D)`, `Turn(D, K)`, `Index(N)` or `Mirror(D, AXIS)`)",
            ));
        };
        c.expect(")")?;
        Ok(d)
    }

    // ---- expressions ---------------------------------------------------------------------------

    fn set_expr(&mut self, c: &mut Cur<'_>) -> Result<SetExpr> {
        if c.peek("{") {
            let save = c.pos;
            c.expect("{")?;
            if starts_cell_ref(c) {
                let r = self.cell_ref(c)?;
                c.expect("}")?;
                return Ok(SetExpr::Single(r));
            }
            c.pos = save;
            return Ok(SetExpr::Const(self.cell_set(c)?));
        }
        if c.eat_word("empty") {
            return Ok(SetExpr::Empty);
        }
        if c.eat_word("occupied") {
            return Ok(SetExpr::Occupied);
        }
        if c.eat_word("pieces") {
            c.expect_word("of")?;
            return Ok(SetExpr::PlayerPieces(self.player_ref(c)?));
        }
        if c.eat_word("code") {
            let code = c.number("a piece code")?;
            c.expect_word("of")?;
            let player = self.player_ref(c)?;
            return Ok(SetExpr::Pieces { code, player });
        }
        for (name, make) in [
            (
                "all(",
                (|relation, of| SetExpr::All { relation, of }) as fn(u16, u16) -> SetExpr,
            ),
            ("none(", |relation, of| SetExpr::None { relation, of }),
            ("any(", |relation, of| SetExpr::Any { relation, of }),
        ] {
            if c.eat(name) {
                let relation = self.id(c, "rel#", Kind::Relation)?;
                c.expect(",")?;
                let of = self.id(c, "s", Kind::Set)?;
                c.expect(")")?;
                return Ok(make(relation, of));
            }
        }
        if c.eat("one(") {
            let of = self.id(c, "s", Kind::Set)?;
            c.expect(")")?;
            return Ok(SetExpr::First(of));
        }
        if c.eat("group(") {
            let relation = self.id(c, "rel#", Kind::Relation)?;
            c.expect(",")?;
            let from = self.id(c, "s", Kind::Set)?;
            c.expect(",")?;
            let through = self.id(c, "s", Kind::Set)?;
            c.expect(")")?;
            return Ok(SetExpr::Group {
                relation,
                from,
                through,
            });
        }
        if c.eat("step(") {
            return self.step_set(c);
        }
        if c.eat("between(") {
            return self.between_set(c);
        }
        if c.eat("brackets(") {
            let relation = self.id(c, "rel#", Kind::Relation)?;
            c.expect(",")?;
            let run = self.id(c, "s", Kind::Set)?;
            c.expect(",")?;
            let end = self.id(c, "s", Kind::Set)?;
            c.expect(")")?;
            return Ok(SetExpr::Brackets { relation, run, end });
        }
        if c.eat("line(") {
            return self.line_set(c);
        }
        if c.peek_id("local") {
            let slot: u8 = c.id("local")?;
            self.record(Kind::Local, usize::from(slot), c.line);
            return Ok(SetExpr::Local(slot));
        }
        if c.eat_word("cells") {
            if c.eat_word("of") {
                let slot: u8 = c.id("placed")?;
                self.record(Kind::Placed, usize::from(slot), c.line);
                c.expect("(")?;
                c.expect_word("table")?;
                let table = self.num_ref(c, "a placement table", Kind::Table)?;
                c.expect(")")?;
                return Ok(SetExpr::Placed { slot, table });
            }
            c.expect_word("with")?;
            let axis = self.axes.read_u8(c)?;
            let op = cmp_op(c)?;
            let value = self.id(c, "i", Kind::Int)?;
            return Ok(SetExpr::AxisCmp { axis, op, value });
        }
        if c.peek_id("s") {
            let a = self.id(c, "s", Kind::Set)?;
            if c.eat_word("by") {
                c.expect_word("rows")?;
                c.expect_word("of")?;
                let axis = self.axes.read_u8(c)?;
                c.expect_word("where")?;
                if c.peek_id("i") {
                    let key = self.id(c, "i", Kind::Int)?;
                    let op = cmp_op(c)?;
                    let value = self.id(c, "i", Kind::Int)?;
                    return Ok(SetExpr::AxisKey {
                        base: a,
                        axis,
                        key,
                        op,
                        value,
                    });
                }
                let cond = self.id(c, "b", Kind::Bool)?;
                return Ok(SetExpr::AxisRows {
                    base: a,
                    axis,
                    cond,
                });
            }
            if c.eat_word("where") {
                let cond = self.id(c, "b", Kind::Bool)?;
                return Ok(SetExpr::Where { base: a, cond });
            }
            let make: fn(u16, u16) -> SetExpr = if c.eat("|") {
                SetExpr::Union
            } else if c.eat("&") {
                SetExpr::Inter
            } else if c.eat("-") {
                SetExpr::Diff
            } else {
                return Err(c.expected("`|`, `&`, `-` or `where`"));
            };
            let b = self.id(c, "s", Kind::Set)?;
            return Ok(make(a, b));
        }
        Err(c.expected("a set expression"))
    }

    /// `step(R, [D,] S)` after its `step(`.
    fn step_set(&mut self, c: &mut Cur<'_>) -> Result<SetExpr> {
        let relation = self.id(c, "rel#", Kind::Relation)?;
        let dir = if c.eat(",") {
            None
        } else {
            let d = self.dir(c, 0)?;
            c.expect(",")?;
            Some(d)
        };
        let of = self.id(c, "s", Kind::Set)?;
        c.expect(")")?;
        Ok(match dir {
            None => SetExpr::Step { relation, of },
            Some(dir) => SetExpr::StepDir { relation, dir, of },
        })
    }

    /// `between(R, C, S, S)` after its `between(`.
    fn between_set(&mut self, c: &mut Cur<'_>) -> Result<SetExpr> {
        let relation = self.id(c, "rel#", Kind::Relation)?;
        c.expect(",")?;
        let from = self.cell_ref(c)?;
        c.expect(",")?;
        let run = self.id(c, "s", Kind::Set)?;
        c.expect(",")?;
        let end = self.id(c, "s", Kind::Set)?;
        c.expect(")")?;
        Ok(SetExpr::Between {
            relation,
            from,
            run,
            end,
        })
    }

    /// `line(R, None | Some(D), C, None | Some(S))` after its `line(`.
    fn line_set(&mut self, c: &mut Cur<'_>) -> Result<SetExpr> {
        let relation = self.id(c, "rel#", Kind::Relation)?;
        let dir = if c.eat_word("None") {
            None
        } else {
            c.expect("Some(")?;
            let d = self.dir(c, 0)?;
            c.expect(")")?;
            Some(d)
        };
        c.expect(",")?;
        let from = self.cell_ref(c)?;
        c.expect(",")?;
        let run = if c.eat_word("None") {
            None
        } else {
            c.expect("Some(")?;
            let s = self.num_ref(c, "a set", Kind::Set)?;
            c.expect(")")?;
            Some(s)
        };
        c.expect(")")?;
        Ok(SetExpr::Line {
            relation,
            dir,
            from,
            run,
        })
    }

    fn int_expr(&mut self, c: &mut Cur<'_>) -> Result<IntExpr> {
        let word = c.word("an integer expression")?;
        // The closing bracket: `)` after `Name(..`, `}` after `Name { ..`.
        let mut close = ")";
        let x = match word.as_str() {
            "Const" => {
                c.expect("(")?;
                IntExpr::Const(c.number("an integer")?)
            }
            "Counter" => {
                c.expect("(")?;
                IntExpr::Counter(self.num_ref(c, "a counter slot", Kind::Slot)?)
            }
            "PlayerCounter" => {
                c.expect("{")?;
                close = "}";
                c.expect("base:")?;
                let base = self.num_ref(c, "a counter slot", Kind::Slot)?;
                c.expect(",")?;
                c.expect("player:")?;
                let player = self.player_term(c)?;
                IntExpr::PlayerCounter { base, player }
            }
            "Axis" => {
                c.expect("{")?;
                close = "}";
                c.expect("cell:")?;
                let cell = self.cell_term(c)?;
                c.expect(",")?;
                c.expect("axis:")?;
                let axis: u8 = c.number("an axis")?;
                if usize::from(axis) >= self.axes.len {
                    return Err(c.error(format!(
                        "there is no axis #{axis} (there are {})",
                        self.axes.len
                    )));
                }
                IntExpr::Axis { cell, axis }
            }
            "CellCounter" => {
                c.expect("{")?;
                close = "}";
                c.expect("base:")?;
                let base = self.num_ref(c, "a counter slot", Kind::Slot)?;
                c.expect(",")?;
                c.expect("cell:")?;
                let cell = self.cell_term(c)?;
                IntExpr::CellCounter { base, cell }
            }
            "Points" => {
                c.expect("(")?;
                IntExpr::Points(self.player_term(c)?)
            }
            "DirIndex" => {
                c.expect("{")?;
                close = "}";
                c.expect("relation:")?;
                let relation = self.num_ref(c, "a relation", Kind::Relation)?;
                c.expect(",")?;
                c.expect("dir:")?;
                let dir = self.dir(c, 0)?;
                IntExpr::DirIndex { relation, dir }
            }
            "Won" => {
                c.expect("(")?;
                IntExpr::Won(self.player_term(c)?)
            }
            "CellId" => {
                c.expect("(")?;
                IntExpr::CellId(self.cell_term(c)?)
            }
            "Cond" => {
                c.expect("{")?;
                close = "}";
                c.expect("cond:")?;
                let cond = self.num_ref(c, "a condition", Kind::Bool)?;
                c.expect(",")?;
                c.expect("then:")?;
                let then = self.num_ref(c, "an integer", Kind::Int)?;
                c.expect(",")?;
                c.expect("otherwise:")?;
                let otherwise = self.num_ref(c, "an integer", Kind::Int)?;
                IntExpr::Cond {
                    cond,
                    then,
                    otherwise,
                }
            }
            "Count" => {
                c.expect("(")?;
                IntExpr::Count(self.num_ref(c, "a set", Kind::Set)?)
            }
            "CellSum" => {
                c.expect("{")?;
                close = "}";
                c.expect("base:")?;
                let base = self.num_ref(c, "a counter slot", Kind::Slot)?;
                c.expect(",")?;
                c.expect("of:")?;
                let of = self.num_ref(c, "a set", Kind::Set)?;
                IntExpr::CellSum { base, of }
            }
            "Neg" => {
                c.expect("(")?;
                IntExpr::Neg(self.num_ref(c, "an integer", Kind::Int)?)
            }
            "Bin" => {
                c.expect("{")?;
                close = "}";
                c.expect("op:")?;
                let op = match c.word("an operator")?.as_str() {
                    "Add" => IntOp::Add,
                    "Sub" => IntOp::Sub,
                    "Mul" => IntOp::Mul,
                    "Div" => IntOp::Div,
                    "Rem" => IntOp::Rem,
                    "Max" => IntOp::Max,
                    "Min" => IntOp::Min,
                    other => {
                        return Err(c.error(format!(
                            "expected `Add`, `Sub`, `Mul`, `Div`, `Rem`, `Max` or `Min`, \
                             found `{other}`"
                        )))
                    }
                };
                c.expect(",")?;
                c.expect("lhs:")?;
                let lhs = self.num_ref(c, "an integer", Kind::Int)?;
                c.expect(",")?;
                c.expect("rhs:")?;
                let rhs = self.num_ref(c, "an integer", Kind::Int)?;
                IntExpr::Bin { op, lhs, rhs }
            }
            // A bare word: nothing to close.
            "Repetitions" => return Ok(IntExpr::Repetitions),
            other => {
                return Err(c.error(format!(
                    "expected an integer expression (`Const(..)`, `Counter(..)`, `Bin {{ .. }}`, ...), found `{other}`"
                )))
            }
        };
        c.expect(close)?;
        Ok(x)
    }

    fn bool_expr(&mut self, c: &mut Cur<'_>) -> Result<BoolExpr> {
        if c.eat_word("true") {
            return Ok(BoolExpr::Const(true));
        }
        if c.eat_word("false") {
            return Ok(BoolExpr::Const(false));
        }
        if c.eat_word("not") {
            return Ok(BoolExpr::Not(self.id(c, "b", Kind::Bool)?));
        }
        if c.peek_id("b") {
            let x = self.id(c, "b", Kind::Bool)?;
            let make: fn(u16, u16) -> BoolExpr = if c.eat_word("and") {
                BoolExpr::And
            } else if c.eat_word("or") {
                BoolExpr::Or
            } else {
                return Err(c.expected("`and` or `or`"));
            };
            let y = self.id(c, "b", Kind::Bool)?;
            return Ok(make(x, y));
        }
        if c.peek_id("i") {
            let lhs = self.id(c, "i", Kind::Int)?;
            let op = cmp_op(c)?;
            let rhs = self.id(c, "i", Kind::Int)?;
            return Ok(BoolExpr::Cmp { op, lhs, rhs });
        }
        if c.peek("rel#") {
            let relation = self.id(c, "rel#", Kind::Relation)?;
            let dir = self.dir(c, 0)?;
            c.expect_word("in")?;
            c.expect("[")?;
            let a = c.number("a bit mask")?;
            c.expect(",")?;
            let b = c.number("a bit mask")?;
            c.expect("]")?;
            return Ok(BoolExpr::DirIn {
                relation,
                dir,
                members: [a, b],
            });
        }
        if c.eat("connected(") {
            let relation = self.id(c, "rel#", Kind::Relation)?;
            c.expect(",")?;
            let through = self.id(c, "s", Kind::Set)?;
            c.expect(",")?;
            let from = self.id(c, "s", Kind::Set)?;
            c.expect(",")?;
            let to = self.id(c, "s", Kind::Set)?;
            c.expect(")")?;
            return Ok(BoolExpr::Connected {
                relation,
                through,
                from,
                to,
            });
        }
        if c.eat("completes(") {
            let pattern = self.id(c, "pattern#", Kind::Pattern)?;
            c.expect(",")?;
            let cell = self.cell_ref(c)?;
            c.expect(",")?;
            let set = self.id(c, "s", Kind::Set)?;
            c.expect(")")?;
            return Ok(BoolExpr::Completes { pattern, cell, set });
        }
        if starts_cell_ref(c) {
            let lhs = self.cell_ref(c)?;
            if c.eat_word("in") {
                let set = self.id(c, "s", Kind::Set)?;
                return Ok(BoolExpr::In { cell: lhs, set });
            }
            let eq = equality(c)?;
            let rhs = self.cell_ref(c)?;
            return Ok(BoolExpr::CellEq { eq, lhs, rhs });
        }
        if starts_player_ref(c) {
            let lhs = self.player_ref(c)?;
            let eq = equality(c)?;
            let rhs = self.player_ref(c)?;
            return Ok(BoolExpr::PlayerEq { eq, lhs, rhs });
        }
        Err(c.expected("a condition"))
    }

    // ---- ops -----------------------------------------------------------------------------------

    /// A jump target, checked against the program's length once it is read.
    fn target(c: &mut Cur<'_>, targets: &mut Vec<(usize, usize)>) -> Result<u32> {
        let t: u32 = c.number("an op index")?;
        targets.push((t as usize, c.line));
        Ok(t)
    }

    fn op(&mut self, c: &mut Cur<'_>, targets: &mut Vec<(usize, usize)>) -> Result<Op> {
        if CHOICE_OPS.iter().any(|w| c.peek_word(w)) {
            return self.choice_op(c);
        }
        if c.peek_id("v") || ACTION_OPS.iter().any(|w| c.peek_word(w)) {
            return self.action_op(c);
        }
        if FLOW_OPS.iter().any(|w| c.peek_word(w)) {
            return self.flow_op(c, targets);
        }
        if EFFECT_OPS.iter().any(|w| c.peek_word(w)) {
            return self.effect_op(c);
        }
        Err(c.expected("an op (`pick`, `put`, `goto`, `done`, ...)"))
    }

    /// Ops that ask for a decision.
    fn choice_op(&mut self, c: &mut Cur<'_>) -> Result<Op> {
        if c.eat_word("pick") {
            let var = self.var(c)?;
            c.expect_word("in")?;
            if c.eat_word("directions") {
                c.expect_word("of")?;
                let relation = self.id(c, "rel#", Kind::Relation)?;
                return Ok(Op::PickDir { var, relation });
            }
            let from = self.id(c, "s", Kind::Set)?;
            return Ok(Op::Pick { var, from });
        }
        if c.eat_word("place") {
            let slot: u8 = c.id("placed")?;
            self.record(Kind::Placed, usize::from(slot), c.line);
            c.expect("(")?;
            c.expect_word("anchor")?;
            let anchor = self.var(c)?;
            c.expect(")")?;
            c.expect_word("from")?;
            c.expect_word("table")?;
            let table = self.num_ref(c, "a placement table", Kind::Table)?;
            c.expect_word("stock")?;
            c.expect_word("of")?;
            let player = self.player_ref(c)?;
            c.expect_word("on")?;
            c.expect_word("slot")?;
            let layer = self.num_ref(c, "a counter slot", Kind::Slot)?;
            c.expect_word("max")?;
            let max = self.id(c, "i", Kind::Int)?;
            let feet = if c.eat_word("feet") {
                c.expect_word("in")?;
                Some(self.id(c, "s", Kind::Set)?)
            } else {
                None
            };
            return Ok(Op::Place {
                slot,
                anchor,
                table,
                player,
                layer,
                max,
                feet,
            });
        }
        Err(c.expected("`pick` or `place`"))
    }

    /// Ops that change the board or set a turn variable.
    fn action_op(&mut self, c: &mut Cur<'_>) -> Result<Op> {
        if c.eat_word("let") {
            let slot: u8 = c.id("local")?;
            self.record(Kind::Local, usize::from(slot), c.line);
            c.expect("=")?;
            let set = self.id(c, "s", Kind::Set)?;
            let replay = !c.eat("(not on replay)");
            return Ok(Op::Let { slot, set, replay });
        }
        if c.eat_word("put") {
            c.expect_word("code")?;
            let code_base = c.number("a piece code")?;
            c.expect("+")?;
            let owner = self.player_ref(c)?;
            if c.eat_word("at") {
                let at = self.cell_ref(c)?;
                return Ok(Op::Put {
                    code_base,
                    owner,
                    at,
                });
            }
            c.expect_word("on")?;
            let at = self.id(c, "s", Kind::Set)?;
            return Ok(Op::PutAll {
                code_base,
                owner,
                at,
            });
        }
        if c.eat_word("remove") {
            if c.peek_id("s") {
                return Ok(Op::RemoveAll {
                    at: self.id(c, "s", Kind::Set)?,
                });
            }
            return Ok(Op::Remove {
                at: self.cell_ref(c)?,
            });
        }
        if c.eat_word("shift") {
            let at = self.id(c, "s", Kind::Set)?;
            c.expect_word("along")?;
            let relation = self.id(c, "rel#", Kind::Relation)?;
            return Ok(Op::Shift { at, relation });
        }
        if c.eat_word("move") {
            let from = self.cell_ref(c)?;
            c.expect_word("to")?;
            let to = self.cell_ref(c)?;
            return Ok(Op::Move { from, to });
        }
        if c.peek_id("v") {
            let var = self.var(c)?;
            c.expect("=")?;
            if c.eat_word("one") {
                c.expect_word("of")?;
                let set = self.id(c, "s", Kind::Set)?;
                return Ok(Op::SetVar { var, set });
            }
            let relation = self.id(c, "rel#", Kind::Relation)?;
            let dir = self.dir(c, 0)?;
            return Ok(Op::SetDir { var, relation, dir });
        }
        Err(c.expected("an action"))
    }

    /// Ops that test, jump, loop or mark a block.
    fn flow_op(&mut self, c: &mut Cur<'_>, targets: &mut Vec<(usize, usize)>) -> Result<Op> {
        if c.eat_word("require") {
            return Ok(Op::Require(self.id(c, "b", Kind::Bool)?));
        }
        if c.eat_word("unless") {
            let cond = self.id(c, "b", Kind::Bool)?;
            c.expect_word("goto")?;
            let target = Self::target(c, targets)?;
            return Ok(Op::Unless { cond, target });
        }
        if c.eat_word("goto") {
            return Ok(Op::Jump(Self::target(c, targets)?));
        }
        for (kw, make) in [
            ("either", Op::Either as fn(Vec<u32>) -> Op),
            ("first", Op::First),
        ] {
            if c.eat_word(kw) {
                c.expect("[")?;
                let mut list = Vec::new();
                if !c.eat("]") {
                    loop {
                        list.push(Self::target(c, targets)?);
                        if c.eat("]") {
                            break;
                        }
                        c.expect(",")?;
                    }
                }
                return Ok(make(list));
            }
        }
        if c.eat_word("repeat-start") {
            return Ok(Op::RepeatStart { var: self.var(c)? });
        }
        if c.eat_word("repeat-check") {
            let var = self.var(c)?;
            let min = c.number("a least number of rounds")?;
            c.expect("..")?;
            let max = c.number_here("a most number of rounds")?;
            c.expect_word("exit")?;
            let exit = Self::target(c, targets)?;
            return Ok(Op::RepeatCheck {
                var,
                min,
                max,
                exit,
            });
        }
        if c.eat_word("repeat-next") {
            let var = self.var(c)?;
            c.expect_word("goto")?;
            let check = Self::target(c, targets)?;
            return Ok(Op::RepeatNext { var, check });
        }
        for (kw, start) in [("distinct-start", true), ("distinct-end", false)] {
            if c.eat_word(kw) {
                c.expect("#")?;
                let block: u8 = c.number_here("a block")?;
                self.record(Kind::Block, usize::from(block), c.line);
                return Ok(if start {
                    Op::DistinctStart { block }
                } else {
                    Op::DistinctEnd { block }
                });
            }
        }
        if c.eat_word("while") {
            let cond = self.id(c, "b", Kind::Bool)?;
            c.expect("(")?;
            c.expect_word("rounds")?;
            let var = self.var(c)?;
            c.expect(")")?;
            c.expect_word("exit")?;
            let exit = Self::target(c, targets)?;
            return Ok(Op::WhileCheck { var, cond, exit });
        }
        if c.eat_word("memo") {
            c.expect("#")?;
            let block: u8 = c.number_here("a block")?;
            self.record(Kind::Block, usize::from(block), c.line);
            return Ok(Op::Memo { block });
        }
        if c.eat_word("done") {
            return Ok(Op::Done);
        }
        Err(c.expected("a test, a jump or a loop"))
    }

    /// Ops that write, end the game, change a counter or hand over the move.
    fn effect_op(&mut self, c: &mut Cur<'_>) -> Result<Op> {
        if c.eat_word("write") {
            return Ok(Op::Write(self.template_ref(c)?.0));
        }
        if c.eat_word("win") {
            return Ok(Op::Finish(Finish::Win(self.player_ref(c)?)));
        }
        if c.eat_word("lose") {
            return Ok(Op::Finish(Finish::Lose(self.player_ref(c)?)));
        }
        if c.eat_word("draw") {
            return Ok(Op::Finish(Finish::Draw));
        }
        if c.eat_word("counter") {
            c.expect_word("slot")?;
            let base = self.num_ref(c, "a counter slot", Kind::Slot)?;
            if c.eat("+") {
                if c.eat_word("each") {
                    c.expect_word("of")?;
                    let cells = self.id(c, "s", Kind::Set)?;
                    let op = assign_kind(c)?;
                    let value = self.id(c, "i", Kind::Int)?;
                    return Ok(Op::AssignAll {
                        base,
                        cells,
                        op,
                        value,
                    });
                }
                let slot = if starts_player_ref(c) {
                    AssignSlot::PerPlayer {
                        base,
                        player: self.player_ref(c)?,
                    }
                } else {
                    AssignSlot::PerCell {
                        base,
                        cell: self.cell_ref(c)?,
                    }
                };
                let op = assign_kind(c)?;
                let value = self.id(c, "i", Kind::Int)?;
                return Ok(Op::Assign { slot, op, value });
            }
            let op = assign_kind(c)?;
            let value = self.id(c, "i", Kind::Int)?;
            return Ok(Op::Assign {
                slot: AssignSlot::Global(base),
                op,
                value,
            });
        }
        if c.eat_word("roll") {
            c.expect_word("slot")?;
            let slot = self.num_ref(c, "a counter slot", Kind::Slot)?;
            c.expect_word("in")?;
            let lo: i32 = c.number("the least value")?;
            c.expect("..")?;
            let hi: i32 = c.number_here("the greatest value")?;
            let count = u16::try_from(i64::from(hi) - i64::from(lo) + 1).map_err(|_| {
                c.error(format!(
                    "a roll has 0 to {} values, not {lo}..{hi}",
                    u16::MAX
                ))
            })?;
            return Ok(Op::Roll { slot, lo, count });
        }
        if c.eat_word("again") {
            return Ok(Op::Again);
        }
        if c.eat_word("next") {
            c.expect_word("pick")?;
            c.expect_word("by")?;
            return Ok(Op::Chooser(self.player_ref(c)?));
        }
        Err(c.expected("a text, an end or a counter"))
    }
}

/// The first words of the ops [`Parser::choice_op`] reads.
const CHOICE_OPS: &[&str] = &["pick", "place"];

/// The first words of the ops [`Parser::action_op`] reads.
const ACTION_OPS: &[&str] = &["let", "put", "remove", "shift", "move"];

/// The first words of the ops [`Parser::flow_op`] reads.
const FLOW_OPS: &[&str] = &[
    "require",
    "unless",
    "goto",
    "either",
    "first",
    "repeat-start",
    "repeat-check",
    "repeat-next",
    "distinct-start",
    "distinct-end",
    "while",
    "memo",
    "done",
];

/// The first words of the ops [`Parser::effect_op`] reads.
const EFFECT_OPS: &[&str] = &[
    "write", "win", "lose", "draw", "counter", "roll", "again", "next",
];

/// Each layer's counter slots (one per cell from its base) exist; `lines` are the layers'.
fn check_layers(program: &Program, lines: &[usize]) -> Result<()> {
    for ((_, base), &line) in program.layers.iter().zip(lines) {
        let base = *base;
        if usize::from(base) + program.board.len() > program.counters.len() {
            return Err(IrParseError {
                line,
                message: format!(
                    "a layer needs a counter slot per cell from slot {base}, but there are {} slots",
                    program.counters.len()
                ),
            });
        }
    }
    Ok(())
}

/// `#N` where `N` must be `i` (an item's index on its header line).
fn index(c: &mut Cur<'_>, i: usize) -> Result<()> {
    c.expect("#")?;
    let found: usize = c.number_here("an index")?;
    if found != i {
        return Err(c.error(format!("expected #{i}, found #{found}")));
    }
    Ok(())
}

/// A bare index that must be `i` (a cell's, an op's, a counter slot's).
fn index_bare(c: &mut Cur<'_>, i: usize) -> Result<()> {
    let found: usize = c.number("an index")?;
    if found != i {
        return Err(c.error(format!("expected index {i}, found {found}")));
    }
    Ok(())
}

fn starts_cell_ref(c: &mut Cur<'_>) -> bool {
    c.peek_word("candidate") || c.peek("cell#") || c.peek("cell(") || c.peek_id("v")
}

fn starts_player_ref(c: &mut Cur<'_>) -> bool {
    c.peek_word("mover") || c.peek_word("opponent") || c.peek("player#") || c.peek("owner(")
}

fn equality(c: &mut Cur<'_>) -> Result<bool> {
    if c.eat("==") {
        Ok(true)
    } else if c.eat("!=") {
        Ok(false)
    } else {
        Err(c.expected("`==`, `!=` or `in`"))
    }
}

fn cmp_op(c: &mut Cur<'_>) -> Result<CmpOp> {
    let op = match c.word("a comparison")?.as_str() {
        "Eq" => CmpOp::Eq,
        "Ne" => CmpOp::Ne,
        "Lt" => CmpOp::Lt,
        "Le" => CmpOp::Le,
        "Gt" => CmpOp::Gt,
        "Ge" => CmpOp::Ge,
        other => {
            return Err(c.error(format!(
                "expected `Eq`, `Ne`, `Lt`, `Le`, `Gt` or `Ge`, found `{other}`"
            )))
        }
    };
    Ok(op)
}

fn assign_kind(c: &mut Cur<'_>) -> Result<AssignKind> {
    let op = match c.word("`Set`, `Add` or `Sub`")?.as_str() {
        "Set" => AssignKind::Set,
        "Add" => AssignKind::Add,
        "Sub" => AssignKind::Sub,
        other => return Err(c.error(format!("expected `Set`, `Add` or `Sub`, found `{other}`"))),
    };
    Ok(op)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dump::dump;
    use crate::fingerprint::fingerprint;

    /// A whole program written by hand: two cells, one relation, one set, a turn that puts a
    /// stone on an empty cell.
    const TINY: &str = r#"game "tiny"
players A, B

cells 2 (axes x)
    0 a (0)
    1 b (1)

relation #0 east
  a -> {b}
  vector 0 east: a>b
  opposite -
  mirror x -

piece #0 stone symbols ["a", "b"]

sets
  s0 = empty
ints
bools

setup
    0  done

turn
    0  pick v0 in s0
    1  put code 1+mover at v0
    2  write t0 = v0
    3  done

no moves
    0  draw
    1  done

end
"#;

    fn tiny() -> Program {
        parse(TINY).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `parse(dump(p))` is `p` (the same fingerprint, the same text).
    fn assert_round_trip(p: &Program) {
        let text = dump(p);
        let back = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(dump(&back), text);
        assert_eq!(fingerprint(&back), fingerprint(p), "{text}");
    }

    fn cur(text: &str) -> Cur<'_> {
        Cur {
            text,
            pos: 0,
            line: 7,
        }
    }

    #[test]
    fn a_hand_written_program_is_read() {
        let p = tiny();
        assert_eq!(p.board.names, ["a", "b"]);
        assert_eq!(p.board.coords, [0, 1]);
        assert_eq!(p.relations[0].masks[0].iter().collect::<Vec<_>>(), [1]);
        assert_eq!(p.relations[0].rays[0].next, [1, NO_CELL]);
        assert_eq!(
            p.relations[0].rays[0].shift.map(|(k, _)| k),
            Some(1),
            "the cache is computed"
        );
        assert_eq!(p.relations[0].opposite, [NO_DIR]);
        assert_eq!(p.turn.ops.len(), 4);
        assert_eq!(p.turn.decided.len(), 4, "the cache is computed");
        assert_eq!(p.templates.len(), 1);
        assert_round_trip(&p);
    }

    #[test]
    fn strings_read_back_with_their_escapes() {
        for s in [
            "",
            "plain",
            "a \"quoted\" word",
            "back\\slash",
            "tab\tnew\nline\r\0",
            "é ☃ \u{7f} \u{200b}",
        ] {
            let text = format!("{s:?} rest");
            let mut c = cur(&text);
            assert_eq!(c.string().as_deref(), Ok(s), "{text}");
            assert_eq!(c.rest(), " rest");
        }
        for (bad, message) in [
            ("\"open", "closing"),
            ("\"\\q\"", "escape"),
            ("\"\\u{110000}\"", "no character"),
            ("\"\\u{zz}\"", "hexadecimal"),
            ("word", "a quoted string"),
        ] {
            let e = cur(bad).string().expect_err(bad);
            assert!(e.message.contains(message), "{bad}: {e}");
            assert_eq!(e.line, 7);
        }
    }

    #[test]
    fn numbers_are_checked_against_their_type() {
        assert_eq!(cur(" -12,").number::<i32>("n"), Ok(-12));
        assert_eq!(cur("255").number::<u8>("n"), Ok(255));
        let e = cur("256").number::<u8>("a cell").expect_err("too big");
        assert_eq!(e.message, "`256` is out of range for a cell");
        let e = cur("99999999999999999999999999999999999999999").number::<u64>("n");
        assert!(e.expect_err("huge").message.contains("too large"));
        let e = cur("x").number::<u8>("an index").expect_err("no digits");
        assert_eq!(e.message, "expected an index, found `x`");
        assert_eq!(cur("s12 |").id::<u16>("s"), Ok(12));
        assert!(cur("s 12").id::<u16>("s").is_err());
    }

    #[test]
    fn names_are_bare_when_plain_and_references_when_unambiguous() {
        let names: Vec<String> = ["a1", "a1", "v0", "x y", "b", "candidate", "v1x"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            references(&names),
            ["#0", "#1", "#2", "#3", "b", "#5", "v1x"]
        );
        let refs = Refs::new(&names, "cell");
        assert_eq!(refs.read(&mut cur("b}")), Ok(4));
        assert_eq!(refs.read(&mut cur("#3>")), Ok(3));
        assert_eq!(refs.read(&mut cur("v1x")), Ok(6));
        let e = refs.read(&mut cur("a1")).expect_err("ambiguous");
        assert_eq!(e.message, "unknown cell `a1`");
        let e = refs.read(&mut cur("#7")).expect_err("out of range");
        assert_eq!(e.message, "there is no cell #7 (there are 7)");
        assert_eq!(cur("\"x y\" =").word("a name").as_deref(), Ok("x y"));
    }

    #[test]
    fn cells_named_like_keywords_are_written_by_index() {
        let mut p = tiny();
        p.board.names = vec!["v0".into(), "candidate".into()];
        p.name = "a \"quoted\" name".into();
        p.players = vec!["first player".into(), "B".into()];
        p.options = vec![("size".into(), "-3".into()), ("mode".into(), "a b".into())];
        p.relations[0].names = vec!["(1, 0)".into()];
        let text = dump(&p);
        assert!(text.contains("  #0 -> {#1}"), "{text}");
        assert!(text.contains("vector 0 \"(1, 0)\": #0>#1"), "{text}");
        assert!(
            text.contains("option size = -3\noption mode = \"a b\""),
            "{text}"
        );
        assert_round_trip(&p);
    }

    /// The cell references the forms use, one of each.
    const CELLS: [CellRef; 4] = [
        CellRef::Var(1),
        CellRef::Const(1),
        CellRef::Candidate,
        CellRef::Slot(2),
    ];

    /// The player references the forms use, one of each.
    const PLAYERS: [PlayerRef; 4] = [
        PlayerRef::Mover,
        PlayerRef::Opponent,
        PlayerRef::Const(1),
        PlayerRef::Owner(CellRef::Slot(1)),
    ];

    /// A direction value of every form, nested.
    fn every_dir() -> DirExpr {
        DirExpr::Mirror(
            Box::new(DirExpr::Turn(
                Box::new(DirExpr::Neg(Box::new(DirExpr::Index(1)))),
                -2,
            )),
            0,
        )
    }

    /// Relations per player, a pattern, a zone, counters, a layer, a shape and placements.
    fn add_tables(p: &mut Program) {
        p.relations[0].per_player = vec![p.relations[0].masks.clone(), vec![CellSet::EMPTY; 2]];
        p.relations[0].masks[1] = CellSet::first_n(1);
        p.relations[0]
            .rays
            .push(Ray::new(Some(1), vec![NO_CELL, 0]));
        p.relations[0].names.push("west".into());
        p.relations[0].opposite = vec![1, 0];
        p.relations[0].mirrors = vec![vec![1, NO_DIR]];
        p.patterns.push(Pattern {
            name: "pair".into(),
            offsets: vec![0, 1, 2],
            instances: vec![CellSet::first_n(2); 2],
        });
        p.zones.push(Zone {
            name: "left".into(),
            cells: CellSet::first_n(1),
        });
        for (name, player, view) in [
            ("score", None, CounterView::Plain),
            ("stock", Some(0), CounterView::Hidden),
            ("stock", Some(1), CounterView::Directions(0)),
            ("height", None, CounterView::Plain),
            ("height", None, CounterView::Plain),
        ] {
            p.counters.push(Counter {
                name: name.into(),
                player,
                initial: -1,
                view,
            });
        }
        p.layers.push(("height".into(), 3));
        p.shapes.push(Shape {
            name: "Block".into(),
            count: 2,
            points: 3,
            flip: Some("!".into()),
            stock: 1,
        });
        p.placements.push(Placements {
            facings: vec!["e".into(), "(0, 1)".into()],
            by_shape: vec![(0, 2)],
            instances: Vec::new(),
            parts: Vec::new(),
        });
        for (anchor, facing, flipped, parts) in [
            (
                0u16,
                0u8,
                false,
                vec![(0u16, 0u8, 1u8, true), (1, 1, 2, false)],
            ),
            (1, 1, true, vec![]),
        ] {
            let table = &mut p.placements[0];
            let first = u32::try_from(table.parts.len()).unwrap_or(0);
            let mut covered = CellSet::EMPTY;
            for &(cell, bottom, top, foot) in &parts {
                covered.insert(usize::from(cell));
                table.parts.push(PlacedCell {
                    cell,
                    bottom,
                    top,
                    foot,
                });
            }
            table.instances.push(Placement {
                shape: 0,
                anchor,
                facing,
                flipped,
                cells: covered,
                first,
                len: u8::try_from(parts.len()).unwrap_or(0),
                max_top: parts.iter().map(|x| x.2).max().unwrap_or(0),
            });
        }
    }

    /// Every set form, and a single cell of each reference.
    fn every_set() -> Vec<SetExpr> {
        let mut sets = vec![
            SetExpr::Const(CellSet::first_n(2)),
            SetExpr::Empty,
            SetExpr::Occupied,
            SetExpr::PlayerPieces(PLAYERS[3]),
            SetExpr::Pieces {
                code: 3,
                player: PLAYERS[2],
            },
            SetExpr::Union(0, 1),
            SetExpr::Inter(1, 2),
            SetExpr::Diff(2, 0),
            SetExpr::All { relation: 0, of: 1 },
            SetExpr::None { relation: 0, of: 1 },
            SetExpr::Any { relation: 0, of: 1 },
            SetExpr::Step { relation: 0, of: 1 },
            SetExpr::Group {
                relation: 0,
                from: 1,
                through: 2,
            },
            SetExpr::First(1),
            SetExpr::StepDir {
                relation: 0,
                dir: every_dir(),
                of: 2,
            },
            SetExpr::Line {
                relation: 0,
                dir: None,
                from: CELLS[2],
                run: None,
            },
            SetExpr::Line {
                relation: 0,
                dir: Some(DirExpr::Var(3)),
                from: CELLS[1],
                run: Some(4),
            },
            SetExpr::Between {
                relation: 0,
                from: CELLS[3],
                run: 1,
                end: 2,
            },
            SetExpr::Brackets {
                relation: 0,
                run: 1,
                end: 2,
            },
            SetExpr::Where { base: 0, cond: 1 },
            SetExpr::Local(3),
            SetExpr::Placed { slot: 1, table: 0 },
            SetExpr::AxisCmp {
                axis: 0,
                op: CmpOp::Ge,
                value: 2,
            },
            SetExpr::AxisRows {
                base: 0,
                axis: 0,
                cond: 1,
            },
            SetExpr::AxisKey {
                base: 0,
                axis: 0,
                key: 1,
                op: CmpOp::Ne,
                value: 2,
            },
        ];
        sets.extend(CELLS.map(SetExpr::Single));
        sets.push(SetExpr::Const(CellSet::EMPTY));
        sets
    }

    /// Every integer form.
    fn every_int() -> Vec<IntExpr> {
        let mut ints = vec![
            IntExpr::Const(-7),
            IntExpr::Counter(0),
            IntExpr::PlayerCounter {
                base: 1,
                player: PLAYERS[3],
            },
            IntExpr::Axis {
                cell: CELLS[3],
                axis: 0,
            },
            IntExpr::CellCounter {
                base: 3,
                cell: CELLS[0],
            },
            IntExpr::Points(PLAYERS[1]),
            IntExpr::DirIndex {
                relation: 0,
                dir: every_dir(),
            },
            IntExpr::Won(PLAYERS[2]),
            IntExpr::Repetitions,
            IntExpr::CellId(CELLS[1]),
            IntExpr::Cond {
                cond: 0,
                then: 1,
                otherwise: 2,
            },
            IntExpr::Count(3),
            IntExpr::CellSum { base: 3, of: 2 },
            IntExpr::Neg(4),
        ];
        for op in [
            IntOp::Add,
            IntOp::Sub,
            IntOp::Mul,
            IntOp::Div,
            IntOp::Rem,
            IntOp::Max,
            IntOp::Min,
        ] {
            ints.push(IntExpr::Bin { op, lhs: 0, rhs: 1 });
        }
        ints
    }

    /// Every condition form.
    fn every_bool() -> Vec<BoolExpr> {
        let mut bools = vec![
            BoolExpr::Const(true),
            BoolExpr::Const(false),
            BoolExpr::Not(0),
            BoolExpr::And(0, 1),
            BoolExpr::Or(1, 2),
            BoolExpr::CellEq {
                eq: true,
                lhs: CELLS[0],
                rhs: CELLS[3],
            },
            BoolExpr::CellEq {
                eq: false,
                lhs: CELLS[2],
                rhs: CELLS[1],
            },
            BoolExpr::PlayerEq {
                eq: false,
                lhs: PLAYERS[3],
                rhs: PLAYERS[0],
            },
            BoolExpr::In {
                cell: CELLS[2],
                set: 3,
            },
            BoolExpr::Completes {
                pattern: 0,
                cell: CELLS[0],
                set: 1,
            },
            BoolExpr::DirIn {
                relation: 0,
                dir: every_dir(),
                members: [u64::MAX, 5],
            },
            BoolExpr::Connected {
                relation: 0,
                through: 0,
                from: 1,
                to: 2,
            },
        ];
        for op in [
            CmpOp::Eq,
            CmpOp::Ne,
            CmpOp::Lt,
            CmpOp::Le,
            CmpOp::Gt,
            CmpOp::Ge,
        ] {
            bools.push(BoolExpr::Cmp { op, lhs: 2, rhs: 3 });
        }
        bools
    }

    /// Every template part, an empty template, a status's and an unused one.
    fn every_template() -> Vec<Template> {
        vec![
            Template {
                parts: vec![
                    TemplatePart::Text("x \"y\"".into()),
                    TemplatePart::Cell(CELLS[3]),
                    TemplatePart::Int(2),
                    TemplatePart::Player(PLAYERS[3]),
                    TemplatePart::Letter(1),
                    TemplatePart::Decimal(2),
                    TemplatePart::ShapeName { slot: 1, table: 0 },
                    TemplatePart::Facing { slot: 0, table: 0 },
                    TemplatePart::Dir {
                        relation: 0,
                        dir: every_dir(),
                    },
                ],
            },
            Template { parts: Vec::new() },
            Template {
                parts: vec![TemplatePart::Text("status".into())],
            },
            Template {
                parts: vec![TemplatePart::Text("unused".into())],
            },
        ]
    }

    /// The ops up to the first test.
    fn choice_and_action_ops() -> Vec<Op> {
        vec![
            Op::Pick { var: 0, from: 0 },
            Op::PickDir {
                var: 1,
                relation: 0,
            },
            Op::Roll {
                slot: 0,
                lo: -2,
                count: 5,
            },
            Op::Again,
            Op::Chooser(PLAYERS[1]),
            Op::SetVar { var: 2, set: 1 },
            Op::SetDir {
                var: 3,
                relation: 0,
                dir: every_dir(),
            },
            Op::WhileCheck {
                var: 4,
                cond: 0,
                exit: 9,
            },
            Op::Memo { block: 1 },
            Op::Place {
                slot: 1,
                anchor: 5,
                table: 0,
                player: PLAYERS[0],
                layer: 3,
                max: 0,
                feet: Some(2),
            },
            Op::Place {
                slot: 0,
                anchor: 6,
                table: 0,
                player: PLAYERS[2],
                layer: 3,
                max: 1,
                feet: None,
            },
            Op::Let {
                slot: 1,
                set: 2,
                replay: true,
            },
            Op::Let {
                slot: 2,
                set: 2,
                replay: false,
            },
            Op::Put {
                code_base: 1,
                owner: PLAYERS[3],
                at: CELLS[1],
            },
            Op::Remove { at: CELLS[3] },
            Op::Move {
                from: CELLS[0],
                to: CELLS[2],
            },
            Op::PutAll {
                code_base: 3,
                owner: PLAYERS[0],
                at: 4,
            },
            Op::RemoveAll { at: 5 },
            Op::Shift { at: 5, relation: 0 },
        ]
    }

    /// Every op form, each optional field with and without.
    fn every_op() -> Vec<Op> {
        let mut ops = choice_and_action_ops();
        ops.extend([
            Op::Require(1),
            Op::Unless { cond: 2, target: 0 },
            Op::Jump(3),
            Op::Either(vec![1, 2, 3]),
            Op::First(vec![]),
            Op::RepeatStart { var: 7 },
            Op::RepeatCheck {
                var: 7,
                min: 0,
                max: 255,
                exit: 4,
            },
            Op::RepeatNext { var: 7, check: 5 },
            Op::DistinctStart { block: 0 },
            Op::DistinctEnd { block: 1 },
            Op::Write(0),
            Op::Write(1),
            Op::Write(0),
            Op::Finish(Finish::Win(PLAYERS[0])),
            Op::Finish(Finish::Lose(PLAYERS[3])),
            Op::Finish(Finish::Draw),
            Op::Assign {
                slot: AssignSlot::Global(0),
                op: AssignKind::Set,
                value: 0,
            },
            Op::Assign {
                slot: AssignSlot::PerPlayer {
                    base: 1,
                    player: PLAYERS[3],
                },
                op: AssignKind::Add,
                value: 1,
            },
            Op::Assign {
                slot: AssignSlot::PerCell {
                    base: 3,
                    cell: CELLS[3],
                },
                op: AssignKind::Sub,
                value: 2,
            },
            Op::AssignAll {
                base: 3,
                cells: 1,
                op: AssignKind::Add,
                value: 3,
            },
            Op::Done,
        ]);
        ops
    }

    /// Every variant of every expression, op, reference and template part, and every optional
    /// field, in one program.
    #[test]
    fn every_form_round_trips() {
        let mut p = tiny();
        p.players = vec!["A".into(), "B".into()];
        add_tables(&mut p);
        p.sets = every_set();
        p.ints = every_int();
        p.bools = every_bool();
        p.templates = every_template();
        p.turn = Code::new(every_op());
        p.distinct_blocks = 2;
        p.score = Some([0, 1]);
        p.heuristic = Some([1, 0]);
        p.markers = vec![
            Marker {
                text: "o\n".into(),
                set: 1,
                legend: "the \"ball\"".into(),
            },
            Marker {
                text: "=".into(),
                set: 0,
                legend: String::new(),
            },
        ];
        p.status = vec![(2, Some(3)), (2, None)];
        assert_round_trip(&p);
        let text = dump(&p);
        for line in [
            "relation #0 east per player",
            "  b -> {a}",
            "  vector 1 west for B: b>a",
            "  mirror x 1 -",
            "    2  roll slot 0 in -2..2",
            "   29  write t0 = \"x \\\"y\\\"\" cell(c2) i2 owner(cell(c1)) letter(i1) decimal(i2) shape(placed1 table 0) facing(placed0 table 0) name(rel#0 Mirror(Turn(Neg(Index(1)), -2), 0))",
            "   30  write t1 =\n",
            "   31  write t0\n",
            "status t2 = \"status\" when b3\nstatus t2\n",
            "templates\n  t3 = \"unused\"\n",
            "placements #0 (2 placements) facings e, \"(0, 1)\"\n  by shape 0..2\n  Block at a facing e: a 0-1 foot, b 1-2\n  Block at b facing #1 flipped: \n",
        ] {
            assert!(text.contains(line), "no `{line}` in\n{text}");
        }
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        // The error's line: the changed line, or the one given.
        let cases = [
            (
                "    1  put code 1+mover at v0",
                "    1  put code 1+mover at",
                None,
                "expected a cell (`vN`",
            ),
            (
                "    1  put code 1+mover at v0",
                "    1  put code 1+mover at v99",
                None,
                "there is no `v99` (there are 16 turn variables)",
            ),
            ("  a -> {b}", "  a -> {c}", None, "unknown cell `c`"),
            (
                "  a -> {b}",
                "  a => {b}",
                None,
                "expected `->`, found `=> {b}`",
            ),
            (
                "  vector 0 east: a>b",
                "  vector 1 east: a>b",
                None,
                "expected index 0, found 1",
            ),
            ("  mirror x -", "  mirror y -", None, "unknown axis `y`"),
            (
                "    0 a (0)",
                "    0 a (0, 1)",
                None,
                "expected `)`, found `, 1)`",
            ),
            ("cells 2", "cells 3", Some(8), "expected 3 cells, found 2"),
            ("cells 2", "cells 2000", None, "at most 1024 cells"),
            (
                "  s0 = empty",
                "  s0 = emptyish",
                None,
                "expected a set expression",
            ),
            (
                "    3  done",
                "    3  done done",
                None,
                "expected the end of the line",
            ),
            (
                "    2  write t0 = v0",
                "    2  write t0 = v0 when",
                None,
                "expected the end of the line",
            ),
            (
                "    0  pick v0 in s0",
                "    0  pick v0 in s0 # note",
                None,
                "expected the end of the line",
            ),
            (
                "    0  draw",
                "    0  draw\n    2  done",
                Some(32),
                "expected index 1, found 2",
            ),
            (
                "players A, B",
                "players A, B\nteleport",
                Some(3),
                "expected `cells`, found `teleport`",
            ),
        ];
        for (from, to, line, message) in cases {
            assert!(TINY.contains(from), "no `{from}`");
            let text = TINY.replacen(from, to, 1);
            let changed = TINY
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .map_or(0, |i| i + 1);
            let e = parse(&text).expect_err(to);
            assert!(e.message.contains(message), "`{to}`: {e}");
            assert_eq!(e.line, line.unwrap_or(changed), "`{to}`: {e}");
        }
    }

    #[test]
    fn deep_directions_are_an_error_not_an_overflow() {
        let deep = format!("{}Var(0){}", "Neg(".repeat(10_000), ")".repeat(10_000));
        let text = TINY.replacen("  s0 = empty", &format!("  s0 = step(rel#0 {deep}, s0)"), 1);
        let e = parse(&text).expect_err("too deep");
        assert!(e.message.contains("nested too deeply"), "{e}");
    }
}
