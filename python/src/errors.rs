//! The module's exception, `rulestone.GameError`, and the conversions of the session's errors.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use rulestone_session::{BadAction, BadMove, LoadError};

create_exception!(
    rulestone,
    GameError,
    PyException,
    "A game that does not load, a bad option value, or a move, action id or request the game \
     refuses. `str(e)` is the message (for a game that does not load, the rendered diagnostics \
     with codes, source excerpts and help); `e.code` is the first diagnostic's code (`E0303`) or \
     a short word for the kind of refusal (`bad-option`, `illegal`, `game-over`, ...)."
);

/// A `GameError` with `message` and its `code` attribute.
pub fn game_error(message: &str, code: Option<&str>) -> PyErr {
    let err = GameError::new_err(message.to_string());
    Python::attach(|py| {
        // Setting an attribute on a fresh exception object cannot fail in practice; if it did,
        // the error would still carry its message.
        let _ = err.value(py).setattr("code", code);
    });
    err
}

/// A game that did not load.
pub fn load_error(e: &LoadError) -> PyErr {
    let code = e
        .code
        .clone()
        .or_else(|| e.bad_options.then(|| "bad-option".to_string()));
    game_error(e.message.trim_end(), code.as_deref())
}

/// A move given by id that could not be played.
pub fn bad_action(e: &BadAction) -> PyErr {
    let code = match e {
        BadAction::NoSpace(_) => "no-action-ids",
        BadAction::Invalid(_) => "bad-action",
        BadAction::GameOver(_) => "game-over",
        BadAction::Illegal(_) => "illegal",
    };
    game_error(&e.to_string(), Some(code))
}

/// A move given as text that could not be played, with the reasons.
pub fn bad_move(text: &str, e: &BadMove) -> PyErr {
    match e {
        BadMove::GameOver(result) => game_error(
            &format!("`{text}`: the game is over: {result}"),
            Some("game-over"),
        ),
        BadMove::Illegal { notes } => {
            let mut message = format!("`{text}` is not a legal move here");
            for note in notes {
                message.push_str("\n  note: ");
                message.push_str(note);
            }
            game_error(&message, Some("illegal"))
        }
        BadMove::Ambiguous(same) => game_error(
            &format!("{}\n  note: {}", same.message(), same.note()),
            Some("same-notation"),
        ),
    }
}
