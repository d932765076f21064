//! Arbitrary-precision integers, only as far as keys need them (equality and decimal printing).

use super::*;

/// Sign and little-endian base-2^32 magnitude without high zero limbs; zero is never negative.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct BigInt {
    pub(super) negative: bool,
    pub(super) magnitude: Vec<u32>,
}

impl BigInt {
    pub(super) fn zero() -> Self {
        BigInt {
            negative: false,
            magnitude: Vec::new(),
        }
    }

    pub(super) fn normalized(mut self) -> Self {
        while self.magnitude.last() == Some(&0) {
            self.magnitude.pop();
        }
        if self.magnitude.is_empty() {
            self.negative = false;
        }
        self
    }

    pub(super) fn from_u64(value: u64) -> Self {
        BigInt {
            negative: false,
            magnitude: vec![value as u32, (value >> 32) as u32],
        }
        .normalized()
    }

    pub(super) fn from_i128(value: i128) -> Self {
        let magnitude = value.unsigned_abs();
        let limbs = (0..4)
            .map(|index| (magnitude >> (32 * index)) as u32)
            .collect();
        BigInt {
            negative: value < 0,
            magnitude: limbs,
        }
        .normalized()
    }

    pub(super) fn to_i128(&self) -> Option<i128> {
        if self.magnitude.len() > 3 {
            return None;
        }
        let magnitude = self
            .magnitude
            .iter()
            .rev()
            .fold(0i128, |total, &limb| (total << 32) | i128::from(limb));
        Some(if self.negative { -magnitude } else { magnitude })
    }

    pub(super) fn negated(mut self) -> Self {
        self.negative = !self.negative;
        self.normalized()
    }

    /// `magnitude = magnitude * multiplier + addend`.
    pub(super) fn multiply_add(&mut self, multiplier: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.magnitude {
            let product = u64::from(*limb) * u64::from(multiplier) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.magnitude.push(carry as u32);
        }
    }

    /// Decimal digits, at most `INT_MAX_STR_DIGITS` of them, so quadratic work stays small.
    pub(super) fn from_decimal_digits(digits: &str) -> Self {
        let mut value = BigInt::zero();
        let bytes = digits.as_bytes();
        for chunk in bytes.chunks(9) {
            let chunk_value = chunk
                .iter()
                .fold(0u32, |total, &digit| total * 10 + u32::from(digit - b'0'));
            let multiplier = 10u32.pow(u32::try_from(chunk.len()).unwrap_or(0));
            value.multiply_add(multiplier, chunk_value);
        }
        value.normalized()
    }

    /// Digits of base 2, 8 or 16, packed bit by bit in linear time.
    pub(super) fn from_power_of_two_digits(digits: &str, base: u32) -> Self {
        let bits_per_digit = base.trailing_zeros();
        let mut magnitude = Vec::new();
        let mut accumulator: u64 = 0;
        let mut accumulated_bits = 0;
        for digit in digits.chars().rev().filter_map(|c| c.to_digit(base)) {
            accumulator |= u64::from(digit) << accumulated_bits;
            accumulated_bits += bits_per_digit;
            if accumulated_bits >= 32 {
                magnitude.push(accumulator as u32);
                accumulator >>= 32;
                accumulated_bits -= 32;
            }
        }
        magnitude.push(accumulator as u32);
        BigInt {
            negative: false,
            magnitude,
        }
        .normalized()
    }

    /// The exact integer value of an integral finite float.
    pub(super) fn from_integral_f64(value: f64) -> Self {
        let bits = value.to_bits();
        let negative = bits >> 63 == 1;
        let exponent_bits = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1u64 << 52) - 1);
        if exponent_bits == 0 {
            return BigInt::zero(); // zero or subnormal, and integral means zero
        }
        let mantissa = fraction | (1u64 << 52);
        let shift = exponent_bits - 1075;
        let mut result = if shift >= 0 {
            let mut result = BigInt::from_u64(mantissa);
            let limb_shift = usize::try_from(shift / 32).unwrap_or(0);
            let bit_shift = (shift % 32) as u32;
            if bit_shift > 0 {
                result.multiply_add(1u32 << bit_shift, 0);
            }
            let mut magnitude = vec![0u32; limb_shift];
            magnitude.extend(result.magnitude);
            BigInt {
                negative: false,
                magnitude,
            }
        } else {
            BigInt::from_u64(mantissa >> (-shift).min(63))
        };
        result.negative = negative;
        result.normalized()
    }

    /// Python's `str(int)`; `None` past CPython's 4300-digit limit (where `str()` raises).
    pub(super) fn to_decimal(&self) -> Option<String> {
        // 4300 decimal digits need at most 14285 bits; larger values cannot print.
        if self.magnitude.len() * 32 > 14_400 {
            return None;
        }
        let mut remaining = self.magnitude.clone();
        let mut chunks: Vec<u32> = Vec::new();
        while !remaining.is_empty() {
            let mut remainder: u64 = 0;
            for limb in remaining.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            chunks.push(remainder as u32);
            while remaining.last() == Some(&0) {
                remaining.pop();
            }
        }
        let mut text = String::from(if self.negative { "-" } else { "" });
        match chunks.split_last() {
            None => text.push('0'),
            Some((most_significant, rest)) => {
                text.push_str(&most_significant.to_string());
                for chunk in rest.iter().rev() {
                    text.push_str(&format!("{chunk:09}"));
                }
            }
        }
        let digit_count = text.trim_start_matches('-').len();
        (digit_count <= INT_MAX_STR_DIGITS).then_some(text)
    }
}
