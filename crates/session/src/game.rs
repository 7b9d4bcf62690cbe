//! A board game loaded from its text and option values, and a position of it in play with
//! the moves that led there.

use std::path::Path;

use rulestone_diag::{self as diag, Diag};
use rulestone_ir::Program;
use rulestone_runtime::{BoardGame, Compiled, Engine, Game as _, GameResult, Move};

use crate::actions::{ActionError, ActionSpace, ActionSpaceError};
use crate::notation::{self, BadMove};
use crate::record::Record;

/// A board game's program, lowered for one set of option values.
#[derive(Debug)]
pub struct Game {
    /// The name the game's text is known by in messages (its file's path).
    pub name: String,
    /// The game's text.
    pub source: String,
    pub program: Program,
    backend: rulestone_runtime::Backend,
    actions: Result<ActionSpace, ActionSpaceError>,
}

/// Why a game did not load: its diagnostics, rendered without colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub message: String,
    /// The first error's code (`E0303`), when it has one.
    pub code: Option<String>,
    /// An option value was refused (rather than the game's text).
    pub bad_options: bool,
}

impl Game {
    /// Runs the one pipeline (`rulestone-lower`) on `source` for the option values `sets`; the
    /// program runs on the backend `compiled` offers for it.
    ///
    /// # Errors
    /// Every problem of the text or the options, or that it is a table game (whose shots are
    /// continuous, so it has no moves to list).
    pub fn load(
        name: &str,
        source: String,
        sets: &[(String, String)],
        compiled: Compiled,
    ) -> Result<Game, LoadError> {
        let fail = |diags: Vec<Diag>, bad_options: bool| failure(diags, &source, name, bad_options);
        if let Some(d) = rulestone_lower::not_a_game_file(name, &source) {
            return Err(fail(vec![d], false));
        }
        let file = rulestone_syntax::parse(&source).map_err(|e| fail(diag::boxed(e), false))?;
        let program = match rulestone_lower::build_parsed(&file, sets) {
            Ok(rulestone_lower::Built::Board(program)) => program,
            Ok(rulestone_lower::Built::Table(..)) => {
                return Err(LoadError {
                    message: format!(
                        "`{name}` is a table game: its shots are continuous, so it has no list \
                         of moves to drive"
                    ),
                    code: None,
                    bad_options: false,
                })
            }
            Err(e) => return Err(fail(e.diags, e.bad_options)),
        };
        let backend = compiled.backend_for(&program);
        Ok(Game::new(name, source, program, backend))
    }

    /// A game of a program already lowered from `source`, run on `backend`.
    #[must_use]
    pub fn new(
        name: &str,
        source: String,
        program: Program,
        backend: rulestone_runtime::Backend,
    ) -> Game {
        Game {
            name: name.to_string(),
            actions: ActionSpace::of(&program),
            backend,
            program,
            source,
        }
    }

    /// Whether the program runs on compiled move generation rather than the interpreter.
    #[must_use]
    pub fn is_compiled(&self) -> bool {
        matches!(self.backend, rulestone_runtime::Backend::Compiled(_))
    }

    /// A new engine at the start position.
    #[must_use]
    pub fn engine(&self) -> Engine<'_> {
        Engine::with_backend(&self.program, self.backend)
    }

    /// The game's action space, or why it has none.
    ///
    /// # Errors
    /// The space would pass [`crate::actions::MAX_ACTIONS`].
    pub fn actions(&self) -> Result<ActionSpace, ActionSpaceError> {
        self.actions
    }

    /// The game's action space where ids travel as JSON numbers, or why it has none there.
    ///
    /// # Errors
    /// The space has no ids, or passes [`crate::actions::MAX_JSON_ACTIONS`].
    pub fn json_actions(&self) -> Result<ActionSpace, ActionSpaceError> {
        self.actions.and_then(ActionSpace::for_json)
    }
}

/// The errors among `diags`, rendered.
fn failure(diags: Vec<Diag>, source: &str, name: &str, bad_options: bool) -> LoadError {
    let errors: Vec<Diag> = diags
        .into_iter()
        .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
        .collect();
    LoadError {
        message: diag::render(&errors, source, name, false),
        code: errors.iter().find_map(|d| diag::code_of(d.as_ref())),
        bad_options,
    }
}

/// A legal move of a position, in every form a front end names it by.
#[derive(Clone, Debug, PartialEq)]
pub struct LegalMove {
    pub decisions: Move,
    /// The notation, whitespace normalized.
    pub text: String,
    /// Its action id, when the game has an action space.
    pub action: Option<u64>,
    /// The notation in parts, each with the player whose choices it spells.
    pub parts: Vec<(u8, String)>,
}

/// Why a move given by id could not be played.
#[derive(Clone, Debug, PartialEq)]
pub enum BadAction {
    /// The game has no action ids.
    NoSpace(ActionSpaceError),
    /// The id names no move of this game.
    Invalid(ActionError),
    /// The game is over (its result).
    GameOver(String),
    /// A move of this game, but not legal here.
    Illegal(u64),
}

impl std::fmt::Display for BadAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadAction::NoSpace(e) => write!(f, "{e}"),
            BadAction::Invalid(e) => write!(f, "{e}"),
            BadAction::GameOver(r) => write!(f, "the game is over: {r}"),
            BadAction::Illegal(id) => write!(f, "action {id} is not a legal move here"),
        }
    }
}

/// A position in play: the engine and the moves that led to it from the start, each with the
/// notation it had when played. Moves are taken back one at a time, to the start.
///
/// A move's notation is written when it is played ([`Position::play`]) or, for a caller that
/// plays many moves and reads few texts ([`Position::play_unwritten`]: a Python loop, a copy
/// replayed from the start), only when [`Position::texts`] asks: then the moves not yet
/// written are taken back and played again, each written in the position it was played in.
pub struct Position<'g> {
    game: &'g Game,
    board: BoardGame<'g>,
    moves: Vec<Move>,
    /// The notation of `moves[..texts.len()]`; the moves after them are not written yet.
    texts: Vec<String>,
}

impl<'g> Position<'g> {
    /// The start position of `game`.
    #[must_use]
    pub fn new(game: &'g Game) -> Position<'g> {
        Position {
            game,
            board: BoardGame::new(game.engine()),
            moves: Vec::new(),
            texts: Vec::new(),
        }
    }

    /// A copy of this position that borrows `game` for its own lifetime, made without
    /// replaying the moves; `None` unless `game` is this position's game.
    #[must_use]
    pub fn copy_for<'h>(&self, game: &'h Game) -> Option<Position<'h>> {
        if !std::ptr::eq(self.game, game) {
            return None;
        }
        Some(Position {
            game,
            board: self.board.for_program(&game.program)?,
            moves: self.moves.clone(),
            texts: self.texts.clone(),
        })
    }

    /// The game this is a position of.
    #[must_use]
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The engine at this position.
    pub fn engine(&mut self) -> &mut Engine<'g> {
        &mut self.board.engine
    }

    /// The position as a [`rulestone_runtime::Game`], for agents.
    pub fn as_game(&mut self) -> &mut BoardGame<'g> {
        &mut self.board
    }

    /// The moves played so far, from the start.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The notation of the moves played so far, each as written in the position it was played
    /// in (the moves [`Position::play_unwritten`] played are written now).
    pub fn texts(&mut self) -> &[String] {
        let written = self.texts.len();
        if written < self.moves.len() {
            for _ in written..self.moves.len() {
                self.board.undo();
            }
            for &m in &self.moves[written..] {
                self.texts
                    .push(notation::normalize(&self.board.engine.move_text(&m)));
                self.board.apply(&m);
            }
        }
        &self.texts
    }

    /// The player to move (the one who moved last, once the game is over).
    #[must_use]
    pub fn to_move(&self) -> u8 {
        self.board.engine.state.mover
    }

    /// The result, once the game is over.
    pub fn outcome(&mut self) -> Option<GameResult> {
        self.board.engine.outcome()
    }

    /// `White wins`, `draw`; `None` while the game goes on.
    pub fn result_text(&mut self) -> Option<String> {
        let program = &self.game.program;
        self.outcome().map(|r| notation::result_text(program, r))
    }

    /// The legal moves, in generation order (none once the game is over).
    pub fn legal(&mut self) -> Vec<LegalMove> {
        if self.board.engine.state.result.is_some() {
            return Vec::new();
        }
        let space = self.game.actions.ok();
        notation::legal_with_text(&mut self.board.engine)
            .into_iter()
            .map(|(m, text)| LegalMove {
                action: space.and_then(|s| s.id(&m).ok()),
                parts: self.board.decision_parts(&m),
                decisions: m,
                text,
            })
            .collect()
    }

    /// Whether the legal moves are chance moves (outcomes of a roll, not a player's choice).
    pub fn chance(&mut self) -> bool {
        self.board.chance()
    }

    /// Plays the legal move written `text` (the rules of [`notation::find_move`]); its
    /// notation.
    ///
    /// # Errors
    /// The game is over, or no legal move is written so (with notes saying why).
    pub fn apply_text(&mut self, text: &str) -> Result<String, BadMove> {
        let m = notation::find_move(&mut self.board.engine, text)?;
        Ok(self.play(m))
    }

    /// Plays the legal move whose action id is `id`; its notation.
    ///
    /// # Errors
    /// The game has no action ids, the id is out of range, the game is over, or the move is
    /// not legal here.
    pub fn apply_action(&mut self, id: u64) -> Result<String, BadAction> {
        let space = self.game.actions.map_err(BadAction::NoSpace)?;
        let m = space.decisions(id).map_err(BadAction::Invalid)?;
        if let Some(result) = self.result_text() {
            return Err(BadAction::GameOver(result));
        }
        let mut legal = Vec::new();
        self.board.engine.legal_moves(&mut legal);
        if !legal.contains(&m) {
            return Err(BadAction::Illegal(id));
        }
        Ok(self.play(m))
    }

    /// Plays `m`, a legal move of this position (from [`Position::legal`] or an agent); its
    /// notation.
    pub fn play(&mut self, m: Move) -> String {
        let text = notation::normalize(&self.board.engine.move_text(&m));
        if self.texts.len() == self.moves.len() {
            self.texts.push(text.clone());
        }
        self.play_unwritten(m);
        text
    }

    /// Plays `m`, a legal move of this position, leaving its notation to be written when
    /// [`Position::texts`] asks for it.
    pub fn play_unwritten(&mut self, m: Move) {
        self.board.apply(&m);
        self.moves.push(m);
    }

    /// Plays moves written as text, in order.
    ///
    /// # Errors
    /// The first that cannot be played, with its index; the moves before it stay played.
    pub fn play_texts(&mut self, texts: &[String]) -> Result<(), (usize, BadMove)> {
        for (i, text) in texts.iter().enumerate() {
            self.apply_text(text).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// Takes back the last move; its notation, `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        let m = self.moves.pop()?;
        self.board.undo();
        if self.texts.len() > self.moves.len() {
            self.texts.pop()
        } else {
            Some(notation::normalize(&self.board.engine.move_text(&m)))
        }
    }

    /// The record of the game so far, naming the game file `path`.
    pub fn record(&mut self, path: &Path) -> Record {
        Record {
            game: path.to_path_buf(),
            game_name: Some(self.game.program.name.clone()),
            game_hash: Some(crate::record::file_hash(self.game.source.as_bytes())),
            options: self.game.program.options.clone(),
            deal: None,
            armies: Vec::new(),
            moves: self.texts().iter().map(|t| (0, t.clone())).collect(),
            result: self.result_text().map(|r| (0, r)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "game \"Line\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..4\n    name \"{letter(x)}\"\n}\npiece stone \"A\" \"B\"\nturn {\n    pick v in empty\n    put stone at v\n    write \"{v}\"\n}\non no moves {\n    draw\n}\n";

    fn first_legal(p: &mut Position<'_>) -> Move {
        p.legal()[0].decisions
    }

    /// Moves played unwritten are written as they would have been when played, whether the
    /// texts are asked for after them, between them, or they are taken back first.
    #[test]
    fn unwritten_moves_are_written_in_their_own_positions() {
        let game = Game::load("line.game", GAME.to_string(), &[], Compiled::NONE)
            .unwrap_or_else(|e| panic!("{}", e.message));
        let mut written = Position::new(&game);
        let mut lazy = Position::new(&game);
        for i in 0..4 {
            let m = first_legal(&mut written);
            written.play(m);
            if i == 1 {
                lazy.play(m);
            } else {
                lazy.play_unwritten(m);
            }
        }
        assert_eq!(lazy.moves(), written.moves());
        assert_eq!(lazy.texts(), ["a", "b", "c", "d"]);
        assert_eq!(lazy.texts(), written.texts());
        lazy.play_unwritten(first_legal(&mut written));
        assert_eq!(lazy.undo().as_deref(), Some("e"));
        assert_eq!(lazy.undo().as_deref(), Some("d"));
        assert_eq!(lazy.texts(), ["a", "b", "c"]);
    }
}
