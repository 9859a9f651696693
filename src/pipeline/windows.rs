//! A dataset as record-aligned windows of its bytes, for the dataset commands that key
//! every record (`dedupe`, `overlap`): a mapped file is one window, the whole of it; a
//! stream (compressed, NumPy, stdin) comes a chunk at a time, so memory holds one
//! chunk however long the decoded text is.

use std::io;
use std::path::{Path, PathBuf};

use crate::pipeline::chunks::StreamChunks;
use crate::pipeline::input::{
    detect_layout_as, Choice, InputBytes, InputError, Layout, Opened, Reader,
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
}

impl Windows {
    /// `opened` (named `path`) read as `choice` says; a record over `max_record` bytes
    /// of a stream is an error naming its line (its bytes are never all held). A
    /// Parquet input is refused here: the caller reads it as lines.
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
            Opened::Parquet { .. } => Err(InputError::Io {
                path: path.to_path_buf(),
                source: io::Error::other("a Parquet file is read whole here"),
            }),
        }
    }

    /// How the records are laid out.
    pub fn layout(&self) -> &Layout {
        match self {
            Windows::Whole { layout, .. } | Windows::Stream { layout, .. } => layout,
        }
    }

    /// The input's bytes when it is one window (a mapped file), for what needs them
    /// whole.
    pub fn whole(&self) -> Option<&[u8]> {
        match self {
            Windows::Whole { bytes, .. } => Some(bytes.bytes()),
            Windows::Stream { .. } => None,
        }
    }

    /// Checks a mapped file kept its length while it was read (a stream: nothing to
    /// check).
    pub fn check_unchanged(&self, path: &Path) -> Result<(), InputError> {
        match self {
            Windows::Whole { bytes, .. } => bytes.check_unchanged(path),
            Windows::Stream { .. } => Ok(()),
        }
    }

    /// The bytes before the first window (a CSV header and what precedes it).
    pub fn head(&self) -> &[u8] {
        match self {
            Windows::Whole { bytes, layout } => {
                let data = bytes.bytes();
                &data[..layout.data_start.min(data.len())]
            }
            Windows::Stream { chunks, .. } => chunks.head(),
        }
    }

    /// Calls `each` with every window in order, then checks the input ended well (a
    /// CSV quote left open, a record over the limit, a read error: named errors).
    pub fn each(
        &mut self,
        mut each: impl FnMut(Window<'_>) -> io::Result<()>,
    ) -> Result<(), WindowsError> {
        match self {
            Windows::Whole { bytes, layout } => {
                let data = bytes.bytes();
                let start = layout.data_start.min(data.len());
                each(Window {
                    bytes: &data[start..],
                    first_line: layout.first_line,
                })
                .map_err(WindowsError::Write)
            }
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
                        return Err(InputError::Io {
                            path: path.clone(),
                            source: io::Error::other(format!(
                                "line {}: a record of {length} bytes, longer than a stream's \
                                 records may be ({} bytes) for this command, which copies \
                                 records whole; decompress the file to read it mapped",
                                chunk.first_line, layout.max_record
                            )),
                        }
                        .into());
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
        }
    }
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
