//! A dataset as record-aligned windows of its bytes, for the dataset commands that key
//! every record (`dedupe`, `overlap`, `split`, `audit`): a mapped file is one window,
//! the whole of it; a stream (compressed, NumPy, stdin) comes a chunk at a time and a
//! Parquet file a piece at a time (as lines, `puzzle` or `puzzle solution` a row), so
//! memory holds one chunk however long the decoded text is.

use std::io;
use std::path::{Path, PathBuf};

use crate::pipeline::chunks::StreamChunks;
use crate::pipeline::input::parquet::{ParquetFile, Piece, Scratch, Segment};
use crate::pipeline::input::{
    detect_layout_as, rows_as_lines, Choice, InputBytes, InputError, Layout, Opened, Reader,
};

/// Bytes of a dataset, beginning at a record's line.
#[derive(Clone, Copy, Debug)]
pub struct Window<'a> {
    /// The bytes, up to a record boundary.
    pub bytes: &'a [u8],
    /// The 1-based line of the first byte.
    pub first_line: u64,
}

/// An opened dataset, read window by window.
pub enum Windows {
    /// A mapped or fully read input.
    Whole {
        /// Its bytes.
        bytes: InputBytes,
        /// How its records are laid out.
        layout: Layout,
    },
    /// A stream read in record-aligned chunks.
    Stream {
        /// The chunks to come.
        chunks: Box<StreamChunks<Reader>>,
        /// How its records are laid out.
        layout: Layout,
        /// Its name, for errors.
        path: PathBuf,
    },
    /// A Parquet file, decoded a piece at a time into lines (row `n` is line `n`).
    Parquet {
        /// The file.
        file: Box<ParquetFile>,
        /// Its pieces, in order.
        pieces: Vec<Piece>,
        /// Lines, every one a record.
        layout: Layout,
        /// Its name, for errors.
        path: PathBuf,
    },
}

impl Windows {
    /// `opened` (named `path`) read as `choice` says (a Parquet file as lines, whatever
    /// it says); a record over `max_record` bytes of a stream or a Parquet file is an
    /// error naming its line (its bytes are never all held).
    pub fn open(
        opened: Opened,
        path: &Path,
        choice: &Choice,
        max_record: usize,
    ) -> Result<Windows, InputError> {
        let named = |source: io::Error| InputError::Io {
            path: path.to_path_buf(),
            source,
        };
        match opened {
            Opened::Mapped(bytes) => {
                let layout = detect_layout_as(bytes.bytes(), choice)?;
                Ok(Windows::Whole { bytes, layout })
            }
            Opened::Stream {
                reader, array_rows, ..
            } => {
                let (chunks, mut layout) =
                    StreamChunks::start(reader, choice, max_record).map_err(named)??;
                layout.every_line = array_rows;
                Ok(Windows::Stream {
                    chunks: Box::new(chunks),
                    layout,
                    path: path.to_path_buf(),
                })
            }
            Opened::Parquet { file, pieces } => Ok(Windows::Parquet {
                file: Box::new(file),
                pieces,
                layout: rows_as_lines(max_record)?,
                path: path.to_path_buf(),
            }),
        }
    }

    /// How the records are laid out.
    pub fn layout(&self) -> &Layout {
        match self {
            Windows::Whole { layout, .. }
            | Windows::Stream { layout, .. }
            | Windows::Parquet { layout, .. } => layout,
        }
    }

    /// The input's bytes when it is one window (a mapped file), for what needs them
    /// whole.
    pub fn whole(&self) -> Option<&[u8]> {
        match self {
            Windows::Whole { bytes, .. } => Some(bytes.bytes()),
            Windows::Stream { .. } | Windows::Parquet { .. } => None,
        }
    }

    /// Checks a mapped file kept its length while it was read (a stream: nothing to
    /// check).
    pub fn check_unchanged(&self, path: &Path) -> Result<(), InputError> {
        match self {
            Windows::Whole { bytes, .. } => bytes.check_unchanged(path),
            Windows::Stream { .. } | Windows::Parquet { .. } => Ok(()),
        }
    }

    /// The bytes before the first window (a CSV header and what precedes it).
    pub fn head(&self) -> &[u8] {
        match self {
            Windows::Whole { bytes, layout } => in_memory(bytes, layout).head(),
            Windows::Stream { chunks, .. } => chunks.head(),
            Windows::Parquet { .. } => b"",
        }
    }

    /// Calls `each` with every window in order, then checks the input ended well (a
    /// CSV quote left open, a record over the limit, a read error: named errors).
    pub fn each(
        &mut self,
        mut each: impl FnMut(Window<'_>) -> io::Result<()>,
    ) -> Result<(), WindowsError> {
        match self {
            Windows::Whole { bytes, layout } => in_memory(bytes, layout).each_window(&mut each),
            Windows::Stream {
                chunks,
                layout,
                path,
            } => {
                let named = |source: io::Error| InputError::Io {
                    path: path.clone(),
                    source,
                };
                while let Some(chunk) = chunks.next_chunk().map_err(named)? {
                    if let Some(length) = chunk.too_long {
                        let advice = "; decompress the file to read it mapped";
                        return Err(too_long(path, (chunk.first_line, length), layout, advice));
                    }
                    each(Window {
                        bytes: chunk.bytes.as_slice(),
                        first_line: chunk.first_line,
                    })
                    .map_err(WindowsError::Write)?;
                }
                match chunks.unclosed_quote() {
                    None => Ok(()),
                    Some(line) => Err(InputError::UnclosedQuote {
                        path: path.clone(),
                        line,
                    }
                    .into()),
                }
            }
            Windows::Parquet {
                file,
                pieces,
                layout,
                path,
            } => parquet_windows((file, pieces, layout, path), &mut each),
        }
    }
}

/// A whole input as the one window it is.
fn in_memory<'a>(bytes: &'a InputBytes, layout: &'a Layout) -> InMemory<'a> {
    InMemory {
        bytes: bytes.bytes(),
        layout,
    }
}

/// Every piece of a Parquet file as lines, in order: a null or empty puzzle as the
/// word `null` or `empty` (no puzzle), a row over the limit an error naming it.
fn parquet_windows(
    (file, pieces, layout, path): (&ParquetFile, &[Piece], &Layout, &Path),
    each: &mut dyn FnMut(Window<'_>) -> io::Result<()>,
) -> Result<(), WindowsError> {
    let mut scratch = Scratch::default();
    let mut failed: Option<WindowsError> = None;
    for piece in pieces {
        file.decode(piece, layout.max_record, &mut scratch, |segment| {
            if failed.is_some() {
                return;
            }
            let (bytes, first_line): (&[u8], u64) = match segment {
                Segment::Lines { bytes, first_row } => (bytes, first_row),
                Segment::NoValue { row, null } => (if null { b"null\n" } else { b"empty\n" }, row),
                Segment::TooLong { row, length, .. } => {
                    failed = Some(too_long(path, (row, length), layout, ""));
                    return;
                }
            };
            if let Err(e) = each(Window { bytes, first_line }) {
                failed = Some(WindowsError::Write(e));
            }
        })
        .map_err(|source| InputError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(())
}

/// The error of a record over the limit of a dataset read a window at a time.
fn too_long(
    path: &Path,
    (line, length): (u64, u64),
    layout: &Layout,
    advice: &str,
) -> WindowsError {
    InputError::Io {
        path: path.to_path_buf(),
        source: io::Error::other(format!(
            "line {line}: a record of {length} bytes, longer than a streamed record may be \
             ({} bytes) for this command, which copies records whole{advice}",
            layout.max_record
        )),
    }
    .into()
}

/// Why reading windows stopped.
#[derive(Debug)]
pub enum WindowsError {
    /// The input could not be read as a dataset.
    Input(InputError),
    /// The caller's writing failed.
    Write(io::Error),
}

impl From<InputError> for WindowsError {
    fn from(e: InputError) -> Self {
        WindowsError::Input(e)
    }
}

/// A dataset read window by window, whatever holds it: an opened input ([`Windows`]) or
/// bytes already in memory ([`InMemory`]).
pub trait Windowed: Send {
    /// How the records are laid out.
    fn layout(&self) -> &Layout;
    /// The bytes before the first window (a CSV header and what precedes it).
    fn head(&self) -> &[u8];
    /// Calls `each` with every window in order; the input's errors are named.
    fn each_window(
        &mut self,
        each: &mut dyn FnMut(Window<'_>) -> io::Result<()>,
    ) -> Result<(), WindowsError>;
}

impl Windowed for Windows {
    fn layout(&self) -> &Layout {
        Windows::layout(self)
    }

    fn head(&self) -> &[u8] {
        Windows::head(self)
    }

    fn each_window(
        &mut self,
        each: &mut dyn FnMut(Window<'_>) -> io::Result<()>,
    ) -> Result<(), WindowsError> {
        self.each(each)
    }
}

/// A dataset already in memory (a request body, a Python list made lines): one window.
#[derive(Clone, Copy, Debug)]
pub struct InMemory<'a> {
    /// Its bytes.
    pub bytes: &'a [u8],
    /// How its records are laid out.
    pub layout: &'a Layout,
}

impl<'a> InMemory<'a> {
    /// The bytes before the first record.
    pub fn head(self) -> &'a [u8] {
        &self.bytes[..self.layout.data_start.min(self.bytes.len())]
    }
}

impl Windowed for InMemory<'_> {
    fn layout(&self) -> &Layout {
        self.layout
    }

    fn head(&self) -> &[u8] {
        InMemory::head(*self)
    }

    fn each_window(
        &mut self,
        each: &mut dyn FnMut(Window<'_>) -> io::Result<()>,
    ) -> Result<(), WindowsError> {
        let start = self.layout.data_start.min(self.bytes.len());
        each(Window {
            bytes: &self.bytes[start..],
            first_line: self.layout.first_line,
        })
        .map_err(WindowsError::Write)
    }
}
