//! Table games lowered for one set of option and parameter values: every amount is a number,
//! every name an index, and the armies are resolved to decks of card indices.

use crate::CmpOp;

/// The physical constants of a table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhysicsConstants {
    pub friction: f64,
    pub stone_restitution: f64,
    pub wall_restitution: f64,
    pub wall_jump_speed: f64,
    pub time_step: f64,
}

impl Default for PhysicsConstants {
    fn default() -> Self {
        PhysicsConstants {
            friction: 20.0,
            stone_restitution: 0.9,
            wall_restitution: 0.6,
            wall_jump_speed: 40.0,
            time_step: 0.004,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Line {
    pub name: String,
    pub axis: Axis,
    pub at: f64,
    /// What happens to a stone whose centre crosses it (it leaves the table then).
    pub capture: Option<Effect>,
    /// A region's boundary: the capture applies only crossing into the region, towards larger
    /// (`Some(true)`) or smaller coordinates.
    pub only: Option<bool>,
}

#[derive(Clone, Debug)]
pub struct DiscKind {
    pub name: String,
    pub letter: String,
    pub radius: f64,
    pub mass: f64,
    /// Written without a number: the army rules allow one per army.
    pub single: bool,
}

#[derive(Clone, Debug)]
pub struct Card {
    pub name: String,
    pub faction: usize,
    pub disc: usize,
    pub max_speed: f64,
    pub by_hand: bool,
}

/// A player's army: factions, stones per disc kind, and the deck in the order written.
#[derive(Clone, Debug)]
pub struct Army {
    pub name: String,
    pub factions: Vec<usize>,
    pub stones: Vec<u32>,
    pub deck: Vec<usize>,
}

/// A step of the turn program, flattened: conditions jump.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// Draw `count` cards, or (`to`) until the hand holds `count`.
    Draw { to: bool, count: u32 },
    /// Every card in hand is played or set aside, in any order.
    PlayEachCard,
    /// A shot without a card (`free` in notation) with a stone of one of these kinds.
    Shot { discs: Vec<usize>, max_speed: f64 },
    /// Go on at this step unless the condition holds.
    Unless(Vec<Compare<f64>>, usize),
    /// Go on at this step.
    Jump(usize),
}

#[derive(Clone, Debug)]
pub struct Penalty {
    pub name: String,
    pub text: String,
    pub warnings: u32,
}

/// A table game ready to run.
#[derive(Clone, Debug)]
pub struct TableProgram {
    pub name: String,
    pub players: Vec<String>,
    /// Option and parameter values, for display and records.
    pub settings: Vec<(String, String)>,
    pub length: f64,
    pub width: f64,
    pub physics: PhysicsConstants,
    pub walls: Vec<(Axis, f64)>,
    pub lines: Vec<Line>,
    /// Per player: the home line.
    pub homes: Vec<Option<usize>>,
    pub discs: Vec<DiscKind>,
    pub factions: Vec<String>,
    pub cards: Vec<Card>,
    /// The armies the game file declares (used when none is given).
    pub armies: Vec<Army>,
    pub setup: Vec<Placement>,
    pub aim_noise: f64,
    /// The turn program.
    pub steps: Vec<Op>,
    /// Index into `lines` (a region), points.
    pub points: Vec<(usize, u32)>,
    pub over_wall_shot: Option<Effect>,
    pub over_wall_knocked: Option<Effect>,
    pub off_table: Option<Effect>,
    /// `win when`: a player for whom one of these holds wins.
    pub wins: Vec<Vec<Compare<f64>>>,
    /// After this many turns the player with more of the quantity wins.
    pub after: Option<(u32, Measure)>,
    /// Level then: sudden death for this many turns, then a draw.
    pub sudden_death: Option<u32>,
    pub turn_clock: Option<f64>,
    /// Seconds for the whole match on a real clock; then it ends as after the last turn.
    pub match_clock: Option<f64>,
    pub penalties: Vec<Penalty>,
    pub referee: bool,
    /// The army rules say the players' factions differ.
    pub factions_differ: bool,
}

impl TableProgram {
    #[must_use]
    pub fn card(&self, name: &str) -> Option<usize> {
        self.cards.iter().position(|c| c.name == name)
    }

    /// The turns of the match before its end (and any sudden death).
    #[must_use]
    pub fn turns(&self) -> Option<u32> {
        self.after.map(|(t, _)| t)
    }

    /// The match's rules as the game text writes them: `win when ...`, `after N turns: most Q`,
    /// `tie: ...` (what `info` shows).
    #[must_use]
    pub fn match_rules(&self) -> Vec<String> {
        let mut rules: Vec<String> = self
            .wins
            .iter()
            .map(|all| {
                let parts: Vec<String> = all.iter().map(ToString::to_string).collect();
                format!("win when {}", parts.join(" and "))
            })
            .collect();
        if let Some((turns, most)) = self.after {
            rules.push(format!("after {turns} turns: most {}", most.name()));
            rules.push(match self.sudden_death {
                Some(n) => format!("tie: sudden death for {n} turns"),
                None => "tie: draw".to_string(),
            });
        }
        rules
    }

    /// The captures that win at once, when a rule says just that (`win when captures >= N`).
    #[must_use]
    pub fn captures_to_win(&self) -> Option<u32> {
        self.wins.iter().find_map(|w| match w.as_slice() {
            [Compare {
                left: Term::Mine(Measure::Captures),
                op: CmpOp::Ge,
                right: Term::Amount(n),
            }] =>
            {
                #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                Some(n.max(0.0).ceil() as u32)
            }
            _ => None,
        })
    }
}

/// A quantity of a table game that a condition compares: the mover's (in a turn) or the player's
/// being tested (in `win when`), or with `opponent` the other player's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Stones shot this turn.
    Shots,
    /// Turns finished in the match.
    Turns,
    Captures,
    /// The points of the player's stones by the regions they lie in (`points`).
    Points,
    /// The player's stones on the table.
    Stones,
    /// Cards in hand.
    Hand,
    /// Cards in the deck.
    Deck,
}

impl Measure {
    /// The quantity a name denotes.
    #[must_use]
    pub fn named(name: &str) -> Option<Measure> {
        Some(match name {
            "shots" => Measure::Shots,
            "turns" => Measure::Turns,
            "captures" => Measure::Captures,
            "points" => Measure::Points,
            "stones" => Measure::Stones,
            "hand" => Measure::Hand,
            "deck" => Measure::Deck,
            _ => return None,
        })
    }

    /// Whether each player has their own (`most` and `opponent` need it).
    #[must_use]
    pub fn per_player(self) -> bool {
        !matches!(self, Measure::Shots | Measure::Turns)
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Measure::Shots => "shots",
            Measure::Turns => "turns",
            Measure::Captures => "captures",
            Measure::Points => "points",
            Measure::Stones => "stones",
            Measure::Hand => "hand",
            Measure::Deck => "deck",
        }
    }
}

/// One side of a comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Term<A> {
    Amount(A),
    Mine(Measure),
    Theirs(Measure),
}

impl<A: std::fmt::Display> std::fmt::Display for Term<A> {
    /// As the game text writes it: `8`, `captures`, `opponent captures`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Term::Amount(a) => write!(f, "{a}"),
            Term::Mine(m) => f.write_str(m.name()),
            Term::Theirs(m) => write!(f, "opponent {}", m.name()),
        }
    }
}

impl<A: std::fmt::Display> std::fmt::Display for Compare<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {}", self.left, self.op.symbol(), self.right)
    }
}

/// `left op right`; a condition is a list of them, all of which must hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Compare<A> {
    pub left: Term<A>,
    pub op: CmpOp,
    pub right: Term<A>,
}

/// `x = at` or `y = at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axis {
    X,
    Y,
}

#[derive(Clone, Debug)]
pub struct Placement {
    pub discs: Vec<usize>,
    /// `None`: each player's home line.
    pub line: Option<usize>,
    pub alternating: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    ByOpponentOfOwner,
    ByOpponentOfShooter,
    BackTo(usize),
}
