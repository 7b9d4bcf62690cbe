fn main() {
    let p = std::env::args().nth(1).unwrap();
    let src = std::fs::read_to_string(p).unwrap();
    match rulestone::syntax::parse(&src) {
        Ok(f) => println!("{:#?}", f.items.len()),
        Err(e) => { for x in e { println!("{:?}", x); } }
    }
}
