//! Random positions of the standard game's small moving sectors for the engine's tests:
//! not over, with a random side to move, a quarter of them remove-pending (a mill just
//! closed by a slide).

#![allow(dead_code)]

use millbase::Variant;
use millbase::engine::matches::Rng;
use millbase::movegen::{Convention, legal_moves, outcome, play};
use millbase::sectors::SectorIndex;
use millbase::{Color, Position, Sector};

/// The moving sectors 3-3, 3-4, 4-3 and 4-4.
pub const SMALL_SECTORS: [(u8, u8); 4] = [(3, 3), (3, 4), (4, 3), (4, 4)];

/// A random position of one of `sectors` (moving phase) that is not over, or `None` when the
/// draw hit an unused slot or a finished game (draw again).
pub fn random_position(rng: &mut Rng, sectors: &[(u8, u8)]) -> Option<Position> {
    let v = Variant::standard();
    let (w, b) = sectors[rng.below(sectors.len())];
    let index = SectorIndex::new(&v, Sector::moving(w, b));
    let (us, them) = index.position(rng.next_u64() % index.slots())?;
    let to_move = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut stones = [0; 2];
    stones[to_move.index()] = us;
    stones[to_move.other().index()] = them;
    let pos = Position::new(stones, [0, 0], to_move);
    if outcome(&v, &pos).is_some() {
        return None;
    }
    if rng.below(4) == 0 {
        return legal_moves(&v, &pos, Convention::Split)
            .into_iter()
            .map(|m| play(&v, &pos, m))
            .find(|p| p.pending_removal());
    }
    Some(pos)
}
