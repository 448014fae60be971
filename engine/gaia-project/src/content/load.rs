//! Loading Gaia Project content: the core reads, overlays, schema-checks and checks duplicate
//! ids by the kinds table ([`super::table::KINDS`]); here the documents are decoded into the
//! game's types and the references between them and the shapes no schema can state checked.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::effect::{Bundle, HOOK_ARITY};
use super::kinds::*;
use super::refs::{RefKind, Refs};
use super::table::{file, KINDS};
use super::{bounds, Content};
use orrery_core::content::kinds::KindTable;
use orrery_core::content::load::{diag_at, GameContent, Loaded, OverlaySource};
use orrery_core::content::provenance::Provenance;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::ContentFiles;
use orrery_core::script::{Limits, ScriptHost};

/// Power-cycle codes the game understands in bundles, besides content resources: the
/// texts of [`crate::power::Code::ALL`].
pub const POWER_CODES: [&str; 5] = {
    use crate::power::Code;
    let all = Code::ALL;
    [
        all[0].text(),
        all[1].text(),
        all[2].text(),
        all[3].text(),
        all[4].text(),
    ]
};

impl Content {
    /// Loads content and stacks overlays on it. On failure returns every problem found.
    pub fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Content, Vec<Diagnostic>> {
        let (mut content, loaded) = Content::load_with_provenance(files, overlays)?;
        let (host, provenance) = loaded.into_parts();
        content.scripts = Arc::new(host);
        content.provenance = Arc::new(provenance);
        Ok(content)
    }
}

impl GameContent for Content {
    fn table() -> &'static KindTable {
        &KINDS
    }

    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Option<Content> {
        let parts = Parts::decode(loaded, diags);
        if loaded.known_good {
            // The built-in content, which the tests load with every check: none can fail.
            return parts.into_content();
        }
        check_references(&parts, loaded, diags);
        bounds::check(
            &bounds::Decoded {
                rules: parts.rules.as_ref(),
                sectors: parts.sectors.as_ref(),
                research: parts.research.as_ref(),
                advanced_tiles: parts.advanced_tiles.as_ref(),
                boosters: parts.boosters.as_ref(),
                round_scoring: parts.round_scoring.as_ref(),
                final_scoring: parts.final_scoring.as_ref(),
            },
            loaded,
            diags,
        );
        parts.into_content()
    }
}

/// A host without scripts, made once a process and shared: decoded content holds it until
/// loading puts the compiled scripts in its place (building a host is costly).
fn empty_host() -> Arc<ScriptHost> {
    static EMPTY: std::sync::OnceLock<Arc<ScriptHost>> = std::sync::OnceLock::new();
    EMPTY
        .get_or_init(|| Arc::new(ScriptHost::new(Limits::default())))
        .clone()
}

/// Every document decoded on its own, so that reference checks can run on whatever is valid.
#[derive(Default)]
struct Parts {
    rules: Option<Rules>,
    planets: Option<PlanetsFile>,
    sectors: Option<SectorsFile>,
    board: Option<Board>,
    research: Option<ResearchFile>,
    tech_tiles: Option<TechTilesFile>,
    advanced_tiles: Option<AdvancedTilesFile>,
    boosters: Option<BoostersFile>,
    round_scoring: Option<RoundScoringFile>,
    final_scoring: Option<FinalScoringFile>,
    federation_tokens: Option<FederationTokensFile>,
    board_actions: Option<BoardActionsFile>,
    /// Decoded factions with their documents' indices.
    factions: Vec<(usize, Faction)>,
    factions_ok: bool,
}

impl Parts {
    fn into_content(self) -> Option<Content> {
        if !self.factions_ok {
            return None;
        }
        Some(Content {
            rules: self.rules?,
            planets: self.planets?,
            sectors: self.sectors?,
            board: self.board?,
            factions: self.factions.into_iter().map(|(_, f)| f).collect(),
            research: self.research?,
            tech_tiles: self.tech_tiles?,
            advanced_tiles: self.advanced_tiles?,
            boosters: self.boosters?,
            round_scoring: self.round_scoring?,
            final_scoring: self.final_scoring?,
            federation_tokens: self.federation_tokens?,
            board_actions: self.board_actions?,
            scripts: empty_host(),
            provenance: Arc::new(Provenance::default()),
        })
    }
}

impl Parts {
    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Parts {
        let factions = loaded.each::<Faction>(file::FACTIONS, diags);
        Parts {
            factions_ok: factions.is_some(),
            factions: factions.unwrap_or_default(),
            rules: loaded.single(file::RULES, diags),
            planets: loaded.single(file::PLANETS, diags),
            sectors: loaded.single(file::SECTORS, diags),
            board: loaded.single(file::BOARD, diags),
            research: loaded.single(file::RESEARCH, diags),
            tech_tiles: loaded.single(file::TECH_TILES, diags),
            advanced_tiles: loaded.single(file::ADVANCED_TILES, diags),
            boosters: loaded.single(file::BOOSTERS, diags),
            round_scoring: loaded.single(file::ROUND_SCORING, diags),
            final_scoring: loaded.single(file::FINAL_SCORING, diags),
            federation_tokens: loaded.single(file::FEDERATION_TOKENS, diags),
            board_actions: loaded.single(file::BOARD_ACTIONS, diags),
        }
    }
}

fn check_references(c: &Parts, loaded: &Loaded, diags: &mut Vec<Diagnostic>) {
    let (docs, host, scripts) = (&loaded.docs, &loaded.host, &loaded.scripts);
    // Each set of known ids exists only when its file decoded; references into a file that
    // did not decode are not checked (its own errors are reported already).
    let codes: Option<BTreeSet<&str>> = c.rules.as_ref().map(|r| {
        r.resources
            .iter()
            .map(|r| r.id.as_str())
            .chain(POWER_CODES)
            .collect()
    });
    let buildings: Option<BTreeSet<&str>> = c.board.as_ref().map(|b| {
        let mut set: BTreeSet<&str> = b.buildings.iter().map(|b| b.id.as_str()).collect();
        for (_, f) in &c.factions {
            set.extend(f.board.buildings.iter().map(|b| b.id.as_str()));
        }
        set
    });
    let tracks: Option<BTreeSet<&str>> = c
        .research
        .as_ref()
        .map(|r| r.tracks.iter().map(|t| t.id.as_str()).collect());
    let planets: Option<BTreeSet<&str>> = c
        .planets
        .as_ref()
        .map(|p| p.planets.iter().map(|p| p.id.as_str()).collect());
    let tokens: Option<BTreeSet<&str>> = c
        .federation_tokens
        .as_ref()
        .map(|t| t.tokens.iter().map(|t| t.id.as_str()).collect());

    let mut per_doc: Vec<(&orrery_core::content::load::Doc, Refs)> = Vec::new();
    let mut add = |file: &str, fill: &dyn Fn(&mut Refs)| {
        if let Some(doc) = loaded.doc_of(file) {
            let mut r = Refs::default();
            fill(&mut r);
            per_doc.push((doc, r));
        }
    };
    if let Some(board) = &c.board {
        add(file::BOARD, &|r| {
            r.bundle(&board.start, "/start");
            r.income(&board.income, "/income");
            r.conversions(&board.conversions, "/conversions");
            for t in board.research.keys() {
                r.add(RefKind::Track, t, format!("/research/{t}"));
            }
            for (i, s) in board.setup.iter().enumerate() {
                r.add(
                    RefKind::Building,
                    &s.building,
                    format!("/setup/{i}/building"),
                );
            }
            for (i, b) in board.buildings.iter().enumerate() {
                building_refs(
                    r,
                    &format!("/buildings/{i}"),
                    &b.cost,
                    b.cost_near_rival.as_ref(),
                    &b.upgrades_from,
                    &b.income,
                );
                r.grants(
                    b.grants.grants(),
                    b.grants.when.as_ref(),
                    &format!("/buildings/{i}/grants"),
                );
            }
        });
    }
    if let Some(rules) = &c.rules {
        add(file::RULES, &|r| {
            r.bundle(&rules.satellite_cost, "/satellite_cost");
            r.bundle(&rules.start, "/start");
            r.add(
                RefKind::Code,
                &rules.range_resource,
                "/range_resource".into(),
            );
            r.add(
                RefKind::Code,
                &rules.terraform_resource,
                "/terraform_resource".into(),
            );
            r.bundle(&rules.gaia_planet_fee, "/gaia_planet_fee");
            for (i, l) in rules.leftover_resources.iter().enumerate() {
                r.add(RefKind::Code, l, format!("/leftover_resources/{i}"));
            }
        });
    }
    if let Some(planets_file) = &c.planets {
        add(file::PLANETS, &|r| {
            for (i, p) in planets_file.wheel.iter().enumerate() {
                r.add(RefKind::Planet, p, format!("/wheel/{i}"));
            }
        });
    }
    if let Some(research) = &c.research {
        add(file::RESEARCH, &|r| {
            r.bundle(&research.cost, "/cost");
            for (i, t) in research.tracks.iter().enumerate() {
                for (l, a) in t.levels.iter().enumerate() {
                    r.grants(
                        a.grants(),
                        a.when.as_ref(),
                        &format!("/tracks/{i}/levels/{l}"),
                    );
                }
            }
        });
    }
    if let Some(tech_tiles) = &c.tech_tiles {
        add(file::TECH_TILES, &|r| {
            tiles_refs(r, &tech_tiles.tiles, "/tiles");
            for (i, p) in tech_tiles.positions.iter().enumerate() {
                if let Some(t) = &p.track {
                    r.add(RefKind::Track, t, format!("/positions/{i}/track"));
                }
            }
        });
    }
    if let Some(advanced) = &c.advanced_tiles {
        add(file::ADVANCED_TILES, &|r| {
            tiles_refs(r, &advanced.tiles, "/tiles")
        });
    }
    if let Some(boosters) = &c.boosters {
        add(file::BOOSTERS, &|r| {
            tiles_refs(r, &boosters.boosters, "/boosters")
        });
    }
    if let Some(round) = &c.round_scoring {
        add(file::ROUND_SCORING, &|r| {
            tiles_refs(r, &round.tiles, "/tiles")
        });
    }
    if let Some(finals) = &c.final_scoring {
        add(file::FINAL_SCORING, &|r| {
            for (i, t) in finals.tiles.iter().enumerate() {
                r.count(&t.count, &format!("/tiles/{i}/count"));
            }
        });
    }
    if let Some(fed) = &c.federation_tokens {
        add(file::FEDERATION_TOKENS, &|r| {
            for (i, t) in fed.tokens.iter().enumerate() {
                r.effects(&t.reward, &format!("/tokens/{i}/reward"));
            }
        });
    }
    if let Some(actions) = &c.board_actions {
        add(file::BOARD_ACTIONS, &|r| {
            for (i, a) in actions.actions.iter().enumerate() {
                r.bundle(&a.cost, &format!("/actions/{i}/cost"));
                r.effects(&a.effects, &format!("/actions/{i}/effects"));
            }
        });
    }
    for (di, f) in &c.factions {
        let doc = &docs[*di];
        let mut r = Refs::default();
        r.add(RefKind::Planet, &f.home, "/home".into());
        let o = &f.board;
        if let Some(s) = &o.start {
            r.bundle(s, "/board/start");
        }
        if let Some(inc) = &o.income {
            r.income(inc, "/board/income");
        }
        if let Some(res) = &o.research {
            for t in res.keys() {
                r.add(RefKind::Track, t, format!("/board/research/{t}"));
            }
        }
        if let Some(setup) = &o.setup {
            for (i, s) in setup.iter().enumerate() {
                r.add(
                    RefKind::Building,
                    &s.building,
                    format!("/board/setup/{i}/building"),
                );
            }
        }
        for (i, b) in o.buildings.iter().enumerate() {
            let at = format!("/board/buildings/{i}");
            building_refs(
                &mut r,
                &at,
                b.cost.as_ref().unwrap_or(&Bundle::default()),
                b.cost_near_rival.as_ref(),
                b.upgrades_from.as_deref().unwrap_or(&[]),
                b.income.as_deref().unwrap_or(&[]),
            );
            if let Some(g) = &b.grants {
                r.grants(g.grants(), g.when.as_ref(), &format!("{at}/grants"));
            }
        }
        for (i, a) in f.abilities.iter().enumerate() {
            r.grants(a.grants(), a.when.as_ref(), &format!("/abilities/{i}"));
        }
        per_doc.push((doc, r));
    }

    for (doc, refs) in &per_doc {
        for (pointer, message) in &refs.problems {
            diags.push(diag_at(
                &doc.tree.origin_at(pointer),
                pointer,
                message.clone(),
            ));
        }
        for rf in &refs.found {
            let known_in = |set: &Option<BTreeSet<&str>>| {
                set.as_ref().is_none_or(|s| s.contains(rf.id.as_str()))
            };
            let known = match rf.kind {
                RefKind::Code => known_in(&codes),
                RefKind::Building => known_in(&buildings),
                RefKind::Track => known_in(&tracks),
                RefKind::Planet => known_in(&planets),
                RefKind::FederationToken => known_in(&tokens),
                RefKind::Script => {
                    if !scripts.contains_key(&rf.id) {
                        false
                    } else if let Some(func) = &rf.function {
                        let arities = host.function_arities(&rf.id, func);
                        let problem = if arities.is_empty() {
                            Some(format!("script \"{}\" has no function \"{func}\"", rf.id))
                        } else if !arities.contains(&HOOK_ARITY) {
                            Some(format!(
                                "function \"{func}\" of script \"{}\" takes {} parameter(s); \
                                 a hook is called with {HOOK_ARITY} (the view)",
                                rf.id,
                                arities
                                    .iter()
                                    .map(usize::to_string)
                                    .collect::<Vec<_>>()
                                    .join(" or "),
                            ))
                        } else {
                            None
                        };
                        if let Some(message) = problem {
                            diags.push(diag_at(
                                &doc.tree.origin_at(&rf.pointer),
                                &rf.pointer,
                                message,
                            ));
                        }
                        true
                    } else {
                        true
                    }
                }
            };
            if !known {
                let at_key = rf.kind == RefKind::Code
                    && doc.tree.at(&rf.pointer).is_some()
                    && rf.pointer.rsplit('/').next() == Some(rf.id.as_str());
                let origin = if at_key {
                    doc.tree.key_origin_at(&rf.pointer)
                } else {
                    doc.tree.origin_at(&rf.pointer)
                };
                diags.push(diag_at(
                    &origin,
                    &rf.pointer,
                    format!("unknown {} \"{}\"", rf.kind.noun(), rf.id),
                ));
            }
        }
    }

    // Shapes that the schema cannot state.
    if let Some(doc) = loaded.doc_of(file::SECTORS) {
        let letters: BTreeSet<char> = c
            .planets
            .iter()
            .flat_map(|x| &x.planets)
            .map(|p| p.letter)
            .collect();
        let sector_ids: BTreeSet<&str> = c
            .sectors
            .iter()
            .flat_map(|x| &x.sectors)
            .map(|s| s.id.as_str())
            .collect();
        for (i, s) in c.sectors.iter().flat_map(|x| &x.sectors).enumerate() {
            let ptr = format!("/sectors/{i}/spaces");
            if s.spaces.chars().count() != 19 {
                diags.push(diag_at(
                    &doc.tree.origin_at(&ptr),
                    &ptr,
                    format!("a sector has 19 spaces, got {}", s.spaces.chars().count()),
                ));
            }
            if let Some(bad) = s.spaces.chars().find(|ch| !letters.contains(ch)) {
                diags.push(diag_at(
                    &doc.tree.origin_at(&ptr),
                    &ptr,
                    format!("unknown planet letter '{bad}'"),
                ));
            }
        }
        for (i, l) in c.sectors.iter().flat_map(|x| &x.layouts).enumerate() {
            for (j, s) in l.sectors.iter().enumerate() {
                if !sector_ids.contains(s.as_str()) {
                    let ptr = format!("/layouts/{i}/sectors/{j}");
                    diags.push(diag_at(
                        &doc.tree.origin_at(&ptr),
                        &ptr,
                        format!("unknown sector \"{s}\""),
                    ));
                }
            }
            if l.sectors.len() != l.slots.len() {
                let ptr = format!("/layouts/{i}/slots");
                diags.push(diag_at(
                    &doc.tree.origin_at(&ptr),
                    &ptr,
                    format!("{} sectors but {} slots", l.sectors.len(), l.slots.len()),
                ));
            }
            let planets = c.planets.as_ref().map(|p| p.planets.as_slice());
            let tiles = c.sectors.as_ref().map(|s| s.sectors.as_slice());
            for (ptr, message) in check_layout(l, planets.zip(tiles)) {
                let ptr = format!("/layouts/{i}{ptr}");
                diags.push(diag_at(&doc.tree.origin_at(&ptr), &ptr, message));
            }
        }
    }
    for (di, f) in &c.factions {
        let doc = &docs[*di];
        if let Some(p) = c
            .planets
            .iter()
            .flat_map(|p| &p.planets)
            .find(|p| p.id == f.home)
        {
            if !p.kind.is_home_kind() {
                diags.push(diag_at(
                    &doc.tree.origin_at("/home"),
                    "/home",
                    format!("\"{}\" is not on the terraforming wheel", f.home),
                ));
            }
        }
    }
    if let (Some(doc), Some(tech)) = (loaded.doc_of(file::TECH_TILES), &c.tech_tiles) {
        if tech.positions.len() != tech.tiles.len() {
            diags.push(diag_at(
                &doc.tree.origin_at("/positions"),
                "/positions",
                format!(
                    "{} positions for {} tiles",
                    tech.positions.len(),
                    tech.tiles.len()
                ),
            ));
        }
    }
}

/// Problems of a layout's standard arrangement and groups, as (pointer inside the layout,
/// message): rotations and slot indices in range, a slot in one group at most, and — with the
/// planets and tiles at hand — fixed sectors that do not overlap or clash (no draw could make
/// such a layout valid).
fn check_layout(l: &Layout, tiles: Option<(&[Planet], &[Sector])>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if !l.rotations.is_empty() && l.rotations.len() != l.slots.len() {
        out.push((
            "/rotations".to_string(),
            format!(
                "{} rotations but {} slots",
                l.rotations.len(),
                l.slots.len()
            ),
        ));
    }
    for (j, r) in l.rotations.iter().enumerate() {
        if *r > 5 {
            out.push((
                format!("/rotations/{j}"),
                format!("a rotation is 0 to 5 sixths of a turn, got {r}"),
            ));
        }
    }
    let mut seen = BTreeSet::new();
    for (g, group) in l.groups.iter().flatten().enumerate() {
        for (j, slot) in group.slots.iter().enumerate() {
            let ptr = format!("/groups/{g}/slots/{j}");
            if *slot >= l.slots.len() {
                out.push((
                    ptr,
                    format!("slot {slot} is not among the {} slots", l.slots.len()),
                ));
            } else if !seen.insert(*slot) {
                out.push((ptr, format!("slot {slot} is in two groups")));
            }
        }
    }
    if !out.is_empty() || l.sectors.len() != l.slots.len() {
        return out;
    }
    if let Some((planets, sectors)) = tiles {
        let standard = crate::map::standard_placements(l);
        let fixed: Vec<_> = crate::map::layout_fixed_slots(l)
            .into_iter()
            .map(|i| standard[i].clone())
            .collect();
        let at = if l.groups.is_some() {
            "/groups"
        } else {
            "/sectors"
        };
        match crate::map::Map::from_tiles(planets, sectors, &fixed) {
            Ok(map) => {
                if let Some((a, b)) = map.clash_with(planets) {
                    out.push((
                        at.to_string(),
                        format!("the sectors this layout keeps fixed put alike planets side by side at {a} and {b}: no valid map exists"),
                    ));
                }
            }
            // Unknown sectors are reported on their own.
            Err(crate::map::MapError::UnknownSector(_)) => {}
            Err(e) => out.push((at.to_string(), e.to_string())),
        }
        if let Err(e @ crate::map::MapError::Overlap(_)) =
            crate::map::Map::from_tiles(planets, sectors, &standard)
        {
            out.push(("/slots".to_string(), e.to_string()));
        }
    }
    out
}

fn building_refs(
    r: &mut Refs,
    at: &str,
    cost: &Bundle,
    near: Option<&Bundle>,
    from: &[String],
    income: &[Vec<super::effect::Effect>],
) {
    r.bundle(cost, &format!("{at}/cost"));
    if let Some(n) = near {
        r.bundle(n, &format!("{at}/cost_near_rival"));
    }
    for (i, b) in from.iter().enumerate() {
        r.add(RefKind::Building, b, format!("{at}/upgrades_from/{i}"));
    }
    for (i, slot) in income.iter().enumerate() {
        r.income(slot, &format!("{at}/income/{i}"));
    }
}

fn tiles_refs(r: &mut Refs, tiles: &[Tile], at: &str) {
    for (i, t) in tiles.iter().enumerate() {
        r.grants(t.grants(), None, &format!("{at}/{i}"));
    }
}
