//! The handlers: each extracts typed input, hands the work to the library on the rayon
//! pool (never on the async threads), and turns the result or a typed error into a
//! response. No solving logic lives here.

use std::borrow::Cow;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use axum::body::{to_bytes, Body};
use axum::extract::{FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use rayon::prelude::*;
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit};

use super::cancel::CancelOnDrop;
use super::error::ApiError;
use super::metrics;
use super::state::{AppState, Lane, Which};
use super::stream::{
    body_of, is_too_large, pump, BodyEnd, BodyPiece, BodyReader, ResponseWriter, CHANNEL_CHUNKS,
};
use crate::engines::generate::{Pattern, Spec, Target, MIN_GIVENS};
use crate::engines::grader::Levels;
use crate::jobs::{Canon, Classify, Generate, Generated, Grade, Job, Solve};
use crate::pipeline::batch;
use crate::pipeline::batch::{run_puzzles_until, write_rows};
use crate::pipeline::input::compressed;
use crate::pipeline::input::compressed::Compression;
use crate::pipeline::input::{open_stream, HowToOpen, Reader};
use crate::pipeline::output::Output;
use crate::pipeline::parsed::parse_record;
use crate::pipeline::rows::{OutputFormat, Reason, RowWriter};
use crate::pipeline::settings::Asked;
use crate::pipeline::{self, BoardSetup, RunOptions, Worker};
use crate::reports::StatusCounts;
use crate::values::board::Symbols;
use crate::values::geometry::{Variant, MAX_CELLS};
use crate::values::grid::Unit;
use crate::values::validate::validate as check_grid;

/// Shared state as handlers see it.
type Shared = State<Arc<AppState>>;

/// Most puzzles one `GET /v1/generate` makes.
pub(super) const MAX_GENERATE: u64 = 1000;

/// A place among the `--max-inflight` requests being worked on, held until the work
/// (not just the response head) is done; none free answers 503.
pub(super) struct Permit {
    _held: OwnedSemaphorePermit,
}

impl FromRequestParts<Arc<AppState>> for Permit {
    type Rejection = ApiError;

    async fn from_request_parts(_: &mut Parts, state: &Arc<AppState>) -> Result<Self, ApiError> {
        Permit::try_new(state)
    }
}

impl Permit {
    /// A free place, or [`ApiError::Busy`].
    pub(super) fn try_new(state: &AppState) -> Result<Permit, ApiError> {
        state
            .inflight
            .clone()
            .try_acquire_owned()
            .map(|held| Permit { _held: held })
            .map_err(|_| ApiError::Busy)
    }
}

/// `GET /`: the page.
pub(super) async fn page() -> Html<&'static str> {
    Html(include_str!("page.html"))
}

/// `GET /healthz`.
pub(super) async fn health() -> &'static str {
    "ok\n"
}

/// `GET /metrics`: Prometheus text format.
pub(super) async fn prometheus(State(state): Shared) -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
}

/// `POST /v1/solve`.
pub(super) async fn solve(State(s): Shared, permit: Permit, req: Request) -> Response {
    records(s, permit, req, Solve::new(), |l| &l.solve, QUICK_BODY).await
}

/// `POST /v1/classify`.
pub(super) async fn classify(State(s): Shared, permit: Permit, req: Request) -> Response {
    records(s, permit, req, Classify::new(), |l| &l.classify, QUICK_BODY).await
}

/// `POST /v1/grade`.
pub(super) async fn grade(State(s): Shared, permit: Permit, req: Request) -> Response {
    records(s, permit, req, Grade::new(), |l| &l.grade, QUICK_BODY / 10).await
}

/// `POST /v1/canon`: classify's fields plus `canonical` and `automorphisms`.
pub(super) async fn canon(State(s): Shared, permit: Permit, req: Request) -> Response {
    records(s, permit, req, Canon::new(), |l| &l.canon, QUICK_BODY).await
}

/// The workers a job keeps in a lane, one per pool thread.
type WorkersOf<J> = fn(&Lane) -> &[Mutex<Worker<J>>];

/// The largest JSON body taken by the quick lane: a few puzzles (about 100 bytes each
/// sent as a list; `grade` passes a tenth of it, as one rating may take milliseconds).
const QUICK_BODY: usize = 2048;

/// The most puzzles `generate` makes on the quick lane.
const QUICK_GENERATE: u64 = 1;

/// A record endpoint: JSON puzzles in, JSON results out (a body of at most `quick`
/// bytes on the quick lane); or a dataset streamed through the pipeline, rows streamed
/// back.
async fn records<J>(
    state: Arc<AppState>,
    permit: Permit,
    req: Request,
    job: J,
    workers: WorkersOf<J>,
    quick: usize,
) -> Response
where
    J: Job + Send + 'static,
{
    let (parts, body) = req.into_parts();
    let answer = match body_kind(&parts.headers) {
        Err(e) => Err(e),
        Ok(BodyKind::Json) => json_records(&state, permit, body, job, workers, quick).await,
        Ok(BodyKind::Dataset) => dataset(&state, permit, &parts, body, job).await,
    };
    answer.unwrap_or_else(IntoResponse::into_response)
}

/// What a request body holds.
enum BodyKind {
    Json,
    Dataset,
}

fn body_kind(headers: &HeaderMap) -> Result<BodyKind, ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::NoType);
    };
    let text = value.to_str().unwrap_or("?");
    let mime = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match mime.as_str() {
        "application/json" => Ok(BodyKind::Json),
        "text/plain" | "text/csv" | "application/octet-stream" => Ok(BodyKind::Dataset),
        _ => Err(ApiError::UnsupportedType(text.to_string())),
    }
}

/// `{"puzzle": "..."}` or `{"puzzles": ["...", ...]}`, the strings borrowed from the
/// body where they hold no escapes (a puzzle costs a pointer and a length, not a copy),
/// with the rules of variant boards as on the command line (`size`, `variant`,
/// `symbols`; records of 16, 256 or 625 cells are boards without them).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzlesIn<'a> {
    #[serde(borrow)]
    puzzle: Option<Cow<'a, str>>,
    #[serde(borrow)]
    puzzles: Option<Vec<Cow<'a, str>>>,
    size: Option<usize>,
    variant: Option<String>,
    symbols: Option<String>,
}

impl<'a> PuzzlesIn<'a> {
    /// How the puzzles are read.
    fn boards(&self) -> Result<BoardSetup, ApiError> {
        let asked = Asked {
            size: self.size,
            variant: self.variant.as_deref(),
            symbols: self.symbols.as_deref(),
            ..Asked::default()
        };
        asked
            .boards()
            .map(BoardSetup::new)
            .map_err(|e| ApiError::BadJson(e.to_string()))
    }

    /// The puzzles, and whether one was sent on its own.
    fn into_list(self) -> Result<(Vec<Cow<'a, str>>, bool), ApiError> {
        match (self.puzzle, self.puzzles) {
            (Some(one), None) => Ok((vec![one], true)),
            (None, Some(many)) => Ok((many, false)),
            _ => Err(ApiError::BadJson(
                "give either \"puzzle\" (a string) or \"puzzles\" (a list of strings)".into(),
            )),
        }
    }
}

/// Reads a whole body of at most `limit` bytes (`--max-json`, under `--max-body`).
async fn read_body(state: &AppState, body: Body, limit: u64) -> Result<bytes::Bytes, ApiError> {
    let within = usize::try_from(limit).unwrap_or(usize::MAX);
    to_bytes(body, within).await.map_err(|e| {
        if is_too_large(&e) {
            ApiError::TooLarge(limit.min(state.max_body))
        } else {
            ApiError::BadJson(format!("reading the body failed: {e}"))
        }
    })
}

/// Parses a JSON body into `T`.
fn json<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::BadJson(e.to_string()))
}

/// Puzzles of a JSON request solved at a time: the results of one slice are written as
/// rows before the next is solved, so they never all sit in memory at once.
const JSON_SLICE: usize = 4096;

/// Runs `work` on the pool of lane `which`, holding `permit` until it is done; a panic
/// in it becomes a 500, and the pool goes on.
pub(super) async fn on_pool<T, F>(
    state: &Arc<AppState>,
    which: Which,
    permit: Permit,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&Lane) -> T + Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    let shared = Arc::clone(state);
    state.lane(which).pool.spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(|| work(shared.lane(which))));
        // Free the place before answering, so that a client's next request finds it.
        drop(permit);
        let _ = tx.send(result.map_err(|panic| panic_message(&*panic)));
    });
    match rx.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(message)) => Err(ApiError::Internal(message)),
        Err(_) => Err(ApiError::Internal("the worker stopped".into())),
    }
}

/// What a caught panic said.
pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a worker panicked".into())
}

async fn json_records<J>(
    state: &Arc<AppState>,
    permit: Permit,
    body: Body,
    job: J,
    workers: WorkersOf<J>,
    quick: usize,
) -> Result<Response, ApiError>
where
    J: Job + Send + 'static,
{
    let bytes = read_body(state, body, state.max_json).await?;
    let which = if bytes.len() <= quick {
        Which::Quick
    } else {
        Which::Main
    };
    // Dropped with this future (a 408, a client gone): the work stops between records
    // (and a long one, a rating, within it).
    let (_guard, cancelled) = CancelOnDrop::new();
    let cancel = cancelled.flag();
    let job = job.cancelled_by(Arc::clone(&cancel));
    let answered = on_pool(state, which, permit, move |lane| {
        let request = json::<PuzzlesIn<'_>>(&bytes)?;
        let boards = request.boards()?;
        let (owned, single) = request.into_list()?;
        let puzzles: Vec<&str> = owned.iter().map(|p| &**p).collect();
        // The kept workers' engines read classic boards; other rules get workers of
        // their own for this request.
        let own = (boards.variant() != Variant::Classic)
            .then(|| batch::workers(&job, lane.pool.current_num_threads(), &boards));
        let workers = own.as_deref().unwrap_or_else(|| workers(lane));
        let writer = RowWriter::new(OutputFormat::Ndjson, None);
        let mut counts = StatusCounts::default();
        let mut rows = Vec::with_capacity(JSON_SLICE * 200);
        if !single {
            rows.extend_from_slice(JSON_LIST_START);
        }
        for (i, slice) in puzzles.chunks(JSON_SLICE).enumerate() {
            let Some(results) = run_puzzles_until(&job, workers, slice, &boards, &cancel) else {
                return Err(ApiError::TimedOut);
            };
            results.iter().for_each(|r| counts.add(r.status));
            let first_line = (i * JSON_SLICE) as u64 + 1;
            write_rows(&writer, slice, &results, &boards, first_line, &mut rows);
        }
        Ok((json_value(rows, single), counts))
    })
    .await?;
    let (body, counts) = answered?;
    metrics::count_puzzles(&counts);
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

/// How a list of results begins.
const JSON_LIST_START: &[u8] = b"{\"results\":[";

/// NDJSON rows (after [`JSON_LIST_START`] unless `single`) as one JSON value, in place:
/// the object itself for one puzzle sent alone, else `{"results": [...]}` (JSON strings
/// escape newlines, so each `\n` ends a row).
fn json_value(mut rows: Vec<u8>, single: bool) -> Vec<u8> {
    if rows.last() == Some(&b'\n') {
        rows.pop();
    }
    if !single {
        for b in rows.iter_mut().filter(|b| **b == b'\n') {
            *b = b',';
        }
        rows.extend_from_slice(b"]}");
    }
    rows
}

/// The compression a body is sent in, as its `Content-Encoding` says (none for
/// `identity` or no header); another encoding is a 415.
pub(super) fn body_encoding(headers: &HeaderMap) -> Result<Option<Compression>, ApiError> {
    match headers
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap_or("").trim().to_ascii_lowercase())
        .as_deref()
    {
        None | Some("identity") => Ok(None),
        Some("gzip" | "x-gzip") => Ok(Some(Compression::Gzip)),
        Some("zstd") => Ok(Some(Compression::Zstd)),
        Some(other) => Err(ApiError::UnsupportedType(format!(
            "Content-Encoding {other:?}: expected gzip, zstd or identity"
        ))),
    }
}

/// Query parameters of a dataset request.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct DatasetQuery {
    /// `auto` (default), `lines`, `csv` or `blocks`.
    format: Option<String>,
    /// The CSV column holding puzzles (name or 1-based index).
    column: Option<String>,
    /// The CSV delimiter: one character, or `tab` (default: detected).
    delimiter: Option<String>,
    /// Side of every board: 4, 9, 16 or 25 (default: from each record's length).
    size: Option<usize>,
    /// `classic` (default), `diagonal` or `windoku`.
    variant: Option<String>,
    /// Symbols of values 1..N (default: 1-9, then A-G or A-P).
    symbols: Option<String>,
}

pub(super) fn query<T: serde::de::DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
    Query::<T>::try_from_uri(uri)
        .map(|q| q.0)
        .map_err(|e| ApiError::BadQuery(e.body_text()))
}

/// Streams a dataset body through the pipeline and the rows back, in input order.
async fn dataset<J>(
    state: &Arc<AppState>,
    permit: Permit,
    parts: &Parts,
    body: Body,
    job: J,
) -> Result<Response, ApiError>
where
    J: Job + Send + 'static,
{
    let q: DatasetQuery = query(&parts.uri)?;
    // The query checked by the library's one settings check, as the command line's
    // flags and Python's keywords are.
    let asked = Asked {
        format: q.format.as_deref(),
        column: q.column.as_deref(),
        delimiter: q.delimiter.as_deref(),
        size: q.size,
        variant: q.variant.as_deref(),
        symbols: q.symbols.as_deref(),
        threads: None,
    };
    let input = asked
        .input()
        .map_err(|e| ApiError::BadQuery(e.to_string()))?;
    let boards = asked
        .boards()
        .map_err(|e| ApiError::BadQuery(e.to_string()))?;
    // A body sent compressed says so; gzip, zstd and xz bodies are also told by their
    // first bytes, as files are.
    let encoding = body_encoding(&parts.headers)?;
    let ndjson = parts
        .headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(wants_ndjson);
    let mut options = RunOptions::new(1);
    options.boards = boards;
    options.input = input;
    options.pool = Some(Arc::clone(&state.main.pool));
    let max_body = usize::try_from(state.max_body).unwrap_or(usize::MAX);
    options.output_format = if ndjson {
        OutputFormat::Ndjson
    } else {
        OutputFormat::Csv
    };

    // Held by this future, then by the response body: dropping it (a 408 before the
    // first row, a client gone) stops the body pump and the pipeline.
    let (guard, cancelled) = CancelOnDrop::new();
    options.cancel = Some(cancelled.flag());
    let job = job.cancelled_by(cancelled.flag());
    let (in_tx, in_rx) = mpsc::channel::<BodyPiece>(CHANNEL_CHUNKS);
    let (out_tx, mut out_rx) = mpsc::channel::<BodyPiece>(CHANNEL_CHUNKS);
    let ending = Arc::new(BodyEnd::default());
    tokio::spawn(pump(
        body,
        in_tx,
        state.timeout,
        Arc::clone(&ending),
        cancelled,
    ));
    tokio::task::spawn_blocking(move || {
        let writer = ResponseWriter::new(out_tx.clone());
        let mut output = Output::stream(Box::new(writer), "response");
        let run = catch_unwind(AssertUnwindSafe(|| {
            // Read as the command line reads a file: compressed, NumPy and Parquet
            // bodies too (a Parquet body, whose index is at its end, held whole).
            let name = Path::new("request body");
            let body = BodyReader::new(in_rx);
            let reader: Reader = match encoding {
                None => Box::new(body),
                Some(c) => Box::new(compressed::decode(body, c)),
            };
            let how = HowToOpen {
                column: Some(&options.input.column),
                max_record: Some(options.max_record),
                parquet_in_memory: Some(max_body),
                ..HowToOpen::default()
            };
            let opened = open_stream(reader, name, &how).map_err(|e| e.to_string())?;
            pipeline::run(&job, name, opened, &options, &mut output).map_err(|e| e.to_string())
        }));
        // Free the place before the last rows go out (as in `on_pool`).
        drop(permit);
        let failed = match run {
            Ok(Ok((report, _))) => match output.finish() {
                Ok(()) => {
                    metrics::count_puzzles(&report.counts);
                    None
                }
                Err(e) => Some(e.to_string()),
            },
            Ok(Err(e)) => Some(e),
            Err(panic) => Some(panic_message(&*panic)),
        };
        if let Some(message) = failed {
            // An error piece aborts the response (its status is already sent) or, before
            // any row, becomes the error response.
            let _ = out_tx.blocking_send(Err(io::Error::other(message)));
        }
    });
    // The first piece decides the status: a failure before any row is the request's.
    let first = match out_rx.recv().await {
        None => bytes::Bytes::new(),
        Some(Ok(first)) => first,
        Some(Err(_)) if ending.too_large() => return Err(ApiError::TooLarge(state.max_body)),
        Some(Err(_)) if ending.timed_out() => return Err(ApiError::TimedOut),
        Some(Err(e)) => return Err(ApiError::BadInput(e.to_string())),
    };
    let content_type = if ndjson {
        "application/x-ndjson"
    } else {
        "text/csv; charset=utf-8"
    };
    let mut response = Response::new(body_of(first, out_rx, guard));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    Ok(response)
}

/// `POST /v1/validate`: `{"puzzle": "..."}` or the grid as plain text.
pub(super) async fn validate(
    State(state): Shared,
    _permit: Permit,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let kind = body_kind(&headers)?;
    let bytes = read_body(&state, body, state.max_json).await?;
    let text = match kind {
        BodyKind::Json => match json::<PuzzlesIn<'_>>(&bytes)?.into_list()? {
            (mut one, true) => one.pop().unwrap_or_default().into_owned().into_bytes(),
            _ => return Err(ApiError::BadJson("validate takes one \"puzzle\"".into())),
        },
        BodyKind::Dataset => bytes.to_vec(),
    };
    let grid =
        parse_record(&text).map_err(|e| ApiError::BadInput(Reason::Record(e).to_string()))?;
    let checked = check_grid(&grid);
    let clashes: Vec<serde_json::Value> = checked
        .clashes
        .iter()
        .map(|c| {
            let (unit, number) = match c.unit {
                Unit::Row(i) => ("row", i),
                Unit::Column(i) => ("column", i),
                Unit::Box(i) => ("box", i),
            };
            let cells: Vec<String> = c
                .cells
                .iter()
                .map(|&i| format!("r{}c{}", i / 9 + 1, i % 9 + 1))
                .collect();
            serde_json::json!({
                "unit": unit, "number": number + 1, "digit": c.digit, "cells": cells,
            })
        })
        .collect();
    let answer = serde_json::json!({
        "filled": checked.filled,
        "complete": checked.complete,
        "correct": checked.correct,
        "clashes": clashes,
    });
    Ok(axum::Json(answer).into_response())
}

/// Query parameters of `GET /v1/generate`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GenerateQuery {
    count: Option<u64>,
    givens: Option<u16>,
    difficulty: Option<String>,
    seed: Option<u64>,
    symmetry: Option<String>,
}

impl GenerateQuery {
    /// What to make, checked.
    fn generate(&self, seed: u64) -> Result<Generate, ApiError> {
        let target = match self.givens {
            None => Target::Minimal,
            Some(k) if (MIN_GIVENS..=81).contains(&k) => Target::Givens(k),
            Some(k) => {
                return Err(ApiError::BadQuery(format!(
                    "givens {k}: expected {MIN_GIVENS} to 81"
                )))
            }
        };
        let pattern = match self.symmetry.as_deref() {
            None | Some("none") => Pattern::None,
            Some("rot180") => Pattern::Rot180,
            Some("rot90") => Pattern::Rot90,
            Some("mirror") => Pattern::Mirror,
            Some("diagonal") => Pattern::Diagonal,
            Some(other) => {
                return Err(ApiError::BadQuery(format!(
                    "symmetry {other:?}: expected none, rot180, rot90, mirror or diagonal"
                )))
            }
        };
        let level = match self.difficulty.as_deref() {
            None => None,
            Some(name) => Some(Levels::parse(name).ok_or_else(|| {
                ApiError::BadQuery(format!(
                    "difficulty {name:?}: expected easy, medium, hard, expert or extreme, \
                     or a comma-separated list of them"
                ))
            })?),
        };
        Ok(Generate::new(Spec { pattern, target }, seed, level, true))
    }
}

/// `GET /v1/generate?count=&givens=&difficulty=&seed=&symmetry=`.
pub(super) async fn generate(
    State(state): Shared,
    permit: Permit,
    uri: Uri,
) -> Result<Response, ApiError> {
    let q: GenerateQuery = query(&uri)?;
    let count = q.count.unwrap_or(1);
    if !(1..=MAX_GENERATE).contains(&count) {
        return Err(ApiError::BadQuery(format!(
            "count {count}: expected 1 to {MAX_GENERATE}"
        )));
    }
    let seed = q.seed.unwrap_or_else(random_seed);
    // Dropped with this future (a 408): records not started are skipped, and the one
    // being made stops within a few milliseconds.
    let (_guard, cancelled) = CancelOnDrop::new();
    let cancel = cancelled.flag();
    let generate = q.generate(seed)?.cancelled_by(Arc::clone(&cancel));
    let which = if count <= QUICK_GENERATE {
        Which::Quick
    } else {
        Which::Main
    };
    let rows = on_pool(&state, which, permit, move |lane| {
        let made: Vec<_> = (0..count)
            .into_par_iter()
            .map(|index| {
                if cancel.load(Ordering::Relaxed) {
                    return Err(cancelled_record(index));
                }
                let slot = rayon::current_thread_index().unwrap_or(0) % lane.makers.len();
                let mut maker = pipeline::lock(&lane.makers[slot]);
                let made = generate.record(&mut maker, index);
                if made.is_err() {
                    // One record that cannot be made fails the request: the rest stop.
                    cancel.store(true, Ordering::Relaxed);
                }
                made
            })
            .collect();
        let writer = RowWriter::new(OutputFormat::Ndjson, None);
        let mut rows = JSON_LIST_START.to_vec();
        let symbols = Symbols::default_for(9);
        let mut texts = Box::new(([0; MAX_CELLS], [0; MAX_CELLS]));
        // The record that failed, not those skipped because it did.
        let failed = made
            .iter()
            .position(|r| r.as_ref().is_err_and(|e| !is_cancelled(e)));
        if let Some(Err(e)) = failed.map(|i| made[i].clone()) {
            return Err(e);
        }
        for (index, record) in made.into_iter().enumerate() {
            let (made, extra): (_, Generated) = record?;
            let row = pipeline::made_row(index as u64, &made, &extra, &symbols, &mut texts);
            writer.row(&row, &mut rows);
        }
        Ok(rows)
    })
    .await?
    .map_err(|e: crate::jobs::GenerateError| ApiError::BadQuery(e.to_string()))?;
    let mut response = (
        [(header::CONTENT_TYPE, "application/json")],
        json_value(rows, false),
    )
        .into_response();
    if let Ok(value) = HeaderValue::from_str(&seed.to_string()) {
        response.headers_mut().insert("x-seed", value);
    }
    Ok(response)
}

/// The error of a record skipped because its request was cancelled (never seen: nobody
/// waits for the answer any more).
fn cancelled_record(index: u64) -> crate::jobs::GenerateError {
    crate::jobs::GenerateError {
        record: index + 1,
        spec: None,
        levels: None,
        attempts: 0,
    }
}

/// True for the error of a record skipped by [`cancelled_record`].
fn is_cancelled(e: &crate::jobs::GenerateError) -> bool {
    e.attempts == 0 && e.spec.is_none() && e.levels.is_none()
}

/// A seed from the clock, for requests that give none (sent back as `X-Seed`).
fn random_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Any path the server does not have.
pub(super) async fn not_found() -> (StatusCode, axum::Json<serde_json::Value>) {
    (
        StatusCode::NOT_FOUND,
        axum::Json(serde_json::json!({ "error": "no such endpoint" })),
    )
}

/// True when an `Accept` header prefers NDJSON rows to CSV: an NDJSON media range
/// (`application/x-ndjson`, `application/ndjson`) with a quality above 0 and at least
/// that of any CSV range (`q=0` means "not this one", RFC 9110).
fn wants_ndjson(accept: &str) -> bool {
    let (mut ndjson, mut csv) = (0.0f32, 0.0f32);
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let quality = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if media.ends_with("/x-ndjson") || media.ends_with("/ndjson") {
            ndjson = ndjson.max(quality);
        } else if media == "text/csv" {
            csv = csv.max(quality);
        }
    }
    ndjson > 0.0 && ndjson >= csv
}

#[cfg(test)]
mod tests {
    use super::wants_ndjson;

    #[test]
    fn accept_qualities_are_read() {
        assert!(wants_ndjson("application/x-ndjson"));
        assert!(wants_ndjson("text/csv;q=0.5, application/x-ndjson"));
        assert!(!wants_ndjson("application/x-ndjson;q=0"));
        assert!(!wants_ndjson("application/x-ndjson; q=0.0, text/csv"));
        assert!(!wants_ndjson("text/csv, application/x-ndjson;q=0.4"));
        assert!(!wants_ndjson("*/*"));
        assert!(!wants_ndjson("text/csv"));
    }
}
