//! The formats a table of CSV rows is written in (the dataset commands' own rows, and
//! records copied as a table), and the [`Encoding`] each takes.

use std::path::Path;

use super::name::{compressed_parquet, Codec, Named};
use super::retext::TextTable;
use super::{Encoding, OutputError};

/// A table's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tabular {
    /// Comma-separated, a header first.
    Csv,
    /// Tab-separated, a header first.
    Tsv,
    /// One JSON object per row.
    Ndjson,
    /// A Parquet file.
    Parquet,
}

impl Tabular {
    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Tabular::Csv => "CSV",
            Tabular::Tsv => "tab-separated",
            Tabular::Ndjson => "JSON lines",
            Tabular::Parquet => "Parquet",
        }
    }

    /// The format a name's extension names (`.csv`, `.tsv`/`.tab`, `.ndjson`/`.jsonl`,
    /// `.parquet`, before any `.gz` or `.zst`); `None` for any other.
    pub fn of_name(named: &Named) -> Option<Tabular> {
        match named.format.as_deref() {
            Some("csv") => Some(Tabular::Csv),
            Some("tsv" | "tab") => Some(Tabular::Tsv),
            Some("ndjson" | "jsonl") => Some(Tabular::Ndjson),
            Some("parquet") => Some(Tabular::Parquet),
            _ => None,
        }
    }

    /// The encoding of CSV rows written into `path` as this format, compressed by
    /// `codec`, the first `typed` columns typed by name (JSON lines and Parquet).
    pub fn encoding(
        self,
        codec: Option<Codec>,
        typed: usize,
        path: Option<&Path>,
    ) -> Result<Encoding, OutputError> {
        let retext = |table| Encoding::Retext {
            table,
            typed,
            codec,
        };
        Ok(match (self, codec) {
            (Tabular::Csv, None) => Encoding::Plain,
            (Tabular::Csv, Some(codec)) => Encoding::Compressed(codec),
            (Tabular::Tsv, _) => retext(TextTable::Tsv),
            (Tabular::Ndjson, _) => retext(TextTable::Ndjson),
            (Tabular::Parquet, None) => Encoding::Parquet { typed },
            (Tabular::Parquet, Some(_)) => {
                return Err(compressed_parquet(path.unwrap_or(Path::new("-"))))
            }
        })
    }

    /// The encoding of a command's own CSV rows (`typed` columns first) written to
    /// `path`: in the format `asked`, else the one its name says, else CSV; a name
    /// asking for what is not written is refused.
    pub fn rows_encoding(
        asked: Option<Tabular>,
        path: Option<&Path>,
        typed: usize,
    ) -> Result<Encoding, OutputError> {
        let named = Named::of(path);
        if let Some(refused) = path.and_then(|p| named.refusal(p)) {
            return Err(refused);
        }
        let format = asked
            .or_else(|| Tabular::of_name(&named))
            .unwrap_or(Tabular::Csv);
        format.encoding(named.codec, typed, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_requests_pick_the_encoding() {
        let of = |asked, name: &str| Tabular::rows_encoding(asked, Some(Path::new(name)), 2);
        assert_eq!(of(None, "r.csv").unwrap(), Encoding::Plain);
        assert_eq!(of(None, "r.txt").unwrap(), Encoding::Plain);
        assert_eq!(
            of(None, "r.csv.gz").unwrap(),
            Encoding::Compressed(Codec::Gzip)
        );
        assert_eq!(
            of(None, "r.jsonl.zst").unwrap(),
            Encoding::Retext {
                table: TextTable::Ndjson,
                typed: 2,
                codec: Some(Codec::Zstd)
            }
        );
        assert_eq!(
            of(Some(Tabular::Tsv), "r.txt").unwrap(),
            Encoding::Retext {
                table: TextTable::Tsv,
                typed: 2,
                codec: None
            }
        );
        assert_eq!(
            of(None, "r.parquet").unwrap(),
            Encoding::Parquet { typed: 2 }
        );
        assert!(of(None, "r.parquet.gz").is_err());
        assert!(of(None, "r.xlsx").is_err());
        assert!(of(None, "r.json").is_err());
    }
}
