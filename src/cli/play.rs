//! `rulestone play`: a game of any kind in the terminal, between two people or against a
//! computer player (any agent: `random`, `mcts`, `alphabeta`), written once against the engine
//! interface ([`Shown`] over [`Game`]): what one kind of game offers beyond another (clocks,
//! views such as a table's stones, a referee's reports) comes from the game, not from a branch.
//!
//! Reads one line at a time from standard input, so a game can be piped in; when input is not
//! a terminal each line is echoed after its prompt, so the output reads as a transcript.

use crate::runtime::{Clock, Compiled};
use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::agents::spec::AGENTS_HELP;
use crate::agents::{Agent, AgentSpec, Thought};

use super::any::{read_at, with_game_armies, Games, OnGame, Shown};
use super::listing;
use super::load::{normalize, shown, BadMove};
use super::output::{self, Output};
use super::record::{self, Keys, Record, RecordFiles as _};
use super::replay::{check_claim, Moves, Replaying};
use super::{emit, CliError, Fail, PositionArgs, Result};

/// The long help of `--vs`: who can play, with every agent's settings.
static VS_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("Who plays the other side: `human` (two people at this terminal, the default), or a computer player given as an agent spec. A search given no budget (no `iterations=`, `depth=`, `time=` or `cpu=`) thinks one second of CPU time per decision.\n\n{AGENTS_HELP}")
});

/// How long the computer thinks per decision, in CPU time, when its spec sets no budget:
/// the same in every game and on a busy machine.
const THINKING: std::time::Duration = std::time::Duration::from_secs(1);

#[derive(Clone, Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: super::GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// Who plays the other side: `human` (two people at this terminal), or a computer player
    /// given as an agent spec: `random`, `mcts`, `mcts:time=2s`, `alphabeta:depth=4`
    /// (`--help` lists every agent and setting). A search given no budget thinks one second
    /// of CPU time per decision.
    #[arg(long, value_name = "OPPONENT", default_value = "human", value_parser = parse_opponent, long_help = VS_HELP.as_str())]
    pub vs: Opponent,

    /// Your side against the computer: a player's name or number (default: the first player).
    #[arg(long = "as", value_name = "PLAYER")]
    pub side: Option<String>,

    /// Seed of the computer's choices and of the rolls (default: taken from the clock and
    /// printed).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Write the game to this record file when play ends (at `quit`, the end of input, or the
    /// end of the game, with its result).
    #[arg(long, value_name = "PATH")]
    pub record: Option<PathBuf>,

    /// Type the rolls yourself (a referee's dice). Without it, the program rolls for every
    /// player from the seeded generator (`--seed`, or the clock's, printed).
    #[arg(long)]
    pub manual_chance: bool,
}

/// Who plays the other side.
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    /// Two people take turns at this terminal.
    Human,
    /// A computer player.
    Computer(AgentSpec),
}

fn parse_opponent(text: &str) -> std::result::Result<Opponent, String> {
    if text.trim().eq_ignore_ascii_case("human") {
        return Ok(Opponent::Human);
    }
    AgentSpec::parse(text)
        .map(|spec| spec.with_default_budget(THINKING))
        .map(Opponent::Computer)
        .map_err(|e| format!("{}; `human` for two people\n  help: {}", e.message, e.help))
}

/// The commands every game offers, after the decision and `moves` and the game's own views.
const COMMANDS: &str = "  hint         the computer's best moves here, with their values
  why MOVE     whether MOVE is legal here, and if not, which rule or part refuses it
  undo         take back your last move (and what followed it: the computer's answer, rolls)
";

/// `help`: the commands, built from what the game offers.
fn help<G: Shown>(game: &G, kind: &str) -> String {
    let mut out = String::from("commands:\n");
    for (i, line) in game.notation_help().lines().enumerate() {
        let head = if i == 0 { "MOVE" } else { "" };
        let _ = writeln!(out, "  {head:<12} {line}");
    }
    out.push_str(
        "  moves [P]    list the legal moves (those starting with P; many are shown in groups)\n",
    );
    for (name, what) in game.views() {
        let _ = writeln!(out, "  {name:<12} {what}");
    }
    out.push_str(COMMANDS);
    let _ = writeln!(out, "  board        draw the {} again", game.surface());
    let _ = writeln!(
        out,
        "  save PATH    write the {kind} so far to a record file"
    );
    let _ = writeln!(
        out,
        "  load PATH    continue the game saved in a record file"
    );
    out.push_str("  help         this list\n  quit         leave (so does the end of input)\n");
    out
}

/// A decision's notation in parts, each with the player who chooses it.
type Parts = Vec<(u8, String)>;

/// A decision of the game so far, in notation, with who took it.
struct Taken {
    text: String,
    by: By,
}

/// Who made a move: `undo` takes back a person's last move and what the program did after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    /// `--after` or a loaded record.
    Start,
    Person,
    /// The computer's move or a roll.
    Program,
}

/// What ends a session on one game.
enum Next {
    Quit,
    /// Continue with the game of a loaded record, and its moves.
    Switch(Box<Replaying>),
}

/// The parts of a play that outlive a loaded record.
struct Console {
    input: Box<dyn BufRead>,
    /// Input is not a terminal: echo each line after its prompt.
    echo: bool,
    rng: ChaCha8Rng,
    /// Your side against the computer (`--as`), read once the players are known.
    side: Option<String>,
    /// The player the computer plays, if any.
    computer: Option<u8>,
    /// The computer's agent (`--vs`), if any.
    spec: Option<AgentSpec>,
    /// The computer's agent (`--vs`), or the one `hint` asks when two people play.
    agent: AgentSpec,
    /// The seed agents are built with.
    seed: u64,
    /// Where to write the game when play ends (`--record`).
    record: Option<PathBuf>,
    /// The record of the game so far, kept after every move while `--record` is given, for
    /// the Ctrl-C handler to write ([`keep_on_interrupt`]).
    autosave: Autosave,
    /// The program rolls for the people too (no `--manual-chance`).
    rolls: bool,
    compiled: Compiled,
}

impl Console {
    /// One line of input, or `None` at the end of input.
    fn read_line(&mut self, prompt: &str) -> Result<Option<String>> {
        if !self.echo {
            emit(prompt)?;
        }
        let mut bytes = Vec::new();
        let n = self
            .input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| CliError::new(format!("cannot read input: {e}")))?;
        if n == 0 {
            if !self.echo {
                emit("\n")?;
            }
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes).trim().to_string();
        if self.echo {
            emit(&format!("{prompt}{line}\n"))?;
        }
        Ok(Some(line))
    }
}

/// The player named (case ignored) or numbered (from 1) by `text`.
fn parse_player(players: &[String; 2], text: &str) -> Result<u8> {
    let by_name = players
        .iter()
        .position(|p| p.eq_ignore_ascii_case(text.trim()));
    let by_number = text
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=players.len()).contains(n))
        .map(|n| n - 1);
    by_name
        .or(by_number)
        .and_then(|i| u8::try_from(i).ok())
        .ok_or_else(|| {
            CliError::new(format!("`--as {text}`: no such player"))
                .note(format!("the players are {}", players.join(" and ")))
                .into()
        })
}

pub(crate) fn run(args: &PlayArgs, compiled: Compiled) -> Result<()> {
    let spec = match &args.vs {
        Opponent::Computer(spec) => Some(spec.clone()),
        Opponent::Human => None,
    };
    if spec.is_none() && args.side.is_some() {
        return Err(
            CliError::new("`--as` chooses your side against the computer")
                .note("add `--vs mcts` (or another agent), or leave out `--as` to play both sides")
                .into(),
        );
    }
    if let Some(path) = &args.record {
        record::check_writable(path)?;
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    let stdin_tty = io::stdin().is_terminal();
    let mut console = Console {
        input: Box::new(io::stdin().lock()),
        echo: !stdin_tty,
        rng: ChaCha8Rng::seed_from_u64(seed),
        side: args.side.clone(),
        computer: None,
        agent: spec
            .clone()
            .unwrap_or_else(|| AgentSpec::Mcts(Default::default()).with_default_budget(THINKING)),
        spec,
        seed,
        record: args.record.clone(),
        autosave: Autosave::default(),
        rolls: !args.manual_chance,
        compiled,
    };
    if let Some(path) = &args.record {
        keep_on_interrupt(path.clone(), console.autosave.clone());
    }
    let mut opening = Replaying {
        game: args.game.clone(),
        armies: None,
        moves: Moves::Typed(args.position.after.clone().unwrap_or_default(), "--after"),
        result: None,
        record: None,
    };
    let mut first = true;
    loop {
        let task = Session {
            opening: &opening,
            first,
            console: &mut console,
        };
        let armies = opening.armies.as_ref();
        match with_game_armies(&opening.game, armies, None, compiled, task)? {
            Next::Quit => return Ok(()),
            Next::Switch(next) => {
                opening = *next;
                first = false;
            }
        }
    }
}

/// A seed from the clock, for games without `--seed`.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| {
            u64::try_from(d.as_nanos() & u128::from(u64::MAX)).unwrap_or(0)
        })
}

/// The first lines: the game, its options, who plays what, who rolls.
fn intro<G: Shown>(game: &G, games: &Games<'_, G>, console: &Console) -> String {
    let mut out = format!("{}\n", games.title);
    if let Some(opts) = &games.options {
        let _ = writeln!(out, "options: {opts}");
    }
    if game.needs_reports() {
        out.push_str("referee mode: type what happened in play when asked (`moves` lists it)\n");
    }
    let seed = console.seed;
    if let Some(c) = console.computer {
        let _ = writeln!(
            out,
            "you play {}, the computer plays {} ({}, seed {seed})",
            game.player_name(1 - c),
            game.player_name(c),
            console.spec.as_ref().map_or_else(
                || "random".to_string(),
                |s| match s {
                    AgentSpec::Random => "random moves".to_string(),
                    other => other.to_string(),
                }
            )
        );
    }
    if game.rolls_dice() {
        let who = match (console.rolls, console.computer) {
            (true, _) => {
                format!("the program rolls the dice (seed {seed}); `--manual-chance` to type them")
            }
            (false, Some(_)) => {
                "you type your rolls (`--manual-chance`); the computer rolls its own".to_string()
            }
            (false, None) => "the players type the rolls (`--manual-chance`)".to_string(),
        };
        let _ = writeln!(out, "{who}");
    }
    out.push_str("type a move, or `help` for the commands\n");
    out
}

/// Play on one game, from its opening (`--after`, or a loaded record's moves) until quit, the
/// end, or a load.
struct Session<'a> {
    opening: &'a Replaying,
    /// The first game of the command: its introduction is printed.
    first: bool,
    console: &'a mut Console,
}

impl OnGame for Session<'_> {
    type Output = Next;

    fn run<G: Shown>(self, games: &Games<'_, G>) -> Result<Next> {
        let console = self.console;
        let mut play = Playing {
            game: (games.start)(games.deal)?,
            games,
            history: Vec::new(),
            agent: console.agent.build(console.seed),
            autosave: console
                .record
                .clone()
                .map(|p| (p, console.autosave.clone())),
        };
        let opening = self.opening.placed(&play.game)?;
        for (place, text) in &opening {
            let d = read_at(&mut play.game, place, text, games.kind)?;
            play.apply(&d, By::Start);
        }
        if play.game.out_of_steps() {
            // No board and no "game over": the caller reports E1008.
            return Ok(Next::Quit);
        }
        if self.first {
            if let Some(side) = &console.side {
                let players = [play.game.player_name(0), play.game.player_name(1)];
                let you = parse_player(&players, side)?;
                // Two players: the computer takes the other one.
                console.computer = Some(u8::from(you == 0));
            } else if console.spec.is_some() {
                console.computer = Some(1);
            }
            emit(&intro(&play.game, games, console))?;
        }
        let mut out = String::new();
        for l in play.game.log() {
            let _ = writeln!(out, "  {l}");
        }
        emit(&format!("{out}\n{}", play.game.drawing()))?;
        let next = play.turns(console)?;
        if let (Next::Quit, Some(path)) = (&next, &console.record) {
            let text = play.record_text(path);
            record::write_or_rescue(path, &text)?;
            emit(&format!(
                "saved {} to `{}`\n",
                super::plural(play.history.len(), "move"),
                shown(path)
            ))?;
        }
        Ok(next)
    }
}

/// One game in progress.
struct Playing<'g, 'l, G: Shown> {
    game: G,
    games: &'g Games<'l, G>,
    /// Every decision from the start, in notation.
    history: Vec<Taken>,
    /// The computer player (or, when two people play, the adviser `hint` asks).
    agent: Box<dyn Agent<G> + 'g>,
    /// With `--record`: its path, and where the record so far is kept after every move.
    autosave: Option<(PathBuf, Autosave)>,
}

impl<G: Shown> Playing<'_, '_, G> {
    /// Turns until quit, the end of the game, or a load.
    fn turns(&mut self, console: &mut Console) -> Result<Next> {
        let started = Instant::now();
        let mut clock: Option<TurnClock> = None;
        let mut turn = None;
        loop {
            if self.game.out_of_steps() || self.game.outcome().is_some() {
                return Ok(Next::Quit);
            }
            let clocks = self.game.clocks();
            // A turn clock starts again with each turn.
            let number = self
                .game
                .turn()
                .unwrap_or_else(|| u32::try_from(self.history.len()).unwrap_or(u32::MAX));
            let key = (number, self.game.to_move());
            if turn != Some(key) {
                turn = Some(key);
                clock = clocks.turn.map(TurnClock::new);
            }
            let mover = self.game.to_move();
            if console.computer == Some(mover) && self.computer_move(&mut console.rng)? {
                continue;
            }
            if console.rolls && self.roll(&mut console.rng)? {
                continue;
            }
            let whole_left = clocks
                .whole
                .map(|s| (s - started.elapsed().as_secs_f64()).max(0.0));
            let mut lines = String::new();
            if let Some(left) = whole_left {
                let _ = writeln!(
                    lines,
                    "  {} clock: {} left",
                    self.games.kind,
                    clock_text(left)
                );
            }
            if let Some(c) = &clock {
                let _ = writeln!(lines, "  clock: {} left", clock_text(c.left()));
            }
            emit(&lines)?;
            let prompt = format!("{}> ", self.game.player_name(mover));
            let Some(line) = console.read_line(&prompt)? else {
                return Ok(Next::Quit);
            };
            // A clock that ran out while the player typed ends the game or the turn (its
            // decision in the game's notation) instead of what was typed.
            let kind = self.games.kind;
            let whole_out = clocks
                .whole
                .is_some_and(|s| started.elapsed().as_secs_f64() >= s);
            let turn_out = clock.as_ref().is_some_and(|c| c.left() <= 0.0);
            let mut out = None;
            if whole_out {
                out = self
                    .game
                    .timeout(Clock::Whole)
                    .map(|d| (d, format!("the {kind} clock ran out")));
            }
            if out.is_none() && turn_out {
                out = self
                    .game
                    .timeout(Clock::Turn)
                    .map(|d| (d, "time is up: the turn ends".to_string()));
            }
            if let Some((d, why)) = out {
                emit(&format!("  {why}\n"))?;
                self.apply(&d, By::Person);
                self.show_applied()?;
                continue;
            }
            if let Some(next) = self.command(&line, console)? {
                return Ok(next);
            }
        }
    }

    fn apply(&mut self, d: &G::Decision, by: By) {
        let text = self.game.text(d);
        self.game.apply(d);
        self.history.push(Taken { text, by });
        self.agent.observe(d);
        if let Some((path, kept)) = self.autosave.clone() {
            let text = self.record_text(&path);
            if let Ok(mut kept) = kept.lock() {
                *kept = Some(text);
            }
        }
    }

    /// What the last decision did, then the game drawn again.
    fn show_applied(&mut self) -> Result<()> {
        let mut out = String::new();
        for l in self.game.log() {
            let _ = writeln!(out, "  {l}");
        }
        emit(&format!("{out}\n{}", self.game.drawing()))
    }

    /// One of the open decisions at random, as chance would take it, when there is a list.
    fn random_listed(&mut self, rng: &mut ChaCha8Rng) -> Option<G::Decision> {
        let mut listed = Vec::new();
        if !self.game.decisions(&mut listed) || listed.is_empty() {
            return None;
        }
        Some(listed.swap_remove(rng.gen_range(0..listed.len())))
    }

    /// When chance takes the next decision: a roll drawn at random among the open ones, as
    /// chance would, and `true`.
    fn roll(&mut self, rng: &mut ChaCha8Rng) -> Result<bool> {
        if !self.game.chance() {
            return Ok(false);
        }
        let mover = self.game.to_move();
        let Some(d) = self.random_listed(rng) else {
            return Ok(false);
        };
        self.apply(&d, By::Program);
        let text = self
            .history
            .last()
            .map_or("", |t| t.text.as_str())
            .to_string();
        emit(&format!(
            "chance for {}: {text}\n",
            self.game.player_name(mover)
        ))?;
        self.show_applied().map(|()| true)
    }

    /// The computer's turn: its agent's decision (a roll is drawn at random, as chance
    /// would), and `true`; `false` when it has none, so that a person decides instead.
    fn computer_move(&mut self, rng: &mut ChaCha8Rng) -> Result<bool> {
        let mover = self.game.to_move();
        let (d, note) = if self.game.chance() {
            match self.random_listed(rng) {
                Some(d) => (d, String::new()),
                None => return Ok(false),
            }
        } else {
            let spinner = thinking();
            let thought = self.agent.choose(&mut self.game);
            if let Some(s) = spinner {
                s.finish_and_clear();
            }
            match thought {
                Some(t) if t.value.is_some() => {
                    let note = format!(" ({})", thought_note(&t));
                    (t.decision, note)
                }
                Some(t) => (t.decision, String::new()),
                None => return Ok(false),
            }
        };
        let text = self.game.text(&d);
        self.apply(&d, By::Program);
        emit(&format!(
            "{} (computer) plays {text}{note}\n",
            self.game.player_name(mover)
        ))?;
        self.show_applied().map(|()| true)
    }

    /// `moves [PREFIX]`: the open decisions (those starting with PREFIX), in groups by their
    /// first parts when there are many.
    fn moves(&mut self, prefix: &str) -> Result<()> {
        let legal = self.game.decisions_text();
        let kept: Vec<String> = listing::starting_with(&legal, prefix)
            .into_iter()
            .cloned()
            .collect();
        if kept.is_empty() && !prefix.is_empty() {
            return emit(&format!("no legal move starts with `{prefix}`\n"));
        }
        let groups = listing::groups(&kept);
        if kept.len() <= listing::GROUP_ABOVE || groups.len() < 2 {
            return emit(&wrap(&kept));
        }
        emit(&format!(
            "{} in {} groups; type `moves PREFIX` to list one:\n{}",
            super::plural(kept.len(), "move"),
            groups.len(),
            listing::groups_text(&groups)
        ))
    }

    /// `hint`: the agent's best moves here, with their values for the player to move.
    fn hint(&mut self) -> Result<()> {
        if self.game.outcome().is_some() {
            return emit(&format!("the {} is over\n", self.games.kind));
        }
        if self.game.chance() {
            return emit("chance decides this move: no hint\n");
        }
        let spinner = thinking();
        let thought = self.agent.choose(&mut self.game);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let Some(t) = thought else {
            return emit("no hint: no move is open\n");
        };
        let mut out = format!("hint ({}: {}):\n", self.agent.name(), thought_note(&t));
        let ranked = if t.ranked.is_empty() {
            vec![(t.decision.clone(), t.value.unwrap_or(0.5), 0)]
        } else {
            t.ranked.clone()
        };
        for (d, value, work) in ranked.iter().take(5) {
            let text = self.game.text(d);
            let _ = write!(out, "  {text:<16} {:>5.1}%", 100.0 * value);
            if *work > 0 {
                let _ = write!(out, "  ({work} {})", t.unit);
            }
            out.push('\n');
        }
        emit(&out)
    }

    /// Runs one line of input; `Some` when the session ends.
    fn command(&mut self, line: &str, console: &mut Console) -> Result<Option<Next>> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let word = word.to_ascii_lowercase();
        if rest.is_empty() {
            if let Some(view) = self.game.view(&word) {
                emit(&view)?;
                return Ok(None);
            }
        }
        match word.as_str() {
            "" => {}
            "help" | "?" => emit(&help(&self.game, self.games.kind))?,
            "quit" | "exit" | "q" => return Ok(Some(Next::Quit)),
            "board" => emit(&format!("\n{}", self.game.drawing()))?,
            "moves" => self.moves(rest)?,
            "hint" => self.hint()?,
            "why" if rest.is_empty() => emit("usage: why MOVE\n")?,
            "why" => self.why(rest)?,
            "undo" => {
                self.undo()?;
                self.agent.reset();
            }
            "save" | "load" if rest.is_empty() => emit(&format!("usage: {word} PATH\n"))?,
            "save" => self.save(Path::new(rest))?,
            "load" => return load(Path::new(rest), console.compiled),
            _ => self.human_move(line, console)?,
        }
        Ok(None)
    }

    /// `why MOVE`: whether the move is legal here and, when it is not, why not, as far as
    /// that can be told (the rule that refuses it, which part no legal move has, a near miss
    /// of a legal move's spelling), without playing it.
    fn why(&mut self, text: &str) -> Result<()> {
        match self.game.read(text) {
            Ok(d) => {
                let written = self.game.text(&d);
                emit(&format!("`{written}` is a legal move here\n"))
            }
            Err(BadMove::Illegal { mut notes }) => {
                let reasons = (self.games.refusal)(&mut self.game, text);
                notes.splice(0..0, reasons);
                let e = CliError::new(format!("`{}` is not a legal move", normalize(text)))
                    .notes(notes);
                emit(&format!("{e}\n"))
            }
            Err(BadMove::Ambiguous(same)) => emit(&format!(
                "{}\n",
                CliError::new(same.message()).note(same.note())
            )),
            Err(BadMove::GameOver(r)) => emit(&format!("the {} is over: {r}\n", self.games.kind)),
        }
    }

    fn human_move(&mut self, line: &str, console: &mut Console) -> Result<()> {
        let d = match self.asked_move(line, console)? {
            Some(d) => Ok(d),
            None => self.game.read(line),
        };
        match d {
            Ok(d) => {
                self.apply(&d, By::Person);
                self.show_applied()
            }
            Err(BadMove::Illegal { notes }) => {
                let e = CliError::new(format!("`{}` is not a legal move", normalize(line)))
                    .notes(notes)
                    .note("type `moves` for the whole list, `help` for the commands");
                emit(&format!("{e}\n"))
            }
            Err(BadMove::Ambiguous(same)) => emit(&format!(
                "{}\n",
                CliError::new(same.message()).note(same.note())
            )),
            Err(BadMove::GameOver(r)) => emit(&format!("the {} is over: {r}\n", self.games.kind)),
        }
    }

    /// A move whose notation has parts chosen by other players (`pick ... by p`), given by its
    /// first part only: each later choice is asked of the player who makes it (the computer
    /// chooses at random). `None` when `line` is no such first part, or a choice was not given.
    fn asked_move(&mut self, line: &str, console: &mut Console) -> Result<Option<G::Decision>> {
        let text = normalize(line);
        if !self.game.others_choose() || self.game.outcome().is_some() {
            return Ok(None);
        }
        let mut legal = Vec::new();
        if !self.game.decisions(&mut legal) {
            return Ok(None);
        }
        let mut candidates: Vec<(G::Decision, Parts)> = Vec::new();
        for d in legal {
            let parts = self.game.decision_parts(&d);
            if parts.len() > 1 && parts.first().is_some_and(|(_, t)| normalize(t) == text) {
                candidates.push((d, parts));
            }
        }
        let mut k = 1;
        while candidates.len() > 1 {
            let part = |parts: &[(u8, String)]| parts.get(k).map(|(_, t)| normalize(t));
            let Some(chooser) = candidates
                .iter()
                .find_map(|(_, p)| p.get(k).map(|(w, _)| *w))
            else {
                break;
            };
            let mut options: Vec<String> = Vec::new();
            for (_, parts) in &candidates {
                let option = part(parts).unwrap_or_default();
                if !options.contains(&option) {
                    options.push(option);
                }
            }
            let name = self.game.player_name(chooser);
            let chosen = if console.computer == Some(chooser) {
                let pick = options[console.rng.gen_range(0..options.len())].clone();
                emit(&format!("{name} (computer) chooses {pick}\n"))?;
                pick
            } else {
                loop {
                    let prompt = format!("{name} chooses ({})> ", options.join(" | "));
                    let Some(answer) = console.read_line(&prompt)? else {
                        return Ok(None);
                    };
                    let answer = normalize(&answer);
                    // `b7` will do for `/b7`.
                    let bare = |o: &str| {
                        o.trim_start_matches(|c: char| !c.is_alphanumeric())
                            .to_string()
                    };
                    if let Some(o) = options.iter().find(|o| {
                        o.eq_ignore_ascii_case(&answer) || bare(o).eq_ignore_ascii_case(&answer)
                    }) {
                        break o.clone();
                    }
                    emit(&format!(
                        "`{answer}` is not one of: {}\n",
                        options.join(", ")
                    ))?;
                }
            };
            candidates.retain(|(_, parts)| part(parts).unwrap_or_default() == chosen);
            k += 1;
        }
        Ok(candidates.into_iter().next().map(|(d, _)| d))
    }

    /// Takes back one decision, or against the computer as many as make it your turn again.
    fn undo(&mut self) -> Result<()> {
        let Some(last) = self.history.iter().rposition(|t| t.by != By::Program) else {
            return emit("nothing to undo\n");
        };
        let mut taken = Vec::new();
        while self.history.len() > last {
            let Some(t) = self.history.pop() else {
                break;
            };
            self.game.undo();
            taken.push(t.text);
        }
        emit(&format!(
            "took back {}\n\n{}",
            taken.join(", "),
            self.game.drawing()
        ))
    }

    /// The game so far as the text of a record file at `path`.
    fn record_text(&mut self, path: &Path) -> String {
        let texts: Vec<String> = self.history.iter().map(|t| t.text.clone()).collect();
        let games = self.games;
        let keys = Keys {
            path: games.path.clone(),
            name: games.name.clone(),
            options: games.settings.clone(),
            deal: games.deal,
            armies: games.armies.clone(),
        };
        Record::of(&mut self.game, &keys, &texts)
            .relative_to(path)
            .to_text()
    }

    /// `save PATH`: the game so far; a failure is reported and play goes on.
    fn save(&mut self, path: &Path) -> Result<()> {
        let texts = self.history.len();
        let text = self.record_text(path);
        let written = output::refuse_other(path, Output::Record).and_then(|()| {
            std::fs::write(path, text).map_err(|e| CliError::io("write", path, &e).into())
        });
        match written {
            Ok(()) => emit(&format!(
                "saved {} to `{}`\n",
                super::plural(texts, "move"),
                shown(path)
            )),
            Err(f) => report(&f),
        }
    }
}

/// `load PATH`: the record's game and moves, or the game goes on unchanged.
fn load(path: &Path, compiled: Compiled) -> Result<Option<Next>> {
    let loaded = record::replaying(path).and_then(|r| {
        let armies = r.armies.as_ref();
        let checked = with_game_armies(&r.game, armies, None, compiled, Check { replaying: &r })
            .map_err(|f| record::while_loading(f, path))??;
        Ok((r, checked))
    });
    match loaded {
        Ok((next, said)) => {
            emit(&format!("loaded `{}`: {said}\n", shown(path)))?;
            Ok(Some(Next::Switch(Box::new(next))))
        }
        Err(f) => {
            report(&f)?;
            emit("the game goes on unchanged\n")?;
            Ok(None)
        }
    }
}

/// Checks that a record's moves replay and reach the result it claims; says what it holds:
/// `NAME (FILE; OPTION=VALUE), 4 moves`.
struct Check<'a> {
    replaying: &'a Replaying,
}

impl OnGame for Check<'_> {
    type Output = Result<String>;

    fn run<G: Shown>(self, games: &Games<'_, G>) -> Result<Result<String>> {
        Ok(check_record(self.replaying, games))
    }
}

/// [`Check`] on a loaded game.
fn check_record<G: Shown>(replaying: &Replaying, games: &Games<'_, G>) -> Result<String> {
    let mut game = (games.start)(games.deal)?;
    let moves = replaying.placed(&game)?;
    for (place, text) in &moves {
        let d = read_at(&mut game, place, text, games.kind)?;
        game.apply(&d);
    }
    check_claim(&mut game, replaying)?;
    Ok(format!(
        "{} ({}{}), {}",
        games.name,
        shown(&games.path),
        games
            .options
            .as_ref()
            .map_or(String::new(), |o| format!("; {o}")),
        super::plural(moves.len(), "move"),
    ))
}

/// A spinner on standard error while the computer thinks, only when it is a terminal.
fn thinking() -> Option<ProgressBar> {
    if !super::stderr_is_tty() {
        return None;
    }
    let spinner = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} thinking… {elapsed}") {
        spinner.set_style(style);
    }
    spinner.enable_steady_tick(std::time::Duration::from_millis(100));
    Some(spinner)
}

/// What the agent did and what it expects: `mcts:iterations=1000: 1000 iterations in 0.41 s,
/// expects 62%`.
fn thought_note<D>(t: &Thought<D>) -> String {
    match t.value {
        Some(v) => format!("{}, expects {:.0}%", t.summary, 100.0 * v),
        None => t.summary.clone(),
    }
}

/// Prints a failed `save` or `load` inside the game (diagnostics were already printed).
fn report(f: &Fail) -> Result<()> {
    match f {
        Fail::Error(e) => emit(&format!("{e}\n")),
        Fail::Reported(_) => emit("error: the record's game file has errors (shown above)\n"),
        Fail::ReportedUsage(_) => emit("error: the record's options are refused (shown above)\n"),
        Fail::Stopped => emit("error: stopped by a bound\n"),
    }
}

/// The moves separated by commas, wrapped at 80 columns.
fn wrap(moves: &[String]) -> String {
    if moves.is_empty() {
        return "no legal moves\n".to_string();
    }
    rulestone_session::board::comma_lines("", moves, 80)
}

/// A visible turn clock: the line above the prompt shows the time left, redrawn every half
/// second while the player types (on a terminal only).
struct TurnClock {
    started: Arc<Mutex<Instant>>,
    limit: f64,
    stop: Arc<AtomicBool>,
}

impl TurnClock {
    fn new(limit: f64) -> TurnClock {
        let clock = TurnClock {
            started: Arc::new(Mutex::new(Instant::now())),
            limit,
            stop: Arc::new(AtomicBool::new(false)),
        };
        if io::stdout().is_terminal() && io::stdin().is_terminal() {
            let stop = Arc::clone(&clock.stop);
            let started = Arc::clone(&clock.started);
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(500));
                    let elapsed = started.lock().map_or(0.0, |s| s.elapsed().as_secs_f64());
                    let left = (limit - elapsed).max(0.0);
                    // Save the cursor, draw on the line above, restore.
                    print!(
                        "\x1b7\x1b[1A\r\x1b[2K  clock: {} left\x1b8",
                        clock_text(left)
                    );
                    let _ = io::stdout().flush();
                }
            });
        }
        clock
    }

    fn left(&self) -> f64 {
        let elapsed = self
            .started
            .lock()
            .map_or(0.0, |s| s.elapsed().as_secs_f64());
        (self.limit - elapsed).max(0.0)
    }
}

impl Drop for TurnClock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// `m:ss`.
fn clock_text(seconds: f64) -> String {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let s = seconds.ceil() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The text of the record of the game in play, kept after every move while `--record` is given.
type Autosave = std::sync::Arc<std::sync::Mutex<Option<String>>>;

/// On Ctrl-C, writes the record kept so far to `path` (or, if that fails, beside the working
/// directory: [`record::write_or_rescue`]) and ends with status 130, as an interrupted
/// command does.
fn keep_on_interrupt(path: PathBuf, kept: Autosave) {
    let installed = ctrlc::set_handler(move || {
        let text = kept.lock().ok().and_then(|k| k.clone());
        if let Some(text) = text {
            match record::write_or_rescue(&path, &text) {
                Ok(()) => eprintln!(
                    "\ninterrupted: the game so far is saved to `{}`",
                    shown(&path)
                ),
                Err(f) => {
                    let _ = report(&f);
                }
            }
        }
        std::process::exit(130);
    });
    if installed.is_err() {
        eprintln!(
            "warning: Ctrl-C cannot be caught here: the record is written only when play ends"
        );
    }
}
