//! The worker processes' sentences ([`crate::processes`]).

/// The warning of a test whose processes differ more than this machine's
/// history for it allows: `tau_own` is the between-process sd this run
/// measured, `history` the one its history gives (both on the log scale).
pub(crate) fn beyond_history(tau_own: f64, history: f64, processes: usize) -> String {
    format!(
        "its processes differ by {:.1}% (sd between processes), more than this machine's \
         history for it allows ({:.1}%): the interval rests on this run's {processes} \
         processes alone; a state of the process (where its pages or its CPU landed) moves \
         this test",
        100.0 * tau_own.exp_m1(),
        100.0 * history.exp_m1()
    )
}
