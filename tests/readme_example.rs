//! The README's "Using millbase as a library" section shows `examples/library.rs` verbatim
//! (from its first `use` line): the program a reader copies is the one that compiles and runs
//! as an example.

#[test]
fn readme_library_section_is_examples_library_rs() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let example =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/library.rs"))
            .expect("examples/library.rs");
    let section = readme
        .find("### Using millbase as a library")
        .expect("the README has the section");
    let start = readme[section..].find("```rust\n").expect("a Rust block") + section + 8;
    let end = readme[start..].find("\n```\n").expect("the block ends") + start + 1;
    let shown = &readme[start..end];
    let code = &example[example.find("use millbase").expect("the example's imports")..];
    assert_eq!(
        shown, code,
        "README's library section differs from examples/library.rs"
    );
}
