//! Every bundled game, stage by stage: its AST and IR dumps are snapshotted in
//! `snapshots/games/`, so a change to the parser or the lowering shows up as a reviewable diff.

mod common;

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/games",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_bundled_game_has_stage_snapshots() {
    let games = common::bundled_games();
    for path in games {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("file name");
        let source = std::fs::read_to_string(&path).expect("readable game");
        let ast = rulestone::parse(&source).expect("bundled games parse");
        snapshot(&format!("{stem}.ast"), &format!("{ast:#?}"));
        let program = common::program(&path, &[]);
        snapshot(&format!("{stem}.ir"), &rulestone::ir::dump::dump(&program));
    }
}
