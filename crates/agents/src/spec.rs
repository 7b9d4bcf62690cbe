//! Agent specs: the text that names an agent and its settings, read the same way by every
//! command (`--vs`, `--agents`, `--agent`).
//!
//! A spec is a name and `:key=value` settings: `random`, `mcts`, `mcts:iterations=2000`,
//! `mcts:time=1.5s:c=1.4`, `mcts:cpu=1s`, `mcts:cpu=1s:threads=2`, `alphabeta:depth=4`,
//! `alphabeta:time=500ms`. A list of specs is separated by commas.

use std::fmt;
use std::time::Duration;

use super::alphabeta::{AlphaBeta, AlphaBetaConfig};
use super::mcts::{Mcts, MctsConfig, MAX_THREADS};
use super::random::Random;
use super::Agent;
use rulestone_runtime::Game;

/// An agent and its settings.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    Random,
    Mcts(MctsConfig),
    AlphaBeta(AlphaBetaConfig),
}

/// A spec that names no agent or has a bad setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub message: String,
    /// What to write instead.
    pub help: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n  help: {}", self.message, self.help)
    }
}

impl std::error::Error for SpecError {}

/// Every agent, with its settings and what they mean: the long help of every option that
/// takes a spec.
pub const AGENTS_HELP: &str = "\
An agent is a name, then settings, each as `:key=value`:
  random              a uniformly random legal decision
  mcts                Monte Carlo tree search (UCT) with random playouts
    iterations=N        playouts per decision (default 1000)
    time=T              think for T of wall-clock time (`1.5s`, `500ms`); the first
                        limit wins
    cpu=T               think for T of CPU time: the same work on a busy machine
    c=X                 exploration constant (default 0.5; results count 0 to 1)
    fpu=X               first-play urgency: the value of an untried decision (default
                        inf: every decision is tried once before any twice)
    rave=K              RAVE: all-moves-as-first values weigh sqrt(K/(3n+K)) after n
                        visits (default 0: off)
    steps=N             longest playout in decisions (default 200, at most 100000; a
                        longer one is cut there and the position it reached is evaluated)
    threads=N           search on N threads at once, each its own tree, their counts
                        added up at the root (default 1, at most 64): iterations=N is
                        shared out among them, time=T and cpu=T hold for each thread
  alphabeta           iterative-deepening negamax with a transposition table
    depth=N             search depth in decisions (default 4)
    time=T              think for T, deepening until time is up
    cpu=T               the same in CPU time
    memory=MB           transposition table size in MiB (default 16, at most 4096)
e.g. `mcts:iterations=2000`, `alphabeta:depth=3`, `mcts:time=2s:c=1.0`, `mcts:cpu=500ms`,
`mcts:time=1s:threads=2`";

const NAMES: [&str; 3] = ["random", "mcts", "alphabeta"];

impl AgentSpec {
    /// Reads one spec.
    ///
    /// # Errors
    /// An unknown agent or setting, or a value that is no number or time, with what to write.
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let settings: Vec<(&str, &str)> = parts
            .map(|p| {
                p.split_once('=').ok_or_else(|| SpecError {
                    message: format!("`{p}` in agent `{text}` is not a setting"),
                    help: "write each setting as `:key=value`, e.g. `mcts:iterations=2000`"
                        .to_string(),
                })
            })
            .collect::<Result<_, _>>()?;
        let mut spec = match name.as_str() {
            "random" => AgentSpec::Random,
            "mcts" => AgentSpec::Mcts(MctsConfig::default()),
            "alphabeta" | "ab" => AgentSpec::AlphaBeta(AlphaBetaConfig::default()),
            _ => return Err(unknown_agent(&name)),
        };
        for (key, value) in settings {
            spec.set(key.trim(), value.trim())?;
        }
        Ok(spec)
    }

    /// Reads a comma-separated list of specs.
    ///
    /// # Errors
    /// The first spec that [`AgentSpec::parse`] refuses.
    pub fn parse_list(text: &str) -> Result<Vec<AgentSpec>, SpecError> {
        text.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(AgentSpec::parse)
            .collect()
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), SpecError> {
        let agent = self.kind();
        match (self, key) {
            (AgentSpec::Mcts(c), "iterations" | "i") => c.iterations = Some(count(key, value)?),
            (AgentSpec::Mcts(c), "time" | "t") => c.time = Some(time(key, value)?),
            (AgentSpec::Mcts(c), "cpu") => c.cpu = Some(time(key, value)?),
            (AgentSpec::Mcts(c), "c") => c.exploration = number(key, value)?,
            (AgentSpec::Mcts(c), "fpu") => c.fpu = urgency(key, value)?,
            (AgentSpec::Mcts(c), "rave") => c.rave = number(key, value)?,
            (AgentSpec::Mcts(c), "steps") => c.max_steps = at_most(key, value, MAX_STEPS)?,
            (AgentSpec::Mcts(c), "threads") => c.threads = threads(key, value)?,
            (AgentSpec::AlphaBeta(c), "depth" | "d") => c.depth = Some(count(key, value)?),
            (AgentSpec::AlphaBeta(c), "time" | "t") => c.time = Some(time(key, value)?),
            (AgentSpec::AlphaBeta(c), "cpu") => c.cpu = Some(time(key, value)?),
            (AgentSpec::AlphaBeta(c), "memory" | "mb") => {
                c.memory_mb = at_most(key, value, MAX_MEMORY_MB)?;
            }
            _ => return Err(SpecError {
                message: format!("`{agent}` has no setting `{key}`"),
                help: match agent {
                    "mcts" => {
                        "mcts takes iterations=N, time=T, cpu=T, c=X, fpu=X, rave=K, steps=N and \
                             threads=N"
                    }
                    "alphabeta" => "alphabeta takes depth=N, time=T, cpu=T and memory=MB",
                    _ => "random takes no settings",
                }
                .to_string(),
            }),
        }
        Ok(())
    }

    /// The spec, with a CPU budget of `cpu` per decision where it sets no budget of its own
    /// (no iterations, depth or time): what an interactive game uses, so that the computer
    /// answers in about the same time in every game, on any machine.
    #[must_use]
    pub fn with_default_budget(self, cpu: Duration) -> AgentSpec {
        match self {
            AgentSpec::Mcts(c) if c.iterations.is_none() && !c.has_time_budget() => {
                AgentSpec::Mcts(MctsConfig {
                    cpu: Some(cpu),
                    ..c
                })
            }
            AgentSpec::AlphaBeta(c) if c.depth.is_none() && !c.has_time_budget() => {
                AgentSpec::AlphaBeta(AlphaBetaConfig {
                    cpu: Some(cpu),
                    ..c
                })
            }
            other => other,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            AgentSpec::Random => "random",
            AgentSpec::Mcts(_) => "mcts",
            AgentSpec::AlphaBeta(_) => "alphabeta",
        }
    }

    /// A new agent of this spec; `seed` fixes its random choices.
    #[must_use]
    pub fn build<'g, G: Game + 'g>(&self, seed: u64) -> Box<dyn Agent<G> + 'g> {
        match self {
            AgentSpec::Random => Box::new(Random::new(seed)),
            AgentSpec::Mcts(c) => Box::new(Mcts::<G>::new(c.clone(), seed)),
            AgentSpec::AlphaBeta(c) => Box::new(AlphaBeta::<G>::new(c.clone())),
        }
    }
}

/// The spec as text, with only the settings that differ from the defaults: what tables show.
impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind())?;
        match self {
            AgentSpec::Random => {}
            AgentSpec::Mcts(c) => {
                let d = MctsConfig::default();
                if let Some(n) = c.iterations {
                    if c.has_time_budget() || Some(n) != d.iterations {
                        write!(f, ":iterations={n}")?;
                    }
                }
                write_budgets(f, c.time, c.cpu)?;
                if (c.exploration - d.exploration).abs() > f64::EPSILON {
                    write!(f, ":c={}", c.exploration)?;
                }
                if c.max_steps != d.max_steps {
                    write!(f, ":steps={}", c.max_steps)?;
                }
                if c.fpu != d.fpu {
                    if c.fpu.is_infinite() {
                        write!(f, ":fpu=inf")?;
                    } else {
                        write!(f, ":fpu={}", c.fpu)?;
                    }
                }
                if (c.rave - d.rave).abs() > f64::EPSILON {
                    write!(f, ":rave={}", c.rave)?;
                }
                if c.threads != d.threads {
                    write!(f, ":threads={}", c.threads)?;
                }
            }
            AgentSpec::AlphaBeta(c) => {
                let d = AlphaBetaConfig::default();
                if let Some(n) = c.depth {
                    write!(f, ":depth={n}")?;
                }
                write_budgets(f, c.time, c.cpu)?;
                if c.memory_mb != d.memory_mb {
                    write!(f, ":memory={}", c.memory_mb)?;
                }
            }
        }
        Ok(())
    }
}

/// `:time=T` and `:cpu=T`, each when set.
fn write_budgets(
    f: &mut fmt::Formatter<'_>,
    wall: Option<Duration>,
    cpu: Option<Duration>,
) -> fmt::Result {
    if let Some(t) = wall {
        write!(f, ":time={}", show_time(t))?;
    }
    if let Some(t) = cpu {
        write!(f, ":cpu={}", show_time(t))?;
    }
    Ok(())
}

fn show_time(t: Duration) -> String {
    if t.subsec_millis() == 0 {
        format!("{}s", t.as_secs())
    } else {
        format!("{}ms", t.as_millis())
    }
}

fn unknown_agent(name: &str) -> SpecError {
    let near =
        rulestone_diag::suggest::closest(name, NAMES).map(|n| format!("did you mean `{n}`? "));
    SpecError {
        message: format!("there is no agent `{name}`"),
        help: format!(
            "{}the agents are {}",
            near.unwrap_or_default(),
            NAMES
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The longest playout `steps=` allows: the longest move list a record holds.
pub const MAX_STEPS: u32 = 100_000;

/// The largest table `memory=` allows, in MiB: the table is allocated whole at the first
/// decision, so a larger one would exhaust the memory of most machines.
pub const MAX_MEMORY_MB: u32 = 4096;

/// [`count`], at most `max`.
fn at_most(key: &str, value: &str, max: u32) -> Result<u32, SpecError> {
    let n = count(key, value)?;
    if n > max {
        return Err(SpecError {
            message: format!("`{key}={value}` is more than the limit of {max}"),
            help: format!("write a value from 1 to {max}"),
        });
    }
    Ok(n)
}

/// A number of threads, 1 to [`MAX_THREADS`].
fn threads(key: &str, value: &str) -> Result<u32, SpecError> {
    value
        .replace('_', "")
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=MAX_THREADS).contains(n))
        .ok_or_else(|| SpecError {
            message: format!("`{key}={value}`: a search runs on 1 to {MAX_THREADS} threads"),
            help: format!(
                "write a whole number from 1 to {MAX_THREADS}, e.g. `{key}=2` (more threads than \
                 the machine's cores only share them)"
            ),
        })
}

fn count(key: &str, value: &str) -> Result<u32, SpecError> {
    value
        .replace('_', "")
        .parse::<u32>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| SpecError {
            message: format!("`{key}={value}`: `{value}` is not a positive whole number"),
            help: format!("write e.g. `{key}=1000`"),
        })
}

fn number(key: &str, value: &str) -> Result<f64, SpecError> {
    value
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x >= 0.0)
        .ok_or_else(|| SpecError {
            message: format!("`{key}={value}`: `{value}` is not a number of 0 or more"),
            help: format!("write e.g. `{key}=1.4`"),
        })
}

/// A first-play urgency: a number of 0 or more, or `inf` (every decision tried once first).
fn urgency(key: &str, value: &str) -> Result<f64, SpecError> {
    if value.eq_ignore_ascii_case("inf") {
        return Ok(f64::INFINITY);
    }
    number(key, value)
}

/// `1.5s`, `500ms` or `2` (seconds), at most an hour: the value of `time=` or `cpu=`.
fn time(key: &str, value: &str) -> Result<Duration, SpecError> {
    let (digits, scale) = if let Some(ms) = value.strip_suffix("ms") {
        (ms, 0.001)
    } else if let Some(s) = value.strip_suffix('s') {
        (s, 1.0)
    } else {
        (value, 1.0)
    };
    digits
        .trim()
        .parse::<f64>()
        .ok()
        .map(|x| x * scale)
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 3600.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| SpecError {
            message: format!("`{key}={value}` is not a time"),
            help: format!("write seconds or milliseconds, more than 0 and at most an hour: `{key}=1.5s`, `{key}=500ms`"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for text in [
            "random",
            "mcts",
            "mcts:iterations=2000",
            "mcts:time=1500ms:c=1",
            "alphabeta:depth=3",
            "alphabeta:time=2s",
            "mcts:cpu=250ms",
            "mcts:iterations=50:cpu=2s",
            "mcts:cpu=100ms:c=1.4:fpu=0.6:rave=300",
            "mcts:fpu=inf",
            "mcts:c=0.7:rave=50",
            "mcts:time=100ms:threads=2",
            "mcts:iterations=1000:threads=64",
            "alphabeta:cpu=1s:time=3s",
        ] {
            let spec = AgentSpec::parse(text).expect(text);
            assert_eq!(AgentSpec::parse(&spec.to_string()).as_ref(), Ok(&spec));
        }
        assert_eq!(
            AgentSpec::parse_list("mcts:i=10, random").map(|l| l.len()),
            Ok(2)
        );
    }

    #[test]
    fn a_default_budget_fills_only_a_spec_without_one() {
        let second = Duration::from_secs(1);
        let budget = |text: &str| {
            AgentSpec::parse(text)
                .expect(text)
                .with_default_budget(second)
                .to_string()
        };
        assert_eq!(budget("mcts"), "mcts:cpu=1s");
        assert_eq!(budget("alphabeta"), "alphabeta:cpu=1s");
        assert_eq!(budget("mcts:iterations=10"), "mcts:iterations=10");
        assert_eq!(budget("alphabeta:time=2s"), "alphabeta:time=2s");
        assert_eq!(budget("random"), "random");
    }

    #[test]
    fn bad_specs_say_what_to_write() {
        let e = AgentSpec::parse("mtcs").expect_err("no such agent");
        assert!(e.help.contains("did you mean `mcts`"), "{e}");
        let e = AgentSpec::parse("mcts:depth=3").expect_err("no such setting");
        assert!(e.message.contains("no setting `depth`"), "{e}");
        assert!(AgentSpec::parse("mcts:iterations=-1").is_err());
        assert!(AgentSpec::parse("mcts:time=forever").is_err());
        let e = AgentSpec::parse("mcts:cpu=0").expect_err("no time");
        assert!(e.message.contains("`cpu=0`"), "{e}");
        assert!(AgentSpec::parse("mcts:iterations").is_err());
    }

    #[test]
    fn threads_are_one_to_the_limit() {
        let threads = |text: &str| match AgentSpec::parse(text) {
            Ok(AgentSpec::Mcts(c)) => Ok(c.threads),
            Ok(other) => panic!("{other} is no mcts"),
            Err(e) => Err(e),
        };
        assert_eq!(threads("mcts"), Ok(1));
        assert_eq!(threads("mcts:threads=2"), Ok(2));
        assert_eq!(threads("mcts:threads=64"), Ok(MAX_THREADS));
        assert_eq!(
            AgentSpec::parse("mcts:threads=1").map(|s| s.to_string()),
            Ok("mcts".to_string())
        );
        for bad in ["0", "999", "-1", "two", ""] {
            let e = threads(&format!("mcts:threads={bad}")).expect_err(bad);
            assert!(e.message.contains("1 to 64 threads"), "{e}");
            assert!(e.help.contains("`threads=2`"), "{e}");
        }
        let e = AgentSpec::parse("alphabeta:threads=2").expect_err("alpha-beta has one thread");
        assert!(e.message.contains("no setting `threads`"), "{e}");
    }
}
