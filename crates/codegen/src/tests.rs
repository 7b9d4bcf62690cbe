use super::*;

/// A small placement game on a 3 x 3 board, with a relation so that tables are emitted too.
const PLACEMENT: &str = r#"
game "Placement"
players A, B
board {
    axes x, y
    cells x in 0..2, y in 0..2
    name "{letter(x)}{y + 1}"
}
relation adjacent = (1, 0) | (-1, 0) | (0, 1) | (0, -1)
piece stone "A" "B"
turn {
    pick c in empty
    put stone at c
    write "{c}"
    if count(step(adjacent, c) & own) >= 2 {
        win mover
    }
}
on no moves {
    draw
}
"#;

/// The program of [`PLACEMENT`].
fn placement() -> Program {
    rulestone_lower::compile(PLACEMENT, &[]).expect("compile the test game")
}

fn emit_one(p: &Program) -> String {
    emit(&[Unit {
        program: p,
        label: "test \"game\"".to_string(),
    }])
}

#[test]
fn output_is_a_rust_file_behind_the_header() {
    let p = placement();
    let text = emit_one(&p);
    assert!(text.starts_with(HEADER), "the header comes first");
    let file = syn::parse_file(&text).expect("the output parses");
    assert!(file
        .items
        .iter()
        .any(|i| matches!(i, syn::Item::Static(s) if s.ident == "TURNS")));
    assert!(file
        .items
        .iter()
        .any(|i| matches!(i, syn::Item::Mod(m) if m.ident == "p0")));
    // The label is a string literal, escaped as Rust spells it.
    assert!(text.contains(r#"label: "test \"game\"","#));
}

#[test]
fn output_is_the_same_every_time() {
    let p = placement();
    assert_eq!(emit_one(&p), emit_one(&p));
}

#[test]
fn every_bundled_game_generates_a_file_that_parses() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut names: Vec<_> = std::fs::read_dir(&root)
        .expect("games/")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    // Table games (whose shots are simulated) have no program to generate code for.
    let programs: Vec<Program> = names
        .iter()
        .filter_map(|n| {
            let source = std::fs::read_to_string(n).expect("read");
            rulestone_lower::compile(&source, &[]).ok()
        })
        .collect();
    assert!(programs.len() > 10, "most bundled games are board games");
    let units: Vec<Unit<'_>> = programs
        .iter()
        .map(|p| Unit {
            program: p,
            label: p.name.clone(),
        })
        .collect();
    // `emit` panics on tokens that do not parse; the text it prints parses again.
    let text = emit(&units);
    let file = syn::parse_file(&text).expect("the printed output parses");
    let modules = file
        .items
        .iter()
        .filter(|i| matches!(i, syn::Item::Mod(_)))
        .count();
    assert_eq!(modules, units.len());
}

#[test]
fn literals_are_spelled_as_parsed_rust_spells_them() {
    assert_eq!(signed(-3).to_string(), "- 3");
    assert_eq!(signed(7).to_string(), "7");
    assert_eq!(hex_literal(0xab, 18, "").to_string(), "0x00000000000000ab");
    assert_eq!(hex_literal(0x3f, 0, "u64").to_string(), "0x3fu64");
}
