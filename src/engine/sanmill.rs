//! Sanmill's rule options over the UCI protocol (`setoption name PiecesCount value 12`, ...)
//! and their mapping onto [`Variant::with_rule`]; the `uci` front end reads them, `match`
//! sends them.
//!
//! | option | key |
//! |---|---|
//! | `PiecesCount` (spin) | `stones` |
//! | `flyPieceCount` (3–4) | `fly` = the count, when flying (`MayFly`) |
//! | `PiecesAtLeastCount` | 3 only |
//! | `HasDiagonalLines` | `diagonals` |
//! | `MayFly` | `fly` = off, or `flyPieceCount` |
//! | `MayMoveInPlacingPhase` | `move-while-placing` |
//! | `IsDefenderMoveFirst` | `moving-first` = black / white |
//! | `MayRemoveMultiple` | `multiple-removals` |
//! | `MayRemoveFromMillsAlways` | `remove-from-mills` = always / last |
//! | `RestrictRepeatedMillsFormation` | `repeated-mills` = restricted / allowed |
//! | `OneTimeUseMill` | `one-time-mill` |
//! | `EndgameNMoveRule` | `endgame-n-move-rule` |
//! | `MillFormationActionInPlacingPhase` 0–5 | `placing-mill` = remove, from-hand, from-hand-again, remove (3: played like 0), mark, by-mill-counts |
//! | `BoardFullAction` 0–4 | `board-full` = white-loses, white-then-black, black-then-white, mover-removes, draw |
//! | `StalemateAction` 0–5 | `stalemate` = loss, pass, remove-and-move, remove-and-pass, draw, both-remove |
//! | `InterventionCaptureEnabled` | `capture` = intervention / none |
//! | `StopPlacingWhenTwoEmptySquares`, `CustodianCaptureEnabled`, `LeapCaptureEnabled` | false only |
//!
//! `NMoveRule` and `ThreefoldRepetitionRule` are the draw rules (the front end handles them).

use crate::game::rules::{BoardFull, BoardKind, Capture, Color, PlacingMill, Stalemate, Variant};

/// `placing-mill` by `MillFormationActionInPlacingPhase` (0–5).
const PLACING: [PlacingMill; 6] = [
    PlacingMill::Remove,
    PlacingMill::FromHand,
    PlacingMill::FromHandAgain,
    PlacingMill::Remove,
    PlacingMill::Mark,
    PlacingMill::ByMillCounts,
];
/// `board-full` by `BoardFullAction` (0–4).
const BOARD_FULL: [BoardFull; 5] = [
    BoardFull::WhiteLoses,
    BoardFull::WhiteThenBlack,
    BoardFull::BlackThenWhite,
    BoardFull::MoverRemoves,
    BoardFull::Draw,
];
/// `stalemate` by `StalemateAction` (0–5).
const STALEMATE: [Stalemate; 6] = [
    Stalemate::Loss,
    Stalemate::Pass,
    Stalemate::RemoveAndMove,
    Stalemate::RemoveAndPass,
    Stalemate::Draw,
    Stalemate::BothRemove,
];

/// The rule options' values for `v` in Sanmill's terms, in the order they are announced
/// (`true`/`false` for checks, numbers for spins). `fly_count` is the `flyPieceCount` kept
/// while flying is off.
pub fn options_of(v: &Variant, fly_count: u8) -> Vec<(&'static str, String)> {
    let b = |x: bool| x.to_string();
    let index = |i: Option<usize>| i.unwrap_or(0).to_string();
    vec![
        ("PiecesCount", v.stones.to_string()),
        ("flyPieceCount", v.fly_at.unwrap_or(fly_count).to_string()),
        ("PiecesAtLeastCount", "3".into()),
        ("HasDiagonalLines", b(v.board_kind == BoardKind::Diagonal)),
        ("MayFly", b(v.fly_at.is_some())),
        ("MayMoveInPlacingPhase", b(v.move_while_placing)),
        ("IsDefenderMoveFirst", b(v.moving_first == Color::Black)),
        ("MayRemoveMultiple", b(v.multiple_removals)),
        ("MayRemoveFromMillsAlways", b(v.remove_from_mills)),
        (
            "RestrictRepeatedMillsFormation",
            b(v.repeated_mills_restricted),
        ),
        ("OneTimeUseMill", b(v.one_time_mill)),
        ("StopPlacingWhenTwoEmptySquares", "false".into()),
        ("EndgameNMoveRule", v.endgame_n_move_rule.to_string()),
        (
            "MillFormationActionInPlacingPhase",
            index(PLACING.iter().position(|&p| p == v.placing_mill)),
        ),
        (
            "BoardFullAction",
            index(BOARD_FULL.iter().position(|&p| p == v.board_full)),
        ),
        (
            "StalemateAction",
            index(STALEMATE.iter().position(|&p| p == v.stalemate)),
        ),
        (
            "InterventionCaptureEnabled",
            b(v.capture == Capture::Intervention),
        ),
        ("CustodianCaptureEnabled", "false".into()),
        ("LeapCaptureEnabled", "false".into()),
    ]
}

/// The `option name ...` lines of the rule options for `v` (after `uci`).
pub fn announce(v: &Variant, fly_count: u8) -> Vec<String> {
    let max_n = crate::game::rules::MAX_N_MOVE_RULE;
    options_of(v, fly_count)
        .into_iter()
        .map(|(name, value)| {
            let range = match name {
                "PiecesCount" => Some((3, 12)),
                "flyPieceCount" => Some((3, 4)),
                "PiecesAtLeastCount" => Some((3, 3)),
                "EndgameNMoveRule" => Some((0, max_n)),
                "MillFormationActionInPlacingPhase" | "StalemateAction" => Some((0, 5)),
                "BoardFullAction" => Some((0, 4)),
                _ => None,
            };
            match range {
                Some((lo, hi)) => {
                    format!("option name {name} type spin default {value} min {lo} max {hi}")
                }
                None => format!("option name {name} type check default {value}"),
            }
        })
        .collect()
}

/// Is `name` (any case) one of the rule options of [`options_of`]?
pub fn is_rule_option(name: &str) -> bool {
    options_of(&Variant::standard(), 3)
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case(name))
}

/// `v` with rule option `name` (any case) set to `value`, validated; `fly_count` is updated
/// by `flyPieceCount`. `None` when `name` is not a rule option.
///
/// # Errors
///
/// Inside the `Some`: a message saying why the value is refused (not a value of the option,
/// not supported, or rules that cannot be played together); `v` is then to be kept.
pub fn apply(
    v: &Variant,
    fly_count: &mut u8,
    name: &str,
    value: &str,
) -> Option<Result<Variant, String>> {
    let lower = name.to_ascii_lowercase();
    if !is_rule_option(&lower) {
        return None;
    }
    let check = match value.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    };
    let number = value.parse::<usize>().ok();
    let need_check = || format!("'{value}' is not true or false");
    let need_number = |hi: usize| format!("'{value}' is not a number from 0 to {hi}");
    let switch = |on: bool| if on { "on" } else { "off" };
    let mut fly = *fly_count;
    let rule: Result<(&str, String), String> = match lower.as_str() {
        "piecescount" => Ok(("stones", value.to_string())),
        "flypiececount" => match value {
            "3" | "4" => {
                fly = value.parse().unwrap_or(3);
                Ok(("fly", v.fly_at.map_or("off".into(), |_| value.to_string())))
            }
            _ => Err(format!("'{value}' is not 3 or 4")),
        },
        "piecesatleastcount" => match value {
            "3" => Ok(("stones", v.stones.to_string())),
            _ => Err(format!("'{value}' is not supported (only 3)")),
        },
        "hasdiagonallines" => check
            .map(|on| ("diagonals", switch(on).into()))
            .ok_or_else(need_check),
        "mayfly" => check
            .map(|on| ("fly", if on { fly.to_string() } else { "off".into() }))
            .ok_or_else(need_check),
        "maymoveinplacingphase" => check
            .map(|on| ("move-while-placing", switch(on).into()))
            .ok_or_else(need_check),
        "isdefendermovefirst" => check
            .map(|on| ("moving-first", if on { "black" } else { "white" }.into()))
            .ok_or_else(need_check),
        "mayremovemultiple" => check
            .map(|on| ("multiple-removals", switch(on).into()))
            .ok_or_else(need_check),
        "mayremovefrommillsalways" => check
            .map(|on| {
                (
                    "remove-from-mills",
                    if on { "always" } else { "last" }.into(),
                )
            })
            .ok_or_else(need_check),
        "restrictrepeatedmillsformation" => check
            .map(|on| {
                let text = if on { "restricted" } else { "allowed" };
                ("repeated-mills", text.into())
            })
            .ok_or_else(need_check),
        "onetimeusemill" => check
            .map(|on| ("one-time-mill", switch(on).into()))
            .ok_or_else(need_check),
        "endgamenmoverule" => Ok(("endgame-n-move-rule", value.to_string())),
        "millformationactioninplacingphase" => number
            .and_then(|i| PLACING.get(i))
            .map(|p| ("placing-mill", p.text().into()))
            .ok_or_else(|| need_number(5)),
        "boardfullaction" => number
            .and_then(|i| BOARD_FULL.get(i))
            .map(|p| ("board-full", p.text().into()))
            .ok_or_else(|| need_number(4)),
        "stalemateaction" => number
            .and_then(|i| STALEMATE.get(i))
            .map(|p| ("stalemate", p.text().into()))
            .ok_or_else(|| need_number(5)),
        "interventioncaptureenabled" => check
            .map(|on| ("capture", if on { "intervention" } else { "none" }.into()))
            .ok_or_else(need_check),
        _ => match check {
            // StopPlacingWhenTwoEmptySquares, CustodianCaptureEnabled, LeapCaptureEnabled.
            Some(false) => Ok(("stones", v.stones.to_string())),
            Some(true) => Err("'true' is not supported (only false)".to_string()),
            None => Err(need_check()),
        },
    };
    let result = rule.and_then(|(key, text)| {
        let next = v.with_rule(key, &text).map_err(|e| e.to_string())?;
        next.validate().map_err(|e| e.to_string())?;
        Ok(next)
    });
    if result.is_ok() {
        *fly_count = fly;
    }
    Some(result)
}

/// The `setoption` lines that give an engine the rules `v`: `Variant` with the rule set's
/// name, then one line per rule option whose value differs from the set's, in an order in
/// which every step is a playable rule set (`NMoveRule` and `ThreefoldRepetitionRule` are
/// not among them).
pub fn setup_commands(v: &Variant) -> Vec<String> {
    let mut out = vec![format!("setoption name Variant value {}", v.name)];
    let Some(base) = Variant::by_name(v.name) else {
        return out;
    };
    let fly = v.fly_at.unwrap_or(3);
    let want = options_of(v, fly);
    let mut cur = base;
    let mut cur_fly = base.fly_at.unwrap_or(3);
    let mut todo: Vec<(&str, String)> = options_of(&base, cur_fly)
        .into_iter()
        .zip(want)
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b)
        .collect();
    while !todo.is_empty() {
        let step = todo.iter().position(|(name, value)| {
            let mut f = cur_fly;
            matches!(apply(&cur, &mut f, name, value), Some(Ok(_)))
        });
        let i = step.unwrap_or(0);
        let (name, value) = todo.remove(i);
        if let Some(Ok(next)) = apply(&cur, &mut cur_fly, name, &value) {
            cur = next;
        }
        out.push(format!("setoption name {name} value {value}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_map_onto_rules() {
        let std = Variant::standard();
        let mut fly = 3;
        let set = |v: &Variant, fly: &mut u8, n: &str, x: &str| apply(v, fly, n, x).unwrap();
        let v = set(&std, &mut fly, "MayFly", "false").unwrap();
        assert_eq!(v.fly_at, None);
        let v = set(&v, &mut fly, "flyPieceCount", "4").unwrap();
        assert_eq!(v.fly_at, None);
        let v = set(&v, &mut fly, "mayfly", "true").unwrap();
        assert_eq!(v.fly_at, Some(4));
        // A full-board action on 9 stones: impossible, refused.
        let e = set(&std, &mut fly, "BoardFullAction", "4").unwrap_err();
        assert!(e.contains("never fill"), "{e}");
        let v12 = set(&std, &mut fly, "PiecesCount", "12").unwrap();
        let v = set(&v12, &mut fly, "BoardFullAction", "3").unwrap();
        assert_eq!(v.board_full, BoardFull::MoverRemoves);
        let v = set(&std, &mut fly, "MillFormationActionInPlacingPhase", "3").unwrap();
        assert_eq!(v.placing_mill, PlacingMill::Remove);
        let v = set(&std, &mut fly, "StalemateAction", "5").unwrap();
        assert_eq!(v.stalemate, Stalemate::BothRemove);
        assert!(set(&std, &mut fly, "StalemateAction", "6").is_err());
        assert!(set(&std, &mut fly, "LeapCaptureEnabled", "true").is_err());
        assert!(apply(&std, &mut fly, "NoSuchOption", "1").is_none());
    }

    #[test]
    fn setup_reaches_every_rule_set_and_changes() {
        for name in Variant::names() {
            let v = Variant::by_name(name).unwrap();
            assert_eq!(setup_commands(&v).len(), 1, "{name}");
        }
        let v = Variant::from_rules(
            "std",
            &["stones=12", "board-full=draw", "fly=off", "stalemate=pass"],
        )
        .unwrap();
        let cmds = setup_commands(&v);
        let mut cur = Variant::standard();
        let mut fly = 3;
        for c in &cmds[1..] {
            let words: Vec<&str> = c.split_whitespace().collect();
            cur = apply(&cur, &mut fly, words[2], words[4]).unwrap().unwrap();
        }
        assert!(cur.same_game(&v), "{cmds:?}");
    }
}
