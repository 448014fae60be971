//! Rules no recorded game exercises, checked on games set up by hand: Robotic Workforce
//! copying the production a mining tile got from its space, Mass Converter, Anti-Gravity
//! Technology, Virus removing animals, and the final greenery of a solo game.

use std::sync::Arc;

use orrery_core::play_api::Playable;

use super::*;
use crate::notation::Line;

/// A game of `players` seats in its action phase, generation 1, red (seat 0) to act, every
/// seat without corporation, cards, stock or card resources (production as dealt).
fn bare(players: usize) -> Game {
    let content = Arc::new(crate::content::load(&crate::content::default_dir()).expect("content"));
    let mut g = Game::random(content, players, 11).expect("a game");
    for p in 0..players {
        let corp = g.card(g.dealt_corps[p][0]).name.clone();
        g.initial_choice(p, &corp, &[]).expect("initial choice");
    }
    g.queue.clear();
    for pl in &mut g.players {
        pl.corporation = None;
        pl.first_action_due = false;
        pl.hand.clear();
        pl.played.clear();
        pl.card_res.clear();
        pl.res = [0; 6];
    }
    g.phase = Phase::Action;
    g.first = 0;
    g.active = 0;
    g.actions_taken = 0;
    g
}

fn cost(g: &Game, c: CardId) -> i32 {
    g.card(c).cost.expect("a project card's cost")
}

fn id(g: &Game, name: &str) -> CardId {
    g.card_id(name).expect("a card of the content")
}

fn apply(g: &mut Game, line: &str) -> Result<(), Refusal> {
    g.apply_line(&Line::parse(line).map_err(|e| e.0)?)
}

/// Project cards (not events) with `tag` and no discount of their own.
fn with_tag(g: &Game, tag: &str, except: &[&str]) -> Vec<CardId> {
    (0..g.cards.len())
        .filter(|c| {
            let card = g.card(*c);
            matches!(card.kind, CardType::Automated | CardType::Active)
                && card.tags.iter().any(|t| t == tag)
                && card.discounts.is_empty()
                && !except.contains(&card.name.as_str())
        })
        .collect()
}

#[test]
fn robotic_workforce_copies_the_production_a_mining_tile_got_from_its_space() {
    for (bonus, card, tile) in [
        ("steel", "Mining Area", "mining_area"),
        ("titanium", "Mining Rights", "mining_rights"),
    ] {
        let mut g = bare(2);
        let space = (0..g.content.map.spaces.len())
            .find(|s| {
                g.content.map.spaces[*s].kind == SpaceType::Land
                    && g.content.map.spaces[*s].bonus.iter().any(|b| b == bonus)
                    && !g.tiles.contains_key(s)
            })
            .expect("a free space with the bonus");
        let mining = id(&g, card);
        g.players[0].played.push(mining);
        g.tiles.insert(
            space,
            Tile {
                kind: Arc::from(tile),
                city: false,
                owner: Some(0),
                neutral: false,
            },
        );
        let workforce = id(&g, "Robotic Workforce");
        g.players[0].hand.push(workforce);
        g.players[0].res[0] = 9;
        let before = g.players[0].prod;
        apply(&mut g, "red: play Robotic Workforce pay mc=9").expect("playable");
        assert!(
            g.legal()
                .iter()
                .any(|p| p.to_string() == format!("red: cards {card}")),
            "{card} is offered to copy: {:?}",
            g.legal()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        );
        apply(&mut g, &format!("red: cards {card}")).expect("copied");
        let r = Res::from_key(bonus).expect("a resource").index();
        let mut expected = before;
        expected[r] += 1;
        assert_eq!(g.players[0].prod, expected, "{card} on a {bonus} space");
    }
}

#[test]
fn mass_converter_needs_five_science_tags_and_makes_space_cards_cheaper() {
    let mut g = bare(2);
    let science = with_tag(
        &g,
        "science",
        &["Mass Converter", "Anti-Gravity Technology"],
    );
    let converter = id(&g, "Mass Converter");
    g.players[0].played = science[..4].to_vec();
    g.players[0].hand.push(converter);
    g.players[0].res[0] = 8;
    let refused = apply(&mut g, "red: play Mass Converter pay mc=8");
    assert!(refused.is_err(), "4 science tags are too few");
    assert!(g.players[0].hand.contains(&converter) && g.players[0].res[0] == 8);
    g.players[0].played.push(science[4]);
    let energy = g.players[0].prod[Res::Energy.index()];
    apply(&mut g, "red: play Mass Converter pay mc=8").expect("5 science tags");
    assert_eq!(g.players[0].prod[Res::Energy.index()], energy + 6);
    let space = with_tag(&g, "space", &[])
        .into_iter()
        .find(|c| cost(&g, *c) >= 10)
        .expect("a space card");
    let ground = with_tag(&g, "building", &[])
        .into_iter()
        .find(|c| cost(&g, *c) >= 10 && !g.card(*c).tags.iter().any(|t| t == "space"))
        .expect("a building card");
    assert_eq!(g.card_cost(0, space), cost(&g, space) - 2);
    assert_eq!(g.card_cost(0, ground), cost(&g, ground));
    assert_eq!(
        g.card_cost(1, space),
        cost(&g, space),
        "green has no converter"
    );
}

#[test]
fn anti_gravity_technology_needs_seven_science_tags_scores_three_and_discounts_every_card() {
    let mut g = bare(2);
    let science = with_tag(
        &g,
        "science",
        &["Mass Converter", "Anti-Gravity Technology"],
    );
    let agt = id(&g, "Anti-Gravity Technology");
    g.players[0].played = science[..6].to_vec();
    g.players[0].hand.push(agt);
    g.players[0].res[0] = 14;
    assert!(apply(&mut g, "red: play Anti-Gravity Technology pay mc=14").is_err());
    assert_eq!(g.players[0].res[0], 14);
    g.players[0].played.push(science[6]);
    let cards_vp = g.score(0)["cards"].as_i64().expect("cards");
    apply(&mut g, "red: play Anti-Gravity Technology pay mc=14").expect("7 science tags");
    assert_eq!(g.score(0)["cards"].as_i64(), Some(cards_vp + 3));
    assert!(g.card_vps(0).contains(&(agt, 3)));
    for tag in ["space", "building", "plant"] {
        let c = with_tag(&g, tag, &[])
            .into_iter()
            .find(|c| cost(&g, *c) >= 10)
            .expect("a card");
        assert_eq!(g.card_cost(0, c), cost(&g, c) - 2, "{}", g.card(c).name);
    }
}

/// Red plays Virus with green holding `animals` on Birds and 6 plants.
fn virus(animals: i32) -> (Game, CardId) {
    let mut g = bare(2);
    let birds = id(&g, "Birds");
    g.players[1].played.push(birds);
    g.players[1].card_res.insert(birds, animals);
    g.players[1].res[Res::Plants.index()] = 6;
    let virus = id(&g, "Virus");
    g.players[0].hand.push(virus);
    g.players[0].res[0] = 1;
    apply(&mut g, "red: play Virus pay mc=1").expect("playable");
    (g, birds)
}

#[test]
fn virus_removes_up_to_two_animals_or_five_plants() {
    let animals = "red: option \"Select card to remove 2 Animal(s)\"";
    for (held, left) in [(3, 1), (2, 0), (1, 0)] {
        let (mut g, birds) = virus(held);
        let listed: Vec<String> = g.legal().iter().map(ToString::to_string).collect();
        assert!(listed.iter().any(|l| l == animals), "{listed:?}");
        apply(&mut g, animals).expect("the animal option");
        assert_eq!(g.players[1].card_res[&birds], left, "{held} animals");
        assert_eq!(g.players[1].res[Res::Plants.index()], 6);
    }
    let (mut g, birds) = virus(3);
    apply(&mut g, "red: option \"Remove 5 plants from green\"").expect("the plant option");
    assert_eq!(g.players[1].res[Res::Plants.index()], 1);
    assert_eq!(g.players[1].card_res[&birds], 3);
    // No animals anywhere: only plants (and skipping) are offered.
    let (g, _) = virus(0);
    let listed: Vec<String> = g.legal().iter().map(ToString::to_string).collect();
    assert!(!listed.iter().any(|l| l == animals), "{listed:?}");
}

/// A solo game at the end of its last generation's action phase, red holding 8 plants, the
/// global parameters at their goals when `terraformed` (else oxygen one step short).
fn last_solo_generation(terraformed: bool) -> Game {
    let mut g = bare(1);
    g.generation = g.content.rules.solo.generations;
    for p in [Param::Oxygen, Param::Temperature, Param::Oceans] {
        g.params[param_index(p)] = g.goal(p);
    }
    if !terraformed {
        g.params[param_index(Param::Oxygen)] -= 1;
    }
    g.players[0].res[Res::Plants.index()] = 8 - g.players[0].prod[Res::Plants.index()];
    g
}

#[test]
fn a_won_solo_game_ends_with_a_final_greenery_and_a_lost_one_without() {
    let mut g = last_solo_generation(true);
    apply(&mut g, "red: pass").expect("pass");
    assert_eq!(g.phase, Phase::Production, "the final greenery is offered");
    let listed: Vec<String> = g.legal().iter().map(ToString::to_string).collect();
    let place = listed
        .iter()
        .find(|l| l.starts_with("red: option \"Select space for greenery tile\""))
        .unwrap_or_else(|| panic!("a final greenery is listed: {listed:?}"))
        .clone();
    let greenery = g.own_tiles(0, "greenery");
    apply(&mut g, &place).expect("placed");
    assert!(g.is_over());
    assert_eq!(g.own_tiles(0, "greenery"), greenery + 1);
    assert_eq!(g.players[0].res[Res::Plants.index()], 0);
    assert_eq!(g.winners(), vec![0]);

    // Not terraformed: the game ends at once, the plants unspent, however close oxygen is.
    let mut g = last_solo_generation(false);
    apply(&mut g, "red: pass").expect("pass");
    assert!(g.is_over());
    assert_eq!(g.players[0].res[Res::Plants.index()], 8);

    // Terraformed before the last generation: the game goes on to the next one.
    let mut g = last_solo_generation(true);
    g.generation -= 1;
    apply(&mut g, "red: pass").expect("pass");
    assert!(!g.is_over());
    assert_eq!(g.generation, g.content.rules.solo.generations);
}
