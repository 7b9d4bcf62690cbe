// The Rulestone extension: starts `rulestone lsp` for `.game` files and hands it to VS Code's
// language client. Highlighting comes from the TextMate grammar until the server's semantic
// tokens arrive.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration('rulestone').get('path') || 'rulestone';
  const server = { command, args: ['lsp'] };
  client = new LanguageClient(
    'rulestone',
    'Rulestone',
    { run: server, debug: server },
    { documentSelector: [{ language: 'rulestone' }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
