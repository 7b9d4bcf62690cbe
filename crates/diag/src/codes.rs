//! The registry of diagnostic codes. A code is never reused or deleted; a code that is no longer
//! emitted stays here, marked so in its explanation.

/// One stable code: its short title and its long explanation (markdown: what, why, a bad
/// example, a fixed example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    pub code: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
}

macro_rules! codes {
    ($($code:literal => $title:literal,)*) => {
        /// Every code, in order.
        pub const CODES: &[CodeInfo] = &[
            $(CodeInfo {
                code: $code,
                title: $title,
                explanation: include_str!(concat!("explain/", $code, ".md")),
            },)*
        ];
    };
}

codes! {
    "E0001" => "syntax error",
    "E0002" => "integer literal too large",
    "E0003" => "unknown escape in a string",
    "E0004" => "unclosed delimiter",
    "E0005" => "nesting too deep",
    "E0006" => "not a game file",
    "E0007" => "defines expand too far",
    "E0008" => "decimal number cannot be represented",
    "E0101" => "unknown name",
    "E0102" => "name defined more than once",
    "E0103" => "variable or axis not bound here",
    "E0104" => "wrong kind of name",
    "E0105" => "definition refers to itself",
    "E0201" => "mismatched types",
    "E0202" => "wrong number of arguments",
    "E0203" => "vector length does not match the axes",
    "E0204" => "counter indexed wrongly",
    "E0205" => "`if` expression that is not a number",
    "E0301" => "option default outside its type",
    "E0302" => "empty option range or repeated option word",
    "E0303" => "unknown option or preset",
    "E0304" => "option value outside its type",
    "E0401" => "board without cells",
    "E0402" => "two cells with the same name",
    "E0403" => "too many cells",
    "E0404" => "value must be constant",
    "W0405" => "empty zone",
    "W0406" => "direction the board's topology lacks",
    "E0407" => "cell ranges do not match the axes",
    "E0408" => "board or zone cannot be computed",
    "W0409" => "pattern fits nowhere on the board",
    "E0410" => "cell on two lanes of a track",
    "E0411" => "cell missing for some option values",
    "E0419" => "map sends two cells to one",
    "E0420" => "`;` or a control character in a cell name or a move's notation",
    "E0501" => "not exactly two players",
    "E0502" => "missing or repeated declaration",
    "E0503" => "game can never end",
    "W0504" => "unreachable statement",
    "E0505" => "repeat range runs nothing",
    "E0506" => "choice or require outside `turn`",
    "W0507" => "heuristic that ignores its player",
    "W0508" => "owner of a cell the turn has emptied",
    "E0509" => "name bound in a procedure",
    "E0520" => "`repetitions` outside `turn`",
    "E0521" => "`repetitions` in a turn with `again`",
    "W0522" => "`repetitions ignore` in a game that never reads `repetitions`",
    "W0601" => "unused declaration",
    "W0602" => "turn that writes no notation",
    "W0606" => "intersection of board sets that share no cell",
    "W0607" => "two legal moves written the same in play",
    "W0608" => "`where` condition tested on every cell that could be a lookup",
    "E0701" => "empty span in a shape",
    "E0702" => "cell listed twice in a shape",
    "E0703" => "foot outside its shape",
    "E0704" => "`place` on a board without two axes",
    "E0801" => "roll range without values",
    "E0802" => "arithmetic on a variable",
    "E0901" => "not an axis of the table",
    "E0902" => "value must be greater than 0",
    "E0903" => "wrong kind of name in a table game",
    "E0904" => "basic shot without a speed",
    "E0905" => "turn that never shoots",
    "E0906" => "quantity that is not a player's",
    "E0907" => "tie rule without an `after` rule",
    "E0911" => "unknown card, faction or stone kind",
    "E0912" => "entry repeated in an army",
    "E0913" => "card outside the army's factions",
    "E0914" => "number of stones outside the army rules",
    "E0915" => "stones of a kind outside the army rules",
    "E0916" => "number of cards outside the army rules",
    "E0917" => "copies of a card outside the army rules",
    "E0918" => "stone kind without a card",
    "E0919" => "number of factions outside the army rules",
    "E0920" => "players' armies share a faction",
    "E0999" => "internal error",
    "E1001" => "too many picked cells in a turn",
    "E1002" => "too many `let` sets",
    "E1003" => "too many `place` variables",
    "E1004" => "repeat runs too often",
    "E1005" => "table too large",
    "E1006" => "`while` that never ends",
    "E1007" => "a move needs too many decisions",
    "E1008" => "move generation took too many steps",
    "E1009" => "nested loops past the step limit",
    "E1010" => "two legal moves written the same",
    "E1011" => "too many option combinations or presets",
}

/// Codes that no valid input should reach (bugs in Rulestone): they have an explanation but no
/// UI fixture can show them.
pub const INTERNAL: &[&str] = &["E0999"];

/// The registry entry for a code, ignoring case (`e0101` finds `E0101`).
#[must_use]
pub fn explain(code: &str) -> Option<&'static CodeInfo> {
    let code = code.trim();
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}

#[cfg(test)]
mod tests {
    use super::{explain, CODES};

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(explain("e0101").map(|c| c.code), Some("E0101"));
        assert_eq!(explain(" W0601 ").map(|c| c.code), Some("W0601"));
        assert!(explain("E9999").is_none());
    }

    #[test]
    fn codes_are_sorted_and_unique() {
        let numbers: Vec<&str> = CODES.iter().map(|c| &c.code[1..]).collect();
        let mut sorted = numbers.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(numbers, sorted);
    }
}
