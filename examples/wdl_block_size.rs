//! Measurement: how large would a sector's WDL file be with other block sizes and zstd
//! levels? Decodes the stored (packed, 2-bit) WDL stream of `DIR/SECTOR.mbw` straight from
//! the file layout of docs/FORMAT.md, regroups it into blocks of each size and compresses
//! every block at each level; prints the total compressed bytes (plus 20 bytes of block
//! table per block) for each pair. With `--bytes` it also compresses the same symbols one per
//! byte (the WDL layout of symbol width 8).
//!
//! ```sh
//! cargo run --release --example wdl_block_size -- [--bytes] DIR SECTOR [LEVELS] [SLOTS...]
//! ```
//!
//! LEVELS is a comma-separated list (default `9,19`); SLOTS are block sizes in slots, each a
//! multiple of 4 (default 65536 262144 1048576 4194304).

use rayon::prelude::*;
use std::fs;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let bytes_too = args.iter().any(|a| a == "--bytes");
    args.retain(|a| a != "--bytes");
    if args.len() < 2 {
        return Err("usage: wdl_block_size [--bytes] DIR SECTOR [LEVELS] [SLOTS...]".into());
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
    let width = bytes[17];
    let mut stream = Vec::with_capacity(slots.div_ceil(4) as usize);
    for b in 0..blocks {
        let entry = 128 + 20 * b;
        let (offset, len) = (u64_at(entry) as usize, u32_at(entry + 8) as usize);
        let k = block_slots.min(slots - b as u64 * block_slots);
        let data = &bytes[offset..offset + len];
        if width == 8 {
            let symbols = zstd::bulk::decompress(data, k as usize)?;
            let mut packed = vec![0u8; k.div_ceil(4) as usize];
            for (j, s) in symbols.into_iter().enumerate() {
                packed[j / 4] |= s << (2 * (j % 4));
            }
            stream.extend(packed);
        } else {
            stream.extend(zstd::bulk::decompress(data, k.div_ceil(4) as usize)?);
        }
    }
    let one_per_byte: Vec<u8> = (0..slots as usize)
        .map(|i| stream[i / 4] >> (2 * (i % 4)) & 3)
        .collect();
    println!(
        "{}: {slots} slots, file {} bytes (blocks of {block_slots} slots)",
        path.display(),
        bytes.len()
    );
    let total = |data: &[u8], chunk: usize, level: i32| -> Result<usize, std::io::Error> {
        Ok(data
            .par_chunks(chunk)
            .map(|c| zstd::bulk::compress(c, level).map(|c| c.len() + 20))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .sum())
    };
    for &level in &levels {
        for &size in &sizes {
            let packed = total(&stream, size / 4, level)?;
            print!("level {level:>2}, {size:>8} slots per block: {packed:>11} bytes");
            if bytes_too {
                let t = std::time::Instant::now();
                let one = total(&one_per_byte, size, level)?;
                let secs = t.elapsed().as_secs_f64();
                print!(", one symbol per byte {one:>11} bytes ({secs:.1} s)");
            }
            println!();
        }
    }
    Ok(())
}
