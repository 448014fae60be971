//! An open question about a faction's special power token: the outcomes a player chooses
//! between by answer (saved with the state; `special.rs` asks and answers it).

use serde::{Deserialize, Serialize};

use crate::power::Power;

/// An open question about the special token: the possible outcomes by answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Question {
    /// Who answers.
    pub seat: usize,
    /// Answer word and the power state it leads to; the first is applied until answered.
    pub options: Vec<(String, Power)>,
    /// The power state when the question was asked: changes made while it is open (tokens
    /// gained by the same action) are added to the answer's state.
    #[serde(default)]
    pub base: Option<Power>,
}
