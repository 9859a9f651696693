//! The progress bar of work that can take seconds: drawn on stderr only where the front
//! end asks for it (a person at a terminal), otherwise hidden and costing nothing.

/// A progress bar, or none; positions are counted from a base (for a pass that starts
/// where an earlier one ended).
#[derive(Clone, Debug, Default)]
pub struct Progress(Option<indicatif::ProgressBar>, u64);

/// What a bar counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressUnit {
    /// Input bytes.
    Bytes,
    /// Records.
    Records,
    /// Timed passes over a set (`bench`).
    Passes,
}

impl Progress {
    /// No bar.
    pub fn hidden() -> Progress {
        Progress(None, 0)
    }

    /// A bar up to `total` in `unit`, drawn when `shown`, with `what` beside it.
    pub fn new(total: u64, unit: ProgressUnit, what: &str, shown: bool) -> Progress {
        if !shown {
            return Progress(None, 0);
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr(),
        );
        let template = match unit {
            ProgressUnit::Bytes => "{bar:40} {bytes}/{total_bytes} {msg} {bytes_per_sec} eta {eta}",
            ProgressUnit::Records => "{bar:40} {pos}/{len} records {per_sec} eta {eta}",
            ProgressUnit::Passes => "{bar:40} {pos}/{len} passes {msg} eta {eta}",
        };
        if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        Progress(Some(bar), 0)
    }

    /// A counter of bytes with no known total (a stream decoded as it is read), drawn
    /// when `shown`, with `what` beside it.
    pub fn counting_bytes(what: &str, shown: bool) -> Progress {
        if !shown {
            return Progress(None, 0);
        }
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {bytes} {msg} {bytes_per_sec}")
        {
            bar.set_style(style);
        }
        bar.set_message(what.to_string());
        Progress(Some(bar), 0)
    }

    /// The same bar, positions counted from `base`.
    pub fn from(&self, base: u64) -> Progress {
        Progress(self.0.clone(), base)
    }

    /// True when a bar is drawn.
    pub fn is_shown(&self) -> bool {
        self.0.is_some()
    }

    /// Moves the bar to `position`.
    #[inline]
    pub fn set(&self, position: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(self.1 + position);
        }
    }

    /// Moves the bar on by `by`.
    #[inline]
    pub fn advance(&self, by: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(by);
        }
    }

    /// Says what the bar is doing now.
    pub fn say(&self, what: &str) {
        if let Some(bar) = &self.0 {
            bar.set_message(what.to_string());
        }
    }

    /// Clears the bar (the summary follows on a clean line).
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
