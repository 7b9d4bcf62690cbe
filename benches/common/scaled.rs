//! Game files of any size, for the scaling benchmark: declarations of every kind, comment
//! lines, and a whole file repeated (which declares every name again).

use std::fmt::Write as _;

/// The head every generated game shares: the game, its players and an 8 x 8 board.
const HEAD: &str = "game \"Scaled\"
players White, Black
board {
    axes x, y
    cells x in 0..7, y in 0..7
    name \"{letter(x)}{y + 1}\"
}
";

/// The eight steps to a neighbouring cell.
const NEIGHBOURS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// A valid game with `n` declarations of each kind (pieces, directions, zones, counters and
/// defines, each define reading a zone), whose turn uses the first and the last of them.
#[must_use]
pub fn declarations(n: usize) -> String {
    let n = n.max(1);
    let mut s = String::from(HEAD);
    for i in 0..n {
        let (dx, dy) = NEIGHBOURS[i % NEIGHBOURS.len()];
        let _ = writeln!(s, "piece p{i}");
        let _ = writeln!(s, "direction d{i} = ({dx}, {dy})");
        let _ = writeln!(s, "zone z{i} = cells where x == {}", i % 8);
        let _ = writeln!(s, "counter c{i} = {i}");
        let _ = writeln!(s, "define f{i} = empty & z{i}");
    }
    let last = n - 1;
    let _ = write!(
        s,
        "turn {{
    pick to in f0 | f{last}
    if count(step(d{last}, to) & empty) > 0 {{
        c0 += 1
    }}
    c{last} += 1
    put p{last} at to
    write \"{{to}}\"
}}
on no moves {{
    lose mover
}}
"
    );
    s
}

/// A valid game with `n` comment lines between its board and its rules.
#[must_use]
pub fn comments(n: usize) -> String {
    let mut s = String::from(HEAD);
    for i in 0..n {
        let _ = writeln!(s, "// comment line {i}: a few words about the rules");
    }
    s.push_str(&declarations(1)[HEAD.len()..]);
    s
}

/// `source` written `k` times in one file: every declaration after the first copy is declared
/// again, so the checker reports each one.
#[must_use]
pub fn repeated(source: &str, k: usize) -> String {
    source.repeat(k)
}
