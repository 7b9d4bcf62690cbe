//! The background checker: documents are checked on a thread of their own, so that the server
//! answers requests from the latest text while a long check runs, and a check superseded by a
//! newer text is skipped before it starts or, when it was already running, its diagnostics are
//! dropped (the server publishes only those of a document's latest text).
//!
//! Each check also keeps what completion needs of a text that parses (a [`Model`]): the server
//! keeps the last one per document, for completion while the text being typed does not parse.
//!
//! Invariants: jobs are taken in the order they were sent; of the jobs waiting for one document
//! only the newest is run; a failing check (a panic of the checker) gives an internal-error
//! diagnostic, never a dead thread.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender};
use lsp_types::{Diagnostic, Uri};

use super::analysis::Analysis;
use super::complete::Model;

/// What checks a document's text: the diagnostics of `rulestone check` in the server, anything
/// in tests (a check that waits for the test, say).
pub type Check = Arc<dyn Fn(&Uri, &str) -> Vec<Diagnostic> + Send + Sync>;

/// One text to check: `edit` numbers the document's texts, newest highest.
pub struct Job {
    pub uri: Uri,
    pub edit: u64,
    pub version: Option<i32>,
    pub text: String,
}

/// A checked text: its diagnostics, and its completion model if it parsed.
pub struct Checked {
    pub uri: Uri,
    pub edit: u64,
    pub version: Option<i32>,
    pub diagnostics: Vec<Diagnostic>,
    pub model: Option<Model>,
}

/// Starts the checking thread. It ends when the job sender is dropped or the results' receiver
/// is.
pub fn start(check: Check) -> (Sender<Job>, Receiver<Checked>, JoinHandle<()>) {
    let (jobs, incoming) = crossbeam_channel::unbounded::<Job>();
    let (done, results) = crossbeam_channel::unbounded::<Checked>();
    let thread = std::thread::spawn(move || {
        while let Ok(first) = incoming.recv() {
            for job in newest_per_document(first, &incoming) {
                if done.send(run(&check, job)).is_err() {
                    return;
                }
            }
        }
    });
    (jobs, results, thread)
}

/// The job received and every job waiting behind it, the newest of each document only, in the
/// order the documents were first sent.
fn newest_per_document(first: Job, incoming: &Receiver<Job>) -> Vec<Job> {
    let mut jobs: Vec<Job> = vec![first];
    for job in incoming.try_iter() {
        match jobs.iter_mut().find(|j| j.uri == job.uri) {
            Some(older) if older.edit <= job.edit => *older = job,
            Some(_) => {}
            None => jobs.push(job),
        }
    }
    jobs
}

fn run(check: &Check, job: Job) -> Checked {
    let diagnostics =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&job.uri, &job.text)))
            .unwrap_or_else(|_| vec![super::diagnostics::internal_error()]);
    let model = std::panic::catch_unwind(|| {
        let analysis = Analysis::new(&job.text);
        analysis.file.is_some().then(|| Model::of(&analysis))
    })
    .ok()
    .flatten();
    Checked {
        uri: job.uri,
        edit: job.edit,
        version: job.version,
        diagnostics,
        model,
    }
}
