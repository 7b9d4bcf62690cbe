//! The commands for table games (discs on a simulated or real table): loading, `play` (with
//! referee mode and the turn clock) and `replay`.

use std::fmt::Write as _;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::check::options::resolve;
use crate::diag;
use crate::ir::table::{self as tir, Army, TableProgram};
use crate::runtime::table::{Decision, TableMatch};
use crate::runtime::GameResult;
use crate::syntax::{self, ast};

use super::load::{parse, shown};
use super::{CliError, Fail, GameArgs, Result};

/// The first line of a table game's record.
pub(crate) const HEADER: &str = "rulestone-table-record 1";

/// A table game loaded for one set of options, with the armies each player may choose from.
pub(crate) struct LoadedTable {
    pub path: PathBuf,
    pub program: TableProgram,
    pub armies: [Vec<Army>; 2],
    /// Where each option came from, for records: `FILE:NAME`.
    pub army_sources: [Vec<String>; 2],
}

/// Reads, checks and lowers a table game and picks the armies.
pub(crate) fn load(args: &GameArgs) -> Result<LoadedTable> {
    let sets = super::load::split_sets(&args.set)?;
    if args.army.len() > 2 {
        return Err(
            CliError::new("at most two `--army` (the first player's, then the second's)").into(),
        );
    }
    let specs = [
        args.army.first().cloned().into_iter().collect(),
        args.army.get(1).cloned().into_iter().collect(),
    ];
    load_with(&args.file, &sets, &specs)
}

/// Loads a table game; `specs[p]` are player `p`'s armies, `FILE` (every army in a deck file)
/// or `FILE:NAME`, where FILE may be the game file itself; none means every army the game file
/// declares.
pub(crate) fn load_with(
    path: &Path,
    sets: &[(String, String)],
    specs: &[Vec<String>; 2],
) -> Result<LoadedTable> {
    let (source, file) = parse(path)?;
    let (game, program) = match lower_table(&file, sets) {
        Ok(lowered) => lowered,
        Err(TableError::Diags(errors)) => {
            eprint!(
                "{}",
                diag::render(&errors, &source, &shown(path), super::color_stderr())
            );
            return Err(Fail::Reported);
        }
        Err(TableError::Refused(e)) => return Err(e.into()),
        Err(TableError::Lowering(e)) => {
            return Err(CliError::new(format!("cannot build `{}`: {e}", shown(path))).into())
        }
    };
    let mut armies = [Vec::new(), Vec::new()];
    let mut sources = [Vec::new(), Vec::new()];
    for p in 0..2 {
        let own: Vec<String> = if specs[p].is_empty() {
            vec![shown(path)]
        } else {
            specs[p].clone()
        };
        for spec in &own {
            for (army, src) in armies_of(&game, &program, path, spec)? {
                armies[p].push(army);
                sources[p].push(src);
            }
        }
        if armies[p].is_empty() {
            return Err(CliError::new(format!(
                "{} has no army: `{}` declares none; give one with `--army FILE`",
                program.players.get(p).map_or("a player", String::as_str),
                shown(path)
            ))
            .into());
        }
    }
    Ok(LoadedTable {
        path: path.to_path_buf(),
        program,
        armies,
        army_sources: sources,
    })
}

/// Why a table game's file gave no program.
pub(crate) enum TableError {
    /// The checker's errors.
    Diags(Vec<diag::Diag>),
    /// A `--set` value refused.
    Refused(CliError),
    /// The lowering failed (its message).
    Lowering(String),
}

/// A table game's army rules and program from its parsed file and option and parameter
/// values (`--set`): check, parameters, options, lowering.
pub(crate) fn lower_table(
    file: &ast::File,
    sets: &[(String, String)],
) -> std::result::Result<(crate::check::table::TableGame, TableProgram), TableError> {
    let (checked, diags) = crate::check::check(file);
    let Some(game) = checked
        .filter(|_| !diag::has_errors(&diags))
        .and_then(|c| c.table)
    else {
        return Err(TableError::Diags(
            diags
                .into_iter()
                .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
                .collect(),
        ));
    };
    let (params, options) =
        tir::split_params(&game, sets).map_err(|e| TableError::Refused(CliError::new(e)))?;
    let env = resolve(file, &options).map_err(|e| {
        let params: Vec<&str> = game.params.iter().map(|(n, _)| n.as_str()).collect();
        TableError::Refused(
            CliError::new(e.to_string()).note(format!("parameters: {}", params.join(", "))),
        )
    })?;
    let name = file
        .items
        .iter()
        .find_map(|i| match &i.kind {
            ast::ItemKind::Game { name, .. } => Some(name.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let program =
        tir::lower(&name, &game, &params, &env).map_err(|e| TableError::Lowering(e.to_string()))?;
    Ok((game, program))
}

/// The armies of `FILE` or `FILE:NAME`: the game file's own, or a deck file's, checked against
/// the army rules.
fn armies_of(
    game: &crate::check::table::TableGame,
    program: &TableProgram,
    game_path: &Path,
    spec: &str,
) -> Result<Vec<(Army, String)>> {
    let (file, name) = match spec.rsplit_once(':') {
        Some((f, n)) if !f.is_empty() && !n.contains('/') => (f, Some(n)),
        _ => (spec, None),
    };
    let wanted = |n: &str| name.is_none_or(|w| w == n);
    let path = Path::new(file);
    let mut out = Vec::new();
    if shown(path) == shown(game_path) {
        for a in program.armies.iter().filter(|a| wanted(&a.name)) {
            out.push((a.clone(), format!("{}:{}", shown(path), a.name)));
        }
    } else {
        let source = super::load::read(path)?;
        let armies = match syntax::parse_deck(&source) {
            Ok(a) => a,
            Err(errors) => {
                let errors = diag::boxed(errors);
                eprint!(
                    "{}",
                    diag::render(&errors, &source, &shown(path), super::color_stderr())
                );
                return Err(Fail::Reported);
            }
        };
        for army in armies.iter().filter(|a| wanted(&a.name.name)) {
            let diags = crate::check::deck::check_army(game, army);
            if diag::has_errors(&diags) {
                eprint!(
                    "{}",
                    diag::render(&diags, &source, &shown(path), super::color_stderr())
                );
                return Err(Fail::Reported);
            }
            let resolved = tir::resolve_army(program, army).map_err(CliError::new)?;
            out.push((resolved, format!("{}:{}", shown(path), army.name.name)));
        }
    }
    if out.is_empty() {
        return Err(CliError::new(format!(
            "`{}` has no army{}",
            shown(path),
            name.map_or(String::new(), |n| format!(" `{n}`"))
        ))
        .into());
    }
    Ok(out)
}

/// Splits a `;`-separated list of decisions; a `result` keeps its own `;`-separated parts.
pub(crate) fn split_decisions(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in list.split(';').map(super::load::normalize) {
        if piece.is_empty() {
            continue;
        }
        let continues = ["capture ", "move ", "off "]
            .iter()
            .any(|p| piece.starts_with(p));
        match out.last_mut() {
            Some(last) if continues && last.starts_with("result") => {
                last.push_str("; ");
                last.push_str(&piece);
            }
            _ => out.push(piece),
        }
    }
    out
}

/// Plays `list` (`--after`, a record); `place(i)` names the i-th in messages.
fn play_all(
    m: &mut TableMatch<'_>,
    texts: &[String],
    place: impl Fn(usize) -> String,
) -> Result<()> {
    for (i, text) in texts.iter().enumerate() {
        if let Some(r) = m.outcome() {
            return Err(CliError::new(format!(
                "{}, `{text}`, comes after the end of the match",
                place(i)
            ))
            .note(format!("the match ended: {}", result_text(m, r)))
            .into());
        }
        let d = m.parse(text).map_err(|e| {
            CliError::new(format!(
                "{}, `{text}`, is not a decision of this game",
                place(i)
            ))
            .note(e.0)
        })?;
        m.apply(&d).map_err(|e| {
            CliError::new(format!("{}, `{text}`, is not legal", place(i))).note(e.0)
        })?;
    }
    Ok(())
}

pub(crate) fn result_text(m: &TableMatch<'_>, r: GameResult) -> String {
    match r {
        GameResult::Win(p) => format!("{} wins", m.player(p)),
        GameResult::Draw => "draw".into(),
    }
}

/// A match of a loaded table game from its deal, after the `--after` decisions.
pub(crate) fn start<'t>(
    t: &'t LoadedTable,
    deal: u64,
    after: Option<&str>,
) -> Result<TableMatch<'t>> {
    let mut m = TableMatch::new(&t.program, t.armies.clone(), deal);
    if let Some(list) = after {
        play_all(&mut m, &split_decisions(list), |i| {
            format!("decision {} of `--after`", i + 1)
        })?;
    }
    Ok(m)
}

/// A record of a table match.
fn record_text(t: &LoadedTable, deal: u64, m: &TableMatch<'_>, decisions: &[String]) -> String {
    let mut out = format!("{HEADER}\ngame {}\n", shown(&t.path));
    for (k, v) in &t.program.settings {
        let _ = writeln!(out, "option {k}={v}");
    }
    let _ = writeln!(out, "deal {deal}");
    for (i, sources) in t.army_sources.iter().enumerate() {
        for s in sources {
            let _ = writeln!(out, "army {} {s}", t.program.players[i]);
        }
    }
    for d in decisions {
        let _ = writeln!(out, "move {d}");
    }
    if let Some(r) = m.outcome() {
        let _ = writeln!(out, "result {}", result_text(m, r));
    }
    out
}

/// Whether a file is a table record (by its first line).
pub(crate) fn is_record(path: &Path) -> bool {
    super::read_file(path).is_ok_and(|s| s.lines().next() == Some(HEADER))
}

/// A table record read for `replay`: the game with its options, deal and each player's
/// armies, and the decisions with their lines.
pub(crate) fn read_record(path: &Path) -> Result<super::replay::Replaying> {
    let text = super::load::read(path)?;
    let mut game = None;
    let mut sets = Vec::new();
    let mut deal = 1;
    let mut armies = Vec::new();
    let mut decisions = Vec::new();
    let mut result = None;
    for (n, line) in text.lines().enumerate().skip(1) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || CliError::new(format!("{}:{}: cannot read `{line}`", shown(path), n + 1));
        let (key, rest) = line.split_once(' ').ok_or_else(bad)?;
        match key {
            "game" => game = Some(PathBuf::from(rest)),
            "option" => sets.push(rest.to_string()),
            "deal" => deal = rest.parse().map_err(|_| bad())?,
            "army" => {
                let (player, spec) = rest.split_once(' ').ok_or_else(bad)?;
                armies.push((player.to_string(), spec.to_string()));
            }
            "move" => decisions.push((n + 1, rest.to_string())),
            "result" => result = Some((n + 1, rest.to_string())),
            _ => return Err(bad().note("a table record has `game`, `option`, `deal`, `army`, `move` and `result` lines").into()),
        }
    }
    let game = game.ok_or_else(|| CliError::new(format!("{}: no `game` line", shown(path))))?;
    let (_, file) = parse(&game)?;
    let players: Vec<String> = file
        .items
        .iter()
        .find_map(|i| match &i.kind {
            ast::ItemKind::Players(ps) => Some(ps.iter().map(|p| p.name.clone()).collect()),
            _ => None,
        })
        .unwrap_or_default();
    let mut specs = [Vec::new(), Vec::new()];
    for (player, spec) in armies {
        let p = players.iter().position(|n| *n == player).filter(|&p| p < 2);
        let p = p.ok_or_else(|| CliError::new(format!("{}: no player `{player}`", shown(path))))?;
        specs[p].push(spec);
    }
    Ok(super::replay::Replaying {
        game: GameArgs {
            file: game,
            set: sets,
            army: Vec::new(),
            deal,
        },
        armies: Some(specs),
        moves: super::replay::Moves::Recorded(decisions),
        result,
        record: Some(path.to_path_buf()),
    })
}

/// A visible turn clock: the line above the prompt shows the time left, redrawn every half
/// second while the player types (on a terminal only).
struct Clock {
    started: Arc<Mutex<Instant>>,
    limit: f64,
    stop: Arc<AtomicBool>,
}

impl Clock {
    fn new(limit: f64) -> Clock {
        let clock = Clock {
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

    fn restart(&mut self) {
        if let Ok(mut s) = self.started.lock() {
            *s = Instant::now();
        }
    }

    fn left(&self) -> f64 {
        let elapsed = self
            .started
            .lock()
            .map_or(0.0, |s| s.elapsed().as_secs_f64());
        (self.limit - elapsed).max(0.0)
    }
}

impl Drop for Clock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn clock_text(seconds: f64) -> String {
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let s = seconds.ceil() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

const PLAY_HELP: &str = "\
commands:
  DECISION     a shot `CARD STONE ANGLE@SPEED`, e.g. `C1 XA2 15@22.5` (referee mode:
               `CARD STONE`, then its result), the free shot `free STONE ANGLE@SPEED`,
               `skip CARD`, `result capture STONE; move STONE X,Y; off STONE` or `result none`,
               `penalty NAME PLAYER` (a warning) or `penalty NAME STONE` (the stone is lost),
               `time` (end the turn now), `time match` (the match clock ran out)
  moves        list the decisions open now
  stones       every stone on the table with its position
  undo         take back the last decision
  board        draw the table again
  save PATH    write the match so far to a record file
  help         this list
  quit         stop";

/// `rulestone play` for a table game: simulation or referee mode, with the turn clock.
pub(crate) fn play(
    args: &GameArgs,
    after: Option<&str>,
    computer: Option<&crate::agents::AgentSpec>,
    seed: u64,
    record: Option<&Path>,
) -> Result<()> {
    let t = load(args)?;
    let mut m = TableMatch::new(&t.program, t.armies.clone(), args.deal);
    let mut played: Vec<String> = Vec::new();
    if let Some(list) = after {
        let texts = split_decisions(list);
        play_all(&mut m, &texts, |i| {
            format!("decision {} of `--after`", i + 1)
        })?;
        played.extend(texts);
    }
    let mode = if t.program.referee {
        "referee mode: type each shot's outcome"
    } else {
        "simulation"
    };
    println!("{} ({mode}); type `help` for commands", t.program.name);
    for l in &m.position.log {
        println!("  {l}");
    }
    print!("{}{}", m.render(), m.status());
    let mut agent = computer.map(|spec| spec.build::<TableMatch>(seed));
    let mut clock = t.program.turn_clock.map(Clock::new);
    let match_clock = t.program.match_clock.map(|s| (Instant::now(), s));
    let match_left = || match_clock.map(|(start, s)| (s - start.elapsed().as_secs_f64()).max(0.0));
    let mut turn_key = (m.position.turns, m.position.mover);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if let Some(r) = m.outcome() {
            println!("the match is over: {}", result_text(&m, r));
            break;
        }
        if (m.position.turns, m.position.mover) != turn_key {
            turn_key = (m.position.turns, m.position.mover);
            if let Some(c) = &mut clock {
                c.restart();
            }
        }
        if let Some(agent) = agent.as_mut().filter(|_| m.position.mover == 1) {
            // The match may have changed by the person's decisions and undos since: think
            // afresh.
            agent.reset();
            if let Some(d) = agent.choose(&mut m).map(|t| t.decision) {
                let text = m.decision_text(&d);
                if m.apply(&d).is_ok() {
                    println!("{} plays {text}", m.player(1));
                    for l in &m.position.log {
                        println!("  {l}");
                    }
                    played.push(text);
                    continue;
                }
            }
        }
        if let Some(left) = match_left().filter(|_| !m.position.sudden_death) {
            println!("  match clock: {} left", clock_text(left));
        }
        if let Some(c) = &clock {
            println!("  clock: {} left", clock_text(c.left()));
        }
        print!("{}> ", m.player(m.position.mover));
        let _ = io::stdout().flush();
        let Some(Ok(line)) = lines.next() else {
            println!();
            break;
        };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        // A shot in motion finishes; otherwise the match, or the turn, ends when its clock
        // runs out.
        let match_over = match_left().is_some_and(|l| l <= 0.0) && !m.position.sudden_death;
        if match_over && m.position.awaiting.is_none() && m.apply(&Decision::MatchTime).is_ok() {
            println!("  the match clock ran out");
            played.push("time match".into());
            print!("{}{}", m.render(), m.status());
            continue;
        }
        if let Some(c) = &clock {
            if c.left() <= 0.0 && m.position.awaiting.is_none() && m.apply(&Decision::Time).is_ok()
            {
                println!("  time is up: the turn ends");
                played.push("time".into());
                print!("{}{}", m.render(), m.status());
                continue;
            }
        }
        match line.as_str() {
            "quit" | "exit" => break,
            "help" => println!("{PLAY_HELP}"),
            "board" => print!("{}{}", m.render(), m.status()),
            "stones" => println!("{}", m.stone_list().join("\n")),
            "moves" => {
                for c in m.choices() {
                    println!("  {}", m.choice_text(&c));
                }
            }
            "undo" => {
                if m.undo() {
                    played.pop();
                    print!("{}{}", m.render(), m.status());
                } else {
                    println!("nothing to undo");
                }
            }
            _ if line.starts_with("save ") => {
                let p = PathBuf::from(line["save ".len()..].trim());
                match std::fs::write(&p, record_text(&t, args.deal, &m, &played)) {
                    Ok(()) => println!("saved to {}", shown(&p)),
                    Err(e) => println!("error: {}", CliError::io("write", &p, &e)),
                }
            }
            _ => match m.parse(&line).and_then(|d| {
                let text = m.decision_text(&d);
                m.apply(&d).map(|()| text)
            }) {
                Ok(text) => {
                    for l in &m.position.log {
                        println!("  {l}");
                    }
                    played.push(text);
                    print!("{}{}", m.render(), m.status());
                }
                Err(e) => println!("error: {}", e.0),
            },
        }
    }
    if let Some(p) = record {
        std::fs::write(p, record_text(&t, args.deal, &m, &played))
            .map_err(|e| CliError::io("write", p, &e))?;
    }
    Ok(())
}
