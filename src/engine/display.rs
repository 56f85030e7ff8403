//! A text diagram of a position with coordinates, for the terminal game.
//!
//! Points are drawn where their names put them (column letter, row number), four characters
//! apart horizontally and two lines apart vertically; the board's lines (adjacency) are drawn
//! between them with `-`, `|`, `/` and `\`. `O` is white, `@` black, `.` an empty point.
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
/// saying whose turn it is and the stones in hand.
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
    out.push_str(&format!(
        "{} to {}; in hand: white {}, black {}\n",
        side(pos.to_move),
        if pos.pending_removal() {
            "remove a stone"
        } else {
            "move"
        },
        pos.in_hand[0],
        pos.in_hand[1],
    ));
    out
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
}
