//! Zero heap allocation per puzzle: a counting global allocator watches the solver loop
//! and the pipeline's per-chunk path.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use std::sync::atomic::AtomicBool;

use sudoku_batch::engines::Bitboards;
use sudoku_batch::jobs::{Canon, Classify, Grade, Job, Minimize, Solve};
use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice, Layout as InputLayout};
use sudoku_batch::pipeline::progress::Progress;
use sudoku_batch::pipeline::rows::{kept_names, OutputFormat, RowWriter};
use sudoku_batch::pipeline::{process_chunk, BoardSetup, Setup, Tally, Worker};
use sudoku_batch::values::search::Budget;
use sudoku_batch::{Grid, Solver};

struct Counting;

thread_local! {
    /// Allocations made by this thread while counting is on; `None` when off.
    static COUNT: Cell<Option<u64>> = const { Cell::new(None) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

fn bump() {
    // try_with: the thread-local may be gone during thread teardown.
    let _ = COUNT.try_with(|c| {
        if let Some(n) = c.get() {
            c.set(Some(n + 1));
        }
    });
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(Some(0)));
    f();
    COUNT.with(|c| c.replace(None)).unwrap()
}

fn puzzles() -> Vec<Grid> {
    let mut all = Vec::new();
    for name in ["minimal.txt", "hard.txt", "graded.csv", "sample-10k.csv"] {
        all.extend(common::load(name).into_iter().map(|r| r.puzzle).take(5000));
    }
    all.truncate(10_000);
    all
}

#[test]
fn counter_sees_allocations() {
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 10]))) >= 1);
}

#[test]
fn solver_loop_allocates_nothing() {
    let puzzles = puzzles();
    assert_eq!(puzzles.len(), 10_000);
    let mut solver = Box::new(Solver::new());
    let mut unique = 0;
    let n = allocations(|| {
        for p in &puzzles {
            std::hint::black_box(solver.solve(p));
            unique += (solver.count(p, 2).solutions == 1) as usize;
            std::hint::black_box(solver.classify(p));
        }
    });
    assert_eq!(unique, 10_000);
    assert_eq!(n, 0, "allocations in the solver loop");
}

/// Parsing, solving, timing, histogram and row formatting, for every job: after the
/// output buffer has grown once, a chunk costs no allocation at all (lines, and CSV
/// without quotes); a CSV chunk with quotes goes through the csv reader, which costs a
/// fixed few per chunk however many records it holds (the quoted case is checked too).
#[test]
fn pipeline_chunk_path_allocates_nothing_per_record() {
    let quoted: Vec<u8> = String::from_utf8(quizzes_x3())
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                format!("{l}\n")
            } else {
                l.replacen(',', ",\"", 1) + "\"\n"
            }
        })
        .collect::<String>()
        .into_bytes();
    let inputs = [
        (
            "minimal.txt",
            std::fs::read(common::data("minimal.txt")).unwrap(),
            0,
        ),
        ("quizzes.csv", quizzes_x3(), 0),
        ("quizzes quoted", quoted, 12),
    ];
    for (name, bytes, per_chunk_max) in &inputs {
        let solved = chunk_costs(&Solve::new(), bytes, |t| t.counts.solved);
        let unique = chunk_costs(&Classify::new(), bytes, |t| t.counts.unique);
        let minimal = chunk_costs(&Minimize::new(), bytes, |t| t.counts.unique);
        let graded = chunk_costs(&Grade::new(), bytes, |t| t.counts.unique);
        let canonical = chunk_costs(&Canon::new(), bytes, |t| t.counts.unique);
        let dlx = chunk_costs(
            &Classify::<sudoku_batch::engines::dlx::Dlx>::default(),
            bytes,
            |t| t.counts.unique,
        );
        assert!(
            dlx.iter().all(|c| c <= per_chunk_max),
            "{name} dlx: {dlx:?}"
        );
        for format in [
            OutputFormat::Lines,
            OutputFormat::Grid,
            OutputFormat::Ndjson,
        ] {
            let costs = chunk_costs_as(&Grade::new(), bytes, format, |t| t.counts.unique);
            assert!(
                costs.iter().all(|c| c <= per_chunk_max),
                "{name} {format:?}: {costs:?}"
            );
        }
        for (job, costs) in [
            ("solve", solved),
            ("classify", unique),
            ("minimize", minimal),
            ("grade", graded),
            ("canon", canonical),
        ] {
            assert!(
                costs.iter().all(|c| c <= per_chunk_max),
                "{name} {job}: {costs:?}"
            );
            assert!(
                costs.iter().all(|&c| c == costs[0]),
                "{name} {job}: cost depends on records: {costs:?}"
            );
        }
    }
}

/// The 2,000 records of `quizzes.csv` (30 givens each, quick to rate) three times over,
/// under its header: enough for chunks of 5,000.
fn quizzes_x3() -> Vec<u8> {
    let source = std::fs::read_to_string(common::data("quizzes.csv")).unwrap();
    let mut plain = source.lines().next().unwrap().to_string() + "\n";
    for line in source.lines().skip(1).cycle().take(6_000) {
        plain.push_str(line);
        plain.push('\n');
    }
    plain.into_bytes()
}

/// Rows that join back to the input (`--keep-columns`, `--record-index`,
/// `--puzzle-as-read`) allocate nothing per record either: the fields are written
/// from the record as found, the record numbers' slots go into a reused list.
#[test]
fn rows_that_join_back_allocate_nothing_per_record() {
    let plain = quizzes_x3();
    let quoted: Vec<u8> = String::from_utf8(plain.clone())
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| match i {
            0 => format!("{l}\n"),
            _ => l.replacen(',', ",\"", 1) + "\"\n",
        })
        .collect::<String>()
        .into_bytes();
    let lines = std::fs::read(common::data("minimal.txt")).unwrap();
    for (name, bytes, per_chunk_max) in [
        ("plain", &plain, 0),
        ("quoted", &quoted, 12),
        ("lines", &lines, 0),
    ] {
        for format in [OutputFormat::Csv, OutputFormat::Ndjson] {
            let rows = |layout: &InputLayout| {
                RowWriter::new(format, Some(layout))
                    .keeping(kept_names(layout, &["difficulty"]))
                    .numbered()
                    .as_read()
            };
            let costs = chunk_costs_by(
                &Grade::new(),
                bytes,
                rows,
                &BoardSetup::default(),
                Budget::DEFAULT,
                |t| t.counts.unique,
            );
            assert!(
                costs.iter().all(|&c| c <= per_chunk_max && c == costs[0]),
                "{name} {format:?}: {costs:?}"
            );
        }
    }
}

/// Allocations for chunks of 5000, 100 and 5000 records of `bytes` run through `job`,
/// each counted on its second run (the first grows the output buffer).
fn chunk_costs<J: Job>(job: &J, bytes: &[u8], done: impl Fn(&Tally) -> u64) -> Vec<u64> {
    chunk_costs_as(job, bytes, OutputFormat::Csv, done)
}

fn chunk_costs_as<J: Job>(
    job: &J,
    bytes: &[u8],
    format: OutputFormat,
    done: impl Fn(&Tally) -> u64,
) -> Vec<u64> {
    chunk_costs_with(job, bytes, format, &BoardSetup::default(), done)
}

fn chunk_costs_with<J: Job>(
    job: &J,
    bytes: &[u8],
    format: OutputFormat,
    boards: &BoardSetup,
    done: impl Fn(&Tally) -> u64,
) -> Vec<u64> {
    chunk_costs_on(job, bytes, format, boards, Budget::DEFAULT, done)
}

fn chunk_costs_on<J: Job>(
    job: &J,
    bytes: &[u8],
    format: OutputFormat,
    boards: &BoardSetup,
    budget: Budget,
    done: impl Fn(&Tally) -> u64,
) -> Vec<u64> {
    let rows = |layout: &InputLayout| RowWriter::new(format, Some(layout));
    chunk_costs_by(job, bytes, rows, boards, budget, done)
}

/// [`chunk_costs_on`] with rows written by the writer `rows` makes for the input.
fn chunk_costs_by<J: Job>(
    job: &J,
    bytes: &[u8],
    rows: impl Fn(&InputLayout) -> RowWriter,
    boards: &BoardSetup,
    budget: Budget,
    done: impl Fn(&Tally) -> u64,
) -> Vec<u64> {
    let layout = detect_layout(bytes, None, &ColumnChoice::Auto).unwrap();
    let rows = rows(&layout);
    // A cancel flag that stays clear: checked before every record.
    let cancel = AtomicBool::new(false);
    let setup = Setup {
        job,
        layout: &layout,
        rows: &rows,
        boards,
        cancel: Some(&cancel),
    };
    let data = &bytes[layout.data_start..];
    let cut = |records: usize| {
        let end = data
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'\n')
            .nth(records - 1)
            .unwrap()
            .0;
        &data[..end + 1]
    };
    let mut worker = Worker::new(job, boards.variant(), budget);
    let mut out = Vec::new();
    let mut costs = Vec::new();
    for chunk in [cut(5000), cut(100), cut(5000)] {
        let mut tally = Tally::default();
        let mut run = |out: &mut Vec<u8>, tally: &mut Tally| {
            process_chunk(setup, chunk, layout.first_line, &mut worker, out, tally);
            worker.close_item(out, tally);
            out.clear();
        };
        run(&mut out, &mut Tally::default());
        costs.push(allocations(|| run(&mut out, &mut tally)));
        assert!(done(&tally) >= 100);
    }
    costs
}

/// Making, checking, grading and writing a generated puzzle allocates nothing: the
/// calls `generate`'s worker loop makes for each record.
#[test]
fn generating_allocates_nothing_per_puzzle() {
    use sudoku_batch::engines::generate::{Pattern, Spec, Target};
    use sudoku_batch::engines::grader::Levels;
    use sudoku_batch::jobs::{Generate, Maker};
    use sudoku_batch::pipeline::made_row;
    use sudoku_batch::values::board::Symbols;
    use sudoku_batch::values::geometry::{Variant, MAX_CELLS};
    use sudoku_batch::values::level::Level;

    let rows = RowWriter::new(OutputFormat::Csv, None);
    let mut maker = Maker::<Bitboards>::new(Variant::Classic);
    let symbols = Symbols::default_for(9);
    let mut texts = Box::new(([0; MAX_CELLS], [0; MAX_CELLS]));
    for (pattern, target, level) in [
        (Pattern::None, Target::Minimal, None),
        (Pattern::Rot180, Target::Givens(28), None),
        (
            Pattern::None,
            Target::Minimal,
            Some(Levels::of(&[Level::Hard, Level::Expert])),
        ),
    ] {
        let generate = Generate::new(Spec { pattern, target }, 3, level, true);
        let mut out = Vec::with_capacity(1 << 20);
        let mut made = 0;
        let n = allocations(|| {
            for index in 0..150 {
                let (record, extra) = generate.record(&mut maker, index).unwrap();
                rows.row(
                    &made_row(index, &record, &extra, &symbols, &mut texts),
                    &mut out,
                );
                made += 1;
            }
        });
        assert_eq!(made, 150);
        assert_eq!(n, 0, "{pattern:?} {target:?} {level:?}");
    }
}

/// Making variant boards allocates nothing once the engine has met the size: the calls
/// `generate --size/--variant` makes for each record, row included.
#[test]
fn generating_boards_allocates_nothing_per_board() {
    use sudoku_batch::engines::generate::{BoardPlan, Pattern, Target};
    use sudoku_batch::jobs::{Generate, Maker};
    use sudoku_batch::pipeline::made_row;
    use sudoku_batch::values::board::Symbols;
    use sudoku_batch::values::geometry::{Variant, MAX_CELLS};

    let rows = RowWriter::new(OutputFormat::Csv, None);
    for (side, variant, count) in [
        (4, Variant::Classic, 200),
        (9, Variant::Diagonal, 50),
        (16, Variant::Classic, 3),
    ] {
        let plan = BoardPlan::new(side, variant, Pattern::Rot180, Target::Minimal).unwrap();
        let generate = Generate::boards(plan, 3);
        let mut maker = Maker::<Bitboards>::new(variant);
        let symbols = Symbols::default_for(side);
        generate.record(&mut maker, 0).unwrap();
        let mut out = Vec::with_capacity(1 << 20);
        let mut texts = Box::new(([0; MAX_CELLS], [0; MAX_CELLS]));
        let n = allocations(|| {
            for index in 1..=count {
                let (made, extra) = generate.record(&mut maker, index).unwrap();
                rows.row(
                    &made_row(index, &made, &extra, &symbols, &mut texts),
                    &mut out,
                );
            }
        });
        assert_eq!(n, 0, "{side} {variant:?}");
    }
}

/// Pencil-mark records (729 characters) take the same path without allocating.
#[test]
fn pencil_mark_records_allocate_nothing() {
    use sudoku_batch::values::marks::{Marks, MARKS_LEN};
    let mut text = Vec::new();
    for p in puzzles().iter().take(300) {
        let mut line = [0u8; MARKS_LEN];
        Marks::of_grid(p).write_line(&mut line);
        text.extend_from_slice(&line);
        text.push(b'\n');
    }
    let layout = detect_layout(&text, None, &ColumnChoice::Auto).unwrap();
    let rows = RowWriter::new(OutputFormat::Csv, Some(&layout));
    let job = Classify::new();
    let boards = BoardSetup::default();
    let setup = Setup {
        job: &job,
        layout: &layout,
        rows: &rows,
        boards: &boards,
        cancel: None,
    };
    let mut worker = Worker::new(&job, boards.variant(), Budget::DEFAULT);
    let mut out = Vec::new();
    let mut tally = Tally::default();
    process_chunk(setup, &text, 1, &mut worker, &mut out, &mut tally);
    worker.close_item(&mut out, &mut tally);
    out.clear();
    let mut tally = Tally::default();
    let n = allocations(|| {
        process_chunk(setup, &text, 1, &mut worker, &mut out, &mut tally);
        worker.close_item(&mut out, &mut tally);
    });
    assert_eq!(tally.counts.unique, 300);
    assert_eq!(n, 0);
}

/// The in-memory path front ends use (`serve`'s JSON requests, Python): with the
/// workers kept, a call costs a fixed few allocations (the results) however many
/// puzzles it holds, grids or variant boards.
#[test]
fn in_memory_batches_allocate_nothing_per_record() {
    use sudoku_batch::pipeline::batch::{
        run_puzzles_into, run_puzzles_until, workers, RecordResult,
    };
    use sudoku_batch::values::geometry::Variant;
    use sudoku_batch::values::rules::BoardRules;
    use sudoku_batch::values::status::Status;
    let grids: Vec<Vec<u8>> = puzzles().iter().map(|p| p.to_line().to_vec()).collect();
    let text = std::fs::read_to_string(common::data("variants/solo-diagonal-9x9.txt")).unwrap();
    let boards: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    let diagonal = BoardSetup::new(BoardRules {
        variant: Variant::Diagonal,
        ..BoardRules::default()
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let job = Classify::new();
    for (records, rules) in [(&grids, BoardSetup::default()), (&boards, diagonal)] {
        let kept = workers(&job, 1, &rules);
        let never = AtomicBool::new(false);
        // Counted on the pool's thread, where the work runs.
        let cost = |n: usize| {
            pool.install(|| {
                allocations(|| {
                    let results =
                        run_puzzles_until(&job, &kept, &records[..n], &rules, &never).unwrap();
                    assert_eq!(results.len(), n);
                    std::hint::black_box(results);
                })
            })
        };
        let many = records.len().min(10_000);
        cost(many);
        let (small, large) = (cost(many / 10), cost(many));
        assert_eq!(
            small, large,
            "allocations grow with the puzzles: {small} vs {large}"
        );
        assert!(large <= 2, "{large} allocations for one call");
        // Into the caller's slots (what the Python module's flat columns are): none.
        let unset = RecordResult {
            status: Status::Invalid,
            solution: None,
            reason: None,
            extra: (),
        };
        let mut slots = vec![unset; many];
        let into = pool.install(|| {
            allocations(|| {
                assert!(run_puzzles_into(
                    &job,
                    &kept,
                    &records[..many],
                    &rules,
                    &never,
                    &mut slots[..]
                ));
            })
        });
        assert_eq!(into, 0, "{into} allocations into kept slots");
        let expected =
            pool.install(|| run_puzzles_until(&job, &kept, &records[..many], &rules, &never));
        assert_eq!(Some(slots), expected);
    }
}

/// Variant boards (16x16 and 25x25 sized by their length, 9x9 diagonal by the rules, all
/// through the variant engine, made once per size in the worker): no allocation per
/// record once each size has been seen.
#[test]
fn variant_boards_allocate_nothing_per_record() {
    use sudoku_batch::values::geometry::Variant;
    use sudoku_batch::values::rules::BoardRules;
    let mut text = Vec::new();
    for name in [
        "variants/solo-16x16.txt",
        "variants/solo-4x4.txt",
        "variants/solo-25x25.txt",
    ] {
        text.extend(std::fs::read(common::data(name)).unwrap());
    }
    let mut repeated = Vec::new();
    while repeated.iter().filter(|&&b| b == b'\n').count() < 5000 {
        repeated.extend_from_slice(&text);
    }
    for format in [OutputFormat::Csv, OutputFormat::Ndjson, OutputFormat::Grid] {
        let costs = chunk_costs_with(
            &Classify::new(),
            &repeated,
            format,
            &BoardSetup::default(),
            |t| t.counts.unique,
        );
        assert_eq!(costs, [0, 0, 0], "{format:?}");
    }
    // Dancing links on boards, and both engines under --cross-check.
    let costs = chunk_costs_with(
        &Classify::<sudoku_batch::engines::dlx::Dlx>::default(),
        &repeated,
        OutputFormat::Csv,
        &BoardSetup::default(),
        |t| t.counts.unique,
    );
    assert_eq!(costs, [0, 0, 0], "dlx");
    let costs = chunk_costs_with(
        &sudoku_batch::jobs::CrossCheck::new(),
        &repeated,
        OutputFormat::Csv,
        &BoardSetup::default(),
        |t| t.checked,
    );
    assert_eq!(costs, [0, 0, 0], "cross-check");
    let costs = chunk_costs_with(
        &sudoku_batch::jobs::Grade::new(),
        &repeated,
        OutputFormat::Csv,
        &BoardSetup::default(),
        |t| t.counts.unique,
    );
    assert_eq!(costs, [0, 0, 0], "grade");
    let diagonal = std::fs::read(common::data("variants/solo-diagonal-9x9.txt")).unwrap();
    let mut repeated = Vec::new();
    for _ in 0..10 {
        repeated.extend_from_slice(&diagonal);
    }
    let rules = BoardSetup::new(BoardRules {
        variant: Variant::Diagonal,
        ..BoardRules::default()
    });
    let costs = chunk_costs_with(&Solve::new(), &repeated, OutputFormat::Csv, &rules, |t| {
        t.counts.solved
    });
    assert_eq!(costs, [0, 0, 0]);
}

/// Records that spend their budget are `undecided` rows with a reason, and cost nothing
/// either: 9x9 grids on both engines and every job, and 16x16 boards.
#[test]
fn undecided_records_allocate_nothing() {
    let bytes = top95_repeated(5000);
    let one = Budget::guesses(1);
    // Every row counts once some of the records spent their budget.
    let undecided = |t: &Tally| if t.counts.undecided > 0 { t.rows } else { 0 };
    let plain = BoardSetup::default();
    for costs in [
        chunk_costs_on(
            &Solve::new(),
            &bytes,
            OutputFormat::Csv,
            &plain,
            one,
            undecided,
        ),
        chunk_costs_on(
            &Classify::new(),
            &bytes,
            OutputFormat::Ndjson,
            &plain,
            one,
            undecided,
        ),
        chunk_costs_on(
            &Grade::new(),
            &bytes,
            OutputFormat::Csv,
            &plain,
            one,
            undecided,
        ),
        chunk_costs_on(
            &Canon::new(),
            &bytes,
            OutputFormat::Csv,
            &plain,
            one,
            undecided,
        ),
        chunk_costs_on(
            &Minimize::new(),
            &bytes,
            OutputFormat::Csv,
            &plain,
            one,
            undecided,
        ),
        chunk_costs_on(
            &Classify::<sudoku_batch::engines::dlx::Dlx>::default(),
            &bytes,
            OutputFormat::Csv,
            &plain,
            one,
            undecided,
        ),
    ] {
        assert_eq!(costs, [0, 0, 0]);
    }
    // 25x25 boards that no engine settles in one branch.
    let mut boards = Vec::new();
    while boards.iter().filter(|&&b| b == b'\n').count() < 5000 {
        for board in common::hard_boards() {
            boards.extend_from_slice(board.as_bytes());
            boards.push(b'\n');
        }
    }
    let all = |t: &Tally| {
        if t.counts.undecided == t.rows {
            t.rows
        } else {
            0
        }
    };
    for costs in [
        chunk_costs_on(
            &Classify::new(),
            &boards,
            OutputFormat::Csv,
            &plain,
            one,
            all,
        ),
        chunk_costs_on(
            &Classify::<sudoku_batch::engines::dlx::Dlx>::default(),
            &boards,
            OutputFormat::Csv,
            &plain,
            one,
            all,
        ),
    ] {
        assert_eq!(costs, [0, 0, 0]);
    }
}

/// `n` records: Norvig's top95 over and over (94 classes).
fn top95_repeated(n: usize) -> Vec<u8> {
    let source = std::fs::read_to_string(common::data("extreme.txt")).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    (0..n)
        .map(|i| format!("{}\n", lines[i % lines.len()]))
        .collect::<String>()
        .into_bytes()
}

fn one_thread_pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

/// `dedupe`'s keying and class lookups: the records of one batch cost nothing each
/// beyond the classes they add (the same 95 classes for 1,000 and 12,000 records, one
/// batch each; the writers are plain vectors grown once).
#[test]
fn dedupe_allocates_nothing_per_record() {
    use sudoku_batch::datasets::classes::KeyBy;
    use sudoku_batch::datasets::rows::RowsShape;
    use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};
    let (corpus, pool) = (top95_repeated, one_thread_pool());
    let cost = |bytes: &[u8]| {
        let layout = detect_layout(bytes, None, &ColumnChoice::Auto).unwrap();
        let mut out = Vec::with_capacity(bytes.len() + 1024);
        let mut rows = Vec::with_capacity(bytes.len());
        // Warm-up: the thread pool's own first-use costs.
        pool.install(|| {
            sudoku_batch::datasets::dedupe::dedupe(
                bytes,
                &layout,
                KeyBy::Canonical,
                &mut Vec::new(),
                None,
                &Progress::hidden(),
            )
            .unwrap()
        });
        pool.install(|| {
            allocations(|| {
                let r = sudoku_batch::datasets::dedupe::dedupe(
                    bytes,
                    &layout,
                    KeyBy::Canonical,
                    &mut out,
                    Some((&mut rows, RowsShape::default())),
                    &Progress::hidden(),
                )
                .unwrap();
                assert_eq!(r.classes, 100);
            })
        })
    };
    let (small, large) = (cost(&corpus(1_000)), cost(&corpus(12_000)));
    assert!(
        large <= small + 8,
        "1,000 records: {small}, 12,000: {large}"
    );
}

/// `audit`'s one pass: each record parsed, classified, canonicalised and counted costs
/// nothing beyond what its distinct text, class and histogram buckets add (the same 100
/// texts and classes for 1,000 and 12,000 records; two batches for the larger).
#[test]
fn audit_allocates_nothing_per_record() {
    use sudoku_batch::datasets::audit::{audit, AuditOptions};
    use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};
    let (corpus, pool) = (top95_repeated, one_thread_pool());
    let cost = |bytes: &[u8]| {
        let layout = detect_layout(bytes, None, &ColumnChoice::Auto).unwrap();
        let options = AuditOptions::default();
        // Warm-up: the thread pool's own first-use costs.
        pool.install(|| audit(bytes, &layout, &[], &options, &Progress::hidden()));
        pool.install(|| {
            allocations(|| {
                let report = audit(bytes, &layout, &[], &options, &Progress::hidden());
                assert_eq!(report.duplicates.classes, 100);
            })
        })
    };
    let (small, large) = (cost(&corpus(1_000)), cost(&corpus(12_000)));
    assert!(
        large <= small + 16,
        "1,000 records: {small}, 12,000: {large}"
    );
}

#[test]
fn split_allocates_nothing_per_record() {
    use sudoku_batch::datasets::classes::KeyBy;
    use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};
    let (corpus, pool) = (top95_repeated, one_thread_pool());
    let cost = |bytes: &[u8]| {
        let layout = detect_layout(bytes, None, &ColumnChoice::Auto).unwrap();
        let (mut train, mut test) = (
            Vec::with_capacity(bytes.len()),
            Vec::with_capacity(bytes.len()),
        );
        let split = |train: &mut Vec<u8>, test: &mut Vec<u8>| {
            sudoku_batch::datasets::split::split(
                bytes,
                &layout,
                sudoku_batch::datasets::split::SplitBy {
                    by: KeyBy::Canonical,
                    fraction: 0.3,
                    seed: 5,
                },
                train,
                test,
                &Progress::hidden(),
            )
            .unwrap()
        };
        // Warm-up: the thread pool's own first-use costs.
        pool.install(|| split(&mut Vec::new(), &mut Vec::new()));
        pool.install(|| {
            allocations(|| {
                let r = split(&mut train, &mut test);
                assert_eq!(r.classes, 100);
            })
        })
    };
    // One class number per record grows by doubling: a few more allocations for 12
    // times the records, not one per record.
    let (small, large) = (cost(&corpus(1_000)), cost(&corpus(12_000)));
    assert!(
        large <= small + 8,
        "1,000 records: {small}, 12,000: {large}"
    );
}

/// Parquet pieces: the allocations of decoding one grow with its pages (each page is
/// decompressed into a buffer of its own) and never with its rows.
#[test]
fn parquet_pieces_allocate_per_page_not_per_row() {
    use bytes::Bytes;
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    use sudoku_batch::pipeline::input::parquet::{open_from, Scratch};
    let grids: Vec<ByteArray> = puzzles()
        .iter()
        .map(|p| ByteArray::from(p.to_line().to_vec()))
        .collect();
    // One page a row group, of 1,000 rows or of 8,000.
    let costs: Vec<u64> = [1_000, 8_000]
        .into_iter()
        .map(|rows| {
            let schema =
                parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
            let properties = WriterProperties::builder()
                .set_data_page_row_count_limit(rows)
                .set_data_page_size_limit(1 << 30)
                .set_dictionary_enabled(false)
                .build();
            let mut bytes = Vec::new();
            let mut writer =
                SerializedFileWriter::new(&mut bytes, Arc::new(schema), Arc::new(properties))
                    .unwrap();
            let mut group = writer.next_row_group().unwrap();
            let mut column = group.next_column().unwrap().unwrap();
            column
                .typed::<ByteArrayType>()
                .write_batch(&grids[..rows], None, None)
                .unwrap();
            column.close().unwrap();
            group.close().unwrap();
            writer.close().unwrap();
            let file = open_from(Bytes::from(bytes), &ColumnChoice::Auto).unwrap();
            let pieces = file.pieces(None, 1 << 20).unwrap();
            assert_eq!(pieces.len(), 1);
            let mut scratch = Scratch::default();
            let mut lines = 0;
            // Once to size the scratch buffers, then counted.
            file.decode(&pieces[0], 1 << 20, &mut scratch, |_| {})
                .unwrap();
            let n = allocations(|| {
                file.decode(&pieces[0], 1 << 20, &mut scratch, |_| lines += 1)
                    .unwrap()
            });
            assert!(lines >= 1);
            n
        })
        .collect();
    // The page's own buffers are counted: the counter is on.
    assert!(costs[0] > 0, "{costs:?}");
    assert!(
        costs[1] <= costs[0] + 2,
        "allocations grow with the rows: {costs:?}"
    );
}

/// Rating with Sukaku Explainer's rules allocates nothing: a new rater's buffers are
/// made at their full size, so no puzzle grows them (diabolical puzzles, and hard ones
/// that take the dynamic forcing chains, none rated before).
#[test]
fn rating_allocates_nothing_per_puzzle() {
    let read = |name: &str, count: usize| {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .take(count)
            .map(|l| Grid::parse(&l.as_bytes()[..81]).unwrap())
            .collect::<Vec<_>>()
    };
    let mut puzzles = read("se-reference-expert.txt", 120);
    puzzles.extend(read("se-reference-extreme.txt", 30));
    // Two of the hardest lists' puzzles that take nested forcing chains (ER 10.3 and
    // 10.1: static chains inside dynamic ones), where the public file is at hand.
    if let Some(path) = common::public("reference-sets/nested-chains-70.txt") {
        let text = std::fs::read_to_string(path).unwrap();
        let records: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        for n in [43, 61] {
            puzzles.push(Grid::parse(records[n - 1].as_bytes()).unwrap());
        }
    }
    // One that takes the nested chains of level 4 (ER 11.6: dynamic chains inside
    // dynamic ones, with their own buffers and cache).
    if let Some(path) = common::public("forum-hardest-1106.txt") {
        let text = std::fs::read_to_string(path).unwrap();
        let records: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        puzzles.push(Grid::parse(&records[111].as_bytes()[..81]).unwrap());
    }
    let mut rater = sudoku_batch::engines::explainer::Rater::new();
    let n = allocations(|| {
        for p in &puzzles {
            std::hint::black_box(rater.rate(p));
        }
    });
    assert_eq!(n, 0, "allocations while rating");
}
