//! Game records: the text files `save` writes and `load` and `replay` read.
//!
//! ```text
//! rulestone-record 1
//! # comments and blank lines are ignored
//! game ../games/example.game
//! game-name Example
//! game-hash fnv1a64:5f0c6ae3d1b2a907
//! option variant=standard
//! option size=5
//! option variant=short
//! deal 3
//! army West games/example.game:Red
//! move a1
//! move b2
//! move a1-c3 xb2
//! result White wins
//! ```
//!
//! The first line names the format and its version. `game` (exactly once) is the game file:
//! written relative to the record's directory, so that a record and its game can move together
//! and be replayed from anywhere; read relative to the record's directory first, then to the
//! current directory (as older records were written). `game-name` and `game-hash` (optional)
//! are the game's name and a hash of the game file's bytes when the record was written: a game
//! file that changed since is pointed out before its moves are replayed. `option` lines give
//! option values (options left out take their defaults). `deal` (optional) is the seed of a
//! game's own chance (a table game's shuffles and who starts); `army` lines (optional) give a
//! player and one army they could choose, `FILE:NAME`. `move` lines hold one whole move each,
//! in the game's notation, in the order played. `result` (optional, written when the game is
//! over) must agree with the result the moves reach.
//!
//! Records of table games once had a format of their own, `rulestone-table-record 1`, with a
//! subset of these lines: it is read as this one.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::notation::{normalize, shown};

/// The first line of every record.
pub const HEADER: &str = "rulestone-record 1";

/// The first line of the table games' records of old, read as [`HEADER`].
const OLD_TABLE_HEADER: &str = "rulestone-table-record 1";

/// A parsed record; moves are still text, checked only when played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub game: PathBuf,
    /// The game's name, when the record was written.
    pub game_name: Option<String>,
    /// [`file_hash`] of the game file, when the record was written.
    pub game_hash: Option<String>,
    pub options: Vec<(String, String)>,
    /// The seed of the game's own chance, for a game dealt from one.
    pub deal: Option<u64>,
    /// Each player's name and one army they could choose (`FILE:NAME`).
    pub armies: Vec<(String, String)>,
    /// Each move with its line number in the record.
    pub moves: Vec<(usize, String)>,
    pub result: Option<(usize, String)>,
}

impl Record {
    /// The record as text.
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER}\ngame {}\n", shown(&self.game));
        if let Some(name) = &self.game_name {
            let _ = writeln!(out, "game-name {name}");
        }
        if let Some(hash) = &self.game_hash {
            let _ = writeln!(out, "game-hash {hash}");
        }
        for (name, value) in &self.options {
            let _ = writeln!(out, "option {name}={value}");
        }
        if let Some(deal) = self.deal {
            let _ = writeln!(out, "deal {deal}");
        }
        for (player, army) in &self.armies {
            let _ = writeln!(out, "army {player} {army}");
        }
        for (_, m) in &self.moves {
            let _ = writeln!(out, "move {m}");
        }
        if let Some((_, r)) = &self.result {
            let _ = writeln!(out, "result {r}");
        }
        out
    }

    /// Parses a record's text; errors say which line is wrong and why.
    pub fn parse(text: &str) -> std::result::Result<Record, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
        match lines.next() {
            Some((_, l)) if normalize(l) == HEADER || normalize(l) == OLD_TABLE_HEADER => {}
            Some((n, l)) if l.starts_with("rulestone-record") => {
                return Err(format!(
                    "line {n}: unsupported record version `{l}` (this program reads `{HEADER}`)"
                ))
            }
            _ => {
                return Err(format!(
                    "not a rulestone game record: the first line must be `{HEADER}`"
                ))
            }
        }
        let mut game: Option<PathBuf> = None;
        let (mut game_name, mut game_hash) = (None, None);
        let mut options = Vec::new();
        let (mut deal, mut armies) = (None, Vec::new());
        let mut moves = Vec::new();
        let mut result = None;
        for (n, line) in lines {
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            if rest.is_empty() {
                return Err(format!("line {n}: `{key}` needs a value"));
            }
            if result.is_some() {
                return Err(format!("line {n}: nothing may follow the `result` line"));
            }
            match key {
                "game" if game.is_some() => {
                    return Err(format!("line {n}: a second `game` line"));
                }
                "game" => game = Some(PathBuf::from(rest)),
                "game-name" => game_name = Some(rest.to_string()),
                "game-hash" => game_hash = Some(rest.to_string()),
                "option" => match rest.split_once('=') {
                    Some((name, value)) if !name.trim().is_empty() => {
                        options.push((name.trim().to_string(), value.trim().to_string()));
                    }
                    _ => {
                        return Err(format!(
                            "line {n}: `option` expects NAME=VALUE, not `{rest}`"
                        ))
                    }
                },
                "deal" => match rest.parse() {
                    Ok(d) => deal = Some(d),
                    Err(_) => {
                        return Err(format!("line {n}: `deal` expects a number, not `{rest}`"))
                    }
                },
                "army" => match rest.split_once(char::is_whitespace) {
                    Some((player, army)) => {
                        armies.push((player.to_string(), army.trim().to_string()))
                    }
                    None => {
                        return Err(format!(
                            "line {n}: `army` expects PLAYER FILE:NAME, not `{rest}`"
                        ))
                    }
                },
                "move" => moves.push((n, normalize(rest))),
                "result" => result = Some((n, normalize(rest))),
                _ => {
                    return Err(format!(
                        "line {n}: unknown entry `{key}` (a record has `game`, `game-name`, \
                         `game-hash`, `option`, `deal`, `army`, `move` and `result` lines)"
                    ))
                }
            }
        }
        let game = game.ok_or_else(|| "the record has no `game` line".to_string())?;
        Ok(Record {
            game,
            game_name,
            game_hash,
            options,
            deal,
            armies,
            moves,
            result,
        })
    }
}

/// A hash of a game file's bytes (64-bit FNV-1a), to notice a game file that changed since a
/// record of it was written. Not a security measure.
pub fn file_hash(bytes: &[u8]) -> String {
    use std::hash::Hasher as _;
    let mut h = rulestone_base::hash::Fnv::default();
    h.write(bytes);
    format!("fnv1a64:{:016x}", h.finish())
}

#[cfg(test)]
mod tests {
    use super::Record;
    use std::path::PathBuf;

    #[test]
    fn text_round_trips() {
        let r = Record {
            game: PathBuf::from("games/x.game"),
            game_name: Some("X".into()),
            game_hash: Some(super::file_hash(b"game X")),
            options: vec![("base".into(), "3".into())],
            deal: Some(7),
            armies: vec![("West".into(), "games/x.game:Red".into())],
            moves: vec![(0, "1a1".into()), (0, "1b3 x1b3 x1c4".into())],
            result: None,
        };
        let back = Record::parse(&r.to_text()).expect("parses");
        assert_eq!(back.game, r.game);
        assert_eq!(back.game_name, r.game_name);
        assert_eq!(back.game_hash, r.game_hash);
        assert_eq!(back.options, r.options);
        assert_eq!(back.deal, r.deal);
        assert_eq!(back.armies, r.armies);
        let moves: Vec<&str> = back.moves.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(moves, ["1a1", "1b3 x1b3 x1c4"]);
    }

    #[test]
    fn corrupt_records_are_errors() {
        assert!(Record::parse("").is_err());
        assert!(Record::parse("hello").is_err());
        assert!(Record::parse("rulestone-record 1\nmove 1a1\n").is_err());
        assert!(Record::parse("rulestone-record 1\ngame a\nbogus 1\n").is_err());
        assert!(Record::parse("rulestone-record 1\ngame a\noption x\n").is_err());
        assert!(Record::parse("rulestone-record 2\ngame a\n").is_err());
        assert!(Record::parse("rulestone-record 1\ngame a\nresult draw\nmove 1a1\n").is_err());
    }
}
