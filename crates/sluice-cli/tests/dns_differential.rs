//! The differential DNS test: `sluice_dns` and the npm package's preload
//! (`node -r bindings/node/patch.js`) against glibc's `getaddrinfo`, inside
//! a private network and mount namespace made by `sluice lab-netns`, with a
//! generated `/etc/hosts` mounted there and the DNS delay server as the
//! only name server.
//!
//! Names: underscores, `inet_aton`'s numeric forms (generated from a fixed
//! seed in decimal, octal, hex and 1–4 parts), final dots, IPv6, labels of
//! 63 and 64 bytes, names of 253 to 300 characters, RFC 6761's special
//! names (`localhost.`, `*.localhost`, `*.test`, `.invalid`, `.onion`,
//! `.local`: glibc 2.36 asks the name server about every one), and hosts
//! files with repeated lines (two `127.0.0.1 localhost`: glibc gives the
//! address twice). Each is asked with every family; the answers must be
//! equal *in order*, repeats included (glibc sorts by RFC 3484/6724),
//! errors of the same kind.
//!
//! The second test runs the same comparison under other `resolv.conf`s,
//! with the delay server answering from a zone (NXDOMAIN outside it, no
//! data for a family a name lacks): `search` with `ndots` 1, 2 and 0
//! (`domain` for the last), names with and without enough dots, a final
//! dot, names found only under the second search domain, a name whose
//! first search domain has only IPv6; and `timeout:1 attempts:1` with a
//! server holding some names past the timeout (the search goes on to the
//! next name, as glibc's does).
//!
//! The preload is compared with Node's own `dns.lookup` (which is
//! `getaddrinfo`) over `{family, all, verbatim, order, hints}`: the same
//! addresses in the same order, or the same error code. Skips, saying why,
//! where namespaces cannot be made, and the Node half where no `node` or
//! no built addon is found.

mod common;

use common::Netns;
use sluice_dns::{DnsError, Family, Resolver, getaddrinfo};
use std::path::{Path, PathBuf};

const INNER: &str = "SLUICE_TEST_DNS_DIFFERENTIAL_INNER";
const TEST: &str = "sluice_dns_and_the_preload_answer_as_getaddrinfo_in_a_namespace";

/// The generated hosts file (a standard one, with repeated lines).
const HOSTS: &str = "\
127.0.0.1 localhost
::1 localhost ip6-localhost ip6-loopback
127.0.0.1 localhost
10.1.0.1 my_host
10.9.0.1 twice twice
10.9.0.1 twice
fd00::9 twice
10.9.0.2 sub.localhost
10.1.0.1 my_host app_db_1 web_1.internal
10.1.0.2 both
fd00::2 both
fd00::6 v6only
10.1.0.3 dotted.name
10.1.0.4 trailing.dot.
10.1.0.5 Mixed_Case.Test
127.0.0.5 loop-two
127.0.0.3 loop-two
::1 loop-two
";

/// Names glibc answers without asking anyone, or from the hosts file, or
/// from the delay server; see the module docs.
fn names() -> Vec<String> {
    let mut names: Vec<String> = [
        "localhost",
        "ip6-localhost",
        "my_host",
        "MY_HOST",
        "app_db_1",
        "web_1.internal",
        "both",
        "both.",
        "v6only",
        "dotted.name",
        "dotted.name.",
        "trailing.dot.",
        "trailing.dot",
        "mixed_case.test",
        "loop-two",
        "app_db_1.lab.test",
        "not-in-hosts.lab.test",
        "x_y.example",
        "127.1",
        "2130706433",
        "0x7f.0.0.1",
        "1.2.3",
        "0177.0.0.1",
        "08.0.0.1",
        "127.0.0.1.",
        "1.2.3.4.5",
        "0x",
        "::ffff:10.0.0.1",
        "x..y",
        "twice",
        "sub.localhost",
        "localhost.",
        "LOCALHOST.",
        "other.localhost",
        "other.localhost.",
        "x.test",
        "test",
        "test.",
        "name.invalid",
        "invalid.",
        "name.onion",
        "2gzyxa5ihm7nsggfxnu52rck2vv4rvmdlkiu3zzui5du4xyclen53wid.onion",
        "printer.local",
        "example",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Numeric forms of numbers from a fixed seed (a 64-bit LCG).
    let mut x: u64 = 0x5eed_0001;
    for _ in 0..12 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let v = (x >> 32) as u32;
        let [a, b, c, d] = v.to_be_bytes();
        names.push(match x % 5 {
            0 => format!("{v}"),
            1 => format!("0x{v:x}"),
            2 => format!("0{:o}.{b}.{c}.{d}", a),
            3 => format!("{a}.{}", v & 0xff_ffff),
            _ => format!("{a}.{b}.{}", v & 0xffff),
        });
    }
    names.push(["a"; 4].map(|_| "a".repeat(63)).join(".")[..253].to_string());
    names.push("b".repeat(63) + ".lab.test");
    names.push("c".repeat(64) + ".lab.test");
    names.push(("d".repeat(49) + ".").repeat(6)[..254].to_string());
    names.push(("e".repeat(49) + ".").repeat(6)[..255].to_string());
    names.push(("f".repeat(49) + ".").repeat(6));
    names
}

#[test]
fn sluice_dns_and_the_preload_answer_as_getaddrinfo_in_a_namespace() {
    let Some((text, _stats)) = common::in_netns(compare_inside, TEST, INNER, HOSTS, "5ms") else {
        return;
    };
    println!("{text}");
    let want = names().len() * 3;
    assert!(
        text.contains(&format!("rust: compared {want} answers")),
        "{text}"
    );
}

const SEARCH_INNER: &str = "SLUICE_TEST_DNS_DIFFERENTIAL_SEARCH";
const SEARCH_TEST: &str = "search_lists_and_resolv_conf_options_as_getaddrinfo";

/// The zone of the search-list cases: who answers for what.
const ZONE: &str = "\
10.2.0.1 a.lab.test
10.2.0.2 b.corp.test
fd00::b b.lab.test
10.2.0.4 x.y.lab.test
10.2.0.5 x.y
10.2.0.6 p.q.r
10.2.0.7 p.q.r.lab.test
10.2.0.8 only.corp.test
10.2.0.9 bare
fd00::9 bare
10.2.0.10 bare.lab.test
10.2.0.11 my_host.corp.test
";

/// The names the search-list cases ask.
const SEARCH_NAMES: &[&str] = &[
    "a",
    "b",
    "x.y",
    "p.q.r",
    "p.q.r.",
    "only",
    "bare",
    "bare.",
    "nx",
    "nx.y",
    "a.lab.test",
    "a.lab.test.",
    "my_host",
    "localhost",
    "b.corp.test",
];

/// The zone and names of the timeout case: `late.lab.test` and `slow*`
/// are held past `timeout:1`, the others answered at once.
const SLOW_ZONE: &str = "\
10.4.0.1 late
10.4.0.2 slow.lab.test
10.4.0.3 quick
";

/// One resolv.conf case: its name, the file, whether the node half runs.
struct Case {
    name: &'static str,
    resolv_conf: &'static str,
    node: bool,
}

const CASES: &[Case] = &[
    Case {
        name: "search, ndots:1",
        resolv_conf: "nameserver 127.0.0.1\nsearch lab.test corp.test\noptions ndots:1\n",
        node: true,
    },
    Case {
        name: "search, ndots:2",
        resolv_conf: "nameserver 127.0.0.1\nsearch lab.test corp.test\noptions ndots:2 edns0\n",
        node: true,
    },
    Case {
        name: "domain, ndots:0",
        resolv_conf: "nameserver 127.0.0.1\ndomain corp.test\noptions ndots:0\n",
        node: true,
    },
    Case {
        name: "timeout:1 attempts:1",
        resolv_conf: "nameserver 127.0.0.1\nsearch lab.test\noptions timeout:1 attempts:1\n",
        node: false,
    },
];

#[test]
fn search_lists_and_resolv_conf_options_as_getaddrinfo() {
    if let Ok(case) = std::env::var(SEARCH_INNER) {
        let case = CASES.iter().find(|c| c.name == case).expect("a known case");
        if case.node {
            let names: Vec<String> = SEARCH_NAMES.iter().map(|s| s.to_string()).collect();
            compare_rust(&names, &[Family::Any, Family::V4, Family::V6]);
            compare_node(&names);
        } else {
            let names: Vec<String> = ["quick", "late", "slow"].map(String::from).to_vec();
            compare_rust(&names, &[Family::Any, Family::V4]);
        }
        return;
    }
    for case in CASES {
        let timeouts = !case.node;
        let Some((text, _stats)) = common::rerun_in_netns_with(
            SEARCH_TEST,
            &Netns {
                inner: SEARCH_INNER,
                variant: case.name,
                hosts: "127.0.0.1 localhost\n::1 localhost\n10.1.0.1 my_host\n",
                hold: if timeouts { "1500ms" } else { "5ms" },
                resolv_conf: Some(case.resolv_conf),
                zone: Some(if timeouts { SLOW_ZONE } else { ZONE }),
                fast: if timeouts {
                    &["late", "quick", "quick.lab.test"]
                } else {
                    &[]
                },
            },
        ) else {
            return;
        };
        println!("{}:\n{text}", case.name);
        let want = if timeouts { 6 } else { SEARCH_NAMES.len() * 3 };
        assert!(
            text.contains(&format!("rust: compared {want} answers")),
            "{}: {text}",
            case.name
        );
        if case.node && !text.contains("skipping the node half") {
            assert!(text.contains("node: compared"), "{}: {text}", case.name);
        }
    }
}

/// How an answer is compared: the addresses in order, repeats included,
/// or the kind of error.
fn shape(r: &Result<Vec<std::net::IpAddr>, DnsError>) -> String {
    match r {
        Ok(v) => format!("{v:?}"),
        Err(e) if e.is_not_found() => "not found".into(),
        Err(e) if e.is_timeout() => "timeout (EAI_AGAIN)".into(),
        Err(DnsError::AddressFamily { .. }) => "address family".into(),
        Err(e) => format!("error: {e}"),
    }
}

fn compare_inside() {
    compare_rust(&names(), &[Family::Any, Family::V4, Family::V6]);
    compare_node(&names());
}

/// `sluice_dns` against `getaddrinfo` over `names` in `families`.
fn compare_rust(names: &[String], families: &[Family]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let resolver = Resolver::system().unwrap();
    println!("mode: {:?}", resolver.mode());
    let mut compared = 0;
    let mut differ = Vec::new();
    for name in names {
        for &family in families {
            let ours = shape(&rt.block_on(resolver.lookup(name, family)));
            let libc = shape(&getaddrinfo(name, family));
            if ours != libc {
                differ.push(format!(
                    "{name:?} {family}: sluice_dns {ours}, getaddrinfo {libc}"
                ));
            }
            compared += 1;
        }
    }
    assert!(
        differ.is_empty(),
        "sluice_dns differs:\n{}",
        differ.join("\n")
    );
    println!("rust: compared {compared} answers");
}

/// The preload against Node's own `dns.lookup`, in two node processes.
fn compare_node(names: &[String]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let patch = root.join("bindings/node/patch.js");
    let addon = root.join("bindings/node/sluice.node");
    if !addon.exists() {
        println!(
            "skipping the node half: {} is not built (cd bindings/node && node scripts/build.js)",
            addon.display()
        );
        return;
    }
    let node = std::process::Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        println!("skipping the node half: no node on PATH");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("lookups.js");
    std::fs::write(&script, NODE_SCRIPT).unwrap();
    let names_file = dir.path().join("names.json");
    std::fs::write(&names_file, serde_json::to_string(names).unwrap()).unwrap();
    let index = root.join("bindings/node/index.js");
    let run = |preload: Option<&PathBuf>| {
        let mut cmd = std::process::Command::new("node");
        if let Some(p) = preload {
            cmd.arg("-r").arg(p).env("SLUICE_DIFF_INDEX", &index);
        }
        let out = cmd.arg(&script).arg(&names_file).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "node failed: {stderr}");
        (String::from_utf8(out.stdout).unwrap(), stderr)
    };
    let (plain, _) = run(None);
    let (patched, stderr) = run(Some(&patch));
    // The preload answered (most of) them itself: its own call counts.
    let counts = stderr
        .lines()
        .find_map(|l| l.strip_prefix("COUNTS "))
        .unwrap_or_else(|| panic!("no counts from the preload: {stderr}"));
    let counts: serde_json::Value = serde_json::from_str(counts).unwrap();
    let calls = counts["calls"]["lookup"].as_u64().unwrap_or(0);
    let fallbacks = counts["fallbacks"]["lookup"].as_u64().unwrap_or(0);
    println!("preload: {calls} lookups through sluice_dns, {fallbacks} handed to node");
    let (plain, patched): (Vec<&str>, Vec<&str>) =
        (plain.lines().collect(), patched.lines().collect());
    assert_eq!(plain.len(), patched.len());
    let mut differ = Vec::new();
    for (a, b) in plain.iter().zip(&patched) {
        if a != b {
            differ.push(format!("node:    {a}\npreload: {b}"));
        }
    }
    assert!(
        differ.is_empty(),
        "the preload differs from node:\n{}",
        differ.join("\n")
    );
    assert!(
        calls as usize * 2 > plain.len(),
        "only {calls} of {} lookups went through sluice_dns",
        plain.len()
    );
    println!("node: compared {} answers", plain.len());
}

/// One line per (name, options): the addresses in order (repeats
/// included) or the error code.
const NODE_SCRIPT: &str = r#"
const dns = require('dns');
const names = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const options = [
  {}, { family: 4 }, { family: 6 }, { all: true }, { all: true, family: 4 },
  { all: true, family: 6 }, { all: true, verbatim: false }, { all: true, order: 'ipv4first' },
  { all: true, order: 'ipv6first' }, { all: true, order: 'verbatim' }, { all: true, hints: dns.ADDRCONFIG },
];
const show = (a) => a.map((x) => `${x.address}/${x.family}`).join(',');
(async () => {
  for (const name of names) {
    for (const o of options) {
      const key = `${name.length > 40 ? 'len' + name.length : name} ${JSON.stringify(o)}`;
      const line = await new Promise((resolve) => {
        try {
          dns.lookup(name, o, (err, address, family) => {
            if (err) resolve(`${key} => ${err.code} ${err.syscall}`);
            else resolve(`${key} => ${Array.isArray(address) ? show(address) : address + '/' + family}`);
          });
        } catch (e) {
          resolve(`${key} => throws ${e.code}`);
        }
      });
      console.log(line);
    }
  }
  if (process.env.SLUICE_DIFF_INDEX) {
    const m = require(process.env.SLUICE_DIFF_INDEX).metricsJson();
    console.error(`COUNTS ${JSON.stringify(m.node)}`);
  }
})();
"#;
