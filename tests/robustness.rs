//! Bad input never panics: seeded random damage to every bundled game's text (deleted, repeated
//! or swapped pieces of text) goes through every stage — parse, check, lower, engine, a few moves
//! with their notation — and each stage must answer with diagnostics or an error, never a panic.

mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::Engine;

/// Replaces a random slice of the text by another random slice (possibly empty).
fn damage(text: &str, rng: &mut ChaCha8Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let mut out = chars.clone();
    for _ in 0..rng.gen_range(1..=3) {
        let len = out.len();
        let at = rng.gen_range(0..=len);
        let cut = rng.gen_range(0..=8.min(len - at));
        let from = rng.gen_range(0..n);
        let take = rng.gen_range(0..=12.min(n - from));
        let insert: Vec<char> = if rng.gen_bool(0.5) {
            chars[from..from + take].to_vec()
        } else {
            Vec::new()
        };
        out.splice(at..at + cut, insert);
    }
    out.into_iter().collect()
}

/// How far a text got: 0 parse error, 1 check errors, 2 option or lowering error, 3 ran.
fn run_all_stages(source: &str) -> usize {
    let Ok(file) = rulestone::parse(source) else {
        return 0;
    };
    let (checked, diags) = rulestone::check(&file);
    // Rendering every diagnostic must work too.
    let _ = rulestone::diag::render(&diags, source, "mutant.game", false);
    let _ = rulestone::diag::render_json(&diags, source, "mutant.game");
    let Some(checked) = checked else {
        return 1;
    };
    let Ok(env) = rulestone::check::options::resolve(&checked.file, &[]) else {
        return 2;
    };
    let Ok(board) = checked.board(&env) else {
        return 2;
    };
    let Ok(program) = rulestone::lower(&checked, &env, board) else {
        return 2;
    };
    let _ = rulestone::ir::dump::dump(&program);
    let mut engine = Engine::new(&program);
    let mut moves = Vec::new();
    for _ in 0..6 {
        engine.legal_moves(&mut moves);
        let Some(m) = moves.first().copied() else {
            let _ = engine.outcome();
            break;
        };
        let _ = engine.move_text(&m);
        let _ = engine.apply(&m);
    }
    3
}

#[test]
fn damaged_games_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut reached = [0usize; 4];
    for path in common::bundled_games() {
        let text = std::fs::read_to_string(&path).expect("readable game");
        for i in 0..1000 {
            let mutant = damage(&text, &mut rng);
            let outcome = std::panic::catch_unwind(|| run_all_stages(&mutant));
            match outcome {
                Ok(stage) => reached[stage] += 1,
                Err(_) => panic!(
                    "{} mutant {i} panicked; its text:\n{mutant}",
                    path.display()
                ),
            }
        }
    }
    // The damage must exercise every stage, not only the parser.
    eprintln!("stages reached (parse error, check error, lower error, ran): {reached:?}");
    assert!(
        reached[1] > 0 && reached[3] > 0,
        "stages reached: {reached:?}"
    );
}

/// Tic-tac-toe with its `pick c in empty` (or its `write "{c}"`) written `depth` levels deep in
/// one of seven ways: brackets, brackets in a template's hole, blocks, `else if` chains, prefix
/// operators, a chain of operators, or a chain of defines.
fn nested_tictactoe(how: &str, depth: usize) -> String {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    let pick = "    pick c in empty\n";
    let (pick_with, defines) = match how {
        "parentheses" => (
            format!(
                "    pick c in {}empty{}\n",
                "(".repeat(depth),
                ")".repeat(depth)
            ),
            String::new(),
        ),
        "blocks" => {
            // The whole turn inside the blocks (a pick in an `if` binds only inside it).
            let text = text
                .replace(
                    "turn {\n",
                    &format!("turn {{\n{}\n", "if 1 == 1 { ".repeat(depth)),
                )
                .replace(
                    "}\n\non no moves",
                    &format!("{}\n}}\n\non no moves", "}".repeat(depth)),
                );
            return text;
        }
        "nots" => (
            format!(
                "{pick}    require {}1 == {}\n",
                "not ".repeat(depth),
                (depth + 1) % 2
            ),
            String::new(),
        ),
        "template" => {
            let hole = format!("write \"{{{}c{}}}\"", "(".repeat(depth), ")".repeat(depth));
            return text.replace("write \"{c}\"", &hole);
        }
        "else-ifs" => {
            let chain = format!(
                "    put stone at c\n    if 1 == 2 {{ draw }}{}\n",
                " else if 1 == 2 { draw }".repeat(depth)
            );
            return text.replace("    put stone at c\n", &chain);
        }
        "operators" => (
            format!("    pick c in empty{}\n", " | empty".repeat(depth)),
            String::new(),
        ),
        _ => (
            format!("    pick c in d{depth}\n"),
            (1..=depth).fold(String::from("define d0 = empty\n"), |s, i| {
                s + &format!("define d{i} = d{}\n", i - 1)
            }),
        ),
    };
    text.replace(pick, &pick_with)
        .replace("piece stone", &format!("{defines}piece stone"))
}

const NESTINGS: [&str; 7] = [
    "parentheses",
    "template",
    "blocks",
    "else-ifs",
    "nots",
    "operators",
    "defines",
];

/// Whether the text is refused for nesting too deep (E0005), and nothing else is wrong.
fn too_deep(source: &str) -> bool {
    let diags = rulestone::diagnose(source, &[]);
    let codes: Vec<String> = diags
        .iter()
        .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
        .collect();
    assert!(
        codes.iter().all(|c| c == "E0005"),
        "unexpected diagnostics: {codes:?}"
    );
    !codes.is_empty()
}

/// Runs `f` on a thread with the stack of a program's main thread (8 MB).
fn on_main_sized_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(f)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Far too deep, in every way of nesting: a clean E0005, not a stack overflow, and quickly.
#[test]
fn very_deep_nesting_is_refused() {
    for (how, depth) in [
        ("parentheses", 10_000),
        ("template", 100_000),
        ("else-ifs", 100_000),
        ("blocks", 10_000),
        ("nots", 100_000),
        ("operators", 100_000),
        ("defines", 10_000),
    ] {
        let source = nested_tictactoe(how, depth);
        let started = std::time::Instant::now();
        let refused = on_main_sized_stack(move || too_deep(&source));
        assert!(refused, "{how} x {depth} is not refused");
        assert!(
            started.elapsed().as_secs() < 20,
            "{how} x {depth} took {:?}",
            started.elapsed()
        );
    }
}

/// The deepest nesting the limit allows, in every way: every stage (check, lower, the engine's
/// moves, notation, perft) runs on a main-thread-sized stack; one level more is E0005.
#[test]
fn deepest_allowed_nesting_runs_on_a_main_thread_stack() {
    for how in NESTINGS {
        // The deepest accepted: the limit is counted on the text, so find it from above.
        let mut depth = rulestone::syntax::MAX_DEPTH + 8;
        while too_deep(&nested_tictactoe(how, depth)) {
            depth -= 1;
        }
        assert!(
            depth + 16 >= rulestone::syntax::MAX_DEPTH,
            "{how}: only {depth} levels are allowed"
        );
        let source = nested_tictactoe(how, depth);
        let nodes = on_main_sized_stack(move || {
            let program = rulestone::compile(&source, &[]).expect("compiles");
            let _ = rulestone::ir::dump::dump(&program);
            let mut engine = Engine::new(&program);
            let mut moves = Vec::new();
            engine.legal_moves(&mut moves);
            for m in &moves {
                let _ = engine.move_text(m);
            }
            rulestone::runtime::perft::perft(&mut engine, 3)
        });
        assert_eq!(nodes, 504, "{how} x {depth}: perft 3");
    }
}

/// The owner of a cell the turn has just emptied is no player (was a panic: a per-player counter
/// indexed by "no player"). `check` warns (W0508); at run time the action for no player fails
/// the turn as a failed `require` does, in every command's path: moves, perft, playouts.
#[test]
fn owner_of_an_emptied_cell_is_no_player() {
    let path = common::root().join("tests/games/owner_emptied.game");
    let source = std::fs::read_to_string(&path).expect("readable game");
    let codes: Vec<String> = rulestone::diagnose(&source, &[])
        .iter()
        .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
        .collect();
    assert_eq!(codes, ["W0508"]);
    let program = common::program(&path, &[]);
    let mut engine = Engine::new(&program);
    let counts: Vec<u64> = (1..=4)
        .map(|d| rulestone::runtime::perft::perft(&mut engine, d))
        .collect();
    // The third ball would take one back for "no player": never legal, so the game ends there.
    assert_eq!(counts, [9, 72, 0, 0]);
    let mut moves = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..20 {
        let played = rulestone::runtime::playout::random_game(
            &mut engine,
            &mut rng,
            100,
            &mut moves,
            &mut Vec::new(),
        );
        assert_eq!(played.plies, 2);
        assert_eq!(played.result, Some(rulestone::runtime::GameResult::Win(1)));
    }

    // The same mistake in Pylos, as the issue found it: a take-back of any free ball that
    // returns it to its owner's stock after removing it. It checks with the warning and runs.
    let pylos = std::fs::read_to_string(common::root().join("games/pylos.game"))
        .expect("readable game")
        .replace(
            "pick back in free",
            "pick back in occupied & none(above, occupied)",
        )
        .replace("stock[mover] += 1", "stock[owner(back)] += 1");
    let codes: Vec<String> = rulestone::diagnose(&pylos, &[])
        .iter()
        .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
        .collect();
    assert_eq!(codes, ["W0508"]);
    let program = rulestone::compile(&pylos, &[]).expect("compiles");
    let mut engine = Engine::new(&program);
    assert!(rulestone::runtime::perft::perft(&mut engine, 3) > 0);
    for _ in 0..20 {
        let played = rulestone::runtime::playout::random_game(
            &mut engine,
            &mut rng,
            400,
            &mut moves,
            &mut Vec::new(),
        );
        assert!(played.result.is_some());
    }
}

/// Expressions are numbered with 16 bits: a turn of 40,000 `require count(empty) >= 0` needs
/// 80,000 integer expressions, and is refused (E1005) instead of silently reading other
/// expressions (it used to end the game after the first move). 30,000 fit and play as
/// Tic-tac-toe. (A test the options decide, such as `1 == 1`, folds to one constant.)
#[test]
fn too_many_expressions_are_refused() {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    let flat = |n: usize| {
        text.replace(
            "    put stone at c\n",
            &format!(
                "    put stone at c\n{}",
                "    require count(empty) >= 0\n".repeat(n)
            ),
        )
    };
    let codes: Vec<String> = rulestone::diagnose(&flat(40_000), &[])
        .iter()
        .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
        .collect();
    assert_eq!(codes, ["E1005"]);
    let program = rulestone::compile(&flat(30_000), &[]).expect("compiles");
    let mut engine = Engine::new(&program);
    assert_eq!(rulestone::runtime::perft::perft(&mut engine, 2), 72);
}

/// Tic-tac-toe with a `while` after its placement, in place of `put stone at c`.
fn tictactoe_with_loop(looped: &str) -> String {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    text.replace(
        "    put stone at c\n",
        &format!("    put stone at c\n{looped}\n"),
    )
}

/// A `while` that provably never ends (a condition always true, or a body that changes nothing
/// the condition reads) is refused by `check` (E1006); one that ends is not.
#[test]
fn endless_while_is_refused() {
    let codes = |looped: &str| -> Vec<String> {
        rulestone::diagnose(&tictactoe_with_loop(looped), &[])
            .iter()
            .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
            .collect()
    };
    assert_eq!(codes("    while 1 == 1 { require 1 == 1 }"), ["E1006"]);
    assert_eq!(codes("    while not (1 == 2) { write \"x\" }"), ["E1006"]);
    assert_eq!(
        codes("    while count(empty) > 0 { require 1 == 1 }"),
        ["E1006"]
    );
    assert!(codes("    while 1 == 1 { win mover }").is_empty());
    assert!(codes("    while count(empty & c) > 0 { remove c }").is_empty());
}

/// A `while` that runs away at run time (its body changes something, just not what its
/// condition reads) stops at its round limit in bounded time: the moves through it are
/// dropped and the engine says so.
#[test]
fn runaway_while_stops_at_its_limit() {
    let source = tictactoe_with_loop("    while count(empty) > 1 { put stone at c }");
    let program = rulestone::compile(&source, &[]).expect("compiles");
    let mut engine = Engine::new(&program);
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    assert!(moves.is_empty(), "every move runs into the loop's limit");
    assert!(engine.runaway);
}

/// The turn programs that explore too many paths for one position: `check` passes them (it
/// cannot count paths in general), and generating their first position runs out of steps.
const WIDE_LOOPS: [&str; 3] = [
    "tests/ui/runtime/E1008-wide-while.game",
    "tests/ui/runtime/E1008-wide-repeat.game",
    "tests/ui/runtime/E1008-nested-rounds.game",
];

/// The runaway fixtures' generated code (with the corpus of generated loop programs that
/// `tests/loops.rs` runs), for the compiled backend's side of the step limit.
#[rustfmt::skip]
#[path = "compiled/runaway.rs"]
mod runaway;

/// Where the runaway fixtures' code is generated, and the command that regenerates it.
const RUNAWAY_GENERATED: &str = "tests/compiled/runaway.rs";
const RUNAWAY_REGENERATE: &str =
    "cargo run --release -- compile tests/loops/*.game tests/ui/runtime/E1008-*.game --module tests/compiled/runaway.rs";

/// Every program of the generated module: the loop corpus, then the runaway fixtures.
fn runaway_units() -> Vec<(String, rulestone::ir::Program)> {
    // In the order the regenerating command's globs list them.
    let mut paths: Vec<_> = WIDE_LOOPS.iter().map(|p| common::root().join(p)).collect();
    common::files(&common::root().join("tests/loops"), "game", &mut paths);
    paths.sort();
    common::variants(&paths)
}

/// The runaway fixtures' programs alone.
fn wide_loop_units() -> Vec<(String, rulestone::ir::Program)> {
    let mut paths: Vec<_> = WIDE_LOOPS.iter().map(|p| common::root().join(p)).collect();
    paths.sort();
    common::variants(&paths)
}

#[test]
fn runaway_generated_code_is_current() {
    common::assert_generated_current(RUNAWAY_GENERATED, &runaway_units(), RUNAWAY_REGENERATE);
}

/// Compiled code counts the same steps: loop rounds that choose nothing as well as choices,
/// so each runaway fixture exhausts the compiled engine too. A round is a call there, so a
/// path's rounds are bounded as well ([`rulestone::ir::MAX_PATH_ROUNDS`]), which the nested
/// `while`s meet first. On a thread with the command line's stack, since unoptimised code
/// takes more per call.
#[test]
fn wide_loops_stop_compiled_code_at_the_step_limit() {
    use rulestone::runtime::{BackendKind, Compiled};
    const COMPILED: Compiled = Compiled::new(&runaway::TURNS);
    let units = wide_loop_units();
    assert_eq!(units.len(), WIDE_LOOPS.len());
    let run = move || {
        for (label, program) in &units {
            let mut engine = Engine::with_backend(program, COMPILED.backend_for(program));
            assert_eq!(engine.backend(), BackendKind::Compiled, "{label}");
            engine.set_step_limit(200_000);
            let mut moves = Vec::new();
            engine.legal_moves(&mut moves);
            assert!(moves.is_empty() && engine.exhausted, "{label}");
            let mut slow = Engine::new(program);
            slow.set_step_limit(200_000);
            slow.legal_moves(&mut moves);
            assert!(moves.is_empty() && slow.exhausted, "{label}");
        }
    };
    let worker = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(run)
        .expect("a thread");
    worker.join().expect("the compiled runs end");
}

/// A generation past the engine's step limit stops, lists nothing and exhausts the engine;
/// from then on lists are empty at once, so counts, random games and searches end.
#[test]
fn wide_loops_stop_at_the_step_limit() {
    use rand::SeedableRng as _;
    use rulestone::runtime::game::steps_exceeded;
    use rulestone::runtime::playout::random_game;
    use rulestone::runtime::{BoardGame, Game};
    for path in WIDE_LOOPS {
        let source = std::fs::read_to_string(common::root().join(path)).expect("readable");
        assert!(
            !rulestone::diag::has_errors(&rulestone::diagnose(&source, &[])),
            "{path}: `check` passes it"
        );
        let program = rulestone::compile(&source, &[]).expect("compiles");
        let mut engine = Engine::new(&program);
        assert_eq!(engine.step_limit(), rulestone::ir::MAX_STEPS);
        // A lower limit finds the runaway sooner; the default one is run by the command-line
        // test below.
        engine.set_step_limit(200_000);
        let mut moves = Vec::new();
        engine.legal_moves(&mut moves);
        assert!(moves.is_empty() && engine.exhausted, "{path}");
        let error = steps_exceeded(&engine).expect("the engine says why");
        assert_eq!(error.limit, 200_000);
        assert_eq!(rulestone::runtime::perft::perft(&mut engine, 3), 0);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let (mut moves, mut undos) = (Vec::new(), Vec::new());
        let p = random_game(&mut engine, &mut rng, 100, &mut moves, &mut undos);
        assert_eq!(p.plies, 0, "{path}");
        let mut game = BoardGame::new(engine);
        assert!(game.out_of_steps(), "{path}");
    }
}

/// `play`'s `why` walks the turn again, going on past failed `require`s: that walk is bounded
/// by the same step limit, so it ends on a runaway turn too (this test would hang otherwise).
#[test]
fn refusals_stop_at_the_step_limit() {
    for path in WIDE_LOOPS {
        let source = std::fs::read_to_string(common::root().join(path)).expect("readable");
        let program = rulestone::compile(&source, &[]).expect("compiles");
        let mut engine = Engine::new(&program);
        engine.set_step_limit(200_000);
        assert!(engine.refusals().len() <= rulestone::runtime::MAX_REFUSALS);
    }
}

/// On the command line, at the default limit: every command that lists moves ends with
/// E1008 and exit status 2 in bounded time, and prints no figures (`bench` its heading).
#[test]
fn wide_loops_end_commands_with_e1008() {
    let [wide_while, wide_repeat, nested_rounds] = WIDE_LOOPS;
    let commands: [(&[&str], &str); 12] = [
        (&["moves"], wide_while),
        (&["moves", "--format", "json"], wide_while),
        (&["perft", "--depth", "3"], wide_while),
        (&["playout", "--games", "5"], wide_while),
        (
            &["arena", "--agents", "mcts,alphabeta", "--games", "2"],
            wide_while,
        ),
        (&["solve"], wide_while),
        (&["moves"], wide_repeat),
        (&["play"], wide_repeat),
        (&["bench", "--seconds", "1"], wide_repeat),
        (&["info"], wide_repeat),
        (&["moves"], nested_rounds),
        (&["playout", "--games", "1"], nested_rounds),
    ];
    // Each run meets the limit once (ten million steps); they run side by side.
    let runs: Vec<(String, std::process::Child)> = commands
        .iter()
        .map(|(args, path)| {
            let mut c = common::cli::cmd(&args[..1]);
            c.arg(path).args(&args[1..]);
            let child = c
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("spawn rulestone");
            (format!("{} {path}", args.join(" ")), child)
        })
        .collect();
    for (what, child) in runs {
        let o = child.wait_with_output().expect("wait for rulestone");
        assert_eq!(common::cli::code(&o), 2, "{what}");
        let out = common::cli::stdout(&o);
        assert!(
            out.lines().count() <= 1,
            "{what}: no figures, only a heading: {out}"
        );
        let err = common::cli::stderr(&o);
        assert!(err.contains("error[E1008]"), "{what}: {err}");
    }
}

/// A typed move list or a record of absurd length is refused at once, before any move is
/// played, with a message that says the limit.
#[test]
fn absurdly_long_move_lists_are_refused() {
    let path = common::root().join("games/tictactoe.game");
    let program = common::program(&path, &[]);
    let list = "a1; ".repeat(100_001);
    let mut engine = Engine::new(&program);
    let error = rulestone::cli::inputs::play_typed(&mut engine, &list).expect_err("refused");
    assert!(
        error.starts_with(
            "error: 100,001 moves are too many: a list of moves holds at most 100,000"
        ),
        "{error}"
    );
    assert_eq!(engine.state.ply, 0, "nothing was played");
    let record = format!(
        "rulestone-record 1\ngame games/tictactoe.game\n{}",
        "move a1\n".repeat(100_001)
    );
    let error = rulestone::cli::inputs::replay_record(&mut engine, &record).expect_err("refused");
    assert!(error.contains("moves are too many"), "{error}");
}

/// `replay` of a record of absurd length stops before drawing a board, with exit status 2.
#[test]
fn replay_refuses_an_absurdly_long_record() {
    let dir = common::cli::scratch("robustness", "long-record");
    let path = dir.join("long.record");
    let record = format!(
        "rulestone-record 1\ngame games/tictactoe.game\n{}",
        "move a1\n".repeat(100_001)
    );
    std::fs::write(&path, record).expect("write the record");
    let o = common::cli::run(&["replay", &path.to_string_lossy()]);
    assert_eq!(common::cli::code(&o), 2);
    assert!(common::cli::stdout(&o).is_empty());
    assert!(
        common::cli::stderr(&o).contains("100,001 moves are too many"),
        "{}",
        common::cli::stderr(&o)
    );
}

/// A long chain of minus signs is typed in time linear in its length (each `-` used to type
/// its operand twice: 2^60 steps here). Found by the `parse_check` fuzz target.
#[test]
fn minus_chain_checks_in_linear_time() {
    let source = tictactoe_with_loop(&format!("    require 1 == {}1", "- ".repeat(60)));
    let diags = rulestone::diagnose(&source, &[]);
    assert!(!rulestone::diag::has_errors(&diags), "it checks clean");
}

/// Defines whose arguments are used twice, each calling the one before: forty of them would
/// expand to 2^40 parts. The expansion is refused (E0007) before it is built, in a move and in
/// a zone (both used to exhaust memory and abort).
#[test]
fn doubling_define_arguments_are_refused_before_memory_grows() {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    let mut defines = String::from("define d0(a, b) = a | b\n");
    for i in 1..40 {
        defines.push_str(&format!("define d{i}(a, b) = d{}(a | b, b | a)\n", i - 1));
    }
    let in_move = text
        .replace("pattern row", &format!("{defines}pattern row"))
        .replace("pick c in empty", "pick c in d39(empty, empty)");
    let in_zone = text.replace(
        "pattern row",
        &format!("{defines}zone zz = d39(cells, cells)\npattern row"),
    );
    for source in [in_move, in_zone] {
        let codes: Vec<String> = rulestone::diagnose(&source, &[])
            .iter()
            .filter_map(|d| rulestone::diag::code_of(d.as_ref()))
            .collect();
        assert_eq!(codes, ["E0007"]);
    }
}

/// Relations and zones each naming the one before twice, thirty deep: each is resolved once
/// (a relation's vectors kept once each, a zone's cells computed once), so these check at
/// once; each doubling used to double the time.
#[test]
fn chains_of_doubled_relations_and_zones_check_in_linear_time() {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    let chain = |first: &str, line: &dyn Fn(usize) -> String| {
        let mut decls = format!("{first}\n");
        for i in 1..30 {
            decls.push_str(&line(i));
        }
        text.replace("pattern row", &format!("{decls}pattern row"))
    };
    let sources = [
        chain("relation r0 = (1, 0)", &|i| {
            format!("relation r{i} = r{} | r{}\n", i - 1, i - 1)
        }),
        chain("relation r0 = (1, 0) for X | (0, 1) for O", &|i| {
            format!("relation r{i} = r{} for X | r{} for O\n", i - 1, i - 1)
        }),
        chain("zone z0 = cells", &|i| {
            format!("zone z{i} = z{} | z{}\n", i - 1, i - 1)
        }),
    ];
    for source in sources {
        let diags = rulestone::diagnose(&source, &[]);
        assert!(!rulestone::diag::has_errors(&diags), "it checks clean");
        let program = rulestone::compile(&source, &[]).expect("compiles");
        let mut engine = Engine::new(&program);
        assert_eq!(rulestone::runtime::perft::perft(&mut engine, 1), 9);
    }
}

/// Twenty thousand range options nothing reads are not each tried at their ends: `check`
/// lowers the game once for them (it lowered it once per option, up to 256 times, each time
/// over every option: 64,000 options took half a minute). An option the rules read is still
/// tried at both ends. The bound is the count of programs lowered, not a clock.
#[test]
fn unused_options_are_not_each_tried() {
    let text = std::fs::read_to_string(common::root().join("games/tictactoe.game"))
        .expect("readable game");
    let options: String = (0..20_000)
        .map(|i| format!("option o{i}: 0..1 = 0\n"))
        .collect();
    let count = |source: &str| {
        let mut lowered = 0;
        let diags = rulestone::lower::diagnose_each(source, &[], &mut |_, _, _| lowered += 1);
        assert!(!rulestone::diag::has_errors(&diags), "it checks clean");
        lowered
    };
    assert_eq!(count(&format!("{options}{text}")), 1);
    let read = text.replace("pick c in empty", "pick c in empty\n    require o7 == 0");
    assert_eq!(count(&format!("{options}{read}")), 2);
}

/// A text that is the notation of two legal moves is refused wherever it is read, with E1010's
/// message, rather than standing for one of them: a typed list here, so a record could never
/// replay as a different game.
#[test]
fn a_notation_naming_two_moves_is_refused() {
    let path = "tests/ui/runtime/E1010-same-notation.game";
    let mut c = common::cli::cmd(&["moves"]);
    c.arg(path).args(["--after", "b2"]);
    let o = c.output().expect("run rulestone");
    assert_eq!(common::cli::code(&o), 2);
    let err = common::cli::stderr(&o);
    assert!(
        err.contains("`b2` is the notation of 2 legal moves here") && err.contains("E1010"),
        "{err}"
    );
    let source = std::fs::read_to_string(common::root().join(path)).expect("readable");
    let program = rulestone::compile(&source, &[]).expect("compiles");
    let mut engine = Engine::new(&program);
    let legal = rulestone::session::notation::legal_with_text(&mut engine);
    let same = rulestone::session::notation::same_notation(&legal).expect("two moves alike");
    assert_eq!((same.text.as_str(), same.count), ("b2", 2));
}

/// One hostile input: what it is, its text, its option settings and the code it must give
/// (none: it checks clean).
type HostileCase = (
    &'static str,
    String,
    Vec<(String, String)>,
    Option<&'static str>,
);

/// Hostile inputs of the kinds a review tried, gathered in one place: each ends with coded
/// diagnostics (the expected code among them) or checks clean, and none runs on. The bound is
/// the work each does, not a clock: the test finishing is the assertion.
#[test]
fn hostile_inputs_end_with_coded_diagnostics() {
    let tictactoe =
        std::fs::read_to_string(common::root().join("games/tictactoe.game")).expect("readable");
    let connect4 =
        std::fs::read_to_string(common::root().join("games/connect4.game")).expect("readable");
    let million_comments = "// a comment line\n".repeat(1_000_000);
    let nested_repeats = tictactoe_with_loop(
        "    repeat 255..255 {\n        repeat 255..255 {\n            repeat 255..255 {\n                \
         repeat 255..255 {\n                    require 1 == 1\n                }\n            }\n        }\n    }",
    );
    let huge_board = tictactoe.replace(
        "cells x in 0..2, y in 0..2",
        "cells x in 0..2147483646, y in 0..2147483646",
    );
    let huge_number = tictactoe.replace("cells x in 0..2", "cells x in 0..99999999999999999999");
    let bom_and_cr = format!("\u{FEFF}{}", tictactoe.replace('\n', "\r"));
    let set = |name: &str, value: &str| vec![(name.to_string(), value.to_string())];
    let cases: Vec<HostileCase> = vec![
        (
            "a million comment lines, then a game",
            format!("{million_comments}{tictactoe}"),
            vec![],
            None,
        ),
        (
            "a million comment lines alone",
            million_comments.clone(),
            vec![],
            Some("E0501"),
        ),
        (
            "four nested repeats of 255 rounds",
            nested_repeats,
            vec![],
            Some("E1009"),
        ),
        ("a board of 2^62 cells", huge_board, vec![], Some("E0403")),
        ("a number past 64 bits", huge_number, vec![], Some("E0002")),
        (
            "a byte-order mark and CR-only lines",
            bom_and_cr,
            vec![],
            None,
        ),
        (
            "an option value past 64 bits",
            connect4.clone(),
            set("width", "99999999999999999999"),
            Some("E0304"),
        ),
        (
            "a negative option value",
            connect4.clone(),
            set("width", "-4"),
            Some("E0304"),
        ),
        (
            "an option value that is no number",
            connect4,
            set("width", "1e400"),
            Some("E0304"),
        ),
    ];
    for (what, source, sets, expected) in cases {
        let diags = rulestone::diagnose(&source, &sets);
        let codes: Vec<String> = diags
            .iter()
            .map(|d| rulestone::diag::code_of(d.as_ref()).unwrap_or_else(|| d.to_string()))
            .collect();
        assert!(
            codes.iter().all(|c| c.len() == 5 && c != "E0999"),
            "{what}: every diagnostic has a code, none internal: {codes:?}"
        );
        match expected {
            None => assert!(!rulestone::diag::has_errors(&diags), "{what}: {codes:?}"),
            Some(code) => assert!(codes.iter().any(|c| c == code), "{what}: {codes:?}"),
        }
    }
}
