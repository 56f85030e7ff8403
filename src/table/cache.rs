//! A bounded cache of decompressed blocks, shared by the threads probing a [`super::TableSet`]:
//! shards behind mutexes, each with its own byte budget and CLOCK (second chance) eviction.
//! A hit locks one shard, finds the block and reads from it in place: no allocation, no
//! reference counting.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

/// Number of shards (a power of two).
const SHARDS: usize = 16;

/// Cache key: file id << 32 | block number.
pub type Key = u64;

/// Mixes a key (the ids and block numbers are small and dense) into a hash.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

fn mix(key: Key) -> u64 {
    let mut h = KeyHasher::default();
    h.write_u64(key);
    h.finish()
}

struct Entry {
    key: Key,
    data: Box<[u8]>,
    referenced: bool,
}

#[derive(Default)]
struct Shard {
    map: HashMap<Key, usize, BuildHasherDefault<KeyHasher>>,
    entries: Vec<Entry>,
    hand: usize,
    bytes: usize,
}

impl Shard {
    /// Remove one entry by CLOCK: clear reference bits until an unreferenced entry is found.
    fn evict_one(&mut self) {
        loop {
            if self.hand >= self.entries.len() {
                self.hand = 0;
            }
            let e = &mut self.entries[self.hand];
            if e.referenced {
                e.referenced = false;
                self.hand += 1;
                continue;
            }
            let victim = self.entries.swap_remove(self.hand);
            self.map.remove(&victim.key);
            self.bytes -= victim.data.len();
            if let Some(moved) = self.entries.get(self.hand) {
                self.map.insert(moved.key, self.hand);
            }
            return;
        }
    }

    fn insert(&mut self, key: Key, data: Box<[u8]>, budget: usize) {
        if data.len() > budget || self.map.contains_key(&key) {
            return;
        }
        while self.bytes + data.len() > budget {
            self.evict_one();
        }
        self.bytes += data.len();
        self.map.insert(key, self.entries.len());
        self.entries.push(Entry {
            key,
            data,
            referenced: false,
        });
    }
}

/// The cache.
pub struct BlockCache {
    shards: Box<[Mutex<Shard>]>,
    shard_budget: usize,
}

impl BlockCache {
    /// A cache holding up to about `capacity` bytes of decompressed blocks (0: no caching).
    pub fn new(capacity: usize) -> BlockCache {
        BlockCache {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            shard_budget: capacity / SHARDS,
        }
    }

    /// Total capacity in bytes.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.shard_budget * SHARDS
    }

    fn shard(&self, key: Key) -> MutexGuard<'_, Shard> {
        let i = (mix(key) >> 60) as usize & (SHARDS - 1);
        // A panic while holding the lock cannot leave a shard inconsistent in a way that
        // matters more than losing the cache: keep going.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Apply `read` to the block `key`, loading it with `load` (outside any lock) when it is
    /// not cached.
    ///
    /// # Errors
    ///
    /// The error of `load`, when the block was not cached and loading it failed.
    #[inline]
    pub fn with_block<R, E>(
        &self,
        key: Key,
        load: impl FnOnce() -> Result<Box<[u8]>, E>,
        read: impl FnOnce(&[u8]) -> R,
    ) -> Result<R, E> {
        {
            let mut shard = self.shard(key);
            if let Some(&i) = shard.map.get(&key) {
                let e = &mut shard.entries[i];
                e.referenced = true;
                return Ok(read(&e.data));
            }
        }
        let data = load()?;
        let r = read(&data);
        if self.shard_budget > 0 {
            self.shard(key).insert(key, data, self.shard_budget);
        }
        Ok(r)
    }

    /// Bytes cached now.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap().bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_within_budget_and_keeps_hot_blocks() {
        let cache = BlockCache::new(SHARDS * 1000);
        let load = |k: Key| move || Ok::<_, ()>(vec![k as u8; 100].into_boxed_slice());
        for k in 0..10_000u64 {
            let first = cache.with_block(k, load(k), |d| d[0]).unwrap();
            assert_eq!(first, k as u8);
            // Key 7 is read after every insertion and so stays referenced.
            assert_eq!(cache.with_block(7, load(7), |d| d[0]).unwrap(), 7);
            assert!(cache.bytes() <= cache.capacity());
        }
        let mut reloaded = false;
        cache
            .with_block(
                7,
                || {
                    reloaded = true;
                    Ok::<_, ()>(vec![7u8; 100].into_boxed_slice())
                },
                |_| (),
            )
            .unwrap();
        assert!(!reloaded, "a hot block is not evicted");
        let none = BlockCache::new(0);
        assert_eq!(none.with_block(1, load(1), |d| d.len()).unwrap(), 100);
        assert_eq!(none.bytes(), 0);
    }
}
