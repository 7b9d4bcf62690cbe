//! The commands: one request object in, one answer object out.
//!
//! A request is `{"cmd": NAME, ...fields}` with an optional `id` of any JSON value, echoed in
//! its answer. An answer holds the command's fields, or `{"error": {"code", "message",
//! "notes"}}`; it never ends the session. The commands are `info`, `new`, `legal`, `apply`,
//! `undo`, `state`, `go` and `quit`.

use rulestone_agents::AgentSpec;
use rulestone_runtime::{BoardGame, Game as _, GameResult};
use rulestone_session::{board, record::Record, BadAction, BadMove, Game, Position};
use serde_json::{json, Map, Value};

use super::Config;

/// An error answer: a stable code, a message, and notes saying why or what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    pub notes: Vec<String>,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    fn notes(mut self, notes: Vec<String>) -> Refusal {
        self.notes = notes;
        self
    }

    /// The `error` object of an answer.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut error = json!({ "code": self.code, "message": self.message });
        if !self.notes.is_empty() {
            error["notes"] = json!(self.notes);
        }
        error
    }
}

type Answer = Result<Value, Refusal>;

/// What a line does to the session.
pub(crate) enum Step {
    /// Answer and read on.
    Answer(Value),
    /// Answer (when there is an answer now) and end this session: a reload's answer is
    /// written once the game is loaded anew and the opening played.
    End(Option<Value>, End),
}

/// How a session ends.
pub(crate) enum End {
    Quit,
    /// `new` with other option values: the game loaded anew, and the moves to play on it.
    Reload(Box<Reload>),
}

pub(crate) struct Reload {
    pub game: Game,
    pub sets: Vec<(String, String)>,
    pub id: Option<Value>,
    pub opening: Opening,
}

/// A move as a request gives it: notation or an action id.
#[derive(Clone, Debug)]
enum MoveRef {
    Text(String),
    Action(u64),
}

/// The moves `new` plays from the start, and the result a record claims they reach.
#[derive(Clone, Debug, Default)]
pub(crate) struct Opening {
    moves: Vec<MoveRef>,
    claimed: Option<String>,
}

/// The answer `value` with the request's `id`, when it had one.
pub(crate) fn with_id(value: Answer, id: Option<Value>) -> Value {
    let mut value = match value {
        Ok(v) => v,
        Err(refusal) => json!({ "error": refusal.to_json() }),
    };
    if let (Some(id), Some(map)) = (id, value.as_object_mut()) {
        map.insert("id".to_string(), id);
    }
    value
}

/// A game in play and the option values it was loaded with.
pub(crate) struct Session<'g> {
    config: &'g Config,
    position: Position<'g>,
    sets: Vec<(String, String)>,
}

impl<'g> Session<'g> {
    pub fn new(config: &'g Config, game: &'g Game, sets: Vec<(String, String)>) -> Session<'g> {
        Session {
            config,
            position: Position::new(game),
            sets,
        }
    }

    /// Answers one line.
    pub fn handle(&mut self, line: &str) -> Step {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                let refusal = Refusal::new("bad-json", format!("the line is not JSON: {e}"));
                return Step::Answer(with_id(Err(refusal), None));
            }
        };
        let Some(request) = request.as_object() else {
            let refusal = Refusal::new("bad-request", "a request is a JSON object");
            return Step::Answer(with_id(Err(refusal), None));
        };
        let id = request.get("id").cloned();
        let cmd = match request.get("cmd") {
            Some(Value::String(cmd)) => cmd.as_str(),
            Some(_) => return Step::Answer(with_id(Err(mistyped("cmd", "a string")), id)),
            None => {
                let refusal = Refusal::new("missing-field", "the request has no `cmd`")
                    .notes(vec![COMMANDS.to_string()]);
                return Step::Answer(with_id(Err(refusal), id));
            }
        };
        let answer = match cmd {
            "info" => Ok(self.info()),
            "new" => match self.new_game(request) {
                Ok(Some(reload)) => {
                    let reload = Reload { id, ..reload };
                    return Step::End(None, End::Reload(Box::new(reload)));
                }
                Ok(None) => return Step::Answer(with_id(self.open(self.opening(request)), id)),
                Err(refusal) => Err(refusal),
            },
            "legal" => Ok(self.legal()),
            "apply" => self.apply(request),
            "undo" => self.undo(),
            "state" => self.state(request),
            "go" => self.go(request),
            "quit" => return Step::End(Some(with_id(Ok(json!({ "quit": true })), id)), End::Quit),
            other => Err(
                Refusal::new("unknown-command", format!("no command `{other}`"))
                    .notes(vec![COMMANDS.to_string()]),
            ),
        };
        Step::Answer(with_id(answer, id))
    }

    /// `info`: the game, its players and options, and its action space.
    fn info(&self) -> Value {
        let game = self.position.game();
        let program = &game.program;
        let options: Map<String, Value> = program
            .options
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        let mut info = json!({
            "game": program.name,
            "players": program.players,
            "options": options,
            "chance": program.has_chance(),
        });
        match game.json_actions() {
            Ok(space) => {
                info["num_distinct_actions"] = json!(space.size());
                info["action_radix"] = json!(space.radix());
                info["action_longest"] = json!(space.longest());
            }
            Err(e) => {
                info["num_distinct_actions"] = Value::Null;
                info["action_space_error"] = json!(e.to_string());
            }
        }
        info
    }
}

/// The commands, for the notes of an unknown or missing one.
const COMMANDS: &str =
    "the commands are `info`, `new`, `legal`, `apply`, `undo`, `state`, `go` and `quit`";

/// A field of the wrong type.
fn mistyped(field: &str, wanted: &str) -> Refusal {
    Refusal::new("bad-field", format!("`{field}` must be {wanted}"))
}

/// An optional string field.
fn string_field<'r>(
    request: &'r Map<String, Value>,
    field: &str,
) -> Result<Option<&'r str>, Refusal> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(mistyped(field, "a string")),
    }
}

/// An optional whole-number field.
fn count_field(request: &Map<String, Value>, field: &str) -> Result<Option<u64>, Refusal> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| mistyped(field, "a whole number, 0 or more")),
    }
}

/// An optional boolean field (false when absent).
fn flag_field(request: &Map<String, Value>, field: &str) -> Result<bool, Refusal> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(mistyped(field, "true or false")),
    }
}

/// A move typed as text that is not played, as a refusal.
fn bad_move(text: &str, bad: BadMove) -> Refusal {
    match bad {
        BadMove::GameOver(result) => Refusal::new(
            "game-over",
            format!("`{text}` comes after the end of the game"),
        )
        .notes(vec![format!("the game ended: {result}")]),
        BadMove::Illegal { notes } => {
            Refusal::new("illegal-move", format!("`{text}` is not a legal move")).notes(notes)
        }
        BadMove::Ambiguous(same) => {
            Refusal::new("same-notation", same.message()).notes(vec![same.note()])
        }
    }
}

/// A move given by id that is not played, as a refusal.
fn bad_action(bad: &BadAction) -> Refusal {
    let code = match bad {
        BadAction::NoSpace(_) => "no-action-ids",
        BadAction::Invalid(_) => "bad-action",
        BadAction::GameOver(_) => "game-over",
        BadAction::Illegal(_) => "illegal-move",
    };
    Refusal::new(code, bad.to_string())
}

/// `White wins` as the index of its winner: 0, 1, or null for a draw.
fn winner(result: Option<GameResult>) -> Value {
    match result {
        Some(GameResult::Win(p)) => json!(p),
        _ => Value::Null,
    }
}

impl Session<'_> {
    /// The moves and claimed result a `new` request gives (its `record` already read by
    /// [`Session::new_game`], which refuses a bad one).
    fn opening(&self, request: &Map<String, Value>) -> Opening {
        if let Some(Value::String(text)) = request.get("record") {
            if let Ok(record) = Record::parse(text) {
                return Opening {
                    moves: record
                        .moves
                        .into_iter()
                        .map(|(_, m)| MoveRef::Text(m))
                        .collect(),
                    claimed: record.result.map(|(_, r)| r),
                };
            }
        }
        let moves = match request.get("moves") {
            Some(Value::Array(list)) => list
                .iter()
                .filter_map(|m| match m {
                    Value::String(s) => Some(MoveRef::Text(s.clone())),
                    Value::Number(n) => n.as_u64().map(MoveRef::Action),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        Opening {
            moves,
            claimed: None,
        }
    }

    /// `new`: checks the request; the game loaded anew when its option values change
    /// (`Some`), else `None` and the caller starts over on this game.
    fn new_game(&mut self, request: &Map<String, Value>) -> Result<Option<Reload>, Refusal> {
        let mut sets = self.config.sets.clone();
        let mut from_request = Vec::new();
        if let Some(text) = string_field(request, "record")? {
            if request.contains_key("moves") {
                return Err(Refusal::new(
                    "bad-request",
                    "`new` takes `moves` or a `record`, not both",
                ));
            }
            let record = Record::parse(text).map_err(|e| Refusal::new("bad-record", e))?;
            from_request.extend(record.options);
        }
        match request.get("set") {
            None | Some(Value::Null) => {}
            Some(Value::Object(map)) => {
                for (name, value) in map {
                    let value = match value {
                        Value::String(s) => s.clone(),
                        Value::Number(_) | Value::Bool(_) => value.to_string(),
                        _ => {
                            return Err(mistyped(
                                "set",
                                "an object of strings, numbers or booleans",
                            ))
                        }
                    };
                    from_request.push((name.clone(), value));
                }
            }
            Some(_) => return Err(mistyped("set", "an object, e.g. {\"size\": 5}")),
        }
        match request.get("moves") {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => {
                if let Some(i) = list.iter().position(|m| !m.is_string() && !m.is_u64()) {
                    return Err(mistyped(
                        &format!("moves[{i}]"),
                        "a move's notation (a string) or its action id (a whole number)",
                    ));
                }
            }
            Some(_) => return Err(mistyped("moves", "a list of moves")),
        }
        for (name, value) in from_request {
            sets.retain(|(n, _)| *n != name);
            sets.push((name, value));
        }
        if sets == self.sets {
            return Ok(None);
        }
        let config = self.config;
        let game = Game::load(&config.name, config.source.clone(), &sets, config.compiled)
            .map_err(|e| {
                let code = if e.bad_options {
                    "bad-option"
                } else {
                    "load-failed"
                };
                Refusal::new(code, "the game does not load with these option values")
                    .notes(vec![e.message.trim_end().to_string()])
            })?;
        Ok(Some(Reload {
            game,
            sets,
            id: None,
            opening: self.opening(request),
        }))
    }

    /// Starts the game over and plays `opening`; the state reached, or the first move that
    /// could not be played (the position is then the one before it).
    pub(crate) fn open(&mut self, opening: Opening) -> Answer {
        let game = self.position.game();
        self.position = Position::new(game);
        for (i, m) in opening.moves.iter().enumerate() {
            let played = match m {
                MoveRef::Text(text) => self
                    .position
                    .apply_text(text)
                    .map_err(|e| bad_move(text, e)),
                MoveRef::Action(id) => self.apply_action(*id),
            };
            if let Err(refusal) = played {
                let mut notes = vec![format!("move {} of the opening was not played", i + 1)];
                notes.extend(refusal.notes);
                return Err(Refusal { notes, ..refusal });
            }
        }
        if let Some(claimed) = opening.claimed {
            let reached = self.position.result_text();
            if reached.as_deref() != Some(claimed.as_str()) {
                return Err(Refusal::new(
                    "bad-record",
                    format!(
                        "the record says `{claimed}`, but its moves end with {}",
                        reached.map_or("the game still going".to_string(), |r| format!("`{r}`"))
                    ),
                ));
            }
        }
        Ok(self.summary())
    }

    /// The player to move and the result: what every answer that changes the position says.
    fn summary(&mut self) -> Value {
        let outcome = self.position.outcome();
        let to_move = self.position.to_move();
        json!({
            "to_move": to_move,
            "player": self.position.game().program.player_name(to_move),
            "over": outcome.is_some(),
            "result": self.position.result_text(),
            "winner": winner(outcome),
            "ply": self.position.moves().len(),
        })
    }

    /// `legal`: the legal moves with notation, action ids and parts.
    fn legal(&mut self) -> Value {
        // Ids are JSON numbers here: a space past 2^53 has none.
        let numbered = self.position.game().json_actions().is_ok();
        let moves: Vec<Value> = self
            .position
            .legal()
            .into_iter()
            .map(|m| {
                let parts: Vec<Value> = m
                    .parts
                    .iter()
                    .map(|(player, text)| json!({ "player": player, "text": text }))
                    .collect();
                let action = m.action.filter(|_| numbered);
                json!({ "move": m.text, "action": action, "parts": parts })
            })
            .collect();
        let mut answer = self.summary();
        answer["chance"] = json!(!moves.is_empty() && self.position.chance());
        answer["moves"] = json!(moves);
        answer
    }

    /// `apply`: one move, by `move` (notation) or `action` (id).
    fn apply(&mut self, request: &Map<String, Value>) -> Answer {
        let text = string_field(request, "move")?;
        let action = count_field(request, "action")?;
        let played = match (text, action) {
            (Some(text), None) => self
                .position
                .apply_text(text)
                .map_err(|e| bad_move(text, e))?,
            (None, Some(id)) => self.apply_action(id)?,
            (None, None) => {
                return Err(Refusal::new(
                    "missing-field",
                    "`apply` needs a `move` (its notation) or an `action` (its id)",
                ))
            }
            (Some(_), Some(_)) => {
                return Err(Refusal::new(
                    "bad-request",
                    "`apply` takes a `move` or an `action`, not both",
                ))
            }
        };
        let mut answer = self.summary();
        answer["played"] = json!(played);
        answer["action"] = json!(self.last_action());
        Ok(answer)
    }

    /// Plays the legal move whose id is `id`, where the game's ids are JSON numbers (a space
    /// past 2^53 has none here); its notation.
    fn apply_action(&mut self, id: u64) -> Result<String, Refusal> {
        let refused = |e| bad_action(&BadAction::NoSpace(e));
        self.position.game().json_actions().map_err(refused)?;
        self.position.apply_action(id).map_err(|e| bad_action(&e))
    }

    /// The action id of the last move played, when the game has ids.
    fn last_action(&self) -> Option<u64> {
        let m = self.position.moves().last()?;
        self.position.game().json_actions().ok()?.id(m).ok()
    }

    /// `undo`: takes back the last move.
    fn undo(&mut self) -> Answer {
        let undone = self
            .position
            .undo()
            .ok_or_else(|| Refusal::new("nothing-to-undo", "no move has been played"))?;
        let mut answer = self.summary();
        answer["undone"] = json!(undone);
        Ok(answer)
    }

    /// `state`: the position in full; with `"record": true` also the game's record.
    fn state(&mut self, request: &Map<String, Value>) -> Answer {
        let with_record = flag_field(request, "record")?;
        let mut answer = self.summary();
        let moves: Vec<&str> = self.position.texts().iter().map(String::as_str).collect();
        answer["moves"] = json!(moves);
        answer["status"] = json!(self.position.engine().status_lines());
        answer["scores"] = json!(self.position.engine().scores());
        answer["board"] = json!(board::draw(self.position.engine()));
        if with_record {
            let path = std::path::PathBuf::from(&self.config.name);
            answer["record"] = json!(self.position.record(&path).to_text());
        }
        Ok(answer)
    }

    /// `go`: an agent's move for the player to move; with `"apply": true` it is also played.
    fn go(&mut self, request: &Map<String, Value>) -> Answer {
        let spec = agent_spec(request)?;
        let seed = count_field(request, "seed")?.unwrap_or(0);
        let apply = flag_field(request, "apply")?;
        if let Some(result) = self.position.result_text() {
            return Err(Refusal::new(
                "game-over",
                format!("the game is over: {result}"),
            ));
        }
        let space = self.position.game().json_actions().ok();
        let mut agent = spec.build::<BoardGame<'_>>(seed);
        let game = self.position.as_game();
        let Some(thought) = agent.choose(game) else {
            return Err(Refusal::new("no-move", "the agent found no move to play"));
        };
        let text = game.text(&thought.decision);
        let action = space.and_then(|s| s.id(&thought.decision).ok());
        let ranked: Vec<Value> = thought
            .ranked
            .iter()
            .take(8)
            .map(|(m, value, work)| {
                let mut entry = json!({ "move": game.text(m), "value": value });
                entry[thought.unit] = json!(work);
                entry
            })
            .collect();
        let mut answer = json!({
            "move": text,
            "action": action,
            "value": thought.value,
            "line": [text],
            "ranked": ranked,
            "summary": thought.summary,
            "agent": spec.to_string(),
        });
        if apply {
            self.position.play(thought.decision);
            let summary = self.summary();
            if let (Some(map), Value::Object(more)) = (answer.as_object_mut(), summary) {
                map.extend(more);
            }
            answer["played"] = json!(text);
        }
        Ok(answer)
    }
}

/// The agent a `go` request names (`agent`, default `mcts`) with its budget: `iterations`
/// (MCTS playouts), `depth` (alpha-beta) or `seconds` (thinking time in CPU time of the
/// searching thread, either agent: the same work on a busy machine), each added to the spec
/// as its setting.
fn agent_spec(request: &Map<String, Value>) -> Result<AgentSpec, Refusal> {
    let mut text = string_field(request, "agent")?
        .unwrap_or("mcts")
        .to_string();
    if let Some(n) = count_field(request, "iterations")? {
        text.push_str(&format!(":iterations={n}"));
    }
    if let Some(n) = count_field(request, "depth")? {
        text.push_str(&format!(":depth={n}"));
    }
    match request.get("seconds") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let seconds = v
                .as_f64()
                .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
                .ok_or_else(|| mistyped("seconds", "a number of seconds above 0, at most 3600"))?;
            text.push_str(&format!(":cpu={}ms", (seconds * 1000.0).ceil()));
        }
    }
    AgentSpec::parse(&text).map_err(|e| Refusal::new("bad-agent", e.message).notes(vec![e.help]))
}
