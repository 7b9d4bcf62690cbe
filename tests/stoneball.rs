//! `games/stoneball.game` against an independent Stoneball move generator written in plain
//! Rust from the rules text (`tests/stoneball/oracle.rs`): the same moves, spelled the same, at
//! every ply of seeded random games (pushes, the owner's tiers, out of play, returning pieces
//! and their placements, touchdowns, the turn limit), and the same perft counts.

#[path = "stoneball/oracle.rs"]
mod oracle;

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::{perft::perft, Engine, GameResult, Move};

fn program(options: &[(String, String)]) -> rulestone::ir::Program {
    common::program(&common::root().join("games/stoneball.game"), options)
}

fn moves_of(engine: &mut Engine<'_>) -> Vec<String> {
    let mut list = Vec::new();
    engine.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| engine.move_text(m)).collect();
    texts.sort();
    texts
}

#[test]
fn perft_from_the_start_matches_the_oracle() {
    let program = program(&[]);
    let mut engine = Engine::new(&program);
    let start = oracle::Position::start();
    for depth in 1..=4 {
        assert_eq!(
            perft(&mut engine, depth),
            start.perft(depth),
            "depth {depth}"
        );
    }
}

fn random_games(limit: u32, games: usize, seed: u64) -> (usize, usize) {
    let options = [("turn_limit".to_string(), limit.to_string())];
    let program = program(&options);
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut list: Vec<Move> = Vec::new();
    let (mut plies, mut ended) = (0, 0);
    for _ in 0..games {
        let mut undos = Vec::new();
        let mut oracle = oracle::Position::with_turn_limit(limit);
        loop {
            let mut expected = oracle.moves();
            expected.sort();
            assert_eq!(
                moves_of(&mut engine),
                expected,
                "moves differ after {plies} plies"
            );
            engine.legal_moves(&mut list);
            if list.is_empty() {
                let result = engine.outcome();
                let want = match oracle.result() {
                    Some(oracle::Outcome::Win(p)) => {
                        Some(GameResult::Win(u8::try_from(p.index()).unwrap_or(0)))
                    }
                    Some(oracle::Outcome::Draw) => Some(GameResult::Draw),
                    None => None,
                };
                assert_eq!(result, want, "results differ");
                ended += 1;
                break;
            }
            let m = list[rng.gen_range(0..list.len())];
            let text = engine.move_text(&m);
            oracle.play(&text).expect("the oracle accepts the move");
            undos.push(engine.apply(&m));
            plies += 1;
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
    (plies, ended)
}

#[test]
fn random_games_match_the_oracle() {
    let (plies, ended) = random_games(200, 60, 3);
    assert!(plies > 2000 && ended == 60);
}

#[test]
fn short_games_reach_the_turn_limit_like_the_oracle() {
    let (_, ended) = random_games(12, 40, 9);
    assert_eq!(ended, 40);
}

type Field = (i32, i32);

fn parse(s: &str) -> Field {
    let f = i32::from(s.as_bytes()[0]) - i32::from(b'a');
    (f, s[1..].parse::<i32>().unwrap_or(0) - 1)
}

fn name(f: Field) -> String {
    format!(
        "{}{}",
        char::from(b'a' + u8::try_from(f.0).unwrap_or(0)),
        f.1 + 1
    )
}

fn distance(a: Field, b: Field) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn mid(a: Field, b: Field) -> Field {
    ((a.0 + b.0) / 2, (a.1 + b.1) / 2)
}

/// A move's action: from, to, whether it is a ram, and the owner's choice.
fn action(m: &str) -> Option<(Field, Field, bool, Option<Field>)> {
    let head = m.split(' ').next()?;
    if head == "pass" {
        return None;
    }
    let (act, choice) = match head.split_once('/') {
        Some((a, c)) => (a, Some(parse(c))),
        None => (head, None),
    };
    let ram = act.contains('*');
    let (f, t) = act.split_once(['*', '-'])?;
    Some((parse(f), parse(t), ram, choice))
}

/// Returning pieces of both players on a file's return marks.
fn marks(p: &oracle::Position, file: &str) -> u32 {
    [(oracle::Player::Black, "6"), (oracle::Player::White, "4")]
        .iter()
        .map(|(who, rank)| u32::from(p.returning(*who, &format!("{file}{rank}"))))
        .sum()
}

/// Whether some ram of the mover's would be legal but for the protection of its target.
fn protected_ram(p: &oracle::Position) -> bool {
    let me = p.to_move();
    for x in 1..6 {
        for y in 1..8 {
            let from = (x, y);
            if p.piece(&name(from)) != Some(me) || name(from) == p.ball() {
                continue;
            }
            for (dx, dy) in oracle::DIRS {
                let on = |f: Field| (0..7).contains(&f.0) && (0..9).contains(&f.1);
                let (m, q, b) = (
                    (x + dx, y + dy),
                    (x + 2 * dx, y + 2 * dy),
                    (x + 3 * dx, y + 3 * dy),
                );
                if on(b)
                    && p.piece(&name(m)) != Some(me.other())
                    && p.piece(&name(q)) == Some(me.other())
                    && p.piece(&name(b)) == Some(me.other())
                {
                    return true;
                }
            }
        }
    }
    false
}

/// The tier (1, 2 or 3) of the owner's choice in a ram `m` of the mover of `p`: the chosen
/// field's direction from the blocking piece B, against `b` (from B back towards the ram).
fn owner_tier(p: &oracle::Position, m: &str) -> Option<u8> {
    const COMPASS: [Field; 8] = [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ];
    let (f, t, ram, choice) = action(m)?;
    let c = choice?;
    if !ram {
        return None;
    }
    let d = ((t.0 - f.0).signum(), (t.1 - f.1).signum());
    // B: the first field after q and the run of the rammer's pieces.
    let mut b_field = (t.0 + d.0, t.1 + d.1);
    while p.piece(&name(b_field)) == Some(p.to_move()) && name(b_field) != name(f) {
        b_field = (b_field.0 + d.0, b_field.1 + d.1);
    }
    let back = COMPASS.iter().position(|v| *v == (-d.0, -d.1))?;
    let chosen = COMPASS
        .iter()
        .position(|v| *v == (c.0 - b_field.0, c.1 - b_field.1))?;
    let turn = (chosen + 8 - back) % 8;
    Some(match turn {
        1 | 7 if (1..6).contains(&c.0) && (1..8).contains(&c.1) => 1,
        2 | 6 if (1..6).contains(&c.0) && (1..8).contains(&c.1) => 2,
        _ => 3,
    })
}

/// Finds positions that show each rule, for `games/stoneball.perft`: prints the moves that lead
/// to the first position (in seeded random games) where some legal move shows the feature.
#[test]
#[ignore = "a search run by hand: cargo test --release --test stoneball -- --ignored --nocapture"]
fn find_positions() {
    type Test = fn(&oracle::Position, &str, &oracle::Position) -> bool;
    let features: &[(&str, Test)] = &[
        ("a ram", |_, m, _| m.contains('*') && !m.contains('/')),
        ("the owner's choice", |_, m, _| m.contains('/')),
        ("out of play", |p, _, c| {
            c.pieces_returning(oracle::Player::White) + c.pieces_returning(oracle::Player::Black)
                > p.pieces_returning(oracle::Player::White)
                    + p.pieces_returning(oracle::Player::Black)
        }),
        ("a placement", |_, m, _| m.contains('+')),
        ("a touchdown", |_, _, c| c.result().is_some()),
        ("a pass", |_, m, _| m.starts_with("pass")),
        ("attacking", |p, _, _| p.carrier() == Some(p.to_move())),
        ("a special ram", |_, m, _| {
            action(m).is_some_and(|(f, t, ram, _)| ram && distance(f, t) == 1)
        }),
        ("a chase", |p, m, _| {
            action(m).is_some_and(|(f, t, ram, _)| {
                !ram && distance(f, t) == 2
                    && name(t) == p.ball()
                    && p.carrier().is_none()
                    && p.piece(&name(mid(f, t))).is_none()
            })
        }),
        ("a push past a run", |p, m, _| {
            action(m).is_some_and(|(f, t, ram, _)| {
                let d = (t.0 - f.0).signum();
                let e = (t.1 - f.1).signum();
                ram && p.piece(&name((t.0 + d, t.1 + e))) == Some(p.to_move())
            })
        }),
        (
            "the owner's choice outside the Game Zone (tier 3)",
            |_, m, _| {
                action(m).is_some_and(|(_, _, _, c)| {
                    c.is_some_and(|c| c.0 == 0 || c.0 == 6 || c.1 == 0 || c.1 == 8)
                })
            },
        ),
        ("out of play on the a side", |p, _, c| {
            marks(c, "a") > marks(p, "a")
        }),
        ("out of play on the g side", |p, _, c| {
            marks(c, "g") > marks(p, "g")
        }),
        ("a protected piece", |p, _, _| protected_ram(p)),
        ("the owner's choice, tier 1", |p, m, _| {
            owner_tier(p, m) == Some(1)
        }),
        ("the owner's choice, tier 2", |p, m, _| {
            owner_tier(p, m) == Some(2)
        }),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut found = vec![0; features.len()];
    for _ in 0..3000 {
        let mut pos = oracle::Position::start();
        let mut path: Vec<String> = Vec::new();
        while pos.result().is_none() {
            let moves = pos.moves_with_children();
            if moves.is_empty() {
                break;
            }
            for (i, (what, test)) in features.iter().enumerate() {
                if found[i] < 3 && moves.iter().any(|(m, c)| test(&pos, m, c)) {
                    found[i] += 1;
                    println!("{what}: {}", path.join("; "));
                }
            }
            let (m, c) = moves[rng.gen_range(0..moves.len())].clone();
            path.push(m);
            pos = c;
        }
    }
}

#[test]
fn perft_file_agrees_with_the_oracle() {
    let path = common::root().join("games/stoneball.perft");
    let mut checked = 0;
    for case in common::perft_cases(&path) {
        if case.nodes > 2_000_000 {
            continue;
        }
        let mut pos = oracle::Position::start();
        for m in &case.after {
            pos.play(m)
                .unwrap_or_else(|e| panic!("line {}: the oracle rejects `{m}`: {e}", case.line));
        }
        assert_eq!(pos.perft(case.depth), case.nodes, "line {}", case.line);
        checked += 1;
    }
    assert!(checked >= 20);
}

/// A variant is a text edit of the game file: `(from, to)` replacements, each found once.
fn variant(edits: &[(&str, &str)]) -> rulestone::ir::Program {
    let mut source = std::fs::read_to_string(common::root().join("games/stoneball.game"))
        .expect("readable game");
    for (from, to) in edits {
        assert_eq!(source.matches(from).count(), 1, "{from}");
        source = source.replace(from, to);
    }
    let file = rulestone::parse(&source).expect("the variant parses");
    let (checked, diags) = rulestone::check::check(&file);
    assert!(checked.is_some() && diags.is_empty(), "{diags:?}");
    rulestone::compile(&source, &[]).expect("the variant compiles")
}

/// Random games of a variant end, by a touchdown or the turn limit.
fn plays_to_the_end(program: &rulestone::ir::Program) {
    let mut engine = Engine::new(program);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut moves: Vec<Move> = Vec::new();
    for _ in 0..20 {
        let mut undos = Vec::new();
        while engine.state.result.is_none() {
            engine.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "a player always has a move or a pass");
            let m = moves[rng.gen_range(0..moves.len())];
            undos.push(engine.apply(&m));
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
    }
}

#[test]
fn variants_are_text_edits() {
    // Another protection rule: a rammed piece is protected by two or more of its owner's
    // pieces around it, in any direction.
    let protection = variant(&[(
        "require count(step(d, {q}) & enemy) == 0",
        "require count(step(compass, {q}) & enemy) < 2",
    )]);
    // Another start: the Ball one field nearer to White.
    let start = variant(&[("token ball at d5 carried", "token ball at d4 carried")]);
    // Another board: 9 files, 7 pieces a side, the return marks on files a and i.
    let wide = variant(&[
        ("cells x in 0..6", "cells x in 0..8"),
        (
            "zone game_zone = cells where x >= 1 and x <= 5",
            "zone game_zone = cells where x >= 1 and x <= 7",
        ),
        (
            "white_touchdown = cells where x >= 1 and x <= 5",
            "white_touchdown = cells where x >= 1 and x <= 7",
        ),
        (
            "black_touchdown = cells where x >= 1 and x <= 5",
            "black_touchdown = cells where x >= 1 and x <= 7",
        ),
        ("token ball at d5", "token ball at e5"),
        ("g4 -> g3 -> g2 -> g1", "i4 -> i3 -> i2 -> i1"),
        ("g6 -> g7 -> g8 -> g9", "i6 -> i7 -> i8 -> i9"),
        (
            "marker \"x\" on {a4, g4, a6, g6}",
            "marker \"x\" on {a4, i4, a6, i6}",
        ),
        (
            "black_touchdown - {a4, g4, a6, g6}",
            "black_touchdown - {a4, i4, a6, i6}",
        ),
        ("{b2, c2, d2, e2, f2}", "{b2, c2, d2, e2, f2, g2, h2}"),
        ("{b8, c8, d8, e8, f8}", "{b8, c8, d8, e8, f8, g8, h8}"),
    ]);
    for program in [&protection, &start, &wide] {
        plays_to_the_end(program);
    }
    // The Ball on d4: White may chase it at once from b2, d2 and f2 (13 steps + 3 chases).
    let mut engine = Engine::new(&start);
    assert!(moves_of(&mut engine).contains(&"d2-d4".to_string()));
    assert_eq!(perft(&mut engine, 1), 16);
    // Seven pieces on the first row.
    assert_eq!(perft(&mut Engine::new(&wide), 1), 19);
    // Where the standard rule protects a piece by the one behind it, the variant's protection
    // by two neighbours gives other rams.
    let table = common::perft_cases(&common::root().join("games/stoneball.perft"));
    let protected = table
        .iter()
        .find(|c| c.depth == 1 && c.line > 51)
        .expect("the protected-piece line");
    let standard = program(&[]);
    let mut standard_engine = Engine::new(&standard);
    let mut engine = Engine::new(&protection);
    common::play_moves(&mut standard_engine, &protected.after);
    common::play_moves(&mut engine, &protected.after);
    assert_ne!(moves_of(&mut engine), moves_of(&mut standard_engine));
}
