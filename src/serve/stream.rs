//! Bridges between async HTTP bodies and the blocking pipeline: request body chunks
//! reach the pipeline through a small bounded channel read as an [`io::Read`]; rows
//! leave through another as the response body. Memory per request is bounded by the
//! channels and the pipeline's chunks in flight, whatever the size of the body.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use bytes::{Buf, Bytes};
use futures_util::StreamExt;
use tokio::sync::mpsc;

/// Body pieces held in each channel at most.
pub(super) const CHANNEL_CHUNKS: usize = 8;

/// A piece of a body, or why the body ended early.
pub(super) type Piece = io::Result<Bytes>;

/// The request body as a blocking reader (for the pipeline's stream input).
pub(super) struct BodyReader {
    rx: mpsc::Receiver<Piece>,
    current: Bytes,
}

impl BodyReader {
    /// A reader of what [`pump`] sends into the other end of `rx`.
    pub(super) fn new(rx: mpsc::Receiver<Piece>) -> BodyReader {
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

    /// The client sent nothing for `--timeout`.
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

/// Moves the request body into `tx` piece by piece; a client that sends nothing for
/// `idle` ends the body with an error (slow clients time out). Why a body ended early
/// goes into `ending`.
pub(super) async fn pump(
    body: Body,
    tx: mpsc::Sender<Piece>,
    idle: Duration,
    ending: Arc<BodyEnd>,
) {
    let mut stream = body.into_data_stream();
    loop {
        let piece = match tokio::time::timeout(idle, stream.next()).await {
            Err(_) => {
                ending.0.store(TIMED_OUT, Ordering::Relaxed);
                Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no request body data for {} s", idle.as_secs_f64()),
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
        if tx.send(piece).await.is_err() || failed {
            return;
        }
    }
}

/// The response body as a blocking writer (the pipeline's output).
pub(super) struct ResponseWriter {
    tx: mpsc::Sender<Piece>,
}

impl ResponseWriter {
    /// A writer into `tx`, read by [`body_of`].
    pub(super) fn new(tx: mpsc::Sender<Piece>) -> ResponseWriter {
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

/// A response body streamed from `first` and then `rx`; an error piece aborts it.
pub(super) fn body_of(first: Bytes, rx: mpsc::Receiver<Piece>) -> Body {
    let rest = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|piece| (piece, rx))
    });
    Body::from_stream(futures_util::stream::iter([Ok(first)]).chain(rest))
}
