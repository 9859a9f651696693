//! `POST /v1/audit`: a dataset body's health in one pass, as `sudoku-batch audit` gives
//! it: the JSON report, or the page for `Accept: text/html`.
//!
//! An audit needs every record before it can answer (classes and duplicates span the
//! file), so the body is held whole: within `--max-body`, after decompression too (a
//! gzip, zstd or xz body, told by `Content-Encoding` or its first bytes). It runs on the
//! main lane, as datasets do. Leakage against other files is the command line's: a
//! request carries one dataset.

use std::io::Read;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::api::{body_encoding, on_pool, query, Permit};
use super::error::ApiError;
use super::state::{AppState, Which};
use super::stream::is_too_large;
use crate::datasets::audit::{audit as audit_records, AuditOptions};
use crate::engines::explainer::{Rater, Rules};
use crate::pipeline::input::compressed;
use crate::pipeline::input::compressed::Compression;
use crate::pipeline::input::detect_layout_as;
use crate::pipeline::progress::Progress;
use crate::pipeline::settings::Asked;
use crate::reports::audit::{sha256_hex, utc_now, InputFacts, COMMIT};

/// Query parameters of `POST /v1/audit`.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct AuditQuery {
    /// `auto` (default), `lines`, `csv` or `blocks`.
    format: Option<String>,
    /// The CSV column holding puzzles (name or 1-based index).
    column: Option<String>,
    /// The CSV delimiter: one character, or `tab`.
    delimiter: Option<String>,
    /// Rate every unique record (ER and level histograms).
    grade: Option<bool>,
    /// The rating rules with `grade`: `sukaku` (default), `bank` or `se121`.
    rating: Option<String>,
    /// Check whether each unique record is minimal.
    minimality: Option<bool>,
}

/// `POST /v1/audit`.
pub(super) async fn audit(
    State(state): State<Arc<AppState>>,
    permit: Permit,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let q: AuditQuery = query(&uri)?;
    let asked = Asked {
        format: q.format.as_deref(),
        column: q.column.as_deref(),
        delimiter: q.delimiter.as_deref(),
        ..Asked::default()
    };
    let choice = asked
        .input()
        .map_err(|e| ApiError::BadQuery(e.to_string()))?;
    let rating = q.rating.clone().unwrap_or_else(|| "sukaku".into());
    let rules = Rules::parse(&rating).ok_or_else(|| {
        ApiError::BadQuery(format!("rating {rating:?}: expected sukaku, bank or se121"))
    })?;
    let options = AuditOptions {
        grade: q
            .grade
            .unwrap_or(false)
            .then_some((rules, Rater::DEFAULT_BUDGET)),
        minimality: q.minimality.unwrap_or(false),
        ..AuditOptions::default()
    };
    let encoding = body_encoding(&headers)?;
    let html = headers
        .get(header::ACCEPT)
        .and_then(|a| a.to_str().ok())
        .is_some_and(|a| a.contains("text/html"));
    let limit = state.max_body;
    let within = usize::try_from(limit).unwrap_or(usize::MAX);
    let sent = to_bytes(body, within).await.map_err(|e| {
        if is_too_large(&e) {
            ApiError::TooLarge(limit)
        } else {
            ApiError::BadInput(format!("reading the body: {e}"))
        }
    })?;
    let started = std::time::Instant::now();
    let target = uri.to_string();
    let minimality = options.minimality;
    let answer = on_pool(&state, Which::Main, permit, move |_| {
        let data = decoded(&sent, encoding, limit)?;
        let layout =
            detect_layout_as(&data, &choice).map_err(|e| ApiError::BadInput(e.to_string()))?;
        let mut report = audit_records(&data, &layout, &[], &options, &Progress::hidden());
        let p = &mut report.provenance;
        p.tool = format!("sudoku-batch {} (HTTP)", env!("CARGO_PKG_VERSION"));
        p.commit = COMMIT.to_string();
        p.command_line = vec![format!("POST {target}")];
        p.options
            .insert("format".into(), q.format.unwrap_or_else(|| "auto".into()));
        if minimality {
            p.options
                .insert("minimality".into(), "checked (a count a given)".into());
        }
        if let Some((_, budget)) = options.grade {
            p.rating_rules = Some(format!("rating={rating} (rating budget {budget} steps)"));
        }
        p.inputs.push(InputFacts {
            path: "request body".into(),
            bytes: sent.len() as u64,
            sha256: sha256_hex(&sent),
            layout: layout.describe(),
            records: report.validity.records,
        });
        p.made_at = utc_now();
        p.seconds = started.elapsed().as_secs_f64();
        Ok::<_, ApiError>(report)
    })
    .await??;
    Ok(if html {
        let mut response = answer.page().into_response();
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        );
        response
    } else {
        axum::Json(answer).into_response()
    })
}

/// The body's records: as sent, or decoded as the command line decodes a file (gzip,
/// zstd, xz), within `limit` bytes either way.
fn decoded(
    sent: &bytes::Bytes,
    encoding: Option<Compression>,
    limit: u64,
) -> Result<Vec<u8>, ApiError> {
    let Some(compression) = encoding.or_else(|| Compression::detect(sent)) else {
        return Ok(sent.to_vec());
    };
    if compression == Compression::Zip {
        return Err(ApiError::UnsupportedType(
            "a zip body: audit takes text, gzip, zstd or xz".into(),
        ));
    }
    let mut out = Vec::new();
    compressed::decode(std::io::Cursor::new(sent.clone()), compression)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| ApiError::BadInput(format!("the {} body: {e}", compression.name())))?;
    if out.len() as u64 > limit {
        return Err(ApiError::TooLarge(limit));
    }
    Ok(out)
}
