"""Traces of OpenSpiel's games, for Rulestone's differential test (tests/openspiel.rs).

For each game of the table below this plays seeded random games in OpenSpiel (the `open_spiel`
package, pyspiel) and writes, per game, a text file: the perft counts from the start, then for
every ply of every game the legal moves and the move played, each translated into the notation
of the Rulestone game file through the game's map, and each game's returns.

    python3 tests/openspiel/traces.py OUT_DIR [GAMES PER FILE [OPENSPIEL NAME ...]]

The Rust test reads these files and replays each game in Rulestone, comparing the legal move
sets at every ply, the end and the returns. No traces are committed: `.ci/run` writes them
afresh from OpenSpiel before the tests and points the test at them
(RULESTONE_OPENSPIEL_TRACES).
"""

import importlib.metadata
import random
import sys
from pathlib import Path

import pyspiel


def letter(i):
    return "abcdefghijklmnopqrstuvwxyz"[i]


def tic_tac_toe(text, size):
    # `x(r,c)`: row r, column c.
    r, c = text[2:-1].split(",")
    return f"{letter(int(c))}{int(r) + 1}"


def connect_four(text, size):
    # `x3`: the column.
    return letter(int(text[1:]))


def breakthrough(text, size):
    # `a7a6*`: OpenSpiel's first player starts on ranks 7 and 8 and moves down; Rulestone's
    # first player starts on ranks 1 and 2 and moves up, so ranks are mirrored.
    text = text.rstrip("*")
    a, b = text[:2], text[2:]
    flip = lambda sq: f"{sq[0]}{size + 1 - int(sq[1:])}"
    return f"{flip(a)}-{flip(b)}"


def gomoku(text, size):
    # `7,7`: row, column.
    r, c = text.split(",")
    return f"{letter(int(c))}{int(r) + 1}"


def amazons(texts, size):
    # One turn is three OpenSpiel plies: `X From (7, 1)`, `X To (2, 6)`, `X Shoot: (1, 5)`;
    # (row, column) count from 1 at the top left, Rulestone's rows from the bottom.
    def square(text):
        r, c = text[text.index("(") + 1 : text.index(")")].split(",")
        return f"{letter(int(c) - 1)}{size + 1 - int(r)}"

    a, b, c = (square(t) for t in texts)
    return f"{a}-{b}/{c}"


def checkers(texts, size):
    # A turn is one OpenSpiel ply per step or jump: `c3d4`, or `a3c5`, `c5e7` for a double jump;
    # Rulestone writes `c3-d4` and `a3xc5xe7`.
    if len(texts) == 1 and abs(ord(texts[0][0]) - ord(texts[0][2])) == 1:
        return f"{texts[0][:2]}-{texts[0][2:]}"
    return texts[0][:2] + "".join("x" + t[2:] for t in texts)


# OpenSpiel's points 0-23, row by row from the top left, as the game file names them.
MORRIS_POINTS = "a7 d7 g7 b6 d6 f6 c5 d5 e5 a4 b4 c4 e4 f4 g4 c3 d3 e3 b2 d2 f2 a1 d1 g1".split()


def nine_mens_morris(texts, size):
    # A turn is one OpenSpiel ply, `Point 5` (a placement) or `Move 1 -> 2`, and after a mill
    # a second, `Point 9`, the man removed: `f6`, `d7-g7`, `f6xa4`, `d7-g7xa4`.
    def point(text):
        return MORRIS_POINTS[int(text.split(" ")[-1])]

    first = texts[0].split(" ")
    move = f"{point(first[1])}-{point(first[3])}" if first[0] == "Move" else point(texts[0])
    return move + "".join("x" + point(t) for t in texts[1:])


def go(text, size):
    # `B d4`, `W PASS`: the colour, then the point (columns skip `i`, as Rulestone's names do).
    point = text.split(" ")[1]
    return "pass" if point == "PASS" else point


def xiangqi(text, size):
    # `H(9,1)-(7,2)`: the piece, then (row, column) from and to, rows counted from Black's side;
    # Rulestone names points by file letter and rank from Red's side: `b0c2`.
    def point(rc):
        r, c = rc.strip("()").split(",")
        return f"{letter(int(c))}{9 - int(r)}"

    a, b = text[1:].split("-")
    return point(a) + point(b)


def oware(text, size):
    # `C`: the first player's third house, `c1`; `c`: the second player's third house, which
    # OpenSpiel counts from the right (where that player's sowing starts) and Rulestone names
    # by its column from the left, `d2`.
    if text.isupper():
        return f"{text.lower()}1"
    return f"{letter(size - 1 - (ord(text) - ord('a')))}2"


def same(text, size):
    return text


def chess(text, size):
    # OpenSpiel's long algebraic notation (see MOVE_TEXT): `e2e4`, castling as the king's move
    # `e1g1`, a promotion with the new piece's letter `e7e8q`; the game file writes the same.
    return text


def shogi(text, size):
    # USI's notation, as the game file writes it: `7g7f`, a promotion `8h2b+`, a drop `P*5e`.
    return text


def einstein(text, size):
    # The game file's notation (see EINSTEIN_TEXT); a space inside a move is written `_`, as
    # the traces separate moves by spaces.
    return text.replace(" ", "_")


def einstein_text(state, action):
    # OpenSpiel's chance plies deal an arrangement (an action from 0 to 719, the rank of a
    # permutation of the numbers 1-6 on the corner's squares row by row from the top) and
    # roll the die (`roll 4` for action 3); a move (`B3-diag*`) is ranked from its row and
    # column (from the top left), direction and capture flag. The game file writes
    # `black 125643`, `roll 4` and `a4-b3` or `b4xc3` (rows counted from the bottom).
    if state.is_chance_node():
        if "Placing" not in state.action_to_string(action):
            return f"roll {action + 1}"
        numbers, rest = [1, 2, 3, 4, 5, 6], action
        arrangement = ""
        for f in (120, 24, 6, 2, 1):
            arrangement += str(numbers.pop(rest // f))
            rest %= f
        arrangement += str(numbers[0])
        colour = "black" if "black" in state.action_to_string(action) else "white"
        return f"{colour} {arrangement}"
    capture, rest = action % 2, action // 2
    direction, rest = rest % 6, rest // 6
    c, r = rest % 5, rest // 5
    dr, dc = [(1, 1), (1, 0), (0, 1), (-1, 0), (-1, -1), (0, -1)][direction]
    square = lambda r, c: f"{letter(c)}{5 - r}"
    return f"{square(r, c)}{'x' if capture else '-'}{square(r + dr, c + dc)}"


def chess_lan(state, action):
    # OpenSpiel names chess moves in SAN (`Nf3`, `exd5`, `O-O`), which only the board can
    # read; its long algebraic notation (UCI's) needs no board.
    return pyspiel.chess.action_to_move(action, state.board()).to_lan()


# (OpenSpiel name, its parameters, Rulestone file, its --set options, map, board size,
# perft depths that take seconds in Python). A map of a game whose turn OpenSpiel splits into
# several plies of the same player is in WHOLE_TURNS: it reads the plies' texts as a list.
GAMES = [
    ("tic_tac_toe", {}, "games/tictactoe.game", [], tic_tac_toe, 3, 6),
    ("connect_four", {}, "games/connect4.game", [], connect_four, 7, 5),
    ("breakthrough", {}, "games/breakthrough.game", [], breakthrough, 8, 3),
    ("othello", {}, "games/reversi.game", [], same, 8, 6),
    ("hex", {"board_size": 5}, "games/hex.game", ["size=5"], same, 5, 3),
    ("hex", {}, "games/hex.game", [], same, 11, 2),
    ("hex", {"board_size": 19}, "games/hex.game", ["size=19"], same, 19, 2),
    ("clobber", {}, "games/clobber.game", [], same, 6, 3),
    ("gomoku", {}, "games/gomoku.game", [], gomoku, 15, 2),
    ("amazons", {}, "games/amazons.game", [], amazons, 10, 1),
    ("checkers", {}, "games/draughts.game", ["preset=openspiel"], checkers, 8, 6),
    ("lines_of_action", {}, "games/lines_of_action.game", [], same, 8, 3),
    ("chess", {}, "games/chess.game", [], chess, 8, 3),
    ("go", {"board_size": 9}, "games/go.game", ["size=9"], go, 9, 3),
    ("go", {"board_size": 13}, "games/go.game", ["size=13"], go, 13, 2),
    ("go", {}, "games/go.game", [], go, 19, 2),
    ("xiangqi", {}, "games/xiangqi.game", [], xiangqi, 9, 3),
    ("nine_mens_morris", {}, "games/nine_mens_morris.game", [], nine_mens_morris, 7, 3),
    ("oware", {}, "games/oware.game", [], oware, 6, 6),
    ("oware", {"num_houses_per_player": 3, "num_seeds_per_house": 2}, "games/oware.game",
     ["houses=3", "per_house=2"], oware, 3, 12),
    ("pentago", {}, "games/pentago.game", [], same, 6, 2),
    ("shogi", {}, "games/shogi.game", [], shogi, 9, 3),
    ("y", {"board_size": 5}, "games/y.game", ["size=5"], same, 5, 4),
    ("y", {}, "games/y.game", [], same, 19, 2),
    ("havannah", {"board_size": 4}, "games/havannah.game", ["size=4"], same, 4, 3),
    ("havannah", {}, "games/havannah.game", [], same, 8, 2),
    ("einstein_wurfelt_nicht", {}, "games/einstein.game", [], einstein, 5, 2),
    ("quoridor", {}, "games/quoridor.game", ["length=openspiel"], same, 9, 2),
]

WHOLE_TURNS = {amazons, checkers, nine_mens_morris}

# Maps that read another text of a move than OpenSpiel's action string: map -> (state, action)
# -> text.
MOVE_TEXT = {chess: chess_lan, einstein: einstein_text}

# Maps of games whose OpenSpiel player 0 is the game file's second player (chess: Black is
# OpenSpiel's player 0, and White moves first): their returns are written the file's way round.
SECOND_FIRST = {chess}


def turns(state, whole, text=None):
    """The moves of `state` as (texts, actions) pairs: one ply each, or with `whole`, every
    sequence of plies by the player to move up to the next player's turn or the end. `text`
    names a move, when not by OpenSpiel's action string."""
    if not whole:
        name = text or (lambda s, a: s.action_to_string(a))
        return [([name(state, a)], [a]) for a in state.legal_actions()]
    mover = state.current_player()
    out = []

    def walk(s, texts, actions):
        if s.is_terminal() or s.current_player() != mover:
            out.append((texts, actions))
            return
        for a in s.legal_actions():
            walk(s.child(a), texts + [s.action_to_string(a)], actions + [a])

    walk(state, [], [])
    return out


def translated(texts, translate, size, whole):
    return translate(texts, size) if whole else translate(texts[0], size)


def perft(state, depth, whole):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for _, actions in turns(state, whole):
        child = state.clone()
        for a in actions:
            child.apply_action(a)
        total += perft(child, depth - 1, whole)
    return total


def trace(spiel_name, params, game_file, sets, translate, size, depth, games):
    game = pyspiel.load_game(spiel_name, params)
    version = importlib.metadata.version("open_spiel")
    lines = [f"# OpenSpiel {version}: {spiel_name} {params}"]
    lines.append(f"file {game_file}")
    for s in sets:
        lines.append(f"set {s}")
    whole = translate in WHOLE_TURNS
    text = MOVE_TEXT.get(translate)
    for d in range(1, depth + 1):
        lines.append(f"perft {d} {perft(game.new_initial_state(), d, whole)}")
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        lines.append(f"game {seed}")
        while not state.is_terminal():
            moves = turns(state, whole, text)
            words = sorted(translated(t, translate, size, whole) for t, _ in moves)
            lines.append("legal " + " ".join(words))
            texts, actions = rng.choice(moves)
            lines.append("play " + translated(texts, translate, size, whole))
            for a in actions:
                state.apply_action(a)
        returns = state.returns()
        if translate in SECOND_FIRST:
            returns = returns[::-1]
        lines.append("returns " + " ".join(f"{r:g}" for r in returns))
    return "\n".join(lines) + "\n"


def main():
    out = Path(sys.argv[1])
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    out.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[3:])
    for spiel_name, params, game_file, sets, translate, size, depth in GAMES:
        if only and spiel_name not in only:
            continue
        suffix = "".join(f"_{k}{v}" for k, v in params.items())
        path = out / f"{spiel_name}{suffix}.trace"
        path.write_text(trace(spiel_name, params, game_file, sets, translate, size, depth, games))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
