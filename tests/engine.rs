//! The engine protocol (`rulestone engine`): a transcript, whole games driven through the
//! binary and checked against `replay`, hostile lines that each answer an error while the
//! session goes on, and the action ids of every bundled game (round trips, distinct ids in
//! every position, ids in range, and the table of sizes in `docs/actions.md`).

mod common;

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rulestone::engine::{serve, Config};
use rulestone::runtime::Compiled;
use rulestone::session::{Game, Position, MAX_ACTIONS, MAX_JSON_ACTIONS};
use serde_json::{json, Value};

use common::cli::{run, stdout};
use common::root;

/// A game file's text.
fn source(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).expect("read game")
}

/// The game at `path` (relative to the crate root) for its default options.
fn game(path: &str) -> Game {
    Game::load(path, source(path), &[], Compiled::NONE).expect("game loads")
}

/// Serves `lines` on the game at `path` through the library; each answer line.
fn serve_lines(path: &str, lines: &[String]) -> Vec<String> {
    let config = Config {
        name: path.to_string(),
        source: source(path),
        sets: Vec::new(),
        compiled: Compiled::NONE,
    };
    let input = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
    let mut reader = std::io::Cursor::new(input.into_bytes());
    let mut out = Vec::new();
    serve(&config, game(path), &mut reader, &mut out).expect("serve");
    String::from_utf8(out)
        .expect("answers are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn parse(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("answer is no JSON ({e}): {line}"))
}

#[test]
fn transcript() {
    let requests = [
        r#"{"cmd": "info", "id": 1}"#,
        r#"{"cmd": "legal", "id": 2}"#,
        r#"{"cmd": "apply", "move": "b2", "id": 3}"#,
        r#"{"cmd": "apply", "action": 1, "id": 4}"#,
        r#"{"cmd": "apply", "move": "b2", "id": 5}"#,
        r#"{"cmd": "undo", "id": 6}"#,
        r#"{"cmd": "go", "agent": "alphabeta", "depth": 4, "id": 7}"#,
        r#"{"cmd": "new", "moves": ["a1", "b1", "a2", "b2", "a3"], "id": 8}"#,
        r#"{"cmd": "state", "record": true, "id": 9}"#,
        r#"{"cmd": "apply", "move": "c3", "id": 10}"#,
        r#"{"cmd": "quit", "id": 11}"#,
    ];
    let lines: Vec<String> = requests.iter().map(ToString::to_string).collect();
    let answers = serve_lines("games/tictactoe.game", &lines);
    let mut transcript = String::new();
    for (request, answer) in requests.iter().zip(&answers) {
        // The account of an agent's work holds its time, which differs from run to run.
        let mut answer = parse(answer);
        if answer.get("summary").is_some() {
            answer["summary"] = json!("(timing)");
        }
        let _ = writeln!(transcript, "> {request}\n< {answer}");
    }
    assert_eq!(answers.len(), requests.len(), "{transcript}");
    insta::with_settings!({
        snapshot_path => "../snapshots/engine",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!("transcript", transcript);
    });
}

#[test]
fn hostile_lines_each_answer_an_error_and_the_session_goes_on() {
    let huge = format!(r#"{{"cmd": "apply", "move": "{}"}}"#, "x".repeat(3 << 20));
    let hostile = [
        ("not json", "bad-json"),
        ("[1, 2]", "bad-request"),
        (r#"{"id": 5}"#, "missing-field"),
        (r#"{"cmd": 7}"#, "bad-field"),
        (r#"{"cmd": "fly"}"#, "unknown-command"),
        (r#"{"cmd": "apply"}"#, "missing-field"),
        (r#"{"cmd": "apply", "move": 3}"#, "bad-field"),
        (r#"{"cmd": "apply", "move": "z9"}"#, "illegal-move"),
        (r#"{"cmd": "apply", "action": 99999}"#, "bad-action"),
        (r#"{"cmd": "apply", "action": -1}"#, "bad-field"),
        (r#"{"cmd": "go", "agent": "wizard"}"#, "bad-agent"),
        (r#"{"cmd": "go", "seconds": -1}"#, "bad-field"),
        (r#"{"cmd": "new", "set": {"size": 4}}"#, "bad-option"),
        (r#"{"cmd": "new", "record": "hello"}"#, "bad-record"),
        (r#"{"cmd": "new", "moves": [true]}"#, "bad-field"),
        (huge.as_str(), "line-too-long"),
        (
            r#"{"cmd": "new", "moves": ["a1", "b1", "a2", "b2", "a3"]}"#,
            "",
        ),
        (r#"{"cmd": "apply", "move": "c3"}"#, "game-over"),
        (r#"{"cmd": "go"}"#, "game-over"),
        (r#"{"cmd": "new"}"#, ""),
        (r#"{"cmd": "undo"}"#, "nothing-to-undo"),
    ];
    let mut lines: Vec<String> = hostile.iter().map(|(l, _)| (*l).to_string()).collect();
    lines.push(r#"{"cmd": "state", "id": "alive"}"#.to_string());
    let answers = serve_lines("games/tictactoe.game", &lines);
    assert_eq!(answers.len(), lines.len(), "one answer a line");
    for ((line, code), answer) in hostile.iter().zip(&answers) {
        let answer = parse(answer);
        let got = answer["error"]["code"].as_str().unwrap_or("");
        let shown: String = line.chars().take(60).collect();
        assert_eq!(got, *code, "{shown}: {answer}");
    }
    let last = parse(answers.last().map_or("", String::as_str));
    assert_eq!(last["id"], json!("alive"));
    assert_eq!(last["ply"], json!(0));
}

/// Sends one request to a running engine and reads its answer.
fn ask(
    stdin: &mut impl Write,
    answers: &mut impl Iterator<Item = std::io::Result<String>>,
    request: &Value,
) -> Value {
    writeln!(stdin, "{request}").expect("write request");
    stdin.flush().expect("flush");
    let line = answers.next().expect("an answer").expect("read answer");
    let answer = parse(&line);
    assert!(answer.get("error").is_none(), "{request} → {answer}");
    answer
}

/// Plays a whole game of `path` through the binary, random legal moves by action id from a
/// seeded generator, and checks the result against `replay` of the same moves.
fn whole_game(path: &str, seed: u64) {
    let mut child = common::cli::cmd(&["engine", path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut answers = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut played = Vec::new();
    let state = loop {
        let legal = ask(&mut stdin, &mut answers, &json!({ "cmd": "legal" }));
        if legal["over"] == json!(true) {
            break legal;
        }
        let moves = legal["moves"].as_array().expect("moves");
        let chosen = moves.choose(&mut rng).expect("a legal move");
        let applied = ask(
            &mut stdin,
            &mut answers,
            &json!({ "cmd": "apply", "action": chosen["action"] }),
        );
        assert_eq!(applied["played"], chosen["move"]);
        played.push(chosen["move"].as_str().unwrap_or_default().to_string());
        assert!(played.len() < 2000, "{path}: the game never ended");
    };
    let quit = ask(&mut stdin, &mut answers, &json!({ "cmd": "quit" }));
    assert_eq!(quit["quit"], json!(true));
    drop(stdin);
    assert!(child.wait().expect("engine ends").success());
    let list = played.join("; ");
    let replayed = run(&["replay", path, "--moves", &list]);
    let result = state["result"].as_str().expect("a result");
    assert!(
        stdout(&replayed).ends_with(&format!("result: {result}\n")),
        "{path}: engine says {result}, replay says\n{}",
        stdout(&replayed)
    );
}

#[test]
fn whole_games_through_the_binary_agree_with_replay() {
    whole_game("games/tictactoe.game", 1);
    whole_game("games/connect4.game", 2);
    whole_game("games/breakthrough.game", 3);
}

/// Every bundled board game with its path, for its default options.
fn bundled() -> Vec<(String, Game)> {
    let mut paths: Vec<_> = std::fs::read_dir(root().join("games"))
        .expect("games/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let name = format!("games/{}", p.file_name()?.to_string_lossy());
            let text = std::fs::read_to_string(&p).ok()?;
            Game::load(&name, text, &[], Compiled::NONE)
                .ok()
                .map(|g| (name, g))
        })
        .collect()
}

/// Checks the action ids of the legal moves of this position: in range, distinct, and each
/// decoding to its move.
fn check_ids(position: &mut Position<'_>, name: &str) {
    let Ok(space) = position.game().actions() else {
        return;
    };
    let legal = position.legal();
    let mut ids = Vec::with_capacity(legal.len());
    for m in &legal {
        let id = m
            .action
            .unwrap_or_else(|| panic!("{name}: `{}` has no id", m.text));
        assert!(id < space.size(), "{name}: id {id} out of range");
        assert_eq!(
            space.decisions(id),
            Ok(m.decisions),
            "{name}: id {id} round trip"
        );
        ids.push(id);
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), legal.len(), "{name}: two moves share an id");
}

#[test]
fn action_ids_round_trip_in_random_positions_of_every_bundled_game() {
    let games = bundled();
    assert!(games.len() > 10, "bundled games load");
    for (i, (name, game)) in games.iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
        for _ in 0..3 {
            let mut position = Position::new(game);
            for _ in 0..60 {
                check_ids(&mut position, name);
                let legal = position.legal();
                let Some(m) = legal.choose(&mut rng) else {
                    break;
                };
                position.play(m.decisions);
            }
        }
    }
}

/// The table of action space sizes that `docs/actions.md` holds between its markers.
fn size_table() -> String {
    let mut table =
        String::from("| game | radix per decision | longest move | `num_distinct_actions` |\n");
    table.push_str("|---|---|---:|---:|\n");
    for (name, game) in bundled() {
        let file = Path::new(&name)
            .file_name()
            .map_or(String::new(), |f| f.to_string_lossy().into_owned());
        let _ = match game.actions() {
            Ok(s) => writeln!(
                table,
                "| `{file}` | {} | {} | {} |",
                s.radices()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" · "),
                s.longest(),
                if s.for_json().is_ok() {
                    s.size().to_string()
                } else {
                    format!("{} (past 2^53: JSON front ends use notation)", s.size())
                }
            ),
            Err(_) => writeln!(table, "| `{file}` | | | over 2^63: notation only |"),
        };
    }
    table
}

#[test]
fn the_documented_sizes_are_the_games_sizes() {
    assert_eq!((MAX_ACTIONS, MAX_JSON_ACTIONS), (1 << 63, 1 << 53));
    let path = root().join("docs/actions.md");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let (begin, end) = ("<!-- sizes: begin -->\n", "<!-- sizes: end -->");
    let table = size_table();
    let found = text
        .split_once(begin)
        .and_then(|(_, rest)| rest.split_once(end))
        .map(|(t, _)| t);
    if found != Some(table.as_str()) && std::env::var_os("RULESTONE_BLESS").is_some() {
        let (head, tail) = text.split_once(begin).unwrap_or((text.as_str(), ""));
        let tail = tail.split_once(end).map_or("\n", |(_, t)| t);
        let fresh = format!("{head}{begin}{table}{end}{tail}");
        std::fs::write(&path, fresh).expect("write docs/actions.md");
        return;
    }
    assert_eq!(
        found,
        Some(table.as_str()),
        "docs/actions.md is out of date: run this test with RULESTONE_BLESS=1"
    );
}

#[test]
fn new_loads_the_game_anew_for_other_option_values() {
    let lines: Vec<String> = [
        r#"{"cmd": "new", "set": {"size": 3}, "moves": ["a1"], "id": "small"}"#,
        r#"{"cmd": "info"}"#,
        r#"{"cmd": "new", "set": {"size": 99}}"#,
        r#"{"cmd": "state"}"#,
        r#"{"cmd": "new"}"#,
        r#"{"cmd": "info"}"#,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let answers: Vec<Value> = serve_lines("games/hex.game", &lines)
        .iter()
        .map(|a| parse(a))
        .collect();
    assert_eq!(answers.len(), lines.len());
    assert_eq!(answers[0]["id"], json!("small"));
    assert_eq!(answers[0]["ply"], json!(1));
    assert_eq!(answers[1]["num_distinct_actions"], json!(10));
    assert_eq!(answers[2]["error"]["code"], json!("bad-option"));
    assert_eq!(
        answers[3]["moves"],
        json!(["a1"]),
        "a refused `new` keeps the game"
    );
    assert_eq!(answers[5]["options"]["size"], json!("11"));
    assert_eq!(answers[5]["num_distinct_actions"], json!(122));
}

/// A space past 2^53 ids (draughts': the Python package numbers it) has no ids where they are
/// JSON numbers: `info` says why, legal moves carry `null`, and an id is refused.
#[test]
fn a_space_past_json_numbers_is_played_by_notation() {
    let lines: Vec<String> = [
        r#"{"cmd": "info"}"#,
        r#"{"cmd": "legal"}"#,
        r#"{"cmd": "apply", "action": 1128}"#,
        r#"{"cmd": "apply", "move": "c3-d4"}"#,
    ]
    .iter()
    .map(ToString::to_string)
    .collect();
    let answers: Vec<Value> = serve_lines("games/draughts.game", &lines)
        .iter()
        .map(|a| parse(a))
        .collect();
    assert_eq!(answers[0]["num_distinct_actions"], Value::Null);
    let reason = answers[0]["action_space_error"]
        .as_str()
        .unwrap_or_default();
    assert!(reason.contains("2^53"), "{reason}");
    assert!(
        answers[1].to_string().contains("\"action\":null"),
        "{}",
        answers[1]
    );
    assert_eq!(answers[2]["error"]["code"], json!("no-action-ids"));
    assert_eq!(answers[3]["ply"], json!(1));
}

/// Observation tensors (`rulestone::session::observe`, what the Python package returns): the
/// shape is the program's alone, every value is written, pieces are per observer, and the
/// player to move is a constant plane; in random positions of every bundled game.
#[test]
fn observations_have_the_programs_shape_in_random_positions_of_every_bundled_game() {
    use rulestone::session::observe;
    for (i, (name, game)) in bundled().iter().enumerate() {
        let (planes, cells) = observe::shape(&game.program);
        assert_eq!(planes, observe::planes(&game.program, 1).len(), "{name}");
        let mut rng = ChaCha8Rng::seed_from_u64(i as u64);
        let mut position = Position::new(game);
        for _ in 0..30 {
            let mover = position.to_move();
            for observer in [0u8, 1] {
                let mut out = vec![f32::NAN; planes * cells];
                observe::write(position.engine(), observer, &mut out);
                assert!(
                    out.iter().all(|v| v.is_finite()),
                    "{name}: a value unwritten"
                );
                let to_move = &out[(planes - 1) * cells..];
                let expected = if observer == mover { 1.0 } else { 0.0 };
                assert!(
                    to_move.iter().all(|&v| v == expected),
                    "{name}: to-move plane"
                );
                let pieces = 2 * game.program.pieces.len() * cells;
                let on_board = out[..pieces].iter().filter(|&&v| v == 1.0).count();
                let occupied = position.engine().state.board.iter().filter(|&&c| c != 0);
                assert_eq!(
                    on_board,
                    occupied.count(),
                    "{name}: one piece plane per piece"
                );
            }
            let legal = position.legal();
            let Some(m) = legal.choose(&mut rng) else {
                break;
            };
            position.play(m.decisions);
        }
    }
}
