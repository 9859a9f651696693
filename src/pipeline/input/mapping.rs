//! Getting an input's bytes: a read-only map of a regular file, or a copy read into
//! memory, with old Mac OS line ends turned into `\n`.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::InputError;

/// The bytes of an input: a read-only map of a regular file, or bytes read into memory.
pub enum InputBytes {
    /// A memory-mapped regular file.
    Mapped {
        /// The map.
        map: memmap2::Mmap,
        /// The file's size when mapped, to detect changes.
        len: u64,
        /// The open file, to check its size again at the end.
        file: File,
    },
    /// Bytes read in full (non-regular files, or `--no-mmap`).
    Read(Vec<u8>),
}

impl InputBytes {
    /// The whole input.
    pub fn bytes(&self) -> &[u8] {
        match self {
            InputBytes::Mapped { map, .. } => map,
            InputBytes::Read(bytes) => bytes,
        }
    }

    /// Fails when a mapped file's size is no longer what it was when mapped.
    pub fn check_unchanged(&self, path: &Path) -> Result<(), InputError> {
        if let InputBytes::Mapped { len, file, .. } = self {
            let now = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
            if now != *len {
                return Err(InputError::Changed(path.to_path_buf()));
            }
        }
        Ok(())
    }
}

/// Opens a file for processing: maps a regular file unless `no_mmap`, else reads it.
pub fn open_file(path: &Path, no_mmap: bool) -> Result<InputBytes, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::IsDirectory(path.to_path_buf()));
    }
    if meta.is_file() && !no_mmap && meta.len() > 0 {
        // SAFETY: the map is read-only and private to this process. The caller promises
        // not to truncate the file while it is mapped; a change of size is detected
        // afterwards by `check_unchanged` and reported as an error rather than results.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            if lone_cr_line_ends(&map) {
                // Old Mac OS line ends: read as lines, in a copy with `\n` for `\r`.
                let mut bytes = map.to_vec();
                cr_to_lf(&mut bytes);
                return Ok(InputBytes::Read(bytes));
            }
            let _ = map.advise(memmap2::Advice::Sequential);
            return Ok(InputBytes::Mapped {
                map,
                len: meta.len(),
                file,
            });
        }
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let mut file = file;
    file.read_to_end(&mut bytes).map_err(io_err)?;
    if lone_cr_line_ends(&bytes) {
        cr_to_lf(&mut bytes);
    }
    Ok(InputBytes::Read(bytes))
}

/// True when `data` ends its lines with a lone `\r` (classic Mac OS): its first 64 KiB
/// hold a `\r` and no `\n`. Such inputs are read with every `\r` taken as `\n`.
pub fn lone_cr_line_ends(data: &[u8]) -> bool {
    let head = &data[..data.len().min(64 << 10)];
    head.contains(&b'\r') && !head.contains(&b'\n')
}

/// Turns every `\r` into `\n` (an input with lone-CR line ends).
pub fn cr_to_lf(bytes: &mut [u8]) {
    for b in bytes.iter_mut().filter(|b| **b == b'\r') {
        *b = b'\n';
    }
}
