//! "Did you mean": the closest candidate by edit distance. Shared by every stage that names
//! things back to the user (the checker's names, options, agent specs).

/// The edit distance between two strings, counted in characters: insertions, deletions,
/// substitutions and swaps of two neighbouring characters (`szie` is one edit from `size`).
#[must_use]
pub fn levenshtein(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = prev[j] + usize::from(ca != cb);
            let mut best = substitute.min(prev[j + 1] + 1).min(cur[j] + 1);
            if i > 0 && j > 0 && *ca == b[j - 1] && a[i - 1] == *cb {
                best = best.min(before[j - 1] + 1);
            }
            cur[j + 1] = best;
        }
        std::mem::swap(&mut before, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate closest to `name`, if one is close enough to be a likely typo: at most a third
/// of the name's length away (at least 1), counting case-insensitively. Ties go to the
/// alphabetically first candidate, so the answer does not depend on the candidates' order.
#[must_use]
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::{closest, levenshtein};

    #[test]
    fn distances() {
        assert_eq!(levenshtein("reserv", "reserve"), 1);
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("abc", "abc"), 0);
        assert_eq!(levenshtein("szie", "size"), 1);
        assert_eq!(levenshtein("ab", "ba"), 1);
    }

    #[test]
    fn suggestions() {
        let names = ["reserve", "base", "variant", "Light"];
        assert_eq!(closest("reserv", names), Some("reserve"));
        assert_eq!(closest("light", names), Some("Light"));
        assert_eq!(closest("bse", names), Some("base"));
        assert_eq!(closest("whit", ["White", "Black"]), Some("White"));
        assert_eq!(closest("xyz", names), None);
        assert_eq!(closest("szie", ["size", "side"]), Some("size"));
        // Swapped letters are one slip, in short names too.
        assert_eq!(closest("pwan", ["pawn", "queen"]), Some("pawn"));
        assert_eq!(closest("ahaed", ["ahead", "ahead_diagonal"]), Some("ahead"));
    }
}
