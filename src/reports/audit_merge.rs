//! Audit reports of a file's shards added up, exactly where the numbers allow it.
//!
//! Exact: record and status counts, given solutions and their mismatches, invalid
//! reasons, every histogram (givens, search effort, automorphisms, ratings, levels,
//! minimality) and the records leaked into each `--against` file (each record lies in
//! one shard, and whether it leaked is its own fact). Not exact, so not given: the
//! duplicates (records repeated across shards, and classes spanning them, are not in
//! any shard's report: the shards' redundant records are a lower bound, said so), the
//! leaked classes (a class may leak from several shards), and line numbers (each shard
//! counts its own). [`Merged::not_merged`] names them; the verdict never says sound
//! while duplicates are unknown.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::audit::{AuditReport, Group, Leak, Minimality};
use super::merge::MergeError;

/// What a merged report says of its making.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Merged {
    /// Shard reports added up.
    pub shards: u64,
    /// Records the shards found redundant within themselves: at least this many of the
    /// whole file's records are redundant.
    pub redundant_at_least: u64,
    /// The numbers not merged, and why.
    pub not_merged: Vec<String>,
}

/// What cannot be added up from shard reports.
const NOT_MERGED: [&str; 3] = [
    "duplicates: records repeated across shards and classes spanning them are in no \
     shard's report; audit the whole file for them",
    "leakage classes: a class may leak from several shards (leaked records add up)",
    "line numbers: each shard counts its own",
];

/// The reports of a file's shards (audited alike: the same options and rating rules,
/// against the same files) added up; see the module's notes for what is exact.
pub fn merge_audits(reports: &[AuditReport]) -> Result<AuditReport, MergeError> {
    let first = reports.first().ok_or(MergeError::Empty)?;
    let mut merged = AuditReport::default();
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    let mut redundant_at_least = 0u64;
    for (i, report) in reports.iter().enumerate() {
        let differs = |what: &str| MergeError::Inconsistent {
            index: i + 1,
            message: format!(
                "its {what} differ from the first report's: shards must be audited alike"
            ),
        };
        let (p, p0) = (&report.provenance, &first.provenance);
        if p.options != p0.options {
            return Err(differs("options"));
        }
        if p.rating_rules != p0.rating_rules {
            return Err(differs("rating rules"));
        }
        let against = |r: &AuditReport| -> Vec<String> {
            r.leakage.iter().map(|l| l.against.clone()).collect()
        };
        if against(report) != against(first) {
            return Err(differs("--against files"));
        }
        if report.shape.minimality.is_some() != first.shape.minimality.is_some() {
            return Err(differs("minimality checks"));
        }
        let v = &report.validity;
        let m = &mut merged.validity;
        m.records = add(m.records, v.records)?;
        m.counts.merge(&v.counts);
        m.mismatches = add(m.mismatches, v.mismatches)?;
        m.with_solution = add(m.with_solution, v.with_solution)?;
        for group in &v.invalid_reasons {
            let n = reasons.entry(group.what.clone()).or_default();
            *n = add(*n, group.count)?;
        }
        redundant_at_least = add(redundant_at_least, report.duplicates.redundant)?;
        if i == 0 {
            merged.leakage = report
                .leakage
                .iter()
                .map(|l| Leak {
                    against: l.against.clone(),
                    ..Leak::default()
                })
                .collect();
        }
        for (sum, leak) in merged.leakage.iter_mut().zip(&report.leakage) {
            sum.records = add(sum.records, leak.records)?;
        }
        let (s, t) = (&mut merged.shape, &report.shape);
        s.givens = sum_by_key(&s.givens, &t.givens)?;
        s.guesses = sum_by_key(&s.guesses, &t.guesses)?;
        s.automorphisms = sum_by_key(&s.automorphisms, &t.automorphisms)?;
        s.ratings = match (&s.ratings, &t.ratings) {
            (_, None) => None,
            (None, Some(r)) if i == 0 => Some(r.clone()),
            (Some(a), Some(b)) => Some(sum_by_key(a, b)?),
            (None, Some(_)) => return Err(differs("ratings")),
        };
        s.levels = match (&s.levels, &t.levels) {
            (_, None) => None,
            (None, Some(l)) if i == 0 => Some(l.clone()),
            (Some(a), Some(b)) => Some(sum_by_key(a, b)?),
            (None, Some(_)) => return Err(differs("levels")),
        };
        s.lower_bounds = add(s.lower_bounds, t.lower_bounds)?;
        if let Some(tm) = &t.minimality {
            let sm = s.minimality.get_or_insert_with(Minimality::default);
            sm.checked = add(sm.checked, tm.checked)?;
            sm.minimal = add(sm.minimal, tm.minimal)?;
            sm.undecided = add(sm.undecided, tm.undecided)?;
        }
        merged
            .provenance
            .inputs
            .extend(p.inputs.iter().take(1).cloned());
        merged.provenance.seconds += p.seconds;
    }
    // Buckets of search effort in order of their lower bound ("2-3" after "1").
    merged
        .shape
        .guesses
        .sort_by_key(|(bucket, _)| bucket.split('-').next().and_then(|n| n.parse::<u64>().ok()));
    if let Some(levels) = &mut merged.shape.levels {
        let order = ["easy", "medium", "hard", "expert", "extreme"];
        levels.sort_by_key(|(name, _)| order.iter().position(|o| o == name));
    }
    let mut groups: Vec<Group> = reasons
        .into_iter()
        .map(|(what, count)| Group {
            what,
            count,
            lines: Vec::new(),
        })
        .collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.count));
    merged.validity.invalid_reasons = groups;
    let p0 = &first.provenance;
    // The --against files, once.
    merged
        .provenance
        .inputs
        .extend(p0.inputs.iter().skip(1).cloned());
    merged.provenance.tool = p0.tool.clone();
    merged.provenance.commit = p0.commit.clone();
    merged.provenance.options = p0.options.clone();
    merged.provenance.rating_rules = p0.rating_rules.clone();
    merged.judge();
    let unknown = format!(
        "duplicates not known from shard reports (at least {redundant_at_least} redundant \
         records within the shards): audit the whole file"
    );
    merged.verdict.sound = false;
    merged.verdict.problems.push(unknown);
    merged.merged = Some(Merged {
        shards: reports.len() as u64,
        redundant_at_least,
        not_merged: NOT_MERGED.iter().map(|s| s.to_string()).collect(),
    });
    Ok(merged)
}

fn add(a: u64, b: u64) -> Result<u64, MergeError> {
    a.checked_add(b)
        .ok_or_else(|| MergeError::Overflow("an audit count".into()))
}

/// Two histograms (value, records) added up, by value, sorted by value.
fn sum_by_key<K: Ord + Clone>(a: &[(K, u64)], b: &[(K, u64)]) -> Result<Vec<(K, u64)>, MergeError> {
    let mut sums: BTreeMap<K, u64> = BTreeMap::new();
    for (k, n) in a.iter().chain(b) {
        let sum = sums.entry(k.clone()).or_default();
        *sum = add(*sum, *n)?;
    }
    Ok(sums.into_iter().collect())
}
