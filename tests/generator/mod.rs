//! A seeded generator of random, well-typed `.game` sources, for the differential test of the
//! two backends (`tests/differential.rs`).
//!
//! [`game`] turns a `u64` seed into a whole game file: a board (a row, a square grid, possibly
//! with holes or an option for its width, a hex grid in axial or doubled coordinates, a box or
//! a pyramid; up to 100 cells, so compiled code runs both its one-word and its two-word cell
//! sets), directions and relations (some player-relative), patterns, zones, one to three piece
//! kinds, counters (plain, per player, per cell), and sometimes options (an integer, an enum
//! whose variants are compiled apart), a token, a track, shapes, a roll, a score, defines,
//! markers and status lines; then a setup, a turn program of random statements, and
//! `on no moves`.
//!
//! The turn is built from the statements the language offers (`pick` of cells and of
//! directions, also `by opponent`; `put`, `remove`, `move`, `place`; `if`/`else if`/`else`,
//! `either`, `first`, `repeat`, `distinct`, `while`; `let` of sets, cells and directions and new
//! values for variables; counter changes; `require`; `write`; `win`/`lose`/`draw`; `again`;
//! `enter`/`advance`/`take`), some of them in the shapes the bundled games use them (a
//! placement, a step, Pylos's take-back, a slide, Tankball's walk in a `distinct` loop), over
//! random sets (`empty`, `own`, `pieces`, zones, `step`, `any`/`all`/`none`, `ray`, `run`,
//! `between`, `brackets`, `where`, `|`, `&`, `-`, ...), conditions (`count`, `in`, `owner`,
//! `completes`, `connected`, `d in R`, comparisons, `and`/`or`/`not`) and integers (counters,
//! coordinates, `index`, `waiting`, `points`, arithmetic, division by zero included).
//!
//! The generator keeps to what the checker accepts by construction: it tracks the variables
//! in scope (as the language's scoping rules bind them), the `let` sets and variable slots a
//! program may name, and, along every way through the turn, an estimate of the number of ways
//! (each `pick` from a board-wide set counts as many as the board has cells, one from a
//! neighbourhood as eight) and of the decisions a move holds, so move lists stay small enough
//! to search. Every game ends: a turn counter that only the end of the turn changes ends the
//! game in a draw after a few dozen turns.
//!
//! It does not write `points(owner(c))`: on an empty cell that is the points of no player, a
//! known bug (`tests/differential/found/`). It does not write table games (no compiled
//! backend).
//!
//! The same seed always gives the same text (ChaCha8, no hash maps, no clocks). [`game_from`]
//! takes any source of random numbers instead: the fuzz target `generated` (`fuzz/checks.rs`)
//! feeds it the fuzzer's bytes, so that coverage guides the games it writes.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The game file for `seed`.
#[must_use]
pub fn game(seed: u64) -> String {
    game_from(Box::new(ChaCha8Rng::seed_from_u64(seed)), seed)
}

/// The game file whose every choice comes from `rng`; `label` is the number its first comment
/// names as its seed.
#[must_use]
pub fn game_from(mut rng: Box<dyn RngCore>, label: u64) -> String {
    let world = World::new(&mut *rng);
    let mut g = Gen {
        rng,
        w: &world,
        out: String::new(),
        indent: 0,
        next_name: 0,
        slots: 0,
        lets: 0,
        set_defines: Vec::new(),
        cond_defines: Vec::new(),
        places: 0,
    };
    g.file(label)
}

/// Estimated log2 of the ways one way through the turn may branch into, at most.
const MAX_COST: u32 = 12;
/// Decisions along one way through the turn, at most (a move holds 23).
const MAX_DECISIONS: u32 = 14;
/// Variable slots (picked and `let` names, `repeat`s and `while`s), at most (16 allowed).
const MAX_SLOTS: u32 = 14;
/// Sets named with `let`, at most (4 allowed).
const MAX_LETS: u32 = 3;
/// The cost of a pick from a neighbourhood (`step(R, v)`, a run, a ray).
const LOCAL: u32 = 3;

fn letter(n: i64) -> char {
    char::from(b'a' + u8::try_from(n).expect("a small coordinate"))
}

/// ceil(log2(n)), at least 1.
fn bits(n: usize) -> u32 {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// A relation (or a direction, which stands for the relation of its one vector).
#[derive(Clone, Debug)]
struct Rel {
    name: String,
    /// The most vectors one player has.
    size: usize,
    /// Whether it is a declared direction (one vector) rather than a relation.
    direction: bool,
}

/// The board and what is declared on it.
struct World {
    players: [&'static str; 2],
    axes: Vec<&'static str>,
    /// Cell names in board order.
    cells: Vec<String>,
    /// Cells that exist for every value of the size option (all cells when there is none).
    safe_cells: Vec<String>,
    decls: String,
    /// Relations and directions usable where a relation is expected.
    rels: Vec<Rel>,
    patterns: Vec<String>,
    zones: Vec<String>,
    pieces: Vec<String>,
    /// Plain counters expressions may read.
    readable: Vec<String>,
    /// Plain counters the turn may change (not the turn counter or the phase).
    writable: Vec<String>,
    per_player: Option<String>,
    per_cell: Option<String>,
    scratch: Option<String>,
    token: Option<String>,
    enum_opt: Option<(String, [&'static str; 2])>,
    limit: String,
    roll: bool,
    score: bool,
    /// A track's name, with its lanes' fields.
    track: Option<(String, Vec<String>)>,
    /// Shapes are declared (they settle on the per-cell counter).
    shapes: bool,
}

/// The counters [`World::counters`] declared, and the two draws made among them.
struct Counters {
    roll: bool,
    readable: Vec<String>,
    writable: Vec<String>,
    per_player: Option<String>,
    per_cell: Option<String>,
    scratch: Option<String>,
    shapes: bool,
}

/// One board layout: axes, ranges, names, geometry.
struct Layout {
    axes: Vec<&'static str>,
    board: String,
    cells: Vec<Vec<i64>>,
    names: Vec<String>,
    /// `(name, vector)` of declared directions.
    directions: Vec<(&'static str, String)>,
    /// `(name, body, size)` of candidate relations; the first is always declared.
    relations: Vec<(&'static str, String, usize)>,
    patterns: Vec<(&'static str, String)>,
    /// Zones `(name, body)`; the first two are the players' home zones.
    zones: Vec<(String, String)>,
    /// Cells on the smallest board of the size option, if the board has one.
    safe: Option<Vec<String>>,
    size_option: Option<String>,
}

impl Layout {
    fn new(rng: &mut dyn RngCore, players: [&'static str; 2]) -> Layout {
        match rng.gen_range(0..20) {
            0..=1 => Layout::row(rng, players),
            2..=10 => Layout::square(rng, players),
            11..=13 => Layout::axial(rng, players),
            14..=15 => Layout::doubled(rng, players),
            16..=17 => Layout::boxed(rng),
            _ => Layout::pyramid(rng),
        }
    }

    fn pick_cells(rng: &mut dyn RngCore, names: &[String], n: usize) -> String {
        let mut chosen: Vec<&String> = names.choose_multiple(rng, n.min(names.len())).collect();
        chosen.sort_by_key(|c| names.iter().position(|x| x == *c));
        let parts: Vec<&str> = chosen.iter().map(|s| s.as_str()).collect();
        format!("{{{}}}", parts.join(", "))
    }

    fn row(rng: &mut dyn RngCore, players: [&'static str; 2]) -> Layout {
        let n = rng.gen_range(4..=8);
        let cells: Vec<Vec<i64>> = (0..n).map(|x| vec![x]).collect();
        let names: Vec<String> = (0..n).map(|x| letter(x).to_string()).collect();
        let board = format!(
            "board {{\n    axes x\n    cells x in 0..{}\n    name \"{{letter(x)}}\"\n}}",
            n - 1
        );
        let [a, b] = players;
        Layout {
            axes: vec!["x"],
            board,
            directions: vec![("east", "(1)".into()), ("west", "(-1)".into())],
            relations: vec![
                ("sides", "east | west".into(), 2),
                ("ahead", format!("east for {a} | west for {b}"), 1),
                ("hop", "(2) | (-2)".into(), 2),
                ("reach", "sides | hop".into(), 4),
            ],
            patterns: vec![
                ("pair", "(0) (1)".into()),
                ("trio", "(0) (1) (2)".into()),
                ("whole", "line east".into()),
            ],
            zones: vec![
                ("home1".into(), "cells where x == 0".into()),
                ("home2".into(), format!("cells where x == {}", n - 1)),
                ("middle".into(), "cells - home1 - home2".into()),
                ("spots".into(), Layout::pick_cells(rng, &names, 2)),
            ],
            cells,
            names,
            safe: None,
            size_option: None,
        }
    }

    fn square(rng: &mut dyn RngCore, players: [&'static str; 2]) -> Layout {
        let big = rng.gen_bool(0.25);
        let (w, h) = if big {
            (rng.gen_range(9..=10), rng.gen_range(8..=10))
        } else {
            (rng.gen_range(3..=8), rng.gen_range(3..=8))
        };
        // Sometimes the width is an option (the checker also builds its extremes).
        let size_option = (!big && rng.gen_bool(0.12)).then(|| "width".to_string());
        let y0: i64 = i64::from(rng.gen_bool(0.2));
        let filter = match rng.gen_range(0..10) {
            0..=5 => None,
            6..=7 => Some(("(x + y) % 2 == 0".to_string(), 0)),
            8 => Some((
                format!(
                    "not ((x == 0 or x == {}) and (y == {y0} or y == {}))",
                    w - 1,
                    h - 1 + y0
                ),
                1,
            )),
            _ => Some((format!("x + y >= {}", 1 + y0), 2)),
        };
        let keep = |x: i64, y: i64| match &filter {
            None => true,
            Some((_, 0)) => (x + y) % 2 == 0,
            Some((_, 1)) => !((x == 0 || x == w - 1) && (y == y0 || y == h - 1 + y0)),
            Some(_) => x + y > y0,
        };
        let mut cells = Vec::new();
        let mut names = Vec::new();
        let mut safe = Vec::new();
        for x in 0..w {
            for y in y0..h + y0 {
                if keep(x, y) {
                    cells.push(vec![x, y]);
                    let name = format!("{}{}", letter(x), y + 1 - y0);
                    if x < 3 {
                        safe.push(name.clone());
                    }
                    names.push(name);
                }
            }
        }
        let width = match &size_option {
            Some(o) => format!("{o} - 1"),
            None => (w - 1).to_string(),
        };
        let name = if y0 == 0 {
            "{letter(x)}{y + 1}"
        } else {
            "{letter(x)}{y}"
        };
        let board = format!(
            "board {{\n    axes x, y\n    cells x in 0..{width}, y in {y0}..{}\n{}    name \"{name}\"\n}}",
            h - 1 + y0,
            filter
                .as_ref()
                .map(|(f, _)| format!("    if {f}\n"))
                .unwrap_or_default()
        );
        let [a, b] = players;
        let mut relations = vec![
            ("orth", "north | east | south | west".to_string(), 4),
            ("diag", "(1, 1) | (1, -1) | (-1, -1) | (-1, 1)".into(), 4),
            ("king", "orth | diag".into(), 8),
            ("ahead", format!("north for {a} | south for {b}"), 1),
            (
                "forks",
                format!("(-1, 1) for {a} | (1, 1) for {a} | (-1, -1) for {b} | (1, -1) for {b}"),
                2,
            ),
            (
                "knight",
                "(1, 2) | (2, 1) | (2, -1) | (1, -2) | (-1, -2) | (-2, -1) | (-2, 1) | (-1, 2)"
                    .into(),
                8,
            ),
            ("jumps", "(0, 2) | (2, 0) | (0, -2) | (-2, 0)".into(), 4),
        ];
        if matches!(filter, Some((_, 0))) {
            // On the dark squares only diagonal steps link cells: declare them first.
            relations.swap(0, 1);
        }
        let ymax = h - 1 + y0;
        Layout {
            axes: vec!["x", "y"],
            board,
            directions: vec![
                ("north", "(0, 1)".into()),
                ("east", "(1, 0)".into()),
                ("south", "(0, -1)".into()),
                ("west", "(-1, 0)".into()),
            ],
            relations,
            patterns: vec![
                ("row", "line east".into()),
                ("column", "line north".into()),
                ("three", "(0, 0) (1, 0) (2, 0)".into()),
                ("block", "(0, 0) (1, 0) (0, 1) (1, 1)".into()),
                ("rise", "(0, 0) (1, 1) (2, 2)".into()),
            ],
            zones: vec![
                ("home1".into(), format!("cells where y == {y0}")),
                ("home2".into(), format!("cells where y == {ymax}")),
                (
                    "edge".into(),
                    format!("cells where x == 0 or y == {y0} or y == {ymax}"),
                ),
                ("inner".into(), "cells - edge".into()),
                (
                    "spots".into(),
                    Layout::pick_cells(rng, if size_option.is_some() { &safe } else { &names }, 3),
                ),
                ("low".into(), format!("cells where x + y < {}", y0 + 3)),
            ],
            cells,
            names,
            safe: size_option.as_ref().map(|_| safe),
            size_option,
        }
    }

    fn axial(rng: &mut dyn RngCore, players: [&'static str; 2]) -> Layout {
        let n = rng.gen_range(3..=9);
        let hexagon = rng.gen_bool(0.6);
        let k = (n - 1) / 2;
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for q in 0..n {
            for r in 0..n {
                if !hexagon || (q + r >= k && q + r <= 2 * n - 2 - k) {
                    cells.push(vec![q, r]);
                    names.push(format!("{}{}", letter(q), r + 1));
                }
            }
        }
        let filter = if hexagon {
            format!("    if q + r >= {k} and q + r <= {}\n", 2 * n - 2 - k)
        } else {
            String::new()
        };
        let board = format!(
            "board {{\n    axes q, r\n    cells q in 0..{m}, r in 0..{m}\n{filter}    name \"{{letter(q)}}{{r + 1}}\"\n}}",
            m = n - 1
        );
        let [a, b] = players;
        Layout {
            axes: vec!["q", "r"],
            board,
            directions: vec![
                ("ne", "(1, 0)".into()),
                ("se", "(1, -1)".into()),
                ("south", "(0, -1)".into()),
                ("sw", "(-1, 0)".into()),
                ("nw", "(-1, 1)".into()),
                ("north", "(0, 1)".into()),
            ],
            relations: vec![
                ("hexes", "ne | se | south | sw | nw | north".into(), 6),
                ("ahead", format!("north for {a} | south for {b}"), 1),
                (
                    "forward",
                    format!("north for {a} | ne for {a} | south for {b} | sw for {b}"),
                    2,
                ),
                (
                    "far",
                    "(1, 1) | (2, -1) | (1, -2) | (-1, -1) | (-2, 1) | (-1, 2)".into(),
                    6,
                ),
            ],
            patterns: vec![
                ("row", "line ne".into()),
                ("three", "(0, 0) (1, 0) (2, 0)".into()),
                ("corner", "(0, 0) (1, 0) (0, 1)".into()),
            ],
            zones: vec![
                ("home1".into(), "cells where r == 0".into()),
                ("home2".into(), format!("cells where r == {}", n - 1)),
                (
                    "rim".into(),
                    format!("cells where q == 0 or q == {}", n - 1),
                ),
                ("centre".into(), "cells - home1 - home2 - rim".into()),
                ("spots".into(), Layout::pick_cells(rng, &names, 2)),
            ],
            cells,
            names,
            safe: None,
            size_option: None,
        }
    }

    fn doubled(rng: &mut dyn RngCore, players: [&'static str; 2]) -> Layout {
        let w = rng.gen_range(3..=8);
        let h = rng.gen_range(3..=9);
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for x in 0..2 * w {
            for y in 0..h {
                if (x + y) % 2 == 0 {
                    cells.push(vec![x, y]);
                    names.push(format!("{}{}", letter(y), x / 2 + 1));
                }
            }
        }
        let board = format!(
            "board {{\n    axes x, y\n    cells x in 0..{}, y in 0..{}\n    if (x + y) % 2 == 0\n    name \"{{letter(y)}}{{x / 2 + 1}}\"\n}}",
            2 * w - 1,
            h - 1
        );
        let [a, b] = players;
        Layout {
            axes: vec!["x", "y"],
            board,
            directions: vec![
                ("east", "(2, 0)".into()),
                ("se", "(1, -1)".into()),
                ("sw", "(-1, -1)".into()),
                ("west", "(-2, 0)".into()),
                ("nw", "(-1, 1)".into()),
                ("ne", "(1, 1)".into()),
            ],
            relations: vec![
                ("hexes", "east | se | sw | west | nw | ne".into(), 6),
                (
                    "ahead",
                    format!("ne for {a} | nw for {a} | se for {b} | sw for {b}"),
                    2,
                ),
                ("sideways", "east | west".into(), 2),
            ],
            patterns: vec![
                ("row", "line east".into()),
                ("slant", "line ne".into()),
                ("three", "(0, 0) (2, 0) (4, 0)".into()),
            ],
            zones: vec![
                ("home1".into(), "cells where y == 0".into()),
                ("home2".into(), format!("cells where y == {}", h - 1)),
                (
                    "flank".into(),
                    format!("cells where x < 2 or x > {}", 2 * w - 3),
                ),
                ("spots".into(), Layout::pick_cells(rng, &names, 3)),
            ],
            cells,
            names,
            safe: None,
            size_option: None,
        }
    }

    fn boxed(rng: &mut dyn RngCore) -> Layout {
        let (a, b, c) = if rng.gen_bool(0.4) {
            (rng.gen_range(4..=5), rng.gen_range(4..=5), 4)
        } else {
            (
                rng.gen_range(2..=4),
                rng.gen_range(2..=4),
                rng.gen_range(2..=3),
            )
        };
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for x in 0..a {
            for y in 0..b {
                for z in 0..c {
                    cells.push(vec![x, y, z]);
                    names.push(format!("{}{}{}", letter(z), letter(x), y + 1));
                }
            }
        }
        let board = format!(
            "board {{\n    axes x, y, z\n    cells x in 0..{}, y in 0..{}, z in 0..{}\n    name \"{{letter(z)}}{{letter(x)}}{{y + 1}}\"\n}}",
            a - 1,
            b - 1,
            c - 1
        );
        Layout {
            axes: vec!["x", "y", "z"],
            board,
            directions: vec![
                ("east", "(1, 0, 0)".into()),
                ("north", "(0, 1, 0)".into()),
                ("up", "(0, 0, 1)".into()),
                ("west", "(-1, 0, 0)".into()),
                ("south", "(0, -1, 0)".into()),
                ("down", "(0, 0, -1)".into()),
            ],
            relations: vec![
                ("flat", "east | north | west | south".into(), 4),
                ("vertical", "up | down".into(), 2),
                ("around", "flat | vertical".into(), 6),
                (
                    "rise",
                    "(1, 0, 1) | (0, 1, 1) | (-1, 0, 1) | (0, -1, 1)".into(),
                    4,
                ),
            ],
            patterns: vec![
                ("pillar", "line up".into()),
                ("pair", "(0, 0, 0) (1, 0, 0)".into()),
                ("square", "(0, 0, 0) (1, 0, 0) (0, 1, 0) (1, 1, 0)".into()),
            ],
            zones: vec![
                ("home1".into(), "cells where z == 0".into()),
                ("home2".into(), format!("cells where z == {}", c - 1)),
                ("wall".into(), "cells where x == 0".into()),
                ("spots".into(), Layout::pick_cells(rng, &names, 2)),
            ],
            cells,
            names,
            safe: None,
            size_option: None,
        }
    }

    fn pyramid(rng: &mut dyn RngCore) -> Layout {
        let n: i64 = rng.gen_range(3..=6);
        let mut cells = Vec::new();
        let mut names = Vec::new();
        for l in 1..=n {
            for x in 0..=n - l {
                for y in 0..=n - l {
                    cells.push(vec![l, x, y]);
                    names.push(format!("{l}{}{}", letter(x), y + 1));
                }
            }
        }
        let board = format!(
            "board {{\n    axes l, x, y\n    cells l in 1..{n}, x in 0..{n} - l, y in 0..{n} - l\n    name \"{{l}}{{letter(x)}}{{y + 1}}\"\n}}"
        );
        Layout {
            axes: vec!["l", "x", "y"],
            board,
            directions: vec![
                ("east", "(0, 1, 0)".into()),
                ("north", "(0, 0, 1)".into()),
                ("up", "(1, 0, 0)".into()),
            ],
            relations: vec![
                (
                    "supports",
                    "(-1, 0, 0) | (-1, 1, 0) | (-1, 0, 1) | (-1, 1, 1)".into(),
                    4,
                ),
                (
                    "above",
                    "(1, 0, 0) | (1, -1, 0) | (1, 0, -1) | (1, -1, -1)".into(),
                    4,
                ),
                (
                    "flat",
                    "(0, 1, 0) | (0, -1, 0) | (0, 0, 1) | (0, 0, -1)".into(),
                    4,
                ),
            ],
            patterns: vec![
                ("square", "(0, 0, 0) (0, 1, 0) (0, 0, 1) (0, 1, 1)".into()),
                ("row", "line (0, 1, 0)".into()),
            ],
            zones: vec![
                ("home1".into(), "cells where l == 1 and x == 0".into()),
                (
                    "home2".into(),
                    format!("cells where l == 1 and x == {}", n - 1),
                ),
                ("ground".into(), "cells where l == 1".into()),
                ("upper".into(), "cells - ground".into()),
                ("top".into(), format!("cells where l == {n}")),
            ],
            cells,
            names,
            safe: None,
            size_option: None,
        }
    }
}

impl World {
    /// A random world: players, board and declarations. The helpers run in the order of the
    /// declarations they write, which is also the order of their random draws: a seed's text
    /// depends on it.
    fn new(rng: &mut dyn RngCore) -> World {
        let players = *[
            ["White", "Black"],
            ["Red", "Blue"],
            ["North", "South"],
            ["Light", "Dark"],
        ]
        .choose(rng)
        .expect("a pair");
        let layout = Layout::new(rng, players);
        let mut decls = String::new();
        decls.push_str(&format!("players {}, {}\n\n", players[0], players[1]));
        let (limit, enum_opt) = Self::options(rng, &layout, &mut decls);
        decls.push('\n');
        decls.push_str(&layout.board);
        decls.push_str("\n\n");
        let rels = Self::relations(rng, &layout, &mut decls);
        let patterns = Self::patterns(rng, &layout, &mut decls);
        let zones = Self::zones(rng, &layout, &mut decls);
        let pieces = Self::pieces(rng, &mut decls);
        let counters = Self::counters(rng, &layout, &mut decls);
        let token = Self::token(rng, &layout, &mut decls);
        let track = Self::track(rng, &layout, players, &mut decls);
        if counters.shapes {
            decls.push_str(
                "shape Domino count 3 points 2 {\n    (0, 0) (1, 0): 0..1\n}\n\
                 shape Ell count 2 points 5 flip \"!\" {\n    (0, 0) (1, 0): 0..1\n    (0, 1): 1..2\n    feet (0, 0) (1, 0)\n}\n",
            );
        }
        decls.push('\n');

        let safe_cells = layout.safe.clone().unwrap_or_else(|| layout.names.clone());
        let mut world = World {
            players,
            axes: layout.axes,
            cells: layout.names,
            safe_cells,
            decls,
            rels,
            patterns,
            zones,
            pieces,
            readable: counters.readable,
            writable: counters.writable,
            per_player: counters.per_player,
            per_cell: counters.per_cell,
            scratch: counters.scratch,
            token,
            enum_opt,
            limit,
            roll: counters.roll,
            score: false,
            track,
            shapes: counters.shapes,
        };
        world.score = rng.gen_bool(0.15);
        world
    }

    /// The options (the turn limit, an enum, the board's size): the limit is an option or a
    /// plain number, so both kinds of constants reach the compiled code.
    fn options(
        rng: &mut dyn RngCore,
        layout: &Layout,
        decls: &mut String,
    ) -> (String, Option<(String, [&'static str; 2])>) {
        let limit = if rng.gen_bool(0.4) {
            let l = rng.gen_range(8..=40);
            decls.push_str(&format!("option limit: 4..60 = {l}\n"));
            "limit".to_string()
        } else {
            rng.gen_range(8..=40).to_string()
        };
        let enum_opt = rng.gen_bool(0.15).then(|| {
            let words = *[["calm", "wild"], ["short", "long"], ["plain", "fancy"]]
                .choose(rng)
                .expect("words");
            let default = words[usize::from(rng.gen_bool(0.5))];
            decls.push_str(&format!(
                "option style: {} | {} = {default}\n",
                words[0], words[1]
            ));
            ("style".to_string(), words)
        });
        if let Some(o) = &layout.size_option {
            let w = layout.cells.iter().map(|c| c[0]).max().expect("cells") + 1;
            decls.push_str(&format!("option {o}: 3..8 = {w}\n"));
        }
        (limit, enum_opt)
    }

    /// Directions and relations: every direction, the first relation always, some others (a
    /// relation naming another only with it), so programs meet both kinds.
    fn relations(rng: &mut dyn RngCore, layout: &Layout, decls: &mut String) -> Vec<Rel> {
        for (name, v) in &layout.directions {
            decls.push_str(&format!("direction {name} = {v}\n"));
        }
        let mut rels: Vec<Rel> = layout
            .directions
            .iter()
            .map(|(name, _)| Rel {
                name: (*name).to_string(),
                size: 1,
                direction: true,
            })
            .collect();
        let mut declared: Vec<&str> = Vec::new();
        for (i, (name, body, size)) in layout.relations.iter().enumerate() {
            // A relation naming another is declared only with it.
            let needs: Vec<&str> = layout
                .relations
                .iter()
                .map(|(n, _, _)| *n)
                .filter(|n| body.split(' ').any(|w| w == *n))
                .collect();
            let wanted = i == 0 || rng.gen_bool(0.5);
            if wanted && needs.iter().all(|n| declared.contains(n)) {
                decls.push_str(&format!("relation {name} = {body}\n"));
                declared.push(name);
                rels.push(Rel {
                    name: (*name).to_string(),
                    size: *size,
                    direction: false,
                });
            }
        }
        decls.push('\n');
        rels
    }

    /// Some of the layout's patterns, for `completes`.
    fn patterns(rng: &mut dyn RngCore, layout: &Layout, decls: &mut String) -> Vec<String> {
        let mut patterns = Vec::new();
        for (name, body) in &layout.patterns {
            if rng.gen_bool(0.4) {
                decls.push_str(&format!("pattern {name} = {body}\n"));
                patterns.push((*name).to_string());
            }
        }
        patterns
    }

    /// The two home zones always (the setup fills them), some others, each only with the
    /// zones it names.
    fn zones(rng: &mut dyn RngCore, layout: &Layout, decls: &mut String) -> Vec<String> {
        let mut zones = Vec::new();
        for (i, (name, body)) in layout.zones.iter().enumerate() {
            // Zones may name the zones before them.
            let ok = layout.zones[..i]
                .iter()
                .filter(|(n, _)| body.split(' ').any(|w| w == n))
                .all(|(n, _)| zones.contains(n));
            if ok && (i < 2 || rng.gen_bool(0.5)) {
                decls.push_str(&format!("zone {name} = {body}\n"));
                zones.push(name.clone());
            }
        }
        decls.push('\n');
        zones
    }

    /// One to three piece kinds, some with symbols.
    fn pieces(rng: &mut dyn RngCore, decls: &mut String) -> Vec<String> {
        let mut kinds = ["stone", "tower", "pawn", "queen", "disc"];
        kinds.shuffle(rng);
        let n_kinds = rng.gen_range(1..=3);
        let pieces: Vec<String> = kinds[..n_kinds].iter().map(ToString::to_string).collect();
        for (i, p) in pieces.iter().enumerate() {
            if rng.gen_bool(0.5) {
                let upper = ["S", "T", "P", "Q", "D"][i];
                decls.push_str(&format!(
                    "piece {p} \"{upper}\" \"{}\"\n",
                    upper.to_lowercase()
                ));
            } else {
                decls.push_str(&format!("piece {p}\n"));
            }
        }
        decls.push('\n');
        pieces
    }

    /// The counters (the turn counter always; plain, per player, per cell, hidden scratch ones
    /// and the roll's sometimes), and whether there is a roll and shapes, drawn among them.
    fn counters(rng: &mut dyn RngCore, layout: &Layout, decls: &mut String) -> Counters {
        let roll = rng.gen_bool(0.12);
        let mut readable = vec!["turns".to_string()];
        let mut writable = Vec::new();
        decls.push_str("counter turns = 0\n");
        if rng.gen_bool(0.5) {
            let init = rng.gen_range(0..4);
            decls.push_str(&format!("counter tally = {init}\n"));
            readable.push("tally".into());
            writable.push("tally".into());
        }
        let per_player = rng.gen_bool(0.4).then(|| {
            let init = rng.gen_range(0..6);
            decls.push_str(&format!("counter bank per player = {init}\n"));
            "bank".to_string()
        });
        let shapes = layout.axes.len() == 2 && rng.gen_bool(0.15);
        let per_cell = (shapes || rng.gen_bool(0.3)).then(|| {
            decls.push_str("counter heat per cell = 0\n");
            "heat".to_string()
        });
        let scratch = rng.gen_bool(0.3).then(|| {
            decls.push_str("counter steps = 0 hidden\n");
            "steps".to_string()
        });
        if roll {
            decls.push_str("counter phase = 0 hidden\ncounter die = 0\n");
            readable.push("die".into());
        }
        Counters {
            roll,
            readable,
            writable,
            per_player,
            per_cell,
            scratch,
            shapes,
        }
    }

    /// Sometimes a token, on a cell every board size has, maybe carried.
    fn token(rng: &mut dyn RngCore, layout: &Layout, decls: &mut String) -> Option<String> {
        rng.gen_bool(0.15).then(|| {
            let at = layout
                .safe
                .as_ref()
                .unwrap_or(&layout.names)
                .choose(rng)
                .expect("a cell")
                .clone();
            let carried = if rng.gen_bool(0.6) { " carried" } else { "" };
            decls.push_str(&format!("token flag at {at}{carried}\n"));
            "flag".to_string()
        })
    }

    /// Sometimes a track on a board of nine cells or more: lanes from the first cells (the first
    /// player's) and the last (the second's), cut at random into one or two segments.
    fn track(
        rng: &mut dyn RngCore,
        layout: &Layout,
        players: [&'static str; 2],
        decls: &mut String,
    ) -> Option<(String, Vec<String>)> {
        let safe_names = layout.safe.as_ref().unwrap_or(&layout.names);
        (safe_names.len() >= 9 && rng.gen_bool(0.15)).then(|| {
            let n = safe_names.len();
            let mut lanes = String::new();
            let mut fields = Vec::new();
            for (i, player) in players.iter().enumerate() {
                let cells: Vec<&String> = if i == 0 {
                    safe_names[..4].iter().collect()
                } else {
                    safe_names[n - 4..].iter().rev().collect()
                };
                let split = rng.gen_range(1..=4);
                let mut parts = vec![cells[..split]
                    .iter()
                    .map(|c| c.as_str())
                    .collect::<Vec<_>>()
                    .join(" -> ")];
                if split < 4 {
                    parts.push(
                        cells[split..]
                            .iter()
                            .map(|c| c.as_str())
                            .collect::<Vec<_>>()
                            .join(" -> "),
                    );
                }
                lanes.push_str(&format!("    {player}: {}\n", parts.join(", ")));
                fields.extend(cells.iter().map(|c| (*c).clone()));
            }
            decls.push_str(&format!("track bench {{\n{lanes}}}\n"));
            ("bench".to_string(), fields)
        })
    }

    fn adjacency(&self) -> Vec<&Rel> {
        self.rels.iter().filter(|r| !r.direction).collect()
    }
}

/// What is bound at a point of the program.
#[derive(Clone, Default, Debug)]
struct Scope {
    cells: Vec<String>,
    sets: Vec<String>,
    dirs: Vec<String>,
}

impl Scope {
    /// Names bound in both scopes beyond `base` (what an `either` or `if`/`else` exports).
    fn meet(base: &Scope, a: &Scope, b: &Scope) -> Scope {
        let keep = |x: &Vec<String>, y: &Vec<String>, z: &Vec<String>| -> Vec<String> {
            let mut out = x.clone();
            for n in y {
                if !out.contains(n) && z.contains(n) {
                    out.push(n.clone());
                }
            }
            out
        };
        Scope {
            cells: keep(&base.cells, &a.cells, &b.cells),
            sets: keep(&base.sets, &a.sets, &b.sets),
            dirs: keep(&base.dirs, &a.dirs, &b.dirs),
        }
    }
}

/// The estimated ways and decisions of one way through the program so far.
#[derive(Clone, Copy, Default, Debug)]
struct Path {
    cost: u32,
    decisions: u32,
}

impl Path {
    fn max(self, o: Path) -> Path {
        Path {
            cost: self.cost.max(o.cost),
            decisions: self.decisions.max(o.decisions),
        }
    }
}

/// Where a statement stands.
#[derive(Clone, Copy, Debug)]
struct Cx {
    depth: u32,
    /// Inside `while`: no choices and no `require`.
    no_choice: bool,
    /// Inside a loop on the scratch counter, which a nested one would reset.
    counting: bool,
    /// The path's limits.
    limit: Path,
}

impl Cx {
    fn deeper(self) -> Cx {
        Cx {
            depth: self.depth + 1,
            ..self
        }
    }

    fn within(self, path: Path, cost: u32, decisions: u32) -> bool {
        path.cost + cost <= self.limit.cost && path.decisions + decisions <= self.limit.decisions
    }
}

/// The cost of a choice among `k` alternatives.
fn alt(k: usize) -> u32 {
    if k <= 1 {
        0
    } else {
        bits(k)
    }
}

struct Gen<'w> {
    rng: Box<dyn RngCore>,
    w: &'w World,
    out: String,
    indent: usize,
    next_name: u32,
    slots: u32,
    lets: u32,
    set_defines: Vec<String>,
    cond_defines: Vec<String>,
    /// `place` variables bound (at most 2 a turn).
    places: u32,
}

/// The kinds of statements, drawn by weight.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Place,
    StepMove,
    Capture,
    Either,
    First,
    Repeat,
    TakeBack,
    Distinct,
    Slide,
    CountLoop,
    If,
    Pick,
    PickDir,
    Put,
    Remove,
    Move,
    Let,
    Reassign,
    Counter,
    Require,
    Write,
    End,
    Walk,
    Again,
    Track,
    Shape,
}

impl Gen<'_> {
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    fn one<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        xs.choose(&mut self.rng).expect("a non-empty choice")
    }

    /// A new variable name, when a slot is left.
    fn fresh(&mut self, prefix: &str) -> Option<String> {
        if self.slots >= MAX_SLOTS {
            return None;
        }
        self.slots += 1;
        self.next_name += 1;
        Some(format!("{prefix}{}", self.next_name))
    }

    fn file(&mut self, seed: u64) -> String {
        let w = self.w;
        self.out.push_str(&format!(
            "// Generated by tests/generator from seed {seed} for the differential test of the\n\
             // interpreter and the compiled backend (tests/differential.rs): random rules, not a\n\
             // game to play. Regenerate it as that file says; do not edit it.\n\n"
        ));
        self.out.push_str(&format!("game \"gen {seed}\"\n\n"));
        self.out.push_str(&w.decls);
        self.defines();
        if w.score && w.shapes {
            self.out.push_str("score p = points(p) * (1 + won(p))\n\n");
        } else if w.score {
            let k = self.one(&w.pieces).clone();
            let extra = match &w.per_player {
                Some(b) if self.chance(0.5) => format!(" + {b}[p]"),
                _ => String::new(),
            };
            self.out
                .push_str(&format!("score p = count(pieces({k}, p)){extra}\n\n"));
        }
        self.display();
        self.setup();
        self.turn();
        self.no_moves();
        std::mem::take(&mut self.out)
    }

    fn defines(&mut self) {
        let empty = Scope::default();
        let mut any = false;
        if self.chance(0.3) {
            let body = self.set(&empty, 2);
            self.out.push_str(&format!("define open = {body}\n"));
            self.set_defines.push("open".into());
            any = true;
        }
        if self.chance(0.2) {
            let body = self.cond(&empty, 1, false);
            self.out.push_str(&format!("define tense = {body}\n"));
            self.cond_defines.push("tense".into());
            any = true;
        }
        if any {
            self.out.push('\n');
        }
    }

    /// `marker` and `status`: shown by `play`, read by no move.
    fn display(&mut self) {
        let empty = Scope::default();
        let mut any = false;
        if self.chance(0.15) {
            let s = self.set(&empty, 1);
            self.out.push_str(&format!("marker \"*\" on {s}\n"));
            any = true;
        }
        if self.chance(0.15) {
            let n = self.int(&empty, 1, false);
            let when = if self.chance(0.5) {
                format!(" when {}", self.cond(&empty, 1, false))
            } else {
                String::new()
            };
            self.out.push_str(&format!("status \"n {{{n}}}\"{when}\n"));
            any = true;
        }
        if any {
            self.out.push('\n');
        }
    }

    fn setup(&mut self) {
        let w = self.w;
        let mut lines = Vec::new();
        // Most often both players start with pieces on their home zones, else neither does.
        if self.chance(0.8) {
            for (i, home) in ["home1", "home2"].iter().enumerate() {
                let k = self.one(&w.pieces).clone();
                lines.push(format!("put {k} of {} at {home}", w.players[i]));
            }
        }
        if self.chance(0.3) {
            let k = self.one(&w.pieces).clone();
            let p = *self.one(&w.players);
            let n = self.rng.gen_range(1..=3);
            let at = Layout::pick_cells(&mut self.rng, &w.safe_cells, n);
            lines.push(format!("put {k} of {p} at {at}"));
        }
        if let Some(b) = &w.per_player {
            if self.chance(0.3) {
                let p = *self.one(&w.players);
                let v = self.rng.gen_range(0..4);
                lines.push(format!("{b}[{p}] = {v}"));
            }
        }
        if w.writable.contains(&"tally".to_string()) && self.chance(0.3) {
            let v = self.rng.gen_range(0..5);
            lines.push(format!("tally = {v}"));
        }
        if let Some(h) = &w.per_cell {
            if self.chance(0.3) {
                let v = self.rng.gen_range(1..3);
                lines.push(format!("{h}[home1] = {v}"));
            }
        }
        if lines.is_empty() {
            return;
        }
        self.out.push_str("setup {\n");
        for l in lines {
            self.out.push_str(&format!("    {l}\n"));
        }
        self.out.push_str("}\n\n");
    }

    fn turn(&mut self) {
        let w = self.w;
        self.out.push_str("turn {\n");
        self.indent = 1;
        if w.roll {
            let hi = self.rng.gen_range(2..=4);
            self.line("if phase == 0 {");
            self.indent += 1;
            self.line(&format!("roll die in 1..{hi}"));
            self.line("write \"roll {die}\"");
            self.line("phase = 1");
            self.line("again");
            self.indent -= 1;
            self.line("} else {");
            self.indent += 1;
            self.line("phase = 0");
            self.body();
            self.indent -= 1;
            self.line("}");
        } else {
            self.body();
        }
        self.indent = 0;
        self.out.push_str("}\n\n");
    }

    /// The turn's statements, then the turn counter that ends every game.
    fn body(&mut self) {
        let w = self.w;
        let mut sc = Scope::default();
        let mut path = Path::default();
        let cx = Cx {
            depth: 0,
            no_choice: false,
            counting: false,
            limit: Path {
                cost: MAX_COST,
                decisions: MAX_DECISIONS,
            },
        };
        // Sometimes a player with nothing else to do passes.
        let pass = self.chance(0.3);
        if pass {
            self.line("first {");
            self.indent += 1;
        }
        let n = self.rng.gen_range(1..=4);
        for i in 0..n {
            // The first statement is most often a whole action: a placement, a step, or one of
            // the two.
            let kind = if i == 0 && self.chance(0.85) {
                match self.rng.gen_range(0..20) {
                    0..=6 if w.shapes => Kind::Shape,
                    0..=7 => Kind::Place,
                    8..=13 => Kind::StepMove,
                    _ => Kind::Either,
                }
            } else {
                self.kind(&sc, cx)
            };
            self.stmt_of(kind, &mut sc, &mut path, cx);
        }
        if pass {
            self.indent -= 1;
            self.line("} or {");
            self.line("    write \"pass\"");
            self.line("}");
        }
        self.line("turns += 1");
        self.line(&format!("if turns >= {} {{", w.limit));
        self.indent += 1;
        if self.chance(0.3) {
            let c = self.cond(&Scope::default(), 1, false);
            self.line(&format!("if {c} {{"));
            self.indent += 1;
            self.line("win mover");
            self.indent -= 1;
            self.line("}");
        }
        self.line("draw");
        self.indent -= 1;
        self.line("}");
    }

    fn no_moves(&mut self) {
        if self.chance(0.2) {
            return;
        }
        self.out.push_str("on no moves {\n");
        self.indent = 1;
        let sc = Scope::default();
        match self.rng.gen_range(0..5) {
            0 => self.line("draw"),
            1 => self.line("lose mover"),
            2 => self.line("win opponent"),
            _ => {
                if self.chance(0.3) {
                    let cx = Cx {
                        depth: 1,
                        no_choice: true,
                        counting: false,
                        limit: Path::default(),
                    };
                    let mut scope = sc.clone();
                    let mut path = Path::default();
                    self.stmt_of(Kind::Counter, &mut scope, &mut path, cx);
                }
                let c = self.cond(&sc, 2, false);
                self.line(&format!("if {c} {{"));
                self.indent += 1;
                let end = self.ending(&sc);
                self.line(&end);
                self.indent -= 1;
                self.line("} else {");
                self.indent += 1;
                let end = self.ending(&sc);
                self.line(&end);
                self.indent -= 1;
                self.line("}");
            }
        }
        self.indent = 0;
        self.out.push_str("}\n");
    }

    /// `win`, `lose` or `draw`.
    fn ending(&mut self, sc: &Scope) -> String {
        match self.rng.gen_range(0..7) {
            0 | 1 => "win mover".into(),
            2 => "win opponent".into(),
            3 => "lose mover".into(),
            4 => "draw".into(),
            5 => format!("win {}", self.w.players[usize::from(self.chance(0.5))]),
            _ => match sc.cells.choose(&mut self.rng) {
                // No player when the cell is empty: this way through the turn fails.
                Some(v) if self.chance(0.3) => format!("{} owner({v})", self.one(&["win", "lose"])),
                _ => "lose opponent".into(),
            },
        }
    }

    /// Draws the kind of the next statement.
    fn kind(&mut self, sc: &Scope, cx: Cx) -> Kind {
        let w = self.w;
        let has_cell = !sc.cells.is_empty();
        let nested = cx.depth < 3;
        let choice = !cx.no_choice;
        let table: Vec<(Kind, u32)> = vec![
            (Kind::Place, if choice { 8 } else { 0 }),
            (Kind::StepMove, if choice { 8 } else { 0 }),
            (Kind::Capture, if has_cell { 6 } else { 0 }),
            (Kind::Either, if choice && nested { 6 } else { 0 }),
            (Kind::First, if choice && nested { 4 } else { 0 }),
            (Kind::Repeat, if choice && nested { 4 } else { 0 }),
            (Kind::TakeBack, if choice && nested { 3 } else { 0 }),
            (Kind::Distinct, if choice && nested { 2 } else { 0 }),
            (Kind::Slide, if has_cell && nested { 4 } else { 0 }),
            (
                Kind::CountLoop,
                if w.scratch.is_some() && nested && !cx.counting {
                    2
                } else {
                    0
                },
            ),
            (Kind::If, if nested { 8 } else { 0 }),
            (Kind::Pick, if choice { 6 } else { 0 }),
            (Kind::PickDir, if choice { 3 } else { 0 }),
            (Kind::Put, 5),
            (Kind::Remove, 4),
            (Kind::Move, if has_cell { 4 } else { 0 }),
            (Kind::Let, 5),
            (
                Kind::Reassign,
                if sc.cells.is_empty() && sc.sets.is_empty() && sc.dirs.is_empty() {
                    0
                } else {
                    2
                },
            ),
            (Kind::Counter, 5),
            (Kind::Require, if choice { 1 + cx.depth } else { 0 }),
            (Kind::Write, 3),
            (Kind::End, if cx.depth > 0 { 4 } else { 0 }),
            (Kind::Walk, if has_cell && choice && nested { 5 } else { 0 }),
            (Kind::Again, if choice && cx.depth > 0 { 1 } else { 0 }),
            (Kind::Track, if w.track.is_some() { 8 } else { 0 }),
            (
                Kind::Shape,
                if w.shapes && choice && self.places < 2 {
                    6
                } else {
                    0
                },
            ),
        ];
        let total: u32 = table.iter().map(|(_, n)| n).sum();
        let mut r = self.rng.gen_range(0..total);
        for (k, n) in table {
            if r < n {
                return k;
            }
            r -= n;
        }
        Kind::Write
    }

    /// `n` statements into the current block; whether the block ended the game.
    fn block(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx, n: usize) -> bool {
        self.indent += 1;
        let mut ended = false;
        for _ in 0..n {
            let kind = self.kind(sc, cx);
            if self.stmt_of(kind, sc, path, cx) {
                ended = true;
                break;
            }
        }
        self.indent -= 1;
        ended
    }

    /// One statement of a kind (or something simpler when it does not fit); whether it ended
    /// the game.
    fn stmt_of(&mut self, kind: Kind, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        match kind {
            Kind::Place => self.place(sc, path, cx),
            Kind::StepMove => self.step_move(sc, path, cx),
            Kind::Capture => self.capture(sc),
            Kind::Either | Kind::First => {
                self.branches(matches!(kind, Kind::First), sc, path, cx);
                false
            }
            Kind::Repeat => self.repeat_stmt(sc, path, cx),
            Kind::TakeBack => self.take_back(sc, path, cx),
            Kind::Distinct => self.distinct(sc, path, cx),
            Kind::Slide => self.slide(sc, path, cx),
            Kind::CountLoop => self.count_loop(sc, path, cx),
            Kind::If => self.if_stmt(sc, path, cx),
            Kind::Pick => self.pick_stmt(sc, path, cx),
            Kind::PickDir => self.pick_dir(sc, path, cx),
            Kind::Put => {
                let target = self.target(sc);
                let k = self.one(&w.pieces).clone();
                let owner = self.owner_part(sc);
                self.line(&format!("put {k}{owner} at {target}"));
                false
            }
            Kind::Remove => {
                let target = self.target(sc);
                self.line(&format!("remove {target}"));
                false
            }
            Kind::Move => self.move_stmt(sc),
            Kind::Let => self.let_stmt(sc),
            Kind::Reassign => self.reassign(sc),
            Kind::Counter => self.counter(sc),
            Kind::Require => {
                let c = self.cond(sc, 2, false);
                self.line(&format!("require {c}"));
                false
            }
            Kind::Write => {
                let t = self.template(sc);
                self.line(&format!("write \"{t}\""));
                false
            }
            Kind::End => {
                let e = self.ending(sc);
                self.line(&e);
                true
            }
            Kind::Walk => self.walk(sc, path, cx),
            Kind::Again => {
                self.line("again");
                false
            }
            Kind::Track => self.track(sc),
            Kind::Shape => self.shape(sc, path, cx),
        }
    }

    /// A placement: a pick of a free cell and a `put` there, maybe a pattern win.
    fn place(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        let base = if self.chance(0.7) {
            "empty".to_string()
        } else {
            self.set_atom(sc)
        };
        let from = self.filtered(base, sc);
        if let Some(v) = self.pick(sc, path, cx, &from, self.global_cost(&from)) {
            let put = self.put_line(sc, &v);
            self.line(&put);
            if self.chance(0.8) {
                self.line(&format!("write \"{{{v}}}\""));
            }
            if !self.w.patterns.is_empty() && self.chance(0.3) {
                let p = self.one(&w.patterns).clone();
                self.line(&format!("if completes({p}, {v}, own) {{"));
                self.indent += 1;
                self.line("win mover");
                self.indent -= 1;
                self.line("}");
            }
            return false;
        }
        self.effect(sc)
    }

    /// A step: a pick of a piece, a pick of a neighbour, then a move or remove-and-put.
    fn step_move(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let base = if self.chance(0.7) {
            "own".to_string()
        } else {
            self.set_atom(sc)
        };
        let from_set = self.filtered(base, sc);
        let cost = self.global_cost(&from_set);
        if !cx.within(*path, cost + LOCAL, 2) {
            return self.effect(sc);
        }
        let Some(from) = self.pick(sc, path, cx, &from_set, cost) else {
            return self.effect(sc);
        };
        let r = if self.chance(0.7) {
            self.adj()
        } else {
            self.rel()
        };
        let target = self.one(&[
            "empty",
            "(empty | enemy)",
            "enemy",
            "cells",
            "empty",
            "(empty | enemy)",
        ]);
        let mut to_set = format!("step({r}, {from}) & {target}");
        if self.chance(0.2) {
            let extra = self.set(sc, 1);
            to_set = format!("{to_set} - {extra}");
        }
        let Some(to) = self.pick(sc, path, cx, &to_set, LOCAL) else {
            return false;
        };
        if self.chance(0.6) {
            self.line(&format!("move {from} to {to}"));
        } else {
            self.line(&format!("remove {from}"));
            let put = self.put_line(sc, &to);
            self.line(&put);
        }
        self.line(&format!("write \"{{{from}}}-{{{to}}}\""));
        false
    }

    /// A capture around a bound cell: a `remove` (or a `put`) over neighbours, `between` or a run.
    fn capture(&mut self, sc: &mut Scope) -> bool {
        let w = self.w;
        let Some(v) = sc.cells.choose(&mut self.rng).cloned() else {
            return self.effect(sc);
        };
        let adj = self.adj();
        let r = self.rel();
        let target = match self.rng.gen_range(0..5) {
            0 | 1 => format!("step({r}, {v}) & enemy"),
            2 => format!("between({adj}, {v}, enemy, own)"),
            3 => match sc.dirs.choose(&mut self.rng) {
                Some(d) => format!("run({d}, {v}, enemy)"),
                None => format!("run({r}, {v}, enemy)"),
            },
            _ => {
                let s = self.set(sc, 1);
                format!("any({r}, {{{v}}}) & {s}")
            }
        };
        if self.chance(0.3) {
            let k = self.one(&w.pieces).clone();
            self.line(&format!("put {k} at {target}"));
        } else {
            self.line(&format!("remove {target}"));
        }
        false
    }

    /// A `repeat lo..hi` of random bounds.
    fn repeat_stmt(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let hi = self.rng.gen_range(1..=3);
        let lo = self.rng.gen_range(0..=1u32).min(hi);
        self.repeat(lo, hi, sc, path, cx, false);
        false
    }

    /// Pylos's take-back: `distinct { repeat 1..2 { pick x in E  remove x } }`.
    fn take_back(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        // Pylos's take-back: `distinct { repeat 1..2 { pick x in E  remove x } }`.
        if self.slots + 2 > MAX_SLOTS {
            return self.effect(sc);
        }
        let base = self.one(&["own", "enemy", "occupied", "own"]).to_string();
        let mut from = base.clone();
        if let Some(v) = sc.cells.choose(&mut self.rng) {
            from = format!("{base} - {{{v}}}");
        }
        // Choice sets that only grow as pieces leave (Pylos's free balls), and others.
        let r = self.adj();
        from = match self.rng.gen_range(0..8) {
            0 | 1 => format!("{from} & none({r}, occupied)"),
            2 => format!("{from} & any({r}, empty)"),
            3 => format!("{from} & all({r}, occupied)"),
            4 => format!("{from} - step({r}, own)"),
            5 => {
                let s = self.set(sc, 1);
                format!("{from} & {s}")
            }
            _ => from,
        };
        let cost = self.global_cost(&base);
        let hi = self.rng.gen_range(1..=2u32);
        let lo = self.rng.gen_range(0..=1u32).min(hi);
        let total = cost * hi + alt((hi - lo + 1) as usize);
        if !cx.within(*path, total, hi * 2) {
            return self.effect(sc);
        }
        self.slots += 1; // the repeat
        let Some(b) = self.fresh("v") else {
            return false;
        };
        self.line("distinct {");
        self.indent += 1;
        self.line(&format!("repeat {lo}..{hi} {{"));
        self.indent += 1;
        self.line(&format!("pick {b} in {from}"));
        match self.rng.gen_range(0..8) {
            0 => {
                let k = self.one(&w.pieces).clone();
                self.line(&format!("put {k} at {b}"));
            }
            1 => {
                let c = self.cond(sc, 1, false);
                self.line(&format!("require {c}"));
                self.line(&format!("remove {b}"));
            }
            2 => {
                self.line(&format!("remove {b}"));
                let c = self.cell(sc);
                let k = self.one(&w.pieces).clone();
                self.line(&format!("put {k} at {c}"));
            }
            _ => self.line(&format!("remove {b}")),
        }
        if let Some(bank) = &w.per_player {
            if self.chance(0.5) {
                self.line(&format!("{bank}[mover] += 1"));
            }
        }
        self.line(&format!("write \" x{{{b}}}\""));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        path.cost += total;
        path.decisions += hi * 2;
        false
    }

    /// A `distinct` block; it exports what its body binds.
    fn distinct(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        self.line("distinct {");
        let n = self.rng.gen_range(1..=3);
        // `distinct` exports what its body binds.
        self.block(sc, path, cx.deeper(), n);
        self.line("}");
        false
    }

    /// A `while` counted by the scratch counter, whose rounds multiply the ways of its body.
    fn count_loop(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        let Some(steps) = w.scratch.clone() else {
            return self.effect(sc);
        };
        if self.slots >= MAX_SLOTS {
            return self.effect(sc);
        }
        self.slots += 1;
        let k: u32 = self.rng.gen_range(1..=4);
        self.line(&format!("{steps} = 0"));
        let head = if self.chance(0.08) {
            // Never false: the 256th round ends this way through the turn.
            "count(cells) > 0".to_string()
        } else if self.chance(0.4) {
            format!("{steps} < {k} and {}", self.cond(sc, 1, false))
        } else {
            format!("{steps} < {k}")
        };
        self.line(&format!("while {head} {{"));
        // The body may choose too (each round's choices multiply the ways).
        let choose = !cx.no_choice && self.chance(0.4);
        let inner = Cx {
            no_choice: !choose,
            counting: true,
            limit: Path {
                cost: cx.limit.cost.saturating_sub(path.cost) / k,
                decisions: cx.limit.decisions.saturating_sub(path.decisions) / k,
            },
            ..cx.deeper()
        };
        let mut scope = sc.clone();
        let mut p = Path::default();
        let n = self.rng.gen_range(1..=2);
        self.block(&mut scope, &mut p, inner, n);
        self.indent += 1;
        self.line(&format!("{steps} += 1"));
        self.indent -= 1;
        self.line("}");
        path.cost += p.cost * k;
        path.decisions += p.decisions * k;
        false
    }

    /// An `if`, maybe with `else if` and `else`; only names bound in both branches stay bound.
    fn if_stmt(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let c = self.cond(sc, 2, false);
        self.line(&format!("if {c} {{"));
        let base = sc.clone();
        let mut a = sc.clone();
        let mut pa = *path;
        let n = self.rng.gen_range(1..=3);
        let ended_a = self.block(&mut a, &mut pa, cx.deeper(), n);
        if self.chance(0.15) {
            // `else if`: nothing bound inside stays bound after it.
            let c = self.cond(sc, 1, false);
            self.line(&format!("}} else if {c} {{"));
            let mut b = sc.clone();
            let mut pb = *path;
            let n = self.rng.gen_range(1..=2);
            self.block(&mut b, &mut pb, cx.deeper(), n);
            let mut pc = *path;
            if self.chance(0.6) {
                self.line("} else {");
                let mut c = sc.clone();
                let n = self.rng.gen_range(0..=2);
                self.block(&mut c, &mut pc, cx.deeper(), n);
            }
            self.line("}");
            *path = pa.max(pb).max(pc);
        } else if self.chance(0.45) {
            self.line("} else {");
            let mut b = sc.clone();
            let mut pb = *path;
            let n = self.rng.gen_range(1..=2);
            let ended_b = self.block(&mut b, &mut pb, cx.deeper(), n);
            self.line("}");
            *path = pa.max(pb);
            // Both branches bind their own names; only names bound in both stay.
            if !ended_a && !ended_b {
                *sc = Scope::meet(&base, &a, &b);
            }
        } else {
            self.line("}");
            *path = pa.max(*path);
        }
        false
    }

    /// A `pick` from a neighbourhood of a bound cell or from a board-wide set.
    fn pick_stmt(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let local = !sc.cells.is_empty() && self.chance(0.5);
        let (set, cost) = if local {
            let v = self.one(&sc.cells).clone();
            let r = self.rel();
            let around = match self.rng.gen_range(0..7) {
                0 => match sc.dirs.choose(&mut self.rng) {
                    Some(d) => format!("ray({d}, {v})"),
                    None => format!("step({r}, {v})"),
                },
                1 => format!("any({r}, {{{v}}})"),
                2 => {
                    let s = self.set_atom(sc);
                    format!("run({r}, {v}, {s})")
                }
                3 => format!("between({r}, {v}, enemy, own)"),
                _ => format!("step({r}, {v})"),
            };
            let s = self.set(sc, 1);
            (format!("{around} & {s}"), LOCAL)
        } else {
            let s = self.set(sc, 2);
            let c = self.global_cost(&s);
            (s, c)
        };
        match self.pick(sc, path, cx, &set, cost) {
            Some(v) => {
                if self.chance(0.7) {
                    self.line(&format!("write \" {{{v}}}\""));
                }
                false
            }
            None => self.effect(sc),
        }
    }

    /// A `pick` of a direction of a relation, maybe with a direction computed from it.
    fn pick_dir(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let r = self.rels_any_relation();
        if !cx.within(*path, alt(r.size), 1) {
            return self.effect(sc);
        }
        let Some(d) = self.fresh("dir") else {
            return self.effect(sc);
        };
        self.line(&format!("pick {d} in {}", r.name));
        path.cost += alt(r.size);
        path.decisions += 1;
        if self.chance(0.6) {
            self.line(&format!("write \" {{{d}}}\""));
        }
        sc.dirs.push(d);
        // Directions computed from it: turned, reversed, reflected, by index.
        if self.chance(0.35) {
            if let (Some(e), Some(d2)) = (self.dir_expr(sc), self.fresh("dir")) {
                self.line(&format!("let {d2} = {e}"));
                sc.dirs.push(d2);
            }
        }
        false
    }

    /// A `move` of the token or of a piece between two cells.
    fn move_stmt(&mut self, sc: &mut Scope) -> bool {
        let w = self.w;
        let a = self.cell(sc);
        if let Some(t) = &w.token {
            if self.chance(0.3) {
                self.line(&format!("move {t} to {a}"));
                return false;
            }
        }
        let b = self.cell(sc);
        self.line(&format!("move {a} to {b}"));
        false
    }

    /// A new value for a bound cell, set or direction.
    fn reassign(&mut self, sc: &mut Scope) -> bool {
        let choices: Vec<u8> = [
            (!sc.cells.is_empty(), 0),
            (!sc.sets.is_empty(), 1),
            (!sc.dirs.is_empty(), 2),
        ]
        .iter()
        .filter(|(ok, _)| *ok)
        .map(|(_, i)| *i)
        .collect();
        match choices.choose(&mut self.rng) {
            Some(0) => {
                let v = self.one(&sc.cells).clone();
                let s = match sc.dirs.choose(&mut self.rng) {
                    Some(d) if self.chance(0.5) => format!("step({d}, {v})"),
                    _ => {
                        let r = self.rel();
                        let s = self.set(sc, 1);
                        format!("step({r}, {v}) & {s}")
                    }
                };
                self.line(&format!("{v} = {s}"));
            }
            Some(1) => {
                let v = self.one(&sc.sets).clone();
                let s = self.set(sc, 2);
                self.line(&format!("{v} = {s}"));
            }
            Some(_) => {
                let d = self.one(&sc.dirs).clone();
                let e = self.dir_expr(sc).unwrap_or_else(|| format!("-{d}"));
                self.line(&format!("{d} = {e}"));
            }
            None => return self.effect(sc),
        }
        false
    }

    /// Tankball's movements: a piece walks in a `distinct` loop whose body chooses to step or
    /// to turn, so paths meet (the loop memo), then lands.
    fn walk(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        let Some(v) = sc.cells.choose(&mut self.rng).cloned() else {
            return self.effect(sc);
        };
        let rounds = self.rng.gen_range(1..=3u32);
        let cost = rounds * 2 + alt((rounds + 1) as usize);
        if self.slots + 3 > MAX_SLOTS || !cx.within(*path, cost + 3, rounds * 2 + 1) {
            return self.effect(sc);
        }
        if sc.dirs.is_empty() {
            self.stmt_of(Kind::PickDir, sc, path, cx);
        }
        let Some(d) = sc.dirs.choose(&mut self.rng).cloned() else {
            return self.effect(sc);
        };
        let Some(t) = self.fresh("w") else {
            return self.effect(sc);
        };
        self.slots += 1; // the repeat
        self.line(&format!("let {t} = {v}"));
        self.line("distinct {");
        self.indent += 1;
        self.line(&format!("repeat 0..{rounds} {{"));
        self.indent += 1;
        self.line("either {");
        self.indent += 1;
        let free = if self.chance(0.7) {
            "empty".to_string()
        } else {
            self.set(sc, 1)
        };
        self.line(&format!("{t} = step({d}, {t}) & {free}"));
        if let Some(h) = &w.per_cell {
            if self.chance(0.3) {
                self.line(&format!("{h}[{t}] += 1"));
            }
        }
        self.indent -= 1;
        self.line("} or {");
        self.line(&format!("    {d} = right({d}, 1)"));
        if self.chance(0.7) {
            self.line("} or {");
            self.line(&format!("    {d} = left({d}, 1)"));
        }
        self.line("}");
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("}");
        path.cost += cost;
        path.decisions += rounds * 2;
        sc.cells.push(t.clone());
        if self.chance(0.7) {
            self.line(&format!("move {v} to {t}"));
        } else {
            let put = self.put_line(sc, &t);
            self.line(&put);
        }
        self.line(&format!("write \" {{{d}}}{{{t}}}\""));
        false
    }

    /// `enter`, `advance` or `take` on the track.
    fn track(&mut self, sc: &mut Scope) -> bool {
        let w = self.w;
        let Some((t, _)) = &w.track else {
            return self.effect(sc);
        };
        let of = if self.chance(0.3) {
            format!(" of {}", self.player(sc))
        } else {
            String::new()
        };
        match self.rng.gen_range(0..4) {
            0 | 1 => {
                let c = self.cell(sc);
                if self.chance(0.5) {
                    self.line(&format!("remove {c}"));
                }
                self.line(&format!("enter {t}{of} near {c}"));
            }
            2 => self.line(&format!("advance {t}{of}")),
            _ => {
                self.line(&format!("take {t}{of}"));
                if let Some(v) = sc.cells.choose(&mut self.rng).cloned() {
                    let put = self.put_line(sc, &v);
                    self.line(&put);
                }
            }
        }
        false
    }

    /// Steinplatz's `place`: a shape settles on the per-cell counter.
    fn shape(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        let Some(h) = w.per_cell.clone() else {
            return self.effect(sc);
        };
        let cost = bits(w.cells.len()) + 3;
        if self.places >= 2 || !cx.within(*path, cost, 2) {
            return self.effect(sc);
        }
        let Some(s) = self.fresh("sh") else {
            return self.effect(sc);
        };
        self.places += 1;
        let r = self.adj();
        let who = if self.chance(0.8) {
            "mover"
        } else {
            "opponent"
        };
        let max = if self.chance(0.5) {
            format!(" max {}", self.rng.gen_range(1..=3))
        } else {
            String::new()
        };
        let feet = if self.chance(0.5) {
            let f = self.set(sc, 1);
            format!(" feet in {f}")
        } else {
            String::new()
        };
        self.line(&format!(
            "place {s} in unplayed({who}) turned {r} on {h}{max}{feet}"
        ));
        path.cost += cost;
        path.decisions += 2;
        self.line(&format!("write \"{{{s}}} {{{s}.anchor}} {{{s}.facing}}\""));
        if self.chance(0.7) {
            let k = self.one(&w.pieces).clone();
            self.line(&format!("put {k} at {s}.cells"));
        }
        if self.chance(0.5) {
            if let Some(t) = self.fresh("w") {
                self.line(&format!("let {t} = {s}.anchor"));
                sc.cells.push(t);
            }
        }
        false
    }

    /// A simple effect, for when the statement drawn does not fit.
    fn effect(&mut self, sc: &mut Scope) -> bool {
        if self.chance(0.5) {
            self.counter(sc)
        } else {
            let t = self.template(sc);
            self.line(&format!("write \"{t}\""));
            false
        }
    }

    /// `either` (or `first`) with two or three branches, sometimes each binding one shared
    /// name at its end, which then stays bound after the statement.
    fn branches(&mut self, first: bool, sc: &mut Scope, path: &mut Path, cx: Cx) {
        let k = if first { 2 } else { self.rng.gen_range(2..=3) };
        let step = if first { 0 } else { alt(k) };
        if !cx.within(*path, step, 1) {
            self.effect(sc);
            return;
        }
        let shared = if self.chance(0.4) {
            self.fresh("v")
        } else {
            None
        };
        let shared_set = shared.as_ref().map(|_| {
            if self.chance(0.5) {
                "empty".to_string()
            } else {
                self.set(sc, 1)
            }
        });
        let base = sc.clone();
        let mut exported: Option<Scope> = None;
        let mut out = *path;
        let mut all_bind = true;
        self.line(if first { "first {" } else { "either {" });
        for i in 0..k {
            if i > 0 {
                self.line("} or {");
            }
            let mut scope = base.clone();
            let mut p = *path;
            p.cost += step;
            p.decisions += 1;
            let pass = first && i == k - 1 && self.chance(0.5);
            let ended = if pass {
                self.indent += 1;
                self.line("write \"pass\"");
                self.indent -= 1;
                false
            } else {
                let n = self.rng.gen_range(usize::from(i == 0)..=3);
                self.block(&mut scope, &mut p, cx.deeper(), n)
            };
            match (&shared, &shared_set) {
                (Some(v), Some(s)) if !ended => {
                    let cost = self.global_cost(s);
                    if cx.within(p, cost, 1) {
                        self.indent += 1;
                        self.line(&format!("pick {v} in {s}"));
                        self.indent -= 1;
                        p.cost += cost;
                        p.decisions += 1;
                        scope.cells.push(v.clone());
                    } else {
                        all_bind = false;
                    }
                }
                _ => all_bind = false,
            }
            out = out.max(p);
            exported = Some(match exported {
                None => scope,
                Some(e) => Scope::meet(&base, &e, &scope),
            });
        }
        self.line("}");
        *path = out;
        if let Some(e) = exported {
            *sc = e;
        }
        if !all_bind {
            if let Some(v) = &shared {
                sc.cells.retain(|c| c != v);
            }
        }
    }

    fn repeat(&mut self, lo: u32, hi: u32, sc: &Scope, path: &mut Path, cx: Cx, quiet: bool) {
        if self.slots >= MAX_SLOTS {
            return;
        }
        let step = alt((hi - lo + 1) as usize);
        let go = hi - lo;
        if !cx.within(*path, step, go) {
            return;
        }
        self.slots += 1;
        let room = Path {
            cost: (cx.limit.cost - path.cost - step) / hi,
            decisions: (cx.limit.decisions - path.decisions - go) / hi,
        };
        self.line(&format!("repeat {lo}..{hi} {{"));
        let mut scope = sc.clone();
        let mut p = Path::default();
        let inner = Cx {
            limit: room,
            ..cx.deeper()
        };
        let n = self.rng.gen_range(1..=if quiet { 2 } else { 3 });
        self.block(&mut scope, &mut p, inner, n);
        self.line("}");
        path.cost += p.cost * hi + step;
        path.decisions += p.decisions * hi + go;
    }

    /// A piece sliding along a direction as far as a condition lets it (a `while` whose body
    /// gives a cell variable new values), then an effect at the end of the run.
    fn slide(&mut self, sc: &mut Scope, path: &mut Path, cx: Cx) -> bool {
        let w = self.w;
        let Some(v) = sc.cells.choose(&mut self.rng).cloned() else {
            return self.effect(sc);
        };
        if self.slots + 2 > MAX_SLOTS {
            return self.effect(sc);
        }
        if sc.dirs.is_empty() && !cx.no_choice && self.chance(0.7) {
            self.stmt_of(Kind::PickDir, sc, path, cx);
        }
        let d = match sc.dirs.choose(&mut self.rng).cloned() {
            Some(d) => match self.rng.gen_range(0..6) {
                0 => format!("-{d}"),
                1 => format!("left({d}, 1)"),
                2 => format!("right({d}, 2)"),
                _ => d,
            },
            None => self
                .w
                .rels
                .iter()
                .filter(|r| r.direction || r.size == 1)
                .map(|r| r.name.clone())
                .collect::<Vec<_>>()
                .choose(&mut self.rng)
                .cloned()
                .unwrap_or_else(|| w.rels[0].name.clone()),
        };
        let Some(t) = self.fresh("w") else {
            return self.effect(sc);
        };
        self.slots += 1; // the while
        self.line(&format!("let {t} = {v}"));
        let free = match self.rng.gen_range(0..4) {
            0 => "occupied".to_string(),
            1 => {
                let s = self.set_atom(sc);
                format!("empty - {s}")
            }
            _ => "empty".to_string(),
        };
        self.line(&format!("while count(step({d}, {t}) & {free}) > 0 {{"));
        self.indent += 1;
        self.line(&format!("{t} = step({d}, {t})"));
        if let Some(h) = &w.per_cell {
            if self.chance(0.4) {
                self.line(&format!("{h}[{t}] += 1"));
            }
        }
        self.indent -= 1;
        self.line("}");
        sc.cells.push(t.clone());
        match self.rng.gen_range(0..4) {
            0 => self.line(&format!("move {v} to {t}")),
            1 => {
                let k = self.one(&w.pieces).clone();
                self.line(&format!("put {k} at {t}"));
            }
            2 => self.line(&format!("remove step({d}, {t})")),
            _ => self.line(&format!("write \" >{{{t}}}\"")),
        }
        false
    }

    /// `pick v in SET` when it fits the path; binds and returns the name.
    fn pick(
        &mut self,
        sc: &mut Scope,
        path: &mut Path,
        cx: Cx,
        set: &str,
        cost: u32,
    ) -> Option<String> {
        if cx.no_choice || !cx.within(*path, cost, 1) {
            return None;
        }
        let v = self.fresh("v")?;
        let by = if self.chance(0.08) {
            " by opponent"
        } else {
            ""
        };
        self.line(&format!("pick {v} in {set}{by}"));
        path.cost += cost;
        path.decisions += 1;
        sc.cells.push(v.clone());
        Some(v)
    }

    /// The estimated cost of picking from a board-wide set: sets of pieces are smaller.
    fn global_cost(&self, set: &str) -> u32 {
        let full = bits(self.w.cells.len());
        let pieces_only = ["own", "enemy", "pieces("]
            .iter()
            .any(|p| set.starts_with(p));
        if pieces_only {
            full.min(5)
        } else {
            full
        }
    }

    /// `base` narrowed by a random set or condition, sometimes.
    fn filtered(&mut self, base: String, sc: &Scope) -> String {
        match self.rng.gen_range(0..9) {
            0 => {
                let s = self.set(sc, 1);
                format!("{base} & {s}")
            }
            1 => {
                let s = self.set(sc, 1);
                format!("{base} - {s}")
            }
            2 => {
                let c = self.cond(sc, 1, true);
                format!("{base} where {c}")
            }
            _ => base,
        }
    }

    fn put_line(&mut self, sc: &Scope, at: &str) -> String {
        let k = self.one(&self.w.pieces).clone();
        let owner = self.owner_part(sc);
        format!("put {k}{owner} at {at}")
    }

    fn owner_part(&mut self, sc: &Scope) -> String {
        if self.chance(0.75) {
            String::new()
        } else {
            format!(" of {}", self.player(sc))
        }
    }

    /// Where a `put` or `remove` acts: a cell, or a set.
    fn target(&mut self, sc: &Scope) -> String {
        if !sc.cells.is_empty() && self.chance(0.6) {
            self.one(&sc.cells).clone()
        } else {
            self.set(sc, 2)
        }
    }

    fn let_stmt(&mut self, sc: &mut Scope) -> bool {
        // With a `let` set bound, a direction is often read from it.
        let r = if sc.sets.is_empty() {
            self.rng.gen_range(0..4)
        } else {
            self.rng.gen_range(2..6)
        };
        match r.min(3) {
            0 | 1 if self.lets < MAX_LETS => {
                let Some(s) = self.fresh("s") else {
                    return self.effect(sc);
                };
                self.lets += 1;
                let body = self.set(sc, 2);
                self.line(&format!("let {s} = {body}"));
                sc.sets.push(s);
            }
            2 => {
                let c = self.cell(sc);
                let Some(t) = self.fresh("w") else {
                    return self.effect(sc);
                };
                self.line(&format!("let {t} = {c}"));
                sc.cells.push(t);
            }
            _ => {
                let e = match sc.sets.choose(&mut self.rng).cloned() {
                    // A direction read from a `let` set.
                    Some(set) if self.chance(0.5) => {
                        let r = self.adj();
                        format!("dir({r}, count({set}))")
                    }
                    _ => match self.dir_expr(sc) {
                        Some(e) => e,
                        None => return self.effect(sc),
                    },
                };
                let Some(d) = self.fresh("dir") else {
                    return self.effect(sc);
                };
                self.line(&format!("let {d} = {e}"));
                sc.dirs.push(d);
            }
        }
        false
    }

    fn counter(&mut self, sc: &mut Scope) -> bool {
        let w = self.w;
        let mut options: Vec<String> = Vec::new();
        for c in &w.writable {
            options.push(c.clone());
        }
        if let Some(b) = &w.per_player {
            let p = self.player(sc);
            options.push(format!("{b}[{p}]"));
        }
        if let Some(h) = &w.per_cell {
            options.push(format!("{h}[{}]", self.target(sc)));
        }
        let Some(target) = options.choose(&mut self.rng).cloned() else {
            let t = self.template(sc);
            self.line(&format!("write \"{t}\""));
            return false;
        };
        let op = *self.one(&["+=", "+=", "-=", "="]);
        let value = self.int(sc, 1, false);
        self.line(&format!("{target} {op} {value}"));
        false
    }

    // ---- Expressions ----

    fn rel(&mut self) -> String {
        self.one(&self.w.rels).name.clone()
    }

    /// A declared relation (not a direction).
    fn adj(&mut self) -> String {
        let rels = self.w.adjacency();
        rels.choose(&mut self.rng).expect("a relation").name.clone()
    }

    fn rels_any_relation(&mut self) -> Rel {
        if self.chance(0.85) {
            let rels = self.w.adjacency();
            (*rels.choose(&mut self.rng).expect("a relation")).clone()
        } else {
            self.one(&self.w.rels).clone()
        }
    }

    /// A player: sometimes `owner(v)`, which on an empty cell is no player (comparisons with it
    /// are false, its pieces and counters are none and 0, an action for it fails the way
    /// through the turn).
    fn player(&mut self, sc: &Scope) -> String {
        match sc.cells.choose(&mut self.rng) {
            Some(v) if self.chance(0.15) => format!("owner({v})"),
            _ => self.player_value(),
        }
    }

    /// A player that is always one of the two: whose points count (`points` of no player is a
    /// known bug: see `tests/differential/found/`).
    fn player_value(&mut self) -> String {
        match self.rng.gen_range(0..7) {
            0..=2 => "mover".into(),
            3 | 4 => "opponent".into(),
            _ => self.w.players[usize::from(self.chance(0.5))].to_string(),
        }
    }

    /// A cell: a cell variable, the token, or a cell named in the rules.
    fn cell(&mut self, sc: &Scope) -> String {
        let w = self.w;
        let r = self.rng.gen_range(0..10);
        if r < 7 {
            if let Some(v) = sc.cells.choose(&mut self.rng) {
                return v.clone();
            }
        }
        if r < 8 {
            if let Some(t) = &w.token {
                return t.clone();
            }
        }
        self.one(&w.safe_cells).clone()
    }

    /// A direction value, when a direction variable is bound (or from `dir(R, i)`).
    fn dir_expr(&mut self, sc: &Scope) -> Option<String> {
        let w = self.w;
        let axis = *self.one(&w.axes);
        match sc.dirs.choose(&mut self.rng).cloned() {
            Some(d) => Some(match self.rng.gen_range(0..5) {
                0 => format!("-{d}"),
                1 => format!("left({d}, {})", self.rng.gen_range(1..=2)),
                2 => format!("right({d}, {})", self.rng.gen_range(1..=3)),
                3 => format!("flip({d}, {axis})"),
                _ => {
                    let r = self.adj();
                    format!("dir({r}, index({d}) + 1)")
                }
            }),
            None => {
                let r = self.adj();
                let i = match sc.sets.choose(&mut self.rng) {
                    Some(s) if self.chance(0.4) => format!("count({s})"),
                    _ => self.int(sc, 1, false),
                };
                Some(format!("dir({r}, {i})"))
            }
        }
    }

    fn set_atom(&mut self, sc: &Scope) -> String {
        let w = self.w;
        loop {
            match self.rng.gen_range(0..14) {
                0 | 1 => return "empty".into(),
                2 => return "occupied".into(),
                3 | 4 => return "own".into(),
                5 => return "enemy".into(),
                6 => return "cells".into(),
                7 => return self.one(&w.zones).clone(),
                8 => {
                    let k = self.one(&w.pieces).clone();
                    if self.chance(0.5) {
                        return format!("pieces({k})");
                    }
                    let p = self.player(sc);
                    return format!("pieces({k}, {p})");
                }
                9 => {
                    let n = self.rng.gen_range(0..=2);
                    let items: Vec<String> = (0..n).map(|_| self.cell(sc)).collect();
                    return format!("{{{}}}", items.join(", "));
                }
                10 if !sc.cells.is_empty() => return self.one(&sc.cells).clone(),
                11 if !sc.sets.is_empty() => return self.one(&sc.sets).clone(),
                12 if !self.set_defines.is_empty() => return self.set_defines[0].clone(),
                13 if w.token.is_some() => {
                    return format!("{{{}}}", w.token.as_ref().expect("a token"));
                }
                _ => {}
            }
        }
    }

    /// A set of cells.
    fn set(&mut self, sc: &Scope, depth: u32) -> String {
        if depth == 0 || self.chance(0.35) {
            return self.set_atom(sc);
        }
        let d = depth - 1;
        match self.rng.gen_range(0..13) {
            0 => format!("({} | {})", self.set(sc, d), self.set(sc, d)),
            1 | 2 => format!("({} & {})", self.set(sc, d), self.set(sc, d)),
            3 => format!("({} - {})", self.set(sc, d), self.set(sc, d)),
            4 => {
                let f = *self.one(&["all", "none", "any", "step"]);
                let r = self.rel();
                format!("{f}({r}, {})", self.set(sc, d))
            }
            5 => {
                let c = self.cond(sc, 1, true);
                format!("({} where {c})", self.set(sc, d))
            }
            6 => match sc.dirs.choose(&mut self.rng).cloned() {
                Some(dv) => format!("step({dv}, {})", self.set(sc, d)),
                None => {
                    let r = self.rel();
                    format!("step({r}, {})", self.set(sc, d))
                }
            },
            7 => {
                let c = self.cell(sc);
                let r = match sc.dirs.choose(&mut self.rng) {
                    Some(dv) if self.chance(0.5) => dv.clone(),
                    _ => self.rel(),
                };
                format!("ray({r}, {c})")
            }
            8 => {
                let c = self.cell(sc);
                let r = match sc.dirs.choose(&mut self.rng) {
                    Some(dv) if self.chance(0.5) => dv.clone(),
                    _ => self.rel(),
                };
                format!("run({r}, {c}, {})", self.set(sc, d))
            }
            9 => {
                let c = self.cell(sc);
                let r = self.rel();
                format!(
                    "between({r}, {c}, {}, {})",
                    self.set(sc, d),
                    self.set(sc, d)
                )
            }
            10 => {
                let r = self.rel();
                format!("brackets({r}, {}, {})", self.set(sc, d), self.set(sc, d))
            }
            _ => {
                let f = *self.one(&["any", "step"]);
                let r = self.rel();
                format!("({f}({r}, {}) & {})", self.set(sc, d), self.set(sc, d))
            }
        }
    }

    fn cmp(&mut self) -> &'static str {
        const OPS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];
        OPS[self.rng.gen_range(0..OPS.len())]
    }

    /// A condition; `in_where`: inside `S where ...`, where bare axis names and per-cell counters
    /// read the candidate cell.
    fn cond(&mut self, sc: &Scope, depth: u32, in_where: bool) -> String {
        let w = self.w;
        if depth > 0 && self.chance(0.3) {
            let d = depth - 1;
            return match self.rng.gen_range(0..3) {
                0 => format!(
                    "({} and {})",
                    self.cond(sc, d, in_where),
                    self.cond(sc, d, in_where)
                ),
                1 => format!(
                    "({} or {})",
                    self.cond(sc, d, in_where),
                    self.cond(sc, d, in_where)
                ),
                _ => format!("not ({})", self.cond(sc, d, in_where)),
            };
        }
        loop {
            match self.rng.gen_range(0..14) {
                0..=2 => {
                    let s = self.set(sc, 1);
                    let op = self.cmp();
                    let n = self.rng.gen_range(0..4);
                    return format!("count({s}) {op} {n}");
                }
                3 | 4 => {
                    let a = self.int(sc, 1, in_where);
                    let op = self.cmp();
                    let b = self.int(sc, 0, in_where);
                    return format!("{a} {op} {b}");
                }
                5 => {
                    let c = self.cell(sc);
                    let s = self.set(sc, 1);
                    return format!("{c} in {s}");
                }
                6 => {
                    let c = self.cell(sc);
                    let p = self.player(sc);
                    let op = *self.one(&["==", "!="]);
                    return format!("owner({c}) {op} {p}");
                }
                7 if !w.patterns.is_empty() => {
                    let p = self.one(&w.patterns).clone();
                    let c = self.cell(sc);
                    let s = self.set(sc, 1);
                    return format!("completes({p}, {c}, {s})");
                }
                8 => {
                    let r = self.rel();
                    let s = self.set(sc, 1);
                    let a = self.set_atom(sc);
                    let b = self.set_atom(sc);
                    return format!("connected({r}, {s}, {a}, {b})");
                }
                9 if !sc.dirs.is_empty() => {
                    let d = self.one(&sc.dirs).clone();
                    let r = self.rel();
                    return format!("{d} in {r}");
                }
                10 => {
                    let a = self.cell(sc);
                    let b = self.cell(sc);
                    let op = *self.one(&["==", "!="]);
                    return format!("{a} {op} {b}");
                }
                11 => {
                    let p = self.w.players[usize::from(self.chance(0.5))];
                    return format!("mover == {p}");
                }
                12 if w.enum_opt.is_some() => {
                    let (name, words) = w.enum_opt.as_ref().expect("an option");
                    let word = *self.one(words);
                    let op = *self.one(&["==", "!="]);
                    return format!("{name} {op} {word}");
                }
                13 if !self.cond_defines.is_empty() => return self.cond_defines[0].clone(),
                _ => {}
            }
        }
    }

    /// An integer.
    fn int(&mut self, sc: &Scope, depth: u32, in_where: bool) -> String {
        let w = self.w;
        if depth > 0 && self.chance(0.25) {
            let d = depth - 1;
            let a = self.int(sc, d, in_where);
            let b = self.int(sc, d, in_where);
            return match self.rng.gen_range(0..7) {
                6 => format!("-({a})"),
                0 | 1 => format!("({a} + {b})"),
                2 => format!("({a} - {b})"),
                3 => format!("({a} * {b})"),
                4 => format!("({a} / {b})"),
                _ => format!("({a} % {b})"),
            };
        }
        loop {
            match self.rng.gen_range(0..13) {
                0 | 1 => return self.rng.gen_range(0..5).to_string(),
                2 => {
                    let s = self.set(sc, 1);
                    return format!("count({s})");
                }
                3 => return self.one(&w.readable).clone(),
                4 if w.per_player.is_some() => {
                    let p = self.player(sc);
                    return format!("{}[{p}]", w.per_player.as_ref().expect("bank"));
                }
                5 if w.per_cell.is_some() => {
                    let c = self.cell(sc);
                    return format!("{}[{c}]", w.per_cell.as_ref().expect("heat"));
                }
                6 if !sc.cells.is_empty() => {
                    let v = self.one(&sc.cells).clone();
                    let a = *self.one(&w.axes);
                    return format!("{v}.{a}");
                }
                7 if !sc.dirs.is_empty() => {
                    let d = self.one(&sc.dirs).clone();
                    return format!("index({d})");
                }
                8 if in_where => return (*self.one(&w.axes)).to_string(),
                9 if in_where && w.per_cell.is_some() => {
                    return w.per_cell.clone().expect("heat");
                }
                10 if w.limit == "limit" => return "limit".into(),
                10 => return "-1".into(),
                11 if w.track.is_some() => {
                    let (t, fields) = w.track.as_ref().expect("a track");
                    return match self.rng.gen_range(0..3) {
                        0 => format!("waiting({t})"),
                        1 => format!("waiting({t}, {})", self.player(sc)),
                        _ => format!("{t}[{}]", self.one(fields)),
                    };
                }
                12 if w.shapes => return format!("points({})", self.player_value()),
                _ => {}
            }
        }
    }

    /// A `write` template.
    fn template(&mut self, sc: &Scope) -> String {
        let w = self.w;
        match self.rng.gen_range(0..7) {
            0 if !sc.cells.is_empty() => format!(" {{{}}}", self.one(&sc.cells)),
            1 if !sc.dirs.is_empty() => format!(" {{{}}}", self.one(&sc.dirs)),
            2 => {
                let n = self.int(sc, 1, false);
                format!(" n{{{n}}}")
            }
            3 if !sc.cells.is_empty() => {
                let v = self.one(&sc.cells).clone();
                let a = *self.one(&w.axes);
                format!(" {{letter({v}.{a})}}")
            }
            4 => format!(" {{{}}}", self.player(sc)),
            5 => " \\{!\\}".to_string(),
            _ => " .".into(),
        }
    }
}
