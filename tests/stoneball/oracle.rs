//! An independent reference move generator ("oracle") for Stoneball, written only from the
//! binding rules in `/work/shared/rules/stoneball.md`, in plain Rust with no dependencies beyond
//! std. Include it with `#[path = "stoneball/oracle.rs"] mod oracle;`.
//!
//! The board is 7 files (`a`–`g`) by 9 ranks (`1`–`9`). A field index is `file * 9 + rank`, both
//! counted from 0, so index order is "file first, then rank" (`a1 < a2 < … < a9 < b1 < …`). This
//! is the order used for "ascending field order" of the end-of-turn placements `+field`. (All
//! placements of one turn lie in the mover's first row, i.e. in one rank, so file-then-rank and
//! rank-then-file give the same order there.)
//!
//! Readings of the spec made here (see also the comments at each rule):
//! - "In line" / "two fields away": along one of the 8 directions, i.e. the target is `x + 2d`
//!   and the field between is `x + d` (no knight-like jumps).
//! - Attacking restriction: the mover's non-carrier pieces may not act in the three directions
//!   with a backward rank component (White: S, SW, SE; Black: N, NW, NE); sideways is allowed.
//! - Touchdown step: only the carrier (judged at the start of the turn), by a Step of one field
//!   in any direction into a field of the opponent's Touchdown Zone (White: b9–f9, Black: b1–f1).
//! - Out of play side: by the file of the field outside the Game Zone where the pushed piece
//!   ended (`a b c d` → the `a` mark, `e f g` → the `g` mark). With 5 pieces a side no push can
//!   leave the board, and a blocking piece always has an empty neighbour; for constructed
//!   positions with more pieces, "no empty neighbour" sends the piece out of play by the file of
//!   the blocking piece B, and no `/field` is written (there was nothing to choose).
//! - When more pieces wait on the last gray fields than the first row has empty fields, the
//!   pieces put back are taken from file `a` first, then from file `g` (the notation cannot tell
//!   them apart, and the two fields behave identically afterwards).
#![allow(dead_code)]

use std::fmt::Write as _;

/// Files `a`–`g`.
pub const FILES: i32 = 7;
/// Ranks `1`–`9`.
pub const RANKS: i32 = 9;
/// Fields of the board.
pub const FIELDS: usize = 63;
/// The default `turn_limit`.
pub const DEFAULT_TURN_LIMIT: u32 = 200;

/// The 8 directions as (file delta, rank delta), clockwise from north (towards rank 9), so that
/// turning by 45° is `±1` modulo 8.
pub const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// A player; White (Marble) moves first and scores in rank 9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    White,
    Black,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::White => Player::Black,
            Player::Black => Player::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub fn index(self) -> usize {
        match self {
            Player::White => 0,
            Player::Black => 1,
        }
    }

    /// Rank delta of "forward": +1 for White, -1 for Black.
    fn forward(self) -> i32 {
        match self {
            Player::White => 1,
            Player::Black => -1,
        }
    }

    /// 0-based rank of the first row (rank 2 for White, rank 8 for Black).
    fn first_row(self) -> i32 {
        match self {
            Player::White => 1,
            Player::Black => 7,
        }
    }

    /// 0-based rank of the last gray field (rank 1 for White, rank 9 for Black).
    fn last_gray(self) -> i32 {
        match self {
            Player::White => 0,
            Player::Black => 8,
        }
    }

    /// 0-based rank of the return marks (rank 4 for White, rank 6 for Black).
    fn mark_rank(self) -> i32 {
        match self {
            Player::White => 3,
            Player::Black => 5,
        }
    }

    /// 0-based rank of the Touchdown Zone this player scores in.
    fn scoring_rank(self) -> i32 {
        match self {
            Player::White => 8,
            Player::Black => 0,
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

/// The field at 0-based (file, rank), if on the board.
fn at(file: i32, rank: i32) -> Option<usize> {
    if (0..FILES).contains(&file) && (0..RANKS).contains(&rank) {
        Some((file * RANKS + rank) as usize)
    } else {
        None
    }
}

/// 0-based (file, rank) of a field.
fn coords(f: usize) -> (i32, i32) {
    ((f as i32) / RANKS, (f as i32) % RANKS)
}

/// Whether a field lies in the Game Zone (files b–f, ranks 2–8).
fn in_game_zone(f: usize) -> bool {
    let (file, rank) = coords(f);
    (1..=5).contains(&file) && (1..=7).contains(&rank)
}

/// Whether a field is gray (Out of Play Zone: files a and g).
fn is_gray(f: usize) -> bool {
    let (file, _) = coords(f);
    file == 0 || file == FILES - 1
}

/// The name of a field, `a1` … `g9`.
pub fn field_name(f: usize) -> String {
    let (file, rank) = coords(f);
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Parses a field name `a1` … `g9`.
pub fn parse_field(s: &str) -> Option<usize> {
    let mut chars = s.chars();
    let file = chars.next()?;
    let rank: i32 = chars.as_str().parse().ok()?;
    if !('a'..='g').contains(&file) {
        return None;
    }
    at(file as i32 - 'a' as i32, rank - 1)
}

fn field(s: &str) -> usize {
    parse_field(s).unwrap_or_else(|| panic!("bad field name {s:?}"))
}

/// The kind of a turn, for notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    /// Step, Chase or Skip: `from-to`.
    Move,
    /// Ram or Special ram: `from*to`.
    Ram,
    /// `pass`.
    Pass,
}

/// Everything the notation of one turn says; it determines the resulting position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Key {
    kind: Kind,
    from: u8,
    to: u8,
    /// The rammed piece's owner's choice (`/field`).
    choice: Option<u8>,
    /// End-of-turn placements (`+field`), a set of fields as a bit mask by field index.
    placements: u64,
}

impl Key {
    fn notation(&self) -> String {
        let mut s = match self.kind {
            Kind::Pass => "pass".to_string(),
            Kind::Move => format!(
                "{}-{}",
                field_name(self.from as usize),
                field_name(self.to as usize)
            ),
            Kind::Ram => format!(
                "{}*{}",
                field_name(self.from as usize),
                field_name(self.to as usize)
            ),
        };
        if let Some(c) = self.choice {
            s.push('/');
            s.push_str(&field_name(c as usize));
        }
        // Ascending field index = file first, then rank.
        for f in 0..FIELDS {
            if self.placements >> f & 1 == 1 {
                s.push_str(" +");
                s.push_str(&field_name(f));
            }
        }
        s
    }
}

/// A Stoneball position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The owner of the piece on each field (only Game Zone fields, or a Touchdown Zone field
    /// after a touchdown, ever hold a piece; returning pieces are kept in `returning`).
    board: [Option<Player>; FIELDS],
    /// The Ball's field. It is carried when a piece stands there, loose otherwise.
    ball: usize,
    /// Returning pieces: `returning[player][field]` pieces of `player` on gray `field`.
    returning: [[u8; FIELDS]; 2],
    to_move: Player,
    turns: u32,
    turn_limit: u32,
    result: Option<Outcome>,
}

impl Position {
    /// The starting position with the default `turn_limit` (200).
    pub fn start() -> Position {
        Position::with_turn_limit(DEFAULT_TURN_LIMIT)
    }

    /// The starting position with a given `turn_limit`.
    pub fn with_turn_limit(turn_limit: u32) -> Position {
        let mut board = [None; FIELDS];
        for file in 1..=5 {
            board[(file * RANKS + 1) as usize] = Some(Player::White);
            board[(file * RANKS + 7) as usize] = Some(Player::Black);
        }
        let mut p = Position {
            board,
            ball: field("d5"),
            returning: [[0; FIELDS]; 2],
            to_move: Player::White,
            turns: 0,
            turn_limit,
            result: None,
        };
        p.check_limit();
        p
    }

    /// A constructed position: White's and Black's pieces (Game Zone fields), the Ball's field
    /// (carried when a piece stands there), returning pieces as `(owner, gray field, count)`
    /// (repeated entries add up) and the side to move; no turns played, `turn_limit` 200.
    pub fn custom(
        white: &[&str],
        black: &[&str],
        ball: &str,
        returning: &[(Player, &str, u8)],
        to_move: Player,
    ) -> Position {
        let mut board = [None; FIELDS];
        for (player, list) in [(Player::White, white), (Player::Black, black)] {
            for name in list {
                let f = field(name);
                assert!(in_game_zone(f), "piece outside the Game Zone: {name}");
                assert!(board[f].is_none(), "two pieces on {name}");
                board[f] = Some(player);
            }
        }
        let ball = field(ball);
        assert!(in_game_zone(ball), "Ball outside the Game Zone");
        let mut ret = [[0; FIELDS]; 2];
        for &(player, name, count) in returning {
            let f = field(name);
            assert!(is_gray(f), "returning piece off the gray fields: {name}");
            ret[player.index()][f] += count;
        }
        Position {
            board,
            ball,
            returning: ret,
            to_move,
            turns: 0,
            turn_limit: DEFAULT_TURN_LIMIT,
            result: None,
        }
    }

    /// The same position with `turns` turns already played and the given `turn_limit`.
    pub fn at_turn(mut self, turns: u32, turn_limit: u32) -> Position {
        self.turns = turns;
        self.turn_limit = turn_limit;
        self.check_limit();
        self
    }

    fn check_limit(&mut self) {
        if self.result.is_none() && self.turns >= self.turn_limit {
            self.result = Some(Outcome::Draw);
        }
    }

    /// The side to move.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Turns played so far (passes included).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// The `turn_limit` option.
    pub fn turn_limit(&self) -> u32 {
        self.turn_limit
    }

    /// The result: `None` while the game goes on.
    pub fn result(&self) -> Option<Outcome> {
        self.result
    }

    /// The owner of the piece on a field (returning pieces are not on the board).
    pub fn piece(&self, name: &str) -> Option<Player> {
        self.board[field(name)]
    }

    /// The Ball's field.
    pub fn ball(&self) -> String {
        field_name(self.ball)
    }

    /// The owner of the carrier, `None` while the Ball is loose.
    pub fn carrier(&self) -> Option<Player> {
        self.board[self.ball]
    }

    /// How many returning pieces of `player` stand on the gray field `name`.
    pub fn returning(&self, player: Player, name: &str) -> u8 {
        self.returning[player.index()][field(name)]
    }

    /// Pieces of `player` on the board.
    pub fn pieces_on_board(&self, player: Player) -> usize {
        self.board.iter().filter(|&&o| o == Some(player)).count()
    }

    /// Returning pieces of `player`.
    pub fn pieces_returning(&self, player: Player) -> usize {
        self.returning[player.index()]
            .iter()
            .map(|&n| n as usize)
            .sum()
    }

    /// Every legal move (one whole turn) in notation, sorted, each distinct notation once.
    pub fn moves(&self) -> Vec<String> {
        let mut list: Vec<String> = self.children().iter().map(|(k, _)| k.notation()).collect();
        list.sort();
        list.dedup();
        list
    }

    /// Every legal move with the position it leads to, sorted by notation.
    pub fn moves_with_children(&self) -> Vec<(String, Position)> {
        let mut list: Vec<(String, Position)> = self
            .children()
            .into_iter()
            .map(|(k, p)| (k.notation(), p))
            .collect();
        list.sort_by(|a, b| a.0.cmp(&b.0));
        list
    }

    /// Plays a move given in notation; it must be one of `moves()`.
    pub fn play(&mut self, mv: &str) -> Result<(), String> {
        if let Some(r) = self.result {
            return Err(format!("the game is over ({r:?}); {mv:?} is not legal"));
        }
        for (k, child) in self.children() {
            if k.notation() == mv {
                *self = child;
                return Ok(());
            }
        }
        Err(format!("illegal move {mv:?}; legal: {:?}", self.moves()))
    }

    /// perft(0) = 1; perft(d) = sum over moves of perft(child, d - 1).
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let children = self.children();
        if depth == 1 {
            return children.len() as u64;
        }
        children.iter().map(|(_, c)| c.perft(depth - 1)).sum()
    }

    /// The board as text, rank 9 on top: `w`/`b` pieces, `W`/`B` the carrier, `o` the loose
    /// Ball, `.` an empty Game Zone field, `:` an empty field outside it, a digit the number of
    /// returning pieces on a gray field (owner listed below).
    pub fn render(&self) -> String {
        let mut s = String::new();
        for rank in (0..RANKS).rev() {
            let _ = write!(s, "{} ", rank + 1);
            for file in 0..FILES {
                let f = (file * RANKS + rank) as usize;
                let n = self.returning[0][f] + self.returning[1][f];
                let c = match self.board[f] {
                    Some(Player::White) if f == self.ball => 'W',
                    Some(Player::Black) if f == self.ball => 'B',
                    Some(Player::White) => 'w',
                    Some(Player::Black) => 'b',
                    None if f == self.ball => 'o',
                    None if n > 0 => char::from_digit(u32::from(n.min(9)), 10).unwrap_or('?'),
                    None if in_game_zone(f) => '.',
                    None => ':',
                };
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("  abcdefg\n");
        for player in [Player::White, Player::Black] {
            let list: Vec<String> = (0..FIELDS)
                .filter(|&f| self.returning[player.index()][f] > 0)
                .map(|f| format!("{}x{}", field_name(f), self.returning[player.index()][f]))
                .collect();
            if !list.is_empty() {
                let _ = writeln!(s, "returning {player:?}: {}", list.join(" "));
            }
        }
        let _ = write!(
            s,
            "{:?} to move, turn {}/{}",
            self.to_move, self.turns, self.turn_limit
        );
        if let Some(r) = self.result {
            let _ = write!(s, ", result {r:?}");
        }
        s
    }

    /// Every legal turn with its resulting position, one per distinct notation.
    fn children(&self) -> Vec<(Key, Position)> {
        let mut out = Vec::new();
        if self.result.is_some() {
            return out;
        }
        let actions = self.actions();
        if actions.is_empty() {
            // No legal action: pass (returning pieces still advance and are put back).
            let key = Key {
                kind: Kind::Pass,
                from: 0,
                to: 0,
                choice: None,
                placements: 0,
            };
            self.end_of_turn(key, self.clone(), &mut out);
        } else {
            for (key, after, touchdown) in actions {
                if touchdown {
                    // A touchdown wins at once; no return step follows.
                    let mut child = after;
                    child.turns += 1;
                    child.to_move = self.to_move.other();
                    child.result = Some(Outcome::Win(self.to_move));
                    out.push((key, child));
                } else {
                    self.end_of_turn(key, after, &mut out);
                }
            }
        }
        out.sort_by_key(|a| a.0);
        // The same special ram may come from a rank triple and a file triple.
        out.dedup_by(|a, b| {
            debug_assert!(a.0 != b.0 || a.1 == b.1, "one notation, two positions");
            a.0 == b.0
        });
        out
    }

    /// The end-of-turn return step of the mover, after the action that led to `after`: the
    /// pieces on the last gray fields when the step begins are put back on empty first-row
    /// fields (as many as there are such fields, every choice of fields being one move), the
    /// others advance one gray field; then the turn is counted.
    fn end_of_turn(&self, key: Key, after: Position, out: &mut Vec<(Key, Position)>) {
        let p = self.to_move;
        let pi = p.index();
        let last_a = (p.last_gray()) as usize;
        let last_g = ((FILES - 1) * RANKS + p.last_gray()) as usize;
        let waiting = (after.returning[pi][last_a] + after.returning[pi][last_g]) as usize;
        let empties: Vec<usize> = (1..=5)
            .map(|file| (file * RANKS + p.first_row()) as usize)
            .filter(|&f| after.board[f].is_none())
            .collect();
        let m = waiting.min(empties.len());
        for mask in 0u32..(1 << empties.len()) {
            if mask.count_ones() as usize != m {
                continue;
            }
            let mut child = after.clone();
            let mut placements = 0u64;
            for (i, &f) in empties.iter().enumerate() {
                if mask >> i & 1 == 1 {
                    child.board[f] = Some(p);
                    placements |= 1 << f;
                }
            }
            // Take the pieces put back from the `a` side first, then from the `g` side.
            let from_a = (child.returning[pi][last_a] as usize).min(m);
            child.returning[pi][last_a] -= from_a as u8;
            child.returning[pi][last_g] -= (m - from_a) as u8;
            // Advance every other returning piece one gray field towards the own end.
            for file in [0, FILES - 1] {
                let ret = &mut child.returning[pi];
                match p {
                    Player::White => {
                        for rank in 1..RANKS {
                            let from = (file * RANKS + rank) as usize;
                            ret[from - 1] += ret[from];
                            ret[from] = 0;
                        }
                    }
                    Player::Black => {
                        for rank in (0..RANKS - 1).rev() {
                            let from = (file * RANKS + rank) as usize;
                            ret[from + 1] += ret[from];
                            ret[from] = 0;
                        }
                    }
                }
            }
            child.turns += 1;
            child.to_move = p.other();
            child.check_limit();
            out.push((Key { placements, ..key }, child));
        }
    }

    /// Whether the piece on `x` is the middle of three own pieces contiguous in a rank or a file.
    fn middle_of_three(&self, x: usize, p: Player) -> bool {
        let (file, rank) = coords(x);
        let own = |f: i32, r: i32| at(f, r).is_some_and(|y| self.board[y] == Some(p));
        (own(file - 1, rank) && own(file + 1, rank)) || (own(file, rank - 1) && own(file, rank + 1))
    }

    /// Every legal action of the side to move, with the position right after it (before the
    /// return step) and whether it is a touchdown.
    fn actions(&self) -> Vec<(Key, Position, bool)> {
        let p = self.to_move;
        let o = p.other();
        // Attacking is judged at the start of the turn.
        let attacking = self.board[self.ball] == Some(p);
        let mut out = Vec::new();
        for x in 0..FIELDS {
            if self.board[x] != Some(p) || !in_game_zone(x) {
                continue;
            }
            let carrier = x == self.ball;
            let (xf, xr) = coords(x);
            for (di, &(dx, dy)) in DIRS.iter().enumerate() {
                // Attacking restriction: non-carriers may not act with a backward component.
                if attacking && !carrier && dy == -p.forward() {
                    continue;
                }
                let Some(y) = at(xf + dx, xr + dy) else {
                    continue;
                };
                // Step, to an empty Game Zone field; the carrier also into the opponent's
                // Touchdown Zone (the zone this player scores in).
                let touchdown =
                    carrier && coords(y).1 == p.scoring_rank() && (1..=5).contains(&coords(y).0);
                if self.board[y].is_none() && (in_game_zone(y) || touchdown) {
                    out.push((self.key(Kind::Move, x, y), self.relocate(x, y), touchdown));
                }
                // The carrier may only Step.
                if carrier {
                    continue;
                }
                // Special ram: the middle of three own pieces in a rank or a file rams an
                // adjacent opponent piece in any direction.
                if self.board[y] == Some(o) && self.middle_of_three(x, p) {
                    self.ram(x, y, di, &mut out);
                }
                // Two-field actions: `y` between, `z` two fields away in line.
                let Some(z) = at(xf + 2 * dx, xr + 2 * dy) else {
                    continue;
                };
                if !in_game_zone(z) {
                    continue;
                }
                match self.board[y] {
                    None => {
                        // Chase: onto the loose Ball, the field between empty.
                        if z == self.ball && self.board[z].is_none() {
                            out.push((self.key(Kind::Move, x, z), self.relocate(x, z), false));
                        }
                        // Ram.
                        if self.board[z] == Some(o) {
                            self.ram(x, z, di, &mut out);
                        }
                    }
                    Some(q) if q == p => {
                        // Skip over an own piece (possibly onto the loose Ball).
                        if self.board[z].is_none() {
                            out.push((self.key(Kind::Move, x, z), self.relocate(x, z), false));
                        }
                        // Ram while skipping.
                        if self.board[z] == Some(o) {
                            self.ram(x, z, di, &mut out);
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        out
    }

    fn key(&self, kind: Kind, from: usize, to: usize) -> Key {
        Key {
            kind,
            from: from as u8,
            to: to as u8,
            choice: None,
            placements: 0,
        }
    }

    /// The mover's piece goes from `x` to the empty field `y` (the Ball moves with a carrier; a
    /// piece coming onto the loose Ball becomes the carrier, which needs no bookkeeping).
    fn relocate(&self, x: usize, y: usize) -> Position {
        let mut s = self.clone();
        s.board[y] = s.board[x].take();
        if s.ball == x {
            s.ball = y;
        }
        s
    }

    /// Puts a piece of `owner` out of play, on its return mark on the side of `file`.
    fn out_of_play(&mut self, owner: Player, file: i32) {
        let mark_file = if file <= 3 { 0 } else { FILES - 1 };
        let mark = (mark_file * RANKS + owner.mark_rank()) as usize;
        self.returning[owner.index()][mark] += 1;
    }

    /// The mover's piece on `x` rams the opponent piece on `q` in direction `di`.
    fn ram(&self, x: usize, q: usize, di: usize, out: &mut Vec<(Key, Position, bool)>) {
        let p = self.to_move;
        let o = p.other();
        let (dx, dy) = DIRS[di];
        let (qf, qr) = coords(q);
        // Protected: the next field in direction d holds a piece of Q's owner.
        if at(qf + dx, qr + dy).is_some_and(|n| self.board[n] == Some(o)) {
            return;
        }
        // The rammer moves onto Q's field (taking the Ball if Q carried it).
        let mut s = self.clone();
        s.board[x] = None;
        s.board[q] = Some(p);
        // Q moves one field on, past the whole run of the rammer's pieces.
        let (mut ff, mut fr) = (qf + dx, qr + dy);
        while at(ff, fr).is_some_and(|f| s.board[f] == Some(p)) {
            ff += dx;
            fr += dy;
        }
        let key = self.key(Kind::Ram, x, q);
        match at(ff, fr) {
            Some(b) if in_game_zone(b) && s.board[b] == Some(o) => {
                // Blocked by B: Q's owner chooses among B's empty neighbours, tier by tier.
                let back = (di + 4) % 8;
                let neighbour = |d: usize| at(ff + DIRS[d].0, fr + DIRS[d].1);
                let empty_gz = |d: &usize| {
                    neighbour(*d).is_some_and(|n| in_game_zone(n) && s.board[n].is_none())
                };
                let mut dirs: Vec<usize> = [(back + 1) % 8, (back + 7) % 8]
                    .into_iter()
                    .filter(empty_gz)
                    .collect();
                if dirs.is_empty() {
                    dirs = [(back + 2) % 8, (back + 6) % 8]
                        .into_iter()
                        .filter(empty_gz)
                        .collect();
                }
                let options: Vec<usize> = if dirs.is_empty() {
                    // Tier 3: any empty neighbour, even outside the Game Zone.
                    (0..8)
                        .filter_map(neighbour)
                        .filter(|&n| s.board[n].is_none())
                        .collect()
                } else {
                    dirs.into_iter().filter_map(neighbour).collect()
                };
                if options.is_empty() {
                    // No empty neighbour at all (needs more than 5 pieces a side): out of play,
                    // on the side of B's file; nothing to choose, so nothing written.
                    s.out_of_play(o, ff);
                    out.push((key, s, false));
                    return;
                }
                for c in options {
                    let mut t = s.clone();
                    if in_game_zone(c) {
                        t.board[c] = Some(o);
                    } else {
                        t.out_of_play(o, coords(c).0);
                    }
                    out.push((
                        Key {
                            choice: Some(c as u8),
                            ..key
                        },
                        t,
                        false,
                    ));
                }
            }
            Some(f) if in_game_zone(f) => {
                // An empty field (possibly the loose Ball: Q becomes the carrier).
                s.board[f] = Some(o);
                out.push((key, s, false));
            }
            _ => {
                // Outside the Game Zone (Out of Play Zone, Touchdown Zone, off the board).
                s.out_of_play(o, ff);
                out.push((key, s, false));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    use Player::{Black, White};

    fn pos(white: &[&str], black: &[&str], ball: &str, to_move: Player) -> Position {
        Position::custom(white, black, ball, &[], to_move)
    }

    fn has(p: &Position, mv: &str) -> bool {
        p.moves().iter().any(|m| m == mv)
    }

    fn played(p: &Position, mv: &str) -> Position {
        let mut q = p.clone();
        if let Err(e) = q.play(mv) {
            panic!("{e}\n{}", p.render());
        }
        q
    }

    fn starting_with(p: &Position, prefix: &str) -> Vec<String> {
        p.moves()
            .into_iter()
            .filter(|m| m.starts_with(prefix))
            .collect()
    }

    #[test]
    fn field_names_and_order() {
        assert_eq!(field_name(0), "a1");
        assert_eq!(field_name(8), "a9");
        assert_eq!(field_name(9), "b1");
        assert_eq!(field_name(62), "g9");
        assert_eq!(parse_field("d5"), Some(3 * 9 + 4));
        assert_eq!(parse_field("h1"), None);
        assert_eq!(parse_field("a0"), None);
        assert_eq!(parse_field("a10"), None);
        assert!(in_game_zone(field("b2")) && in_game_zone(field("f8")));
        assert!(!in_game_zone(field("a5")) && !in_game_zone(field("d9")));
        assert!(!in_game_zone(field("d1")) && !in_game_zone(field("g2")));
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        assert_eq!(
            p.moves(),
            [
                "b2-b3", "b2-c3", "c2-b3", "c2-c3", "c2-d3", "d2-c3", "d2-d3", "d2-e3", "e2-d3",
                "e2-e3", "e2-f3", "f2-e3", "f2-f3"
            ]
        );
        assert_eq!(p.perft(0), 1);
        assert_eq!(p.perft(1), 13);
        assert_eq!(p.perft(2), 169);
        assert_eq!(p.result(), None);
        assert_eq!(p.carrier(), None);
        assert_eq!(p.ball(), "d5");
        assert!(p.render().contains("to move"));
    }

    #[test]
    fn moves_are_sorted_and_unique() {
        let mut p = Position::start();
        for i in 0..40 {
            let list = p.moves();
            let mut sorted = list.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(list, sorted);
            if list.is_empty() {
                break;
            }
            let mv = list[(i * 7) % list.len()].clone();
            p.play(&mv).expect("listed move");
        }
        assert!(p.play("zz").is_err());
    }

    #[test]
    fn step() {
        let p = pos(&["d4"], &["b8"], "f8", White);
        assert_eq!(
            p.moves(),
            ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3", "d4-e4", "d4-e5"]
        );
        // Only into the Game Zone.
        let p = pos(&["b2"], &["f8"], "d5", White);
        assert_eq!(p.moves(), ["b2-b3", "b2-c2", "b2-c3"]);
        // Not onto a piece.
        let p = pos(&["d4", "d5"], &["c5"], "f8", White);
        assert!(!has(&p, "d4-d5") && !has(&p, "d4-c5"));
        // Onto the loose Ball: take it.
        let p = pos(&["d4"], &["b8"], "d5", White);
        let q = played(&p, "d4-d5");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(White), "d5"));
        // The carrier moves with the Ball.
        let q = played(&q, "b8-b7");
        let q = played(&q, "d5-e6");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(White), "e6"));
        assert_eq!(q.piece("d5"), None);
        assert_eq!(q.turns(), 3);
        assert_eq!(q.to_move(), Black);
    }

    #[test]
    fn touchdown() {
        let p = pos(&["c8", "e8"], &["f4"], "c8", White);
        let moves = p.moves();
        for td in ["c8-b9", "c8-c9", "c8-d9"] {
            assert!(moves.contains(&td.to_string()), "{td}");
        }
        // Only the carrier; never out of the Touchdown Zone's files.
        assert!(!has(&p, "e8-e9") && !has(&p, "e8-d9"));
        let q = played(&p, "c8-c9");
        assert_eq!(q.result(), Some(Outcome::Win(White)));
        assert!(q.moves().is_empty());
        assert_eq!(q.perft(1), 0);
        let p = pos(&["b8"], &["f4"], "b8", White);
        assert!(!has(&p, "b8-a9") && has(&p, "b8-b9") && has(&p, "b8-c9"));
        // Black scores in rank 1; not in rank 9.
        let p = pos(&["f8"], &["d2", "d8"], "d2", Black);
        assert!(has(&p, "d2-c1") && has(&p, "d2-d1") && has(&p, "d2-e1"));
        assert_eq!(played(&p, "d2-d1").result(), Some(Outcome::Win(Black)));
        let p = pos(&["f4"], &["d8"], "d8", Black);
        assert!(!has(&p, "d8-d9"));
        // No return step after a touchdown.
        let p = Position::custom(&["c8"], &["f4"], "c8", &[(White, "a1", 1)], White);
        let moves = p.moves();
        assert_eq!(moves.len(), 5 * 5 + 3);
        assert!(moves.contains(&"c8-c9".to_string()));
        assert!(moves.contains(&"c8-c7 +b2".to_string()));
        assert!(!moves.iter().any(|m| m.starts_with("c8-c9 ")));
    }

    #[test]
    fn chase() {
        let p = pos(&["d4"], &["b8"], "d6", White);
        assert!(has(&p, "d4-d6"));
        let q = played(&p, "d4-d6");
        assert_eq!((q.carrier(), q.piece("d6")), (Some(White), Some(White)));
        // Diagonal, in line.
        let p = pos(&["d4"], &["b8"], "f6", White);
        assert!(has(&p, "d4-f6"));
        // Not a knight's jump, not three fields away.
        let p = pos(&["d4"], &["b8"], "e6", White);
        assert!(!has(&p, "d4-e6"));
        let p = pos(&["d3"], &["b8"], "d6", White);
        assert!(!has(&p, "d3-d6"));
        // The field between must be empty.
        let p = pos(&["d4"], &["d5"], "d6", White);
        assert!(!has(&p, "d4-d6") && !has(&p, "d4*d6"));
        // Only the loose Ball: onto a carried Ball it is a ram.
        let p = pos(&["d4"], &["d6"], "d6", White);
        assert!(!has(&p, "d4-d6") && has(&p, "d4*d6"));
    }

    #[test]
    fn skip() {
        let p = pos(&["d4", "d5"], &["b8"], "f8", White);
        assert!(has(&p, "d4-d6") && has(&p, "d5-d3"));
        let q = played(&p, "d4-d6");
        assert_eq!(q.piece("d4"), None);
        assert_eq!(q.piece("d5"), Some(White));
        assert_eq!(q.piece("d6"), Some(White));
        // Landing field must be an empty Game Zone field.
        let p = pos(&["d4", "d5", "d6"], &["b8"], "f8", White);
        assert!(!has(&p, "d4-d6"));
        let p = pos(&["d7", "d8"], &["b4"], "f5", White);
        assert!(!has(&p, "d7-d9"));
        // Not over an opponent piece.
        let p = pos(&["d4"], &["d5"], "f8", White);
        assert!(!has(&p, "d4-d6"));
        // Onto the loose Ball: becomes the carrier.
        let p = pos(&["d4", "e5"], &["b8"], "f6", White);
        let q = played(&p, "d4-f6");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(White), "f6"));
    }

    #[test]
    fn ram() {
        let p = pos(&["d4"], &["d6"], "f8", White);
        let q = played(&p, "d4*d6");
        assert_eq!(q.piece("d4"), None);
        assert_eq!(q.piece("d6"), Some(White));
        assert_eq!(q.piece("d7"), Some(Black));
        // Diagonal.
        let q = played(&pos(&["c3"], &["e5"], "f8", White), "c3*e5");
        assert_eq!((q.piece("e5"), q.piece("f6")), (Some(White), Some(Black)));
        // Only two fields away: no ram of an adjacent piece without a special ram.
        let p = pos(&["d4"], &["d5"], "f8", White);
        assert!(!p.moves().iter().any(|m| m.contains('*')));
        // Not over an opponent piece.
        let p = pos(&["d4"], &["d5", "d6"], "f8", White);
        assert!(!has(&p, "d4*d6"));
        // Never an own piece.
        let p = pos(&["d4", "d6"], &["b8"], "f8", White);
        assert!(!has(&p, "d4*d6"));
        // Ramming the carrier: the rammer takes the Ball.
        let q = played(&pos(&["d4"], &["d6"], "d6", White), "d4*d6");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(White), "d6"));
        assert_eq!(q.piece("d7"), Some(Black));
    }

    #[test]
    fn ram_while_skipping() {
        let p = pos(&["d4", "d5"], &["d6"], "f8", White);
        let q = played(&p, "d4*d6");
        assert_eq!(q.piece("d4"), None);
        assert_eq!(q.piece("d5"), Some(White));
        assert_eq!(q.piece("d6"), Some(White));
        assert_eq!(q.piece("d7"), Some(Black));
        // Over the carrier as well.
        let p = pos(&["d4", "d5"], &["d6"], "d5", White);
        assert!(has(&p, "d4*d6"));
    }

    #[test]
    fn special_ram() {
        // Three in a rank: the middle rams in any direction.
        let p = pos(&["c4", "d4", "e4"], &["d5", "e5", "c3"], "f8", White);
        let q = played(&p, "d4*d5");
        assert_eq!((q.piece("d4"), q.piece("d5")), (None, Some(White)));
        assert_eq!(q.piece("d6"), Some(Black));
        let q = played(&p, "d4*e5");
        assert_eq!((q.piece("e5"), q.piece("f6")), (Some(White), Some(Black)));
        let q = played(&p, "d4*c3");
        assert_eq!((q.piece("c3"), q.piece("b2")), (Some(White), Some(Black)));
        // Not from an end of the three.
        assert!(!has(&p, "c4*d5") && !has(&p, "e4*d5") && !has(&p, "e4*e5"));
        // Three in a file.
        let p = pos(&["d3", "d4", "d5"], &["e4"], "f8", White);
        let q = played(&p, "d4*e4");
        assert_eq!((q.piece("e4"), q.piece("f4")), (Some(White), Some(Black)));
        // Not three on a diagonal.
        let p = pos(&["c3", "d4", "e5"], &["d5"], "f8", White);
        assert!(!has(&p, "d4*d5"));
        // Middle of a rank and of a file triple: one move.
        let p = pos(&["c4", "d4", "e4", "d3", "d5"], &["e5"], "b8", White);
        assert_eq!(starting_with(&p, "d4*"), ["d4*e5"]);
        // An end of the three may be the carrier.
        let p = pos(&["c4", "d4", "e4"], &["d5"], "c4", White);
        assert!(has(&p, "d4*d5"));
    }

    #[test]
    fn carrier_only_steps() {
        // No special ram as the middle.
        let p = pos(&["c4", "d4", "e4"], &["d5"], "d4", White);
        assert!(!has(&p, "d4*d5"));
        // No skip, no ram, no ram while skipping.
        let p = pos(&["d4", "d5"], &["f6", "b8"], "d4", White);
        assert!(!has(&p, "d4-d6"));
        assert!(!has(&p, "d4*f6"));
        let p = pos(&["d4", "e5"], &["f6"], "d4", White);
        assert!(!has(&p, "d4*f6"));
        // Steps in every direction.
        let p = pos(&["d4"], &["b8"], "d4", White);
        assert_eq!(p.moves().len(), 8);
    }

    #[test]
    fn attacking_restriction() {
        let p = pos(&["d4", "e6"], &["b8", "e4"], "d4", White);
        // The non-carrier: forward and sideways only.
        assert_eq!(
            starting_with(&p, "e6"),
            ["e6-d6", "e6-d7", "e6-e7", "e6-f6", "e6-f7"]
        );
        // The carrier: any direction.
        assert!(has(&p, "d4-d3") && has(&p, "d4-c3") && has(&p, "d4-e3"));
        // A backward ram is forbidden while attacking, allowed while the Ball is loose.
        assert!(!has(&p, "e6*e4"));
        let loose = pos(&["d4", "e6"], &["b8", "e4"], "c7", White);
        assert!(has(&loose, "e6*e4") && has(&loose, "e6-e5"));
        // Sideways ram is allowed.
        let p = pos(&["d4", "b6"], &["d6"], "d4", White);
        assert!(has(&p, "b6*d6"));
        // Backward skip and special ram are forbidden.
        let p = pos(&["b2", "c6", "c5", "d5", "e5"], &["d4", "f8"], "b2", White);
        assert!(!has(&p, "c6-c4") && !has(&p, "d5*d4"));
        // Sideways skip is allowed.
        let p = pos(&["b2", "c6", "d6"], &["f8"], "b2", White);
        assert!(has(&p, "c6-e6"));
        // For Black, backward is towards rank 9.
        let p = pos(&["b2"], &["d4", "e4"], "d4", Black);
        assert_eq!(
            starting_with(&p, "e4"),
            ["e4-c4", "e4-d3", "e4-e3", "e4-f3", "e4-f4"]
        );
        // The defending side is not restricted.
        let p = pos(&["d4", "e6"], &["b8", "e4"], "d4", Black);
        assert!(has(&p, "b8-b7") && has(&p, "b8-c8") && has(&p, "e4-e5"));
        // Judged at the start of the turn: taking the Ball with a backward step is allowed
        // while it is loose.
        let p = pos(&["d6"], &["b8"], "d5", White);
        assert!(has(&p, "d6-d5"));
    }

    #[test]
    fn protection() {
        let p = pos(&["d4"], &["d6", "d7"], "f8", White);
        assert!(!has(&p, "d4*d6"));
        // A special ram is protected the same way.
        let p = pos(&["c4", "d4", "e4"], &["d5", "d6"], "f8", White);
        assert!(!has(&p, "d4*d5"));
        // An own piece behind does not protect the opponent.
        let p = pos(&["d4", "d7"], &["d6"], "f8", White);
        assert!(has(&p, "d4*d6"));
        // Returning pieces protect nobody.
        let p = Position::custom(&["d7"], &["b7"], "f4", &[(Black, "a7", 1)], White);
        let q = played(&p, "d7*b7");
        assert_eq!(q.returning(Black, "a6"), 1);
        assert_eq!(q.returning(Black, "a7"), 1);
        assert_eq!(q.piece("b7"), Some(White));
    }

    #[test]
    fn push_past_a_run() {
        let p = pos(&["d3", "d6", "d7"], &["d5"], "f2", White);
        let q = played(&p, "d3*d5");
        assert_eq!(q.piece("d5"), Some(White));
        assert_eq!(q.piece("d8"), Some(Black));
        assert_eq!(q.pieces_on_board(Black), 1);
        // The run reaches the end of the Game Zone: out of play (d9: the `a` mark).
        let p = pos(&["d3", "d6", "d7", "d8"], &["d5"], "f2", White);
        let q = played(&p, "d3*d5");
        assert_eq!(q.pieces_on_board(Black), 0);
        assert_eq!(q.returning(Black, "a6"), 1);
        // Diagonal run.
        let p = pos(&["b2", "e5"], &["d4"], "f2", White);
        let q = played(&p, "b2*d4");
        assert_eq!(q.piece("f6"), Some(Black));
    }

    #[test]
    fn owner_choice_tiers() {
        // Q on d5 rammed north, run d6, B on d7: tier 1 is c6 and e6.
        let p = pos(&["d3", "d6"], &["d5", "d7"], "b2", White);
        assert_eq!(starting_with(&p, "d3*"), ["d3*d5/c6", "d3*d5/e6"]);
        let q = played(&p, "d3*d5/e6");
        assert_eq!(q.piece("e6"), Some(Black));
        assert_eq!(q.piece("d5"), Some(White));
        // Only one tier 1 field: still written.
        let p = pos(&["d3", "d6", "c6"], &["d5", "d7"], "b2", White);
        assert_eq!(starting_with(&p, "d3*"), ["d3*d5/e6"]);
        // Tier 2: c7 and e7.
        let p = pos(&["d3", "d6", "c6"], &["d5", "d7", "e6"], "b2", White);
        assert_eq!(starting_with(&p, "d3*"), ["d3*d5/c7", "d3*d5/e7"]);
        // Tier 3 inside the Game Zone: the remaining empty neighbours.
        let p = pos(
            &["d3", "d6", "c6", "c7"],
            &["d5", "d7", "e6", "e7"],
            "b2",
            White,
        );
        assert_eq!(
            starting_with(&p, "d3*"),
            ["d3*d5/c8", "d3*d5/d8", "d3*d5/e8"]
        );
        // Tier 3 outside the Game Zone: each field is a distinct move, even when two lead to
        // the same position.
        let p = pos(&["b3", "b6", "c6", "c7"], &["b5", "b7"], "f2", White);
        assert_eq!(
            starting_with(&p, "b3*"),
            ["b3*b5/a6", "b3*b5/a7", "b3*b5/a8", "b3*b5/b8", "b3*b5/c8"]
        );
        let a6 = played(&p, "b3*b5/a6");
        let a8 = played(&p, "b3*b5/a8");
        assert_eq!(a6, a8);
        assert_eq!(a6.returning(Black, "a6"), 1);
        assert_eq!(a6.pieces_on_board(Black), 1);
        assert_eq!(played(&p, "b3*b5/b8").piece("b8"), Some(Black));
        // A tier 1 direction outside the Game Zone does not count in tier 1.
        let p = pos(&["b3", "b6"], &["b5", "b7"], "f2", White);
        assert_eq!(starting_with(&p, "b3*"), ["b3*b5/c6"]);
        // ... nor in tier 2.
        let p = pos(&["b3", "b6", "c6"], &["b5", "b7"], "f2", White);
        assert_eq!(starting_with(&p, "b3*"), ["b3*b5/c7"]);
        // Tier 3 on the g side and in a Touchdown Zone field (f9: the `g` mark, d9: `a`).
        let p = pos(&["f3", "f6", "e6", "e7"], &["f5", "f7", "e8"], "b2", White);
        assert_eq!(
            starting_with(&p, "f3*"),
            ["f3*f5/f8", "f3*f5/g6", "f3*f5/g7", "f3*f5/g8"]
        );
        assert_eq!(played(&p, "f3*f5/g8").returning(Black, "g6"), 1);
        let p = pos(
            &["d4", "d7", "c7", "c8"],
            &["d6", "d8", "e7", "e8"],
            "b2",
            White,
        );
        assert_eq!(
            starting_with(&p, "d4*"),
            ["d4*d6/c9", "d4*d6/d9", "d4*d6/e9"]
        );
        assert_eq!(played(&p, "d4*d6/c9").returning(Black, "a6"), 1);
        assert_eq!(played(&p, "d4*d6/d9").returning(Black, "a6"), 1);
        assert_eq!(played(&p, "d4*d6/e9").returning(Black, "g6"), 1);
        // Returning pieces block no field of any tier.
        let p = Position::custom(
            &["b3", "b6", "c6", "c7", "b8", "c8"],
            &["b5", "b7"],
            "f2",
            &[(Black, "a7", 2)],
            White,
        );
        assert_eq!(
            starting_with(&p, "b3*"),
            ["b3*b5/a6", "b3*b5/a7", "b3*b5/a8"]
        );
        // Diagonal ram: b is south-west of B; tier 1 is W and S of B, tier 2 NW and SE
        // (g5 is outside the Game Zone).
        let p = pos(&["b2", "e5"], &["d4", "f6"], "b8", White);
        assert_eq!(starting_with(&p, "b2*"), ["b2*d4/e6", "b2*d4/f5"]);
        let p = pos(&["b2", "e5", "e6"], &["d4", "f6", "f5"], "b8", White);
        assert_eq!(starting_with(&p, "b2*"), ["b2*d4/e7"]);
        // Pushed onto the loose Ball by a choice: becomes the carrier.
        let p = pos(&["d3", "d6"], &["d5", "d7"], "e6", White);
        let q = played(&p, "d3*d5/e6");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(Black), "e6"));
    }

    #[test]
    fn no_empty_neighbour() {
        // Only with more than five pieces a side: B on d5 fully surrounded.
        let p = pos(
            &["c2", "d2", "e2", "d4", "c4", "e4", "c6"],
            &["d3", "d5", "c5", "e5", "d6", "e6"],
            "b8",
            White,
        );
        assert!(has(&p, "d2*d3"));
        assert!(!p.moves().iter().any(|m| m.starts_with("d2*d3/")));
        let q = played(&p, "d2*d3");
        assert_eq!(q.returning(Black, "a6"), 1);
        assert_eq!(q.piece("d3"), Some(White));
        assert_eq!(q.piece("d2"), None);
    }

    #[test]
    fn out_of_play_sides() {
        // Pushed over the side: a5 and g5.
        let q = played(&pos(&["d5"], &["b5"], "f2", White), "d5*b5");
        assert_eq!(q.returning(Black, "a6"), 1);
        assert_eq!(q.pieces_on_board(Black), 0);
        let q = played(&pos(&["d5"], &["f5"], "b2", White), "d5*f5");
        assert_eq!(q.returning(Black, "g6"), 1);
        // Into a Touchdown Zone: by the file.
        for (file, mark) in [
            ("b", "a6"),
            ("c", "a6"),
            ("d", "a6"),
            ("e", "g6"),
            ("f", "g6"),
        ] {
            let white: Vec<String> = ["3", "6", "7", "8"]
                .iter()
                .map(|r| format!("{file}{r}"))
                .collect();
            let white: Vec<&str> = white.iter().map(|s| s.as_str()).collect();
            let q_field = format!("{file}5");
            let ball = if file == "b" { "f2" } else { "b2" };
            let p = pos(&white, &[q_field.as_str()], ball, White);
            let q = played(&p, &format!("{file}3*{file}5"));
            assert_eq!(q.returning(Black, mark), 1, "{file}");
            assert_eq!(q.pieces_returning(Black), 1, "{file}");
        }
        // White pieces go to White's marks (a4, g4).
        let q = played(&pos(&["b5"], &["d5"], "f8", Black), "d5*b5");
        assert_eq!(q.returning(White, "a4"), 1);
        let q = played(&pos(&["f5"], &["d5"], "b8", Black), "d5*f5");
        assert_eq!(q.returning(White, "g4"), 1);
        let q = played(&pos(&["e4"], &["e6", "e3", "e2"], "b8", Black), "e6*e4");
        assert_eq!(q.returning(White, "g4"), 1);
        let q = played(&pos(&["d4"], &["d6", "d3", "d2"], "b8", Black), "d6*d4");
        assert_eq!(q.returning(White, "a4"), 1);
        let q = played(&pos(&["c4"], &["c6", "c3", "c2"], "b8", Black), "c6*c4");
        assert_eq!(q.returning(White, "a4"), 1);
        // Diagonal over the corner of the Game Zone: f2 pushed south-east to g1.
        let q = played(&pos(&["f2"], &["d4"], "b8", Black), "d4*f2");
        assert_eq!(q.returning(White, "g4"), 1);
        let q = played(&pos(&["b2"], &["d4"], "f8", Black), "d4*b2");
        assert_eq!(q.returning(White, "a4"), 1);
    }

    #[test]
    fn push_onto_the_loose_ball() {
        let p = pos(&["d4"], &["d6"], "d7", White);
        let q = played(&p, "d4*d6");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(Black), "d7"));
        // Past a run onto the Ball.
        let p = pos(&["d3", "d6"], &["d5"], "d7", White);
        let q = played(&p, "d3*d5");
        assert_eq!((q.carrier(), q.ball().as_str()), (Some(Black), "d7"));
    }

    #[test]
    fn returning_pieces_advance_and_are_put_back() {
        // Out of play during White's turn: on the mark, advancing at the end of Black's turns.
        let p = pos(&["d5"], &["b5", "f8"], "d2", White);
        let mut q = played(&p, "d5*b5");
        assert_eq!(q.returning(Black, "a6"), 1);
        q.play("f8-f7").expect("legal");
        assert_eq!(q.returning(Black, "a7"), 1);
        q.play("b5-b4").expect("legal");
        assert_eq!(
            q.returning(Black, "a7"),
            1,
            "White's turn moves no Black piece"
        );
        q.play("f7-f6").expect("legal");
        assert_eq!(q.returning(Black, "a8"), 1);
        q.play("b4-b3").expect("legal");
        q.play("f6-f5").expect("legal");
        assert_eq!(q.returning(Black, "a9"), 1);
        q.play("b3-c3").expect("legal");
        // Now on the last gray field: put back compulsorily on an empty field of rank 8.
        let list = starting_with(&q, "f5-f4");
        assert_eq!(
            list,
            [
                "f5-f4 +b8",
                "f5-f4 +c8",
                "f5-f4 +d8",
                "f5-f4 +e8",
                "f5-f4 +f8"
            ]
        );
        q.play("f5-f4 +c8").expect("legal");
        assert_eq!(q.piece("c8"), Some(Black));
        assert_eq!(q.pieces_returning(Black), 0);

        // Several at once: a set of fields in ascending order.
        let p = Position::custom(
            &["d4"],
            &["b8"],
            "f6",
            &[(White, "a1", 1), (White, "g1", 1), (White, "g2", 1)],
            White,
        );
        let list = starting_with(&p, "d4-d5");
        assert_eq!(list.len(), 10);
        assert!(list.contains(&"d4-d5 +b2 +f2".to_string()));
        assert!(!list.contains(&"d4-d5 +f2 +b2".to_string()));
        let q = played(&p, "d4-d5 +b2 +f2");
        assert_eq!((q.piece("b2"), q.piece("f2")), (Some(White), Some(White)));
        // Only pieces on the last gray field when the step begins go back.
        assert_eq!(q.returning(White, "g1"), 1);
        assert_eq!(q.pieces_returning(White), 1);

        // Judged after the action: the field just left counts as empty.
        let p = Position::custom(
            &["b2"],
            &["c2", "d2", "e2", "f2"],
            "d5",
            &[(White, "a1", 1)],
            White,
        );
        assert_eq!(p.moves(), ["b2-b3 +b2", "b2-c3 +b2"]);

        // Full first row: the pieces wait.
        let p = Position::custom(
            &["b2", "c2", "d4"],
            &["d2", "e2", "f2"],
            "f6",
            &[(White, "a1", 2), (White, "a2", 1)],
            White,
        );
        let q = played(&p, "d4-d5");
        assert_eq!(q.returning(White, "a1"), 3);
        // One empty field: one piece goes back, one waits.
        let q = played(&p, "b2-b3 +b2");
        assert_eq!(q.returning(White, "a1"), 2);
        assert_eq!(q.piece("b2"), Some(White));
        assert!(!has(&p, "b2-b3"));

        // Put back onto the loose Ball: becomes the carrier.
        let p = Position::custom(&["d4"], &["b8"], "c2", &[(White, "g1", 1)], White);
        let q = played(&p, "d4-d5 +c2");
        assert_eq!(q.carrier(), Some(White));
    }

    #[test]
    fn pass() {
        // No piece on the board, returning pieces advance and are put back.
        let p = Position::custom(
            &[],
            &["b8"],
            "d5",
            &[(White, "a1", 1), (White, "a3", 1)],
            White,
        );
        assert_eq!(
            p.moves(),
            ["pass +b2", "pass +c2", "pass +d2", "pass +e2", "pass +f2"]
        );
        let q = played(&p, "pass +d2");
        assert_eq!(q.piece("d2"), Some(White));
        assert_eq!(q.returning(White, "a2"), 1);
        assert_eq!(q.turns(), 1);
        assert_eq!(q.to_move(), Black);
        // Plain pass.
        let p = Position::custom(&[], &["b8"], "d5", &[(White, "g3", 1)], White);
        assert_eq!(p.moves(), ["pass"]);
        assert_eq!(played(&p, "pass").returning(White, "g2"), 1);
        // A piece with no legal action.
        let p = pos(&["b2"], &["b3", "c3", "c2"], "f8", White);
        assert_eq!(p.moves(), ["pass"]);
        assert_eq!(p.perft(1), 1);
    }

    #[test]
    fn turn_limit() {
        let p = Position::with_turn_limit(2);
        assert_eq!(p.perft(2), 169);
        // A finished game has no moves, so nothing reaches depth 3.
        assert_eq!(p.perft(3), 0);
        let mut q = p.clone();
        q.play("d2-d3").expect("legal");
        assert_eq!(q.result(), None);
        q.play("d8-d7").expect("legal");
        assert_eq!(q.result(), Some(Outcome::Draw));
        assert!(q.moves().is_empty());
        assert!(q.play("d3-d4").is_err());
        // Passes count.
        let p = pos(&["b2"], &["b3", "c3", "c2"], "f8", White).at_turn(9, 10);
        assert_eq!(played(&p, "pass").result(), Some(Outcome::Draw));
        // A touchdown on the last allowed turn still wins.
        let p = pos(&["c8"], &["f4"], "c8", White).at_turn(9, 10);
        assert_eq!(played(&p, "c8-c9").result(), Some(Outcome::Win(White)));
        assert_eq!(played(&p, "c8-c7").result(), Some(Outcome::Draw));
        assert_eq!(Position::start().turn_limit(), 200);
    }

    fn check_invariants(p: &Position) {
        for player in [White, Black] {
            assert_eq!(
                p.pieces_on_board(player) + p.pieces_returning(player),
                5,
                "{}",
                p.render()
            );
            for f in 0..FIELDS {
                if p.returning[player.index()][f] > 0 {
                    assert!(is_gray(f), "{}", p.render());
                }
                if p.board[f] == Some(player) && !in_game_zone(f) {
                    // Only the carrier after its touchdown.
                    assert_eq!(p.result(), Some(Outcome::Win(player)), "{}", p.render());
                    assert_eq!(f, p.ball);
                }
            }
        }
        if p.result().is_none() {
            assert!(in_game_zone(p.ball), "{}", p.render());
            assert!(p.turns() < p.turn_limit());
        }
    }

    #[test]
    fn random_games_keep_invariants() {
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((seed >> 33) as usize) % n
        };
        let mut stats = [0usize; 6];
        for _ in 0..300 {
            let mut p = Position::start();
            loop {
                check_invariants(&p);
                let list = p.moves_with_children();
                if list.is_empty() {
                    match p.result() {
                        Some(Outcome::Win(_)) => stats[0] += 1,
                        Some(Outcome::Draw) => stats[1] += 1,
                        None => panic!("no moves but no result\n{}", p.render()),
                    }
                    break;
                }
                let (mv, child) = &list[next(list.len())];
                stats[2] += usize::from(mv.contains('/'));
                stats[3] += usize::from(mv.contains(" +"));
                stats[4] += usize::from(mv.starts_with("pass"));
                let victim = p.to_move().other();
                stats[5] +=
                    usize::from(child.pieces_returning(victim) > p.pieces_returning(victim));
                let mut q = p.clone();
                q.play(mv).expect("listed move");
                assert_eq!(&q, child);
                p = q;
            }
        }
        println!("wins, draws, choices, placements, passes, out of play: {stats:?}");
        assert!(stats[0] > 0 && stats[1] > 0 && stats[2] > 0 && stats[3] > 0 && stats[5] > 0);
    }

    #[test]
    #[ignore]
    fn perft_from_start() {
        let p = Position::start();
        for depth in 1..=4 {
            let t = Instant::now();
            let n = p.perft(depth);
            println!("perft({depth}) = {n}  ({:.3} s)", t.elapsed().as_secs_f64());
        }
    }
}
