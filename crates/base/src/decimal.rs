//! Decimal numbers as the language writes them and every stage computes with them.

/// Decimal numbers (`7.5`, decimal options) are kept as whole hundredths: the runtime computes
/// with integers only, so a decimal is exact and compares, adds and hashes like an integer.
pub const DECIMAL_SCALE: i64 = 100;

/// The value in hundredths of a decimal number's text (`7.5`, `-3`, `0.25`): `None` for more
/// than two decimal places, a value whose hundredths do not fit in 32 bits, or no number.
#[must_use]
pub fn parse_hundredths(text: &str) -> Option<i64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let magnitude = whole.strip_prefix('-').unwrap_or(whole);
    let frac_ok = frac.is_empty() && !text.ends_with('.') || digits(frac);
    if !digits(magnitude) || !frac_ok || frac.len() > 2 {
        return None;
    }
    let frac = format!("{frac:0<2}").parse::<i64>().ok()?;
    let v = magnitude
        .parse::<i64>()
        .ok()?
        .checked_mul(DECIMAL_SCALE)?
        .checked_add(frac)?;
    let v = if whole.starts_with('-') { -v } else { v };
    i32::try_from(v).is_ok().then_some(v)
}

/// A number as text: an integer, or, when `decimal`, a value in hundredths as a decimal
/// number (`750` is `7.5`).
#[must_use]
pub fn number_text(value: i64, decimal: bool) -> String {
    if decimal {
        decimal_text(value)
    } else {
        value.to_string()
    }
}

/// The text of a value in hundredths as a decimal number: `750` is `7.5`, `-25` is `-0.25`.
#[must_use]
pub fn decimal_text(hundredths: i64) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let v = hundredths.unsigned_abs();
    let scale = DECIMAL_SCALE.unsigned_abs();
    let (whole, frac) = (v / scale, v % scale);
    match frac {
        0 => format!("{sign}{whole}.0"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}
