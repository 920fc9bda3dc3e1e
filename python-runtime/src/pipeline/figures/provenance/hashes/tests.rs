//! The input-hash cache against real files: what makes it hash again, and what it keeps.

use super::*;

/// Ten seconds from now: the files the tests write look old enough to be trusted.
fn later() -> i64 {
    system_clock() + 10_000_000_000
}

fn sha(bytes: &[u8]) -> String {
    crate::pipeline::figures::provenance::sha256_hex(bytes)
}

fn hash(cache: &HashCache, src: &Path, file: &Path) -> Hashed {
    let mut session = cache.session(src);
    let hashed = session.sha256(file, u64::MAX).unwrap().unwrap();
    session.finish();
    hashed
}

fn set_mtime(path: &Path, time: SystemTime) {
    File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

#[cfg(unix)]
fn ctime_ns(path: &Path) -> i64 {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).unwrap();
    m.ctime() * 1_000_000_000 + m.ctime_nsec()
}

struct Folder {
    _root: tempfile::TempDir,
    src: PathBuf,
    store: PathBuf,
    file: PathBuf,
}

fn folder(content: &[u8]) -> Folder {
    let root = tempfile::tempdir().unwrap();
    let src = root.path().join("data");
    let store = root.path().join("store");
    std::fs::create_dir(&src).unwrap();
    let file = src.join("sweep.npy");
    std::fs::write(&file, content).unwrap();
    Folder {
        src,
        store,
        file,
        _root: root,
    }
}

#[test]
fn an_unchanged_file_gets_its_stored_hash_without_being_read() {
    let f = folder(b"0123456789");
    let cache = HashCache::with_clock(Some(f.store.clone()), later);
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Computed(sha(b"0123456789"), 10)
    );
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Cached(sha(b"0123456789"))
    );
}

#[cfg(unix)]
#[test]
fn a_change_of_content_with_size_and_mtime_restored_is_hashed_again() {
    let f = folder(b"aaaa");
    let cache = HashCache::with_clock(Some(f.store.clone()), later);
    let mtime = std::fs::metadata(&f.file).unwrap().modified().unwrap();
    let ctime = ctime_ns(&f.file);
    hash(&cache, &f.src, &f.file);
    // Past the kernel's coarse clock tick, so the change time can move.
    std::thread::sleep(std::time::Duration::from_millis(50));
    std::fs::write(&f.file, b"bbbb").unwrap();
    set_mtime(&f.file, mtime);
    let now = std::fs::metadata(&f.file).unwrap();
    assert_eq!((now.len(), now.modified().unwrap()), (4, mtime));
    assert_ne!(ctime_ns(&f.file), ctime, "the change time must differ");
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Computed(sha(b"bbbb"), 4)
    );
    assert_eq!(hash(&cache, &f.src, &f.file), Hashed::Cached(sha(b"bbbb")));
}

#[test]
fn a_file_replaced_by_rename_is_hashed_again() {
    let f = folder(b"aaaa");
    let cache = HashCache::with_clock(Some(f.store.clone()), later);
    let mtime = std::fs::metadata(&f.file).unwrap().modified().unwrap();
    hash(&cache, &f.src, &f.file);
    let next = f.src.join(".sweep.npy.new");
    std::fs::write(&next, b"bbbb").unwrap();
    set_mtime(&next, mtime);
    std::fs::rename(&next, &f.file).unwrap();
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Computed(sha(b"bbbb"), 4)
    );
}

#[test]
fn a_file_written_within_the_racy_window_is_never_trusted() {
    let f = folder(b"aaaa");
    // The real clock: the file was written just now, less than RACY_WINDOW before hashing.
    let cache = HashCache::new(Some(f.store.clone()));
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Computed(sha(b"aaaa"), 4)
    );
    assert_eq!(
        hash(&cache, &f.src, &f.file),
        Hashed::Computed(sha(b"aaaa"), 4)
    );
    // The same entries, judged later: trusted.
    let aged = HashCache::with_clock(Some(f.store.clone()), later);
    hash(&aged, &f.src, &f.file);
    assert_eq!(hash(&aged, &f.src, &f.file), Hashed::Cached(sha(b"aaaa")));
}

#[test]
fn the_rule_compares_both_times_with_the_start_of_hashing() {
    let window = RACY_WINDOW.as_nanos() as i64;
    let entry = |modified_ns, changed_ns| Entry {
        identity: Identity {
            device: 1,
            file_id: [2, 0],
            size: 3,
            modified_ns,
            changed_ns,
        },
        sha256: sha(b""),
        hashed_at_ns: 100 * window,
    };
    assert!(entry(90 * window, 90 * window).trusted());
    assert!(!entry(99 * window, 90 * window).trusted());
    assert!(!entry(90 * window, 99 * window).trusted());
    assert!(!entry(90 * window, 100 * window + 1).trusted());
}

#[test]
fn the_hashes_outlive_the_host_on_disk() {
    let f = folder(b"aaaa");
    let first = HashCache::with_clock(Some(f.store.clone()), later);
    hash(&first, &f.src, &f.file);
    drop(first);
    let files: Vec<_> = std::fs::read_dir(&f.store).unwrap().collect();
    assert!(files.len() >= 2, "a cache file and the lock: {files:?}");
    let restarted = HashCache::with_clock(Some(f.store.clone()), later);
    assert_eq!(
        hash(&restarted, &f.src, &f.file),
        Hashed::Cached(sha(b"aaaa"))
    );
    // Without the folder nothing carries over.
    let memory_only = HashCache::with_clock(None, later);
    assert_eq!(
        hash(&memory_only, &f.src, &f.file),
        Hashed::Computed(sha(b"aaaa"), 4)
    );
}

#[test]
fn two_hosts_writing_one_folder_keep_each_others_hashes() {
    let f = folder(b"aaaa");
    let other = f.src.join("other.csv");
    std::fs::write(&other, b"x,y\n").unwrap();
    let window = HashCache::with_clock(Some(f.store.clone()), later);
    let server = HashCache::with_clock(Some(f.store.clone()), later);
    let mut a = window.session(&f.src);
    let mut b = server.session(&f.src);
    a.sha256(&f.file, u64::MAX).unwrap();
    b.sha256(&other, u64::MAX).unwrap();
    a.finish();
    b.finish();
    let third = HashCache::with_clock(Some(f.store.clone()), later);
    assert_eq!(hash(&third, &f.src, &f.file), Hashed::Cached(sha(b"aaaa")));
    assert_eq!(hash(&third, &f.src, &other), Hashed::Cached(sha(b"x,y\n")));
}

#[test]
fn a_damaged_cache_file_is_ignored() {
    let f = folder(b"aaaa");
    let first = HashCache::with_clock(Some(f.store.clone()), later);
    hash(&first, &f.src, &f.file);
    for entry in std::fs::read_dir(&f.store).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            std::fs::write(&path, b"{not json").unwrap();
        }
    }
    let restarted = HashCache::with_clock(Some(f.store.clone()), later);
    assert_eq!(
        hash(&restarted, &f.src, &f.file),
        Hashed::Computed(sha(b"aaaa"), 4)
    );
}

#[test]
fn a_file_larger_than_the_budget_is_not_read() {
    let f = folder(b"0123456789");
    let cache = HashCache::with_clock(None, later);
    let mut session = cache.session(&f.src);
    assert_eq!(session.sha256(&f.file, 9).unwrap(), None);
    assert_eq!(
        session.sha256(&f.file, 10).unwrap(),
        Some(Hashed::Computed(sha(b"0123456789"), 10))
    );
    // Once stored, it costs nothing, whatever the budget.
    assert_eq!(
        session.sha256(&f.file, 0).unwrap(),
        Some(Hashed::Cached(sha(b"0123456789")))
    );
}

#[cfg(target_os = "linux")]
#[test]
fn files_on_file_systems_without_stable_ids_are_hashed_every_time() {
    // procfs: not a local disk file system, so never cached.
    let cache = HashCache::with_clock(None, later);
    let version = Path::new("/proc/version");
    for _ in 0..2 {
        assert!(matches!(
            hash(&cache, Path::new("/proc"), version),
            Hashed::Computed(..)
        ));
    }
}

#[test]
fn the_number_of_entries_and_of_folders_is_bounded() {
    let entry = |at| Entry {
        identity: Identity {
            device: 0,
            file_id: [0, 0],
            size: 0,
            modified_ns: 0,
            changed_ns: 0,
        },
        sha256: sha(b""),
        hashed_at_ns: at,
    };
    let mut entries = BTreeMap::new();
    let more: BTreeMap<String, Entry> = (0..MAX_ENTRIES as i64 + 10)
        .map(|i| (format!("f{i}"), entry(i)))
        .collect();
    merge(&mut entries, more);
    assert_eq!(entries.len(), MAX_ENTRIES);
    assert!(!entries.contains_key("f9") && entries.contains_key("f10"));

    let dir = tempfile::tempdir().unwrap();
    for i in 0..MAX_FOLDERS + 5 {
        std::fs::write(dir.path().join(format!("{i:03}.json")), b"{}").unwrap();
    }
    let keep = dir.path().join("000.json");
    evict_files(dir.path(), &keep);
    let left = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(left, MAX_FOLDERS);
    assert!(keep.exists());
}
