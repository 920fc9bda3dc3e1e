//! Whether the AppContainer's network isolation is actually enforced on this machine
//! (issue 45), for the selftest.
//!
//! The worker's token holds no network capability, but it is the Windows Firewall service
//! (`mpssvc`, Windows Defender Firewall) whose AppContainer filters refuse its connections:
//! with that service stopped, nothing refuses them; and a loopback exemption for the
//! container (`CheckNetIsolation LoopbackExempt -a`, `NetworkIsolationSetAppContainerConfig`)
//! lets it reach servers on this machine. The token alone says neither, so the selftest
//! asks the Service Control Manager for the service's state and the firewall for the
//! exempted containers, and fails its `network isolation` check when either would defeat
//! the isolation. The TCP canary still tries a real connection.
//!
//! [`verdict`] is the pure half, tested on every OS; [`observe`] (Windows) asks the system.

/// `SERVICE_RUNNING` (`winsvc.h`).
pub const SERVICE_RUNNING: u32 = 4;

/// The firewall service's name.
pub const FIREWALL_SERVICE: &str = "mpssvc";

/// What was found about the firewall: the service's `dwCurrentState` (`Err`: why it could
/// not be read) and the loopback-exempt container SIDs (`Err`: why they could not be read).
#[derive(Debug)]
pub struct FirewallFacts {
    pub service_state: Result<u32, CallFailed>,
    pub loopback_exempt: Result<Vec<String>, CallFailed>,
}

/// A fact the system would not give: the call that failed and its error.
#[derive(Debug, thiserror::Error)]
#[error("{call}: {source}")]
pub struct CallFailed {
    pub call: &'static str,
    #[source]
    pub source: std::io::Error,
}

/// The check's verdict and its sentence, for the worker's AppContainer `container_sid`.
/// Only a running service and no exemption of this container pass; what cannot be read
/// fails too (the isolation is then not shown to hold).
pub fn verdict(facts: &FirewallFacts, container_sid: &str) -> (bool, String) {
    let mut ok = true;
    let mut parts = Vec::new();
    match &facts.service_state {
        Ok(SERVICE_RUNNING) => parts.push(format!(
            "the firewall service ({FIREWALL_SERVICE}) is running: it enforces the \
             AppContainer's network isolation"
        )),
        Ok(state) => {
            ok = false;
            parts.push(format!(
                "the firewall service ({FIREWALL_SERVICE}) is not running (state {state}): \
                 nothing refuses the worker's connections; start Windows Defender Firewall"
            ));
        }
        Err(why) => {
            ok = false;
            parts.push(format!(
                "the firewall service's state could not be read ({why})"
            ));
        }
    }
    match &facts.loopback_exempt {
        Ok(sids) if sids.iter().any(|s| s.eq_ignore_ascii_case(container_sid)) => {
            ok = false;
            parts.push(format!(
                "the worker's AppContainer {container_sid} is exempt from loopback isolation: \
                 it can reach servers on this machine; remove it with `CheckNetIsolation \
                 LoopbackExempt -d -p={container_sid}`"
            ));
        }
        Ok(sids) => parts.push(format!(
            "no loopback exemption for the worker's AppContainer ({} other container(s) \
             exempt)",
            sids.len()
        )),
        Err(why) => {
            ok = false;
            parts.push(format!("the loopback exemptions could not be read ({why})"));
        }
    }
    (ok, parts.join("; "))
}

/// Ask the Service Control Manager and the firewall.
#[cfg(windows)]
pub fn observe() -> FirewallFacts {
    FirewallFacts {
        service_state: system::service_state(FIREWALL_SERVICE),
        loopback_exempt: system::loopback_exempt(),
    }
}

#[cfg(windows)]
mod system {
    use super::super::owned::{sid_string, wide};
    use super::CallFailed;
    use std::ffi::OsStr;
    use windows_sys::Win32::Foundation::ERROR_SUCCESS;
    use windows_sys::Win32::NetworkManagement::WindowsFirewall::NetworkIsolationGetAppContainerConfig;
    use windows_sys::Win32::Security::SID_AND_ATTRIBUTES;
    use windows_sys::Win32::System::Memory::{GetProcessHeap, HeapFree};
    use windows_sys::Win32::System::Services::{
        CloseServiceHandle, OpenSCManagerW, OpenServiceW, QueryServiceStatus, SC_MANAGER_CONNECT,
        SERVICE_QUERY_STATUS, SERVICE_STATUS,
    };

    /// A service-manager handle closed on drop.
    struct ServiceHandle(windows_sys::Win32::System::Services::SC_HANDLE);

    impl Drop for ServiceHandle {
        fn drop(&mut self) {
            // SAFETY: a handle returned open by OpenSCManagerW/OpenServiceW, closed once.
            unsafe { CloseServiceHandle(self.0) };
        }
    }

    fn error(call: &'static str) -> CallFailed {
        CallFailed {
            call,
            source: std::io::Error::last_os_error(),
        }
    }

    pub(super) fn service_state(name: &str) -> Result<u32, CallFailed> {
        // SAFETY: null machine and database name: the local, active database.
        let manager =
            unsafe { OpenSCManagerW(std::ptr::null(), std::ptr::null(), SC_MANAGER_CONNECT) };
        if manager.is_null() {
            return Err(error("OpenSCManagerW"));
        }
        let manager = ServiceHandle(manager);
        let name = wide(OsStr::new(name));
        // SAFETY: a live manager handle; a NUL-terminated name.
        let service = unsafe { OpenServiceW(manager.0, name.as_ptr(), SERVICE_QUERY_STATUS) };
        if service.is_null() {
            return Err(error("OpenServiceW"));
        }
        let service = ServiceHandle(service);
        // SAFETY: all-zero is a valid value of this plain-data struct.
        let mut status: SERVICE_STATUS = unsafe { std::mem::zeroed() };
        // SAFETY: a live service handle opened with SERVICE_QUERY_STATUS; a valid out-pointer.
        if unsafe { QueryServiceStatus(service.0, &mut status) } == 0 {
            return Err(error("QueryServiceStatus"));
        }
        Ok(status.dwCurrentState)
    }

    pub(super) fn loopback_exempt() -> Result<Vec<String>, CallFailed> {
        let mut count = 0u32;
        let mut sids: *mut SID_AND_ATTRIBUTES = std::ptr::null_mut();
        // SAFETY: valid out-pointers; on success `sids` is an array of `count` entries
        // allocated on the process heap, freed below as Microsoft's sample frees it.
        let rc = unsafe { NetworkIsolationGetAppContainerConfig(&mut count, &mut sids) };
        if rc != ERROR_SUCCESS {
            return Err(CallFailed {
                call: "NetworkIsolationGetAppContainerConfig",
                source: std::io::Error::from_raw_os_error(rc as i32),
            });
        }
        let mut out = Vec::new();
        if sids.is_null() {
            return Ok(out);
        }
        // SAFETY: the process heap; every SID and the array were allocated there by the call.
        unsafe {
            let heap = GetProcessHeap();
            for i in 0..count as usize {
                let entry = *sids.add(i);
                out.extend(sid_string(entry.Sid));
                HeapFree(heap, 0, entry.Sid);
            }
            HeapFree(heap, 0, sids.cast());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: &str = "S-1-15-2-1-2-3-4-5-6-7";

    fn facts(
        state: Result<u32, CallFailed>,
        exempt: Result<Vec<String>, CallFailed>,
    ) -> FirewallFacts {
        FirewallFacts {
            service_state: state,
            loopback_exempt: exempt,
        }
    }

    #[test]
    fn a_running_firewall_without_our_exemption_passes() {
        let others = vec!["S-1-15-2-9-9-9-9-9-9-9".to_owned()];
        let (ok, detail) = verdict(&facts(Ok(SERVICE_RUNNING), Ok(others)), OURS);
        assert!(ok, "{detail}");
        assert!(detail.contains("is running"), "{detail}");
        assert!(detail.contains("1 other container"), "{detail}");
    }

    #[test]
    fn a_stopped_firewall_fails() {
        let (ok, detail) = verdict(&facts(Ok(1), Ok(vec![])), OURS);
        assert!(!ok);
        assert!(detail.contains("not running (state 1)"), "{detail}");
    }

    #[test]
    fn our_loopback_exemption_fails_in_any_letter_case() {
        let exempt = vec![OURS.to_lowercase()];
        let (ok, detail) = verdict(&facts(Ok(SERVICE_RUNNING), Ok(exempt)), OURS);
        assert!(!ok);
        assert!(detail.contains("LoopbackExempt -d"), "{detail}");
    }

    fn denied(call: &'static str) -> CallFailed {
        CallFailed {
            call,
            source: std::io::Error::new(std::io::ErrorKind::PermissionDenied, "denied"),
        }
    }

    #[test]
    fn what_cannot_be_read_is_not_shown_to_hold() {
        let (ok, detail) = verdict(&facts(Err(denied("OpenSCManagerW")), Ok(vec![])), OURS);
        assert!(!ok);
        assert!(
            detail.contains("state could not be read (OpenSCManagerW: denied)"),
            "{detail}"
        );
        let exempt = Err(denied("NetworkIsolationGetAppContainerConfig"));
        let (ok, detail) = verdict(&facts(Ok(SERVICE_RUNNING), exempt), OURS);
        assert!(!ok);
        assert!(
            detail.contains("could not be read (NetworkIsolationGetAppContainerConfig: denied)"),
            "{detail}"
        );
    }
}
