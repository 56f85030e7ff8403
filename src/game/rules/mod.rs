//! The rules as data: boards ([`Board`]) and the rule options of a [`Variant`].
//!
//! Every option of the Sanmill app's rule sets is one field of [`Variant`] (docs/RULE-SETS.md
//! lists them with their keys); a variant starts from a named rule set ([`Variant::by_name`])
//! and single options are changed with [`Variant::with_rule`]. [`Variant::validate`] refuses
//! combinations that cannot be played. Code below and above this module asks the options; it
//! never asks which rule set it is.

mod arrival;
mod board;
mod difference;
mod options;
mod sets;
mod side;

pub use arrival::{Arrival, for_each_removal_set};
pub use board::{Bits, Board, BoardKind, NO_SQUARE, points};
pub use options::{BoardFull, Capture, PlacingMill, Stalemate};
pub use sets::{RULE_SETS, RuleSet, VARIANTS};
pub use side::Color;

use options::{parse_switch, switch_text};
use std::fmt;

/// A side has lost when fewer than this many stones remain (on board plus in hand).
pub const MIN_STONES: u8 = 3;

/// Largest N of the N-move rules a variant may carry (as [`crate::NMoveRule`]).
pub const MAX_N_MOVE_RULE: u16 = 4096;

/// A rule variant: a board, stones per side, and every rule option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Name of the rule set it starts from (`std`, `cham-gonu`, ...); options changed on top
    /// of it are shown by [`Variant::label`].
    pub name: &'static str,
    /// The board (key `diagonals` chooses between the standard and the diagonal board).
    pub board_kind: BoardKind,
    /// Stones each side starts with, in hand (key `stones`).
    pub stones: u8,
    /// A side with none in hand and at most this many stones on the board may fly to any
    /// empty point; `None`: no flying (key `fly`).
    pub fly_at: Option<u8>,
    /// Stones standing in mills may always be removed; otherwise only when all are in mills,
    /// checked before each single removal (key `remove-from-mills`: `always` / `last`).
    pub remove_from_mills: bool,
    /// A move that closes k mills at once removes k stones (key `multiple-removals`).
    pub multiple_removals: bool,
    /// What a mill closed by a placement does (key `placing-mill`).
    pub placing_mill: PlacingMill,
    /// A side holding stones in hand may move a stone on the board instead of placing (key
    /// `move-while-placing`).
    pub move_while_placing: bool,
    /// Who moves first when placing ends (key `moving-first`).
    pub moving_first: Color,
    /// What a board filled by placing means (key `board-full`).
    pub board_full: BoardFull,
    /// What a side to move without a legal move does (key `stalemate`).
    pub stalemate: Stalemate,
    /// A mill whose three points all stood in earlier mills of the same side removes nothing
    /// (key `one-time-mill`).
    pub one_time_mill: bool,
    /// A side that closed a mill by sliding from A to B may not slide straight back from B to
    /// A to close a mill on its next move (key `repeated-mills`: `restricted` / `allowed`).
    pub repeated_mills_restricted: bool,
    /// Captures besides mills (key `capture`).
    pub capture: Capture,
    /// The N-move rule of play (0: off; key `n-move-rule`). Tables carry their own rule.
    pub n_move_rule: u16,
    /// The N-move rule while either side has exactly three stones on the board, when lower
    /// than `n_move_rule` (0: off; key `endgame-n-move-rule`).
    pub endgame_n_move_rule: u16,
}

/// Why rules could not be chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// No rule set of this name.
    UnknownSet {
        /// The name given.
        name: String,
    },
    /// No option of this key.
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// `--rule` text without `=`.
    NotKeyValue {
        /// The text given.
        text: String,
    },
    /// A value the key does not take.
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// What the key takes.
        expected: String,
    },
    /// Options that cannot be played together.
    Conflict {
        /// What is wrong, in words.
        message: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::UnknownSet { name } => write!(
                f,
                "unknown rule set '{name}' (known: {})",
                Variant::names().join(", ")
            ),
            RuleError::UnknownKey { key } => {
                write!(f, "unknown rule key '{key}' (known: {})", KEYS.join(", "))
            }
            RuleError::NotKeyValue { text } => {
                write!(f, "rule '{text}' is not KEY=VALUE (e.g. fly=off)")
            }
            RuleError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "rule {key}={value}: {key} takes {expected}"),
            RuleError::Conflict { message } => write!(f, "impossible rules: {message}"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Every option key, in the order `millbase rules` prints them.
pub const KEYS: [&str; 15] = [
    "stones",
    "diagonals",
    "fly",
    "remove-from-mills",
    "multiple-removals",
    "placing-mill",
    "move-while-placing",
    "moving-first",
    "board-full",
    "stalemate",
    "one-time-mill",
    "repeated-mills",
    "capture",
    "n-move-rule",
    "endgame-n-move-rule",
];

impl Variant {
    /// The standard game (Nine Men's Morris).
    pub fn standard() -> Variant {
        VARIANTS[0]
    }

    /// A rule set by name: one of [`Variant::names`] (the Sanmill app's rule sets in
    /// kebab-case, and `std`, `lasker`, `twelve`, `six`, `three`).
    pub fn by_name(name: &str) -> Option<Variant> {
        sets::find(name)
    }

    /// A rule set by name with `KEY=VALUE` options on top, validated.
    ///
    /// # Errors
    /// [`RuleError`] for an unknown name, key or value, or an impossible combination.
    pub fn from_rules<S: AsRef<str>>(name: &str, rules: &[S]) -> Result<Variant, RuleError> {
        let mut v = Variant::by_name(name).ok_or_else(|| RuleError::UnknownSet {
            name: name.to_string(),
        })?;
        for rule in rules {
            let rule = rule.as_ref();
            let (key, value) = rule.split_once('=').ok_or_else(|| RuleError::NotKeyValue {
                text: rule.to_string(),
            })?;
            v = v.with_rule(key.trim(), value.trim())?;
        }
        v.validate()?;
        Ok(v)
    }

    /// Names of all rule sets, for messages.
    pub fn names() -> Vec<&'static str> {
        sets::names()
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &'static Board {
        self.board_kind.board()
    }

    /// May a side with `on_board` stones on the board and `in_hand` in hand fly?
    #[inline]
    pub fn flies(&self, on_board: u8, in_hand: u8) -> bool {
        match self.fly_at {
            Some(t) => in_hand == 0 && on_board <= t,
            None => false,
        }
    }

    /// May a side with `in_hand` stones in hand move a stone on the board?
    #[inline]
    pub fn may_move(&self, in_hand: u8) -> bool {
        in_hand == 0 || self.move_while_placing
    }

    /// Does a side that closes a mill by placing take the stone from the opponent's hand?
    #[inline]
    pub fn removes_from_hand(&self) -> bool {
        matches!(
            self.placing_mill,
            PlacingMill::FromHand | PlacingMill::FromHandAgain
        )
    }

    /// The removals that a board filled by placing starts (`board-full=mover-removes`,
    /// `white-then-black`, `black-then-white`, or `placing-mill=by-mill-counts` by the mills
    /// each colour has on the full board, `mills` as `[white, black]`), with `to_move` the
    /// side to move after the last placement; `None` when the full board ends the game
    /// (`white-loses`, `draw`). After the removals the side after the last remover moves.
    pub fn full_board_removals(&self, mills: [u8; 2], to_move: Color) -> Option<FullBoardRemovals> {
        let white_first = |removals: [i8; 2]| FullBoardRemovals {
            removals,
            first: Color::White,
        };
        if self.placing_mill == PlacingMill::ByMillCounts {
            let (w, b) = (mills[0] as i8, mills[1] as i8);
            return Some(white_first(match (w, b) {
                (0, 0) => [-1, -1],
                (_, 0) => [2, 1],
                (0, _) => [1, 2],
                _ if w == b => [w, b],
                _ if w > b => [b + 1, b],
                _ => [w, w + 1],
            }));
        }
        match self.board_full {
            BoardFull::WhiteLoses | BoardFull::Draw => None,
            BoardFull::MoverRemoves => {
                let mut removals = [0; 2];
                removals[to_move.index()] = 1;
                Some(FullBoardRemovals {
                    removals,
                    first: to_move,
                })
            }
            BoardFull::WhiteThenBlack => Some(white_first([1, 1])),
            BoardFull::BlackThenWhite => Some(FullBoardRemovals {
                removals: [1, 1],
                first: Color::Black,
            }),
        }
    }

    /// The N of the N-move rule that applies with these stones on the board (0: none): the
    /// endgame rule's when either side has exactly three stones on the board and it is lower.
    pub fn n_move_limit(&self, on_board: [u8; 2]) -> u16 {
        let endgame = self.endgame_n_move_rule;
        if on_board.contains(&3)
            && endgame > 0
            && (self.n_move_rule == 0 || endgame < self.n_move_rule)
        {
            endgame
        } else {
            self.n_move_rule
        }
    }

    /// The value of option `key` as text (`fly` → `3`), or `None` for an unknown key.
    pub fn rule(&self, key: &str) -> Option<String> {
        Some(match key {
            "stones" => self.stones.to_string(),
            "diagonals" => switch_text(self.board_kind == BoardKind::Diagonal).to_string(),
            "fly" => self.fly_at.map_or("off".to_string(), |n| n.to_string()),
            "remove-from-mills" => if self.remove_from_mills {
                "always"
            } else {
                "last"
            }
            .into(),
            "multiple-removals" => switch_text(self.multiple_removals).into(),
            "placing-mill" => self.placing_mill.text().into(),
            "move-while-placing" => switch_text(self.move_while_placing).into(),
            "moving-first" => self.moving_first.to_string(),
            "board-full" => self.board_full.text().into(),
            "stalemate" => self.stalemate.text().into(),
            "one-time-mill" => switch_text(self.one_time_mill).into(),
            "repeated-mills" => if self.repeated_mills_restricted {
                "restricted"
            } else {
                "allowed"
            }
            .into(),
            "capture" => self.capture.text().into(),
            "n-move-rule" => self.n_move_rule.to_string(),
            "endgame-n-move-rule" => self.endgame_n_move_rule.to_string(),
            _ => return None,
        })
    }

    /// Every option as `(key, value)`, in the order of [`KEYS`].
    pub fn rules(&self) -> Vec<(&'static str, String)> {
        KEYS.iter()
            .map(|&k| (k, self.rule(k).expect("every key has a value")))
            .collect()
    }

    /// The same variant with option `key` set to `value` (not yet validated as a whole: see
    /// [`Variant::validate`]).
    ///
    /// # Errors
    /// [`RuleError::UnknownKey`] or [`RuleError::BadValue`].
    pub fn with_rule(mut self, key: &str, value: &str) -> Result<Variant, RuleError> {
        let key: &'static str =
            KEYS.iter()
                .copied()
                .find(|&k| k == key)
                .ok_or_else(|| RuleError::UnknownKey {
                    key: key.to_string(),
                })?;
        let bad = |expected: String| RuleError::BadValue {
            key,
            value: value.to_string(),
            expected,
        };
        let switch = || parse_switch(value).ok_or_else(|| bad("on or off".into()));
        match key {
            "stones" => {
                self.stones = match value.parse::<u8>() {
                    Ok(n @ 3..=12) => n,
                    _ => return Err(bad("a number of stones from 3 to 12".into())),
                }
            }
            "diagonals" => {
                let on = switch()?;
                self.board_kind = match (self.board_kind, on) {
                    (BoardKind::Standard | BoardKind::Diagonal, true) => BoardKind::Diagonal,
                    (BoardKind::Standard | BoardKind::Diagonal, false) => BoardKind::Standard,
                    (kind, false) => kind,
                    (_, true) => {
                        return Err(RuleError::Conflict {
                            message: format!(
                                "diagonals=on: the {} board has no diagonal lines",
                                self.board().name
                            ),
                        });
                    }
                }
            }
            "fly" => {
                self.fly_at = match value {
                    "off" | "none" | "0" => None,
                    "3" => Some(3),
                    "4" => Some(4),
                    _ => return Err(bad("3, 4 or off".into())),
                }
            }
            "remove-from-mills" => {
                self.remove_from_mills = match value {
                    "last" => false,
                    "always" => true,
                    _ => return Err(bad("last or always".into())),
                }
            }
            "multiple-removals" => self.multiple_removals = switch()?,
            "placing-mill" => {
                self.placing_mill =
                    PlacingMill::from_text(value).ok_or_else(|| bad(PlacingMill::names()))?
            }
            "move-while-placing" => self.move_while_placing = switch()?,
            "moving-first" => {
                self.moving_first = match value {
                    "white" => Color::White,
                    "black" => Color::Black,
                    _ => return Err(bad("white or black".into())),
                }
            }
            "board-full" => {
                self.board_full =
                    BoardFull::from_text(value).ok_or_else(|| bad(BoardFull::names()))?
            }
            "stalemate" => {
                self.stalemate =
                    Stalemate::from_text(value).ok_or_else(|| bad(Stalemate::names()))?
            }
            "one-time-mill" => self.one_time_mill = switch()?,
            "repeated-mills" => {
                self.repeated_mills_restricted = match value {
                    "allowed" => false,
                    "restricted" => true,
                    _ => return Err(bad("allowed or restricted".into())),
                }
            }
            "capture" => {
                self.capture = Capture::from_text(value).ok_or_else(|| bad(Capture::names()))?
            }
            "n-move-rule" | "endgame-n-move-rule" => {
                let n = value
                    .parse::<u16>()
                    .ok()
                    .filter(|&n| n <= MAX_N_MOVE_RULE)
                    .ok_or_else(|| {
                        bad(format!(
                            "a number of plies from 0 (off) to {MAX_N_MOVE_RULE}"
                        ))
                    })?;
                if key == "n-move-rule" {
                    self.n_move_rule = n;
                } else {
                    self.endgame_n_move_rule = n;
                }
            }
            _ => unreachable!("every key of KEYS is handled"),
        }
        Ok(self)
    }

    /// Check that the options can be played together.
    ///
    /// # Errors
    /// [`RuleError::Conflict`] naming the options that contradict each other.
    pub fn validate(&self) -> Result<(), RuleError> {
        let conflict = |message: String| Err(RuleError::Conflict { message });
        let board = self.board();
        let points = board.len() as u8;
        let fixed = match self.board_kind {
            BoardKind::Six => Some(6),
            BoardKind::Three => Some(3),
            BoardKind::Standard | BoardKind::Diagonal => None,
        };
        match fixed {
            Some(n) if self.stones != n => {
                return conflict(format!(
                    "stones={}: the {} board ({points} points) is played with {n} stones each",
                    self.stones, board.name
                ));
            }
            None if self.stones < 9 => {
                return conflict(format!(
                    "stones={}: the {} board is played with 9 to 12 stones each",
                    self.stones, board.name
                ));
            }
            _ => {}
        }
        let fills = 2 * self.stones >= points;
        if self.board_full != BoardFull::WhiteLoses && !fills {
            return conflict(format!(
                "board-full={}: with {} stones each the {points} points of the {} board never \
                 fill",
                self.board_full, self.stones, board.name
            ));
        }
        if self.placing_mill == PlacingMill::ByMillCounts {
            if !fills {
                return conflict(format!(
                    "placing-mill=by-mill-counts removes when the board is full, and with {} \
                     stones each the {points} points never fill",
                    self.stones
                ));
            }
            if self.board_full != BoardFull::WhiteLoses {
                return conflict(format!(
                    "placing-mill=by-mill-counts decides what a full board does; board-full={} \
                     contradicts it",
                    self.board_full
                ));
            }
        }
        if self.fly_at.is_some_and(|n| n >= self.stones) {
            return conflict(format!(
                "fly={}: a side flies with at most as many stones as it starts with ({})",
                self.fly_at.unwrap_or(0),
                self.stones
            ));
        }
        Ok(())
    }

    /// The rule set's name with the options changed on top of it: `std`,
    /// `std+fly=off+capture=intervention`.
    pub fn label(&self) -> String {
        let mut label = self.name.to_string();
        if let Some(base) = Variant::by_name(self.name) {
            for (key, value) in self.rules() {
                if base.rule(key).as_deref() != Some(value.as_str()) {
                    label.push_str(&format!("+{key}={value}"));
                }
            }
        }
        label
    }

    /// Do these rules equal `other`'s apart from the name and the N-move rules of play?
    pub fn same_game(&self, other: &Variant) -> bool {
        Variant {
            name: other.name,
            n_move_rule: other.n_move_rule,
            endgame_n_move_rule: other.endgame_n_move_rule,
            ..*self
        } == *other
    }

    /// A 64-bit fingerprint of the rules (board geometry and options), stored in table files.
    /// The five variants of the first table format keep their fingerprints; the N-move rules
    /// of play are not part of it (tables record the rule they were solved under).
    pub fn fingerprint(&self) -> u64 {
        let board = self.board();
        let mut bytes = Vec::new();
        let classic = VARIANTS.iter().find(|c| c.same_game(self));
        match classic {
            Some(c) => bytes.extend_from_slice(c.name.as_bytes()),
            None => bytes.extend_from_slice(b"rules-v2"),
        }
        bytes.push(board.len() as u8);
        for p in 0..board.len() as u8 {
            bytes.extend_from_slice(&board.adjacent(p).to_le_bytes());
        }
        for m in board.mills() {
            bytes.extend_from_slice(&m.to_le_bytes());
        }
        bytes.push(self.stones);
        bytes.push(self.fly_at.unwrap_or(0));
        bytes.push(self.remove_from_mills as u8);
        bytes.push(self.move_while_placing as u8);
        bytes.push((self.board_full == BoardFull::Draw) as u8);
        if classic.is_none() {
            bytes.push(self.multiple_removals as u8);
            bytes.push(self.placing_mill as u8);
            bytes.push(self.moving_first as u8);
            bytes.push(self.board_full as u8);
            bytes.push(self.stalemate as u8);
            bytes.push(self.one_time_mill as u8);
            bytes.push(self.repeated_mills_restricted as u8);
            bytes.push(self.capture as u8);
        }
        xxhash_rust::xxh3::xxh3_64(&bytes)
    }

    /// The options that no table follows yet, as `key=value` texts (empty when tables of the
    /// moving phase can be solved and read under these rules): `one-time-mill` (a mill's
    /// removal depends on the game's whole history) and `stalemate=pass` together with
    /// `repeated-mills=restricted` (a pass with a bar in force: not yet checked against an
    /// oracle). (Tables under an N-move rule follow a lower endgame N-move rule where a
    /// side has three stones on the board: [`crate::game::value::NMoveRule::with_stones`].)
    pub fn unsupported_by_tables(&self) -> Vec<String> {
        let text = |k: &str| format!("{k}={}", self.rule(k).unwrap_or_default());
        let mut out = Vec::new();
        if self.one_time_mill {
            out.push(text("one-time-mill"));
        }
        if self.stalemate == Stalemate::Pass && self.repeated_mills_restricted {
            out.push(text("stalemate"));
            out.push(text("repeated-mills"));
        }
        out
    }

    /// The options that the tables of the placing phase (positions with stones in hand, and
    /// a board filled by placing) do not follow yet, beyond [`Variant::unsupported_by_tables`]:
    /// marks, removals by mill counts and full-board removals where a side may slide while
    /// placing (not checked against an oracle), Black moving first where a side
    /// may slide while placing (the hands then do not tell who places the last stone), under
    /// `move-while-placing` the stalemate removals (a side that has placed all its stones can
    /// be blocked while its opponent still places: not yet checked against an oracle), and
    /// `stalemate=pass` (not yet checked against an oracle of the placing phase). Removals
    /// from hand (`placing-mill=from-hand`, `from-hand-again`: the hands shrink independently,
    /// so a side may slide while its opponent still places) are followed with one removal a
    /// move and no captures, White moving first, no `move-while-placing`, no stalemate
    /// removals and no `repeated-mills=restricted`; with any of those they are refused as
    /// `placing-mill=from-hand[-again]`. The moving phase's tables are unaffected by them.
    pub fn unsupported_in_placing(&self) -> Vec<String> {
        let text = |k: &str| format!("{k}={}", self.rule(k).unwrap_or_default());
        let mut out = Vec::new();
        let removes = !matches!(
            self.stalemate,
            Stalemate::Loss | Stalemate::Draw | Stalemate::Pass
        );
        if (removes && self.move_while_placing) || self.stalemate == Stalemate::Pass {
            out.push(text("stalemate"));
        }
        let from_hand_followed = self.removes_from_hand()
            && self.takes_one_at_most()
            && self.moving_first == Color::White
            && !self.move_while_placing
            && !removes
            && !self.repeated_mills_restricted;
        let by_counts_followed =
            self.placing_mill == PlacingMill::ByMillCounts && !self.move_while_placing;
        if self.placing_mill != PlacingMill::Remove && !from_hand_followed && !by_counts_followed {
            out.push(text("placing-mill"));
        }
        let full_board_removes =
            !matches!(self.board_full, BoardFull::WhiteLoses | BoardFull::Draw);
        if full_board_removes && self.move_while_placing {
            out.push(text("board-full"));
        }
        if self.moving_first != Color::White && self.move_while_placing {
            out.push(text("moving-first"));
        }
        out
    }
}

/// The removals a board filled by placing starts ([`Variant::full_board_removals`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullBoardRemovals {
    /// Stones each colour removes (`[white, black]`): of the opponent's, or of its own when
    /// negative (`by-mill-counts` with no mill on the board).
    pub removals: [i8; 2],
    /// The colour that removes first; the other one removes next.
    pub first: Color,
}

impl fmt::Display for Variant {
    /// The rule set's name, with changed options (see [`Variant::label`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

#[cfg(test)]
mod tests;
