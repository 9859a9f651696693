//! Bridges between async HTTP bodies and the blocking pipeline: request body chunks
//! reach the pipeline through a small bounded channel read as an [`io::Read`]; rows
//! leave through another as the response body. Memory per request is bounded by the
//! channels and the pipeline's chunks in flight, whatever the size of the body.
//!
//! A client may keep the server waiting for body data `--timeout` in all (a client that
//! trickles); the time the server spends on the rows does not count.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use bytes::{Buf, Bytes};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use super::cancel::{CancelOnDrop, Cancelled};

/// Body pieces held in each channel at most.
pub(super) const CHANNEL_CHUNKS: usize = 8;

/// A piece of a body, or why the body ended early.
pub(super) type BodyPiece = io::Result<Bytes>;

/// The request body as a blocking reader (for the pipeline's stream input).
pub(super) struct BodyReader {
    rx: mpsc::Receiver<BodyPiece>,
    current: Bytes,
}

impl BodyReader {
    /// A reader of what [`pump`] sends into the other end of `rx`.
    pub(super) fn new(rx: mpsc::Receiver<BodyPiece>) -> BodyReader {
        BodyReader {
            rx,
            current: Bytes::new(),
        }
    }
}

impl Read for BodyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_empty() {
            match self.rx.blocking_recv() {
                None => return Ok(0),
                Some(piece) => self.current = piece?,
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.advance(n);
        Ok(n)
    }
}

/// Why a request body ended early, as [`pump`] found it (read by the handler to choose
/// the status when no row has gone out yet).
#[derive(Default)]
pub(super) struct BodyEnd(AtomicU8);

const TOO_LARGE: u8 = 1;
const TIMED_OUT: u8 = 2;

impl BodyEnd {
    /// The body went over `--max-body`.
    pub(super) fn too_large(&self) -> bool {
        self.0.load(Ordering::Relaxed) == TOO_LARGE
    }

    /// The client kept the server waiting for body data for `--timeout` in all.
    pub(super) fn timed_out(&self) -> bool {
        self.0.load(Ordering::Relaxed) == TIMED_OUT
    }
}

/// True when `error` (or what caused it) is the body limit.
pub(super) fn is_too_large(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if e.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        cause = e.source();
    }
    false
}

/// Moves the request body into `tx` piece by piece. A client that keeps it waiting for
/// data `patience` in all ends the body with an error (a trickling client times out);
/// a cancelled request stops it at once. Why a body ended early goes into `ending`.
pub(super) async fn pump(
    body: Body,
    tx: mpsc::Sender<BodyPiece>,
    patience: Duration,
    ending: Arc<BodyEnd>,
    mut cancelled: Cancelled,
) {
    let mut stream = body.into_data_stream();
    let mut waited = Duration::ZERO;
    loop {
        let asked = Instant::now();
        let next = tokio::select! {
            () = cancelled.wait() => return,
            next = tokio::time::timeout(patience.saturating_sub(waited), stream.next()) => next,
        };
        waited += asked.elapsed();
        let piece = match next {
            Err(_) => {
                ending.0.store(TIMED_OUT, Ordering::Relaxed);
                Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "the request body kept the server waiting {} s in all",
                        patience.as_secs_f64()
                    ),
                ))
            }
            Ok(None) => return,
            Ok(Some(Ok(bytes))) => Ok(bytes),
            Ok(Some(Err(e))) => {
                if is_too_large(&e) {
                    ending.0.store(TOO_LARGE, Ordering::Relaxed);
                }
                Err(io::Error::other(e))
            }
        };
        let failed = piece.is_err();
        // The pipeline stopped reading (it failed, or the client went away): stop too.
        let sent = tokio::select! {
            () = cancelled.wait() => return,
            sent = tx.send(piece) => sent,
        };
        if sent.is_err() || failed {
            return;
        }
    }
}

/// The response body as a blocking writer (the pipeline's output). A client that stops
/// reading is timed out by its connection (`conn.rs`), which drops the body and so
/// fails the next write here.
pub(super) struct ResponseWriter {
    tx: mpsc::Sender<BodyPiece>,
}

impl ResponseWriter {
    /// A writer into `tx`, read by [`body_of`].
    pub(super) fn new(tx: mpsc::Sender<BodyPiece>) -> ResponseWriter {
        ResponseWriter { tx }
    }
}

impl Write for ResponseWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tx
            .blocking_send(Ok(Bytes::copy_from_slice(buf)))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the client went away"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A response body streamed from `first` and then `rx`; an error piece aborts it. The
/// body holds `guard`, so a client that goes away mid-stream cancels the work.
pub(super) fn body_of(first: Bytes, rx: mpsc::Receiver<BodyPiece>, guard: CancelOnDrop) -> Body {
    let rest = futures_util::stream::unfold((rx, guard), |(mut rx, guard)| async move {
        rx.recv().await.map(|piece| (piece, (rx, guard)))
    });
    Body::from_stream(futures_util::stream::iter([Ok(first)]).chain(rest))
}
