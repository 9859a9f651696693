//! Prometheus metrics through the `metrics` crate: requests by endpoint and status code,
//! request latency as a histogram, puzzles by status.

use std::time::{Duration, Instant};

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::reports::StatusCounts;

/// Requests answered, labelled `endpoint` and `status`.
const REQUESTS: &str = "sudoku_http_requests_total";
/// Seconds from request to response head, labelled `endpoint`.
const LATENCY: &str = "sudoku_http_request_duration_seconds";
/// Puzzles answered, labelled `status` (`unique`, `multiple`, ...).
const PUZZLES: &str = "sudoku_puzzles_total";

/// Installs the process-wide recorder; its handle renders `/metrics`.
pub(super) fn install() -> Result<PrometheusHandle, String> {
    let buckets = [
        0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
        0.5, 1.0, 2.5, 5.0, 10.0,
    ];
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(LATENCY.into()), &buckets)
        .map_err(|e| e.to_string())?
        .install_recorder()
        .map_err(|e| e.to_string())?;
    metrics::describe_counter!(REQUESTS, "HTTP requests answered, by endpoint and status");
    metrics::describe_histogram!(LATENCY, "Seconds from request to response head");
    metrics::describe_counter!(PUZZLES, "Puzzles answered, by status");
    Ok(handle)
}

/// Keeps the histograms' buckets current (the exporter asks for this periodically).
pub(super) async fn upkeep(handle: PrometheusHandle) {
    loop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        handle.run_upkeep();
    }
}

/// Middleware: counts every request by its route and status code and times it.
pub(super) async fn track(request: Request, next: Next) -> Response {
    let endpoint = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!(REQUESTS, "endpoint" => endpoint.clone(), "status" => status).increment(1);
    metrics::histogram!(LATENCY, "endpoint" => endpoint).record(started.elapsed().as_secs_f64());
    response
}

/// Adds a run's puzzles by status.
pub(super) fn count_puzzles(counts: &StatusCounts) {
    for (status, n) in counts.iter().filter(|&(_, n)| n > 0) {
        metrics::counter!(PUZZLES, "status" => status.word()).increment(n);
    }
}
