//! Work stops when nobody waits for its answer: each request holds a [`CancelOnDrop`]
//! (in its handler, then in its response body), and dropping it (a 408 from the
//! timeout layer, a client that went away, a connection closed at shutdown) sets the
//! flag the pipeline and the in-memory batches look at between records (and `grade`'s
//! rater within a record: [`crate::jobs::Job::cancelled_by`]), and wakes the task
//! pumping the request body.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::watch;

/// Cancels a request's work when dropped.
pub(super) struct CancelOnDrop {
    flag: Arc<AtomicBool>,
    /// Dropped with the guard, which ends every [`Cancelled::wait`].
    _alive: watch::Sender<()>,
}

/// What the work side holds: the flag, and a way to wait for it.
#[derive(Clone)]
pub(super) struct Cancelled {
    flag: Arc<AtomicBool>,
    alive: watch::Receiver<()>,
}

impl CancelOnDrop {
    /// A guard, and the side that sees it dropped.
    pub(super) fn new() -> (CancelOnDrop, Cancelled) {
        let flag = Arc::new(AtomicBool::new(false));
        let (tx, rx) = watch::channel(());
        (
            CancelOnDrop {
                flag: Arc::clone(&flag),
                _alive: tx,
            },
            Cancelled { flag, alive: rx },
        )
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
    }
}

impl Cancelled {
    /// The flag, for the pipeline ([`crate::pipeline::RunOptions::cancel`]) and the
    /// batches.
    pub(super) fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// Resolves when the guard is dropped.
    pub(super) async fn wait(&mut self) {
        // Nothing is ever sent: `changed` ends only when the sender (the guard) drops.
        while self.alive.changed().await.is_ok() {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn dropping_the_guard_sets_the_flag_and_wakes_waiters() {
        let (guard, cancelled) = CancelOnDrop::new();
        let mut waiter = cancelled.clone();
        let woken = tokio::spawn(async move { waiter.wait().await });
        assert!(!cancelled.flag().load(Ordering::Relaxed));
        drop(guard);
        tokio::time::timeout(std::time::Duration::from_secs(5), woken)
            .await
            .expect("the waiter wakes")
            .unwrap();
        assert!(cancelled.flag().load(Ordering::Relaxed));
    }
}
