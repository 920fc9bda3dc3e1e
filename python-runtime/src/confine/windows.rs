//! Windows placeholder (filled in below).
use super::{ConfineError, ConfinePlan, ConfineReport};
pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    let _ = plan;
    Err(ConfineError::Failed("not yet".into()))
}
