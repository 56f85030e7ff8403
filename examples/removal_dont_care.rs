//! Measurement: how much smaller would WDL blocks be if positions whose value a removal
//! already achieves were "don't care" (Syzygy's capture trick: store any value not above the
//! true one, and let the probe take the best of it and the removals)?
//!
//! ```sh
//! cargo run --release --example removal_dont_care -- DIR N SECTOR [BLOCKS]
//! ```
//!
//! Samples BLOCKS blocks of 65,536 slots spread over the sector, packs their WDL symbols as
//! the writer does (2 bits, don't care = previous symbol), compresses each with zstd level 9,
//! with and without the trick, and prints both sizes and the share of positions affected.

use millbase::format::UNUSED;
use millbase::movegen::Convention;
use millbase::movegen::{legal_moves, play};
use millbase::sectors::SectorIndex;
use millbase::{Color, Position, Sector, Tablebase, Value, Variant};

/// Five classes in order: loss, blessed loss, draw, cursed win, win.
fn class(v: Value, n: u16) -> u8 {
    match v {
        Value::Loss(r) if n == 0 || r <= n => 0,
        Value::Loss(_) => 1,
        Value::Draw => 2,
        Value::Win(r) if n == 0 || r <= n => 4,
        Value::Win(_) => 3,
    }
}

/// The 2-bit WDL symbol of a class.
fn symbol(c: u8) -> u8 {
    match c {
        2 => 0,
        4 => 1,
        0 => 2,
        _ => 3,
    }
}

fn pack_compress(symbols: &[u8]) -> usize {
    let mut bytes = vec![0u8; symbols.len().div_ceil(4)];
    for (j, &s) in symbols.iter().enumerate() {
        bytes[j / 4] |= s << (2 * (j % 4));
    }
    zstd::bulk::compress(&bytes, 9).unwrap().len()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = &args[0];
    let n: u16 = args[1].parse()?;
    let sector: Sector = args[2].parse()?;
    let blocks: u64 = args.get(3).map_or(Ok(16), |b| b.parse())?;
    let v = Variant::standard();
    let tb = Tablebase::open(dir, v)?;
    let index = SectorIndex::new(&v, sector);
    let block = 65536u64;
    let total_blocks = index.slots().div_ceil(block);
    let (mut plain, mut trick, mut used, mut dont_care, mut unreachable) = (0, 0, 0u64, 0u64, 0u64);
    for k in 0..blocks.min(total_blocks) {
        let b = k * total_blocks / blocks.min(total_blocks);
        let range = b * block..((b + 1) * block).min(index.slots());
        let (mut a, mut t) = (Vec::new(), Vec::new());
        let (mut prev_a, mut prev_t) = (0u8, 0u8);
        for slot in range {
            let Some((us, them)) = index.position(slot) else {
                a.push(prev_a);
                t.push(prev_t);
                continue;
            };
            let pos = Position::new([us, them], [sector.wf, sector.bf], Color::White);
            let Ok(value) = tb.value(&pos) else {
                // Unreachable (don't care already) or not probeable.
                unreachable += 1;
                a.push(prev_a);
                t.push(prev_t);
                continue;
            };
            used += 1;
            let c = class(value, n);
            prev_a = symbol(c);
            a.push(prev_a);
            let best_removal = legal_moves(&v, &pos, Convention::Combined)
                .into_iter()
                .filter(|m| m.removes())
                .filter_map(|m| tb.value(&play(&v, &pos, m)).ok())
                .map(|x| class(x.before_move(), n))
                .max();
            // Don't care when a removal reaches the value: keep the previous symbol if its
            // class is not above the true one.
            let prev_class = match prev_t {
                0 => 2,
                1 => 4,
                2 => 0,
                _ => 1, // symbol 3 is ambiguous; take the lower (blessed loss) to stay safe
            };
            if best_removal == Some(c) && prev_class <= c {
                dont_care += 1;
            } else {
                prev_t = symbol(c);
            }
            t.push(prev_t);
        }
        plain += pack_compress(&a);
        trick += pack_compress(&t);
    }
    let _ = UNUSED;
    println!(
        "{sector}: {} blocks, {used} positions ({unreachable} unprobeable), {dont_care} don't care by a removal ({:.1} %); WDL bytes {plain} -> {trick} ({:.1} %)",
        blocks.min(total_blocks),
        100.0 * dont_care as f64 / used.max(1) as f64,
        100.0 * trick as f64 / plain.max(1) as f64 - 100.0
    );
    Ok(())
}
