//! libtest's command line, parsed as a `rustc --test` binary parses it
//! (libtest's `cli.rs` over getopts), so that cargo, nextest and people's
//! habits drive a perf test binary like any test binary.
//!
//! Hand-written rather than taken from libtest-mimic, whose `Arguments` is a
//! clap derive: clap was a third of a user's clean build of perfmark
//! (README, "Dependencies, and why"). The rules and the error messages
//! follow libtest's, checked against a stable `rustc --test` binary:
//!
//! - `--name VALUE` and `--name=VALUE`; a value is the next argument
//!   whatever it looks like; `-q`, `-h` and `-Z VALUE` (or `-ZVALUE`) are
//!   the short options, and may be grouped (`-qh`);
//! - `--` ends the options; every other argument (including `-`) is a
//!   filter, and several filters select the tests matching any of them;
//! - an option given twice is an error, except `--skip`;
//! - errors read as libtest's (`Unrecognized option: 'foo'`, `Argument to
//!   option 'skip' missing`, …); the caller prints them after `error: ` and
//!   exits with 101, as libtest does.
//!
//! `--format pretty|terse|json` and `-q` choose the console's style
//! (docs/output.md); json needs no `-Z unstable-options` here, and takes
//! it. Accepted with no effect, as perfmark needs none: `--nocapture` /
//! `--no-capture` (output is never captured), `--test-threads N` (perf
//! tests run one at a time), `--show-output`, `--test`, `--bench`,
//! `--color`, `--logfile`, `-Z unstable-options`. libtest's nightly-only
//! flags (`--shuffle`, `--report-time`, …) are not implemented and are
//! unrecognized.

use std::ffi::OsString;

use crate::report::console::Style;
use crate::Error;

/// The options of libtest that perfmark acts on; the others are checked
/// and dropped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(super) struct Arguments {
    /// Free arguments: a test runs when its name matches any (none: all).
    pub(super) filters: Vec<String>,
    /// Filters and `--skip` patterns match whole names, not substrings.
    pub(super) exact: bool,
    /// `--skip`: tests matching any of these are left out.
    pub(super) skip: Vec<String>,
    /// `--list`: name the tests instead of running them.
    pub(super) list: bool,
    /// `--format`, or terse from `-q` / `--quiet`.
    pub(super) format: Format,
    /// `--ignored`: only the ignored tests.
    pub(super) ignored: bool,
    /// `--include-ignored`: the ignored tests too.
    pub(super) include_ignored: bool,
    /// `-h` / `--help`: print the usage and exit 0.
    pub(super) help: bool,
}

/// libtest's `--format` values: pretty (the default), terse (also `-q`),
/// and json, which libtest takes only with `-Z unstable-options` on a
/// nightly compiler and perfmark takes with or without it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    #[default]
    Pretty,
    Terse,
    Json,
}

impl Format {
    /// How the console prints in this format.
    pub(super) fn style(self) -> Style {
        match self {
            Format::Pretty => Style::Pretty,
            Format::Terse => Style::Terse,
            Format::Json => Style::Json,
        }
    }
}

/// How an option takes its argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Takes {
    /// A flag: no argument, at most once.
    Nothing,
    /// One argument, at most once.
    One,
    /// One argument each time, any number of times.
    Many,
}

/// libtest's stable options: name, short form, and what each takes. A
/// one-letter name has only the short form (`-Z`).
const OPTIONS: &[(&str, Option<char>, Takes)] = &[
    ("include-ignored", None, Takes::Nothing),
    ("ignored", None, Takes::Nothing),
    ("test", None, Takes::Nothing),
    ("bench", None, Takes::Nothing),
    ("list", None, Takes::Nothing),
    ("help", Some('h'), Takes::Nothing),
    ("logfile", None, Takes::One),
    ("nocapture", None, Takes::Nothing),
    ("no-capture", None, Takes::Nothing),
    ("test-threads", None, Takes::One),
    ("skip", None, Takes::Many),
    ("quiet", Some('q'), Takes::Nothing),
    ("exact", None, Takes::Nothing),
    ("color", None, Takes::One),
    ("format", None, Takes::One),
    ("show-output", None, Takes::Nothing),
    ("Z", Some('Z'), Takes::One),
];

/// Each option given, in the order given, with its argument (`--skip` may
/// repeat).
type Given = Vec<(&'static str, Option<String>)>;

impl Arguments {
    /// Parses `args` (the program name first, as `std::env::args_os`
    /// gives it).
    ///
    /// # Errors
    /// libtest's message for an unknown option, a missing or unexpected
    /// argument, an option given twice, a value out of its set, or an
    /// argument that is not UTF-8.
    pub(super) fn parse(args: Vec<OsString>) -> Result<Arguments, Error> {
        let (filters, given) = scan(args)?;
        Arguments::from_given(filters, given)
    }

    /// The arguments from the `filters` and the options `given`, each
    /// option's argument checked against its set, in the order given.
    fn from_given(filters: Vec<String>, given: Given) -> Result<Arguments, Error> {
        let mut parsed = Arguments {
            filters,
            ..Arguments::default()
        };
        let mut quiet = false;
        let mut format = None;
        for (name, value) in given {
            let value = value.unwrap_or_default();
            match name {
                "include-ignored" => parsed.include_ignored = true,
                "ignored" => parsed.ignored = true,
                "list" => parsed.list = true,
                "help" => parsed.help = true,
                "skip" => parsed.skip.push(value),
                "quiet" => quiet = true,
                "exact" => parsed.exact = true,
                "format" => format = Some(format_named(&value)?),
                // test-threads, color and Z are checked and dropped; test,
                // bench, nocapture, no-capture, show-output, logfile dropped.
                _ => check_dropped(name, &value)?,
            }
        }
        if parsed.ignored && parsed.include_ignored {
            return Err(Error::usage(
                "the options --include-ignored and --ignored are mutually exclusive",
            ));
        }
        // libtest: `--format` wins over `-q`, which alone means terse.
        parsed.format = format.unwrap_or(if quiet { Format::Terse } else { Format::Pretty });
        Ok(parsed)
    }
}

/// Sorts `args` (the program name first) into filters and the options
/// given, each option checked for its name, its argument and repetition.
fn scan(args: Vec<OsString>) -> Result<(Vec<String>, Given), Error> {
    let mut filters = Vec::new();
    let mut given = Given::new();
    let mut args = args.into_iter().skip(1).map(|arg| {
        arg.into_string()
            .map_err(|arg| Error::usage(format!("argument {arg:?} is not valid unicode")))
    });
    let mut only_filters = false;
    while let Some(arg) = args.next() {
        let arg = arg?;
        if only_filters || arg == "-" || !arg.starts_with('-') {
            filters.push(arg);
        } else if arg == "--" {
            only_filters = true;
        } else if let Some(long) = arg.strip_prefix("--") {
            long_option(long, &mut args, &mut given)?;
        } else {
            short_group(&arg[1..], &mut args, &mut given)?;
        }
    }
    Ok((filters, given))
}

/// Records the long option `long` (`name` or `name=value`, without its
/// dashes), taking its argument inline or else from `args`.
fn long_option(
    long: &str,
    args: &mut impl Iterator<Item = Result<String, Error>>,
    given: &mut Given,
) -> Result<(), Error> {
    let (name, inline) = match long.split_once('=') {
        Some((name, value)) => (name, Some(value.to_owned())),
        None => (long, None),
    };
    let (name, _, takes) = OPTIONS
        .iter()
        .find(|(n, _, _)| n.len() > 1 && *n == name)
        .ok_or_else(|| Error::usage(format!("Unrecognized option: '{name}'")))?;
    let value = match (takes, inline) {
        (Takes::Nothing, Some(_)) => {
            return Err(Error::usage(format!(
                "Option '{name}' does not take an argument"
            )))
        }
        (Takes::Nothing, None) => None,
        (_, Some(value)) => Some(value),
        (_, None) => Some(next_argument(name, args)?),
    };
    give(given, name, *takes, value)
}

/// Records a group of short options (`group`, without its dash): flags,
/// then perhaps one that takes the rest of the group, or else the next of
/// `args`.
fn short_group(
    group: &str,
    args: &mut impl Iterator<Item = Result<String, Error>>,
    given: &mut Given,
) -> Result<(), Error> {
    for (at, c) in group.char_indices() {
        let (name, _, takes) = OPTIONS
            .iter()
            .find(|(_, short, _)| *short == Some(c))
            .ok_or_else(|| Error::usage(format!("Unrecognized option: '{c}'")))?;
        if *takes == Takes::Nothing {
            give(given, name, Takes::Nothing, None)?;
            continue;
        }
        let rest = &group[at + c.len_utf8()..];
        let value = if rest.is_empty() {
            next_argument(name, args)?
        } else {
            rest.to_owned()
        };
        return give(given, name, *takes, Some(value));
    }
    Ok(())
}

/// The argument of option `name`, the next of `args`: an error when there
/// is none, or when it is not UTF-8.
fn next_argument(
    name: &str,
    args: &mut impl Iterator<Item = Result<String, Error>>,
) -> Result<String, Error> {
    args.next()
        .ok_or_else(|| Error::usage(format!("Argument to option '{name}' missing")))?
}

/// Records one use of option `name`: an error when it may be given once
/// and already was.
fn give(
    given: &mut Given,
    name: &'static str,
    takes: Takes,
    value: Option<String>,
) -> Result<(), Error> {
    if takes != Takes::Many && given.iter().any(|(n, _)| *n == name) {
        return Err(Error::usage(format!(
            "Option '{name}' given more than once"
        )));
    }
    given.push((name, value));
    Ok(())
}

/// The `--format` named `value`; libtest's message for any other.
fn format_named(value: &str) -> Result<Format, Error> {
    match value {
        "pretty" => Ok(Format::Pretty),
        "terse" => Ok(Format::Terse),
        "json" => Ok(Format::Json),
        _ => Err(Error::usage(format!(
            "argument for --format must be pretty, terse or json (was {value})"
        ))),
    }
}

/// Checks the argument `value` of option `name`, which perfmark accepts
/// and drops, against libtest's set (`--test-threads`, `--color`, `-Z`);
/// any other option passes.
fn check_dropped(name: &str, value: &str) -> Result<(), Error> {
    match name {
        "test-threads" => match value.parse::<usize>() {
            Ok(0) => Err(Error::usage("argument for --test-threads must not be 0")),
            Ok(_) => Ok(()),
            Err(e) => Err(Error::usage(format!(
                "argument for --test-threads must be a number > 0 (error: {e})"
            ))),
        },
        "color" if !matches!(value, "auto" | "always" | "never") => Err(Error::usage(format!(
            "argument for --color must be auto, always, or never (was {value})"
        ))),
        "Z" if value != "unstable-options" => Err(Error::usage(format!(
            "argument for -Z must be unstable-options (was {value})"
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Arguments, String> {
        Arguments::parse(
            std::iter::once("perf")
                .chain(args.iter().copied())
                .map(OsString::from)
                .collect(),
        )
        .map_err(|e| {
            assert!(e.is_usage(), "{e}");
            e.to_string()
        })
    }

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn nothing_given_runs_everything() {
        assert_eq!(parse(&[]).unwrap(), Arguments::default());
    }

    #[test]
    fn filters_exact_and_repeated_skips() {
        let a = parse(&["sort", "--exact", "--skip", "a", "--skip=b", "add"]).unwrap();
        assert_eq!(a.filters, strings(&["sort", "add"]));
        assert!(a.exact);
        assert_eq!(a.skip, strings(&["a", "b"]));
        // A value is the next argument, whatever it looks like.
        let a = parse(&["--skip", "--exact"]).unwrap();
        assert_eq!(a.skip, strings(&["--exact"]));
        assert!(!a.exact);
        // An empty skip pattern is a pattern (it matches every name).
        assert_eq!(parse(&["--skip="]).unwrap().skip, strings(&[""]));
    }

    #[test]
    fn after_a_double_dash_everything_is_a_filter() {
        let a = parse(&["--list", "--", "--exact", "-q"]).unwrap();
        assert!(a.list && !a.exact);
        assert_eq!(a.filters, strings(&["--exact", "-q"]));
        assert_eq!(parse(&["-"]).unwrap().filters, strings(&["-"]));
    }

    #[test]
    fn list_formats_as_nextest_asks() {
        let a = parse(&["--list", "--format", "terse"]).unwrap();
        assert!(a.list);
        assert_eq!(a.format, Format::Terse);
        assert_eq!(parse(&["--format=json"]).unwrap().format, Format::Json);
        let a = parse(&["--list", "--format", "terse", "--ignored"]).unwrap();
        assert!(a.ignored && !a.include_ignored);
        // -q means terse, unless --format says otherwise (libtest's order).
        assert_eq!(parse(&["-q"]).unwrap().format, Format::Terse);
        assert_eq!(parse(&["--quiet"]).unwrap().format, Format::Terse);
        assert_eq!(
            parse(&["-q", "--format", "pretty"]).unwrap().format,
            Format::Pretty
        );
    }

    #[test]
    fn accepted_options_that_change_nothing() {
        for args in [
            &["--nocapture"][..],
            &["--no-capture"],
            &["--test-threads", "1"],
            &["--test-threads=8"],
            &["--show-output"],
            &["--test"],
            &["--bench"],
            &["--color", "never"],
            &["--logfile", "log.txt"],
            &["-Z", "unstable-options"],
            &["-Zunstable-options"],
        ] {
            let mut a = parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            a.format = Format::Pretty;
            assert_eq!(a, Arguments::default(), "{args:?}");
        }
        assert!(parse(&["--include-ignored"]).unwrap().include_ignored);
        assert!(parse(&["-h"]).unwrap().help);
        assert!(parse(&["--list", "-qh"]).unwrap().help);
        assert!(parse(&["--help"]).unwrap().help);
    }

    #[test]
    fn errors_read_as_libtest_writes_them() {
        let cases: &[(&[&str], &str)] = &[
            (&["--foo"], "Unrecognized option: 'foo'"),
            (&["--lis"], "Unrecognized option: 'lis'"),
            (&["-x"], "Unrecognized option: 'x'"),
            (&["---x"], "Unrecognized option: '-x'"),
            (&["--shuffle"], "Unrecognized option: 'shuffle'"),
            (&["--skip"], "Argument to option 'skip' missing"),
            (&["--test-threads"], "Argument to option 'test-threads' missing"),
            (&["--format"], "Argument to option 'format' missing"),
            (&["-Z"], "Argument to option 'Z' missing"),
            (&["--exact=1"], "Option 'exact' does not take an argument"),
            (&["--list=x"], "Option 'list' does not take an argument"),
            (&["--exact", "--exact"], "Option 'exact' given more than once"),
            (&["-qq"], "Option 'quiet' given more than once"),
            (
                &["--test-threads=2", "--test-threads=3"],
                "Option 'test-threads' given more than once",
            ),
            (
                &["--format", "terse", "--format", "pretty"],
                "Option 'format' given more than once",
            ),
            (
                &["--test-threads", "abc"],
                "argument for --test-threads must be a number > 0 (error: invalid digit found in string)",
            ),
            (
                &["--test-threads", "0"],
                "argument for --test-threads must not be 0",
            ),
            (
                &["--format", "foo"],
                "argument for --format must be pretty, terse or json (was foo)",
            ),
            (
                &["--color", "foo"],
                "argument for --color must be auto, always, or never (was foo)",
            ),
            (
                &["--ignored", "--include-ignored"],
                "the options --include-ignored and --ignored are mutually exclusive",
            ),
            (
                &["-Z", "foo"],
                "argument for -Z must be unstable-options (was foo)",
            ),
        ];
        for (args, message) in cases {
            assert_eq!(parse(args).unwrap_err(), *message, "{args:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_argument_that_is_not_unicode_is_an_error() {
        use std::os::unix::ffi::OsStringExt;
        let args = vec!["perf".into(), OsString::from_vec(vec![0xff])];
        let e = Arguments::parse(args).unwrap_err();
        assert!(e.is_usage(), "{e}");
        assert!(e.to_string().contains("not valid unicode"), "{e}");
    }
}
