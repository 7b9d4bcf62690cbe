//! A language server for `.game` files (`rulestone lsp`): the editor's view of the checker,
//! the formatter and the syntax tree.
//!
//! The server keeps the text of each open document (full document sync) and answers from it:
//! the diagnostics `rulestone check` gives, published on every open and change and cleared on
//! close; formatting (one whole-document edit from [`format_source`]); the outline (document
//! symbols) and hover on declared names, from the syntax tree; hover on keywords and built-ins,
//! from the language reference's text ([`reference`](mod@reference)); the definition, references
//! and renaming of any name, completion, the checker's suggestions as quick fixes
//! and semantic tokens, from the checker's names and a lexical scan ([`analysis`]).
//! Positions are UTF-16 code units, as LSP requires ([`position`]).
//!
//! [`serve`] runs the whole session over any [`Connection`]: the CLI gives it standard input
//! and output ([`transport::stdio`], which answers a malformed or oversized frame with
//! JSON-RPC's error and reads on), tests may give it an in-memory one. Nothing a client sends
//! can crash it: a malformed request is answered with an error, a malformed notification is
//! ignored, a request after `shutdown` is refused. Diagnostics are checked when the client has
//! nothing more queued, so a burst of changes is checked once, for its last text, and each
//! document's check on a thread of its own ([`checker`]): requests are answered from the latest
//! text while a check runs, a long check of one document delays no other document's, and a
//! check superseded by a newer text is skipped, or told to stop and its result dropped, so
//! nothing waits behind stale work.

pub mod actions;
pub mod analysis;
pub mod checker;
pub mod complete;
pub mod diagnostics;
pub mod names;
pub mod position;
pub mod reference;
pub mod refs;
pub mod semantic;
pub mod symbols;
pub mod tokens;
pub mod transport;

use std::collections::HashMap;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Exit,
    Notification as NotificationTrait, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, References, Rename, Request as _, SemanticTokensFullRequest, Shutdown,
};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions,
    DocumentSymbolResponse, HoverProviderCapability, OneOf, PublishDiagnosticsParams,
    RenameOptions, SemanticTokensFullOptions, SemanticTokensOptions, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextEdit, Uri,
};

use rulestone_syntax::{self as syntax, format_source, FormatError};

/// Applies one change to a document: the whole text (what full sync sends), or the text of a
/// range (a client that sends ranges anyway is still understood).
fn apply(text: &mut String, change: lsp_types::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let start = position::offset(text, range.start);
            let end = position::offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

/// How a session ended badly.
#[derive(Debug)]
pub struct ServeError(pub String);

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ServeError {}

impl From<lsp_server::ProtocolError> for ServeError {
    fn from(e: lsp_server::ProtocolError) -> Self {
        ServeError(e.to_string())
    }
}

/// What the server can do.
#[must_use]
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
        })),
        completion_provider: Some(CompletionOptions::default()),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: semantic::legend(),
                full: Some(SemanticTokensFullOptions::Bool(true)),
                ..SemanticTokensOptions::default()
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// Runs a whole session: the `initialize` handshake, then requests and notifications until
/// `shutdown` and `exit`.
///
/// # Errors
/// The connection broke, the handshake failed, or the client sent `exit` without `shutdown`
/// or closed the connection before it.
pub fn serve(connection: &Connection) -> Result<(), ServeError> {
    serve_with(
        connection,
        std::sync::Arc::new(|uri: &Uri, text: &str, stop: &mut dyn FnMut() -> bool| {
            diagnostics::diagnose_until(uri, text, stop)
        }),
    )
}

/// [`serve`] with another check in place of `rulestone check`'s diagnostics (tests give one
/// that waits for them, to see what the server does while a check runs).
///
/// # Errors
/// As [`serve`].
pub fn serve_with(connection: &Connection, check: checker::Check) -> Result<(), ServeError> {
    let init = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "rulestone".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    let (id, _params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)?;
    let (checker, results) = checker::Checker::start(check);
    let never = crossbeam_channel::never();
    let mut checker_alive = true;
    let mut server = Server {
        connection,
        documents: HashMap::new(),
        unchecked: Vec::new(),
        edits: 0,
        checker,
    };
    let mut shut_down = false;
    loop {
        // Diagnostics wait until the client has nothing more queued: a burst of keystrokes is
        // checked once, for its last text. Each check runs on a thread of its own, so answers
        // and other documents' checks never queue behind it.
        if connection.receiver.is_empty() {
            server.check_unchecked();
        }
        let from_checker = if checker_alive { &results } else { &never };
        let message = crossbeam_channel::select! {
            recv(connection.receiver) -> message => message,
            recv(from_checker) -> checked => {
                match checked {
                    Ok(checked) => {
                        server.checker.ended(&checked);
                        if !shut_down {
                            server.checked(checked)?;
                        }
                    }
                    // The checker is gone (it never ends on its own): wait for messages only.
                    Err(_) => checker_alive = false,
                }
                continue;
            }
        };
        let Ok(message) = message else {
            break;
        };
        match message {
            Message::Request(request) if shut_down => server.send(Response::new_err(
                request.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shut down: only `exit` is expected".to_string(),
            ))?,
            Message::Request(request) if request.method == Shutdown::METHOD => {
                shut_down = true;
                server.send(Response::new_ok(request.id, ()))?;
            }
            Message::Request(request) => server.request(request)?,
            Message::Notification(notification) if notification.method == Exit::METHOD => {
                return if shut_down {
                    Ok(())
                } else {
                    Err(ServeError("`exit` came before `shutdown`".to_string()))
                };
            }
            Message::Notification(_) if shut_down => {}
            Message::Notification(notification) => server.notification(notification)?,
            Message::Response(_) => {}
        }
    }
    if shut_down {
        return Ok(());
    }
    Err(ServeError(
        "the client closed the connection without `shutdown`".to_string(),
    ))
}

/// An open document.
struct Document {
    text: String,
    version: Option<i32>,
    /// The number of its latest text (every change gets a new one): only the diagnostics of
    /// this text are published.
    edit: u64,
    /// Completion's model of the last text that parsed, and the number of that text: offered
    /// while the text being typed does not parse. Kept by the checker and by completion itself.
    model: std::cell::RefCell<Option<(u64, complete::Model)>>,
    /// The analysis of this text, made at the first request that needs names and kept until
    /// the text changes: hover, definition, references, rename, completion and semantic tokens
    /// of one version share it instead of each reading the whole text again.
    analysis: std::cell::RefCell<Option<std::rc::Rc<analysis::Analysis>>>,
}

struct Server<'a> {
    connection: &'a Connection,
    documents: HashMap<Uri, Document>,
    /// Documents changed since they were last sent to the checker.
    unchecked: Vec<Uri>,
    /// The number of the last text of any document.
    edits: u64,
    checker: checker::Checker,
}

impl Server<'_> {
    fn send(&self, message: impl Into<Message>) -> Result<(), ServeError> {
        self.connection
            .sender
            .send(message.into())
            .map_err(|_| ServeError("the connection is closed".to_string()))
    }

    fn request(&mut self, request: Request) -> Result<(), ServeError> {
        let id = request.id.clone();
        let response = match request.method.as_str() {
            Formatting::METHOD => {
                self.answer::<Formatting>(request, |s, p| s.format(&p.text_document.uri))
            }
            DocumentSymbolRequest::METHOD => self
                .answer::<DocumentSymbolRequest>(request, |s, p| {
                    Ok(s.symbols(&p.text_document.uri))
                }),
            HoverRequest::METHOD => self.answer::<HoverRequest>(request, |s, p| {
                let at = p.text_document_position_params;
                Ok(s.hover(&at.text_document.uri, at.position))
            }),
            GotoDefinition::METHOD => self.answer::<GotoDefinition>(request, |s, p| {
                let at = p.text_document_position_params;
                Ok(s.definition(&at.text_document.uri, at.position))
            }),
            References::METHOD => self.answer::<References>(request, |s, p| {
                let at = p.text_document_position;
                let uri = &at.text_document.uri;
                Ok(s.analysis(uri).and_then(|analysis| {
                    refs::references(uri, &analysis, at.position, p.context.include_declaration)
                }))
            }),
            PrepareRenameRequest::METHOD => self.answer::<PrepareRenameRequest>(request, |s, p| {
                Ok(s.analysis(&p.text_document.uri)
                    .and_then(|analysis| refs::prepare(&analysis, p.position)))
            }),
            Rename::METHOD => self.answer::<Rename>(request, |s, p| {
                let at = p.text_document_position;
                let uri = &at.text_document.uri;
                let analysis = s.analysis(uri).ok_or("the document is not open")?;
                refs::rename(uri, &analysis, at.position, &p.new_name).map(Some)
            }),
            Completion::METHOD => self.answer::<Completion>(request, |s, p| {
                let at = p.text_document_position;
                Ok(s.complete(&at.text_document.uri, at.position))
            }),
            CodeActionRequest::METHOD => self.answer::<CodeActionRequest>(request, |s, p| {
                let uri = &p.text_document.uri;
                // A client asking only for other kinds of actions gets none.
                let wanted = p.context.only.as_ref().is_none_or(|kinds| {
                    kinds
                        .iter()
                        .any(|k| CodeActionKind::QUICKFIX.as_str().starts_with(k.as_str()))
                });
                Ok(s.text(uri)
                    .filter(|_| wanted)
                    .map(|text| actions::quick_fixes(uri, text, p.range)))
            }),
            SemanticTokensFullRequest::METHOD => {
                self.answer::<SemanticTokensFullRequest>(request, |s, p| {
                    Ok(s.analysis(&p.text_document.uri)
                        .map(|analysis| SemanticTokensResult::Tokens(semantic::tokens(&analysis))))
                })
            }
            _ => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("unknown method `{}`", request.method),
            ),
        };
        self.send(response)
    }

    /// The response to a request of type `R`: its parameters read and `f` run on them, or an
    /// error response if they cannot be read or `f` fails.
    fn answer<R: lsp_types::request::Request>(
        &self,
        request: Request,
        f: impl FnOnce(&Self, R::Params) -> Result<R::Result, String>,
    ) -> Response {
        let id: RequestId = request.id.clone();
        match request.extract::<R::Params>(R::METHOD) {
            Ok((id, params)) => match f(self, params) {
                Ok(result) => Response::new_ok(id, result),
                // What the request asked for cannot be done (a refused rename, say).
                Err(message) => Response::new_err(id, ErrorCode::RequestFailed as i32, message),
            },
            Err(e) => Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                format!("invalid parameters: {e}"),
            ),
        }
    }

    fn notification(&mut self, notification: Notification) -> Result<(), ServeError> {
        match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                if let Ok(p) = notification
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                {
                    let mut text = p.text_document.text;
                    syntax::normalize_line_breaks(&mut text);
                    self.set_text(p.text_document.uri, text, Some(p.text_document.version));
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) {
                    let uri = p.text_document.uri;
                    let mut text = self
                        .documents
                        .get_mut(&uri)
                        .map(|d| std::mem::take(&mut d.text))
                        .unwrap_or_default();
                    for change in p.content_changes {
                        apply(&mut text, change);
                    }
                    syntax::normalize_line_breaks(&mut text);
                    self.set_text(uri, text, Some(p.text_document.version));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    let uri = p.text_document.uri;
                    self.documents.remove(&uri);
                    self.unchecked.retain(|u| *u != uri);
                    self.checker.cancel(&uri);
                    self.send_diagnostics(uri, Vec::new(), None)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The text of an open document.
    fn text(&self, uri: &Uri) -> Option<&String> {
        self.documents.get(uri).map(|d| &d.text)
    }

    /// The analysis of an open document's current text: made at the first request about this
    /// text, then kept (a new text drops it).
    fn analysis(&self, uri: &Uri) -> Option<std::rc::Rc<analysis::Analysis>> {
        let document = self.documents.get(uri)?;
        let mut kept = document.analysis.borrow_mut();
        let analysis =
            kept.get_or_insert_with(|| std::rc::Rc::new(analysis::Analysis::new(&document.text)));
        Some(std::rc::Rc::clone(analysis))
    }

    /// A document's new text (opened or changed): it gets a new number and waits to be checked.
    fn set_text(&mut self, uri: Uri, text: String, version: Option<i32>) {
        self.edits += 1;
        let edit = self.edits;
        let model = self
            .documents
            .remove(&uri)
            .map(|d| d.model)
            .unwrap_or_default();
        self.documents.insert(
            uri.clone(),
            Document {
                text,
                version,
                edit,
                model,
                analysis: std::cell::RefCell::default(),
            },
        );
        if !self.unchecked.contains(&uri) {
            self.unchecked.push(uri);
        }
    }

    /// Sends every document changed since it was last sent to the checker (which stops the
    /// checks of its older texts).
    fn check_unchecked(&mut self) {
        for uri in std::mem::take(&mut self.unchecked) {
            if let Some(d) = self.documents.get(&uri) {
                let job = checker::Job {
                    uri,
                    edit: d.edit,
                    version: d.version,
                    text: d.text.clone(),
                };
                self.checker.submit(job);
            }
        }
    }

    /// A check is done: its model is kept if it is the newest that parsed, its diagnostics
    /// published if they are of the document's latest text (else a newer check is coming).
    fn checked(&mut self, checked: checker::Checked) -> Result<(), ServeError> {
        let Some(document) = self.documents.get_mut(&checked.uri) else {
            return Ok(());
        };
        if let Some(model) = checked.model {
            let mut kept = document.model.borrow_mut();
            if kept.as_ref().is_none_or(|(edit, _)| *edit < checked.edit) {
                *kept = Some((checked.edit, model));
            }
        }
        let Some(diagnostics) = checked
            .diagnostics
            .filter(|_| checked.edit == document.edit)
        else {
            return Ok(());
        };
        self.send_diagnostics(checked.uri, diagnostics, checked.version)
    }

    fn send_diagnostics(
        &self,
        uri: Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> Result<(), ServeError> {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new(
            PublishDiagnostics::METHOD.to_string(),
            params,
        ))
    }

    /// The whole document in the canonical layout: one edit, none if it is already formatted
    /// or does not parse.
    fn format(&self, uri: &Uri) -> Result<Option<Vec<TextEdit>>, String> {
        let Some(text) = self.text(uri) else {
            return Ok(None);
        };
        match format_source(text) {
            Ok(formatted) if formatted == *text => Ok(Some(Vec::new())),
            Ok(formatted) => Ok(Some(vec![TextEdit {
                range: position::range(text, 0, text.len()),
                new_text: formatted,
            }])),
            Err(FormatError::Syntax(_)) => Ok(None),
            Err(e @ FormatError::Changed(_)) => Err(e.to_string()),
        }
    }

    fn symbols(&self, uri: &Uri) -> Option<DocumentSymbolResponse> {
        let text = self.text(uri)?;
        let file = syntax::parse(text).ok()?;
        Some(DocumentSymbolResponse::Nested(symbols::document_symbols(
            text, &file,
        )))
    }

    fn definition(
        &self,
        uri: &Uri,
        at: lsp_types::Position,
    ) -> Option<lsp_types::GotoDefinitionResponse> {
        let analysis = self.analysis(uri)?;
        let text = analysis.source.as_str();
        let target = analysis.target(position::offset(text, at))?;
        let declared = target.declared?;
        let range = position::range(text, declared.start as usize, declared.end as usize);
        Some(lsp_types::GotoDefinitionResponse::Scalar(
            lsp_types::Location::new(uri.clone(), range),
        ))
    }

    /// Completion at a position; while the text does not parse, the names of the last text
    /// that did.
    fn complete(
        &self,
        uri: &Uri,
        at: lsp_types::Position,
    ) -> Option<lsp_types::CompletionResponse> {
        let analysis = self.analysis(uri)?;
        let document = self.documents.get(uri)?;
        let text = &document.text;
        let model = if analysis.file.is_some() {
            let fresh = complete::Model::of(&analysis);
            *document.model.borrow_mut() = Some((document.edit, fresh.clone()));
            fresh
        } else {
            let kept = document.model.borrow();
            kept.as_ref().map(|(_, m)| m.clone()).unwrap_or_default()
        };
        let items = complete::complete(&analysis, position::offset(text, at), &model);
        Some(lsp_types::CompletionResponse::Array(items))
    }

    /// Hovering a declared name shows its declaration; a variable, the line that binds it; a
    /// keyword or built-in, what the language reference says about it (even while the text
    /// does not parse). A word spelt like a contextual keyword is the name where the syntax tree
    /// has a name, the keyword elsewhere.
    fn hover(&self, uri: &Uri, at: lsp_types::Position) -> Option<lsp_types::Hover> {
        let analysis = self.analysis(uri)?;
        let text = analysis.source.as_str();
        let offset = position::offset(text, at);
        if analysis.file.is_none() {
            return reference::hover(text, offset);
        }
        match analysis.target(offset) {
            None => reference::explain(text, offset),
            Some(target) => symbols::hover_in(&analysis, at).or_else(|| {
                let declared = target.declared?;
                Some(symbols::hover_line(
                    text,
                    "variable",
                    &target.name,
                    declared,
                ))
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::apply;
    use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|((a, b), (c, d))| Range {
                start: Position {
                    line: a,
                    character: b,
                },
                end: Position {
                    line: c,
                    character: d,
                },
            }),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn changes_apply_whole_or_by_range() {
        let mut text = "players A, B\npiece é stone".to_string();
        apply(&mut text, change(Some(((1, 8), (1, 13))), "disc"));
        assert_eq!(text, "players A, B\npiece é disc");
        apply(&mut text, change(Some(((0, 8), (0, 8))), "X, "));
        assert_eq!(text, "players X, A, B\npiece é disc");
        // A range past the end, or backwards, is clamped rather than refused.
        apply(&mut text, change(Some(((9, 0), (1, 0))), "!"));
        assert_eq!(text, "players X, A, B\npiece é disc!");
        apply(&mut text, change(None, "game \"x\""));
        assert_eq!(text, "game \"x\"");
    }

    /// The whole loop in memory: initialize, open a document, read its diagnostics, shut down.
    #[test]
    fn a_session_in_memory() {
        use lsp_server::{Connection, Message, Notification, Request, RequestId};
        use serde_json::json;
        use std::time::Duration;

        let (server, client) = Connection::memory();
        let running = std::thread::spawn(move || super::serve(&server));
        let wait = || client.receiver.recv_timeout(Duration::from_secs(30)).ok();
        let send = |m: Message| client.sender.send(m).is_ok();
        assert!(send(
            Request::new(
                RequestId::from(1),
                "initialize".into(),
                json!({"capabilities": {}})
            )
            .into()
        ));
        assert!(matches!(wait(), Some(Message::Response(r)) if r.error.is_none()));
        assert!(send(
            Notification::new("initialized".into(), json!({})).into()
        ));
        let text = "game \"x\"\nplayers A, B\nturn { win nobody }\n";
        assert!(send(
            Notification::new(
                "textDocument/didOpen".into(),
                json!({"textDocument": {"uri": "file:///x.game", "languageId": "rulestone",
                                        "version": 1, "text": text}}),
            )
            .into()
        ));
        let Some(Message::Notification(published)) = wait() else {
            panic!("no diagnostics published");
        };
        assert_eq!(published.method, "textDocument/publishDiagnostics");
        assert!(published.params["diagnostics"]
            .as_array()
            .is_some_and(|d| !d.is_empty()));
        assert!(send(
            Request::new(RequestId::from(2), "shutdown".into(), json!(null)).into()
        ));
        assert!(matches!(wait(), Some(Message::Response(r)) if r.id == RequestId::from(2)));
        assert!(send(Notification::new("exit".into(), json!(null)).into()));
        assert!(matches!(running.join(), Ok(Ok(()))));
    }

    /// Changes queued behind each other are checked once, for the last text: the server never
    /// falls behind a client typing faster than it checks.
    #[test]
    fn a_burst_of_changes_is_checked_once() {
        use lsp_server::{Connection, Message, Notification, Request, RequestId};
        use serde_json::json;
        use std::time::Duration;

        let (server, client) = Connection::memory();
        let send = |m: Message| client.sender.send(m).is_ok();
        let initialize = Request::new(
            RequestId::from(1),
            "initialize".into(),
            json!({"capabilities": {}}),
        );
        assert!(send(initialize.into()));
        assert!(send(
            Notification::new("initialized".into(), json!({})).into()
        ));
        let uri = "file:///x.game";
        let open = json!({"textDocument": {"uri": uri, "languageId": "rulestone", "version": 1, "text": ""}});
        assert!(send(
            Notification::new("textDocument/didOpen".into(), open).into()
        ));
        for version in 2..=20 {
            let text = format!("game \"x\"\nplayers A, B\nturn {{ win nobody }} // {version}\n");
            let change = json!({"textDocument": {"uri": uri, "version": version},
                                "contentChanges": [{"text": text}]});
            assert!(send(
                Notification::new("textDocument/didChange".into(), change).into()
            ));
        }
        let running = std::thread::spawn(move || super::serve(&server));
        let mut published = Vec::new();
        while let Ok(m) = client.receiver.recv_timeout(Duration::from_secs(30)) {
            if let Message::Notification(n) = m {
                published.push(n.params["version"].clone());
                break;
            }
        }
        let shutdown = Request::new(RequestId::from(2), "shutdown".into(), json!(null));
        assert!(send(shutdown.into()));
        assert!(send(Notification::new("exit".into(), json!(null)).into()));
        assert!(matches!(running.join(), Ok(Ok(()))));
        // Nothing was published after the one set of diagnostics.
        published.extend(client.receiver.try_iter().filter_map(|m| match m {
            Message::Notification(n) => Some(n.params["version"].clone()),
            _ => None,
        }));
        assert_eq!(published, [json!(20)]);
    }

    /// A request arriving while a check runs is answered at once, from the latest text; a
    /// change made while a check runs supersedes it: the new text is checked at once, the old
    /// check's diagnostics are dropped and only those of the latest text are published. The
    /// check here waits for the test to let it finish, so nothing depends on timing.
    #[test]
    fn answers_never_wait_for_a_stale_check() {
        use lsp_server::{Connection, Message, Notification, Request, RequestId};
        use serde_json::json;
        use std::time::Duration;

        let (server, client) = Connection::memory();
        let (started, checks) = crossbeam_channel::unbounded::<String>();
        let (release, gate) = crossbeam_channel::unbounded::<()>();
        let check: super::checker::Check = std::sync::Arc::new(
            move |_: &lsp_types::Uri, text: &str, _: &mut dyn FnMut() -> bool| {
                let _ = started.send(text.to_string());
                let _ = gate.recv();
                Some(vec![lsp_types::Diagnostic {
                    message: format!("checked {} bytes", text.len()),
                    ..lsp_types::Diagnostic::default()
                }])
            },
        );
        let running = std::thread::spawn(move || super::serve_with(&server, check));
        let wait = || client.receiver.recv_timeout(Duration::from_secs(30)).ok();
        let send = |m: Message| assert!(client.sender.send(m).is_ok());
        let request = |id: i32, method: &str, params: serde_json::Value| {
            Message::from(Request::new(RequestId::from(id), method.into(), params))
        };
        let notify = |method: &str, params: serde_json::Value| {
            Message::from(Notification::new(method.into(), params))
        };
        send(request(1, "initialize", json!({"capabilities": {}})));
        assert!(matches!(wait(), Some(Message::Response(r)) if r.error.is_none()));
        send(notify("initialized", json!({})));
        let uri = "file:///x.game";
        let old = "game \"x\"\nplayers A, B\nturn { win nobody }\n";
        let new = "game \"x\"\nplayers A, B\nturn { win A }\n";
        send(notify(
            "textDocument/didOpen",
            json!({"textDocument":
            {"uri": uri, "languageId": "rulestone", "version": 1, "text": old}}),
        ));
        // The first check has started and waits.
        assert_eq!(
            checks.recv_timeout(Duration::from_secs(30)).ok().as_deref(),
            Some(old)
        );
        send(notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2},
            "contentChanges": [{"text": new}]}),
        ));
        let at = json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 12}});
        send(request(2, "textDocument/hover", at.clone()));
        send(request(3, "textDocument/completion", at));
        // Both are answered while the stale check still runs, from the new text (`A` is a
        // player where the old text had the built-in `nobody`).
        let Some(Message::Response(hover)) = wait() else {
            panic!("no answer to the hover");
        };
        assert_eq!(hover.id, RequestId::from(2));
        let shown = hover.result.unwrap_or_default().to_string();
        assert!(shown.contains("player `A`"), "{shown}");
        assert!(matches!(wait(), Some(Message::Response(r)) if r.id == RequestId::from(3)));
        // The new text is checked beside the stale check (which ignores its `stop` here); both
        // end, and only the new text's result is published.
        assert_eq!(
            checks.recv_timeout(Duration::from_secs(30)).ok().as_deref(),
            Some(new)
        );
        assert!(release.send(()).is_ok());
        assert!(release.send(()).is_ok());
        let Some(Message::Notification(published)) = wait() else {
            panic!("no diagnostics published");
        };
        assert_eq!(published.params["version"], json!(2));
        let message = format!("checked {} bytes", new.len());
        assert_eq!(
            published.params["diagnostics"][0]["message"],
            json!(message)
        );
        send(request(4, "shutdown", json!(null)));
        assert!(matches!(wait(), Some(Message::Response(r)) if r.id == RequestId::from(4)));
        send(notify("exit", json!(null)));
        assert!(matches!(running.join(), Ok(Ok(()))));
        assert!(
            client.receiver.try_recv().is_err(),
            "nothing more was published"
        );
    }
}
