//! Measurement: how large would a sector's WDL file be with other block sizes and zstd
//! levels? Decodes the stored (packed, 2-bit) WDL stream of `DIR/SECTOR.mbw` straight from
//! the file layout of docs/FORMAT.md, regroups it into blocks of each size and compresses
//! every block at each level; prints the total compressed bytes (plus 20 bytes of block
//! table per block) for each pair.
//!
//! ```sh
//! cargo run --release --example wdl_block_size -- DIR SECTOR [LEVELS] [SLOTS...]
//! ```
//!
//! LEVELS is a comma-separated list (default `9,19`); SLOTS are block sizes in slots, each a
//! multiple of 4 (default 65536 262144 1048576 4194304).

use rayon::prelude::*;
use std::fs;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        return Err("usage: wdl_block_size DIR SECTOR [LEVELS] [SLOTS...]".into());
    }
    let path = std::path::Path::new(&args[0]).join(format!("{}.mbw", args[1]));
    let levels: Vec<i32> = args
        .get(2)
        .map_or("9,19", |s| s.as_str())
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    let sizes: Vec<usize> = if args.len() > 3 {
        args[3..]
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()?
    } else {
        vec![1 << 16, 1 << 18, 1 << 20, 1 << 22]
    };
    let bytes = fs::read(&path)?;
    let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
    let (slots, block_slots, blocks) = (u64_at(56), u32_at(72) as u64, u32_at(76) as usize);
    let mut stream = Vec::with_capacity(slots.div_ceil(4) as usize);
    for b in 0..blocks {
        let entry = 128 + 20 * b;
        let (offset, len) = (u64_at(entry) as usize, u32_at(entry + 8) as usize);
        let k = block_slots.min(slots - b as u64 * block_slots);
        stream.extend(zstd::bulk::decompress(
            &bytes[offset..offset + len],
            k.div_ceil(4) as usize,
        )?);
    }
    println!(
        "{}: {slots} slots, file {} bytes (blocks of {block_slots} slots)",
        path.display(),
        bytes.len()
    );
    for &level in &levels {
        for &size in &sizes {
            let total: usize = stream
                .par_chunks(size / 4)
                .map(|chunk| zstd::bulk::compress(chunk, level).map(|c| c.len() + 20))
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .sum();
            println!("level {level:>2}, {size:>8} slots per block: {total:>11} bytes");
        }
    }
    Ok(())
}
