//! The Windows plan's pure half, tested on every OS: SIDs and names, the grants, the
//! DACL checks, the environment block and command line, the report.

use super::*;
use crate::pipeline::running::child_env::{RunDirs, TargetOs, child_env};
use std::collections::BTreeMap;

fn plan(src: Option<&str>) -> ConfinePlan {
    let code = vec![
        exe(),
        exe_dir().join("python311.dll"),
        exe_dir().join("runtime"),
    ];
    let mut read_only = code.clone();
    read_only.extend(src.map(PathBuf::from));
    ConfinePlan {
        read_only,
        code,
        executable: exe(),
        runtime: exe_dir().join("runtime"),
        read_write: vec![PathBuf::from(
            r"C:\Users\u\AppData\Local\Temp\pdfagent-run-1",
        )],
        memory_bytes: 4 << 30,
        cpu_seconds: 120,
        file_size_bytes: 256 << 20,
        wall_clock_ms: 0,
        role: Default::default(),
        landlock_scopes: true,
        library_bytes: None,
    }
}

fn exe_dir() -> PathBuf {
    PathBuf::from(r"C:\Users\u\AppData\Local\PDFAgent")
}

fn exe() -> PathBuf {
    exe_dir().join("pdfagent.exe")
}

#[test]
fn sids_match_the_ones_windows_derives() {
    // Microsoft Edge's package family name and its SID, as Windows registers it.
    assert_eq!(
        app_container_sid("Microsoft.MicrosoftEdge_8wekyb3d8bbwe"),
        "S-1-15-2-3624051433-2125758914-1423191267-1740899205-1073925389-3782572162-737981194"
    );
    // The derivation ignores case, as Windows does.
    assert_eq!(
        app_container_sid("microsoft.microsoftedge_8WEKYB3D8BBWE"),
        app_container_sid("Microsoft.MicrosoftEdge_8wekyb3d8bbwe")
    );
    // Chromium's installer grants these two capability SIDs on its install folder.
    assert_eq!(
        capability_sid("chromeInstallFiles"),
        "S-1-15-3-1024-3424233489-972189580-2057154623-747635277-1604371224-316187997-3786583170-1043257646"
    );
    assert_eq!(
        capability_sid("lpacChromeInstallFiles"),
        "S-1-15-3-1024-2302894289-466761758-1166120688-1039016420-2430351297-4240214049-4028510897-3317428798"
    );
}

#[test]
fn the_profile_is_named_after_the_app_identifier() {
    let conf = include_str!("../../../../../src-tauri/tauri.conf.json");
    let conf: serde_json::Value = serde_json::from_str(conf).unwrap();
    let identifier = conf["identifier"].as_str().unwrap();
    assert_eq!(PROFILE_NAME, format!("{identifier}.worker"));
    // CreateAppContainerProfile takes at most 64 characters.
    assert!(PROFILE_NAME.len() <= 64);
}

#[test]
fn the_worker_gets_one_capability_per_run_and_none_for_the_network() {
    let a = capabilities(Path::new(r"C:\T\pdfagent-run-a"));
    let b = capabilities(Path::new(r"C:\T\pdfagent-run-b"));
    assert_eq!(a.len(), 1);
    assert_ne!(a, b, "two runs must not share their file capability");
    assert_eq!(a, capabilities(Path::new(r"C:\T\pdfagent-run-a")));
    for sid in a.iter().chain(&b) {
        assert!(sid.starts_with("S-1-15-3-1024-"), "{sid}");
        assert!(!NETWORK_CAPABILITY_SIDS.contains(&sid.as_str()));
    }
    // Capability names must be plain: letters and digits only.
    let name = run_capability_name(Path::new(r"C:\T\Ordner mit Ümlaut"));
    assert!(name.chars().all(|c| c.is_ascii_alphanumeric()), "{name}");
}

#[test]
fn grants_per_path() {
    let p = plan(Some(r"D:\Daten\Messung 1"));
    let g = grants(&p);
    let container = app_container_sid(PROFILE_NAME);
    let run = capabilities(&p.read_write[0]).remove(0);
    // The executable, its loader DLL and the runtime, one by one: never the folder
    // they are in, where a user's file may lie.
    assert_eq!(g.len(), 5, "{g:#?}");
    for (grant, path) in g.iter().zip(&p.code) {
        assert_eq!(
            grant,
            &Grant {
                path: path.clone(),
                sid: container.clone(),
                access: Access::ReadExecute,
                lifetime: Lifetime::Kept,
                low_label: false,
            }
        );
    }
    assert!(!g.iter().any(|g| g.path == exe_dir()));
    let g = &g[2..];
    assert_eq!(g[1].path, PathBuf::from(r"D:\Daten\Messung 1"));
    assert_eq!(g[1].sid, run);
    assert_eq!(g[1].access, Access::Read);
    assert_eq!(g[1].lifetime, Lifetime::ForTheRun);
    assert_eq!(g[2].path, p.read_write[0]);
    assert_eq!(g[2].sid, run);
    assert_eq!(g[2].access, Access::Full);
    assert!(g[2].low_label);
    // SRC is never executable, never writable.
    const FILE_EXECUTE: u32 = 0x20;
    const FILE_WRITE_DATA: u32 = 0x2;
    assert_eq!(Access::Read.mask() & (FILE_EXECUTE | FILE_WRITE_DATA), 0);
    // Folders of SRC may be traversed (it is the worker's cwd); files are never
    // executable.
    assert_eq!(
        g[1].ace_sddl(),
        format!("(A;OICI;0x120089;;;{0})(A;CI;0x20;;;{0})", g[1].sid)
    );
    assert_eq!(g[2].ace_sddl(), format!("(A;OICI;0x1f01ff;;;{})", g[2].sid));
    // What the host writes is what the check recognises as already there.
    let sddl = format!("D:(A;OICIID;FA;;;SY){}", g[1].ace_sddl());
    assert!(dacl_allows(&sddl, &g[1].sid, Access::Read.mask()));
}

#[test]
fn a_canonical_plan_is_classified_like_a_plain_one() {
    // pipeline::job::plan canonicalises the executable; the plan's `code` may be given
    // plainly.
    let mut p = plan(Some(r"\\?\D:\Daten"));
    p.read_only[0] = PathBuf::from(r"\\?\C:\Users\u\AppData\Local\PDFAgent\pdfagent.exe");
    p.read_only[2] = PathBuf::from(r"\\?\C:\Users\u\AppData\Local\PDFAgent\runtime");
    let g = grants(&p);
    assert_eq!(g.len(), 5, "{g:#?}");
    assert!(g[..3].iter().all(|g| g.lifetime == Lifetime::Kept));
    assert_eq!(g[0].access, Access::ReadExecute);
    assert_eq!(g[3].lifetime, Lifetime::ForTheRun);
}

#[test]
fn a_runtime_outside_the_install_folder_gets_its_own_kept_grant() {
    let mut p = plan(None);
    p.read_only[2] = PathBuf::from(r"C:\src\pdfagent\python-runtime\dist");
    p.code[2] = p.read_only[2].clone();
    let g = grants(&p);
    assert_eq!(g.len(), 4, "{g:#?}");
    assert!(g[..3].iter().all(|g| g.lifetime == Lifetime::Kept));
    assert_eq!(g[3].lifetime, Lifetime::WithTheRunDir);
}

#[test]
fn a_file_grant_inherits_nothing() {
    assert_eq!(
        Access::ReadExecute.file_entries(),
        [(Access::ReadExecute.mask(), 0)]
    );
}

#[test]
fn paths_compare_as_windows_compares_them() {
    let dir = Path::new(r"C:\Program Files\PDFAgent");
    assert!(within(Path::new(r"c:\program files\pdfagent\runtime"), dir));
    assert!(within(Path::new(r"C:/Program Files/PDFAgent/"), dir));
    assert!(within(dir, dir));
    assert!(!within(Path::new(r"C:\Program Files\PDFAgent2"), dir));
    assert!(!within(Path::new(r"C:\Program Files"), dir));
    // `canonicalize` (the plan's exe folder) gives verbatim paths.
    assert!(within(
        Path::new(r"\\?\C:\Program Files\PDFAgent\runtime"),
        dir
    ));
    assert!(within(
        Path::new(r"\\?\UNC\srv\share\data"),
        Path::new(r"\\srv\share")
    ));
    assert!(!within(Path::new(r"\\?\D:\Program Files\PDFAgent"), dir));
}

#[test]
fn the_installers_grant_is_the_runs_lasting_grants_and_needs_no_run() {
    let p = plan(Some(r"D:\Daten"));
    let kept: Vec<Grant> = grants(&p)
        .into_iter()
        .filter(|g| g.lifetime == Lifetime::Kept)
        .collect();
    assert_eq!(kept_grants(&p), kept);
    assert_eq!(kept.len(), 3, "{kept:#?}");
    // No run directory: still the same lasting grants, and never SRC.
    let mut without_run = p.clone();
    without_run.read_write.clear();
    assert_eq!(kept_grants(&without_run), kept);
    assert!(kept.iter().all(|g| g.path != Path::new(r"D:\Daten")));
}

#[test]
fn no_grant_without_a_run_directory() {
    let mut p = plan(None);
    p.read_write.clear();
    assert!(grants(&p).is_empty());
}

#[test]
fn dacl_check_reads_program_files_acls() {
    let container = app_container_sid(PROFILE_NAME);
    // `Program Files\PDFAgent` as a per-machine MSI leaves it (inherited from
    // `Program Files`): every AppContainer reads and executes.
    let program_files = "O:SYG:SYD:AI(A;OICIIO;GA;;;CO)(A;ID;0x1301bf;;;SY)\
         (A;OICIIOID;GA;;;SY)(A;ID;0x1200a9;;;BU)(A;ID;0x1200a9;;;AC)(A;OICIIOID;GXGR;;;AC)";
    assert!(dacl_allows(
        program_files,
        &container,
        Access::ReadExecute.mask()
    ));
    // A per-user folder under %LOCALAPPDATA%: only the user, SYSTEM, Administrators.
    let local = "O:S-1-5-21-1-2-3-1001D:(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)\
         (A;OICIID;FA;;;S-1-5-21-1-2-3-1001)";
    assert!(!dacl_allows(local, &container, Access::ReadExecute.mask()));
    // After our grant.
    let granted = format!("{local}(A;OICI;0x1200a9;;;{container})");
    assert!(dacl_allows(
        &granted,
        &container,
        Access::ReadExecute.mask()
    ));
    // Another container's grant is not ours.
    let other = format!("{local}(A;OICI;0x1200a9;;;{})", app_container_sid("x"));
    assert!(!dacl_allows(&other, &container, Access::ReadExecute.mask()));
    // Read alone is not read and execute; an inherit-only ACE does not cover the folder.
    let read_only = format!("{local}(A;OICI;FR;;;AC)");
    assert!(!dacl_allows(
        &read_only,
        &container,
        Access::ReadExecute.mask()
    ));
    assert!(dacl_allows(&read_only, &container, Access::Read.mask()));
    let inherit_only = format!("{local}(A;OICIIO;GRGX;;;AC)");
    assert!(!dacl_allows(&inherit_only, &container, Access::Read.mask()));
    // A deny for all application packages wins.
    let denied = format!("D:(D;;FA;;;AC)(A;;FA;;;{container})");
    assert!(!dacl_allows(&denied, &container, Access::Read.mask()));
    // The SACL part is not read as DACL.
    let sacl_only = format!("D:(A;;FA;;;SY)S:(A;;FA;;;{container})");
    assert!(!dacl_allows(&sacl_only, &container, Access::Read.mask()));
    assert!(!dacl_allows("O:SY", &container, Access::Read.mask()));
}

#[test]
fn environment_block_is_sorted_deduplicated_and_double_nul_terminated() {
    let vars = vec![
        ("b".to_owned(), "2".to_owned()),
        ("SystemRoot".to_owned(), r"C:\Windows".to_owned()),
        ("A".to_owned(), "1".to_owned()),
        ("SYSTEMROOT".to_owned(), r"D:\Win".to_owned()),
        ("=C:".to_owned(), r"C:\".to_owned()),
        ("".to_owned(), "x".to_owned()),
        ("Pfad".to_owned(), "Ä ü".to_owned()),
    ];
    let block = environment_block(&vars);
    let text = String::from_utf16(&block).unwrap();
    assert_eq!(text, "A=1\0b=2\0Pfad=Ä ü\0SYSTEMROOT=D:\\Win\0\0");
    assert_eq!(environment_block(&[]), vec![0, 0]);
}

#[test]
fn the_stop_event_is_per_run_and_stays_with_the_launcher() {
    let a = stop_event_name(42, Path::new(r"C:\T\pdfagent-run-a"));
    let b = stop_event_name(42, Path::new(r"C:\T\pdfagent-run-b"));
    assert!(a.starts_with(r"Local\pdfagent-stop-42-"), "{a}");
    assert_ne!(a, b);
    assert!(!a[6..].contains('\\'), "one name, no sub-namespace: {a}");
    let vars = contained_vars(
        vec![
            ("pdfagent_stop".into(), a.clone()),
            ("TEMP".into(), r"C:\T\run".into()),
        ],
        r"C:\T\run\script.py",
        "{}",
    );
    assert!(!vars.iter().any(|(_, v)| *v == a), "{vars:?}");
    let names: Vec<&str> = vars.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        names,
        ["TEMP", "PDFAGENT_PYRUN", "PDFAGENT_CONFINE", CONTAINED_ENV]
    );
}

#[test]
fn command_line_quotes_the_executable() {
    assert_eq!(
        command_line(r"C:\Program Files\PDFAgent\pdfagent.exe"),
        r#""C:\Program Files\PDFAgent\pdfagent.exe""#
    );
}

#[test]
fn a_reused_host_id_is_not_the_host() {
    assert!(is_the_host(100, 200));
    assert!(is_the_host(200, 200));
    assert!(!is_the_host(300, 200));
}

#[test]
fn the_worker_environment_points_only_into_the_writable_run_directory() {
    let p = plan(Some(r"D:\Daten"));
    let run_dir = p.read_write[0].clone();
    let env = child_env(
        TargetOs::Windows,
        &BTreeMap::from([("SystemRoot".to_owned(), r"C:\Windows".to_owned())]),
        &RunDirs {
            run_dir: run_dir.clone(),
            mpl_config_dir: PathBuf::from(format!(r"{}\mplconfig", run_dir.display())),
        },
    );
    assert_eq!(env["SystemRoot"], r"C:\Windows");
    let full: Vec<Grant> = grants(&p)
        .into_iter()
        .filter(|g| g.access == Access::Full)
        .collect();
    for var in ["TEMP", "TMP", "MPLCONFIGDIR", "HOME", "USERPROFILE"] {
        let value = &env[var];
        assert!(
            full.iter()
                .any(|g| value.starts_with(&*g.path.to_string_lossy())),
            "`{var}={value}` is not inside a folder the container may write"
        );
    }
}

const USER: &str = "S-1-5-21-1-2-3-1001";

/// The worker's objects as the launcher sets them up for the plan's run.
fn contained(caps: Vec<String>, job: Option<JobFacts>) -> Observed {
    let sddl = worker_object_sddl(USER, &plan(None).read_write[0]);
    Observed {
        app_container: Some(app_container_sid(PROFILE_NAME)),
        capabilities: caps,
        job,
        process_dacl: Some(sddl.clone()),
        thread_dacl: Some(sddl.clone()),
        default_dacl: Some(sddl),
    }
}

/// Issue 27: two workers at once (a figure and the window's warm worker) share the
/// profile's package SID; only this run's capability may open this run's objects.
#[test]
fn a_worker_can_open_itself_and_no_other_worker_can() {
    let run_a = Path::new(r"C:\T\pdfagent-run-a");
    let run_b = Path::new(r"C:\T\pdfagent-run-b");
    let cap_a = capabilities(run_a).remove(0);
    let cap_b = capabilities(run_b).remove(0);
    let package = app_container_sid(PROFILE_NAME);
    let sddl = worker_object_sddl(USER, run_a);
    assert_eq!(
        sddl,
        format!("D:P(A;;GA;;;SY)(A;;GA;;;{USER})(A;;GA;;;{cap_a})(A;;RC;;;OW)")
    );
    // The AppContainer half: worker A's own capability gets in, worker B's does not,
    // nor does the package SID both hold or `ALL APPLICATION PACKAGES`.
    assert!(dacl_allows(&sddl, &cap_a, FILE_ALL_ACCESS));
    assert!(!dacl_allows(&sddl, &cap_b, 0x1));
    assert!(!dacl_allows(&sddl, &package, 0x1));
    assert!(open_to_other_containers(&sddl, Some(&cap_a)).is_empty());
    // The user half: the host and the launcher (the user, medium integrity) and
    // SYSTEM keep their access; the owner's implicit rights shrink to reading the
    // descriptor (no WRITE_DAC: no rewriting it); nothing else is named.
    const WRITE_DAC: u32 = 0x0004_0000;
    let granted: Vec<(String, u32)> = aces(dacl_part(&sddl).unwrap())
        .map(|ace| {
            let f: Vec<&str> = ace.split(';').collect();
            (f[5].to_owned(), rights_mask(f[2]))
        })
        .collect();
    assert_eq!(granted.len(), 4, "{granted:?}");
    let owner = granted
        .iter()
        .find(|(t, _)| t == "OW")
        .expect("OWNER RIGHTS");
    assert_ne!(owner.1, 0);
    assert_eq!(
        owner.1 & WRITE_DAC,
        0,
        "the owner must not rewrite the DACL"
    );
    for (trustee, _) in &granted {
        assert!(["SY", USER, cap_a.as_str(), "OW"].contains(&trustee.as_str()));
    }
    // Seen from run B's side, A's objects are another run's.
    assert_eq!(
        open_to_other_containers(&sddl, Some(&cap_b)),
        [cap_a.as_str()]
    );
}

#[test]
fn the_default_lowbox_dacl_lets_every_worker_in() {
    let package = app_container_sid(PROFILE_NAME);
    let own = capabilities(Path::new(r"C:\T\pdfagent-run-a")).remove(0);
    // The shape of an AppContainer process's default DACL: user, SYSTEM, logon
    // session, and the package SID every worker of the profile holds.
    let lowbox =
        format!("D:(A;;GA;;;{USER})(A;;GA;;;SY)(A;;GXGR;;;S-1-5-5-0-123456)(A;;GA;;;{package})");
    assert_eq!(
        open_to_other_containers(&lowbox, Some(&own)),
        [package.as_str()]
    );
    let all_packages = format!("D:(A;;GA;;;{USER})(A;;0x1fffff;;;AC)(A;;GA;;;{own})");
    assert_eq!(open_to_other_containers(&all_packages, Some(&own)), ["AC"]);
    let network_cap = format!("D:(A;;GA;;;{USER})(A;;GA;;;S-1-15-3-1)");
    assert_eq!(
        open_to_other_containers(&network_cap, Some(&own)),
        ["S-1-15-3-1"]
    );
    // Not AppContainer SIDs, and a deny: nothing for the AppContainer half.
    let plain = format!("D:(A;;GA;;;WD)(A;;GA;;;BA)(D;;GA;;;{package})(A;;GA;;;{own})");
    assert!(open_to_other_containers(&plain, Some(&own)).is_empty());
    // Without a run there is no own capability: every capability is another's.
    assert_eq!(open_to_other_containers(&plain, None), [own.as_str()]);
    // No DACL, or a null one, lets everyone in.
    assert_eq!(
        open_to_other_containers("O:SY", None),
        ["everyone (no DACL)"]
    );
    assert_eq!(
        open_to_other_containers("D:NO_ACCESS_CONTROL", Some(&own)),
        ["everyone (a null DACL)"]
    );
    assert_eq!(
        open_to_other_containers("D:PNO_ACCESS_CONTROL", Some(&own)),
        ["everyone (a null DACL)"]
    );
}

#[test]
fn report_names_a_worker_object_open_to_other_workers() {
    let p = plan(None);
    let good = contained(capabilities(&p.read_write[0]), Some(full_job()));
    let r = describe(&good, &p);
    assert!(
        r.summary.contains("other workers kept out"),
        "{}",
        r.summary
    );
    assert!(
        !r.missing.iter().any(|m| m.starts_with("other workers")),
        "{r:?}"
    );
    let package = app_container_sid(PROFILE_NAME);
    let leaky = Observed {
        default_dacl: Some(format!("D:(A;;GA;;;{USER})(A;;GA;;;{package})")),
        thread_dacl: None,
        ..good
    };
    let r = describe(&leaky, &p);
    let line = r
        .missing
        .iter()
        .find(|m| m.starts_with("other workers kept out"))
        .unwrap_or_else(|| panic!("{r:?}"));
    assert!(
        line.contains(&format!("default DACL lets in {package}")),
        "{line}"
    );
    assert!(line.contains("the thread DACL could not be read"), "{line}");
}

fn full_job() -> JobFacts {
    JobFacts {
        ui_restrictions: Some(0xff),
        kill_on_close: true,
        active_process_limit: Some(1),
        memory_bytes: Some(4 << 30),
        cpu_seconds: Some(120),
    }
}

#[test]
fn report_names_what_the_token_and_job_enforce() {
    let p = plan(None);
    let r = describe(
        &contained(capabilities(&p.read_write[0]), Some(full_job())),
        &p,
    );
    assert!(r.summary.contains("AppContainer"), "{}", r.summary);
    assert!(r.summary.contains("no network capability"), "{}", r.summary);
    assert!(r.summary.contains("no child processes"), "{}", r.summary);
    assert!(r.summary.contains("UI limits"), "{}", r.summary);
    // The file-size limit is the one thing a job cannot do: reported, never hidden.
    assert_eq!(r.missing.len(), 1, "{:?}", r.missing);
    assert!(r.missing[0].starts_with("file-size limit"));
    assert!(!r.fully_enforced);
}

#[test]
fn report_flags_a_network_capability_a_missing_job_and_no_container() {
    let p = plan(None);
    let r = describe(&contained(vec!["S-1-15-3-1".into()], None), &p);
    assert!(
        r.missing.iter().any(|m| m.starts_with("network deny")),
        "{r:?}"
    );
    assert!(
        r.missing.iter().any(|m| m.starts_with("job object")),
        "{r:?}"
    );
    let mut weak = full_job();
    weak.active_process_limit = Some(5);
    weak.kill_on_close = false;
    let r = describe(&contained(vec![], Some(weak)), &p);
    assert!(
        r.missing.iter().any(|m| m.starts_with("process limit")),
        "{r:?}"
    );
    assert!(
        r.missing.iter().any(|m| m.starts_with("kill-on-close")),
        "{r:?}"
    );
    let r = describe(&Observed::default(), &p);
    assert!(
        r.summary
            .starts_with("confinement: none — the worker is not in an AppContainer"),
        "{}",
        r.summary
    );
    let wrong = Observed {
        app_container: Some(app_container_sid("someone.else")),
        ..Observed::default()
    };
    let r = describe(&wrong, &p);
    assert!(
        r.missing
            .iter()
            .any(|m| m.contains("expected AppContainer")),
        "{r:?}"
    );
}

#[test]
fn a_nested_job_reports_its_missing_ui_limits_and_keeps_the_rest() {
    // The launcher was inside a job that forbids breakaway (a GitHub runner, Task
    // Scheduler): the worker's job is nested and has no UI restrictions (nesting.rs).
    let p = plan(None);
    let nested = JobFacts {
        ui_restrictions: Some(0),
        ..full_job()
    };
    let r = describe(&contained(capabilities(&p.read_write[0]), Some(nested)), &p);
    let ui = r
        .missing
        .iter()
        .find(|m| m.starts_with("job UI limits"))
        .unwrap_or_else(|| panic!("{r:?}"));
    assert!(ui.contains("reading the clipboard"), "{ui}");
    assert!(ui.contains("logoff and shutdown"), "{ui}");
    // Only the UI limits and the file size are missing: the AppContainer, the job's
    // process, memory and CPU limits and the other-worker DACLs still hold.
    assert_eq!(r.missing.len(), 2, "{:?}", r.missing);
    let job_line = r
        .enforced
        .iter()
        .find(|e| e.starts_with("job object"))
        .unwrap_or_else(|| panic!("{r:?}"));
    assert!(job_line.contains("no child processes"), "{job_line}");
    assert!(job_line.contains("memory 4096 MiB"), "{job_line}");
    assert!(!job_line.contains("UI limits"), "{job_line}");
    assert!(
        r.enforced
            .iter()
            .any(|e| e.starts_with("other workers kept out")),
        "{r:?}"
    );
    // A job whose UI restrictions could not be read is reported the same way.
    let unknown = JobFacts {
        ui_restrictions: None,
        ..full_job()
    };
    let r = describe(
        &contained(capabilities(&p.read_write[0]), Some(unknown)),
        &p,
    );
    assert!(
        r.missing.iter().any(|m| m.starts_with("job UI limits")),
        "{r:?}"
    );
}

/// Issue 45: an interrupted first grant of the runtime (the folder's entry written, the
/// propagation cut off half-way) is never taken for a finished one.
#[test]
fn a_kept_grant_is_done_only_when_its_marker_holds_an_explicit_ace() {
    let container = app_container_sid(PROFILE_NAME);
    let mask = Access::ReadExecute.mask();
    let program_files = "O:SYG:SYD:AI(A;ID;0x1200a9;;;AC)(A;OICIIOID;GXGR;;;AC)";
    let local = "D:(A;OICIID;FA;;;SY)(A;OICIID;FA;;;S-1-5-21-1-2-3-1001)";
    let folder_granted = format!("{local}(A;OICI;0x1200a9;;;{container})");
    let marker_inherited = format!("D:(A;ID;FA;;;SY)(A;ID;0x1200a9;;;{container})");
    let marker_done = format!("{marker_inherited}(A;;0x1200a9;;;{container})");

    // A per-machine install: every AppContainer reads already.
    assert_eq!(
        kept_grant_state(Some(program_files), None, &container, mask),
        KeptGrant::NotNeeded
    );
    // First start of a per-user install.
    assert_eq!(
        kept_grant_state(Some(local), Some("D:(A;ID;FA;;;SY)"), &container, mask),
        KeptGrant::Needed
    );
    // Interrupted: the folder has our ACE, the marker only an inherited copy (it may have
    // been reached before files that were not) — grant again.
    assert_eq!(
        kept_grant_state(
            Some(&folder_granted),
            Some(&marker_inherited),
            &container,
            mask
        ),
        KeptGrant::Needed
    );
    // Finished: the marker carries its own ACE, written after the propagation returned.
    assert_eq!(
        kept_grant_state(Some(&folder_granted), Some(&marker_done), &container, mask),
        KeptGrant::Done
    );
    // Another container's explicit ACE on the marker is not ours.
    let other = format!(
        "{marker_inherited}(A;;0x1200a9;;;{})",
        app_container_sid("x")
    );
    assert_eq!(
        kept_grant_state(Some(&folder_granted), Some(&other), &container, mask),
        KeptGrant::Needed
    );
    // A folder without a marker: its own entry is all there is.
    assert_eq!(
        kept_grant_state(Some(&folder_granted), None, &container, mask),
        KeptGrant::Done
    );
    assert_eq!(
        kept_grant_state(Some(local), None, &container, mask),
        KeptGrant::Needed
    );
    assert_eq!(
        kept_grant_state(None, None, &container, mask),
        KeptGrant::Needed
    );
}

#[test]
fn explicit_aces_are_told_from_inherited_and_inherit_only_ones() {
    let sid = app_container_sid(PROFILE_NAME);
    let mask = Access::ReadExecute.mask();
    assert!(explicitly_allows(
        &format!("D:(A;;0x1200a9;;;{sid})"),
        &sid,
        mask
    ));
    assert!(!explicitly_allows(
        &format!("D:(A;ID;0x1200a9;;;{sid})"),
        &sid,
        mask
    ));
    assert!(!explicitly_allows(
        &format!("D:(A;OICIIO;0x1200a9;;;{sid})"),
        &sid,
        mask
    ));
    assert!(!explicitly_allows(
        &format!("D:(A;;FR;;;{sid})"),
        &sid,
        mask
    ));
    assert!(!explicitly_allows(
        &format!("D:(D;;0x1200a9;;;{sid})"),
        &sid,
        mask
    ));
    // `AC` covers every container, but it is not our completion mark.
    assert!(!explicitly_allows("D:(A;;0x1200a9;;;AC)", &sid, mask));
}

#[test]
fn grant_locks_are_one_per_path_as_windows_compares_paths() {
    let a = grant_lock_name(Path::new(r"C:\Users\Ana\Data"));
    assert!(a.starts_with(r"Local\pdfagent-grant-"), "{a}");
    // The same folder however it is spelled: case, separators, a trailing separator, the
    // verbatim prefix `canonicalize` adds.
    for same in [
        r"c:\users\ana\data",
        r"C:/Users/Ana/Data",
        r"C:\Users\Ana\Data\",
        r"\\?\C:\Users\Ana\Data",
    ] {
        assert_eq!(grant_lock_name(Path::new(same)), a, "{same}");
    }
    // Another folder, even one inside it, has its own lock.
    assert_ne!(grant_lock_name(Path::new(r"C:\Users\Ana\Data2")), a);
    assert_ne!(grant_lock_name(Path::new(r"C:\Users\Ana\Data\sub")), a);
    // A kernel object name may not hold `\` after the namespace.
    assert_eq!(a.matches('\\').count(), 1, "{a}");
}
