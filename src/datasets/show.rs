//! `show`: a few records as pretty grids for a person at a terminal: givens in bold
//! (colour only on a terminal, never with `NO_COLOR`), the solution with the digits it
//! filled in, the status, and the grade. The answers come from the `grade` job; this
//! module only picks records and draws them.

use std::fmt::Write as _;

use crate::jobs::Grade;
use crate::pipeline::input::{for_each_record_of, Layout};
use crate::pipeline::rows::{Reason, BAND_LINE};
use crate::pipeline::Worker;
use crate::values::grid::Grid;

/// How to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI bold and colour.
    pub color: bool,
    /// Write each record's line, status and grade above its drawing.
    pub titles: bool,
    /// Draw the solution beside the puzzle.
    pub solution: bool,
}

/// A record picked for showing: its line and text as read.
struct Picked {
    line: u64,
    puzzle: Result<Grid, crate::pipeline::input::RecordError>,
    raw: String,
}

/// Errors of `show`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShowError {
    /// No record starts on a line asked for.
    NoRecord {
        /// The line asked for.
        line: u64,
        /// Lines of the first and last records, if there are any.
        range: Option<(u64, u64)>,
    },
}

impl std::fmt::Display for ShowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShowError::NoRecord { line, range: None } => {
                write!(f, "--line {line}: the input holds no records")
            }
            ShowError::NoRecord {
                line,
                range: Some((a, b)),
            } => write!(
                f,
                "--line {line}: no record starts on that line (records are on lines {a} to {b})"
            ),
        }
    }
}

impl std::error::Error for ShowError {}

/// Draws the records of `data` starting on `lines` (the first record when empty).
pub fn show(
    data: &[u8],
    layout: &Layout,
    lines: &[u64],
    style: Style,
) -> Result<String, ShowError> {
    let mut picked: Vec<Picked> = Vec::new();
    let (mut first, mut last) = (None, None);
    for_each_record_of(data, layout, |r| {
        first.get_or_insert(r.line);
        last = Some(r.line);
        let wanted = if lines.is_empty() {
            picked.is_empty()
        } else {
            lines.contains(&r.line)
        };
        if wanted {
            picked.push(Picked {
                line: r.line,
                puzzle: r.puzzle,
                raw: String::from_utf8_lossy(&r.raw[..r.raw.len().min(100)]).into_owned(),
            });
        }
    });
    let range = first.zip(last);
    if lines.is_empty() && picked.is_empty() {
        return Err(ShowError::NoRecord { line: 1, range });
    }
    if let Some(&line) = lines.iter().find(|l| !picked.iter().any(|p| p.line == **l)) {
        return Err(ShowError::NoRecord { line, range });
    }
    let job = Grade::new();
    let mut worker = Worker::new(
        &job,
        crate::values::geometry::Variant::Classic,
        crate::values::search::Budget::DEFAULT,
    );
    let mut text = String::new();
    let boards = crate::pipeline::BoardSetup::default();
    for p in &picked {
        let puzzle = match &p.puzzle {
            Ok(grid) => Ok(crate::values::puzzle::Puzzle::Grid(grid)),
            Err(e) => Err(crate::pipeline::rows::Reason::Record(*e)),
        };
        let (answer, reason) = worker.answer(&job, puzzle, &boards);
        let csv_column =
            (layout.format == crate::pipeline::input::Format::Csv).then_some(&*layout.puzzle_name);
        if style.titles {
            let _ = write!(text, "{}", paint(style, "1", &format!("line {}", p.line)));
            let _ = write!(text, ": {}", answer.status.word());
            if let Some(reason) = reason {
                let _ = write!(text, ": {}", describe(&reason, csv_column));
            }
            let tenths = |t: u16| f64::from(t) / 10.0;
            match (answer.extra.se, answer.extra.grade) {
                // Sukaku Explainer's ratings, as `grade` writes them.
                (Some(se), _) => {
                    let level = answer.extra.level().map_or("", |l| l.name());
                    let bound = if se.complete { "" } else { "at least " };
                    let _ = write!(
                        text,
                        ", {level}: ER {bound}{:.1}, EP {:.1}, ED {:.1}",
                        tenths(se.er),
                        tenths(se.ep),
                        tenths(se.ed)
                    );
                    if let Some(hardest) = se.technique {
                        let _ = write!(text, ", hardest step: {}", hardest.name());
                    }
                }
                (None, Some(g)) => {
                    let _ = write!(
                        text,
                        ", {} ({:.1}, hardest step: {})",
                        g.level.name(),
                        tenths(g.rating),
                        g.hardest().name()
                    );
                }
                (None, None) => {}
            }
            text.push('\n');
        }
        match &p.puzzle {
            Ok(puzzle) => draw(
                &mut text,
                puzzle,
                answer
                    .solution
                    .as_ref()
                    .and_then(crate::values::puzzle::Solution::grid)
                    .filter(|_| style.solution),
                style,
            ),
            Err(_) => {
                let _ = writeln!(text, "  {}", p.raw);
            }
        }
        text.push('\n');
    }
    Ok(text)
}

fn describe(reason: &Reason, csv_column: Option<&str>) -> String {
    reason.describe(csv_column).to_string()
}

/// `text` wrapped in the ANSI attribute `code` when colour is on.
fn paint(style: Style, code: &str, text: &str) -> String {
    if style.color {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// The puzzle and its solution side by side; givens bold, filled digits in colour.
fn draw(text: &mut String, puzzle: &Grid, solution: Option<&Grid>, style: Style) {
    let gap = "    ";
    let row = |grid: &Grid, r: usize, is_solution: bool| {
        let mut line = String::new();
        for c in 0..9 {
            if c > 0 {
                line.push_str(if c % 3 == 0 { " | " } else { " " });
            }
            let cell = r * 9 + c;
            let given = puzzle.get(cell) != 0;
            line.push_str(&match grid.get(cell) {
                0 => ".".to_string(),
                d if given => paint(style, "1", &d.to_string()),
                d if is_solution => paint(style, "36", &d.to_string()),
                d => d.to_string(),
            });
        }
        line
    };
    let band = String::from_utf8_lossy(BAND_LINE);
    for r in 0..9 {
        if r == 3 || r == 6 {
            text.push_str(&band);
            if solution.is_some() {
                text.push_str(gap);
                text.push_str(&band);
            }
            text.push('\n');
        }
        text.push_str(&row(puzzle, r, false));
        if let Some(s) = solution {
            text.push_str(gap);
            text.push_str(&row(s, r, true));
        }
        text.push('\n');
    }
}
