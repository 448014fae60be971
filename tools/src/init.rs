//! `orrery init DIR`: a designer's own folder, with schemas that know the content's ids and
//! `$schema` modelines that resolve inside it; `--from` starts it from an overlay folder. The
//! schemas stay current: `orrery validate` rewrites a `schemas/` folder that `init` made
//! (it holds [`MARKER`]) whenever a file it checks points there and the ids have changed.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use orrery_core::content::overlay::scripts_beside;
use orrery_core::game_module::GameModule;
use orrery_core::schema;

use crate::source::ContentSource;
use crate::stack::Stack;
use crate::ContentArgs;

/// The file `init` leaves in the `schemas/` folder it writes: `validate` keeps a folder
/// holding it up to date with the content it checks.
pub const MARKER: &str = ".written-by-orrery-init";

const MARKER_TEXT: &str = "\
`orrery init` wrote the schemas in this folder. `orrery validate` rewrites them whenever a file
it checks points here and the content's ids have changed (a new faction, booster or planet type
completes in the editor). Delete this file to keep the schemas as they are.
";

/// The modeline line prefix every content file starts with.
const MODELINE: &str = "# yaml-language-server: $schema=";

/// Gaia Project's starting overlay, its examples written by hand.
const STARTER: &str = "\
# yaml-language-server: $schema=../schemas/overlay.json
# A variant overlay: changes applied in order on top of the base game.
# Check it:   orrery validate --variant variants/my-variant.yaml
# Review it:  orrery diff --variant variants/my-variant.yaml --against
# Examples of changes (remove the leading `# ` to use one):
#   - set: {kind: faction, id: terrans, path: board.power.0, value: 5}
#   - remove: {kind: booster, id: booster10}
#   - add: {kind: booster, value: {id: booster11, name: 5 credits, income: [{gain: {c: 5}}]}}
name: my-variant
description: What this variant changes, and why.
changes: []
";

/// The starting overlay of a game other than Gaia Project: its examples drawn from the
/// content (a `set` of a number and a `remove`, on an item of the kind with the most items),
/// its commands naming the game.
fn starter<G: GameModule>(content: &G::Content) -> String {
    let game = format!(" --game {}", G::ID);
    let mut examples = Vec::new();
    if let (Some(table), Some(prov)) = (G::kinds(), G::provenance(content)) {
        let biggest = table
            .addressed()
            .filter(|k| !k.is_single())
            .max_by_key(|k| prov.ids(k).len());
        if let Some(kind) = biggest {
            let ids: Vec<String> = prov.ids(kind).into_iter().flatten().collect();
            let number = ids.iter().find_map(|id| {
                let fields = orrery_core::content::inspect::explain(prov, kind, Some(id))?;
                fields
                    .iter()
                    .find(|f| !f.path.contains('.') && f.value.is_i64())
                    .and_then(|f| Some((id, f.path.clone(), f.value.as_i64()?)))
            });
            if let Some((id, path, value)) = number {
                examples.push(format!(
                    "#   - set: {{kind: {}, id: {}, path: {path}, value: {}}}",
                    kind.name,
                    yaml_word(id),
                    value.saturating_add(1)
                ));
            }
            if let Some(last) = ids.last() {
                examples.push(format!(
                    "#   - remove: {{kind: {}, id: {}}}",
                    kind.name,
                    yaml_word(last)
                ));
            }
        }
    }
    let mut text = format!(
        "{MODELINE}../schemas/overlay.json\n\
         # A variant overlay: changes applied in order on top of the base game.\n\
         # Check it:   orrery validate{game} --variant variants/my-variant.yaml\n\
         # Review it:  orrery diff{game} --variant variants/my-variant.yaml --against\n"
    );
    if !examples.is_empty() {
        text.push_str("# Examples of changes (remove the leading `# ` to use one):\n");
        for e in examples {
            text.push_str(&e);
            text.push('\n');
        }
    }
    text.push_str(
        "name: my-variant\ndescription: What this variant changes, and why.\nchanges: []\n",
    );
    text
}

/// An id as a YAML flow value: as it is when plain, else quoted.
fn yaml_word(id: &str) -> String {
    let plain = !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || " -_".contains(c))
        && !id.starts_with([' ', '-'])
        && !id.ends_with(' ');
    if plain {
        id.to_string()
    } else {
        serde_json::to_string(id).unwrap_or_default()
    }
}

/// A content file's text with its modeline pointing at `{up}schemas/` (the same schema file
/// name); unchanged without a modeline.
fn relink(text: &str, up: &str) -> String {
    let Some((first, rest)) = text.split_once('\n') else {
        return text.to_string();
    };
    let Some(target) = first.strip_prefix(MODELINE) else {
        return text.to_string();
    };
    let file = target.rsplit('/').next().unwrap_or(target);
    format!("{MODELINE}{up}schemas/{file}\n{rest}")
}

/// The files of the overlay folder `from` as they go into `dir`: `overlay.yaml`, its modeline
/// pointing at `dir/schemas/overlay.json`, and the scripts it names, all of which must be there.
fn overlay_copy(stack: &Stack, from: &Path, dir: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let shown = from.display();
    if !from.is_dir() {
        return Err(format!(
            "--from {shown}: no such overlay folder (give a folder holding overlay.yaml, \
             such as content/examples/cartographers)"
        ));
    }
    let found = stack
        .overlay(&from.to_string_lossy())
        .map_err(|e| format!("--from {shown}: {e}"))?;
    for name in scripts_beside(&found.text) {
        if !found.scripts.iter().any(|(n, _)| *n == name) {
            return Err(format!(
                "--from {shown}: overlay.yaml names the script {name}, which is not in that folder"
            ));
        }
    }
    let text = if found.text.starts_with(MODELINE) {
        relink(&found.text, "")
    } else {
        format!("{MODELINE}schemas/overlay.json\n{}", found.text)
    };
    let mut files = vec![(dir.join("overlay.yaml"), text)];
    files.extend(found.scripts.into_iter().map(|(n, src)| (dir.join(n), src)));
    Ok(files)
}

fn write_new(path: &Path, text: &str) -> Result<(), String> {
    if path.exists() {
        return Err(format!(
            "{} exists already; nothing was changed there",
            path.display()
        ));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    }
    crate::out::write_file(path, text.as_bytes())
}

/// Whether `G` is the game content is taken for without `--game` (Gaia Project).
fn default_game<G: GameModule>() -> bool {
    G::ID == crate::games::GameName::GaiaProject.id()
}

/// Sets up `dir` for the game `G`.
pub fn init<G: GameModule>(
    args: &ContentArgs,
    dir: &Path,
    copy_base: bool,
    from: Option<&Path>,
) -> ExitCode {
    let (stack, content) = match args.load_stacked_as::<G>(&[]) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let schemas = G::schemas_with_ids(&content).unwrap_or_else(G::schemas);
    let mut files: Vec<(std::path::PathBuf, String)> = schemas
        .into_iter()
        .map(|(name, s)| (dir.join("schemas").join(name), schema::render(&s)))
        .collect();
    files.push((dir.join("schemas").join(MARKER), MARKER_TEXT.to_string()));
    match from {
        Some(from) => match overlay_copy(&stack, from, dir) {
            Ok(copy) => files.extend(copy),
            Err(e) => {
                errln!("error: {e}; nothing was written");
                return ExitCode::from(1);
            }
        },
        None if default_game::<G>() => {
            files.push((dir.join("variants/my-variant.yaml"), STARTER.to_string()))
        }
        None => files.push((dir.join("variants/my-variant.yaml"), starter::<G>(&content))),
    }
    if copy_base {
        let base = stack.base_files();
        for rel in base.list() {
            match base.read(&rel) {
                Ok(text) => files.push((
                    dir.join(G::CONTENT_DIR).join(&rel),
                    relink(&text, &up_from(&rel)),
                )),
                Err(e) => {
                    errln!("error: {}: {e}", base.display_name(&rel));
                    return ExitCode::from(1);
                }
            }
        }
    }
    // Refuse before writing anything when a file would be overwritten (schemas excepted) or
    // two would clash (a script named like another file or folder written here).
    for (i, (path, _)) in files.iter().enumerate() {
        if let Some((other, _)) = files[..i]
            .iter()
            .find(|(o, _)| o.starts_with(path) || path.starts_with(o))
        {
            errln!(
                "error: {} and {} would clash; nothing was written",
                other.display(),
                path.display()
            );
            return ExitCode::from(1);
        }
        if path.exists() && !path.starts_with(dir.join("schemas")) {
            errln!(
                "error: {} exists already; nothing was written",
                path.display()
            );
            return ExitCode::from(1);
        }
    }
    for (path, text) in &files {
        if path.starts_with(dir.join("schemas")) && path.exists() {
            if let Err(e) = std::fs::remove_file(path) {
                errln!("error: cannot replace {}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
        if let Err(e) = write_new(path, text) {
            errln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    // Commands for another game than the default name it.
    let game = if default_game::<G>() {
        String::new()
    } else {
        format!(" --game {}", G::ID)
    };
    outln!("wrote {} files to {}", files.len(), dir.display());
    outln!("  schemas/  JSON Schemas knowing this content's ids (`orrery validate` refreshes them when the ids change)");
    if from.is_some() {
        outln!(
            "  overlay.yaml and its scripts  check them with: orrery validate{game} --variant {}",
            dir.display()
        );
    } else {
        outln!(
            "  variants/my-variant.yaml  check it with: orrery validate{game} --variant {}",
            dir.join("variants/my-variant.yaml").display()
        );
    }
    if copy_base {
        outln!(
            "  {}/  the base game; use it with: orrery validate{game} --content {}",
            G::CONTENT_DIR,
            dir.display()
        );
    }
    ExitCode::SUCCESS
}

/// The way up from `rel` in `DIR/base/` to DIR (`../` per folder, plus one for `base/`).
fn up_from(rel: &str) -> String {
    "../".repeat(rel.matches('/').count() + 1)
}

/// The `schemas/` folder a file's modeline points into, when `init` made it.
fn init_schemas_of(file: &Path, text: &str) -> Option<PathBuf> {
    let target = text.lines().next()?.strip_prefix(MODELINE)?;
    let dir = file.parent()?.join(target).parent()?.to_path_buf();
    dir.join(MARKER).is_file().then_some(dir)
}

/// After `validate` passed: rewrites each `schemas/` folder that `init` made and that a file of
/// the stack (a variant, or the base files of a content folder) points at, with schemas knowing
/// the checked content's ids. Only schemas whose text changes are written; each folder
/// rewritten is named on stderr.
///
/// # Errors
/// A schema that cannot be written.
pub fn refresh<G: GameModule>(stack: &Stack, content: &G::Content) -> Result<(), String> {
    let mut checked: Vec<(PathBuf, String)> = stack
        .variants
        .iter()
        .map(|v| (PathBuf::from(&v.overlay.file), v.overlay.text.clone()))
        .collect();
    if let ContentSource::Dir(dir) = &stack.source {
        // As `files_in` reads it: the game's folder inside, else the folder itself.
        let base = Some(dir.join(stack.folders.base))
            .filter(|b| b.is_dir())
            .unwrap_or_else(|| dir.clone());
        let files = stack.source.files_in(stack.folders.base);
        for rel in files.list() {
            if let Ok(text) = files.read(&rel) {
                checked.push((base.join(&rel), text));
            }
        }
    }
    let mut folders: Vec<PathBuf> = checked
        .iter()
        .filter_map(|(file, text)| init_schemas_of(file, text))
        .collect();
    folders.sort();
    folders.dedup();
    if folders.is_empty() {
        return Ok(());
    }
    let Some(schemas) = G::schemas_with_ids(content) else {
        return Ok(());
    };
    for folder in folders {
        let mut changed = 0;
        for (name, s) in &schemas {
            let path = folder.join(name);
            let text = schema::render(s);
            if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
                continue;
            }
            crate::out::write_file(&path, text.as_bytes())?;
            changed += 1;
        }
        if changed > 0 {
            errln!(
                "refreshed {changed} schema{} in {} (the content's ids changed)",
                if changed == 1 { "" } else { "s" },
                folder.display()
            );
        }
    }
    Ok(())
}
