//! What a program calls its players and pieces: the one place the front ends (the text board,
//! pictures, notation, the protocol) read names and symbols from.

use crate::Program;

/// The kind (an index of [`Program::pieces`]) and the owner of a piece code: codes are
/// `1 + 2 * kind + player`, and 0 is an empty cell.
#[must_use]
pub fn piece_kind_and_owner(code: u8) -> (usize, u8) {
    let index = code.saturating_sub(1);
    (usize::from(index / 2), index % 2)
}

impl Program {
    /// A player's name, or `player N` for a player the program has no name for.
    #[must_use]
    pub fn player_name(&self, player: u8) -> String {
        self.players
            .get(usize::from(player))
            .cloned()
            .unwrap_or_else(|| format!("player {}", u32::from(player) + 1))
    }

    /// The symbol a piece code is shown with (its kind's symbol for its owner), or `?` for a
    /// code of no declared kind.
    #[must_use]
    pub fn piece_symbol(&self, code: u8) -> String {
        let (kind, owner) = piece_kind_and_owner(code);
        self.pieces
            .get(kind)
            .and_then(|p| p.symbols.get(usize::from(owner)))
            .cloned()
            .unwrap_or_else(|| "?".to_string())
    }
}
