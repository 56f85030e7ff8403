//! The rule options that are not numbers or switches: each an enum whose values carry the
//! kebab-case names of `--rule KEY=VALUE` (docs/RULE-SETS.md lists every key).

use std::fmt;

/// Defines an option enum with its value names (the first is the standard game's).
macro_rules! option_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+ }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, the standard game's first.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The value's name as written in `--rule KEY=VALUE`.
            pub fn text(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value with this name.
            pub fn from_text(text: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|v| v.text() == text)
            }

            /// The value names, for messages (`remove, mark, ...`).
            pub fn names() -> String {
                Self::ALL.iter().map(|v| v.text()).collect::<Vec<_>>().join(", ")
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.text())
            }
        }
    };
}

option_enum! {
    /// What a mill closed by a placement does (key `placing-mill`). A mill closed by a slide
    /// or fly always removes a stone from the board.
    PlacingMill {
        /// Remove an opponent stone from the board.
        Remove = "remove",
        /// Remove an opponent stone from the board and mark its point until placing ends: no
        /// stone may be placed there.
        Mark = "mark",
        /// Take a stone from the opponent's hand (from the board once it is empty); then the
        /// opponent moves.
        FromHand = "from-hand",
        /// As `from-hand`, then the same side moves again.
        FromHandAgain = "from-hand-again",
        /// Placing never removes; when the board is full both sides remove stones by the
        /// number of mills each has (El Filja).
        ByMillCounts = "by-mill-counts",
    }
}

option_enum! {
    /// What happens when placing fills every point with no removal pending (key
    /// `board-full`; only a board that can fill: 12 stones on 24 points).
    BoardFull {
        /// White loses.
        WhiteLoses = "white-loses",
        /// The game is drawn.
        Draw = "draw",
        /// The side to move removes one opponent stone, then the other side moves.
        MoverRemoves = "mover-removes",
        /// White removes one Black stone, then Black one White stone, then White moves.
        WhiteThenBlack = "white-then-black",
        /// Black removes one White stone, then White one Black stone, then Black moves.
        BlackThenWhite = "black-then-white",
    }
}

option_enum! {
    /// What a side to move with no legal move does (key `stalemate`).
    Stalemate {
        /// It loses.
        Loss = "loss",
        /// The turn passes to the opponent.
        Pass = "pass",
        /// It removes an opponent stone next to one of its own (mill protection ignored),
        /// then moves again.
        RemoveAndMove = "remove-and-move",
        /// It removes such a stone, then the turn passes.
        RemoveAndPass = "remove-and-pass",
        /// The game is drawn.
        Draw = "draw",
        /// Each side removes one opponent stone, the blocked side first; then the blocked
        /// side moves.
        BothRemove = "both-remove",
    }
}

option_enum! {
    /// Captures besides mills (key `capture`).
    Capture {
        /// None.
        None = "none",
        /// A stone moved or placed between two opponent stones on one line removes both.
        Intervention = "intervention",
    }
}

/// Parse `off`/`on` (also `false`/`true`, `0`/`1`).
pub(crate) fn parse_switch(text: &str) -> Option<bool> {
    match text {
        "off" | "false" | "0" | "no" => Some(false),
        "on" | "true" | "1" | "yes" => Some(true),
        _ => None,
    }
}

/// `on` or `off`.
pub(crate) fn switch_text(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}
