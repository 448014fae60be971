//! Maps built from the recorded sector placements have exactly the recorded spaces, names and
//! planets.

mod common;

use orrery_core::hex::Hex;
use orrery_gp::map::{Map, Placement};

#[test]
fn recorded_setups_build_the_recorded_maps() {
    let content = common::base();
    let records = common::records();
    assert!(records.len() >= 100, "conformance records present");
    for path in records {
        let rec = common::read_record(&path);
        let setup = &rec["setup"];
        let placements: Vec<Placement> = setup["sectors"]
            .as_array()
            .expect("sectors")
            .iter()
            .map(|s| Placement {
                sector: s["sector"].as_str().expect("id").to_string(),
                rotation: s["rotation"].as_u64().expect("rotation") as u8,
                center: Hex::new(
                    s["center"]["q"].as_i64().expect("q") as i32,
                    s["center"]["r"].as_i64().expect("r") as i32,
                ),
            })
            .collect();
        let map = Map::build(&content, &placements).expect("map builds");
        let hexes = setup["hexes"].as_array().expect("hexes");
        assert_eq!(map.spaces.len(), hexes.len(), "{}", path.display());
        for h in hexes {
            let hex = Hex::new(
                h["q"].as_i64().unwrap() as i32,
                h["r"].as_i64().unwrap() as i32,
            );
            let space = map
                .space(hex)
                .unwrap_or_else(|| panic!("{}: {hex} missing", path.display()));
            let letter = content.planets.planets[usize::from(space.planet)].letter;
            assert_eq!(
                letter.to_string(),
                h["planet"].as_str().unwrap(),
                "{}: planet at {hex}",
                path.display()
            );
            let name = h["name"].as_str().unwrap();
            assert_eq!(
                map.name_of(hex).as_deref(),
                Some(name),
                "{}: name of {hex}",
                path.display()
            );
            let (sector, position) = name.split_at(name.find(['A', 'B', 'C']).unwrap());
            assert_eq!(
                map.hex_named(sector, position),
                Some(hex),
                "{}: {name}",
                path.display()
            );
        }
        assert!(
            map.is_valid(&content),
            "{}: recorded maps obey the adjacency rule",
            path.display()
        );
    }
}

#[test]
fn random_maps_are_valid_and_deterministic() {
    let content = common::base();
    for players in [2, 3, 4] {
        let a = Map::random(&content, players, &mut orrery_core::rng::Rng::new(42)).expect("map");
        let b = Map::random(&content, players, &mut orrery_core::rng::Rng::new(42)).expect("map");
        assert_eq!(a, b);
        assert!(a.is_valid(&content));
        assert_eq!(a.spaces.len(), if players == 2 { 7 * 19 } else { 10 * 19 });
    }
}
