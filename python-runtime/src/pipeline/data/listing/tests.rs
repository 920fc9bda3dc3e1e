use super::*;

/// `tmp/src` with `a.csv`, `runs/r1.mat`, `runs/deep/r2.npy`, and `tmp/secret.txt` beside
/// it (outside the folder).
fn tree() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("runs/deep")).unwrap();
    std::fs::write(src.join("a.csv"), "x\n1\n").unwrap();
    std::fs::write(src.join("runs/r1.mat"), [0u8; 10]).unwrap();
    std::fs::write(src.join("runs/deep/r2.npy"), [0u8; 3]).unwrap();
    std::fs::write(tmp.path().join("secret.txt"), "no").unwrap();
    (tmp, src)
}

fn paths(listing: &Listing) -> Vec<&str> {
    listing.entries.iter().map(|e| e.path.as_str()).collect()
}

fn entry<'a>(listing: &'a Listing, path: &str) -> &'a Entry {
    listing
        .entries
        .iter()
        .find(|e| e.path == path)
        .unwrap_or_else(|| panic!("{path} is not listed: {:?}", paths(listing)))
}

#[test]
fn folders_first_then_files_each_folder_followed_by_its_contents() {
    let (_tmp, src) = tree();
    std::fs::write(src.join("B.json"), "{}").unwrap();
    let listing = list(&src, "").unwrap();
    assert_eq!(
        paths(&listing),
        [
            "runs",
            "runs/deep",
            "runs/deep/r2.npy",
            "runs/r1.mat",
            "a.csv",
            "B.json"
        ]
    );
    let depths: Vec<usize> = listing.entries.iter().map(|e| e.depth).collect();
    assert_eq!(depths, [0, 1, 2, 1, 0, 0]);
    assert_eq!(entry(&listing, "a.csv").bytes, 4);
    assert_eq!(entry(&listing, "runs").bytes, 0);
    let files: Vec<&str> = listing.files().map(|e| e.path.as_str()).collect();
    assert_eq!(
        files,
        ["runs/deep/r2.npy", "runs/r1.mat", "a.csv", "B.json"]
    );
    assert!(!listing.truncated());
}

#[test]
fn a_sub_folder_is_listed_with_paths_relative_to_the_folder() {
    let (_tmp, src) = tree();
    let listing = list(&src, "runs/deep").unwrap();
    assert_eq!(paths(&listing), ["runs/deep/r2.npy"]);
    assert_eq!(listing.entries[0].depth, 0);
    assert_eq!(paths(&list(&src, "./runs").unwrap())[0], "runs/deep");
}

/// How the resolver answered: "ok", or the refusal's variant ("ParentDir", "Outside", ...).
fn refusal<T>(result: Result<T, DataPathError>) -> String {
    match result {
        Ok(_) => "ok".to_owned(),
        Err(e) => format!("{e:?}")
            .split(['(', ' '])
            .next()
            .unwrap_or_default()
            .to_owned(),
    }
}

#[test]
fn escapes_are_refused_by_the_resolver() {
    let (_tmp, src) = tree();
    for (sub, want) in [
        ("..", "ParentDir"),
        ("runs/../..", "ParentDir"),
        ("/etc", "Absolute"),
        ("a.csv", "NotAFolder"),
        ("runs", "ok"),
    ] {
        assert_eq!(refusal(list(&src, sub)), want, "list({sub:?})");
    }
    for (rel, want) in [
        ("../secret.txt", "ParentDir"),
        ("/etc/passwd", "Absolute"),
        ("runs", "NotAFile"),
        ("", "NotAFile"),
        ("nope.csv", "NotFound"),
        ("a\0.csv", "Nul"),
    ] {
        assert_eq!(
            refusal(resolve_file(&src, rel)),
            want,
            "resolve_file({rel:?})"
        );
    }
    assert_eq!(
        resolve_file(&src, "runs/r1.mat").unwrap(),
        src.canonicalize().unwrap().join("runs/r1.mat")
    );
    assert_eq!(refusal(list(&src.join("gone"), "")), "Src");
}

#[test]
fn hidden_names_are_counted_not_listed_and_stay_readable() {
    let (_tmp, src) = tree();
    std::fs::create_dir(src.join(".git")).unwrap();
    std::fs::write(src.join(".git/config"), "x").unwrap();
    std::fs::write(src.join(".DS_Store"), "x").unwrap();
    std::fs::write(src.join("runs/.notes.txt"), "x").unwrap();
    let listing = list(&src, "").unwrap();
    assert!(
        listing.entries.iter().all(|e| !e.name.starts_with('.')),
        "{:?}",
        paths(&listing)
    );
    // `.git` counts once: a hidden folder is not walked.
    assert_eq!(listing.hidden, 3);
    assert!(resolve_file(&src, ".DS_Store").is_ok());
    assert!(resolve_file(&src, "runs/.notes.txt").is_ok());
}

#[test]
fn the_entry_cap_counts_what_it_leaves_out() {
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..MAX_ENTRIES + 5 {
        std::fs::write(tmp.path().join(format!("f{i:05}")), "").unwrap();
    }
    let listing = list(tmp.path(), "").unwrap();
    assert_eq!(listing.entries.len(), MAX_ENTRIES);
    assert_eq!(listing.left_out, 5);
    assert!(listing.truncated());
}

#[test]
fn the_depth_cap_lists_the_last_folder_but_not_its_contents() {
    let tmp = tempfile::tempdir().unwrap();
    let mut deep = tmp.path().to_path_buf();
    for level in 0..MAX_DEPTH + 2 {
        deep = deep.join(format!("d{level}"));
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("bottom.csv"), "x").unwrap();
    let listing = list(tmp.path(), "").unwrap();
    assert_eq!(listing.entries.len(), MAX_DEPTH);
    assert_eq!(listing.entries.last().unwrap().depth, MAX_DEPTH - 1);
    assert_eq!(listing.not_entered, 1);
    assert!(listing.truncated());
    // A deeper start lists what lay beyond.
    let sub: Vec<String> = (0..MAX_DEPTH).map(|l| format!("d{l}")).collect();
    let deeper = list(tmp.path(), &sub.join("/")).unwrap();
    assert!(
        deeper
            .files()
            .any(|e| e.path.ends_with("d8/d9/bottom.csv") && e.depth == 2)
    );
}

#[cfg(unix)]
mod links {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn a_link_inside_is_listed_and_readable() {
        let (_tmp, src) = tree();
        symlink(src.join("a.csv"), src.join("alias.csv")).unwrap();
        symlink("runs/r1.mat", src.join("rel.mat")).unwrap();
        let listing = list(&src, "").unwrap();
        let alias = entry(&listing, "alias.csv");
        assert_eq!(
            (
                alias.dir,
                alias.bytes,
                alias.link_to.as_deref(),
                alias.refused
            ),
            (false, 4, Some("a.csv"), None)
        );
        assert_eq!(
            entry(&listing, "rel.mat").link_to.as_deref(),
            Some("runs/r1.mat")
        );
        assert!(listing.files().any(|e| e.path == "alias.csv"));
        let real = src.canonicalize().unwrap();
        assert_eq!(resolve_file(&src, "alias.csv").unwrap(), real.join("a.csv"));
        assert_eq!(
            resolve_file(&src, "rel.mat").unwrap(),
            real.join("runs/r1.mat")
        );
    }

    #[test]
    fn a_linked_folder_inside_is_listed_not_walked_so_loops_end() {
        let (_tmp, src) = tree();
        symlink(&src, src.join("runs/loop")).unwrap();
        symlink(src.join("runs"), src.join("again")).unwrap();
        let listing = list(&src, "").unwrap();
        let lp = entry(&listing, "runs/loop");
        assert!(lp.dir && lp.refused.is_none());
        assert_eq!(lp.link_to.as_deref(), Some("."));
        assert_eq!(entry(&listing, "again").link_to.as_deref(), Some("runs"));
        assert!(
            listing
                .entries
                .iter()
                .all(|e| !e.path.starts_with("runs/loop/") && !e.path.starts_with("again/")),
            "a linked folder was walked: {:?}",
            paths(&listing)
        );
        // Its files are readable through the link, as inside paths.
        assert_eq!(
            resolve_file(&src, "again/r1.mat").unwrap(),
            src.canonicalize().unwrap().join("runs/r1.mat")
        );
        assert!(list(&src, "again").is_ok());
    }

    #[test]
    fn links_out_and_dangling_links_are_listed_as_refused_and_refused_by_the_resolver() {
        let (tmp, src) = tree();
        symlink(tmp.path().join("secret.txt"), src.join("out.txt")).unwrap();
        symlink("../secret.txt", src.join("rel_out.txt")).unwrap();
        symlink(tmp.path(), src.join("up")).unwrap();
        symlink(src.join("gone.csv"), src.join("dangling.csv")).unwrap();
        symlink("self", src.join("self")).unwrap();
        let listing = list(&src, "").unwrap();
        for (path, refusal) in [
            ("out.txt", Refusal::Outside),
            ("rel_out.txt", Refusal::Outside),
            ("up", Refusal::Outside),
            ("dangling.csv", Refusal::Dangling),
            ("self", Refusal::Dangling),
        ] {
            let e = entry(&listing, path);
            assert_eq!(e.refused, Some(refusal), "{path}");
            assert_eq!((e.dir, e.bytes, e.link_to.as_deref()), (false, 0, None));
        }
        assert_eq!(listing.refused().count(), 5);
        assert!(listing.files().all(|e| e.refused.is_none()));
        // Nothing of the outside folder was walked through `up`.
        assert!(!paths(&listing).iter().any(|p| p.contains("secret")));
        for (path, want) in [
            ("out.txt", "Outside"),
            ("rel_out.txt", "Outside"),
            ("up/secret.txt", "Outside"),
            ("dangling.csv", "NotFound"),
            ("self", "NotFound"),
        ] {
            assert_eq!(refusal(resolve_file(&src, path)), want, "{path}");
        }
        assert_eq!(refusal(list(&src, "up")), "Outside");
        let json = serde_json::to_value(entry(&listing, "out.txt")).unwrap();
        assert_eq!(json["refused"], "refused: points outside the data folder");
        assert_eq!(
            serde_json::to_value(entry(&listing, "a.csv")).unwrap()["refused"],
            serde_json::Value::Null
        );
    }

    #[test]
    fn names_that_are_not_utf8_and_sockets_are_listed_as_refused() {
        use std::os::unix::ffi::OsStrExt;
        let (_tmp, src) = tree();
        let bad = std::ffi::OsStr::from_bytes(b"caf\xe9.csv");
        std::fs::write(src.join(bad), "x").unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(src.join("sock")).unwrap();
        let listing = list(&src, "").unwrap();
        assert_eq!(
            entry(&listing, "caf\u{fffd}.csv").refused,
            Some(Refusal::NotUtf8)
        );
        assert_eq!(entry(&listing, "sock").refused, Some(Refusal::Special));
        assert_eq!(refusal(resolve_file(&src, "sock")), "NotAFile");
    }
}
