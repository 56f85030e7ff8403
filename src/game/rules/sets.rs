//! The named rule sets: millbase's five variants and the rule sets of the Sanmill app.

use super::{BoardFull, BoardKind, Capture, Color, PlacingMill, Stalemate, Variant};

/// The standard game's options; every set below changes some of them.
const STD: Variant = Variant {
    name: "std",
    board_kind: BoardKind::Standard,
    stones: 9,
    fly_at: Some(3),
    remove_from_mills: false,
    multiple_removals: false,
    placing_mill: PlacingMill::Remove,
    move_while_placing: false,
    moving_first: Color::White,
    board_full: BoardFull::WhiteLoses,
    stalemate: Stalemate::Loss,
    one_time_mill: false,
    repeated_mills_restricted: false,
    capture: Capture::None,
    n_move_rule: 100,
    endgame_n_move_rule: 100,
};

/// millbase's five variants, whose tables the solver has always made: the standard game,
/// Lasker Morris, Twelve Men's Morris as Malom solved it (a full board is a draw), Six and
/// Three Men's Morris.
pub const VARIANTS: [Variant; 5] = [
    STD,
    Variant {
        name: "lasker",
        stones: 10,
        move_while_placing: true,
        ..STD
    },
    Variant {
        name: "twelve",
        board_kind: BoardKind::Diagonal,
        stones: 12,
        board_full: BoardFull::Draw,
        ..STD
    },
    Variant {
        name: "six",
        board_kind: BoardKind::Six,
        stones: 6,
        fly_at: None,
        ..STD
    },
    Variant {
        name: "three",
        board_kind: BoardKind::Three,
        stones: 3,
        fly_at: None,
        ..STD
    },
];

/// A named rule set of the Sanmill app.
#[derive(Clone, Copy, Debug)]
pub struct RuleSet {
    /// The app's name in kebab-case (`cham-gonu`).
    pub name: &'static str,
    /// Its options (named by millbase's own name where it is one of [`VARIANTS`]).
    pub variant: Variant,
}

const TWELVE: Variant = Variant {
    board_kind: BoardKind::Diagonal,
    stones: 12,
    ..STD
};

/// The thirteen rule sets of the Sanmill app (docs/RULE-SETS.md).
pub const RULE_SETS: [RuleSet; 13] = [
    RuleSet {
        name: "nine-mens-morris",
        variant: STD,
    },
    RuleSet {
        name: "twelve-mens-morris",
        variant: Variant {
            name: "twelve-mens-morris",
            ..TWELVE
        },
    },
    RuleSet {
        name: "morabaraba",
        variant: Variant {
            name: "morabaraba",
            board_full: BoardFull::Draw,
            repeated_mills_restricted: true,
            endgame_n_move_rule: 10,
            ..TWELVE
        },
    },
    RuleSet {
        name: "dooz",
        variant: Variant {
            name: "dooz",
            remove_from_mills: true,
            placing_mill: PlacingMill::FromHand,
            board_full: BoardFull::MoverRemoves,
            ..TWELVE
        },
    },
    RuleSet {
        name: "lasker-morris",
        variant: VARIANTS[1],
    },
    RuleSet {
        name: "one-time-mill",
        variant: Variant {
            name: "one-time-mill",
            remove_from_mills: true,
            one_time_mill: true,
            ..STD
        },
    },
    RuleSet {
        name: "cham-gonu",
        variant: Variant {
            name: "cham-gonu",
            fly_at: None,
            remove_from_mills: true,
            placing_mill: PlacingMill::Mark,
            ..TWELVE
        },
    },
    RuleSet {
        name: "zhi-qi",
        variant: Variant {
            name: "zhi-qi",
            fly_at: None,
            remove_from_mills: true,
            placing_mill: PlacingMill::Mark,
            board_full: BoardFull::WhiteThenBlack,
            ..TWELVE
        },
    },
    RuleSet {
        name: "cheng-san-qi",
        variant: Variant {
            name: "cheng-san-qi",
            fly_at: None,
            placing_mill: PlacingMill::Mark,
            ..STD
        },
    },
    RuleSet {
        name: "da-san-qi",
        variant: Variant {
            name: "da-san-qi",
            fly_at: None,
            remove_from_mills: true,
            placing_mill: PlacingMill::Mark,
            moving_first: Color::Black,
            multiple_removals: true,
            ..TWELVE
        },
    },
    RuleSet {
        name: "mul-mulan",
        variant: Variant {
            name: "mul-mulan",
            board_kind: BoardKind::Diagonal,
            fly_at: None,
            remove_from_mills: true,
            capture: Capture::Intervention,
            ..STD
        },
    },
    RuleSet {
        name: "nerenchi",
        variant: Variant {
            name: "nerenchi",
            remove_from_mills: true,
            moving_first: Color::Black,
            ..TWELVE
        },
    },
    RuleSet {
        name: "el-filja",
        variant: Variant {
            name: "el-filja",
            stones: 12,
            fly_at: None,
            remove_from_mills: true,
            placing_mill: PlacingMill::ByMillCounts,
            ..STD
        },
    },
];

/// The variant of a name: one of [`VARIANTS`] or of [`RULE_SETS`].
pub(super) fn find(name: &str) -> Option<Variant> {
    VARIANTS
        .iter()
        .copied()
        .find(|v| v.name == name)
        .or_else(|| RULE_SETS.iter().find(|s| s.name == name).map(|s| s.variant))
}

/// Every name [`find`] knows: millbase's variants, then the app's rule sets not among them.
pub(super) fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = VARIANTS.iter().map(|v| v.name).collect();
    names.extend(RULE_SETS.iter().map(|s| s.name));
    names
}
