//! Named difficulty levels on Sukaku Explainer's scale.

/// Named difficulty levels, by the rating of the hardest step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only (rating up to 2.3).
    Easy,
    /// Locked candidates, pairs, X-wing (up to 3.4).
    Medium,
    /// Triples, swordfish, XY- and XYZ-wings, unique rectangles, quads, jellyfish, BUG
    /// (up to 5.9).
    Hard,
    /// Static chains and Nishio (6.0 to 8.4).
    Expert,
    /// Dynamic or nested chains, or guessing (8.5 and up).
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    /// The level of a rating in tenths.
    pub fn of_rating(tenths: u16) -> Level {
        match tenths {
            0..=23 => Level::Easy,
            24..=34 => Level::Medium,
            35..=59 => Level::Hard,
            60..=84 => Level::Expert,
            _ => Level::Extreme,
        }
    }

    /// The level named `name`.
    pub fn parse(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name() == name)
    }
}
