//! `explain` and `diff`: an item's effective fields with their origins, and what one content
//! stack changes relative to another. Written once over [`GameModule`]: any game whose content
//! loads by a kinds table ([`GameModule::kinds`]) has them.

use std::process::ExitCode;

use clap::Parser;
use orrery_core::content::inspect::{
    self, Field, FieldChange, ItemChange, ItemDiff, ScriptChange, ScriptDiff,
};
use orrery_core::content::kinds::{KindSpec, KindTable};
use orrery_core::content::provenance::Provenance;
use orrery_core::game_module::GameModule;
use orrery_core::located::Origin;
use serde_json::{json, Value};

use crate::stack::Stack;
use crate::{usage, ContentArgs};

/// Item kinds as overlays and schemas name them, of every game (Gaia Project's first), for
/// `--help` and argument checks; which a game has is checked once the game is known.
pub fn kind_names() -> Vec<&'static str> {
    let mut names = orrery_gp::content::KINDS.names();
    for name in orrery_tm::table::KINDS.names() {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// The game's kinds, or the usage error saying it has none.
fn kinds_of<G: GameModule>(command: &str) -> Result<&'static KindTable, ExitCode> {
    G::kinds().ok_or_else(|| usage(format!("{} does not offer `{command}`", G::ID)))
}

/// The content's provenance, or the error saying the game keeps none.
fn provenance_of<G: GameModule>(content: &G::Content) -> Result<&Provenance, ExitCode> {
    G::provenance(content).ok_or_else(|| {
        errln!(
            "error: {} keeps no record of where content came from",
            G::ID
        );
        ExitCode::from(1)
    })
}

fn origin_json(o: &Origin) -> Value {
    json!({
        "file": o.file.as_ref(),
        "line": o.pos.map(|p| p.line),
        "col": o.pos.map(|p| p.col),
        "at": o.to_string(),
    })
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn item_name(kind: &KindSpec, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("{} {id}", kind.name()),
        None => kind.name().to_string(),
    }
}

/// Finds the item's id, or says which ids exist.
fn known_id(content: &Provenance, kind: &KindSpec, id: Option<&str>) -> Result<(), String> {
    if kind.is_single() {
        return match id {
            None => Ok(()),
            Some(id) => Err(format!(
                "{} is a single item and takes no id (got \"{id}\")",
                kind.name()
            )),
        };
    }
    let ids: Vec<String> = content.ids(kind).into_iter().flatten().collect();
    match id {
        Some(id) if ids.iter().any(|i| i == id) => Ok(()),
        Some(id) => Err(format!(
            "no {} with id \"{id}\"; known: {}",
            kind.name(),
            ids.join(", ")
        )),
        None => Err(format!(
            "{} needs an id; known: {}",
            kind.name(),
            ids.join(", ")
        )),
    }
}

/// `orrery explain KIND [ID]`: each effective field with its origin.
pub fn explain<G: GameModule>(
    args: &ContentArgs,
    kind: &str,
    id: Option<&str>,
    json: bool,
) -> ExitCode {
    let table = match kinds_of::<G>("explain") {
        Ok(t) => t,
        Err(code) => return code,
    };
    let Some(kind) = table.addressed().find(|k| k.name == kind) else {
        let known = table.names().join(", ");
        return usage(if G::ID == crate::games::GameName::GaiaProject.id() {
            format!("unknown kind \"{kind}\"; kinds: {known}")
        } else {
            format!("unknown kind \"{kind}\" for {}; kinds: {known}", G::ID)
        });
    };
    let (stack, content) = match args.load_stacked_as::<G>(&[]) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let provenance = match provenance_of::<G>(&content) {
        Ok(p) => p,
        Err(code) => return code,
    };
    if let Err(e) = known_id(provenance, kind, id) {
        errln!("error: {e}");
        return ExitCode::from(1);
    }
    let Some(fields) = inspect::explain(provenance, kind, id) else {
        errln!("error: no {}", item_name(kind, id));
        return ExitCode::from(1);
    };
    let does = G::describe_item(&content, kind, id);
    if json {
        let out = json!({
            "content": stack.to_json(),
            "kind": kind.name(),
            "id": id,
            "does": does,
            "fields": fields.iter().map(|f| json!({
                "path": f.path,
                "value": f.value,
                "origin": origin_json(&f.origin),
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        outln!("# {}", item_name(kind, id));
        if let Some(does) = does.filter(|d| !d.is_empty()) {
            outln!("does: {does}  (generated from its effects)");
        }
        print_fields(&fields);
    }
    ExitCode::SUCCESS
}

fn print_fields(fields: &[Field]) {
    let rows: Vec<(String, String)> = fields
        .iter()
        .map(|f| {
            (
                format!("{} = {}", f.path, show(&f.value)),
                f.origin.to_string(),
            )
        })
        .collect();
    let width = rows
        .iter()
        .map(|(l, _)| l.chars().count())
        .max()
        .unwrap_or(0);
    for (left, origin) in rows {
        outln!("{left:width$}  {origin}");
    }
}

/// The reference side of `diff`: the options after `--against`.
#[derive(Parser)]
#[command(name = "--against", no_binary_name = true)]
struct Against {
    #[command(flatten)]
    content: ContentArgs,
}

/// `orrery diff [STACK] --against [STACK]`: what the first stack changes relative to the second.
pub fn diff<G: GameModule>(args: &ContentArgs, against: &[String], json: bool) -> ExitCode {
    if let Err(code) = kinds_of::<G>("diff") {
        return code;
    }
    let reference = match Against::try_parse_from(against) {
        Ok(a) => a.content,
        Err(e) => return usage(format!("after --against: {e}")),
    };
    let (changed_stack, reference_stack) = match (args.stack(&[]), reference.stack(&[])) {
        (Ok(a), Ok(b)) => (a.for_game::<G>(), b.for_game::<G>()),
        (Err(e), _) | (_, Err(e)) => return usage(e),
    };
    let changed = match load::<G>(&changed_stack, "") {
        Ok(c) => c,
        Err(code) => return code,
    };
    let reference = match load::<G>(&reference_stack, "against ") {
        Ok(c) => c,
        Err(code) => return code,
    };
    let (changed, reference) = match (provenance_of::<G>(&changed), provenance_of::<G>(&reference))
    {
        (Ok(a), Ok(b)) => (a, b),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let diffs = inspect::diff(changed, reference);
    let scripts = inspect::diff_scripts(changed, reference);
    if json {
        let out = json!({
            "content": changed_stack.to_json(),
            "against": reference_stack.to_json(),
            "items": diffs.iter().map(diff_json).collect::<Vec<_>>(),
            "scripts": scripts.iter().map(script_json).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        if diffs.is_empty() && scripts.is_empty() {
            outln!("# no differences");
        }
        print_diffs(&diffs);
        print_scripts(&scripts);
    }
    ExitCode::SUCCESS
}

/// Loads a stack of the game `G`, stating it on stderr after `label`; problems are printed
/// and give exit code 1.
fn load<G: GameModule>(stack: &Stack, label: &str) -> Result<G::Content, ExitCode> {
    errln!("{label}{}", stack.describe());
    stack.load_as::<G>().map_err(|diags| {
        for d in &diags {
            errln!("{d}");
        }
        ExitCode::from(1)
    })
}

fn diff_json(d: &ItemDiff) -> Value {
    let (change, origin, fields) = match &d.change {
        ItemChange::Added(o) => ("added", Some(origin_json(o)), Vec::new()),
        ItemChange::Removed(o) => ("removed", Some(origin_json(o)), Vec::new()),
        ItemChange::Changed(fs) => ("changed", None, fs.iter().map(field_json).collect()),
    };
    json!({
        "kind": d.kind.name(),
        "id": d.id,
        "change": change,
        "origin": origin,
        "fields": fields,
    })
}

fn field_json(f: &FieldChange) -> Value {
    let side = |s: &Option<(Value, Origin)>| {
        s.as_ref()
            .map(|(v, o)| json!({"value": v, "origin": origin_json(o)}))
    };
    json!({"path": f.path, "before": side(&f.before), "after": side(&f.after)})
}

fn script_json(d: &ScriptDiff) -> Value {
    let (change, before, after, functions) = match &d.change {
        ScriptChange::Added(f) => ("added", None, Some(f), Vec::new()),
        ScriptChange::Removed(f) => ("removed", Some(f), None, Vec::new()),
        ScriptChange::Changed {
            before,
            after,
            functions,
        } => (
            "changed",
            Some(before),
            Some(after),
            functions
                .iter()
                .map(|f| {
                    let change = match (f.before, f.after) {
                        (None, _) => "added",
                        (_, None) => "removed",
                        _ => "changed",
                    };
                    json!({"name": f.name, "change": change, "before_line": f.before, "after_line": f.after})
                })
                .collect(),
        ),
    };
    json!({
        "script": d.script,
        "change": change,
        "before_file": before,
        "after_file": after,
        "functions": functions,
    })
}

fn print_scripts(scripts: &[ScriptDiff]) {
    for d in scripts {
        match &d.change {
            ScriptChange::Added(f) => outln!("+ script {}  (added at {f})", d.script),
            ScriptChange::Removed(f) => outln!("- script {}  (was at {f})", d.script),
            ScriptChange::Changed {
                before,
                after,
                functions,
            } => {
                outln!("~ script {}  ({before} -> {after})", d.script);
                if functions.is_empty() {
                    outln!("    (only text between functions)");
                }
                for f in functions {
                    match (f.before, f.after) {
                        (Some(b), Some(a)) => {
                            outln!("    ~ fn {}  (line {b} -> line {a})", f.name)
                        }
                        (None, Some(a)) => outln!("    + fn {}  (line {a})", f.name),
                        (Some(b), None) => outln!("    - fn {}  (was line {b})", f.name),
                        (None, None) => {}
                    }
                }
            }
        }
    }
}

fn print_diffs(diffs: &[ItemDiff]) {
    for d in diffs {
        let name = item_name(d.kind, d.id.as_deref());
        match &d.change {
            ItemChange::Added(o) => outln!("+ {name}  (added at {o})"),
            ItemChange::Removed(o) => outln!("- {name}  (was at {o})"),
            ItemChange::Changed(fields) => {
                outln!("~ {name}");
                for f in fields {
                    match (&f.before, &f.after) {
                        (Some((b, bo)), Some((a, ao))) => {
                            outln!("    {}: {} -> {}  ({bo} -> {ao})", f.path, show(b), show(a))
                        }
                        (None, Some((a, ao))) => {
                            outln!("    + {} = {}  ({ao})", f.path, show(a))
                        }
                        (Some((b, bo)), None) => {
                            outln!("    - {} = {}  (was {bo})", f.path, show(b))
                        }
                        (None, None) => {}
                    }
                }
            }
        }
    }
}
