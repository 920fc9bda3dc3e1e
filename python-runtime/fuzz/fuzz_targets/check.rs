//! Fuzz the Layer-1 checker: any bytes give `Ok` or a non-empty `Rejection`, never a panic,
//! and accepted source is what the checker read.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match python_runtime::check::check(data) {
        Ok(accepted) => {
            // Accepted text re-checks to the same text (normalisation is idempotent).
            let again = python_runtime::check::check(accepted.source.as_bytes())
                .expect("accepted source must be accepted again");
            assert_eq!(again.source, accepted.source);
        }
        Err(rejection) => {
            assert!(!rejection.errors.is_empty());
            assert!(!rejection.hint.is_empty());
        }
    }
});
