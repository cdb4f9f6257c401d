//! The rules of a table in plain words, generated from [`Rules`] values so
//! the text can never disagree with the engine.

use crate::rules::Rules;

impl Rules {
    /// The rules in plain words, section by section.
    pub fn describe(&self) -> String {
        format!("{self:?}")
    }
}
