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
//! nothing more queued, so a burst of changes is checked once, for its last text.

pub mod actions;
pub mod analysis;
pub mod complete;
pub mod diagnostics;
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
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionItem,
    CompletionOptions, DocumentSymbolResponse, HoverProviderCapability, OneOf,
    PublishDiagnosticsParams, RenameOptions, SemanticTokensFullOptions, SemanticTokensOptions,
    SemanticTokensResult, SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Uri,
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
    let init = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "rulestone".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    let (id, _params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)?;
    let mut server = Server {
        connection,
        documents: HashMap::new(),
        declared: std::cell::RefCell::default(),
        unchecked: HashMap::new(),
    };
    let mut shut_down = false;
    loop {
        // Diagnostics wait until the client has nothing more queued: a burst of keystrokes is
        // checked once, for its last text, and answers never queue behind stale checks.
        if connection.receiver.is_empty() {
            server.publish_unchecked()?;
        }
        let Ok(message) = connection.receiver.recv() else {
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

struct Server<'a> {
    connection: &'a Connection,
    /// The text of each open document.
    documents: HashMap<Uri, String>,
    /// The names each document declared when it last parsed: completion offers them while the
    /// text being typed does not parse.
    declared: std::cell::RefCell<HashMap<Uri, Vec<CompletionItem>>>,
    /// Documents changed since their diagnostics were last published, with their versions.
    unchecked: HashMap<Uri, Option<i32>>,
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
                Ok(s.documents.get(uri).and_then(|text| {
                    refs::references(uri, text, at.position, p.context.include_declaration)
                }))
            }),
            PrepareRenameRequest::METHOD => self.answer::<PrepareRenameRequest>(request, |s, p| {
                Ok(s.documents
                    .get(&p.text_document.uri)
                    .and_then(|text| refs::prepare(text, p.position)))
            }),
            Rename::METHOD => self.answer::<Rename>(request, |s, p| {
                let at = p.text_document_position;
                let uri = &at.text_document.uri;
                let text = s.documents.get(uri).ok_or("the document is not open")?;
                refs::rename(uri, text, at.position, &p.new_name).map(Some)
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
                Ok(s.documents
                    .get(uri)
                    .filter(|_| wanted)
                    .map(|text| actions::quick_fixes(uri, text, p.range)))
            }),
            SemanticTokensFullRequest::METHOD => {
                self.answer::<SemanticTokensFullRequest>(request, |s, p| {
                    Ok(s.documents.get(&p.text_document.uri).map(|text| {
                        SemanticTokensResult::Tokens(semantic::tokens(&analysis::Analysis::new(
                            text,
                        )))
                    }))
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
                    let uri = p.text_document.uri;
                    let mut text = p.text_document.text;
                    syntax::normalize_line_breaks(&mut text);
                    self.documents.insert(uri.clone(), text);
                    self.unchecked.insert(uri, Some(p.text_document.version));
                }
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) = notification.extract::<lsp_types::DidChangeTextDocumentParams>(
                    DidChangeTextDocument::METHOD,
                ) {
                    let uri = p.text_document.uri;
                    let mut text = self.documents.remove(&uri).unwrap_or_default();
                    for change in p.content_changes {
                        apply(&mut text, change);
                    }
                    syntax::normalize_line_breaks(&mut text);
                    self.documents.insert(uri.clone(), text);
                    self.unchecked.insert(uri, Some(p.text_document.version));
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                {
                    let uri = p.text_document.uri;
                    self.documents.remove(&uri);
                    self.unchecked.remove(&uri);
                    self.declared.borrow_mut().remove(&uri);
                    self.send_diagnostics(uri, Vec::new(), None)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks every document changed since it was last checked and publishes its diagnostics.
    fn publish_unchecked(&mut self) -> Result<(), ServeError> {
        for (uri, version) in std::mem::take(&mut self.unchecked) {
            self.publish(&uri, version)?;
        }
        Ok(())
    }

    /// Checks a document and publishes its diagnostics.
    fn publish(&self, uri: &Uri, version: Option<i32>) -> Result<(), ServeError> {
        let Some(text) = self.documents.get(uri) else {
            return Ok(());
        };
        let found = diagnostics::diagnose(uri, text);
        self.send_diagnostics(uri.clone(), found, version)
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
        let Some(text) = self.documents.get(uri) else {
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
        let text = self.documents.get(uri)?;
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
        let text = self.documents.get(uri)?;
        let target = analysis::Analysis::new(text).target(position::offset(text, at))?;
        let declared = target.declared?;
        let range = position::range(text, declared.start as usize, declared.end as usize);
        Some(lsp_types::GotoDefinitionResponse::Scalar(
            lsp_types::Location::new(uri.clone(), range),
        ))
    }

    /// Completion at a position; while the text does not parse, the names it declared when it
    /// last did.
    fn complete(
        &self,
        uri: &Uri,
        at: lsp_types::Position,
    ) -> Option<lsp_types::CompletionResponse> {
        let text = self.documents.get(uri)?;
        let analysis = analysis::Analysis::new(text);
        let declared = if analysis.file.is_some() {
            let declared = complete::declared(&analysis);
            self.declared
                .borrow_mut()
                .insert(uri.clone(), declared.clone());
            declared
        } else {
            self.declared.borrow().get(uri).cloned().unwrap_or_default()
        };
        let items = complete::complete(&analysis, position::offset(text, at), declared);
        Some(lsp_types::CompletionResponse::Array(items))
    }

    /// Hovering a declared name shows its declaration; a keyword or built-in, what the
    /// language reference says about it (even while the text does not parse).
    fn hover(&self, uri: &Uri, at: lsp_types::Position) -> Option<lsp_types::Hover> {
        let text = self.documents.get(uri)?;
        let declared = syntax::parse(text)
            .ok()
            .and_then(|file| symbols::hover(text, &file, at));
        declared.or_else(|| reference::hover(text, position::offset(text, at)))
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
}
