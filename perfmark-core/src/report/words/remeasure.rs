//! What a failure measured under interference and measured again says:
//! the warning when the second measurement decided, the reason when both
//! were disturbed.

use crate::observe::Interference;

/// The warning of a failure under `first` interference that was measured
/// again and `passed`, or failed again with less interference (a failure
/// under interference again is a reason, [`failed_twice`]).
pub fn remeasured(first: &Interference, passed: bool) -> String {
    let first_words = format!(
        "the first measurement failed while {} of its time was taken by other work ({})",
        first.lost_percent(),
        first.details()
    );
    if passed {
        format!("re-measured: {first_words}; measured again, it passed")
    } else {
        format!(
            "re-measured: {first_words}; measured again with less interference, it failed \
             too: the failure stands"
        )
    }
}

/// The reason of a test that failed under `first` interference and again
/// under `again`: the failure may be the machine's.
pub fn failed_twice(first: &Interference, again: Option<&Interference>) -> String {
    let again = again.map(Interference::lost_percent).unwrap_or_default();
    format!(
        "failed twice under interference ({} then {again} of the time taken by other \
         work): the failure may be the machine's, not the code's; re-run on a quieter \
         machine to confirm",
        first.lost_percent()
    )
}
