//! Naming the options in which a table's rules differ from the expected ones: the table files
//! record only a fingerprint of the options, so the neighbours of the expected rules (one or
//! two options changed) are tried against it.

use super::{KEYS, Variant};

/// The values tried for each option key (the N-move rules are not part of the fingerprint).
fn candidates(key: &str) -> &'static [&'static str] {
    match key {
        "stones" => &["3", "6", "9", "10", "11", "12"],
        "diagonals" | "multiple-removals" | "move-while-placing" | "one-time-mill" => {
            &["on", "off"]
        }
        "fly" => &["3", "4", "off"],
        "remove-from-mills" => &["last", "always"],
        "placing-mill" => &[
            "remove",
            "mark",
            "from-hand",
            "from-hand-again",
            "by-mill-counts",
        ],
        "moving-first" => &["white", "black"],
        "board-full" => &[
            "white-loses",
            "draw",
            "mover-removes",
            "white-then-black",
            "black-then-white",
        ],
        "stalemate" => &[
            "loss",
            "pass",
            "remove-and-move",
            "remove-and-pass",
            "draw",
            "both-remove",
        ],
        "repeated-mills" => &["allowed", "restricted"],
        "capture" => &["none", "intervention"],
        _ => &[],
    }
}

impl Variant {
    /// The options (`key=value`) of rules whose fingerprint is `fingerprint`, among the rules
    /// that differ from these in one or two options, as they differ from these; `None` when
    /// no such rules have it (or these rules have it themselves).
    pub fn differences_to(&self, fingerprint: u64) -> Option<Vec<String>> {
        if self.fingerprint() == fingerprint {
            return None;
        }
        let changes = |v: &Variant| -> Vec<(usize, &'static str)> {
            KEYS.iter()
                .enumerate()
                .flat_map(|(i, &k)| {
                    candidates(k)
                        .iter()
                        .filter(move |&&c| v.rule(k).as_deref() != Some(c))
                        .map(move |&c| (i, c))
                })
                .collect()
        };
        let changed = |v: &Variant, (i, value): (usize, &str)| v.with_rule(KEYS[i], value).ok();
        let named = |picked: &[(usize, &str)]| -> Vec<String> {
            picked
                .iter()
                .map(|&(i, value)| format!("{}={value}", KEYS[i]))
                .collect()
        };
        let first = changes(self);
        for &a in &first {
            if let Some(one) = changed(self, a)
                && one.validate().is_ok()
                && one.fingerprint() == fingerprint
            {
                return Some(named(&[a]));
            }
        }
        for (n, &a) in first.iter().enumerate() {
            let Some(one) = changed(self, a) else {
                continue;
            };
            for &b in &first[n + 1..] {
                if b.0 == a.0 {
                    continue;
                }
                if let Some(two) = changed(&one, b)
                    && two.validate().is_ok()
                    && two.fingerprint() == fingerprint
                {
                    return Some(named(&[a, b]));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_or_two_changed_options_are_named() {
        let cham = Variant::by_name("cham-gonu").unwrap();
        let flying = cham.with_rule("fly", "3").unwrap();
        assert_eq!(
            cham.differences_to(flying.fingerprint()),
            Some(vec!["fly=3".to_string()])
        );
        let two = flying.with_rule("capture", "intervention").unwrap();
        let mut found = cham.differences_to(two.fingerprint()).unwrap();
        found.sort();
        assert_eq!(found, ["capture=intervention", "fly=3"]);
        assert_eq!(cham.differences_to(cham.fingerprint()), None);
        assert_eq!(cham.differences_to(12345), None);
    }
}
