//! Panic capture: a test's panic is recorded with its location, as libtest
//! shows it under `failures:`, instead of being printed where it happens.
//! Both a normal run and a worker serving slices run a test's body under it.

use std::panic;
use std::sync::Mutex;

static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

/// Replaces the panic hook with one that records the message (with its
/// location) instead of printing it, as libtest shows it under `failures:`.
/// Returns the previous hook.
pub(crate) fn install_panic_capture(
) -> Box<dyn Fn(&panic::PanicHookInfo<'_>) + Sync + Send + 'static> {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let location = info
            .location()
            .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        let message = panic_payload_text(info.payload());
        let text = match location {
            Some(at) => format!("{at}:\n{message}"),
            None => message,
        };
        if let Ok(mut slot) = PANIC_MESSAGE.lock() {
            slot.get_or_insert(text);
        }
    }));
    previous
}

pub(crate) fn take_panic_message() -> Option<String> {
    PANIC_MESSAGE.lock().ok()?.take()
}

pub(crate) fn panic_payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a non-string panic payload".to_owned()
    }
}

/// The first line of a panic's own message, for the one-line reason: the
/// panic hook puts a `file:line:col:` line before the message, which is
/// skipped when present (a payload taken without the hook has none, and
/// its first line is the message's).
pub(crate) fn panic_headline(text: &str) -> &str {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    if is_location_line(first) {
        lines.next().unwrap_or(first)
    } else {
        first
    }
}

/// Whether `line` is the hook's `file:line:col:` location line.
fn is_location_line(line: &str) -> bool {
    let Some(rest) = line.strip_suffix(':') else {
        return false;
    };
    let mut parts = rest.rsplitn(3, ':');
    let (Some(col), Some(row), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !file.is_empty() && col.parse::<u32>().is_ok() && row.parse::<u32>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panic_headline_skips_only_the_location_line() {
        assert_eq!(panic_headline("src/lib.rs:12:5:\noops\nmore"), "oops");
        assert_eq!(panic_headline("C:\\x\\perf.rs:3:9:\nboom"), "boom");
        // no location (a payload read without the hook): the message's own first line
        assert_eq!(panic_headline("first: x\nsecond"), "first: x");
        assert_eq!(panic_headline("oops"), "oops");
        assert_eq!(panic_headline("src/lib.rs:12:5:"), "src/lib.rs:12:5:");
        assert_eq!(panic_headline(""), "");
    }
}
