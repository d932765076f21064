//! One fast, non-cryptographic hasher for the core's hash maps keyed by text. A neutral module:
//! the JSON decoder and enhanced mode's code analyzer both use it.

use std::hash::Hasher;

/// The multiply-rotate hash of rustc (FxHash) plus a final mix: keys are hashed for every kept object, and
/// SipHash's flooding resistance buys nothing for a one-shot decode (nor for the enhanced code
/// analyzer's lookup of every definition, which uses it too).
#[derive(Default)]
pub(crate) struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.add(u64::from(byte));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply only carries low bits upward and hashbrown indexes buckets by the low
        // bits: without this final avalanche (MurmurHash3's fmix64), keys differing only in
        // their last bytes ("key1", "key2") collide.
        let mut hash = self.hash;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
    }
}
