//! Valgrind's client requests: the few Callgrind needs, issued with the
//! "special instruction" sequence Valgrind recognises (a run of rotations
//! that leaves the register as it was, then a no-op exchange).
//!
//! Natively the sequence does nothing and the request returns its default
//! (0); under Valgrind the tool answers it. Written here rather than taken
//! from a crate: the maintained crates (`valgrind-requests`, the client
//! requests of gungraun) build against Valgrind's C headers, which a
//! user's machine that never counts would then need just to compile
//! perfmark. The sequence and the request codes are those of Valgrind's
//! `valgrind.h` and `callgrind.h`; only Linux on x86-64 is implemented
//! (the platform perfmark counts on,
//! [`Support::instructions`](crate::platform::Support::instructions));
//! elsewhere every request returns its default.

/// Callgrind's requests: `VG_USERREQ_TOOL_BASE('C', 'T')` plus an offset.
const CALLGRIND_BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
/// Dump the profile so far, with a reason string, and zero it.
const DUMP_STATS_AT: u64 = CALLGRIND_BASE + 3;
/// Turn the collection of events on or off.
const TOGGLE_COLLECT: u64 = CALLGRIND_BASE + 2;
/// Valgrind's core request: how many Valgrinds the program runs under.
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// Issues request `code` with `args`; returns Valgrind's answer, or
/// `default` natively.
#[inline(always)]
fn request(default: u64, code: u64, args: [u64; 5]) -> u64 {
    let block: [u64; 6] = [code, args[0], args[1], args[2], args[3], args[4]];
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    {
        let result: u64;
        // SAFETY: the four rotations of rdi add up to 128 bits, so rdi is
        // unchanged, and `xchg rbx, rbx` exchanges a register with itself:
        // natively the sequence changes no state but rdx, which holds the
        // default on entry and is declared as the output. Under Valgrind,
        // the tool reads the request block through rax (kept alive by the
        // borrow of `block` for the statement) and writes its answer to
        // rdx. Memory is declared clobbered: the tool may read it.
        unsafe {
            std::arch::asm!(
                "rol rdi, 3",
                "rol rdi, 13",
                "rol rdi, 61",
                "rol rdi, 51",
                "xchg rbx, rbx",
                inout("rdx") default => result,
                in("rax") block.as_ptr(),
                options(nostack),
            );
        }
        result
    }
    #[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
    {
        let _ = block;
        default
    }
}

/// How many Valgrinds this process runs under (0 natively).
pub fn running_on_valgrind() -> u64 {
    request(0, RUNNING_ON_VALGRIND, [0; 5])
}

/// Turns Callgrind's collection of events on where it was off, and off
/// where it was on.
#[inline(always)]
pub fn toggle_collect() {
    request(0, TOGGLE_COLLECT, [0; 5]);
}

/// Writes the events collected since the last dump to a profile of its own,
/// described by `reason`, and zeroes them.
pub fn dump_stats_at(reason: &std::ffi::CStr) {
    request(0, DUMP_STATS_AT, [reason.as_ptr() as u64, 0, 0, 0, 0]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natively_every_request_is_a_no_op() {
        // Under `valgrind` the test binary itself would answer 1; the test
        // suite does not run so.
        assert_eq!(running_on_valgrind(), 0);
        toggle_collect();
        toggle_collect();
        dump_stats_at(c"perfmark test");
    }
}
