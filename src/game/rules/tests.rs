use super::*;

/// The fingerprint as the first table format computed it, from the five fields it had.
fn first_format_fingerprint(v: &Variant) -> u64 {
    let board = v.board();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(v.name.as_bytes());
    bytes.push(board.len() as u8);
    for p in 0..board.len() as u8 {
        bytes.extend_from_slice(&board.adjacent(p).to_le_bytes());
    }
    for m in board.mills() {
        bytes.extend_from_slice(&m.to_le_bytes());
    }
    bytes.push(v.stones);
    bytes.push(v.fly_at.unwrap_or(0));
    bytes.push(v.remove_from_mills as u8);
    bytes.push(v.move_while_placing as u8);
    bytes.push((v.board_full == BoardFull::Draw) as u8);
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

#[test]
fn the_five_variants_keep_their_fingerprints() {
    for v in VARIANTS {
        assert_eq!(v.fingerprint(), first_format_fingerprint(&v), "{}", v.name);
        assert_eq!(v.label(), v.name);
        assert!(v.unsupported_by_tables().is_empty(), "{}", v.name);
    }
    // The app's names of two of them are the same variants.
    assert_eq!(
        Variant::by_name("nine-mens-morris"),
        Some(Variant::standard())
    );
    assert_eq!(
        Variant::by_name("lasker-morris"),
        Variant::by_name("lasker")
    );
}

#[test]
fn every_rule_set_is_valid_and_distinct() {
    let mut prints = Vec::new();
    for set in RULE_SETS {
        set.variant
            .validate()
            .unwrap_or_else(|e| panic!("{}: {e}", set.name));
        prints.push(set.variant.fingerprint());
    }
    prints.sort_unstable();
    prints.dedup();
    // nine-mens-morris and lasker-morris are std and lasker; every other set differs.
    assert_eq!(prints.len(), RULE_SETS.len());
    assert_eq!(Variant::names().len(), VARIANTS.len() + RULE_SETS.len());
}

#[test]
fn options_change_on_top_of_a_set() {
    let v = Variant::from_rules("std", &["fly=off", "capture=intervention"]).unwrap();
    assert_eq!(v.fly_at, None);
    assert_eq!(v.capture, Capture::Intervention);
    assert_eq!(v.label(), "std+fly=off+capture=intervention");
    assert_ne!(v.fingerprint(), Variant::standard().fingerprint());
    assert!(v.unsupported_by_tables().is_empty());
    assert!(v.unsupported_in_placing().is_empty());
    let history = Variant::from_rules("std", &["one-time-mill=on", "repeated-mills=restricted"]);
    assert_eq!(
        history.unwrap().unsupported_by_tables(),
        ["one-time-mill=on"]
    );
    let cham = Variant::by_name("cham-gonu").unwrap();
    assert!(cham.unsupported_by_tables().is_empty());
    assert_eq!(cham.unsupported_in_placing(), ["placing-mill=mark"]);
    // Back to the standard options: the standard game again, fingerprint and all.
    let back = v
        .with_rule("fly", "3")
        .unwrap()
        .with_rule("capture", "none")
        .unwrap();
    assert_eq!(back, Variant::standard());
    // Twelve with a full board that White loses is the app's Twelve Men's Morris.
    let t = Variant::from_rules("twelve", &["board-full=white-loses"]).unwrap();
    let app = Variant::by_name("twelve-mens-morris").unwrap();
    assert!(t.same_game(&app));
    assert_eq!(t.fingerprint(), app.fingerprint());
    for (key, value) in app.rules() {
        assert_eq!(app.with_rule(key, &value).unwrap(), app, "{key}={value}");
    }
}

#[test]
fn bad_rules_are_named() {
    let err =
        |name: &str, rules: &[&str]| Variant::from_rules(name, rules).unwrap_err().to_string();
    assert!(err("nine", &[]).starts_with("unknown rule set 'nine' (known: std, lasker"));
    assert!(err("std", &["flying=3"]).starts_with("unknown rule key 'flying'"));
    assert_eq!(
        err("std", &["fly"]),
        "rule 'fly' is not KEY=VALUE (e.g. fly=off)"
    );
    assert_eq!(err("std", &["fly=5"]), "rule fly=5: fly takes 3, 4 or off");
    assert!(err("std", &["stalemate=win"]).contains("loss, pass, remove-and-move"));
    assert!(
        err("std", &["board-full=draw"]).contains("never fill"),
        "{}",
        err("std", &["board-full=draw"])
    );
    assert!(err("six", &["stones=12"]).contains("played with 6 stones each"));
    assert!(err("six", &["diagonals=on"]).contains("no diagonal lines"));
    assert!(err("el-filja", &["board-full=draw"]).contains("contradicts"));
    assert!(err("three", &["fly=3"]).contains("fly=3"));
}

#[test]
fn the_endgame_rule_applies_with_three_stones() {
    let m = Variant::by_name("morabaraba").unwrap();
    assert_eq!(m.n_move_limit([9, 4]), 100);
    assert_eq!(m.n_move_limit([3, 7]), 10);
    let off = m.with_rule("n-move-rule", "0").unwrap();
    assert_eq!(
        (off.n_move_limit([5, 5]), off.n_move_limit([5, 3])),
        (0, 10)
    );
    assert_eq!(Variant::standard().n_move_limit([3, 3]), 100);
}
