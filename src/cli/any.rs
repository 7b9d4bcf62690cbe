//! Any game behind the one engine interface, [`Game`]: the one place in the command line that
//! tells a board game from a table game. A command written as an [`OnGame`] runs on both.

use std::path::{Path, PathBuf};

use crate::runtime::table::{Decision, TableMatch};
use crate::runtime::{BoardGame, Compiled, Game, Move};
use crate::syntax::ast;
use crate::Built;

use super::load::{
    find_move, normalize, parse, play_list, shown, split_moves, split_sets, BadMove,
};
use super::{CliError, GameArgs, Result};

/// A loaded game, ready to start matches at the command line's position.
pub(crate) struct Games<'l, G> {
    /// The game's name and file, for headings.
    pub title: String,
    /// The game's name alone.
    pub name: String,
    /// The option values, `size=5, variant=short`, if any.
    pub options: Option<String>,
    /// The option values, one pair each.
    pub option_values: Vec<(String, String)>,
    /// A new game at the position the command line asks for (the start, then `--after`);
    /// `deal` seeds a game's own chance (a table game's shuffles and who starts).
    pub start: &'l (dyn Fn(u64) -> Result<G> + Sync),
    /// The command line's deal (`--deal`), for commands that play one game.
    pub deal: u64,
    /// What one game is called: a `game`, a table game's `match`.
    pub kind: &'static str,
    /// The game file.
    pub path: PathBuf,
    /// Every value the game was loaded with (`--set`, its options and parameters), as a
    /// record keeps them.
    pub settings: Vec<(String, String)>,
    /// Each player's name and one army they could choose (`FILE:NAME`), for games played
    /// with armies.
    pub armies: Vec<(String, String)>,
    /// Why a decision typed as written is refused, one note per failure (each `require`
    /// quoted, each `pick` set with the parts that leave a cell out), when that can be told.
    pub refusal: &'l (dyn Fn(&mut G, &str) -> Vec<String> + Sync),
    /// What the game declares beyond what [`Game`] tells (its board or table, pieces or
    /// stones, armies...), as the JSON object `info` reports: made only when asked.
    pub describe: &'l (dyn Fn() -> Result<serde_json::Value> + Sync),
}

/// Work a command does on any kind of game, written once against [`Game`].
pub(crate) trait OnGame {
    type Output;

    /// Runs the command on a loaded game.
    ///
    /// # Errors
    /// What the command reports.
    fn run<G: Shown>(self, games: &Games<'_, G>) -> Result<Self::Output>;
}

/// What the command line shows of a game beside [`Game`]: its drawing, what the last decision
/// did, and why a typed decision is refused. Implemented here for both kinds, so that commands
/// that draw or read typed decisions need no branch either.
pub(crate) trait Shown: Game {
    /// The position drawn for a terminal, ending with a newline.
    fn drawing(&mut self) -> String;

    /// What the last decision did, one line each (a shot's hits and captures); none when the
    /// decision's notation says it all.
    fn log(&self) -> Vec<String> {
        Vec::new()
    }

    /// A `;`-separated list of decisions in notation, one entry each.
    fn split(&self, list: &str) -> Vec<String> {
        split_moves(list)
    }

    /// The open decision written `text`, or why there is none: the game is over, or the notes
    /// that explain the refusal.
    ///
    /// # Errors
    /// A text that is no open decision, with the reasons.
    fn read(&mut self, text: &str) -> std::result::Result<Self::Decision, BadMove>;

    /// How decisions are typed, for `play`'s help: lines of at most 60 columns.
    fn notation_help(&self) -> &'static str {
        "play a move, written as `moves` lists it"
    }

    /// What the game is drawn on, `board` or `table`.
    fn surface(&self) -> &'static str {
        "board"
    }

    /// The game's own views beside its drawing, each with what it shows (one line): what
    /// `play` offers as commands.
    fn views(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// The view called `name` (one of [`Shown::views`]), ending with a newline.
    fn view(&mut self, _name: &str) -> Option<String> {
        None
    }

    /// The stable action ids of `decisions` (as the Python package and the engine protocol
    /// number them), or `None` when the game has no action space.
    fn action_ids(&self, _decisions: &[Self::Decision]) -> Option<Vec<u64>> {
        None
    }
}

/// The decision written `text` at `place` (`move 3 of `--after``), open in `game`; what a
/// command that plays a list of decisions reports when it is not.
///
/// # Errors
/// The game ended before it, or it is no open decision (with the reasons).
pub(crate) fn read_at<G: Shown>(
    game: &mut G,
    place: &str,
    text: &str,
    kind: &str,
) -> Result<G::Decision> {
    match game.read(text) {
        Ok(d) => Ok(d),
        Err(BadMove::GameOver(result)) => Err(CliError::new(format!(
            "{place}, `{text}`, comes after the end of the {kind}"
        ))
        .note(format!("the {kind} ended: {result}"))
        .into()),
        Err(BadMove::Illegal { notes }) => Err(CliError::new(format!(
            "{place}, `{text}`, is not a legal move"
        ))
        .notes(notes)
        .into()),
        Err(BadMove::Ambiguous(same)) => Err(CliError::new(format!("{place}: {}", same.message()))
            .note(same.note())
            .into()),
    }
}

impl Shown for BoardGame<'_> {
    fn drawing(&mut self) -> String {
        rulestone_session::board::draw(&mut self.engine)
    }

    fn read(&mut self, text: &str) -> std::result::Result<Move, BadMove> {
        find_move(&mut self.engine, text)
    }

    fn action_ids(&self, decisions: &[Move]) -> Option<Vec<u64>> {
        // The ids are written as JSON numbers (`replay --format json`).
        let space = rulestone_session::actions::ActionSpace::of(self.engine.program())
            .and_then(rulestone_session::actions::ActionSpace::for_json)
            .ok()?;
        decisions.iter().map(|m| space.id(m).ok()).collect()
    }
}

/// How a table game's decisions are typed.
const TABLE_NOTATION: &str = "\
a shot `CARD STONE ANGLE@SPEED`, e.g. `C1 XA2 15@22.5`
(referee mode: `CARD STONE`, then its result), the free
shot `free STONE ANGLE@SPEED`, `skip CARD`,
`result capture STONE; move STONE X,Y; off STONE` or
`result none`, `penalty NAME PLAYER` (a warning) or
`penalty NAME STONE` (the stone is lost), `time` (end the
turn now), `time match` (the match clock ran out)";

impl Shown for TableMatch<'_> {
    fn drawing(&mut self) -> String {
        format!("{}{}", super::table::draw(self), self.status())
    }

    fn log(&self) -> Vec<String> {
        self.position.log.clone()
    }

    fn split(&self, list: &str) -> Vec<String> {
        super::table::split_decisions(list)
    }

    fn notation_help(&self) -> &'static str {
        TABLE_NOTATION
    }

    fn surface(&self) -> &'static str {
        "table"
    }

    fn views(&self) -> &'static [(&'static str, &'static str)] {
        &[("stones", "every stone on the table with its position")]
    }

    fn view(&mut self, name: &str) -> Option<String> {
        (name == "stones").then(|| format!("{}\n", self.stone_list().join("\n")))
    }

    fn read(&mut self, text: &str) -> std::result::Result<Decision, BadMove> {
        if let Some(r) = TableMatch::outcome(self) {
            return Err(BadMove::GameOver(super::table::result_text(self, r)));
        }
        let d = TableMatch::parse(self, &normalize(text))
            .map_err(|e| BadMove::Illegal { notes: vec![e.0] })?;
        // A decision read at the wrong moment (a result with no shot declared) is refused
        // when applied: try it, so that only decisions `apply` takes are handed on.
        TableMatch::apply(self, &d).map_err(|e| BadMove::Illegal { notes: vec![e.0] })?;
        TableMatch::undo(self);
        Ok(d)
    }
}

/// Loads the game of `args` (`--set`, `--army`), then runs `task` on it at the position after
/// `after` (decisions separated by `;`).
pub(crate) fn with_game<T: OnGame>(
    args: &GameArgs,
    after: Option<&str>,
    compiled: Compiled,
    task: T,
) -> Result<T::Output> {
    with_game_armies(args, None, after, compiled, task)
}

/// [`with_game`], where `armies`, when given, are each player's armies (`FILE` or
/// `FILE:NAME`, several each, as a record keeps them) instead of `args`' `--army`.
pub(crate) fn with_game_armies<T: OnGame>(
    args: &GameArgs,
    armies: Option<&[Vec<String>; 2]>,
    after: Option<&str>,
    compiled: Compiled,
    task: T,
) -> Result<T::Output> {
    let (source, file) = parse(&args.file)?;
    let sets = split_sets(&args.set)?;
    let program = match super::load::build(&args.file, &source, &file, &sets)? {
        Built::Board(program) => program,
        Built::Table(game, program) => {
            let specs = match armies {
                Some(specs) => specs.clone(),
                None => super::table::army_specs(args)?,
            };
            let table = super::table::with_armies(&args.file, &game, program, &specs)?;
            return on_table(args, &file, &table, after, task);
        }
    };
    let loaded = super::load::board(&args.file, &source, program, compiled);
    let start = |_: u64| -> Result<BoardGame<'_>> {
        let mut engine = loaded.engine();
        if let Some(list) = after {
            play_list(&mut engine, list, "`--after`")?;
        }
        Ok(BoardGame::new(engine))
    };
    // Bad `--after` moves are reported once, before any work starts; a generation that ran
    // out of steps (E1008), here or in the task, ends the command with that error.
    let first = start(0).map(|mut game| game.out_of_steps());
    loaded.steps_ok()?;
    first?;
    let describe = || Ok(super::info::board_part(&args.file, &file, &loaded.program));
    let refusal = |game: &mut BoardGame<'_>, text: &str| {
        super::load::refusing_rules(&mut game.engine, &loaded.source, text)
    };
    let done = task.run(&Games {
        title: format!("{} ({})", loaded.program.name, shown(&loaded.path)),
        name: loaded.program.name.clone(),
        options: super::load::options_text(&loaded.program),
        option_values: loaded.program.options.clone(),
        start: &start,
        deal: args.deal,
        kind: "game",
        path: loaded.path.clone(),
        settings: loaded.program.options.clone(),
        armies: Vec::new(),
        refusal: &refusal,
        describe: &describe,
    });
    loaded.steps_ok()?;
    done
}

/// Runs `task` on a loaded table game, at the position after `after`.
fn on_table<T: OnGame>(
    args: &GameArgs,
    file: &ast::File,
    table: &super::table::LoadedTable,
    after: Option<&str>,
    task: T,
) -> Result<T::Output> {
    let start = |deal: u64| -> Result<TableMatch<'_>> { super::table::start(table, deal, after) };
    start(args.deal)?;
    let describe = || super::info::table_part(args, file, table);
    let mut armies = Vec::new();
    for (p, sources) in table.army_sources.iter().enumerate() {
        let player = table.program.players.get(p).cloned().unwrap_or_default();
        armies.extend(sources.iter().map(|s| (player.clone(), s.clone())));
    }
    task.run(&Games {
        title: format!("{} ({})", table.program.name, shown(&args.file)),
        name: table.program.name.clone(),
        options: None,
        option_values: Vec::new(),
        start: &start,
        deal: args.deal,
        kind: "match",
        path: table.path.clone(),
        settings: table.program.settings.clone(),
        armies,
        refusal: &|_, _| Vec::new(),
        describe: &describe,
    })
}

/// A game's player names, `0` and `1`.
pub(crate) fn players<G: Game>(game: &G) -> [String; 2] {
    [game.player_name(0), game.player_name(1)]
}

/// Variants of one game, one per set of option values, ready to start games: what a command
/// that compares variants ([`OnVariants`]) runs on.
pub(crate) struct Variants<'l, G> {
    /// The game's name.
    pub name: String,
    /// The players' names, first and second.
    pub players: [String; 2],
    /// Each variant's option values.
    pub options: Vec<Vec<(String, String)>>,
    /// A new game of variant `v` at its start; `deal` seeds the game's own chance (a table
    /// game's shuffles and who starts).
    pub start: &'l (dyn Fn(usize, u64) -> G + Sync),
}

/// Work on several variants of any kind of game, written once against [`Game`].
pub(crate) trait OnVariants {
    type Output;

    /// Runs the command on the loaded variants.
    ///
    /// # Errors
    /// What the command reports.
    fn run<G: Game>(self, variants: &Variants<'_, G>) -> Result<Self::Output>;
}

/// Loads the game in `file` once for each set of option values in `sets` (at least one), then
/// runs `task` on them.
pub(crate) fn with_variants<T: OnVariants>(
    file: &Path,
    sets: &[Vec<(String, String)>],
    compiled: Compiled,
    task: T,
) -> Result<T::Output> {
    let (source, parsed) = parse(file)?;
    let (mut loaded, mut tables) = (Vec::new(), Vec::new());
    let every_army = [Vec::new(), Vec::new()];
    for s in sets {
        match super::load::build(file, &source, &parsed, s)? {
            Built::Board(program) => {
                loaded.push(super::load::board(file, &source, program, compiled))
            }
            Built::Table(game, program) => {
                tables.push(super::table::with_armies(
                    file,
                    &game,
                    program,
                    &every_army,
                )?);
            }
        }
    }
    if let Some(first) = tables.first() {
        let start = |v: usize, deal: u64| {
            let t = &tables[v];
            TableMatch::new(&t.program, t.armies.clone(), deal)
        };
        let player = |p: usize| first.program.players.get(p).cloned().unwrap_or_default();
        return task.run(&Variants {
            name: first.program.name.clone(),
            players: [player(0), player(1)],
            options: sets.to_vec(),
            start: &start,
        });
    }
    let Some(first) = loaded.first() else {
        return Err(CliError::new("no variant to run").into());
    };
    let start = |v: usize, _deal: u64| BoardGame::new(loaded[v].engine());
    let player = |p: u8| first.program.player_name(p);
    let done = task.run(&Variants {
        name: first.program.name.clone(),
        players: [player(0), player(1)],
        options: loaded.iter().map(|l| l.program.options.clone()).collect(),
        start: &start,
    });
    for variant in &loaded {
        variant.steps_ok()?;
    }
    done
}
