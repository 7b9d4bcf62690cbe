//! `rulestone play`: a game in the terminal, between two people or against a computer player
//! (any agent: `random`, `mcts`, `alphabeta`).
//!
//! Reads one line at a time from standard input, so a game can be piped in; when input is not
//! a terminal each line is echoed after its prompt, so the output reads as a transcript.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal};
use std::path::{Path, PathBuf};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::agents::spec::AGENTS_HELP;
use crate::agents::{Agent, AgentSpec, Thought};
use crate::runtime::{BoardGame, Engine, Move, Undo};

use super::board::draw;
use super::listing;
use super::load::{
    find_move, legal_with_text, normalize, options_text, player_name, refusing_rules, shown,
    split_moves, BadMove, Loaded,
};
use super::record::{self, Record};
use super::{emit, CliError, Fail, GameArgs, PositionArgs, Result};

/// The long help of `--vs`: who can play, with every agent's settings.
static VS_HELP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("Who plays the other side: `human` (two people at this terminal, the default), or a computer player given as an agent spec.\n\n{AGENTS_HELP}")
});

#[derive(Clone, Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// Who plays the other side: `human` (two people at this terminal), or a computer player
    /// given as an agent spec: `random`, `mcts`, `mcts:time=2s`, `alphabeta:depth=4`
    /// (`--help` lists every agent and setting).
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
        .map(Opponent::Computer)
        .map_err(|e| format!("{}; `human` for two people\n  help: {}", e.message, e.help))
}

const HELP: &str = "\
commands:
  MOVE         play a move, written as `moves` lists it
  moves [P]    list the legal moves (those starting with P; many are shown in groups)
  hint         the computer's best moves here, with their values
  why MOVE     whether MOVE is legal here, and if not, which rule or part refuses it
  undo         take back your last move (and what followed it: the computer's answer, rolls)
  board        draw the board again
  save PATH    write the game so far to a record file
  load PATH    continue the game saved in a record file
  help         this list
  quit         leave (so does the end of input)
";

/// A move of the game so far, with what takes it back.
struct Taken {
    undo: Undo,
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

/// What ends a session on one game program.
enum Next {
    Quit,
    /// Continue with another program (a loaded record) and its moves.
    Switch(Box<Loaded>, Vec<String>),
}

/// The parts of a play that outlive a loaded record.
struct Console {
    input: Box<dyn BufRead>,
    /// Input is not a terminal: echo each line after its prompt.
    echo: bool,
    rng: ChaCha8Rng,
    /// The player the computer plays, if any.
    computer: Option<u8>,
    /// The computer's agent (`--vs`), or the one `hint` asks when two people play.
    agent: AgentSpec,
    /// The seed agents are built with.
    seed: u64,
    /// Where to write the game when play ends (`--record`).
    record: Option<PathBuf>,
    /// The program rolls for the people too (no `--manual-chance`).
    rolls: bool,
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
fn parse_player(loaded: &Loaded, text: &str) -> Result<u8> {
    let players = &loaded.program.players;
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
        Opponent::Computer(spec) => Some(spec),
        Opponent::Human => None,
    };
    if !super::any::file_moves_generated(&args.game.file) {
        return super::table::play(
            &args.game,
            args.position.after.as_deref(),
            spec,
            args.seed.unwrap_or(args.game.deal),
            args.record.as_deref(),
        );
    }
    let mut loaded = super::load::load(&args.game, compiled)?;
    let computer = match (&args.vs, &args.side) {
        (Opponent::Human, Some(_)) => return Err(CliError::new(
            "`--as` chooses your side against the computer",
        )
        .note("add `--vs mcts` (or another agent), or leave out `--as` to play both sides")
        .into()),
        (Opponent::Human, None) => None,
        (Opponent::Computer(_), side) => {
            let you = match side {
                Some(s) => parse_player(&loaded, s)?,
                None => 0,
            };
            // Two players (the checker insists): the computer takes the other one.
            Some(u8::from(you == 0))
        }
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let stdin_tty = io::stdin().is_terminal();
    let mut console = Console {
        input: Box::new(io::stdin().lock()),
        echo: !stdin_tty,
        rng: ChaCha8Rng::seed_from_u64(seed),
        computer,
        agent: spec.cloned().unwrap_or(AgentSpec::Mcts(Default::default())),
        seed,
        record: args.record.clone(),
        rolls: !args.manual_chance,
    };
    let mut start = args
        .position
        .after
        .as_deref()
        .map(split_moves)
        .unwrap_or_default();

    let mut header = Some(intro(&loaded, computer, spec, seed, console.rolls));
    let mut from = "`--after`".to_string();
    loop {
        let next = session(&loaded, &start, &from, header.take(), &mut console);
        // A position whose moves ran out of steps looks like a game without moves: say why.
        loaded.steps_ok()?;
        match next? {
            Next::Quit => return Ok(()),
            Next::Switch(next, moves) => {
                from = format!("the record of `{}`", shown(&next.path));
                loaded = *next;
                start = moves;
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

/// The first lines: the game, its options, who plays what.
fn intro(
    loaded: &Loaded,
    computer: Option<u8>,
    spec: Option<&AgentSpec>,
    seed: u64,
    rolls: bool,
) -> String {
    let program = &loaded.program;
    let mut out = format!("{} ({})\n", program.name, shown(&loaded.path));
    if let Some(opts) = options_text(program) {
        let _ = writeln!(out, "options: {opts}");
    }
    if let Some(c) = computer {
        let _ = writeln!(
            out,
            "you play {}, the computer plays {} ({}, seed {seed})",
            player_name(program, 1 - c),
            player_name(program, c),
            spec.map_or_else(
                || "random".to_string(),
                |s| match s {
                    AgentSpec::Random => "random moves".to_string(),
                    other => other.to_string(),
                }
            )
        );
    }
    if program.has_chance() {
        let who = match (rolls, computer) {
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

/// Plays on one program from the position after `start` until quit, the end, or a load.
/// `header` is printed once the start moves are known to be legal.
fn session(
    loaded: &Loaded,
    start: &[String],
    from: &str,
    header: Option<String>,
    console: &mut Console,
) -> Result<Next> {
    let mut game = Game {
        loaded,
        board: BoardGame::new(loaded.engine()),
        history: Vec::new(),
        agent: console.agent.build(console.seed),
    };
    game.play_start(start, from)?;
    if crate::runtime::Game::out_of_steps(&mut game.board) {
        // No board and no "game over": the caller reports E1008.
        return Ok(Next::Quit);
    }
    if let Some(h) = header {
        emit(&h)?;
    }
    emit(&format!("\n{}", draw(&mut game.board.engine)))?;
    let next = game.turns(console)?;
    if let (Next::Quit, Some(path)) = (&next, &console.record) {
        game.save(path)?;
    }
    Ok(next)
}
/// One program's game in progress.
struct Game<'p> {
    loaded: &'p Loaded,
    /// The engine, behind the interface agents think through. Moves are applied on its
    /// engine directly, with their undo records in `history`; agents undo what they try.
    board: BoardGame<'p>,
    /// Every move from the start, with what takes it back.
    history: Vec<Taken>,
    /// The computer player (or, when two people play, the adviser `hint` asks).
    agent: Box<dyn Agent<BoardGame<'p>> + 'p>,
}

impl Game<'_> {
    /// Turns until quit, the end of the game, or a load.
    fn turns(&mut self, console: &mut Console) -> Result<Next> {
        loop {
            if self.board.engine.exhausted || self.board.engine.outcome().is_some() {
                return Ok(Next::Quit);
            }
            let mover = self.board.engine.state.mover;
            if console.computer == Some(mover) {
                self.computer_move(&mut console.rng)?;
                continue;
            }
            if console.rolls && self.roll(&mut console.rng)? {
                continue;
            }
            let prompt = format!("{}> ", player_name(&self.loaded.program, mover));
            let Some(line) = console.read_line(&prompt)? else {
                return Ok(Next::Quit);
            };
            if let Some(next) = self.command(&line, console)? {
                return Ok(next);
            }
        }
    }

    /// Plays the opening moves (`--after`, or a loaded record's moves).
    fn play_start(&mut self, start: &[String], from: &str) -> Result<()> {
        super::load::list_fits(start.len(), || format!("move {} of {from}", start.len()))?;
        for (i, text) in start.iter().enumerate() {
            let place = format!("move {} of {from}, `{text}`,", i + 1);
            match find_move(&mut self.board.engine, text) {
                Ok(m) => self.apply(&m, By::Start),
                Err(BadMove::GameOver(r)) => {
                    return Err(
                        CliError::new(format!("{place} comes after the end of the game"))
                            .note(format!("the game ended: {r}"))
                            .into(),
                    )
                }
                Err(BadMove::Illegal { notes }) => {
                    return Err(CliError::new(format!("{place} is not a legal move"))
                        .notes(notes)
                        .into())
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, m: &Move, by: By) {
        let text = normalize(&self.board.engine.move_text(m));
        let undo = self.board.engine.apply(m);
        self.history.push(Taken { undo, text, by });
        self.agent.observe(m);
    }

    /// When chance takes the next move: a roll drawn at random among the open ones, as chance
    /// would, and `true`.
    fn roll(&mut self, rng: &mut ChaCha8Rng) -> Result<bool> {
        // Only the chosen roll is written in notation: this runs before every person's turn.
        let mut legal = Vec::new();
        self.board.engine.legal_moves(&mut legal);
        if legal.is_empty() || !self.board.engine.chance() {
            return Ok(false);
        }
        let mover = self.board.engine.state.mover;
        let m = legal[rng.gen_range(0..legal.len())];
        self.apply(&m, By::Program);
        let text = self.history.last().map_or("", |t| t.text.as_str());
        emit(&format!(
            "chance for {}: {text}\n\n{}",
            player_name(&self.loaded.program, mover),
            draw(&mut self.board.engine)
        ))?;
        Ok(true)
    }

    /// The computer's turn: its agent's move (a roll is drawn at random, as chance would).
    fn computer_move(&mut self, rng: &mut ChaCha8Rng) -> Result<()> {
        let mover = self.board.engine.state.mover;
        let legal = legal_with_text(&mut self.board.engine);
        if legal.is_empty() {
            return Ok(());
        }
        let (m, note) = if self.board.engine.chance() {
            (legal[rng.gen_range(0..legal.len())].0, String::new())
        } else {
            let spinner = thinking();
            let thought = self.agent.choose(&mut self.board);
            if let Some(s) = spinner {
                s.finish_and_clear();
            }
            match thought {
                Some(t) if t.value.is_some() => (t.decision, format!(" ({})", thought_note(&t))),
                Some(t) => (t.decision, String::new()),
                None => return Ok(()),
            }
        };
        let text = normalize(&self.board.engine.move_text(&m));
        self.apply(&m, By::Program);
        emit(&format!(
            "{} (computer) plays {text}{note}\n\n{}",
            player_name(&self.loaded.program, mover),
            draw(&mut self.board.engine)
        ))
    }

    /// `moves [PREFIX]`: the legal moves (those starting with PREFIX), in groups by their
    /// first parts when there are many.
    fn moves(&mut self, prefix: &str) -> Result<()> {
        let legal: Vec<String> = legal_with_text(&mut self.board.engine)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
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
        if self.board.engine.outcome().is_some() {
            return emit("the game is over\n");
        }
        if self.board.engine.chance() {
            return emit("chance decides this move: no hint\n");
        }
        let spinner = thinking();
        let thought = self.agent.choose(&mut self.board);
        if let Some(s) = spinner {
            s.finish_and_clear();
        }
        let Some(t) = thought else {
            return emit("no hint: no move is open\n");
        };
        let mut out = format!("hint ({}: {}):\n", self.agent.name(), thought_note(&t));
        let ranked = if t.ranked.is_empty() {
            vec![(t.decision, t.value.unwrap_or(0.5), 0)]
        } else {
            t.ranked.clone()
        };
        for (m, value, work) in ranked.iter().take(5) {
            let text = normalize(&self.board.engine.move_text(m));
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
        match word.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => emit(HELP)?,
            "quit" | "exit" | "q" => return Ok(Some(Next::Quit)),
            "board" => emit(&format!("\n{}", draw(&mut self.board.engine)))?,
            "moves" => self.moves(rest)?,
            "hint" => self.hint()?,
            "why" if rest.is_empty() => emit("usage: why MOVE\n")?,
            "why" => self.why(rest)?,
            "undo" => {
                undo(&mut self.board.engine, &mut self.history)?;
                self.agent.reset();
            }
            "save" | "load" if rest.is_empty() => emit(&format!("usage: {word} PATH\n"))?,
            "save" => self.save(Path::new(rest))?,
            "load" => return load(Path::new(rest), self.loaded.compiled),
            _ => self.human_move(line, console)?,
        }
        Ok(None)
    }

    /// `why MOVE`: whether the move is legal here and, when it is not, why not, as far as
    /// that can be told (the `require` that refuses it, which part no legal move has, a cell
    /// off the board, a near miss of a legal move's spelling), without playing it.
    fn why(&mut self, text: &str) -> Result<()> {
        match find_move(&mut self.board.engine, text) {
            Ok(m) => {
                let written = normalize(&self.board.engine.move_text(&m));
                emit(&format!("`{written}` is a legal move here\n"))
            }
            Err(BadMove::Illegal { mut notes }) => {
                let source = &self.loaded.source;
                if let Some(rule) = refusing_rules(&mut self.board.engine, source, text) {
                    notes.insert(0, rule);
                }
                let e = CliError::new(format!("`{}` is not a legal move", normalize(text)))
                    .notes(notes);
                emit(&format!("{e}\n"))
            }
            Err(BadMove::GameOver(r)) => emit(&format!("the game is over: {r}\n")),
        }
    }

    fn human_move(&mut self, line: &str, console: &mut Console) -> Result<()> {
        if let Some(m) = self.asked_move(line, console)? {
            self.apply(&m, By::Person);
            return emit(&format!("\n{}", draw(&mut self.board.engine)));
        }
        match find_move(&mut self.board.engine, line) {
            Ok(m) => {
                self.apply(&m, By::Person);
                emit(&format!("\n{}", draw(&mut self.board.engine)))
            }
            Err(BadMove::Illegal { notes }) => {
                let e = CliError::new(format!("`{}` is not a legal move", normalize(line)))
                    .notes(notes)
                    .note("type `moves` for the whole list, `help` for the commands");
                emit(&format!("{e}\n"))
            }
            Err(BadMove::GameOver(r)) => emit(&format!("the game is over: {r}\n")),
        }
    }

    /// A move whose notation has parts chosen by other players (`pick ... by p`), given by its
    /// first part only: each later choice is asked of the player who makes it (the computer
    /// chooses at random). `None` when `line` is no such first part, or a choice was not given.
    fn asked_move(&mut self, line: &str, console: &mut Console) -> Result<Option<Move>> {
        let text = normalize(line);
        if self.board.engine.outcome().is_some() {
            return Ok(None);
        }
        let mut legal = Vec::new();
        self.board.engine.legal_moves(&mut legal);
        let mut candidates: Vec<(Move, Vec<(u8, String)>)> = Vec::new();
        for m in legal {
            let parts = self.board.engine.move_parts(&m);
            if parts.len() > 1 && parts.first().is_some_and(|(_, t)| normalize(t) == text) {
                candidates.push((m, parts));
            }
        }
        let program = &self.loaded.program;
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
            let name = player_name(program, chooser);
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
        Ok(candidates.first().map(|(m, _)| *m))
    }

    fn save(&mut self, path: &Path) -> Result<()> {
        let texts: Vec<String> = self.history.iter().map(|t| t.text.clone()).collect();
        let rec = Record::of(&mut self.board.engine, &self.loaded.path, &texts);
        match record::write(path, &rec) {
            Ok(()) => emit(&format!(
                "saved {} to `{}`\n",
                super::plural(texts.len(), "move"),
                shown(path)
            )),
            Err(f) => report(&f),
        }
    }
}

/// `load PATH`: the record's game and moves, or the game goes on unchanged.
fn load(path: &Path, compiled: Compiled) -> Result<Option<Next>> {
    match load_record(path, compiled) {
        Ok((next, moves)) => {
            emit(&format!(
                "loaded `{}`: {} ({}{}), {}\n",
                shown(path),
                next.program.name,
                shown(&next.path),
                options_text(&next.program).map_or(String::new(), |o| format!("; {o}")),
                super::plural(moves.len(), "move"),
            ))?;
            Ok(Some(Next::Switch(Box::new(next), moves)))
        }
        Err(f) => {
            report(&f)?;
            emit("the game goes on unchanged\n")?;
            Ok(None)
        }
    }
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

/// Takes back one move, or against the computer as many as make it your turn again.
fn undo(engine: &mut Engine<'_>, history: &mut Vec<Taken>) -> Result<()> {
    let Some(last) = history.iter().rposition(|t| t.by != By::Program) else {
        return emit("nothing to undo\n");
    };
    let mut taken = Vec::new();
    while history.len() > last {
        let Some(t) = history.pop() else {
            break;
        };
        engine.undo(t.undo);
        taken.push(t.text);
    }
    emit(&format!(
        "took back {}\n\n{}",
        taken.join(", "),
        draw(engine)
    ))
}

/// Prints a failed `save` or `load` inside the game (diagnostics were already printed).
fn report(f: &Fail) -> Result<()> {
    match f {
        Fail::Error(e) => emit(&format!("{e}\n")),
        Fail::Reported => emit("error: the record's game file has errors (shown above)\n"),
        Fail::ReportedUsage => emit("error: the record's options are refused (shown above)\n"),
        Fail::Stopped => emit("error: stopped by a bound\n"),
    }
}

/// Reads a record, loads its game and checks that its moves replay.
fn load_record(path: &Path, compiled: Compiled) -> Result<(Loaded, Vec<String>)> {
    let (rec, loaded) = record::open(path, compiled)?;
    let moves = {
        let mut engine = loaded.engine();
        record::replay_moves(&mut engine, &rec, path)?
    };
    Ok((loaded, moves))
}

/// The moves separated by commas, wrapped at 80 columns.
fn wrap(moves: &[String]) -> String {
    if moves.is_empty() {
        return "no legal moves\n".to_string();
    }
    super::board::comma_lines("", moves, 80)
}
