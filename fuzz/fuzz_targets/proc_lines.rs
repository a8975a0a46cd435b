//! sluice scope's readers of kernel text on arbitrary input:
//! /proc/PID/task/TID/syscall lines, /proc/PID/maps, and the uprobe trace
//! lines of probe mode. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(line) = sluice_scope::sample::syscalls::SyscallLine::parse(&text) {
        let _ = line.futex_wait_word();
    }
    for m in sluice_scope::target::maps::parse(&text) {
        let _ = m.is_writable();
    }
    for line in text.lines() {
        let _ = sluice_scope::probe::events::parse(line);
    }
});
