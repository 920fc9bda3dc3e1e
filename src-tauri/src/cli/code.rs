//! The code a command checks or runs (`check`, `make-figure`), read from a file or from
//! standard input (`-`), with the pipeline's size limit.

use python_runtime::validate::MAX_CODE_BYTES;
use std::io::Read;
use std::path::Path;

/// Most bytes read: the pipeline refuses more than [`MAX_CODE_BYTES`] with a proper message
/// (the checker refuses less), so reading one byte beyond that is enough to tell.
const READ_CAP: u64 = MAX_CODE_BYTES as u64 + 1;

/// The code at `path`, or on standard input when `path` is `-`: at most [`READ_CAP`] bytes.
pub fn read_code(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut code = Vec::new();
    if is_stdin(path) {
        std::io::stdin()
            .lock()
            .take(READ_CAP)
            .read_to_end(&mut code)?;
    } else {
        std::fs::File::open(path)?
            .take(READ_CAP)
            .read_to_end(&mut code)?;
    }
    Ok(code)
}

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_whole_up_to_one_byte_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.py");
        std::fs::write(&small, b"x = 1\n").unwrap();
        assert_eq!(read_code(&small).unwrap(), b"x = 1\n");
        let big = dir.path().join("big.py");
        std::fs::write(&big, vec![b'#'; MAX_CODE_BYTES + 4096]).unwrap();
        assert_eq!(read_code(&big).unwrap().len(), MAX_CODE_BYTES + 1);
        assert!(read_code(&dir.path().join("missing.py")).is_err());
    }
}
