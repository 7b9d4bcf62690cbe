//! Messages we know are poor, kept visible: each test pins today's output and says what a better
//! message would be. When one improves, its test fails: update the expectation, or delete the
//! test if the message is now good.

use rulestone::diag::Diag;

fn codes(source: &str) -> Vec<String> {
    let diags: Vec<Diag> = match rulestone::parse(source) {
        Err(errors) => errors.into_iter().map(|e| Box::new(e) as Diag).collect(),
        Ok(file) => rulestone::check(&file).1,
    };
    diags
        .iter()
        .filter_map(|d| d.code().map(|c| c.to_string()))
        .collect()
}

/// A zone that names a cell whose name is also a counter's: one mistake, two errors.
/// Better: one E0102-style error saying the counter `c` hides the cell `c`, with a note at the
/// counter's declaration.
#[test]
fn zone_naming_a_shadowed_cell_reports_twice() {
    let source = r#"
game "T"
players A, B
board { axes x  cells x in 0..2  name "{letter(x)}" }
counter c per player = 0
zone z = {a, c}
piece s
turn { pick t in empty - z  put s at t  write "{t}" }
on no moves { draw }
"#;
    assert_eq!(codes(source), ["E0404", "E0201"]);
}

/// A stray closing brace in the middle of a turn ends the turn early, so the error lands on the
/// next statement ("expected a declaration, found `put`"), not on the brace. Better: point at the
/// `}` that probably closed the block too early, with a note at the block's opening brace.
#[test]
fn stray_closing_brace_is_reported_late() {
    let source = r#"
game "T"
players A, B
board { axes x  cells x in 0..2  name "{letter(x)}" }
piece s
turn {
    pick t in empty
    }
    put s at t
    write "{t}"
}
on no moves { draw }
"#;
    assert_eq!(codes(source), ["E0001"]);
}
