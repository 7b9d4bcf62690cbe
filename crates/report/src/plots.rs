//! The report's plots as SVG text, drawn with plotters' SVG backend: text is left to the
//! browser's fonts, so nothing here needs a font library.
//!
//! Invariant: each function returns one `<svg>` element, without the `xmlns` attribute (an
//! SVG inside HTML needs none), so that the page holds no address at all.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use rulestone_agents::analysis::{PlayStats, Proportion};

use crate::{clip, Report, VariantReport};

type Drawn<T> = std::result::Result<T, String>;

/// The area one plot draws on.
type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Which games a panel shows.
pub(crate) type Pick = fn(&VariantReport) -> &PlayStats;

/// A share of games: the first player's wins, the second's, draws, games stopped by the limit.
type Share = fn(&PlayStats) -> Proportion;

const FIRST: RGBColor = RGBColor(31, 119, 180);
const SECOND: RGBColor = RGBColor(255, 127, 14);
const DRAWN: RGBColor = RGBColor(127, 127, 127);
/// Games stopped by the step limit: neither won nor drawn.
const LIMIT: RGBColor = RGBColor(214, 39, 40);
const RANDOM: RGBColor = RGBColor(170, 170, 170);
const AGENT: RGBColor = RGBColor(31, 119, 180);

/// Lines of the variants, in order (Tableau 10), repeated beyond ten.
const VARIANT_COLOURS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Variants named on the x axis by their labels up to this many, by their numbers beyond.
const NAMED_TICKS: usize = 6;

/// Legends list the variants up to this many.
const LEGEND_ENTRIES: usize = 12;

/// Sizes of a panel's heading: its title, then rows of legend entries.
const TITLE_SIZE: u32 = 20;
const LEGEND_SIZE: u32 = 14;
const LEGEND_ROW: i32 = 20;

const FONT: &str = "sans-serif";

/// The size of a panel of win rates, skill or branching.
const PANEL_WIDTH: u32 = 560;
const PANEL_HEIGHT: u32 = 350;

fn fail(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// Draws on a white SVG canvas of `size` and returns the `<svg>` element.
fn svg(size: (u32, u32), draw: impl FnOnce(&Area<'_>) -> Drawn<()>) -> Drawn<String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(fail)?;
        draw(&root)?;
        root.present().map_err(fail)?;
    }
    Ok(text.replace(" xmlns=\"http://www.w3.org/2000/svg\"", ""))
}

fn colour_of(variant: usize) -> RGBColor {
    VARIANT_COLOURS[variant % VARIANT_COLOURS.len()]
}

/// Variant `i` on an x axis: its label in a small grid, its number (as in the tables) in a
/// large one.
fn tick(report: &Report, x: f64) -> String {
    if x < -0.25 || (x - x.round()).abs() > 0.25 {
        return String::new();
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let i = x.round() as usize;
    match report.variants.get(i) {
        Some(v) if report.variants.len() <= NAMED_TICKS => clip(&v.label, 22),
        Some(_) => format!("{}", i + 1),
        None => String::new(),
    }
}

#[allow(clippy::cast_precision_loss)]
fn as_x(i: usize) -> f64 {
    i as f64
}

/// How a legend entry shows its series.
#[derive(Clone, Copy, Debug)]
enum Mark {
    Dot,
    Line,
    Dashed,
    Square,
}

/// One entry of a legend.
struct Entry {
    name: String,
    colour: RGBColor,
    mark: Mark,
}

fn entry(name: impl Into<String>, colour: RGBColor, mark: Mark) -> Entry {
    Entry {
        name: name.into(),
        colour,
        mark,
    }
}

/// Each entry's place in a legend `width` pixels wide, as (x, row), entries side by side
/// and wrapped. Text widths are estimated (the browser picks the font).
fn legend_layout(entries: &[Entry], width: i32) -> Vec<(i32, i32)> {
    let (mut x, mut row) = (12, 0);
    entries
        .iter()
        .map(|e| {
            let chars = i32::try_from(e.name.chars().count()).unwrap_or(40);
            let wide = 22 + chars * 7 + 18;
            if x + wide > width && x > 12 {
                (x, row) = (12, row + 1);
            }
            let place = (x, row);
            x += wide;
            place
        })
        .collect()
}

/// Draws a panel's title and its legend (above the chart, where it hides no data) at the
/// top of `area`, and returns the area left for the chart.
fn heading<'b>(area: &Area<'b>, title: &str, entries: &[Entry]) -> Drawn<Area<'b>> {
    let width = i32::try_from(area.dim_in_pixel().0).unwrap_or(i32::MAX);
    let places = legend_layout(entries, width);
    let rows = places.last().map_or(0, |p| p.1 + 1);
    let top = 10 + i32::try_from(TITLE_SIZE).unwrap_or(20) + 6;
    let (head, rest) = area.split_vertically(top + rows * LEGEND_ROW + 4);
    let title_style = TextStyle::from((FONT, TITLE_SIZE).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Top));
    head.draw(&Text::new(title.to_string(), (width / 2, 8), title_style))
        .map_err(fail)?;
    for (e, (x, row)) in entries.iter().zip(places) {
        let y = top + row * LEGEND_ROW + LEGEND_ROW / 2;
        mark(&head, e, (x, y))?;
        let style = TextStyle::from((FONT, LEGEND_SIZE).into_font())
            .color(&BLACK)
            .pos(Pos::new(HPos::Left, VPos::Center));
        head.draw(&Text::new(e.name.clone(), (x + 22, y), style))
            .map_err(fail)?;
    }
    Ok(rest)
}

/// A legend entry's marker, centred vertically on `y`, 16 pixels wide from `x`.
fn mark(area: &Area<'_>, e: &Entry, (x, y): (i32, i32)) -> Drawn<()> {
    let c = e.colour;
    match e.mark {
        Mark::Dot => area.draw(&Circle::new((x + 8, y), 5, c.filled())),
        Mark::Square => area.draw(&Rectangle::new(
            [(x + 2, y - 6), (x + 14, y + 6)],
            c.filled(),
        )),
        Mark::Line => area.draw(&PathElement::new([(x, y), (x + 16, y)], c.stroke_width(2))),
        Mark::Dashed => area
            .draw(&PathElement::new([(x, y), (x + 5, y)], c.stroke_width(1)))
            .and_then(|()| {
                area.draw(&PathElement::new(
                    [(x + 10, y), (x + 16, y)],
                    c.stroke_width(1),
                ))
            }),
    }
    .map_err(fail)
}

/// A tick that only whole numbers get.
fn whole_tick(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{x:.0}")
    } else {
        String::new()
    }
}

/// A tick value: whole numbers without decimals.
fn tick_value(y: f64) -> String {
    if (y - y.round()).abs() < 1e-9 {
        format!("{y:.0}")
    } else {
        format!("{y:.1}")
    }
}

/// Win rates by seat with 95% intervals, one panel per kind of play.
pub(crate) fn win_rates(report: &Report, panels: &[(&str, Pick)]) -> Drawn<String> {
    let width = PANEL_WIDTH * u32::try_from(panels.len()).unwrap_or(1);
    svg((width, PANEL_HEIGHT), |root| {
        let areas = root.split_evenly((1, panels.len().max(1)));
        for (area, (title, pick)) in areas.iter().zip(panels) {
            win_panel(area, title, report, *pick)?;
        }
        Ok(())
    })
}

fn win_panel(area: &Area<'_>, title: &str, report: &Report, pick: Pick) -> Drawn<()> {
    let seats: [(String, RGBColor, Share); 4] = [
        (format!("{} (1st) wins", report.players[0]), FIRST, |s| {
            s.first_wins
        }),
        (format!("{} (2nd) wins", report.players[1]), SECOND, |s| {
            s.second_wins
        }),
        ("draws".to_string(), DRAWN, |s| s.draws),
        ("stopped by the limit".to_string(), LIMIT, |s| s.step_limit),
    ];
    let entries: Vec<Entry> = seats
        .iter()
        .map(|(name, colour, _)| entry(clip(name, 24), *colour, Mark::Dot))
        .collect();
    let area = heading(area, title, &entries)?;
    let mut chart = variant_chart(&area, report, "% of games")?;
    for (k, (_, colour, share)) in seats.into_iter().enumerate() {
        let offset = (as_x(k) - 1.5) * 0.15;
        chart
            .draw_series(report.variants.iter().enumerate().map(|(i, v)| {
                let p = share(pick(v));
                ErrorBar::new_vertical(
                    as_x(i) + offset,
                    p.low * 100.0,
                    p.rate * 100.0,
                    p.high * 100.0,
                    colour.filled().stroke_width(2),
                    10,
                )
            }))
            .map_err(fail)?;
    }
    Ok(())
}

/// The stronger agent's score against the agent, with 95% intervals and the even line.
pub(crate) fn skill(report: &Report) -> Drawn<String> {
    svg((PANEL_WIDTH, PANEL_HEIGHT), |root| {
        let title = format!("{} against {}", report.stronger, report.agent);
        let entries = [
            entry("stronger agent's score", FIRST, Mark::Dot),
            entry("even: more budget makes no difference", DRAWN, Mark::Dashed),
            entry("games stopped by the step limit", LIMIT, Mark::Square),
        ];
        let area = heading(root, &clip(&title, 50), &entries)?;
        let mut chart = variant_chart(&area, report, "stronger's score, %")?;
        let n = as_x(report.variants.len());
        chart
            .draw_series(DashedLineSeries::new(
                [(-0.5, 50.0), (n - 0.5, 50.0)],
                5,
                5,
                DRAWN.stroke_width(1),
            ))
            .map_err(fail)?;
        chart
            .draw_series(report.variants.iter().enumerate().map(|(i, v)| {
                let s = v.stats.skill.score;
                ErrorBar::new_vertical(
                    as_x(i),
                    s.low * 100.0,
                    s.rate * 100.0,
                    s.high * 100.0,
                    FIRST.filled().stroke_width(2),
                    10,
                )
            }))
            .map_err(fail)?;
        chart
            .draw_series(report.variants.iter().enumerate().map(|(i, v)| {
                let skill = &v.stats.skill;
                let stopped = f64::from(skill.step_limit) / f64::from(skill.games.max(1));
                let (x, y) = (as_x(i) + 0.12, stopped * 100.0);
                Rectangle::new([(x - 0.03, y - 1.2), (x + 0.03, y + 1.2)], LIMIT.filled())
            }))
            .map_err(fail)?;
        Ok(())
    })
}

type VariantChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A chart with one tick per variant on x and 0–100% on y.
fn variant_chart<'a, 'b>(
    area: &'a Area<'b>,
    report: &Report,
    y_desc: &str,
) -> Drawn<VariantChart<'a, 'b>> {
    let n = report.variants.len();
    let mut chart = ChartBuilder::on(area)
        .margin(14)
        .margin_top(4)
        .x_label_area_size(34)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5..as_x(n) - 0.5, 0.0..100.0)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        // One more label than variants: plotters then puts them on the whole numbers.
        .x_labels(n + 1)
        .x_label_formatter(&|x| tick(report, *x))
        .y_label_formatter(&|y| tick_value(*y))
        .y_desc(y_desc)
        .light_line_style(TRANSPARENT)
        .label_style((FONT, 15))
        .draw()
        .map_err(fail)?;
    Ok(chart)
}

/// Histograms of game length, one panel per variant: random play and self-play side by side
/// in each bin, as shares of their games.
pub(crate) fn lengths(report: &Report) -> Drawn<String> {
    let n = report.variants.len().max(1);
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let size = (
        370 * u32::try_from(cols).unwrap_or(3),
        290 * u32::try_from(rows).unwrap_or(1),
    );
    svg(size, |root| {
        let areas = root.split_evenly((rows, cols));
        for (i, (area, v)) in areas.iter().zip(&report.variants).enumerate() {
            length_panel(area, &format!("{}. {}", i + 1, clip(&v.label, 30)), v)?;
        }
        Ok(())
    })
}

fn length_panel(area: &Area<'_>, title: &str, v: &VariantReport) -> Drawn<()> {
    let series = [
        ("random play", RANDOM, &v.stats.random),
        ("self-play", AGENT, &v.stats.self_play),
    ];
    let bars: Vec<Vec<(f64, f64)>> = series.iter().map(|(_, _, s)| shares(s)).collect();
    let top = bars.iter().flatten().map(|b| b.1).fold(1.0f64, f64::max) * 1.1;
    let width = f64::from(v.stats.random.length.histogram.bin_width.max(1));
    let from = bars.iter().flatten().map(|b| b.0).fold(f64::MAX, f64::min);
    let to = bars.iter().flatten().map(|b| b.0).fold(0.0f64, f64::max) + width;
    let from = if from > to { 0.0 } else { from };
    let entries: Vec<Entry> = series
        .iter()
        .map(|(name, colour, _)| entry(*name, *colour, Mark::Square))
        .collect();
    // At most ten labels, on bin edges: plotters puts them on whole steps of the bin width.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let labels = (((to - from) / width) as usize + 1).min(10);
    let area = heading(area, title, &entries)?;
    let mut chart = ChartBuilder::on(&area)
        .margin(8)
        .margin_top(2)
        .x_label_area_size(34)
        .y_label_area_size(44)
        .build_cartesian_2d(from..to, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("decisions per game")
        .x_labels(labels)
        .x_label_formatter(&|x| whole_tick(*x))
        .y_label_formatter(&|y| format!("{}%", tick_value(*y)))
        .light_line_style(TRANSPARENT)
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 12))
        .draw()
        .map_err(fail)?;
    for (k, ((_, colour, _), bars)) in series.iter().zip(bars).enumerate() {
        let half = width / 2.0;
        let left = as_x(k) * half;
        chart
            .draw_series(
                bars.into_iter()
                    .filter(|b| b.1 > 0.0)
                    .map(|(start, share)| {
                        Rectangle::new(
                            [(start + left, 0.0), (start + left + half, share)],
                            colour.filled(),
                        )
                    }),
            )
            .map_err(fail)?;
    }
    Ok(())
}

/// Each non-empty histogram bin's start and its share of the games, in %.
fn shares(stats: &PlayStats) -> Vec<(f64, f64)> {
    let h = &stats.length.histogram;
    let games = f64::from(stats.games.max(1));
    h.counts
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(i, c)| {
            (
                as_x(i) * f64::from(h.bin_width),
                f64::from(*c) * 100.0 / games,
            )
        })
        .collect()
}

/// Mean decisions listed at each ply, one line per variant, one panel per kind of play. A
/// ply is drawn while at least half of the games reached it: the typical game, without the
/// noisy tail of a few long ones.
pub(crate) fn branching(report: &Report, panels: &[(&str, Pick)]) -> Drawn<String> {
    let width = PANEL_WIDTH * u32::try_from(panels.len()).unwrap_or(1);
    svg((width, PANEL_HEIGHT), |root| {
        let areas = root.split_evenly((1, panels.len().max(1)));
        for (area, (title, pick)) in areas.iter().zip(panels) {
            branching_panel(area, title, report, *pick)?;
        }
        Ok(())
    })
}

fn branching_panel(area: &Area<'_>, title: &str, report: &Report, pick: Pick) -> Drawn<()> {
    let lines: Vec<Vec<(f64, f64)>> = report.variants.iter().map(|v| plies(pick(v))).collect();
    let last = lines.iter().flatten().map(|p| p.0).fold(2.0f64, f64::max);
    let top = lines.iter().flatten().map(|p| p.1).fold(1.0f64, f64::max) * 1.1;
    let entries: Vec<Entry> = if report.variants.len() <= LEGEND_ENTRIES {
        report
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                entry(
                    format!("{}. {}", i + 1, clip(&v.label, 24)),
                    colour_of(i),
                    Mark::Line,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let area = heading(area, title, &entries)?;
    let mut chart = ChartBuilder::on(&area)
        .margin(14)
        .margin_top(4)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(1.0..last, 0.0..top)
        .map_err(fail)?;
    chart
        .configure_mesh()
        .x_desc("ply (a player's turn)")
        .y_desc("decisions listed")
        .x_label_formatter(&|x| tick_value(*x))
        .y_label_formatter(&|y| tick_value(*y))
        .light_line_style(TRANSPARENT)
        .label_style((FONT, 15))
        .draw()
        .map_err(fail)?;
    for (i, line) in lines.into_iter().enumerate() {
        let colour = colour_of(i);
        chart
            .draw_series(LineSeries::new(line, colour.stroke_width(2)).point_size(2))
            .map_err(fail)?;
    }
    Ok(())
}

/// The plies half of the games reached, with their mean branching.
fn plies(stats: &PlayStats) -> Vec<(f64, f64)> {
    let needed = stats.games.div_ceil(2).max(1);
    stats
        .branching
        .by_ply
        .iter()
        .take_while(|p| p.games >= needed)
        .map(|p| (f64::from(p.ply), p.mean))
        .collect()
}
