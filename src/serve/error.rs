//! Every way a request can fail, mapped to a status code in one place.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// A request the server will not or cannot answer with results.
#[derive(Debug)]
pub enum ApiError {
    /// The body is not the JSON asked for (400).
    BadJson(String),
    /// A query parameter is missing, malformed or out of range (400).
    BadQuery(String),
    /// The dataset in the body cannot be read (400).
    BadInput(String),
    /// The body is larger than `--max-body` (413).
    TooLarge(u64),
    /// The body's type is not one the endpoint reads (415).
    UnsupportedType(String),
    /// The request has a body but no `Content-Type` (415).
    NoType,
    /// The request was not answered within `--timeout` (408).
    TimedOut,
    /// `--max-inflight` requests are already being worked on (503 with `Retry-After`).
    Busy,
    /// The work failed on the server's side (500).
    Internal(String),
}

impl ApiError {
    /// The status code.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadJson(_) | ApiError::BadQuery(_) | ApiError::BadInput(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedType(_) | ApiError::NoType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::TimedOut => StatusCode::REQUEST_TIMEOUT,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one-line message.
    pub fn message(&self) -> String {
        match self {
            ApiError::BadJson(m) => format!("invalid JSON body: {m}"),
            ApiError::BadQuery(m) => format!("invalid query: {m}"),
            ApiError::BadInput(m) => format!("cannot read the input: {m}"),
            ApiError::TooLarge(max) => format!("request body over the limit of {max} bytes"),
            ApiError::UnsupportedType(t) => format!(
                "unsupported content type {t:?}: send application/json, or a dataset as \
                 text/plain or text/csv"
            ),
            ApiError::NoType => "no Content-Type: send application/json, or a dataset as \
                 text/plain or text/csv"
                .to_string(),
            ApiError::TimedOut => "the request took longer than the server's --timeout \
                 (its work, or a dataset's body or reader, took that long)"
                .to_string(),
            ApiError::Busy => "too many requests in flight; retry later".to_string(),
            ApiError::Internal(m) => format!("internal error: {m}"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message() }).to_string();
        let mut response = (
            self.status(),
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response();
        if matches!(self, ApiError::Busy) {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        response
    }
}
