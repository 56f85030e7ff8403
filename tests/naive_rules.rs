//! millbase's move generator against a naive referee (tests/common/naive_rules.rs) written
//! separately from docs/RULE-SETS.md: on positions of random games under every named rule set
//! and under random combinations of the options, the legal moves (split convention), the
//! position after each move and the outcome must agree. Also: every compared position string
//! reads back to the same position, and the combined convention's moves are the split moves
//! followed by their removals.

#[path = "common/naive_rules.rs"]
mod naive;

use millbase::movegen::{Convention, Outcome, legal_moves, outcome, play};
use millbase::notation::{format_move, format_position, parse_position};
use millbase::rules::KEYS;
use millbase::{Move, Position, Variant};
use naive::{Blocked, Full, Mv, Out, PlacingMill, Rules, St};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::OnceLock;

/// Positions compared per named rule set.
const PER_SET: usize = 100_000;
/// Random combinations of options, and positions compared under each.
const COMBOS: usize = 40;
const PER_COMBO: usize = 8_000;
/// Longest game played (the N-move rule would have drawn it long before).
const MAX_PLIES: usize = 400;

/// A tiny xorshift generator: deterministic games without dependencies.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A compared position and what the move that led to it started (naive referee's events).
#[derive(Clone, Copy)]
struct Sample {
    pos: Position,
    blocked: bool,
}

/// The games of one rule set.
struct Corpus {
    label: String,
    variant: Variant,
    named: bool,
    /// Each game's positions, in order.
    games: Vec<Vec<Sample>>,
}

impl Corpus {
    fn positions(&self) -> impl Iterator<Item = &Sample> {
        self.games.iter().flatten()
    }
}

/// Values tried for each option key (the doc's table; invalid combinations are dropped).
fn values(key: &str) -> &'static [&'static str] {
    match key {
        "stones" => &["9", "10", "11", "12", "12", "6", "3"],
        "diagonals" => &["off", "on"],
        "fly" => &["3", "4", "off"],
        "remove-from-mills" => &["last", "always"],
        "placing-mill" => &[
            "remove",
            "mark",
            "from-hand",
            "from-hand-again",
            "by-mill-counts",
        ],
        "moving-first" => &["white", "black"],
        "board-full" => &[
            "white-loses",
            "draw",
            "mover-removes",
            "white-then-black",
            "black-then-white",
        ],
        "stalemate" => &[
            "loss",
            "pass",
            "remove-and-move",
            "remove-and-pass",
            "draw",
            "both-remove",
        ],
        "repeated-mills" => &["allowed", "restricted"],
        "capture" => &["none", "intervention"],
        "n-move-rule" | "endgame-n-move-rule" => &["0", "10", "100"],
        _ => &["off", "on"],
    }
}

/// `COMBOS` valid random combinations: a named set with each key set at random, half the time.
fn random_variants() -> Vec<Variant> {
    let mut rng = Rng::new(2026);
    let names = Variant::names();
    let mut out = Vec::new();
    while out.len() < COMBOS {
        let mut v = Variant::by_name(names[rng.below(names.len())]).unwrap();
        let mut ok = true;
        for key in KEYS {
            if rng.chance(50) {
                let vals = values(key);
                match v.with_rule(key, vals[rng.below(vals.len())]) {
                    Ok(w) => v = w,
                    Err(_) => ok = false,
                }
            }
        }
        if ok && v.validate().is_ok() {
            out.push(v);
        }
    }
    out
}

/// Does the stone move close a mill of the mover (naive geometry)?
fn closes(r: &Rules, s: &St, mv: Mv) -> bool {
    let me = s.to_move;
    let (from, to) = match mv {
        Mv::Place(to) => (None, to),
        Mv::Slide(f, t) => (Some(f), t),
        Mv::Remove(_) => return false,
    };
    let stone = |q: usize| q == to || (Some(q) != from && s.cell[q] == naive::Cell::Stone(me));
    r.mills
        .iter()
        .any(|m| m.contains(&to) && m.iter().all(|&q| stone(q)))
}

/// How a game chooses stone moves: at random, avoiding mills, seeking mills, or (moving) the
/// move that leaves the opponent fewest moves.
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Random,
    Avoid,
    Seek,
    Block,
}

fn choose(r: &Rules, s: &St, moves: &[Mv], style: Style, rng: &mut Rng) -> Mv {
    if matches!(moves[0], Mv::Remove(_)) || rng.chance(10) {
        return moves[rng.below(moves.len())];
    }
    let pick = |pred: &dyn Fn(Mv) -> bool, rng: &mut Rng| {
        let good: Vec<Mv> = moves.iter().copied().filter(|&m| pred(m)).collect();
        if good.is_empty() {
            moves[rng.below(moves.len())]
        } else {
            good[rng.below(good.len())]
        }
    };
    match style {
        Style::Random => moves[rng.below(moves.len())],
        Style::Avoid => pick(&|m| !closes(r, s, m), rng),
        Style::Seek => pick(&|m| closes(r, s, m), rng),
        Style::Block => {
            let mut best = Vec::new();
            let mut fewest = usize::MAX;
            for &m in moves {
                let (t, _) = s.play(r, m);
                let n = if t.to_move == s.to_move {
                    1000
                } else {
                    t.stone_moves(r).len()
                };
                if n < fewest {
                    fewest = n;
                    best.clear();
                }
                if n == fewest {
                    best.push(m);
                }
            }
            best[rng.below(best.len())]
        }
    }
}

/// Random games under `v` (driven by the naive referee) until `target` positions.
fn corpus(label: String, variant: Variant, named: bool, target: usize, seed: u64) -> Corpus {
    let r = Rules::of(&variant);
    let mut rng = Rng::new(seed);
    let mut games = Vec::new();
    let mut total = 0;
    let styles = [Style::Random, Style::Avoid, Style::Seek, Style::Block];
    while total < target {
        let placing = styles[rng.below(3)];
        let moving = styles[rng.below(4)];
        let mut s = St::start(&r);
        let mut game = vec![Sample {
            pos: s.to_pos(&r),
            blocked: false,
        }];
        for ply in 0..MAX_PLIES {
            let moves = s.moves(&r);
            if moves.is_empty() || s.outcome(&r).is_some() {
                break;
            }
            // Long games turn to seeking mills, so that most games reach their end.
            let style = if s.hand[s.to_move] > 0 {
                placing
            } else if ply > 150 && moving != Style::Block {
                Style::Seek
            } else {
                moving
            };
            let mv = choose(&r, &s, &moves, style, &mut rng);
            let (t, ev) = s.play(&r, mv);
            s = t;
            game.push(Sample {
                pos: s.to_pos(&r),
                blocked: ev.blocked,
            });
        }
        total += game.len();
        games.push(game);
    }
    Corpus {
        label,
        variant,
        named,
        games,
    }
}

/// Every rule set's games, made once for all tests (two threads).
fn corpora() -> &'static [Corpus] {
    static ALL: OnceLock<Vec<Corpus>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut jobs: Vec<(String, Variant, bool, usize)> = Variant::names()
            .into_iter()
            .map(|n| (n.to_string(), Variant::by_name(n).unwrap(), true, PER_SET))
            .collect();
        for v in random_variants() {
            jobs.push((v.label(), v, false, PER_COMBO));
        }
        let jobs: Vec<(usize, (String, Variant, bool, usize))> =
            jobs.into_iter().enumerate().collect();
        let mut out: Vec<(usize, Corpus)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|t| {
                    let mine: Vec<_> = jobs.iter().filter(|(i, _)| i % 2 == t).cloned().collect();
                    scope.spawn(move || {
                        mine.into_iter()
                            .map(|(i, (label, v, named, target))| {
                                (i, corpus(label, v, named, target, 7 + i as u64))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        out.sort_by_key(|(i, _)| *i);
        out.into_iter().map(|(_, c)| c).collect()
    })
}

/// Run `f` over the corpora on two threads; collect its messages.
fn each_corpus(f: impl Fn(&Corpus) -> Vec<String> + Sync) -> Vec<String> {
    let all = corpora();
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (0..2)
            .map(|t| {
                scope.spawn(move || {
                    all.iter()
                        .enumerate()
                        .filter(|(i, _)| i % 2 == t)
                        .flat_map(|(_, c)| f(c))
                        .collect::<Vec<String>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    })
}

/// millbase's stone move as the naive referee's (points are numbered alike).
fn naive_move(r: &Rules, m: Move) -> Mv {
    let _ = r;
    if m.is_lone_removal() {
        Mv::Remove(m.remove as usize)
    } else if m.is_place() {
        Mv::Place(m.to as usize)
    } else {
        Mv::Slide(m.from as usize, m.to as usize)
    }
}

fn out_of(o: Option<Outcome>) -> Option<Out> {
    o.map(|o| match o {
        Outcome::Loss => Out::Loss,
        Outcome::Win => Out::Win,
        Outcome::Draw => Out::Draw,
    })
}

/// What the compared positions of one rule set reached.
#[derive(Default, Debug)]
struct Counts {
    positions: usize,
    marks: usize,
    pending: usize,
    both_sides: usize,
    negative: usize,
    full: usize,
    blocked: usize,
    ended: usize,
}

/// Compare one position; differences as messages.
fn compare(v: &Variant, r: &Rules, label: &str, pos: &Position, bad: &mut Vec<String>) {
    let s = St::from_pos(r, pos);
    let text = format_position(v, pos);
    let ours: Vec<(String, Mv)> = s
        .moves(r)
        .into_iter()
        .map(|m| (St::text(r, m), m))
        .collect();
    let theirs: Vec<(String, Move)> = legal_moves(v, pos, Convention::Split)
        .into_iter()
        .map(|m| (format_move(v, m), m))
        .collect();
    let a: BTreeSet<&str> = ours.iter().map(|(t, _)| t.as_str()).collect();
    let b: BTreeSet<&str> = theirs.iter().map(|(t, _)| t.as_str()).collect();
    if a != b || theirs.len() != b.len() {
        bad.push(format!(
            "{label}: {text}: moves differ: only naive {:?}, only millbase {:?}",
            a.difference(&b).collect::<Vec<_>>(),
            b.difference(&a).collect::<Vec<_>>()
        ));
    }
    for (t, m) in &theirs {
        let Some((_, n)) = ours.iter().find(|(u, _)| u == t) else {
            continue;
        };
        let mine = s.play(r, *n).0.to_pos(r);
        let next = play(v, pos, *m);
        if mine != next {
            bad.push(format!(
                "{label}: {text}: after {t}: naive {} / millbase {}\n  naive    {mine:?}\n  millbase {next:?}",
                format_position(v, &mine),
                format_position(v, &next)
            ));
        }
    }
    let (x, y) = (s.outcome(r), out_of(outcome(v, pos)));
    if x != y {
        bad.push(format!(
            "{label}: {text}: outcome naive {x:?} / millbase {y:?}"
        ));
    }
}

#[test]
fn millbase_agrees_with_the_naive_referee() {
    let messages = each_corpus(|c| {
        let v = &c.variant;
        let r = Rules::of(v);
        let mut bad = Vec::new();
        let mut n = Counts::default();
        for smp in c.positions() {
            let s = St::from_pos(&r, &smp.pos);
            n.positions += 1;
            n.marks += s.has_marks() as usize;
            n.pending += (s.rem[s.to_move] != 0) as usize;
            n.both_sides += (s.rem[0] != 0 && s.rem[1] != 0) as usize;
            n.negative += (s.rem[s.to_move] < 0) as usize;
            n.full += s.board_full(&r) as usize;
            n.blocked += smp.blocked as usize;
            n.ended += s.outcome(&r).is_some() as usize;
            compare(v, &r, &c.label, &smp.pos, &mut bad);
        }
        let mut msgs: Vec<String> = bad.into_iter().take(20).collect();
        println!("{:<60} {n:?}", c.label);
        let need = |what: &str, count: usize, allowed: bool, msgs: &mut Vec<String>| {
            if allowed && count == 0 {
                msgs.push(format!("{}: no compared position had {what}", c.label));
            }
        };
        let by_counts = r.placing_mill == PlacingMill::ByMillCounts;
        let two_sided = by_counts
            || r.blocked == Blocked::BothRemove
            || (r.fills() && matches!(r.full, Full::WhiteThenBlack | Full::BlackThenWhite));
        if c.named {
            assert!(n.positions >= PER_SET);
            need(
                "marks",
                n.marks,
                r.placing_mill == PlacingMill::Mark,
                &mut msgs,
            );
            need("a pending removal", n.pending, true, &mut msgs);
            need("removals of both sides", n.both_sides, two_sided, &mut msgs);
            need("a negative removal", n.negative, by_counts, &mut msgs);
            need("a full board", n.full, r.fills(), &mut msgs);
            need("a blocked side", n.blocked, true, &mut msgs);
        }
        msgs
    });
    assert!(
        messages.is_empty(),
        "{} problems:\n{}",
        messages.len(),
        messages.join("\n")
    );
}

#[test]
fn every_compared_position_string_reads_back() {
    let messages = each_corpus(|c| {
        let v = &c.variant;
        let mut bad = Vec::new();
        for smp in c.positions() {
            let text = format_position(v, &smp.pos);
            match parse_position(v, &text) {
                Ok(back) if back == smp.pos && format_position(v, &back) == text => {}
                Ok(back) => bad.push(format!(
                    "{}: {text} reads back as {}\n  {:?}\n  {back:?}",
                    c.label,
                    format_position(v, &back),
                    smp.pos
                )),
                Err(e) => bad.push(format!("{}: {text} refused: {e}", c.label)),
            }
        }
        bad.into_iter().take(20).collect()
    });
    assert!(
        messages.is_empty(),
        "{} problems:\n{}",
        messages.len(),
        messages.join("\n")
    );
}

/// The removal sets that complete stone move `mv` (split convention) with the `own` removals
/// its mills give (fewer where they lapse), each with the position reached, as millbase's
/// split plies give them.
fn split_completions(v: &Variant, pos: &Position, mv: Move, own: i8) -> Vec<(Vec<u8>, Position)> {
    let me = pos.to_move;
    let mut level: HashMap<Position, Vec<u8>> = HashMap::from([(play(v, pos, mv), Vec::new())]);
    let mut out = Vec::new();
    while !level.is_empty() {
        let mut next: HashMap<Position, Vec<u8>> = HashMap::new();
        for (p, done) in level {
            let removals = if p.to_move == me && p.pending_removal() && done.len() < own as usize {
                legal_moves(v, &p, Convention::Split)
            } else {
                Vec::new()
            };
            if removals.is_empty() {
                out.push((done, p));
                continue;
            }
            for r in removals {
                assert!(r.is_lone_removal(), "{}", format_move(v, r));
                let mut d = done.clone();
                d.push(r.remove);
                d.sort_unstable();
                next.insert(play(v, &p, r), d);
            }
        }
        level = next;
    }
    out
}

#[test]
fn combined_moves_are_split_moves_with_their_removals() {
    let messages = each_corpus(|c| {
        let v = &c.variant;
        let r = Rules::of(v);
        let mut bad = Vec::new();
        let mut turns = 0usize;
        let mut with_removals = 0usize;
        for game in &c.games {
            for smp in game {
                let pos = &smp.pos;
                let text = || format_position(v, pos);
                let split = legal_moves(v, pos, Convention::Split);
                let combined = legal_moves(v, pos, Convention::Combined);
                if pos.pending_removal() {
                    if split != combined {
                        bad.push(format!(
                            "{}: {}: removals differ by convention",
                            c.label,
                            text()
                        ));
                    }
                    continue;
                }
                turns += 1;
                // Combined: stone move + sorted removal set -> position.
                let mut a = HashSet::new();
                // A move whose mills give no removal is the same ply in both conventions: its
                // position is not compared (None), only its presence.
                let s = St::from_pos(&r, pos);
                for m in &combined {
                    let mut set: Vec<u8> = m.removals().collect();
                    set.sort_unstable();
                    with_removals += !set.is_empty() as usize;
                    let own = s.mill_removals(&r, naive_move(&r, m.without_removals()));
                    let next = (!set.is_empty() || own != 0).then(|| play(v, pos, *m));
                    if !a.insert((m.without_removals(), set, next)) {
                        bad.push(format!(
                            "{}: {}: {} twice",
                            c.label,
                            text(),
                            format_move(v, *m)
                        ));
                    }
                }
                let mut b = HashSet::new();
                for m in &split {
                    let own = s.mill_removals(&r, naive_move(&r, *m));
                    if own == 0 {
                        b.insert((*m, Vec::new(), None));
                        continue;
                    }
                    for (set, next) in split_completions(v, pos, *m, own) {
                        b.insert((*m, set, Some(next)));
                    }
                }
                if a != b {
                    let show = |x: &HashSet<(Move, Vec<u8>, Option<Position>)>, y: &HashSet<_>| {
                        x.difference(y)
                            .map(|(m, set, p)| {
                                let names: Vec<&str> =
                                    set.iter().map(|&q| v.board().name(q)).collect();
                                let p = p.map(|p| format_position(v, &p));
                                format!("{} x{names:?} -> {p:?}", format_move(v, *m))
                            })
                            .collect::<Vec<_>>()
                    };
                    bad.push(format!(
                        "{}: {}: only combined {:?}, only split {:?}",
                        c.label,
                        text(),
                        show(&a, &b),
                        show(&b, &a)
                    ));
                }
            }
        }
        assert!(turns > 0 && with_removals > 0, "{}", c.label);
        bad.into_iter().take(20).collect()
    });
    assert!(
        messages.is_empty(),
        "{} problems:\n{}",
        messages.len(),
        messages.join("\n")
    );
}
