//! Answers the HTTP library (hyper) writes itself, before a request reaches the service:
//! a request it cannot parse (400: a malformed request line or header, two
//! `Content-Length`s), a request line too long (414), headers too large or too many
//! (431). hyper writes them with an empty body and offers no hook; the connection sees
//! their bytes go out and gives them the `{"error"}` body every other answer has.

/// The longest answer hyper makes itself (about 100 bytes), with room to spare.
pub(super) const LONGEST: usize = 256;

/// The answer to write instead of `written`, when `written` is the whole of an answer
/// hyper made itself: a status line of 4xx or 5xx, then exactly `connection: close`,
/// `content-length: 0` and a `date` header (the service's answers all carry a content
/// type and a body, so none is taken for one).
pub(super) fn with_body(written: &[u8]) -> Option<Vec<u8>> {
    if written.len() > LONGEST || !written.ends_with(b"\r\n\r\n") {
        return None;
    }
    let text = std::str::from_utf8(written).ok()?;
    let mut lines = text[..text.len() - 4].split("\r\n");
    let status_line = lines.next()?;
    let (Some(connection), Some(length), Some(date), None) =
        (lines.next(), lines.next(), lines.next(), lines.next())
    else {
        return None;
    };
    if connection != "connection: close"
        || length != "content-length: 0"
        || !date.starts_with("date: ")
    {
        return None;
    }
    let status = status_line.strip_prefix("HTTP/1.1 ")?;
    let code: u16 = status.get(..3)?.parse().ok()?;
    if !(400..600).contains(&code) || status.as_bytes().get(3) != Some(&b' ') {
        return None;
    }
    let message = match code {
        400 => "malformed HTTP request: a request line or header that cannot be read, or a \
                Content-Length that is repeated, disagrees or is not a number"
            .to_string(),
        414 => "request line too long (the path and query must fit the server's read buffer, \
                about 400 KiB, and be under 64 KiB)"
            .to_string(),
        431 => "request headers too large: at most 100 headers, and the request line and \
                headers together within the server's read buffer (about 400 KiB)"
            .to_string(),
        _ => status[4..].to_ascii_lowercase(),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    Some(
        format!(
            "{status_line}\r\ncontent-type: application/json\r\n{connection}\r\n\
             content-length: {}\r\n{date}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "date: Sun, 06 Dec 2026 21:32:19 GMT";

    #[test]
    fn hyper_answers_get_a_json_body() {
        for (status, word) in [
            ("400 Bad Request", "malformed"),
            ("414 URI Too Long", "request line too long"),
            ("431 Request Header Fields Too Large", "headers too large"),
        ] {
            let head = format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"
            );
            let answer = String::from_utf8(with_body(head.as_bytes()).unwrap()).unwrap();
            let (head, body) = answer.split_once("\r\n\r\n").unwrap();
            assert!(
                head.starts_with(&format!("HTTP/1.1 {status}\r\n")),
                "{head}"
            );
            assert!(head.contains("content-type: application/json"));
            assert!(head.contains(&format!("content-length: {}", body.len())));
            let json: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(json["error"].as_str().unwrap().contains(word), "{body}");
        }
    }

    #[test]
    fn other_answers_are_left_as_they_are() {
        let ours = format!(
            "HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: \
             28\r\nconnection: close\r\n{DATE}\r\n\r\n"
        );
        let ok =
            format!("HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n");
        let cut = "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n";
        let body = format!(
            "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\nx"
        );
        for written in [ours.as_str(), ok.as_str(), cut, body.as_str(), ""] {
            assert_eq!(with_body(written.as_bytes()), None, "{written}");
        }
    }
}
