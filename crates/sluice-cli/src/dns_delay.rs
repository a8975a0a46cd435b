//! `sluice dns-delay` and the hidden `lab-netns`: the DNS delay server's
//! flags, and their conversion to `sluice_testnet`'s `DelayFlags`.

use crate::flags::{duration_arg, duration_of};
use clap::{Arg, ArgAction, ArgMatches};
use sluice_testnet::dns_delay::DelayFlags;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) const DNS_DELAY_ABOUT: &str =
    "A DNS server that holds every query a fixed time and counts the names in flight";

pub(crate) const DNS_DELAY_LONG: &str = "\
A real DNS server (UDP and TCP) that holds every query a fixed time before \
answering it, and counts how many distinct names are in flight at once: \
resolver-side evidence of how many lookups a client really runs in parallel.

A queries are answered with the IPv4 --answer, AAAA queries with the IPv6 \
one (or an empty answer), with TTL --ttl, after --hold (a bare number is \
seconds: 2, 300ms, 1.5s). Names matching a \
--fast pattern are answered at once and not counted in flight. Anything that \
is not one well-formed query is counted (malformed_total) and dropped; \
nothing a client sends stops the server. It listens on loopback unless told \
otherwise.

The counts, as JSON: printed as one line on stdout when the server stops \
(Ctrl-C or SIGTERM); written to --stats FILE when they change (at most \
every 100 ms, atomically) and on exit; and answered at any time to a \
control query, one key=value TXT record per count:

    dig @127.0.0.1 -p 5353 +short TXT _stats.dns-delay
    dig @127.0.0.1 -p 5353 +short TXT _reset.dns-delay   (starts the maxima over)

Counts: queries_total (held queries, retransmissions included), \
retransmits_total, answered_total, fast_total, control_total, \
malformed_total, udp_total, tcp_total, names_total (distinct names held), \
in_flight_names, max_in_flight_names, in_flight_queries, \
max_in_flight_queries; plus listen and hold_ms.

Example:

    sluice dns-delay --listen 127.0.0.1:5353 --hold 300ms --answer 127.0.0.2 --ttl 0 --fast '*.fast.test' --stats dns.json
    dig @127.0.0.1 -p 5353 +short A n1.lab.test     # 127.0.0.2, 300 ms later";

/// `--hold`'s range (dns-delay and the namespaced server): 0 to 1 h.
pub(crate) const DELAY_HOLD: sluice_duration::Range =
    sluice_duration::Range::new(Duration::ZERO, Duration::from_secs(3600));

/// The delay server's flags; `listen` only for `dns-delay` itself (the
/// namespaced server always listens on 127.0.0.1:53).
pub(crate) fn delay_args(listen: bool) -> Vec<Arg> {
    let mut args = Vec::new();
    if listen {
        args.push(
            Arg::new("listen")
                .long("listen")
                .value_name("ADDR:PORT")
                .default_value("127.0.0.1:5353")
                .help("where to listen, UDP and TCP (port 0: any free port, printed on stderr)"),
        );
    }
    args.extend([
        duration_arg(
            "hold",
            "300ms",
            "how long every query is held before its answer",
            DELAY_HOLD,
        ),
        Arg::new("answer")
            .long("answer")
            .value_name("IP")
            .action(ArgAction::Append)
            .help("the address A (IPv4) or AAAA (IPv6) queries get; at most one per family [default: 127.0.0.2]"),
        Arg::new("ttl")
            .long("ttl")
            .value_name("SECONDS")
            .default_value("0")
            .help("the TTL of the answers (0: clients must not cache them)"),
        Arg::new("fast")
            .long("fast")
            .value_name("PATTERN")
            .action(ArgAction::Append)
            .help("answer these names at once, uncounted: a name, or *.suffix for every name under it (repeatable)"),
        Arg::new("stats")
            .long("stats")
            .value_name("FILE")
            .help("keep the counts in FILE as JSON (rewritten when they change, and on exit)"),
    ]);
    if listen {
        args.push(
            Arg::new("no-tcp")
                .long("no-tcp")
                .action(ArgAction::SetTrue)
                .help("listen on UDP only"),
        );
    }
    args
}

pub(crate) fn delay_flags(m: &ArgMatches) -> DelayFlags {
    let text = |k: &str| m.get_one::<String>(k).cloned().unwrap_or_default();
    let many = |k: &str| {
        m.get_many::<String>(k)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    DelayFlags {
        listen: m
            .try_get_one::<String>("listen")
            .ok()
            .flatten()
            .cloned()
            .unwrap_or_else(|| "127.0.0.1:53".into()),
        // Checked against DELAY_HOLD as parsed; the server reads the text.
        hold: sluice_duration::format(duration_of(m, "hold")),
        answers: many("answer"),
        ttl: text("ttl"),
        fast: many("fast"),
        no_tcp: m
            .try_get_one::<bool>("no-tcp")
            .ok()
            .flatten()
            .copied()
            .unwrap_or(false),
        stats: m.get_one::<String>("stats").map(PathBuf::from),
        zone: m
            .try_get_one::<String>("zone")
            .ok()
            .flatten()
            .map(PathBuf::from),
    }
}
