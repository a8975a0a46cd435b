#!/usr/bin/env python3
"""Writes the rules' unit test file (rules.test.yml) from the recorded
scrapes (recorded/*.txt.gz, made by record.py) and the hand-written
expectations (rules.test.yml.in).

    python3 deploy/prometheus/tests/to_input_series.py          # rewrite rules.test.yml
    python3 deploy/prometheus/tests/to_input_series.py --check  # fail if it is not up to date

Each recorded scrape becomes one sample of promtool's input series, at
t = k * the recording's scrape interval, as Prometheus would have stored it:

  * every series gets the target's `job` and `instance` labels
    (recorded/manifest.json), and loses its labels with empty values
    (container="", pod="" on the host: Prometheus drops those);
  * `up` is 1 for a scrape that answered, 0 for one that failed;
  * a series absent from a scrape (the exporter down, a process gone) is
    `stale` at the first such scrape, as Prometheus marks it, then missing;
  * only the families the rules read are kept (the `sluice_*` names found in
    ../*.rules.yml, histograms' _bucket series included), so the file holds
    what the tests need and nothing else.

Values are written as recorded (repr of the float), runs of one value folded
into promtool's `v+0xN`. The template's `${name}` fields are filled from the
manifests: `${pid_idle}`, `${pid_cpu}`, `${pid_loop}`, `${pid_dns}`,
`${scope_instance}`, `${serve_instance}`, `${interval}` and
`${input_series}` from recorded/ (record.py); `${pid_probed}`,
`${probe_instance}`, `${probe_interval}` and `${probe_input_series}` from
recorded-probe/ (record_probe.py: scope in probe mode).
"""

import argparse
import difflib
import glob
import gzip
import json
import os
import re
import string
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = re.compile(r"# sluice-record t=(\d+) unix=\S+ status=(\S+)")
SAMPLE = re.compile(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$")
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


class ConvertError(Exception):
    pass


def parse_labels(text, where):
    out = []
    pos = 0
    while pos < len(text):
        m = LABEL.match(text, pos)
        if not m:
            raise ConvertError(f"{where}: cannot read the labels {{{text}}} at {text[pos:]!r}")
        out.append((m.group(1), m.group(2)))
        pos = m.end()
    return out


def read_scrapes(path):
    """[(t, ok, {series: value})] of one recorded file."""
    scrapes = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = HEADER.match(line)
            if m:
                scrapes.append((int(m.group(1)), m.group(2) == "ok", {}))
                continue
            if not line or line.startswith("#"):
                continue
            if not scrapes:
                raise ConvertError(f"{path}:{n}: a sample before the first '# sluice-record' line")
            m = SAMPLE.match(line)
            if not m:
                raise ConvertError(f"{path}:{n}: not a sample line: {line!r}")
            name, labels, value = m.group(1), m.group(2) or "", m.group(3)
            key = (name, tuple(parse_labels(labels, f"{path}:{n}")))
            try:
                scrapes[-1][2][key] = float(value)
            except ValueError:
                raise ConvertError(f"{path}:{n}: not a number: {value!r}") from None
    return scrapes


def rule_families(rules_glob):
    """The sluice_* names the rules read."""
    names = set()
    for path in sorted(glob.glob(rules_glob)):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.lstrip().startswith("#"):
                    continue
                names.update(re.findall(r"\bsluice_[a-z0-9_]+\b(?!:)", line))
    return names


def fmt(v):
    if v != v:
        return "NaN"
    if v in (float("inf"), float("-inf")):
        return "Inf" if v > 0 else "-Inf"
    r = repr(v)
    return r[:-2] if r.endswith(".0") else r


def fold(values):
    """promtool's notation for a list of samples (None: missing, 'stale')."""
    out = []
    i = 0
    while i < len(values):
        v = values[i]
        j = i
        while j + 1 < len(values) and values[j + 1] == v and v != "stale":
            j += 1
        run = j - i + 1
        if v is None:
            out.append("_" if run == 1 else f"_x{run}")
        elif v == "stale":
            out.append("stale")
        else:
            out.append(fmt(v) if run == 1 else f"{fmt(v)}+0x{run - 1}")
        i = j + 1
    return " ".join(out)


def quote(s):
    return s.replace("\\", "\\\\").replace('"', '\\"')


def series_text(target, scrapes, keep, interval):
    job, instance = target["job"], target["instance"]
    times = [t for t, _, _ in scrapes]
    for k, t in enumerate(times):
        if t != k * interval:
            raise ConvertError(f"scrape {k} at t={t}, not {k * interval}: the schedule has a gap")
    def kept(name):
        base = re.sub(r"_(bucket|count|sum)$", "", name)
        return name in keep or base + "_bucket" in keep

    keys = sorted({key for _, _, page in scrapes for key in page if kept(key[0])})
    lines = []
    up = [1.0 if ok else 0.0 for _, ok, _ in scrapes]
    lines.append((f'up{{instance="{instance}",job="{job}"}}', fold(up)))
    for name, labels in keys:
        values = []
        for _, _, page in scrapes:
            if (name, labels) in page:
                values.append(page[(name, labels)])
            elif values and values[-1] not in (None, "stale"):
                values.append("stale")
            else:
                values.append(None)
        while values and values[-1] is None:
            values.pop()
        pairs = [(k, v) for k, v in labels if v != ""] + [("instance", instance), ("job", job)]
        text = ",".join(f'{k}="{quote(v)}"' for k, v in pairs)
        lines.append((f"{name}{{{text}}}", fold(values)))
    return lines


def recording_fields(recorded, prefix, keep):
    """The template's fields of one recording: `PREFIXinput_series`,
    `PREFIXinterval`, `pid_NAME` per process, `NAME_instance` per target."""
    with open(os.path.join(recorded, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    interval = manifest["scrape_interval_s"]
    body = []
    for name, target in manifest["targets"].items():
        scrapes = read_scrapes(os.path.join(recorded, f"{name}.txt.gz"))
        for series, values in series_text(target, scrapes, keep, interval):
            body.append(f"      - series: '{series}'\n        values: '{values}'")
    fields = {f"pid_{k}": str(v["pid"]) for k, v in manifest["processes"].items()}
    fields.update({f"{k}_instance": v["instance"] for k, v in manifest["targets"].items()})
    fields[f"{prefix}interval"] = f"{interval}s"
    fields[f"{prefix}input_series"] = "\n".join(body)
    return fields


def render(recorded, template_path, recorded_probe=None):
    keep = rule_families(os.path.join(HERE, "..", "*.rules.yml"))
    fields = recording_fields(recorded, "", keep)
    if recorded_probe:
        fields.update(recording_fields(recorded_probe, "probe_", keep))
    with open(template_path, encoding="utf-8") as f:
        try:
            return string.Template(f.read()).substitute(fields)
        except (KeyError, ValueError) as e:
            raise ConvertError(f"{template_path}: the field {e} is not one the manifest gives") from None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--recorded", default=os.path.join(HERE, "recorded"))
    ap.add_argument("--recorded-probe", default=os.path.join(HERE, "recorded-probe"),
                    help="record_probe.py's recording (scope in probe mode)")
    ap.add_argument("--template", default=os.path.join(HERE, "rules.test.yml.in"))
    ap.add_argument("--out", default=os.path.join(HERE, "rules.test.yml"))
    ap.add_argument("--check", action="store_true", help="fail if --out is not what it would write")
    a = ap.parse_args()
    try:
        text = render(a.recorded, a.template, a.recorded_probe)
    except (ConvertError, OSError, json.JSONDecodeError, KeyError) as e:
        sys.exit(f"to_input_series.py: {e}")
    if a.check:
        try:
            with open(a.out, encoding="utf-8") as f:
                have = f.read()
        except OSError as e:
            sys.exit(f"to_input_series.py: {e}")
        if have != text:
            diff = difflib.unified_diff(have.splitlines(), text.splitlines(), a.out, "regenerated",
                                        lineterm="", n=1)
            sys.exit("to_input_series.py: " + a.out + " is not up to date with the recordings and "
                     "the template; run deploy/prometheus/tests/to_input_series.py\n"
                     + "\n".join(list(diff)[:40]))
        return
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
