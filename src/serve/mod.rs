//! `sudoku-batch serve`: the HTTP front end, on tokio + axum, over the same jobs and
//! pipeline as the command line.
//!
//! ```text
//! accept (--max-connections) ─▶ hyper HTTP/1 (header-read and idle timeouts)
//! request ─▶ track (metrics) ─▶ catch panic ─▶ timeout ─▶ body limit ─▶ route
//!   JSON puzzles ──────────▶ rayon pool: batch::run_puzzles_until ──▶ JSON results
//!   dataset body ─ channel ─▶ blocking thread: pipeline::run_stream ─ channel ─▶ rows
//! ```
//!
//! Limits are layers and connection settings; handlers only extract, call the library
//! and map typed errors (`error.rs`) to status codes. Solving never runs on the async
//! threads, and stops when nobody waits for it (`cancel.rs`).
//!
//! Memory: a dataset request holds its channels and the pipeline's chunks in flight
//! (a few MiB) whatever its size. A JSON request is read whole (at most `--max-json`)
//! and answered whole: the body, a pointer and a length per puzzle, and the rows (about
//! three times the body); measured at 5.6 times the body at peak (332 MB for a 59.5 MB
//! request of 700,000 puzzles), so at most about `--max-inflight` x 6 x `--max-json`
//! in all: 1.5 GiB with the defaults (64 x 6 x 4 MiB).

mod api;
mod audit;
mod cancel;
mod conn;
mod error;
mod metrics;
mod refused;
mod state;
mod stream;

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::header;
use axum::http::StatusCode;
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

pub use error::ApiError;
use state::AppState;

/// Settings of a server.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to listen on (port 0: any free port, printed at start).
    pub listen: SocketAddr,
    /// Solving threads.
    pub threads: usize,
    /// Largest request body accepted, in bytes.
    pub max_body: u64,
    /// Largest JSON request body (read whole before it is parsed), in bytes.
    pub max_json: u64,
    /// Requests worked on at once; more get 503.
    pub max_inflight: usize,
    /// Connections open at once; more are answered 503 and closed.
    pub max_connections: usize,
    /// How long a request may take to arrive and be answered, and how long a connection
    /// may take to send a request's head or stay idle between requests; a streamed
    /// dataset may run longer, but may keep the server waiting (for body data, or for
    /// room to write rows) this long in all.
    pub timeout: Duration,
    /// How long SIGTERM or Ctrl-C waits for requests in flight before closing the
    /// connections left.
    pub drain_timeout: Duration,
}

/// Errors that stop the server from starting or running.
#[derive(Debug)]
pub enum ServeError {
    /// The address could not be bound.
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The async runtime, the thread pool or the metrics recorder could not start, or
    /// serving failed.
    Start(String),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Bind { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServeError::Start(m) => write!(f, "cannot serve: {m}"),
        }
    }
}

impl std::error::Error for ServeError {}

/// Threads of the quick lane (small requests), at most as many as the main pool's.
const QUICK_THREADS: usize = 2;

/// Serves until SIGTERM or Ctrl-C, then lets requests in flight finish (for at most
/// `drain_timeout`) and returns.
pub fn serve(options: &ServeOptions) -> Result<(), ServeError> {
    let start = |e: &dyn std::fmt::Display| ServeError::Start(e.to_string());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .thread_name(|i| format!("sudoku-serve-{i}"))
        .build()
        .map_err(|e| start(&e))?;
    let quick = rayon::ThreadPoolBuilder::new()
        .num_threads(QUICK_THREADS.min(options.threads.max(1)))
        .thread_name(|i| format!("sudoku-quick-{i}"))
        .build()
        .map_err(|e| start(&e))?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| start(&e))?;
    let handle = metrics::install().map_err(|e| start(&e))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(options.listen)
            .await
            .map_err(|source| ServeError::Bind {
                addr: options.listen,
                source,
            })?;
        let addr = listener.local_addr().map_err(|e| start(&e))?;
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-batch: listening on http://{addr}"
        );
        tokio::spawn(metrics::upkeep(handle.clone()));
        let state = AppState::new(pool, quick, options, handle);
        let app = layered(routes(), options).with_state(Arc::new(state));
        conn::accept(listener, app, options, shutdown()).await;
        Ok::<(), ServeError>(())
    })?;
    // Work still running belongs to requests whose connections are gone: their cancel
    // flags are set, so it stops at the next record; nothing waits for it.
    runtime.shutdown_timeout(Duration::from_millis(100));
    let _ = writeln!(std::io::stderr(), "sudoku-batch: stopped");
    Ok(())
}

/// Every endpoint.
fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(api::page))
        .route("/healthz", get(api::health))
        .route("/metrics", get(api::prometheus))
        .route("/v1/solve", post(api::solve))
        .route("/v1/classify", post(api::classify))
        .route("/v1/grade", post(api::grade))
        .route("/v1/canon", post(api::canon))
        .route("/v1/validate", post(api::validate))
        .route("/v1/audit", post(audit::audit))
        .route("/v1/generate", get(api::generate))
        .fallback(api::not_found)
}

/// The limits, as layers around every route (the last added runs first).
fn layered(routes: Router<Arc<AppState>>, options: &ServeOptions) -> Router<Arc<AppState>> {
    let max_body = usize::try_from(options.max_body).unwrap_or(usize::MAX);
    let options_max_body = options.max_body;
    routes
        .layer(RequestBodyLimitLayer::new(max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            options.timeout,
        ))
        .layer(middleware::map_response(
            move |response: Response| async move { json_error(response, options_max_body) },
        ))
        .layer(CatchPanicLayer::custom(
            |panic: Box<dyn std::any::Any + Send>| {
                ApiError::Internal(api::panic_message(&*panic)).into_response()
            },
        ))
        .layer(middleware::from_fn(metrics::track))
}

/// An error answered by a layer (413 from the body limit, 408 from the timeout, 405 from
/// the router) in plain text or empty, as the `{"error"}` JSON every other error is; the
/// status and other headers are kept.
fn json_error(response: Response, max_body: u64) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if status.as_u16() < 400 || is_json {
        return response;
    }
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(max_body).message(),
        StatusCode::REQUEST_TIMEOUT => ApiError::TimedOut.message(),
        other => other
            .canonical_reason()
            .unwrap_or("request failed")
            .to_ascii_lowercase(),
    };
    let (mut parts, _) = response.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static("application/json"),
    );
    let body = serde_json::json!({ "error": message }).to_string();
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// Resolves at SIGTERM or Ctrl-C.
async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
    let _ = writeln!(
        std::io::stderr(),
        "sudoku-batch: shutting down; finishing requests in flight"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{to_bytes, Body};
    use axum::http::Request;
    use metrics_exporter_prometheus::PrometheusBuilder;
    use tower::ServiceExt;

    fn options() -> ServeOptions {
        ServeOptions {
            listen: "127.0.0.1:0".parse().unwrap(),
            threads: 2,
            max_body: 1000,
            max_json: 1000,
            max_inflight: 4,
            max_connections: 16,
            timeout: Duration::from_secs(5),
            drain_timeout: Duration::from_secs(5),
        }
    }

    fn state() -> Arc<AppState> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let quick = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        // A recorder that is not installed: tests share one process.
        let handle = PrometheusBuilder::new().build_recorder().handle();
        Arc::new(AppState::new(pool, quick, &options(), handle))
    }

    async fn call(app: &Router, request: Request<Body>) -> (StatusCode, String) {
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_and_the_router_goes_on() {
        let routes = routes().route(
            "/boom",
            get(|| async {
                if true {
                    panic!("boom");
                }
                "unreachable"
            }),
        );
        let app = layered(routes, &options()).with_state(state());
        let (status, body) = call(&app, Request::get("/boom").body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(body.contains("boom"), "{body}");
        let (status, body) =
            call(&app, Request::get("/healthz").body(Body::empty()).unwrap()).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "ok\n"));
    }

    #[tokio::test]
    async fn a_panic_on_the_pool_is_a_500_and_the_pool_goes_on() {
        let state = state();
        let permit = api::Permit::try_new(&state).unwrap();
        let failed = api::on_pool(&state, state::Which::Main, permit, |_| -> u32 {
            panic!("in a worker")
        });
        assert!(
            matches!(failed.await, Err(ApiError::Internal(m)) if m == "in a worker"),
            "a panic in the pool must become an internal error"
        );
        let permit = api::Permit::try_new(&state).unwrap();
        let fine = api::on_pool(&state, state::Which::Quick, permit, |_| 7u32).await;
        assert!(matches!(fine, Ok(7)));
        // Both permits came back.
        assert_eq!(state.inflight.available_permits(), 4);
    }

    #[tokio::test]
    async fn bodies_over_the_limit_get_413_even_without_a_length() {
        let app = layered(routes(), &options()).with_state(state());
        let big = "1".repeat(2000);
        let json = format!("{{\"puzzle\":\"{big}\"}}");
        let request = Request::post("/v1/solve")
            .header("content-type", "application/json")
            .body(Body::from_stream(futures_util::stream::iter([Ok::<
                _,
                std::io::Error,
            >(
                json
            )])))
            .unwrap();
        let (status, body) = call(&app, request).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    }
}
