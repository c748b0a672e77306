//! The run's counting step (`--instructions`): after a test is timed, its
//! instructions are counted under Callgrind, and the base build's too in
//! a paired comparison; the counts are judged ([`super::judge`]).

use crate::registry::PerfTest;
use crate::runner::outcome::Outcome;
use crate::runner::setup::Setup;
use crate::runner::Runner;

impl Runner {
    /// Counts the instructions of a test this run measured, under the
    /// run's valgrind (`--instructions`), and of the base build's test in
    /// a paired comparison; the count is compared with the stored
    /// baseline's when the baseline was counted by the same compiler
    /// ([`crate::instructions`]). A test with an `instructions` limit in a
    /// run that does not count (or a build without the `instructions`
    /// feature) says that the limit was not checked.
    pub(crate) fn count_instructions(&self, t: &PerfTest, outcome: &mut Outcome, setup: &Setup) {
        let measured =
            outcome.measured.measurement.is_some() || outcome.judged.comparison.is_some();
        if outcome.hung || outcome.measured.panic.is_some() || !measured {
            return;
        }
        #[cfg(feature = "instructions")]
        if let Some(valgrind) = &setup.valgrind {
            self.count_with(valgrind, t, outcome, setup);
            return;
        }
        #[cfg(not(feature = "instructions"))]
        let _ = setup;
        if let Some(limit) = t.options.instructions {
            outcome.judged.record(super::limit_not_checked(limit));
        }
    }

    /// [`Runner::count_instructions`] for a measured test, under `valgrind`.
    #[cfg(feature = "instructions")]
    fn count_with(
        &self,
        valgrind: &super::Valgrind,
        t: &PerfTest,
        outcome: &mut Outcome,
        setup: &Setup,
    ) {
        let judged = &mut outcome.judged;
        let limit = t.options.instructions;
        let name = outcome.name.clone();
        let k = super::block_iters(judged.estimate.as_ref().map_or(f64::NAN, |e| e.ns_per_iter));
        // A paired run keeps both builds' profiles for the flame graphs.
        let keep = |side: &str| {
            setup.comparing.as_ref().filter(|c| c.has(&name)).map(|_| {
                let stem = super::profile::profile_file_stem(&name);
                setup
                    .report_dir
                    .join("profiles")
                    .join(format!("{stem}.{side}.callgrind"))
            })
        };
        let counted = std::env::current_exe()
            .map_err(|e| format!("this test binary cannot be found to count it: {e}"))
            .and_then(|me| super::count(valgrind, &me, &name, k, limit, keep("head").as_deref()));
        let entry = setup
            .baselines
            .as_ref()
            .filter(|_| !self.options.save_baseline)
            .and_then(|file| file.get(&name));
        let stored = entry
            .filter(|e| e.fingerprint().rustc == setup.fingerprint.rustc)
            .and_then(|e| e.instructions());
        let base = setup.comparing.as_ref().filter(|c| c.has(&name)).map(|c| {
            super::count(
                valgrind,
                &c.base[0],
                &name,
                k,
                None,
                keep("base").as_deref(),
            )
        });
        let tolerance = self.count_tolerance(t);
        let counts = super::judge::judge(counted, limit, stored, base, tolerance);
        judged.instructions = counts.count;
        judged.warnings.extend(counts.warnings);
        for finding in counts.findings {
            judged.record(finding);
        }
        if let Some(other) = entry.filter(|e| {
            e.instructions().is_some() && e.fingerprint().rustc != setup.fingerprint.rustc
        }) {
            judged
                .warnings
                .push(crate::checks::Warning::CountByOtherCompiler {
                    rustc: other.fingerprint().rustc.clone(),
                });
        }
    }
}
