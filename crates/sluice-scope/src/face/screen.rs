//! [`Screen`]: the terminal a terminal view takes over (alternate screen,
//! raw mode), given back by [`Screen::restore`] at the end, on drop, or by
//! ratatui's panic hook on a panic. Both terminal views (`tui.rs`,
//! `host_tui.rs`) hold one.

use crate::error::ScopeError;
use ratatui::DefaultTerminal;

/// The terminal, while a view holds it.
pub(crate) struct Screen(Option<DefaultTerminal>);

impl Screen {
    /// Takes over the terminal.
    pub(crate) fn take() -> Result<Screen, ScopeError> {
        ratatui::try_init()
            .map(|t| Screen(Some(t)))
            .map_err(ScopeError::Terminal)
    }

    /// The terminal to draw on; `None` once restored.
    pub(crate) fn terminal(&mut self) -> Option<&mut DefaultTerminal> {
        self.0.as_mut()
    }

    /// Gives the terminal back (once; later calls do nothing).
    pub(crate) fn restore(&mut self) -> Result<(), ScopeError> {
        if self.0.take().is_some() {
            ratatui::try_restore().map_err(ScopeError::Terminal)?;
        }
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        if self.0.take().is_some() {
            ratatui::restore();
        }
    }
}
