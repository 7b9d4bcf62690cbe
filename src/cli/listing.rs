//! Long move lists made readable: a filter by prefix, and groups by first parts.
//!
//! A move's *parts* are its runs of letters and digits (`m4 c6>b5:NE` has `m4`, `c6`, `b5`,
//! `NE`). Moves are grouped by their first `k` parts, with the smallest `k` that splits the list
//! into more than one group, so that a list where every move starts alike (`m4 ...`) is grouped
//! by what comes next.

/// Lists longer than this are shown as groups by `play`'s `moves`.
pub(crate) const GROUP_ABOVE: usize = 60;

/// The moves whose notation starts with `prefix`, ignoring letter case and runs of spaces.
pub(crate) fn starting_with<'a>(moves: &'a [String], prefix: &str) -> Vec<&'a String> {
    let prefix = squeeze(prefix).to_lowercase();
    moves
        .iter()
        .filter(|m| squeeze(m).to_lowercase().starts_with(&prefix))
        .collect()
}

/// The groups of `moves` (in order of first appearance), each with its common start and its
/// number of moves; one group when nothing splits the list.
pub(crate) fn groups(moves: &[String]) -> Vec<(String, usize)> {
    let most_parts = moves.iter().map(|m| part_ends(m).len()).max().unwrap_or(0);
    let mut found = Vec::new();
    for k in 1..=most_parts {
        found = group_by(moves, k);
        if found.len() > 1 {
            break;
        }
    }
    found
}

/// `moves` grouped by the text up to the end of their `k`-th part.
fn group_by(moves: &[String], k: usize) -> Vec<(String, usize)> {
    let mut groups: Vec<(String, usize)> = Vec::new();
    for m in moves {
        let ends = part_ends(m);
        let end = ends.get(k - 1).or(ends.last()).copied().unwrap_or(m.len());
        let key = &m[..end];
        match groups.iter_mut().find(|(g, _)| g == key) {
            Some((_, n)) => *n += 1,
            None => groups.push((key.to_string(), 1)),
        }
    }
    groups
}

/// The byte offsets where each run of letters and digits of `text` ends.
fn part_ends(text: &str) -> Vec<usize> {
    let mut ends = Vec::new();
    let mut inside = false;
    for (i, c) in text.char_indices() {
        let word = c.is_alphanumeric();
        if inside && !word {
            ends.push(i);
        }
        inside = word;
    }
    if inside {
        ends.push(text.len());
    }
    ends
}

/// Runs of whitespace as one space, trimmed.
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The groups as lines: `m4 c6  (97 moves)`.
pub(crate) fn groups_text(groups: &[(String, usize)]) -> String {
    let width = groups.iter().map(|(g, _)| g.len()).max().unwrap_or(0);
    groups
        .iter()
        .map(|(g, n)| format!("{g:<width$}  ({})\n", super::plural(*n, "move")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(moves: &[&str]) -> Vec<String> {
        moves.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn groups_split_at_the_first_part_that_differs() {
        let moves = list(&["m4 c6>b5:NE", "m4 c6>c6:NW", "m4 d6>d5:W", "m5 c6>b5:NE"]);
        assert_eq!(groups(&moves), [("m4".into(), 3), ("m5".into(), 1)]);
        let same_start = list(&["m4 c6>b5:NE", "m4 c6>c6:NW", "m4 d6>d5:W"]);
        assert_eq!(
            groups(&same_start),
            [("m4 c6".into(), 2), ("m4 d6".into(), 1)]
        );
        assert_eq!(groups(&list(&["a1"])), [("a1".into(), 1)]);
        assert!(groups(&[]).is_empty());
    }

    #[test]
    fn the_filter_ignores_case_and_spaces() {
        let moves = list(&["Block z1 n", "block a2 s", "Move a1"]);
        assert_eq!(starting_with(&moves, "block").len(), 2);
        assert_eq!(starting_with(&moves, "BLOCK  A2").len(), 1);
        assert!(starting_with(&moves, "x").is_empty());
    }
}
