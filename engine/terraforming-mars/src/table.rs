//! Terraforming Mars's content kinds, declared once: its files with their schemas, and the
//! items overlays, `explain` and `diff` address in them (cards by name, map spaces by id,
//! milestones and awards by name, standard projects by id). The core's pipeline reads this
//! table to load, overlay, schema-check and look for duplicate ids; decoding into the game's
//! types and the checks only this game makes are here ([`GameContent`]).
//!
//! Adding a content file is one [`FileSpec`] line in [`FILES`] (and a kind when overlays are
//! to address its items).

use std::collections::BTreeSet;
use std::sync::Arc;

use orrery_core::content::kinds::{FileSpec, KindSpec, KindTable, Place};
use orrery_core::content::load::{numbers_within, GameContent, Loaded, OverlaySource};
use orrery_core::content::typed;
use orrery_core::diagnostics::Diagnostic;
use orrery_core::files::ContentFiles;
use orrery_core::schema::of;
use serde_json::Value;

use crate::content::{CardsFile, Content, MapFile, Rules, ScoringFile, StandardProjectsFile};

/// The content files, by path.
pub mod file {
    /// Global parameters, starting values and costs.
    pub const RULES: &str = "rules.yaml";
    /// The map's spaces.
    pub const MAP: &str = "map.yaml";
    /// The standard projects.
    pub const STANDARD_PROJECTS: &str = "standard-projects.yaml";
    /// Milestones and awards.
    pub const SCORING: &str = "scoring.yaml";
    /// The corporations.
    pub const CORPORATIONS: &str = "corporations.yaml";
    /// The project cards.
    pub const PROJECTS: &str = "projects.yaml";
}

/// The folder beside the base files holding the game's variant overlays; loading passes
/// over it.
pub const VARIANTS_DIR: &str = "variants/";

/// Every content file with its schema, in load order.
pub static FILES: [FileSpec; 6] = [
    FileSpec {
        path: file::RULES,
        schema: "rules.json",
        schema_of: of::<Rules>,
    },
    FileSpec {
        path: file::MAP,
        schema: "map.json",
        schema_of: of::<MapFile>,
    },
    FileSpec {
        path: file::STANDARD_PROJECTS,
        schema: "standard-projects.json",
        schema_of: of::<StandardProjectsFile>,
    },
    FileSpec {
        path: file::SCORING,
        schema: "scoring.json",
        schema_of: of::<ScoringFile>,
    },
    FileSpec {
        path: file::CORPORATIONS,
        schema: "cards.json",
        schema_of: of::<CardsFile>,
    },
    FileSpec {
        path: file::PROJECTS,
        schema: "cards.json",
        schema_of: of::<CardsFile>,
    },
];

/// A kind whose items are the elements of `key` in `file`, named by their field `id`.
const fn list(
    name: &'static str,
    doc: &'static str,
    noun: &'static str,
    (file, key): (&'static str, &'static str),
    id: &'static str,
) -> KindSpec {
    KindSpec {
        name,
        doc,
        noun,
        place: Place::List { file, key },
        id: Some(id),
        addressed: true,
    }
}

static KIND_SPECS: [KindSpec; 7] = [
    KindSpec {
        name: "rules",
        doc: "`rules.yaml` (single item, no id).",
        noun: "rules",
        place: Place::File(file::RULES),
        id: None,
        addressed: true,
    },
    list(
        "space",
        "A space of the map, by its id.",
        "map space",
        (file::MAP, "spaces"),
        "id",
    ),
    list(
        "standard_project",
        "A standard project, by its id.",
        "standard project",
        (file::STANDARD_PROJECTS, "projects"),
        "id",
    ),
    list(
        "milestone",
        "A milestone, by its name.",
        "milestone",
        (file::SCORING, "milestones"),
        "name",
    ),
    list(
        "award",
        "An award, by its name.",
        "award",
        (file::SCORING, "awards"),
        "name",
    ),
    list(
        "corporation",
        "A corporation card, by its name.",
        "corporation",
        (file::CORPORATIONS, "cards"),
        "name",
    ),
    list(
        "project",
        "A project card, by its name.",
        "project card",
        (file::PROJECTS, "cards"),
        "name",
    ),
];

/// Terraforming Mars's content kinds.
pub static KINDS: KindTable = KindTable::ignoring(&FILES, &KIND_SPECS, None, &[VARIANTS_DIR]);

/// Largest magnitude of any number in content: far above the base game's largest (a few
/// dozen), low enough that the game's `i32` sums and products of them cannot overflow.
pub const MAX_CONTENT_NUMBER: i64 = 10_000;

/// The decoded files, before provenance is attached.
struct Decoded {
    rules: Rules,
    map: MapFile,
    standard_projects: StandardProjectsFile,
    scoring: ScoringFile,
    corporations: CardsFile,
    projects: CardsFile,
}

impl GameContent for Decoded {
    fn table() -> &'static KindTable {
        &KINDS
    }

    fn decode(loaded: &Loaded, diags: &mut Vec<Diagnostic>) -> Option<Decoded> {
        for doc in &loaded.docs {
            numbers_within(&doc.tree, "", MAX_CONTENT_NUMBER, diags);
        }
        let rules = loaded.single(file::RULES, diags);
        let map = loaded.single(file::MAP, diags);
        let standard_projects = loaded.single(file::STANDARD_PROJECTS, diags);
        let scoring = loaded.single(file::SCORING, diags);
        let corporations = loaded.single(file::CORPORATIONS, diags);
        let projects = loaded.single(file::PROJECTS, diags);
        Some(Decoded {
            rules: rules?,
            map: map?,
            standard_projects: standard_projects?,
            scoring: scoring?,
            corporations: corporations?,
            projects: projects?,
        })
    }
}

/// Loads content through the core's pipeline and stacks `overlays` on it: every problem at
/// `file:line:col` (an overlay's own line for what it changed), then the checks across
/// files ([`crate::check::references`]).
///
/// # Errors
/// Every problem found.
pub fn load(
    files: &dyn ContentFiles,
    overlays: &[OverlaySource],
) -> Result<Content, Vec<Diagnostic>> {
    let (d, loaded) = Decoded::load_with_provenance(files, overlays)?;
    let (_, provenance) = loaded.into_parts();
    let content = Content {
        rules: d.rules,
        map: d.map,
        standard_projects: d.standard_projects.projects,
        scoring: d.scoring,
        corporations: d.corporations.cards,
        projects: d.projects.cards,
        provenance: Arc::new(provenance),
    };
    // The built-in content, which the tests load with every check: none can fail.
    if content.provenance.known_good() {
        return Ok(content);
    }
    let problems = crate::check::references(&content);
    if problems.is_empty() {
        Ok(content)
    } else {
        Err(problems)
    }
}

/// Every schema file: each content file's, and the overlay's with its values typed by kind
/// and path against the others (which must sit beside it).
pub fn schemas() -> Vec<(&'static str, Value)> {
    typed::all(&KINDS)
}

/// Fields that name ids, by property name, with the kind whose ids they name.
const ID_FIELDS: [(&str, &str); 3] = [
    ("adjacent", "space"),
    ("beginner_corporation", "corporation"),
    ("standard_project", "standard_project"),
];

/// The schemas knowing `contents`' ids: the fields that name a map space, a corporation or a
/// standard project list the ids there are, and each overlay change's target id is one of its
/// kind's (an editor completes card names and flags a misspelt one).
pub fn schemas_with_ids(contents: &[&Content]) -> Vec<(&'static str, Value)> {
    let ids_of = |kind: &KindSpec| -> Vec<String> {
        let set: BTreeSet<String> = contents
            .iter()
            .flat_map(|c| c.provenance.ids(kind))
            .flatten()
            .collect();
        set.into_iter().collect()
    };
    let fields: Vec<(&str, Vec<String>)> = ID_FIELDS
        .iter()
        .filter_map(|(field, kind)| Some((*field, ids_of(KINDS.kind(kind)?))))
        .collect();
    let schemas: Vec<(&'static str, Value)> = KINDS
        .plain_schemas()
        .into_iter()
        .map(|(n, mut s)| {
            typed::restrict_fields(&mut s, &fields);
            (n, s)
        })
        .collect();
    let targets: Vec<(&str, Vec<String>)> = KINDS
        .addressed()
        .filter(|k| !k.is_single())
        .map(|k| (k.name, ids_of(k)))
        .collect();
    typed::with_typed_overlay(schemas, &KINDS)
        .into_iter()
        .map(|(n, s)| match n {
            "overlay.json" => (n, typed::with_target_ids(s, &targets)),
            _ => (n, s),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use orrery_core::files::MemFiles;

    fn base() -> Vec<(String, String)> {
        let dir = crate::content::default_dir();
        FILES
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(dir.join(f.path)).expect("readable content");
                (f.path.to_string(), text)
            })
            .collect()
    }

    fn load_with(files: &[(String, String)], overlay: &str) -> Result<Content, Vec<Diagnostic>> {
        let pairs: Vec<(&str, &str)> = files
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        let overlays: Vec<OverlaySource> = if overlay.is_empty() {
            Vec::new()
        } else {
            vec![OverlaySource {
                file: "errata.yaml".into(),
                text: overlay.into(),
                scripts: Vec::new(),
                problem: None,
            }]
        };
        load(&MemFiles::new("", &pairs), &overlays)
    }

    fn first_project(c: &Content) -> (String, i32) {
        let p = &c.projects[0];
        (p.name.clone(), p.cost.expect("a project has a cost"))
    }

    #[test]
    fn every_kind_finds_its_items() {
        let c = load_with(&base(), "").expect("base content loads");
        for kind in KINDS.addressed() {
            let ids = c.provenance.ids(kind);
            assert!(!ids.is_empty(), "{}", kind.name);
            for id in ids {
                assert!(c.provenance.item(kind, id.as_deref()).is_some());
            }
        }
        let project = KINDS.kind("project").expect("a project kind");
        assert_eq!(c.provenance.ids(project).len(), c.projects.len());
    }

    #[test]
    fn an_overlay_changes_a_card_and_keeps_its_line() {
        let base = load_with(&base(), "").expect("base content loads");
        let (name, cost) = first_project(&base);
        let overlay = format!(
            "name: e\nchanges:\n  - set: {{kind: project, id: {name:?}, path: cost, value: {}}}\n",
            cost + 3
        );
        let c = load_with(&self::base(), &overlay).expect("the overlay applies");
        assert_eq!(c.projects[0].cost, Some(cost + 3));
        let kind = KINDS.kind("project").expect("kind");
        let origin = c
            .provenance
            .origin(kind, Some(&name), "cost")
            .expect("an origin");
        assert!(origin.to_string().starts_with("errata.yaml:3:"), "{origin}");
        assert_ne!(c, base, "the changed content differs");
    }

    #[test]
    fn overlay_problems_are_refused_at_their_lines() {
        let (name, _) = first_project(&load_with(&base(), "").expect("loads"));
        let overlay = format!(
            "name: e\nchanges:\n  - set: {{kind: project, id: {name:?}, path: cost, value: cheap}}\n  - set: {{kind: project, id: Nothing At All, path: cost, value: 1}}\n"
        );
        let problems: Vec<String> = load_with(&base(), &overlay)
            .expect_err("refused")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            problems.iter().any(|p| p.starts_with("errata.yaml:3:")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("errata.yaml:4:") && p.contains("no project with id")),
            "{problems:?}"
        );
    }

    #[test]
    fn duplicate_ids_and_absurd_numbers_are_refused_at_their_lines() {
        let mut files = base();
        let (_, text) = files
            .iter_mut()
            .find(|(f, _)| f == file::STANDARD_PROJECTS)
            .expect("standard projects");
        let first_id = text
            .lines()
            .find_map(|l| l.strip_prefix("- id: "))
            .expect("an id")
            .to_string();
        let second = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with("- id: "))
            .nth(1)
            .map(|(i, _)| i)
            .expect("a second project");
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[second] = format!("- id: {first_id}");
        *text = lines.join("\n") + "\n";
        let problems: Vec<String> = load_with(&files, "")
            .expect_err("a duplicate is refused")
            .iter()
            .map(ToString::to_string)
            .collect();
        let at = format!("standard-projects.yaml:{}:", second + 1);
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with(&at) && p.contains("duplicate standard project id")),
            "{problems:?}"
        );
        let (name, _) = first_project(&load_with(&base(), "").expect("loads"));
        let overlay = format!(
            "name: e\nchanges:\n  - set: {{kind: project, id: {name:?}, path: cost, value: 2147483647}}\n"
        );
        let problems: Vec<String> = load_with(&base(), &overlay)
            .expect_err("an absurd cost is refused")
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("errata.yaml:3:") && p.contains("out of range")),
            "{problems:?}"
        );
    }

    #[test]
    fn files_in_the_variants_folder_are_not_content() {
        let mut files = base();
        files.push(("variants/x.yaml".into(), "name: x\nchanges: []\n".into()));
        assert!(load_with(&files, "").is_ok());
        files.push(("stray.yaml".into(), "a: 1\n".into()));
        let problems = load_with(&files, "").expect_err("an unknown file is refused");
        assert!(problems.iter().any(|d| d.file.contains("stray.yaml")));
    }

    #[test]
    fn id_schemas_know_the_content_s_ids() {
        let c = load_with(&base(), "").expect("loads");
        let schemas = schemas_with_ids(&[&c]);
        let (_, overlay) = schemas
            .iter()
            .find(|(n, _)| *n == "overlay.json")
            .expect("an overlay schema");
        let text = overlay.to_string();
        assert!(text.contains(&serde_json::to_string(&c.projects[0].name).unwrap()));
        let (_, map) = schemas.iter().find(|(n, _)| *n == "map.json").expect("map");
        let adjacent = map
            .pointer("/definitions/Space/properties/adjacent/items/enum")
            .and_then(Value::as_array)
            .expect("adjacent spaces are an enum");
        assert_eq!(adjacent.len(), c.map.spaces.len());
    }
}
