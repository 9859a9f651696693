//! Opening inputs as the commands read them: mapped files, streams (stdin, FIFOs,
//! compressed files, NumPy arrays), whole datasets in memory.

use super::config::layout_choice;
use super::error::AppError;
use crate::cli::{InputArgs, LayoutArgs};
use crate::pipeline::input;
use crate::pipeline::input::{ColumnChoice, InputError};
use crate::pipeline::windows::{Windows, WindowsError};
use crate::pipeline::Shard;
use crate::values::rules::BoardRules;
use std::io::Read;
use std::path::Path;

/// Opens `input` as the library's [`input::open`] does, for a command's own options.
pub(super) fn open_input(
    input: &Path,
    no_mmap: bool,
    member: Option<&str>,
    column: &ColumnChoice,
    shard: Option<Shard>,
    max_record: Option<usize>,
) -> Result<input::Opened, AppError> {
    let options = input::HowToOpen {
        no_mmap,
        member,
        column: Some(column),
        shard: shard.map(|s| (s.index, s.count)),
        max_record,
        parquet_in_memory: None,
    };
    Ok(input::open(input, &options)?)
}

pub(super) fn load_puzzles(
    path: &Path,
    member: Option<&str>,
    layout: &LayoutArgs,
    rules: &BoardRules,
) -> Result<crate::datasets::bench::Loaded, AppError> {
    // Records are loaded once and reused: a stream is read whole, as a file is mapped.
    let bytes = read_input(path, false, member)?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(layout)?)?;
    let loaded = crate::datasets::bench::load(bytes.bytes(), &layout, rules);
    bytes.check_unchanged(path)?;
    Ok(loaded)
}

/// A whole input for the dataset commands: a mapped file, or stdin, a special file or
/// a compressed file read (and decoded) into memory, as these commands hold every
/// record's key anyway.
pub(super) fn read_input(
    path: &Path,
    no_mmap: bool,
    member: Option<&str>,
) -> Result<input::InputBytes, AppError> {
    match open_input(path, no_mmap, member, &ColumnChoice::Auto, None, None)? {
        input::Opened::Mapped(bytes) => Ok(bytes),
        input::Opened::Stream { mut reader, .. } => {
            let mut bytes = Vec::new();
            reader
                .read_to_end(&mut bytes)
                .map_err(|source| InputError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(input::InputBytes::Read(bytes))
        }
        input::Opened::Parquet { file, .. } => parquet_lines(&file, path),
    }
}

/// A Parquet file's puzzles decoded whole, as `puzzle solution` lines.
fn parquet_lines(
    file: &input::parquet::ParquetFile,
    path: &Path,
) -> Result<input::InputBytes, AppError> {
    let mut bytes = Vec::new();
    file.read_all(&mut bytes).map_err(|source| InputError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(input::InputBytes::Read(bytes))
}

/// An input for the dataset commands that read it a window at a time (`dedupe`,
/// `overlap`, `split`): a mapped file whole, a stream a chunk at a time, a Parquet
/// file decoded whole into lines. A layout error names the file.
pub(super) fn open_dataset(
    path: &Path,
    no_mmap: bool,
    member: Option<&str>,
    layout: &LayoutArgs,
) -> Result<Windows, AppError> {
    let choice = layout_choice(layout)?;
    let opened = match open_input(path, no_mmap, member, &ColumnChoice::Auto, None, None)? {
        input::Opened::Parquet { file, .. } => input::Opened::Mapped(parquet_lines(&file, path)?),
        other => other,
    };
    Windows::open(opened, path, &choice, input::DEFAULT_MAX_RECORD).map_err(|source| match source {
        InputError::Io { .. } => source.into(),
        source => AppError::Layout {
            path: path.to_path_buf(),
            source,
        },
    })
}

/// The error of a dataset read a window at a time: the input's, or the write's (named
/// by `output`).
pub(super) fn windows_error(output: Option<&Path>, e: WindowsError) -> AppError {
    match e {
        WindowsError::Input(e) => e.into(),
        WindowsError::Write(e) => super::outputs::written_error(output, e),
    }
}

/// A whole input for the dataset commands and how its records are laid out.
pub(super) fn read_dataset(
    args: &InputArgs,
) -> Result<(input::InputBytes, input::Layout), AppError> {
    let bytes = read_input(&args.input, args.no_mmap, args.member.as_deref())?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(&args.layout)?)?;
    Ok((bytes, layout))
}
