//! Choosing a move from the tables' values.
//!
//! 1. **Draw rules first.** A move after which the game would be drawn by rule at once — the
//!    N-move counter reaching N, or the position standing for the third time — is worth a
//!    draw whatever the table says (so a winning side never walks into such a draw, and a
//!    losing side takes it).
//! 2. **Perfect play.** The best value: the fastest win, else a draw, else the slowest loss.
//!    With rule-free tables the fastest win also makes progress: the distance to the end of
//!    the game falls with every move, so the winner's positions never repeat.
//! 3. **Chances for the opponent to go wrong.** Among moves of that value, the one after
//!    which the fewest replies keep the opponent's value (counted on table values).
//! 4. **Tie-break.** Seed 0: the first such move in move-generation order (deterministic).
//!    Another seed: the move with the smallest hash of (seed, position, move) — still a
//!    function of the seed and the position, so a game can be replayed.

use super::game::{Game, counter_after};
use super::oracle::Oracle;
use super::tt::hash;
use crate::game::movegen::play;
use crate::game::position::Move;
use crate::game::value::Value;
use crate::probe::MoveValue;

/// A move chosen from the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move (combined convention; a lone removal in a remove-pending position).
    pub mv: Move,
    /// Its value for the side making it, after the draw rules (step 1).
    pub value: Value,
    /// Its value in the tables.
    pub table_value: Value,
    /// Moves that had the best value.
    pub candidates: usize,
    /// Replies that keep the opponent's value after the chosen move (`None`: not counted,
    /// because the move had no rival, or the replies' sectors are absent).
    pub replies_keeping: Option<usize>,
}

/// SplitMix64 finaliser.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The number of replies of the opponent, after `mv`, that keep the opponent's value.
fn replies_keeping(oracle: &Oracle, game: &Game, mv: Move) -> Option<usize> {
    let pos = game.position();
    let next = play(game.variant(), pos, mv);
    let counter = counter_after(game.counter(), pos, &next);
    let replies = oracle.move_values(&next, counter)?;
    let best = replies.iter().map(|m| m.value.preference()).max()?;
    Some(
        replies
            .iter()
            .filter(|m| m.value.preference() == best)
            .count(),
    )
}

/// Each move's value after the draw rules (step 1 of the module documentation).
pub fn effective_values(game: &Game, moves: &[MoveValue]) -> Vec<Value> {
    let pos = game.position();
    moves
        .iter()
        .map(|m| {
            let next = play(game.variant(), pos, m.mv);
            if game.drawn_by_rule_after(&next, counter_after(game.counter(), pos, &next)) {
                Value::Draw
            } else {
                m.value
            }
        })
        .collect()
}

/// Choose among `moves` (the tables' values of every legal move of the game's position);
/// `None` when there is no move.
pub fn choose(oracle: &Oracle, game: &Game, moves: &[MoveValue], seed: u64) -> Option<Choice> {
    let values = effective_values(game, moves);
    let best = values.iter().map(|v| v.preference()).max()?;
    let candidates: Vec<usize> = (0..moves.len())
        .filter(|&i| values[i].preference() == best)
        .collect();
    let pos_hash = hash(game.position());
    let tie = |i: usize| -> u64 {
        if seed == 0 {
            i as u64
        } else {
            let m = moves[i].mv;
            let packed = (m.from as u64) << 16 | (m.to as u64) << 8 | m.remove as u64;
            mix(seed ^ mix(pos_hash ^ packed.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        }
    };
    let (chosen, keeping) = if candidates.len() == 1 {
        (candidates[0], None)
    } else {
        let counted: Vec<(usize, Option<usize>)> = candidates
            .iter()
            .map(|&i| (i, replies_keeping(oracle, game, moves[i].mv)))
            .collect();
        *counted
            .iter()
            .min_by_key(|&&(i, k)| (k.unwrap_or(usize::MAX), tie(i)))
            .expect("at least one candidate")
    };
    Some(Choice {
        mv: moves[chosen].mv,
        value: values[chosen],
        table_value: moves[chosen].value,
        candidates: candidates.len(),
        replies_keeping: keeping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::game::DrawRules;
    use crate::game::notation::format_move;
    use crate::game::rules::Variant;
    use crate::game::value::NMoveRule;

    /// White wins in 7; both sides then fly a stone away and back, so that black's b6-a7
    /// would bring the start position back for the third time.
    fn shuffled() -> Game {
        let fen = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes";
        let moves = [
            "d5-c5", "a7-b6", "c5-d5", "b6-a7", "d5-c5", "a7-b6", "c5-d5",
        ];
        Game::from_text(Variant::standard(), DrawRules::default(), fen, &moves).unwrap()
    }

    /// Made-up values: the repeating move gets `repeat`, every other move `other`.
    fn values(game: &Game, repeat: Value, other: Value) -> Vec<MoveValue> {
        let v = game.variant();
        crate::game::movegen::legal_moves(
            v,
            game.position(),
            crate::game::movegen::Convention::Combined,
        )
        .into_iter()
        .map(|mv| MoveValue {
            mv,
            value: if format_move(v, mv) == "b6-a7" {
                repeat
            } else {
                other
            },
        })
        .collect()
    }

    #[test]
    fn draw_rules_come_before_table_values() {
        let game = shuffled();
        let v = *game.variant();
        let oracle = Oracle::none(v);
        // A faster win that repeats the position a third time is only a draw.
        let c = choose(
            &oracle,
            &game,
            &values(&game, Value::Win(3), Value::Win(5)),
            0,
        )
        .unwrap();
        assert_ne!(format_move(&v, c.mv), "b6-a7");
        assert_eq!(c.value, Value::Win(5));
        // A losing side takes the draw.
        let c = choose(
            &oracle,
            &game,
            &values(&game, Value::Loss(10), Value::Loss(4)),
            0,
        )
        .unwrap();
        assert_eq!(format_move(&v, c.mv), "b6-a7");
        assert_eq!((c.value, c.table_value), (Value::Draw, Value::Loss(10)));
        // Without the repetition rule, the N-move rule: the counter is 7, so with N = 8 every
        // move without a removal draws.
        let mut g = game.clone();
        g.set_rules(DrawRules {
            n_move: NMoveRule::new(8).unwrap(),
            threefold: false,
        });
        let c = choose(&oracle, &g, &values(&g, Value::Win(3), Value::Win(5)), 0).unwrap();
        assert_eq!(c.value, Value::Draw);
        g.set_rules(DrawRules {
            n_move: NMoveRule::NONE,
            threefold: false,
        });
        let c = choose(&oracle, &g, &values(&g, Value::Win(3), Value::Win(5)), 0).unwrap();
        assert_eq!(
            (format_move(&v, c.mv).as_str(), c.value),
            ("b6-a7", Value::Win(3))
        );
    }

    #[test]
    fn ties_break_by_order_or_seed() {
        let game = shuffled();
        let v = *game.variant();
        let oracle = Oracle::none(v);
        let all_draws = values(&game, Value::Draw, Value::Draw);
        // b6-a7 repeats (a draw either way): every move is a draw.
        let first = choose(&oracle, &game, &all_draws, 0).unwrap();
        assert_eq!(first.mv, all_draws[0].mv);
        assert_eq!(first.candidates, all_draws.len());
        let picks: std::collections::HashSet<Move> = (1..40)
            .map(|seed| choose(&oracle, &game, &all_draws, seed).unwrap().mv)
            .collect();
        assert!(picks.len() > 5, "seeds spread the choice: {picks:?}");
        assert_eq!(
            choose(&oracle, &game, &all_draws, 17),
            choose(&oracle, &game, &all_draws, 17)
        );
    }
}
