//! Whole outputs compared with the files in `testdata/` (the doctor's
//! answers, what the scrape parser reads): what a refactoring must leave
//! unchanged, byte for byte.

/// Asserts that `text` is `want`, naming the file and the first line that
/// differs. With `SLUICE_BLESS=1` it writes `text` to `testdata/<file>`
/// instead: after a change of output that is meant, run the test so, and
/// read the diff before committing it.
pub(crate) fn same(text: &str, want: &str, file: &str) {
    if std::env::var_os("SLUICE_BLESS").is_some_and(|v| v == "1") {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata")
            .join(file);
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    for (i, (got, expected)) in text.lines().zip(want.lines()).enumerate() {
        assert_eq!(got, expected, "{file}: line {} differs", i + 1);
    }
    assert_eq!(text, want, "{file}: the texts differ in length");
}
