//! Output sinks: regular files are written atomically (a temporary file in the same
//! directory, renamed into place on success); special files (`/dev/null`, FIFOs) and
//! stdout are written directly, never replaced. A path naming one of the process's own
//! descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) writes
//! to that descriptor, whatever it is open on: a shell's `> file` is extended, not
//! replaced.
//!
//! Temporary files are registered so that an interrupted run (Ctrl-C) removes them.
//!
//! An output may also be encoded: [`Encoding::Parquet`] turns the CSV rows written into
//! it into a Parquet file ([`parquet`]), [`Encoding::Compressed`] compresses what is
//! written (gzip or zstd, as its name asks: [`name`]), committed the same way.

pub mod copied;
pub mod csv_records;
mod data_sync;
pub mod name;
pub mod parquet;
pub mod retext;
pub mod tabular;

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use data_sync::DataSync;

/// Temporary files to delete if the process is interrupted.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Errors at the output edge.
#[derive(Debug)]
pub enum OutputError {
    /// The output (or its temporary file) could not be created.
    Create {
        /// The output path asked for.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// An output names an input, or the same file as another output.
    Clash {
        /// The output path.
        path: PathBuf,
        /// The option that names it (`-o`, `--report`, ...).
        what: String,
        /// What else it names (`the input`, `the --report file`, ...).
        other: String,
    },
    /// The output's name asks for a format or compression that is not written.
    Unwritable {
        /// The output path.
        path: PathBuf,
        /// What its name asks for.
        what: String,
    },
    /// Writing failed (disk full, closed pipe, ...).
    Write {
        /// The output path, `-` for stdout.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl OutputError {
    /// True when the reader of a pipe went away (`| head`): not worth a message.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, OutputError::Write { source, .. } if source.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OutputError::Create { path, source } => {
                write!(f, "{}: cannot create output: {source}", path.display())
            }
            OutputError::Write { path, source } => {
                write!(f, "{}: write failed: {source}", path.display())
            }
            OutputError::Unwritable { path, what } => write!(
                f,
                "{}: cannot write {what}; name a .csv, .tsv, .ndjson (or .jsonl) or .parquet file, \
                 .gz or .zst after it to compress, or another name with --output-format",
                path.display()
            ),
            OutputError::Clash { path, what, other } => write!(
                f,
                "{}: {what} would overwrite {other}; name another file",
                path.display()
            ),
        }
    }
}

impl std::error::Error for OutputError {}

enum Destination {
    Stdout(io::Stdout),
    Direct(File),
    Stream(Box<dyn Write + Send>),
    /// The temporary file of an atomic write.
    Atomic {
        file: File,
        /// Bytes written so far.
        written: u64,
        /// How far its writeback was started ([`start_writeback`]).
        started: u64,
        /// Its data synced while the run goes on.
        sync: DataSync,
    },
}

/// How the bytes written reach the target.
enum Sink {
    /// As they are.
    Plain(Destination),
    /// CSV rows read back and written as a Parquet file.
    Parquet(Box<parquet::ParquetRows<Destination>>),
    /// gzip-compressed.
    Gzip(flate2::write::GzEncoder<Destination>),
    /// Zstandard-compressed.
    Zstd(zstd::stream::write::Encoder<'static, Destination>),
    /// CSV rows read back and written as tab-separated rows or JSON lines, into a plain
    /// or compressed sink.
    Retext(Box<retext::RetextRows<Sink>>),
}

/// How an output encodes what is written into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Bytes as written.
    Plain,
    /// CSV rows (a header first) become a Parquet file; the first `typed` columns are
    /// typed by name, the rest are text.
    Parquet {
        /// How many leading columns are the run's own.
        typed: usize,
    },
    /// Bytes as written, compressed.
    Compressed(name::Codec),
    /// CSV rows (a header first) written again as `table` says, compressed by `codec`;
    /// the first `typed` columns are typed by name in JSON lines.
    Retext {
        /// The format the rows are written in.
        table: retext::TextTable,
        /// How many leading columns are the command's own.
        typed: usize,
        /// The compression after it, if any.
        codec: Option<name::Codec>,
    },
}

impl Encoding {
    /// The encoding an output's name asks for by itself: compressed by a trailing `.gz`
    /// or `.zst`, else plain.
    pub fn of_name(path: Option<&Path>) -> Encoding {
        match name::Named::of(path).codec {
            Some(codec) => Encoding::Compressed(codec),
            None => Encoding::Plain,
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Plain(t) => t.write(buf),
            Sink::Parquet(p) => p.write(buf),
            Sink::Gzip(e) => e.write(buf),
            Sink::Zstd(e) => e.write(buf),
            Sink::Retext(r) => r.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Plain(t) => t.flush(),
            Sink::Parquet(p) => p.flush(),
            Sink::Gzip(e) => e.flush(),
            Sink::Zstd(e) => e.flush(),
            Sink::Retext(r) => r.flush(),
        }
    }
}

impl Sink {
    /// Ends an encoding (a Parquet file's footer) and gives the target.
    fn finish(&mut self) -> io::Result<&mut Destination> {
        match self {
            Sink::Plain(t) => Ok(t),
            Sink::Parquet(p) => {
                p.finish()?;
                p.inner_mut()
                    .ok_or_else(|| io::Error::other("Parquet output unfinished"))
            }
            Sink::Gzip(e) => {
                e.try_finish()?;
                Ok(e.get_mut())
            }
            Sink::Zstd(e) => {
                e.do_finish()?;
                Ok(e.get_mut())
            }
            Sink::Retext(r) => {
                r.finish()?;
                r.inner_mut().finish()
            }
        }
    }
}

impl Write for Destination {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Destination::Stdout(s) => s.write(buf),
            Destination::Stream(w) => w.write(buf),
            Destination::Direct(f) => f.write(buf),
            Destination::Atomic {
                file,
                written,
                started,
                sync,
            } => {
                let n = file.write(buf)?;
                *written += n as u64;
                if *written - *started >= WRITEBACK_BYTES {
                    start_writeback(file, *started, *written - *started);
                    sync.after_write(file, *started, *written - *started);
                    *started = *written;
                }
                Ok(n)
            }
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Destination::Stdout(s) => s.flush(),
            Destination::Stream(w) => w.flush(),
            Destination::Direct(file) | Destination::Atomic { file, .. } => file.flush(),
        }
    }
}

/// A place to write results; call [`Output::finish`] to commit.
pub struct Output {
    buffer: BufWriter<Sink>,
    path: PathBuf,
    /// The temporary file renamed into place on success, for a regular file.
    temp: Option<PathBuf>,
    committed: bool,
}

/// Writes through the buffer, for code that takes any writer; [`Output::finish`] still
/// commits.
impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.buffer.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.buffer.flush()
    }
}

impl Output {
    /// Opens `path` for writing, compressed where its name ends in `.gz` or `.zst`
    /// ([`Encoding::of_name`]); `None` or `-` means stdout.
    pub fn open(path: Option<&Path>) -> Result<Output, OutputError> {
        Self::open_as(path, Encoding::of_name(path))
    }

    /// Opens `path` for writing in `encoding`; `None` or `-` means stdout.
    pub fn open_as(path: Option<&Path>, encoding: Encoding) -> Result<Output, OutputError> {
        let create_err = |p: &Path| {
            let p = p.to_path_buf();
            move |source| OutputError::Create { path: p, source }
        };
        let mut temp_file = None;
        let (target, shown) = match (path, path.and_then(own_descriptor)) {
            (None, _) => (Destination::Stdout(io::stdout()), PathBuf::from("stdout")),
            (Some(p), _) if p == Path::new("-") => {
                (Destination::Stdout(io::stdout()), PathBuf::from("stdout"))
            }
            (Some(p), Some(fd)) => {
                let file = open_descriptor(fd, p).map_err(create_err(p))?;
                (Destination::Direct(file), p.to_path_buf())
            }
            (Some(p), None) => match fs::metadata(p) {
                Ok(meta) if meta.is_dir() => {
                    return Err(OutputError::Create {
                        path: p.to_path_buf(),
                        source: io::Error::other("is a directory"),
                    })
                }
                Ok(meta) if !meta.is_file() => {
                    let file = OpenOptions::new()
                        .write(true)
                        .open(p)
                        .map_err(create_err(p))?;
                    (Destination::Direct(file), p.to_path_buf())
                }
                existing => {
                    // A link is written through: the file it names is replaced.
                    let dest = through_links(p);
                    let temp = temp_path(&dest);
                    let file = OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&temp)
                        .map_err(|e| temp_error(&dest, e))
                        .map_err(create_err(p))?;
                    register(&temp);
                    // A replaced file keeps its permissions.
                    if let Ok(meta) = existing {
                        let _ = fs::set_permissions(&temp, meta.permissions());
                    }
                    temp_file = Some(temp);
                    let target = Destination::Atomic {
                        file,
                        written: 0,
                        started: 0,
                        sync: DataSync::default(),
                    };
                    (target, dest)
                }
            },
        };
        let compressed = |codec: Option<name::Codec>, target: Destination| match codec {
            None => Ok(Sink::Plain(target)),
            Some(name::Codec::Gzip) => Ok(Sink::Gzip(flate2::write::GzEncoder::new(
                target,
                flate2::Compression::default(),
            ))),
            Some(name::Codec::Zstd) => zstd::stream::write::Encoder::new(target, 3)
                .map(Sink::Zstd)
                .map_err(|source| OutputError::Create {
                    path: shown.clone(),
                    source,
                }),
        };
        let sink = match encoding {
            Encoding::Plain => Sink::Plain(target),
            Encoding::Parquet { typed } => {
                Sink::Parquet(Box::new(parquet::ParquetRows::new(target, typed)))
            }
            Encoding::Compressed(codec) => compressed(Some(codec), target)?,
            Encoding::Retext {
                table,
                typed,
                codec,
            } => Sink::Retext(Box::new(retext::RetextRows::new(
                compressed(codec, target)?,
                table,
                typed,
            ))),
        };
        Ok(Output {
            buffer: BufWriter::with_capacity(256 * 1024, sink),
            path: shown,
            temp: temp_file,
            committed: false,
        })
    }

    /// An output into any writer (an HTTP response body, a pipe), written directly;
    /// `name` is what error messages call it.
    pub fn stream(writer: Box<dyn Write + Send>, name: &str) -> Output {
        Output {
            buffer: BufWriter::with_capacity(64 * 1024, Sink::Plain(Destination::Stream(writer))),
            path: PathBuf::from(name),
            temp: None,
            committed: false,
        }
    }

    /// Writes bytes.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), OutputError> {
        self.buffer
            .write_all(bytes)
            .map_err(|source| OutputError::Write {
                path: self.path.clone(),
                source,
            })
    }

    /// For a plain regular file (written atomically, not encoded): flushes what is
    /// buffered and gives a second handle to the file and the offset of the next byte,
    /// so that chunks of rows can be written at their offsets from several threads.
    /// `None` for every other output. Nothing may be written through the output again
    /// before [`Output::resume_at`] is told where those writes ended.
    pub fn positional(&mut self) -> Result<Option<(File, u64)>, OutputError> {
        // Only a file is flushed here: a stream (an HTTP response) keeps what it holds
        // until its rows come, so that a request can still fail with its own status.
        let atomic = matches!(
            self.buffer.get_ref(),
            Sink::Plain(Destination::Atomic { .. })
        );
        if !cfg!(unix) || !atomic {
            return Ok(None);
        }
        self.buffer.flush().map_err(|e| self.write_error(e))?;
        let Sink::Plain(Destination::Atomic { file, .. }) = self.buffer.get_mut() else {
            return Ok(None);
        };
        let handle = file
            .stream_position()
            .and_then(|at| Ok((file.try_clone()?, at)));
        handle.map(Some).map_err(|e| self.write_error(e))
    }

    /// Bytes `at..at + len` were handed out to be written at their offset (through the
    /// handle [`Output::positional`] gave): asks for the file's data to be synced where
    /// they cross a mark, by the time the sync runs as far as they are written. Nothing
    /// waits here.
    pub fn positional_write(&mut self, at: u64, len: u64) {
        if let Sink::Plain(Destination::Atomic { file, sync, .. }) = self.buffer.get_mut() {
            sync.after_write(file, at, len);
        }
    }

    /// Goes on writing at `end`, where the positional writes ended.
    pub fn resume_at(&mut self, end: u64) -> Result<(), OutputError> {
        let moved = match self.buffer.get_mut() {
            Sink::Plain(Destination::Atomic {
                file,
                written,
                started,
                ..
            }) => {
                // The positional writes started their own writeback.
                (*written, *started) = (end, end);
                file.seek(SeekFrom::Start(end)).map(drop)
            }
            _ => Ok(()),
        };
        moved.map_err(|e| self.write_error(e))
    }

    /// A write error naming this output.
    pub fn write_error(&self, source: io::Error) -> OutputError {
        OutputError::Write {
            path: self.path.clone(),
            source,
        }
    }

    /// [`Output::finish`], giving the seconds it took: a run's wall time counts the
    /// commit (flush, fsync, rename), as the rows are not the user's before it.
    pub fn finish_timed(self) -> Result<f64, OutputError> {
        let committing = std::time::Instant::now();
        self.finish()?;
        Ok(committing.elapsed().as_secs_f64())
    }

    /// Flushes and, for a regular file, renames the temporary file into place.
    pub fn finish(mut self) -> Result<(), OutputError> {
        let path = self.path.clone();
        let write_err = |source| OutputError::Write {
            path: path.clone(),
            source,
        };
        self.buffer.flush().map_err(write_err)?;
        let target = self.buffer.get_mut().finish().map_err(write_err)?;
        target.flush().map_err(write_err)?;
        if let (Destination::Atomic { file, sync, .. }, Some(temp)) = (target, &self.temp) {
            sync.finish().map_err(write_err)?;
            file.sync_all().map_err(write_err)?;
            fs::rename(temp, &self.path).map_err(write_err)?;
            unregister(temp);
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            if !self.committed {
                let _ = fs::remove_file(temp);
                unregister(temp);
            }
        }
    }
}

/// How much an atomic write's temporary file takes between starts of its writeback.
const WRITEBACK_BYTES: u64 = 8 << 20;

/// Starts the writeback of `len` bytes at `at` without waiting for it, so that the
/// commit's fsync has little left to flush (measured: after classifying 1M puzzles into
/// 180 MB of rows on 2 threads it waited 75 ms, once every worker had finished; 1 ms
/// with this). Advice only: where the file system cannot, the fsync does it all.
#[cfg(target_os = "linux")]
pub(crate) fn start_writeback(file: &File, at: u64, len: u64) {
    use std::os::fd::AsRawFd;
    let (Ok(at), Ok(len)) = (i64::try_from(at), i64::try_from(len)) else {
        return;
    };
    // SAFETY: sync_file_range reads no memory of ours: it takes an open descriptor
    // (borrowed from `file`, alive for the call) and a byte range, and only asks the
    // kernel to start writing that range's dirty pages.
    unsafe {
        libc::sync_file_range(file.as_raw_fd(), at, len, libc::SYNC_FILE_RANGE_WRITE);
    }
}

/// Elsewhere the commit's fsync writes everything.
#[cfg(not(target_os = "linux"))]
pub(crate) fn start_writeback(_: &File, _: u64, _: u64) {}

/// The paths met following `path`'s symbolic links: `path` itself, then each link's
/// target in turn (a bounded walk, as the kernel's, in case of a loop).
fn link_chain(path: &Path) -> impl Iterator<Item = PathBuf> {
    std::iter::successors(Some(path.to_path_buf()), |path| {
        let target = fs::read_link(path).ok()?;
        Some(match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        })
    })
    .take(41)
}

/// The file a path names once symbolic links are followed (a dangling link: the path
/// it points at); the path itself when it is no link.
fn through_links(path: &Path) -> PathBuf {
    link_chain(path)
        .last()
        .unwrap_or_else(|| path.to_path_buf())
}

/// The descriptor of this process that `path` names, directly or through links:
/// `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N`.
fn own_descriptor(path: &Path) -> Option<u32> {
    link_chain(path).find_map(|p| match p.to_str()? {
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        p => ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"]
            .iter()
            .find_map(|dir| p.strip_prefix(dir)?.parse().ok()),
    })
}

/// Opens `path`, which names this process's descriptor `fd` ([`own_descriptor`]), so
/// that writes go where that descriptor's go: stdout and stderr shared (their offset
/// too), any other opened anew for appending.
fn open_descriptor(fd: u32, path: &Path) -> io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        match fd {
            1 => return io::stdout().as_fd().try_clone_to_owned().map(File::from),
            2 => return io::stderr().as_fd().try_clone_to_owned().map(File::from),
            _ => {}
        }
    }
    #[cfg(not(unix))]
    let _ = fd;
    OpenOptions::new().append(true).open(path)
}

/// What a path names, to tell whether two paths are one file: the file's identity when
/// it exists, else its directory's canonical path and its name.
#[derive(PartialEq, Eq)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    Path(PathBuf),
}

fn file_id(path: &Path) -> Option<FileId> {
    let path = through_links(path);
    match fs::metadata(&path) {
        // Special files (`/dev/null`, FIFOs, ttys) are written directly, and may repeat.
        Ok(meta) if !meta.is_file() => None,
        #[cfg(unix)]
        Ok(meta) => {
            use std::os::unix::fs::MetadataExt;
            Some(FileId::Inode(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        Ok(_) => fs::canonicalize(&path).ok().map(FileId::Path),
        Err(_) => {
            let dir = match path.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir,
                _ => Path::new("."),
            };
            let dir = fs::canonicalize(dir).ok()?;
            Some(FileId::Path(dir.join(path.file_name()?)))
        }
    }
}

/// Checks, before any work, that no output is an input or another output, and that
/// each output can be created (its directory exists and takes a new file). `inputs`
/// and `outputs` are (path, what it is) pairs; stdout (`-`) and special files such as
/// `/dev/null` may appear more than once.
pub fn check_outputs(
    inputs: &[(&Path, &str)],
    outputs: &[(&Path, &str)],
) -> Result<(), OutputError> {
    // Stdin (`-`) is the file it is redirected from, where it is one (`< in.txt`).
    let stdin = Path::new(if cfg!(unix) { "/dev/stdin" } else { "-" });
    let mut seen: Vec<(FileId, String)> = inputs
        .iter()
        .map(|&(p, what)| (if p == Path::new("-") { stdin } else { p }, what))
        .filter(|(p, _)| *p != Path::new("-"))
        .filter_map(|(p, what)| file_id(p).map(|id| (id, what.to_string())))
        .collect();
    for &(path, what) in outputs {
        if path == Path::new("-") {
            continue;
        }
        if own_descriptor(path).is_some()
            || fs::metadata(through_links(path)).is_ok_and(|m| !m.is_file())
        {
            continue;
        }
        // Creating (and dropping) the output makes and removes its temporary file: the
        // directory exists and is writable, or the error says why.
        drop(Output::open(Some(path))?);
        let Some(id) = file_id(path) else { continue };
        if let Some((_, other)) = seen.iter().find(|(known, _)| *known == id) {
            return Err(OutputError::Clash {
                path: path.to_path_buf(),
                what: what.to_string(),
                other: other.clone(),
            });
        }
        seen.push((id, format!("the {what} file")));
    }
    Ok(())
}

/// `.NAME.PID.tmp` beside the destination, so the final rename stays on one filesystem.
fn temp_path(dest: &Path) -> PathBuf {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let temp_name = format!(".{name}.{}.tmp", std::process::id());
    match dest.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(temp_name),
        _ => PathBuf::from(temp_name),
    }
}

fn register(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut pending) = PENDING.lock() {
        pending.retain(|p| p != path);
    }
}

/// Writes a small file (report, histogram) atomically in one go.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let mut out = Output::open(Some(path))?;
    out.write_all(bytes)?;
    out.finish()
}

/// Removes every registered temporary file; called from the Ctrl-C handler.
pub fn remove_pending() {
    // try_lock: never block inside an interrupt path if a writer holds the lock.
    if let Ok(pending) = PENDING.try_lock() {
        for p in pending.iter() {
            let _ = fs::remove_file(p);
        }
    }
}

/// Why the temporary file beside `dest` could not be made, in words: a folder that
/// does not exist, or one that takes no new files (`/proc`, a read-only mount), which
/// the system's own message ("No such file or directory") does not tell apart.
fn temp_error(dest: &Path, e: io::Error) -> io::Error {
    let folder = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return io::Error::new(e.kind(), format!("no such folder: {}", folder.display()));
    }
    io::Error::new(
        e.kind(),
        format!(
            "{} takes no new file (the output is written beside its name, then renamed \
             into place): {e}",
            folder.display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::data_sync::DATA_SYNC_BYTES;
    use super::*;

    /// A line of 101 bytes, and how many make a file past two sync marks.
    fn line_and_count() -> (Vec<u8>, u64) {
        let line: Vec<u8> = (0..100u8).map(|i| b'a' + i % 26).chain([b'\n']).collect();
        let count = (2 * DATA_SYNC_BYTES + 12_345) / line.len() as u64;
        (line, count)
    }

    fn committed_whole(path: &Path, line: &[u8], count: u64) {
        let text = fs::read(path).unwrap();
        assert_eq!(text.len() as u64, count * line.len() as u64);
        assert!(text.chunks(line.len()).all(|l| l == line));
        let dir = path.parent().unwrap();
        assert_eq!(fs::read_dir(dir).unwrap().count(), 1, "temporary file left");
    }

    #[test]
    fn a_file_past_several_sync_marks_is_committed_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.txt");
        let mut out = Output::open(Some(&path)).unwrap();
        let (line, count) = line_and_count();
        for _ in 0..count {
            out.write_all(&line).unwrap();
        }
        out.finish().unwrap();
        committed_whole(&path, &line, count);
    }

    #[cfg(unix)]
    #[test]
    fn positional_writes_past_several_sync_marks_are_committed_whole() {
        use std::os::unix::fs::FileExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.txt");
        let mut out = Output::open(Some(&path)).unwrap();
        let (line, count) = line_and_count();
        out.write_all(&line).unwrap();
        let (file, mut at) = out.positional().unwrap().unwrap();
        assert_eq!(at, line.len() as u64);
        let chunk = line.repeat(1000);
        let mut left = count - 2;
        while left > 0 {
            let lines = left.min(1000);
            let bytes = &chunk[..lines as usize * line.len()];
            out.positional_write(at, bytes.len() as u64);
            file.write_all_at(bytes, at).unwrap();
            at += bytes.len() as u64;
            left -= lines;
        }
        out.resume_at(at).unwrap();
        out.write_all(&line).unwrap();
        out.finish().unwrap();
        committed_whole(&path, &line, count);
    }
}
