//! A bounded load run against a server on 127.0.0.1 in this process: `CLIENTS` clients each
//! play random legal moves of the bundled game `GAME` (its file name without `.game`) for
//! `SECONDS` seconds, starting a new game when one ends; it prints the requests, errors and
//! the latency percentiles.
//!
//! `cargo run --release -p rulestone-server --example load -- CLIENTS SECONDS GAME`

use std::time::{Duration, Instant};

use rand::{Rng as _, SeedableRng as _};
use rulestone_server::{Config, Server};
use serde_json::{json, Value};

fn post(url: &str, body: &Value) -> Result<Value, String> {
    match ureq::post(url).send_json(body) {
        Ok(r) => r.into_json().map_err(|e| e.to_string()),
        Err(ureq::Error::Status(code, r)) => {
            Err(format!("{code}: {}", r.into_string().unwrap_or_default()))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// One client's run: its latencies and errors.
fn client(base: &str, game: &str, seed: u64, until: Instant) -> (Vec<Duration>, Vec<String>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let (mut times, mut errors) = (Vec::new(), Vec::new());
    let mut timed = |path: &str, body: Value| {
        let started = Instant::now();
        let answer = post(&format!("{base}api/{path}"), &body);
        times.push(started.elapsed());
        answer
    };
    let mut state = Value::Null;
    while Instant::now() < until {
        let over =
            state["result"].is_string() || state["legal"].as_array().is_none_or(Vec::is_empty);
        let answer = if over {
            timed("new", json!({"game": format!("bundled/{game}.game")}))
        } else {
            let legal = state["legal"].as_array().map_or(&[][..], Vec::as_slice);
            let pick = &legal[rng.gen_range(0..legal.len())]["text"];
            timed("play", json!({"session": state["session"], "move": pick}))
        };
        match answer {
            Ok(s) => state = s,
            Err(e) => {
                errors.push(e);
                state = Value::Null;
            }
        }
    }
    (times, errors)
}

/// A server started on 127.0.0.1 and `clients` clients run against it for `seconds`: every
/// request's latency and every error. (The load test of `tests/load.rs` runs this too.)
pub fn run(
    clients: usize,
    seconds: u64,
    game: &str,
) -> Result<(Vec<Duration>, Vec<String>), String> {
    let server = Server::start(&Config {
        port: 0,
        ..Config::default()
    })
    .map_err(|e| e.to_string())?;
    let base = server.url();
    let until = Instant::now() + Duration::from_secs(seconds);
    let runs: Vec<_> = (0..clients)
        .map(|i| {
            let (base, game) = (base.clone(), game.to_string());
            std::thread::spawn(move || client(&base, &game, i as u64, until))
        })
        .collect();
    let (mut times, mut errors) = (Vec::new(), Vec::new());
    for run in runs {
        match run.join() {
            Ok((t, e)) => {
                times.extend(t);
                errors.extend(e);
            }
            Err(_) => errors.push("a client thread panicked".to_string()),
        }
    }
    times.sort();
    Ok((times, errors))
}

#[allow(dead_code)] // a test includes this file for `run`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(clients), Some(seconds), Some(game)) = (
        args.first().and_then(|a| a.parse::<usize>().ok()),
        args.get(1).and_then(|a| a.parse::<u64>().ok()),
        args.get(2).cloned(),
    ) else {
        eprintln!("usage: load CLIENTS SECONDS GAME (a bundled game's file name without .game)");
        std::process::exit(2);
    };
    let (times, errors) = match run(clients, seconds, &game) {
        Ok(run) => run,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let at = |q: f64| {
        times
            .get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{clients} clients, {seconds} s, {game}: {} requests ({:.0}/s), {} errors, p50 {:.1} ms, p99 {:.1} ms",
        times.len(),
        times.len() as f64 / seconds as f64,
        errors.len(),
        at(0.5),
        at(0.99)
    );
    for e in errors.iter().take(5) {
        println!("error: {e}");
    }
}
