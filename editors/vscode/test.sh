#!/usr/bin/env bash
# The grammar's tests: the annotated cases in tests/*.game (each line's scopes asserted), then
# every bundled game (games/ and tests/games/) against its committed snapshot of scopes in
# tests/bundled/. After a deliberate change of the grammar, run with `-u` to rewrite the
# snapshots, and review them.
set -euo pipefail
cd "$(dirname "$0")"
npx vscode-tmgrammar-test -g syntaxes/rulestone.tmLanguage.json "tests/*.game"
rm -f tests/bundled/*.game
cp ../../games/*.game ../../tests/games/*.game tests/bundled/
# A game without a committed snapshot is an error, not a snapshot written on the fly.
if [[ "${1:-}" != "-u" ]]; then
    for game in tests/bundled/*.game; do
        if [[ ! -f "$game.snap" ]]; then
            echo "error: no highlighting snapshot for $(basename "$game"): run editors/vscode/test.sh -u and commit it" >&2
            exit 1
        fi
    done
fi
npx vscode-tmgrammar-snap -g syntaxes/rulestone.tmLanguage.json -s source.rulestone "$@" "tests/bundled/*.game"
