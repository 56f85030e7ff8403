//! The figures of a plan with the marks of `placing-mill=mark` as state: the tables of the
//! placing phase are refused under marks, and `plan` shows what following them would cost
//! on this machine, which the refusal cites.
//!
//! A placing position under `mark` has one marked point per stone taken so far (every
//! removal while stones are in hand marks its point, a marked point takes no stone until
//! placing ends): [`PlanEntry::marks`]. Its sector's positions are then the orbits of the
//! stones and the marks together ([`PlanEntry::positions_with_marks`]); the estimates are the
//! plan's, at the same rates, over those positions and the slots of an index over stones and
//! marks ([`Cost::with_marks`]).

use millbase::Variant;
use millbase::plan::{Cost, PlanEntry, duration};
use millbase::rules::PlacingMill;
use millbase::sectors::follows_placing_rules;
use serde_json::{Value, json};

/// This machine: its memory, bytes (24 GB).
pub const MACHINE_MEMORY: f64 = 24e9;
/// This machine: the time of a working session, seconds (3 h).
pub const SESSION_SECONDS: f64 = 3.0 * 3600.0;
/// This machine, as the figures are compared with it.
pub const MACHINE: &str = "24 GB, a session of 3 h";

/// The figures of a plan with marks as state.
#[derive(Clone, Copy, Debug)]
pub struct Marks {
    /// The placing phase's components (a sector with stones in hand or a full board).
    pub placing: Cost,
    /// Every component of the plan.
    pub whole: Cost,
    /// The marks of each sector are known exactly (not under `capture=intervention`, whose
    /// captures do not mark: then the figures count every number of marks up to the stones
    /// taken, an upper bound).
    pub exact: bool,
}

/// Does a component hold a sector of the placing phase?
fn placing(v: &Variant, e: &PlanEntry) -> bool {
    e.component
        .sectors()
        .iter()
        .any(|&s| follows_placing_rules(v, s))
}

/// Multiply the time of `c` by `factor` (a calibration of the solve rates).
pub fn scaled(mut c: Cost, factor: f64) -> Cost {
    c.seconds *= factor;
    c
}

/// The figures of `entries` (a plan under `v`) with marks as state, their times multiplied
/// by `factor`; `None` unless `v` has `placing-mill=mark` and the plan a placing sector.
pub fn marks(v: &Variant, entries: &[PlanEntry], factor: f64) -> Option<Marks> {
    if v.placing_mill != PlacingMill::Mark {
        return None;
    }
    let placing_entries: Vec<PlanEntry> =
        entries.iter().filter(|e| placing(v, e)).cloned().collect();
    if placing_entries.is_empty() {
        return None;
    }
    let exact = entries
        .iter()
        .flat_map(|e| e.marks(v))
        .all(|k| k.start() == k.end());
    Some(Marks {
        placing: scaled(Cost::with_marks(v, &placing_entries), factor),
        whole: scaled(Cost::with_marks(v, entries), factor),
        exact,
    })
}

impl Marks {
    /// Would the placing phase with marks fit this machine: its estimated time within a
    /// session and its estimated peak memory within the machine's?
    pub fn fits(&self) -> bool {
        self.placing.seconds <= SESSION_SECONDS && self.placing.peak_memory <= MACHINE_MEMORY
    }

    /// What goes beyond this machine: "time", "memory", "time and memory" (empty: fits).
    fn beyond(&self) -> &'static str {
        match (
            self.placing.seconds > SESSION_SECONDS,
            self.placing.peak_memory > MACHINE_MEMORY,
        ) {
            (true, true) => "time and memory",
            (true, false) => "time",
            (false, true) => "memory",
            (false, false) => "",
        }
    }

    /// The reason the tables of `placing-mill=mark` are refused, with the figures: "marks
    /// are state: the placing phase would hold N positions, X on 2 cores, peak memory Y,
    /// disk Z here, beyond this machine (24 GB, a session of 3 h: time and memory)", or,
    /// where it would fit, that it would and that the tables do not follow marks yet.
    pub fn reason(&self) -> String {
        let p = &self.placing;
        let figures = format!(
            "marks are state: the placing phase would hold {}{} positions, {} on 2 cores, peak \
             memory {}, disk {} here",
            if self.exact { "" } else { "at most " },
            p.positions,
            duration(p.seconds),
            millbase::plan::bytes(p.peak_memory),
            millbase::plan::bytes(p.disk)
        );
        if self.fits() {
            format!(
                "{figures}, which would fit this machine ({MACHINE}); the tables do not follow \
                 marks yet"
            )
        } else {
            format!(
                "{figures}, beyond this machine ({MACHINE}: {})",
                self.beyond()
            )
        }
    }

    /// The lines `plan` prints: the placing phase's and the whole game's figures with marks.
    pub fn text(&self) -> String {
        let bound = if self.exact {
            ""
        } else {
            " (at most: captures do not mark)"
        };
        format!(
            "with marks as state (placing-mill=mark: one marked point per stone taken while \
             placing){bound}:\n  placing phase: {}\n  whole game:    {}\n",
            self.placing, self.whole
        )
    }

    /// The figures as JSON: `{"placing": Cost, "whole_game": Cost, "exact", "fits",
    /// "machine": {"memory_bytes", "session_seconds"}, "reason"}`.
    pub fn json(&self) -> Value {
        json!({
            "placing": self.placing.json(),
            "whole_game": self.whole.json(),
            "exact": self.exact,
            "fits": self.fits(),
            "machine": {
                "memory_bytes": MACHINE_MEMORY as u64,
                "session_seconds": SESSION_SECONDS,
            },
            "reason": self.reason(),
        })
    }
}
