//! What every request shares: two lanes (a rayon pool and one worker per pool thread for
//! each job; the main lane for datasets and large requests, a quick one for small
//! requests), the in-flight limit and the metrics handle.

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

/// A pool and the workers kept for it: one worker per pool thread, per job.
pub(super) struct Lane {
    /// Where this lane's solving runs.
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
}

impl Lane {
    fn new(pool: ThreadPool) -> Lane {
        let threads = pool.current_num_threads();
        Lane {
            pool: Arc::new(pool),
            solve: workers(&Solve::new(), threads, &BoardSetup::default()),
            classify: workers(&Classify::new(), threads, &BoardSetup::default()),
            grade: workers(&Grade::new(), threads, &BoardSetup::default()),
            canon: workers(&Canon::new(), threads, &BoardSetup::default()),
            makers: (0..threads)
                .map(|_| Mutex::new(Maker::new(Variant::Classic)))
                .collect(),
        }
    }
}

/// Which lane a request's work takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Which {
    /// The pool of every core: datasets and large requests.
    Main,
    /// A pool of its own for small requests (a few puzzles), so that they answer in
    /// milliseconds while large ones keep every core of the main pool busy: the
    /// operating system shares the cores between the two pools' threads.
    Quick,
}

/// Shared, read-only but for the workers' locks.
pub(super) struct AppState {
    /// The lane of datasets and large requests.
    pub main: Lane,
    /// The lane of small requests.
    pub quick: Lane,
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
    /// State for a main pool of `pool.current_num_threads()` threads and a quick pool.
    pub(super) fn new(
        pool: ThreadPool,
        quick: ThreadPool,
        limits: &super::ServeOptions,
        metrics: PrometheusHandle,
    ) -> AppState {
        AppState {
            main: Lane::new(pool),
            quick: Lane::new(quick),
            inflight: Arc::new(Semaphore::new(limits.max_inflight.max(1))),
            max_body: limits.max_body,
            max_json: limits.max_json.min(limits.max_body),
            timeout: limits.timeout,
            metrics,
        }
    }

    /// The lane `which` names.
    pub(super) fn lane(&self, which: Which) -> &Lane {
        match which {
            Which::Main => &self.main,
            Which::Quick => &self.quick,
        }
    }
}
