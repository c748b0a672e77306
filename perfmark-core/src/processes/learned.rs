//! The between-process spread learned on this machine: every test whose
//! workers ran adds its own estimate (DerSimonian–Laird's `τ̂²`, on
//! processes − 1 degrees of freedom) to a small file under the target
//! directory (`target/perfmark/process-spread.json`), keyed by the
//! machine (its CPU model, cores, OS, arch and profile) and the test.
//!
//! A test's prior is its own history on this machine, pooled and capped at
//! [`MAX_TEST_DF`] degrees of freedom so that a machine that changes is
//! followed; a test with no history takes the machine's typical spread
//! (the df-weighted mean over its tests) at [`MACHINE_DF`] degrees of
//! freedom, tests differing as they do; a machine with no history takes
//! [`DEFAULT_PRIOR`]. The file is a cache: one that cannot be read is
//! replaced, and it is written whole, never torn
//! ([`crate::fs::replace_file`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Prior;

/// The prior of a machine with no history: a between-process sd of 2%
/// (the median test's on the 2-core reference machine was 1.0%, the
/// root-mean-square 3.2%) on 1 degree of freedom, so that a run's own
/// processes soon outweigh it.
pub const DEFAULT_PRIOR: Prior = Prior {
    tau2: 0.02 * 0.02,
    df: 1.0,
};

/// The weight a test's own history is capped at: about five runs of four
/// workers.
pub const MAX_TEST_DF: f64 = 20.0;

/// The weight of the machine's typical spread for a test with no history
/// of its own: tests differ (from 0.1% to 20% on the reference machine).
pub const MACHINE_DF: f64 = 4.0;

/// The file's schema version.
const SCHEMA: u32 = 1;

/// One test's learned spread.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Learned {
    /// The pooled between-process variance of log times.
    pub tau2: f64,
    /// Its degrees of freedom.
    pub df: f64,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    schema: u32,
    /// Per machine key, per test.
    machines: BTreeMap<String, BTreeMap<String, Learned>>,
}

/// The learned spreads of one machine, read at a run's start and written
/// back at its end.
#[derive(Debug)]
pub struct Store {
    path: Option<PathBuf>,
    machine: String,
    file: File,
    changed: bool,
}

impl Store {
    /// The store at `path` for the machine `machine` (`None`: nothing is
    /// read or written, the defaults serve). A file that cannot be read or
    /// parsed, or of another schema, is taken as empty.
    pub fn open(path: Option<PathBuf>, machine: String) -> Store {
        let file = path
            .as_deref()
            .and_then(|p| std::fs::read(p).ok())
            .and_then(|bytes| serde_json::from_slice::<File>(&bytes).ok())
            .filter(|f| f.schema == SCHEMA)
            .unwrap_or_default();
        Store {
            path,
            machine,
            file,
            changed: false,
        }
    }

    /// The prior for `test`: its own history, else the machine's typical
    /// spread, else [`DEFAULT_PRIOR`].
    pub fn prior(&self, test: &str) -> Prior {
        let Some(tests) = self.file.machines.get(&self.machine) else {
            return DEFAULT_PRIOR;
        };
        if let Some(l) = tests.get(test).filter(|l| l.df >= 1.0) {
            return Prior {
                tau2: l.tau2,
                df: l.df,
            };
        }
        machine_prior(tests.values()).unwrap_or(DEFAULT_PRIOR)
    }

    /// Adds a run's estimate `tau2` on `df` degrees of freedom to `test`'s
    /// history.
    pub fn learn(&mut self, test: &str, tau2: f64, df: f64) {
        if !(tau2 >= 0.0 && tau2.is_finite() && df >= 1.0) {
            return;
        }
        let tests = self.file.machines.entry(self.machine.clone()).or_default();
        let entry = tests
            .entry(test.to_owned())
            .or_insert(Learned { tau2: 0.0, df: 0.0 });
        *entry = pooled(*entry, Learned { tau2, df });
        self.changed = true;
    }

    /// Writes the store back when anything was learned; errors are the
    /// caller's to report or ignore (the file is a cache).
    pub fn save(&mut self) -> std::io::Result<()> {
        let Some(path) = self.path.as_deref().filter(|_| self.changed) else {
            return Ok(());
        };
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        self.file.schema = SCHEMA;
        let bytes = serde_json::to_vec_pretty(&self.file).map_err(std::io::Error::other)?;
        crate::fs::replace_file(dir, path, &bytes)?;
        self.changed = false;
        Ok(())
    }
}

/// `old` and `new` pooled, the weight capped at [`MAX_TEST_DF`] (older
/// history counts less once the cap is reached).
pub fn pooled(old: Learned, new: Learned) -> Learned {
    let df = old.df + new.df;
    let tau2 = (old.df * old.tau2 + new.df * new.tau2) / df;
    Learned {
        tau2,
        df: df.min(MAX_TEST_DF),
    }
}

/// The machine's typical spread over `tests`: their df-weighted mean
/// variance at [`MACHINE_DF`]; `None` with no history.
fn machine_prior<'a>(tests: impl Iterator<Item = &'a Learned>) -> Option<Prior> {
    let (mut sum, mut df) = (0.0, 0.0);
    for l in tests {
        sum += l.tau2 * l.df;
        df += l.df;
    }
    (df > 0.0).then(|| Prior {
        tau2: sum / df,
        df: MACHINE_DF,
    })
}

/// Where a test binary at `exe` keeps the file: `target/perfmark/` of the
/// target directory cargo built it in (`target/<profile>/deps/<binary>`),
/// else beside the binary.
pub fn path_for(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    let target = if dir.file_name().is_some_and(|n| n == "deps") {
        dir.parent()?.parent()?
    } else {
        dir
    };
    Some(target.join("perfmark").join("process-spread.json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_learns_its_own_spread_and_others_take_the_machines() {
        let dir = std::env::temp_dir().join(format!("perfmark-learned-{}", std::process::id()));
        let path = dir.join("process-spread.json");
        let mut store = Store::open(Some(path.clone()), "m".into());
        assert_eq!(store.prior("a"), DEFAULT_PRIOR);
        store.learn("a", 0.01f64.powi(2), 4.0);
        store.learn("a", 0.03f64.powi(2), 4.0);
        store.save().unwrap();
        let again = Store::open(Some(path.clone()), "m".into());
        let a = again.prior("a");
        assert_eq!(a.df, 8.0);
        assert!((a.tau2 - (0.0001 + 0.0009) / 2.0).abs() < 1e-15);
        // A test with no history: the machine's typical spread, weakly.
        let b = again.prior("b");
        assert_eq!(b.df, MACHINE_DF);
        assert!((b.tau2 - a.tau2).abs() < 1e-15);
        // Another machine learned nothing.
        assert_eq!(
            Store::open(Some(path.clone()), "n".into()).prior("a"),
            DEFAULT_PRIOR
        );
        // A damaged file is a cache miss, then replaced.
        std::fs::write(&path, b"{ not json").unwrap();
        let mut damaged = Store::open(Some(path.clone()), "m".into());
        assert_eq!(damaged.prior("a"), DEFAULT_PRIOR);
        damaged.learn("a", 0.0, 4.0);
        damaged.save().unwrap();
        assert_eq!(Store::open(Some(path), "m".into()).prior("a").df, 4.0);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn history_is_capped_so_a_changed_machine_is_followed() {
        let mut l = Learned { tau2: 0.0, df: 0.0 };
        for _ in 0..20 {
            l = pooled(
                l,
                Learned {
                    tau2: 0.0001,
                    df: 4.0,
                },
            );
        }
        assert_eq!(l.df, MAX_TEST_DF);
        for _ in 0..10 {
            l = pooled(
                l,
                Learned {
                    tau2: 0.01,
                    df: 4.0,
                },
            );
        }
        assert!(l.tau2 > 0.008, "{l:?}");
    }

    #[test]
    fn the_file_sits_in_the_target_directory() {
        let p = path_for(Path::new("/w/target/release/deps/perf-abc")).unwrap();
        assert_eq!(p, Path::new("/w/target/perfmark/process-spread.json"));
        let q = path_for(Path::new("/w/bin/perf")).unwrap();
        assert_eq!(q, Path::new("/w/bin/perfmark/process-spread.json"));
    }
}
