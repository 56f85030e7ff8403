//! The probe library over real tables: values read back equal the solver's, probes of whole
//! positions (either colour to move, remove-pending) agree with the tables, moves are
//! consistent with the position's value, many threads get the single-threaded answers, and a
//! missing table names its file.

use millbase::format::{TableSet, WriteOptions, write_sector};
use millbase::movegen::{Convention, legal_moves, play};
use millbase::solver::{SolveOptions, SolvedValues, solve_component};
use millbase::{Color, NMoveRule, Position, PvEnd, RuleValue, Sector, Tablebase, Value, Variant};
use rayon::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// Solve `targets` (and what they need, in order) and write them into `dir`.
fn solve_and_write(v: &Variant, dir: &Path, targets: &[Sector]) -> SolvedValues {
    let mut solved = SolvedValues::new();
    for c in millbase::sectors::solving_order(v, targets) {
        if c.sectors().iter().all(|s| solved.contains_key(s)) {
            continue;
        }
        for out in solve_component(v, &c, &solved, &SolveOptions::default()).unwrap() {
            write_sector(dir, v, out.sector, &out.values, &WriteOptions::default()).unwrap();
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    solved
}

fn small_tables() -> (tempfile::TempDir, SolvedValues) {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::standard();
    let solved = solve_and_write(&v, dir.path(), &[Sector::moving(3, 4)]);
    (dir, solved)
}

/// Deterministic pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick(&mut self, set: u32) -> u8 {
        let n = set.count_ones() as u64;
        let mut k = self.next() % n;
        let mut s = set;
        loop {
            let p = s.trailing_zeros();
            if k == 0 {
                return p as u8;
            }
            k -= 1;
            s &= s - 1;
        }
    }
}

/// A random moving-phase position with `w` stones of the side to move and `b` of the other.
fn random_position(rng: &mut Rng, w: u32, b: u32) -> Position {
    let mut free = 0xFF_FFFFu32;
    let mut take = |n: u32, rng: &mut Rng| {
        let mut set = 0;
        for _ in 0..n {
            let p = rng.pick(free);
            free &= !(1 << p);
            set |= 1 << p;
        }
        set
    };
    let us = take(w, rng);
    let them = take(b, rng);
    let to_move = if rng.next().is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    let mut stones = [0; 2];
    stones[to_move.index()] = us;
    stones[to_move.other().index()] = them;
    Position::new(stones, [0, 0], to_move)
}

#[test]
fn values_read_back_equal_the_solver_for_every_sector_up_to_5_5() {
    let dir = tempfile::tempdir().unwrap();
    let v = Variant::standard();
    let solved = solve_and_write(&v, dir.path(), &[Sector::moving(5, 5)]);
    assert_eq!(solved.len(), 9, "3-3 … 5-5");
    let tables = TableSet::new(dir.path(), v);
    for (&s, values) in &solved {
        assert_eq!(&tables.read_values(s).unwrap(), values.as_ref(), "{s}");
        // Slot by slot through the probing path (blocks, cache, symbols).
        let wrong = (0..values.len() as u64)
            .into_par_iter()
            .filter(|&slot| {
                tables.value(s, slot).unwrap().map(|x| x.encode())
                    != Value::decode(values[slot as usize]).map(|x| x.encode())
            })
            .count();
        assert_eq!(wrong, 0, "{s}");
    }
}

#[test]
fn probes_of_positions_agree_with_the_tables_and_the_moves() {
    let (dir, solved) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(7);
    for i in 0..3000 {
        let (w, b) = [(3, 3), (3, 4), (4, 3)][i % 3];
        let pos = random_position(&mut rng, w, b);
        let sector = Sector::moving(w as u8, b as u8);
        let slot = millbase::sectors::SectorIndex::new(&v, sector).slot(pos.us(), pos.them());
        let expect = Value::decode(solved[&sector][slot as usize]).unwrap();
        let value = tb.value(&pos).unwrap();
        assert_eq!(value, expect);
        assert_eq!(millbase::Wdl::of(value), tb.wdl(&pos).unwrap());
        let moves = tb.move_values(&pos).unwrap();
        assert_eq!(
            moves.len(),
            legal_moves(&v, &pos, Convention::Combined).len()
        );
        match moves.first() {
            None => assert_eq!(value, Value::Loss(0)),
            Some(best) => assert_eq!(best.value, value, "best move keeps the value"),
        }
        for m in &moves {
            let next = play(&v, &pos, m.mv);
            assert_eq!(m.value, tb.value(&next).unwrap().before_move());
        }
        for b in tb.best_moves(&pos).unwrap() {
            assert_eq!(b.value, value);
        }
    }
}

#[test]
fn principal_variation_ends_the_game_in_the_promised_plies() {
    let (dir, _) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(11);
    let mut checked = 0;
    while checked < 200 {
        let pos = random_position(&mut rng, 3, 3);
        let value = tb.value(&pos).unwrap();
        let Some(plies) = value.plies() else { continue };
        let line = tb.principal_variation(&pos, 1000).unwrap();
        assert_eq!(line.len(), plies as usize, "{value}");
        let mut cur = pos;
        for (k, m) in line.iter().enumerate() {
            // Each move keeps the remaining distance, side by side.
            let remaining = plies - k as u16;
            let expect = if k % 2 == 0 { value } else { flip(value) };
            assert_eq!(m.value.plies(), Some(remaining));
            assert_eq!(m.value.kind(), expect.kind());
            cur = play(&v, &cur, m.mv);
        }
        assert_eq!(tb.value(&cur).unwrap(), Value::Loss(0));
        checked += 1;
    }
}

/// The positions along a line: the first, then the one after each move.
fn positions_along(v: &Variant, pos: &Position, moves: &[millbase::Move]) -> Vec<Position> {
    let mut out = vec![*pos];
    for &mv in moves {
        out.push(play(v, out.last().unwrap(), mv));
    }
    out
}

#[test]
fn principal_variations_end_the_game_or_stop_where_a_draw_repeats() {
    let (dir, _) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(29);
    let (mut draws, mut decisive) = (0, 0);
    for k in 0..400 {
        let pos = random_position(&mut rng, 3 + k % 2, 4 - k % 2);
        let value = tb.value(&pos).unwrap();
        // No limit at all: a drawn line must stop by itself.
        let mut line = Vec::new();
        let end = tb
            .principal_variation_with(&pos, 0, usize::MAX, |m| line.push(*m))
            .unwrap();
        let moves: Vec<_> = line.iter().map(|m| m.mv).collect();
        let along = positions_along(&v, &pos, &moves);
        match value.plies() {
            Some(plies) => {
                decisive += 1;
                assert_eq!(end, PvEnd::GameOver, "{value}");
                assert_eq!(line.len(), plies as usize, "{value}");
            }
            None => {
                draws += 1;
                let PvEnd::Repetition { ply } = end else {
                    panic!("a drawn line ended by {end:?}");
                };
                // The last move brings back the position after `ply`, and nothing before it
                // repeats.
                let (last, before) = along.split_last().unwrap();
                assert!(ply < line.len());
                assert_eq!(*last, before[ply]);
                let distinct: std::collections::HashSet<_> = before.iter().collect();
                assert_eq!(distinct.len(), before.len());
                assert!(line.iter().all(|m| m.value == RuleValue::Draw));
                // A limit below the line's length cuts it there.
                let mut cut = Vec::new();
                let end = tb
                    .principal_variation_with(&pos, 0, line.len() - 1, |m| cut.push(*m))
                    .unwrap();
                assert_eq!((end, &cut[..]), (PvEnd::MaxPlies, &line[..line.len() - 1]));
            }
        }
        // The line without the rule's values is the same line.
        let plain: Vec<_> = tb
            .principal_variation(&pos, usize::MAX)
            .unwrap()
            .iter()
            .map(|m| m.mv)
            .collect();
        assert_eq!(plain, moves);
        assert_eq!(
            tb.principal_variation_at(&pos, 0, usize::MAX).unwrap(),
            line
        );
    }
    assert!(
        draws > 50 && decisive > 50,
        "{draws} draws, {decisive} wins or losses"
    );
}

#[test]
fn under_the_n_move_rule_a_drawn_line_ends_at_n_plies_or_a_repetition() {
    let v = Variant::standard();
    let rule = NMoveRule::new(6).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut solved = SolvedValues::new();
    let solve = SolveOptions {
        rule,
        ..SolveOptions::default()
    };
    for c in millbase::sectors::solving_order(&v, &[Sector::moving(3, 4)]) {
        if solved.contains_key(&c.first()) {
            continue;
        }
        for out in solve_component(&v, &c, &solved, &solve).unwrap() {
            let options = WriteOptions {
                rule,
                ..WriteOptions::default()
            };
            write_sector(dir.path(), &v, out.sector, &out.values, &options).unwrap();
            solved.insert(out.sector, Arc::new(out.values));
        }
    }
    let tb = Tablebase::open(dir.path(), v).unwrap();
    assert_eq!(tb.rule(), rule);
    let mut rng = Rng(31);
    let mut ends = std::collections::HashMap::new();
    for k in 0..300 {
        let pos = random_position(&mut rng, 3 + k % 2, 4 - k % 2);
        let counter = k % 4;
        let value = tb.value_at(&pos, counter).unwrap();
        let mut line = Vec::new();
        let end = tb
            .principal_variation_with(&pos, counter, usize::MAX, |m| line.push(*m))
            .unwrap();
        let moves: Vec<_> = line.iter().map(|m| m.mv).collect();
        let along = positions_along(&v, &pos, &moves);
        // The counter along the line: reset by a removal or placement.
        let mut c = counter;
        for m in &moves {
            c = if m.removes() || m.is_place() {
                0
            } else {
                c + 1
            };
        }
        match value {
            RuleValue::Win(d) | RuleValue::Loss(d) => {
                assert_eq!(end, PvEnd::GameOver, "{value:?}");
                assert!(line.len() >= d as usize);
            }
            _ => match end {
                PvEnd::NMoveRule => assert_eq!(c, 6, "{value:?} {line:?}"),
                PvEnd::Repetition { ply } => {
                    assert_eq!(along.last(), Some(&along[ply]));
                    assert!(c <= 6);
                }
                other => panic!("{value:?} ended by {other:?}"),
            },
        }
        *ends.entry(std::mem::discriminant(&end)).or_insert(0) += 1;
    }
    // All three ways to end were seen.
    assert_eq!(ends.len(), 3, "{ends:?}");
}

fn flip(v: Value) -> Value {
    match v {
        Value::Win(n) => Value::Loss(n),
        Value::Loss(n) => Value::Win(n),
        Value::Draw => Value::Draw,
    }
}

#[test]
fn remove_pending_positions_take_the_best_removal() {
    let (dir, _) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(5);
    let mut checked = 0;
    while checked < 300 {
        let pos = random_position(&mut rng, 3, 4);
        // Play a mill-closing slide in the split convention: removal pending.
        let Some(mv) = legal_moves(&v, &pos, Convention::Split)
            .into_iter()
            .find(|&mv| play(&v, &pos, mv).pending_removal())
        else {
            continue;
        };
        let pending = play(&v, &pos, mv);
        let removals = legal_moves(&v, &pending, Convention::Split);
        let best = removals
            .iter()
            .map(|&r| tb.value(&play(&v, &pending, r)).unwrap().before_move())
            .max_by_key(|x| x.preference())
            .unwrap();
        assert_eq!(tb.value(&pending).unwrap(), best);
        // The same as the combined move with the best removal, seen from before the move.
        let combined = tb
            .move_values(&pos)
            .unwrap()
            .into_iter()
            .filter(|m| m.mv.from == mv.from && m.mv.to == mv.to)
            .map(|m| m.value)
            .max_by_key(|x| x.preference())
            .unwrap();
        assert_eq!(combined, best);
        checked += 1;
    }
}

#[test]
fn many_threads_get_the_single_threaded_answers() {
    let (dir, _) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(99);
    let positions: Vec<Position> = (0..2000)
        .map(|i| {
            let (w, b) = [(3, 3), (3, 4), (4, 3)][i % 3];
            random_position(&mut rng, w, b)
        })
        .collect();
    let single: Vec<_> = positions
        .iter()
        .map(|p| (tb.value(p).unwrap(), tb.move_values(p).unwrap()))
        .collect();
    // A fresh tablebase so that the threads race to open files and fill the cache.
    let shared = Tablebase::open(dir.path(), v).unwrap();
    std::thread::scope(|scope| {
        for t in 0..8 {
            let (shared, positions, single) = (&shared, &positions, &single);
            scope.spawn(move || {
                for k in 0..positions.len() {
                    let i = (k * 7 + t * 131) % positions.len();
                    let p = &positions[i];
                    assert_eq!(shared.value(p).unwrap(), single[i].0);
                    assert_eq!(shared.move_values(p).unwrap(), single[i].1);
                }
            });
        }
    });
}

#[test]
fn a_missing_table_names_the_file_needed() {
    let (dir, _) = small_tables();
    let v = Variant::standard();
    let tb = Tablebase::open(dir.path(), v).unwrap();
    let mut rng = Rng(3);
    let pos = random_position(&mut rng, 5, 5);
    let err = tb.value(&pos).unwrap_err().to_string();
    assert!(err.contains("5-5-0-0.mbw"), "{err}");
    assert!(Tablebase::open(dir.path().join("nope"), v).is_err());
}
