//! The checks of the fuzz targets, shared by the targets (`fuzz/fuzz_targets/`) and by their
//! stable replay (`tests/fuzz_replay.rs`), so that the saved corpora run through exactly what the
//! fuzzer ran. Each check takes raw input bytes and panics only when Rulestone misbehaves: a panic
//! inside Rulestone, a diagnostic without a code, a file `check` passes that the other commands
//! refuse, or a broken engine invariant (apply then undo, the position key, notation).
//!
//! Every check does bounded work: random games are cut at [`MAX_PLIES`], and at most [`SPREAD`]
//! of a position's moves are tried.
#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rand::SeedableRng as _;
use rulestone::check::table::TableGame;
use rulestone::cli::inputs;
use rulestone::diag::{self, Diag};
use rulestone::ir::table::{Army, TableProgram};
use rulestone::ir::Program;
use rulestone::runtime::perft::{Bounded, Budget};
use rulestone::runtime::table::{Choice, Decision, TableMatch};
use rulestone::runtime::{BoardGame, Engine, Game, Move};

/// The generator of well-typed games, shared with the differential test.
#[path = "../tests/generator/mod.rs"]
mod generator;

/// The grammar of turn programs with nested loops, shared with `tests/loops.rs`.
#[path = "../tests/loopgen/mod.rs"]
mod loopgen;

/// Random games are cut after this many plies.
pub const MAX_PLIES: usize = 24;
/// At most this many of a position's listed moves are checked (spread over the list).
pub const SPREAD: usize = 4;

/// Every game file of the repository, what the structure-aware targets start from.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "games/breakthrough.game",
        include_str!("../games/breakthrough.game"),
    ),
    (
        "games/connect4.game",
        include_str!("../games/connect4.game"),
    ),
    (
        "games/draughts.game",
        include_str!("../games/draughts.game"),
    ),
    ("games/hex.game", include_str!("../games/hex.game")),
    ("games/pylos.game", include_str!("../games/pylos.game")),
    ("games/reversi.game", include_str!("../games/reversi.game")),
    (
        "games/steinplatz.game",
        include_str!("../games/steinplatz.game"),
    ),
    (
        "games/stoneball.game",
        include_str!("../games/stoneball.game"),
    ),
    (
        "games/tankball.game",
        include_str!("../games/tankball.game"),
    ),
    (
        "games/tictactoe.game",
        include_str!("../games/tictactoe.game"),
    ),
    (
        "games/warstone.game",
        include_str!("../games/warstone.game"),
    ),
    (
        "tests/games/capture_lines.game",
        include_str!("../tests/games/capture_lines.game"),
    ),
    (
        "tests/games/custodian.game",
        include_str!("../tests/games/custodian.game"),
    ),
    (
        "tests/games/hill.game",
        include_str!("../tests/games/hill.game"),
    ),
    (
        "tests/games/nudge.game",
        include_str!("../tests/games/nudge.game"),
    ),
    (
        "tests/games/orbit.game",
        include_str!("../tests/games/orbit.game"),
    ),
    (
        "tests/games/owner_emptied.game",
        include_str!("../tests/games/owner_emptied.game"),
    ),
    (
        "tests/games/rebound.game",
        include_str!("../tests/games/rebound.game"),
    ),
    (
        "tests/games/relay.game",
        include_str!("../tests/games/relay.game"),
    ),
    (
        "tests/games/shove.game",
        include_str!("../tests/games/shove.game"),
    ),
    (
        "tests/games/sling.game",
        include_str!("../tests/games/sling.game"),
    ),
    (
        "tests/games/terraces.game",
        include_str!("../tests/games/terraces.game"),
    ),
];

/// Values a mutation puts in place of a number or an option's value: edges of every integer
/// width the IR uses, and a few that are no integer at all.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "16",
    "23",
    "24",
    "127",
    "128",
    "129",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "-2147483648",
    "2147483648",
    "99999999999999999999",
    "-0",
    "x",
    "",
];

/// A small deterministic generator (splitmix64): the fuzzer's bytes decide everything.
struct Bits(u64);

impl Bits {
    fn of(bytes: &[u8]) -> Bits {
        // FNV-1a over the input: the same input always plays the same game.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        Bits(h)
    }

    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        usize::try_from(z % (n.max(1) as u64)).unwrap_or(0)
    }
}

/// Every diagnostic has a code and renders, as text and as JSON.
fn assert_coded(diags: &[Diag], source: &str, what: &str) {
    for d in diags {
        assert!(
            diag::code_of(d.as_ref()).is_some(),
            "{what}: a diagnostic without a code: {d}"
        );
    }
    let _ = diag::render(diags, source, "fuzz.game", false);
    let _ = diag::render_json(diags, source, "fuzz.game");
}

/// Target `parse_check`: any text through parse, check and the lowering `check` does.
pub fn parse_check(bytes: &[u8]) {
    let Ok(source) = std::str::from_utf8(bytes) else {
        return;
    };
    let diags = rulestone::diagnose(source, &[]);
    assert_coded(&diags, source, "check");
}

/// Target `game`: a text that checks clean compiles, and its engine keeps its invariants.
pub fn game(bytes: &[u8]) {
    let Ok(source) = std::str::from_utf8(bytes) else {
        return;
    };
    game_source(source, &[], Bits::of(bytes));
}

/// A game source (with option settings) through check, compile and a checked random game.
fn game_source(source: &str, sets: &[(String, String)], mut bits: Bits) {
    let diags = rulestone::diagnose(source, sets);
    assert_coded(&diags, source, "check");
    if is_table_game(source) {
        // A table game is played by `TableMatch`, not lowered to a program.
        return;
    }
    let clean = !diag::has_errors(&diags);
    let program = match rulestone::compile(source, sets) {
        Ok(program) => program,
        Err(e) => {
            assert_coded(&e.diags, source, "compile");
            assert!(!clean, "`check` passes a game that does not compile: {e}");
            return;
        }
    };
    play_checked(&program, &mut bits);
}

/// Whether the source is a table game (no move list for the engine to play).
fn is_table_game(source: &str) -> bool {
    rulestone::parse(source).is_ok_and(|f| rulestone::check::table::is_table_game(&f))
}

/// A random game of at most [`MAX_PLIES`] plies, checking at each position a spread of moves
/// (notation round trip, apply then undo, the position key), then undone to the start.
fn play_checked(program: &Program, bits: &mut Bits) {
    let mut game = BoardGame::new(Engine::new(program));
    let start = game.engine.state.clone();
    let mut moves: Vec<Move> = Vec::new();
    let mut played = 0;
    for _ in 0..MAX_PLIES {
        if game.outcome().is_some() {
            break;
        }
        game.decisions(&mut moves);
        if moves.is_empty() {
            break;
        }
        let _ = game.engine.status_lines();
        for m in moves.iter().step_by(moves.len() / SPREAD + 1) {
            check_move(&mut game, m);
        }
        let m = moves[bits.below(moves.len())];
        game.apply(&m);
        played += 1;
        assert_key(&game, "after a move");
    }
    let _ = game.engine.scores();
    for _ in 0..played {
        assert!(game.undo(), "a move played could not be taken back");
    }
    assert_eq!(
        game.engine.state, start,
        "undoing the game does not restore the start"
    );
}

/// One listed move: its notation reads back to a move of that notation, and apply then undo
/// restores the position and its key.
fn check_move(game: &mut BoardGame<'_>, m: &Move) {
    let text = game.text(m);
    match game.parse(&text) {
        Ok(back) => assert_eq!(game.text(&back), text, "notation `{text}` reads back wrong"),
        Err(e) => panic!("the notation `{text}` of a listed move does not read back: {e}"),
    }
    let _ = game.decision_parts(m);
    let before = game.engine.state.clone();
    game.apply(m);
    assert_key(game, &format!("after `{text}`"));
    let _ = game.outcome();
    assert!(game.undo(), "`{text}` could not be taken back");
    assert_eq!(
        game.engine.state, before,
        "undoing `{text}` does not restore the position"
    );
}

/// The position key kept move by move equals the one recomputed from scratch.
fn assert_key(game: &BoardGame<'_>, when: &str) {
    let state = &game.engine.state;
    assert_eq!(
        state.hash,
        state.compute_hash(game.engine.zobrist()),
        "{when}, the position key is not the recomputed one"
    );
}

/// Target `mutate`: a bundled game changed at the level of its tokens and lines (numbers set to
/// extremes, names swapped, lines dropped, repeated or swapped) and run with option values set
/// to extremes, through the checks of [`game`].
pub fn mutate(bytes: &[u8]) {
    let Some((&pick, ops)) = bytes.split_first() else {
        return;
    };
    let (_, original) = BUNDLED[usize::from(pick) % BUNDLED.len()];
    let mut source = original.to_string();
    let mut sets = Vec::new();
    for op in ops.chunks_exact(3).take(8) {
        let (a, b) = (usize::from(op[1]), usize::from(op[2]));
        match op[0] % 6 {
            0 => replace_token(&mut source, Token::Number, a, EXTREMES[b % EXTREMES.len()]),
            1 => edit_lines(&mut source, |lines| {
                let i = (a * 256 + b) % lines.len();
                lines.remove(i);
            }),
            2 => edit_lines(&mut source, |lines| {
                let i = (a * 256 + b) % lines.len();
                lines.insert(i, lines[i].clone());
            }),
            3 => edit_lines(&mut source, |lines| {
                let n = lines.len();
                lines.swap(a * 7 % n, b * 13 % n);
            }),
            4 => {
                let names = tokens(&source, Token::Name);
                if let Some((from, to)) = names.get(a % names.len().max(1)) {
                    let other = names[b % names.len()];
                    let word = source[other.0..other.1].to_string();
                    source.replace_range(*from..*to, &word);
                }
            }
            _ => {
                if let Some(name) = option_names(&source).get(a % 8) {
                    sets.push((name.clone(), EXTREMES[b % EXTREMES.len()].to_string()));
                }
            }
        }
    }
    game_source(&source, &sets, Bits::of(bytes));
}

#[derive(Clone, Copy, PartialEq)]
enum Token {
    Number,
    Name,
}

/// The byte ranges of the source's numbers or names (comments included: a mutation there is
/// harmless).
fn tokens(source: &str, kind: Token) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let belongs = |c: char, first: bool| match kind {
        Token::Number => c.is_ascii_digit(),
        Token::Name => c.is_ascii_alphabetic() || c == '_' || (!first && c.is_ascii_digit()),
    };
    for (i, c) in source.char_indices() {
        match start {
            Some(s) if !belongs(c, false) => {
                out.push((s, i));
                start = None;
            }
            None if belongs(c, true) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, source.len()));
    }
    out
}

/// Replaces the `k`th token of a kind (modulo their number) by `with`.
fn replace_token(source: &mut String, kind: Token, k: usize, with: &str) {
    let found = tokens(source, kind);
    if let Some(&(from, to)) = found.get(k % found.len().max(1)) {
        source.replace_range(from..to, with);
    }
}

/// Applies an edit to the source's lines (none when it has none).
fn edit_lines(source: &mut String, edit: impl FnOnce(&mut Vec<String>)) {
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    if lines.is_empty() {
        return;
    }
    edit(&mut lines);
    *source = lines.join("\n");
}

/// The names of the options a source declares (`option NAME: ...`).
fn option_names(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("option "))
        .filter_map(|rest| rest.split(':').next())
        .map(|name| name.trim().to_string())
        .collect()
}

/// The bundled board games, compiled with their default options once.
fn board_games() -> &'static [(&'static str, Program)] {
    static GAMES: OnceLock<Vec<(&'static str, Program)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        BUNDLED
            .iter()
            .filter(|(_, source)| !is_table_game(source))
            .filter_map(|(path, source)| Some((*path, rulestone::compile(source, &[]).ok()?)))
            .collect()
    })
}

/// Target `typed`: the first byte picks a bundled board game, the rest is a `--after` move list
/// typed by a person; the moves that are legal are played, the rest refused with a message.
pub fn typed(bytes: &[u8]) {
    let Some((&pick, rest)) = bytes.split_first() else {
        return;
    };
    let Ok(list) = std::str::from_utf8(rest) else {
        return;
    };
    let games = board_games();
    let (_, program) = &games[usize::from(pick) % games.len()];
    let mut game = BoardGame::new(Engine::new(program));
    let _ = game.parse(list);
    match inputs::play_typed(&mut game.engine, list) {
        Ok(_) => assert_key(&game, "after typed moves"),
        Err(message) => assert!(message.starts_with("error: "), "{message}"),
    }
    let mut moves = Vec::new();
    game.decisions(&mut moves);
    if let Some(m) = moves.first() {
        check_move(&mut game, m);
    }
}

/// The bundled board games' sources (the table game left out), found once: a record's first
/// byte picks among them.
fn board_sources() -> &'static [(&'static str, &'static str)] {
    static SOURCES: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        BUNDLED
            .iter()
            .filter(|(_, source)| !is_table_game(source))
            .copied()
            .collect()
    })
}

/// How many compiled programs [`compiled_once`] keeps before it starts afresh.
const PROGRAM_CACHE: usize = 256;

/// The `index`th game of [`board_sources`] compiled with these option values, once per process
/// for each set of values (most records name the same few), so an execution costs only the
/// record's own work.
fn compiled_once(
    index: usize,
    sets: Vec<(String, String)>,
) -> Result<Arc<Program>, rulestone::CompileError> {
    static PROGRAMS: OnceLock<Mutex<ProgramCache>> = OnceLock::new();
    let cache = PROGRAMS.get_or_init(Mutex::default);
    let key = (index, sets);
    if let Some(program) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(program);
    }
    let program = Arc::new(rulestone::compile(board_sources()[index].1, &key.1)?);
    if let Ok(mut c) = cache.lock() {
        if c.len() >= PROGRAM_CACHE {
            c.clear();
        }
        c.insert(key, Arc::clone(&program));
    }
    Ok(program)
}

/// Compiled programs by game and option values.
type ProgramCache = HashMap<(usize, Vec<(String, String)>), Arc<Program>>;

/// Target `record`: the first byte picks a bundled board game, the rest is a saved record of it
/// (its options, moves and result), replayed as `replay` does.
pub fn record(bytes: &[u8]) {
    let Some((&pick, rest)) = bytes.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(sets) = inputs::record_options(text) else {
        return;
    };
    let boards = board_sources();
    let index = usize::from(pick) % boards.len();
    let source = boards[index].1;
    let program = match compiled_once(index, sets) {
        Ok(program) => program,
        Err(e) => return assert_coded(&e.diags, source, "record options"),
    };
    let mut game = BoardGame::new(Engine::new(&program));
    match inputs::replay_record(&mut game.engine, text) {
        Ok(_) => assert_key(&game, "after a record"),
        Err(message) => assert!(message.starts_with("error: "), "{message}"),
    }
}

/// The bundled table game's army rules, checked once.
fn table_game() -> Option<&'static TableGame> {
    static GAME: OnceLock<Option<TableGame>> = OnceLock::new();
    GAME.get_or_init(|| {
        let (_, source) = BUNDLED.iter().find(|(_, s)| is_table_game(s))?;
        let file = rulestone::parse(source).ok()?;
        rulestone::check(&file).0?.table
    })
    .as_ref()
}

/// Target `deck`: a deck file's text, parsed and each army checked against the bundled table
/// game's army rules, the first two against each other.
pub fn deck(bytes: &[u8]) {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Some(game) = table_game() else {
        return;
    };
    let armies = match rulestone::syntax::parse_deck(text) {
        Ok(armies) => armies,
        Err(errors) => return assert_coded(&diag::boxed(errors), text, "deck"),
    };
    let mut diags: Vec<Diag> = armies
        .iter()
        .flat_map(|a| rulestone::check::deck::check_army(game, a))
        .collect();
    if let [first, second, ..] = armies.as_slice() {
        diags.extend(rulestone::check::deck::check_opponents(game, first, second));
    }
    assert_coded(&diags, text, "deck");
}

/// Target `options`: the first byte picks a bundled board game; the rest are lines of what a
/// person types on the command line, each naming its flag by its first character: `S` a
/// `--set NAME=VALUE`, `A` an `--after` list, `R` a `--rolls` list. They go through the
/// parsing the commands use; then the game is built with those settings, the moves played,
/// and, in a game with chance, a small count taken with those rolls.
pub fn options(bytes: &[u8]) {
    let Some((&pick, rest)) = bytes.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let (mut sets, mut after, mut rolls) = (Vec::new(), None, None);
    for line in text.lines().take(16) {
        let mut chars = line.chars();
        match chars.next() {
            Some('S') => sets.push(chars.as_str().to_string()),
            Some('A') => after = Some(chars.as_str()),
            Some('R') => rolls = Some(chars.as_str()),
            _ => {}
        }
    }
    let sets = match inputs::option_settings(&sets) {
        Ok(sets) => sets,
        Err(message) => return assert!(message.starts_with("error: "), "{message}"),
    };
    let rolls = match rolls.map(inputs::rolls).transpose() {
        Ok(rolls) => rolls,
        Err(message) => return assert!(message.starts_with("error: "), "{message}"),
    };
    let boards = board_sources();
    let index = usize::from(pick) % boards.len();
    let program = match compiled_once(index, sets) {
        Ok(program) => program,
        Err(e) => return assert_coded(&e.diags, boards[index].1, "--set"),
    };
    let mut game = BoardGame::new(Engine::new(&program));
    if let Some(list) = after {
        match inputs::play_typed(&mut game.engine, list) {
            Ok(_) => assert_key(&game, "after `--after`"),
            Err(message) => return assert!(message.starts_with("error: "), "{message}"),
        }
    }
    if let Some(rolls) = rolls.filter(|_| program.has_chance()) {
        let budget = Budget {
            leaves: Some(ROLL_LEAVES),
            deadline: None,
        };
        let start = game.engine.state.clone();
        let _ = Bounded::new(budget).count_with_rolls(&mut game.engine, 2, &rolls);
        assert_eq!(
            game.engine.state, start,
            "a count with rolls moved the position"
        );
    }
}

/// The most leaves a count with fuzzed rolls takes.
const ROLL_LEAVES: u64 = 5_000;

/// The bundled table games' sources: the first byte of a `shot` input picks among them.
fn table_sources() -> &'static [(&'static str, &'static str)] {
    static SOURCES: OnceLock<Vec<(&'static str, &'static str)>> = OnceLock::new();
    SOURCES.get_or_init(|| {
        BUNDLED
            .iter()
            .filter(|(_, source)| is_table_game(source))
            .copied()
            .collect()
    })
}

/// Each table game's program and armies, with its default settings, built once.
fn table_programs() -> &'static [(TableProgram, [Vec<Army>; 2])] {
    static PROGRAMS: OnceLock<Vec<(TableProgram, [Vec<Army>; 2])>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        table_sources()
            .iter()
            .filter_map(|(_, source)| inputs::table_program(source, &[]).ok())
            .collect()
    })
}

/// Reals a shot's parameters take in `shot`: the edges of `f64` and a few plain values.
const REALS: &[f64] = &[
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    5e-324,
    -5e-324,
    0.0,
    -0.0,
    1.0,
    45.0,
    359.999,
    360.0,
    1e9,
    1e300,
];

/// A real from 9 bytes: one of [`REALS`], or the bits of the next eight.
fn real(bytes: &[u8]) -> f64 {
    match bytes {
        [k, rest @ ..] if k % 2 == 0 => REALS[usize::from(k / 2) % REALS.len()],
        [_, rest @ ..] if rest.len() >= 8 => {
            let mut b = [0u8; 8];
            b.copy_from_slice(&rest[..8]);
            f64::from_le_bytes(b)
        }
        _ => 0.0,
    }
}

/// Target `shot`: a table game's shots with any parameters. The first byte picks a bundled
/// table game, the next eight its deal; the armies are chosen at random; then each 20-byte
/// step is a decision: a random legal
/// one, a decided shot with any whole angle and speed (checked like a typed one), a shot with
/// any real angle and speed (NaN, infinities, huge and subnormal included, unchecked), or an
/// undo. After each, every stone is at a finite point and still.
pub fn shot(bytes: &[u8]) {
    let programs = table_programs();
    let Some((&pick, rest)) = bytes.split_first() else {
        return;
    };
    let Some((program, armies)) = programs.get(usize::from(pick) % programs.len().max(1)) else {
        return;
    };
    let deal = rest
        .iter()
        .take(8)
        .fold(0u64, |h, b| h.wrapping_mul(257).wrapping_add(u64::from(*b)));
    let mut m = TableMatch::new(program, armies.clone(), deal);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(deal);
    // The armies are chosen first: only then are there stones to shoot.
    for _ in 0..4 {
        if !m.position.stones.is_empty() {
            break;
        }
        if let Some(d) = m.random_decision(&mut rng) {
            let _ = m.apply(&d);
        }
    }
    for chunk in rest.get(8..).unwrap_or_default().chunks(20).take(12) {
        // The last step may be short: its missing bytes are zeros.
        let mut step = [0u8; 20];
        step[..chunk.len()].copy_from_slice(chunk);
        let stones = m.position.stones.len().max(1);
        let stone = usize::from(step[1]) % stones;
        match step[0] % 4 {
            0 => {
                if let Some(d) = m.random_decision(&mut rng) {
                    let _ = m.apply(&d);
                }
            }
            1 => {
                let card = m.choices().into_iter().find_map(|c| match c {
                    Choice::Shot { card, .. } => Some(card),
                    _ => None,
                });
                let word = |at: usize| {
                    let mut b = [0u8; 4];
                    for (i, x) in step.iter().skip(at).take(4).enumerate() {
                        b[i] = *x;
                    }
                    b
                };
                let d = Decision::Shot {
                    card: card.flatten(),
                    stone,
                    angle: i32::from_le_bytes(word(2)),
                    speed: u32::from_le_bytes(word(6)),
                };
                let before = m.position.clone();
                if m.apply(&d).is_err() {
                    assert_eq!(
                        format!("{:?}", m.position),
                        format!("{before:?}"),
                        "a refused shot changed the match"
                    );
                }
            }
            2 => m.shoot_unchecked(stone, real(&step[2..]), real(&step[11..])),
            _ => {
                let _ = m.undo();
            }
        }
        assert_on_table(&m);
        let _ = m.status();
        let _ = rulestone::cli::inputs::draw_table(&m);
        let _ = m.outcome();
    }
}

/// Every stone is at a finite point (one off the table where it left it), and every stone on
/// the table is still.
fn assert_on_table(m: &TableMatch<'_>) {
    for (i, s) in m.position.stones.iter().enumerate() {
        let d = &s.disc;
        assert!(
            d.x.is_finite() && d.y.is_finite() && d.vx.is_finite() && d.vy.is_finite(),
            "stone {i} (on the table: {}) is at ({}, {}) moving ({}, {})",
            d.on_table,
            d.x,
            d.y,
            d.vx,
            d.vy
        );
    }
}

/// The fuzzer's bytes as a source of random numbers: read in order, then (once they run out)
/// a generator seeded by them, so that every input gives one whole game.
struct ByteSource {
    bytes: Vec<u8>,
    at: usize,
    after: rand_chacha::ChaCha8Rng,
}

impl rand::RngCore for ByteSource {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0u8; 4];
        self.fill_bytes(&mut b);
        u32::from_le_bytes(b)
    }

    fn next_u64(&mut self) -> u64 {
        let mut b = [0u8; 8];
        self.fill_bytes(&mut b);
        u64::from_le_bytes(b)
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for d in dest {
            *d = match self.bytes.get(self.at) {
                Some(b) => {
                    self.at += 1;
                    *b
                }
                None => self.after.next_u32().to_le_bytes()[0],
            };
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

/// Target `generated`: a well-typed game written by the generator of the differential test
/// (`tests/generator/`), every choice of it taken from the fuzzer's bytes, through check,
/// lowering and a checked random game on the interpreter (as [`game`] does).
pub fn generated(bytes: &[u8]) {
    let seed = Bits::of(bytes).0;
    let source = ByteSource {
        bytes: bytes.to_vec(),
        at: 0,
        after: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
    };
    let text = generator::game_from(Box::new(source), seed);
    game_source(&text, &[], Bits::of(bytes));
}

/// Target `loops`: a turn program with nested `while`s, `repeat`s, `if`s and picks
/// (`tests/loopgen/`), every choice of it taken from the fuzzer's bytes: `check` passes it or
/// refuses it with codes, and one it passes lists its moves and plays within the step bound,
/// with bounded memory, on the interpreter.
pub fn loops(bytes: &[u8]) {
    let seed = Bits::of(bytes).0;
    let mut source = ByteSource {
        bytes: bytes.to_vec(),
        at: 0,
        after: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
    };
    let stmts = loopgen::stmts(&mut source, loopgen::DEPTH);
    loopgen::check_and_run(&loopgen::game(&stmts));
}
