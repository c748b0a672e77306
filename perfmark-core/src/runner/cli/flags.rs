//! perfmark's flags taken out of the command line, each as given; libtest's
//! arguments are left, in order, for libtest's parser.

use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

use super::values::{flag_value, split_inline, text_value, timeout};
use super::{between_run_sd, SWITCHES};
use crate::Error;

/// perfmark's flags as the command line gave them, before the variables.
#[derive(Default)]
pub(super) struct Flags {
    pub(super) save_baseline: bool,
    pub(super) no_baseline: bool,
    pub(super) verbose: bool,
    pub(super) baseline_dir: Option<PathBuf>,
    pub(super) report_dir: Option<PathBuf>,
    pub(super) compare_with: Vec<PathBuf>,
    pub(super) head_layouts: Vec<PathBuf>,
    pub(super) per_test_confidence: bool,
    pub(super) no_remeasure: bool,
    pub(super) no_lock: bool,
    pub(super) no_pin: bool,
    pub(super) no_processes: bool,
    pub(super) instructions: bool,
    pub(super) family_wise: bool,
    pub(super) between_run_sd: Option<f64>,
    pub(super) timeout: Option<Duration>,
}

impl Flags {
    /// Takes perfmark's flags out of `args` (the program name first), and
    /// returns them with the other arguments, in order, for libtest.
    pub(super) fn scan(args: Vec<OsString>) -> Result<(Flags, Vec<OsString>), Error> {
        let mut rest = Vec::with_capacity(args.len());
        let mut flags = Flags::default();
        let mut args = args.into_iter();
        rest.extend(args.next());
        while let Some(arg) = args.next() {
            let taken = match flag_name(&arg) {
                Some((name, inline)) => flags.take(&name, inline, &mut args)?,
                None => false,
            };
            if !taken {
                rest.push(arg);
            }
        }
        Ok((flags, rest))
    }

    /// Records flag `name` (its value `inline`, or else the next of
    /// `args`); `false`, taking nothing, when it is not perfmark's.
    fn take(
        &mut self,
        name: &str,
        inline: Option<OsString>,
        args: &mut impl Iterator<Item = OsString>,
    ) -> Result<bool, Error> {
        if SWITCHES.contains(&name) && inline.is_some() {
            return Err(Error::usage(format!(
                "{name} takes no value: give {name} alone, or leave it out"
            )));
        }
        if let Some(switch) = self.switch(name) {
            *switch = true;
            return Ok(true);
        }
        let value = || flag_argument(name, inline, args);
        match name {
            "--baseline-dir" => self.baseline_dir = Some(value()?.into()),
            "--report-dir" => self.report_dir = Some(value()?.into()),
            "--compare-with" => self.compare_with.push(value()?.into()),
            "--head-layout" => self.head_layouts.push(value()?.into()),
            "--between-run-sd" => {
                self.between_run_sd = Some(parse_text(name, value()?, between_run_sd)?);
            }
            "--timeout" => self.timeout = Some(parse_text(name, value()?, timeout)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The field of the switch `name` (a flag that takes no value); `None`
    /// for any other name.
    fn switch(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "--save-baseline" => &mut self.save_baseline,
            "--no-baseline" => &mut self.no_baseline,
            "--verbose" => &mut self.verbose,
            "--per-test-confidence" => &mut self.per_test_confidence,
            "--no-remeasure" => &mut self.no_remeasure,
            "--no-lock" => &mut self.no_lock,
            "--no-pin" => &mut self.no_pin,
            "--no-processes" => &mut self.no_processes,
            "--instructions" => &mut self.instructions,
            "--family-wise" => &mut self.family_wise,
            _ => return None,
        })
    }
}

/// An argument's flag name and its inline value (`--name=value`); `None`
/// for an argument that is not UTF-8 and has no inline value.
fn flag_name(arg: &OsString) -> Option<(String, Option<OsString>)> {
    match split_inline(arg) {
        Some((name, value)) => Some((name.to_owned(), Some(value.to_owned()))),
        None => arg.to_str().map(|text| (text.to_owned(), None)),
    }
}

/// The value of `flag`: `inline`, or else the next of `args`; an error
/// saying what the flag needs when there is none or it is empty.
fn flag_argument(
    flag: &str,
    inline: Option<OsString>,
    args: &mut impl Iterator<Item = OsString>,
) -> Result<OsString, Error> {
    inline
        .or_else(|| args.next())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Error::usage(format!("{flag} needs {}", flag_value(flag))))
}

/// The value of a flag that takes text, parsed with `parse`; its errors
/// name the flag.
fn parse_text<T>(
    flag: &str,
    value: OsString,
    parse: fn(&str) -> Result<T, Error>,
) -> Result<T, Error> {
    let text = text_value(flag, value)?;
    parse(&text).map_err(|e| e.within(flag))
}
