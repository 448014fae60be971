//! Which game a command plays. The content names it (`game:` in its rules file, `rules.yaml`
//! at the top of the folder or in its `base/`); without one it is Gaia Project, so every
//! content folder, record and saved game made before there were two games keeps working.
//! `--game` overrides the content's word.

use std::path::Path;

use orrery_core::files::{read_bounded, MAX_CONTENT_FILE_BYTES};

/// The commands written once for every game (`run_for` in `main.rs` runs exactly these).
pub const EVERY_GAME: [&str; 8] = [
    "validate", "schema", "simulate", "merge", "chart", "explain", "diff", "init",
];

/// A game this command line plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameName {
    /// Gaia Project: every command.
    GaiaProject,
    /// Terraforming Mars (base game on Tharsis): its content, schemas, bot studies, its
    /// recorded games, and its logs and saved games.
    TerraformingMars,
}

impl GameName {
    /// Every game, in the order `--help` lists them.
    pub const ALL: [GameName; 2] = [GameName::GaiaProject, GameName::TerraformingMars];

    /// The game's name as content and `--game` write it.
    pub fn id(self) -> &'static str {
        match self {
            GameName::GaiaProject => "gaia-project",
            GameName::TerraformingMars => "terraforming-mars",
        }
    }

    /// Where the game's base files and named variants are in a content source.
    pub fn folders(self) -> crate::source::GameFolders {
        use crate::source::GameFolders;
        match self {
            GameName::GaiaProject => GameFolders::of::<orrery_gp::game::Game>(),
            GameName::TerraformingMars => GameFolders::of::<orrery_tm::game::Game>(),
        }
    }

    /// The game of a name, if it is one of [`GameName::ALL`].
    pub fn parse(name: &str) -> Option<GameName> {
        GameName::ALL.into_iter().find(|g| g.id() == name)
    }

    /// The commands only this game has, beside those of every game ([`EVERY_GAME`]);
    /// `None` for every command.
    pub fn own_commands(self) -> Option<&'static [&'static str]> {
        match self {
            GameName::GaiaProject => None,
            GameName::TerraformingMars => Some(&[
                "conformance",
                "replay",
                "moves",
                "trace",
                "play",
                "bench",
                "render",
                "view",
            ]),
        }
    }

    /// Refuses a command the game does not offer, naming the game and what it offers.
    pub fn offers(self, command: &str) -> Result<(), String> {
        let Some(own) = self.own_commands() else {
            return Ok(());
        };
        if EVERY_GAME.contains(&command) || own.contains(&command) {
            return Ok(());
        }
        let offered: Vec<&str> = EVERY_GAME.iter().chain(own).copied().collect();
        Err(format!(
            "{} does not offer `{command}` (it offers: {})",
            self.id(),
            offered.join(", ")
        ))
    }
}

/// The game named by `--game`, else by the content folder `dir` (when there is one), else
/// Gaia Project.
pub fn choose(flag: Option<&str>, dir: Option<&Path>) -> Result<GameName, String> {
    if let Some(name) = flag {
        return GameName::parse(name).ok_or_else(|| unknown(name, "--game"));
    }
    match dir {
        Some(d) => named_by(d),
        None => Ok(GameName::GaiaProject),
    }
}

/// The game a content folder names in its rules file (`rules.yaml`, else `base/rules.yaml`);
/// Gaia Project when the file or its `game` key is missing. A rules file that cannot be read
/// is left for loading to report.
pub fn named_by(dir: &Path) -> Result<GameName, String> {
    let Some(file) = ["rules.yaml", "base/rules.yaml"]
        .into_iter()
        .map(|f| dir.join(f))
        .find(|f| f.is_file())
    else {
        return Ok(GameName::GaiaProject);
    };
    let Ok(text) = read_bounded(&file, MAX_CONTENT_FILE_BYTES, false) else {
        return Ok(GameName::GaiaProject);
    };
    match game_key(&text) {
        None => Ok(GameName::GaiaProject),
        Some(name) => GameName::parse(&name)
            .ok_or_else(|| unknown(&name, &format!("`game:` in {}", file.display()))),
    }
}

/// The game a log or saved game names with its top-level `game` key, if it is a JSON file
/// that names a known game, or Terraforming Mars for a gzipped record it reads
/// (`*.json.gz`); anything else is left for the command to read and report.
pub fn named_by_file(path: &Path) -> Option<GameName> {
    // Gzipped JSON is how Terraforming Mars' recorded games come (they name no game).
    if path.to_string_lossy().ends_with(".json.gz") {
        return orrery_tm::record::Record::load(path)
            .is_ok()
            .then_some(GameName::TerraformingMars);
    }
    #[derive(serde::Deserialize)]
    struct Named {
        game: Option<String>,
    }
    let text = read_bounded(path, orrery_core::files::MAX_RECORD_BYTES, true).ok()?;
    let named: Named = serde_json::from_str(&text).ok()?;
    GameName::parse(named.game.as_deref()?)
}

/// The value of a top-level `game:` line of a rules file, without parsing the whole file (a
/// broken file is loading's to report, with its line).
fn game_key(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.strip_prefix("game:")?;
        let value = rest.split('#').next().unwrap_or("").trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_string())
    })
}

fn unknown(name: &str, said_by: &str) -> String {
    let known: Vec<&str> = GameName::ALL.iter().map(|g| g.id()).collect();
    format!(
        "unknown game \"{name}\" named by {said_by} (known: {})",
        known.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_file_names_the_game_and_absence_means_gaia_project() {
        assert_eq!(
            game_key("# x\ngame: terraforming-mars\nrounds: 6\n").as_deref(),
            Some("terraforming-mars")
        );
        assert_eq!(
            game_key("game: \"gaia-project\"  # the first game\n").as_deref(),
            Some("gaia-project")
        );
        assert_eq!(game_key("rounds: 6\n  game: nested\n"), None);
        assert_eq!(choose(None, None), Ok(GameName::GaiaProject));
        assert_eq!(
            choose(Some("terraforming-mars"), None),
            Ok(GameName::TerraformingMars)
        );
        assert!(choose(Some("chess"), None)
            .unwrap_err()
            .contains("unknown game \"chess\""));
    }

    #[test]
    fn a_game_refuses_what_it_does_not_offer() {
        for name in EVERY_GAME.iter().chain(&[
            "conformance",
            "replay",
            "moves",
            "trace",
            "play",
            "bench",
            "render",
            "view",
        ]) {
            assert!(GameName::TerraformingMars.offers(name).is_ok(), "{name}");
        }
        let e = GameName::TerraformingMars.offers("train").unwrap_err();
        assert!(
            e.contains("conformance, replay, moves, trace, play, bench, render, view)"),
            "{e}"
        );
        assert!(
            e.starts_with("terraforming-mars does not offer `train` (it offers: validate,"),
            "{e}"
        );
        assert!(GameName::GaiaProject.offers("train").is_ok());
    }
}
