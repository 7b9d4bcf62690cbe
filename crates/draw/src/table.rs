//! Pictures of a table game's match: the table from its declared length, width, walls and
//! lines, every stone as a disc of its declared radius at its simulated position, and the path
//! of the last shot. Drawn in the table's own units (the picture is scaled to `width`
//! pixels), `x` along the length to the right and `y` across it upwards.
//!
//! Each stone is one group whose `data-stone` attribute is its name and `data-index` its index
//! among the match's stones, placed by a `translate` of its centre, so that a page can tell
//! which stone a drag starts from and move it along an animation. Stones off the table are
//! there too, hidden (`display="none"`), for an animation of the shot that took them off.

use rulestone_ir::table::Axis;
use rulestone_runtime::table::TableMatch;

use crate::svg::{num, Svg, Val};
use crate::{player_colours, INK, LAST_COLOUR};

/// The margin around the table, in table units, as a share of its length.
const MARGIN: f64 = 0.03;
const CLOTH: &str = "#3d7a4f";
const WALL: &str = "#5b3a1e";
const CAPTURE_LINE: &str = "#d62828";

/// The match's table as SVG, `width` pixels wide; `path` is the last shot's path (the shot
/// stone's centres, in table units), drawn as a line.
#[must_use]
pub fn svg(m: &TableMatch<'_>, path: &[(f64, f64)], width: u32) -> String {
    let p = m.program;
    let (length, across) = (p.length.max(1.0), p.width.max(1.0));
    let margin = length * MARGIN;
    let up = |y: f64| across - y;
    let mut out = Svg::default();
    out.el(
        "rect",
        &[
            ("x", Val::N(0.0)),
            ("y", Val::N(0.0)),
            ("width", Val::N(length)),
            ("height", Val::N(across)),
            ("fill", Val::T(CLOTH)),
            ("class", Val::T("table")),
        ],
    );
    let thin = length / 400.0;
    let line = |out: &mut Svg, axis: Axis, at: f64, colour: &str, w: f64, dash: Option<&str>| {
        let (x1, y1, x2, y2) = match axis {
            Axis::X => (at, 0.0, at, across),
            Axis::Y => (0.0, up(at), length, up(at)),
        };
        let mut attrs = vec![
            ("x1", Val::N(x1)),
            ("y1", Val::N(y1)),
            ("x2", Val::N(x2)),
            ("y2", Val::N(y2)),
            ("stroke", Val::T(colour)),
            ("stroke-width", Val::N(w)),
        ];
        if let Some(d) = dash {
            attrs.push(("stroke-dasharray", Val::T(d)));
        }
        out.el("line", &attrs);
    };
    for l in &p.lines {
        let (colour, dash) = if l.capture.is_some() {
            (CAPTURE_LINE, None)
        } else {
            ("#e8e2d0", Some("1.5 1"))
        };
        line(&mut out, l.axis, l.at, colour, thin * 2.0, dash);
    }
    for (axis, at) in &p.walls {
        line(&mut out, *axis, *at, WALL, thin * 5.0, None);
    }
    out.el(
        "rect",
        &[
            ("x", Val::N(0.0)),
            ("y", Val::N(0.0)),
            ("width", Val::N(length)),
            ("height", Val::N(across)),
            ("fill", Val::T("none")),
            ("stroke", Val::T(WALL)),
            ("stroke-width", Val::N(thin * 6.0)),
        ],
    );
    if path.len() > 1 {
        let points: Vec<String> = path
            .iter()
            .map(|(x, y)| format!("{},{}", num(*x), num(up(*y))))
            .collect();
        out.el(
            "polyline",
            &[
                ("points", Val::T(&points.join(" "))),
                ("fill", Val::T("none")),
                ("stroke", Val::T(LAST_COLOUR)),
                ("stroke-width", Val::N(thin * 2.0)),
                ("stroke-dasharray", Val::T("2 1")),
                ("class", Val::T("path")),
            ],
        );
    }
    stones(&mut out, m, thin, across);
    let view = (
        -margin,
        -margin,
        length + 2.0 * margin,
        across + 2.0 * margin,
    );
    let w = f64::from(width);
    out.finish(w, w * view.3 / view.2, view)
}

/// Every stone as a group placed at its centre; stones off the table hidden.
fn stones(out: &mut Svg, m: &TableMatch<'_>, thin: f64, across: f64) {
    for (i, s) in m.position.stones.iter().enumerate() {
        let (fill, ink) = player_colours(s.owner);
        let name = m.stone_name(i);
        let place = format!("translate({} {})", num(s.disc.x), num(across - s.disc.y));
        let index = i.to_string();
        let mut attrs = vec![
            ("data-stone", Val::T(&name)),
            ("data-index", Val::T(&index)),
            ("transform", Val::T(&place)),
        ];
        if !s.disc.on_table {
            attrs.push(("display", Val::T("none")));
        }
        out.group(&attrs);
        let r = s.disc.radius.max(thin);
        out.el(
            "circle",
            &[
                ("cx", Val::N(0.0)),
                ("cy", Val::N(0.0)),
                ("r", Val::N(r)),
                ("fill", Val::T(fill)),
                ("stroke", Val::T(INK)),
                ("stroke-width", Val::N(thin * 1.5)),
            ],
        );
        out.text_el(
            "text",
            &[
                ("x", Val::N(0.0)),
                ("y", Val::N(r * 0.25)),
                ("font-size", Val::N(r * 0.7)),
                ("text-anchor", Val::T("middle")),
                ("fill", Val::T(ink)),
            ],
            &name,
        );
        out.end("g");
    }
}
