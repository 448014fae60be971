//! The saved form of a state, for people as much as programs: each seat's resources are
//! labelled by their codes (`{"c": 14, "o": 7, …}`) instead of the list in the order of
//! `rules.resources` the state holds. Reading accepts both, so files saved before the labels
//! still load.

use serde_json::{Map, Value};

use super::GameState;
use crate::content::Content;

/// The content's resource codes, in the order a seat's `resources` list holds them.
fn resource_codes(content: &Content) -> Vec<&str> {
    content
        .rules
        .resources
        .iter()
        .map(|r| r.id.as_str())
        .collect()
}

/// The state as saved: [`GameState`]'s JSON with every seat's `resources` labelled by code.
pub fn to_saved(content: &Content, state: &GameState) -> Result<Value, String> {
    let mut v =
        serde_json::to_value(state).map_err(|e| format!("the state does not write: {e}"))?;
    let codes = resource_codes(content);
    if let Some(players) = v.get_mut("players").and_then(Value::as_array_mut) {
        for p in players {
            if let Some(list) = p.get("resources").and_then(Value::as_array) {
                if list.len() != codes.len() {
                    return Err(format!(
                        "a seat holds {} resources where the content has {}",
                        list.len(),
                        codes.len()
                    ));
                }
                let labelled: Map<String, Value> = codes
                    .iter()
                    .map(|c| c.to_string())
                    .zip(list.iter().cloned())
                    .collect();
                p["resources"] = Value::Object(labelled);
            }
        }
    }
    Ok(v)
}

/// Reads a saved state: seats' `resources` labelled by code (every code of the content once,
/// no other) or, as saved before the labels, a list in the order of `rules.resources`.
pub fn from_saved(content: &Content, mut value: Value) -> Result<GameState, String> {
    let codes = resource_codes(content);
    if let Some(players) = value.get_mut("players").and_then(Value::as_array_mut) {
        for (seat, p) in players.iter_mut().enumerate() {
            let Some(labelled) = p.get("resources").and_then(Value::as_object) else {
                continue;
            };
            if let Some(unknown) = labelled.keys().find(|k| !codes.contains(&k.as_str())) {
                return Err(format!(
                    "players[{seat}].resources: `{unknown}` is not a resource of the content \
                     (its codes: {})",
                    codes.join(", ")
                ));
            }
            let list = codes
                .iter()
                .map(|c| {
                    labelled
                        .get(*c)
                        .cloned()
                        .ok_or_else(|| format!("players[{seat}].resources: `{c}` is missing"))
                })
                .collect::<Result<Vec<Value>, String>>()?;
            p["resources"] = Value::Array(list);
        }
    }
    serde_json::from_value(value).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::{from_saved, to_saved};
    use crate::content::fixture;
    use crate::game::{Game, Setup};

    fn game() -> Game {
        let content = fixture::two_factions();
        let setup = Setup::random(&content, 2, &mut orrery_core::rng::Rng::new(5)).expect("setup");
        let mut g = Game::new(content, setup).expect("game");
        let part = g.legal_parts().into_iter().next().expect("a faction");
        g.apply_part(&part).expect("applies");
        g
    }

    /// A state as JSON (a state read back differs from the one saved only in its map's index,
    /// which loading the game rebuilds).
    fn json(s: &crate::game::GameState) -> serde_json::Value {
        serde_json::to_value(s).expect("saves")
    }

    #[test]
    fn resources_are_saved_by_code_and_read_back_in_either_form() {
        let g = game();
        let saved = to_saved(&g.content, &g.state).expect("saves");
        let seat = &saved["players"][0]["resources"];
        assert!(seat.is_object(), "{seat}");
        assert_eq!(seat["gold"], g.state.players[0].resources[0]);
        assert_eq!(seat["vp"], g.state.players[0].resources[1]);
        assert_eq!(
            json(&from_saved(&g.content, saved).expect("reads")),
            json(&g.state)
        );
        // The list saved before the labels reads as it always did.
        let old = serde_json::to_value(&g.state).expect("saves");
        assert!(old["players"][0]["resources"].is_array());
        assert_eq!(
            json(&from_saved(&g.content, old).expect("reads")),
            json(&g.state)
        );
    }

    #[test]
    fn labelled_resources_must_name_every_code_of_the_content_and_no_other() {
        let g = game();
        let saved = to_saved(&g.content, &g.state).expect("saves");
        let mut unknown = saved.clone();
        unknown["players"][1]["resources"]["silver"] = 1.into();
        let e = from_saved(&g.content, unknown).unwrap_err();
        assert!(
            e.contains("players[1].resources: `silver` is not a resource"),
            "{e}"
        );
        let mut missing = saved.clone();
        missing["players"][0]["resources"]
            .as_object_mut()
            .expect("labelled")
            .remove("vp");
        let e = from_saved(&g.content, missing).unwrap_err();
        assert!(e.contains("`vp` is missing"), "{e}");
        let mut text = saved;
        text["players"][0]["resources"]["gold"] = "three".into();
        assert!(from_saved(&g.content, text).is_err());
    }
}
