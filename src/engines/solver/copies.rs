//! Which compiled copy of the search runs: the search is one generic function,
//! compiled for baseline x86-64, for the bit instructions (popcnt, BMI1/2, lzcnt), with
//! AVX2, and with AVX2 and `pext`, and chosen once per process from CPUID.

use super::{Count, Solver, Start, AVX2, PEXT};
use crate::values::grid::Clash;

impl Solver {
    /// Runs [`Solver::search`] in the copy compiled for this CPU ([`copy_for_this_cpu`]).
    pub(super) fn search_from(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        #[cfg(target_arch = "x86_64")]
        match copy_for_this_cpu() {
            // SAFETY: each copy is chosen only where this CPU has the features it is
            // compiled for (`copy_for_this_cpu`).
            SearchCopy::Bitboards => return unsafe { self.search_fast(start, limit, exclude) },
            SearchCopy::Avx2 => return unsafe { self.search_avx2(start, limit, exclude) },
            SearchCopy::BitInstructions => {
                return unsafe { self.search_with_bit_instructions(start, limit, exclude) }
            }
            SearchCopy::Baseline => {}
        }
        self.search::<0>(start, limit, exclude)
    }

    /// [`Solver::search_with_bit_instructions`] for CPUs where `pext` is fast (Intel
    /// since Haswell, AMD since Zen 3, all with AVX2): each mask's triads by one `pext`
    /// instead of three table lookups (measured: 6-7% faster on the hard sets and
    /// Kaggle), a digit's stack patterns by three, and the sweep's counts two digits at
    /// a time in AVX2 vectors (which also gives the SSE2 code three-operand forms).
    ///
    /// # Safety
    /// The CPU must have the features [`bit_instructions`] checks, and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    pub(super) unsafe fn search_fast(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<{ AVX2 | PEXT }>(start, limit, exclude)
    }

    /// [`Solver::search_fast`] without `pext`, for CPUs that have AVX2 but run `pext` in
    /// microcode (AMD before Zen 3): the sweep's counts two digits at a time, triads
    /// hashed by one multiply, and no compiler fences (measured on Zen 2: see
    /// [`Solver::propagate`]).
    ///
    /// # Safety
    /// The CPU must have the features [`bit_instructions`] checks, and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    pub(super) unsafe fn search_avx2(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<AVX2>(start, limit, exclude)
    }

    /// [`Solver::search`] compiled with popcnt, BMI1/2 and lzcnt (one instruction for
    /// each bit count and lowest-bit step; the default build targets baseline x86-64).
    ///
    /// # Safety
    /// The CPU must have those features: see [`bit_instructions`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    pub(super) unsafe fn search_with_bit_instructions(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<0>(start, limit, exclude)
    }
}

/// Whether this CPU has what [`Solver::search_with_bit_instructions`] is compiled for
/// (std caches the answer).
#[cfg(target_arch = "x86_64")]
pub(super) fn bit_instructions() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
}

/// The compiled copies of the search, and which one this CPU runs.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SearchCopy {
    /// [`Solver::search`] as the default build compiles it.
    Baseline,
    /// [`Solver::search_with_bit_instructions`].
    BitInstructions,
    /// [`Solver::search_avx2`].
    Avx2,
    /// [`Solver::search_fast`].
    Bitboards,
}

/// The copy for this CPU, decided once: [`Solver::search_fast`] where it has the bit
/// instructions and AVX2 and runs `pext` in one fast instruction (every Intel CPU with
/// BMI2 does; AMD's before Zen 3, family 17h, and Hygon's 18h run it in microcode, tens
/// of cycles or more, slower than the table lookups it replaces), else
/// [`Solver::search_avx2`] where it has those and AVX2, else
/// [`Solver::search_with_bit_instructions`] where it has the bit instructions, else the
/// baseline.
#[cfg(target_arch = "x86_64")]
pub(super) fn copy_for_this_cpu() -> SearchCopy {
    static COPY: std::sync::OnceLock<SearchCopy> = std::sync::OnceLock::new();
    *COPY.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        if !bit_instructions() {
            return SearchCopy::Baseline;
        }
        let vendor = __cpuid(0);
        let fast_pext = pext_is_fast([vendor.ebx, vendor.edx, vendor.ecx], __cpuid(1).eax);
        match (std::is_x86_feature_detected!("avx2"), fast_pext) {
            (true, true) => SearchCopy::Bitboards,
            (true, false) => SearchCopy::Avx2,
            (false, _) => SearchCopy::BitInstructions,
        }
    })
}

/// A CPUID vendor string as the three words leaf 0 returns it in EBX, EDX, ECX.
#[cfg(any(test, target_arch = "x86_64"))]
pub(super) fn vendor_words(name: &[u8; 12]) -> [u32; 3] {
    let word = |i: usize| u32::from_le_bytes([name[i], name[i + 1], name[i + 2], name[i + 3]]);
    [word(0), word(4), word(8)]
}

/// Whether `pext` is fast, from CPUID: the vendor words and leaf 1's EAX (family in bits
/// 8..12, extended family in bits 20..28 when that is 0xf).
#[cfg(any(test, target_arch = "x86_64"))]
pub(super) fn pext_is_fast(vendor: [u32; 3], signature: u32) -> bool {
    let amd_like =
        vendor == vendor_words(b"AuthenticAMD") || vendor == vendor_words(b"HygonGenuine");
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    !amd_like || family >= 0x19
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tests::{bundled, grid};

    /// The variants compiled for popcnt/BMI, alone, with AVX2 and with AVX2 and `pext`
    /// (one of them taken on CPUs that have those), and the baseline one find the same
    /// counts, solutions and search effort on real puzzles.
    #[test]
    fn every_compiled_variant_agrees() {
        // Unique puzzles, and puzzles with several solutions (where the search is mostly
        // light nodes and the first solution found depends on every branch).
        for (file, step, solutions) in [("hard.txt", 7, 1), ("multiple.txt", 61, 2)] {
            compiled_variants_agree(&bundled(file), step, solutions);
        }
    }

    /// Every `step`-th puzzle of `text` searched to two solutions by each compiled copy:
    /// each finds `solutions`, the same first one, with the same statistics.
    fn compiled_variants_agree(text: &str, step: usize, solutions: u64) {
        let mut base = Solver::new();
        #[cfg(target_arch = "x86_64")]
        let variants = match (bit_instructions(), std::is_x86_feature_detected!("avx2")) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 3,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let variants = 0;
        let mut other = Solver::new();
        let puzzles = text.lines().filter(|l| !l.starts_with('#'));
        for line in puzzles.step_by(step) {
            let puzzle = grid(&line[..81]);
            let start = Start::Grid(&puzzle);
            let b = base.search::<0>(start, 2, None);
            assert!(
                matches!(b, Ok(Count { solutions: found, .. }) if found == solutions),
                "{line}"
            );
            for variant in 0..variants {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: compiled for the features `bit_instructions` (and, for variants
                // 1 and 2, AVX2) found. `pext` runs on every CPU with BMI2, slowly on some.
                let a = unsafe {
                    match variant {
                        0 => other.search_with_bit_instructions(start, 2, None),
                        1 => other.search_avx2(start, 2, None),
                        _ => other.search_fast(start, 2, None),
                    }
                };
                #[cfg(not(target_arch = "x86_64"))]
                let a = other.search::<{ AVX2 | PEXT }>(start, 2, None);
                assert_eq!(a, b, "{line} (variant {variant})");
                assert_eq!(other.stats(), base.stats(), "{line} (variant {variant})");
            }
        }
    }

    #[test]
    fn pext_counts_as_fast_except_on_amd_before_zen_3() {
        let (amd, hygon, intel) = (
            vendor_words(b"AuthenticAMD"),
            vendor_words(b"HygonGenuine"),
            vendor_words(b"GenuineIntel"),
        );
        // Family 0xf plus extended family: Zen 2 (17h), Hygon Dhyana (18h), Zen 3 (19h),
        // Zen 5 (1Ah); Intel Haswell is family 6.
        let signature = |extended: u32, model: u32| 0xf << 8 | extended << 20 | model << 4;
        assert!(!pext_is_fast(amd, signature(0x8, 0x1)));
        assert!(!pext_is_fast(hygon, signature(0x9, 0x0)));
        assert!(pext_is_fast(amd, signature(0xa, 0x1)));
        assert!(pext_is_fast(amd, signature(0xb, 0x4)));
        assert!(pext_is_fast(intel, 0x6 << 8 | 0x3 << 16 | 0xc << 4));
    }
}
