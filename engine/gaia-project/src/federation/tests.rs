//! Tests of the federation rules on small made-up boards.

use super::graph::{connected_sorted, near_federation};
use super::*;
use orrery_core::hex::Hex;
use std::collections::{HashMap, HashSet};

/// A hexagonal board of the given radius around the origin, with planets at some hexes.
struct Board {
    radius: u32,
    planets: HashSet<Hex>,
    buildings: HashMap<Hex, u32>,
    federated: HashSet<Hex>,
}

fn h(q: i32, r: i32) -> Hex {
    Hex::new(q, r)
}

impl Board {
    fn new(radius: u32) -> Board {
        Board {
            radius,
            planets: HashSet::new(),
            buildings: HashMap::new(),
            federated: HashSet::new(),
        }
    }

    /// Places one of the player's buildings (on a planet) with a power value.
    fn build(mut self, at: Hex, value: u32) -> Board {
        self.planets.insert(at);
        self.buildings.insert(at, value);
        self
    }

    /// A planet the player does not hold.
    fn planet(mut self, at: Hex) -> Board {
        self.planets.insert(at);
        self
    }

    /// Marks hexes as an existing federation of the player.
    fn federate(mut self, hexes: &[Hex]) -> Board {
        for &x in hexes {
            if self.buildings.contains_key(&x) {
                self.planets.insert(x);
            }
            self.federated.insert(x);
        }
        self
    }

    fn with<T>(&self, threshold: u32, single: bool, f: impl FnOnce(&FedInput) -> T) -> T {
        let space = |x: Hex| {
            x.distance(Hex::new(0, 0)) <= self.radius
                && !self.planets.contains(&x)
                && !self.federated.contains(&x)
        };
        let mut buildings: Vec<(Hex, u32)> = self
            .buildings
            .iter()
            .filter(|(x, _)| single || !self.federated.contains(x))
            .map(|(x, v)| (*x, *v))
            .collect();
        buildings.sort_unstable();
        let federated = self.federated_sorted();
        let input = FedInput {
            buildings: HexValues::sorted(&buildings).expect("one value a hex"),
            federated: HexSet::sorted(&federated).expect("each hex once"),
            space: &space,
            threshold,
            single_federation: single,
        };
        f(&input)
    }

    /// The federated hexes, sorted.
    fn federated_sorted(&self) -> Vec<Hex> {
        let mut federated: Vec<Hex> = self.federated.iter().copied().collect();
        federated.sort_unstable();
        federated
    }

    fn check(&self, proposal: &[Hex]) -> Result<Federation, FedError> {
        self.with(7, false, |i| check(i, proposal))
    }

    fn available(&self, max: usize) -> Vec<Federation> {
        self.with(7, false, |i| available(i, max))
    }

    fn layouts(&self, max: usize, limit: usize) -> Vec<Federation> {
        self.with(7, false, |i| available_layouts(i, max, limit))
    }
}

/// Every layout of `fed`'s building set with as many satellites, found naively: sets grown
/// one free neighbouring hex at a time (each set once), kept when they pass the check with
/// exactly these buildings.
fn naive_layouts(input: &FedInput, fed: &Federation) -> Vec<Vec<Hex>> {
    let mut base: HashSet<Hex> = fed.buildings.iter().copied().collect();
    if input.single_federation {
        base.extend(input.federated.iter().copied());
    }
    let mut level: HashSet<Vec<Hex>> = HashSet::from([Vec::new()]);
    for _ in 0..fed.satellites.len() {
        let mut next = HashSet::new();
        for sats in &level {
            for x in base.iter().chain(sats).flat_map(|x| x.neighbours()) {
                if base.contains(&x) || sats.contains(&x) || !(input.space)(x) {
                    continue;
                }
                let mut more = sats.clone();
                more.push(x);
                more.sort();
                next.insert(more);
            }
        }
        level = next;
    }
    let mut out: Vec<Vec<Hex>> = level
        .into_iter()
        .filter(|sats| {
            let mut joined: Vec<Hex> = base.iter().chain(sats).copied().collect();
            joined.sort_unstable();
            joined.dedup();
            if !connected_sorted(&joined) {
                return false;
            }
            let mut hexes = fed.buildings.clone();
            hexes.extend(sats);
            check(input, &hexes).is_ok_and(|f| f.buildings == fed.buildings)
        })
        .collect();
    out.sort();
    out
}

/// Checks `available_layouts` against `available`, `check` and the naive enumeration.
fn check_layouts(input: &FedInput, max: usize) -> Vec<Federation> {
    let listed = available(input, max);
    let all = available_layouts(input, max, usize::MAX);
    for f in &listed {
        assert!(all.contains(f), "{f:?} missing from {all:?}");
    }
    // Grouped by building set, in the order of `available`, layouts sorted and distinct.
    let mut i = 0;
    for f in &listed {
        let j = i + all[i..]
            .iter()
            .take_while(|g| g.buildings == f.buildings)
            .count();
        let layouts: Vec<Vec<Hex>> = all[i..j].iter().map(|g| g.satellites.clone()).collect();
        assert!(layouts.windows(2).all(|w| w[0] < w[1]), "{layouts:?}");
        for g in &all[i..j] {
            assert_eq!(g.satellites.len(), f.satellites.len());
            assert_eq!(g.value, f.value);
            assert_eq!(g.old_satellites, f.old_satellites);
            assert!(g.satellites.windows(2).all(|w| w[0] < w[1]));
            assert_eq!(check(input, &g.hexes()).as_ref(), Ok(g));
            // The whole grown federation is named, old satellites included.
            let hexes = g.hexes();
            if input.single_federation {
                assert!(input.federated.iter().all(|x| hexes.contains(x)), "{g:?}");
            } else {
                assert!(g.old_satellites.is_empty());
            }
        }
        if f.satellites.len() <= 4 {
            assert_eq!(layouts, naive_layouts(input, f), "{f:?}");
        }
        i = j;
    }
    assert_eq!(i, all.len());
    all
}

/// The satellite sets of the layouts.
fn satellites(listed: &[Federation]) -> Vec<Vec<Hex>> {
    listed.iter().map(|f| f.satellites.clone()).collect()
}

/// Two buildings worth 4 and 3, three hexes apart on a line.
fn pair() -> Board {
    Board::new(5).build(h(0, 0), 4).build(h(3, 0), 3)
}

/// The small xorshift generator of these tests' pseudo-random boards and proposals.
struct Xorshift(u64);

impl Xorshift {
    /// The next number below `m` (at least 1).
    fn below(&mut self, m: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % m
    }

    /// A hex whose two axial coordinates are each within `radius` of the centre's (it may
    /// lie off a board of that radius).
    fn hex(&mut self, radius: u32) -> Hex {
        let span = 2 * u64::from(radius) + 1;
        let q = self.below(span) as i32 - radius as i32;
        let r = self.below(span) as i32 - radius as i32;
        h(q, r)
    }
}

/// A pseudo-random board of `radius`: `count` hexes drawn, every `planet_every`-th an empty
/// planet and the others buildings of power 1 to 3 (a hex off the board or already a planet
/// passed over), and the building on the lowest hex federated when `federate`.
fn random_board(
    rng: &mut Xorshift,
    radius: u32,
    count: usize,
    planet_every: usize,
    federate: bool,
) -> Board {
    let mut b = Board::new(radius);
    let cells: Vec<Hex> = (0..count).map(|_| rng.hex(radius)).collect();
    for (i, &x) in cells.iter().enumerate() {
        if x.distance(h(0, 0)) > radius || b.planets.contains(&x) {
            continue;
        }
        if i % planet_every == planet_every - 1 {
            b = b.planet(x);
        } else {
            b = b.build(x, 1 + (i as u32 % 3));
        }
    }
    if federate {
        if let Some(&x) = b.buildings.keys().min() {
            b = b.federate(&[x]);
        }
    }
    b
}

#[test]
fn connected_or_not() {
    let b = pair();
    let fed = b.check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0)]).unwrap();
    assert_eq!(fed.buildings, vec![h(0, 0), h(3, 0)]);
    assert_eq!(fed.satellites, vec![h(1, 0), h(2, 0)]);
    assert_eq!(fed.value, 7);
    assert_eq!(
        b.check(&[h(0, 0), h(1, 0), h(3, 0)]),
        Err(FedError::NotConnected)
    );
    assert_eq!(b.check(&[h(0, 0), h(3, 0)]), Err(FedError::NotConnected));
}

#[test]
fn value_below_threshold() {
    let b = Board::new(4).build(h(0, 0), 3).build(h(2, 0), 3);
    let err = b.check(&[h(0, 0), h(1, 0), h(2, 0)]).unwrap_err();
    assert_eq!(
        err,
        FedError::BelowThreshold {
            value: 6,
            threshold: 7
        }
    );
    assert_eq!(err.to_string(), "value 6 below 7");
    assert!(b.available(10).is_empty());
}

#[test]
fn bad_hexes() {
    let b = pair().planet(h(1, 1));
    assert_eq!(b.check(&[]), Err(FedError::Empty));
    assert_eq!(
        b.check(&[h(0, 0), h(0, 0)]),
        Err(FedError::Repeated(h(0, 0)))
    );
    assert_eq!(
        b.check(&[h(0, 0), h(1, 1)]),
        Err(FedError::NotUsable(h(1, 1)))
    );
    assert_eq!(
        b.check(&[h(0, 0), h(9, 0)]),
        Err(FedError::NotUsable(h(9, 0)))
    );
}

#[test]
fn detour_rejected() {
    let b = pair();
    // Around: (0,0) (1,-1) (2,-1) (3,-1) touches (3,0) with three satellites.
    let err = b
        .check(&[h(0, 0), h(1, -1), h(2, -1), h(3, -1), h(3, 0)])
        .unwrap_err();
    assert_eq!(err, FedError::SameBuildingsFewer { needed: 2, used: 3 });
    assert_eq!(
        err.to_string(),
        "needs fewer satellites: a federation of the same planets needs 2, not 3"
    );
    // A satellite that joins nothing.
    let err = b
        .check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0), h(4, 0)])
        .unwrap_err();
    assert_eq!(err, FedError::SameBuildingsFewer { needed: 2, used: 3 });
}

#[test]
fn one_planet_and_one_satellite_fewer() {
    // 4 and 3 joined by one satellite; a mine worth 1 one satellite further.
    let b = Board::new(5)
        .build(h(0, 0), 4)
        .build(h(2, 0), 3)
        .build(h(0, 2), 1);
    assert!(b.check(&[h(0, 0), h(1, 0), h(2, 0)]).is_ok());
    let err = b
        .check(&[h(0, 0), h(1, 0), h(2, 0), h(0, 1), h(0, 2)])
        .unwrap_err();
    assert!(
        matches!(
            err,
            FedError::SubsetFewer {
                needed: 1,
                used: 2,
                ..
            }
        ),
        "{err}"
    );
    let listed = b.available(10);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].buildings, vec![h(0, 0), h(2, 0)]);
}

/// A worth-3 building and two worth-2 ones whose shortest links pass a worth-1 one.
fn through_extra() -> Board {
    Board::new(6)
        .build(h(0, 0), 3)
        .build(h(2, 0), 1)
        .build(h(4, 0), 2)
        .build(h(2, 2), 2)
}

#[test]
fn above_threshold_through_extra_buildings() {
    let b = through_extra();
    // The middle building need not be listed: the satellites touch it.
    let fed = b
        .check(&[h(0, 0), h(1, 0), h(3, 0), h(4, 0), h(2, 1), h(2, 2)])
        .unwrap();
    assert_eq!(fed.value, 8);
    assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)]);
    assert_eq!(fed.satellites.len(), 3);
    let listed = b.available(10);
    assert!(
        listed
            .iter()
            .any(|f| f.buildings == fed.buildings && f.satellites.len() == 3),
        "{listed:?}"
    );
    // Going around the middle building to leave it out costs more: a superset is cheaper.
    let around = [
        h(0, 0),
        h(0, 1),
        h(0, 2),
        h(1, 2),
        h(2, 2),
        h(3, 1),
        h(4, 0),
    ];
    let err = b.check(&around);
    assert_eq!(err, Err(FedError::SupersetFewer { needed: 3, used: 4 }));
}

#[test]
fn adjacent_buildings_join() {
    // Adjacent buildings are connected without satellites and always join.
    let b = Board::new(4)
        .build(h(0, 0), 3)
        .build(h(1, 0), 2)
        .build(h(2, 0), 2)
        .build(h(0, 2), 1);
    let fed = b.check(&[h(0, 0)]).unwrap();
    assert_eq!(fed.buildings, vec![h(0, 0), h(1, 0), h(2, 0)]);
    assert!(fed.satellites.is_empty());
    assert_eq!(b.available(5), vec![fed]);
    // Adding the far one with a satellite is not allowed: the group alone suffices.
    assert!(matches!(
        b.check(&[h(0, 0), h(0, 1), h(0, 2)]),
        Err(FedError::SubsetFewer { needed: 0, .. })
    ));
}

#[test]
fn touching_a_federation() {
    let b = pair().build(h(0, -3), 2).federate(&[h(0, -3), h(0, -2)]);
    // (1,-1)… fine; a satellite at (0,-1) touches the federation's satellite at (0,-2).
    assert!(b.check(&[h(0, 0), h(1, 0), h(2, 0), h(3, 0)]).is_ok());
    let err = b.check(&[h(0, 0), h(0, -1)]).unwrap_err();
    assert_eq!(err, FedError::TouchesFederation(h(0, -1)));
    assert_eq!(err.to_string(), "touches an existing federation at 0x-1");
    assert_eq!(
        b.check(&[h(0, -3)]),
        Err(FedError::TouchesFederation(h(0, -3)))
    );
    // The only path avoiding it is used by the listing.
    let listed = b.available(10);
    assert_eq!(listed.len(), 1);
    assert!(listed[0].satellites.iter().all(|&x| !near_federation(
        HexSet::sorted(&b.federated_sorted()).expect("each hex once"),
        x
    )));
}

/// A board with one federation worth 7: buildings at (0,0) worth 4 and (2,0) worth 3,
/// joined by a satellite at (1,0).
fn federated_seven() -> Board {
    Board::new(6)
        .build(h(0, 0), 4)
        .build(h(2, 0), 3)
        .federate(&[h(0, 0), h(1, 0), h(2, 0)])
}

#[test]
fn single_federation_extension() {
    // An existing federation worth 7: buildings at (0,0) and (2,0) with a satellite.
    let b = federated_seven()
        .build(h(4, 0), 3)
        .build(h(2, 2), 4)
        .build(h(-3, 0), 7);
    b.with(14, true, |input| {
        // Both new buildings, each one satellite away: 7 + 3 + 4 = 14.
        let fed = check(input, &[h(2, 0), h(3, 0), h(4, 0), h(2, 1), h(2, 2)]).unwrap();
        assert_eq!(fed.value, 14);
        assert_eq!(fed.satellites, vec![h(2, 1), h(3, 0)]);
        assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)]);
        // Old hexes may be listed or not.
        assert_eq!(
            check(
                input,
                &[
                    h(0, 0),
                    h(1, 0),
                    h(2, 0),
                    h(3, 0),
                    h(4, 0),
                    h(2, 1),
                    h(2, 2)
                ]
            ),
            Ok(fed.clone())
        );
        // Not reaching the doubled threshold.
        assert_eq!(
            check(input, &[h(3, 0), h(4, 0)]),
            Err(FedError::BelowThreshold {
                value: 10,
                threshold: 14
            })
        );
        // A separate federation is not allowed.
        assert_eq!(check(input, &[h(-3, 0)]), Err(FedError::MustExtend));
        // The far building via two satellites is also a legal extension (7 + 7).
        let far = check(input, &[h(-3, 0), h(-2, 0), h(-1, 0)]).unwrap();
        assert_eq!(far.value, 14);
        let listed = available(input, 5);
        assert!(listed.contains(&fed) || listed.iter().any(|f| f.buildings == fed.buildings));
        assert!(listed.iter().any(|f| f.buildings == far.buildings));
        for f in &listed {
            assert_eq!(check(input, &f.hexes()).as_ref(), Ok(f));
        }
    });
    // A grown federation already worth the threshold is a legal (empty) extension.
    b.with(7, true, |input| {
        let fed = check(input, &[h(0, 0), h(1, 0), h(2, 0)]).unwrap();
        assert!(fed.satellites.is_empty());
        assert_eq!(available(input, 3), vec![fed]);
    });
}

#[test]
fn single_federation_names_old_satellites() {
    // An existing federation worth 7 with a satellite at (1,0); new buildings next to it
    // (3,0) worth 3 and (2,1) worth 4 grow it to 14 with no new satellite.
    let b = federated_seven()
        .build(h(3, 0), 3)
        .build(h(2, 1), 4)
        .build(h(-3, 0), 7);
    b.with(14, true, |input| {
        // As recorded games write it: the whole grown federation, old satellite included.
        let whole = [h(0, 0), h(1, 0), h(2, 0), h(2, 1), h(3, 0)];
        let fed = check(input, &whole).unwrap();
        assert_eq!(fed.buildings, vec![h(0, 0), h(2, 0), h(2, 1), h(3, 0)]);
        assert!(fed.satellites.is_empty());
        assert_eq!(fed.old_satellites, vec![h(1, 0)]);
        assert_eq!(fed.value, 14);
        assert_eq!(fed.hexes(), whole.to_vec());
        // Naming only the new buildings forms the same federation.
        assert_eq!(check(input, &[h(2, 1), h(3, 0)]), Ok(fed.clone()));
        // The listing names it the same way.
        let all = check_layouts(input, 3);
        assert_eq!(all[0], fed);
        assert_eq!(available(input, 3), vec![fed]);
    });
    // Without the new neighbours, the far building with two new satellites: the old
    // satellite is named too.
    let b = federated_seven().build(h(-3, 0), 7);
    b.with(14, true, |input| {
        let all = check_layouts(input, 3);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].satellites, vec![h(-2, 0), h(-1, 0)]);
        assert_eq!(all[0].old_satellites, vec![h(1, 0)]);
        assert_eq!(
            all[0].hexes(),
            vec![h(-3, 0), h(-2, 0), h(-1, 0), h(0, 0), h(1, 0), h(2, 0)]
        );
    });
    // Outside single-federation mode no old satellite is ever named.
    b.with(7, false, |input| {
        assert!(check_layouts(input, 3)
            .iter()
            .all(|f| f.old_satellites.is_empty()));
    });
}

#[test]
fn listing_is_minimal_and_checkable() {
    // A scattered position: every listed federation passes the check, and adding any free
    // neighbouring satellite to it fails.
    let b = Board::new(6)
        .build(h(0, 0), 3)
        .build(h(3, -1), 2)
        .build(h(-2, 3), 2)
        .build(h(1, 3), 1)
        .build(h(2, 3), 1)
        .build(h(-3, 0), 2)
        .build(h(4, -4), 3)
        .planet(h(1, 1))
        .planet(h(-1, 1));
    let listed = b.available(8);
    assert!(!listed.is_empty());
    for f in &listed {
        let hexes = f.hexes();
        assert_eq!(b.check(&hexes).as_ref(), Ok(f));
        for x in hexes.iter().flat_map(|x| x.neighbours()) {
            if hexes.contains(&x) || b.planets.contains(&x) || x.distance(h(0, 0)) > 6 {
                continue;
            }
            let mut more = hexes.clone();
            more.push(x);
            assert!(b.check(&more).is_err(), "{more:?}");
        }
    }
    // Sorted by satellites, and a smaller budget lists a prefix of them.
    assert!(listed
        .windows(2)
        .all(|w| w[0].satellites.len() <= w[1].satellites.len()));
    let few = b.available(2);
    assert!(few
        .iter()
        .all(|f| f.satellites.len() <= 2 && listed.contains(f)));
}

#[test]
fn layouts_between_two_buildings() {
    // On a line: one shortest path.
    let b = pair();
    let all = b.with(7, false, |i| check_layouts(i, 5));
    assert_eq!(satellites(&all), vec![vec![h(1, 0), h(2, 0)]]);
    // Two steps along q and one along r, in any order: three paths.
    let b = Board::new(5).build(h(0, 0), 4).build(h(2, 1), 3);
    let all = b.with(7, false, |i| check_layouts(i, 5));
    assert_eq!(
        satellites(&all),
        vec![
            vec![h(0, 1), h(1, 1)],
            vec![h(1, 0), h(1, 1)],
            vec![h(1, 0), h(2, 0)],
        ]
    );
    assert!(all.iter().all(|f| f.buildings == vec![h(0, 0), h(2, 1)]));
    // A planet on (1,1) leaves one.
    let b = b.planet(h(1, 1));
    let all = b.with(7, false, |i| check_layouts(i, 5));
    assert_eq!(satellites(&all), vec![vec![h(1, 0), h(2, 0)]]);
    // Two steps along each: C(4,2) = 6 paths of three satellites.
    let b = Board::new(5).build(h(0, 0), 4).build(h(2, 2), 3);
    let all = b.with(7, false, |i| check_layouts(i, 5));
    assert_eq!(all.len(), 6);
    assert!(all.iter().all(|f| f.satellites.len() == 3));
    // Not enough satellites: nothing.
    assert!(b.layouts(2, 100).is_empty());
}

#[test]
fn layouts_of_scattered_positions() {
    let b = Board::new(6)
        .build(h(0, 0), 3)
        .build(h(3, -1), 2)
        .build(h(-2, 3), 2)
        .build(h(1, 3), 1)
        .build(h(2, 3), 1)
        .build(h(-3, 0), 2)
        .build(h(4, -4), 3)
        .planet(h(1, 1))
        .planet(h(-1, 1));
    let all = b.with(7, false, |i| check_layouts(i, 6));
    assert!(all.len() > b.available(6).len());
    b.with(7, false, |i| check_layouts(i, 2));
    through_extra().with(7, false, |i| check_layouts(i, 6));
    Board::new(5)
        .build(h(0, 0), 4)
        .build(h(2, 0), 3)
        .build(h(0, 2), 1)
        .with(7, false, |i| check_layouts(i, 6));
    pair()
        .build(h(0, -3), 2)
        .federate(&[h(0, -3), h(0, -2)])
        .with(7, false, |i| check_layouts(i, 6));
    // Pseudo-random boards, with an existing federation on some.
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    for round in 0..40 {
        let radius = 5;
        let b = random_board(&mut rng, radius, 16, 4, round % 4 == 3);
        for single in [false, true] {
            if single && b.federated.is_empty() {
                continue;
            }
            let thr = if single { 6 } else { 7 };
            b.with(thr, single, |i| check_layouts(i, 4));
        }
    }
}

#[test]
fn layouts_in_single_federation_mode() {
    let b = federated_seven()
        .build(h(4, 0), 3)
        .build(h(2, 2), 4)
        .build(h(-3, 0), 7);
    b.with(14, true, |input| {
        let all = check_layouts(input, 5);
        // West: one straight path. East: (3,0) or (3,1) reaches (4,0), (2,1) or (3,1)
        // reaches (2,2), and the two must touch the federation.
        assert_eq!(
            satellites(&all),
            vec![
                vec![h(-2, 0), h(-1, 0)],
                vec![h(2, 1), h(3, 0)],
                vec![h(2, 1), h(3, 1)],
                vec![h(3, 0), h(3, 1)],
            ]
        );
        assert_eq!(all[0].buildings, vec![h(-3, 0), h(0, 0), h(2, 0)]);
        assert!(all[1..]
            .iter()
            .all(|f| f.buildings == vec![h(0, 0), h(2, 0), h(2, 2), h(4, 0)] && f.value == 14));
    });
    b.with(7, true, |input| {
        assert_eq!(check_layouts(input, 3).len(), 1);
    });
}

#[test]
fn layouts_limit() {
    let b = Board::new(6)
        .build(h(0, 0), 3)
        .build(h(3, -1), 2)
        .build(h(-2, 3), 2)
        .build(h(1, 3), 1)
        .build(h(2, 3), 1)
        .build(h(-3, 0), 2)
        .build(h(4, -4), 3);
    let full = b.layouts(6, usize::MAX);
    assert!(full.len() > 10);
    for limit in 0..full.len() + 3 {
        let cut = b.layouts(6, limit);
        assert_eq!(cut.len(), limit.min(full.len()));
        assert!(cut.iter().all(|f| full.contains(f)));
        // Whole building sets before the last one listed.
        if let Some(last) = cut.last() {
            let whole = cut
                .iter()
                .take_while(|f| f.buildings != last.buildings)
                .count();
            assert_eq!(cut[..whole], full[..whole]);
            assert!(cut[whole..].iter().all(|f| f.buildings == last.buildings));
        }
    }
}

/// The sorted lists the rules read: lookups find exactly the listed hexes and their values,
/// and a list out of order or with a hex twice is refused.
#[test]
fn sorted_hex_lists_find_what_they_hold() {
    let hexes = [h(-1, 2), h(0, 0), h(0, 3), h(2, -1)];
    let set = HexSet::sorted(&hexes).expect("sorted");
    let values = [(h(-1, 2), 3), (h(0, 0), 1), (h(2, -1), 2)];
    let map = HexValues::sorted(&values).expect("sorted");
    for q in -3..=3 {
        for r in -3..=3 {
            let x = h(q, r);
            assert_eq!(set.contains(&x), hexes.contains(&x), "{x}");
            let want = values.iter().find(|(y, _)| *y == x).map(|(_, v)| v);
            assert_eq!(map.get(&x), want, "{x}");
            assert_eq!(map.contains_key(&x), want.is_some(), "{x}");
        }
    }
    assert_eq!(
        map.keys().copied().collect::<Vec<_>>(),
        [h(-1, 2), h(0, 0), h(2, -1)]
    );
    assert!(
        HexSet::sorted(&[h(0, 1), h(0, 0)]).is_none(),
        "out of order"
    );
    assert!(HexSet::sorted(&[h(0, 0), h(0, 0)]).is_none(), "a hex twice");
    assert!(
        HexValues::sorted(&[(h(0, 0), 1), (h(0, 0), 2)]).is_none(),
        "a hex twice"
    );
    assert!(HexSet::sorted(&[]).is_some_and(|s| s.is_empty()));
}

/// The buildings `a` and `z` and a shortest line of free hexes joining them that touches no
/// other of the player's buildings (`owned`), if there is one.
fn path_around(input: &FedInput, a: Hex, z: Hex, owned: &[Hex]) -> Option<Vec<Hex>> {
    let free = |x: Hex| {
        (input.space)(x)
            && !owned.contains(&x)
            && x.neighbours()
                .iter()
                .all(|n| *n == a || *n == z || !owned.contains(n))
    };
    let mut before: HashMap<Hex, Hex> = HashMap::new();
    let mut queue = std::collections::VecDeque::from([a]);
    while let Some(x) = queue.pop_front() {
        for n in x.neighbours() {
            if n == z && x != a {
                let mut out = vec![a, z];
                let mut at = x;
                while at != a {
                    out.push(at);
                    at = before[&at];
                }
                return Some(out);
            }
            if free(n) && !before.contains_key(&n) {
                before.insert(n, x);
                queue.push_back(n);
            }
        }
    }
    None
}

/// The check's shortcuts to the fewest satellites answer as the Dreyfus–Wagner programme: on
/// pseudo-random boards, random proposals near the player's buildings (listed federations,
/// the same with a satellite more or less, two buildings joined around the others, and loose
/// sets of buildings and hexes) get exactly the same answer, accepted or refused.
#[test]
fn fast_check_answers_as_the_full_search() {
    use super::check::{checked, Search};
    let mut rng = Xorshift(0x2545_F491_4F6C_DD1D);
    // Answers seen: accepted, refused for each kind of "fewer satellites", refused otherwise.
    let mut seen = [0usize; 5];
    let mut every_group = 0;
    for round in 0..300 {
        let radius = 5 + (round % 3) as u32;
        // Few buildings on some boards (every group in most proposals), many on others.
        let count = [4, 5, 7, 20][round % 4];
        let b = random_board(&mut rng, radius, count, 5, round % 3 == 2);
        let mut owned: Vec<Hex> = b.buildings.keys().copied().collect();
        owned.sort_unstable();
        if owned.is_empty() {
            continue;
        }
        for single in [false, true] {
            if single && b.federated.is_empty() {
                continue;
            }
            let threshold = 3 + (round % 6) as u32;
            b.with(threshold, single, |input| {
                let mut proposals: Vec<Vec<Hex>> = Vec::new();
                for f in available_layouts(input, 6, 40) {
                    let hexes = f.hexes();
                    // One satellite fewer, or one more next to the federation.
                    let mut less = hexes.clone();
                    if let Some(i) = less.iter().position(|x| f.satellites.contains(x)) {
                        less.remove(i);
                        proposals.push(less);
                    }
                    let around = hexes[rng.below(hexes.len() as u64) as usize];
                    let extra = around.neighbours()[rng.below(6) as usize];
                    if !hexes.contains(&extra) {
                        let mut more = hexes.clone();
                        more.push(extra);
                        proposals.push(more);
                    }
                    proposals.push(hexes);
                }
                for _ in 0..12 {
                    // Two buildings joined around the others (cheaper through them, at times).
                    let a = owned[rng.below(owned.len() as u64) as usize];
                    let z = owned[rng.below(owned.len() as u64) as usize];
                    if let Some(path) = path_around(input, a, z, &owned) {
                        proposals.push(path);
                    }
                }
                for _ in 0..30 {
                    // A few buildings and hexes around them.
                    let mut p: Vec<Hex> = Vec::new();
                    for _ in 0..1 + rng.below(3) {
                        let x = owned[rng.below(owned.len() as u64) as usize];
                        if !p.contains(&x) {
                            p.push(x);
                        }
                    }
                    for _ in 0..rng.below(6) {
                        let from = p[rng.below(p.len() as u64) as usize];
                        let x = from.neighbours()[rng.below(6) as usize];
                        if !p.contains(&x) {
                            p.push(x);
                        }
                    }
                    // Shuffled, sometimes with a hex twice.
                    for i in (1..p.len()).rev() {
                        p.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                    if rng.below(10) == 0 {
                        p.push(p[0]);
                    }
                    proposals.push(p);
                }
                for p in &proposals {
                    let near = checked(input, p, Search::Fast);
                    assert_eq!(near, checked(input, p, Search::Steiner), "{p:?}");
                    assert_eq!(near, check(input, p));
                    if let Ok(f) = &near {
                        // Every usable building joined: the proposal held every group.
                        let usable = b
                            .buildings
                            .keys()
                            .filter(|x| single || !b.federated.contains(x));
                        if f.buildings.len() == usable.count() {
                            every_group += 1;
                        }
                    }
                    seen[match near {
                        Ok(_) => 0,
                        Err(FedError::SameBuildingsFewer { .. }) => 1,
                        Err(FedError::SubsetFewer { .. }) => 2,
                        Err(FedError::SupersetFewer { .. }) => 3,
                        Err(_) => 4,
                    }] += 1;
                }
            });
        }
    }
    // Every kind of answer was compared, many times.
    assert!(seen.iter().all(|&n| n >= 20), "{seen:?}");
    assert!(every_group >= 200, "{every_group}");
}

/// The space hexes of the search graph, their order, adjacency rows and touched groups, as a
/// plain search over the hexes finds them (hash maps, no box), on pseudo-random boards for
/// every budget up to six, with and without an existing federation and the single rule.
#[test]
fn graph_spaces_as_a_plain_search_finds_them() {
    use super::graph::Graph;
    let mut rng = Xorshift(0x9E37_79B9_7F4A_7C15);
    let mut spaces_seen = 0;
    for round in 0..120 {
        let radius = 4 + (round % 3) as u32;
        let mut b = Board::new(radius);
        for i in 0..[3, 6, 12][round % 3] {
            let x = rng.hex(radius);
            if x.distance(h(0, 0)) > radius || b.planets.contains(&x) {
                continue;
            }
            b = match i % 4 {
                3 => b.planet(x),
                _ => b.build(x, 1 + i % 3),
            };
        }
        if round % 2 == 1 {
            if let Some(&x) = b.buildings.keys().min() {
                let next_to = x.neighbours()[rng.below(6) as usize];
                b = b.federate(&[x, next_to]);
            }
        }
        for single in [false, true] {
            for budget in 0..=6 {
                b.with(7, single, |input| {
                    let g = Graph::without_rows(input, budget);
                    let k = g.groups.len();
                    // Member hexes with their group's bit (`None`: an unusable cluster).
                    let member: HashMap<Hex, Option<usize>> = g
                        .comps
                        .iter()
                        .flat_map(|c| c.hexes.iter().map(move |x| (*x, c.bit)))
                        .collect();
                    let usable = |x: Hex| {
                        !member.contains_key(&x)
                            && (input.space)(x)
                            && (single || !near_federation(input.federated, x))
                            && x.neighbours()
                                .iter()
                                .all(|n| member.get(n).is_none_or(|b| b.is_some()))
                    };
                    let mut spaces: Vec<Hex> = Vec::new();
                    let mut node: HashMap<Hex, usize> = HashMap::new();
                    let mut seen: HashSet<Hex> = HashSet::new();
                    let mut frontier: Vec<Hex> = match budget {
                        0 => Vec::new(),
                        _ => g.groups.iter().flat_map(|x| x.hexes.clone()).collect(),
                    };
                    for _ in 0..budget {
                        let mut layer = Vec::new();
                        for x in &frontier {
                            for n in x.neighbours() {
                                if seen.insert(n) && usable(n) {
                                    node.insert(n, k + spaces.len());
                                    spaces.push(n);
                                    layer.push(n);
                                }
                            }
                        }
                        frontier = layer;
                    }
                    let mut rows: Vec<Vec<u32>> = vec![Vec::new(); k + spaces.len()];
                    let mut touch: Vec<u64> = (0..k).map(|b| 1 << b).collect();
                    touch.resize(k + spaces.len(), 0);
                    for (j, x) in spaces.iter().enumerate() {
                        let v = k + j;
                        for n in x.neighbours() {
                            if let Some(&u) = node.get(&n) {
                                rows[v].push(u as u32);
                            } else if let Some(Some(bit)) = member.get(&n) {
                                if touch[v] & (1 << bit) == 0 {
                                    touch[v] |= 1 << bit;
                                    rows[v].push(*bit as u32);
                                    rows[*bit].push(v as u32);
                                }
                            }
                        }
                    }
                    assert_eq!(g.spaces, spaces, "round {round} budget {budget}");
                    assert_eq!(g.touch, touch, "round {round} budget {budget}");
                    for (v, row) in rows.iter().enumerate() {
                        let (from, to) = (g.off[v] as usize, g.off[v + 1] as usize);
                        assert_eq!(&g.nbr[from..to], &row[..], "round {round} node {v}");
                    }
                    assert_eq!(g.off.len(), rows.len() + 1);
                    spaces_seen += spaces.len();
                });
            }
        }
    }
    assert!(spaces_seen > 10_000, "{spaces_seen}");
}
