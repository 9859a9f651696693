//! Opening inputs as the commands read them: mapped files, streams (stdin, FIFOs,
//! compressed files, NumPy arrays), whole datasets in memory.

use super::*;

/// An input opened for a record job.
pub(super) enum Opened {
    /// A plain regular file, mapped (or read whole with `--no-mmap`).
    Mapped(input::InputBytes),
    /// A Parquet file, mapped, its pieces decoded by the workers.
    Parquet(input::parquet::ParquetFile),
    /// Stdin, a FIFO or other special file, a compressed file or a NumPy array: read
    /// in blocks.
    Stream {
        /// The bytes as text (decoded, NumPy rows made lines).
        reader: Reader,
        /// What was found beyond plain text (`gzip`, `NumPy`), for the summary.
        found: Vec<&'static str>,
    },
}

/// An input read as a stream.
pub(super) type Reader = Box<dyn std::io::Read + Send>;

/// Opens `input`: stdin, FIFOs, `/dev/stdin` and `<(...)` are streamed in blocks (never
/// read whole), compressed inputs (told by their first bytes) streamed through their
/// decoder, plain files mapped.
pub(super) fn open_input(
    input: &Path,
    no_mmap: bool,
    member: Option<&str>,
    column: &ColumnChoice,
) -> Result<Opened, AppError> {
    let io_error = |source| InputError::Io {
        path: input.to_path_buf(),
        source,
    };
    let stream: Option<Reader> = if is_stdin(input) {
        Some(Box::new(std::io::stdin()))
    } else if is_special(input) {
        Some(Box::new(std::fs::File::open(input).map_err(io_error)?))
    } else {
        None
    };
    let (reader, compression) = match stream {
        Some(mut reader) => {
            let head = compressed::stream_head(&mut reader).map_err(io_error)?;
            let compression = Compression::detect(head.get_ref());
            if compression.is_none() && head.get_ref().starts_with(input::parquet::MAGIC) {
                return Err(Usage::ParquetOnStream(input.to_path_buf()).into());
            }
            let whole = head.chain(reader);
            let reader: Reader = match compression {
                None => Box::new(whole),
                Some(Compression::Zip) => {
                    return Err(Usage::ZipOnStream(input.to_path_buf()).into())
                }
                Some(c) => Box::new(compressed::decode(whole, c)),
            };
            (reader, compression)
        }
        None => {
            if input.is_dir() {
                return Err(InputError::IsDirectory(input.to_path_buf()).into());
            }
            let head = compressed::file_head(input).map_err(io_error)?;
            let compression = Compression::detect(&head);
            let file = || std::fs::File::open(input).map_err(io_error);
            let reader: Reader = match compression {
                None if head.starts_with(input::npy::MAGIC) => Box::new(file()?),
                None if head.starts_with(input::parquet::MAGIC) => {
                    let file = input::parquet::open(input, column).map_err(|source| {
                        AppError::Parquet {
                            path: input.to_path_buf(),
                            source,
                        }
                    })?;
                    return Ok(Opened::Parquet(file));
                }
                None => return Ok(Opened::Mapped(input::open_file(input, no_mmap)?)),
                Some(Compression::Zip) => {
                    Box::new(compressed::decode_zip(input, member).map_err(io_error)?)
                }
                Some(c) => Box::new(compressed::decode(file()?, c)),
            };
            (reader, compression)
        }
    };
    let mut found: Vec<&'static str> = compression.iter().map(|c| c.name()).collect();
    // A NumPy array, plain or compressed: its rows become lines.
    let mut reader = reader;
    let head = compressed::stream_head(&mut reader).map_err(io_error)?;
    let is_npy = head.get_ref().starts_with(input::npy::MAGIC);
    let whole = head.chain(reader);
    let reader: Reader = if is_npy {
        found.push("NumPy");
        Box::new(
            input::npy::NpyLines::new(whole).map_err(|source| AppError::Npy {
                path: input.to_path_buf(),
                source,
            })?,
        )
    } else {
        Box::new(whole)
    };
    Ok(Opened::Stream { reader, found })
}

/// A run's report naming its input (and what it was found to be beyond plain text).
pub(super) fn report_input(
    (mut report, histogram): (RunReport, Histogram<u64>),
    input: &Path,
    found: &[&str],
) -> (RunReport, Histogram<u64>) {
    report.input = if found.is_empty() {
        input.display().to_string()
    } else {
        format!("{} ({})", input.display(), found.join(", "))
    };
    (report, histogram)
}

/// A stream's read error names the path the user gave, not `-`.
pub(super) fn named_stream_error(e: RunError, path: &Path) -> RunError {
    match e {
        RunError::Input(InputError::Io { source, .. }) => RunError::Input(InputError::Io {
            path: path.to_path_buf(),
            source,
        }),
        other => other,
    }
}

pub(super) fn load_puzzles(
    path: &Path,
    layout: &LayoutArgs,
    rules: &BoardRules,
) -> Result<crate::bench::Loaded, AppError> {
    // Records are loaded once and reused: a stream is read whole, as a file is mapped.
    let bytes = read_input(path, false)?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(layout))?;
    let loaded = crate::bench::load(bytes.bytes(), &layout, rules);
    bytes.check_unchanged(path)?;
    Ok(loaded)
}

/// A whole input for the dataset commands: a mapped file, or stdin, a special file or
/// a compressed file read (and decoded) into memory, as these commands hold every
/// record's key anyway.
pub(super) fn read_input(path: &Path, no_mmap: bool) -> Result<input::InputBytes, AppError> {
    match open_input(path, no_mmap, None, &ColumnChoice::Auto)? {
        Opened::Mapped(bytes) => Ok(bytes),
        Opened::Stream { mut reader, .. } => {
            let mut bytes = Vec::new();
            reader
                .read_to_end(&mut bytes)
                .map_err(|source| InputError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(input::InputBytes::Read(bytes))
        }
        Opened::Parquet(file) => {
            let mut bytes = Vec::new();
            file.read_all(&mut bytes).map_err(|source| InputError::Io {
                path: path.to_path_buf(),
                source,
            })?;
            Ok(input::InputBytes::Read(bytes))
        }
    }
}

/// A whole input for the dataset commands and how its records are laid out.
pub(super) fn read_dataset(
    args: &InputArgs,
) -> Result<(input::InputBytes, input::Layout), AppError> {
    let bytes = read_input(&args.input, args.no_mmap)?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(&args.layout))?;
    Ok((bytes, layout))
}
