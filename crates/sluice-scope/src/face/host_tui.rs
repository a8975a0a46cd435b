//! The terminal view of `sluice scope --all`: one line per Node process,
//! sorted by saturation (then loop utilisation), with its pool, busy
//! threads, utilisation, saturation, loop, queue and verdict. Up/Down (or
//! k/j) select, Enter opens the per-process view (the one `sluice scope PID`
//! shows, `tui::render`), Esc or Backspace goes back, `q` quits.

use super::host::HostFace;
use super::screen::Screen;
use super::tui::{push, render, verdict_color};
use crate::error::ScopeError;
use crate::verdict::aggregate::Report;
use crate::verdict::watched::{Processes, Watched};
use ratatui::crossterm::event::{self, Event, KeyCode, KeyModifiers};
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, TableState};
use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// Per-process history for the per-process view.
#[derive(Default)]
struct History {
    utilization: VecDeque<u64>,
    saturation: VecDeque<u64>,
    loop_util: VecDeque<u64>,
}

/// The `--all` terminal view.
pub(crate) struct HostTui {
    terminal: Screen,
    history: HashMap<u32, History>,
    /// PIDs in the order shown.
    order: Vec<u32>,
    selected: usize,
    /// The process whose view is open.
    open: Option<u32>,
    quit: bool,
    dirty: bool,
    last_draw: Option<Instant>,
}

impl HostTui {
    /// Takes over the terminal; restored by `finish` or on drop.
    pub(crate) fn new() -> Result<HostTui, ScopeError> {
        Ok(HostTui {
            terminal: Screen::take()?,
            history: HashMap::new(),
            order: Vec::new(),
            selected: 0,
            open: None,
            quit: false,
            dirty: true,
            last_draw: None,
        })
    }

    fn keys(&mut self) {
        while !self.quit && event::poll(Duration::ZERO).unwrap_or(false) {
            let Ok(ev) = event::read() else { break };
            self.dirty = true;
            let Event::Key(k) = ev else { continue };
            if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
                self.quit = true;
                continue;
            }
            match (self.open, k.code) {
                (_, KeyCode::Char('q')) => self.quit = true,
                (Some(_), KeyCode::Esc | KeyCode::Backspace | KeyCode::Left) => self.open = None,
                (None, KeyCode::Esc) => self.quit = true,
                (None, KeyCode::Down | KeyCode::Char('j')) => {
                    self.selected = (self.selected + 1).min(self.order.len().saturating_sub(1));
                }
                (None, KeyCode::Up | KeyCode::Char('k')) => {
                    self.selected = self.selected.saturating_sub(1);
                }
                (None, KeyCode::Enter | KeyCode::Right) => {
                    self.open = self.order.get(self.selected).copied();
                }
                _ => {}
            }
        }
    }

    fn draw(&mut self, procs: &Processes) -> Result<(), ScopeError> {
        let Some(terminal) = self.terminal.terminal() else {
            return Ok(());
        };
        let open = self.open.and_then(|pid| procs.get(&pid));
        if let Some(w) = open {
            let title = format!(
                " sluice scope --all — process {} ({}, {}) — Esc back, q quits ",
                w.pid, w.comm, w.exe
            );
            let found = match &w.ended {
                Some(why) => format!("{} — {why}", w.found),
                None => w.found.clone(),
            };
            let h = self.history.entry(w.pid).or_default();
            let hist = [&h.utilization, &h.saturation, &h.loop_util];
            terminal
                .draw(|f| render(f, f.area(), &title, &found, w.last.as_ref(), hist))
                .map_err(ScopeError::Terminal)?;
            return Ok(());
        }
        let order = sorted(procs);
        self.selected = self.selected.min(order.len().saturating_sub(1));
        self.order = order;
        let rows: Vec<Row<'_>> = self
            .order
            .iter()
            .filter_map(|pid| procs.get(pid))
            .map(row)
            .collect();
        let mut state = TableState::default().with_selected(Some(self.selected));
        let count = self.order.len();
        terminal
            .draw(|f| {
                let [top, table] =
                    Layout::vertical([Constraint::Length(3), Constraint::Min(3)]).areas(f.area());
                f.render_widget(
                    Paragraph::new(format!(
                        "{count} Node process{} on this host, sorted by saturation; new ones join within a second",
                        if count == 1 { "" } else { "es" }
                    ))
                    .block(
                        Block::default()
                            .borders(Borders::ALL)
                            .title(" sluice scope --all — ↑↓ select, Enter opens, q quits "),
                    ),
                    top,
                );
                let header = Row::new([
                    "pid", "comm", "container", "pool", "busy", "util%", "sat%", "loop%", "queue",
                    "verdict",
                ])
                .style(Style::default().add_modifier(Modifier::BOLD));
                let widths = [
                    Constraint::Length(8),
                    Constraint::Length(15),
                    Constraint::Length(12),
                    Constraint::Length(5),
                    Constraint::Length(6),
                    Constraint::Length(6),
                    Constraint::Length(6),
                    Constraint::Length(6),
                    Constraint::Length(6),
                    Constraint::Min(10),
                ];
                let t = Table::new(rows, widths)
                    .header(header)
                    .row_highlight_style(Style::default().add_modifier(Modifier::REVERSED))
                    .block(Block::default().borders(Borders::ALL));
                f.render_stateful_widget(t, table, &mut state);
            })
            .map_err(ScopeError::Terminal)?;
        Ok(())
    }
}

/// PIDs by saturation, then loop utilisation, highest first; processes
/// that ended last.
pub(crate) fn sorted(procs: &Processes) -> Vec<u32> {
    let key = |w: &Watched| {
        let r = w.last.as_ref();
        (
            w.ended.is_none(),
            r.map_or(-1.0, |r| r.saturation_pct),
            r.map_or(-1.0, |r| r.loop_utilization_pct),
        )
    };
    let mut v: Vec<&Watched> = procs.values().collect();
    v.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        kb.0.cmp(&ka.0)
            .then(kb.1.total_cmp(&ka.1))
            .then(kb.2.total_cmp(&ka.2))
            .then(a.pid.cmp(&b.pid))
    });
    v.into_iter().map(|w| w.pid).collect()
}

fn row(w: &Watched) -> Row<'static> {
    let cells = |r: Option<&Report>| -> Vec<String> {
        let Some(r) = r else {
            return vec!["-".into(); 6];
        };
        vec![
            r.pool_size.to_string(),
            format!("{:.1}", r.busy_threads),
            format!("{:.0}", r.utilization_pct),
            format!("{:.0}", r.saturation_pct),
            format!("{:.0}", r.loop_utilization_pct),
            r.queue_depth.map_or("-".into(), |q| format!("{q:.1}")),
        ]
    };
    let verdict = match (&w.ended, &w.last) {
        (Some(why), _) => why.clone(),
        (None, Some(r)) => r.verdict.as_str().to_string(),
        (None, None) => "attaching".into(),
    };
    let mut v = vec![
        w.pid.to_string(),
        w.comm.clone(),
        w.container_short().to_string(),
    ];
    v.extend(cells(w.last.as_ref()));
    v.push(verdict);
    let style = match (&w.ended, &w.last) {
        (None, Some(r)) => Style::default().fg(verdict_color(r.verdict)),
        _ => Style::default(),
    };
    Row::new(v).style(style)
}

impl HostFace for HostTui {
    fn added(&mut self, _w: &Watched) -> Result<(), ScopeError> {
        self.dirty = true;
        Ok(())
    }

    fn report(&mut self, w: &Watched, r: &Report) -> Result<(), ScopeError> {
        let h = self.history.entry(w.pid).or_default();
        push(&mut h.utilization, r.utilization_pct);
        push(&mut h.saturation, r.saturation_pct);
        push(&mut h.loop_util, r.loop_utilization_pct);
        self.dirty = true;
        Ok(())
    }

    fn ended(&mut self, _w: &Watched) -> Result<(), ScopeError> {
        self.dirty = true;
        Ok(())
    }

    fn tick(&mut self, procs: &Processes) -> Result<(), ScopeError> {
        self.keys();
        // Redraw on a change, and at most 10 times a second.
        let due = self
            .last_draw
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        if self.dirty && due {
            self.dirty = false;
            self.last_draw = Some(Instant::now());
            self.draw(procs)?;
        }
        Ok(())
    }

    fn wants_stop(&mut self) -> bool {
        self.keys();
        self.quit
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        self.terminal.restore()?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::watched::tests::watched;

    #[test]
    fn most_saturated_first_then_unreported_then_ended() {
        let mut procs = Processes::new();
        for w in [
            watched(10, Some(5), false),
            watched(11, Some(95), false),
            watched(12, None, false),
            watched(13, Some(100), true),
            watched(14, Some(50), false),
        ] {
            procs.insert(w.pid, w);
        }
        assert_eq!(sorted(&procs), vec![11, 14, 10, 12, 13]);
    }
}
