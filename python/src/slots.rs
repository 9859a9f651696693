//! Flat result columns that the workers write in place: a status code and a fixed-width
//! solution a puzzle, the reasons of one slice, and a job's own columns. NumPy takes the
//! buffers as they are, so a puzzle costs no Python object and no per-record copy.

use std::sync::atomic::{AtomicUsize, Ordering};

use sudoku_batch::engines::explainer::HintKind;
use sudoku_batch::engines::grader::TECHNIQUES;
use sudoku_batch::jobs::{CanonForm, Graded};
use sudoku_batch::pipeline::batch::{RecordResult, ResultSlots};
use sudoku_batch::pipeline::rows::Reason;
use sudoku_batch::pipeline::BoardSetup;
use sudoku_batch::values::geometry::MAX_CELLS;
use sudoku_batch::values::puzzle::Solution;
use sudoku_batch::values::status::Status;

/// Status words by code, as the Python side maps them.
pub const STATUS_WORDS: [&str; 6] = [
    "unique",
    "multiple",
    "solved",
    "unsolvable",
    "invalid",
    "undecided",
];

/// The code of `status` in [`STATUS_WORDS`].
pub fn status_code(status: Status) -> u8 {
    STATUS_WORDS
        .iter()
        .position(|w| *w == status.word())
        .unwrap_or(4) as u8
}

/// A job's own columns, split with the rest of the slots.
pub trait Extras<E>: Send + Sized {
    /// The slots before `at` and those from it.
    fn split_at(self, at: usize) -> (Self, Self);
    /// Puts puzzle `i`'s columns.
    fn put(&mut self, i: usize, extra: &E);
}

/// No columns of a job's own (solve, classify).
pub struct NoExtras;

impl<E> Extras<E> for NoExtras {
    fn split_at(self, _: usize) -> (Self, Self) {
        (NoExtras, NoExtras)
    }
    fn put(&mut self, _: usize, _: &E) {}
}

/// `canon`'s columns: the form (81 ASCII digits; left as it was, NUL, for a malformed
/// puzzle) and the automorphism count (0 for a malformed puzzle).
pub struct CanonColumns<'a> {
    /// 81 bytes a puzzle.
    pub forms: &'a mut [u8],
    /// One a puzzle.
    pub automorphisms: &'a mut [u64],
}

impl Extras<CanonForm> for CanonColumns<'_> {
    fn split_at(self, at: usize) -> (Self, Self) {
        let (f0, f1) = self.forms.split_at_mut(at * 81);
        let (a0, a1) = self.automorphisms.split_at_mut(at);
        (
            CanonColumns {
                forms: f0,
                automorphisms: a0,
            },
            CanonColumns {
                forms: f1,
                automorphisms: a1,
            },
        )
    }
    fn put(&mut self, i: usize, extra: &CanonForm) {
        if let Some(c) = &extra.canonical {
            // As the command line writes it: `.` for empty, as in every grid column.
            for (to, &d) in self.forms[i * 81..i * 81 + 81].iter_mut().zip(&c.form) {
                *to = if d == b'0' { b'.' } else { d };
            }
            self.automorphisms[i] = c.automorphisms;
        }
    }
}

/// Counts a puzzle of `grade` keeps of its techniques: room for the rater's and the
/// pattern grader's.
pub const USES: usize = if HintKind::COUNT > TECHNIQUES {
    HintKind::COUNT
} else {
    TECHNIQUES
};

/// `grade`'s columns: the level code (an index into the grader's levels, 255 when not
/// graded), the rating (ER for a 9x9 grid), EP and ED in tenths (0 when not graded),
/// whether the ratings are lower bounds, the technique that set ER (an index into
/// [`HintKind::ALL`], 255 for none), and the steps by technique ([`USES`] a puzzle:
/// the rater's where `rated`, else the pattern grader's).
pub struct GradeColumns<'a> {
    /// One a puzzle.
    pub levels: &'a mut [u8],
    /// One a puzzle.
    pub ratings: &'a mut [u16],
    /// One a puzzle.
    pub pearls: &'a mut [u16],
    /// One a puzzle.
    pub diamonds: &'a mut [u16],
    /// One a puzzle.
    pub bounds: &'a mut [bool],
    /// One a puzzle.
    pub techniques: &'a mut [u8],
    /// [`USES`] a puzzle.
    pub uses: &'a mut [u16],
    /// One a puzzle: `uses` counts the rater's techniques.
    pub rated: &'a mut [bool],
}

impl Extras<Graded> for GradeColumns<'_> {
    fn split_at(self, at: usize) -> (Self, Self) {
        let (l0, l1) = self.levels.split_at_mut(at);
        let (r0, r1) = self.ratings.split_at_mut(at);
        let (p0, p1) = self.pearls.split_at_mut(at);
        let (d0, d1) = self.diamonds.split_at_mut(at);
        let (b0, b1) = self.bounds.split_at_mut(at);
        let (t0, t1) = self.techniques.split_at_mut(at);
        let (u0, u1) = self.uses.split_at_mut(at * USES);
        let (s0, s1) = self.rated.split_at_mut(at);
        (
            GradeColumns {
                levels: l0,
                ratings: r0,
                pearls: p0,
                diamonds: d0,
                bounds: b0,
                techniques: t0,
                uses: u0,
                rated: s0,
            },
            GradeColumns {
                levels: l1,
                ratings: r1,
                pearls: p1,
                diamonds: d1,
                bounds: b1,
                techniques: t1,
                uses: u1,
                rated: s1,
            },
        )
    }
    fn put(&mut self, i: usize, extra: &Graded) {
        self.levels[i] = extra.level().map_or(255, |l| l as u8);
        self.ratings[i] = match (&extra.se, &extra.grade) {
            (Some(se), _) => se.er,
            (_, g) => g.map_or(0, |g| g.rating),
        };
        let se = extra.se;
        self.pearls[i] = se.map_or(0, |s| s.ep);
        self.diamonds[i] = se.map_or(0, |s| s.ed);
        self.bounds[i] = se.is_some_and(|s| !s.complete);
        self.techniques[i] = se.and_then(|s| s.technique).map_or(255, |t| t as u8);
        let uses = &mut self.uses[i * USES..(i + 1) * USES];
        match (&extra.se, &extra.grade) {
            (Some(se), _) => uses[..se.uses.len()].copy_from_slice(&se.uses),
            (None, Some(g)) => uses[..g.uses.len()].copy_from_slice(&g.uses),
            (None, None) => {}
        }
        self.rated[i] = extra.se.is_some();
    }
}

/// The slots of a run of puzzles: a part of each column.
pub struct Flat<'a, X> {
    /// Status codes, one a puzzle.
    pub statuses: &'a mut [u8],
    /// Solutions, `width` bytes a puzzle, NUL-padded; left as they were (NUL) where
    /// there is none or the puzzle is `unsolvable` or `invalid`.
    pub solutions: &'a mut [u8],
    /// Bytes a solution.
    pub width: usize,
    /// Why each `invalid` puzzle is.
    pub reasons: &'a mut [Option<Reason>],
    /// The longest solution written so far, shared by every part.
    pub widest: &'a AtomicUsize,
    /// The symbols boards are written in.
    pub boards: &'a BoardSetup,
    /// The job's own columns.
    pub extra: X,
}

impl<E, X: Extras<E>> ResultSlots<E> for Flat<'_, X> {
    fn len(&self) -> usize {
        self.statuses.len()
    }

    fn split_at(self, at: usize) -> (Self, Self) {
        let (s0, s1) = self.statuses.split_at_mut(at);
        let (v0, v1) = self.solutions.split_at_mut(at * self.width);
        let (r0, r1) = self.reasons.split_at_mut(at);
        let (x0, x1) = self.extra.split_at(at);
        let part = |statuses, solutions, reasons, extra| Flat {
            statuses,
            solutions,
            width: self.width,
            reasons,
            widest: self.widest,
            boards: self.boards,
            extra,
        };
        (part(s0, v0, r0, x0), part(s1, v1, r1, x1))
    }

    #[inline]
    fn put(&mut self, i: usize, result: RecordResult<E>) {
        self.statuses[i] = status_code(result.status);
        self.reasons[i] = result.reason;
        self.extra.put(i, &result.extra);
        if matches!(result.status, Status::Unsolvable | Status::Invalid) {
            return;
        }
        let slot = &mut self.solutions[i * self.width..(i + 1) * self.width];
        let written = match &result.solution {
            Some(Solution::Grid(s)) => {
                let mut line = [0u8; 81];
                s.write_line(&mut line);
                slot[..81].copy_from_slice(&line);
                81
            }
            Some(Solution::Board(b)) => {
                let mut text = [0u8; MAX_CELLS];
                let written = b.write(self.boards.symbols(b.side()), &mut text);
                slot[..written.len()].copy_from_slice(written);
                written.len()
            }
            None => return,
        };
        if written > self.widest.load(Ordering::Relaxed) {
            self.widest.fetch_max(written, Ordering::Relaxed);
        }
    }
}
