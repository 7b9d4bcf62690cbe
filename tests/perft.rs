//! perft tables: every `games/*.perft` and `tests/games/*.perft` line is asserted. Lines above
//! the node limit run only in the ignored test (`cargo test --release -- --ignored`) and the
//! bench, so the default suite stays fast.

mod common;

use rulestone::runtime::perft::{perft, perft_with_rolls};
use rulestone::runtime::Engine;

/// The largest count the default test suite computes for one line.
const NODE_LIMIT: u64 = 6_000_000;

fn run(limit: Option<u64>) {
    let mut checked = 0;
    for dir in ["games", "tests/games"] {
        for (game, table) in common::perft_files(&common::root().join(dir)) {
            for case in common::perft_cases(&table) {
                if limit.is_some_and(|l| case.nodes > l) {
                    continue;
                }
                let program = common::program(&game, &case.options);
                let mut engine = Engine::new(&program);
                common::play_moves(&mut engine, &case.after);
                let got = if program.has_chance() {
                    perft_with_rolls(&mut engine, case.depth, &case.rolls)
                        .unwrap_or_else(|e| panic!("{}:{}: {e}", table.display(), case.line))
                } else {
                    perft(&mut engine, case.depth)
                };
                assert_eq!(
                    got,
                    case.nodes,
                    "{}:{}: perft {} {:?}",
                    table.display(),
                    case.line,
                    case.depth,
                    case.options
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no perft lines found");
}

#[test]
fn perft_tables_under_node_limit() {
    run(Some(NODE_LIMIT));
}

#[test]
#[ignore = "minutes of work: run with --release -- --ignored, or see the bench"]
fn perft_tables_all() {
    run(None);
}
