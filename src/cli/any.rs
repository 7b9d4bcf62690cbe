//! Any game behind the one engine interface, [`Game`]: the one place in the command line that
//! tells a board game from a table game. A command written as an [`OnGame`] runs on both.

use crate::runtime::table::TableMatch;
use crate::runtime::{BoardGame, Compiled, Game};

use super::load::{parse, play_list, shown, split_sets};
use super::{GameArgs, Result};

/// A loaded game, ready to start matches at the command line's position.
pub(crate) struct Games<'l, G> {
    /// The game's name and file, for headings.
    pub title: String,
    /// The option values, `size=5, variant=short`, if any.
    pub options: Option<String>,
    /// A new game at the position the command line asks for (the start, then `--after`);
    /// `deal` seeds a game's own chance (a table game's shuffles and who starts).
    pub start: &'l (dyn Fn(u64) -> Result<G> + Sync),
    /// The command line's deal (`--deal`), for commands that play one game.
    pub deal: u64,
    /// What one game is called: a `game`, a table game's `match`.
    pub kind: &'static str,
}

/// Work a command does on any kind of game, written once against [`Game`].
pub(crate) trait OnGame {
    type Output;

    /// Runs the command on a loaded game.
    ///
    /// # Errors
    /// What the command reports.
    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<Self::Output>;
}

/// Loads the game of `args` (`--set`, `--army`), then runs `task` on it at the position after
/// `after` (decisions separated by `;`).
pub(crate) fn with_game<T: OnGame>(
    args: &GameArgs,
    after: Option<&str>,
    compiled: Compiled,
    task: T,
) -> Result<T::Output> {
    let (source, file) = parse(&args.file)?;
    if crate::check::table::is_table_game(&file) {
        let table = super::table::load(args)?;
        let start =
            |deal: u64| -> Result<TableMatch<'_>> { super::table::start(&table, deal, after) };
        start(args.deal)?;
        return task.run(&Games {
            title: format!("{} ({})", table.program.name, shown(&args.file)),
            options: None,
            start: &start,
            deal: args.deal,
            kind: "match",
        });
    }
    let sets = split_sets(&args.set)?;
    let loaded = super::load::load_parsed(&args.file, &source, &file, &sets, compiled)?;
    let start = |_: u64| -> Result<BoardGame<'_>> {
        let mut engine = loaded.engine();
        if let Some(list) = after {
            play_list(&mut engine, list, "`--after`")?;
        }
        Ok(BoardGame::new(engine))
    };
    // Bad `--after` moves are reported once, before any work starts.
    start(0)?;
    task.run(&Games {
        title: format!("{} ({})", loaded.program.name, shown(&loaded.path)),
        options: super::load::options_text(&loaded.program),
        start: &start,
        deal: args.deal,
        kind: "game",
    })
}

/// A game's player names, `0` and `1`.
pub(crate) fn players<G: Game>(game: &G) -> [String; 2] {
    [game.player_name(0), game.player_name(1)]
}
