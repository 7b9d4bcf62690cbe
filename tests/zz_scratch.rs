#[test]
fn scratch() {
    let path = std::env::var("F").unwrap_or_else(|_| "games/pylos.game".into());
    let src = std::fs::read_to_string(&path).unwrap();
    let diags = match rulestone::syntax::parse(&src) {
        Err(e) => rulestone::diag::boxed(e),
        Ok(f) => rulestone::check::check(&f).1,
    };
    println!("{}", rulestone::diag::render(&diags, &src, &path, false));
    if std::env::var("J").is_ok() { println!("{}", rulestone::diag::render_json(&diags, &src, &path)); }
}
