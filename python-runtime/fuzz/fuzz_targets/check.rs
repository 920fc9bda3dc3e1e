//! Fuzz the Layer-1 checker: any bytes give `Ok` or a non-empty `Rejection`, never a panic,
//! and accepted source is what the checker read.
//!
//! Run (stable toolchain; libFuzzer needs nightly flags, hence RUSTC_BOOTSTRAP), seeded
//! with the test corpus:
//!   cd python-runtime/fuzz && mkdir -p corpus/check && cp ../../tests/corpus/*/*.py corpus/check/
//!   RUSTC_BOOTSTRAP=1 cargo fuzz run check corpus/check -- -max_total_time=600 -max_len=8192
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match python_runtime::check(data) {
        Ok(accepted) => {
            // Accepted text re-checks to the same text (normalisation is idempotent).
            let again = python_runtime::check(accepted.source.as_bytes())
                .expect("accepted source must be accepted again");
            assert_eq!(again.source, accepted.source);
        }
        Err(rejection) => {
            assert!(!rejection.errors.is_empty());
            assert!(!rejection.hint.is_empty());
        }
    }
});
