//! The background checker: each document's text is checked on a thread of its own, so that the
//! server answers requests from the latest text while a long check runs, and a long check of
//! one document delays neither the answers nor the diagnostics of another. A check superseded
//! by a newer text of its document is told to stop (its `stop` answers true, which the checker
//! asks between its steps) and whatever it still returns is dropped: the server publishes only
//! the diagnostics of a document's latest text, and never waits behind stale work.
//!
//! Each check also keeps what completion needs of a text that parses (a [`Model`]): the server
//! keeps the last one per document, for completion while the text being typed does not parse.
//!
//! Invariants: at most [`MAX_CHECKS`] checks run at once (a check that does not stop when told
//! still holds its place until it ends); the jobs waiting for a place are started in the order
//! they were sent, only the newest of each document; a failing check (a panic of the checker)
//! gives an internal-error diagnostic, never a dead thread.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};
use lsp_types::{Diagnostic, Uri};

use super::analysis::Analysis;
use super::complete::Model;

/// The most checks running at once.
pub const MAX_CHECKS: usize = 4;

/// The stack of a check's thread: the checker recurses over the rules as deep as they nest,
/// which needs more than the default in unoptimised builds (only the pages used are committed).
const STACK_BYTES: usize = 64 << 20;

/// What checks a document's text: the diagnostics of `rulestone check` in the server, anything
/// in tests (a check that waits for the test, say). The third argument says whether the check
/// should stop (its text was superseded); a check that stops returns `None`.
pub type Check =
    Arc<dyn Fn(&Uri, &str, &mut dyn FnMut() -> bool) -> Option<Vec<Diagnostic>> + Send + Sync>;

/// One text to check: `edit` numbers the document's texts, newest highest.
pub struct Job {
    pub uri: Uri,
    pub edit: u64,
    pub version: Option<i32>,
    pub text: String,
}

/// A check ended: its diagnostics (`None` when it stopped early) and its completion model if
/// the text parsed.
pub struct Checked {
    pub uri: Uri,
    pub edit: u64,
    pub version: Option<i32>,
    pub diagnostics: Option<Vec<Diagnostic>>,
    pub model: Option<Model>,
}

/// A check started and not yet ended.
struct Running {
    edit: u64,
    stop: Arc<AtomicBool>,
}

/// The checks running and waiting. Owned by the server's loop, which hands every [`Checked`]
/// it receives to [`Checker::ended`].
pub struct Checker {
    check: Check,
    done: Sender<Checked>,
    /// Per document, its checks running (a superseded one until it ends).
    running: HashMap<Uri, Vec<Running>>,
    /// How many checks run.
    busy: usize,
    /// Jobs waiting for a place, the oldest first; one per document.
    waiting: VecDeque<Job>,
}

impl Checker {
    /// A checker running `check`, and where its ended checks arrive.
    #[must_use]
    pub fn start(check: Check) -> (Checker, Receiver<Checked>) {
        let (done, results) = crossbeam_channel::unbounded::<Checked>();
        let checker = Checker {
            check,
            done,
            running: HashMap::new(),
            busy: 0,
            waiting: VecDeque::new(),
        };
        (checker, results)
    }

    /// Checks `job`'s text: every older check of its document is told to stop, an older job
    /// of it still waiting is dropped.
    pub fn submit(&mut self, job: Job) {
        self.cancel(&job.uri);
        self.waiting.push_back(job);
        self.start_waiting();
    }

    /// Stops every check of `uri` (its document changed or was closed).
    pub fn cancel(&mut self, uri: &Uri) {
        self.waiting.retain(|j| j.uri != *uri);
        for r in self.running.get(uri).into_iter().flatten() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Notes that `checked`'s check ended, which frees its place for a waiting job.
    pub fn ended(&mut self, checked: &Checked) {
        if let Some(list) = self.running.get_mut(&checked.uri) {
            if let Some(at) = list.iter().position(|r| r.edit == checked.edit) {
                list.swap_remove(at);
                self.busy = self.busy.saturating_sub(1);
            }
            if list.is_empty() {
                self.running.remove(&checked.uri);
            }
        }
        self.start_waiting();
    }

    fn start_waiting(&mut self) {
        while self.busy < MAX_CHECKS {
            let Some(job) = self.waiting.pop_front() else {
                return;
            };
            let stop = Arc::new(AtomicBool::new(false));
            let uri = job.uri.clone();
            self.running.entry(uri.clone()).or_default().push(Running {
                edit: job.edit,
                stop: Arc::clone(&stop),
            });
            self.busy += 1;
            let (check, done) = (Arc::clone(&self.check), self.done.clone());
            let spawned = std::thread::Builder::new()
                .name("rulestone-check".to_string())
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    // The server may have ended: nobody to tell.
                    let _ = done.send(run(&check, job, &stop));
                });
            if spawned.is_err() {
                // No thread to be had: this text stays unchecked, its place freed at once.
                self.busy = self.busy.saturating_sub(1);
                if let Some(list) = self.running.get_mut(&uri) {
                    list.pop();
                }
            }
        }
    }
}

impl Drop for Checker {
    /// The server ends: every running check is told to stop.
    fn drop(&mut self) {
        for r in self.running.values().flatten() {
            r.stop.store(true, Ordering::Relaxed);
        }
    }
}

fn run(check: &Check, job: Job, stop: &AtomicBool) -> Checked {
    let mut stopped = || stop.load(Ordering::Relaxed);
    let diagnostics = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check(&job.uri, &job.text, &mut stopped)
    }))
    .unwrap_or_else(|_| Some(vec![super::diagnostics::internal_error()]));
    let model = if stopped() {
        None
    } else {
        std::panic::catch_unwind(|| {
            let analysis = Analysis::new(&job.text);
            analysis.file.is_some().then(|| Model::of(&analysis))
        })
        .ok()
        .flatten()
    };
    Checked {
        uri: job.uri,
        edit: job.edit,
        version: job.version,
        diagnostics,
        model,
    }
}

#[cfg(test)]
mod tests {
    use super::{Check, Checker, Job};
    use std::sync::Arc;
    use std::time::Duration;

    fn job(uri: &lsp_types::Uri, edit: u64, text: &str) -> Job {
        Job {
            uri: uri.clone(),
            edit,
            version: None,
            text: text.to_string(),
        }
    }

    /// A check that runs until told to stop ("slow") or ends at once: a newer text of its
    /// document stops the slow one, and another document's check does not wait for it.
    #[test]
    fn a_newer_text_stops_the_running_check() {
        let check: Check = Arc::new(|_, text: &str, stop: &mut dyn FnMut() -> bool| {
            if text != "slow" {
                return Some(Vec::new());
            }
            loop {
                if stop() {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        let (mut checker, results) = Checker::start(check);
        let (a, b): (lsp_types::Uri, lsp_types::Uri) = (
            "file:///a.game".parse().expect("uri"),
            "file:///b.game".parse().expect("uri"),
        );
        checker.submit(job(&a, 1, "slow"));
        checker.submit(job(&b, 2, "quick"));
        let next = || {
            results
                .recv_timeout(Duration::from_secs(30))
                .expect("a check ends")
        };
        let first = next();
        assert_eq!((first.uri.as_str(), first.edit), ("file:///b.game", 2));
        assert!(first.diagnostics.is_some());
        checker.ended(&first);
        checker.submit(job(&a, 3, "quick"));
        let mut ended: Vec<(u64, bool)> = (0..2)
            .map(|_| {
                let c = next();
                checker.ended(&c);
                (c.edit, c.diagnostics.is_some())
            })
            .collect();
        ended.sort_unstable();
        assert_eq!(ended, [(1, false), (3, true)]);
        assert_eq!(checker.busy, 0);
    }
}
