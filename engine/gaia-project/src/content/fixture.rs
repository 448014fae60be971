//! A tiny made-up game used by the kernel's unit tests (no base-game names).

use super::MemFiles;

/// The files of the made-up game.
pub fn files() -> MemFiles {
    MemFiles::new(
        "mini",
        &[
            (
                "rules.yaml",
                "name: Mini\nplayers: [2]\nrounds: 2\nstart: {vp: 10}\nresources:\n  - {id: gold, name: Gold, cap: 9}\n  - {id: vp, name: Points}\nextra_boosters: 1\nfinal_places: [5, 2]\nresearch_scoring: {from: 1, vp: 1}\nleftover_per_vp: 2\nleftover_resources: [gold]\ncharge_distance: 1\nneighbour_distance: 1\nfederation_threshold: 3\nsatellite_cost: {t: 1}\nsatellites: 5\ngaia_planet_fee: {gold: 1}\nrange_per_qic: 1\nrange_resource: gold\nterraform_resource: gold\noptions: {turn_order: pass_order}\n",
            ),
            (
                "planets.yaml",
                "wheel: [red, blue]\nplanets:\n  - {id: red, letter: r, name: Red, kind: wheel}\n  - {id: blue, letter: b, name: Blue, kind: wheel}\n  - {id: void, letter: e, name: Void, kind: empty}\n",
            ),
            (
                "sectors.yaml",
                "sectors:\n  - {id: s1, label: '1', spaces: reeeeeeeeeeeeeeeeeb}\nlayouts:\n  - {players: [2], sectors: [s1], slots: [[0, 0]]}\n",
            ),
            (
                "board.yaml",
                "start: {gold: 3}\npower: [1, 2, 0]\nincome: [gain: {gold: 1}]\nbuildings:\n  - {id: hut, name: Hut, count: 2, cost: {gold: 1}, power_value: 1, income: [[gain: {gold: 1}], []]}\n  - {id: hall, name: Hall, count: 1, cost: {gold: 3}, power_value: 2, upgrades_from: [hut], grants: {modifiers: [federation_threshold: 2]}}\nsetup: [{building: hut, pass: 1}]\nconversions:\n  - {pay: {pw: 2}, gain: [gain: {gold: 1}]}\n",
            ),
            (
                "research.yaml",
                "cost: {gold: 2}\ntop_level: {exclusive: true, flip_token: false}\ntracks:\n  - id: lore\n    name: Lore\n    levels:\n      - {}\n      - {immediate: [gain: {gold: 2}], income: [gain: {vp: 1}]}\n",
            ),
            ("tech-tiles.yaml", "tiles:\n  - {id: widget1, name: A widget, income: [gain: {pw: 1}]}\npositions:\n  - {id: left, track: lore}\n"),
            ("advanced-tech-tiles.yaml", "tiles:\n  - {id: gizmo1, name: A gizmo}\nmin_level: 1\nposition_prefix: adv-\n"),
            ("boosters.yaml", "boosters:\n  - {id: perk1, name: Perk, income: [gain: {gold: 1}]}\n  - {id: spare1, name: Spare, income: [gain: {vp: 1}]}\n  - {id: spare2, name: Plain}\n"),
            ("round-scoring.yaml", "tiles:\n  - {id: quiet1, name: Quiet}\n  - {id: quiet2, name: Quiet too}\n"),
            ("final-scoring.yaml", "tiles:\n  - {id: most, name: Most huts, count: {buildings: [hut]}, neutral: 1}\nper_game: 1\n"),
            ("federation-tokens.yaml", "tokens:\n  - {id: star, name: Star, copies: 2, green: true, reward: [gain: {vp: 3}]}\n"),
            ("board-actions.yaml", "actions:\n  - {id: dig, cost: {pw: 2}, effects: [steps: 1]}\n"),
            (
                "factions/zorgs.yaml",
                "id: zorgs\nname: Zorgs\nhome: red\nboard:\n  research: {lore: 1}\nabilities:\n  - when: {has: hall}\n    modifiers: [substitute: {from: vp, to: gold}]\n",
            ),
        ],
    )
}

/// The files of the made-up game with a second faction in a file of its own (`blips`, home
/// blue), so two seats can play.
pub fn files_with_blips() -> MemFiles {
    let mut files = files();
    files.files.insert(
        "factions/blips.yaml".into(),
        "id: blips\nname: Blips\nhome: blue\n".into(),
    );
    files
}

/// The made-up game with a second faction (`blues`, home blue), so two seats can play.
pub fn two_factions() -> std::sync::Arc<super::Content> {
    let overlay = super::OverlaySource {
        file: "blues.yaml".into(),
        text: "name: blues\nchanges:\n  - add:\n      kind: faction\n      value: {id: blues, name: Blues, home: blue}\n".into(),
        scripts: Vec::new(),
        problem: None,
    };
    let content = super::Content::load(&files(), &[overlay]).expect("the made-up game loads");
    std::sync::Arc::new(content)
}

/// A two-seat game of [`files_with_blips`] set up from `seed`, seat 1 `zorgs` and seat 2
/// `blips` chosen.
#[cfg(test)]
pub(crate) fn blips_game(seed: u64) -> crate::game::Game {
    let content =
        std::sync::Arc::new(super::Content::load(&files_with_blips(), &[]).expect("fixture loads"));
    let setup = crate::game::Setup::random(&content, 2, &mut orrery_core::rng::Rng::new(seed))
        .expect("setup");
    let mut g = crate::game::Game::new(content, setup).expect("game");
    g.apply_text("p1 faction zorgs").expect("zorgs");
    g.apply_text("p2 faction blips").expect("blips");
    g
}

#[cfg(test)]
mod tests {
    use super::files;
    use crate::content::{Content, OverlaySource};
    use crate::player::Player;

    #[test]
    fn the_made_up_game_loads() {
        let c = Content::load(&files(), &[]).expect("valid");
        assert_eq!(c.factions.len(), 1);
        assert!(c
            .summary()
            .starts_with("1 factions, 1 tech tiles, 1 advanced tech tiles, 3 boosters"));
    }

    #[test]
    fn setup_applies_start_research_and_substitution() {
        let c = Content::load(&files(), &[]).expect("valid");
        let (p, board) = Player::new(&c, "zorgs").expect("faction");
        // 3 gold to start, +2 from the starting research level.
        assert_eq!(p.resource(&c, "gold"), 5);
        assert_eq!(p.power.areas, [1, 2, 0, 0]);
        assert_eq!(board.setup.len(), 1);
        assert!(Player::new(&c, "nobody").is_err());
    }

    #[test]
    fn caps_limit_gains() {
        let c = Content::load(&files(), &[]).expect("valid");
        let (mut p, _) = Player::new(&c, "zorgs").expect("faction");
        let f = c.faction("zorgs").unwrap().clone();
        p.gain(&c, &f, &crate::content::Bundle::of(&[("gold", 7)]));
        assert_eq!(p.resource(&c, "gold"), 9);
        p.gain(&c, &f, &crate::content::Bundle::of(&[("vp", 2)]));
        assert_eq!(p.resource(&c, "vp"), 12);
        // With a hall, points arrive as gold (and the cap still holds).
        p.built.insert("hall".into(), 1);
        p.gain(
            &c,
            &f,
            &crate::content::Bundle::of(&[("vp", 3), ("gold", -4)]),
        );
        assert_eq!(p.resource(&c, "vp"), 12);
        assert_eq!(p.resource(&c, "gold"), 8);
    }

    #[test]
    fn references_and_duplicates_are_checked() {
        let mut f = files();
        let text = f.files["factions/zorgs.yaml"].replace("home: red", "home: green");
        f.files.insert("factions/zorgs.yaml".into(), text);
        let text = f.files["boosters.yaml"].clone() + "  - {id: perk1, name: Again}\n";
        f.files.insert("boosters.yaml".into(), text);
        let diags = Content::load(&f, &[]).unwrap_err();
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert!(
            shown.contains(
                &"mini/factions/zorgs.yaml:3:7: unknown planet type \"green\" (at /home)"
                    .to_string()
            ),
            "{shown:?}"
        );
        assert!(
            shown.iter().any(|s| s.starts_with("mini/boosters.yaml:5:")
                && s.contains("duplicate booster id \"perk1\"")),
            "{shown:?}"
        );
    }

    #[test]
    fn overlays_add_replace_and_remove() {
        let ov = OverlaySource {
            file: "tweak.yaml".into(),
            text: "name: tweak\nchanges:\n  - add: {kind: faction, value: {id: blips, name: Blips, home: blue}}\n  - replace: {kind: booster, id: perk1, value: {id: perk1, name: Better, income: [gain: {gold: 2}]}}\n  - remove: {kind: tech_tile, id: widget1}\n  - set: {kind: rules, path: options.turn_order, value: first_passer_clockwise}\n  - script: {file: extra.rhai, source: 'fn zap() { 1 }'}\n".into(),
            scripts: Vec::new(),
            problem: None,
        };
        let diags = Content::load(&files(), std::slice::from_ref(&ov)).unwrap_err();
        // Removing the only tile leaves a position without a tile.
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("1 positions for 0 tiles")),
            "{diags:?}"
        );
        let ov = OverlaySource {
            text: ov
                .text
                .replace("  - remove: {kind: tech_tile, id: widget1}\n", ""),
            ..ov
        };
        let c = Content::load(&files(), &[ov]).expect("valid");
        assert_eq!(c.factions.len(), 2);
        assert_eq!(c.boosters.boosters[0].name, "Better");
        assert!(c.scripts.has_function("extra.rhai", "zap"));
        let origin = c
            .provenance
            .origin(
                crate::content::kind("booster").expect("a kind"),
                Some("perk1"),
                "name",
            )
            .expect("origin");
        assert_eq!(origin.to_string(), "tweak.yaml:4:66");
    }
}
