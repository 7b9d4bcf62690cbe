use super::*;
use quote::ToTokens;

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

/// The functions of the program's module `p0`.
fn module_fns(file: &syn::File) -> Vec<&syn::ItemFn> {
    let Some(syn::Item::Mod(module)) = file
        .items
        .iter()
        .find(|i| matches!(i, syn::Item::Mod(m) if m.ident == "p0"))
    else {
        panic!("no module p0")
    };
    let items = module.content.as_ref().map_or(&[][..], |(_, items)| items);
    items
        .iter()
        .filter_map(|i| match i {
            syn::Item::Fn(f) => Some(f),
            _ => None,
        })
        .collect()
}

#[test]
fn only_replay_is_compiled_once_per_host() {
    let p = placement();
    let text = emit_one(&p);
    let file = syn::parse_file(&text).expect("the output parses");
    // The engine lists moves with the walk on its position value.
    assert!(text.contains("generate: fast_generate::<p0::Turn>"));
    let fns = module_fns(&file);
    assert!(fns.iter().any(|f| f.sig.ident == "walk"));
    for f in fns {
        let name = f.sig.ident.to_string();
        let over_host = f
            .sig
            .generics
            .params
            .iter()
            .any(|g| matches!(g, syn::GenericParam::Type(_)));
        let replays = name == "replay" || (name.starts_with("ap") && name != "apply");
        assert_eq!(over_host, replays, "{name}");
    }
}

#[test]
fn an_expression_only_replay_calls_is_inlined_always() {
    let p = placement();
    let file = syn::parse_file(&emit_one(&p)).expect("the output parses");
    let fns = module_fns(&file);
    let inline_always = |f: &syn::ItemFn| {
        f.attrs
            .iter()
            .any(|a| a.meta.to_token_stream().to_string() == "inline (always)")
    };
    // The test of the win (`count(step(adjacent, c) & own) >= 2`) is made by replay alone.
    let replay_text: String = fns
        .iter()
        .filter(|f| f.sig.ident.to_string().starts_with("ap"))
        .map(|f| f.block.to_token_stream().to_string())
        .collect();
    let called: Vec<&&syn::ItemFn> = fns
        .iter()
        .filter(|f| f.sig.ident.to_string().starts_with('b'))
        .filter(|f| replay_text.contains(&format!("{} (", f.sig.ident)))
        .collect();
    assert!(!called.is_empty(), "replay tests a condition");
    assert!(called.iter().all(|f| inline_always(f)));
}
