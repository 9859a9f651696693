//! `serve`: the HTTP server.

use super::config::default_threads;
use super::error::AppError;
use crate::cli;
use crate::serve::{serve, ServeOptions};
use std::process::ExitCode;

pub(super) fn run_serve(args: &cli::ServeArgs) -> Result<ExitCode, AppError> {
    let options = ServeOptions {
        listen: args.listen,
        threads: args.threads.map_or_else(default_threads, usize::from),
        max_body: args.max_body,
        max_json: args.max_json,
        max_inflight: args.max_inflight as usize,
        max_connections: args.max_connections as usize,
        timeout: std::time::Duration::from_secs(args.timeout),
        drain_timeout: std::time::Duration::from_secs(args.drain_timeout),
    };
    serve(&options)?;
    Ok(ExitCode::SUCCESS)
}
