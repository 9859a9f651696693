//! `show`: a few records as pretty grids for a person at a terminal: givens in bold
//! (colour only on a terminal, never with `NO_COLOR`), the solution with the digits it
//! filled in, the status, and the grade. The answers come from the `grade` job; this
//! module only picks records and draws them.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use crate::jobs::Grade;
use crate::pipeline::input::{for_each_record_of, Layout, Record};
use crate::pipeline::parsed::Parsed;
use crate::pipeline::rows::{band_line, Reason};
use crate::pipeline::{BoardSetup, Worker};
use crate::values::board::{Board, Symbols};
use crate::values::puzzle::Solution;
use crate::values::rules::BoardRules;

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

/// A record picked for showing: its line, what it reads as, and its text as read.
struct Picked {
    line: u64,
    parsed: Parsed,
    raw: String,
}

/// Which records to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick<'a> {
    /// The records starting on these lines (the first record when empty).
    Lines(&'a [u64]),
    /// The records with these numbers, counted from 1 in input order (as `generate`
    /// numbers the records it makes).
    Records(&'a [u64]),
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
    /// No record has a number asked for.
    NoNumber {
        /// The number asked for.
        record: u64,
        /// How many records the input holds.
        records: u64,
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
            ShowError::NoNumber { record, records } => write!(
                f,
                "--record {record}: the input holds {records} records (numbered from 1)"
            ),
        }
    }
}

impl std::error::Error for ShowError {}

/// Draws the records of `data` that `pick` names, read as variant boards by `rules`
/// where they say so (and records of 16, 256 or 625 cells).
pub fn show(
    data: &[u8],
    layout: &Layout,
    pick: Pick<'_>,
    rules: &BoardRules,
    style: Style,
) -> Result<String, ShowError> {
    let mut picker = Picker::new(pick, rules);
    let mut done = false;
    for_each_record_of(data, layout, |r| {
        done = done || picker.take(&r).is_break();
    });
    picker.draw(layout, style)
}

/// Picks the records `pick` names from records handed to it one by one, in input
/// order, and draws them.
pub struct Picker<'p> {
    pick: Pick<'p>,
    boards: BoardSetup,
    rules: BoardRules,
    picked: Vec<Picked>,
    first: Option<u64>,
    last: Option<u64>,
    records: u64,
}

impl<'p> Picker<'p> {
    /// A picker of the records `pick` names, reading variant boards by `rules`.
    pub fn new(pick: Pick<'p>, rules: &BoardRules) -> Self {
        Picker {
            pick,
            boards: BoardSetup::new(rules.clone()),
            rules: rules.clone(),
            picked: Vec::new(),
            first: None,
            last: None,
            records: 0,
        }
    }

    /// Takes the next record; `Break` once every record asked for is picked (later
    /// ones are needed only to name the lines there are, for an error).
    pub fn take(&mut self, r: &Record<'_>) -> ControlFlow<()> {
        self.first.get_or_insert(r.line);
        self.last = Some(r.line);
        self.records += 1;
        let wanted = match self.pick {
            Pick::Lines([]) => self.picked.is_empty(),
            Pick::Lines(lines) => lines.contains(&r.line),
            Pick::Records(numbers) => numbers.contains(&self.records),
        };
        if wanted {
            self.picked.push(Picked {
                line: r.line,
                parsed: Parsed::of_record(r, &self.boards),
                raw: String::from_utf8_lossy(&r.raw[..r.raw.len().min(100)]).into_owned(),
            });
        }
        let all = match self.pick {
            Pick::Lines([]) => !self.picked.is_empty(),
            Pick::Lines(lines) => lines
                .iter()
                .all(|l| self.picked.iter().any(|p| p.line == *l)),
            Pick::Records(numbers) => numbers.iter().all(|&n| (1..=self.records).contains(&n)),
        };
        if all {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Draws the records picked (in input order), or says which asked for is not there.
    pub fn draw(self, layout: &Layout, style: Style) -> Result<String, ShowError> {
        let Picker {
            pick,
            boards,
            rules,
            picked,
            first,
            last,
            records,
        } = self;
        let range = first.zip(last);
        match pick {
            Pick::Lines([]) if picked.is_empty() => {
                return Err(ShowError::NoRecord { line: 1, range });
            }
            Pick::Lines(lines) => {
                if let Some(&line) = lines.iter().find(|l| !picked.iter().any(|p| p.line == **l)) {
                    return Err(ShowError::NoRecord { line, range });
                }
            }
            Pick::Records(numbers) => {
                if let Some(&record) = numbers.iter().find(|&&n| n == 0 || n > records) {
                    return Err(ShowError::NoNumber { record, records });
                }
            }
        }
        draw_picked(&picked, layout, &boards, &rules, style)
    }
}

/// Draws `picked` (grading each).
fn draw_picked(
    picked: &[Picked],
    layout: &Layout,
    boards: &BoardSetup,
    rules: &BoardRules,
    style: Style,
) -> Result<String, ShowError> {
    let job = Grade::new();
    let mut worker = Worker::new(&job, rules.variant, crate::values::search::Budget::DEFAULT);
    let mut text = String::new();
    for p in picked {
        let (answer, reason) = worker.answer(&job, p.parsed.puzzle(), boards);
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
        let solution = |s: &Solution| match s {
            Solution::Grid(g) => Board::from_grid(g),
            Solution::Board(b) => *b,
        };
        let solution = answer
            .solution
            .as_ref()
            .map(solution)
            .filter(|_| style.solution);
        match &p.parsed {
            Parsed::Grid(grid) => draw(
                &mut text,
                &Board::from_grid(grid),
                solution.as_ref(),
                &Symbols::default_for(9),
                style,
            ),
            Parsed::Marks { singles, .. } => draw(
                &mut text,
                &Board::from_grid(singles),
                solution.as_ref(),
                &Symbols::default_for(9),
                style,
            ),
            Parsed::Board(board) => draw(
                &mut text,
                board,
                solution.as_ref(),
                boards.symbols(board.side()),
                style,
            ),
            Parsed::Bad(_) => {
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

/// The puzzle and its solution side by side, boxes ruled; givens bold, filled cells in
/// colour.
fn draw(
    text: &mut String,
    puzzle: &Board,
    solution: Option<&Board>,
    symbols: &Symbols,
    style: Style,
) {
    let side = puzzle.side();
    let boxed = (side as f64).sqrt() as usize;
    let gap = "    ";
    let row = |board: &Board, r: usize, is_solution: bool| {
        let mut line = String::new();
        for c in 0..side {
            if c > 0 {
                line.push_str(if c % boxed == 0 { " | " } else { " " });
            }
            let cell = r * side + c;
            let given = puzzle.get(cell) != 0;
            let symbol = (symbols.symbol(board.get(cell)) as char).to_string();
            line.push_str(&match board.get(cell) {
                0 => ".".to_string(),
                _ if given => paint(style, "1", &symbol),
                _ if is_solution => paint(style, "36", &symbol),
                _ => symbol,
            });
        }
        line
    };
    // The rule between bands, as printed grids draw it.
    let mut rule = Vec::new();
    band_line(side, &mut rule);
    let band = String::from_utf8_lossy(&rule);
    for r in 0..side {
        if r > 0 && r % boxed == 0 {
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
