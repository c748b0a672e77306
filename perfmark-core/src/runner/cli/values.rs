//! One value of the command line or the environment: a flag's inline
//! value, a duration, a path, a boolean, each refused with what is accepted.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::time::Duration;

use perfmark_options::Key;

use super::Env;
use crate::Error;

/// `--name=value` split at its first `=`, the value kept as the OS gave
/// it (a directory's name need not be UTF-8); `None` for any other
/// argument.
pub(super) fn split_inline(arg: &OsStr) -> Option<(&str, &OsStr)> {
    let bytes = arg.as_encoded_bytes();
    let eq = bytes.iter().position(|&b| b == b'=')?;
    let name = std::str::from_utf8(&bytes[..eq]).ok()?;
    if !name.starts_with("--") {
        return None;
    }
    // SAFETY: the bytes come from an `OsStr`, and they are split right
    // after `bytes[..=eq]`, a non-empty valid UTF-8 string ending in the
    // ASCII `=`: a split `OsStr::from_encoded_bytes_unchecked` allows.
    let value = unsafe { OsStr::from_encoded_bytes_unchecked(&bytes[eq + 1..]) };
    Some((name, value))
}

/// What the flag `flag` takes, completing "`flag` needs …".
pub(super) fn flag_value(flag: &str) -> String {
    match flag {
        "--compare-with" => {
            "the path of another build of this test binary: --compare-with PATH".to_owned()
        }
        "--head-layout" => "the path of another link of this build: --head-layout PATH".to_owned(),
        "--between-run-sd" => "a percentage: --between-run-sd 2%".to_owned(),
        "--timeout" => format!("a duration: --timeout DURATION, {TIMEOUT_ACCEPTS}"),
        _ => format!("a directory: {flag} DIR"),
    }
}

/// The value of a flag that takes text, not a path: an error naming the
/// flag when it is not UTF-8.
pub(super) fn text_value(flag: &str, value: OsString) -> Result<String, Error> {
    value.into_string().map_err(|_| {
        Error::usage(format!(
            "{flag} needs {}; its value is not UTF-8",
            flag_value(flag)
        ))
    })
}

/// What `--timeout` and `PERFMARK_TIMEOUT` accept.
pub(super) const TIMEOUT_ACCEPTS: &str =
    "a positive duration string such as \"90s\" or \"10 s\" (units: ns, \
     us, µs, ms, s), at least 1ms";

/// A test's time bound as written in `--timeout` / `PERFMARK_TIMEOUT`: the
/// attribute's duration grammar, at least a millisecond.
pub(super) fn timeout(text: &str) -> Result<Duration, Error> {
    let refused = || {
        Error::usage(format!(
            "`{text}` is not understood: expected {TIMEOUT_ACCEPTS}"
        ))
    };
    let ns = perfmark_options::grammar::duration_ns(text).map_err(|_| refused())?;
    // Below a millisecond no test could ever finish; above u64 ns (584
    // years) the cast would saturate, which is "no bound" anyway.
    if ns < 1e6 {
        return Err(refused());
    }
    Ok(Duration::from_nanos(ns.min(u64::MAX as f64) as u64))
}

/// What the variable of option `key` accepts, completing "expected …".
pub(super) fn accepts(key: Key) -> &'static str {
    key.spec().env.as_ref().map_or(key.accepts(), |e| e.accepts)
}

/// What the boolean variables accept.
pub(super) const BOOL_ACCEPTS: &str = "1/true/yes/on or 0/false/no/off";

/// A variable read as text: `None` when unset, an error naming it and
/// saying what it `accepts` when its value is not UTF-8 (no value of a text
/// variable can be).
pub(super) fn env_text(env: &dyn Env, var: &str, accepts: &str) -> Result<Option<String>, Error> {
    match env.get(var) {
        None => Ok(None),
        Some(value) => value.into_string().map(Some).map_err(|value| {
            Error::usage(format!(
                "{var}={:?} is not valid UTF-8: expected {accepts}",
                value.to_string_lossy()
            ))
        }),
    }
}

/// The paths a repeatable flag gave, or else those of `var` (separated
/// as in `PATH`: by `:` on Unix).
pub(super) fn paths_or_env(given: Vec<PathBuf>, env: &dyn Env, var: &str) -> Vec<PathBuf> {
    if !given.is_empty() {
        return given;
    }
    env.get(var)
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// A variable holding a path: any bytes the OS allows; set but empty is
/// the same as unset (`PERFMARK_BASELINE_DIR=` would otherwise mean the
/// package root itself).
pub(super) fn env_path(env: &dyn Env, var: &str) -> Option<PathBuf> {
    env.get(var).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// A boolean variable: `None` when unset, an error saying what is
/// accepted when its value is none of them.
pub(super) fn env_bool(env: &dyn Env, var: &str) -> Result<Option<bool>, Error> {
    match env_text(env, var, BOOL_ACCEPTS)?.as_deref().map(str::trim) {
        None => Ok(None),
        Some("1" | "true" | "yes" | "on") => Ok(Some(true)),
        Some("" | "0" | "false" | "no" | "off") => Ok(Some(false)),
        Some(other) => Err(Error::usage(format!(
            "{var}={other:?} is not understood: use {BOOL_ACCEPTS}"
        ))),
    }
}

/// The variable of the duration option `key`, parsed with `parse`.
pub(super) fn env_duration(
    env: &dyn Env,
    key: Key,
    parse: fn(&str) -> Result<u64, perfmark_options::OptionError>,
    default: Duration,
) -> Result<Duration, Error> {
    let var = key.spec().env.as_ref().map_or("", |e| e.var);
    match env_text(env, var, accepts(key))? {
        None => Ok(default),
        Some(v) => parse(&v)
            .map(Duration::from_nanos)
            .map_err(|e| Error::usage(format!("{var}: {e}"))),
    }
}
