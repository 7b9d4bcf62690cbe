//! One engine interface for every kind of game: [`Game`]. Board games ([`BoardGame`], over
//! [`Engine`]) and table games ([`TableMatch`]) implement it, so that code written against it
//! (listing decisions, random and seeded play, agents, bindings) needs no branch on the kind of
//! game.
//!
//! A *decision* is one step of play: a move of a board game (a roll, when chance decides), or a
//! decision of a table game (an army, a card and its shot, a referee's report). Decisions are
//! listed when they can be (every board game; a table game whose open decisions are all
//! discrete) and can always be sampled, so that a table game's continuous shots take part too.
//!
//! Invariants, for every implementation: `apply` takes only a decision that `decisions` listed
//! or `sample` or `parse` returned for the same position; `undo` takes back the last `apply`
//! exactly (the position, its hash and the player to move are as before); `text` then `parse`
//! of a listed decision gives that decision back.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::perft::{perft, perft_with_rolls, RollError};
use super::playout::{random_game_looking, random_game_until};
use super::table::{Choice, Decision, TableMatch};
use super::{Engine, GameResult, Move, Undo};
use rulestone_ir::Program;

/// A game in progress, whatever its kind. `Send`, so that a search can play a copy of it
/// ([`Game::fork`]) on another thread.
pub trait Game: Send {
    /// One step of play.
    type Decision: Clone + std::fmt::Debug + PartialEq + Send;

    /// A player's name, `0` or `1`.
    fn player_name(&self, player: u8) -> String;

    /// The player whose turn it is.
    fn to_move(&self) -> u8;

    /// A copy of the game at this position, which plays on without touching this one: what a
    /// search on several threads gives each thread. `None` when the game cannot be copied
    /// (the default), and the search then runs on one thread.
    fn fork(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// The result once the game is over.
    fn outcome(&mut self) -> Option<GameResult>;

    /// Lists the open decisions into `out` and returns `true`; returns `false` (with `out`
    /// empty) when some open decision is continuous, as a table game's shot is: then
    /// [`Game::sample`] draws one and [`Game::decisions_text`] describes them.
    fn decisions(&mut self, out: &mut Vec<Self::Decision>) -> bool;

    /// Whether chance, not a player, takes the next decision (a roll).
    fn chance(&mut self) -> bool;

    /// The open decisions in notation, one per entry; a continuous one shows its ranges.
    fn decisions_text(&mut self) -> Vec<String>;

    /// A decision drawn at random among the open ones (uniformly among listed decisions; a
    /// continuous one with its parameters uniform in their ranges). `None` once the game is
    /// over or when no decision is open.
    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Option<Self::Decision>;

    /// Takes a decision.
    fn apply(&mut self, decision: &Self::Decision);

    /// Takes back the last decision applied; `false` when there is none.
    fn undo(&mut self) -> bool;

    /// A decision in notation.
    fn text(&mut self, decision: &Self::Decision) -> String;

    /// Reads a decision typed in notation (spaces normalized; letter case ignored when that
    /// leaves one candidate).
    ///
    /// # Errors
    /// A text that is no open decision, with the reason.
    fn parse(&mut self, text: &str) -> Result<Self::Decision, String>;

    /// A key of a decision, equal for equal decisions and most likely different for different
    /// ones: what a search uses to remember decisions that were good elsewhere (a history
    /// table). The default gives every decision the same key, which only loses that hint.
    fn decision_key(&self, _decision: &Self::Decision) -> u64 {
        0
    }

    /// Whether chance takes some decisions of this game, anywhere in play (a roll): then a
    /// position's value is an expectation, not a win, loss or draw.
    fn rolls_dice(&self) -> bool {
        false
    }

    /// How many units of [`Game::scores`] make one point: 1, or 100 for a decimal score (kept
    /// in hundredths).
    fn score_scale(&self) -> i64 {
        1
    }

    /// Whether some decisions of this game are continuous (a shot's angle and speed), so that
    /// they cannot always be listed.
    fn has_continuous_decisions(&self) -> bool {
        false
    }

    /// Whether some decision holds choices made by a player other than the one to move
    /// (`pick ... by p`); then [`Game::decision_parts`] says who makes each part. An exact
    /// search must let each player make their own choices.
    fn others_choose(&self) -> bool {
        false
    }

    /// A decision's notation in parts, each with the player who chooses it: the mover's first,
    /// then a part for each choice another player makes within the same decision. The default
    /// is one part, the mover's.
    fn decision_parts(&mut self, decision: &Self::Decision) -> Vec<(u8, String)> {
        vec![(self.to_move(), self.text(decision))]
    }

    /// A key of the position (board, counters, player to move, and the result once the game
    /// is over): equal positions have equal keys, so searches can share work between them and
    /// see repetitions. `None` when the game keeps no such key.
    fn position_key(&self) -> Option<u64> {
        None
    }

    /// Whether the rules read the game's history (`repetitions`): a position's decisions and
    /// results then depend on the line that reached it, which its key leaves out.
    fn reads_history(&self) -> bool {
        false
    }

    /// Why some decisions were left out of a list so far, if any were: a turn that outgrew a
    /// move's decisions, or a `while` that reached its round limit. Sticky, so a caller asks
    /// once after a whole run.
    fn dropped_moves(&self) -> Option<&'static str> {
        None
    }

    /// Whether listing this position's decisions ran out of generation steps (E1008): the
    /// position's lists are then empty, though the game is not over. Lists the decisions first
    /// if none were listed yet.
    fn out_of_steps(&mut self) -> bool {
        false
    }

    /// Each player's score once the game is over, for games that declare one.
    fn scores(&mut self) -> Option<[i32; 2]> {
        None
    }

    /// How promising the position looks for `player`, in `-1.0..=1.0` (0: even). What a search
    /// uses where it stops short of the end; the default knows nothing and says 0.
    fn evaluate(&mut self, _player: u8) -> f64 {
        0.0
    }

    /// How the game's decisions are generated and played, for reports: `compiled move
    /// generation`, `interpreter move generation`, `simulated table`.
    fn backend(&self) -> String {
        "interpreter".to_string()
    }

    /// The leaves of the tree of decisions `depth` deep from here (perft), taking `rolls` in
    /// order at every roll of a game with chance (uniform rolls without them). `None` when
    /// the decisions cannot all be listed (continuous ones), so there is no tree to count.
    fn perft(
        &mut self,
        _depth: u32,
        _rolls: Option<&[Vec<i32>]>,
    ) -> Option<Result<u64, RollError>> {
        None
    }

    /// Whether a new game's start depends on its deal (the seed given when it is set up:
    /// shuffled decks, who starts), so that statistics over many games deal each afresh
    /// instead of replaying one start.
    fn dealt(&self) -> bool {
        false
    }

    /// Whether the game cannot play itself: someone must report what happened in play (a
    /// referee typing each shot's result on a real table), so random games cannot be
    /// simulated.
    fn needs_reports(&self) -> bool {
        false
    }

    /// A decision drawn as a simple aiming player would choose it: like [`Game::sample`], but
    /// a continuous decision aims at one of the opponent's pieces. The default is
    /// [`Game::sample`], for games with nothing to aim.
    fn sample_aimed(&mut self, rng: &mut ChaCha8Rng) -> Option<Self::Decision> {
        self.sample(rng)
    }

    /// Whether a decision is a continuous one (a shot with its angle and speed): what
    /// statistics count as shots.
    fn is_continuous(&self, _decision: &Self::Decision) -> bool {
        false
    }

    /// How the game went so far beyond its result and scores, in figures a game may keep
    /// (captures, turns, the setups chosen): what statistics over many games read at each
    /// game's end. The default keeps none.
    fn end_figures(&self) -> EndFigures {
        EndFigures::default()
    }

    /// The clocks the game declares, as they run now (see [`Clocks`]). The default is none.
    fn clocks(&self) -> Clocks {
        Clocks::default()
    }

    /// The decision that ends play when `clock` runs out (a turn clock ends the turn, a match
    /// clock the regular match), in the game's own notation, when it can be taken now; `None`
    /// when the game has no such clock or its decision must wait (a shot still in motion).
    fn timeout(&mut self, _clock: Clock) -> Option<Self::Decision> {
        None
    }

    /// The number of the turn in progress, when a turn holds several decisions (so that a turn
    /// clock starts again with each turn, not each decision); `None` when every decision is a
    /// turn of its own.
    fn turn(&self) -> Option<u32> {
        None
    }

    /// Plays one random game from here for statistics, then returns to this position: as
    /// [`Game::rollout`], with `aim` choosing decisions by [`Game::sample_aimed`], counting
    /// the continuous decisions taken and reading [`Game::end_figures`] at the end.
    /// Implementations may play faster (without undo records, on compiled code).
    fn playout(&mut self, rng: &mut ChaCha8Rng, max_steps: u32, aim: bool) -> Played {
        self.playout_until(rng, max_steps, aim, &mut || false)
            .unwrap_or_default()
    }

    /// [`Game::playout`], given up when `stop` says so: it is asked before each decision, and
    /// `None` tells that the game was cut (the position is back where it started). What a
    /// command bounded by a time or a number of steps plays, so that one long game cannot
    /// outlast the bound.
    fn playout_until(
        &mut self,
        rng: &mut ChaCha8Rng,
        max_steps: u32,
        aim: bool,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Played> {
        let mut played = Played::default();
        while played.steps < max_steps && self.outcome().is_none() {
            if stop() {
                for _ in 0..played.steps {
                    self.undo();
                }
                return None;
            }
            let decision = if aim {
                self.sample_aimed(rng)
            } else {
                self.sample(rng)
            };
            let Some(d) = decision else {
                break;
            };
            played.continuous += u64::from(self.is_continuous(&d));
            self.apply(&d);
            played.steps += 1;
        }
        played.result = self.outcome();
        if played.result.is_some() {
            played.scores = self.scores();
        }
        played.end = self.end_figures();
        for _ in 0..played.steps {
            self.undo();
        }
        Some(played)
    }

    /// Plays random decisions from here until the game ends or `max_steps` were taken, then
    /// returns to this position: what a Monte Carlo search samples. Implementations may play
    /// faster than [`Game::sample`] and [`Game::apply`] would (without undo records, on
    /// compiled code).
    fn rollout(&mut self, rng: &mut ChaCha8Rng, max_steps: u32) -> Rollout {
        let (taken, result) = random_play(self, rng, max_steps as usize);
        let scores = if result.is_some() {
            self.scores()
        } else {
            None
        };
        let evaluation = if result.is_none() {
            self.evaluate(0)
        } else {
            0.0
        };
        for _ in &taken {
            self.undo();
        }
        Rollout {
            steps: u32::try_from(taken.len()).unwrap_or(u32::MAX),
            result,
            scores,
            evaluation,
        }
    }
}

/// The clocks a game declares ([`Game::clocks`]), in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clocks {
    /// The time each turn has.
    pub turn: Option<f64>,
    /// The time the whole game has; none once it no longer runs (sudden death).
    pub whole: Option<f64>,
}

/// One of a game's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The clock of each turn.
    Turn,
    /// The clock of the whole game.
    Whole,
}

/// How a random continuation ([`Game::rollout`]) ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rollout {
    pub steps: u32,
    /// `None` when the step limit stopped it first.
    pub result: Option<GameResult>,
    /// The scores at the end, for games that declare them.
    pub scores: Option<[i32; 2]>,
    /// When the step limit stopped it: [`Game::evaluate`] of the position it stopped at, for
    /// the first player (the second's is its negation); else 0.
    pub evaluation: f64,
}

/// How one game of statistics ([`Game::playout`]) went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Played {
    /// Decisions taken.
    pub steps: u32,
    /// `None` when the step limit stopped it first.
    pub result: Option<GameResult>,
    /// The scores at the end, for games that declare them.
    pub scores: Option<[i32; 2]>,
    /// Continuous decisions taken (shots).
    pub continuous: u64,
    /// The game's own figures at the end.
    pub end: EndFigures,
}

/// What a game can tell about how one game went beyond its result and scores
/// ([`Game::end_figures`]), for statistics over many games. Each figure is there only for
/// games that keep it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndFigures {
    /// The named setup each player played with, first then second, when players choose one
    /// before play (an army).
    pub setups: Option<[String; 2]>,
    /// The pieces each player captured, when the game counts captures as it goes.
    pub captures: Option<[u32; 2]>,
    /// Turns played, when a turn holds several decisions (so that the decisions taken do not
    /// tell them).
    pub turns: Option<u32>,
    /// Whether play went on past the regular end to break a tie (sudden death), for games
    /// that can.
    pub sudden_death: Option<bool>,
}

/// Plays seeded random decisions until the game ends or `max_steps` were taken; returns the
/// decisions taken and the result. The game is left at the end position (undo them to return).
pub fn random_play<G: Game + ?Sized>(
    game: &mut G,
    rng: &mut ChaCha8Rng,
    max_steps: usize,
) -> (Vec<G::Decision>, Option<GameResult>) {
    let mut taken = Vec::new();
    while taken.len() < max_steps && game.outcome().is_none() {
        let Some(d) = game.sample(rng) else {
            break;
        };
        game.apply(&d);
        taken.push(d);
    }
    (taken, game.outcome())
}

/// A board game behind [`Game`]: the engine and the undo records of the decisions applied.
#[derive(Clone)]
pub struct BoardGame<'p> {
    pub engine: Engine<'p>,
    undos: Vec<Undo>,
    /// Reused for listing moves.
    buffer: Vec<Move>,
}

impl<'p> BoardGame<'p> {
    /// A copy that borrows `program` for its own lifetime ([`Engine::for_program`]); `None`
    /// unless it is this game's program.
    #[must_use]
    pub fn for_program<'q>(&self, program: &'q Program) -> Option<BoardGame<'q>> {
        Some(BoardGame {
            engine: self.engine.for_program(program)?,
            undos: self.undos.clone(),
            buffer: Vec::new(),
        })
    }

    #[must_use]
    pub fn new(engine: Engine<'p>) -> BoardGame<'p> {
        BoardGame {
            engine,
            undos: Vec::new(),
            buffer: Vec::new(),
        }
    }

    /// The legal moves with their notation.
    fn listed(&mut self) -> Vec<(Move, String)> {
        let mut moves = std::mem::take(&mut self.buffer);
        self.engine.legal_moves(&mut moves);
        let listed = moves
            .iter()
            .map(|m| (*m, normalize(&self.engine.move_text(m))))
            .collect();
        self.buffer = moves;
        listed
    }
}

/// A hash of `value`, the same in every run.
fn key_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default().hash_one(value)
}

/// Runs of whitespace as one space, trimmed: how notation is compared.
fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The one entry of `listed` whose text is `typed` exactly, or else ignoring letter case.
fn find_typed<D: Clone>(listed: &[(D, String)], typed: &str) -> Result<D, String> {
    let typed = normalize(typed);
    if let Some((d, _)) = listed.iter().find(|(_, t)| *t == typed) {
        return Ok(d.clone());
    }
    let folded: Vec<&(D, String)> = listed
        .iter()
        .filter(|(_, t)| t.eq_ignore_ascii_case(&typed))
        .collect();
    match folded.as_slice() {
        [(d, _)] => Ok(d.clone()),
        [] => Err(format!("`{typed}` is not a legal move here")),
        _ => Err(format!(
            "`{typed}` matches several moves; mind the letter case"
        )),
    }
}

impl<'p> Game for BoardGame<'p> {
    type Decision = Move;

    fn player_name(&self, player: u8) -> String {
        self.engine
            .program()
            .players
            .get(usize::from(player))
            .cloned()
            .unwrap_or_else(|| format!("player {}", u32::from(player) + 1))
    }

    fn to_move(&self) -> u8 {
        self.engine.state.mover
    }

    /// A clone: the engine (sharing its alarm, so an exhausted copy stops the others) and
    /// the undo records.
    fn fork(&self) -> Option<BoardGame<'p>> {
        Some(self.clone())
    }

    fn outcome(&mut self) -> Option<GameResult> {
        if let Some(r) = self.engine.state.result {
            return Some(r);
        }
        let mut moves = std::mem::take(&mut self.buffer);
        self.engine.legal_moves(&mut moves);
        let stuck = moves.is_empty();
        self.buffer = moves;
        stuck.then(|| self.engine.stuck_result())
    }

    fn decisions(&mut self, out: &mut Vec<Move>) -> bool {
        self.engine.legal_moves(out);
        true
    }

    fn chance(&mut self) -> bool {
        let mut moves = std::mem::take(&mut self.buffer);
        self.engine.legal_moves(&mut moves);
        self.buffer = moves;
        self.engine.chance()
    }

    fn decisions_text(&mut self) -> Vec<String> {
        self.listed().into_iter().map(|(_, t)| t).collect()
    }

    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Option<Move> {
        let mut moves = std::mem::take(&mut self.buffer);
        self.engine.legal_moves(&mut moves);
        let picked = moves.choose(rng).copied();
        self.buffer = moves;
        picked
    }

    fn apply(&mut self, decision: &Move) {
        let undo = self.engine.apply(decision);
        self.undos.push(undo);
    }

    fn undo(&mut self) -> bool {
        match self.undos.pop() {
            Some(u) => {
                self.engine.undo(u);
                true
            }
            None => false,
        }
    }

    fn text(&mut self, decision: &Move) -> String {
        normalize(&self.engine.move_text(decision))
    }

    fn parse(&mut self, text: &str) -> Result<Move, String> {
        find_typed(&self.listed(), text)
    }

    fn decision_key(&self, decision: &Move) -> u64 {
        key_of(decision)
    }

    fn rolls_dice(&self) -> bool {
        self.engine.program().has_chance()
    }

    fn others_choose(&self) -> bool {
        self.engine
            .program()
            .turn
            .ops
            .iter()
            .any(|op| matches!(op, rulestone_ir::Op::Chooser(_)))
    }

    fn decision_parts(&mut self, decision: &Move) -> Vec<(u8, String)> {
        self.engine
            .move_parts(decision)
            .into_iter()
            .map(|(who, text)| (who, normalize(&text)))
            .collect()
    }

    fn reads_history(&self) -> bool {
        self.engine.program().uses_history()
    }

    fn dropped_moves(&self) -> Option<&'static str> {
        dropped_moves(&self.engine)
    }

    fn out_of_steps(&mut self) -> bool {
        let mut moves = Vec::new();
        self.engine.legal_moves(&mut moves);
        self.engine.exhausted
    }

    fn position_key(&self) -> Option<u64> {
        // The engine's hash leaves out the result: a game just won and the same pieces with
        // the game going on are different positions.
        let ended = match self.engine.state.result {
            None => 0,
            Some(GameResult::Win(0)) => 0x6A09_E667_F3BC_C909,
            Some(GameResult::Win(_)) => 0xBB67_AE85_84CA_A73B,
            Some(GameResult::Draw) => 0x3C6E_F372_FE94_F82B,
        };
        Some(self.engine.state.hash ^ ended)
    }

    fn scores(&mut self) -> Option<[i32; 2]> {
        self.engine.scores()
    }

    fn score_scale(&self) -> i64 {
        self.engine.program().score_scale()
    }

    /// The game's `heuristic` when it declares one (the lead `h[player] - h[opponent]`,
    /// squashed by `squash_lead`), else the default `material`.
    fn evaluate(&mut self, player: u8) -> f64 {
        if self.engine.program().heuristic.is_some() {
            return evaluate_board(&self.engine, player);
        }
        let mut moves = std::mem::take(&mut self.buffer);
        let value = probe_board(&mut self.engine, player, &mut moves);
        self.buffer = moves;
        value
    }

    fn backend(&self) -> String {
        format!("{} move generation", self.engine.backend())
    }

    /// The engine's own perft, on compiled code when there is some.
    fn perft(&mut self, depth: u32, rolls: Option<&[Vec<i32>]>) -> Option<Result<u64, RollError>> {
        Some(match rolls {
            Some(r) => perft_with_rolls(&mut self.engine, depth, r),
            None => Ok(perft(&mut self.engine, depth)),
        })
    }

    /// The engine's own random games ([`random_game_until`]): on compiled code when there is some,
    /// restoring the start in one copy. A board game has nothing to aim and keeps no end
    /// figures beyond its scores.
    fn playout_until(
        &mut self,
        rng: &mut ChaCha8Rng,
        max_steps: u32,
        _aim: bool,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<Played> {
        let mut moves = std::mem::take(&mut self.buffer);
        let p = random_game_until(&mut self.engine, rng, max_steps, &mut moves, stop);
        self.buffer = moves;
        p.map(|p| Played {
            steps: p.plies,
            result: p.result,
            scores: p.scores,
            ..Played::default()
        })
    }

    fn rollout(&mut self, rng: &mut ChaCha8Rng, max_steps: u32) -> Rollout {
        let mut moves = std::mem::take(&mut self.buffer);
        let mut evaluation = 0.0;
        let p = random_game_looking(&mut self.engine, rng, max_steps, &mut moves, &mut |end| {
            evaluation = evaluate_board(end, 0);
        });
        self.buffer = moves;
        Rollout {
            steps: p.plies,
            result: p.result,
            scores: p.scores,
            evaluation,
        }
    }
}

/// How promising a board game's position looks for `player` without looking ahead: the game's
/// `heuristic` when it declares one, else the default [`material`] count. What a rollout cut
/// short is worth.
fn evaluate_board(engine: &Engine<'_>, player: u8) -> f64 {
    match engine.heuristic() {
        Some(values) => {
            let me = usize::from(player & 1);
            squash_lead(f64::from(values[me]) - f64::from(values[1 - me]))
        }
        None => material(engine, player),
    }
}

/// Random continuations the default evaluation plays from a position.
const PROBES: u32 = 6;
/// The longest of them, in moves.
const PROBE_STEPS: u32 = 64;

/// The default evaluation of a position for a search ([`Game::evaluate`] of a game without a
/// `heuristic`): half [`material`], half the mean result of a few random continuations from it
/// (each cut one worth its material). Random play knows every rule of the game, so it sees
/// what material cannot: pieces about to change hands, lines about to be completed.
/// The continuations are seeded by the position's hash, so a position always gets the same
/// value.
fn probe_board(engine: &mut Engine<'_>, player: u8, moves: &mut Vec<Move>) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(engine.state.hash);
    let mut total = 0.0;
    for _ in 0..PROBES {
        let mut cut = 0.0;
        let p = random_game_looking(engine, &mut rng, PROBE_STEPS, moves, &mut |end| {
            cut = material(end, player);
        });
        total += match p.result {
            Some(GameResult::Win(w)) if w == player => 1.0,
            Some(GameResult::Win(_)) => -1.0,
            Some(GameResult::Draw) => 0.0,
            None => cut,
        };
    }
    0.5 * material(engine, player) + 0.5 * total / f64::from(PROBES)
}

/// The default evaluation of a board game, from what every program has: each player's pieces
/// on the board plus their per-player counters (pieces in hand, captures, points), as the
/// share of the two players' total, mapped to `-1.0..=1.0` for `player`.
fn material(engine: &Engine<'_>, player: u8) -> f64 {
    let state = &engine.state;
    let mut own = [0.0f64; 2];
    for (p, cells) in state.by_player.iter().enumerate() {
        own[p] = cells.len() as f64;
    }
    for (slot, counter) in engine.program().counters.iter().enumerate() {
        if let (Some(p), Some(v)) = (counter.player, state.counters.get(slot)) {
            own[usize::from(p & 1)] += f64::from((*v).max(0));
        }
    }
    let total = own[0] + own[1];
    if total <= 0.0 {
        return 0.0;
    }
    let me = usize::from(player & 1);
    (own[me] - own[1 - me]) / total
}

/// A heuristic lead of this size evaluates to 0.5, halfway to a certain win.
const HALF_LEAD: f64 = 10.0;

/// A heuristic's lead `d` (the player's value less the opponent's) in `-1.0..=1.0`:
/// `d / (|d| + 10)`. It keeps the order of leads and their sign, gives 0 for an even
/// position, 0.5 for a lead of 10, 0.75 for 30 and 0.9 for 90, and never reaches ±1, so no
/// lead looks like a won game.
fn squash_lead(lead: f64) -> f64 {
    lead / (lead.abs() + HALF_LEAD)
}

impl<'p> Game for TableMatch<'p> {
    type Decision = Decision;

    fn player_name(&self, player: u8) -> String {
        self.player(player).to_string()
    }

    fn to_move(&self) -> u8 {
        self.position.mover
    }

    fn fork(&self) -> Option<TableMatch<'p>> {
        Some(self.clone())
    }

    fn outcome(&mut self) -> Option<GameResult> {
        TableMatch::outcome(self)
    }

    fn decisions(&mut self, out: &mut Vec<Decision>) -> bool {
        out.clear();
        for c in self.choices() {
            let d = match c {
                Choice::Skip { card } => Decision::Skip { card },
                Choice::Army(i) => Decision::Army(i),
                Choice::Shot { card, stone, .. } if self.program.referee => {
                    Decision::Declare { card, stone }
                }
                Choice::Shot { .. } | Choice::Result => {
                    out.clear();
                    return false;
                }
            };
            out.push(d);
        }
        true
    }

    fn decision_key(&self, decision: &Decision) -> u64 {
        // Shots differ by their parameters' exact bits.
        key_of(&format!("{decision:?}"))
    }

    fn has_continuous_decisions(&self) -> bool {
        true
    }

    fn chance(&mut self) -> bool {
        false
    }

    fn decisions_text(&mut self) -> Vec<String> {
        self.choices().iter().map(|c| self.choice_text(c)).collect()
    }

    fn sample(&mut self, rng: &mut ChaCha8Rng) -> Option<Decision> {
        if self.outcome().is_some() {
            return None;
        }
        self.random_decision(rng)
    }

    fn apply(&mut self, decision: &Decision) {
        // Decisions come from `decisions`, `sample` or `parse` of this position, which
        // `TableMatch::apply` accepts; a refused one leaves the match unchanged.
        let applied = TableMatch::apply(self, decision);
        debug_assert!(
            applied.is_ok(),
            "a decision of another position: {applied:?}"
        );
    }

    fn undo(&mut self) -> bool {
        TableMatch::undo(self)
    }

    fn text(&mut self, decision: &Decision) -> String {
        self.decision_text(decision)
    }

    fn parse(&mut self, text: &str) -> Result<Decision, String> {
        TableMatch::parse(self, &normalize(text)).map_err(|e| e.0)
    }

    fn backend(&self) -> String {
        "simulated table".to_string()
    }

    /// Each match shuffles the decks and draws who starts from its deal.
    fn dealt(&self) -> bool {
        true
    }

    fn needs_reports(&self) -> bool {
        self.program.referee
    }

    fn sample_aimed(&mut self, rng: &mut ChaCha8Rng) -> Option<Decision> {
        if self.outcome().is_some() {
            return None;
        }
        self.aimed_decision(rng)
    }

    fn is_continuous(&self, decision: &Decision) -> bool {
        matches!(decision, Decision::Shot { .. })
    }

    fn clocks(&self) -> Clocks {
        Clocks {
            turn: self.program.turn_clock,
            whole: self
                .program
                .match_clock
                .filter(|_| !self.position.sudden_death),
        }
    }

    fn timeout(&mut self, clock: Clock) -> Option<Decision> {
        // A shot in motion finishes first: its result is still to come.
        if self.position.result.is_some() || self.position.awaiting.is_some() {
            return None;
        }
        let d = match clock {
            Clock::Turn => Decision::Time,
            Clock::Whole => Decision::MatchTime,
        };
        self.check(&d).ok()?;
        Some(d)
    }

    fn turn(&self) -> Option<u32> {
        Some(self.position.turns)
    }

    fn end_figures(&self) -> EndFigures {
        let side = |p: usize| self.position.sides.get(p);
        let army = |p: usize| side(p).map(|s| s.army.name.clone()).unwrap_or_default();
        let captures = |p: usize| side(p).map_or(0, |s| s.captures);
        EndFigures {
            setups: Some([army(0), army(1)]),
            captures: Some([captures(0), captures(1)]),
            turns: Some(self.turns_played()),
            sudden_death: Some(self.position.sudden_death),
        }
    }
}

/// Why the engine left moves out of a list so far, if it did (see [`Game::dropped_moves`]).
#[must_use]
pub fn dropped_moves(engine: &Engine<'_>) -> Option<&'static str> {
    if engine.overflowed {
        Some("a move needed more than 23 decisions (a `while` whose body chooses ran long)")
    } else if engine.runaway {
        Some("a `while` reached its limit of 255 rounds")
    } else {
        None
    }
}

/// Generating one position's moves took more steps than an engine allows: a turn program that
/// explores too many paths (many rounds, each choosing among many cells). The engine stopped
/// and listed nothing from then on; the command ends with this error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error(
    "generating the moves of one position took more than {limit} steps, or more than {rounds} \
     loop rounds on one path"
)]
#[diagnostic(
    code(E1008),
    help(
        "each choice the turn tries and each round of a loop is a step; a `while` or `repeat` \
         whose every round chooses among many cells tries every combination of them, and loops \
         nested in loops multiply their rounds; choose less per round, allow fewer rounds, or \
         stop the loop on a condition the choices reach sooner"
    )
)]
pub struct StepLimit {
    pub limit: u64,
    /// The most loop rounds one path may run ([`rulestone_ir::MAX_PATH_ROUNDS`]).
    pub rounds: u32,
}

/// The E1008 error if `engine` ran out of generation steps.
#[must_use]
pub fn steps_exceeded(engine: &Engine<'_>) -> Option<StepLimit> {
    engine.exhausted.then(|| StepLimit {
        limit: engine.step_limit(),
        rounds: rulestone_ir::MAX_PATH_ROUNDS,
    })
}
