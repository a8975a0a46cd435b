//! Every refusal of the builder, compared with `testdata/config.txt`, and
//! the environment's variables read strictly.

use super::Builder;
use crate::budget;
use crate::choice::{CpuSched, Policy};
use crate::error::{ConfigError, ENV_VARS, Knob};
use crate::lane::Lane;
use crate::loom;
use std::time::Duration;

fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_string())
    }
}

/// What `b` builds into: the error's text, or each lane's limit, bound,
/// thread ceiling and compensation switch (`default` where the value is
/// the machine's default, so the text is the same on every machine).
fn outcome(b: Result<Builder, ConfigError>) -> String {
    let cores = loom::usable_cores();
    let shown = |v: Option<u64>, default: usize| match v {
        Some(v) if v == default as u64 => "default".to_string(),
        Some(v) => v.to_string(),
        None => "none".to_string(),
    };
    match b.and_then(Builder::build) {
        Err(e) => e.to_string(),
        Ok(pool) => {
            let lanes: Vec<String> = pool
                .metrics()
                .lanes
                .iter()
                .map(|l| {
                    format!(
                        "{} limit={} bound={:?} max={} adaptive={}",
                        l.lane.name(),
                        shown(Some(l.limit), budget::default_threads(l.lane, cores)),
                        l.queue_bound,
                        shown(l.max_threads, budget::default_max_threads(l.lane, cores)),
                        l.adaptive
                    )
                })
                .collect();
            format!("built: {}", lanes.join("; "))
        }
    }
}

/// `from_vars` over these variables, with these values.
fn vars(pairs: &[(&str, &str)]) -> Result<Builder, ConfigError> {
    let pairs: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Builder::from_vars(move |name| {
        pairs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    })
}

/// Environments: each variable's refusals, then which of several wrong
/// variables is named (each case drops the one named before).
const ENV_CASES: &[(&str, &[(&str, &str)])] = &[
    ("cpu threads junk", &[("SLUICE_CPU_THREADS", "abc")]),
    ("cpu threads zero", &[("SLUICE_CPU_THREADS", "0")]),
    ("cpu threads over", &[("SLUICE_CPU_THREADS", "1025")]),
    ("fastio threads neg", &[("SLUICE_FASTIO_THREADS", "-1")]),
    ("bound junk", &[("SLUICE_QUEUE_BOUND", "1e3")]),
    ("bound zero", &[("SLUICE_QUEUE_BOUND", "0")]),
    ("stack small", &[("SLUICE_STACK_SIZE", "1024")]),
    ("stack junk", &[("SLUICE_STACK_SIZE", "2M")]),
    ("max junk", &[("SLUICE_CPU_MAX_THREADS", "many")]),
    ("max zero", &[("SLUICE_SLOWIO_MAX_THREADS", "0")]),
    ("affinity junk", &[("SLUICE_CPU_AFFINITY", "pinned")]),
    ("sched junk", &[("SLUICE_CPU_SCHED", "fifo")]),
    ("adaptive junk", &[("SLUICE_ADAPTIVE", "2")]),
    ("nice over", &[("SLUICE_CPU_NICE", "20")]),
    ("nice neg", &[("SLUICE_CPU_NICE", "-5")]),
    ("nice junk", &[("SLUICE_CPU_NICE", "low")]),
    ("bound huge", &HUGE_BOUND),
    ("max below budget", &BELOW_BUDGET),
    ("every variable wrong", &WRONG),
    ("vars after threads", WRONG.split_at(7).0),
    ("vars after bound", WRONG.split_at(6).0),
    ("vars after stack", WRONG.split_at(5).0),
    ("vars after max", WRONG.split_at(4).0),
    ("vars after affinity", WRONG.split_at(3).0),
    ("vars after sched", WRONG.split_at(2).0),
    ("every variable right", &RIGHT),
    ("no variable", &[]),
];

/// A number beyond every integer type.
const HUGE_BOUND: [(&str, &str); 1] = [(
    "SLUICE_QUEUE_BOUND",
    "999999999999999999999999999999999999999",
)];

/// A ceiling below the lane's budget.
const BELOW_BUDGET: [(&str, &str); 2] = [
    ("SLUICE_FASTIO_THREADS", "9"),
    ("SLUICE_FASTIO_MAX_THREADS", "8"),
];

/// Every variable accepted (but the Cpu budget, whose default is the
/// machine's).
const RIGHT: [(&str, &str); 10] = [
    ("SLUICE_FASTIO_THREADS", " 3 "),
    ("SLUICE_SLOWIO_THREADS", "5"),
    ("SLUICE_QUEUE_BOUND", "77"),
    ("SLUICE_STACK_SIZE", "65536"),
    ("SLUICE_CPU_NICE", "0"),
    ("SLUICE_ADAPTIVE", "no"),
    ("SLUICE_CPU_MAX_THREADS", "1024"),
    ("SLUICE_SLOWIO_MAX_THREADS", "6"),
    ("SLUICE_CPU_AFFINITY", "off"),
    ("SLUICE_CPU_SCHED", "Batch"),
];

/// Every variable wrong, the last read first.
const WRONG: [(&str, &str); 9] = [
    ("SLUICE_CPU_NICE", "x"),
    ("SLUICE_ADAPTIVE", "x"),
    ("SLUICE_CPU_SCHED", "x"),
    ("SLUICE_CPU_AFFINITY", "x"),
    ("SLUICE_SLOWIO_MAX_THREADS", "x"),
    ("SLUICE_STACK_SIZE", "x"),
    ("SLUICE_QUEUE_BOUND", "x"),
    ("SLUICE_SLOWIO_THREADS", "x"),
    ("SLUICE_FASTIO_THREADS", "x"),
];

/// Builder calls under the lanes policy, one setting each: each refusal.
fn lanes_cases() -> Vec<(&'static str, Builder)> {
    let b = Builder::new;
    vec![
        ("builder threads zero", b().threads(Lane::FastIo, 0)),
        ("builder cpu over", b().threads(Lane::Cpu, 1025)),
        (
            "builder bound over",
            b().queue_bound(Lane::SlowIo, 16_777_217),
        ),
        ("builder stack small", b().stack_size(100)),
        ("builder nice over", b().cpu_nice(20)),
        (
            "builder max below",
            b().threads(Lane::SlowIo, 10).max_threads(Lane::SlowIo, 9),
        ),
        (
            "builder max over",
            b().threads(Lane::FastIo, 4).max_threads(Lane::FastIo, 1025),
        ),
        ("prefix long", b().thread_name_prefix("nine-char")),
        ("prefix empty", b().thread_name_prefix("")),
        ("prefix nul", b().thread_name_prefix("a\0b")),
    ]
}

/// Builder calls under the lanes policy that set several things at
/// once: which refusal is named, and what the settings build into.
fn lanes_combined_cases() -> Vec<(&'static str, Builder)> {
    let b = Builder::new;
    vec![
        (
            "stack before lanes",
            b().threads(Lane::Cpu, 0).stack_size(1),
        ),
        (
            "cpu lane before fastio",
            b().threads(Lane::FastIo, 0)
                .threads(Lane::Cpu, 1)
                .max_threads(Lane::Cpu, 0),
        ),
        (
            "threads before bound, prefix, max",
            b().max_threads(Lane::Cpu, 0)
                .thread_name_prefix("")
                .queue_bound(Lane::Cpu, 0)
                .threads(Lane::Cpu, 0),
        ),
        (
            "the cpu lane's prefix before fastio's threads",
            b().threads(Lane::FastIo, 0).thread_name_prefix(""),
        ),
        (
            "bound before prefix, max",
            b().max_threads(Lane::Cpu, 0)
                .thread_name_prefix("")
                .queue_bound(Lane::Cpu, 0),
        ),
        (
            "prefix before max",
            b().max_threads(Lane::Cpu, 0).thread_name_prefix(""),
        ),
        (
            "lanes before nice",
            b().cpu_nice(30).max_threads(Lane::SlowIo, 0),
        ),
        (
            "guarded without compensation",
            b().cpu_sched(CpuSched::Guarded).adaptive(Lane::Cpu, false),
        ),
        (
            "nice before guarded",
            b().cpu_sched(CpuSched::Guarded)
                .adaptive(Lane::Cpu, false)
                .cpu_nice(20),
        ),
        (
            "builder settings",
            b().threads(Lane::SlowIo, 40)
                .queue_bound(Lane::FastIo, 9)
                .adaptive(Lane::Cpu, false)
                .max_threads(Lane::FastIo, 500)
                .keep_alive(Lane::Cpu, Duration::from_secs(1))
                .thread_name_prefix("app")
                .cpu_nice(19)
                .cpu_sched(CpuSched::Idle)
                .timing(false),
        ),
    ]
}

/// Builder calls under the libuv policy: each setting it refuses, and
/// which is named first.
fn libuv_cases() -> Vec<(&'static str, Builder)> {
    let libuv = |threads| Builder::new().policy(Policy::Libuv { threads });
    let b = || libuv(Some(4));
    let second = Duration::from_secs(1);
    vec![
        ("libuv threads", b().threads(Lane::SlowIo, 2)),
        ("libuv bound", b().queue_bound(Lane::Cpu, 2)),
        ("libuv nice", b().cpu_nice(1)),
        ("libuv max", b().max_threads(Lane::FastIo, 2)),
        ("libuv adaptive", b().adaptive(Lane::Cpu, true)),
        ("libuv sched", b().cpu_sched(CpuSched::Batch)),
        ("libuv affinity", b().cpu_affinity(true)),
        ("libuv keep alive", b().keep_alive(Lane::SlowIo, second)),
        ("libuv zero", libuv(Some(0))),
        ("libuv over", libuv(Some(1025))),
        ("libuv prefix", b().thread_name_prefix("x")),
        ("libuv start hook", b().on_thread_start(|| ())),
        ("libuv stop hook", b().on_thread_stop(|| ())),
        ("libuv stack small", b().stack_size(1)),
        (
            "libuv first refusal",
            libuv(Some(0))
                .on_thread_start(|| ())
                .thread_name_prefix("x")
                .keep_alive(Lane::Cpu, second)
                .cpu_affinity(true)
                .cpu_sched(CpuSched::Idle)
                .adaptive(Lane::Cpu, true)
                .max_threads(Lane::Cpu, 2)
                .cpu_nice(3)
                .queue_bound(Lane::Cpu, 2)
                .threads(Lane::Cpu, 1),
        ),
        (
            "libuv panic handler",
            b().panic_handler(|_, _| ())
                .queue_timeout(Lane::Cpu, second),
        ),
    ]
}

/// Every refusal of `from_vars` and `build`, and which one wins when
/// several settings are wrong, compared with `testdata/config.txt`
/// (`CORES` stands for the usable cores).
#[test]
fn every_refusal_reads_as_on_file() {
    let mut cases: Vec<(&str, Result<Builder, ConfigError>)> = ENV_CASES
        .iter()
        .map(|&(name, pairs)| (name, vars(pairs)))
        .collect();
    cases.extend(lanes_cases().into_iter().map(|(n, b)| (n, Ok(b))));
    cases.extend(lanes_combined_cases().into_iter().map(|(n, b)| (n, Ok(b))));
    cases.extend(libuv_cases().into_iter().map(|(n, b)| (n, Ok(b))));
    let env_then_libuv =
        vars(&[("SLUICE_ADAPTIVE", "on")]).map(|b| b.policy(Policy::Libuv { threads: None }));
    cases.insert(cases.len() - 2, ("libuv env", env_then_libuv));
    let mut text = String::new();
    for (name, b) in cases {
        text.push_str(&format!("{name}: {}\n", outcome(b)));
    }
    let cores = loom::usable_cores();
    let text = text
        .replace(&format!("1..={cores} "), "1..=CORES ")
        .replace(&format!("1..={cores}\n"), "1..=CORES\n")
        .replace(&format!("; {cores} found"), "; CORES found");
    crate::tests::golden::same(
        &text,
        include_str!("../../testdata/config.txt"),
        "config.txt",
    );
}

#[test]
fn junk_zero_negative_and_huge_are_refused_with_the_variable_named() {
    for (var, val, want) in [
        (
            "SLUICE_FASTIO_THREADS",
            "abc",
            "SLUICE_FASTIO_THREADS=\"abc\" is not a number; expected 1..=1024",
        ),
        (
            "SLUICE_FASTIO_THREADS",
            "0",
            "SLUICE_FASTIO_THREADS=\"0\" is out of range; expected 1..=1024",
        ),
        (
            "SLUICE_SLOWIO_THREADS",
            "2000",
            "SLUICE_SLOWIO_THREADS=\"2000\" is out of range; expected 1..=1024",
        ),
        (
            "SLUICE_QUEUE_BOUND",
            "1.5",
            "SLUICE_QUEUE_BOUND=\"1.5\" is not a number; expected 1..=16777216",
        ),
        (
            "SLUICE_QUEUE_BOUND",
            " ",
            "SLUICE_QUEUE_BOUND=\" \" is not a number; expected 1..=16777216",
        ),
        (
            "SLUICE_STACK_SIZE",
            "4096",
            "SLUICE_STACK_SIZE=\"4096\" is out of range; expected 65536..=1073741824",
        ),
        (
            "SLUICE_CPU_NICE",
            "20",
            "SLUICE_CPU_NICE=\"20\" is out of range; expected 0..=19",
        ),
    ] {
        let pairs: &'static [(&str, &str)] = Box::leak(Box::new([(var, val)]));
        let err = Builder::from_vars(env(pairs)).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
}

#[test]
fn an_empty_variable_is_an_unset_one() {
    for var in ENV_VARS {
        let pairs: &'static [(&str, &str)] = Box::leak(Box::new([(var, "")]));
        let b = Builder::from_vars(env(pairs)).unwrap();
        assert!(b.threads.iter().all(Option::is_none), "{var}");
        assert!(b.cpu_sched.is_none() && b.stack_size.is_none(), "{var}");
    }
}

#[test]
fn errors_name_their_setting_typed() {
    let err = Builder::from_vars(env(&[("SLUICE_CPU_THREADS", "100000")])).unwrap_err();
    assert_eq!(err.knob(), Some(Knob::Threads(Some(Lane::Cpu))));
    assert_eq!(err.variable(), Some("SLUICE_CPU_THREADS"));
    let err = Builder::from_vars(env(&[("SLUICE_CPU_SCHED", "fast")])).unwrap_err();
    assert_eq!(err.knob(), Some(Knob::CpuSched));
    assert_eq!(err.variable(), Some("SLUICE_CPU_SCHED"));
    let err = Builder::new()
        .queue_bound(Lane::FastIo, 0)
        .build()
        .unwrap_err();
    assert_eq!(err.knob(), Some(Knob::QueueBound(Some(Lane::FastIo))));
    assert_eq!(err.variable(), None);
    let err = Builder::new().stack_size(1).build().unwrap_err();
    assert_eq!(err.knob(), Some(Knob::StackSize));
}

#[test]
fn adaptive_and_max_threads_from_the_environment() {
    let b = Builder::from_vars(env(&[
        ("SLUICE_ADAPTIVE", " Off "),
        ("SLUICE_SLOWIO_MAX_THREADS", "100"),
    ]))
    .unwrap();
    assert!(
        b.adaptive
            .iter()
            .all(|a| a.as_ref().map(|a| a.value) == Some(false))
    );
    assert_eq!(b.max_threads[2].as_ref().map(|m| m.value), Some(100));
    assert!(
        Builder::from_vars(env(&[("SLUICE_CPU_AFFINITY", "on")]))
            .unwrap()
            .cpu_affinity
    );
    let err = Builder::from_vars(env(&[("SLUICE_ADAPTIVE", "maybe")])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "SLUICE_ADAPTIVE=\"maybe\" is not accepted; expected on, off, 1, 0, true, false, yes or no"
    );
    let err = Builder::from_vars(env(&[("SLUICE_FASTIO_MAX_THREADS", "5000")])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "SLUICE_FASTIO_MAX_THREADS=\"5000\" is out of range; expected 1..=1024"
    );
    // Below the lane's budget: refused at build, naming the variable.
    let err = Builder::from_vars(env(&[
        ("SLUICE_SLOWIO_THREADS", "64"),
        ("SLUICE_SLOWIO_MAX_THREADS", "10"),
    ]))
    .unwrap()
    .build()
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "SLUICE_SLOWIO_MAX_THREADS=\"10\" is out of range; expected 64..=1024 (from the lane's budget to the ceiling)"
    );
}

#[test]
fn cpu_nice_is_read_from_the_environment() {
    let b = Builder::from_vars(env(&[("SLUICE_CPU_NICE", " 0 ")])).unwrap();
    assert_eq!(b.cpu_nice.as_ref().map(|n| n.value), Some(0));
    assert!(Builder::from_vars(env(&[])).unwrap().cpu_nice.is_none());
}

#[test]
fn cpu_above_cores_names_the_reason() {
    let cores = loom::usable_cores();
    let err = Builder::new()
        .threads(Lane::Cpu, cores + 1)
        .build()
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "threads(Lane::Cpu)=\"{}\" is out of range; expected 1..={cores} (the usable cores",
            cores + 1
        )),
        "{text}"
    );
}

#[test]
fn libuv_refuses_lane_settings() {
    let err = Builder::new()
        .policy(Policy::Libuv { threads: Some(4) })
        .threads(Lane::FastIo, 2)
        .build()
        .unwrap_err();
    assert!(matches!(err, ConfigError::Unsupported { .. }));
    let err = Builder::new()
        .policy(Policy::Libuv {
            threads: Some(2000),
        })
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Policy::Libuv { threads }=\"2000\" is out of range; expected 1..=1024"
    );
}

#[test]
fn every_variable_and_every_refused_builder_value_names_its_setting() {
    for var in ENV_VARS {
        assert!(super::env::var_knob(var).is_some(), "{var}");
    }
    let err = Builder::new().thread_name_prefix("").build().unwrap_err();
    assert_eq!(err.knob(), Some(Knob::ThreadNamePrefix));
}
