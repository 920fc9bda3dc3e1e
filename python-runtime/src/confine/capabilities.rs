//! Linux: no capabilities. A worker started as root (CI, a container, `sudo`) would keep
//! every capability — set the clock, the host name, reboot — so before any other layer it
//! drops them all: the bounding set first (dropping needs `CAP_SETPCAP`, which goes with
//! the rest), then the ambient, inheritable, permitted and effective sets. Root without
//! capabilities is still uid 0, so same-uid checks still pass: the seccomp filter is the
//! wall, this is the second one.
//!
//! Runs first in `linux::apply`, before rlimits, Landlock and seccomp, so the filter never
//! has to allow `capset` or `prctl(PR_CAPBSET_DROP)`. A fork-server child calls it again
//! under the server's filter: its sets are already empty (a fork keeps the server's), so it
//! makes only the one `capget` that finds that out.

use super::LinuxError;

/// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
const VERSION_3: u32 = 0x2008_0522;
/// `CAP_SETPCAP`: lets a process drop capabilities from its bounding set.
const CAP_SETPCAP: u32 = 8;

/// `struct __user_cap_header_struct`.
#[repr(C)]
struct Header {
    version: u32,
    pid: libc::c_int,
}

/// `struct __user_cap_data_struct`, one per 32 capabilities.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Data {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// What the drop found and did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Dropped {
    /// How many capabilities the process held (effective, permitted or inheritable).
    pub held: u32,
    /// Root without `CAP_SETPCAP` (a container that took it away) cannot empty its bounding
    /// set; it only caps what an `execve` could gain, and `execve` is denied and
    /// `no_new_privs` set, so the rest is still dropped and the report names it.
    pub bounding_kept: bool,
}

impl Dropped {
    /// The report's entry, e.g. "capabilities: none (dropped 41)".
    pub(super) fn describe(&self) -> String {
        match self.held {
            0 => "capabilities: none".into(),
            n => format!("capabilities: none (dropped {n})"),
        }
    }
}

/// Drop every capability of this process, irreversibly. Idempotent.
pub(super) fn drop_all() -> Result<Dropped, LinuxError> {
    let held = capget()?;
    let set = |f: fn(&Data) -> u32| u64::from(f(&held[0])) | (u64::from(f(&held[1])) << 32);
    let (effective, permitted) = (set(|d| d.effective), set(|d| d.permitted));
    let any = effective | permitted | set(|d| d.inheritable);
    if any == 0 {
        // The ambient set is a subset of permitted ∩ inheritable: empty too.
        return Ok(Dropped {
            held: 0,
            bounding_kept: false,
        });
    }
    let setpcap = 1u64 << CAP_SETPCAP;
    let bounding_kept = permitted & setpcap == 0;
    if !bounding_kept {
        if effective & setpcap == 0 {
            // A permitted capability may always be made effective.
            let mut raised = held;
            raised[0].effective |= 1 << CAP_SETPCAP;
            capset(&raised)?;
        }
        drop_bounding_set()?;
        // Root no longer gains capabilities by being root, and no ambient capability can
        // be raised again; both locked.
        let bits = libc::SECBIT_NOROOT
            | libc::SECBIT_NOROOT_LOCKED
            | libc::SECBIT_NO_CAP_AMBIENT_RAISE
            | libc::SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED;
        prctl(libc::PR_SET_SECUREBITS, bits as libc::c_ulong, 0)
            .map_err(|e| error("set the secure bits", e))?;
    }
    // EINVAL: a kernel before 4.3 has no ambient set, so nothing to clear.
    if let Err(e) = prctl(
        libc::PR_CAP_AMBIENT,
        libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
        0,
    ) && e.raw_os_error() != Some(libc::EINVAL)
    {
        return Err(error("clear the ambient set", e));
    }
    capset(&[Data::default(); 2])?;
    let after = capget()?;
    if after
        .iter()
        .any(|d| d.effective | d.permitted | d.inheritable != 0)
    {
        return Err(error(
            "verify that none is left",
            std::io::Error::other("the kernel still reports capabilities after capset"),
        ));
    }
    Ok(Dropped {
        held: any.count_ones(),
        bounding_kept,
    })
}

/// Drop every capability the kernel knows from the bounding set (`PR_CAPBSET_READ` answers
/// EINVAL past the last one, so `/proc/sys/kernel/cap_last_cap` need not be read).
fn drop_bounding_set() -> Result<(), LinuxError> {
    for cap in 0..64 {
        match prctl(libc::PR_CAPBSET_READ, cap, 0) {
            Ok(0) => {}
            Ok(_) => {
                prctl(libc::PR_CAPBSET_DROP, cap, 0)
                    .map_err(|e| error("drop the bounding set", e))?;
            }
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => break,
            Err(e) => return Err(error("read the bounding set", e)),
        }
    }
    Ok(())
}

fn capget() -> Result<[Data; 2], LinuxError> {
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    let mut data = [Data::default(); 2];
    // SAFETY: header and data are valid for the kernel's v3 layout (two data structs).
    let rc = unsafe { libc::syscall(libc::SYS_capget, &mut header, data.as_mut_ptr()) };
    if rc != 0 {
        return Err(error("read them", std::io::Error::last_os_error()));
    }
    Ok(data)
}

fn capset(data: &[Data; 2]) -> Result<(), LinuxError> {
    let mut header = Header {
        version: VERSION_3,
        pid: 0,
    };
    // SAFETY: header and data are valid for the kernel's v3 layout; the kernel only reads
    // the data.
    let rc = unsafe { libc::syscall(libc::SYS_capset, &mut header, data.as_ptr()) };
    if rc != 0 {
        return Err(error("set them", std::io::Error::last_os_error()));
    }
    Ok(())
}

fn prctl(
    option: libc::c_int,
    arg2: libc::c_ulong,
    arg3: libc::c_ulong,
) -> std::io::Result<libc::c_int> {
    // SAFETY: the options used here take integer arguments only.
    let rc = unsafe { libc::prctl(option, arg2, arg3, 0 as libc::c_ulong, 0 as libc::c_ulong) };
    if rc < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(rc)
    }
}

fn error(step: &'static str, source: std::io::Error) -> LinuxError {
    LinuxError::Capabilities { step, source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_counts_what_was_dropped() {
        let none = Dropped {
            held: 0,
            bounding_kept: false,
        };
        assert_eq!(none.describe(), "capabilities: none");
        let root = Dropped {
            held: 41,
            bounding_kept: false,
        };
        assert_eq!(root.describe(), "capabilities: none (dropped 41)");
    }

    #[test]
    fn capget_reads_this_process() {
        // The test process may be root (CI) or not; either way the v3 call must work and
        // the effective set must lie within the permitted one.
        let data = capget().map_err(|e| e.to_string()).unwrap();
        for d in data {
            assert_eq!(d.effective & !d.permitted, 0);
        }
    }
}
