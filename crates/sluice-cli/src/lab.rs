//! `sluice lab`: the experiment subcommands and their flags, generated
//! from the lab's registry (each `ArgSpec` with its kind and range), and
//! the conversion to a `LabConfig` and `Args`.

use crate::flags::{
    duration_arg, duration_of, json_arg, json_out, json_out_arg, ms_alias, write_json_out,
};
use anyhow::Context;
use clap::{Arg, ArgAction, ArgMatches, Command};
use sluice_lab::experiment::Scale;
use sluice_lab::{EXPERIMENTS, Kind, LabConfig, Outputs, PoolSize};
use std::path::PathBuf;

pub(crate) fn common_args() -> Vec<Arg> {
    vec![
        Arg::new("subjects")
            .long("subjects")
            .value_name("LIST")
            .help("subjects to run, comma-separated: node, sluice-compat, sluice, tokio, go; also libuv-ffi (dispatch) and node+sluice (node with the sluice npm package preloaded; in `lab report` by default) [default: all available]"),
        Arg::new("pools")
            .long("pools")
            .value_name("LIST")
            .help("pool sizes, comma-separated; \"unset\" leaves each subject at its default [default: per experiment]"),
        Arg::new("reps")
            .long("reps")
            .value_name("N")
            .default_value("1")
            .help("repetitions; tables show the median"),
        Arg::new("node").long("node").value_name("PATH").action(ArgAction::Append).help("the node binary [default: node on PATH]; `lab scope` takes it again and again to compare node builds in one table, and so does `lab report` (its other experiments run the first)"),
        Arg::new("go").long("go").value_name("PATH").help("the go command that builds the go subject's programs [default: the newest of go on PATH and /usr/lib/go-*/bin/go]"),
        Arg::new("no-progress").long("no-progress").action(ArgAction::SetTrue).help("no progress bar on stderr"),
    ]
}

pub(crate) fn lab(m: &ArgMatches) -> anyhow::Result<()> {
    match m.subcommand() {
        Some(("list", m)) => {
            let out = json_out(m)?;
            let list: Vec<serde_json::Value> = sluice_lab::list()
                .into_iter()
                .map(|(name, about)| serde_json::json!({ "name": name, "about": about }))
                .collect();
            let text = serde_json::to_string_pretty(&list)?;
            if m.get_flag("json") {
                println!("{text}");
            } else {
                for (name, about) in sluice_lab::list() {
                    println!("{name:<14} {about}");
                }
            }
            if let Some(path) = out {
                write_json_out(&path, &text)?;
            }
            Ok(())
        }
        Some(("report", m)) => {
            let json_file = json_out(m)?;
            let mut config = lab_config(m)?;
            config.tables_on_stderr = m.get_flag("json");
            config.full = m.get_flag("full");
            let out = PathBuf::from(m.get_one::<String>("out").expect("has default"));
            let summary = sluice_lab::run_report(config, &out)?;
            let line = format!(
                "\nwrote {} and {} charts",
                summary.markdown.display(),
                summary.svgs.len()
            );
            let doc = serde_json::to_string_pretty(&serde_json::json!({
                "report": summary.markdown,
                "json": summary.json,
                "svg": summary.svgs,
                "failed": summary.failed.iter()
                    .map(|(n, e)| serde_json::json!({ "experiment": n, "error": e }))
                    .collect::<Vec<_>>(),
            }))?;
            if m.get_flag("json") {
                eprintln!("{line}");
                println!("{doc}");
            } else {
                println!("{line}");
            }
            if let Some(path) = json_file {
                write_json_out(&path, &doc)?;
            }
            if !summary.failed.is_empty() {
                anyhow::bail!(
                    "{} experiment(s) failed: {}",
                    summary.failed.len(),
                    summary
                        .failed
                        .iter()
                        .map(|(n, e)| format!("{n}: {e}"))
                        .collect::<Vec<_>>()
                        .join("; ")
                );
            }
            Ok(())
        }
        Some((name, m)) => {
            let exp =
                sluice_lab::experiment::by_name(name).expect("subcommands come from the registry");
            let mut args = exp.default_args(Scale::Command)?;
            for a in exp.args {
                match a.kind {
                    // Parsed and range-checked by clap: handed over as a
                    // Duration, never as text to read again.
                    Kind::Duration { .. } => args.set_duration(a.name, duration_of(m, a.name))?,
                    _ => {
                        if let Some(v) = m.get_one::<String>(a.name) {
                            args.set(a.name, v.clone())?;
                        }
                    }
                }
            }
            let outputs = Outputs {
                json_stdout: m.get_flag("json"),
                json: m.get_one::<String>("json-out").map(PathBuf::from),
                svg: m.get_one::<String>("svg").map(PathBuf::from),
            };
            sluice_lab::run_experiment(name, lab_config(m)?, &args, &outputs).map(drop)
        }
        None => unreachable!("clap requires a subcommand"),
    }
}

pub(crate) fn lab_config(m: &ArgMatches) -> anyhow::Result<LabConfig> {
    let exe = std::env::current_exe().context("locating the sluice binary")?;
    let mut c = LabConfig::new(exe);
    let mut nodes = m
        .get_many::<String>("node")
        .into_iter()
        .flatten()
        .map(PathBuf::from);
    c.node = nodes.next();
    c.more_nodes = nodes.collect();
    c.go = m.get_one::<String>("go").map(PathBuf::from);
    c.subjects = m.get_one::<String>("subjects").map(|s| {
        s.split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    });
    if let Some(p) = m.get_one::<String>("pools") {
        c.pools = Some(PoolSize::parse_list(p).map_err(anyhow::Error::msg)?);
    }
    let reps = m.get_one::<String>("reps").expect("has default");
    c.reps = reps
        .trim()
        .parse()
        .ok()
        .filter(|r| (1..=100).contains(r))
        .with_context(|| format!("--reps {reps:?}: expected a whole number in 1..=100"))?;
    c.progress = !m.get_flag("no-progress");
    Ok(c)
}

/// The `lab` subcommand: `list`, `report` and one subcommand per
/// experiment of the registry, with its flags.
pub(crate) fn command() -> Command {
    let mut lab = Command::new("lab")
        .about("Run the experiments side by side: node, sluice-compat (libuv policy), sluice (lanes), tokio, go")
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("list")
                .about("List the experiments")
                .arg(json_arg("the experiments as JSON on stdout: [{name, about}]"))
                .arg(json_out_arg()),
        )
        .subcommand(
            Command::new("report")
                .about("Run every experiment: the cells that show each seed's claim (--full: every cell); write lab-report/REPORT.md, one SVG and one JSON file per experiment")
                .args(common_args())
                .arg(Arg::new("full").long("full").action(ArgAction::SetTrue).help("run every cell of every experiment at the full report's values (several times longer) instead of the cells that show each seed's claim"))
                .arg(Arg::new("out").long("out").value_name("DIR").default_value("lab-report").help("where to write the report"))
                .arg(json_arg("what was written, as JSON on stdout: the report, each experiment's JSON and SVG files, the experiments that failed"))
                .arg(json_out_arg()),
        );
    for e in EXPERIMENTS {
        let mut cmd = Command::new(e.name)
            .about(e.about())
            .long_about(e.long_about())
            .args(common_args())
            .arg(json_arg(
                "the outcome (rows, notes, settings) as JSON on stdout; the table goes to stderr",
            ))
            .arg(json_out_arg())
            .arg(
                Arg::new("svg")
                    .long("svg")
                    .value_name("FILE")
                    .help("also draw the chart as SVG"),
            );
        for a in e.args {
            cmd = match a.kind {
                // A duration: sluice's one grammar, checked against the
                // flag's range as clap parses it; the former
                // whole-milliseconds spelling still read.
                Kind::Duration { range, old } => {
                    let cmd = cmd.arg(duration_arg(a.name, a.default, a.help, range));
                    // A flag that came with the duration grammar has no
                    // whole-milliseconds spelling to keep.
                    match old {
                        Some(old) => cmd.arg(ms_alias(old, a.name, range)),
                        None => cmd,
                    }
                }
                kind => cmd.arg(
                    Arg::new(a.name)
                        .long(a.name)
                        .value_name(a.value_name)
                        .default_value(a.default)
                        .help(format!("{} ({})", a.help, kind.accepts())),
                ),
            };
        }
        lab = lab.subcommand(cmd);
    }
    lab
}
