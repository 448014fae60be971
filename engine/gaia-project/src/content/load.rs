//! Loading: parse every file with positions, apply overlays, check schemas, decode, check
//! references, compile scripts — collecting every problem before giving up.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::effect::{Bundle, HOOK_ARITY};
use super::kinds::*;
use super::overlay::ItemKind;
use super::refs::{RefKind, Refs};
use super::{bounds, patch, schema, Content};
use orrery_core::diagnostics::{Diagnostic, SchemaCheck, SourceDoc};
use orrery_core::files::{ContentFiles, MAX_CONTENT_FILE_BYTES};
use orrery_core::located::{LNode, Origin};
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

/// The kinds of content files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Rules,
    Planets,
    Sectors,
    Board,
    Research,
    TechTiles,
    AdvancedTiles,
    Boosters,
    RoundScoring,
    FinalScoring,
    FederationTokens,
    BoardActions,
    Faction,
}

/// Single files: kind, file name, schema file.
const SINGLE_FILES: [(Kind, &str, &str); 12] = [
    (Kind::Rules, "rules.yaml", "rules.json"),
    (Kind::Planets, "planets.yaml", "planets.json"),
    (Kind::Sectors, "sectors.yaml", "sectors.json"),
    (Kind::Board, "board.yaml", "board.json"),
    (Kind::Research, "research.yaml", "research.json"),
    (Kind::TechTiles, "tech-tiles.yaml", "tech-tiles.json"),
    (
        Kind::AdvancedTiles,
        "advanced-tech-tiles.yaml",
        "advanced-tech-tiles.json",
    ),
    (Kind::Boosters, "boosters.yaml", "boosters.json"),
    (
        Kind::RoundScoring,
        "round-scoring.yaml",
        "round-scoring.json",
    ),
    (
        Kind::FinalScoring,
        "final-scoring.yaml",
        "final-scoring.json",
    ),
    (
        Kind::FederationTokens,
        "federation-tokens.yaml",
        "federation-tokens.json",
    ),
    (
        Kind::BoardActions,
        "board-actions.yaml",
        "board-actions.json",
    ),
];

/// The folder holding one file per faction.
pub const FACTIONS_DIR: &str = "factions/";
/// The folder holding scripts.
pub const SCRIPTS_DIR: &str = "scripts/";

impl Kind {
    fn schema_file(self) -> &'static str {
        match self {
            Kind::Faction => "faction.json",
            k => SINGLE_FILES
                .iter()
                .find(|(kk, _, _)| *kk == k)
                .map(|(_, _, s)| *s)
                .unwrap_or("faction.json"),
        }
    }

    fn classify(rel: &str) -> Option<Kind> {
        let is_yaml = rel.ends_with(".yaml") || rel.ends_with(".yml");
        if !is_yaml {
            return None;
        }
        if let Some(rest) = rel.strip_prefix(FACTIONS_DIR) {
            return (!rest.contains('/')).then_some(Kind::Faction);
        }
        let stem = rel.trim_end_matches(".yaml").trim_end_matches(".yml");
        SINGLE_FILES
            .iter()
            .find(|(_, f, _)| f.trim_end_matches(".yaml") == stem)
            .map(|(k, _, _)| *k)
    }

    /// Where items of an overlay item kind live: file kind and the list's pointer (empty: the
    /// document itself is the item).
    pub(crate) fn of_item(item: ItemKind) -> (Kind, &'static str) {
        match item {
            ItemKind::Rules => (Kind::Rules, ""),
            ItemKind::Board => (Kind::Board, ""),
            ItemKind::Research => (Kind::Research, ""),
            ItemKind::Track => (Kind::Research, "/tracks"),
            ItemKind::Planet => (Kind::Planets, "/planets"),
            ItemKind::Sector => (Kind::Sectors, "/sectors"),
            ItemKind::Map => (Kind::Sectors, ""),
            ItemKind::Faction => (Kind::Faction, ""),
            ItemKind::TechTile => (Kind::TechTiles, "/tiles"),
            ItemKind::AdvancedTile => (Kind::AdvancedTiles, "/tiles"),
            ItemKind::Booster => (Kind::Boosters, "/boosters"),
            ItemKind::RoundScoring => (Kind::RoundScoring, "/tiles"),
            ItemKind::FinalScoring => (Kind::FinalScoring, "/tiles"),
            ItemKind::FederationToken => (Kind::FederationTokens, "/tokens"),
            ItemKind::BoardAction => (Kind::BoardActions, "/actions"),
        }
    }
}

/// One content document with its located tree.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub kind: Kind,
    pub tree: LNode,
}

pub use orrery_core::files::OverlaySource;

/// Where every effective value came from: the located trees after overlays.
#[derive(Debug, Default)]
pub struct Provenance {
    docs: Vec<Doc>,
    /// Every script by name: the file it came from and its source.
    scripts: BTreeMap<String, (String, String)>,
}

impl Provenance {
    /// The origin of the value at a dotted `path` inside an item (`""` for the item itself).
    pub fn origin(&self, item: ItemKind, id: Option<&str>, path: &str) -> Option<Origin> {
        let (kind, list) = Kind::of_item(item);
        let (doc, base) = patch::find_item(&self.docs, kind, list, id)?;
        let node = self.docs[doc].tree.at(&base)?;
        let mut pointer = String::new();
        let mut cur = node;
        for seg in path.split('.').filter(|s| !s.is_empty()) {
            let (next, seg_ptr) = patch::step(cur, seg)?;
            pointer.push_str(&seg_ptr);
            cur = next;
        }
        Some(cur.origin.clone())
    }
}

impl Provenance {
    /// The ids of the items of a kind, in content order; one `None` for a single item such as
    /// `rules`.
    pub fn ids(&self, item: ItemKind) -> Vec<Option<String>> {
        let (kind, list) = Kind::of_item(item);
        let docs = self.docs.iter().filter(|d| d.kind == kind);
        if kind == Kind::Faction {
            return docs
                .filter_map(|d| d.tree.str_member("id").map(|s| Some(s.to_string())))
                .collect();
        }
        if list.is_empty() {
            return docs.take(1).map(|_| None).collect();
        }
        docs.take(1)
            .filter_map(|d| d.tree.at(list))
            .flat_map(|n| match &n.kind {
                orrery_core::located::LKind::Seq(items) => items
                    .iter()
                    .filter_map(|i| i.str_member("id").map(|s| Some(s.to_string())))
                    .collect(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// Every script by name (`x.rhai`), with the file it came from and its source.
    pub fn scripts(&self) -> &BTreeMap<String, (String, String)> {
        &self.scripts
    }

    /// The located tree of one item (after every overlay).
    pub fn item(&self, item: ItemKind, id: Option<&str>) -> Option<&LNode> {
        let (kind, list) = Kind::of_item(item);
        let (doc, pointer) = patch::find_item(&self.docs, kind, list, id)?;
        self.docs[doc].tree.at(&pointer)
    }
}

fn diag_at(origin: &Origin, pointer: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        file: origin.file.to_string(),
        pos: origin.pos,
        pointer: pointer.to_string(),
        message: message.into(),
    }
}

impl Content {
    /// Loads content and stacks overlays on it. On failure returns every problem found.
    pub fn load(
        files: &dyn ContentFiles,
        overlays: &[OverlaySource],
    ) -> Result<Content, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let mut docs = Vec::new();
        let mut scripts: BTreeMap<String, (String, String)> = BTreeMap::new();
        for (shown, problem) in files.problems() {
            diags.push(Diagnostic::plain(&shown, problem));
        }
        for rel in files.list() {
            let shown = files.display_name(&rel);
            if let Some(name) = rel.strip_prefix(SCRIPTS_DIR) {
                if name.ends_with(".rhai") {
                    match files.read(&rel) {
                        Ok(src) => {
                            scripts.insert(name.to_string(), (shown, src));
                        }
                        Err(e) => diags.push(Diagnostic::plain(&shown, e)),
                    }
                }
                continue;
            }
            let Some(kind) = Kind::classify(&rel) else {
                if rel.ends_with(".yaml") || rel.ends_with(".yml") {
                    diags.push(Diagnostic::plain(
                        &shown,
                        "not a known content file (expected one of the files named in ARCHITECTURE.md)",
                    ));
                }
                continue;
            };
            let text = match files.read(&rel) {
                Ok(t) if t.len() as u64 > MAX_CONTENT_FILE_BYTES => {
                    diags.push(Diagnostic::plain(&shown, too_big(t.len())));
                    continue;
                }
                Ok(t) => t,
                Err(e) => {
                    diags.push(Diagnostic::plain(&shown, e));
                    continue;
                }
            };
            match SourceDoc::parse(&shown, &text) {
                Ok(doc) => {
                    let file: Arc<str> = Arc::from(shown.as_str());
                    let tree = LNode::from_doc(&doc, &file);
                    docs.push(Doc { kind, tree });
                }
                Err(d) => diags.push(d),
            }
        }
        for (kind, name, _) in SINGLE_FILES {
            if !docs.iter().any(|d| d.kind == kind) && !diags.iter().any(|d| d.file.ends_with(name))
            {
                diags.push(Diagnostic::plain(
                    &files.display_name(name),
                    "missing content file",
                ));
            }
        }

        for ov in overlays {
            patch::apply_overlay(ov, &mut docs, &mut scripts, &mut diags);
        }

        // Schema checks, then typed decoding of the documents that pass.
        let mut checks: HashMap<&'static str, SchemaCheck> = HashMap::new();
        // Content files only (an overlay is checked as it is applied).
        for (name, schema) in schema::plain() {
            match SchemaCheck::new(&schema) {
                Ok(c) => {
                    checks.insert(name, c);
                }
                Err(e) => diags.push(Diagnostic::plain(name, format!("bad schema: {e}"))),
            }
        }
        let mut valid = vec![false; docs.len()];
        for (i, doc) in docs.iter().enumerate() {
            let Some(check) = checks.get(doc.kind.schema_file()) else {
                continue;
            };
            let errors = check.errors(&doc.tree.to_value());
            valid[i] = errors.is_empty();
            for e in errors {
                let origin = if e.at_key {
                    doc.tree.key_origin_at(&e.pointer)
                } else {
                    doc.tree.origin_at(&e.pointer)
                };
                diags.push(diag_at(&origin, &e.pointer, e.message));
            }
        }

        let host = compile_scripts(&scripts, &mut diags);
        let parts = decode_all(&docs, &valid, &mut diags);
        check_references(&parts, &docs, &host, &scripts, &mut diags);
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
            &docs,
            &mut diags,
        );
        let content = parts.into_content().map(|mut c| {
            c.scripts = Arc::new(host);
            c
        });
        sort_dedup(&mut diags);
        match content {
            Some(mut c) if diags.is_empty() => {
                c.provenance = Arc::new(Provenance { docs, scripts });
                Ok(c)
            }
            _ => {
                if diags.is_empty() {
                    diags.push(Diagnostic::plain("content", "content could not be decoded"));
                }
                Err(diags)
            }
        }
    }
}

/// The message for a content or overlay file over [`MAX_CONTENT_FILE_BYTES`].
pub(crate) fn too_big(len: usize) -> String {
    format!("the file is {len} bytes, more than the limit of {MAX_CONTENT_FILE_BYTES} bytes")
}

fn sort_dedup(diags: &mut Vec<Diagnostic>) {
    diags.sort_by(|a, b| {
        (&a.file, a.pos.map(|p| (p.line, p.col)), &a.message).cmp(&(
            &b.file,
            b.pos.map(|p| (p.line, p.col)),
            &b.message,
        ))
    });
    diags.dedup_by(|a, b| a.file == b.file && a.pos == b.pos && a.message == b.message);
}

fn compile_scripts(
    scripts: &BTreeMap<String, (String, String)>,
    diags: &mut Vec<Diagnostic>,
) -> ScriptHost {
    let mut host = ScriptHost::new(Limits::default());
    for (name, (shown, src)) in scripts {
        if let Err(e) = host.compile(name, src) {
            diags.push(Diagnostic {
                file: shown.clone(),
                pos: e.line.map(|line| orrery_core::diagnostics::Pos {
                    line,
                    col: e.col.unwrap_or(1),
                }),
                pointer: String::new(),
                message: e.message,
            });
        }
    }
    host
}

fn decode<T: DeserializeOwned>(doc: &Doc, diags: &mut Vec<Diagnostic>) -> Option<T> {
    match serde_json::from_value::<T>(doc.tree.to_value()) {
        Ok(v) => Some(v),
        Err(e) => {
            diags.push(diag_at(&doc.tree.origin, "", e.to_string()));
            None
        }
    }
}

fn single<T: DeserializeOwned>(
    docs: &[Doc],
    valid: &[bool],
    kind: Kind,
    diags: &mut Vec<Diagnostic>,
) -> Option<T> {
    let mut found = docs.iter().enumerate().filter(|(_, d)| d.kind == kind);
    let (i, doc) = found.next()?;
    if let Some((_, dup)) = found.next() {
        diags.push(diag_at(&dup.tree.origin, "", "a second file of this kind"));
    }
    if !valid[i] {
        return None;
    }
    decode(doc, diags)
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
            scripts: Arc::new(ScriptHost::new(Limits::default())),
            provenance: Arc::new(Provenance::default()),
        })
    }
}

fn decode_all(docs: &[Doc], valid: &[bool], diags: &mut Vec<Diagnostic>) -> Parts {
    let mut parts = Parts {
        factions_ok: true,
        ..Default::default()
    };
    for (i, doc) in docs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.kind == Kind::Faction)
    {
        match valid[i].then(|| decode::<Faction>(doc, diags)).flatten() {
            Some(f) => parts.factions.push((i, f)),
            None => parts.factions_ok = false,
        }
    }
    parts.rules = single(docs, valid, Kind::Rules, diags);
    parts.planets = single(docs, valid, Kind::Planets, diags);
    parts.sectors = single(docs, valid, Kind::Sectors, diags);
    parts.board = single(docs, valid, Kind::Board, diags);
    parts.research = single(docs, valid, Kind::Research, diags);
    parts.tech_tiles = single(docs, valid, Kind::TechTiles, diags);
    parts.advanced_tiles = single(docs, valid, Kind::AdvancedTiles, diags);
    parts.boosters = single(docs, valid, Kind::Boosters, diags);
    parts.round_scoring = single(docs, valid, Kind::RoundScoring, diags);
    parts.final_scoring = single(docs, valid, Kind::FinalScoring, diags);
    parts.federation_tokens = single(docs, valid, Kind::FederationTokens, diags);
    parts.board_actions = single(docs, valid, Kind::BoardActions, diags);
    parts
}

/// Reports a duplicate id among `(id, pointer)` pairs of one document.
fn duplicates<'a>(
    doc: &Doc,
    ids: impl Iterator<Item = (&'a str, String)>,
    noun: &str,
    diags: &mut Vec<Diagnostic>,
) {
    let mut seen = BTreeSet::new();
    for (id, ptr) in ids {
        if !seen.insert(id.to_string()) {
            diags.push(diag_at(
                &doc.tree.origin_at(&ptr),
                &ptr,
                format!("duplicate {noun} id \"{id}\""),
            ));
        }
    }
}

fn doc_of(docs: &[Doc], kind: Kind) -> Option<&Doc> {
    docs.iter().find(|d| d.kind == kind)
}

fn check_references(
    c: &Parts,
    docs: &[Doc],
    host: &ScriptHost,
    scripts: &BTreeMap<String, (String, String)>,
    diags: &mut Vec<Diagnostic>,
) {
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

    let mut per_doc: Vec<(&Doc, Refs)> = Vec::new();
    let mut add = |kind: Kind, fill: &dyn Fn(&mut Refs)| {
        if let Some(doc) = doc_of(docs, kind) {
            let mut r = Refs::default();
            fill(&mut r);
            per_doc.push((doc, r));
        }
    };
    if let Some(board) = &c.board {
        add(Kind::Board, &|r| {
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
        add(Kind::Rules, &|r| {
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
        add(Kind::Planets, &|r| {
            for (i, p) in planets_file.wheel.iter().enumerate() {
                r.add(RefKind::Planet, p, format!("/wheel/{i}"));
            }
        });
    }
    if let Some(research) = &c.research {
        add(Kind::Research, &|r| {
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
        add(Kind::TechTiles, &|r| {
            tiles_refs(r, &tech_tiles.tiles, "/tiles");
            for (i, p) in tech_tiles.positions.iter().enumerate() {
                if let Some(t) = &p.track {
                    r.add(RefKind::Track, t, format!("/positions/{i}/track"));
                }
            }
        });
    }
    if let Some(advanced) = &c.advanced_tiles {
        add(Kind::AdvancedTiles, &|r| {
            tiles_refs(r, &advanced.tiles, "/tiles")
        });
    }
    if let Some(boosters) = &c.boosters {
        add(Kind::Boosters, &|r| {
            tiles_refs(r, &boosters.boosters, "/boosters")
        });
    }
    if let Some(round) = &c.round_scoring {
        add(Kind::RoundScoring, &|r| {
            tiles_refs(r, &round.tiles, "/tiles")
        });
    }
    if let Some(finals) = &c.final_scoring {
        add(Kind::FinalScoring, &|r| {
            for (i, t) in finals.tiles.iter().enumerate() {
                r.count(&t.count, &format!("/tiles/{i}/count"));
            }
        });
    }
    if let Some(fed) = &c.federation_tokens {
        add(Kind::FederationTokens, &|r| {
            for (i, t) in fed.tokens.iter().enumerate() {
                r.effects(&t.reward, &format!("/tokens/{i}/reward"));
            }
        });
    }
    if let Some(actions) = &c.board_actions {
        add(Kind::BoardActions, &|r| {
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

    // Duplicate ids.
    let mut faction_ids = BTreeSet::new();
    for (di, f) in &c.factions {
        let doc = &docs[*di];
        if !faction_ids.insert(f.id.as_str()) {
            diags.push(diag_at(
                &doc.tree.origin_at("/id"),
                "/id",
                format!("duplicate faction id \"{}\"", f.id),
            ));
        }
    }
    let lists: [(Kind, Vec<&str>, &str, &str); 11] = [
        (
            Kind::TechTiles,
            c.tech_tiles
                .iter()
                .flat_map(|x| &x.tiles)
                .map(|t| t.id.as_str())
                .collect(),
            "/tiles",
            "tech tile",
        ),
        (
            Kind::AdvancedTiles,
            c.advanced_tiles
                .iter()
                .flat_map(|x| &x.tiles)
                .map(|t| t.id.as_str())
                .collect(),
            "/tiles",
            "advanced tech tile",
        ),
        (
            Kind::Boosters,
            c.boosters
                .iter()
                .flat_map(|x| &x.boosters)
                .map(|t| t.id.as_str())
                .collect(),
            "/boosters",
            "booster",
        ),
        (
            Kind::RoundScoring,
            c.round_scoring
                .iter()
                .flat_map(|x| &x.tiles)
                .map(|t| t.id.as_str())
                .collect(),
            "/tiles",
            "round scoring tile",
        ),
        (
            Kind::FinalScoring,
            c.final_scoring
                .iter()
                .flat_map(|x| &x.tiles)
                .map(|t| t.id.as_str())
                .collect(),
            "/tiles",
            "final scoring tile",
        ),
        (
            Kind::FederationTokens,
            c.federation_tokens
                .iter()
                .flat_map(|x| &x.tokens)
                .map(|t| t.id.as_str())
                .collect(),
            "/tokens",
            "federation token",
        ),
        (
            Kind::BoardActions,
            c.board_actions
                .iter()
                .flat_map(|x| &x.actions)
                .map(|t| t.id.as_str())
                .collect(),
            "/actions",
            "board action",
        ),
        (
            Kind::Research,
            c.research
                .iter()
                .flat_map(|x| &x.tracks)
                .map(|t| t.id.as_str())
                .collect(),
            "/tracks",
            "research track",
        ),
        (
            Kind::Planets,
            c.planets
                .iter()
                .flat_map(|x| &x.planets)
                .map(|t| t.id.as_str())
                .collect(),
            "/planets",
            "planet type",
        ),
        (
            Kind::Sectors,
            c.sectors
                .iter()
                .flat_map(|x| &x.sectors)
                .map(|t| t.id.as_str())
                .collect(),
            "/sectors",
            "sector",
        ),
        (
            Kind::Board,
            c.board
                .iter()
                .flat_map(|x| &x.buildings)
                .map(|t| t.id.as_str())
                .collect(),
            "/buildings",
            "building",
        ),
    ];
    for (kind, ids, list, noun) in lists {
        if let Some(doc) = doc_of(docs, kind) {
            duplicates(
                doc,
                ids.into_iter()
                    .enumerate()
                    .map(|(i, id)| (id, format!("{list}/{i}/id"))),
                noun,
                diags,
            );
        }
    }

    // Shapes that the schema cannot state.
    if let Some(doc) = doc_of(docs, Kind::Sectors) {
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
    if let (Some(doc), Some(tech)) = (doc_of(docs, Kind::TechTiles), &c.tech_tiles) {
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
