//! `sudoku-batch serve` as users meet it: the real binary on an ephemeral loopback port,
//! real HTTP clients (ureq; curl for full-duplex dataset streaming; raw sockets where a
//! client must misbehave), every endpoint, every error code, load, and shutdown.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use sudoku_batch::{Classification, Grid, Solver};

/// A running server, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
            .args(["serve", "--listen", "127.0.0.1:0", "--threads", "2"])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        stderr.read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .expect("the server prints its address")
            .to_string();
        assert!(addr.starts_with("127.0.0.1:"), "{line}");
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || {
            let mut rest = String::new();
            let _ = stderr.read_to_string(&mut rest);
        });
        Server { child, addr }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Peak resident memory of the server so far, in KiB.
    fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    fn terminate(&self) {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(ok.success());
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Status, headers we look at, and body of a request.
struct Answer {
    status: u16,
    retry_after: Option<String>,
    content_type: String,
    seed: Option<String>,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

fn answer(result: Result<ureq::Response, ureq::Error>) -> Answer {
    let response = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("transport error: {e}"),
    };
    Answer {
        status: response.status(),
        retry_after: response.header("retry-after").map(String::from),
        content_type: response.content_type().to_string(),
        seed: response.header("x-seed").map(String::from),
        body: response.into_string().unwrap(),
    }
}

fn post(url: &str, content_type: &str, body: &str) -> Answer {
    answer(
        ureq::post(url)
            .set("content-type", content_type)
            .send_string(body),
    )
}

fn get(url: &str) -> Answer {
    answer(ureq::get(url).call())
}

/// Puzzles of a bundled file, as 81-character lines.
fn puzzles(name: &str) -> Vec<String> {
    common::load(name)
        .iter()
        .map(|r| String::from_utf8(r.puzzle.to_line().to_vec()).unwrap())
        .collect()
}

/// The classification by the library, for checking answers.
fn expected(puzzle: &str) -> (&'static str, Option<String>) {
    let grid = Grid::parse(puzzle.as_bytes()).unwrap();
    match Solver::new().classify(&grid) {
        Classification::Unique(s) => (
            "unique",
            Some(String::from_utf8(s.to_line().to_vec()).unwrap()),
        ),
        Classification::Multiple(_) => ("multiple", None),
        Classification::Unsolvable => ("unsolvable", None),
        Classification::Invalid(_) => ("invalid", None),
        Classification::Undecided(_) => ("undecided", None),
    }
}

#[test]
fn health_page_and_unknown_paths() {
    let server = Server::start(&[]);
    let health = get(&server.url("/healthz"));
    assert_eq!((health.status, health.body.as_str()), (200, "ok\n"));
    let page = get(&server.url("/"));
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("id=\"puzzles\"") && page.body.contains("/v1/classify"));
    let missing = get(&server.url("/v2/solve"));
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"].is_string());
    // A known path with the wrong method.
    assert_eq!(get(&server.url("/v1/solve")).status, 405);
}

#[test]
fn json_solve_classify_and_grade_answer_every_puzzle_in_order() {
    let server = Server::start(&[]);
    let mut sent = puzzles("extreme.txt");
    sent.truncate(40);
    sent.insert(3, "12x".into());
    sent.insert(7, format!("11{}", ".".repeat(79)));
    let body = serde_json::json!({ "puzzles": sent }).to_string();

    let classify = post(&server.url("/v1/classify"), "application/json", &body);
    assert_eq!(classify.status, 200, "{}", classify.body);
    let results = classify.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), sent.len());
    for (i, (row, puzzle)) in results.iter().zip(&sent).enumerate() {
        assert_eq!(row["line"], i as u64 + 1);
        if puzzle.len() != 81 {
            assert_eq!(row["status"], "invalid");
            assert!(row["reason"].as_str().unwrap().contains("column"), "{row}");
            continue;
        }
        let (status, solution) = expected(puzzle);
        assert_eq!(row["status"], status, "{puzzle}");
        assert_eq!(row["solution"].as_str().map(String::from), solution);
    }
    assert_eq!(results[7]["reason"], "digit 1 given twice in row 1");

    let solve = post(&server.url("/v1/solve"), "application/json", &body);
    let rows = solve.json()["results"].as_array().unwrap().clone();
    for (row, puzzle) in rows.iter().zip(&sent) {
        if row["status"] == "solved" {
            let solution = Grid::parse(row["solution"].as_str().unwrap().as_bytes()).unwrap();
            let given = Grid::parse(puzzle.as_bytes()).unwrap();
            assert!(solution.is_valid_solution() && solution.keeps_givens_of(&given));
        } else {
            assert_eq!(row["status"], "invalid");
        }
    }

    // One puzzle alone: the object itself, with the job's own columns.
    let one = serde_json::json!({ "puzzle": sent[0] }).to_string();
    let graded = post(&server.url("/v1/grade"), "application/json", &one).json();
    assert_eq!(graded["status"], "unique");
    assert!(graded["rating"].as_f64().unwrap() > 0.0);
    assert!(graded["difficulty"].is_string() && graded["techniques"].is_object());
    // The columns of the CLI's grade: ER, EP, ED, the step that set ER, and the bound.
    assert!(graded["pearl"].as_f64().unwrap() > 0.0 && graded["diamond"].as_f64().unwrap() > 0.0);
    assert!(graded["technique"].is_string(), "{graded}");
    assert!(graded.as_object().unwrap().contains_key("bound"));
}

/// The bytes of a `.npy` array of `(n, 81)` `uint8` cells, 0 for empty.
fn npy_of(puzzles: &[String]) -> Vec<u8> {
    let cells: Vec<u8> = puzzles
        .iter()
        .flat_map(|p| p.bytes().map(|b| if b == b'.' { 0 } else { b - b'0' }))
        .collect();
    common::npy("|u1", &format!("({}, 81)", puzzles.len()), &cells)
}

/// Dataset bodies are read as the command line reads files: gzip, zstd and xz told by
/// their first bytes or said by `Content-Encoding`, NumPy arrays and Parquet files,
/// each giving the CLI's rows of the same input.
#[test]
fn encoded_and_columnar_bodies_give_the_clis_rows() {
    use std::io::Write as _;
    let server = Server::start(&[]);
    let classify = |body: &[u8], encoding: Option<&str>| {
        let mut request =
            ureq::post(&server.url("/v1/classify")).set("content-type", "application/octet-stream");
        if let Some(e) = encoding {
            request = request.set("content-encoding", e);
        }
        answer(request.send_bytes(body))
    };
    let path = common::data("graded.csv");
    let cli = common::stdout_of(&["classify", path.to_str().unwrap(), "--threads", "2"]);
    let plain = std::fs::read(&path).unwrap();
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&plain).unwrap();
        e.finish().unwrap()
    };
    let zstd = zstd::stream::encode_all(&plain[..], 3).unwrap();
    let xz = {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(&plain).unwrap();
        e.finish().unwrap()
    };
    for (name, body, encoding) in [
        ("gzip", &gzip, None),
        ("gzip said", &gzip, Some("gzip")),
        ("zstd", &zstd, None),
        ("zstd said", &zstd, Some("zstd")),
        ("xz", &xz, None),
        ("identity", &plain, Some("identity")),
    ] {
        let served = classify(body, encoding);
        assert_eq!(served.status, 200, "{name}: {}", served.body);
        assert!(
            served.body.as_bytes() == cli,
            "{name}: rows differ from the CLI's"
        );
    }
    // A body said to be gzip that is not: 400, one line. (Small bodies: the server
    // answers an error before reading the rest, which a client still sending a large
    // body sees as a closed connection.)
    let small: Vec<u8> = plain
        .split_inclusive(|&b| b == b'\n')
        .take(3)
        .flatten()
        .copied()
        .collect();
    let wrong = classify(&small, Some("gzip"));
    assert_eq!(wrong.status, 400, "{}", wrong.body);
    assert!(wrong.json()["error"].is_string());
    // An encoding the server does not decode: 415.
    let br = classify(&small, Some("br"));
    assert_eq!(br.status, 415, "{}", br.body);
    assert!(
        br.json()["error"].as_str().unwrap().contains("br"),
        "{}",
        br.body
    );
    // A NumPy array: the rows of the same puzzles as lines.
    let puzzles: Vec<String> = common::load("minimal.txt")
        .iter()
        .take(300)
        .map(|r| r.puzzle.to_string())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let npy = dir.path().join("p.npy");
    std::fs::write(&npy, npy_of(&puzzles)).unwrap();
    let cli = common::stdout_of(&["classify", npy.to_str().unwrap(), "--threads", "2"]);
    let served = classify(&std::fs::read(&npy).unwrap(), None);
    assert_eq!(served.status, 200, "{}", served.body);
    assert!(
        served.body.as_bytes() == cli,
        "npy: rows differ from the CLI's"
    );
    // Parquet: held whole, read as the file is.
    let parquet = common::data("parquet/graded-first2000.snappy.parquet");
    let cli = common::stdout_of(&["classify", parquet.to_str().unwrap(), "--threads", "2"]);
    let served = classify(&std::fs::read(&parquet).unwrap(), None);
    assert_eq!(served.status, 200, "{}", served.body);
    assert!(
        served.body.as_bytes() == cli,
        "parquet: rows differ from the CLI's"
    );
}

#[test]
fn a_dataset_body_gives_the_clis_rows() {
    let server = Server::start(&[]);
    for (file, content_type) in [
        ("graded.csv", "text/csv"),
        ("cases.tsv", "text/plain"),
        ("hard.txt", "text/plain; charset=utf-8"),
    ] {
        let path = common::data(file);
        let cli = common::stdout_of(&["classify", path.to_str().unwrap(), "--threads", "2"]);
        let body = std::fs::read(&path).unwrap();
        let served = answer(
            ureq::post(&server.url("/v1/classify"))
                .set("content-type", content_type)
                .send_bytes(&body),
        );
        assert_eq!(served.status, 200, "{file}: {}", served.body);
        assert_eq!(served.content_type, "text/csv");
        assert!(
            served.body.as_bytes() == cli,
            "{file}: rows differ from the CLI's"
        );
    }
    // NDJSON when asked for.
    let body = std::fs::read(common::data("extreme.txt")).unwrap();
    let ndjson = answer(
        ureq::post(&server.url("/v1/solve"))
            .set("content-type", "text/plain")
            .set("accept", "application/x-ndjson")
            .send_bytes(&body),
    );
    assert_eq!(ndjson.content_type, "application/x-ndjson");
    let rows: Vec<Value> = ndjson
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 100);
    assert!(rows.iter().all(|r| r["status"] == "solved"));
    // A dataset the CLI would refuse is refused the same way, before any row.
    let bad = answer(
        ureq::post(&server.url("/v1/classify?format=csv&column=nope"))
            .set("content-type", "text/csv")
            .send_string("quizzes,solutions\n1,2\n"),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().contains("nope"));
    // A delimiter by query, as --delimiter: a pipe-separated body gives the CSV's rows.
    let csv = std::fs::read(common::data("graded.csv")).unwrap();
    let piped: Vec<u8> = csv
        .iter()
        .map(|&b| if b == b',' { b'|' } else { b })
        .collect();
    let served = answer(
        ureq::post(&server.url("/v1/classify?delimiter=%7C"))
            .set("content-type", "text/plain")
            .send_bytes(&piped),
    );
    assert_eq!(served.status, 200, "{}", served.body);
    let cli = common::stdout_of(&[
        "classify",
        common::data("graded.csv").to_str().unwrap(),
        "-q",
    ]);
    assert!(served.body.as_bytes() == cli, "piped rows differ");
    // (A small body: the answer comes before the body is read.)
    let bad = answer(
        ureq::post(&server.url("/v1/classify?delimiter=ab"))
            .set("content-type", "text/plain")
            .send_bytes(&piped[..200]),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().contains("delimiter"));
}

/// Variant boards in dataset bodies: sized by their length, or by `?size=&variant=&symbols=`
/// as the CLI's options; the CLI's rows byte for byte; bad rules are a 400.
#[test]
fn dataset_bodies_take_variant_boards() {
    let server = Server::start(&[]);
    let path = common::data("variants/wpf-gp-diagonal.txt");
    let cli = common::stdout_of(&[
        "grade",
        path.to_str().unwrap(),
        "-q",
        "--variant",
        "diagonal",
    ]);
    let graded = answer(
        ureq::post(&server.url("/v1/grade?variant=diagonal"))
            .set("content-type", "text/plain")
            .send_bytes(&std::fs::read(&path).unwrap()),
    );
    assert_eq!(graded.status, 200, "{}", graded.body);
    assert!(
        graded.body.as_bytes() == cli,
        "grade rows differ from the CLI's"
    );
    for (file, query, args) in [
        ("variants/solo-16x16.txt", "", &[][..]),
        ("variants/solo-25x25.txt", "?size=25", &["--size", "25"][..]),
        (
            "variants/solo-diagonal-9x9.txt",
            "?variant=diagonal",
            &["--variant", "diagonal"][..],
        ),
        (
            "variants/solo-4x4.txt",
            "?symbols=ABCD&format=lines",
            &["--symbols", "1234"][..],
        ),
    ] {
        let path = common::data(file);
        let cli = common::stdout_of(&[&["solve", path.to_str().unwrap(), "-q"], args].concat());
        let body = std::fs::read(&path).unwrap();
        let served = answer(
            ureq::post(&server.url(&format!("/v1/solve{query}")))
                .set("content-type", "text/plain")
                .send_bytes(&body),
        );
        assert_eq!(served.status, 200, "{file}: {}", served.body);
        if query.contains("ABCD") {
            // Digits are not symbols of ABCD: every row invalid, naming the byte.
            assert!(served.body.lines().skip(1).all(|l| l.contains(",invalid,")));
            assert!(served.body.contains("is not a symbol of 4x4"));
        } else {
            assert!(
                served.body.as_bytes() == cli,
                "{file}: rows differ from the CLI's"
            );
        }
    }
    for (query, fragment) in [
        ("/v1/classify?variant=hexagonal", "hexagonal"),
        ("/v1/classify?size=12", "size 12"),
        ("/v1/classify?size=16&variant=windoku", "windoku"),
        ("/v1/classify?size=4&symbols=123", "symbols"),
        // Checked by the library's one settings check: the command line's words.
        (
            "/v1/classify?delimiter=ab",
            "delimiter \"ab\": give one character, or `tab`",
        ),
        (
            "/v1/classify?format=xlsx",
            "format \"xlsx\": expected auto, lines, csv, blocks",
        ),
    ] {
        let bad = post(&server.url(query), "text/plain", "1234\n");
        assert_eq!(bad.status, 400, "{query}: {}", bad.body);
        let error = bad.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(fragment), "{query}: {error}");
    }
}

/// JSON requests take variant boards as the command line does (`size`, `variant`,
/// `symbols`, or boards by length): the same fields as the CLI's NDJSON rows, but for
/// `line`.
#[test]
fn json_requests_take_variant_boards() {
    let server = Server::start(&[]);
    for (endpoint, file, rules, args) in [
        ("solve", "variants/solo-16x16.txt", json!({}), &[][..]),
        (
            "classify",
            "variants/solo-diagonal-9x9.txt",
            json!({"variant": "diagonal"}),
            &["--variant", "diagonal"][..],
        ),
        (
            "grade",
            "variants/wpf-gp-diagonal.txt",
            json!({"variant": "diagonal"}),
            &["--variant", "diagonal"][..],
        ),
        (
            "classify",
            "variants/solo-4x4.txt",
            json!({"size": 4}),
            &["--size", "4"][..],
        ),
    ] {
        let path = common::data(file);
        let cli = common::stdout_of(
            &[
                &[endpoint, path.to_str().unwrap(), "-q"][..],
                args,
                &["--output-format", "ndjson"],
            ]
            .concat(),
        );
        let want: Vec<Value> = String::from_utf8(cli)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        // The puzzles as the CLI read them (some files give a solution beside each).
        let boards: Vec<&Value> = want.iter().map(|row| &row["puzzle"]).collect();
        let mut body = rules.clone();
        body["puzzles"] = json!(boards);
        let served = post(
            &server.url(&format!("/v1/{endpoint}")),
            "application/json",
            &body.to_string(),
        );
        assert_eq!(served.status, 200, "{file}: {}", served.body);
        let results = served.json()["results"].as_array().unwrap().clone();
        assert_eq!(results.len(), want.len(), "{file}");
        for (got, want) in results.iter().zip(&want) {
            for key in ["puzzle", "solution", "status", "reason"] {
                assert_eq!(got[key], want[key], "{file}: {key}");
            }
            if endpoint == "grade" {
                assert_eq!(got["rating"], want["rating"], "{file}");
            }
        }
    }
    let bad = post(
        &server.url("/v1/classify"),
        "application/json",
        &json!({"puzzle": "1234", "variant": "hexagonal"}).to_string(),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(bad.json()["error"].as_str().unwrap().contains("hexagonal"));
    // Rules a job does not take give that record a reason, as on the command line.
    let canon = post(
        &server.url("/v1/canon"),
        "application/json",
        &json!({"puzzle": "1...".repeat(4), "size": 4}).to_string(),
    )
    .json();
    assert_eq!(canon["status"], "invalid");
    assert!(canon["reason"].as_str().unwrap().contains("boards"));
}

#[test]
fn validate_names_every_clash() {
    let server = Server::start(&[]);
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let ok = post(
        &server.url("/v1/validate"),
        "application/json",
        &serde_json::json!({ "puzzle": solved }).to_string(),
    )
    .json();
    assert_eq!(ok["complete"], true);
    assert_eq!(ok["correct"], true);
    assert_eq!(ok["clashes"].as_array().unwrap().len(), 0);
    let mut broken = solved.as_bytes().to_vec();
    broken[1] = b'5';
    broken[40] = b'.';
    let answer = post(
        &server.url("/v1/validate"),
        "text/plain",
        std::str::from_utf8(&broken).unwrap(),
    )
    .json();
    assert_eq!(answer["complete"], false);
    assert_eq!(answer["correct"], false);
    assert_eq!(answer["filled"], 80);
    let first = &answer["clashes"][0];
    assert_eq!(first["unit"], "row");
    assert_eq!(first["number"], 1);
    assert_eq!(first["digit"], 5);
    assert_eq!(first["cells"], serde_json::json!(["r1c1", "r1c2"]));
    let bad = post(&server.url("/v1/validate"), "text/plain", "12345");
    assert_eq!(bad.status, 400);
}

#[test]
fn generate_makes_unique_puzzles_reproducibly() {
    let server = Server::start(&[]);
    let url = server.url("/v1/generate?count=3&givens=28&seed=11&symmetry=rot180");
    let first = get(&url);
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.seed.as_deref(), Some("11"));
    let rows = first.json()["results"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 3);
    for row in &rows {
        let puzzle = row["puzzle"].as_str().unwrap();
        let (status, solution) = expected(puzzle);
        assert_eq!(status, "unique");
        assert_eq!(row["solution"].as_str(), solution.as_deref());
        assert!(row["givens"].as_u64().unwrap() <= 28);
        assert!(row["difficulty"].is_string());
    }
    assert_eq!(get(&url).body, first.body, "same seed, same puzzles");
    let random = get(&server.url("/v1/generate"));
    assert_eq!(random.json()["results"].as_array().unwrap().len(), 1);
    assert!(random.seed.is_some());
}

#[test]
fn bad_requests_get_the_right_status_and_one_line() {
    let server = Server::start(&["--max-body", "4096"]);
    let json = "application/json";
    let cases: Vec<(Answer, u16)> = vec![
        (post(&server.url("/v1/classify"), json, "{\"puzzle\":"), 400),
        (
            post(&server.url("/v1/classify"), json, "{\"puzzle\":5}"),
            400,
        ),
        (
            post(&server.url("/v1/classify"), json, "{\"puzzles\":[1]}"),
            400,
        ),
        (post(&server.url("/v1/classify"), json, "{}"), 400),
        (
            post(
                &server.url("/v1/classify"),
                json,
                "{\"puzzle\":\"1\",\"puzzles\":[]}",
            ),
            400,
        ),
        (
            post(&server.url("/v1/classify"), json, "{\"grid\":\"1\"}"),
            400,
        ),
        (post(&server.url("/v1/classify"), "image/png", "x"), 415),
        (get(&server.url("/v1/generate?count=0")), 400),
        (get(&server.url("/v1/generate?count=1001")), 400),
        (get(&server.url("/v1/generate?count=ten")), 400),
        (get(&server.url("/v1/generate?difficulty=impossible")), 400),
        (get(&server.url("/v1/generate?givens=5")), 400),
        (get(&server.url("/v1/generate?colour=red")), 400),
        (get(&server.url("/v1/classify?format=xml")), 405),
        (
            post(&server.url("/v1/classify?format=xml"), "text/plain", "1"),
            400,
        ),
        (
            post(&server.url("/v1/classify"), json, &"x".repeat(5000)),
            413,
        ),
        (
            post(&server.url("/v1/classify"), "text/plain", &"1".repeat(5000)),
            413,
        ),
    ];
    for (i, (answer, status)) in cases.iter().enumerate() {
        assert_eq!(answer.status, *status, "case {i}: {}", answer.body);
        // Every error is one line of `{"error"}` JSON, those of the layers included.
        let message = answer.json()["error"].as_str().unwrap().to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    // A chunked body (no length given) over the limit is refused too.
    let chunked = answer(
        ureq::post(&server.url("/v1/classify"))
            .set("content-type", "application/json")
            .send(std::io::Cursor::new(vec![b' '; 10_000])),
    );
    assert_eq!(chunked.status, 413, "{}", chunked.body);
    assert!(chunked.json()["error"].is_string(), "{}", chunked.body);
    assert_eq!(get(&server.url("/healthz")).status, 200, "still up");
}

/// Requests the HTTP library refuses before they reach the service (two lengths, a
/// request line over 64 KiB, too many or too large headers, no HTTP at all) get their
/// status with the same one-line `{"error"}` JSON as every other refusal, and the
/// server goes on.
#[test]
fn requests_refused_by_the_http_library_get_a_json_error() {
    let server = Server::start(&[]);
    let many: String = (0..200).map(|i| format!("X-{i}: v\r\n")).collect();
    let large: String = (0..1000)
        .map(|i| format!("X-{i}: {}\r\n", "v".repeat(500)))
        .collect();
    let cases = [
        (
            "POST /v1/classify HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc".to_string(),
            400,
        ),
        (
            format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000)),
            414,
        ),
        (format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n"), 431),
        (format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{large}\r\n"), 431),
        ("GARBAGE\r\n\r\n".to_string(), 400),
    ];
    for (request, status) in cases {
        let mut stream = TcpStream::connect(&server.addr).unwrap();
        // The server may answer and close before it has read all of a large request.
        let _ = stream.write_all(request.as_bytes());
        let answer = read_response(&mut stream);
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status} ")),
            "{status}: {head}"
        );
        assert!(head.contains("content-type: application/json"), "{head}");
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        let message = json["error"].as_str().unwrap();
        assert!(!message.is_empty() && !message.contains('\n'), "{message}");
    }
    assert_eq!(get(&server.url("/healthz")).status, 200, "still up");
}

/// Opens a connection and sends a request head promising `length` body bytes.
fn start_request(server: &Server, path: &str, content_type: &str, length: usize) -> TcpStream {
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {content_type}\r\nContent-Length: {length}\r\n\r\n"
    )
    .unwrap();
    stream
}

/// Reads a whole response (the server closes or the body is complete) as text.
fn read_response(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => text.extend_from_slice(&buf[..n]),
        }
        let s = String::from_utf8_lossy(&text);
        if let Some((head, body)) = s.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-length: ")
                    .map(|v| v.trim().parse::<usize>().unwrap())
            });
            if length.is_some_and(|n| body.len() >= n) {
                break;
            }
        }
    }
    String::from_utf8_lossy(&text).into_owned()
}

#[test]
fn slow_clients_time_out_and_overload_gets_503() {
    let server = Server::start(&["--timeout", "1", "--max-inflight", "1"]);
    // Holds the only place: a dataset whose body never finishes.
    let mut hold = start_request(&server, "/v1/classify", "text/plain", 1_000_000);
    let puzzle = puzzles("extreme.txt")[0].clone();
    writeln!(hold, "{puzzle}").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let busy = post(
        &server.url("/v1/classify"),
        "application/json",
        &serde_json::json!({ "puzzle": puzzle }).to_string(),
    );
    assert_eq!(busy.status, 503, "{}", busy.body);
    assert_eq!(busy.retry_after.as_deref(), Some("1"));
    // The held request gives up after a second without data, freeing its place.
    let held = read_response(&mut hold);
    assert!(held.starts_with("HTTP/1.1 408"), "{held}");
    assert!(held.contains("{\"error\":"), "{held}");
    drop(hold);
    std::thread::sleep(Duration::from_millis(200));
    let free = post(
        &server.url("/v1/classify"),
        "application/json",
        &serde_json::json!({ "puzzle": puzzle }).to_string(),
    );
    assert_eq!(free.status, 200, "{}", free.body);

    // A JSON body that stops halfway: 408 after the timeout.
    let mut slow = start_request(&server, "/v1/classify", "application/json", 200);
    slow.write_all(b"{\"puzzle\":").unwrap();
    let started = Instant::now();
    let response = read_response(&mut slow);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(get(&server.url("/healthz")).status, 200, "still up");
}

#[test]
fn many_clients_at_once_all_get_correct_answers() {
    let server = Server::start(&["--max-inflight", "64"]);
    let all = puzzles("hash-rating.txt");
    let url = server.url("/v1/classify");
    let clients: Vec<_> = (0..64)
        .map(|client| {
            let (url, all) = (url.clone(), all.clone());
            std::thread::spawn(move || {
                let agent = ureq::AgentBuilder::new().build();
                let mut errors = Vec::new();
                for k in 0..50 {
                    let puzzle = &all[(client * 50 + k) % all.len()];
                    let body = serde_json::json!({ "puzzle": puzzle }).to_string();
                    let got = answer(
                        agent
                            .post(&url)
                            .set("content-type", "application/json")
                            .send_string(&body),
                    );
                    let (status, solution) = expected(puzzle);
                    let json = got.json();
                    if got.status != 200
                        || json["status"] != status
                        || json["solution"].as_str().map(String::from) != solution
                    {
                        errors.push(format!("{puzzle}: {} {}", got.status, got.body));
                    }
                }
                errors
            })
        })
        .collect();
    let errors: Vec<String> = clients
        .into_iter()
        .flat_map(|c| c.join().unwrap())
        .collect();
    assert!(
        errors.is_empty(),
        "{} wrong answers: {:?}",
        errors.len(),
        &errors[..errors.len().min(3)]
    );
    let metrics = get(&server.url("/metrics")).body;
    let line = metrics
        .lines()
        .find(|l| {
            l.starts_with("sudoku_http_requests_total")
                && l.contains("endpoint=\"/v1/classify\"")
                && l.contains("status=\"200\"")
        })
        .unwrap_or_else(|| panic!("{metrics}"));
    assert!(line.ends_with(" 3200"), "{line}");
    let unique = metrics
        .lines()
        .find(|l| l.starts_with("sudoku_puzzles_total{status=\"unique\"}"))
        .unwrap();
    assert!(unique.ends_with(" 3200"), "{unique}");
    assert!(
        metrics.contains("sudoku_http_request_duration_seconds_bucket{endpoint=\"/v1/classify\"")
    );
}

/// Which of curl's output files holds what.
fn curl(url: &str, body: &std::path::Path, out: &std::path::Path) -> std::process::ExitStatus {
    Command::new("curl")
        .args([
            "-sS",
            "--fail",
            "-X",
            "POST",
            "-H",
            "content-type: text/plain",
        ])
        .arg("--data-binary")
        .arg(format!("@{}", body.display()))
        .arg("-o")
        .arg(out)
        .arg(url)
        .status()
        .expect("curl is installed (scripts/test.sh installs it)")
}

#[test]
fn a_50_mb_dataset_streams_through_in_bounded_memory() {
    let server = Server::start(&["--max-body", "100000000"]);
    let dir = tempfile::tempdir().unwrap();
    let body = dir.path().join("big.txt");
    let source = std::fs::read(common::data("quizzes.csv")).unwrap();
    let lines: Vec<&[u8]> = source
        .split(|&b| b == b'\n')
        .skip(1)
        .filter(|l| l.len() > 81)
        .map(|l| &l[..81])
        .collect();
    let mut text = Vec::with_capacity(52_000_000);
    let mut k = 0;
    while text.len() < 50_000_000 {
        text.extend_from_slice(lines[k % lines.len()]);
        text.push(b'\n');
        k += 1;
    }
    std::fs::write(&body, &text).unwrap();
    let before = server.peak_rss_kib();
    let out = dir.path().join("rows.csv");
    assert!(curl(&server.url("/v1/classify"), &body, &out).success());
    let peak = server.peak_rss_kib();
    let rows = std::fs::read(&out).unwrap();
    let cli = common::stdout_of(&["classify", body.to_str().unwrap(), "--threads", "2"]);
    assert!(rows == cli, "streamed rows differ from the CLI's");
    assert_eq!(rows.iter().filter(|&&b| b == b'\n').count(), k + 1);
    // Bounded: far below the body (50 MB) or the rows (over 100 MB).
    eprintln!("server peak RSS {before} KiB before, {peak} KiB after");
    assert!(
        peak - before.min(peak) < 40_000,
        "peak RSS grew by {} KiB",
        peak - before
    );
}

#[test]
fn sigterm_lets_requests_in_flight_finish_then_exits_0() {
    let mut server = Server::start(&[]);
    let puzzle = puzzles("extreme.txt")[1].clone();
    let body = serde_json::json!({ "puzzle": puzzle }).to_string();
    let mut in_flight = start_request(&server, "/v1/classify", "application/json", body.len());
    in_flight.write_all(&body.as_bytes()[..10]).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    server.terminate();
    std::thread::sleep(Duration::from_millis(300));
    // New connections are refused while the old one is finished.
    assert!(TcpStream::connect(&server.addr).is_err());
    in_flight.write_all(&body.as_bytes()[10..]).unwrap();
    let response = read_response(&mut in_flight);
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"status\":\"unique\""), "{response}");
    drop(in_flight);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the server did not exit");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn canon_answers_json_and_datasets_as_the_cli_does() {
    let server = Server::start(&[]);
    let path = common::data("extreme.txt");
    let cli = common::stdout_of(&["canon", path.to_str().unwrap(), "-q"]);
    let served = answer(
        ureq::post(&server.url("/v1/canon"))
            .set("content-type", "text/plain")
            .send_bytes(&std::fs::read(&path).unwrap()),
    );
    assert_eq!(served.status, 200, "{}", served.body);
    assert!(
        served.body.as_bytes() == cli,
        "canon rows differ from the CLI's"
    );
    // JSON: the CLI's canonical column, and nothing for a malformed puzzle.
    let forms: Vec<String> = String::from_utf8(cli)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(6).unwrap().to_string())
        .collect();
    let mut sent = puzzles("extreme.txt");
    sent.truncate(10);
    sent.push("12x".into());
    let body = serde_json::json!({ "puzzles": sent }).to_string();
    let canon = post(&server.url("/v1/canon"), "application/json", &body);
    assert_eq!(canon.status, 200, "{}", canon.body);
    let results = canon.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 11);
    for (row, form) in results[..10].iter().zip(&forms) {
        assert_eq!(row["canonical"].as_str(), Some(form.as_str()), "{row}");
        assert_eq!(row["automorphisms"], 1);
    }
    assert_eq!(results[10]["status"], "invalid");
    assert!(results[10]["canonical"].is_null());
}

/// True when the server closes `stream` within `within` (a read ends at end of file
/// rather than at the read timeout); what it sent before goes into `seen`.
fn closed_within(stream: &mut TcpStream, within: Duration, seen: &mut Vec<u8>) -> bool {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[test]
fn silent_half_sent_and_idle_connections_close_after_the_timeout() {
    let server = Server::start(&["--timeout", "1"]);
    let mut silent = TcpStream::connect(&server.addr).unwrap();
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHo").unwrap();
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    for (name, stream) in [
        ("silent", &mut silent),
        ("half", &mut half),
        ("idle", &mut idle),
    ] {
        let mut seen = Vec::new();
        assert!(
            closed_within(stream, Duration::from_secs(10), &mut seen),
            "{name}: still open"
        );
        if name == "idle" {
            let seen = String::from_utf8_lossy(&seen);
            assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
        }
    }
    assert_eq!(get(&server.url("/healthz")).status, 200);
}

#[test]
fn connections_over_the_cap_get_503_and_the_server_stays_reachable() {
    let server = Server::start(&["--timeout", "2", "--max-connections", "8"]);
    let held: Vec<TcpStream> = (0..8)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let mut over = TcpStream::connect(&server.addr).unwrap();
    let refused = read_response(&mut over);
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(
        refused.to_ascii_lowercase().contains("retry-after: 1"),
        "{refused}"
    );
    assert!(refused.contains("{\"error\":"), "{refused}");
    // The held ones time out, and their places come back.
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    while get(&server.url("/healthz")).status != 200 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_trickling_body_loses_its_place_after_the_timeout() {
    let server = Server::start(&["--timeout", "2", "--max-inflight", "1"]);
    let mut trickle = TcpStream::connect(&server.addr).unwrap();
    trickle
        .write_all(
            b"POST /v1/classify HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n\
              Transfer-Encoding: chunked\r\n\r\n",
        )
        .unwrap();
    // One byte every 300 ms keeps the body from ever going 2 s without data.
    let mut writer = trickle.try_clone().unwrap();
    let trickler = std::thread::spawn(move || {
        for _ in 0..40 {
            if writer.write_all(b"1\r\n.\r\n").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    });
    let started = Instant::now();
    let answered = read_response(&mut trickle);
    assert!(answered.starts_with("HTTP/1.1 408"), "{answered}");
    assert!(started.elapsed() < Duration::from_secs(10));
    // Its place is free while it would still be trickling.
    let puzzle = puzzles("extreme.txt")[0].clone();
    let body = serde_json::json!({ "puzzle": puzzle }).to_string();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let got = post(&server.url("/v1/classify"), "application/json", &body);
        if got.status == 200 {
            break;
        }
        assert_eq!(got.status, 503, "{}", got.body);
        assert!(Instant::now() < deadline, "the trickler kept its place");
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(trickle);
    trickler.join().unwrap();
}

#[test]
fn a_client_that_sends_without_reading_is_cut_off() {
    let server = Server::start(&["--timeout", "1", "--max-body", "100000000"]);
    let source = std::fs::read(common::data("quizzes.csv")).unwrap();
    let mut body = Vec::new();
    while body.len() < 30_000_000 {
        body.extend_from_slice(&source);
    }
    let mut stream = start_request(&server, "/v1/classify", "text/csv", body.len());
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let started = Instant::now();
    let sent = stream.write_all(&body);
    assert!(
        sent.is_err(),
        "30 MB went in while 30 MB of rows waited unread"
    );
    assert!(started.elapsed() < Duration::from_secs(25));
    assert_eq!(get(&server.url("/healthz")).status, 200);
}

#[test]
fn work_stops_when_its_request_times_out() {
    let server = Server::start(&["--timeout", "1", "--max-inflight", "1"]);
    // 40 boards of about a second each: half a minute of work on two threads.
    let mut boards = common::hard_boards();
    boards.extend(common::hard_boards());
    let body = boards.join("\n") + "\n";
    let timed_out = post(&server.url("/v1/classify"), "text/plain", &body);
    assert_eq!(timed_out.status, 408, "{}", timed_out.body);
    assert!(timed_out.json()["error"].is_string());
    // The place comes back once the records being worked on end (each within its
    // budget), long before the rest of the work would have.
    wait_for_place(&server, "/v1/classify", Duration::from_secs(12));
}

/// Posts one puzzle to `path` until it is answered (503 meanwhile: the one place is
/// taken), failing once `within` has passed: the timed-out work went on.
fn wait_for_place(server: &Server, path: &str, within: Duration) {
    let json = serde_json::json!({ "puzzle": puzzles("extreme.txt")[0] }).to_string();
    let started = Instant::now();
    loop {
        let got = post(&server.url(path), "application/json", &json);
        if got.status == 200 {
            break;
        }
        assert_eq!(got.status, 503, "{}", got.body);
        assert!(started.elapsed() < within, "the timed-out work went on");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_rating_stops_within_its_record_when_its_request_times_out() {
    // Lines 11 and 34 of forum-hardest-1106 need level 4: seconds of rating each.
    let Some(path) = common::public("forum-hardest-1106.txt") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let body = [10, 33]
        .repeat(4)
        .iter()
        .map(|&i| &lines[i][..81])
        .collect::<Vec<_>>();
    let body = body.join("\n") + "\n";
    let server = Server::start(&["--timeout", "1", "--max-inflight", "1"]);
    let timed_out = post(&server.url("/v1/grade"), "text/plain", &body);
    assert_eq!(timed_out.status, 408, "{}", timed_out.body);
    // The two ratings at work stop within their records: the place comes back at
    // once, not when they would have ended.
    wait_for_place(&server, "/v1/grade", Duration::from_secs(2));
}

#[test]
fn sigterm_exits_within_the_drain_timeout_whatever_clients_do() {
    let mut server = Server::start(&["--timeout", "30", "--drain-timeout", "1"]);
    // A head that never ends, and a dataset of boards that would take half a minute.
    let mut half = TcpStream::connect(&server.addr).unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHo").unwrap();
    let mut boards = common::hard_boards();
    boards.extend(common::hard_boards());
    let body = boards.join("\n") + "\n";
    let mut busy = start_request(&server, "/v1/classify", "text/plain", body.len());
    busy.write_all(body.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    server.terminate();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_body_without_a_content_type_is_refused() {
    let server = Server::start(&[]);
    let puzzle = puzzles("extreme.txt")[0].clone();
    let mut stream = TcpStream::connect(&server.addr).unwrap();
    write!(
        stream,
        "POST /v1/classify HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{puzzle}",
        puzzle.len()
    )
    .unwrap();
    let response = read_response(&mut stream);
    assert!(response.starts_with("HTTP/1.1 415"), "{response}");
    assert!(response.contains("no Content-Type"), "{response}");
}

#[test]
fn json_bodies_have_their_own_limit() {
    let server = Server::start(&["--max-json", "10000"]);
    let sent: Vec<String> = puzzles("hard.txt")[..200].to_vec();
    let body = serde_json::json!({ "puzzles": sent }).to_string();
    let refused = post(&server.url("/v1/classify"), "application/json", &body);
    assert_eq!(refused.status, 413, "{}", refused.body);
    assert!(refused.body.contains("10000 bytes"), "{}", refused.body);
    // The same puzzles as a dataset are fine, and a small JSON list too.
    let lines = sent.join("\n") + "\n";
    assert_eq!(
        post(&server.url("/v1/classify"), "text/plain", &lines).status,
        200
    );
    let small = serde_json::json!({ "puzzles": &sent[..50] }).to_string();
    let got = post(&server.url("/v1/classify"), "application/json", &small);
    assert_eq!(got.status, 200, "{}", got.body);
    let results = got.json()["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), 50);
    for (i, row) in results.iter().enumerate() {
        assert_eq!(row["line"], i as u64 + 1);
        assert_eq!(row["status"], "unique");
    }
}

/// No request starves another: while two large requests keep every core of the main
/// pool busy (1,000 extreme puzzles to make, and a JSON grade of the bundled hard set),
/// one-puzzle requests take the quick lane and answer at once. A bound of a second
/// (against the tens of seconds the large requests run) leaves room for a loaded
/// machine; the point is that they do not wait for the large ones.
#[test]
fn small_requests_answer_while_large_ones_run() {
    let server = Server::start(&["--timeout", "20", "--max-inflight", "8"]);
    let generate_url = server.url("/v1/generate?count=1000&difficulty=extreme&seed=3");
    let hard = puzzles("hard.txt");
    let body = serde_json::json!({ "puzzles": hard }).to_string();
    let grade_url = server.url("/v1/grade");
    let heavy = [
        std::thread::spawn(move || get(&generate_url).status),
        std::thread::spawn(move || post(&grade_url, "application/json", &body).status),
    ];
    std::thread::sleep(Duration::from_millis(500));
    let one = r#"{"puzzle": "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3"}"#;
    for path in ["/v1/classify", "/v1/solve", "/v1/canon"] {
        let started = Instant::now();
        let answer = post(&server.url(path), "application/json", one);
        let took = started.elapsed();
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
        assert!(took < Duration::from_secs(1), "{path} took {took:?}");
    }
    let started = Instant::now();
    let answer = get(&server.url("/v1/generate?count=1&seed=5"));
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(!heavy[0].is_finished(), "the large generate ran throughout");
    drop(server);
    for h in heavy {
        let _ = h.join();
    }
}

/// A `generate` no record of which can be made fails fast with 400, naming what cannot
/// be made, instead of making every other record first.
#[test]
fn impossible_generate_fails_fast_with_400() {
    let server = Server::start(&["--timeout", "60"]);
    let started = Instant::now();
    let answer = get(&server.url("/v1/generate?count=1000&difficulty=extreme&givens=20&seed=1"));
    assert_eq!(answer.status, 400, "{}", answer.body);
    assert!(answer.body.contains("record"), "{}", answer.body);
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

/// `POST /v1/audit` gives the command line's audit of the same file (plain or gzip,
/// with `minimality` and `grade`), the page for `Accept: text/html`, and 400s for bad
/// queries and bodies.
#[test]
fn audit_gives_the_clis_report() {
    use std::io::Write as _;
    let server = Server::start(&[]);
    let path = common::data("easy-50.txt");
    let cli: Value = serde_json::from_slice(&common::stdout_of(&[
        "audit",
        path.to_str().unwrap(),
        "-q",
        "--json",
        "-",
        "--minimality",
        "--grade",
    ]))
    .unwrap();
    let plain = std::fs::read(&path).unwrap();
    let gzip = {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&plain).unwrap();
        e.finish().unwrap()
    };
    let send = |query: &str, body: &[u8], accept: &str| {
        answer(
            ureq::post(&server.url(&format!("/v1/audit{query}")))
                .set("content-type", "text/plain")
                .set("accept", accept)
                .send_bytes(body),
        )
    };
    for body in [&plain, &gzip] {
        let served = send("?minimality=true&grade=true", body, "application/json");
        assert_eq!(served.status, 200, "{}", served.body);
        let got = served.json();
        for section in ["verdict", "validity", "duplicates", "shape"] {
            assert_eq!(got[section], cli[section], "{section}");
        }
        let input = &got["provenance"]["inputs"][0];
        assert_eq!(input["bytes"], body.len());
        assert_eq!(input["records"], 50);
    }
    let page = send("", &plain, "text/html");
    assert_eq!(page.status, 200);
    assert!(
        page.content_type.starts_with("text/html"),
        "{}",
        page.content_type
    );
    assert!(page.body.contains("<svg") && page.body.contains("Duplicates"));
    for (query, body, fragment) in [
        ("?rating=hardest", &plain[..], "rating"),
        ("?delimiter=ab", &plain[..], "delimiter"),
        ("?color=red", &plain[..], "color"),
        ("", &gzip[..40], "gzip"),
    ] {
        let bad = send(query, body, "application/json");
        assert_eq!(bad.status, 400, "{query}: {}", bad.body);
        let error = bad.json()["error"].as_str().unwrap().to_string();
        assert!(error.contains(fragment), "{query}: {error}");
    }
}
