//! Perfect play under every rule set whose tables exist (issue 26): for each named set
//! (millbase's five variants and the Sanmill app's sets, leaving out those whose tables are
//! refused, `Variant::unsupported_by_tables`), the moving-phase sectors 3-3, 3-4 and 4-3
//! (3-3 on the three board; up to 4-4 under `repeated-mills=restricted`, Morabaraba, where a
//! bar matters only when the barred side's opponent can still close a mill without ending
//! the game) are solved into a temporary directory, 100 random positions of them (seeded, a
//! mix of wins, losses and draws, some remove-pending, under Morabaraba some carrying a bar)
//! are written to a `--from` file, and millbase plays itself from each through the protocol,
//! refereed by `millbase match --variant NAME`:
//!
//! * tables without the N-move rule: a position of value win (loss) in `d` plies ends in
//!   that win, after exactly `d` plies (combined convention); a draw ends drawn by
//!   threefold repetition or the N-move rule. The game runs under the set's own draw rules
//!   (N = 100), which cannot cut a line of fewer than N plies short, so only positions whose
//!   distance is below N are taken; under Morabaraba, whose endgame rule (N = 10 while a
//!   side has three stones) would cut rule-free lines, without the N-move rule;
//! * tables under the set's N-move rule (N = 100; docs/NMOVE.md): a win (loss) with DTR `d`
//!   ends in that win, and its first removal or capture comes exactly `d` plies after the
//!   start (a game decided by a blocked side without one: `d - 1` plies); cursed wins, blessed
//!   losses and draws end drawn. Under Morabaraba's endgame N-move rule the N in force is 10
//!   while a side has three stones on the board (`n_at`): its tables under N = 100 follow
//!   it, and so do its games; Mul Mulan is played under N = 10 too, where many wins are
//!   cursed.
//!
//! The same holds at every turn of every game, not only at its start: each game is replayed
//! with the library's referee (which must give the reported result), and at each position
//! (with its counter) the value derived here from the stored values (`derived`: stored
//! positions read, remove-pending ones and those with a bar played out with the equations
//! of docs/NMOVE.md, distances above the N in force marking cursed wins and blessed losses
//! as stored) must
//! be the probe's (`Tablebase::value`, and `Tablebase::value_at` at the counter), must agree
//! with the result, and a decided one must be met with the exact distance: the plies to the
//! end (rule-free) or to the next reset (DTR). The probe's principal variation of every start
//! ends the same way.

use millbase::engine::game::{DrawRules, Game};
use millbase::engine::matches::Rng;
use millbase::movegen::{Convention, legal_moves, outcome, play};
use millbase::notation::format_position;
use millbase::rules::{NO_SQUARE, Stalemate};
use millbase::sectors::SectorIndex;
use millbase::{
    Color, NMoveRule, Position, PvEnd, RuleValue, Sector, Tablebase, Value, Variant, Wdl,
};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_millbase");

/// Start positions per run.
const STARTS: usize = 100;

/// Every named set whose moving-phase tables can be made.
fn sets_with_tables() -> Vec<&'static str> {
    let names: Vec<&'static str> = Variant::names()
        .into_iter()
        .filter(|n| {
            Variant::by_name(n)
                .unwrap()
                .unsupported_by_tables()
                .is_empty()
        })
        .collect();
    // The five variants and the app's sets but one-time-mill.
    assert_eq!(names.len(), 17, "{names:?}");
    assert!(!names.contains(&"one-time-mill"));
    names
}

/// The moving sectors solved for `v` (and sampled): 3-3, 3-4 and 4-3, with 4-4 under
/// `repeated-mills=restricted`, or 3-3 on a board with three stones a side.
fn sectors(v: &Variant) -> Vec<(u8, u8)> {
    if v.stones == 3 {
        vec![(3, 3)]
    } else if v.repeated_mills_restricted {
        vec![(3, 3), (3, 4), (4, 3), (4, 4)]
    } else {
        vec![(3, 3), (3, 4), (4, 3)]
    }
}

/// Solve the sectors of set `name` under the N-move rule `n` (0: none) into a new
/// temporary directory.
fn generate(name: &str, n: u16) -> tempfile::TempDir {
    let v = Variant::by_name(name).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let all = sectors(&v);
    // The sectors nothing else depends on (the rest are solved as their dependencies).
    let top: Vec<String> = all
        .iter()
        .filter(|&&(w, b)| !all.contains(&(w + 1, b)) && !all.contains(&(w, b + 1)))
        .map(|(w, b)| format!("{w}-{b}"))
        .collect();
    let out = Command::new(BIN)
        .args(["generate", "--quiet", "--variant", name, "--n-move-rule"])
        .arg(n.to_string())
        .arg("--dir")
        .arg(dir.path())
        .args(&top)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "generate {name} N={n}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Does `pos` carry a bar of `repeated-mills=restricted` (a side's last mill-closing slide)?
fn has_bar(v: &Variant, pos: &Position) -> bool {
    v.repeated_mills_restricted && pos.last_mill_slide != [(NO_SQUARE, NO_SQUARE); 2]
}

/// A random position of one of `sectors` of `v` (moving phase, no bar) that is not over,
/// with a random side to move; a quarter of the draws are the remove-pending position after
/// a slide that closes a mill, and under `repeated-mills=restricted` half of those the
/// position after its first removal, which carries the slide's bar. `None` when the draw
/// hit an unused slot or a finished game.
fn random_position(v: &Variant, rng: &mut Rng, sectors: &[(u8, u8)]) -> Option<Position> {
    let (w, b) = sectors[rng.below(sectors.len())];
    let index = SectorIndex::new(v, Sector::moving(w, b));
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
    if outcome(v, &pos).is_some() {
        return None;
    }
    if rng.below(4) == 0 {
        let pending = legal_moves(v, &pos, Convention::Split)
            .into_iter()
            .map(|m| play(v, &pos, m))
            .find(|p| p.pending_removal())?;
        if v.repeated_mills_restricted && rng.below(2) == 0 {
            let removal = legal_moves(v, &pending, Convention::Split)[0];
            let barred = play(v, &pending, removal);
            return (outcome(v, &barred).is_none() && !barred.pending_removal()).then_some(barred);
        }
        return Some(pending);
    }
    Some(pos)
}

/// A set's `endgame-n-move-rule`, read from its rules as text.
fn endgame_of(v: &Variant) -> u16 {
    v.rule("endgame-n-move-rule").unwrap().parse().unwrap()
}

/// The N of the N-move rule in force in `pos` under tables solved under `tables_n` (0:
/// none): the set's `endgame-n-move-rule` (read from its rules as text) while either side
/// has exactly three stones on the board, when it is lower (../shared/RULES.md), else N.
fn n_at(v: &Variant, tables_n: u16, pos: &Position) -> u16 {
    let endgame = endgame_of(v);
    let three = [Color::White, Color::Black]
        .iter()
        .any(|&c| pos.stones[c.index()].count_ones() == 3);
    if tables_n > 0 && endgame > 0 && endgame < tables_n && three {
        endgame
    } else {
        tables_n
    }
}

/// The value for the mover of a move to a position of value `next` (for its side to move),
/// at counter 0, under the N-move rule `n` in force before the move and `n_next` after it
/// (0: none), as docs/NMOVE.md derives it: a move that resets the counter (`resets`: it
/// removes or captures a stone) into a position lost (won) for the opponent within `n_next`
/// is a win (loss) with DTR 1, into a blessed loss (cursed win) one with `n + 1`; any other
/// move adds one ply.
fn before(next: Value, resets: bool, n: u16, n_next: u16) -> Value {
    let back = |k: u16| match (n > 0 && resets, k <= n_next) {
        (false, _) => k + 1,
        (true, true) => 1,
        (true, false) => n + 1,
    };
    match next {
        Value::Win(k) => Value::Loss(back(k)),
        Value::Loss(k) => Value::Win(back(k)),
        Value::Draw => Value::Draw,
    }
}

/// Preference of the side choosing: the fastest win first, then draws, the slowest loss last.
fn rank(v: Value) -> (u8, i32) {
    match v {
        Value::Win(k) => (2, -i32::from(k)),
        Value::Draw => (1, 0),
        Value::Loss(k) => (0, i32::from(k)),
    }
}

/// The value of `pos` at counter 0 under the tables' N-move rule `n` (0: none; distances
/// above the N in force, [`n_at`], mark cursed wins and blessed losses, as stored), from the
/// stored values alone: a position without a pending removal and without a bar is read from
/// its table; any other is played out over its moves ([`before`]).
fn derived(tb: &Tablebase, n: u16, pos: &Position) -> Value {
    let v = tb.variant();
    if pos.too_few(pos.to_move) {
        return Value::Loss(0);
    }
    if pos.too_few(pos.to_move.other()) {
        return Value::Win(0);
    }
    if !pos.pending_removal() && !has_bar(v, pos) {
        return tb.value(pos).unwrap();
    }
    let moves = legal_moves(v, pos, Convention::Combined);
    if moves.is_empty() {
        // A blocked side loses (the sets with tables here), under the rule with DTR 1.
        assert_eq!(v.stalemate, Stalemate::Loss);
        return Value::Loss(u16::from(n > 0));
    }
    moves
        .into_iter()
        .map(|m| {
            let next = play(v, pos, m);
            let resets = pos.resets_counter(&next);
            before(
                derived(tb, n, &next),
                resets,
                n_at(v, n, pos),
                n_at(v, n, &next),
            )
        })
        .max_by_key(|&x| rank(x))
        .unwrap()
}

/// A value at counter 0 ([`derived`]) at counter `counter`: decided when its distance fits
/// in what the rule leaves (`counter + d <= n`), else cursed or blessed.
fn at_counter(value: Value, counter: u32, n: u16) -> RuleValue {
    let fits = |d: u16| n == 0 || counter + u32::from(d) <= u32::from(n);
    match value {
        Value::Win(d) if fits(d) => RuleValue::Win(d),
        Value::Win(_) => RuleValue::CursedWin,
        Value::Loss(d) if fits(d) => RuleValue::Loss(d),
        Value::Loss(_) => RuleValue::BlessedLoss,
        Value::Draw => RuleValue::Draw,
    }
}

/// Counts of one run: its starts by value and kind, the turns checked, the games decided by
/// a blocked side before any reset.
#[derive(Debug, Default)]
struct Tally {
    wins: usize,
    losses: usize,
    draws: usize,
    cursed: usize,
    pending: usize,
    barred: usize,
    too_long: usize,
    turns: usize,
    blocked_ends: usize,
}

/// `STARTS` random positions with their values at counter 0 ([`derived`], which the probe
/// must give too, `Tablebase::value` and `Tablebase::value_at`): 15 remove-pending or barred ones whatever their value, and of the others
/// at most 40 wins, 35 losses and 25 drawn ones (draws, cursed wins, blessed losses) while
/// the sampler finds others. `max_plies`: leave out decided positions of that many plies or
/// more.
fn starts(
    tb: &Tablebase,
    seed: u64,
    max_plies: Option<u16>,
    t: &mut Tally,
) -> Vec<(Position, RuleValue)> {
    let v = *tb.variant();
    let n = tb.rule().n();
    let secs = sectors(&v);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut counts = [0usize; 3];
    let caps = [40, 35, 25];
    const SPECIAL: usize = 15;
    let mut tries = 0;
    while out.len() < STARTS {
        tries += 1;
        let Some(pos) = random_position(&v, &mut rng, &secs) else {
            continue;
        };
        let stored = derived(tb, n, &pos);
        let value = at_counter(stored, 0, n_at(&v, n, &pos));
        let fen = format_position(&v, &pos);
        assert_eq!(tb.value(&pos).unwrap(), stored, "{}: {fen}", v.label());
        assert_eq!(tb.value_at(&pos, 0).unwrap(), value, "{}: {fen}", v.label());
        let class = match value {
            RuleValue::Win(d) | RuleValue::Loss(d) if max_plies.is_some_and(|m| d >= m) => {
                t.too_long += 1;
                continue;
            }
            RuleValue::Win(_) => 0,
            RuleValue::Loss(_) => 1,
            _ => 2,
        };
        let special = pos.pending_removal() || has_bar(&v, &pos);
        let room = if special {
            t.pending + t.barred < SPECIAL
        } else {
            counts[class] < caps[class] && out.len() - t.pending - t.barred < STARTS - SPECIAL
        };
        if !room && tries < 50_000 {
            continue;
        }
        counts[class] += 1;
        t.pending += usize::from(pos.pending_removal());
        t.barred += usize::from(has_bar(&v, &pos));
        match value {
            RuleValue::Win(_) => t.wins += 1,
            RuleValue::Loss(_) => t.losses += 1,
            RuleValue::Draw => t.draws += 1,
            RuleValue::CursedWin | RuleValue::BlessedLoss => t.cursed += 1,
        }
        out.push((pos, value));
    }
    out
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// `millbase match --variant NAME --json` of the engine on `dir` against itself from
/// `starts`, under the N-move rule `game_n`: the game objects, in order.
fn run_match(
    name: &str,
    dir: &Path,
    game_n: u16,
    starts: &[(Position, RuleValue)],
) -> Vec<serde_json::Value> {
    let v = Variant::by_name(name).unwrap();
    let file = dir.join("starts.txt");
    let text: String = starts
        .iter()
        .map(|(p, _)| format_position(&v, p) + "\n")
        .collect();
    std::fs::write(&file, text).unwrap();
    let engine = format!("'{BIN}' uci --dir '{}'", dir.display());
    let out = Command::new(BIN)
        .args(["match", "--json", "--movetime", "2000", "--variant", name])
        .arg("--n-move-rule")
        .arg(game_n.to_string())
        .arg("--engine")
        .arg(&engine)
        .arg("--from")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|g: &serde_json::Value| g.get("summary").is_none())
        .collect();
    assert_eq!(games.len(), starts.len(), "{name}: {stdout}");
    games
}

/// Replay a game from its start with the library's referee under the N-move rule `game_n`.
fn replay(v: &Variant, game_n: u16, g: &serde_json::Value) -> Game {
    let rules = DrawRules {
        n_move: NMoveRule::new(game_n).unwrap_or(NMoveRule::NONE),
        threefold: true,
    };
    let mut game = Game::from_text(*v, rules, g["start"].as_str().unwrap(), &[]).unwrap();
    for m in g["moves"].as_array().unwrap() {
        assert!(game.result().is_none(), "moves after the end: {g}");
        game.play_text(m.as_str().unwrap()).unwrap();
    }
    game
}

/// Check every turn of a replayed game whose winner is `winner`: at the position before
/// each action, with its counter (0 when a removal is pending: it resets the counter before
/// any check), the probe's value (`Tablebase::value`, and `Tablebase::value_at` at the
/// counter) is the one derived from the stored values, a decided one
/// names the winner and is met exactly (the combined plies to the end without the rule; to
/// the next reset, or one more than the plies to a blocked side's turn, under it), and an
/// undecided one belongs to a drawn game. Returns whether the game ended by a blocked side
/// without any reset.
fn check_turns(tb: &Tablebase, game: &Game, winner: Option<Color>, what: &str) -> bool {
    let v = *tb.variant();
    let n = tb.rule().n();
    let plies = game.plies();
    // Combined plies of actions i..j: a lone removal counts only as the first action.
    let count = |i: usize, j: usize| {
        (i..j)
            .filter(|&k| k == i || !plies[k].mv.is_lone_removal())
            .count()
    };
    let mut blocked_first = false;
    for i in 0..plies.len() {
        let (pos, counter) = if i == 0 {
            (*game.start(), game.start_info().counter)
        } else {
            (plies[i - 1].pos, plies[i - 1].counter)
        };
        let counter = if pos.pending_removal() { 0 } else { counter };
        let stored = derived(tb, n, &pos);
        let value = at_counter(stored, counter, n_at(&v, n, &pos));
        let fen = format_position(&v, &pos);
        let at = format!("turn {i} ({fen}, counter {counter}) {value:?}: {what}");
        assert_eq!(tb.value(&pos).unwrap(), stored, "the probe's value: {at}");
        assert_eq!(
            tb.value_at(&pos, counter).unwrap(),
            value,
            "the probe: {at}"
        );
        // The WDL probe answers for counter 0 (what the `.mbw` files hold).
        let wdl = match at_counter(stored, 0, n_at(&v, n, &pos)) {
            RuleValue::Win(_) => Wdl::Win,
            RuleValue::Loss(_) => Wdl::Loss,
            _ => Wdl::Draw,
        };
        assert_eq!(
            tb.wdl(&pos).unwrap(),
            wdl,
            "the probe's WDL at counter 0: {at}"
        );
        let (d, won) = match value {
            RuleValue::Win(d) => (usize::from(d), true),
            RuleValue::Loss(d) => (usize::from(d), false),
            _ => {
                assert_eq!(
                    winner, None,
                    "an undecided position in a decided game: {at}"
                );
                continue;
            }
        };
        let me = pos.to_move;
        let expected = if won { me } else { me.other() };
        assert_eq!(winner, Some(expected), "the winner: {at}");
        if n == 0 {
            assert_eq!(count(i, plies.len()), d, "the plies to the end: {at}");
            continue;
        }
        match (i..plies.len()).find(|&k| plies[k].counter == 0) {
            Some(j) => assert_eq!(count(i, j + 1), d, "the plies to the next reset: {at}"),
            None => {
                let last = &plies[plies.len() - 1].pos;
                assert!(
                    legal_moves(&v, last, Convention::Split).is_empty(),
                    "no reset: a blocked side's turn: {at}"
                );
                assert_eq!(
                    count(i, plies.len()) + 1,
                    d,
                    "the plies to a blocked side: {at}"
                );
                blocked_first |= i == 0;
            }
        }
    }
    blocked_first
}

/// The probe's principal variation from `pos` at counter 0: why it ended, its length and
/// the plies up to and including its first move that removes or captures a stone.
fn pv(tb: &Tablebase, pos: &Position) -> (PvEnd, usize, Option<usize>) {
    let v = *tb.variant();
    let (mut cur, mut len, mut reset) = (*pos, 0, None);
    let end = tb
        .principal_variation_with(pos, 0, 1000, |m| {
            let next = play(&v, &cur, m.mv);
            len += 1;
            if reset.is_none() && cur.resets_counter(&next) {
                reset = Some(len);
            }
            cur = next;
        })
        .unwrap();
    (end, len, reset)
}

/// One run: set `name`, its tables in `dir` (solved under the N-move rule `tables_n`, 0:
/// none), games refereed under `game_n`. Checks every game, every turn of it, and every
/// start's principal variation against the stored values.
fn check_run(name: &str, dir: &Path, tables_n: u16, game_n: u16, seed: u64) -> Tally {
    let clock = std::time::Instant::now();
    let v = Variant::by_name(name).unwrap();
    let tb = Tablebase::open(dir, v).unwrap();
    assert_eq!(tb.rule().n(), tables_n, "{name}");
    let mut t = Tally::default();
    // Rule-free distances are exact in a game under a rule only below its N.
    let max_plies = (tables_n == 0 && game_n > 0).then_some(game_n);
    let starts = starts(&tb, seed, max_plies, &mut t);
    let sampled = clock.elapsed();
    let games = run_match(name, dir, game_n, &starts);
    let played = clock.elapsed();
    for (g, (pos, value)) in games.iter().zip(&starts) {
        let what = format!("{name} (tables N={tables_n}, game N={game_n}) {value:?}: {g}");
        assert_eq!(g["forfeit"], false, "a protocol error: {what}");
        let reason = g["reason"].as_str().unwrap();
        let plies = g["plies"].as_u64().unwrap() as usize;
        let game = replay(&v, game_n, g);
        assert_eq!(game.start(), pos, "{what}");
        let result = game.result().expect("a finished game");
        assert_eq!(result.to_string(), reason, "the referee's replay: {what}");
        assert_eq!(game.combined_plies(), plies, "{what}");
        let winner = result.winner;
        assert_eq!(g["winner"].as_str(), winner.map(color_name), "{what}");
        // The start: the game's result.
        match *value {
            RuleValue::Win(_) => assert_eq!(winner, Some(pos.to_move), "{what}"),
            RuleValue::Loss(_) => assert_eq!(winner, Some(pos.to_move.other()), "{what}"),
            _ => {
                assert_eq!(winner, None, "must be drawn: {what}");
                let by_rule = reason.contains("-move rule");
                assert!(
                    reason.contains("threefold repetition") || (by_rule && game_n > 0),
                    "drawn by a draw rule: {what}"
                );
            }
        }
        // Every turn, the start included: values and distances.
        t.blocked_ends += usize::from(check_turns(&tb, &game, winner, &what));
        t.turns += game.plies().len();
        // The probe's principal variation.
        let (end, len, pv_reset) = pv(&tb, pos);
        match *value {
            RuleValue::Win(d) | RuleValue::Loss(d) => {
                assert_eq!(end, PvEnd::GameOver, "the pv: {what}");
                let d = usize::from(d);
                if tables_n == 0 {
                    assert_eq!(len, d, "the pv's plies: {what}");
                } else {
                    assert_eq!(pv_reset.unwrap_or(len + 1), d, "the pv's DTR: {what}");
                }
            }
            _ => assert!(
                matches!(end, PvEnd::Repetition { .. })
                    || (end == PvEnd::NMoveRule && tables_n > 0),
                "the pv of a draw: {end:?}: {what}"
            ),
        }
    }
    eprintln!(
        "{name} tables N={tables_n} game N={game_n}: {t:?}; sampled in {sampled:.1?}, \
         played by {played:.1?}, checked by {:.1?}",
        clock.elapsed()
    );
    assert!(
        t.wins >= 10 && t.losses >= 10 && t.draws + t.cursed >= 5 && t.pending >= 1,
        "{name}: a mix of values: {t:?}"
    );
    if v.repeated_mills_restricted {
        assert!(t.barred >= 3, "{name}: starts with a bar: {t:?}");
    }
    t
}

/// The sets, two at a time, each with its own tables (one directory per distinct variant:
/// `nine-mens-morris` and `lasker-morris` are `std` and `lasker`).
fn every_set(tables_n: impl Fn(&Variant) -> u16 + Sync, game_n: impl Fn(&Variant) -> u16 + Sync) {
    let names = sets_with_tables();
    let mut groups: HashMap<String, Vec<&'static str>> = HashMap::new();
    for &n in &names {
        let label = Variant::by_name(n).unwrap().label();
        groups.entry(label).or_default().push(n);
    }
    let mut groups: Vec<Vec<&str>> = groups.into_values().collect();
    groups.sort();
    let halves: Vec<Vec<Vec<&str>>> = [0, 1]
        .iter()
        .map(|h| groups.iter().skip(*h).step_by(2).cloned().collect())
        .collect();
    std::thread::scope(|s| {
        for half in &halves {
            let (tables_n, game_n) = (&tables_n, &game_n);
            s.spawn(move || {
                for group in half {
                    let v = Variant::by_name(group[0]).unwrap();
                    let n = tables_n(&v);
                    let dir = generate(group[0], n);
                    for (k, name) in group.iter().enumerate() {
                        check_run(name, dir.path(), n, game_n(&v), 26 + k as u64);
                    }
                }
            });
        }
    });
}

/// The N-move rule of a set's games: its own (100 in every named set).
fn own_n(v: &Variant) -> u16 {
    assert_eq!(v.n_move_rule, 100, "{}", v.label());
    v.n_move_rule
}

#[test]
fn rule_free_tables_every_set() {
    every_set(
        |_| 0,
        // A lower endgame N (Morabaraba) would draw rule-free lines: no N-move rule then.
        |v| {
            let endgame = endgame_of(v);
            if endgame > 0 && endgame < own_n(v) {
                0
            } else {
                own_n(v)
            }
        },
    );
}

#[test]
fn tables_under_each_sets_n_move_rule() {
    // Morabaraba: N = 100, and its endgame N of 10 where a side has three stones on the
    // board, in its tables (4-4 leads into sectors of the endgame N) and its games alike.
    every_set(own_n, own_n);
}

#[test]
fn tables_under_a_small_n() {
    // Mul Mulan (intervention captures) under N = 10: many of its wins are cursed.
    let dir = generate("mul-mulan", 10);
    let t = check_run("mul-mulan", dir.path(), 10, 10, 10);
    assert!(t.cursed >= 5, "{t:?}");
}
