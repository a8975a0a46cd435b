//! Whole outputs compared with the files in `testdata/` (the exporter's
//! pages, the doctor's answers, the refusals of the builder and of the
//! scrape parser): what a refactoring must leave unchanged, byte for byte.

/// Asserts that `text` is `want`, naming the file and the first line that
/// differs.
pub(crate) fn same(text: &str, want: &str, file: &str) {
    for (i, (got, expected)) in text.lines().zip(want.lines()).enumerate() {
        assert_eq!(got, expected, "{file}: line {} differs", i + 1);
    }
    assert_eq!(text, want, "{file}: the texts differ in length");
}
