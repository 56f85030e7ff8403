//! The server's connections: the accept loop, its cap on concurrent connections and the
//! timeouts that close idle and slow ones.
//!
//! Every connection holds a descriptor, and so do the tables the probes open; a server that
//! accepted every connection would run out of descriptors (and, before this module, died
//! there). So at most [`Limits::max_connections`] connections are served at once (by default
//! half the descriptors the process may still open); more wait in the kernel's queue until
//! one closes. A connection is closed when a request's head is not complete within
//! [`Limits::timeout`] of waiting for it (an idle connection, a keep-alive one between
//! requests, or one sending its head slowly), or when the client reads none of the answer
//! for as long. A request body is never read (every route is GET or HEAD): the answer is
//! sent and the connection closed without waiting for it. Should accepting fail all the
//! same (no descriptor left, or too little memory), the loop waits a moment and goes on.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::Sleep;

/// The most connections served at once by default, whatever the descriptor limit.
pub const MAX_CONNECTIONS: usize = 1024;

/// How long a connection may wait for a request's head, or leave its answer unread, by
/// default.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// How long the accept loop waits after a failure to accept (no descriptor or memory left)
/// before it tries again.
const ACCEPT_BACK_OFF: Duration = Duration::from_millis(100);

/// The limits on the server's connections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most connections served at once; more wait in the kernel's queue.
    pub max_connections: usize,
    /// How long a request's head may take to arrive (from the connection's start, or the end
    /// of the answer before), and how long the client may leave the answer unread, before
    /// the connection is closed.
    pub timeout: Duration,
}

impl Default for Limits {
    /// Half the descriptors the process may still open (the other half stays for the tables
    /// and the runtime), at least 1 and at most [`MAX_CONNECTIONS`]; [`TIMEOUT`].
    fn default() -> Limits {
        Limits {
            max_connections: connections_for(descriptor_limit(), descriptors_open()),
            timeout: TIMEOUT,
        }
    }
}

/// How many descriptors the process has open (0 if that cannot be listed).
fn descriptors_open() -> u64 {
    // The listing's own descriptor is among those it lists.
    std::fs::read_dir("/dev/fd").map_or(0, |d| d.count().saturating_sub(1) as u64)
}

/// The process's soft limit on open descriptors (`None`: unlimited or unknown).
fn descriptor_limit() -> Option<libc::rlim_t> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit only writes the struct it is given.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The default cap on connections under a descriptor limit of `limit` with `open`
/// descriptors open.
fn connections_for(limit: Option<libc::rlim_t>, open: u64) -> usize {
    limit.map_or(MAX_CONNECTIONS, |l| {
        let half = l.saturating_sub(open) / 2;
        usize::try_from(half).map_or(MAX_CONNECTIONS, |h| h.clamp(1, MAX_CONNECTIONS))
    })
}

/// Serve `app` on `listener` within `limits`, until the process is stopped.
pub async fn serve(listener: TcpListener, app: Router, limits: Limits) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut failing = false;
    loop {
        let slot = Arc::clone(&slots)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => {
                failing = false;
                stream
            }
            // The client gave up before it was accepted: nothing to do.
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of descriptors or memory: the connection stays queued; try again once
                // some may have been freed. Said once per run of failures.
                if !failing {
                    eprintln!(
                        "millbase serve: cannot accept a connection ({e}); retrying until \
                         one closes"
                    );
                    failing = true;
                }
                tokio::time::sleep(ACCEPT_BACK_OFF).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = TokioIo::new(WriteDeadline::new(stream, limits.timeout));
            // A connection's end, timed out or not, concerns only its client.
            let _ = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.timeout)
                .serve_connection(io, service)
                .await;
            drop(slot);
        });
    }
}

/// An error of accept that concerns only the connection being accepted.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// A connection whose writes fail with [`io::ErrorKind::TimedOut`] once they have made no
/// progress for the limit: a client that stops reading does not hold it for ever.
struct WriteDeadline {
    stream: TcpStream,
    limit: Duration,
    /// Running while a write waits for the client to read.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteDeadline {
    fn new(stream: TcpStream, limit: Duration) -> WriteDeadline {
        WriteDeadline {
            stream,
            limit,
            stalled: None,
        }
    }

    /// `poll`, the outcome of a write, with the deadline applied: progress ends the wait,
    /// a wait of the limit fails.
    fn guard<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let limit = self.limit;
        let stalled = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client read nothing of the answer in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.guard(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.guard(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_flush(cx);
        self.guard(cx, poll)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let poll = Pin::new(&mut self.stream).poll_shutdown(cx);
        self.guard(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_half_the_free_descriptors_within_bounds() {
        assert_eq!(connections_for(Some(32), 0), 16);
        assert_eq!(connections_for(Some(32), 6), 13);
        assert_eq!(connections_for(Some(1024), 10), 507);
        assert_eq!(connections_for(Some(1_048_576), 10), MAX_CONNECTIONS);
        assert_eq!(connections_for(Some(1), 0), 1);
        assert_eq!(connections_for(Some(8), 20), 1);
        assert_eq!(connections_for(None, 10), MAX_CONNECTIONS);
    }

    #[test]
    fn open_descriptors_are_counted() {
        // Standard output and error at least (0 would mean the listing failed).
        assert!(descriptors_open() >= 2, "{}", descriptors_open());
    }
}
