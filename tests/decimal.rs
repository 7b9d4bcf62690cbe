//! Decimal numbers: Weighted Claims (tests/games/weighted.game), whose worths and target are
//! decimals, against an independent generator written from its rules in whole quarters; and
//! every line of its `.perft` table, the scores shown, and the decimal option's values.

mod common;

use rulestone::runtime::{perft::perft, Engine, GameResult};

/// Weighted Claims in quarter points: corner 6, edge 4, centre 3.
#[derive(Clone)]
struct Claims {
    /// 0 empty, 1 X, 2 O; cell `x * 3 + y`.
    cells: [u8; 9],
    mover: u8,
    /// The target in quarter points.
    target: u32,
    result: Option<GameResult>,
}

fn quarters(cell: usize) -> u32 {
    let (x, y) = (cell / 3, cell % 3);
    match (x == 1, y == 1) {
        (false, false) => 6,
        (true, true) => 3,
        _ => 4,
    }
}

impl Claims {
    fn worth(&self, player: u8) -> u32 {
        (0..9)
            .filter(|&c| self.cells[c] == player + 1)
            .map(quarters)
            .sum()
    }

    fn after(&self, cell: usize) -> Claims {
        let mut next = self.clone();
        next.cells[cell] = self.mover + 1;
        if next.worth(self.mover) >= self.target {
            next.result = Some(GameResult::Win(self.mover));
        } else if next.cells.iter().all(|&c| c != 0) {
            let (x, o) = (next.worth(0), next.worth(1));
            next.result = Some(match x.cmp(&o) {
                std::cmp::Ordering::Greater => GameResult::Win(0),
                std::cmp::Ordering::Less => GameResult::Win(1),
                std::cmp::Ordering::Equal => GameResult::Draw,
            });
        }
        next.mover = 1 - self.mover;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.result.is_some() {
            return 0;
        }
        (0..9)
            .filter(|&c| self.cells[c] == 0)
            .map(|c| self.after(c).perft(depth - 1))
            .sum()
    }
}

fn oracle(target_quarters: u32) -> Claims {
    Claims {
        cells: [0; 9],
        mover: 0,
        target: target_quarters,
        result: None,
    }
}

fn program(options: &[(String, String)]) -> rulestone::ir::Program {
    common::program(&common::root().join("tests/games/weighted.game"), options)
}

fn set(target: &str) -> Vec<(String, String)> {
    vec![("target".to_string(), target.to_string())]
}

#[test]
fn perft_matches_the_oracle_for_decimal_targets() {
    // Targets in points as typed, and in quarters for the oracle: a target between two sums
    // of worths tests that the comparison is exact.
    for (typed, quarters) in [
        ("3.5", 14),
        ("1.0", 4),
        ("1", 4),
        ("2.25", 9),
        ("4.75", 19),
        ("9", 36),
    ] {
        let program = program(&set(typed));
        for depth in 1..=9 {
            let mut engine = Engine::new(&program);
            assert_eq!(
                perft(&mut engine, depth),
                oracle(quarters).perft(depth),
                "target {typed}, depth {depth}"
            );
        }
    }
}

#[test]
fn the_perft_table_matches_the_oracle() {
    let path = common::root().join("tests/games/weighted.perft");
    let cases = common::perft_cases(&path);
    assert!(!cases.is_empty());
    for case in cases {
        let target = case
            .options
            .iter()
            .find(|(n, _)| n == "target")
            .map_or(14, |(_, v)| {
                let points: f64 = v.parse().expect("a target");
                (points * 4.0).round() as u32
            });
        assert!(
            case.after.is_empty(),
            "the table holds start positions only"
        );
        assert_eq!(oracle(target).perft(case.depth), case.nodes, "{case:?}");
    }
}

#[test]
fn scores_are_shown_as_decimals() {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    common::play_moves(
        &mut engine,
        &["a1", "b2", "c3", "a3", "a2"].map(String::from),
    );
    assert_eq!(engine.outcome(), Some(GameResult::Win(0)));
    let scores = engine.scores().expect("the game declares a score");
    // X: two corners and an edge, 4 points; O: the centre and a corner, 2.25 points.
    assert_eq!(scores, [400, 225]);
    assert_eq!(program.score_text(scores[0].into()), "4.0");
    assert_eq!(program.score_text(scores[1].into()), "2.25");
}

#[test]
fn a_decimal_option_refuses_a_third_decimal_place_and_values_outside_its_range() {
    let source = std::fs::read_to_string(common::root().join("tests/games/weighted.game"))
        .expect("the game file");
    let file = rulestone::syntax::parse(&source).expect("the game parses");
    for bad in ["3.125", "0.5", "9.01", "x", "3.", ".5", "1e2"] {
        let err = rulestone::check::options::resolve(&file, &set(bad));
        assert!(err.is_err(), "target={bad} was accepted");
    }
    for good in ["3.25", "1", "9.00", "4.5"] {
        assert!(
            rulestone::check::options::resolve(&file, &set(good)).is_ok(),
            "{good}"
        );
    }
}
