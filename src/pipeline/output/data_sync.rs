//! An atomic write's data synced to the disk while the run goes on, so that the
//! commit's fsync has only the last part left.
//!
//! Measured on a virtual machine (2-core AMD EPYC, ext4 on a virtio disk), the fsync
//! before the rename took time in proportion to the file however early its writeback
//! was started (`sync_file_range`): 0.15 s for 1M records' 180 MB, 0.39 s for 10M
//! records' 1.8 GB, after every worker had finished. Synced every 32 MB as it is
//! written, the final fsync takes 10-25 ms. The syncs run on a thread of their own:
//! done by the thread that wrote across a mark, they blocked it 30 ms each (53 times in
//! the 10M run), time a worker would have spent solving.

use std::fs::File;
use std::io;
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

/// Bytes between a file's data syncs.
pub(crate) const DATA_SYNC_BYTES: u64 = 32 << 20;

/// The data syncs of one file: a thread started at the first mark crossed, asked for a
/// sync at each later one (a request while one is waiting is dropped: the waiting sync
/// covers it).
#[derive(Default)]
pub(crate) struct DataSync {
    running: Option<(SyncSender<()>, JoinHandle<io::Result<()>>)>,
}

impl DataSync {
    /// After bytes `at..at + len` of `file` were written (or handed out to be written):
    /// asks for a sync where they cross a mark. Nothing waits here. Where no thread can
    /// be started, nothing is synced before the commit's fsync, which then does it all.
    pub(crate) fn after_write(&mut self, file: &File, at: u64, len: u64) {
        if !crosses_sync_mark(at, len) {
            return;
        }
        if self.running.is_none() {
            self.running = start(file);
        }
        if let Some((requests, _)) = &self.running {
            // Full: a sync is already asked for. Disconnected: the thread stopped at an
            // error, which `finish` gives.
            let _ = requests.try_send(());
        }
    }

    /// Waits for the sync under way, if any, and gives the first error a sync met: it
    /// is the write's, and the commit's fsync may not report it again (Linux clears a
    /// file's write error once reported).
    pub(crate) fn finish(&mut self) -> io::Result<()> {
        let Some((requests, thread)) = self.running.take() else {
            return Ok(());
        };
        drop(requests);
        thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the data sync thread panicked")))
    }
}

/// The sync thread, on its own handle to the file; `None` where it cannot start.
fn start(file: &File) -> Option<(SyncSender<()>, JoinHandle<io::Result<()>>)> {
    let file = file.try_clone().ok()?;
    let (requests, asked) = sync_channel::<()>(1);
    let thread = std::thread::Builder::new()
        .name("sudoku-sync".into())
        .spawn(move || {
            while asked.recv().is_ok() {
                file.sync_data()?;
            }
            Ok(())
        })
        .ok()?;
    Some((requests, thread))
}

/// Whether bytes `at..at + len` end past a multiple of [`DATA_SYNC_BYTES`] that `at`
/// is not past: each mark is crossed by exactly one of a file's contiguous writes.
pub(crate) fn crosses_sync_mark(at: u64, len: u64) -> bool {
    (at + len) / DATA_SYNC_BYTES != at / DATA_SYNC_BYTES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sync_mark_is_crossed_by_one_write() {
        // Contiguous writes of uneven sizes, some empty, some longer than a mark's span.
        let mut at = 0u64;
        let mut crossings = 0u64;
        let mut size = 1u64;
        while at < 5 * DATA_SYNC_BYTES + 7 {
            size = size
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407)
                >> 1;
            let len = match size % 7 {
                0 => 0,
                1 => DATA_SYNC_BYTES + size % 4096,
                _ => size % (3 << 20),
            };
            crossings += u64::from(crosses_sync_mark(at, len));
            at += len;
        }
        assert_eq!(crossings, at / DATA_SYNC_BYTES);
        assert!(!crosses_sync_mark(0, DATA_SYNC_BYTES - 1));
        assert!(crosses_sync_mark(0, DATA_SYNC_BYTES));
        assert!(!crosses_sync_mark(DATA_SYNC_BYTES, 0));
    }

    #[test]
    fn the_thread_starts_at_the_first_mark_and_ends_at_finish() {
        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("f")).unwrap();
        let mut sync = DataSync::default();
        sync.after_write(&file, 0, DATA_SYNC_BYTES - 1);
        assert!(sync.running.is_none());
        sync.after_write(&file, DATA_SYNC_BYTES - 1, 2);
        assert!(sync.running.is_some());
        for i in 0..10 {
            sync.after_write(&file, (i + 1) * DATA_SYNC_BYTES, DATA_SYNC_BYTES);
        }
        sync.finish().unwrap();
        assert!(sync.running.is_none());
        sync.finish().unwrap();
    }
}
