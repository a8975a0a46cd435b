//! `sluice completions bash|zsh|fish` and `sluice man`: generated from the
//! command tree, naming every public subcommand and none of the internal
//! ones; bash's script parses and completes; the man pages render.

mod common;

use common::{Run, refused, run, sluice};
use std::process::Command;

const PUBLIC: &[&str] = &[
    "lab",
    "scope",
    "serve",
    "doctor",
    "load",
    "dns-delay",
    "completions",
    "man",
];
const INTERNAL: &[&str] = &["lab-child", "lab-netns"];

fn stdout_of(args: &[&str]) -> String {
    run(args).ok().stdout
}

#[test]
fn each_shell_names_the_subcommands() {
    for (shell, head) in [
        ("bash", "_sluice()"),
        ("zsh", "#compdef sluice"),
        ("fish", "complete -c sluice"),
    ] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains(head), "{shell}: no {head:?} in:\n{script}");
        for sub in PUBLIC {
            assert!(script.contains(sub), "{shell}: {sub} missing");
        }
        // The experiments and scope's flags are there too.
        for word in ["staircase", "--prometheus", "--duration"] {
            assert!(script.contains(word), "{shell}: {word} missing");
        }
    }
    let fish = stdout_of(&["completions", "fish"]);
    for sub in INTERNAL {
        assert!(
            !fish.contains(&format!("-a \"{sub}\"")),
            "fish offers the internal {sub}"
        );
    }
}

#[test]
fn bash_script_parses_and_completes() {
    let script = stdout_of(&["completions", "bash"]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sluice.bash");
    std::fs::write(&file, &script).unwrap();
    Run::of(Command::new("bash").arg("-n").arg(&file)).ok();
    // What bash offers after `sluice sc<TAB>` and `sluice scope --du<TAB>`.
    let complete = |words: &str, cword: usize| {
        Run::of(Command::new("bash").arg("-c").arg(format!(
            "source '{}'; COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{words}'; COMP_POINT=${{#COMP_LINE}}; _sluice sluice \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            file.display()
        )))
        .ok()
        .stdout
    };
    let subs = complete("sluice sc", 1);
    assert_eq!(subs.trim(), "scope", "after `sluice sc`: {subs:?}");
    let flags = complete("sluice scope --du", 2);
    assert!(
        flags.lines().any(|l| l == "--duration"),
        "after `sluice scope --du`: {flags:?}"
    );
}

#[test]
fn unknown_shell_is_refused() {
    refused(&["completions", "tcsh"], "invalid value 'tcsh'").refused("bash");
}

#[test]
fn man_page_names_the_subcommands() {
    let page = stdout_of(&["man"]);
    assert!(page.contains(".TH sluice 1"), "{page}");
    for sub in PUBLIC {
        // roff escapes the hyphen: dns\-delay.
        let roff = sub.replace('-', "\\-");
        assert!(page.contains(&roff), "the man page lacks {roff}");
    }
    let dir = tempfile::tempdir().unwrap();
    Run::of(sluice().args(["man", "--dir"]).arg(dir.path())).ok();
    for name in [
        "sluice.1",
        "sluice-scope.1",
        "sluice-lab.1",
        "sluice-lab-probe.1",
    ] {
        let p = dir.path().join(name);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(text.contains(".TH"), "{name}: {text}");
    }
    for sub in INTERNAL {
        assert!(
            !dir.path().join(format!("sluice-{sub}.1")).exists(),
            "a page for the internal {sub}"
        );
    }
    // The scope page renders (man-db's `man -l`, where installed) with its flags.
    if let Ok(r) = Command::new("man")
        .arg("-l")
        .arg(dir.path().join("sluice-scope.1"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100")
        .output()
        && r.status.success()
    {
        let text = String::from_utf8_lossy(&r.stdout);
        assert!(text.contains("--prometheus"), "{text}");
    }
}
