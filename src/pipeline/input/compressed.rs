//! Compressed inputs, told by their first bytes (never by their names): gzip (several
//! members and BGZF included), zstd, xz, and a zip archive's member. Each is decoded on
//! a thread of its own into a small bounded channel of blocks, read back as a plain
//! stream by the same record pipeline as stdin, so memory stays bounded whatever the
//! input expands to and the workers do not wait on the decoder.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Arc;

/// Bytes of decoded data per block sent to the reader.
pub(crate) const BLOCK: usize = 1 << 20;

/// Blocks decoded ahead of the reader at most.
const AHEAD: usize = 4;

/// Bytes a stream's first look takes (the longest magic number, xz's).
pub const MAGIC_BYTES: usize = 6;

/// A compression format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// gzip (RFC 1952), any number of members.
    Gzip,
    /// Zstandard, any number of frames.
    Zstd,
    /// xz (LZMA2).
    Xz,
    /// A zip archive: one member is read.
    Zip,
}

impl Compression {
    /// The format whose magic number `head` starts with.
    pub fn detect(head: &[u8]) -> Option<Compression> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Compression::Gzip)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Compression::Zstd)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            Some(Compression::Xz)
        } else if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
            Some(Compression::Zip)
        } else {
            None
        }
    }

    /// The format's name, as messages and the summary say it.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
            Compression::Xz => "xz",
            Compression::Zip => "zip",
        }
    }
}

/// The first bytes of the file at `path` (fewer when it is shorter).
pub fn file_head(path: &Path) -> io::Result<Vec<u8>> {
    let mut head = Vec::with_capacity(MAGIC_BYTES);
    File::open(path)?
        .take(MAGIC_BYTES as u64)
        .read_to_end(&mut head)?;
    Ok(head)
}

/// Reads up to [`MAGIC_BYTES`] from `reader` (fewer only at its end), to look at
/// before the stream is read: put them back in front with `head.chain(reader)`.
pub fn stream_head<R: Read>(reader: &mut R) -> io::Result<io::Cursor<Vec<u8>>> {
    let mut head = Vec::with_capacity(MAGIC_BYTES);
    reader
        .by_ref()
        .take(MAGIC_BYTES as u64)
        .read_to_end(&mut head)?;
    Ok(io::Cursor::new(head))
}

/// The most memory the xz decoder may take (a stream needing more is an error): as
/// much as zstd's largest default window, and past what `xz -9` (64 MiB dictionary)
/// needs to decode.
pub const XZ_MEMORY_LIMIT: u64 = 128 << 20;

/// The decoded bytes of a compressed input, made on another thread.
pub struct Decoded {
    blocks: Receiver<io::Result<Vec<u8>>>,
    current: Vec<u8>,
    at: usize,
    done: bool,
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.current.len() {
            if self.done {
                return Ok(0);
            }
            match self.blocks.recv() {
                // The decoder ended (its sender is gone after the last block).
                Err(_) => {
                    self.done = true;
                    return Ok(0);
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                Ok(Ok(block)) => {
                    self.current = block;
                    self.at = 0;
                }
            }
        }
        let n = buf.len().min(self.current.len() - self.at);
        buf[..n].copy_from_slice(&self.current[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// Counts the compressed bytes a decoder has taken, for the offset in error messages.
struct Counted<R> {
    inner: R,
    taken: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.taken.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Decodes `source` (compressed as `compression`, never [`Compression::Zip`], which
/// needs a file: see [`decode_zip`]) on a new thread.
pub fn decode<R: Read + Send + 'static>(source: R, compression: Compression) -> Decoded {
    let taken = Arc::new(AtomicU64::new(0));
    let counted = BufReader::with_capacity(
        1 << 16,
        Counted {
            inner: source,
            taken: Arc::clone(&taken),
        },
    );
    start(move |send| {
        let decoder: Box<dyn Read> = match compression {
            Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(counted)),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(counted)?),
            Compression::Xz => {
                // Memory bounded as zstd's window is: a stream may declare a dictionary
                // of up to 4 GiB, which the decoder would otherwise allocate.
                let stream = liblzma::stream::Stream::new_stream_decoder(
                    XZ_MEMORY_LIMIT,
                    liblzma::stream::CONCATENATED,
                )
                .map_err(io::Error::other)?;
                Box::new(liblzma::bufread::XzDecoder::new_stream(counted, stream))
            }
            Compression::Zip => {
                return Err(io::Error::other("a zip archive is read from a file"));
            }
        };
        pump(decoder, send)
            .map_err(|e| described(e, compression, Some(taken.load(Ordering::Relaxed))))
    })
}

/// Decodes one member of the zip archive at `path` on a new thread: the only file in
/// it, or the one named `member`. A missing or ambiguous member is an error here, before
/// any thread starts.
pub fn decode_zip(path: &Path, member: Option<&str>) -> io::Result<Decoded> {
    let file = File::open(path)?;
    let mut archive = zip::ZipArchive::new(BufReader::new(file))
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("bad zip archive: {e}")))?;
    // An archive that names two entries alike is refused: zip tools disagree on which
    // one a name reads (the zip crate keeps the last), so a result would depend on it.
    if let Some(entries) = central_directory_entries(path)? {
        if entries > archive.len() as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the zip archive holds {entries} entries under {} name{}: a name is \
                     repeated, and tools disagree on which entry it reads",
                    archive.len(),
                    if archive.len() == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    let files: Vec<(usize, String)> = (0..archive.len())
        .filter_map(|i| {
            let name = archive.name_for_index(i)?.to_string();
            (!name.ends_with('/')).then_some((i, name))
        })
        .collect();
    let index = match member {
        Some(wanted) => files
            .iter()
            .find(|(_, name)| name == wanted)
            .map(|(i, _)| *i)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!(
                        "no member {wanted:?} in the archive; it holds {}",
                        listed(&files)
                    ),
                )
            })?,
        None => match files.as_slice() {
            [(i, _)] => *i,
            [] => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the zip archive holds no file",
                ))
            }
            _ => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "the zip archive holds {} files ({}): choose one with --member NAME",
                        files.len(),
                        listed(&files)
                    ),
                ))
            }
        },
    };
    Ok(start(move |send| {
        let member = archive
            .by_index(index)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("zip: {e}")))?;
        pump(member, send).map_err(|e| described(e, Compression::Zip, None))
    }))
}

/// The number of entries the zip file at `path` declares in its end of central
/// directory record (`None` where it defers to a Zip64 record or none is found).
fn central_directory_entries(path: &Path) -> io::Result<Option<u64>> {
    use std::io::{Seek, SeekFrom};
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    // The record is 22 bytes and ends the file, after a comment of at most 65,535.
    let tail = len.min(22 + 65_535);
    file.seek(SeekFrom::Start(len - tail))?;
    let mut buf = vec![0u8; tail as usize];
    file.read_exact(&mut buf)?;
    let Some(at) = buf.windows(4).rposition(|w| w == [0x50, 0x4b, 0x05, 0x06]) else {
        return Ok(None);
    };
    let Some(count) = buf.get(at + 10..at + 12) else {
        return Ok(None);
    };
    let count = u16::from_le_bytes([count[0], count[1]]);
    Ok((count != u16::MAX).then_some(u64::from(count)))
}

/// Up to five member names, for messages.
fn listed(files: &[(usize, String)]) -> String {
    let mut names: Vec<&str> = files.iter().take(5).map(|(_, n)| n.as_str()).collect();
    if files.len() > 5 {
        names.push("...");
    }
    names.join(", ")
}

/// Where a decoding thread sends its blocks.
pub(crate) type Sender = std::sync::mpsc::SyncSender<io::Result<Vec<u8>>>;

/// Runs `decode` on a new thread, its blocks and its error (if any) going to the reader.
pub(crate) fn start<F>(decode: F) -> Decoded
where
    F: FnOnce(&Sender) -> io::Result<()> + Send + 'static,
{
    let (send, blocks) = sync_channel(AHEAD);
    let spawned = std::thread::Builder::new()
        .name("sudoku-decode".into())
        .spawn(move || {
            if let Err(e) = decode(&send) {
                let _ = send.send(Err(e));
            }
        });
    let blocks = match spawned {
        Ok(_) => blocks,
        // No thread: the reader meets the error at its first read.
        Err(e) => {
            let (send, failed) = sync_channel(1);
            let _ = send.send(Err(e));
            failed
        }
    };
    Decoded {
        blocks,
        current: Vec::new(),
        at: 0,
        done: false,
    }
}

/// Reads `decoder` to its end in blocks into `send`; stops quietly when the reader has
/// gone (the run ended early).
fn pump(mut decoder: impl Read, send: &Sender) -> io::Result<()> {
    loop {
        let mut block = vec![0u8; BLOCK];
        let mut filled = 0;
        while filled < BLOCK {
            match decoder.read(&mut block[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if filled == 0 {
            return Ok(());
        }
        block.truncate(filled);
        let last = filled < BLOCK;
        if send.send(Ok(block)).is_err() || last {
            return Ok(());
        }
    }
}

/// A decoding error as one line naming the format and the offset (the caller names the
/// input).
fn described(e: io::Error, compression: Compression, at: Option<u64>) -> io::Error {
    let what = if e.kind() == io::ErrorKind::UnexpectedEof {
        "truncated".to_string()
    } else if compression == Compression::Xz && e.to_string() == "memory limit reached" {
        format!(
            "needs more memory to decode than the {} MiB allowed (a dictionary that large)",
            XZ_MEMORY_LIMIT >> 20
        )
    } else if compression == Compression::Zstd && e.to_string().contains("requires too much memory")
    {
        // Not corrupt: made with a long window (`zstd --long=28` and more), which would
        // take that much memory to decode.
        "needs a window over the 128 MiB allowed (made with zstd --long=28 or more; \
         decompress it with zstd -d --long=31 first)"
            .to_string()
    } else {
        format!("corrupt ({e})")
    };
    let offset = at.map_or(String::new(), |n| {
        format!(" after {n} bytes of compressed input")
    });
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{} data {what}{offset}", compression.name()),
    )
}
