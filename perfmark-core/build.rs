//! Records the compiler's version for the platform header and baseline
//! fingerprints (Sestoft's SystemInfo names the runtime's version too).

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "rustc (unknown version)".to_owned());
    println!("cargo:rustc-env=PERFMARK_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
