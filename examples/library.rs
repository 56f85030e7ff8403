//! The library in one program (README, "Using millbase as a library"): generate tables, open
//! them, probe a position's value and best moves, and the same under the N-move rule.
//!
//! ```sh
//! cargo run --release --example library     # solves std 3-3 into a temporary directory
//! ```

use millbase::notation::{format_move, parse_position_info};
use millbase::{GenerateOptions, NMoveRule, ProbeError, TableError, Tablebase, Variant, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let variant = Variant::standard();
    let sector = "3-3".parse()?; // three stones each, none in hand: the flying endgame
    let root = std::env::temp_dir().join(format!("millbase-library-{}", std::process::id()));

    // Solve the sector and everything it depends on (resumable: finished sectors are kept).
    let plain = root.join("plain");
    generate(&variant, &plain, &[sector], &GenerateOptions::default())?;
    // The same under the 10-move rule: a directory holds the tables of one rule only.
    let rule = NMoveRule::new(10).expect("N is at most NMoveRule::MAX_N");
    let ruled = root.join("rule10");
    let options = GenerateOptions {
        rule,
        ..GenerateOptions::default()
    };
    generate(&variant, &ruled, &[sector], &options)?;

    // Open the tables and read a position (Sanmill's notation; the 16th field is the
    // N-move counter: plies since the last removal or placement).
    let tables = Tablebase::open(&plain, variant)?;
    let text = "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 6 1 ids:nodes";
    let (pos, info) = parse_position_info(&variant, text)?;

    // Its value (win/loss in plies, or draw) and the moves that keep it.
    println!("value: {}", tables.value(&pos)?);
    for best in tables.best_moves(&pos)? {
        println!(
            "  best move {} ({})",
            format_move(&variant, best.mv),
            best.value
        );
    }

    // Under the N-move rule the counter matters: a win too slow for the plies left is a
    // cursed win (a draw by the rule), a loss too slow a blessed loss.
    let under_rule = Tablebase::open(&ruled, variant)?;
    for counter in [0, info.counter] {
        let value = under_rule.value_at(&pos, counter)?;
        println!("under the {rule} at counter {counter}: {value}");
        if let Some(best) = under_rule.move_values_at(&pos, counter)?.first() {
            println!(
                "  best move {} ({})",
                format_move(&variant, best.mv),
                best.value
            );
        }
    }

    // Errors name what is missing; the table error is also the probe error's source().
    let start = tables.parse("start")?;
    match tables.value(&start) {
        Err(ProbeError::Table(TableError::Missing { path, .. })) => {
            println!(
                "the empty board needs {} (not generated here)",
                path.display()
            );
        }
        other => println!("the empty board: {other:?}"),
    }

    std::fs::remove_dir_all(&root)?;
    Ok(())
}
