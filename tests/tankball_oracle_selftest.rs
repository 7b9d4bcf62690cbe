//! Sanity checks of the Tankball oracle (`tests/tankball/oracle.rs`) against counts worked out by
//! hand from the rules text.

#[path = "tankball/oracle.rs"]
mod oracle;

use oracle::{hex_name, parse_hex, Outcome, Player, Position};

fn play_all(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        pos.play(m)
            .unwrap_or_else(|e| panic!("rejects `{m}`: {e}\n{}", pos.render()));
    }
}

fn has(pos: &Position, m: &str) -> bool {
    pos.moves().iter().any(|x| x == m)
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn names() {
    assert_eq!(hex_name(12, 4), "e7");
    assert_eq!(hex_name(23, 3), "d12");
    assert_eq!(hex_name(24, 4), "e13");
    assert_eq!(hex_name(0, 4), "e1");
    assert_eq!(parse_hex("d12"), Some((23, 3)));
    assert_eq!(parse_hex("e13"), Some((24, 4)));
    assert_eq!(parse_hex("d13"), None);
    assert_eq!(parse_hex("j1"), None);
    assert_eq!(parse_hex("e0"), None);
    assert_eq!(parse_hex("e07"), None);
    for y in 0..=8 {
        for x in 0..=24 {
            if (x + y) % 2 == 0 && !(y % 2 == 1 && (x == 0 || x == 24)) {
                assert_eq!(parse_hex(&hex_name(x, y)), Some((x, y)));
            }
        }
    }
}

#[test]
fn setup_counts() {
    let mut pos = Position::start(3, None);
    assert!(!pos.roll_due());
    assert_eq!(pos.to_move(), Player::White);
    let m = pos.moves();
    // e6, d6, f6 × H/L × 6 facings.
    assert_eq!(m.len(), 36);
    assert!(m.contains(&"H@e6:E".to_string()));
    assert!(m.contains(&"L@d6:SW".to_string()));
    assert!(!m.contains(&"H@e5:E".to_string()));
    pos.play("H@e6:E").expect("legal");
    // Black: 35 field hexes in its half, minus the 3 of the central circle; 2 kinds.
    assert_eq!(pos.to_move(), Player::Black);
    assert_eq!(pos.moves().len(), 32 * 12);
    assert!(!has(&pos, "H@e8:E"));
    assert!(!has(&pos, "H@f7:E"));
    assert!(has(&pos, "H@e9:E"));
    assert!(!has(&pos, "H@e13:E"));
    assert!(!has(&pos, "H@i10:E"));
    assert!(!has(&pos, "H@b12:E"));
    pos.play("H@e9:W").expect("legal");
    // White: 35 - 1 hexes, H and L still available; the central circle is allowed.
    assert_eq!(pos.moves().len(), 34 * 12);
    assert!(has(&pos, "H@d6:E"));
    pos.play("H@d6:E").expect("legal");
    // Black: 31 hexes.
    assert_eq!(pos.moves().len(), 31 * 12);
    pos.play("H@d10:W").expect("legal");
    // White: both H used: 33 hexes × L × 6.
    assert_eq!(pos.moves().len(), 33 * 6);
    assert!(!has(&pos, "H@c3:E"));
    play_all(&mut pos, &["L@c3:E", "L@c10:W", "L@g3:E"]);
    assert!(!pos.roll_due());
    assert_eq!(pos.moves().len(), 29 * 6);
    pos.play("L@g10:W").expect("legal");
    assert!(pos.roll_due());
    assert_eq!(pos.to_move(), Player::White);
    let rolls = pos.moves();
    assert_eq!(rolls.len(), 216);
    assert!(rolls.contains(&"roll 3 5 2".to_string()));
    assert!(pos.play("end").is_err());
    assert!(pos.play("roll 0 1 1").is_err());
}

/// A lone heavy tank in open field with b1 ≠ b2: v = 1 gives F, L, R, reverse (4); v = 2 gives
/// F, L, R, FF, FL, FR, LF, LL, RF, RR plus reverse (11).
#[test]
fn lone_heavy() {
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'H', "e4", "E"),
            (Player::Black, 'H', "e11", "W"),
        ],
        "g7",
        Player::White,
    );
    pos.play("roll 1 2 5").expect("roll");
    let m = pos.moves();
    assert_eq!(m.len(), 4 + 11 + 1, "{m:?}");
    assert!(m.contains(&"m1 e4>e5:E".to_string()));
    assert!(m.contains(&"m2 e4>e5:E".to_string()));
    assert!(m.contains(&"m1 e4>e3:E".to_string()));
    assert!(m.contains(&"m2 e4>f4:NE".to_string()));
    assert!(m.contains(&"m2 e4>e4:NW".to_string()));
    pos.play("m1 e4>e4:NE").expect("legal");
    // Tank moved: no more movement.
    assert_eq!(pos.moves(), vec!["end".to_string()]);
    pos.play("end").expect("end");
    assert_eq!(pos.turns(), 1);
    assert!(pos.roll_due());
    assert_eq!(pos.to_move(), Player::Black);
}

#[test]
fn movement_bfs_matches_paths() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut total = 0;
    let mut goals = 0;
    for game in 0..40 {
        let mut pos = Position::start(if game % 2 == 0 { 1 } else { 3 }, Some(30));
        while pos.result().is_none() {
            if pos.roll_due() {
                let r = (1 + rng.below(6), 1 + rng.below(6), 1 + rng.below(6));
                pos.play(&format!("roll {} {} {}", r.0, r.1, r.2))
                    .expect("roll");
                let (checked, bad) = pos.check_movements_naive();
                assert_eq!(bad, 0, "\n{}", pos.render());
                total += checked;
                continue;
            }
            let m = pos.moves();
            assert!(!m.is_empty());
            let mut dedup = m.clone();
            dedup.sort();
            dedup.dedup();
            assert_eq!(dedup.len(), m.len(), "duplicate action spellings");
            // Prefer goals and kicks now and then, to reach restarts.
            let pick = m
                .iter()
                .find(|x| {
                    x.contains("ball=d12") || x.contains("ball=e13") || x.contains("ball=f12")
                })
                .filter(|_| rng.below(2) == 0)
                .cloned()
                .unwrap_or_else(|| m[rng.below(m.len())].clone());
            let before = pos.goals();
            pos.play(&pick).expect("own move");
            if pos.goals() != before {
                goals += 1;
                if pos.result().is_none() {
                    assert!(!pos.roll_due(), "setup after a goal");
                }
            }
        }
        if let Some(Outcome::Win(p)) = pos.result() {
            assert!(pos.goals()[p.index()] > pos.goals()[p.other().index()]);
        }
    }
    eprintln!("{total} end states checked, {goals} goals");
    assert!(total > 1000);
}

#[test]
fn pushes() {
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'H', "e5", "E"),
            (Player::White, 'H', "e11", "E"),
            (Player::White, 'L', "g3", "NW"),
            (Player::Black, 'H', "c10", "W"),
        ],
        "e12",
        Player::White,
    );
    pos.play("roll 1 1 2").expect("roll");
    // Push into the east goal: a goal for White.
    assert!(has(&pos, "m1 e11>e12:E ball=e13"));
    // The reverse of e11 takes e10.
    assert!(has(&pos, "m1 e11>e10:E"));
    let mut p2 = pos.clone();
    p2.play("m1 e11>e12:E ball=e13").expect("goal");
    assert_eq!(p2.goals(), [1, 0]);
    assert_eq!(p2.turns(), 1);
    assert!(!p2.roll_due());
    assert_eq!(p2.to_move(), Player::Black, "the conceder places first");
    assert_eq!(p2.moves().len(), 36);
    // Pushing into a magnetic hex is illegal: ball on h2 pushed NW from g3.
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'L', "g3", "NW"),
            (Player::Black, 'H', "c10", "W"),
        ],
        "h2",
        Player::White,
    );
    pos.play("roll 1 2 2").expect("roll");
    assert!(!pos.moves().iter().any(|m| m.contains("ball=")));
    // Reverse push: tank e5 facing W, ball on e6 behind it.
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'L', "e5", "W"),
            (Player::Black, 'H', "c10", "W"),
        ],
        "e6",
        Player::White,
    );
    pos.play("roll 4 2 2").expect("roll");
    assert!(has(&pos, "m4 e5>e6:W ball=e7"));
    assert!(has(&pos, "m2 e5>e6:W ball=e7"));
    // Forward: W for up to 6 steps: e4 e3 e2, e1 is a goal.
    assert!(has(&pos, "m4 e5>e2:W"));
    assert!(!has(&pos, "m4 e5>e1:W"));
}

#[test]
fn kick_bounces() {
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'H', "e10", "E"),
            (Player::Black, 'H', "a1", "E"),
        ],
        "e11",
        Player::White,
    );
    pos.play("roll 1 2 6").expect("roll");
    // L (NE): f11 g12, h12 bounces to NW: h11, row i bounces to SW: g11 f10, e10 holds the
    // kicker: stop on f10.  R (SE): d11 c12, b12 bounces to SW: b11, row a bounces to NW: c11
    // d10, e10 holds the kicker: stop on d10.
    let mut l = pos.clone();
    l.play("k e10 L").expect("kick L");
    assert!(l.render().contains('o'));
    let mut r = pos.clone();
    r.play("k e10 R").expect("kick R");
    // Find the ball by moving the tank: a 1-step forward now has no push.
    let ball_of = |p: &Position| {
        p.render()
            .lines()
            .take(9)
            .flat_map(|line| {
                let row = line.chars().next().expect("row letter");
                let y = row as i32 - 'a' as i32;
                let cells: Vec<(usize, char)> = line.char_indices().skip(2).collect();
                cells
                    .into_iter()
                    .filter(|&(_, c)| c == 'o')
                    .map(move |(i, _)| hex_name(((i - 2) / 3) as i32, y))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(ball_of(&l), vec!["f10".to_string()]);
    assert_eq!(ball_of(&r), vec!["d10".to_string()]);
    // One kick per turn.
    assert!(!l.moves().iter().any(|m| m.starts_with('k')));
    // The kick is allowed after the kicker moved, if it still faces the Ball: a turn-only
    // movement away and back is not a movement, so move a second heavy instead.
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'H', "e10", "E"),
            (Player::White, 'L', "c3", "E"),
            (Player::Black, 'H', "e12", "W"),
        ],
        "e11",
        Player::White,
    );
    pos.play("roll 3 4 2").expect("roll");
    // Black tank on e12 right behind the Ball: L and R only (NE, SE paths are free).
    assert!(has(&pos, "k e10 L"));
    assert!(has(&pos, "k e10 R"));
    // A kick with a tank on the first hex of the path is no action.
    let mut pos = Position::setup_from(
        &[
            (Player::White, 'H', "e10", "E"),
            (Player::Black, 'H', "f11", "W"),
        ],
        "e11",
        Player::White,
    );
    pos.play("roll 3 4 2").expect("roll");
    assert!(!has(&pos, "k e10 L"));
    assert!(has(&pos, "k e10 R"));
}

#[test]
fn kick_goal_and_win() {
    let pos0 = Position::setup_from(
        &[
            (Player::White, 'H', "e11", "E"),
            (Player::Black, 'H', "a1", "E"),
        ],
        "e12",
        Player::White,
    );
    // L: NE from e12 enters f12 (goal).
    let mut pos = pos0.clone().with_options(1, None);
    pos.play("roll 2 3 1").expect("roll");
    pos.play("k e11 L").expect("kick");
    assert_eq!(pos.result(), Some(Outcome::Win(Player::White)));
    assert!(pos.moves().is_empty());
    assert_eq!(pos.perft(1, &[]), Ok(0));
    // Turn limit 1: the end of the turn finishes a 0-0 draw.
    let mut pos = pos0.clone().with_options(3, Some(1));
    pos.play("roll 2 3 1").expect("roll");
    pos.play("end").expect("end");
    assert_eq!(pos.result(), Some(Outcome::Draw));
}

#[test]
fn doubles_budget() {
    let tanks = [
        (Player::White, 'H', "c3", "E"),
        (Player::White, 'H', "e3", "E"),
        (Player::White, 'L', "g3", "E"),
        (Player::White, 'L', "c5", "E"),
        (Player::Black, 'H', "c10", "W"),
    ];
    let mut pos = Position::setup_from(&tanks, "e7", Player::White);
    pos.play("roll 1 1 2").expect("roll");
    play_all(&mut pos, &["m1 c3>c4:E", "m1 e3>e4:E", "m1 g3>g4:E"]);
    assert_eq!(pos.moves(), vec!["end".to_string()]);
    let mut pos = Position::setup_from(&tanks, "e7", Player::White);
    pos.play("roll 1 1 1").expect("roll");
    play_all(
        &mut pos,
        &["m1 c3>c4:E", "m1 e3>e4:E", "m1 g3>g4:E", "m1 c5>c6:E"],
    );
    assert_eq!(pos.moves(), vec!["end".to_string()]);
    let mut pos = Position::setup_from(&tanks, "e7", Player::White);
    pos.play("roll 1 2 1").expect("roll");
    play_all(&mut pos, &["m1 c3>c4:E"]);
    assert!(!pos.moves().iter().any(|m| m.starts_with("m1")));
    assert!(has(&pos, "m2 e3>e5:E"));
    pos.play("m2 e3>e5:E").expect("legal");
    assert_eq!(pos.moves(), vec!["end".to_string()]);
}

#[test]
fn perft_rolls() {
    let pos = Position::setup_from(
        &[
            (Player::White, 'H', "e4", "E"),
            (Player::Black, 'H', "e11", "W"),
        ],
        "g7",
        Player::White,
    );
    assert_eq!(pos.perft(0, &[]), Ok(1));
    assert!(pos.perft(1, &[]).is_err());
    assert_eq!(pos.perft(1, &[(1, 2, 5)]), Ok(16));
    // Depth 2: after one of the 15 movements only `end` remains (1 each); after `end`
    // Black's turn needs the second roll.
    assert!(pos.perft(2, &[(1, 2, 5)]).is_err());
    // Black's lone heavy with 1 1 3: 4 movements (v = 1) + end.
    assert_eq!(pos.perft(2, &[(1, 2, 5), (1, 1, 3)]), Ok(15 + 5));
    let start = Position::start(3, None);
    assert_eq!(start.perft(1, &[]), Ok(36));
    assert_eq!(start.perft(2, &[]), Ok(36 * 384));
}

#[test]
fn perft_speed() {
    let pos = Position::setup_from(
        &[
            (Player::White, 'H', "e4", "E"),
            (Player::White, 'H', "c5", "NE"),
            (Player::White, 'L', "g4", "E"),
            (Player::White, 'L', "d3", "E"),
            (Player::Black, 'H', "e10", "W"),
            (Player::Black, 'H', "c10", "W"),
            (Player::Black, 'L', "g10", "W"),
            (Player::Black, 'L', "f9", "W"),
        ],
        "e7",
        Player::White,
    );
    let t = std::time::Instant::now();
    let n = pos.perft(2, &[(6, 6, 6), (1, 2, 3)]).expect("perft");
    eprintln!("perft 2 with 6 6 6: {n} in {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let n = pos
        .perft(3, &[(2, 3, 4), (5, 6, 1), (3, 3, 1)])
        .expect("perft");
    eprintln!("perft 3 with 2 3 4: {n} in {:?}", t.elapsed());
}

/// Three forward steps in open field reach 3 + 7 + 16 = 26 new states (depth 1: F L R; depth 2:
/// FF FL FR LF LL RF RR; depth 3: FFF FFL FFR FLF FLL FRF FRR LFF LFL LFR LLF LLL RFF RFL RFR
/// RRF), plus the reverse: 27. A light tank with v = 1 and a heavy one with v = 3 both get 27.
#[test]
fn three_steps() {
    for (k, roll) in [('L', "roll 1 1 2"), ('H', "roll 3 3 2")] {
        let mut pos = Position::setup_from(
            &[
                (Player::White, k, "e4", "E"),
                (Player::Black, 'H', "e11", "W"),
            ],
            "g7",
            Player::White,
        );
        pos.play(roll).expect("roll");
        assert_eq!(pos.moves().len(), 27 + 1, "{k}");
    }
}
