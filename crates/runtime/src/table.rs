//! The runtime of table games: stones as discs on the simulated (or a real) table, decks and
//! hands, the card-driven turn, captures, the match's end, penalties and the notation.
//!
//! A match is a sequence of decisions. In simulation a shot is a card, a stone, an angle and a
//! speed, and the table is simulated; in referee mode a shot is declared and the referee types
//! its outcome. Chance (who starts, the shuffles, aim noise) comes from one seeded generator, so
//! a seed and the decisions typed replay a match exactly.

use std::collections::VecDeque;
use std::fmt::Write as _;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::physics::{self, Disc};
use super::GameResult;
use rulestone_ir::table::{Army, Axis, Compare, Effect, Measure, Op, TableProgram, Term};

/// Simulated seconds after which a shot's stones are stopped.
const MAX_SHOT_SECONDS: f64 = 120.0;

#[derive(Clone, Debug)]
pub struct Stone {
    pub owner: u8,
    pub kind: usize,
    /// 1-based among the owner's stones of this kind.
    pub number: u32,
    pub disc: Disc,
    /// The player who captured it.
    pub captured_by: Option<u8>,
}

#[derive(Clone, Debug)]
pub struct Side {
    pub army: Army,
    pub deck: VecDeque<usize>,
    pub hand: Vec<usize>,
    pub captures: u32,
    /// Per penalty: warnings given.
    pub warnings: Vec<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the first turn: the first player, then the second, choose their armies.
    Muster,
    /// Cards in hand are played or set aside (`play each card`).
    Cards,
    /// A shot without a card (a `shot` step).
    Free,
}

/// One thing typed or chosen in a match.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// A simulated shot; `card` is `None` for the free shot. Speed in tenths.
    Shot {
        card: Option<usize>,
        stone: usize,
        angle: i32,
        speed: u32,
    },
    /// Referee mode: a shot made on the real table; its outcome follows.
    Declare { card: Option<usize>, stone: usize },
    /// A card set aside unplayed (no stone of its kind on the table).
    Skip { card: usize },
    /// Referee mode: the outcome of the declared shot.
    Result(Vec<Outcome>),
    /// A penalty; `stone` is the offender's stone the opponent captures once warnings are used.
    Penalty {
        penalty: usize,
        player: u8,
        stone: Option<usize>,
    },
    /// The turn clock ran out.
    Time,
    /// Before the match: the mover takes the army with this index among their options.
    Army(usize),
    /// The match clock ran out: the match ends as after its last turn.
    MatchTime,
}

/// Part of a referee's outcome.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Capture(usize),
    Move(usize, f64, f64),
    Off(usize),
}

/// A decision the mover may take, with the allowed speed range for shots.
#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    Shot {
        card: Option<usize>,
        stone: usize,
        max_speed: f64,
    },
    Skip {
        card: usize,
    },
    /// Referee mode: type the outcome of the declared shot.
    Result,
    /// Before the match: take this army (index among the mover's options).
    Army(usize),
}

/// The state of a match.
#[derive(Clone, Debug)]
pub struct Position {
    /// Per player: the armies they may choose from (before the match).
    pub options: Vec<Vec<Army>>,
    pub stones: Vec<Stone>,
    pub sides: Vec<Side>,
    pub mover: u8,
    pub first: u8,
    pub phase: Phase,
    /// Turns finished.
    pub turns: u32,
    /// Stones shot this turn.
    pub shots: u32,
    /// The step of the turn program being run.
    pub step: usize,
    /// A decision was taken this turn.
    pub acted: bool,
    /// Turns in a row that ended without a decision.
    pub idle_turns: u32,
    pub sudden_death: bool,
    pub sudden_turns: u32,
    pub result: Option<GameResult>,
    /// The match was decided during a turn (a capture), not at a turn's end.
    pub decided_in_turn: bool,
    /// Referee mode: the declared shot awaiting its outcome.
    pub awaiting: Option<(Option<usize>, usize)>,
    rng: ChaCha8Rng,
    /// What the last decision did, in words.
    pub log: Vec<String>,
}

/// A match of a table game: the program and the position, with undo.
#[derive(Clone, Debug)]
pub struct TableMatch<'p> {
    pub program: &'p TableProgram,
    pub position: Position,
    history: Vec<Position>,
    table: physics::Table,
    params: physics::Params,
    /// Record every this many simulation steps of the next shots (0: none), for a front end
    /// that animates them ([`TableMatch::trace_shots`]).
    trace_every: u32,
    /// The positions along the last simulated shot, when traced.
    trace: Vec<physics::Frame>,
}

/// Why a decision cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

impl<'p> TableMatch<'p> {
    /// Sets up a match: the draw for who starts; then, once each player has an army (chosen
    /// first by the first player when a player has several), the shuffles, the stones and the
    /// first hand.
    #[must_use]
    pub fn new(program: &'p TableProgram, options: [Vec<Army>; 2], seed: u64) -> TableMatch<'p> {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        let sides = options
            .iter()
            .map(|o| Side {
                army: o.first().cloned().unwrap_or_else(|| Army {
                    name: String::new(),
                    factions: Vec::new(),
                    stones: Vec::new(),
                    deck: Vec::new(),
                }),
                deck: VecDeque::new(),
                hand: Vec::new(),
                captures: 0,
                warnings: vec![0; program.penalties.len()],
            })
            .collect();
        let table = physics::Table {
            width: program.length,
            height: program.width,
            walls: program
                .walls
                .iter()
                .map(|(a, at)| physics::Wall {
                    axis: phys_axis(*a),
                    at: *at,
                })
                .collect(),
            lines: program
                .lines
                .iter()
                .map(|l| physics::Line {
                    axis: phys_axis(l.axis),
                    at: l.at,
                    removes: l.capture.is_some(),
                    only: l.only,
                })
                .collect(),
        };
        let p = program.physics;
        let params = physics::Params {
            friction: p.friction,
            disc_restitution: p.stone_restitution,
            wall_restitution: p.wall_restitution,
            wall_jump_speed: p.wall_jump_speed,
            time_step: p.time_step,
            max_time: MAX_SHOT_SECONDS,
        };
        let mut position = Position {
            options: options.into(),
            stones: Vec::new(),
            sides,
            mover: 0,
            first: 0,
            phase: Phase::Muster,
            turns: 0,
            shots: 0,
            step: 0,
            acted: false,
            idle_turns: 0,
            sudden_death: false,
            sudden_turns: 0,
            result: None,
            decided_in_turn: false,
            awaiting: None,
            rng,
            log: Vec::new(),
        };
        let first = u8::from(position.rng.gen_bool(0.5));
        position.first = first;
        position.mover = first;
        let mut m = TableMatch {
            program,
            position,
            history: Vec::new(),
            table,
            params,
            trace_every: 0,
            trace: Vec::new(),
        };
        let name = m.player(first).to_string();
        m.position.log.push(format!("{name} goes first"));
        m.muster_if_chosen();
        m
    }

    /// The armies the mover may take now (indices among their options). When the game says
    /// factions differ, the second player may not take one sharing a faction with the first
    /// player's, and the first player may not take one that leaves the second no army (unless
    /// no choice avoids it).
    fn army_options(&self) -> Vec<usize> {
        let pos = &self.position;
        let mover = usize::from(pos.mover);
        let all: Vec<usize> = (0..pos.options[mover].len()).collect();
        if !self.program.factions_differ {
            return all;
        }
        let apart = |a: &Army, b: &Army| !a.factions.iter().any(|f| b.factions.contains(f));
        let mine = &pos.options[mover];
        let allowed: Vec<usize> = if pos.mover == pos.first {
            let theirs = &pos.options[1 - mover];
            all.iter()
                .copied()
                .filter(|&i| theirs.iter().any(|b| apart(&mine[i], b)))
                .collect()
        } else {
            let taken = &pos.sides[1 - mover].army;
            all.iter()
                .copied()
                .filter(|&i| apart(&mine[i], taken))
                .collect()
        };
        if allowed.is_empty() {
            all
        } else {
            allowed
        }
    }

    /// While a player still has a choice of army, the match waits for it; then the decks are
    /// shuffled (the first player's, then the second's), the stones set up and the first hand
    /// drawn.
    fn muster_if_chosen(&mut self) {
        let pos = &mut self.position;
        let first = usize::from(pos.first);
        for p in [first, 1 - first] {
            if pos.options[p].len() > 1 {
                pos.mover = u8::try_from(p).unwrap_or(0);
                return;
            }
            if let Some(a) = pos.options[p].first() {
                pos.sides[p].army = a.clone();
            }
        }
        for p in [first, 1 - first] {
            let mut deck = pos.sides[p].army.deck.clone();
            deck.shuffle(&mut pos.rng);
            pos.sides[p].deck = deck.into();
        }
        pos.stones = set_up(self.program, &pos.sides, &self.table);
        pos.mover = pos.first;
        pos.phase = Phase::Cards;
        self.start_turn();
    }

    #[must_use]
    pub fn player(&self, p: u8) -> &str {
        self.program
            .players
            .get(usize::from(p))
            .map_or("?", String::as_str)
    }

    /// The name of a stone in notation: owner's initial, kind letter, number (`WC3`; `WM` for a kind fielded once).
    #[must_use]
    pub fn stone_name(&self, i: usize) -> String {
        let s = &self.position.stones[i];
        let owner = self.player(s.owner).chars().next().unwrap_or('?');
        let kind = &self.program.discs[s.kind];
        if kind.single {
            format!("{owner}{}", kind.letter)
        } else {
            format!("{owner}{}{}", kind.letter, s.number)
        }
    }

    #[must_use]
    pub fn outcome(&self) -> Option<GameResult> {
        self.position.result
    }

    fn opponent(p: u8) -> u8 {
        1 - p
    }

    fn on_table(&self, i: usize) -> bool {
        self.position.stones[i].disc.on_table
    }

    /// Stones of `player` on the table of one of these kinds, in stone order.
    fn stones_of(&self, player: u8, kinds: &[usize]) -> Vec<usize> {
        (0..self.position.stones.len())
            .filter(|&i| {
                let s = &self.position.stones[i];
                s.owner == player && self.on_table(i) && kinds.contains(&s.kind)
            })
            .collect()
    }

    /// The shot without a card offered now: its stones and top speed.
    fn free_shot(&self) -> Option<(Vec<usize>, f64)> {
        let Some(Op::Shot { discs, max_speed }) = self.program.steps.get(self.position.step) else {
            return None;
        };
        let stones = self.stones_of(self.position.mover, discs);
        (!stones.is_empty()).then_some((stones, *max_speed))
    }

    /// The value of a quantity for player `p`.
    fn measure(&self, m: Measure, p: u8) -> f64 {
        let pos = &self.position;
        let side = &pos.sides[usize::from(p)];
        let n = match m {
            Measure::Shots => pos.shots,
            Measure::Turns => pos.turns,
            Measure::Captures => side.captures,
            Measure::Points => self.points(p),
            Measure::Stones => u32::try_from(self.stones_of_any(p)).unwrap_or(u32::MAX),
            Measure::Hand => u32::try_from(side.hand.len()).unwrap_or(u32::MAX),
            Measure::Deck => u32::try_from(side.deck.len()).unwrap_or(u32::MAX),
        };
        f64::from(n)
    }

    fn stones_of_any(&self, p: u8) -> usize {
        (0..self.position.stones.len())
            .filter(|&i| self.position.stones[i].owner == p && self.on_table(i))
            .count()
    }

    /// Player `p`'s points: each of their stones on the table scores those of the first
    /// region of `points` that holds its centre.
    #[must_use]
    pub fn points(&self, p: u8) -> u32 {
        let lines = &self.program.lines;
        self.position
            .stones
            .iter()
            .filter(|s| s.owner == p && s.disc.on_table)
            .map(|s| {
                self.program
                    .points
                    .iter()
                    .find(|(r, _)| {
                        let l = &lines[*r];
                        let c = match l.axis {
                            Axis::X => s.disc.x,
                            Axis::Y => s.disc.y,
                        };
                        match l.only {
                            Some(true) => c > l.at,
                            Some(false) => c < l.at,
                            None => false,
                        }
                    })
                    .map_or(0, |(_, n)| *n)
            })
            .sum()
    }

    /// Whether a condition holds for player `p`.
    fn holds(&self, cond: &[Compare<f64>], p: u8) -> bool {
        let value = |t: Term<f64>| match t {
            Term::Amount(v) => v,
            Term::Mine(m) => self.measure(m, p),
            Term::Theirs(m) => self.measure(m, Self::opponent(p)),
        };
        cond.iter().all(|c| {
            let (a, b) = (value(c.left), value(c.right));
            c.op.holds(a, b)
        })
    }

    /// Ends the match when it is decided: in sudden death, by one player going ahead; else by
    /// a `win when` rule, tested for `first`, then the other player.
    fn check_wins(&mut self, first: u8) {
        if self.position.result.is_some() {
            return;
        }
        let winner = if self.position.sudden_death {
            self.program.after.and_then(|(_, m)| {
                let (a, b) = (self.measure(m, 0), self.measure(m, 1));
                (a != b).then_some(u8::from(b > a))
            })
        } else {
            [first, Self::opponent(first)]
                .into_iter()
                .find(|&p| self.program.wins.iter().any(|c| self.holds(c, p)))
        };
        if let Some(w) = winner {
            self.position.result = Some(GameResult::Win(w));
            self.position.decided_in_turn = true;
        }
    }

    /// The top speed of the shot `card` allows with `stone`, when that shot is a choice now.
    fn shot_limit(&self, card: Option<usize>, stone: usize) -> Option<f64> {
        self.choices().iter().find_map(|c| match c {
            Choice::Shot {
                card: c,
                stone: s,
                max_speed,
            } if *c == card && *s == stone => Some(*max_speed),
            _ => None,
        })
    }

    /// Records the positions of every stone along the shots simulated from now on, every
    /// `every` simulation steps (0: no more), for a front end that animates them; off by
    /// default, as agents simulate many shots.
    pub fn trace_shots(&mut self, every: u32) {
        self.trace_every = every;
    }

    /// The positions of every stone (in [`Position::stones`]' order) along the last shot
    /// simulated while [`TableMatch::trace_shots`] was on: the first frame before it, the last
    /// once every stone is still.
    #[must_use]
    pub fn shot_trace(&self) -> &[physics::Frame] {
        &self.trace
    }

    /// Every decision the mover may take now (penalties and `time` aside).
    #[must_use]
    pub fn choices(&self) -> Vec<Choice> {
        let pos = &self.position;
        if pos.result.is_some() {
            return Vec::new();
        }
        if pos.awaiting.is_some() {
            return vec![Choice::Result];
        }
        let mut out = Vec::new();
        match pos.phase {
            Phase::Muster => {
                out.extend(self.army_options().into_iter().map(Choice::Army));
            }
            Phase::Cards => {
                let side = &pos.sides[usize::from(pos.mover)];
                let mut seen = Vec::new();
                for &card in &side.hand {
                    if seen.contains(&card) {
                        continue;
                    }
                    seen.push(card);
                    let c = &self.program.cards[card];
                    let stones = self.stones_of(pos.mover, &[c.disc]);
                    if stones.is_empty() {
                        out.push(Choice::Skip { card });
                    }
                    for stone in stones {
                        out.push(Choice::Shot {
                            card: Some(card),
                            stone,
                            max_speed: c.max_speed,
                        });
                    }
                }
            }
            Phase::Free => {
                if let Some((stones, max_speed)) = self.free_shot() {
                    for stone in stones {
                        out.push(Choice::Shot {
                            card: None,
                            stone,
                            max_speed,
                        });
                    }
                }
            }
        }
        out
    }

    /// A choice in notation; shots show their ranges: `CARD STONE 0..359@0.0..45.0`, or in
    /// referee mode `CARD STONE`.
    #[must_use]
    pub fn choice_text(&self, c: &Choice) -> String {
        match c {
            Choice::Shot {
                card,
                stone,
                max_speed,
            } => {
                let head = self.shot_head(*card, *stone);
                if self.program.referee {
                    head
                } else {
                    format!("{head} 0..359@0.0..{max_speed:.1}")
                }
            }
            Choice::Skip { card } => format!("skip {}", self.program.cards[*card].name),
            Choice::Result => {
                "result capture STONE; move STONE X,Y; off STONE (or: result none)".into()
            }
            Choice::Army(i) => self.army_text(*i),
        }
    }

    fn army_text(&self, i: usize) -> String {
        let options = &self.position.options[usize::from(self.position.mover)];
        format!("army {}", options.get(i).map_or("?", |a| a.name.as_str()))
    }

    fn shot_head(&self, card: Option<usize>, stone: usize) -> String {
        let card = card.map_or("free", |c| self.program.cards[c].name.as_str());
        format!("{card} {}", self.stone_name(stone))
    }

    /// A decision in notation.
    #[must_use]
    pub fn decision_text(&self, d: &Decision) -> String {
        match d {
            Decision::Shot {
                card,
                stone,
                angle,
                speed,
            } => format!(
                "{} {angle}@{}.{}",
                self.shot_head(*card, *stone),
                speed / 10,
                speed % 10
            ),
            Decision::Declare { card, stone } => self.shot_head(*card, *stone),
            Decision::Skip { card } => format!("skip {}", self.program.cards[*card].name),
            Decision::Result(parts) => {
                if parts.is_empty() {
                    return "result none".into();
                }
                let parts: Vec<String> = parts
                    .iter()
                    .map(|o| match o {
                        Outcome::Capture(s) => format!("capture {}", self.stone_name(*s)),
                        Outcome::Move(s, x, y) => {
                            format!("move {} {x:.1},{y:.1}", self.stone_name(*s))
                        }
                        Outcome::Off(s) => format!("off {}", self.stone_name(*s)),
                    })
                    .collect();
                format!("result {}", parts.join("; "))
            }
            Decision::Penalty {
                penalty,
                player,
                stone,
            } => {
                let name = &self.program.penalties[*penalty].name;
                match stone {
                    Some(s) => format!("penalty {name} {}", self.stone_name(*s)),
                    None => format!("penalty {name} {}", self.player(*player)),
                }
            }
            Decision::Time => "time".into(),
            Decision::Army(i) => self.army_text(*i),
            Decision::MatchTime => "time match".into(),
        }
    }

    fn find_stone(&self, name: &str) -> Option<usize> {
        (0..self.position.stones.len()).find(|&i| self.stone_name(i).eq_ignore_ascii_case(name))
    }

    fn find_card(&self, name: &str) -> Option<usize> {
        self.program
            .cards
            .iter()
            .position(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// Reads a decision typed in notation (legality is checked by [`apply`](Self::apply)).
    ///
    /// # Errors
    /// Text that is no decision of this game, with what was expected.
    pub fn parse(&self, text: &str) -> Result<Decision, Illegal> {
        let text = text.trim();
        let words: Vec<&str> = text.split_whitespace().collect();
        let bad = |why: &str| Illegal(format!("`{text}`: {why}"));
        match words.as_slice() {
            ["time"] => Ok(Decision::Time),
            ["time", "match"] => Ok(Decision::MatchTime),
            ["army", name] => self.position.options[usize::from(self.position.mover)]
                .iter()
                .position(|a| a.name.eq_ignore_ascii_case(name))
                .map(Decision::Army)
                .ok_or_else(|| bad("not one of the mover's armies")),
            ["skip", card] => Ok(Decision::Skip {
                card: self.find_card(card).ok_or_else(|| bad("no such card"))?,
            }),
            ["result", ..] => {
                let rest = text["result".len()..].trim();
                let mut parts = Vec::new();
                if rest != "none" {
                    for part in rest.split(';').map(str::trim).filter(|p| !p.is_empty()) {
                        let w: Vec<&str> = part.split_whitespace().collect();
                        let stone = |n: &str| {
                            self.find_stone(n)
                                .ok_or_else(|| bad(&format!("no stone `{n}`")))
                        };
                        parts.push(match w.as_slice() {
                            ["capture", s] => Outcome::Capture(stone(s)?),
                            ["off", s] => Outcome::Off(stone(s)?),
                            ["move", s, xy] => {
                                let (x, y) = xy
                                    .split_once(',')
                                    .and_then(|(x, y)| Some((x.parse::<f64>().ok()?, y.parse::<f64>().ok()?)))
                                    .ok_or_else(|| bad("a move is `move STONE X,Y`"))?;
                                Outcome::Move(stone(s)?, x, y)
                            }
                            _ => return Err(bad("an outcome is `capture STONE`, `move STONE X,Y` or `off STONE`, separated by `;`")),
                        });
                    }
                }
                Ok(Decision::Result(parts))
            }
            ["penalty", name, who] => {
                let penalty = self
                    .program
                    .penalties
                    .iter()
                    .position(|p| p.name == *name)
                    .ok_or_else(|| bad("no such penalty"))?;
                if let Some(player) = self
                    .program
                    .players
                    .iter()
                    .position(|p| p.eq_ignore_ascii_case(who))
                {
                    return Ok(Decision::Penalty {
                        penalty,
                        player: u8::try_from(player).unwrap_or(0),
                        stone: None,
                    });
                }
                let stone = self
                    .find_stone(who)
                    .ok_or_else(|| bad("name a player or one of the offender's stones"))?;
                Ok(Decision::Penalty {
                    penalty,
                    player: self.position.stones[stone].owner,
                    stone: Some(stone),
                })
            }
            [card, stone, rest @ ..] => {
                let card = if card.eq_ignore_ascii_case("free") {
                    None
                } else {
                    Some(self.find_card(card).ok_or_else(|| bad("no such card"))?)
                };
                let stone = self.find_stone(stone).ok_or_else(|| bad("no such stone"))?;
                match rest {
                    [] => Ok(Decision::Declare { card, stone }),
                    [shot] => {
                        let (angle, speed) = parse_shot(shot).ok_or_else(|| {
                            bad("a shot is `ANGLE@SPEED`: whole degrees and a speed with one decimal, e.g. `15@22.5`")
                        })?;
                        Ok(Decision::Shot {
                            card,
                            stone,
                            angle,
                            speed,
                        })
                    }
                    _ => Err(bad("too many words")),
                }
            }
            _ => Err(bad("not a decision of this game")),
        }
    }

    /// Takes a decision.
    ///
    /// # Errors
    /// An illegal decision, with why; the position is unchanged then.
    pub fn apply(&mut self, d: &Decision) -> Result<(), Illegal> {
        if self.position.result.is_some() {
            return Err(Illegal("the match is over".into()));
        }
        self.check(d)?;
        self.history.push(self.position.clone());
        self.position.log.clear();
        self.position.acted = true;
        match d {
            Decision::Shot {
                card,
                stone,
                angle,
                speed,
            } => {
                self.simulate_shot(*card, *stone, f64::from(*angle), f64::from(*speed) / 10.0);
                self.after_shot(*card);
            }
            Decision::Declare { card, stone } => {
                self.position.awaiting = Some((*card, *stone));
                let text = self.shot_head(*card, *stone);
                self.position
                    .log
                    .push(format!("{text}: shoot, then type the result"));
            }
            Decision::Result(parts) => {
                let (card, stone) = self.position.awaiting.take().unwrap_or((None, 0));
                self.referee_outcome(stone, parts);
                self.after_shot(card);
            }
            Decision::Skip { card } => {
                let side = &mut self.position.sides[usize::from(self.position.mover)];
                if let Some(i) = side.hand.iter().position(|c| c == card) {
                    side.hand.remove(i);
                }
                side.deck.push_back(*card);
                let name = self.program.cards[*card].name.clone();
                self.position
                    .log
                    .push(format!("{name} goes to the bottom of the deck"));
                // The hand and the deck changed: a `win when` rule may hold now.
                self.check_wins(self.position.mover);
                self.after_card();
            }
            Decision::Penalty {
                penalty,
                player,
                stone,
            } => self.penalty(*penalty, *player, *stone),
            Decision::Time => {
                let side = &mut self.position.sides[usize::from(self.position.mover)];
                let hand: Vec<usize> = side.hand.drain(..).collect();
                side.deck.extend(hand);
                self.position.log.push("time: the turn ends".into());
                self.end_turn();
            }
            Decision::Army(i) => {
                let mover = usize::from(self.position.mover);
                let army = self.position.options[mover][*i].clone();
                let text = format!("{} takes {}", self.player(self.position.mover), army.name);
                self.position.log.push(text);
                self.position.options[mover] = vec![army];
                self.muster_if_chosen();
            }
            Decision::MatchTime => {
                self.position.log.push("the match clock ran out".into());
                self.end_regulation();
            }
        }
        Ok(())
    }

    /// Shoots `stone` with any angle (degrees) and speed, without the checks of a decision
    /// (whose angle and speed are whole degrees and tenths within the stone's range): what a
    /// shot's parameters become inside, for the fuzz target `shot`, which drives every float
    /// through it (NaN, infinities, huge and subnormal values). Taken back by [`Self::undo`].
    /// A stone that is not on the table is not shot.
    pub fn shoot_unchecked(&mut self, stone: usize, angle: f64, speed: f64) {
        let on_table = self
            .position
            .stones
            .get(stone)
            .is_some_and(|s| s.disc.on_table);
        if !on_table || self.position.result.is_some() {
            return;
        }
        self.history.push(self.position.clone());
        self.position.log.clear();
        self.simulate_shot(None, stone, angle, speed);
        self.after_shot(None);
    }

    /// Undoes the last decision; false at the start.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(p) => {
                self.position = p;
                true
            }
            None => false,
        }
    }

    /// Turns played, the one the match was decided in included.
    #[must_use]
    pub fn turns_played(&self) -> u32 {
        self.position.turns + u32::from(self.position.decided_in_turn)
    }

    /// Decisions taken so far.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// Whether `d` may be taken now (the match not over is tested by [`TableMatch::apply`]).
    pub(crate) fn check(&self, d: &Decision) -> Result<(), Illegal> {
        let referee = self.program.referee;
        let pos = &self.position;
        let mover = self.player(pos.mover).to_string();
        if pos.phase == Phase::Muster {
            return match d {
                Decision::Army(i) if self.army_options().contains(i) => Ok(()),
                Decision::Army(_) => Err(Illegal(
                    "that army shares a faction with the opponent's".into(),
                )),
                _ => Err(Illegal(format!("{mover} first chooses an army"))),
            };
        }
        let awaiting = |ok: bool| -> Result<(), Illegal> {
            if pos.awaiting.is_some() && !ok {
                Err(Illegal("type the result of the shot first".into()))
            } else {
                Ok(())
            }
        };
        match d {
            Decision::Shot {
                card,
                stone,
                angle,
                speed,
            } => {
                if referee {
                    return Err(Illegal(format!(
                        "in referee mode a shot is declared without angle and speed: `{}`",
                        self.shot_head(*card, *stone)
                    )));
                }
                if !(0..360).contains(angle) {
                    return Err(Illegal(format!("the angle {angle} is not from 0 to 359")));
                }
                self.check_shot(*card, *stone, Some(f64::from(*speed) / 10.0))
            }
            Decision::Declare { card, stone } => {
                if !referee {
                    return Err(Illegal(format!(
                        "a shot needs an angle and a speed, e.g. `{} 15@22.5`",
                        self.shot_head(*card, *stone)
                    )));
                }
                awaiting(false)?;
                self.check_shot(*card, *stone, None)
            }
            Decision::Result(parts) => {
                if pos.awaiting.is_none() {
                    return Err(Illegal("no shot awaits a result".into()));
                }
                for p in parts {
                    let (Outcome::Capture(s) | Outcome::Off(s) | Outcome::Move(s, _, _)) = p;
                    if !self.on_table(*s) {
                        return Err(Illegal(format!(
                            "{} is not on the table",
                            self.stone_name(*s)
                        )));
                    }
                    if let Outcome::Move(_, x, y) = p {
                        if !(0.0..=self.program.length).contains(x)
                            || !(0.0..=self.program.width).contains(y)
                        {
                            return Err(Illegal(format!("{x},{y} is not on the table")));
                        }
                    }
                }
                Ok(())
            }
            Decision::Skip { card } => {
                awaiting(false)?;
                if pos.phase != Phase::Cards
                    || !pos.sides[usize::from(pos.mover)].hand.contains(card)
                {
                    return Err(Illegal(format!(
                        "{mover} has no {} in hand",
                        self.program.cards[*card].name
                    )));
                }
                if !self
                    .stones_of(pos.mover, &[self.program.cards[*card].disc])
                    .is_empty()
                {
                    return Err(Illegal(format!(
                        "{} can be played: a card is set aside only when no stone of its kind is on the table",
                        self.program.cards[*card].name
                    )));
                }
                Ok(())
            }
            Decision::Penalty {
                penalty,
                player,
                stone,
            } => {
                let used = pos.sides[usize::from(*player)].warnings[*penalty];
                let left = self.program.penalties[*penalty]
                    .warnings
                    .saturating_sub(used);
                let who = self.player(*player).to_string();
                match stone {
                    None if left == 0 => Err(Illegal(format!(
                        "{who} has no warning left: name the stone of {who}'s the opponent captures, e.g. `penalty {} {}`",
                        self.program.penalties[*penalty].name,
                        self.stones_of(*player, &(0..self.program.discs.len()).collect::<Vec<_>>())
                            .first()
                            .map_or_else(|| "STONE".to_string(), |&s| self.stone_name(s))
                    ))),
                    Some(_) if left > 0 => Err(Illegal(format!(
                        "{who} has a warning left: type `penalty {} {who}`",
                        self.program.penalties[*penalty].name
                    ))),
                    Some(s) if !self.on_table(*s) => Err(Illegal(format!("{} is not on the table", self.stone_name(*s)))),
                    _ => Ok(()),
                }
            }
            Decision::Time => awaiting(false),
            Decision::Army(_) => Err(Illegal("the armies are chosen before the match".into())),
            Decision::MatchTime if self.program.match_clock.is_none() || pos.sudden_death => {
                Err(Illegal(if pos.sudden_death {
                    "the match clock is over: this is sudden death".into()
                } else {
                    "this game has no match clock".into()
                }))
            }
            Decision::MatchTime => awaiting(false),
        }
    }

    fn check_shot(
        &self,
        card: Option<usize>,
        stone: usize,
        speed: Option<f64>,
    ) -> Result<(), Illegal> {
        let Some(max) = self.shot_limit(card, stone) else {
            let what = self.shot_head(card, stone);
            let why = match card {
                Some(c)
                    if !self.position.sides[usize::from(self.position.mover)]
                        .hand
                        .contains(&c) =>
                {
                    format!(
                        "{} is not in {}'s hand",
                        self.program.cards[c].name,
                        self.player(self.position.mover)
                    )
                }
                None if self.position.phase != Phase::Free => {
                    "the free shot comes after the cards".into()
                }
                _ => format!("`{what}` is not a legal shot now"),
            };
            return Err(Illegal(why));
        };
        if let Some(v) = speed {
            if v > max + 1e-9 {
                return Err(Illegal(format!(
                    "the speed {v:.1} is above this shot's {max:.1}"
                )));
            }
        }
        Ok(())
    }

    fn start_turn(&mut self) {
        self.position.phase = Phase::Cards;
        self.position.shots = 0;
        self.position.step = 0;
        self.position.acted = false;
        self.run();
    }

    /// Runs the turn program from the current step up to the next decision, or to the turn's
    /// end.
    fn run(&mut self) {
        loop {
            if self.position.result.is_some() {
                return;
            }
            let mover = self.position.mover;
            let Some(op) = self.program.steps.get(self.position.step) else {
                self.end_turn();
                return;
            };
            match op {
                Op::Draw { to, count } => {
                    let count = *count as usize;
                    let side = &mut self.position.sides[usize::from(mover)];
                    let until = if *to { count } else { side.hand.len() + count };
                    while side.hand.len() < until {
                        match side.deck.pop_front() {
                            Some(c) => side.hand.push(c),
                            None => break,
                        }
                    }
                    let hand: Vec<&str> = side
                        .hand
                        .iter()
                        .map(|&c| self.program.cards[c].name.as_str())
                        .collect();
                    let text = format!("{} draws {}", self.player(mover), hand.join(", "));
                    self.position.log.push(text);
                    self.position.step += 1;
                }
                Op::PlayEachCard => {
                    if self.position.sides[usize::from(mover)].hand.is_empty() {
                        self.position.step += 1;
                    } else {
                        self.position.phase = Phase::Cards;
                        return;
                    }
                }
                Op::Shot { .. } => {
                    if self.free_shot().is_some() {
                        self.position.phase = Phase::Free;
                        return;
                    }
                    self.position.step += 1;
                }
                Op::Unless(cond, to) => {
                    if self.holds(cond, mover) {
                        self.position.step += 1;
                    } else {
                        self.position.step = *to;
                    }
                }
                Op::Jump(to) => self.position.step = *to,
            }
        }
    }

    /// After a card is played or set aside: the next step when the hand is empty.
    fn after_card(&mut self) {
        if self.position.result.is_some() || self.position.phase != Phase::Cards {
            return;
        }
        if self.position.sides[usize::from(self.position.mover)]
            .hand
            .is_empty()
        {
            self.position.step += 1;
            self.run();
        }
    }

    fn after_shot(&mut self, card: Option<usize>) {
        self.position.shots += 1;
        self.check_wins(self.position.mover);
        if self.position.result.is_some() {
            return;
        }
        match card {
            Some(c) => {
                let side = &mut self.position.sides[usize::from(self.position.mover)];
                if let Some(i) = side.hand.iter().position(|x| *x == c) {
                    side.hand.remove(i);
                }
                side.deck.push_back(c);
                self.after_card();
            }
            None => {
                self.position.step += 1;
                self.run();
            }
        }
    }

    fn end_turn(&mut self) {
        let pos = &mut self.position;
        pos.turns += 1;
        // Turns without a decision change nothing: two in a row end the match as its turns
        // running out would.
        pos.idle_turns = if pos.acted { 0 } else { pos.idle_turns + 1 };
        let idle = pos.idle_turns >= 2;
        if pos.sudden_death {
            pos.sudden_turns += 1;
            if idle
                || self
                    .program
                    .sudden_death
                    .is_none_or(|t| pos.sudden_turns >= t)
            {
                pos.result = Some(GameResult::Draw);
                pos.log.push("sudden death ends level: a draw".into());
                return;
            }
        } else if idle || self.program.turns().is_some_and(|t| pos.turns >= t) {
            self.end_regulation();
            return;
        }
        pos.mover = Self::opponent(pos.mover);
        self.start_turn();
    }

    /// The turns (or the match clock) are over: more of the `after` rule's quantity wins;
    /// level goes to sudden death from the first player, or is a draw.
    fn end_regulation(&mut self) {
        let Some((_, m)) = self.program.after else {
            self.position.result = Some(GameResult::Draw);
            return;
        };
        let (a, b) = (self.measure(m, 0), self.measure(m, 1));
        let pos = &mut self.position;
        if a != b {
            pos.result = Some(GameResult::Win(u8::from(b > a)));
            return;
        }
        if self.program.sudden_death.is_none() {
            pos.result = Some(GameResult::Draw);
            return;
        }
        pos.sudden_death = true;
        pos.log
            .push(format!("{} are level: sudden death", m.name()));
        // Cards in hand go back under the deck; sudden death starts with a fresh hand.
        let mover = usize::from(pos.mover);
        let hand: Vec<usize> = pos.sides[mover].hand.drain(..).collect();
        pos.sides[mover].deck.extend(hand);
        pos.mover = pos.first;
        self.start_turn();
    }

    /// Credits a capture to `by`; ends the match when it decides it.
    fn capture(&mut self, stone: usize, by: u8, why: &str) {
        let name = self.stone_name(stone);
        let capturer = self.player(by).to_string();
        let pos = &mut self.position;
        let s = &mut pos.stones[stone];
        s.disc.on_table = false;
        s.disc.vx = 0.0;
        s.disc.vy = 0.0;
        s.captured_by = Some(by);
        pos.log
            .push(format!("{name} {why}: captured by {capturer}"));
        if pos.result.is_some() {
            return;
        }
        pos.sides[usize::from(by)].captures += 1;
        self.check_wins(by);
    }

    fn put_back(&mut self, stone: usize, line: usize, near: (f64, f64), why: &str) {
        let l = &self.program.lines[line];
        let preferred = match l.axis {
            Axis::X => near.1,
            Axis::Y => near.0,
        };
        let discs: Vec<Disc> = self.position.stones.iter().map(|s| s.disc).collect();
        let radius = self.position.stones[stone].disc.radius;
        let spot = physics::free_spot(
            &self.table,
            &discs,
            self.table.lines[line],
            preferred,
            radius,
        );
        let name = self.stone_name(stone);
        let s = &mut self.position.stones[stone];
        match spot {
            Some((x, y)) => {
                s.disc.x = x;
                s.disc.y = y;
                s.disc.vx = 0.0;
                s.disc.vy = 0.0;
                s.disc.on_table = true;
                let line_name = &l.name;
                self.position.log.push(format!(
                    "{name} {why}: back on {line_name} at {x:.1},{y:.1}"
                ));
            }
            None => self
                .position
                .log
                .push(format!("{name} {why}: no room to put it back")),
        }
    }

    fn apply_effect(&mut self, stone: usize, effect: Option<Effect>, near: (f64, f64), why: &str) {
        let owner = self.position.stones[stone].owner;
        match effect {
            Some(Effect::ByOpponentOfOwner) => self.capture(stone, Self::opponent(owner), why),
            Some(Effect::ByOpponentOfShooter) => {
                self.capture(stone, Self::opponent(self.position.mover), why);
            }
            Some(Effect::BackTo(line)) => self.put_back(stone, line, near, why),
            None => {
                let name = self.stone_name(stone);
                self.position.stones[stone].disc.on_table = false;
                self.position.log.push(format!("{name} {why}: out of play"));
            }
        }
    }

    fn simulate_shot(&mut self, card: Option<usize>, stone: usize, angle: f64, speed: f64) {
        let by_hand = card.is_some_and(|c| self.program.cards[c].by_hand);
        // Off by up to half a turn either way is already any direction; a wider noise (any
        // number a designer or `--set` gives) draws from that turn, never from a range too
        // wide to draw from.
        let noise = self.program.aim_noise.min(180.0);
        let aimed = if noise > 0.0 && !by_hand {
            angle + self.position.rng.gen_range(-noise..=noise)
        } else {
            angle
        };
        let (vx, vy) = physics::shot_velocity(aimed, speed);
        let mut discs: Vec<Disc> = self.position.stones.iter().map(|s| s.disc).collect();
        discs[stone].vx = vx;
        discs[stone].vy = vy;
        self.trace.clear();
        let trace = (self.trace_every > 0).then_some((&mut self.trace, self.trace_every));
        let outcome = physics::simulate(&self.table, &self.params, &mut discs, trace);
        let head = self.shot_head(card, stone);
        self.position
            .log
            .push(format!("{head}: shot at {aimed:.1}° and {speed:.1}"));
        for (s, d) in self.position.stones.iter_mut().zip(&discs) {
            s.disc = *d;
        }
        for e in outcome.events {
            match e {
                physics::Event::Crossed {
                    disc,
                    line,
                    positive,
                    ..
                } => {
                    let l = &self.program.lines[line];
                    let inward = l.only.is_none_or(|p| p == positive);
                    if let Some(effect) = l.capture.filter(|_| inward) {
                        let verb = if l.only.is_some() {
                            "enters"
                        } else {
                            "crosses"
                        };
                        let why = format!("{verb} {}", l.name);
                        let d = discs[disc];
                        self.apply_effect(disc, Some(effect), (d.x, d.y), &why);
                    }
                }
                physics::Event::OverWall { disc, .. } => {
                    let effect = if disc == stone {
                        self.program.over_wall_shot
                    } else {
                        self.program.over_wall_knocked
                    };
                    let d = discs[disc];
                    self.apply_effect(disc, effect, (d.x, d.y), "goes over a wall");
                }
                physics::Event::OffTable { disc, .. } => {
                    let d = discs[disc];
                    self.apply_effect(disc, self.program.off_table, (d.x, d.y), "leaves the table");
                }
                _ => {}
            }
        }
    }

    fn referee_outcome(&mut self, stone: usize, parts: &[Outcome]) {
        let head = self.stone_name(stone);
        self.position.log.push(format!("{head} shot on the table"));
        for p in parts {
            match p {
                Outcome::Capture(s) => {
                    let owner = self.position.stones[*s].owner;
                    self.capture(*s, Self::opponent(owner), "is out");
                }
                Outcome::Move(s, x, y) => {
                    let d = &mut self.position.stones[*s].disc;
                    d.x = *x;
                    d.y = *y;
                }
                Outcome::Off(s) => {
                    let d = self.position.stones[*s].disc;
                    let effect = self.program.off_table.or(self.program.over_wall_knocked);
                    self.apply_effect(*s, effect, (d.x, d.y), "is knocked off the table");
                }
            }
        }
    }

    fn penalty(&mut self, penalty: usize, player: u8, stone: Option<usize>) {
        let text = self.program.penalties[penalty].text.clone();
        let who = self.player(player).to_string();
        match stone {
            None => {
                self.position.sides[usize::from(player)].warnings[penalty] += 1;
                self.position.log.push(format!("warning to {who}: {text}"));
            }
            Some(s) => self.capture(
                s,
                Self::opponent(player),
                &format!("is lost for a penalty ({text})"),
            ),
        }
    }

    /// The match's state in words: turn, captures, hands, decks.
    #[must_use]
    pub fn status(&self) -> String {
        let pos = &self.position;
        let mut out = String::new();
        let turn = if let Some(r) = pos.result {
            let how = match r {
                GameResult::Win(p) => format!("{} wins", self.player(p)),
                GameResult::Draw => "a draw".into(),
            };
            let _ = writeln!(
                out,
                "the match is over after {} turn{}: {how}",
                self.turns_played(),
                if self.turns_played() == 1 { "" } else { "s" }
            );
            String::new()
        } else if pos.phase == Phase::Muster {
            let names: Vec<String> = self
                .army_options()
                .into_iter()
                .map(|i| pos.options[usize::from(pos.mover)][i].name.clone())
                .collect();
            let _ = writeln!(
                out,
                "before the match: {} chooses an army ({})",
                self.player(pos.mover),
                names.join(", ")
            );
            return out;
        } else if pos.sudden_death {
            format!("sudden death, turn {}", pos.sudden_turns + 1)
        } else {
            let limit = self
                .program
                .turns()
                .map_or(String::new(), |t| format!(" of {t}"));
            format!("turn {}{limit}", pos.turns + 1)
        };
        if !turn.is_empty() {
            let _ = writeln!(out, "{turn}: {} to play", self.player(pos.mover));
        }
        for (i, side) in pos.sides.iter().enumerate() {
            let p = u8::try_from(i).unwrap_or(0);
            let hand: Vec<&str> = side
                .hand
                .iter()
                .map(|&c| self.program.cards[c].name.as_str())
                .collect();
            let points = if self.program.points.is_empty() {
                String::new()
            } else {
                let n = self.points(p);
                format!(", {n} point{}", if n == 1 { "" } else { "s" })
            };
            let _ = writeln!(
                out,
                "{:>6}: {} capture{}{points}, {} on the table, hand [{}], deck {}",
                self.player(p),
                side.captures,
                if side.captures == 1 { "" } else { "s" },
                pos.stones
                    .iter()
                    .filter(|s| s.owner == p && s.disc.on_table)
                    .count(),
                hand.join(", "),
                side.deck.len()
            );
        }
        out
    }

    /// Every stone on the table with its position: `STONE 60.0,27.3`.
    #[must_use]
    pub fn stone_list(&self) -> Vec<String> {
        (0..self.position.stones.len())
            .filter(|&i| self.on_table(i))
            .map(|i| {
                let d = self.position.stones[i].disc;
                format!("{} {:.1},{:.1}", self.stone_name(i), d.x, d.y)
            })
            .collect()
    }

    /// A legal decision of a simple aiming player: a random choice; a shot aims to knock a
    /// random stone of the opponent's towards the nearer end of the table's length (else it is
    /// uniform), at 60–100% of the top speed.
    pub fn aimed_decision(&mut self, rng: &mut impl Rng) -> Option<Decision> {
        let d = self.random_decision(rng)?;
        let Decision::Shot {
            card, stone, speed, ..
        } = d
        else {
            return Some(d);
        };
        let opponent = Self::opponent(self.position.mover);
        let targets: Vec<usize> = (0..self.position.stones.len())
            .filter(|&i| self.position.stones[i].owner == opponent && self.on_table(i))
            .collect();
        let Some(&target) = targets.choose(rng) else {
            return Some(d);
        };
        let (from, to) = (
            self.position.stones[stone].disc,
            self.position.stones[target].disc,
        );
        // Hit the target on its far side from the nearer end, so that it moves towards it.
        let push = if to.x > self.program.length / 2.0 {
            1.0
        } else {
            -1.0
        };
        let aim_x = to.x - push * (from.radius + to.radius);
        let degrees = libm::atan2(to.y - from.y, aim_x - from.x).to_degrees();
        #[allow(clippy::cast_possible_truncation)]
        let angle = (degrees.round() as i32).rem_euclid(360);
        let top = self.shot_limit(card, stone);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let speed = top.map_or(speed, |m| {
            let tenths = (m * 10.0).floor().max(0.0) as u32;
            rng.gen_range(tenths * 6 / 10..=tenths)
        });
        Some(Decision::Shot {
            card,
            stone,
            angle,
            speed,
        })
    }

    /// A random legal decision: shots with a uniform angle and speed.
    pub fn random_decision(&mut self, rng: &mut impl Rng) -> Option<Decision> {
        let choices = self.choices();
        let c = choices.choose(rng)?;
        Some(match c {
            Choice::Shot {
                card,
                stone,
                max_speed,
            } => {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                let top = (max_speed * 10.0).floor().max(0.0) as u32;
                if self.program.referee {
                    Decision::Declare {
                        card: *card,
                        stone: *stone,
                    }
                } else {
                    Decision::Shot {
                        card: *card,
                        stone: *stone,
                        angle: rng.gen_range(0..360),
                        speed: rng.gen_range(0..=top),
                    }
                }
            }
            Choice::Skip { card } => Decision::Skip { card: *card },
            Choice::Result => Decision::Result(Vec::new()),
            Choice::Army(i) => Decision::Army(*i),
        })
    }
}

fn phys_axis(a: Axis) -> physics::Axis {
    match a {
        Axis::X => physics::Axis::X,
        Axis::Y => physics::Axis::Y,
    }
}

/// `15@22.5` → (15, 225): whole degrees, speed in tenths.
fn parse_shot(text: &str) -> Option<(i32, u32)> {
    let (a, s) = text.split_once('@')?;
    let angle = a.parse::<i32>().ok()?;
    let (whole, tenth) = match s.split_once('.') {
        Some((w, t)) if t.len() == 1 => (w, t),
        Some(_) => return None,
        None => (s, "0"),
    };
    let speed = whole
        .parse::<u32>()
        .ok()?
        .checked_mul(10)?
        .checked_add(tenth.parse::<u32>().ok()?)?;
    Some((angle, speed))
}

/// Evenly spaced points across a line, ordered from the middle outward.
fn slots(length: f64, n: usize) -> Vec<f64> {
    #[allow(clippy::cast_precision_loss)]
    let step = length / (n as f64 + 1.0);
    #[allow(clippy::cast_precision_loss)]
    let mut points: Vec<f64> = (1..=n).map(|i| step * i as f64).collect();
    let middle = length / 2.0;
    points.sort_by(|a, b| {
        (a - middle)
            .abs()
            .total_cmp(&(b - middle).abs())
            .then(a.total_cmp(b))
    });
    points
}

/// The stones of both armies at their starting points.
fn set_up(program: &TableProgram, sides: &[Side], table: &physics::Table) -> Vec<Stone> {
    let mut stones = Vec::new();
    for (owner, side) in sides.iter().enumerate() {
        for (kind, &n) in side.army.stones.iter().enumerate() {
            for number in 1..=n {
                let d = &program.discs[kind];
                stones.push(Stone {
                    owner: u8::try_from(owner).unwrap_or(0),
                    kind,
                    number,
                    disc: Disc {
                        x: 0.0,
                        y: 0.0,
                        vx: 0.0,
                        vy: 0.0,
                        radius: d.radius,
                        mass: d.mass,
                        on_table: false,
                    },
                    captured_by: None,
                });
            }
        }
    }
    let place = |stones: &mut Vec<Stone>, group: &[usize], line: usize| {
        let l = &program.lines[line];
        let length = match l.axis {
            Axis::X => table.height,
            Axis::Y => table.width,
        };
        let mut points = slots(length, group.len());
        if points.len() > 1 && group.len() == points.len() {
            // An alternating row keeps the line's order; a home row fills from the middle.
            points.sort_by(f64::total_cmp);
        }
        for (&i, along) in group.iter().zip(points) {
            let d = &mut stones[i].disc;
            (d.x, d.y) = match l.axis {
                Axis::X => (l.at, along),
                Axis::Y => (along, l.at),
            };
            d.on_table = true;
        }
    };
    for placement in &program.setup {
        let of = |owner: u8, stones: &Vec<Stone>| -> Vec<usize> {
            (0..stones.len())
                .filter(|&i| stones[i].owner == owner && placement.discs.contains(&stones[i].kind))
                .collect()
        };
        let (a, b) = (of(0, &stones), of(1, &stones));
        match placement.line {
            Some(line) => {
                let group: Vec<usize> = if placement.alternating {
                    let mut g = Vec::new();
                    for i in 0..a.len().max(b.len()) {
                        g.extend(a.get(i));
                        g.extend(b.get(i));
                    }
                    g
                } else {
                    a.into_iter().chain(b).collect()
                };
                place(&mut stones, &group, line);
            }
            None => {
                for (owner, group) in [(0, a), (1, b)] {
                    if let Some(Some(line)) = program.homes.get(owner) {
                        let l = &program.lines[*line];
                        let length = match l.axis {
                            Axis::X => table.height,
                            Axis::Y => table.width,
                        };
                        for (&i, along) in group.iter().zip(slots(length, group.len())) {
                            let d = &mut stones[i].disc;
                            (d.x, d.y) = match l.axis {
                                Axis::X => (l.at, along),
                                Axis::Y => (along, l.at),
                            };
                            d.on_table = true;
                        }
                    }
                }
            }
        }
    }
    stones
}
