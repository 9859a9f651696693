//! What `audit` found about a dataset, as plain data (serialised as the JSON report),
//! with its two exporters: the summary for stderr and a self-contained HTML page (no
//! network: styles inline, charts as inline SVG with axes, labels and counts).
//!
//! The numbers are made by the dataset layer's `audit`; nothing here measures.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::reports::StatusCounts;

/// The commit the tool was built from (`git describe`; `unknown` outside a checkout).
pub const COMMIT: &str = env!("SUDOKU_BATCH_COMMIT");

/// Lines listed for each finding (the first ones, in input order).
pub const FIRST_LINES: usize = 10;

/// Everything `audit` says about one dataset.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct AuditReport {
    /// Sound, or what is wrong.
    pub verdict: Verdict,
    /// Enough to say later exactly how the numbers were made.
    pub provenance: Provenance,
    /// One solution per record?
    pub validity: Validity,
    /// Records repeated, as text or up to equivalence.
    pub duplicates: Duplicates,
    /// Records with an equivalent in each `--against` file.
    pub leakage: Vec<Leak>,
    /// Histograms of the records.
    pub shape: DataShape,
    /// Set on a report merged from shards' reports: what could not be merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<super::audit_merge::Merged>,
}

/// The verdict at the top of the page.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Verdict {
    /// True when every record is `unique`, none is repeated or leaked and every given
    /// solution is the puzzle's.
    pub sound: bool,
    /// One sentence per problem, with the first lines to look at.
    pub problems: Vec<String>,
}

/// How the report was made.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Provenance {
    /// `sudoku-batch` and its version.
    pub tool: String,
    /// The commit the tool was built from (`unknown` outside a git checkout).
    pub commit: String,
    /// The command line, word by word.
    pub command_line: Vec<String>,
    /// Every option that changes a result, by name.
    pub options: BTreeMap<String, String>,
    /// The input, then each `--against` file.
    pub inputs: Vec<InputFacts>,
    /// The rules ratings follow, when the records were graded.
    pub rating_rules: Option<String>,
    /// When the audit ran (UTC, ISO 8601).
    pub made_at: String,
    /// Seconds the audit took.
    pub seconds: f64,
}

/// One file read.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct InputFacts {
    /// As given on the command line.
    pub path: String,
    /// Its size in bytes, as stored.
    pub bytes: u64,
    /// SHA-256 of its bytes as stored (hex).
    pub sha256: String,
    /// How its records were read.
    pub layout: String,
    /// Records in it.
    pub records: u64,
}

/// Statuses, reasons and mismatches.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Validity {
    /// Records read.
    pub records: u64,
    /// Records per status.
    pub counts: StatusCounts,
    /// The first lines of each status other than `unique`.
    pub first_lines: BTreeMap<String, Vec<u64>>,
    /// Why records are `invalid`, grouped (numbers in a reason shown as `#`).
    pub invalid_reasons: Vec<Group>,
    /// Records whose given solution is not a solution of their puzzle.
    pub mismatches: u64,
    /// Their first lines.
    pub first_mismatches: Vec<u64>,
    /// Records that came with a solution.
    pub with_solution: u64,
}

/// Records that share something: how many, and the first lines.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Group {
    /// What they share.
    pub what: String,
    /// How many records.
    pub count: u64,
    /// The first lines.
    pub lines: Vec<u64>,
}

/// Repeated records.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Duplicates {
    /// Records whose cells are those of an earlier record.
    pub identical: u64,
    /// Their first lines, each with the earlier line it repeats.
    pub first_identical: Vec<(u64, u64)>,
    /// Classes of equivalent records (the same puzzle up to the 3,359,232 x 9! ways of
    /// relabelling digits and shuffling rows, columns, bands and stacks).
    pub classes: u64,
    /// Records beyond the first of their class: what `dedupe` drops.
    pub redundant: u64,
    /// `redundant` as a share of the records, in percent.
    pub redundant_percent: f64,
    /// The largest classes (over one record), largest first.
    pub largest: Vec<Group>,
}

/// Leakage into one other file.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Leak {
    /// The other file.
    pub against: String,
    /// Records of the input with an equivalent record there.
    pub records: u64,
    /// Classes of the input found there.
    pub classes: u64,
    /// The first leaked records: the input's line and the first equivalent line there.
    pub first: Vec<(u64, u64)>,
}

/// Histograms: value, then records.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct DataShape {
    /// Records by number of givens (well-formed records).
    pub givens: Vec<(u64, u64)>,
    /// Records by search effort: branches the solver took counting to two, in
    /// power-of-two buckets (`0`, `1`, `2-3`, `4-7`, ...).
    pub guesses: Vec<(String, u64)>,
    /// Records by number of automorphisms (transforms that map the puzzle to itself).
    pub automorphisms: Vec<(u64, u64)>,
    /// With `--grade`: unique records by Sukaku Explainer's ER, in tenths.
    pub ratings: Option<Vec<(u16, u64)>>,
    /// With `--grade`: unique records by level.
    pub levels: Option<Vec<(String, u64)>>,
    /// With `--grade`: ratings that are lower bounds (the rater's budget ran out).
    pub lower_bounds: u64,
    /// With `--minimality`: how many unique records are minimal.
    pub minimality: Option<Minimality>,
}

/// Unique records that are minimal (no given can go with the puzzle staying unique).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Minimality {
    /// Unique records checked (a solve per given each).
    pub checked: u64,
    /// Those that are minimal.
    pub minimal: u64,
    /// Those whose check spent its search budget (neither).
    pub undecided: u64,
    /// The first lines of records that are not minimal.
    pub first_not_minimal: Vec<u64>,
}

impl Minimality {
    /// Minimal records per hundred checked (0 when none were).
    pub fn percent(&self) -> f64 {
        if self.checked == 0 {
            0.0
        } else {
            100.0 * self.minimal as f64 / self.checked as f64
        }
    }
}

impl AuditReport {
    /// Works out the verdict from the numbers.
    pub fn judge(&mut self) {
        let mut problems = Vec::new();
        let lines = |lines: &[u64]| -> String {
            let shown: Vec<String> = lines.iter().take(5).map(u64::to_string).collect();
            format!(
                "line{} {}",
                if shown.len() == 1 { "" } else { "s" },
                shown.join(", ")
            )
        };
        let v = &self.validity;
        for (status, first) in &v.first_lines {
            let count = v
                .counts
                .iter()
                .find(|(s, _)| s.word() == status)
                .map_or(0, |c| c.1);
            if count > 0 {
                problems.push(format!(
                    "{count} {status} record{}: {}",
                    plural(count),
                    lines(first)
                ));
            }
        }
        if v.mismatches > 0 {
            problems.push(format!(
                "{} given solution{} not the puzzle's: {}",
                v.mismatches,
                if v.mismatches == 1 { " is" } else { "s are" },
                lines(&v.first_mismatches)
            ));
        }
        let d = &self.duplicates;
        if d.redundant > 0 {
            let first: Vec<u64> = d
                .largest
                .first()
                .map(|g| g.lines.clone())
                .unwrap_or_default();
            problems.push(format!(
                "{} redundant record{} ({:.2}%: {} identical, the rest equivalent); largest \
                 class: {}",
                d.redundant,
                plural(d.redundant),
                d.redundant_percent,
                d.identical,
                lines(&first)
            ));
        }
        for leak in &self.leakage {
            if leak.records > 0 {
                let first: Vec<u64> = leak.first.iter().map(|l| l.0).collect();
                problems.push(format!(
                    "{} record{} leaked into {}: {}",
                    leak.records,
                    plural(leak.records),
                    leak.against,
                    lines(&first)
                ));
            }
        }
        self.verdict = Verdict {
            sound: problems.is_empty(),
            problems,
        };
    }

    /// The summary for stderr.
    pub fn write_summary(&self, out: &mut dyn Write) -> io::Result<()> {
        let input = self
            .provenance
            .inputs
            .first()
            .map_or("", |i| i.path.as_str());
        let v = &self.validity;
        writeln!(
            out,
            "{input}: {} records, {} classes: {}",
            v.records,
            self.duplicates.classes,
            if self.verdict.sound {
                "sound"
            } else {
                "NOT sound"
            }
        )?;
        for problem in &self.verdict.problems {
            writeln!(out, "  {problem}")?;
        }
        let counts: Vec<String> = v
            .counts
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(s, n)| format!("{} {n}", s.word()))
            .collect();
        writeln!(out, "  {}", counts.join(", "))?;
        writeln!(out, "  {:.3} s wall", self.provenance.seconds)
    }

    /// The report as one self-contained HTML page.
    pub fn page(&self) -> String {
        let mut h = String::with_capacity(64 << 10);
        let input = self
            .provenance
            .inputs
            .first()
            .map_or("", |i| i.path.as_str());
        let _ = write!(
            h,
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>Audit of {}</title><style>{STYLE}</style></head><body><main>\
             <h1>Audit of <code>{}</code></h1>",
            escape(input),
            escape(input)
        );
        let (class, word) = if self.verdict.sound {
            ("sound", "Sound")
        } else {
            ("unsound", "Not sound")
        };
        let _ = write!(h, "<section class=\"verdict {class}\"><h2>{word}</h2>");
        if self.verdict.problems.is_empty() {
            let _ = write!(
                h,
                "<p>Every record is unique, none repeats another or leaks, every given \
                 solution is its puzzle's.</p>"
            );
        } else {
            h.push_str("<ul>");
            for p in &self.verdict.problems {
                let _ = write!(h, "<li>{}</li>", escape(p));
            }
            h.push_str("</ul>");
        }
        h.push_str("</section>");
        self.validity_section(&mut h);
        self.duplicates_section(&mut h);
        self.leakage_section(&mut h);
        self.shape_section(&mut h);
        self.provenance_section(&mut h);
        h.push_str("</main></body></html>\n");
        h
    }

    fn validity_section(&self, h: &mut String) {
        let v = &self.validity;
        let _ = write!(h, "<section><h2>Validity</h2><p>{} records", v.records);
        if v.with_solution > 0 {
            let _ = write!(
                h,
                ", {} with a given solution ({} not the puzzle's)",
                v.with_solution, v.mismatches
            );
        }
        h.push_str(".</p><table><tr><th>status</th><th>records</th><th>first lines</th></tr>");
        for (status, n) in v.counts.iter() {
            if n == 0 {
                continue;
            }
            let first = v
                .first_lines
                .get(status.word())
                .map_or(String::new(), |l| join(l));
            let _ = write!(
                h,
                "<tr><td>{}</td><td class=\"n\">{n}</td><td>{first}</td></tr>",
                status.word()
            );
        }
        h.push_str("</table>");
        if !v.invalid_reasons.is_empty() {
            h.push_str("<h3>Why records are invalid</h3>");
            groups_table(h, "reason", &v.invalid_reasons);
        }
        h.push_str("</section>");
    }

    fn duplicates_section(&self, h: &mut String) {
        if let Some(m) = &self.merged {
            let _ = write!(
                h,
                "<section><h2>Duplicates</h2><p>Merged from {} shard reports: not known. At \
                 least {} records are redundant (within the shards).</p><ul>",
                m.shards, m.redundant_at_least
            );
            for what in &m.not_merged {
                let _ = write!(h, "<li>not merged: {}</li>", escape(what));
            }
            h.push_str("</ul></section>");
            return;
        }
        let d = &self.duplicates;
        let _ = write!(
            h,
            "<section><h2>Duplicates</h2><p>{} classes of equivalent records; {} records \
             ({:.2}%) are redundant, {} of them identical to an earlier record.</p>",
            d.classes, d.redundant, d.redundant_percent, d.identical
        );
        if !d.largest.is_empty() {
            h.push_str("<h3>Largest classes</h3>");
            groups_table(h, "class", &d.largest);
        }
        h.push_str("</section>");
    }

    fn leakage_section(&self, h: &mut String) {
        if self.leakage.is_empty() {
            return;
        }
        h.push_str(
            "<section><h2>Leakage</h2><table><tr><th>against</th><th>records</th>\
             <th>classes</th><th>first (line here &rarr; line there)</th></tr>",
        );
        for l in &self.leakage {
            let first: Vec<String> = l
                .first
                .iter()
                .map(|(a, b)| format!("{a}&rarr;{b}"))
                .collect();
            let _ = write!(
                h,
                "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
                 <td>{}</td></tr>",
                escape(&l.against),
                l.records,
                l.classes,
                first.join(", ")
            );
        }
        h.push_str("</table></section>");
    }

    fn shape_section(&self, h: &mut String) {
        let s = &self.shape;
        h.push_str("<section><h2>Shape of the data</h2><div class=\"charts\">");
        let givens: Vec<(String, u64)> =
            s.givens.iter().map(|(g, n)| (g.to_string(), *n)).collect();
        h.push_str(&bars("Givens", "givens", &givens));
        h.push_str(&bars(
            "Search effort",
            "branches counting to two",
            &s.guesses,
        ));
        let autos: Vec<(String, u64)> = s
            .automorphisms
            .iter()
            .map(|(a, n)| (a.to_string(), *n))
            .collect();
        h.push_str(&bars(
            "Automorphisms",
            "transforms mapping the puzzle to itself",
            &autos,
        ));
        if let Some(ratings) = &s.ratings {
            let ratings: Vec<(String, u64)> = ratings
                .iter()
                .map(|(t, n)| (format!("{}.{}", t / 10, t % 10), *n))
                .collect();
            h.push_str(&bars("Ratings", "ER (Sukaku Explainer)", &ratings));
        }
        if let Some(levels) = &s.levels {
            h.push_str(&bars("Levels", "level", levels));
        }
        h.push_str("</div>");
        if let Some(m) = &s.minimality {
            let _ = write!(
                h,
                "<p>Minimal: {} of {} unique records ({:.1}%)",
                m.minimal,
                m.checked,
                m.percent()
            );
            if m.undecided > 0 {
                let _ = write!(h, "; {} undecided (search budget spent)", m.undecided);
            }
            if !m.first_not_minimal.is_empty() {
                let shown: Vec<String> = m.first_not_minimal.iter().map(u64::to_string).collect();
                let _ = write!(h, "; first not minimal at lines {}", shown.join(", "));
            }
            h.push_str(".</p>");
        }
        if s.ratings.is_some() && s.lower_bounds > 0 {
            let _ = write!(
                h,
                "<p>{} ratings are lower bounds (the rating budget ran out).</p>",
                s.lower_bounds
            );
        }
        h.push_str("</section>");
    }

    fn provenance_section(&self, h: &mut String) {
        let p = &self.provenance;
        let _ = write!(
            h,
            "<section><h2>Provenance</h2><table>\
             <tr><th>tool</th><td>{} (commit {})</td></tr>\
             <tr><th>command</th><td><code>{}</code></td></tr>\
             <tr><th>made</th><td>{} ({:.3} s)</td></tr>",
            escape(&p.tool),
            escape(&p.commit),
            escape(&p.command_line.join(" ")),
            escape(&p.made_at),
            p.seconds
        );
        for (name, value) in &p.options {
            let _ = write!(
                h,
                "<tr><th>{}</th><td>{}</td></tr>",
                escape(name),
                escape(value)
            );
        }
        if let Some(rules) = &p.rating_rules {
            let _ = write!(
                h,
                "<tr><th>rating rules</th><td>{}</td></tr>",
                escape(rules)
            );
        }
        h.push_str("</table><table><tr><th>file</th><th>bytes</th><th>SHA-256</th><th>records</th><th>read as</th></tr>");
        for i in &p.inputs {
            let _ = write!(
                h,
                "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td><code>{}</code></td>\
                 <td class=\"n\">{}</td><td>{}</td></tr>",
                escape(&i.path),
                i.bytes,
                i.sha256,
                i.records,
                escape(&i.layout)
            );
        }
        h.push_str("</table></section>");
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn join(lines: &[u64]) -> String {
    lines
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn groups_table(h: &mut String, what: &str, groups: &[Group]) {
    let _ = write!(
        h,
        "<table><tr><th>{what}</th><th>records</th><th>first lines</th></tr>"
    );
    for g in groups {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&g.what),
            g.count,
            join(&g.lines)
        );
    }
    h.push_str("</table>");
}

/// Text made safe for HTML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A bar chart as inline SVG: one bar per value, with the count above it, the values
/// along the x axis (thinned when there are many), a y axis with its scale, both axes
/// named, and the title.
pub fn bars(title: &str, x_name: &str, data: &[(String, u64)]) -> String {
    let (width, height) = (480.0f64, 260.0f64);
    let (left, right, top, bottom) = (56.0, 12.0, 34.0, 52.0);
    let plot_w = width - left - right;
    let plot_h = height - top - bottom;
    let max = data.iter().map(|d| d.1).max().unwrap_or(0).max(1);
    let mut s = String::new();
    let _ = write!(
        s,
        "<figure><svg class=\"chart\" viewBox=\"0 0 {width} {height}\" role=\"img\" \
         aria-label=\"{t}\" xmlns=\"http://www.w3.org/2000/svg\">\
         <text x=\"{cx}\" y=\"18\" class=\"title\" text-anchor=\"middle\">{t}</text>",
        t = escape(title),
        cx = width / 2.0
    );
    // Axes.
    let _ = write!(
        s,
        "<line class=\"axis\" x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{b}\"/>\
         <line class=\"axis\" x1=\"{left}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\"/>",
        b = top + plot_h,
        r = left + plot_w
    );
    for tick in 0..=4u64 {
        let value = max * tick / 4;
        let y = top + plot_h - plot_h * value as f64 / max as f64;
        let _ = write!(
            s,
            "<line class=\"grid\" x1=\"{left}\" y1=\"{y:.1}\" x2=\"{r}\" y2=\"{y:.1}\"/>\
             <text x=\"{tx}\" y=\"{ty:.1}\" class=\"tick\" text-anchor=\"end\">{value}</text>",
            r = left + plot_w,
            tx = left - 4.0,
            ty = y + 3.5
        );
    }
    let _ = write!(
        s,
        "<text x=\"{cx}\" y=\"{y}\" class=\"label\" text-anchor=\"middle\">{x}</text>\
         <text x=\"14\" y=\"{my}\" class=\"label\" text-anchor=\"middle\" \
         transform=\"rotate(-90 14 {my})\">records</text>",
        cx = left + plot_w / 2.0,
        y = height - 8.0,
        x = escape(x_name),
        my = top + plot_h / 2.0
    );
    if data.is_empty() {
        let _ = write!(
            s,
            "<text x=\"{cx}\" y=\"{cy}\" class=\"tick\" text-anchor=\"middle\">no records</text>",
            cx = left + plot_w / 2.0,
            cy = top + plot_h / 2.0
        );
    }
    let n = data.len().max(1) as f64;
    let slot = plot_w / n;
    let every = (data.len() / 12).max(1);
    for (i, (label, count)) in data.iter().enumerate() {
        let bar_h = plot_h * *count as f64 / max as f64;
        let x = left + slot * i as f64 + slot * 0.1;
        let y = top + plot_h - bar_h;
        let _ = write!(
            s,
            "<rect class=\"bar\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{bar_h:.1}\">\
             <title>{l}: {count}</title></rect>",
            w = slot * 0.8,
            l = escape(label)
        );
        if data.len() <= 24 && *count > 0 {
            let _ = write!(
                s,
                "<text x=\"{cx:.1}\" y=\"{ty:.1}\" class=\"count\" text-anchor=\"middle\">{count}</text>",
                cx = x + slot * 0.4,
                ty = y - 3.0
            );
        }
        if i % every == 0 {
            let _ = write!(
                s,
                "<text x=\"{cx:.1}\" y=\"{ty:.1}\" class=\"tick\" text-anchor=\"middle\">{l}</text>",
                cx = x + slot * 0.4,
                ty = top + plot_h + 14.0,
                l = escape(label)
            );
        }
    }
    s.push_str("</svg></figure>");
    s
}

const STYLE: &str =
    "body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#fff}\
main{max-width:980px;margin:auto;padding:16px}h1{font-size:1.5em;word-break:break-all}\
section{margin:1.4em 0}table{border-collapse:collapse;margin:.6em 0;max-width:100%}\
td,th{border-bottom:1px solid #d8dde3;padding:3px 10px;text-align:left;vertical-align:top}\
td.n{text-align:right;font-variant-numeric:tabular-nums}code{word-break:break-all}\
.verdict{padding:10px 16px;border-radius:6px}.sound{background:#e6f4ea;border:1px solid #3c8d50}\
.unsound{background:#fdecea;border:1px solid #c0392b}\
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,420px),1fr));gap:12px}\
figure{margin:0;min-width:0}svg.chart{width:100%;height:auto}\
.bar{fill:#3b6fb6}.axis{stroke:#333;stroke-width:1}.grid{stroke:#e3e6ea;stroke-width:1}\
.tick{font-size:10px;fill:#444}.count{font-size:9px;fill:#222}.label{font-size:11px;fill:#222}\
.title{font-size:13px;font-weight:600;fill:#111}\
@media print{.verdict{border-width:2px}.bar{fill:#555}}";

/// SHA-256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The time now in UTC, ISO 8601 to the second.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}
