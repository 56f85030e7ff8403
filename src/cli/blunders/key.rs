//! `millbase blunders key`: write the judge's value of every legal move of each position of a
//! file (millbase::engine::answer_key), so that `measure --key` judges without the tables; and
//! the reading of such a key.

use super::{JudgedPositions, Judging, judge_lacks_tables};
use crate::cli::CliError;
use crate::cli::common::{emit, parse_position_line};
use clap::Args;
use millbase::engine::answer_key::{
    KeyHeader, format_header, format_move_values, parse_header, parse_move_values,
};
use millbase::engine::game::DrawRules;
use millbase::movegen::{Convention, legal_moves};
use millbase::{MoveValue, Position, Variant};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;

/// Arguments of `millbase blunders key`.
#[derive(Debug, Args)]
pub(super) struct KeyArgs {
    #[command(flatten)]
    input: JudgedPositions,
}

/// `millbase blunders key`: the key on standard output.
pub(super) fn run_key(args: &KeyArgs) -> Result<(), CliError> {
    let Judging {
        v,
        rules,
        games,
        judge,
    } = args.input.open()?;
    let positions = &args.input.positions;
    let header = KeyHeader {
        n_move: rules.n_move,
        dtr: judge.distances_are_dtr(),
    };
    let name = positions.file_name().map_or_else(
        || positions.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut text = format!(
        "# millbase blunders key: the judge's value of every legal move of each position of {name}\n\
         # (W<n>: the mover wins in n plies, L<n>: loses in n, D: draw; distances {}), by\n\
         # millbase blunders key --variant {} --n-move-rule {} --positions {name} --judge DIR\n{}\n",
        if header.dtr {
            "in plies to the next reset of the N-move counter (DTR)"
        } else {
            "in plies to the end"
        },
        v.label(),
        rules.n_move.n(),
        format_header(&v, header)
    );
    for (line, position, game) in &games {
        let values = judge
            .move_values(game.position(), game.counter())
            .ok_or_else(|| {
                judge_lacks_tables(
                    &args.input.judge,
                    &format!("{} line {line}", positions.display()),
                )
            })?;
        let _ = writeln!(text, "{position}\t{}", format_move_values(&v, &values));
    }
    emit(&text)
}

/// An answer key read from a file: the values of every legal move, by position and N-move
/// counter.
pub(super) struct LoadedKey {
    /// What the values are.
    pub header: KeyHeader,
    /// The legal moves' values of each position (and counter).
    pub values: HashMap<(Position, u32), Vec<MoveValue>>,
}

/// Read the key at `path` for the game `v` under `rules`: its header must name them, and each
/// line's moves must be exactly the position's legal moves.
pub(super) fn load_key(path: &Path, v: Variant, rules: DrawRules) -> Result<LoadedKey, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::usage(format!("--key {}: cannot read it: {e}", path.display())))?;
    let at = |line: usize, what: String| {
        CliError::usage(format!("--key {} line {line}: {what}", path.display()))
    };
    let mut header = None;
    let mut values = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(h) = parse_header(line) {
            let (label, h) = h.map_err(|e| at(n, e.to_string()))?;
            if label != v.label() {
                return Err(at(n, format!("a key of {label}, not of {}", v.label())));
            }
            if h.n_move != rules.n_move {
                return Err(at(
                    n,
                    format!(
                        "its values are exact under the {}, not the game's {} (give --n-move-rule or a key of the game's rule)",
                        h.n_move, rules.n_move
                    ),
                ));
            }
            header = Some(h);
            continue;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, moves) = line
            .split_once('\t')
            .ok_or_else(|| at(n, "no tab between the position and its moves".to_string()))?;
        let game = parse_position_line(v, rules, position.trim()).map_err(|e| at(n, e))?;
        let listed = parse_move_values(&v, moves).map_err(|e| at(n, e.to_string()))?;
        let legal: HashSet<_> = legal_moves(&v, game.position(), Convention::Combined)
            .into_iter()
            .collect();
        if legal != listed.iter().map(|m| m.mv).collect() {
            return Err(at(
                n,
                "its moves are not the position's legal moves (a key of other rules?)".to_string(),
            ));
        }
        values.insert((*game.position(), game.counter()), listed);
    }
    let header = header.ok_or_else(|| {
        CliError::usage(format!(
            "--key {}: no '#key variant ... n-move-rule ... distances ...' header line (not a key written by `millbase blunders key`?)",
            path.display()
        ))
    })?;
    Ok(LoadedKey { header, values })
}
