//! The symbol streams a block is compressed from: WDL symbols in either layout, with the
//! "don't care" slots (unused, unreachable, or lowerable by a removal) filled by repetition
//! or by context, and distance symbols.

use super::removal::may_store;
use super::{SYMBOL_DRAW, symbols_of};

/// Bit `slot` of a per-slot bit set (64 slots per word).
#[inline]
fn bit(set: &[u64], slot: u64) -> bool {
    set[(slot / 64) as usize] >> (slot % 64) & 1 != 0
}
use crate::game::value::{DRAW, NMoveRule, UNUSED, Value};

/// 2-bit WDL symbols packed four to a byte (slot `i` in bits `2 * (i % 4)`) of the block
/// whose first slot is `first`; unused slots, and lowerable ones where the reader resolves it
/// back, repeat the previous slot's symbol (0 at the start of the block).
pub(super) fn wdl_symbols(
    block: &[u16],
    first: u64,
    lowerable: Option<&[u64]>,
    rule: NMoveRule,
) -> Vec<u8> {
    let mut out = vec![0u8; block.len().div_ceil(4)];
    let mut prev = SYMBOL_DRAW;
    for (i, &code) in block.iter().enumerate() {
        let symbol = match Value::decode(code) {
            None => prev,
            Some(v) => {
                let truth = symbols_of(v, rule).0;
                let reached = lowerable.is_some_and(|set| bit(set, first + i as u64));
                if may_store(prev, truth, reached) {
                    prev
                } else {
                    truth
                }
            }
        };
        out[i / 4] |= symbol << (2 * (i % 4));
        prev = symbol;
    }
    out
}

/// Distance symbols of wins, losses and (under an N-move rule) cursed wins and blessed
/// losses, one byte each or two (little-endian) when `wide`; draws and unused slots repeat
/// the previous slot's symbol (0 at the start of the block).
pub(super) fn distance_symbols(block: &[u16], rule: NMoveRule, wide: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(block.len() * (1 + wide as usize));
    let mut prev = 0u16;
    for &code in block {
        if code != UNUSED && code != DRAW {
            prev = Value::decode(code).map_or(prev, |v| symbols_of(v, rule).1);
        }
        if wide {
            out.extend_from_slice(&prev.to_le_bytes());
        } else {
            out.push(prev as u8);
        }
    }
    out
}

/// The symbols that may be stored at each slot of `block` (first slot `first`) as 4-bit
/// masks (bit `s`: symbol `s`): the true symbol only at a fixed slot, any symbol at a slot
/// without a value, and the lower ones too where a removal reaches the value (`lowerable`).
fn allowed_masks(block: &[u16], first: u64, lowerable: Option<&[u64]>, rule: NMoveRule) -> Vec<u8> {
    block
        .iter()
        .enumerate()
        .map(|(i, &code)| match Value::decode(code) {
            None => 0b1111,
            Some(v) => {
                let truth = symbols_of(v, rule).0;
                let reached = lowerable.is_some_and(|set| bit(set, first + i as u64));
                (0..4u8)
                    .filter(|&c| may_store(c, truth, reached))
                    .fold(0, |mask, c| mask | 1 << c)
            }
        })
        .collect()
}

/// The one symbol a mask allows, if it allows one only.
#[inline]
fn only_symbol(mask: u8) -> Option<u8> {
    mask.is_power_of_two().then(|| mask.trailing_zeros() as u8)
}

/// [`wdl_symbols`] with the free slots chosen by context, four at a time: the symbols of a
/// group of four slots (one packed byte) with a choice are the allowed byte seen most often
/// after the previous byte among the block's groups so far (counted first over the groups
/// without a choice), then the most often overall, then the previous byte repeated. That
/// keeps the byte statistics skewed and the sequences repetitive, which zstd's matches and
/// Huffman codes reward.
pub(super) fn wdl_symbols_by_group_context(
    block: &[u16],
    first: u64,
    lowerable: Option<&[u64]>,
    rule: NMoveRule,
) -> Vec<u8> {
    let masks = allowed_masks(block, first, lowerable, rule);
    let group = |g: usize| -> [u8; 4] {
        std::array::from_fn(|k| masks.get(4 * g + k).copied().unwrap_or(0b0001))
    };
    let fixed_byte = |m: [u8; 4]| -> Option<u8> {
        m.iter()
            .enumerate()
            .try_fold(0u8, |b, (k, &x)| Some(b | only_symbol(x)? << (2 * k)))
    };
    let groups = block.len().div_ceil(4);
    let mut after = vec![0u32; 256 * 256];
    let mut overall = [0u32; 256];
    let mut prev = None;
    for g in 0..groups {
        let b = fixed_byte(group(g));
        if let Some(b) = b {
            overall[b as usize] += 1;
            if let Some(p) = prev {
                after[p as usize * 256 + b as usize] += 1;
            }
        }
        prev = b;
    }
    let mut out = Vec::with_capacity(groups);
    let mut prev = 0u8;
    for g in 0..groups {
        let m = group(g);
        let b = fixed_byte(m).unwrap_or_else(|| {
            let row = &after[prev as usize * 256..][..256];
            let symbols = |x: u8| (0..4u8).filter(move |&s| x >> s & 1 != 0);
            let mut best: Option<((u32, u32, bool), u8)> = None;
            for s0 in symbols(m[0]) {
                for s1 in symbols(m[1]) {
                    for s2 in symbols(m[2]) {
                        for s3 in symbols(m[3]) {
                            let b = s0 | s1 << 2 | s2 << 4 | s3 << 6;
                            let score = (row[b as usize], overall[b as usize], b == prev);
                            if best.is_none_or(|(top, _)| score > top) {
                                best = Some((score, b));
                            }
                        }
                    }
                }
            }
            let b = best.expect("every slot allows a symbol").1;
            after[prev as usize * 256 + b as usize] += 1;
            overall[b as usize] += 1;
            b
        });
        out.push(b);
        prev = b;
    }
    out
}

/// WDL symbols one per byte of the block whose first slot is `first`, the free slots chosen
/// by context: the allowed symbol seen most often after the same four previous symbols in
/// the block (counted first over the runs without a choice), then the previous symbol.
pub(super) fn wdl_symbols_by_slot_context(
    block: &[u16],
    first: u64,
    lowerable: Option<&[u64]>,
    rule: NMoveRule,
) -> Vec<u8> {
    let masks = allowed_masks(block, first, lowerable, rule);
    let mut counts = vec![[0u32; 4]; 256];
    let (mut context, mut known) = (0u8, 0u32);
    for &m in &masks {
        match only_symbol(m) {
            Some(s) => {
                if known >= 4 {
                    counts[context as usize][s as usize] += 1;
                }
                context = context << 2 | s;
                known += 1;
            }
            None => known = 0,
        }
    }
    let mut context = 0u8;
    masks
        .iter()
        .map(|&m| {
            let s = only_symbol(m).unwrap_or_else(|| {
                let prev = context & 3;
                let seen = &mut counts[context as usize];
                let s = (0..4u8)
                    .filter(|&s| m >> s & 1 != 0)
                    .max_by_key(|&s| (seen[s as usize], s == prev))
                    .expect("every slot allows a symbol");
                seen[s as usize] += 1;
                s
            });
            context = context << 2 | s;
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{SYMBOL_LOSS, SYMBOL_WIN};

    /// Symbol `i` of a stream in either layout.
    fn symbol_at(stream: &[u8], i: usize, bytes: bool) -> u8 {
        if bytes {
            stream[i]
        } else {
            stream[i / 4] >> (2 * (i % 4)) & 3
        }
    }

    /// A block of wins, draws, losses and unused slots, and a lowerable set, from a seed.
    fn random_block(seed: u64, len: usize) -> (Vec<u16>, Vec<u64>) {
        let mut x = seed;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let block = (0..len)
            .map(|_| match next() % 7 {
                0 => UNUSED,
                1 | 2 => Value::Draw.encode(),
                3 | 4 => Value::Win(1 + (next() % 9) as u16).encode(),
                _ => Value::Loss((next() % 9) as u16).encode(),
            })
            .collect();
        let lowerable = (0..len.div_ceil(64)).map(|_| next()).collect();
        (block, lowerable)
    }

    /// Every fill stores, at every slot, a symbol that slot allows: its true symbol where it
    /// has a value and is not lowerable, a lower one only where a removal resolves it back.
    #[test]
    fn every_fill_stores_allowed_symbols_only() {
        let rule = NMoveRule::NONE;
        for seed in 1..40u64 {
            let len = 1 + (seed as usize * 37) % 700;
            let (block, lowerable) = random_block(seed, len);
            for set in [None, Some(&lowerable[..])] {
                let masks = allowed_masks(&block, 0, set, rule);
                let streams = [
                    (wdl_symbols(&block, 0, set, rule), false),
                    (wdl_symbols_by_group_context(&block, 0, set, rule), false),
                    (wdl_symbols_by_slot_context(&block, 0, set, rule), true),
                ];
                for (stream, bytes) in &streams {
                    assert_eq!(stream.len(), if *bytes { len } else { len.div_ceil(4) });
                    for (i, &code) in block.iter().enumerate() {
                        let s = symbol_at(stream, i, *bytes);
                        assert!(masks[i] >> s & 1 != 0, "seed {seed} slot {i}: {s}");
                        if let Some(v) = Value::decode(code) {
                            let truth = symbols_of(v, rule).0;
                            let reached = set.is_some_and(|l| bit(l, i as u64));
                            assert!(may_store(s, truth, reached), "seed {seed} slot {i}");
                        }
                    }
                    if !*bytes && !len.is_multiple_of(4) {
                        // Bits past the last slot are zero.
                        assert_eq!(stream[len / 4] >> (2 * (len % 4)), 0, "seed {seed}");
                    }
                }
            }
        }
    }

    /// Where the fixed slots follow a pattern, the context fills continue it through the free
    /// slots, and the repetition fill does not.
    #[test]
    fn context_fills_continue_a_pattern() {
        let pattern = [
            SYMBOL_WIN,
            SYMBOL_LOSS,
            SYMBOL_LOSS,
            SYMBOL_DRAW,
            SYMBOL_WIN,
        ];
        let value = |s: u8| match s {
            SYMBOL_WIN => Value::Win(3).encode(),
            SYMBOL_LOSS => Value::Loss(2).encode(),
            _ => Value::Draw.encode(),
        };
        let len = 4000;
        let truth: Vec<u8> = (0..len).map(|i| pattern[i % 5]).collect();
        // Every 23rd slot unused, and a free run of 8 slots at 2000.
        let block: Vec<u16> = (0..len)
            .map(|i| {
                if i % 23 == 7 || (2000..2008).contains(&i) {
                    UNUSED
                } else {
                    value(truth[i])
                }
            })
            .collect();
        let rule = NMoveRule::NONE;
        let slot = wdl_symbols_by_slot_context(&block, 0, None, rule);
        assert_eq!(slot, truth);
        let group = wdl_symbols_by_group_context(&block, 0, None, rule);
        let group: Vec<u8> = (0..len).map(|i| symbol_at(&group, i, false)).collect();
        assert_eq!(group, truth);
        let repeat = wdl_symbols(&block, 0, None, rule);
        assert!((0..len).any(|i| symbol_at(&repeat, i, false) != truth[i]));
    }
}
