//! A run's setup, before its first test: the machine-wide lock, the
//! clocks' calibration, the platform and what to warn about, the stored
//! baselines or the base build to compare with, and the noise floor.

use std::collections::BTreeSet;
use std::error::Error as StdError;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use super::case::Case;
use super::machine::{self, MachineLock};
use super::Runner;
use crate::allocations;
use crate::baseline::run_spreads::Prior;
use crate::baseline::{self, BaselineFile, BaselineStore, Fingerprint, MachineMatch};
use crate::clock::{self, Clock};
use crate::measure::noise_floor;
use crate::paired::builds::Comparing;
use crate::platform::{EnvironmentWarning, Platform, Support};
use crate::registry::PerfTest;
use crate::report::console::Console;
use crate::report::Startup;
use crate::Error;

/// Why a run with `--save-baseline` in an unoptimized build stops.
const UNOPTIMIZED_SAVE: &str = "refusing to save baselines from an unoptimized build: run `cargo \
     test --release -- --save-baseline`";

/// What a run knows before its first test.
pub(crate) struct Setup {
    /// Every registered test, selected or not.
    pub(super) tests: Vec<&'static PerfTest>,
    /// The machine-wide measurement lock, held until every test ran.
    pub(super) machine_lock: Option<MachineLock>,
    /// Whether any selected test will be measured.
    pub(super) will_measure: bool,
    pub(super) platform: Platform,
    /// Said once, in the header.
    pub(super) environment_warnings: Vec<EnvironmentWarning>,
    pub(super) store: BaselineStore,
    /// This machine and build, as baselines record it.
    pub(crate) fingerprint: Fingerprint,
    /// Compare mode's base build, if any.
    pub(crate) comparing: Option<Comparing>,
    /// The stored baselines the run compares with, if any.
    pub(crate) baselines: Option<BaselineFile>,
    /// The machine's noise floor, a fraction, when measured.
    pub(super) noise_floor: Option<f64>,
    /// What the start-up cost, when the run measures.
    pub(super) startup: Option<Startup>,
    /// How much estimates move between processes here.
    pub(super) prior: Prior,
    pub(crate) report_dir: PathBuf,
    /// The valgrind that counts instructions, with `--instructions` in a
    /// run that measures.
    #[cfg(feature = "instructions")]
    pub(crate) valgrind: Option<crate::instructions::Valgrind>,
}

impl Runner {
    /// Sets the run up for the `selected` of the registered `tests`.
    ///
    /// # Errors
    /// Saving baselines from an unoptimized build, a base build that cannot
    /// be driven, or a baseline file that cannot be trusted; the run then
    /// ends with status 101 before any test.
    pub(super) fn set_up(
        &self,
        tests: Vec<&'static PerfTest>,
        selected: &[&Case],
        console: &mut Console,
    ) -> Result<Setup, Box<dyn StdError>> {
        let will_measure = self.measuring() && selected.iter().any(|c| self.runs(c.test()));
        // Before anything is measured: a run asked to count that cannot
        // stops here, with how to install what it needs.
        #[cfg(feature = "instructions")]
        let valgrind = self.valgrind(will_measure)?;
        #[cfg(not(feature = "instructions"))]
        if self.options.instructions && will_measure {
            return Err(Error::usage(crate::report::words::runner::WITHOUT_INSTRUCTIONS).into());
        }
        // Taken before the clock's calibration and the noise floor, which
        // are measurements too.
        let (machine_lock, lock_warning) = self.machine_lock(will_measure, console);
        let (platform, clock_calibration_s) = self.calibrate(selected);
        let mut environment_warnings = self.machine_warnings(&platform);
        let (fingerprint, store) = self.store_here(&platform)?;
        let (comparing, baselines) = self.what_to_compare_with(&store, selected)?;
        if let Some(file) = &baselines {
            environment_warnings.extend(self.baseline_warnings(
                file,
                &tests,
                selected,
                &fingerprint,
            ));
        }
        let (noise_floor, startup) =
            self.measure_noise_floor(will_measure, machine_lock.as_ref(), clock_calibration_s);
        environment_warnings.extend(lock_warning);
        Ok(Setup {
            tests,
            machine_lock,
            will_measure,
            platform,
            environment_warnings,
            store,
            // How much estimates move between processes here: the source
            // both the regression rule and the budget's near-the-line note
            // read.
            prior: Prior::resolve(
                self.options.between_run_sd,
                baselines.as_ref(),
                &fingerprint,
            ),
            fingerprint,
            comparing,
            baselines,
            noise_floor,
            startup,
            report_dir: self.report_dir(),
            #[cfg(feature = "instructions")]
            valgrind,
        })
    }

    /// The valgrind that counts instructions, when the run measures and
    /// `--instructions` asks for counts.
    ///
    /// # Errors
    /// When valgrind cannot be found or run, with how to install it.
    #[cfg(feature = "instructions")]
    fn valgrind(&self, will_measure: bool) -> Result<Option<crate::instructions::Valgrind>, Error> {
        if self.options.instructions && will_measure {
            crate::instructions::Valgrind::find()
                .map(Some)
                .map_err(Error::usage)
        } else {
            Ok(None)
        }
    }

    /// What the header warns of about this machine and build (`platform`):
    /// the platform's own warnings, what the platform lacks, allocations
    /// not counted, and what of the interference cannot be observed where
    /// the platform has it.
    fn machine_warnings(&self, platform: &Platform) -> Vec<EnvironmentWarning> {
        let mut warnings = platform.warnings();
        let support = Support::current();
        warnings.extend(support.header_warning(crate::platform::pretended()));
        if !allocations::installed() {
            warnings.push(EnvironmentWarning::AllocationsNotCounted);
        }
        if support.interference {
            warnings.extend(self.observer.coverage().header_warning());
        }
        warnings
    }

    /// What the header warns of about the baseline `file`: entries of tests
    /// that no longer exist among `tests`, and what differed, without
    /// making times incomparable, from the machine of the `selected` tests'
    /// entries (`here` is this one).
    fn baseline_warnings(
        &self,
        file: &BaselineFile,
        tests: &[&'static PerfTest],
        selected: &[&Case],
        here: &Fingerprint,
    ) -> Vec<EnvironmentWarning> {
        let mut warnings = Vec::new();
        let stale = file.stale_tests(tests.iter().map(|t| t.name()));
        if !stale.is_empty() {
            warnings.push(EnvironmentWarning::StaleBaselines {
                path: file.path().to_path_buf(),
                tests: stale,
            });
        }
        let measured = self.measured(selected);
        warnings.extend(machine_notes(file, measured.iter().map(|t| t.name()), here));
        warnings
    }

    /// The machine's noise floor when the run measures ([`Self::noise_floor`],
    /// under the machine `lock`), and what the start-up cost with the
    /// clock's calibration of `clock_calibration_s`.
    fn measure_noise_floor(
        &self,
        will_measure: bool,
        lock: Option<&MachineLock>,
        clock_calibration_s: f64,
    ) -> (Option<f64>, Option<Startup>) {
        if !will_measure {
            return (None, None);
        }
        let started = Instant::now();
        let (floor, shared) = self.noise_floor(lock);
        let startup = Startup {
            clock_calibration_s,
            noise_floor_s: started.elapsed().as_secs_f64(),
            noise_floor_shared: shared,
        };
        (Some(floor), Some(startup))
    }

    /// Calibrates the clocks the `selected` tests use (the thread CPU
    /// clock only when one of them measures CPU time) and detects the
    /// platform; returns it and how long the calibration took, in seconds.
    fn calibrate(&self, selected: &[&Case]) -> (Platform, f64) {
        let calibration_started = Instant::now();
        let clock = clock::info();
        let cpu_clock = selected
            .iter()
            .any(|c| self.runs(c.test()) && c.test().clock() == Clock::Cpu)
            .then(clock::cpu_info)
            .flatten();
        let clock_calibration_s = calibration_started.elapsed().as_secs_f64();
        let mut platform = Platform::detect(!self.build.debug_assertions, clock);
        platform.cpu_clock = cpu_clock;
        (platform, clock_calibration_s)
    }

    /// What the run compares with: the base build of `--compare-with`
    /// (greeted, with the count of `selected` tests it has), or the stored
    /// baselines from `store`, or nothing (`--no-baseline`,
    /// `--save-baseline`, an unoptimized build).
    fn what_to_compare_with(
        &self,
        store: &BaselineStore,
        selected: &[&Case],
    ) -> Result<(Option<Comparing>, Option<BaselineFile>), Box<dyn StdError>> {
        if !self.options.compare_with.is_empty() {
            if cfg!(not(feature = "compare")) {
                return Err(Error::usage(crate::report::words::runner::WITHOUT_COMPARE).into());
            }
            let own: BTreeSet<String> = crate::registry::all_tests()
                .iter()
                .map(|t| t.name())
                .collect();
            let mut c =
                Comparing::start(&self.options.compare_with, &self.options.head_layouts, &own)
                    .map_err(|e| e.within("--compare-with"))?;
            c.compared = self
                .measured(selected)
                .iter()
                .filter(|t| c.has(&t.name()))
                .count();
            return Ok((Some(c), None));
        }
        if self.options.no_baseline || self.options.save_baseline || !self.measuring() {
            return Ok((None, None));
        }
        Ok((None, store.load(self.build.crate_name)?))
    }

    /// The machine-wide measurement lock, when the run measures and may
    /// take it ([`Self::take_machine_lock`]), with the warning of a lock
    /// that could not be taken.
    fn machine_lock(
        &self,
        will_measure: bool,
        console: &mut Console,
    ) -> (Option<MachineLock>, Option<EnvironmentWarning>) {
        if will_measure && !self.options.no_lock {
            self.take_machine_lock(console)
        } else {
            (None, None)
        }
    }

    /// Takes the machine-wide measurement lock ([`machine`]), saying so
    /// when it has to wait; when it cannot be taken, measures without it and
    /// returns the warning that says so.
    fn take_machine_lock(
        &self,
        console: &mut Console,
    ) -> (Option<MachineLock>, Option<EnvironmentWarning>) {
        let dir = self
            .options
            .lock_dir
            .clone()
            .unwrap_or_else(std::env::temp_dir);
        let taken = MachineLock::acquire(&dir, |path| console.waiting_for_lock(path));
        match taken {
            Ok(lock) => (Some(lock), None),
            Err(e) => (
                None,
                Some(EnvironmentWarning::NoMachineLock {
                    dir,
                    error: e.to_string(),
                }),
            ),
        }
    }

    /// The id of the nextest run this process is a test of, if any.
    pub(super) fn nextest_run_id(&self) -> Option<String> {
        std::env::var(machine::NEXTEST_RUN_ID)
            .ok()
            .filter(|id| !id.is_empty())
    }

    /// The machine's noise floor: under nextest, the one an earlier test of
    /// the same run measured (while holding the lock); else measured now.
    /// Returns it and whether it was shared.
    fn noise_floor(&self, lock: Option<&MachineLock>) -> (f64, bool) {
        let run = lock.zip(self.nextest_run_id());
        if let Some(floor) = run
            .as_ref()
            .and_then(|(lock, id)| lock.shared_noise_floor(id))
        {
            return (floor, true);
        }
        let floor = noise_floor::measure();
        if let Some((lock, id)) = &run {
            lock.share_noise_floor(id, floor);
        }
        (floor, false)
    }

    /// The baseline store: `--baseline-dir` (relative to the package; a
    /// `{cpu}` in it names this machine's CPU model, see
    /// [`baseline::machine_dir`]), else the package's own.
    /// This machine's fingerprint on `platform`, and its baseline store;
    /// an unoptimized build asked to save baselines is refused (its times
    /// are not the program's).
    fn store_here(&self, platform: &Platform) -> Result<(Fingerprint, BaselineStore), Error> {
        let fingerprint = Fingerprint::current(
            &platform.rustc,
            &platform.profile,
            &platform.perfmark_version,
        );
        let store = self.baseline_store(&fingerprint);
        if self.options.save_baseline && !self.measuring() {
            return Err(Error::usage(UNOPTIMIZED_SAVE));
        }
        Ok((fingerprint, store))
    }

    fn baseline_store(&self, here: &Fingerprint) -> BaselineStore {
        match &self.options.baseline_dir {
            Some(dir) => BaselineStore::new(baseline::machine_dir(
                &Path::new(self.build.manifest_dir).join(dir),
                &here.cpu_model,
            )),
            None => BaselineStore::in_package(self.build.manifest_dir),
        }
    }

    /// Where the reports go: `--report-dir`, else
    /// `<target dir>/perfmark/<test target>`.
    fn report_dir(&self) -> PathBuf {
        if let Some(dir) = &self.options.report_dir {
            return dir.clone();
        }
        target_dir(Path::new(self.build.manifest_dir))
            .join("perfmark")
            .join(self.build.crate_name)
    }
}

/// What differed, without making them incomparable, between this machine
/// (`here`) and the baselines in `file` of the `tests` the run measures
/// (another kernel, a rustc or perfmark patch release): each such
/// [`MachineMatch`](crate::baseline::MachineMatch) once, in the order of
/// the tests, for the header.
fn machine_notes(
    file: &BaselineFile,
    tests: impl Iterator<Item = String>,
    here: &Fingerprint,
) -> Vec<EnvironmentWarning> {
    let mut notes: Vec<MachineMatch> = Vec::new();
    for test in tests {
        let note = file
            .get(&test)
            .map(|entry| here.compare(entry.fingerprint()))
            .filter(MachineMatch::has_note);
        if let Some(note) = note.filter(|n| !notes.iter().any(|m| m.notes().eq(n.notes()))) {
            notes.push(note);
        }
    }
    notes
        .into_iter()
        .map(|m| EnvironmentWarning::BaselineNote(Box::new(m)))
        .collect()
}

/// The directory cargo builds into, for this test binary run from
/// `manifest_dir`.
fn target_dir(manifest_dir: &Path) -> PathBuf {
    target_dir_of(
        std::env::var_os("CARGO_TARGET_DIR").as_deref(),
        std::env::current_exe().ok().as_deref(),
        manifest_dir,
    )
}

/// The directory cargo builds into, from `CARGO_TARGET_DIR` (`var`), the
/// test binary's path (`exe`) and its package's directory:
///
/// - an absolute `CARGO_TARGET_DIR`;
/// - a relative one is what cargo resolved against the directory it was
///   started in, which a test binary (run in its package's directory) does
///   not know: the nearest ancestor of `exe` whose path ends with it (the
///   executable lies inside it), else it under `manifest_dir`;
/// - unset: the ancestor of `exe` above `<profile>/deps/`, else
///   `<manifest dir>/target`.
fn target_dir_of(var: Option<&OsStr>, exe: Option<&Path>, manifest_dir: &Path) -> PathBuf {
    if let Some(dir) = var.map(Path::new) {
        if dir.is_absolute() {
            return dir.to_path_buf();
        }
        let named: PathBuf = dir
            .components()
            .filter(|c| !matches!(c, Component::CurDir))
            .collect();
        let holding = exe
            .filter(|_| named.components().next().is_some())
            // Above `<profile>/deps/`, where the binary lies.
            .and_then(|exe| exe.ancestors().skip(3).find(|a| a.ends_with(&named)));
        return holding.map_or_else(|| manifest_dir.join(dir), Path::to_path_buf);
    }
    exe.and_then(|exe| {
        let deps = exe.parent()?;
        (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(Path::to_path_buf))?
    })
    .unwrap_or_else(|| manifest_dir.join("target"))
}

#[cfg(test)]
mod target_dir_tests {
    use super::*;

    fn of(var: Option<&str>, exe: &str) -> PathBuf {
        target_dir_of(
            var.map(OsStr::new),
            Some(Path::new(exe)),
            Path::new("/work/app/bench"),
        )
    }

    #[test]
    fn the_target_dir_is_the_one_cargo_built_this_binary_in() {
        let exe = "/work/app/build/out/release/deps/perf-0123abcd";
        // Unset: above `<profile>/deps/`.
        assert_eq!(of(None, exe), Path::new("/work/app/build/out"));
        // Absolute: as given.
        assert_eq!(of(Some("/elsewhere/t"), exe), Path::new("/elsewhere/t"));
        // Relative: cargo resolved it against where it was started (here
        // `/work/app`), not the package's directory; the executable is in it.
        assert_eq!(of(Some("build/out"), exe), Path::new("/work/app/build/out"));
        assert_eq!(of(Some("./out"), exe), Path::new("/work/app/build/out"));
        // With `--target <triple>` the profile sits one level deeper.
        let cross = "/work/app/out/x86_64-unknown-linux-gnu/release/deps/perf-1";
        assert_eq!(of(Some("out"), cross), Path::new("/work/app/out"));
        // A directory named like the profile is not taken for the profile.
        let named_release = "/work/app/release/release/deps/perf-2";
        assert_eq!(
            of(Some("release"), named_release),
            Path::new("/work/app/release")
        );
        // A relative directory the executable is not in (`..`, or a binary
        // copied elsewhere): under the package's directory, as before.
        assert_eq!(
            of(Some("../t"), "/copied/perf"),
            Path::new("/work/app/bench/../t")
        );
        assert_eq!(
            target_dir_of(None, None, Path::new("/work/app/bench")),
            Path::new("/work/app/bench/target")
        );
    }
}
