//! A naive referee for every rule option, written from docs/RULE-SETS.md and the section "Rule
//! options and the rule sets of the Sanmill app" of the shared RULES.md, independently of
//! millbase's move generator: its own board geometry (from the drawn lines below), its own
//! position (plain arrays), its own turn logic. Only the point names (`Board::names`), the
//! options as text (`Variant::rules`) and the `Position` record (to translate) come from
//! millbase.

#![allow(dead_code)]

use millbase::rules::{Bits, NO_SQUARE, Variant};
use millbase::{Color, Position};

/// The lines of the 24-point board: the sides of the three squares and the four spokes.
const SQUARE_LINES: [[&str; 3]; 16] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["c5", "c4", "c3"],
    ["d7", "d6", "d5"],
    ["d3", "d2", "d1"],
    ["e5", "e4", "e3"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
];

/// The four diagonal lines of `diagonals=on`.
const DIAGONALS: [[&str; 3]; 4] = [
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
];

/// Six Men's Morris: the outer and middle squares are mills; the midpoints are joined.
const SIX_MILLS: [[&str; 3]; 8] = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    ["b6", "b4", "b2"],
    ["f6", "f4", "f2"],
    ["g7", "g4", "g1"],
];
const SIX_LINKS: [[&str; 2]; 4] = [["d7", "d6"], ["a4", "b4"], ["g4", "f4"], ["d1", "d2"]];

/// Three Men's Morris: rows and columns of the 3 × 3 grid.
const THREE_MILLS: [[&str; 3]; 6] = [
    ["a1", "b1", "c1"],
    ["a2", "b2", "c2"],
    ["a3", "b3", "c3"],
    ["a1", "a2", "a3"],
    ["b1", "b2", "b3"],
    ["c1", "c2", "c3"],
];

/// What a mill closed by a placement does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacingMill {
    Remove,
    Mark,
    FromHand,
    FromHandAgain,
    ByMillCounts,
}

/// What a board filled by placing does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    WhiteLoses,
    Draw,
    MoverRemoves,
    WhiteThenBlack,
    BlackThenWhite,
}

/// What a blocked side does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blocked {
    Loss,
    Pass,
    RemoveAndMove,
    RemoveAndPass,
    Draw,
    BothRemove,
}

/// The rules: geometry and options.
#[derive(Clone, Debug)]
pub struct Rules {
    pub n: usize,
    pub names: Vec<&'static str>,
    pub mills: Vec<[usize; 3]>,
    pub adj: Vec<Vec<usize>>,
    pub stones: u8,
    pub fly: Option<usize>,
    pub always: bool,
    pub multiple: bool,
    pub placing_mill: PlacingMill,
    pub move_while_placing: bool,
    pub black_first: bool,
    pub full: Full,
    pub blocked: Blocked,
    pub one_time: bool,
    pub restricted: bool,
    pub intervention: bool,
}

impl Rules {
    /// The rules of `v`, read from its options as text and its board's point names.
    pub fn of(v: &Variant) -> Rules {
        let names: Vec<&'static str> = v.board().names().to_vec();
        let opt: std::collections::HashMap<&str, String> = v.rules().into_iter().collect();
        let get = |k: &str| opt[k].as_str();
        let idx = |name: &str| names.iter().position(|&n| n == name).expect("a point name");
        let mut mills: Vec<[usize; 3]> = Vec::new();
        let mut links: Vec<[usize; 2]> = Vec::new();
        let board_kind = v.board().name;
        let mut add = |lines: &[[&str; 3]]| {
            for l in lines {
                mills.push([idx(l[0]), idx(l[1]), idx(l[2])]);
            }
        };
        match board_kind {
            "six" => {
                add(&SIX_MILLS);
                for l in SIX_LINKS {
                    links.push([idx(l[0]), idx(l[1])]);
                }
            }
            "three" => add(&THREE_MILLS),
            _ => {
                add(&SQUARE_LINES);
                if get("diagonals") == "on" {
                    add(&DIAGONALS);
                }
            }
        }
        let n = names.len();
        let mut adj = vec![Vec::new(); n];
        let mut join = |a: usize, b: usize| {
            if !adj[a].contains(&b) {
                adj[a].push(b);
                adj[b].push(a);
            }
        };
        for m in &mills {
            join(m[0], m[1]);
            join(m[1], m[2]);
        }
        for l in &links {
            join(l[0], l[1]);
        }
        let on = |k: &str| get(k) == "on";
        Rules {
            n,
            names,
            mills,
            adj,
            stones: get("stones").parse().unwrap(),
            fly: get("fly").parse().ok(),
            always: get("remove-from-mills") == "always",
            multiple: on("multiple-removals"),
            placing_mill: match get("placing-mill") {
                "remove" => PlacingMill::Remove,
                "mark" => PlacingMill::Mark,
                "from-hand" => PlacingMill::FromHand,
                "from-hand-again" => PlacingMill::FromHandAgain,
                "by-mill-counts" => PlacingMill::ByMillCounts,
                other => panic!("placing-mill {other}"),
            },
            move_while_placing: on("move-while-placing"),
            black_first: get("moving-first") == "black",
            full: match get("board-full") {
                "white-loses" => Full::WhiteLoses,
                "draw" => Full::Draw,
                "mover-removes" => Full::MoverRemoves,
                "white-then-black" => Full::WhiteThenBlack,
                "black-then-white" => Full::BlackThenWhite,
                other => panic!("board-full {other}"),
            },
            blocked: match get("stalemate") {
                "loss" => Blocked::Loss,
                "pass" => Blocked::Pass,
                "remove-and-move" => Blocked::RemoveAndMove,
                "remove-and-pass" => Blocked::RemoveAndPass,
                "draw" => Blocked::Draw,
                "both-remove" => Blocked::BothRemove,
                other => panic!("stalemate {other}"),
            },
            one_time: on("one-time-mill"),
            restricted: get("repeated-mills") == "restricted",
            intervention: get("capture") == "intervention",
        }
    }

    /// Can placing fill every point (the board-full rules apply)?
    pub fn fills(&self) -> bool {
        2 * self.stones as usize >= self.n
    }
}

/// A point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    /// A stone of side 0 (White) or 1 (Black).
    Stone(usize),
    /// A marked point (`placing-mill=mark`).
    Mark,
}

/// A position, in plain arrays. Sides: 0 = White, 1 = Black.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct St {
    pub cell: [Cell; 24],
    pub hand: [u8; 2],
    pub to_move: usize,
    /// Removals pending per side: positive the opponent's stones, negative its own.
    pub rem: [i8; 2],
    /// After the removals, the last side that removed moves again.
    pub again: bool,
    /// The pending removal is a stalemate removal (next to one of the remover's stones).
    pub adjacent: bool,
    /// Points that stood in mills of each side (`one-time-mill`).
    pub used: [[bool; 24]; 2],
    /// The slide that closed each side's mill on its last move (`repeated-mills`).
    pub last: [Option<(usize, usize)>; 2],
}

/// A move in the split convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mv {
    Place(usize),
    Slide(usize, usize),
    Remove(usize),
}

/// How a finished game ended for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    Loss,
    Win,
    Draw,
}

/// What happened while playing a move (to count what the games reached).
#[derive(Clone, Copy, Debug, Default)]
pub struct Events {
    /// A side to move had no stone move at the start of its turn.
    pub blocked: bool,
    /// Placing filled every point.
    pub full: bool,
}

impl St {
    /// The empty board, all stones in hand, White to move.
    pub fn start(r: &Rules) -> St {
        St {
            cell: [Cell::Empty; 24],
            hand: [r.stones; 2],
            to_move: 0,
            rem: [0, 0],
            again: false,
            adjacent: false,
            used: [[false; 24]; 2],
            last: [None, None],
        }
    }

    fn on_board(&self, r: &Rules, side: usize) -> usize {
        (0..r.n)
            .filter(|&p| self.cell[p] == Cell::Stone(side))
            .count()
    }

    /// Stones on the board plus in hand below three.
    pub fn too_few(&self, r: &Rules, side: usize) -> bool {
        self.on_board(r, side) + (self.hand[side] as usize) < 3
    }

    /// Every point holds a stone.
    pub fn board_full(&self, r: &Rules) -> bool {
        (0..r.n).all(|p| matches!(self.cell[p], Cell::Stone(_)))
    }

    /// Any marked point.
    pub fn has_marks(&self) -> bool {
        self.cell.contains(&Cell::Mark)
    }

    /// Does the stone on `p` stand in a mill of its side?
    fn in_mill(&self, r: &Rules, p: usize) -> bool {
        let Cell::Stone(side) = self.cell[p] else {
            return false;
        };
        r.mills
            .iter()
            .any(|m| m.contains(&p) && m.iter().all(|&q| self.cell[q] == Cell::Stone(side)))
    }

    /// The stones the side to move may remove now.
    pub fn removable(&self, r: &Rules) -> Vec<usize> {
        let me = self.to_move;
        let count = self.rem[me];
        if count == 0 {
            return Vec::new();
        }
        if count < 0 {
            return (0..r.n)
                .filter(|&p| self.cell[p] == Cell::Stone(me))
                .collect();
        }
        let theirs: Vec<usize> = (0..r.n)
            .filter(|&p| self.cell[p] == Cell::Stone(1 - me))
            .collect();
        if self.adjacent {
            return theirs
                .into_iter()
                .filter(|&p| r.adj[p].iter().any(|&q| self.cell[q] == Cell::Stone(me)))
                .collect();
        }
        if r.always {
            return theirs;
        }
        let free: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|&p| !self.in_mill(r, p))
            .collect();
        if free.is_empty() { theirs } else { free }
    }

    /// The placements, slides and flies of the side to move (removals aside).
    pub fn stone_moves(&self, r: &Rules) -> Vec<Mv> {
        let mut out = Vec::new();
        self.each_stone_move(r, &mut |m| {
            out.push(m);
            false
        });
        out
    }

    /// Has the side to move a placement, slide or fly?
    pub fn can_move(&self, r: &Rules) -> bool {
        let mut any = false;
        self.each_stone_move(r, &mut |_| {
            any = true;
            true
        });
        any
    }

    /// Calls `f` on each stone move until it returns true.
    fn each_stone_move(&self, r: &Rules, f: &mut impl FnMut(Mv) -> bool) {
        let me = self.to_move;
        let hand = self.hand[me];
        if hand > 0 {
            for p in 0..r.n {
                if self.cell[p] == Cell::Empty && f(Mv::Place(p)) {
                    return;
                }
            }
        }
        if hand > 0 && !r.move_while_placing {
            return;
        }
        let own = self.on_board(r, me);
        let flies = hand == 0 && r.fly.is_some_and(|t| own <= t);
        for from in 0..r.n {
            if self.cell[from] != Cell::Stone(me) {
                continue;
            }
            for to in 0..r.n {
                if self.cell[to] != Cell::Empty || !(flies || r.adj[from].contains(&to)) {
                    continue;
                }
                if r.restricted && self.last[me] == Some((to, from)) {
                    // The slide straight back is barred when it closes a mill again.
                    let mut after = self.clone();
                    after.cell[from] = Cell::Empty;
                    after.cell[to] = Cell::Stone(me);
                    if after.in_mill(r, to) {
                        continue;
                    }
                }
                if f(Mv::Slide(from, to)) {
                    return;
                }
            }
        }
    }

    /// The legal moves (split convention); none when the game is over.
    pub fn moves(&self, r: &Rules) -> Vec<Mv> {
        if self.too_few(r, 0) || self.too_few(r, 1) {
            return Vec::new();
        }
        if self.rem[self.to_move] != 0 {
            return self.removable(r).into_iter().map(Mv::Remove).collect();
        }
        self.stone_moves(r)
    }

    /// The outcome for the side to move, if the game is over.
    pub fn outcome(&self, r: &Rules) -> Option<Out> {
        let me = self.to_move;
        if self.too_few(r, me) {
            return Some(Out::Loss);
        }
        if self.too_few(r, 1 - me) {
            return Some(Out::Win);
        }
        if self.rem[me] != 0 {
            return None;
        }
        if self.hand == [0, 0] && self.board_full(r) && r.placing_mill != PlacingMill::ByMillCounts
        {
            match r.full {
                Full::WhiteLoses => return Some(if me == 0 { Out::Loss } else { Out::Win }),
                Full::Draw => return Some(Out::Draw),
                _ => {}
            }
        }
        if self.can_move(r) {
            return None;
        }
        Some(match r.blocked {
            Blocked::Draw | Blocked::Pass => Out::Draw,
            _ => Out::Loss,
        })
    }

    /// Play a legal move.
    pub fn play(&self, r: &Rules, mv: Mv) -> (St, Events) {
        let mut t = self.stone_part(r, mv);
        let mut ev = Events::default();
        t.after_action(r, &mut ev);
        (t, ev)
    }

    /// The removals from the board that the mills of stone move `mv` give its mover.
    pub fn mill_removals(&self, r: &Rules, mv: Mv) -> i8 {
        self.stone_part(r, mv).rem[self.to_move]
    }

    /// A move up to its removals: the stone move with its captures and mills, or one removal.
    fn stone_part(&self, r: &Rules, mv: Mv) -> St {
        let mut t = self.clone();
        let me = t.to_move;
        let opp = 1 - me;
        match mv {
            Mv::Remove(q) => {
                if t.rem[me] < 0 {
                    t.cell[q] = Cell::Empty;
                    t.rem[me] += 1;
                } else {
                    let in_hand = t.hand != [0, 0];
                    t.cell[q] = if r.placing_mill == PlacingMill::Mark && in_hand {
                        Cell::Mark
                    } else {
                        Cell::Empty
                    };
                    t.rem[me] -= 1;
                }
                if t.rem[me] == 0 {
                    t.adjacent = false;
                }
            }
            Mv::Place(_) | Mv::Slide(..) => {
                let was_placing = t.hand != [0, 0];
                let (from, to) = match mv {
                    Mv::Place(to) => {
                        t.hand[me] -= 1;
                        (None, to)
                    }
                    Mv::Slide(from, to) => {
                        t.cell[from] = Cell::Empty;
                        (Some(from), to)
                    }
                    Mv::Remove(_) => unreachable!(),
                };
                t.cell[to] = Cell::Stone(me);
                if r.intervention {
                    for m in &r.mills {
                        if m[1] == to
                            && t.cell[m[0]] == Cell::Stone(opp)
                            && t.cell[m[2]] == Cell::Stone(opp)
                        {
                            t.cell[m[0]] = Cell::Empty;
                            t.cell[m[2]] = Cell::Empty;
                        }
                    }
                }
                let formed: Vec<[usize; 3]> = r
                    .mills
                    .iter()
                    .copied()
                    .filter(|m| m.contains(&to) && m.iter().all(|&q| t.cell[q] == Cell::Stone(me)))
                    .collect();
                let counted = formed
                    .iter()
                    .filter(|m| !r.one_time || !m.iter().all(|&q| self.used[me][q]))
                    .count();
                if r.one_time {
                    for m in &formed {
                        for &q in m {
                            t.used[me][q] = true;
                        }
                    }
                }
                if r.restricted {
                    t.last[me] = match from {
                        Some(f) if !formed.is_empty() => Some((f, to)),
                        _ => None,
                    };
                }
                let mut k = match counted {
                    0 => 0,
                    c if r.multiple => c as i8,
                    _ => 1,
                };
                t.again = false;
                if from.is_none() {
                    match r.placing_mill {
                        PlacingMill::ByMillCounts => k = 0,
                        PlacingMill::FromHand | PlacingMill::FromHandAgain if k > 0 => {
                            let take = (k as u8).min(t.hand[opp]);
                            t.hand[opp] -= take;
                            k -= take as i8;
                            t.again = r.placing_mill == PlacingMill::FromHandAgain;
                        }
                        _ => {}
                    }
                }
                if was_placing && t.hand == [0, 0] && r.black_first {
                    t.again = me == 1;
                }
                t.rem = [0, 0];
                t.rem[me] = k;
                t.adjacent = false;
            }
        }
        t
    }

    /// After a stone move or a removal: the game's end, the pending removals, or the turn's end.
    fn after_action(&mut self, r: &Rules, ev: &mut Events) {
        if self.too_few(r, 0) || self.too_few(r, 1) {
            self.rem = [0, 0];
            self.again = false;
            self.adjacent = false;
            self.to_move = 1 - self.to_move;
            return;
        }
        if self.removals_pending(r) {
            return;
        }
        self.to_move = if self.again {
            self.to_move
        } else {
            1 - self.to_move
        };
        self.again = false;
        self.begin_turn(r, ev);
    }

    /// The side to move removes while it can; then the other side. False when nobody has a
    /// removal left (the side to move is then the last side that was to remove).
    fn removals_pending(&mut self, r: &Rules) -> bool {
        for _ in 0..2 {
            let me = self.to_move;
            if self.rem[me] != 0 {
                if !self.removable(r).is_empty() {
                    return true;
                }
                // Nothing to remove: the removal lapses.
                self.rem[me] = 0;
                self.adjacent = false;
            }
            if self.rem[1 - me] == 0 {
                return false;
            }
            self.to_move = 1 - me;
            self.adjacent = false;
        }
        false
    }

    /// The start of a turn: marks vanish once both hands are empty; a full board or a blocked
    /// side starts what the rules say.
    fn begin_turn(&mut self, r: &Rules, ev: &mut Events) {
        if self.hand == [0, 0] {
            for c in self.cell.iter_mut() {
                if *c == Cell::Mark {
                    *c = Cell::Empty;
                }
            }
            if self.board_full(r) {
                ev.full = true;
                if r.placing_mill == PlacingMill::ByMillCounts {
                    let count = |side: usize| {
                        r.mills
                            .iter()
                            .filter(|m| m.iter().all(|&q| self.cell[q] == Cell::Stone(side)))
                            .count() as i8
                    };
                    let (w, b) = (count(0), count(1));
                    self.rem = if w == 0 && b == 0 {
                        [-1, -1]
                    } else if b == 0 {
                        [2, 1]
                    } else if w == 0 {
                        [1, 2]
                    } else if w == b {
                        [w, b]
                    } else if w > b {
                        [b + 1, b]
                    } else {
                        [w, w + 1]
                    };
                    self.to_move = 0;
                    return;
                }
                match r.full {
                    Full::WhiteLoses | Full::Draw => {}
                    Full::MoverRemoves => self.rem[self.to_move] = 1,
                    Full::WhiteThenBlack => {
                        self.rem = [1, 1];
                        self.to_move = 0;
                    }
                    Full::BlackThenWhite => {
                        self.rem = [1, 1];
                        self.to_move = 1;
                    }
                }
                return;
            }
        }
        if self.can_move(r) {
            return;
        }
        ev.blocked = true;
        let me = self.to_move;
        match r.blocked {
            Blocked::Loss | Blocked::Draw => {}
            Blocked::Pass => {
                self.to_move = 1 - me;
                if !self.can_move(r) {
                    // Both sides blocked: drawn, with the first blocked side to move.
                    self.to_move = me;
                }
            }
            Blocked::RemoveAndMove | Blocked::RemoveAndPass => {
                self.rem[me] = 1;
                self.adjacent = true;
                if self.removable(r).is_empty() {
                    // No opponent stone next to its own: it loses.
                    self.rem[me] = 0;
                    self.adjacent = false;
                } else {
                    self.again = r.blocked == Blocked::RemoveAndMove;
                }
            }
            Blocked::BothRemove => {
                self.rem = [1, 1];
                self.removals_pending(r);
            }
        }
    }

    /// The move as text, as Sanmill writes it (split convention).
    pub fn text(r: &Rules, mv: Mv) -> String {
        match mv {
            Mv::Place(p) => r.names[p].to_string(),
            Mv::Slide(a, b) => format!("{}-{}", r.names[a], r.names[b]),
            Mv::Remove(p) => format!("x{}", r.names[p]),
        }
    }

    /// Translate from millbase's position (points are numbered as `Board::names`).
    pub fn from_pos(r: &Rules, p: &Position) -> St {
        let bit = |set: Bits, i: usize| set >> i & 1 == 1;
        let mut cell = [Cell::Empty; 24];
        let mut used = [[false; 24]; 2];
        for i in 0..r.n {
            cell[i] = if bit(p.stones[0], i) {
                Cell::Stone(0)
            } else if bit(p.stones[1], i) {
                Cell::Stone(1)
            } else if bit(p.marks, i) {
                Cell::Mark
            } else {
                Cell::Empty
            };
            for (side, points) in used.iter_mut().enumerate() {
                points[i] = bit(p.used_mill_points[side], i);
            }
        }
        let slide = |(a, b): (u8, u8)| (a != NO_SQUARE).then_some((a as usize, b as usize));
        St {
            cell,
            hand: p.in_hand,
            to_move: p.to_move.index(),
            rem: p.removals,
            again: p.again,
            adjacent: p.adjacent_removal,
            used,
            last: [slide(p.last_mill_slide[0]), slide(p.last_mill_slide[1])],
        }
    }

    /// Translate to millbase's position.
    pub fn to_pos(&self, r: &Rules) -> Position {
        let set = |f: &dyn Fn(usize) -> bool| (0..r.n).filter(|&i| f(i)).fold(0, |a, i| a | 1 << i);
        let slide = |s: Option<(usize, usize)>| {
            s.map_or((NO_SQUARE, NO_SQUARE), |(a, b)| (a as u8, b as u8))
        };
        Position {
            stones: [
                set(&|i| self.cell[i] == Cell::Stone(0)),
                set(&|i| self.cell[i] == Cell::Stone(1)),
            ],
            in_hand: self.hand,
            to_move: if self.to_move == 0 {
                Color::White
            } else {
                Color::Black
            },
            removals: self.rem,
            again: self.again,
            adjacent_removal: self.adjacent,
            marks: set(&|i| self.cell[i] == Cell::Mark),
            used_mill_points: [set(&|i| self.used[0][i]), set(&|i| self.used[1][i])],
            last_mill_slide: [slide(self.last[0]), slide(self.last[1])],
        }
    }
}
