//! Opening any input as the pipeline reads it, for every front end: a path (a plain
//! file mapped; stdin, FIFOs and `<(...)` streamed; gzip, zstd, xz and zip members
//! decoded; NumPy arrays read a row at a time; Parquet files mapped), a stream (an HTTP
//! body) or bytes in memory. What an input is, is told by its first bytes, never by
//! its name.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use bytes::Bytes;

use super::compressed::{self, Compression};
use super::mapping::{open_file, InputBytes};
use super::npy::{self, NpyError, NpyLines};
use super::parquet::{self, ParquetError, ParquetFile, Piece};
use super::{ColumnChoice, InputError};

/// An input read as a stream.
pub type Reader = Box<dyn Read + Send>;

/// An opened input, ready for [`crate::pipeline::run`].
pub enum Opened {
    /// A plain regular file, mapped (or read whole), or plain bytes in memory.
    Mapped(InputBytes),
    /// A Parquet file or body, with the pieces of its row groups (those of the shard)
    /// that the workers decode.
    Parquet {
        /// The file.
        file: ParquetFile,
        /// Its pieces to read, in order.
        pieces: Vec<Piece>,
    },
    /// Stdin, a FIFO or other special file, a compressed input or a NumPy array: read
    /// in blocks.
    Stream {
        /// The bytes as text (decoded, NumPy rows made lines).
        reader: Reader,
        /// What was found beyond plain text (`gzip`, `NumPy`), for the summary.
        found: Vec<&'static str>,
        /// The lines are an array's rows: every one is a record, blank or not.
        array_rows: bool,
    },
}

impl Opened {
    /// What was found beyond plain text, for the summary (`gzip`, `NumPy`, `Parquet`).
    pub fn found(&self) -> Vec<&'static str> {
        match self {
            Opened::Mapped(_) => Vec::new(),
            Opened::Parquet { .. } => vec!["Parquet"],
            Opened::Stream { found, .. } => found.clone(),
        }
    }
}

/// How to open an input.
#[derive(Clone, Copy, Debug, Default)]
pub struct HowToOpen<'a> {
    /// Read a regular file instead of mapping it.
    pub no_mmap: bool,
    /// The member of a zip archive to read (needed when it holds several files).
    pub member: Option<&'a str>,
    /// The column that holds the puzzles (Parquet picks its column when opened).
    pub column: Option<&'a ColumnChoice>,
    /// Of a Parquet input, only the row groups of this shard (index from 1, count).
    pub shard: Option<(u32, u32)>,
    /// The longest record read (`None`: the default), which bounds, with 16 MiB, the
    /// size a Parquet page may declare.
    pub max_record: Option<usize>,
    /// A stream that turns out to be Parquet (whose index is at its end) is read into
    /// memory, up to this many bytes; `None` refuses it (a command line's stdin).
    pub parquet_in_memory: Option<usize>,
}

/// Why an input could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// Reading failed, or the path is a directory.
    Input(InputError),
    /// A zip archive on a stream: its index is at its end.
    ZipOnStream(PathBuf),
    /// A Parquet file on a stream that may not be read into memory.
    ParquetOnStream(PathBuf),
    /// A Parquet file inside a compressed stream.
    ParquetInside {
        /// The input.
        path: PathBuf,
        /// The compression around it.
        compression: &'static str,
    },
    /// A Parquet stream larger than it may be held in memory.
    ParquetTooLarge {
        /// The input.
        path: PathBuf,
        /// The bytes it may take.
        limit: usize,
    },
    /// A NumPy array that cannot be read.
    Npy {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        source: NpyError,
    },
    /// A Parquet file that cannot be read, or has no puzzle column.
    Parquet {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        source: ParquetError,
    },
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Input(e) => e.fmt(f),
            OpenError::ParquetOnStream(path) => write!(
                f,
                "{}: a Parquet file is read from a file (its index is at its end); save it \
                 first",
                path.display()
            ),
            OpenError::ParquetInside { path, compression } => write!(
                f,
                "{}: a Parquet file inside {compression}: Parquet compresses its own pages and \
                 is read from a file (its index is at its end); decompress it first",
                path.display()
            ),
            OpenError::ZipOnStream(path) => write!(
                f,
                "{}: a zip archive is read from a file (its index is at its end); save it \
                 first, or pipe `unzip -p` instead",
                path.display()
            ),
            OpenError::ParquetTooLarge { path, limit } => write!(
                f,
                "{}: a Parquet body is held whole to be read (its index is at its end), and \
                 this one is over {limit} bytes",
                path.display()
            ),
            OpenError::Npy { path, source } => write!(f, "{}: {source}", path.display()),
            OpenError::Parquet { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for OpenError {}

impl From<InputError> for OpenError {
    fn from(e: InputError) -> Self {
        OpenError::Input(e)
    }
}

/// Whether `path` names the standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` is a special file that must be streamed (a FIFO, a character device,
/// a socket: stdin through `/dev/stdin`, bash's `<(...)`), not a regular file or a
/// directory.
pub fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// Opens `input`: stdin (`-`), FIFOs, `/dev/stdin` and `<(...)` are streamed in blocks
/// (never read whole), compressed inputs (told by their first bytes) streamed through
/// their decoder, NumPy arrays read a row at a time, Parquet files and plain files
/// mapped.
pub fn open(input: &Path, options: &HowToOpen<'_>) -> Result<Opened, OpenError> {
    let io_error = |source| -> OpenError {
        InputError::Io {
            path: input.to_path_buf(),
            source,
        }
        .into()
    };
    if is_stdin(input) {
        return open_stream(Box::new(io::stdin()), input, options);
    }
    if is_special(input) {
        let file = std::fs::File::open(input).map_err(io_error)?;
        return open_stream(Box::new(file), input, options);
    }
    if input.is_dir() {
        return Err(InputError::IsDirectory(input.to_path_buf()).into());
    }
    let head = compressed::file_head(input).map_err(io_error)?;
    let compression = Compression::detect(&head);
    let file = || std::fs::File::open(input).map_err(io_error);
    let reader: Reader = match compression {
        None if head.starts_with(npy::MAGIC) => Box::new(file()?),
        None if head.starts_with(parquet::MAGIC) => {
            let column = options.column.cloned().unwrap_or(ColumnChoice::Auto);
            let file = parquet::open(input, &column).map_err(|source| OpenError::Parquet {
                path: input.to_path_buf(),
                source,
            })?;
            return parquet_pieces(file, input, options);
        }
        None => return Ok(Opened::Mapped(open_file(input, options.no_mmap)?)),
        Some(Compression::Zip) => {
            Box::new(compressed::decode_zip(input, options.member).map_err(io_error)?)
        }
        Some(c) => Box::new(compressed::decode(file()?, c)),
    };
    let found = compression.iter().map(|c| c.name()).collect();
    numpy_or_text(reader, found, input)
}

/// Opens a stream (stdin, a special file, an HTTP body), named `name` in errors and in
/// the summary: gzip, zstd and xz are decoded and NumPy rows made lines, told by the
/// first bytes; Parquet is read into memory where `options` allows it.
pub fn open_stream(
    mut reader: Reader,
    name: &Path,
    options: &HowToOpen<'_>,
) -> Result<Opened, OpenError> {
    let io_error = |source| -> OpenError {
        InputError::Io {
            path: name.to_path_buf(),
            source,
        }
        .into()
    };
    let head = compressed::stream_head(&mut reader).map_err(io_error)?;
    let compression = Compression::detect(head.get_ref());
    if compression.is_none() && head.get_ref().starts_with(parquet::MAGIC) {
        let Some(limit) = options.parquet_in_memory else {
            return Err(OpenError::ParquetOnStream(name.to_path_buf()));
        };
        let mut bytes = Vec::new();
        head.chain(reader)
            .take(limit as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io_error)?;
        if bytes.len() > limit {
            return Err(OpenError::ParquetTooLarge {
                path: name.to_path_buf(),
                limit,
            });
        }
        return open_bytes(bytes, name, options);
    }
    let whole = head.chain(reader);
    let reader: Reader = match compression {
        None => Box::new(whole),
        Some(Compression::Zip) => return Err(OpenError::ZipOnStream(name.to_path_buf())),
        Some(c) => Box::new(compressed::decode(whole, c)),
    };
    let found = compression.iter().map(|c| c.name()).collect();
    numpy_or_text(reader, found, name)
}

/// Opens bytes in memory (a request body, a Python `bytes`), named `name`: plain text
/// as a mapped file is read, Parquet as a file, anything else as a stream is.
pub fn open_bytes(
    bytes: Vec<u8>,
    name: &Path,
    options: &HowToOpen<'_>,
) -> Result<Opened, OpenError> {
    if bytes.starts_with(parquet::MAGIC) {
        let column = options.column.cloned().unwrap_or(ColumnChoice::Auto);
        let file = parquet::open_from(Bytes::from(bytes), &column).map_err(|source| {
            OpenError::Parquet {
                path: name.to_path_buf(),
                source,
            }
        })?;
        return parquet_pieces(file, name, options);
    }
    if Compression::detect(&bytes).is_none() && !bytes.starts_with(npy::MAGIC) {
        return Ok(Opened::Mapped(InputBytes::Read(bytes)));
    }
    open_stream(Box::new(io::Cursor::new(bytes)), name, options)
}

/// A Parquet file with the pieces of its row groups (those of the shard), whose page
/// headers are read here, before any output is opened.
fn parquet_pieces(
    file: ParquetFile,
    name: &Path,
    options: &HowToOpen<'_>,
) -> Result<Opened, OpenError> {
    let max_record = options.max_record.unwrap_or(super::DEFAULT_MAX_RECORD);
    let pieces = file.pieces(options.shard, max_record).map_err(|source| {
        OpenError::Input(InputError::Io {
            path: name.to_path_buf(),
            source,
        })
    })?;
    Ok(Opened::Parquet { file, pieces })
}

/// A decoded stream as text: a NumPy array's rows made lines, other bytes as they are.
fn numpy_or_text(
    mut reader: Reader,
    mut found: Vec<&'static str>,
    name: &Path,
) -> Result<Opened, OpenError> {
    let head = compressed::stream_head(&mut reader).map_err(|source| InputError::Io {
        path: name.to_path_buf(),
        source,
    })?;
    let is_npy = head.get_ref().starts_with(npy::MAGIC);
    if let (Some(&compression), true) = (found.first(), head.get_ref().starts_with(parquet::MAGIC))
    {
        return Err(OpenError::ParquetInside {
            path: name.to_path_buf(),
            compression,
        });
    }
    let whole = head.chain(reader);
    let reader: Reader = if is_npy {
        found.push("NumPy");
        Box::new(NpyLines::new(whole).map_err(|source| OpenError::Npy {
            path: name.to_path_buf(),
            source,
        })?)
    } else {
        Box::new(whole)
    };
    Ok(Opened::Stream {
        reader,
        found,
        array_rows: is_npy,
    })
}
