//! Byte-parallel ("SIMD within a register") tests on the 8 bytes of a `u64` read little-endian:
//! each answers with the high bit of every byte that passes. The scanners of the kinds and of the
//! output index share these instead of each keeping its own bit tricks.

pub(crate) const LOW_BITS: u64 = 0x0101_0101_0101_0101;
pub(crate) const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
/// Bytes per word.
pub(crate) const WORD_BYTES: usize = 8;

/// Bytes equal to `byte`, exactly (no carries between bytes).
pub(crate) fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (LOW_BITS * u64::from(byte));
    !(((x & !HIGH_BITS) + !HIGH_BITS) | x | !HIGH_BITS)
}

/// Bytes below `limit` (at most 0x80), exactly.
pub(crate) fn bytes_below(word: u64, limit: u8) -> u64 {
    !(((word & !HIGH_BITS) + LOW_BITS * u64::from(0x80 - limit)) | word) & HIGH_BITS
}

/// Zero bytes, exact up to the lowest one (a byte above it may be flagged too): cheaper than
/// [`bytes_equal`] where only the first hit is used.
#[inline(always)]
pub(crate) fn zero_bytes_up_to_first(word: u64) -> u64 {
    word.wrapping_sub(LOW_BITS) & !word & HIGH_BITS
}

/// UTF-8 continuation bytes (`10xxxxxx`).
#[inline(always)]
pub(crate) fn continuation_bytes(word: u64) -> u64 {
    word & !(word << 1) & HIGH_BITS
}

/// How many bytes of `bits` have their high bit set (and no other bit): their sum lands in the
/// top byte of the product (a multiply is cheaper than a popcount where that is not native).
#[inline(always)]
pub(crate) fn count_flagged(bits: u64) -> usize {
    ((bits >> 7).wrapping_mul(LOW_BITS) >> 56) as usize
}

/// The 16 bytes of `bytes` at `at` as one wasm SIMD vector (lane `i` is byte `at + i`), in the
/// modules built with simd128 (the enhanced and grep modules; the native tests run the
/// word-at-a-time paths, the native-vs-wasm determinism test these).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
pub fn vector_at(bytes: &[u8], at: usize) -> Option<core::arch::wasm32::v128> {
    let chunk = bytes.get(at..at + 16)?;
    let half =
        |from: usize| u64::from_le_bytes(chunk[from..from + 8].try_into().unwrap_or_default());
    Some(core::arch::wasm32::u64x2(half(0), half(8)))
}

/// Where the first `byte` at or after `from` is: 16 bytes a step with wasm SIMD where the module
/// is built with it, then eight a step with words.
#[inline(always)]
#[cfg(any(test, feature = "enhanced"))]
pub(crate) fn find_byte(bytes: &[u8], from: usize, byte: u8) -> Option<usize> {
    let mut at = from;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat};
        let needle = u8x16_splat(byte);
        while let Some(chunk) = vector_at(bytes, at) {
            let hits = u8x16_bitmask(u8x16_eq(chunk, needle));
            if hits != 0 {
                return Some(at + hits.trailing_zeros() as usize);
            }
            at += 16;
        }
    }
    while let Some(chunk) = bytes.get(at..at + WORD_BYTES) {
        let hits = bytes_equal(
            u64::from_le_bytes(chunk.try_into().unwrap_or_default()),
            byte,
        );
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += WORD_BYTES;
    }
    Some(at + bytes.get(at..)?.iter().position(|&b| b == byte)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_byte_finds_the_first_at_or_after_from() {
        let bytes: Vec<u8> = (0..40u8)
            .map(|i| {
                if i % 7 == 3 {
                    b'x'
                } else {
                    b'x' ^ 0x80 ^ (i & 1)
                }
            })
            .collect();
        for len in 0..bytes.len() {
            for from in 0..=len + 1 {
                let expected = bytes[..len]
                    .get(from..)
                    .and_then(|rest| rest.iter().position(|&b| b == b'x'))
                    .map(|at| from + at);
                assert_eq!(
                    find_byte(&bytes[..len], from, b'x'),
                    expected,
                    "{len} {from}"
                );
            }
        }
    }

    #[test]
    fn word_tests_agree_with_byte_tests() {
        let samples: [[u8; 8]; 4] = [
            *b"ab,\"\n\x00\x7f\x80",
            [0xC2, 0xA0, 0xE2, 0x80, 0xA8, b' ', 0, 0xFF],
            [0x80, 0xBF, 0xC0, 0x01, 0x21, 0x20, 0x1F, 0x7F],
            *b"\xE6\x97\xA5\xE6\x9C\xAC  ",
        ];
        for bytes in samples {
            let word = u64::from_le_bytes(bytes);
            let flags = |test: &dyn Fn(u8) -> bool| -> u64 {
                (0..8)
                    .filter(|&i| test(bytes[i]))
                    .map(|i| 0x80u64 << (8 * i))
                    .sum()
            };
            for probe in [0u8, b' ', b'"', 0x80, 0xC2, 0xFF] {
                assert_eq!(bytes_equal(word, probe), flags(&|b| b == probe));
            }
            for limit in [1u8, 0x20, 0x21, 0x80] {
                assert_eq!(bytes_below(word, limit), flags(&|b| b < limit));
            }
            assert_eq!(continuation_bytes(word), flags(&|b| b & 0xC0 == 0x80));
            assert_eq!(
                count_flagged(continuation_bytes(word)),
                bytes.iter().filter(|&&b| b & 0xC0 == 0x80).count()
            );
            let zeros = zero_bytes_up_to_first(word);
            let exact = flags(&|b| b == 0);
            assert_eq!(zeros.trailing_zeros(), exact.trailing_zeros());
        }
    }
}
