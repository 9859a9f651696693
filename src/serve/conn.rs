//! Connections: the accept loop with its cap, hyper's HTTP/1 settings, the drain at
//! shutdown, and a write timeout for clients that stop reading.

use std::future::Future;
use std::io::Write;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Sleep;

use super::ServeOptions;

/// Accepts connections until `stop` resolves, then drains them for at most
/// `options.drain_timeout`.
pub(super) async fn accept(
    listener: TcpListener,
    app: Router,
    options: &ServeOptions,
    stop: impl Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    // The header-read timeout also covers a kept-alive connection waiting for its next
    // request, so idle and silent connections close after `timeout`.
    http.timer(TokioTimer::new())
        .header_read_timeout(options.timeout);
    let graceful = GracefulShutdown::new();
    let open = Arc::new(Semaphore::new(options.max_connections.max(1)));
    let mut stop = std::pin::pin!(stop);
    loop {
        let stream = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it was
                // accepted: wait a moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let Ok(place) = Arc::clone(&open).try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = TowerToHyperService::new(app.clone());
        let io = TokioIo::new(Patient::new(stream, options.timeout));
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(place);
        });
    }
    drop(listener);
    if tokio::time::timeout(options.drain_timeout, graceful.shutdown())
        .await
        .is_err()
    {
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-batch: requests still in flight after the drain timeout ({} s); \
             closing their connections",
            options.drain_timeout.as_secs_f64()
        );
    }
}

/// Answers a connection over `--max-connections` with 503 and closes it.
async fn refuse(mut stream: TcpStream) {
    let body = serde_json::json!({ "error": "too many open connections; retry later" }).to_string();
    let head = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         retry-after: 1\r\nconnection: close\r\ncontent-length: {}\r\n\r\n",
        body.len()
    );
    let answer = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(body.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), answer).await;
}

/// A connection whose writes fail once one has waited `patience` for the client to
/// read: a client that sends a large body without reading the rows streamed back, or
/// that never reads its answer, loses its connection (and with it the request's work)
/// instead of holding a place for ever. An answer hyper writes itself (a request it
/// refused to parse) goes out with a JSON body ([`super::refused`]).
struct Patient {
    stream: TcpStream,
    patience: Duration,
    /// Armed when a write finds the socket full; cleared by the next write that goes.
    stalled: Option<Pin<Box<Sleep>>>,
    /// An answer taken in place of hyper's, and how much of it went out.
    replaced: Option<(Vec<u8>, usize)>,
}

impl Patient {
    fn new(stream: TcpStream, patience: Duration) -> Patient {
        Patient {
            stream,
            patience,
            stalled: None,
            replaced: None,
        }
    }

    /// Writes what is left of a replaced answer; ready once it is all out.
    fn poll_replaced(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while let Some((bytes, sent)) = &mut self.replaced {
            if *sent == bytes.len() {
                break;
            }
            match Pin::new(&mut self.stream).poll_write(cx, &bytes[*sent..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    *sent += n;
                    self.stalled = None;
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return self.stall(cx),
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `written` in place when it is an answer hyper made itself, answering its
    /// length as written.
    fn replace(&mut self, written: &[u8]) -> Option<usize> {
        let answer = super::refused::with_body(written)?;
        self.replaced = Some((answer, 0));
        Some(written.len())
    }

    /// What a write that made no progress answers: pending while there is patience
    /// left, then an error.
    fn stall<T>(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<T>> {
        let patience = self.patience;
        let timer = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(patience)));
        match timer.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => Poll::Ready(Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
        }
    }

    fn went<T>(&mut self, done: std::io::Result<T>) -> Poll<std::io::Result<T>> {
        self.stalled = None;
        Poll::Ready(done)
    }
}

impl AsyncRead for Patient {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Patient {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_replaced(cx))?;
        if let Some(n) = this.replace(buf) {
            return Poll::Ready(Ok(n));
        }
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Ready(done) => this.went(done),
            Poll::Pending => this.stall(cx),
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_replaced(cx))?;
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        if total <= super::refused::LONGEST {
            // hyper's own answers are short: joined on the stack to be looked at.
            let mut joined = [0u8; super::refused::LONGEST];
            let mut at = 0;
            for b in bufs {
                joined[at..at + b.len()].copy_from_slice(b);
                at += b.len();
            }
            if let Some(n) = this.replace(&joined[..at]) {
                return Poll::Ready(Ok(n));
            }
        }
        match Pin::new(&mut this.stream).poll_write_vectored(cx, bufs) {
            Poll::Ready(done) => this.went(done),
            Poll::Pending => this.stall(cx),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.poll_replaced(cx))?;
        match Pin::new(&mut this.stream).poll_flush(cx) {
            Poll::Ready(done) => this.went(done),
            Poll::Pending => this.stall(cx),
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.poll_replaced(cx))?;
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}
