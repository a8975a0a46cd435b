//! The live terminal view (ratatui): the process and how its pool was
//! found, gauges for utilisation, saturation and the loop, their history,
//! the pool threads one by one, probe mode's per-kind table, and the
//! doctor's verdict with its evidence. `q`, Esc or Ctrl-C quits; `p` takes
//! a CPU profile of the main thread (`--profile`'s length, 5 s unless
//! given) and shows what held the loop in a pane of its own; opening a
//! closed inspector asks first (`y`), unless `--yes` was given.

use super::Face;
use super::screen::Screen;
use crate::error::ScopeError;
use crate::inspector::Plan;
use crate::probe::KindReport;
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;
use crate::verdict::doctor::Verdict;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyModifiers};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Gauge, Paragraph, Row, Sparkline, Table, Wrap};
use std::collections::VecDeque;
use std::time::Duration;

/// How many windows the history keeps.
const HISTORY: usize = 240;

/// The terminal view.
pub(crate) struct Tui {
    terminal: Screen,
    title: String,
    found: String,
    last: Option<Report>,
    utilization: VecDeque<u64>,
    saturation: VecDeque<u64>,
    loop_util: VecDeque<u64>,
    quit: bool,
    profile_requested: bool,
    profile: Vec<String>,
}

impl Tui {
    /// Takes over the terminal (alternate screen, raw mode); restored by
    /// [`Face::finish`], or by ratatui's panic hook on a panic.
    pub(crate) fn new() -> Result<Tui, ScopeError> {
        Ok(Tui {
            terminal: Screen::take()?,
            title: String::new(),
            found: String::new(),
            last: None,
            utilization: VecDeque::new(),
            saturation: VecDeque::new(),
            loop_util: VecDeque::new(),
            quit: false,
            profile_requested: false,
            profile: Vec::new(),
        })
    }

    fn draw(&mut self) -> Result<(), ScopeError> {
        let Some(terminal) = self.terminal.terminal() else {
            return Ok(());
        };
        let (title, found, last) = (&self.title, &self.found, self.last.as_ref());
        let (u, s, l) = (&self.utilization, &self.saturation, &self.loop_util);
        let profile = &self.profile;
        terminal
            .draw(|f| {
                let area = f.area();
                let [main, pane] = Layout::vertical([
                    Constraint::Min(10),
                    Constraint::Length(if profile.is_empty() {
                        0
                    } else {
                        profile.len() as u16 + 2
                    }),
                ])
                .areas(area);
                render(f, main, title, found, last, [u, s, l]);
                if !profile.is_empty() {
                    f.render_widget(
                        Paragraph::new(profile.join("\n"))
                            .wrap(Wrap { trim: true })
                            .block(
                                Block::default()
                                    .borders(Borders::ALL)
                                    .title(" profile: what held the loop (p again) "),
                            ),
                        pane,
                    );
                }
            })
            .map_err(ScopeError::Terminal)?;
        Ok(())
    }
}

pub(crate) fn push(h: &mut VecDeque<u64>, v: f64) {
    if h.len() == HISTORY {
        h.pop_front();
    }
    h.push_back(v.round().clamp(0.0, 100.0) as u64);
}

pub(crate) fn verdict_color(v: Verdict) -> Color {
    match v {
        Verdict::Healthy => Color::Green,
        Verdict::Unknown => Color::Magenta,
        Verdict::PoolSaturated
        | Verdict::SlowIoThrottled
        | Verdict::LaneSaturated(_)
        | Verdict::LaneCompensating(_) => Color::Yellow,
        Verdict::LoopBlocked | Verdict::Both | Verdict::LoopBlockedSlowIoThrottled => Color::Red,
    }
}

/// `; slow I/O: 29.5 waiting, 2.0 running of 2 allowed, throttled 99%`,
/// where slow I/O was read.
fn slow_io(r: &Report) -> String {
    match (r.slow_queue_depth, r.slow_io_running) {
        (Some(q), Some(run)) => format!(
            "; slow I/O: {q:.1} waiting, {run:.1} running of {} allowed, throttled {:.0}%",
            r.slow_io_limit,
            r.slow_io_throttled_pct.unwrap_or(0.0)
        ),
        _ => String::new(),
    }
}

/// A bordered block titled `t`.
fn block(t: &str) -> Block<'static> {
    Block::default().borders(Borders::ALL).title(t.to_string())
}

/// A bold header row.
fn header<'a>(cells: Vec<&'a str>) -> Row<'a> {
    Row::new(cells).style(Style::default().add_modifier(Modifier::BOLD))
}

/// The whole per-process view in `area`: how the pool was found, then (once
/// a window has ended) the gauges, their history, the threads, probe mode's
/// table and the doctor.
pub(crate) fn render(
    f: &mut ratatui::Frame<'_>,
    area: Rect,
    title: &str,
    found: &str,
    last: Option<&Report>,
    history: [&VecDeque<u64>; 3],
) {
    let probe = last.and_then(|r| r.probe.as_ref());
    let [found_area, gauges, sparks, threads, probes, doctor] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(3),
        Constraint::Length(5),
        Constraint::Min(4),
        Constraint::Length(if probe.is_some() { 7 } else { 0 }),
        Constraint::Length(4),
    ])
    .areas(area);
    f.render_widget(
        Paragraph::new(found.to_string())
            .wrap(Wrap { trim: true })
            .block(block(title)),
        found_area,
    );
    let Some(r) = last else {
        f.render_widget(
            Paragraph::new("sampling the first window…").block(block("pool")),
            gauges,
        );
        return;
    };
    render_gauges(f, gauges, r);
    render_history(f, sparks, history);
    render_threads(f, threads, r);
    if let Some(p) = probe {
        render_probes(f, probes, p);
    }
    render_doctor(f, doctor, r);
}

/// Pool utilisation, saturation and loop utilisation, side by side.
fn render_gauges(f: &mut ratatui::Frame<'_>, area: Rect, r: &Report) {
    let cells = Layout::horizontal([Constraint::Ratio(1, 3); 3]).split(area);
    let gauges = [
        (
            format!(
                "pool utilization ({:.1} of {} busy)",
                r.busy_threads, r.pool_size
            ),
            r.utilization_pct,
            Color::Cyan,
        ),
        (
            "saturation (all busy)".into(),
            r.saturation_pct,
            Color::Yellow,
        ),
        (
            "loop utilization".into(),
            r.loop_utilization_pct,
            Color::Magenta,
        ),
    ];
    for ((t, pct, color), cell) in gauges.into_iter().zip(cells.iter()) {
        f.render_widget(
            Gauge::default()
                .block(block(&t))
                .gauge_style(Style::default().fg(color))
                .ratio((pct / 100.0).clamp(0.0, 1.0))
                .label(format!("{pct:.0}%")),
            *cell,
        );
    }
}

/// The three figures' history, one bar a window, as many as fit.
fn render_history(f: &mut ratatui::Frame<'_>, area: Rect, history: [&VecDeque<u64>; 3]) {
    let sparks = Layout::horizontal([Constraint::Ratio(1, 3); 3]).split(area);
    for (i, (h, t)) in history
        .iter()
        .zip(["utilization %", "saturation %", "loop %"])
        .enumerate()
    {
        let data: Vec<u64> = h.iter().copied().collect();
        let width = usize::from(sparks[i].width.saturating_sub(2));
        let shown = &data[data.len().saturating_sub(width)..];
        f.render_widget(
            Sparkline::default()
                .block(block(&format!("{t}, one bar a window")))
                .data(shown)
                .max(100),
            sparks[i],
        );
    }
}

/// `queue: 3.0 waiting on average, 4 at most` (and slow I/O where read), or
/// that the queue could not be read.
fn queue_line(r: &Report) -> String {
    r.queue_depth
        .map_or("queue: not readable".to_string(), |q| {
            format!(
                "queue: {q:.1} waiting on average, {} at most{}{}",
                r.queue_depth_max.unwrap_or(0),
                if r.queue_depth_at_least {
                    " (at least)"
                } else {
                    ""
                },
                slow_io(r)
            )
        })
}

/// The pool threads one a row, titled with the loop, the queue and the
/// sampler's cost.
fn render_threads(f: &mut ratatui::Frame<'_>, area: Rect, r: &Report) {
    let thread_rows: Vec<Row<'_>> = r
        .threads
        .iter()
        .map(|t| {
            Row::new(vec![
                t.tid.to_string(),
                format!("{:.0}", t.busy_pct),
                t.cpu_pct.map_or("-".into(), |c| format!("{c:.0}")),
                t.state.clone(),
            ])
        })
        .collect();
    f.render_widget(
        Table::new(
            thread_rows,
            [
                Constraint::Length(10),
                Constraint::Length(8),
                Constraint::Length(8),
                Constraint::Min(10),
            ],
        )
        .header(header(vec!["tid", "busy %", "cpu %", "now"]))
        .block(block(&format!(
            "pool threads ({}); loop {:.0}% busy, {}; sampler {:.1}% of a core",
            r.discovery,
            r.loop_utilization_pct,
            queue_line(r),
            r.sampler_cpu_pct
        ))),
        area,
    );
}

/// Probe mode's table: one row per libuv kind.
fn render_probes(f: &mut ratatui::Frame<'_>, area: Rect, p: &crate::probe::ProbeReport) {
    let kind_row = |name: &str, k: &KindReport| {
        let ms = |v: Option<f64>| v.map_or("-".into(), |x| format!("{x:.1}"));
        Row::new(vec![
            name.to_string(),
            k.submitted.to_string(),
            k.queue_depth.to_string(),
            k.queue_depth_max.to_string(),
            ms(k.wait_ms_p50),
            ms(k.wait_ms_max),
            ms(k.run_ms_p50),
            ms(k.run_ms_max),
        ])
    };
    let rows = vec![
        kind_row("cpu", &p.cpu),
        kind_row("fast_io", &p.fast_io),
        kind_row("slow_io", &p.slow_io),
        kind_row("unknown", &p.unknown),
    ];
    f.render_widget(
        Table::new(rows, [Constraint::Length(9); 8])
            .header(header(vec![
                "kind",
                "submit",
                "queue",
                "queue max",
                "wait p50",
                "wait max",
                "run p50",
                "run max",
            ]))
            .block(block(&format!(
                "probes: {:.0} submissions/s, ms; {} events lost",
                p.submitted_per_s, p.lost_events
            ))),
        area,
    );
}

/// The verdict and its evidence, in the verdict's colour.
fn render_doctor(f: &mut ratatui::Frame<'_>, area: Rect, r: &Report) {
    f.render_widget(
        Paragraph::new(vec![Line::styled(
            format!("{}: {}", r.verdict.as_str(), r.evidence),
            Style::default()
                .fg(verdict_color(r.verdict))
                .add_modifier(Modifier::BOLD),
        )])
        .wrap(Wrap { trim: true })
        .block(block("doctor")),
        area,
    );
}

impl Face for Tui {
    fn start(&mut self, session: &Session) -> Result<(), ScopeError> {
        let t = session.target();
        self.title = format!(
            " sluice scope — process {} ({}, {}) — q quits, p profiles the JavaScript ",
            t.pid, t.comm, t.exe
        );
        self.found = session.status().summary();
        if let Some(g) = session.probe_group() {
            self.found.push_str(&format!("; probes attached ({g})"));
        }
        self.draw()
    }

    fn show(&mut self, r: &Report, session: &Session) -> Result<(), ScopeError> {
        self.found = session.status().summary();
        push(&mut self.utilization, r.utilization_pct);
        push(&mut self.saturation, r.saturation_pct);
        push(&mut self.loop_util, r.loop_utilization_pct);
        self.last = Some(r.clone());
        self.draw()
    }

    fn wants_stop(&mut self) -> bool {
        while !self.quit && event::poll(Duration::ZERO).unwrap_or(false) {
            match event::read() {
                Ok(Event::Key(k)) => {
                    self.quit = matches!(k.code, KeyCode::Char('q') | KeyCode::Esc)
                        || (k.code == KeyCode::Char('c')
                            && k.modifiers.contains(KeyModifiers::CONTROL));
                    if k.code == KeyCode::Char('p') {
                        self.profile_requested = true;
                    }
                }
                Ok(Event::Resize(..)) => {
                    let _ = self.draw();
                }
                _ => {}
            }
        }
        self.quit
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        self.terminal.restore()?;
        Ok(true)
    }

    fn take_profile_request(&mut self) -> bool {
        std::mem::take(&mut self.profile_requested)
    }

    fn confirm_open(&mut self, plan: &Plan) -> bool {
        self.profile = vec![format!(
            "process {}'s inspector is closed. Open it with SIGUSR1? It listens on {} during the profile; scope closes it after; Node's `Debugger listening` lines stay on the process's stderr. y: open, any other key: cancel",
            plan.pid,
            plan.addr_text()
        )];
        if self.draw().is_err() {
            return false;
        }
        loop {
            match event::read() {
                Ok(Event::Key(k)) => return k.code == KeyCode::Char('y'),
                Ok(Event::Resize(..)) => {
                    let _ = self.draw();
                }
                Ok(_) => {}
                Err(_) => return false,
            }
        }
    }

    fn show_profile(&mut self, lines: Vec<String>) -> Result<(), ScopeError> {
        self.profile = lines;
        self.draw()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::classify::{IdleWait, ThreadState};
    use crate::sample::queue::QueueReading;
    use crate::sample::sampler::Tick;
    use crate::target::discovery::{Method, Pool, PoolStatus};
    use crate::verdict::aggregate::{Context, Window};
    use ratatui::backend::TestBackend;

    #[test]
    fn the_doctor_pane_shows_slow_io_throttled_and_the_queue_line_its_figures() {
        let status = PoolStatus::Started(Pool {
            method: Method::Memory,
            tids: vec![1, 2, 3, 4],
            idle: IdleWait::AnyFutex,
            evidence: vec![],
        });
        let mut w = Window::new(vec![1, 2, 3, 4]);
        let poll = ThreadState::Blocked(7);
        w.add(
            &Tick {
                pool: vec![poll, poll, ThreadState::Idle, ThreadState::Idle],
                loop_state: ThreadState::Idle,
            },
            Some(QueueReading {
                depth: 30,
                slow: 30,
                at_least: false,
                slow_running: Some(2),
            }),
        );
        let r = w.finish(Context::bare(1.0, 42, &status));
        let mut term = ratatui::Terminal::new(TestBackend::new(200, 40)).unwrap();
        let history = VecDeque::new();
        term.draw(|f| {
            render(
                f,
                f.area(),
                "t",
                "found",
                Some(&r),
                [&history, &history, &history],
            )
        })
        .unwrap();
        let screen: String = term
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol())
            .collect();
        assert!(
            screen.contains("slow-io-throttled: slow I/O throttled"),
            "{screen}"
        );
        assert!(
            screen.contains("slow I/O: 30.0 waiting, 2.0 running of 2 allowed, throttled 100%"),
            "{screen}"
        );
        assert_eq!(verdict_color(r.verdict), Color::Yellow);
    }
}
