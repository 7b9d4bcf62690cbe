//! The table game of `games/warstone.game` through the library: captures at the end lines and
//! over the walls, the win at once, sudden death, cards set aside, the free shot, referee
//! outcomes and penalties, determinism, undo, and a whole simulated match as a snapshot; the same
//! constructs on `tests/games/sling.game`, and `tests/games/slide.game`, a game without cards
//! that scores by the zones its stones rest in.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use rulestone::ir::table::TableProgram;
use rulestone::runtime::table::{Choice, Decision, TableMatch};
use rulestone::runtime::GameResult;

mod common;

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../snapshots/games",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

fn program(sets: &[(&str, &str)]) -> TableProgram {
    load("games/warstone.game", sets)
}

fn load(file: &str, sets: &[(&str, &str)]) -> TableProgram {
    let path = common::root().join(file);
    let source = std::fs::read_to_string(path).expect("read the game");
    let file = rulestone::syntax::parse(&source).expect("parse");
    let (checked, diags) = rulestone::check::check(&file);
    assert!(diags.is_empty(), "{} diagnostics", diags.len());
    assert!(checked.and_then(|c| c.table).is_some(), "a table game");
    let sets: Vec<(String, String)> = sets
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect();
    rulestone::compile_table_parsed(&file, &sets)
        .expect("a table game")
        .1
}

/// A match where West brings the game's first army and East its second (or its first, when it
/// has one).
fn start(p: &TableProgram, seed: u64) -> TableMatch<'_> {
    let second = p.armies.get(1).unwrap_or(&p.armies[0]);
    let armies = [vec![p.armies[0].clone()], vec![second.clone()]];
    TableMatch::new(p, armies, seed)
}

fn stone(m: &TableMatch<'_>, name: &str) -> usize {
    (0..m.position.stones.len())
        .find(|&i| m.stone_name(i) == name)
        .expect("a stone of that name")
}

/// Puts a stone at a point, still.
fn put(m: &mut TableMatch<'_>, name: &str, x: f64, y: f64) {
    let i = stone(m, name);
    let d = &mut m.position.stones[i].disc;
    d.x = x;
    d.y = y;
    d.on_table = true;
}

/// Gives the mover this hand.
fn hand(m: &mut TableMatch<'_>, mover: u8, cards: &[&str]) {
    m.position.mover = mover;
    let ids: Vec<usize> = cards
        .iter()
        .map(|c| m.program.card(c).expect("a card"))
        .collect();
    m.position.sides[usize::from(mover)].hand = ids;
}

fn play(m: &mut TableMatch<'_>, text: &str) {
    let d = m.parse(text).unwrap_or_else(|e| panic!("{text}: {}", e.0));
    m.apply(&d).unwrap_or_else(|e| panic!("{text}: {}", e.0));
}

fn log(m: &TableMatch<'_>) -> String {
    m.position.log.join("\n")
}

#[test]
fn the_game_lowers_with_its_armies() {
    let p = program(&[]);
    assert_eq!(p.cards.len(), 28);
    assert_eq!(p.armies.len(), 2);
    assert_eq!(p.armies[0].deck.len(), 20);
    assert!(!p.referee);
    assert!(program(&[("mode", "referee")]).referee);
    assert!((program(&[("friction", "12.5")]).physics.friction - 12.5).abs() < 1e-12);
}

#[test]
fn decisions_at_the_start_are_counted_exactly() {
    let p = program(&[]);
    // Seed → who starts and how many (card, stone) decisions the first hand gives.
    let counts: Vec<(String, usize)> = (1..=4)
        .map(|seed| {
            let m = start(&p, seed);
            (m.player(m.position.mover).to_string(), m.choices().len())
        })
        .collect();
    snap!("warstone_start_counts", format!("{counts:?}"));
    // A hand of one Core card and one Master card: 5 cores + 1 master.
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze", "Spark"]);
    assert_eq!(m.choices().len(), 6);
}

#[test]
fn the_first_player_chooses_an_army_then_the_second_one_of_another_faction() {
    let p = program(&[]);
    for seed in 1..=4 {
        let mut m = TableMatch::new(&p, [p.armies.clone(), p.armies.clone()], seed);
        let first = m.position.first;
        assert_eq!(m.position.mover, first);
        let texts: Vec<String> = m.choices().iter().map(|c| m.choice_text(c)).collect();
        assert_eq!(texts, ["army Crimson_host", "army Azure_tide"]);
        assert!(
            m.clone().apply(&Decision::Time).is_err(),
            "the armies come first"
        );
        let pick = if seed % 2 == 0 {
            "army Azure_tide"
        } else {
            "army Crimson_host"
        };
        play(&mut m, pick);
        assert_eq!(m.position.mover, 1 - first);
        let texts: Vec<String> = m.choices().iter().map(|c| m.choice_text(c)).collect();
        let other = if seed % 2 == 0 {
            "army Crimson_host"
        } else {
            "army Azure_tide"
        };
        assert_eq!(texts, [other], "the second player may not share a faction");
        play(&mut m, other);
        assert_eq!(m.position.mover, first, "the first player opens the match");
        assert_eq!(m.position.stones.len(), 20);
        assert!(m
            .choices()
            .iter()
            .all(|c| matches!(c, Choice::Shot { .. } | Choice::Skip { .. })));
        assert!(m.undo() && m.undo());
        assert_eq!(m.position.phase, rulestone::runtime::table::Phase::Muster);
    }
}

#[test]
fn crossing_an_end_line_is_a_capture_for_the_owners_opponent() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze"]);
    put(&mut m, "WC1", 14.0, 30.0);
    play(&mut m, "Blaze WC1 180@15.0");
    assert_eq!(m.position.sides[1].captures, 1, "{}", log(&m));
    assert!(log(&m).contains("WC1 enters west_end: captured by East"));
    assert!(!m.position.stones[stone(&m, "WC1")].disc.on_table);
}

#[test]
fn leaving_an_end_zone_is_no_capture() {
    // Regions are entered one way: a stone inside the end zone that moves out stays in play.
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze"]);
    put(&mut m, "WC1", 8.0, 30.0);
    play(&mut m, "Blaze WC1 0@15.0");
    assert_eq!(m.position.sides[1].captures, 0, "{}", log(&m));
    let wc1 = m.position.stones[stone(&m, "WC1")].disc;
    assert!(wc1.on_table && wc1.x > 10.0, "{wc1:?}");
}

#[test]
fn the_shot_stone_over_a_wall_is_captured_by_the_shooters_opponent() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze"]);
    put(&mut m, "WC1", 40.0, 56.0);
    play(&mut m, "Blaze WC1 90@45.0");
    assert!(
        log(&m).contains("WC1 goes over a wall: captured by East"),
        "{}",
        log(&m)
    );
    assert_eq!(m.position.sides[1].captures, 1);
}

#[test]
fn a_knocked_stone_over_a_wall_goes_back_on_the_center_line() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Inferno"]);
    put(&mut m, "WM", 40.0, 48.0);
    put(&mut m, "EC1", 40.0, 54.0);
    play(&mut m, "Inferno WM 90@50.0");
    let text = log(&m);
    assert!(
        text.contains("EC1 goes over a wall: back on center"),
        "{text}"
    );
    let ec1 = m.position.stones[stone(&m, "EC1")].disc;
    assert!(ec1.on_table && (ec1.x - 60.0).abs() < 1e-9);
    assert_eq!(
        m.position.sides[0].captures + m.position.sides[1].captures,
        0
    );
}

#[test]
fn the_eighth_capture_wins_at_once() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    m.position.sides[1].captures = 7;
    hand(&mut m, 0, &["Blaze", "Ember"]);
    put(&mut m, "WC1", 14.0, 30.0);
    play(&mut m, "Blaze WC1 180@15.0");
    assert_eq!(m.outcome(), Some(GameResult::Win(1)));
    assert!(m.choices().is_empty());
    assert!(m
        .parse("Ember WC2 0@1.0")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
}

#[test]
fn level_after_the_last_turn_is_sudden_death_from_the_first_player() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    let first = m.position.first;
    m.position.turns = 9;
    m.position.mover = 1 - first;
    play(&mut m, "time");
    assert!(m.position.sudden_death, "{}", log(&m));
    assert_eq!(m.position.mover, first);
    assert_eq!(m.outcome(), None);
    // The first capture decides: here the mover's own stone crosses, so the opponent wins.
    let mover = m.position.mover;
    let owner = if mover == 0 { "W" } else { "E" };
    hand(&mut m, mover, &[if mover == 0 { "Blaze" } else { "Wave" }]);
    let x = if mover == 0 { 14.0 } else { 106.0 };
    let core = format!("{owner}C1");
    put(&mut m, &core, x, 30.0);
    let angle = if mover == 0 { 180 } else { 0 };
    let card = if mover == 0 { "Blaze" } else { "Wave" };
    play(&mut m, &format!("{card} {core} {angle}@15.0"));
    assert_eq!(m.outcome(), Some(GameResult::Win(1 - mover)));
}

#[test]
fn the_match_clock_ends_the_match_as_after_the_last_turn() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    m.position.sides[1].captures = 2;
    play(&mut m, "time match");
    assert_eq!(m.outcome(), Some(GameResult::Win(1)));
    let mut m = start(&p, 1);
    play(&mut m, "time match");
    assert!(m.position.sudden_death && m.outcome().is_none());
    assert_eq!(m.position.mover, m.position.first);
    assert!(m
        .parse("time match")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
}

#[test]
fn more_captures_after_the_last_turn_wins() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    m.position.turns = 9;
    m.position.sides[0].captures = 3;
    m.position.sides[1].captures = 2;
    play(&mut m, "time");
    assert_eq!(m.outcome(), Some(GameResult::Win(0)));
    assert_eq!(m.turns_played(), 10);
}

#[test]
fn a_card_is_set_aside_only_when_no_stone_of_its_kind_is_on_the_table() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Cinder", "Spark"]);
    assert!(m
        .parse("skip Cinder")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
    for s in ["WS1", "WS2", "WS3", "WS4"] {
        let i = stone(&m, s);
        m.position.stones[i].disc.on_table = false;
    }
    assert_eq!(
        m.choices()[0],
        Choice::Skip {
            card: p.card("Cinder").expect("card")
        }
    );
    let deck_before = m.position.sides[0].deck.len();
    play(&mut m, "skip Cinder");
    assert_eq!(m.position.sides[0].deck.len(), deck_before + 1);
    assert_eq!(m.position.sides[0].deck.back(), p.card("Cinder").as_ref());
}

#[test]
fn a_skipped_card_is_followed_by_the_win_rules() {
    use rulestone::check::table::{Compare, Measure, Term};
    let mut p = program(&[]);
    let deck_before = start(&p, 1).position.sides[0].deck.len();
    // A rule the skip itself fulfils: one more card in the mover's deck.
    let more = Term::Amount(f64::from(u32::try_from(deck_before).expect("small")) + 1.0);
    p.wins.push(vec![Compare {
        left: Term::Mine(Measure::Deck),
        op: rulestone::ir::CmpOp::Ge,
        right: more,
    }]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Cinder", "Spark"]);
    for s in ["WS1", "WS2", "WS3", "WS4"] {
        let i = stone(&m, s);
        m.position.stones[i].disc.on_table = false;
    }
    play(&mut m, "skip Cinder");
    assert_eq!(m.outcome(), Some(GameResult::Win(0)), "{}", log(&m));
}

#[test]
fn the_free_shot_is_the_master_or_a_core_when_no_stone_was_shot() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Cinder"]);
    for s in ["WS1", "WS2", "WS3", "WS4"] {
        let i = stone(&m, s);
        m.position.stones[i].disc.on_table = false;
    }
    play(&mut m, "skip Cinder");
    let free: Vec<String> = m.choices().iter().map(|c| m.choice_text(c)).collect();
    assert_eq!(free.len(), 6, "{free:?}");
    assert!(free.iter().all(|t| t.starts_with("free ")));
    assert!(free.iter().all(|t| t.ends_with("@0.0..30.0")));

    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze"]);
    play(&mut m, "Blaze WC1 0@1.0");
    let free: Vec<String> = m.choices().iter().map(|c| m.choice_text(c)).collect();
    assert_eq!(free, vec!["free WM 0..359@0.0..30.0".to_string()]);
    play(&mut m, "free WM 180@1.0");
    assert_eq!(m.position.mover, 1);
}

#[test]
fn bad_decisions_are_refused_with_reasons() {
    let p = program(&[]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze"]);
    let refuse = |m: &TableMatch<'_>, text: &str| -> String {
        match m.parse(text) {
            Err(e) => e.0,
            Ok(d) => m.clone().apply(&d).err().map(|e| e.0).unwrap_or_default(),
        }
    };
    let reasons = [
        "Blaze WC1 15@99.0",
        "Blaze WC1 400@10.0",
        "Blaze WS1 15@10.0",
        "Wave WC1 15@10.0",
        "Blaze WC1 15@10.25",
        "Blaze WC1",
        "free WM 0@1.0",
        "Nope WC1 15@1.0",
        "result none",
    ]
    .map(|t| format!("{t} → {}", refuse(&m, t)))
    .join("\n");
    snap!("warstone_refusals", reasons);
    let before = format!("{:?}", m.position);
    let _ = m.apply(&Decision::Skip { card: 0 });
    assert_eq!(
        before,
        format!("{:?}", m.position),
        "a refused decision changes nothing"
    );
}

#[test]
fn referee_outcomes_penalties_and_time() {
    let p = program(&[("mode", "referee")]);
    let mut m = start(&p, 1);
    hand(&mut m, 0, &["Blaze", "Ember"]);
    let choices: Vec<String> = m.choices().iter().map(|c| m.choice_text(c)).collect();
    assert!(choices.contains(&"Blaze WC1".to_string()));
    assert!(m
        .parse("Blaze WC1 15@10.0")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
    play(&mut m, "Blaze WC1");
    assert!(
        m.parse("Ember WC2")
            .is_ok_and(|d| m.clone().apply(&d).is_err()),
        "result first"
    );
    play(&mut m, "result capture EC2; move WC1 70.5,22.0; off WS1");
    assert_eq!(m.position.sides[0].captures, 1);
    let wc1 = m.position.stones[stone(&m, "WC1")].disc;
    assert!((wc1.x - 70.5).abs() < 1e-9 && (wc1.y - 22.0).abs() < 1e-9);
    assert!(
        log(&m).contains("WS1 is knocked off the table: back on center"),
        "{}",
        log(&m)
    );
    // Penalties: the warning, then the opponent captures one of the offender's stones.
    assert!(m
        .parse("penalty foul WS2")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
    play(&mut m, "penalty foul West");
    assert!(m
        .parse("penalty foul West")
        .is_ok_and(|d| m.clone().apply(&d).is_err()));
    play(&mut m, "penalty foul WS2");
    assert_eq!(m.position.sides[1].captures, 1);
    // The clock runs out: the cards left go to the bottom of the deck and East plays.
    let deck = m.position.sides[0].deck.len();
    play(&mut m, "time");
    assert_eq!(m.position.sides[0].deck.len(), deck + 1);
    assert_eq!(m.position.mover, 1);
    let texts: Vec<String> = [
        "result capture EC2; move WC1 70.5,22.0; off WS1",
        "penalty foul West",
        "Blaze WC1",
        "free WM",
        "time",
    ]
    .iter()
    .map(|t| m.parse(t).map(|d| m.decision_text(&d)).unwrap_or_default())
    .collect();
    assert_eq!(texts[0], "result capture EC2; move WC1 70.5,22.0; off WS1");
    assert_eq!(texts[3], "free WM");
}

/// Random decisions until the match ends (or `limit` decisions).
fn random_match<'p>(p: &'p TableProgram, seed: u64, limit: usize) -> (TableMatch<'p>, Vec<String>) {
    let mut m = start(p, seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut texts = Vec::new();
    while m.outcome().is_none() && texts.len() < limit {
        let Some(d) = m.random_decision(&mut rng) else {
            break;
        };
        texts.push(m.decision_text(&d));
        m.apply(&d).expect("a random decision is legal");
    }
    (m, texts)
}

#[test]
fn random_matches_end_and_undo_returns_to_the_start() {
    let p = program(&[]);
    for seed in 0..12 {
        let (mut m, texts) = random_match(&p, seed, 2000);
        assert!(
            m.outcome().is_some(),
            "seed {seed}: no result after {} decisions",
            texts.len()
        );
        let end = format!("{:?}", m.position);
        // Replaying the notation from the start reaches the same position, bit for bit.
        let mut again = start(&p, seed);
        for t in &texts {
            play(&mut again, t);
        }
        assert_eq!(
            end,
            format!("{:?}", again.position),
            "seed {seed}: replay differs"
        );
        let start_text = format!("{:?}", start(&p, seed).position);
        while m.undo() {}
        assert_eq!(start_text, format!("{:?}", m.position), "seed {seed}: undo");
    }
}

#[test]
fn a_whole_simulated_match() {
    let p = program(&[]);
    let mut m = start(&p, 7);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut out = format!(
        "{}\n{}",
        m.position.log.join("\n"),
        rulestone::cli::inputs::draw_table(&m)
    );
    while m.outcome().is_none() {
        let Some(d) = m.random_decision(&mut rng) else {
            break;
        };
        let text = m.decision_text(&d);
        m.apply(&d).expect("legal");
        out.push_str(&format!("\n> {text}\n"));
        for l in &m.position.log {
            out.push_str(&format!("  {l}\n"));
        }
    }
    out.push_str(&format!(
        "\n{}{}",
        rulestone::cli::inputs::draw_table(&m),
        m.status()
    ));
    out.push_str(&format!(
        "result: {:?}, turns {}\n",
        m.outcome(),
        m.turns_played()
    ));
    snap!("warstone_simulated_match", out);
}

/// The same constructs on another table: four walls, one kind of puck, a pit line, no sudden
/// death (`tests/games/sling.game`).
#[test]
fn the_constructs_run_a_second_table_game() {
    let p = load("tests/games/sling.game", &[]);
    assert_eq!(p.walls.len(), 4);
    let mut results = Vec::new();
    for seed in 0..20 {
        let (m, _) = random_match(&p, seed, 500);
        let r = m.outcome().expect("every match ends");
        assert!(m.turns_played() <= 6);
        results.push(r);
    }
    assert!(
        results.contains(&GameResult::Draw),
        "level after 6 turns is a draw"
    );
    assert!(results.iter().any(|r| matches!(r, GameResult::Win(_))));
    // A puck of North's (home y = 35) pushed south across the pit (y = 30) is South's capture.
    let mut m = start(&p, 1);
    let card = p.card("Flick").expect("card");
    m.position.mover = 0;
    m.position.sides[0].hand = vec![card];
    play(&mut m, "Flick NP1 270@15.0");
    assert_eq!(m.position.sides[1].captures, 1, "{}", log(&m));
}

/// Slide's mover shoots one of their weights without moving it (speed 0).
fn stay(m: &mut TableMatch<'_>) {
    let mover = m.position.mover;
    let Some(Choice::Shot { stone, .. }) = m.choices().into_iter().find(
        |c| matches!(c, Choice::Shot { stone, .. } if m.position.stones[*stone].owner == mover),
    ) else {
        panic!("no shot: {}", m.status());
    };
    let text = format!("free {} 0@0.0", m.stone_name(stone));
    play(m, &text);
}

#[test]
fn a_game_without_cards_shoots_once_a_turn_and_scores_by_zones() {
    let p = load("tests/games/slide.game", &[]);
    assert!(p.cards.is_empty());
    let mut m = start(&p, 3);
    // No cards: every decision is a shot without a card, one per weight of the mover.
    let choices = m.choices();
    assert_eq!(choices.len(), 3, "{choices:?}");
    assert!(choices.iter().all(|c| matches!(c,
        Choice::Shot { card: None, max_speed, .. } if (*max_speed - 32.0).abs() < 1e-9)));
    // A weight scores the first listed zone that holds its centre: far 3, middle 2, near 1.
    put(&mut m, "RW1", 95.0, 5.0);
    put(&mut m, "RW2", 85.0, 10.0);
    put(&mut m, "RW3", 75.0, 15.0);
    put(&mut m, "BW1", 65.0, 20.0);
    assert_eq!((m.points(0), m.points(1)), (6, 0));
    assert!(m.status().contains("6 points"), "{}", m.status());
    // One shot and the turn is over.
    let mover = m.position.mover;
    stay(&mut m);
    assert_eq!(m.position.turns, 1);
    assert_ne!(m.position.mover, mover);
    // All three in the far zone win at once (`win when points >= 9`), tested after the shot.
    put(&mut m, "RW2", 95.0, 10.0);
    put(&mut m, "RW3", 95.0, 15.0);
    stay(&mut m);
    assert_eq!(m.outcome(), Some(GameResult::Win(0)), "{}", log(&m));
}

#[test]
fn a_game_without_cards_ends_by_points_and_sudden_death_on_points() {
    let p = load("tests/games/slide.game", &[]);
    let mut m = start(&p, 5);
    // Twelve turns with level points (none in a zone) go to sudden death from the first player.
    for _ in 0..12 {
        stay(&mut m);
    }
    assert!(
        m.position.sudden_death && m.outcome().is_none(),
        "{}",
        m.status()
    );
    assert_eq!(m.position.mover, m.position.first);
    assert!(
        m.status().starts_with("sudden death, turn 1"),
        "{}",
        m.status()
    );
    // The first to go ahead wins ...
    let mut ahead = m.clone();
    put(&mut ahead, "BW2", 85.0, 10.0);
    stay(&mut ahead);
    assert_eq!(ahead.outcome(), Some(GameResult::Win(1)));
    // ... and four turns still level are a draw.
    for _ in 0..4 {
        stay(&mut m);
    }
    assert_eq!(m.outcome(), Some(GameResult::Draw), "{}", log(&m));
    // After twelve turns more points win.
    let mut m = start(&p, 5);
    put(&mut m, "RW1", 75.0, 5.0);
    for _ in 0..12 {
        stay(&mut m);
    }
    assert_eq!(m.outcome(), Some(GameResult::Win(0)));
    // Random matches end, and replay from their notation.
    let mut results = Vec::new();
    for seed in 0..20 {
        let (m, texts) = random_match(&p, seed, 500);
        results.push(m.outcome().expect("every match ends"));
        assert!(m.turns_played() <= 16);
        let mut again = start(&p, seed);
        for t in &texts {
            play(&mut again, t);
        }
        assert_eq!(format!("{:?}", m.position), format!("{:?}", again.position));
    }
    assert!(results.iter().any(|r| matches!(r, GameResult::Win(_))));
}

/// A shot simulated with `trace_shots` on records every stone's position from before it to
/// where the stones rest, and plays exactly as without it.
#[test]
fn a_traced_shot_records_the_stones_along_it_and_plays_the_same() {
    let p = program(&[]);
    let (mut plain, mut traced) = (start(&p, 3), start(&p, 3));
    for m in [&mut plain, &mut traced] {
        hand(m, 0, &["Blaze"]);
        put(m, "WC1", 30.0, 12.0);
    }
    traced.trace_shots(4);
    let at = |m: &TableMatch<'_>| -> Vec<(f64, f64)> {
        m.position
            .stones
            .iter()
            .map(|s| (s.disc.x, s.disc.y))
            .collect()
    };
    let before = at(&traced);
    play(&mut plain, "Blaze WC1 10@20.0");
    play(&mut traced, "Blaze WC1 10@20.0");
    assert!(plain.shot_trace().is_empty(), "no trace unless asked");
    assert_eq!(at(&plain), at(&traced), "the trace changes nothing");
    assert_eq!(log(&plain), log(&traced));
    let trace = traced.shot_trace();
    assert!(trace.len() > 2, "{} frames", trace.len());
    assert_eq!(trace[0].positions, before);
    assert!(trace.windows(2).all(|w| w[0].step < w[1].step));
    let shot = stone(&traced, "WC1");
    let last = trace[trace.len() - 1].positions[shot];
    assert_eq!(last, at(&traced)[shot], "the last frame is where it rests");
    assert_ne!(last, before[shot]);
}

/// The table's picture: every stone a group named by its name, those off the table hidden,
/// the last shot's path drawn, the same bytes every time.
#[test]
fn the_table_is_drawn_with_its_stones_and_the_shots_path() {
    let p = program(&[]);
    let mut m = start(&p, 3);
    hand(&mut m, 0, &["Blaze"]);
    put(&mut m, "WC1", 14.0, 30.0);
    m.trace_shots(4);
    play(&mut m, "Blaze WC1 180@15.0");
    let shot = stone(&m, "WC1");
    let path: Vec<(f64, f64)> = m.shot_trace().iter().map(|f| f.positions[shot]).collect();
    let svg = rulestone_draw::table::svg(&m, &path, 800);
    assert_eq!(svg, rulestone_draw::table::svg(&m, &path, 800));
    assert!(svg.starts_with("<svg"), "{svg}");
    for i in 0..m.position.stones.len() {
        let name = m.stone_name(i);
        assert!(svg.contains(&format!("data-stone=\"{name}\"")), "{name}");
    }
    // WC1 was captured at the end line: it is there, hidden, for an animation.
    assert!(svg.contains("data-stone=\"WC1\" data-index=") && svg.contains("display=\"none\""));
    assert_eq!(svg.matches("class=\"path\"").count(), 1);
    assert!(!rulestone_draw::table::svg(&m, &[], 800).contains("class=\"path\""));
}
