use rulestone::*;
fn main() {
    let mut args = std::env::args().skip(1);
    let p = args.next().unwrap();
    let depth: u32 = args.next().unwrap().parse().unwrap();
    let sets: Vec<(String, String)> = args.map(|a| check::options::split_set(&a).unwrap()).collect();
    let src = std::fs::read_to_string(p).unwrap();
    let file = syntax::parse(&src).map_err(|e| format!("{e:?}")).unwrap();
    let env = check::options::resolve(&file, &sets).unwrap();
    let checked = check::Checked { file };
    let prog = ir::lower(&checked, &env).unwrap();
    let mut e = runtime::Engine::new(&prog);
    let mut mv = Vec::new();
    e.legal_moves(&mut mv);
    let names: Vec<String> = mv.iter().map(|m| e.move_text(m)).collect();
    println!("{}", names.join(" "));
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = runtime::perft::perft(&mut e, d);
        println!("perft {d} = {n}  ({:.2?}, {:.1} Mn/s)", t.elapsed(), n as f64 / t.elapsed().as_secs_f64() / 1e6);
    }
}
