//! Vector versions of the solver's counts over the nine digits (x86-64 only): a digit's
//! three band masks load as lanes 0..3 of a 128-bit vector (lane 3 is cleared), so one
//! instruction works on the three bands; with AVX2 a 256-bit vector holds two digits.
//!
//! Also the two conversions between a grid's 81 cells and the masks: the givens into
//! masks (byte compares) and a solved band back into cells (bits spread to bytes).
//!
//! The scalar versions in the parent module define what these compute; test builds
//! check the two agree at every call.

use std::arch::x86_64::*;

/// The 18 bits of a shape the counts read: triads (0..9) and columns (9..18).
const SHAPE_BITS: i32 = 0x3ffff;
/// Bits of the minirows / minicolumns first, second and third in their group of three.
const GROUP_FIRST: i32 = 0x9249;

/// 32-bit lane operations on a 128-bit (SSE2) or 256-bit (AVX2) vector; a 256-bit
/// vector is two 128-bit halves, each with its three bands in lanes 0..3.
///
/// # Safety
/// Every method needs the CPU to have the vector's instruction set: SSE2 (all x86-64)
/// for `__m128i`, AVX2 for `__m256i`.
trait Lanes: Copy {
    unsafe fn splat(v: i32) -> Self;
    unsafe fn and(self, o: Self) -> Self;
    unsafe fn or(self, o: Self) -> Self;
    unsafe fn xor(self, o: Self) -> Self;
    /// `!self & o`.
    unsafe fn andnot(self, o: Self) -> Self;
    unsafe fn shr<const N: i32>(self) -> Self;
    unsafe fn shl<const N: i32>(self) -> Self;
    /// Lane `b` of each half takes lane `(b + 1) % 3`, lane 3 stays.
    unsafe fn next_band(self) -> Self;
    /// Lane `b` of each half takes lane `(b + 2) % 3`, lane 3 stays.
    unsafe fn last_band(self) -> Self;
}

impl Lanes for __m128i {
    #[inline(always)]
    unsafe fn splat(v: i32) -> Self {
        _mm_set1_epi32(v)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        _mm_and_si128(self, o)
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        _mm_or_si128(self, o)
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        _mm_xor_si128(self, o)
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        _mm_andnot_si128(self, o)
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        _mm_srli_epi32::<N>(self)
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        _mm_slli_epi32::<N>(self)
    }
    #[inline(always)]
    unsafe fn next_band(self) -> Self {
        _mm_shuffle_epi32::<0b11_00_10_01>(self)
    }
    #[inline(always)]
    unsafe fn last_band(self) -> Self {
        _mm_shuffle_epi32::<0b11_01_00_10>(self)
    }
}

impl Lanes for __m256i {
    #[inline(always)]
    unsafe fn splat(v: i32) -> Self {
        _mm256_set1_epi32(v)
    }
    #[inline(always)]
    unsafe fn and(self, o: Self) -> Self {
        _mm256_and_si256(self, o)
    }
    #[inline(always)]
    unsafe fn or(self, o: Self) -> Self {
        _mm256_or_si256(self, o)
    }
    #[inline(always)]
    unsafe fn xor(self, o: Self) -> Self {
        _mm256_xor_si256(self, o)
    }
    #[inline(always)]
    unsafe fn andnot(self, o: Self) -> Self {
        _mm256_andnot_si256(self, o)
    }
    #[inline(always)]
    unsafe fn shr<const N: i32>(self) -> Self {
        _mm256_srli_epi32::<N>(self)
    }
    #[inline(always)]
    unsafe fn shl<const N: i32>(self) -> Self {
        _mm256_slli_epi32::<N>(self)
    }
    #[inline(always)]
    unsafe fn next_band(self) -> Self {
        _mm256_shuffle_epi32::<0b11_00_10_01>(self)
    }
    #[inline(always)]
    unsafe fn last_band(self) -> Self {
        _mm256_shuffle_epi32::<0b11_01_00_10>(self)
    }
}

/// Running counts over digits, per band lane: `open[k]` where at least `k + 1` digits
/// may go, `sure[k]` where at least `k + 1` must; `covered`, columns every digit so far
/// has in some band; `locks`, where the stack-direction rule removes something.
#[derive(Clone, Copy)]
struct Counts<V> {
    open: [V; 4],
    sure: [V; 4],
    covered: V,
    locks: V,
}

impl<V: Lanes> Counts<V> {
    #[inline(always)]
    unsafe fn new() -> Self {
        let zero = V::splat(0);
        Counts {
            open: [zero; 4],
            sure: [zero; 4],
            covered: V::splat(-1),
            locks: zero,
        }
    }

    /// Adds one digit (two in a 256-bit vector): `x`, its shapes' low 18 bits with lane
    /// 3 of each half zero. As the parent's `triad_counts_scalar` loop body.
    #[inline(always)]
    unsafe fn add(&mut self, x: V) {
        let c = x.shr::<9>();
        let others = c.next_band().or(c.last_band());
        self.covered = self.covered.and(c.or(others));
        let only = others.andnot(c);
        let boxes = only
            .or(only.shr::<1>())
            .or(only.shr::<2>())
            .and(V::splat(0x49));
        let box_columns = boxes.or(boxes.shl::<1>()).or(boxes.shl::<2>());
        self.locks = self.locks.or(c.and(box_columns).xor(only));
        let (down, up) = (x.shr::<1>(), x.shl::<1>());
        let grouped = down
            .or(x.shr::<2>())
            .and(V::splat(GROUP_FIRST))
            .or(up.or(down).and(V::splat(GROUP_FIRST << 1)))
            .or(up.or(x.shl::<2>()).and(V::splat(GROUP_FIRST << 2)));
        let sure = grouped.andnot(x);
        let [o1, o2, o3, o4] = &mut self.open;
        *o4 = o4.or(o3.and(x));
        *o3 = o3.or(o2.and(x));
        *o2 = o2.or(o1.and(x));
        *o1 = o1.or(x);
        let [s1, s2, s3, s4] = &mut self.sure;
        *s4 = s4.or(s3.and(sure));
        *s3 = s3.or(s2.and(sure));
        *s2 = s2.or(s1.and(sure));
        *s1 = s1.or(sure);
    }

    /// The counts of two disjoint sets of digits together ("at least k" saturates at 4).
    #[inline(always)]
    unsafe fn merge(self, other: Self) -> Self {
        let sum = |a: [V; 4], b: [V; 4]| {
            [
                a[0].or(b[0]),
                a[1].or(b[1]).or(a[0].and(b[0])),
                a[2].or(b[2]).or(a[1].and(b[0])).or(a[0].and(b[1])),
                a[3].or(b[3])
                    .or(a[2].and(b[0]))
                    .or(a[1].and(b[1]))
                    .or(a[0].and(b[2])),
            ]
        };
        Counts {
            open: sum(self.open, other.open),
            sure: sum(self.sure, other.sure),
            covered: self.covered.and(other.covered),
            locks: self.locks.or(other.locks),
        }
    }
}

impl Counts<__m256i> {
    /// The counts of the low and the high digit of each pair.
    #[inline(always)]
    unsafe fn halves(self) -> (Counts<__m128i>, Counts<__m128i>) {
        let (mut low, mut high) = (Counts::<__m128i>::new(), Counts::<__m128i>::new());
        for k in 0..4 {
            (low.open[k], high.open[k]) = half(self.open[k]);
            (low.sure[k], high.sure[k]) = half(self.sure[k]);
        }
        (low.covered, high.covered) = half(self.covered);
        (low.locks, high.locks) = half(self.locks);
        (low, high)
    }
}

/// The two 128-bit halves of a 256-bit vector (AVX2).
#[inline(always)]
unsafe fn half(v: __m256i) -> (__m128i, __m128i) {
    (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
}

/// What the counts say, per band (lanes 0..3): `None` at a dead end, else the
/// minirows and minicolumns open to exactly three digits, those three digits are sure
/// of, and the stack-direction removals.
pub(super) type Found = Option<([u32; 3], [u32; 3], [u32; 3])>;

#[inline(always)]
unsafe fn found(counts: Counts<__m128i>) -> Found {
    let three_lanes = _mm_set_epi32(0, SHAPE_BITS, SHAPE_BITS, SHAPE_BITS);
    // Every band's columns covered, every minirow and minicolumn open to three digits,
    // none sure of four.
    let covered = _mm_cmpeq_epi32(
        _mm_and_si128(counts.covered, three_lanes),
        _mm_srli_epi32::<9>(three_lanes),
    );
    let open3 = _mm_cmpeq_epi32(counts.open[2], three_lanes);
    let sure4 = _mm_cmpeq_epi32(counts.sure[3], _mm_setzero_si128());
    let ok = _mm_and_si128(_mm_and_si128(covered, open3), sure4);
    if _mm_movemask_ps(_mm_castsi128_ps(ok)) & 7 != 7 {
        return None;
    }
    let three = |v: __m128i| {
        let l = lanes(v);
        [l[0], l[1], l[2]]
    };
    Some((
        three(_mm_andnot_si128(counts.open[3], counts.open[2])),
        three(counts.sure[2]),
        three(counts.locks),
    ))
}

/// Lanes `at..at + 4` of `shapes`, masked to the bits the counts read.
///
/// # Safety
/// `at + 4 <= shapes.len()`.
#[inline(always)]
unsafe fn digit(shapes: &[u32; 28], at: usize) -> __m128i {
    debug_assert!(at + 4 <= shapes.len());
    let x = _mm_loadu_si128(shapes.as_ptr().add(at) as *const __m128i);
    _mm_and_si128(x, _mm_set_epi32(0, SHAPE_BITS, SHAPE_BITS, SHAPE_BITS))
}

/// The counts over the nine digits of `shapes` (digit `d`'s bands at `3d..3d + 3`, entry
/// 27 padding), one digit at a time with SSE2.
#[inline(always)]
pub(super) fn triad_counts_sse2(shapes: &[u32; 28]) -> Found {
    // SAFETY: SSE2 is in the x86-64 baseline; digit `d` reads lanes `3d..3d + 4 <= 28`.
    unsafe {
        let mut counts = Counts::<__m128i>::new();
        for d in 0..9 {
            counts.add(digit(shapes, d * 3));
        }
        found(counts)
    }
}

/// [`triad_counts_sse2`] two digits at a time with AVX2: digits 0..8 in pairs, the
/// halves merged, digit 8 alone.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
pub(super) unsafe fn triad_counts_avx2(shapes: &[u32; 28]) -> Found {
    let mut pairs = Counts::<__m256i>::new();
    for pair in 0..4 {
        let (low, high) = (digit(shapes, pair * 6), digit(shapes, pair * 6 + 3));
        pairs.add(_mm256_set_m128i(high, low));
    }
    let (mut low, high) = pairs.halves();
    low.add(digit(shapes, 24));
    found(low.merge(high))
}

/// Each band's cells with at least one candidate, and with at least two (lanes 0..3),
/// from the 27 candidate masks (digit `d`'s bands at `3d..3d + 3`, entry 27 padding).
#[inline(always)]
pub(super) fn cell_counts_sse2(candidates: &[u32; 28]) -> ([u32; 4], [u32; 4]) {
    // SAFETY: SSE2 is in the x86-64 baseline; digit `d` reads lanes `3d..3d + 4 <= 28`
    // (lane 3 is not read back).
    unsafe {
        let mut one = _mm_setzero_si128();
        let mut two = _mm_setzero_si128();
        for d in 0..9 {
            let m = _mm_loadu_si128(candidates.as_ptr().add(d * 3) as *const __m128i);
            two = _mm_or_si128(two, _mm_and_si128(one, m));
            one = _mm_or_si128(one, m);
        }
        (lanes(one), lanes(two))
    }
}

/// A band's cells as bytes from its four digit planes, as `band_digits_scalar` in the
/// parent module: each plane's four bytes unpacked to eight lanes each, then a compare
/// of every lane with its own bit leaves all ones where the cell's bit is set, kept as
/// the plane's weight (`1 << k`).
#[inline(always)]
pub(super) fn band_digits_sse2(planes: [u32; 4]) -> [u8; 32] {
    // SAFETY: SSE2 is in the x86-64 baseline; nothing is read from memory, and the
    // result is two 16-byte vectors of plain bytes.
    unsafe {
        // Byte j of each eight holds bit j.
        let own = _mm_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
        let (mut low, mut high) = (_mm_setzero_si128(), _mm_setzero_si128());
        for (k, &plane) in planes.iter().enumerate() {
            let weight = _mm_set1_epi8(1 << k);
            let set = |lanes: __m128i| {
                _mm_and_si128(_mm_cmpeq_epi8(_mm_and_si128(lanes, own), own), weight)
            };
            let v = _mm_cvtsi32_si128(plane as i32);
            let pairs = _mm_unpacklo_epi8(v, v);
            let fours = _mm_unpacklo_epi16(pairs, pairs);
            // Plane bytes 0 and 1 (cells 0..16), then 2 and 3 (cells 16..32).
            low = _mm_or_si128(low, set(_mm_unpacklo_epi32(fours, fours)));
            high = _mm_or_si128(high, set(_mm_unpackhi_epi32(fours, fours)));
        }
        std::mem::transmute::<[__m128i; 2], [u8; 32]>([low, high])
    }
}

/// The four 32-bit lanes of a 128-bit vector.
#[inline(always)]
fn lanes(v: __m128i) -> [u32; 4] {
    // SAFETY: both types are 16 bytes of plain integers, every bit pattern valid.
    unsafe { std::mem::transmute::<__m128i, [u32; 4]>(v) }
}

/// The givens of a grid as band masks: `masks[digit * 3 + band]` (digit 0-based) has bit
/// `i` where cell `band * 27 + i` holds `digit + 1`. Per digit, six byte compares over the
/// 81 cells and their sign bits, where a scalar pass ran a chain of read-modify-writes
/// through one memory slot per empty cell of a band (measured, one thread: Kaggle +3%,
/// the 17-clue list +2.8%, the 16-clue part of multi-solution-20k +1.4%).
#[inline(always)]
pub(super) fn given_masks_sse2(cells: &[u8; 81]) -> [u32; 27] {
    let mut masks = [0u32; 27];
    // SAFETY: SSE2 is in the x86-64 baseline; the six 16-byte loads start at 0, 16, 32,
    // 48, 64 and 65, so the last ends at byte 81: none reads past the grid.
    unsafe {
        let at = |offset: usize| _mm_loadu_si128(cells.as_ptr().add(offset) as *const __m128i);
        let chunks = [at(0), at(16), at(32), at(48), at(64), at(65)];
        for digit in 0..9 {
            let value = _mm_set1_epi8(digit as i8 + 1);
            let bits = chunks.map(|c| _mm_movemask_epi8(_mm_cmpeq_epi8(c, value)) as u32 as u64);
            // Cells 0..64 in `low`; 64..80 in `high`, cell 80 from the load at 65.
            let low = bits[0] | bits[1] << 16 | bits[2] << 32 | bits[3] << 48;
            let high = bits[4] | (bits[5] >> 15) << 16;
            const BAND: u64 = (1 << 27) - 1;
            masks[digit * 3] = (low & BAND) as u32;
            masks[digit * 3 + 1] = (low >> 27 & BAND) as u32;
            masks[digit * 3 + 2] = ((low >> 54 | high << 10) & BAND) as u32;
        }
    }
    masks
}
