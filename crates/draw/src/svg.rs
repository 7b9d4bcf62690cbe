//! A small SVG element writer: every number in one fixed format, every text escaped, so the
//! same picture is the same bytes on every machine.

use std::fmt::Write as _;

/// A number with at most three decimals, trailing zeros and `-0` dropped.
#[must_use]
pub fn num(v: f64) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let mut s = format!("{v:.3}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" {
        s = "0".to_string();
    }
    s
}

/// Text escaped for SVG content and attribute values.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// An SVG document being written.
#[derive(Debug, Default)]
pub struct Svg {
    body: String,
}

/// An attribute value: a number or a text.
pub enum Val<'a> {
    N(f64),
    T(&'a str),
}

impl Svg {
    /// One empty element, `<name a="..."/>`.
    pub fn el(&mut self, name: &str, attrs: &[(&str, Val<'_>)]) {
        self.open(name, attrs);
        self.body.push_str("/>\n");
    }

    fn open(&mut self, name: &str, attrs: &[(&str, Val<'_>)]) {
        let _ = write!(self.body, "<{name}");
        for (k, v) in attrs {
            let v = match v {
                Val::N(n) => num(*n),
                Val::T(t) => escape(t),
            };
            let _ = write!(self.body, " {k}=\"{v}\"");
        }
    }

    /// An element with text content.
    pub fn text_el(&mut self, name: &str, attrs: &[(&str, Val<'_>)], text: &str) {
        self.open(name, attrs);
        let _ = writeln!(self.body, ">{}</{name}>", escape(text));
    }

    /// Opens a group; [`Svg::end`] closes it.
    pub fn group(&mut self, attrs: &[(&str, Val<'_>)]) {
        self.open("g", attrs);
        self.body.push_str(">\n");
    }

    pub fn end(&mut self, name: &str) {
        let _ = writeln!(self.body, "</{name}>");
    }

    /// The document: `width` by `height` pixels showing the `view` box.
    #[must_use]
    pub fn finish(self, width: f64, height: f64, view: (f64, f64, f64, f64)) -> String {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\" font-family=\"DejaVu Sans, sans-serif\">\n{}</svg>\n",
            num(width),
            num(height),
            num(view.0),
            num(view.1),
            num(view.2),
            num(view.3),
            self.body
        )
    }
}

/// Points as an SVG `points` list.
#[must_use]
pub fn points(ps: &[(f64, f64)]) -> String {
    ps.iter()
        .map(|(x, y)| format!("{},{}", num(*x), num(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_fixed() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(num(0.86602540), "0.866");
        assert_eq!(num(f64::NAN), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
