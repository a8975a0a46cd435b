//! [`parse`]: a strict reader of the OpenMetrics text sluice writes
//! (prometheus-client's encoder: `sluice serve`'s `/metrics`,
//! `Snapshot::to_prometheus`, `sluice scope --prometheus`).
//!
//! Strict means: every sample belongs to the family its `# TYPE` line
//! declared just before (a counter's `_total`, a histogram's `_bucket` with
//! `le`, `_sum`, `_count`, an info's `_info`, a gauge's bare name), no
//! series twice, label values quoted and escaped as the format says,
//! histogram buckets cumulative and ending at `le="+Inf"` equal to
//! `_count`, and `# EOF` as the last line. Anything else is an error naming
//! the line: the doctor reads only sluice's own output, so a surprise means
//! the wrong URL or a changed format, never something to guess around.

use crate::ParseError;

/// A family's type, from its `# TYPE` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// `counter`: samples `NAME_total` (and `NAME_created`).
    Counter,
    /// `gauge`: samples `NAME`.
    Gauge,
    /// `histogram`: `NAME_bucket{le}`, `NAME_sum`, `NAME_count`.
    Histogram,
    /// `info`: samples `NAME_info`.
    Info,
    /// `unknown`: samples `NAME`.
    Unknown,
}

/// One sample line.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Its name, suffix included (`sluice_started_total`).
    pub name: String,
    /// Its labels in the order written.
    pub labels: Vec<(String, String)>,
    /// Its value.
    pub value: f64,
}

impl Sample {
    /// The value of label `key`.
    pub fn label(&self, key: &str) -> Option<&str> {
        self.labels
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// One metric family: its `# TYPE`, `# HELP`, `# UNIT` and samples.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    /// The family's name (`sluice_started`, `sluice_queue_wait_seconds`).
    pub name: String,
    /// Its type.
    pub kind: Kind,
    /// Its help text (unescaped), if given.
    pub help: Option<String>,
    /// Its unit, if given.
    pub unit: Option<String>,
    /// Its samples in the order written.
    pub samples: Vec<Sample>,
    /// Whether its `# TYPE` line was read.
    typed: bool,
}

/// A whole exposition, read by [`parse`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exposition {
    /// The families in the order written.
    pub families: Vec<Family>,
}

impl Exposition {
    /// The family called `name`.
    pub fn family(&self, name: &str) -> Option<&Family> {
        self.families.iter().find(|f| f.name == name)
    }

    /// Every sample, family by family.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.families.iter().flat_map(|f| &f.samples)
    }

    /// The value of the sample called `name` whose labels are exactly
    /// `labels` (in any order).
    pub fn value(&self, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
        self.samples()
            .find(|s| {
                s.name == name
                    && s.labels.len() == labels.len()
                    && labels.iter().all(|(k, v)| s.label(k) == Some(v))
            })
            .map(|s| s.value)
    }
}

/// Reads `text` strictly (see the [module](self)).
///
/// ```
/// let pool = sluice::Pool::builder().build()?;
/// pool.spawn(sluice::Lane::Cpu, || ()).wait()?;
/// let page = sluice_health::scrape::parse(&pool.metrics().to_prometheus())?;
/// assert_eq!(page.value("sluice_started_total", &[("lane", "cpu")]), Some(1.0));
/// let wait = page.family("sluice_queue_wait_seconds").unwrap();
/// assert_eq!(wait.kind, sluice_health::scrape::Kind::Histogram);
///
/// let err = sluice_health::scrape::parse("sluice_x 1\n# EOF\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 1: sample sluice_x before any # TYPE line");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse(text: &str) -> Result<Exposition, ParseError> {
    let mut reader = Reader::default();
    for (i, line) in text.lines().enumerate() {
        reader
            .line(line)
            .map_err(|what| ParseError(format!("line {}: {what}", i + 1)))?;
    }
    reader.finish()
}

impl Kind {
    /// The kind a `# TYPE` line names, if sluice writes it.
    fn of_type(value: &str) -> Option<Kind> {
        match value {
            "counter" => Some(Kind::Counter),
            "gauge" => Some(Kind::Gauge),
            "histogram" => Some(Kind::Histogram),
            "info" => Some(Kind::Info),
            "unknown" => Some(Kind::Unknown),
            _ => None,
        }
    }

    /// What may follow the family's name in a sample's name.
    fn suffixes(self) -> &'static [&'static str] {
        match self {
            Kind::Counter => &["_total", "_created"],
            Kind::Gauge | Kind::Unknown => &[""],
            Kind::Histogram => &["_bucket", "_sum", "_count", "_created"],
            Kind::Info => &["_info"],
        }
    }
}

impl Family {
    /// A family without help, unit or samples yet.
    fn new(name: &str, kind: Kind, typed: bool) -> Family {
        Family {
            name: name.to_string(),
            kind,
            help: None,
            unit: None,
            samples: Vec::new(),
            typed,
        }
    }
}

/// [`parse`] under way: the page so far, whether `# EOF` was read, and
/// every series read (its name and its labels, sorted).
#[derive(Default)]
struct Reader {
    page: Exposition,
    eof: bool,
    seen: std::collections::HashSet<(String, Vec<(String, String)>)>,
}

impl Reader {
    /// Reads one line; an error says what is wrong with it (`parse` adds
    /// the line's number).
    fn line(&mut self, line: &str) -> Result<(), String> {
        if self.eof {
            return Err("text after # EOF".into());
        }
        if line == "# EOF" {
            self.eof = true;
            return Ok(());
        }
        if let Some(rest) = line.strip_prefix("# ") {
            return self.comment(line, rest);
        }
        if line.is_empty() {
            return Err("empty line".into());
        }
        self.sample(line)
    }

    /// A `# TYPE`, `# HELP` or `# UNIT` line (`rest` follows the `# `).
    fn comment(&mut self, line: &str, rest: &str) -> Result<(), String> {
        let (keyword, rest) = rest
            .split_once(' ')
            .ok_or_else(|| format!("bad comment {line:?}"))?;
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        check_name(name)?;
        match keyword {
            "TYPE" => self.type_line(name, value),
            "HELP" | "UNIT" => self.help_or_unit(keyword, name, value),
            other => Err(format!("unknown comment # {other}")),
        }
    }

    /// `# TYPE name value`: types the family its HELP line opened, or
    /// opens one.
    fn type_line(&mut self, name: &str, value: &str) -> Result<(), String> {
        let kind = Kind::of_type(value)
            .ok_or_else(|| format!("type {value:?} of {name} is not one sluice writes"))?;
        let families = &mut self.page.families;
        let opened = families
            .last()
            .is_some_and(|f| f.name == name && !f.typed && f.samples.is_empty());
        if opened {
            // Opened by its HELP line.
            let f = families.last_mut().expect("checked");
            f.kind = kind;
            f.typed = true;
        } else if families.iter().any(|f| f.name == name) {
            return Err(format!("family {name} declared twice"));
        } else {
            families.push(Family::new(name, kind, true));
        }
        Ok(())
    }

    /// `# HELP name text` or `# UNIT name unit`. prometheus-client writes
    /// HELP (and UNIT) before TYPE: they open the family TYPE then names.
    fn help_or_unit(&mut self, keyword: &str, name: &str, value: &str) -> Result<(), String> {
        let families = &mut self.page.families;
        if !families
            .last()
            .is_some_and(|f| f.name == name && f.samples.is_empty())
        {
            families.push(Family::new(name, Kind::Unknown, false));
        }
        let f = families.last_mut().expect("just checked or pushed");
        if keyword == "HELP" {
            f.help = Some(unescape(value)?);
        } else {
            f.unit = Some(value.to_string());
        }
        Ok(())
    }

    /// A sample line, into the family typed just before it.
    fn sample(&mut self, line: &str) -> Result<(), String> {
        let sample = sample_line(line)?;
        let family = self
            .page
            .families
            .last_mut()
            .filter(|f| f.typed)
            .ok_or_else(|| format!("sample {} before any # TYPE line", sample.name))?;
        let suffix = sample
            .name
            .strip_prefix(family.name.as_str())
            .ok_or_else(|| format!("sample {} outside its family {}", sample.name, family.name))?;
        let allowed = family.kind.suffixes();
        if !allowed.contains(&suffix) {
            return Err(format!(
                "sample {} in {:?} family {}: expected {}",
                sample.name,
                family.kind,
                family.name,
                allowed
                    .iter()
                    .map(|s| format!("{}{s}", family.name))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ));
        }
        if (suffix == "_bucket") != sample.label("le").is_some() {
            return Err(format!(
                "sample {}: le goes on _bucket samples only",
                sample.name
            ));
        }
        let mut key: Vec<_> = sample.labels.clone();
        key.sort();
        if !self.seen.insert((sample.name.clone(), key)) {
            return Err(format!(
                "series {} written twice",
                &line[..line.rfind(' ').unwrap_or(line.len())]
            ));
        }
        family.samples.push(sample);
        Ok(())
    }

    /// The page, once every line is read: cut short without `# EOF`, and
    /// every histogram checked.
    fn finish(self) -> Result<Exposition, ParseError> {
        if !self.eof {
            return Err(ParseError("no # EOF line: the text is cut short".into()));
        }
        for f in &self.page.families {
            if f.kind == Kind::Histogram {
                check_histogram(f)?;
            }
        }
        Ok(self.page)
    }
}

/// A histogram's buckets, per label set: cumulative, ending at `+Inf`
/// equal to `_count`.
fn check_histogram(f: &Family) -> Result<(), ParseError> {
    let others = |s: &Sample| -> Vec<(String, String)> {
        let mut l: Vec<_> = s
            .labels
            .iter()
            .filter(|(k, _)| k != "le")
            .cloned()
            .collect();
        l.sort();
        l
    };
    let mut sets: Vec<Vec<(String, String)>> = Vec::new();
    for s in &f.samples {
        let l = others(s);
        if !sets.contains(&l) {
            sets.push(l);
        }
    }
    for set in sets {
        let of = |suffix: &str| {
            f.samples
                .iter()
                .filter(|s| s.name.ends_with(suffix) && others(s) == set)
                .collect::<Vec<_>>()
        };
        let err = |what: &str| ParseError(format!("histogram {}{set:?}: {what}", f.name));
        let count = match of("_count").as_slice() {
            [c] => c.value,
            _ => return Err(err("no _count")),
        };
        if of("_sum").len() != 1 {
            return Err(err("no _sum"));
        }
        let mut last = (f64::NEG_INFINITY, 0.0);
        for b in of("_bucket") {
            let le = parse_value(b.label("le").expect("checked")).map_err(|e| err(&e))?;
            if le.partial_cmp(&last.0) != Some(std::cmp::Ordering::Greater) || b.value < last.1 {
                return Err(err("buckets not in order or not cumulative"));
            }
            last = (le, b.value);
        }
        if last.0 != f64::INFINITY || last.1 != count {
            return Err(err(
                "the le=\"+Inf\" bucket is missing or differs from _count",
            ));
        }
    }
    Ok(())
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = name.chars().enumerate().all(|(i, c)| {
        c.is_ascii_alphabetic() || c == '_' || c == ':' || (i > 0 && c.is_ascii_digit())
    });
    if name.is_empty() || !ok {
        return Err(format!("bad metric name {name:?}"));
    }
    Ok(())
}

fn sample_line(line: &str) -> Result<Sample, String> {
    let name_end = line
        .find(['{', ' '])
        .ok_or_else(|| format!("no value in {line:?}"))?;
    let name = &line[..name_end];
    check_name(name)?;
    let mut rest = &line[name_end..];
    let mut labels = Vec::new();
    if let Some(r) = rest.strip_prefix('{') {
        rest = r;
        loop {
            if let Some(r) = rest.strip_prefix('}') {
                rest = r;
                break;
            }
            if !labels.is_empty() {
                rest = rest
                    .strip_prefix(',')
                    .ok_or_else(|| format!("expected , or }} in {line:?}"))?;
            }
            let eq = rest
                .find('=')
                .ok_or_else(|| format!("bad label in {line:?}"))?;
            let key = &rest[..eq];
            check_name(key).map_err(|_| format!("bad label name {key:?} in {line:?}"))?;
            let r = rest[eq + 1..]
                .strip_prefix('"')
                .ok_or_else(|| format!("label {key} not quoted in {line:?}"))?;
            let mut value = String::new();
            let mut chars = r.char_indices();
            let end = loop {
                match chars.next() {
                    Some((i, '"')) => break i,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, '\\')) => value.push('\\'),
                        Some((_, '"')) => value.push('"'),
                        Some((_, 'n')) => value.push('\n'),
                        _ => return Err(format!("bad escape in label {key} in {line:?}")),
                    },
                    Some((_, c)) => value.push(c),
                    None => return Err(format!("label {key} not closed in {line:?}")),
                }
            };
            if labels.iter().any(|(k, _): &(String, String)| k == key) {
                return Err(format!("label {key} twice in {line:?}"));
            }
            labels.push((key.to_string(), value));
            rest = &r[end + 1..];
        }
    }
    let rest = rest
        .strip_prefix(' ')
        .ok_or_else(|| format!("no value in {line:?}"))?;
    let mut parts = rest.split(' ');
    let value = parse_value(parts.next().unwrap_or(""))?;
    if let Some(ts) = parts.next() {
        parse_value(ts).map_err(|_| format!("bad timestamp in {line:?}"))?;
    }
    if parts.next().is_some() {
        return Err(format!("text after the value in {line:?}"));
    }
    Ok(Sample {
        name: name.to_string(),
        labels,
        value,
    })
}

fn parse_value(v: &str) -> Result<f64, String> {
    match v {
        "+Inf" => Ok(f64::INFINITY),
        "-Inf" => Ok(f64::NEG_INFINITY),
        "NaN" => Ok(f64::NAN),
        _ if v.contains(|c: char| c.is_ascii_alphabetic() && c != 'e' && c != 'E') => {
            Err(format!("bad value {v:?}"))
        }
        _ => v.parse().map_err(|_| format!("bad value {v:?}")),
    }
}

fn unescape(v: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('n') => out.push('\n'),
                _ => return Err(format!("bad escape in {v:?}")),
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# HELP a_seconds Waits.\n# TYPE a_seconds histogram\n# UNIT a_seconds seconds\na_seconds_sum{lane=\"cpu\"} 0.5\na_seconds_count{lane=\"cpu\"} 2\na_seconds_bucket{le=\"0.1\",lane=\"cpu\"} 1\na_seconds_bucket{le=\"+Inf\",lane=\"cpu\"} 2\n# HELP b Things \\\"done\\\".\n# TYPE b counter\nb_total{x=\"q\\\"\\\\\"} 3\n# EOF\n";

    #[test]
    fn reads_what_prometheus_client_writes() {
        let p = parse(PAGE).unwrap();
        assert_eq!(p.families.len(), 2);
        let a = p.family("a_seconds").unwrap();
        assert_eq!((a.kind, a.samples.len()), (Kind::Histogram, 4));
        assert_eq!(a.unit.as_deref(), Some("seconds"));
        assert_eq!(p.value("b_total", &[("x", "q\"\\")]), Some(3.0));
        assert_eq!(
            p.family("b").unwrap().help.as_deref(),
            Some("Things \"done\".")
        );
    }

    /// Pages that reach each refusal of [`parse`] (and two it reads).
    const REFUSALS: &[(&str, &str)] = &[
        ("text after eof", "# TYPE a gauge\na 1\n# EOF\n# EOF\n"),
        ("bad comment", "#  TYPE\n# EOF\n"),
        ("comment without a name", "# TYPE\n# EOF\n"),
        ("bad name", "# TYPE 1a counter\n# EOF\n"),
        ("unknown type", "# TYPE a summary\n# EOF\n"),
        (
            "declared twice",
            "# TYPE a gauge\na 1\n# TYPE a gauge\n# EOF\n",
        ),
        ("typed twice", "# TYPE a gauge\n# TYPE a gauge\n# EOF\n"),
        (
            "help twice opens again",
            "# HELP a x\n# TYPE a gauge\na 1\n# HELP a y\n# TYPE a gauge\n# EOF\n",
        ),
        ("unknown comment", "# NOTE a x\n# EOF\n"),
        ("bad help escape", "# HELP a x\\t\n# EOF\n"),
        ("empty line", "\n# EOF\n"),
        ("before type", "a 1\n# EOF\n"),
        ("help only", "# HELP a x\na 1\n# EOF\n"),
        ("outside family", "# TYPE a gauge\nb 1\n# EOF\n"),
        ("counter suffix", "# TYPE a counter\na 1\n# EOF\n"),
        ("gauge suffix", "# TYPE a gauge\na_total 1\n# EOF\n"),
        ("info suffix", "# TYPE a info\na 1\n# EOF\n"),
        ("histogram suffix", "# TYPE h histogram\nh_max 1\n# EOF\n"),
        (
            "le off a bucket",
            "# TYPE h histogram\nh_sum{le=\"1\"} 1\n# EOF\n",
        ),
        (
            "bucket without le",
            "# TYPE h histogram\nh_bucket 1\n# EOF\n",
        ),
        (
            "twice",
            "# TYPE a gauge\na{x=\"1\",y=\"2\"} 1\na{y=\"2\",x=\"1\"} 2\n# EOF\n",
        ),
        ("no eof", "# TYPE a gauge\na 1\n"),
        (
            "no count",
            "# TYPE h histogram\nh_sum 1\nh_bucket{le=\"+Inf\"} 0\n# EOF\n",
        ),
        (
            "no sum",
            "# TYPE h histogram\nh_count 1\nh_bucket{le=\"+Inf\"} 1\n# EOF\n",
        ),
        (
            "buckets out of order",
            "# TYPE h histogram\nh_sum 1\nh_count 2\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 2\n# EOF\n",
        ),
        (
            "buckets falling",
            "# TYPE h histogram\nh_sum 1\nh_count 2\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"2\"} 1\nh_bucket{le=\"+Inf\"} 2\n# EOF\n",
        ),
        (
            "no inf bucket",
            "# TYPE h histogram\nh_sum 1\nh_count 1\nh_bucket{le=\"1\"} 1\n# EOF\n",
        ),
        (
            "bad le",
            "# TYPE h histogram\nh_sum 1\nh_count 1\nh_bucket{le=\"one\"} 1\n# EOF\n",
        ),
        ("no value", "# TYPE a gauge\na\n# EOF\n"),
        ("no space", "# TYPE a gauge\na{x=\"1\"}1\n# EOF\n"),
        ("bad label", "# TYPE a gauge\na{x} 1\n# EOF\n"),
        ("bad label name", "# TYPE a gauge\na{1x=\"1\"} 1\n# EOF\n"),
        ("unquoted", "# TYPE a gauge\na{x=1} 1\n# EOF\n"),
        ("bad escape", "# TYPE a gauge\na{x=\"\\t\"} 1\n# EOF\n"),
        ("not closed", "# TYPE a gauge\na{x=\"1} 1\n# EOF\n"),
        (
            "label twice",
            "# TYPE a gauge\na{x=\"1\",x=\"2\"} 1\n# EOF\n",
        ),
        ("no comma", "# TYPE a gauge\na{x=\"1\" y=\"2\"} 1\n# EOF\n"),
        ("bad value", "# TYPE a gauge\na 0x1\n# EOF\n"),
        ("bad timestamp", "# TYPE a gauge\na 1 soon\n# EOF\n"),
        ("after the value", "# TYPE a gauge\na 1 2 3\n# EOF\n"),
        (
            "special values",
            "# TYPE a gauge\na{x=\"a\"} +Inf\na{x=\"b\"} -Inf\na{x=\"c\"} NaN\na{x=\"d\"} 1e-3 17\n# EOF\n",
        ),
    ];

    /// Every refusal, word for word, and a summary of what the exporter's
    /// page reads as, compared with `testdata/scrape.txt`.
    #[test]
    fn every_refusal_reads_as_on_file() {
        let mut text = String::new();
        for (name, page) in REFUSALS {
            let got = match parse(page) {
                Ok(p) => format!("{:?}", p.samples().map(|s| s.value).collect::<Vec<_>>()),
                Err(e) => e.to_string(),
            };
            text.push_str(&format!("{name}: {got}\n"));
        }
        let page = parse(include_str!("../../sluice/testdata/export_lanes.prom")).unwrap();
        for f in &page.families {
            text.push_str(&format!(
                "{} {:?} help={:?} unit={:?} samples={} sum={}\n",
                f.name,
                f.kind,
                f.help,
                f.unit,
                f.samples.len(),
                f.samples.iter().map(|s| s.value).sum::<f64>()
            ));
        }
        crate::golden::same(&text, include_str!("../testdata/scrape.txt"), "scrape.txt");
    }

    #[test]
    fn refuses_what_sluice_never_writes() {
        let bad = |text: &str, want: &str| {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        };
        bad(&PAGE.replace("# EOF\n", ""), "no # EOF");
        bad(&format!("{PAGE}x 1\n"), "text after # EOF");
        bad(
            &PAGE.replace("b_total", "b"),
            "expected b_total or b_created",
        );
        bad(
            &PAGE.replace("b_total{x=\"q\\\"\\\\\"} 3", "b_total{x=q} 3"),
            "not quoted",
        );
        bad(
            &PAGE.replace("} 3\n", "} 3\nb_total{x=\"q\\\"\\\\\"} 4\n"),
            "written twice",
        );
        bad(
            &PAGE.replace(
                "a_seconds_count{lane=\"cpu\"} 2",
                "a_seconds_count{lane=\"cpu\"} 3",
            ),
            "differs from _count",
        );
        bad(
            &PAGE.replace("le=\"0.1\",lane=\"cpu\"} 1", "le=\"0.1\",lane=\"cpu\"} 5"),
            "not cumulative",
        );
        bad(&PAGE.replace("} 0.5", "} half"), "bad value");
        bad(
            &PAGE.replace("# TYPE b counter", "# TYPE b summary"),
            "not one sluice writes",
        );
        bad(&PAGE.replace("b_total{x", "b_total {x"), "bad value");
        bad(
            &PAGE.replace("# TYPE b counter\n", "# TYPE b counter\n\n"),
            "empty line",
        );
    }
}
