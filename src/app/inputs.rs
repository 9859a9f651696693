//! Opening inputs as the commands read them: mapped files, streams (stdin, FIFOs,
//! compressed files, NumPy arrays), whole datasets in memory.

use super::config::layout_choice;
use super::error::AppError;
use crate::cli::LayoutArgs;
use crate::pipeline::input;
use crate::pipeline::input::{ColumnChoice, InputError};
use crate::pipeline::windows::{Windows, WindowsError};
use crate::pipeline::Shard;
use crate::values::rules::BoardRules;
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
    // Records are loaded once and reused: a mapped file is parsed in place, a stream
    // (compressed, stdin) and a Parquet file as they are read, only the puzzles held.
    let choice = layout_choice(layout)?;
    match open_input(path, false, member, &ColumnChoice::Auto, None, None)? {
        input::Opened::Mapped(bytes) => {
            let layout = input::detect_layout_as(bytes.bytes(), &choice)?;
            let loaded = crate::datasets::bench::load(bytes.bytes(), &layout, rules);
            bytes.check_unchanged(path)?;
            Ok(loaded)
        }
        opened => {
            let mut loader = crate::datasets::bench::Loader::new(rules);
            crate::pipeline::records::each_record(
                opened,
                path,
                &choice,
                input::DEFAULT_MAX_RECORD,
                |_, record| {
                    loader.add(record);
                    std::ops::ControlFlow::Continue(())
                },
            )?;
            Ok(loader.finish())
        }
    }
}

/// An input for the dataset commands that read it a window at a time (`dedupe`,
/// `overlap`, `split`, `audit`): a mapped file whole, a stream a chunk at a time, a
/// Parquet file a piece at a time as lines. A layout error names the file.
pub(super) fn open_dataset(
    path: &Path,
    no_mmap: bool,
    member: Option<&str>,
    layout: &LayoutArgs,
) -> Result<Windows, AppError> {
    open_dataset_as(path, no_mmap, member, &layout_choice(layout)?)
}

/// [`open_dataset`] read as `choice` says.
pub(super) fn open_dataset_as(
    path: &Path,
    no_mmap: bool,
    member: Option<&str>,
    choice: &input::Choice,
) -> Result<Windows, AppError> {
    let opened = open_input(path, no_mmap, member, &ColumnChoice::Auto, None, None)?;
    windows_of(opened, path, choice)
}

/// A stream a command reads twice (`split` of stdin or a FIFO): its bytes as read (a
/// compressed stream still compressed) copied to an unnamed temporary file, which the
/// system removes when it is closed. Memory holds none of it.
pub(super) struct Spool(std::fs::File);

impl Spool {
    /// Copies all of `path` (`-` for stdin) to a temporary file.
    pub(super) fn of(path: &Path) -> Result<Spool, AppError> {
        let io = |source| InputError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = tempfile::tempfile().map_err(|e| {
            io(std::io::Error::other(format!(
                "a temporary file to hold the stream (it is read twice): {e}"
            )))
        })?;
        if input::is_stdin(path) {
            std::io::copy(&mut std::io::stdin().lock(), &mut file)
        } else {
            std::fs::File::open(path).and_then(|mut source| std::io::copy(&mut source, &mut file))
        }
        .map_err(io)?;
        Ok(Spool(file))
    }

    /// The stream from its start, named `path`, read as `layout` says.
    pub(super) fn open(&self, path: &Path, layout: &LayoutArgs) -> Result<Windows, AppError> {
        use std::io::{Seek, SeekFrom};
        let io = |source| InputError::Io {
            path: path.to_path_buf(),
            source,
        };
        let mut file = self.0.try_clone().map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let options = input::HowToOpen {
            no_mmap: false,
            member: None,
            column: Some(&ColumnChoice::Auto),
            shard: None,
            max_record: None,
            parquet_in_memory: None,
        };
        let opened = input::open_stream(Box::new(file), path, &options)?;
        windows_of(opened, path, &layout_choice(layout)?)
    }
}

/// [`Windows`] of an opened input, named `path`, read as `choice` says.
fn windows_of(
    opened: input::Opened,
    path: &Path,
    choice: &input::Choice,
) -> Result<Windows, AppError> {
    Windows::open(opened, path, choice, input::DEFAULT_MAX_RECORD).map_err(|source| match source {
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
