//! The load test, bounded: 50 clients on 127.0.0.1 play random legal moves of two bundled
//! games for a few seconds each, and not one request fails. The README's latency figures come
//! from the same code run longer (`cargo run --profile test -p rulestone-server --example
//! load -- 50 30 pylos`); no time is asserted here.

#[allow(dead_code)]
#[path = "../examples/load.rs"]
mod load;

#[test]
fn fifty_clients_play_with_no_error() {
    for game in ["tictactoe", "pylos"] {
        let (times, errors) = load::run(50, 4, game).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            errors.is_empty(),
            "{game}: {} errors, first {:?}",
            errors.len(),
            errors.first()
        );
        assert!(times.len() >= 50, "{game}: only {} requests", times.len());
    }
}
