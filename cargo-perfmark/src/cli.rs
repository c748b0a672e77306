//! The command line of `cargo perfmark`: parsed by hand (three commands
//! and a few options do not need a parser crate's build time).

use std::path::PathBuf;
use std::time::Duration;

use crate::baseline::{self, Recording};
use crate::cargo::{Selection, Workspace};
use crate::compare;
use crate::report;
use crate::Error;

/// What `cargo perfmark --help` prints.
pub const USAGE: &str = "\
usage: cargo perfmark COMMAND [OPTIONS]

commands:
  baseline [--runs N] [--pause D] [--instructions] [-p PKG] [--test NAME] [-- ARGS]
      record the perf test targets' baselines over N processes (default 5),
      D apart (default 30s; 0s for none), into each package's perf-baselines/
  compare [REV] [--layouts N] [--instructions] [-p PKG] [--test NAME] [-- ARGS]
      build REV (default HEAD) in a git worktree and the working tree, both
      with every function aligned to 64 bytes; link each perf test target N
      times a side with its functions in other orders (default 10; 1: once,
      as built); run each perf test binary with --compare-with its twin of
      REV, every process pair drawing a link of each side
  report [DIR...]
      draw report.html beside each report.json in or under each DIR
      (default: the target directory's perfmark/); baseline and compare
      draw the pages of the reports their runs wrote

options:
      --instructions  also count each test's instructions under Valgrind's
                      Callgrind (the test binaries' --instructions): stored
                      with the baselines, compared between the builds
  -p, --package PKG   only this package's test targets (repeatable)
      --test NAME     only this test target (repeatable)
  -- ARGS             passed on to every test binary (a filter, say)
  -h, --help          this text

exit status: 0 nothing regressed, 101 a test failed, 2 a usage or build error
             (report: 2 when no report.json is found or a page cannot be drawn)
";

/// A parsed command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    /// Print [`USAGE`].
    Help,
    /// `cargo perfmark baseline`.
    Baseline(Recording),
    /// `cargo perfmark compare`.
    Compare {
        /// The base revision.
        rev: String,
        /// The test targets.
        selection: Selection,
        /// Links of each side (`--layouts`).
        layouts: usize,
        /// Passed on to every test binary.
        test_args: Vec<String>,
    },
    /// `cargo perfmark report`.
    Report {
        /// The directories to draw the pages in or under; none: the
        /// target directory's `perfmark/`.
        dirs: Vec<PathBuf>,
    },
}

/// Parses the arguments after the program's name; a leading `perfmark`
/// (what cargo passes a `cargo perfmark` subcommand) is skipped.
///
/// # Errors
/// [`Error::is_usage`], saying what is accepted.
pub fn parse<I: IntoIterator<Item = String>>(args: I) -> Result<Invocation, Error> {
    let mut args: Vec<String> = args.into_iter().collect();
    if args.first().is_some_and(|a| a == "perfmark") {
        args.remove(0);
    }
    let (ours, mut test_args) = match args.iter().position(|a| a == "--") {
        Some(i) => (args[..i].to_vec(), args[i + 1..].to_vec()),
        None => (args, Vec::new()),
    };
    let mut ours = ours.into_iter();
    let Some(command) = ours.next() else {
        return Ok(Invocation::Help);
    };
    let Some(options) = parse_options(&command, ours)? else {
        return Ok(Invocation::Help);
    };
    // Counting is the test binaries' own option, given to every one.
    if options.instructions && !test_args.iter().any(|a| a == "--instructions") {
        test_args.insert(0, "--instructions".to_owned());
    }
    match command.as_str() {
        "-h" | "--help" | "help" => Ok(Invocation::Help),
        "baseline" => baseline_invocation(options, test_args),
        "compare" => compare_invocation(options, test_args),
        "report" => report_invocation(options, test_args),
        other => Err(Error::usage(format!(
            "unknown command `{other}`: the commands are `baseline`, `compare` and \
             `report`\n\n{USAGE}"
        ))),
    }
}

/// The options of a command line, as given.
#[derive(Default)]
struct Options {
    /// `-p` and `--test`.
    selection: Selection,
    /// `--runs`.
    runs: Option<usize>,
    /// `--pause`.
    pause: Option<Duration>,
    /// `--layouts`.
    layouts: Option<usize>,
    /// `--instructions`.
    instructions: bool,
    /// The arguments that are not options, in order.
    positional: Vec<String>,
}

/// Parses `args`, the arguments after `command` and before `--`: each
/// option `command` takes, as `--name value` or `--name=value`. `None`
/// when they ask for help.
///
/// # Errors
/// [`Error::is_usage`] for an option `command` does not take, or a value
/// missing or refused.
fn parse_options(
    command: &str,
    mut args: impl Iterator<Item = String>,
) -> Result<Option<Options>, Error> {
    let mut o = Options::default();
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_owned(), Some(v.to_owned())),
            _ => (arg.clone(), None),
        };
        let mut value = |what: &str| -> Result<String, Error> {
            inline
                .clone()
                .or_else(|| args.next())
                .ok_or_else(|| Error::usage(format!("{name} needs {what}\n\n{USAGE}")))
        };
        match name.as_str() {
            "-h" | "--help" => return Ok(None),
            "-p" | "--package" if command != "report" => {
                o.selection.packages.push(value("a package name")?)
            }
            "--test" if command != "report" => {
                o.selection.tests.push(value("a test target's name")?)
            }
            "--instructions" if inline.is_none() && command != "report" => o.instructions = true,
            "--runs" if command == "baseline" => o.runs = Some(parse_runs(&value("a number")?)?),
            "--layouts" if command == "compare" => {
                o.layouts = Some(parse_layouts(&value("a number")?)?)
            }
            "--pause" if command == "baseline" => {
                o.pause = Some(parse_pause(&value("a duration such as 30s")?)?)
            }
            _ if !name.starts_with('-') => o.positional.push(arg),
            _ => {
                return Err(Error::usage(format!(
                    "unknown option `{arg}` for `cargo perfmark {command}`\n\n{USAGE}"
                )))
            }
        }
    }
    Ok(Some(o))
}

/// `cargo perfmark baseline` with `options`, which take no positional
/// argument, and `test_args`.
fn baseline_invocation(options: Options, test_args: Vec<String>) -> Result<Invocation, Error> {
    if let Some(extra) = options.positional.first() {
        return Err(Error::usage(format!(
            "baseline takes no revision or name, got `{extra}`; a filter for the \
             tests goes after `--`\n\n{USAGE}"
        )));
    }
    Ok(Invocation::Baseline(Recording {
        runs: options.runs.unwrap_or(baseline::DEFAULT_RUNS),
        pause: options.pause.unwrap_or(baseline::DEFAULT_PAUSE),
        selection: options.selection,
        test_args,
    }))
}

/// `cargo perfmark compare` with `options`, whose positional argument is
/// the revision (at most one; `HEAD` when none), and `test_args`.
fn compare_invocation(mut options: Options, test_args: Vec<String>) -> Result<Invocation, Error> {
    let positional = &mut options.positional;
    if positional.len() > 1 {
        return Err(Error::usage(format!(
            "compare takes one revision, got {positional:?}; the test binaries' \
             arguments go after `--`\n\n{USAGE}"
        )));
    }
    Ok(Invocation::Compare {
        rev: positional.pop().unwrap_or_else(|| "HEAD".to_owned()),
        selection: options.selection,
        layouts: options.layouts.unwrap_or(crate::layout::DEFAULT_LAYOUTS),
        test_args,
    })
}

/// `cargo perfmark report` with `options`, whose positional arguments are
/// the directories; it runs no test binary, so takes no `test_args`.
fn report_invocation(options: Options, test_args: Vec<String>) -> Result<Invocation, Error> {
    if !test_args.is_empty() {
        return Err(Error::usage(format!(
            "report runs no test binary: it takes report directories, not `-- \
             {}`\n\n{USAGE}",
            test_args.join(" ")
        )));
    }
    Ok(Invocation::Report {
        dirs: options.positional.into_iter().map(PathBuf::from).collect(),
    })
}

fn parse_layouts(value: &str) -> Result<usize, Error> {
    value
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=64).contains(n))
        .ok_or_else(|| {
            Error::usage(format!(
                "--layouts takes a whole number of links a side from 1 (link once, as \
                 built) to 64, got `{value}`\n\n{USAGE}"
            ))
        })
}

fn parse_runs(value: &str) -> Result<usize, Error> {
    value
        .parse::<usize>()
        .ok()
        .filter(|&n| n >= 2)
        .ok_or_else(|| {
            Error::usage(format!(
                "--runs takes a whole number of processes, at least 2, not `{value}`"
            ))
        })
}

fn parse_pause(value: &str) -> Result<Duration, Error> {
    perfmark_options::grammar::duration_ns(value)
        .ok()
        .filter(|ns| ns.is_finite() && *ns >= 0.0)
        .map(|ns| Duration::from_nanos(ns as u64))
        .ok_or_else(|| {
            Error::usage(format!(
                "--pause takes a duration such as 30s, 500ms or 0s, not `{value}`"
            ))
        })
}

/// Runs `invocation` in the workspace around the current directory and
/// returns the exit status: 0, 101 on a failed test, 2 on an error.
///
/// # Errors
/// Any [`Error`] of the task.
pub fn run(invocation: Invocation) -> Result<u8, Error> {
    let here = std::env::current_dir()
        .map_err(|e| Error::build(format!("cannot read the current directory: {e}")))?;
    match invocation {
        Invocation::Help => {
            print!("{USAGE}");
            Ok(0)
        }
        Invocation::Baseline(recording) => {
            baseline::record_workspace(&Workspace::locate(&here)?, &recording)?;
            Ok(0)
        }
        Invocation::Compare {
            rev,
            selection,
            layouts,
            test_args,
        } => compare::compare_rev(
            &Workspace::locate(&here)?,
            &rev,
            &selection,
            layouts,
            &test_args,
        ),
        Invocation::Report { dirs } => report::draw_pages(&dirs, || {
            Ok(Workspace::locate(&here)?.target_dir.join("perfmark"))
        }),
    }
}

/// The whole program: parses `args` (those after the program's name), runs
/// the task, prints an error as `error: …`, and returns the exit status.
pub fn main<I: IntoIterator<Item = String>>(args: I) -> u8 {
    match parse(args).and_then(run) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(line: &str) -> Result<Invocation, Error> {
        parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn cargo_s_subcommand_name_is_skipped_and_bare_is_help() {
        assert_eq!(parse_str("").unwrap(), Invocation::Help);
        assert_eq!(parse_str("perfmark").unwrap(), Invocation::Help);
        assert_eq!(parse_str("perfmark --help").unwrap(), Invocation::Help);
        assert_eq!(parse_str("-h").unwrap(), Invocation::Help);
        assert_eq!(parse_str("compare --help").unwrap(), Invocation::Help);
    }

    #[test]
    fn baseline_options() {
        assert_eq!(
            parse_str("perfmark baseline").unwrap(),
            Invocation::Baseline(Recording::default())
        );
        let Invocation::Baseline(r) =
            parse_str("baseline --runs 3 --pause=0s -p a --package=b --test perf -- sort").unwrap()
        else {
            panic!("a baseline");
        };
        assert_eq!((r.runs, r.pause), (3, Duration::ZERO));
        assert_eq!(r.selection.packages, ["a", "b"]);
        assert_eq!(r.selection.tests, ["perf"]);
        assert_eq!(r.test_args, ["sort"]);
        let Invocation::Baseline(r) = parse_str("baseline --pause 1.5s").unwrap() else {
            panic!("a baseline");
        };
        assert_eq!(r.pause, Duration::from_millis(1500));
    }

    #[test]
    fn compare_options() {
        assert_eq!(
            parse_str("perfmark compare").unwrap(),
            Invocation::Compare {
                rev: "HEAD".into(),
                selection: Selection::default(),
                layouts: crate::layout::DEFAULT_LAYOUTS,
                test_args: Vec::new(),
            }
        );
        assert_eq!(
            parse_str("compare origin/main -p k --test perf --layouts 4 -- sort --exact").unwrap(),
            Invocation::Compare {
                rev: "origin/main".into(),
                selection: Selection {
                    packages: vec!["k".into()],
                    tests: vec!["perf".into()],
                },
                layouts: 4,
                test_args: vec!["sort".into(), "--exact".into()],
            }
        );
    }

    #[test]
    fn report_takes_directories() {
        assert_eq!(
            parse_str("perfmark report").unwrap(),
            Invocation::Report { dirs: Vec::new() }
        );
        assert_eq!(
            parse_str("report target/perfmark/perf other").unwrap(),
            Invocation::Report {
                dirs: vec!["target/perfmark/perf".into(), "other".into()]
            }
        );
        assert_eq!(parse_str("report --help").unwrap(), Invocation::Help);
        assert!(USAGE.contains("\n  report [DIR...]\n"), "{USAGE}");
    }

    #[test]
    fn mistakes_say_what_is_accepted() {
        let cases = [
            ("frobnicate", "unknown command `frobnicate`"),
            ("baseline --runs", "--runs needs a number"),
            ("baseline --runs 1", "at least 2, not `1`"),
            ("baseline --runs five", "not `five`"),
            ("baseline --pause 3 parsecs", "--pause takes a duration"),
            ("baseline --verbose", "unknown option `--verbose`"),
            ("baseline HEAD", "baseline takes no revision"),
            ("compare a b", "compare takes one revision"),
            ("compare --runs 3", "unknown option `--runs`"),
            ("compare --layouts 0", "--layouts takes a whole number"),
            ("baseline --layouts 3", "unknown option `--layouts`"),
            ("compare -p", "-p needs a package name"),
            (
                "report -p k",
                "unknown option `-p` for `cargo perfmark report`",
            ),
            ("report --test perf", "unknown option `--test`"),
            ("report --instructions", "unknown option `--instructions`"),
            ("report --runs 3", "unknown option `--runs`"),
            ("report dir -- sort", "report runs no test binary"),
            (
                "reports",
                "the commands are `baseline`, `compare` and `report`",
            ),
        ];
        for (line, expected) in cases {
            let e = parse_str(line).unwrap_err();
            assert!(e.is_usage(), "{line}: {e}");
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains(expected), "{line}: {e}");
        }
        assert!(parse_str("compare --bogus")
            .unwrap_err()
            .to_string()
            .contains("usage: cargo perfmark"));
    }

    #[test]
    fn instructions_are_passed_on_to_every_test_binary() {
        match parse_str("compare origin/main --instructions -- sort").unwrap() {
            Invocation::Compare { test_args, .. } => {
                assert_eq!(test_args, ["--instructions", "sort"]);
            }
            other => panic!("{other:?}"),
        }
        match parse_str("baseline --instructions --runs 2").unwrap() {
            Invocation::Baseline(r) => assert_eq!(r.test_args, ["--instructions"]),
            other => panic!("{other:?}"),
        }
        match parse_str("compare --instructions -- --instructions").unwrap() {
            Invocation::Compare { test_args, .. } => assert_eq!(test_args, ["--instructions"]),
            other => panic!("{other:?}"),
        }
    }
}
