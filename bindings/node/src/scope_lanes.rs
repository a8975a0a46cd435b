//! `sluice_scope_lanes`: where `sluice scope PID` finds this process's lane
//! gauges (each lane's queue depth and thread counters) from outside.
//!
//! The exported symbol is a pointer to the core's [`GaugeBlock`] (ABI
//! version 1, its layout in `sluice::observer`'s docs): a reader finds the
//! symbol in this file's dynamic symbol table, adds the mapping's load
//! bias, reads the pointer, then the block, then the words it names, with
//! the process running on. `publish` fills the block in once the process's
//! pool exists.
//!
//! What it costs: nothing per task. The words are the pool's own (the
//! queue depth each submission and claim changes, and the packed thread
//! counters of its sleep/wake protocol); publishing is a handful of stores,
//! once per process, and a later call of `publish` is one load.

use sluice::Pool;
use sluice::observer::GaugeBlock;

/// The block: the addon reaches it only through this name, a private
/// static (internal linkage: no dynamic symbol, so nothing can interpose it).
static BLOCK: GaugeBlock = GaugeBlock::new();

/// The address of the addon's `GaugeBlock`, at the one symbol scope looks
/// for.
///
/// `no_mangle` is what the `unsafe_code` lint flags: an unmangled name
/// could collide with another definition, and code that reached a
/// same-named object of another type would misread it. Neither can happen
/// here. At link time a second definition of the name fails the link. At
/// load time the dynamic linker may bind the name to another object's
/// definition (interposition), but nothing in this addon reads or writes
/// the symbol: its code reaches the block through a private static, which
/// has no dynamic symbol to interpose. The symbol is an immutable
/// `&GaugeBlock` (`Sync`: atomics and constants), so nothing can write
/// through it either.
#[allow(unsafe_code, non_upper_case_globals)]
#[unsafe(no_mangle)]
pub static sluice_scope_lanes: &GaugeBlock = &BLOCK;

/// Publishes `pool`'s gauge words: called where the process's pool is
/// stored (`pool::pool`, `configure`), so once or twice per process, never
/// per call; a second call, from any thread, changes nothing.
pub(crate) fn publish(pool: &'static Pool) {
    if !BLOCK.is_published() {
        BLOCK.publish(pool);
    }
}
