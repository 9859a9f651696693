//! `serve`'s options.

use clap::Args;

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// Solving threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Largest request body in bytes; larger ones get 413. Datasets stream through in
    /// bounded memory whatever this is.
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_body: u64,
    /// Largest JSON request body in bytes (JSON is read whole; send larger sets as a
    /// dataset); larger ones get 413.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_json: u64,
    /// Requests worked on at once; more get 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_inflight: u32,
    /// Connections open at once; more are answered 503 and closed.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds a request may take to arrive and be answered (408 after), and a
    /// connection to send a request's head or stay idle between requests; a streamed
    /// dataset may run longer, but may keep the server waiting (for body data, or to
    /// read rows) this long in all.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Seconds SIGTERM or Ctrl-C waits for requests in flight before closing their
    /// connections and exiting.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub drain_timeout: u64,
}
