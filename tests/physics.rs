//! Recorded trajectories of the disc simulation, snapshotted in `snapshots/physics/`, so a
//! change to the model shows up as a reviewable diff of positions and events.

use std::fmt::Write;

use rulestone::runtime::physics::{
    shot_velocity, simulate, Axis, Disc, Frame, Line, Params, Table, Wall,
};

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({
        snapshot_path => "../snapshots/physics",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

/// A 120 x 60 table with walls along both long sides and capture lines near both ends.
fn table() -> Table {
    Table {
        width: 120.0,
        height: 60.0,
        walls: [0.0, 60.0].map(|at| Wall { axis: Axis::Y, at }).to_vec(),
        lines: [10.0, 110.0]
            .map(|at| Line {
                axis: Axis::X,
                at,
                removes: true,
                only: None,
            })
            .to_vec(),
    }
}

fn params() -> Params {
    Params {
        friction: 20.0,
        disc_restitution: 0.9,
        wall_restitution: 0.6,
        wall_jump_speed: 40.0,
        time_step: 1.0 / 240.0,
        max_time: 60.0,
    }
}

fn disc(x: f64, y: f64, radius: f64, (vx, vy): (f64, f64)) -> Disc {
    Disc {
        x,
        y,
        vx,
        vy,
        radius,
        mass: radius * radius,
        on_table: true,
    }
}

/// Simulates with a frame every 0.1 s and renders the events, then the frames.
fn record(mut discs: Vec<Disc>) -> String {
    let mut frames: Vec<Frame> = Vec::new();
    let outcome = simulate(&table(), &params(), &mut discs, Some((&mut frames, 24)));
    let mut text = format!("steps: {}\n", outcome.steps);
    for event in &outcome.events {
        let _ = writeln!(text, "event: {event:?}");
    }
    for frame in &frames {
        let _ = write!(text, "{:>4}:", frame.step);
        for (x, y) in &frame.positions {
            let _ = write!(text, " ({x:.3}, {y:.3})");
        }
        text.push('\n');
    }
    for (i, d) in discs.iter().enumerate() {
        let _ = writeln!(text, "disc {i}: on_table {}", d.on_table);
    }
    text
}

#[test]
fn straight_shot() {
    let text = record(vec![disc(20.0, 30.0, 3.0, shot_velocity(0.0, 50.0))]);
    snapshot("straight_shot", &text);
}

#[test]
fn collision() {
    let text = record(vec![
        disc(20.0, 30.0, 3.0, shot_velocity(2.0, 60.0)),
        disc(50.0, 31.0, 2.5, (0.0, 0.0)),
    ]);
    snapshot("collision", &text);
}

#[test]
fn bank_off_a_wall() {
    let text = record(vec![disc(30.0, 20.0, 2.5, shot_velocity(-45.0, 45.0))]);
    snapshot("bank_off_a_wall", &text);
}

#[test]
fn wall_jump() {
    let text = record(vec![disc(40.0, 15.0, 2.0, shot_velocity(-70.0, 70.0))]);
    snapshot("wall_jump", &text);
}

#[test]
fn crossing_capture() {
    let text = record(vec![disc(80.0, 30.0, 2.0, shot_velocity(0.0, 70.0))]);
    snapshot("crossing_capture", &text);
}
