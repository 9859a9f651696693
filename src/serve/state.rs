//! What every request shares: the rayon pool, one worker per pool thread for each job,
//! the in-flight limit and the metrics handle.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use metrics_exporter_prometheus::PrometheusHandle;
use rayon::ThreadPool;
use tokio::sync::Semaphore;

use crate::engines::Bitboards;
use crate::jobs::{Canon, Classify, Grade, Maker, Solve};
use crate::pipeline::batch::workers;
use crate::pipeline::{BoardSetup, Worker};
use crate::values::geometry::Variant;

/// Shared, read-only but for the workers' locks.
pub(super) struct AppState {
    /// Where all solving runs.
    pub pool: Arc<ThreadPool>,
    /// Workers for JSON requests, one per pool thread, per job.
    pub solve: Vec<Mutex<Worker<Solve>>>,
    /// See `solve`.
    pub classify: Vec<Mutex<Worker<Classify>>>,
    /// See `solve`.
    pub grade: Vec<Mutex<Worker<Grade>>>,
    /// Workers of `canon`, one per pool thread.
    pub canon: Vec<Mutex<Worker<Canon>>>,
    /// Engines and raters for `generate`, one per pool thread.
    pub makers: Vec<Mutex<Maker<Bitboards>>>,
    /// Places for requests being worked on.
    pub inflight: Arc<Semaphore>,
    /// The body limit (for messages).
    pub max_body: u64,
    /// The limit of a JSON body, read whole before it is parsed.
    pub max_json: u64,
    /// How long a request body may go without data.
    pub timeout: Duration,
    /// Renders `/metrics`.
    pub metrics: PrometheusHandle,
}

impl AppState {
    /// State for a pool of `pool.current_num_threads()` threads.
    pub(super) fn new(
        pool: ThreadPool,
        limits: &super::ServeOptions,
        metrics: PrometheusHandle,
    ) -> AppState {
        let threads = pool.current_num_threads();
        AppState {
            pool: Arc::new(pool),
            solve: workers(&Solve::new(), threads, &BoardSetup::default()),
            classify: workers(&Classify::new(), threads, &BoardSetup::default()),
            grade: workers(&Grade::new(), threads, &BoardSetup::default()),
            canon: workers(&Canon::new(), threads, &BoardSetup::default()),
            makers: (0..threads)
                .map(|_| Mutex::new(Maker::new(Variant::Classic)))
                .collect(),
            inflight: Arc::new(Semaphore::new(limits.max_inflight.max(1))),
            max_body: limits.max_body,
            max_json: limits.max_json.min(limits.max_body),
            timeout: limits.timeout,
            metrics,
        }
    }
}
