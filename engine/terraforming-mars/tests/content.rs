//! The content loads, its schemas are committed and in sync, and broken files are refused
//! with their position.

mod common;

use orrery_tm::content::{self, CardType, Effect};

#[test]
fn base_content_loads_with_every_card() {
    let c = common::content();
    let base =
        |cards: &[orrery_tm::content::Card]| cards.iter().filter(|k| k.module.is_none()).count();
    let era = |cards: &[orrery_tm::content::Card]| {
        cards
            .iter()
            .filter(|k| k.module.as_deref() == Some("corporate_era"))
            .count()
    };
    assert_eq!(base(&c.projects), 137, "137 base project cards");
    assert_eq!(era(&c.projects), 71, "71 Corporate Era project cards");
    assert_eq!(c.projects.len(), 137 + 71, "no card of another module");
    assert_eq!(
        base(&c.corporations),
        11,
        "10 corporations + Beginner Corporation"
    );
    assert_eq!(era(&c.corporations), 2, "2 Corporate Era corporations");
    assert!(c
        .corporations
        .iter()
        .all(|k| k.kind == CardType::Corporation));
    assert_eq!(c.map.spaces.len(), 63);
    assert_eq!(c.scoring.milestones.len(), 5);
    assert_eq!(c.scoring.awards.len(), 5);
}

/// Regenerate with `TM_WRITE_SCHEMAS=1 cargo test -p orrery-terraforming-mars --test content`.
#[test]
fn committed_schemas_match_the_code() {
    let dir = common::root().join("schemas/terraforming-mars");
    let write = std::env::var_os("TM_WRITE_SCHEMAS").is_some();
    for (name, schema) in content::schemas() {
        let text = orrery_core::schema::render(&schema);
        let path = dir.join(name);
        if write {
            std::fs::create_dir_all(&dir).expect("schemas folder");
            std::fs::write(&path, &text).expect("schema written");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "schemas/terraforming-mars/{name} is stale"
        );
    }
}

#[test]
fn a_misspelt_effect_is_reported_at_its_line() {
    let schemas: std::collections::BTreeMap<_, _> = content::schemas().into_iter().collect();
    let text = "cards:\n- name: X\n  type: automated\n  cost: 3\n  play:\n  - prodution: {mc: 1}\n";
    let err = content::decode::<content::CardsFile>("projects.yaml", text, &schemas["cards.json"])
        .expect_err("unknown effect refused");
    let shown: Vec<String> = err.iter().map(|d| d.to_string()).collect();
    assert!(
        shown.iter().any(|s| s.starts_with("projects.yaml:6:")),
        "{shown:?}"
    );
}

#[test]
fn hooks_are_few_and_named() {
    let c = common::content();
    fn hooks(e: &[Effect], out: &mut Vec<String>) {
        for x in e {
            match x {
                Effect::Script(n) => out.push(n.clone()),
                Effect::Choose(cs) => cs.iter().for_each(|c| hooks(&c.effects, out)),
                _ => {}
            }
        }
    }
    let mut with_hook = Vec::new();
    for card in c.projects.iter().chain(&c.corporations) {
        let mut h = Vec::new();
        hooks(&card.play, &mut h);
        if let Some(a) = &card.action {
            hooks(&a.effects, &mut h);
        }
        if !h.is_empty() {
            with_hook.push(card.name.clone());
        }
    }
    assert!(with_hook.len() <= 4, "{with_hook:?}");
}

/// The corporation beginners play is named by the rules file and must be a corporation.
#[test]
fn the_beginner_corporation_is_named_by_content() {
    let dir = content::default_dir();
    let mut files: Vec<(String, String)> = Vec::new();
    for name in content::FILES.iter().map(|(f, _)| *f) {
        let text = std::fs::read_to_string(dir.join(name)).expect("readable content");
        files.push((name.to_string(), text));
    }
    let rules = &mut files[0].1;
    assert!(rules.contains("beginner_corporation: Beginner Corporation"));
    *rules = rules.replace(
        "beginner_corporation: Beginner Corporation",
        "beginner_corporation: Nobody",
    );
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let problems = content::load_files(&orrery_core::files::MemFiles::new("", &pairs))
        .expect_err("a beginner corporation that is not one is refused");
    assert!(
        problems
            .iter()
            .any(|d| d.to_string().contains("beginner_corporation names Nobody")),
        "{problems:?}"
    );
}

/// A card naming a module the rules file does not declare is refused, and so is a game set
/// up with an unknown module.
#[test]
fn modules_are_declared_by_the_rules_file() {
    let dir = content::default_dir();
    let mut files: Vec<(String, String)> = Vec::new();
    for name in content::FILES.iter().map(|(f, _)| *f) {
        let text = std::fs::read_to_string(dir.join(name)).expect("readable content");
        files.push((name.to_string(), text));
    }
    let projects = files
        .iter_mut()
        .find(|(n, _)| n == "projects.yaml")
        .expect("projects file");
    assert!(projects.1.contains("module: corporate_era"));
    projects.1 = projects
        .1
        .replacen("module: corporate_era", "module: prelude", 1);
    let pairs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let problems = content::load_files(&orrery_core::files::MemFiles::new("", &pairs))
        .expect_err("an undeclared module is refused");
    assert!(
        problems
            .iter()
            .any(|d| d.to_string().contains("module \"prelude\" is not declared")),
        "{problems:?}"
    );
    let options = content::GameOptions {
        modules: vec!["prelude".into()],
        draft: false,
    };
    let err = orrery_tm::game::Game::random_with(common::content(), 2, options, 1)
        .expect_err("an unknown module is refused");
    assert!(err.contains("unknown module"), "{err}");
}

/// The Corporate Era changes the starting production as the rules file says: 1 of each
/// without it, none with it.
#[test]
fn the_starting_production_is_a_content_fact() {
    let c = common::content();
    assert!(c.rules.starting_production.values().all(|v| *v == 1));
    let era = c
        .rules
        .modules
        .iter()
        .find(|m| m.id == "corporate_era")
        .expect("the Corporate Era module");
    assert_eq!(era.record_option.as_deref(), Some("corporateEra"));
    assert!(era
        .starting_production
        .as_ref()
        .is_some_and(|p| p.values().all(|v| *v == 0)));
}
