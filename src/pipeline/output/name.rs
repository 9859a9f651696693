//! What an output file's name asks for: a trailing `.gz` or `.zst` compresses whatever
//! is inside, the extension before it names the row format (`.csv`, `.ndjson`/`.jsonl`,
//! `.tsv`, `.parquet`; any other, or none, leaves it to `--output-format`), and a name
//! that asks for something the tool cannot write (`.xlsx`, `.json`, `.xz`, ...) is
//! refused rather than given a different format silently.

use std::path::Path;

use super::OutputError;

/// A compression applied to an output as it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// gzip (`.gz`).
    Gzip,
    /// Zstandard (`.zst`).
    Zstd,
}

/// What an output's name says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Named {
    /// The extension that names the format (lowercase; before `.gz` or `.zst`).
    pub format: Option<String>,
    /// The compression its last extension names.
    pub codec: Option<Codec>,
}

/// Extensions of formats and compressions the tool does not write, with what they are.
const UNWRITABLE: &[(&str, &str)] = &[
    ("xlsx", "Excel workbooks"),
    ("xls", "Excel workbooks"),
    ("ods", "OpenDocument spreadsheets"),
    (
        "json",
        "JSON documents (rows as JSON lines: .ndjson or .jsonl)",
    ),
    ("npy", "NumPy arrays"),
    ("npz", "NumPy archives"),
    ("feather", "Arrow files"),
    ("arrow", "Arrow files"),
    ("orc", "ORC files"),
    ("avro", "Avro files"),
    ("h5", "HDF5 files"),
    ("hdf5", "HDF5 files"),
    ("pkl", "pickles"),
    ("xz", "xz compression"),
    ("bz2", "bzip2 compression"),
    ("zip", "zip archives"),
    ("7z", "7-Zip archives"),
    ("lz4", "LZ4 compression"),
    ("br", "Brotli compression"),
];

impl Named {
    /// What `path`'s name says (nothing for stdout).
    pub fn of(path: Option<&Path>) -> Named {
        let Some(name) = path
            .and_then(Path::file_name)
            .and_then(|n| n.to_str())
            .map(str::to_ascii_lowercase)
        else {
            return Named::default();
        };
        let mut parts = name.rsplit('.');
        let last = parts.next().filter(|_| name.contains('.'));
        let codec = match last {
            Some("gz" | "gzip") => Some(Codec::Gzip),
            Some("zst" | "zstd") => Some(Codec::Zstd),
            _ => None,
        };
        let format = match codec {
            Some(_) => parts.next().filter(|_| name.matches('.').count() >= 2),
            None => last,
        };
        Named {
            format: format.map(str::to_string),
            codec,
        }
    }

    /// The error for a name that asks for a format or compression the tool does not
    /// write, or for Parquet compressed again.
    pub fn refusal(&self, path: &Path) -> Option<OutputError> {
        let what = match self.format.as_deref() {
            Some("parquet") if self.codec.is_some() => return Some(compressed_parquet(path)),
            Some(ext) => {
                let (_, what) = UNWRITABLE.iter().find(|(e, _)| *e == ext)?;
                (*what).to_string()
            }
            None => return None,
        };
        Some(OutputError::Unwritable {
            path: path.to_path_buf(),
            what,
        })
    }
}

/// The error for Parquet asked for into a name that also asks for compression.
pub fn compressed_parquet(path: &Path) -> OutputError {
    OutputError::Unwritable {
        path: path.to_path_buf(),
        what: "a compressed Parquet file: Parquet compresses its own pages".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(name: &str) -> Named {
        Named::of(Some(Path::new(name)))
    }

    #[test]
    fn the_last_extension_compresses_and_the_one_before_names_the_format() {
        assert_eq!(of("rows.csv.gz").format.as_deref(), Some("csv"));
        assert_eq!(of("rows.csv.gz").codec, Some(Codec::Gzip));
        assert_eq!(
            of("dir.v2/rows.NDJSON.ZST").format.as_deref(),
            Some("ndjson")
        );
        assert_eq!(of("rows.ndjson.zst").codec, Some(Codec::Zstd));
        assert_eq!(
            of("rows.gz"),
            Named {
                format: None,
                codec: Some(Codec::Gzip)
            }
        );
        assert_eq!(of("rows.txt").format.as_deref(), Some("txt"));
        assert_eq!(of("rows"), Named::default());
        assert_eq!(Named::of(None), Named::default());
    }

    #[test]
    fn names_of_formats_not_written_are_refused() {
        let p = Path::new("x");
        for name in ["a.xlsx", "a.json", "a.tsv.xz", "a.csv.xz", "a.npy"] {
            assert!(of(name).refusal(p).is_some(), "{name}");
        }
        for name in [
            "a.csv",
            "a.csv.gz",
            "a.ndjson.zst",
            "a.tsv.gz",
            "a.txt",
            "a",
            "a.parquet",
        ] {
            assert!(of(name).refusal(p).is_none(), "{name}");
        }
        assert!(of("a.parquet.gz").refusal(p).is_some());
    }
}
