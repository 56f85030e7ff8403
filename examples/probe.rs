//! Probe a table directory: the value of a position, its moves, and the principal variation.
//!
//! ```sh
//! cargo run --release -- generate 3-4            # tables into data/std
//! cargo run --release --example probe -- data/std \
//!     'O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes'
//! ```

use millbase::notation::format_move;
use millbase::{Tablebase, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| "data/std".into());
    let text = args.next().unwrap_or_else(|| {
        "O***O***/********/@O**@**@ w m s 3 0 3 0 0 0 -1 -1 -1 -1 0 0 1 ids:nodes".into()
    });
    let variant = Variant::standard();
    let tb = Tablebase::open(&dir, variant)?;
    let pos = tb.parse(&text)?;
    println!("value: {}", tb.value(&pos)?);
    for m in tb.move_values(&pos)? {
        println!("  {:<10} {}", format_move(&variant, m.mv), m.value);
    }
    let line: Vec<String> = tb
        .principal_variation(&pos, 50)?
        .iter()
        .map(|m| format_move(&variant, m.mv))
        .collect();
    println!("principal variation: {}", line.join(" "));
    Ok(())
}
