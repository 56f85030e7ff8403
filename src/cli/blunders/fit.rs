//! `millbase blunders fit`: fit the evaluation's weights to a judge's exact values
//! (millbase::engine::fit), and print the fit next to the engine's weights.

use super::{JudgedPositions, Judging};
use crate::cli::CliError;
use crate::cli::common::{emit, whole};
use clap::Args;
use millbase::engine::eval::{FEATURE_NAMES, FEATURES, HAND_SET, WEIGHTS, Weights};
use millbase::engine::fit::{Sample, Skip, best_scale, fit, sample_of, to_weights};
use std::fmt::Write as _;

/// Arguments of `millbase blunders fit`.
#[derive(Debug, Args)]
pub(super) struct FitArgs {
    #[command(flatten)]
    input: JudgedPositions,
    /// Moving-phase positions with fewer stones on the board are left out: the engine's
    /// tables answer there, the evaluation never does (the default set has at most 10).
    #[arg(long, value_name = "N", default_value_t = 11, value_parser = whole::<u32>(), allow_negative_numbers = true)]
    min_moving_stones: u32,
    /// Ridge: this times the squared log-odds weights is added to the loss.
    #[arg(long, value_name = "X", default_value_t = 1e-3)]
    ridge: f64,
    /// Every Nth sample is held out of the fit and validates it.
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = whole::<usize>(), allow_negative_numbers = true)]
    holdout: usize,
}

/// `millbase blunders fit`.
pub(super) fn run_fit(args: &FitArgs) -> Result<(), CliError> {
    if !(args.ridge >= 0.0 && args.ridge.is_finite()) {
        return Err(CliError::usage("--ridge must be a number of at least 0"));
    }
    if args.holdout < 2 {
        return Err(CliError::usage("--holdout must be at least 2"));
    }
    let Judging { games, judge, .. } = args.input.open()?;
    let (mut train, mut check) = (Vec::new(), Vec::new());
    let (mut not_quiet, mut unjudged, mut in_tables) = (0, 0, 0);
    for (_, _, game) in &games {
        let pos = game.position();
        let on_board = pos.stones[0].count_ones() + pos.stones[1].count_ones();
        if pos.in_hand == [0, 0] && on_board < args.min_moving_stones {
            in_tables += 1;
            continue;
        }
        match sample_of(&judge, game) {
            Ok(s) => {
                if (train.len() + check.len() + 1) % args.holdout == 0 {
                    check.push(s);
                } else {
                    train.push(s);
                }
            }
            Err(Skip::NotQuiet) => not_quiet += 1,
            Err(Skip::Unjudged) => unjudged += 1,
            Err(Skip::NotAPlainTurn) => {}
        }
    }
    if train.is_empty() || check.is_empty() {
        return Err(CliError::usage(format!(
            "{}: no quiet positions the judge values (too few positions?)",
            args.input.positions.display()
        )));
    }
    let logit = fit(&train, args.ridge);
    let Some(fitted) = to_weights(&logit, 0) else {
        return Err(CliError::usage(
            "the fit gives material no positive weight in the moving phase (too few moving-phase positions?)",
        ));
    };
    let mut t = format!(
        "eval fit: {} positions of {}; judge {}\n\
         samples: {} fitted, {} held out (every {}th); left out: {} not quiet, {} unjudged, {} in the engine's tables\n",
        games.len(),
        args.input.positions.display(),
        args.input.judge.display(),
        train.len(),
        check.len(),
        args.holdout,
        not_quiet,
        unjudged,
        in_tables
    );
    let counts = |placing: bool| {
        let of = || {
            check
                .iter()
                .chain(&train)
                .filter(move |s| s.placing == placing)
        };
        let won = of().filter(|s| s.score == 1.0).count();
        let lost = of().filter(|s| s.score == 0.0).count();
        (of().count(), won, lost)
    };
    for (name, placing) in [("placing", true), ("moving", false)] {
        let (n, won, lost) = counts(placing);
        let _ = writeln!(
            t,
            "  {name}: {n} ({won} won, {} drawn, {lost} lost for the side to move)",
            n - won - lost
        );
    }
    let _ = writeln!(
        t,
        "\nheld-out loss (mean cross-entropy at each weights' best scale; 0.693 = a coin):"
    );
    let _ = writeln!(
        t,
        "{:<16} {:>8} {:>8} {:>8}  scale (log-odds per stone)",
        "weights", "all", "placing", "moving"
    );
    let phase = |placing: bool| -> Vec<Sample> {
        check
            .iter()
            .filter(|s| s.placing == placing)
            .copied()
            .collect()
    };
    let (placing, moving) = (phase(true), phase(false));
    for (name, w) in [
        ("hand-set", &HAND_SET),
        ("engine", &WEIGHTS),
        ("fitted", &fitted),
    ] {
        let (k, all) = best_scale(&check, w);
        let _ = writeln!(
            t,
            "{:<16} {:>8.4} {:>8.4} {:>8.4}  {:.3}",
            name,
            all,
            millbase::engine::fit::loss(&placing, w, k),
            millbase::engine::fit::loss(&moving, w, k),
            k * 100.0
        );
    }
    let _ = writeln!(
        t,
        "\n{:<22} {:>8} {:>8} {:>8} {:>8}",
        "term", "placing", "moving", "engine-p", "engine-m"
    );
    for (i, name) in FEATURE_NAMES.iter().enumerate() {
        let _ = writeln!(
            t,
            "{:<22} {:>8} {:>8} {:>8} {:>8}",
            name, fitted.placing[i], fitted.moving[i], WEIGHTS.placing[i], WEIGHTS.moving[i]
        );
    }
    let _ = writeln!(t, "\n{}", rust_text(&fitted));
    emit(&t)
}

/// The weights as the Rust constant of src/engine/eval.rs.
fn rust_text(w: &Weights) -> String {
    let row = |a: &[i32; FEATURES]| {
        a.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "pub const WEIGHTS: Weights = Weights {{\n    placing: [{}],\n    moving: [{}],\n}};",
        row(&w.placing),
        row(&w.moving)
    )
}
