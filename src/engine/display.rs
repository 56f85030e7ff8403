//! A text diagram of a position with coordinates, for the terminal game.
//!
//! Points are drawn where their names put them (column letter, row number), four characters
//! apart horizontally and two lines apart vertically; the board's lines (adjacency) are drawn
//! between them with `-`, `|`, `/` and `\` (the diagonals of boards that have them). `O` is
//! white, `@` black, `X` a marked point (`placing-mill=mark`), `.` an empty point.
//!
//! ```text
//! 7 .-----------.-----------.
//!   |           |           |
//! 6 |   .-------.-------.   |
//! ```

use crate::game::position::{Color, Position};
use crate::game::rules::Variant;

/// Column and row (0-based) of a point name such as `d6`.
fn coords(name: &str) -> (usize, usize) {
    let b = name.as_bytes();
    ((b[0] - b'a') as usize, (b[1] - b'1') as usize)
}

/// The diagram of `pos`, with row numbers on the left and column letters below, and a line
/// saying whose turn it is, the stones in hand and the removals pending beyond the standard
/// game's single one.
pub fn diagram(variant: &Variant, pos: &Position) -> String {
    let board = variant.board();
    let names = board.names();
    let cols = names.iter().map(|n| coords(n).0).max().unwrap_or(0) + 1;
    let rows = names.iter().map(|n| coords(n).1).max().unwrap_or(0) + 1;
    let width = (cols - 1) * 4 + 1;
    let height = (rows - 1) * 2 + 1;
    let mut grid = vec![vec![' '; width]; height];
    // Screen position: row 0 at the top is the highest row number.
    let at = |p: u8| {
        let (c, r) = coords(board.name(p));
        (c * 4, (rows - 1 - r) * 2)
    };
    for p in 0..board.len() as u8 {
        let mut adj = board.adjacent(p);
        while adj != 0 {
            let q = adj.trailing_zeros() as u8;
            adj &= adj - 1;
            if q < p {
                continue;
            }
            let (x0, y0) = at(p);
            let (x1, y1) = at(q);
            if y0 == y1 {
                for cell in &mut grid[y0][x0.min(x1) + 1..x0.max(x1)] {
                    *cell = '-';
                }
            } else if x0 == x1 {
                for row in &mut grid[y0.min(y1) + 1..y0.max(y1)] {
                    row[x0] = '|';
                }
            } else {
                // A diagonal between neighbouring rings: one character in the middle.
                let (x, y) = ((x0 + x1) / 2, (y0 + y1) / 2);
                let down_right = (x1 > x0) == (y1 > y0);
                grid[y][x] = if down_right { '\\' } else { '/' };
            }
        }
    }
    for p in 0..board.len() as u8 {
        let (x, y) = at(p);
        let bit = 1 << p;
        grid[y][x] = if pos.stones[0] & bit != 0 {
            'O'
        } else if pos.stones[1] & bit != 0 {
            '@'
        } else if pos.marks & bit != 0 {
            'X'
        } else {
            '.'
        };
    }
    let mut out = String::new();
    for (y, line) in grid.iter().enumerate() {
        let label = if y % 2 == 0 {
            char::from(b'1' + (rows - 1 - y / 2) as u8)
        } else {
            ' '
        };
        let text: String = line.iter().collect();
        out.push(label);
        out.push(' ');
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out.push_str("  ");
    for c in 0..cols {
        out.push(char::from(b'a' + c as u8));
        if c + 1 < cols {
            out.push_str("   ");
        }
    }
    out.push('\n');
    let side = |c: Color| match c {
        Color::White => "white (O)",
        Color::Black => "black (@)",
    };
    out.push_str(&status(pos, side));
    out
}

/// The status line: whose turn, what it does, the stones in hand; then the removals of both
/// sides where they differ from the standard game's single removal by the side to move.
fn status(pos: &Position, side: impl Fn(Color) -> &'static str) -> String {
    let me = pos.to_move;
    let them = me.other();
    let mine = pos.removals[me.index()];
    let theirs = pos.removals[them.index()];
    let action = match mine {
        0 => "move".to_string(),
        1 => "remove a stone".to_string(),
        -1 => "remove one of its own stones".to_string(),
        k if k < 0 => format!("remove {} of its own stones", -k),
        k => format!("remove {k} stones"),
    };
    let mut line = format!(
        "{} to {action}; in hand: white {}, black {}",
        side(me),
        pos.in_hand[0],
        pos.in_hand[1],
    );
    if theirs != 0 {
        let whose = if theirs < 0 { "own " } else { "" };
        let n = theirs.unsigned_abs();
        let plural = if n == 1 { "" } else { "s" };
        line.push_str(&format!(
            "; then {} removes {n} {whose}stone{plural}",
            side(them)
        ));
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::notation::parse_position;

    #[test]
    fn standard_board() {
        let v = Variant::standard();
        let pos = parse_position(
            &v,
            "***O**@*/@****@*O/OO@***@O b m p 5 0 5 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes",
        )
        .unwrap();
        let d = diagram(&v, &pos);
        let expect = "\
7 O-----------O-----------O
  |           |           |
6 |   O-------@-------.   |
  |   |       |       |   |
5 |   |   .---.---.   |   |
  |   |   |       |   |   |
4 @---.---@       .---.---@
  |   |   |       |   |   |
3 |   |   .---.---O   |   |
  |   |       |       |   |
2 |   @-------.-------.   |
  |           |           |
1 .-----------.-----------.
  a   b   c   d   e   f   g
black (@) to move; in hand: white 0, black 0
";
        assert_eq!(d, expect, "\n{d}");
    }

    #[test]
    fn other_boards() {
        let three = Variant::by_name("three").unwrap();
        let d = diagram(&three, &Position::start(&three));
        assert!(
            d.starts_with("3 .---.---.\n  |   |   |\n2 .---.---.\n"),
            "{d}"
        );
        assert!(d.contains("  a   b   c\n"), "{d}");
        let twelve = Variant::by_name("twelve").unwrap();
        let d = diagram(&twelve, &Position::start(&twelve));
        assert!(d.contains("6 |   .-------.-------.   |"), "{d}");
        assert!(d.lines().nth(1).unwrap().contains('\\'), "{d}");
    }

    #[test]
    fn diagonals_are_drawn_where_the_board_has_them() {
        let twelve = Variant::by_name("twelve-mens-morris").unwrap();
        let d = diagram(&twelve, &Position::start(&twelve));
        let lines: Vec<&str> = d.lines().collect();
        // a7-b6 and g7-f6 between rows 7 and 6; b6-c5 and f6-e5 between rows 6 and 5; the
        // mirrored ones at the bottom.
        assert_eq!(lines[1], "  | \\         |         / |", "{d}");
        assert_eq!(lines[3], "  |   | \\     |     / |   |", "{d}");
        assert_eq!(lines[9], "  |   | /     |     \\ |   |", "{d}");
        assert_eq!(lines[11], "  | /         |         \\ |", "{d}");
        // Without diagonals no such character.
        let std = Variant::standard();
        let d = diagram(&std, &Position::start(&std));
        assert!(!d.contains('\\') && !d.contains('/'), "{d}");
    }

    #[test]
    fn marks_are_drawn_as_x_and_removals_of_both_sides_shown() {
        let v = Variant::by_name("cham-gonu").unwrap();
        let board = v.board();
        let p = |name: &str| board.point(name).unwrap();
        let mut pos = Position::start(&v);
        pos.stones[0] = 1 << p("a7") | 1 << p("d7");
        pos.stones[1] = 1 << p("a1");
        pos.marks = 1 << p("g7") | 1 << p("d1");
        pos.in_hand = [10, 11];
        let d = diagram(&v, &pos);
        let lines: Vec<&str> = d.lines().collect();
        assert!(lines[0].starts_with("7 O-----------O-----------X"), "{d}");
        assert!(lines[12].starts_with("1 @-----------X-----------."), "{d}");
        assert_eq!(
            lines[14], "white (O) to move; in hand: white 10, black 11",
            "{d}"
        );
        // Removals: the side to move's, then the other side's (negative: own stones).
        pos.removals = [2, -1];
        let d = diagram(&v, &pos);
        assert_eq!(
            d.lines().last().unwrap(),
            "white (O) to remove 2 stones; in hand: white 10, black 11; \
             then black (@) removes 1 own stone"
        );
        pos.to_move = Color::Black;
        pos.removals = [0, -2];
        let d = diagram(&v, &pos);
        assert_eq!(
            d.lines().last().unwrap(),
            "black (@) to remove 2 of its own stones; in hand: white 10, black 11"
        );
    }
}
