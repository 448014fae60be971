//! What a picture of a board shows, as plain data: the one place that reads a Gaia Project
//! game. The drawing code reads only this view, so another game's pictures need another
//! `from_…` function, not another renderer.

use orrery_core::hex::Hex;
use orrery_gp::board::FactionBoard;
use orrery_gp::content::{BuildingRole, Content, PlanetKind};
use orrery_gp::game::{Game, Stage};
use orrery_gp::power::Area;

/// Colour of anything content gives no colour.
pub const NO_COLOUR: &str = "#9aa0a8";

/// How a piece on the map is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Shape {
    /// A mine: a small house.
    Mine,
    /// A trading station: a square.
    TradingStation,
    /// A research lab: a triangle.
    Lab,
    /// A planetary institute: a hexagon.
    Institute,
    /// An academy: a circle with its number.
    Academy,
    /// A Gaiaformer: a ring.
    Gaiaformer,
    /// A space station on empty space: a diamond.
    Station,
    /// Any other building: a rounded box with its id.
    Other,
}

/// How a space of a planet type is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanetStyle {
    /// Content id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Fill colour.
    pub colour: String,
    /// Empty space (no planet disc).
    pub empty: bool,
    /// Drawn as a ringed disc (not habitable until changed, or created in play).
    pub ringed: bool,
}

/// One space of the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// Where.
    pub hex: Hex,
    /// Index of its sector.
    pub sector: usize,
    /// Its name (`4B2`).
    pub name: String,
    /// Index into [`BoardView::planets`] of what is there now.
    pub planet: usize,
}

/// A building, station or Gaiaformer on the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Where.
    pub hex: Hex,
    /// Owner.
    pub seat: usize,
    /// How it is drawn.
    pub shape: Shape,
    /// Building id (`m`, `ac1`, …).
    pub id: String,
    /// A short mark drawn on it (an academy's number), or empty.
    pub mark: String,
}

/// One seat's panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatView {
    /// Faction display name (or `p1` before a faction is chosen).
    pub name: String,
    /// Player colour.
    pub colour: String,
    /// Victory points.
    pub vp: i32,
    /// Other resources: `(code, amount)` in the content's order.
    pub resources: Vec<(String, i32)>,
    /// Tokens in areas I, II, III and Gaia (the special token not counted).
    pub power: [u32; 4],
    /// The special token: its id and area (`I`, `II`, `III`, `Gaia`, or `out`).
    pub special: Option<(String, String)>,
    /// Research: `(track id, level, top level)`.
    pub research: Vec<(String, u32, u32)>,
    /// Tiles owned, as short labels (`tech3`, `adv5`, `fed2 (green)`, booster).
    pub tiles: Vec<String>,
    /// Gaiaformers owned and not on the map.
    pub gaiaformers: u32,
    /// Passed this round.
    pub passed: bool,
    /// The seat to decide next.
    pub to_move: bool,
}

/// A tile on the shared board: id, description, and a note (copies left, taken, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileView {
    /// Id.
    pub id: String,
    /// Description.
    pub name: String,
    /// Extra text, or empty.
    pub note: String,
    /// Shown highlighted (the current round's tile).
    pub current: bool,
}

/// Everything a board picture shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// One line saying which state this is.
    pub caption: String,
    /// Planet styles, by content planet index.
    pub planets: Vec<PlanetStyle>,
    /// Sector labels, by sector index.
    pub sectors: Vec<String>,
    /// Every space.
    pub cells: Vec<Cell>,
    /// Pieces on the map, in a stable order.
    pub pieces: Vec<Piece>,
    /// Satellites: `(hex, seat)`.
    pub satellites: Vec<(Hex, usize)>,
    /// Federations: `(seat, member hexes)`.
    pub federations: Vec<(usize, Vec<Hex>)>,
    /// One panel per seat.
    pub seats: Vec<SeatView>,
    /// Round scoring tiles, round 1 first.
    pub rounds: Vec<TileView>,
    /// Boosters still to take.
    pub boosters: Vec<TileView>,
    /// The tech board: standard tiles by position, then advanced tiles.
    pub techs: Vec<TileView>,
    /// Final scoring tiles.
    pub finals: Vec<TileView>,
    /// Federation tokens in the supply.
    pub fed_tokens: Vec<TileView>,
    /// What each shape means: `(shape, mark, name)`.
    pub legend: Vec<(Shape, String, String)>,
    /// What the panels' abbreviations mean: `(code, name)`.
    pub abbreviations: Vec<(String, String)>,
}

/// The shape of a building, by its role and id.
fn shape_of(role: BuildingRole, id: &str) -> Shape {
    match role {
        BuildingRole::Gaiaformer => Shape::Gaiaformer,
        BuildingRole::Station => Shape::Station,
        BuildingRole::Structure => match id {
            "m" => Shape::Mine,
            "ts" => Shape::TradingStation,
            "lab" => Shape::Lab,
            "PI" => Shape::Institute,
            _ if id.starts_with("ac") => Shape::Academy,
            _ => Shape::Other,
        },
    }
}

/// The mark drawn on a piece: an academy's number, another building's id.
fn mark_of(shape: Shape, id: &str) -> String {
    match shape {
        Shape::Academy => id.trim_start_matches("ac").to_string(),
        Shape::Other => id.to_string(),
        _ => String::new(),
    }
}

/// A seat's colour: its faction's, else its home planet's, else grey.
pub fn faction_colour(content: &Content, faction: &str) -> String {
    let Some(f) = content.faction(faction) else {
        return NO_COLOUR.to_string();
    };
    f.colour
        .clone()
        .or_else(|| {
            content
                .planets
                .planets
                .iter()
                .find(|p| p.id == f.home)
                .and_then(|p| p.colour.clone())
        })
        .unwrap_or_else(|| NO_COLOUR.to_string())
}

fn area_name(a: Option<Area>) -> &'static str {
    match a {
        Some(Area::I) => "I",
        Some(Area::II) => "II",
        Some(Area::III) => "III",
        Some(Area::Gaia) => "Gaia",
        None => "out",
    }
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Setup => "setup",
        Stage::Income => "income",
        Stage::Gaia => "Gaia phase",
        Stage::Actions => "actions",
        Stage::Finished => "game over",
    }
}

impl BoardView {
    /// The view of a game's state; `label` starts the caption (e.g. `move 40`).
    pub fn of_game(game: &Game, label: &str) -> BoardView {
        let content = &game.content;
        let state = &game.state;
        let map = &state.map;
        let planets: Vec<PlanetStyle> = content
            .planets
            .planets
            .iter()
            .map(|p| PlanetStyle {
                id: p.id.clone(),
                name: p.name.clone(),
                colour: p.colour.clone().unwrap_or_else(|| NO_COLOUR.to_string()),
                empty: p.kind == PlanetKind::Empty,
                ringed: matches!(p.kind, PlanetKind::Transdim | PlanetKind::Created),
            })
            .collect();
        let cells = map
            .spaces
            .iter()
            .enumerate()
            .map(|(i, s)| Cell {
                hex: s.hex,
                sector: usize::from(s.sector),
                name: map.name_of(s.hex).unwrap_or_else(|| s.hex.to_string()),
                planet: usize::from(state.planets.get(i).copied().unwrap_or(s.planet)),
            })
            .collect();
        let boards: Vec<Option<FactionBoard>> = state
            .players
            .iter()
            .map(|p| {
                content
                    .faction(&p.faction)
                    .map(|f| FactionBoard::resolve(&content.board, f))
            })
            .collect();
        let role_of = |seat: usize, id: &str| {
            boards
                .get(seat)
                .and_then(Option::as_ref)
                .and_then(|b| b.building(id))
                .map(|b| b.role)
                .unwrap_or_default()
        };
        let mut pieces = Vec::new();
        for (idx, list) in state.structures.iter() {
            let Some(space) = map.spaces.get(*idx) else {
                continue;
            };
            for s in list {
                let shape = shape_of(role_of(s.seat, &s.building), &s.building);
                pieces.push(Piece {
                    hex: space.hex,
                    seat: s.seat,
                    shape,
                    id: s.building.to_string(),
                    mark: mark_of(shape, &s.building),
                });
            }
        }
        for g in &state.gaiaformers {
            pieces.push(Piece {
                hex: g.hex,
                seat: g.seat,
                shape: Shape::Gaiaformer,
                id: "gf".into(),
                mark: String::new(),
            });
        }
        let mut satellites = Vec::new();
        let mut federations = Vec::new();
        for (seat, p) in state.players.iter().enumerate() {
            satellites.extend(p.satellites.iter().map(|h| (*h, seat)));
            federations.extend(p.federations.iter().map(|f| (seat, f.clone())));
        }
        let deciding = game.deciding_seat();
        let seats = state
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                let faction = content.faction(&p.faction);
                let mut tiles: Vec<String> = Vec::new();
                if let Some(b) = p.booster.as_ref() {
                    tiles.push(b.to_string());
                }
                for t in &p.techs {
                    tiles.push(if t.covered {
                        format!("{} (covered)", t.id)
                    } else {
                        t.id.to_string()
                    });
                }
                tiles.extend(p.advanced.iter().map(|a| a.to_string()));
                for t in &p.tokens {
                    tiles.push(if t.green {
                        format!("{} (green)", t.id)
                    } else {
                        t.id.to_string()
                    });
                }
                SeatView {
                    name: faction
                        .map(|f| f.name.clone())
                        .unwrap_or_else(|| game.seat_name(seat)),
                    colour: faction_colour(content, &p.faction),
                    vp: p.resource(content, orrery_gp::player::VP),
                    resources: content
                        .rules
                        .resources
                        .iter()
                        .filter(|r| r.id != orrery_gp::player::VP)
                        .map(|r| (r.id.clone(), p.resource(content, &r.id)))
                        .collect(),
                    power: p.power.areas,
                    special: p.power.special.map(|s| {
                        let id = faction
                            .and_then(|f| f.special_token.as_ref())
                            .map(|t| t.id.clone())
                            .unwrap_or_else(|| "special".into());
                        (id, area_name(s.area).to_string())
                    }),
                    research: content
                        .research
                        .tracks
                        .iter()
                        .map(|t| {
                            let top = t.levels.len().saturating_sub(1) as u32;
                            (t.id.clone(), p.level(&t.id), top)
                        })
                        .collect(),
                    tiles,
                    gaiaformers: p.gaiaformers,
                    passed: p.passed,
                    to_move: deciding == Some(seat),
                }
            })
            .collect();
        let tile = |id: &str, note: String, current: bool| TileView {
            id: id.to_string(),
            name: tile_name(content, id),
            note,
            current,
        };
        let rounds = state
            .setup
            .round_scoring
            .iter()
            .enumerate()
            .map(|(i, id)| {
                let r = i as u32 + 1;
                tile(id, format!("round {r}"), r == state.round)
            })
            .collect();
        let boosters = state
            .boosters
            .iter()
            .map(|b| tile(b, String::new(), false))
            .collect();
        let mut techs: Vec<TileView> = state
            .setup
            .techs
            .iter()
            .map(|(pos, id)| {
                let left = state.tech_left.get(pos.as_str()).copied().unwrap_or(0);
                tile(id, format!("{pos}: {left} left"), false)
            })
            .collect();
        techs.extend(state.setup.adv_techs.iter().map(|(pos, id)| {
            let there = state.adv_left.get(pos.as_str()).is_some();
            tile(
                id,
                format!("{pos}: {}", if there { "free" } else { "taken" }),
                false,
            )
        }));
        let finals = state
            .setup
            .final_scoring
            .iter()
            .map(|f| tile(f, String::new(), false))
            .collect();
        let mut fed_tokens: Vec<TileView> = state
            .fed_supply
            .iter()
            .filter(|(_, n)| **n > 0)
            .map(|(id, n)| tile(id, format!("{n} left"), false))
            .collect();
        if let Some(t) = &state.track_token {
            fed_tokens.push(tile(t, "on the track top".into(), false));
        }
        let mut legend: Vec<(Shape, String, String)> = Vec::new();
        let all_boards = std::iter::once(content.board.buildings.clone())
            .chain(boards.iter().flatten().map(|b| b.buildings.clone()));
        for buildings in all_boards {
            for b in buildings {
                let shape = shape_of(b.role, &b.id);
                let mark = mark_of(shape, &b.id);
                // One entry per shape; academies and other buildings also by their mark.
                let known = legend.iter().any(|(s, m, _)| *s == shape && *m == mark);
                if !known {
                    legend.push((shape, mark, b.name.clone()));
                }
            }
        }
        legend.sort();
        let caption = format!(
            "{label} · round {} · {}{}",
            state.round,
            stage_name(state.stage),
            deciding
                .map(|s| format!(" · {} to decide", game.seat_name(s)))
                .unwrap_or_default()
        );
        let mut abbreviations: Vec<(String, String)> = content
            .rules
            .resources
            .iter()
            .filter(|r| r.id != orrery_gp::player::VP)
            .map(|r| (r.id.clone(), r.name.clone()))
            .collect();
        abbreviations.push(("gf".into(), "Gaiaformers in hand".into()));
        abbreviations.push(("I II III G".into(), "power areas (G: Gaia)".into()));
        BoardView {
            caption,
            abbreviations,
            planets,
            sectors: map.labels.clone(),
            cells,
            pieces,
            satellites,
            federations,
            seats,
            rounds,
            boosters,
            techs,
            finals,
            fed_tokens,
            legend,
        }
    }
}

/// A tile's description, generated from its effects (the content's `name` when it has none).
fn tile_name(content: &Content, id: &str) -> String {
    if let Some(text) = orrery_gp::content::describe::by_id(content, id).filter(|t| !t.is_empty()) {
        return text;
    }
    let lists = [
        &content.tech_tiles.tiles,
        &content.advanced_tiles.tiles,
        &content.boosters.boosters,
        &content.round_scoring.tiles,
    ];
    for list in lists {
        if let Some(t) = list.iter().find(|t| t.id == id) {
            return t.name.clone();
        }
    }
    if let Some(t) = content.final_scoring.tiles.iter().find(|t| t.id == id) {
        return t.name.clone();
    }
    if let Some(t) = content.federation_tokens.tokens.iter().find(|t| t.id == id) {
        return t.name.clone();
    }
    String::new()
}
