//! Listing remembers each seat's place on the map (its range origins and every planet's
//! distance to them) while its origins and the planets stay the same. A change to the map
//! (a new structure, a planet turned Gaia, a planet placed on empty space, a satellite) made to a clone of a state whose
//! listing was just remembered lists as from scratch, and changes some listings (so a stale
//! place would have shown).

mod common;

use orrery_core::hex::Hex;
use orrery_gp::content::PlanetKind;
use orrery_gp::game::{Game, Structure};
use orrery_gp::notation::Command;
use orrery_gp::record::Record;

/// A change made to the map of a game.
type Change = fn(&mut Game, usize) -> bool;

/// A structure of the seat on the first free planet at distance two from one of its own (or
/// anywhere, when it has none): a new range origin.
fn new_structure(g: &mut Game, seat: usize) -> bool {
    let own: Vec<(Hex, Structure)> = g
        .state
        .structures
        .iter()
        .flat_map(|(i, l)| l.iter().map(move |s| (*i, s.clone())))
        .filter(|(_, s)| s.seat == seat)
        .map(|(i, s)| (g.state.map.spaces[i].hex, s))
        .collect();
    let Some((_, building)) = own.first().cloned() else {
        return false;
    };
    let free = (0..g.state.map.spaces.len()).find(|&i| {
        let hex = g.state.map.spaces[i].hex;
        let kind = g.content.planets.planets[usize::from(g.state.planets[i])].kind;
        kind != PlanetKind::Empty
            && !g.state.structures.contains_key(&i)
            && own.iter().any(|(h, _)| h.distance(hex) == 2)
    });
    let Some(idx) = free else {
        return false;
    };
    g.state.structures.entry_or_default(idx).push(building);
    true
}

/// The first transdim planet without a structure turned Gaia.
fn turned_gaia(g: &mut Game, _seat: usize) -> bool {
    let planets = &g.content.planets.planets;
    let Some(gaia) = planets.iter().position(|p| p.kind == PlanetKind::Gaia) else {
        return false;
    };
    let transdim = (0..g.state.map.spaces.len()).find(|&i| {
        planets[usize::from(g.state.planets[i])].kind == PlanetKind::Transdim
            && !g.state.structures.contains_key(&i)
    });
    let Some(idx) = transdim else {
        return false;
    };
    g.state.planets[idx] = u8::try_from(gaia).expect("few planets");
    true
}

/// A planet of the seat's home type placed on the first empty space at distance two from
/// one of its structures (a planet created during play).
fn planet_placed(g: &mut Game, seat: usize) -> bool {
    let planets = &g.content.planets.planets;
    let Some(home) = g
        .state
        .structures
        .iter()
        .find(|(_, l)| l.iter().any(|s| s.seat == seat))
        .map(|(i, _)| g.state.planets[*i])
    else {
        return false;
    };
    let own = own_hexes(g, seat);
    let free = (0..g.state.map.spaces.len()).find(|&i| {
        let hex = g.state.map.spaces[i].hex;
        planets[usize::from(g.state.planets[i])].kind == PlanetKind::Empty
            && !g.state.structures.contains_key(&i)
            && own.iter().any(|h| h.distance(hex) == 2)
    });
    let Some(idx) = free else {
        return false;
    };
    g.state.planets[idx] = home;
    true
}

/// The hexes of the seat's structures.
fn own_hexes(g: &Game, seat: usize) -> Vec<Hex> {
    g.state
        .structures
        .iter()
        .filter(|(_, l)| l.iter().any(|s| s.seat == seat))
        .map(|(i, _)| g.state.map.spaces[*i].hex)
        .collect()
}

/// A satellite of the seat on the first empty space next to one of its structures.
fn satellite(g: &mut Game, seat: usize) -> bool {
    let own = own_hexes(g, seat);
    let free = (0..g.state.map.spaces.len()).find(|&i| {
        let hex = g.state.map.spaces[i].hex;
        g.content.planets.planets[usize::from(g.state.planets[i])].kind == PlanetKind::Empty
            && own.iter().any(|h| h.distance(hex) == 1)
    });
    let Some(idx) = free else {
        return false;
    };
    let hex = g.state.map.spaces[idx].hex;
    g.state.players[seat].satellites.push(hex);
    true
}

#[test]
fn a_changed_map_lists_as_from_scratch() {
    let content = common::platform_content();
    let changes: [(&str, Change); 4] = [
        ("a new structure", new_structure),
        ("a planet turned Gaia", turned_gaia),
        ("a planet placed", planet_placed),
        ("a satellite", satellite),
    ];
    let mut changed = [0; 4];
    let mut checked = 0;
    for path in common::records().into_iter().take(20) {
        let record = Record::from_json(&common::read_record(&path)).expect("a record");
        record
            .walk_parts(&content, |game, at| {
                let Some(seat) = game.deciding_seat() else {
                    return Ok(());
                };
                // Remembered for this state's structures and planets.
                let before = game.legal_parts();
                if !before.iter().any(|p| matches!(p, Command::Build { .. })) {
                    return Ok(());
                }
                for (n, (what, change)) in changes.iter().enumerate() {
                    let mut g = game.clone();
                    if !change(&mut g, seat) {
                        continue;
                    }
                    let (listed, scratch) = (g.legal_parts(), g.legal_parts_from_scratch());
                    if listed != scratch {
                        return Err(format!(
                            "before `{}` of {:?}, after {what}: listed {listed:?}, from scratch {scratch:?}",
                            at.part, at.line
                        ));
                    }
                    changed[n] += usize::from(listed != before);
                    checked += 1;
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    assert!(checked > 500, "only {checked} changes checked");
    eprintln!("{checked} changes checked, listings changed {changed:?}");
    for (n, (what, _)) in changes.iter().enumerate() {
        assert!(
            changed[n] > 5,
            "{what} changed only {} listings",
            changed[n]
        );
    }
}
