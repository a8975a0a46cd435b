//! Which cell of the short report (`sluice lab report` at its defaults)
//! shows each seed's claim: [`CLAIMS`], one line per claim of
//! `docs/seeds.md`, with the experiment and the flag values it must run.
//! A test holds every claim to the short report's values, so that
//! shortening the report cannot drop a seed; the report prints the table.

use crate::experiment::{self, Scale};

/// One claim of a seed and the cells that show it.
#[derive(Debug, Clone, Copy)]
pub struct Claim {
    /// The seed and section, e.g. `000 §1`.
    pub seed: &'static str,
    /// The claim, in a few words.
    pub claim: &'static str,
    /// The experiment that checks it.
    pub experiment: &'static str,
    /// What the short report must run for it: `(flag, item)`, each item
    /// one of the comma-separated values of the flag (`cells`, `kind`,
    /// ...), or a pool size of `pools`.
    pub runs: &'static [(&'static str, &'static str)],
}

/// Every seed's claims, in `docs/seeds.md`'s order.
pub const CLAIMS: &[Claim] = &[
    Claim {
        seed: "000 §1",
        claim: "n concurrent pbkdf2 take ceil(n / pool) x one: a staircase",
        experiment: "staircase",
        runs: &[("kind", "cpu"), ("kind", "wait"), ("n", "4"), ("n", "5")],
    },
    Claim {
        seed: "000 §2",
        claim: "unrelated calls queue behind a full pool",
        experiment: "probe",
        runs: &[
            ("probes", "read"),
            ("probes", "stat"),
            ("probes", "gzip"),
            ("probes", "lookup"),
            ("probes", "random"),
        ],
    },
    Claim {
        seed: "000 §3",
        claim: "a blocked loop and a busy pool are two illnesses",
        experiment: "loop-vs-pool",
        runs: &[("pool-tasks", "4")],
    },
    Claim {
        seed: "000 §4",
        claim: "the pool is lazy, 8 MiB stacks, sizes above 1024 cut, a late size ignored",
        experiment: "spawn-bill",
        runs: &[("pools", "2000"), ("part", "bill"), ("part", "set")],
    },
    Claim {
        seed: "000 §5",
        claim: "small reads get slower with a bigger pool",
        experiment: "small-reads",
        runs: &[("pools", "1"), ("pools", "16")],
    },
    Claim {
        seed: "000 §6",
        claim: "a probe finds a saturated pool before users do",
        experiment: "scope",
        runs: &[("workloads", "idle"), ("workloads", "cpu-full")],
    },
    Claim {
        seed: "001",
        claim: "dns.lookup holds at most (pool + 1) / 2 threads",
        experiment: "dns",
        runs: &[],
    },
    Claim {
        seed: "001",
        claim: "starvation is one-way: lookups spare reads, hashes delay both",
        experiment: "starve",
        runs: &[("scenario", "A"), ("scenario", "B")],
    },
    Claim {
        seed: "001",
        claim: "worker threads share the process's one pool",
        experiment: "workers",
        runs: &[],
    },
    Claim {
        seed: "001",
        claim: "net.connect resolves through dns.lookup, on the pool",
        experiment: "probe",
        runs: &[("probes", "connect-name")],
    },
    Claim {
        seed: "002",
        claim: "/login on the pool caps the rate, /ping queues behind it",
        experiment: "http",
        runs: &[
            ("cells", "login-1"),
            ("cells", "login"),
            ("cells", "ping-during-login"),
        ],
    },
    Claim {
        seed: "002",
        claim: "the fix is isolation: a bound that answers 429",
        experiment: "http",
        runs: &[("cells", "admission")],
    },
    Claim {
        seed: "003",
        claim: "finding the loop's blocker needs a profile",
        experiment: "scope",
        runs: &[
            ("workloads", "loop-blocker"),
            ("workloads", "json-parse"),
            ("workloads", "pbkdf2-sync"),
            ("workloads", "regex-backtrack"),
            ("workloads", "tight-loop"),
        ],
    },
    Claim {
        seed: "004",
        claim: "blocked calls do not queue in Go; sluice's lanes grow while they wait",
        experiment: "adaptive",
        runs: &[("scenarios", "wait"), ("n", "64")],
    },
    Claim {
        seed: "004",
        claim: "the headline: a crowd of connections hashing, Go vs Node",
        experiment: "http",
        runs: &[("cells", "crowd")],
    },
    Claim {
        seed: "004",
        claim: "a mixed load (CPU and waits) needs the hand-off",
        experiment: "adaptive",
        runs: &[("scenarios", "mixed")],
    },
];

/// Whether the short report runs `item` of `flag` in `spec`: one of the
/// flag's comma-separated values (ASCII case ignored), or, for `pools`,
/// one of its pool sizes.
pub fn runs(spec: &experiment::ExperimentSpec, flag: &str, item: &str) -> bool {
    if flag == "pools" {
        return spec
            .default_pools(Scale::Report)
            .iter()
            .any(|p| p.to_string() == item);
    }
    spec.default_args(Scale::Report)
        .and_then(|a| a.text(flag))
        .is_ok_and(|v| v.split(',').any(|x| x.trim().eq_ignore_ascii_case(item)))
}

/// The report's table of the claims and the experiments that show them.
pub fn section() -> String {
    let mut md = String::from(
        "Each seed's claims and the experiment of this report that shows each one (docs/seeds.md has what we found):\n\n| seed | claim | experiment |\n|---|---|---|\n",
    );
    for c in CLAIMS {
        md.push_str(&format!(
            "| {} | {} | [{}](#{}) |\n",
            c.seed, c.claim, c.experiment, c.experiment
        ));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed has a claim, and the short report runs every cell each
    /// claim needs.
    #[test]
    fn the_short_report_runs_every_claim() {
        for seed in ["000", "001", "002", "003", "004"] {
            assert!(
                CLAIMS.iter().any(|c| c.seed.starts_with(seed)),
                "seed {seed} has no claim"
            );
        }
        for c in CLAIMS {
            let spec = experiment::by_name(c.experiment)
                .unwrap_or_else(|| panic!("{}: no experiment {}", c.seed, c.experiment));
            assert!(
                spec.in_short,
                "{}: {} is not in the short report",
                c.seed, c.experiment
            );
            for (flag, item) in c.runs {
                assert!(
                    flag == &"pools" || spec.args.iter().any(|a| a.name == *flag),
                    "{} {}: no flag --{flag}",
                    c.seed,
                    c.experiment
                );
                assert!(
                    runs(spec, flag, item),
                    "seed {} ({}): the short report's {} does not run --{flag} {item}",
                    c.seed,
                    c.claim,
                    c.experiment
                );
            }
        }
    }

    /// The short report's values name its experiments' own flags.
    #[test]
    fn short_values_name_real_flags() {
        for spec in experiment::EXPERIMENTS {
            for (flag, _) in spec.short {
                assert!(
                    spec.args.iter().any(|a| a.name == *flag),
                    "{}: short value for unknown flag --{flag}",
                    spec.name
                );
            }
        }
    }
}
