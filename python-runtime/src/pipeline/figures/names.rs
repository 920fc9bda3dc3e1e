//! The names a figures folder has room for: whether a run of a name may save there, and the
//! next free name to suggest. The output stage's own answer (it knows what the folder holds:
//! figure files and which run owns each extra figure), asked by the pipeline before a run
//! and by the window's name field.

use super::format::FigureFormat;
use crate::pipeline::name::{self, NameTaken};
use std::path::Path;

/// A run of `name` (a valid name) may save into `figures`: no figure there differs from
/// `name` only in case (macOS and Windows would replace it), and `name` is not another
/// run's extra figure ([`super::ownership`]).
pub fn check_name_free(figures: &Path, name: &str) -> Result<(), NameTaken> {
    let key = name::fold_key(name);
    for (stem, file) in figure_stems(figures) {
        if stem != name && name::fold_key(&stem) == key {
            return Err(NameTaken::CaseClash {
                name: name.to_owned(),
                file,
                taken: stem,
            });
        }
    }
    if let Some(owner) = super::ownership::owner_of(figures, name) {
        return Err(NameTaken::OtherRunsFigure {
            name: name.to_owned(),
            file: owner.file,
            owner: owner.name,
            number: owner.number,
        });
    }
    Ok(())
}

/// The name to suggest after a run of `name` in `figures`: `name` with its trailing number
/// counted up (`fig-2` after `fig`, `fig3` after `fig2`), skipping every name that is not
/// free there — a figure's own name, another run's extra, a name that clashes in case. The
/// suggestion is a valid name whenever `name` is one.
pub fn next_free_name(figures: &Path, name: &str) -> String {
    let Ok(name) = name::figure_name(name) else {
        return name.to_owned();
    };
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, mut n) = match name[name.len() - digits..].parse::<u64>() {
        Ok(n) if digits > 0 => (name[..name.len() - digits].to_owned(), n),
        _ => (format!("{name}-"), 1),
    };
    let taken: std::collections::BTreeSet<String> = figure_stems(figures)
        .into_iter()
        .map(|(stem, _)| name::fold_key(&stem))
        .collect();
    loop {
        n = n.saturating_add(1);
        let candidate = format!("{base}{n}");
        let usable = name::figure_name(&candidate).is_ok_and(|c| c == candidate)
            && !taken.contains(&name::fold_key(&candidate))
            && check_name_free(figures, &candidate).is_ok();
        if usable || n == u64::MAX {
            return candidate;
        }
    }
}

/// The (NFC stem, file name) of every figure file in `figures` (read back NFC: HFS+ returns
/// names decomposed).
pub fn figure_stems(figures: &Path) -> Vec<(String, String)> {
    use unicode_normalization::UnicodeNormalization as _;
    let Ok(dir) = std::fs::read_dir(figures) else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|file| {
            let path = Path::new(&file);
            FigureFormat::of_path(path)?;
            let stem = path.file_stem()?.to_str()?.nfc().collect::<String>();
            Some((stem, file))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suggested_next_name_is_always_free() {
        let dir = tempfile::tempdir().unwrap();
        let figures = dir.path();
        assert_eq!(next_free_name(figures, "bands"), "bands-2");
        assert_eq!(next_free_name(figures, "fig2"), "fig3");
        assert_eq!(next_free_name(figures, "图1"), "图2");
        // `bands` made two figures: `bands-2.png` is its extra, so the next free one.
        for stem in ["bands", "bands-2", "Fig3"] {
            std::fs::write(figures.join(format!("{stem}.png")), b"x").unwrap();
        }
        assert_eq!(next_free_name(figures, "bands"), "bands-3");
        assert_eq!(next_free_name(figures, "fig2"), "fig4");
    }

    #[test]
    fn a_name_that_differs_from_a_figure_only_in_case_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Straße.png"), b"x").unwrap();
        // Read back decomposed, as HFS+ returns it.
        std::fs::write(dir.path().join("Cafe\u{301}.svg"), b"x").unwrap();
        for name in ["STRASSE", "strasse", "straße", "CAFÉ", "cafe\u{301}"] {
            let name = name::figure_name(name).unwrap();
            let err = check_name_free(dir.path(), &name).unwrap_err();
            assert!(matches!(err, NameTaken::CaseClash { .. }), "{name}: {err}");
        }
        assert_eq!(check_name_free(dir.path(), "Straße"), Ok(()));
        assert_eq!(check_name_free(dir.path(), "Café"), Ok(()));
        assert_eq!(check_name_free(dir.path(), "Strasse2"), Ok(()));
        let err = check_name_free(dir.path(), "strasse")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`Straße`") && err.contains("Straße.png"),
            "{err}"
        );
    }
}
