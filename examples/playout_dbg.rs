use rand::SeedableRng;
use rulestone::*;
fn main() {
    let mut args = std::env::args().skip(1);
    let p = args.next().unwrap();
    let games: u64 = args.next().unwrap().parse().unwrap();
    let sets: Vec<(String, String)> = args.map(|a| check::options::split_set(&a).unwrap()).collect();
    let src = std::fs::read_to_string(p).unwrap();
    let file = syntax::parse(&src).map_err(|e| format!("{e:?}")).unwrap();
    let env = check::options::resolve(&file, &sets).unwrap();
    let prog = ir::lower(&check::Checked { file }, &env).unwrap();
    let mut e = runtime::Engine::new(&prog);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let (mut mv, mut un) = (Vec::new(), Vec::new());
    let t = std::time::Instant::now();
    let mut plies = 0u64; let mut wins = [0u64; 3];
    for _ in 0..games {
        let r = runtime::playout::random_game(&mut e, &mut rng, 1000, &mut mv, &mut un);
        plies += u64::from(r.plies);
        match r.result { Some(runtime::GameResult::Win(p)) => wins[p as usize] += 1, _ => wins[2] += 1 }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{games} games, {:.0} playouts/s, mean plies {:.2}, {:?}", games as f64 / s, plies as f64 / games as f64, wins);
}
