//! The checked model every later stage reads (`check::model`), on every bundled game and test
//! game: each recorded use of a name is that name in the source and refers to a declaration of
//! it; declared names are found by name; the types of a game's expressions are all known.

use rulestone::check::model::Ty;

mod common;

#[test]
fn uses_resolve_to_declarations_of_the_same_name() {
    let mut paths = Vec::new();
    common::files(&common::root().join("games"), "game", &mut paths);
    common::files(&common::root().join("tests/games"), "game", &mut paths);
    for path in paths {
        let source = std::fs::read_to_string(&path).expect("readable");
        let file = rulestone::parse(&source).expect("bundled games parse");
        let (checked, _) = rulestone::check(&file);
        let checked = checked.expect("bundled games check");
        let names = &checked.names;
        let mut uses = 0;
        for (id, decl) in names.decls.iter().enumerate() {
            assert_eq!(names.lookup(&decl.name), Some(id), "{}", path.display());
            let at = decl.span.start as usize..decl.span.end as usize;
            assert_eq!(&source[at], decl.name, "{}", path.display());
            for span in names.uses_of(id) {
                let text = &source[span.start as usize..span.end as usize];
                assert_eq!(
                    text,
                    decl.name,
                    "{}: a use of `{}`",
                    path.display(),
                    decl.name
                );
                assert_eq!(names.used_at(span), Some(id));
                uses += 1;
            }
        }
        if checked.table.is_none() {
            assert!(uses > 0, "{}: no use recorded", path.display());
        }
    }
}

#[test]
fn turn_expressions_have_types() {
    let source =
        std::fs::read_to_string(common::root().join("games/tictactoe.game")).expect("readable");
    let file = rulestone::parse(&source).expect("parses");
    let checked = rulestone::check(&file).0.expect("checks");
    let mut typed = 0;
    for item in &file.items {
        if let rulestone::syntax::ast::ItemKind::Turn(block) = &item.kind {
            for stmt in &block.stmts {
                if let rulestone::syntax::ast::StmtKind::Pick { from, .. } = &stmt.kind {
                    assert_eq!(checked.types.of(from), Some(Ty::Cells));
                    typed += 1;
                }
            }
        }
    }
    assert!(typed > 0, "no pick in tic-tac-toe's turn");
}
