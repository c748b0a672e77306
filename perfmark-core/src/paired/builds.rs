//! The two builds of a compare run: the base's links (`--compare-with`)
//! and the head's (`--head-layout`, or this binary), greeted once at the
//! start of the run, and which tests they share.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::worker::greeting;
use crate::worker::Side;
use crate::Error;

/// What compare mode knows for the whole run.
#[derive(Debug)]
pub(crate) struct Comparing {
    /// The base build's links (one or more; `--compare-with`, each).
    pub base: Vec<PathBuf>,
    /// The head build's links: those `--head-layout` names, or this binary.
    pub head: Vec<PathBuf>,
    /// The base's perf tests.
    pub base_tests: BTreeSet<String>,
    /// Whether the head and the base were built with their layout pinned.
    pub pinned: (bool, bool),
    /// Tests of this run that will be compared (selected, run, in both).
    pub compared: usize,
}

impl Comparing {
    /// Greets every link of the base (an error names one that is not a
    /// perfmark test binary of this protocol, or whose tests differ from
    /// the first link's) and of the head (`head_layouts`, whose tests must
    /// be this binary's; this binary itself when none is given).
    pub fn start(
        base: &[PathBuf],
        head_layouts: &[PathBuf],
        own_tests: &BTreeSet<String>,
    ) -> Result<Self, Error> {
        let first = base.first().ok_or_else(|| {
            Error::usage("--compare-with needs the path of another build of this test target")
        })?;
        let base_greeting = greeting(first, Side::Base)?;
        let base_tests: BTreeSet<String> = base_greeting.tests.into_iter().collect();
        let mut base_pinned = base_greeting.pinned;
        for link in &base[1..] {
            base_pinned &= same_build(link, Side::Base, &base_tests, first)?;
        }
        let mut head_pinned = crate::worker::layout::pinned();
        let head = if head_layouts.is_empty() {
            vec![std::env::current_exe().map_err(|e| {
                Error::worker(
                    Side::Head,
                    Path::new("<this test binary>"),
                    format!("cannot be found to start its workers: {e}"),
                )
            })?]
        } else {
            for link in head_layouts {
                head_pinned &= same_build(link, Side::Head, own_tests, Path::new("this binary"))?;
            }
            head_layouts.to_vec()
        };
        Ok(Comparing {
            base: base.to_vec(),
            head,
            base_tests,
            pinned: (head_pinned, base_pinned),
            compared: 0,
        })
    }

    /// Links of each side, as the run's header and report state them.
    pub fn links(&self) -> (usize, usize) {
        (self.head.len(), self.base.len())
    }

    /// Whether the base has `name`.
    pub fn has(&self, name: &str) -> bool {
        self.base_tests.contains(name)
    }
}

/// Greets `link`, which must be another link of the build whose tests are
/// `tests` (as `like` is); returns whether it is pinned.
fn same_build(
    link: &Path,
    side: Side,
    tests: &BTreeSet<String>,
    like: &Path,
) -> Result<bool, Error> {
    let g = greeting(link, side)?;
    let theirs: BTreeSet<String> = g.tests.into_iter().collect();
    if &theirs != tests {
        return Err(Error::worker(
            side,
            link,
            format!(
                "has other perf tests than {}: the links of one side must be the same build \
                 linked in other orders",
                like.display()
            ),
        ));
    }
    Ok(g.pinned)
}
