//! The content stack a command runs on — which content folder (or the built-in copy) and which
//! variants, in order — stated on stderr or in JSON, and saved with a game so that it can be
//! found again from any folder.

use std::path::{Path, PathBuf};

use orrery::content::{Content, OverlaySource};
use serde_json::{json, Value};

use crate::source::ContentSource;

/// One variant of a stack: the name it was asked for by and the overlay read.
#[derive(Clone)]
pub struct Variant {
    /// As named on the command line or in a saved game.
    pub name: String,
    /// The overlay (its `file` is where it was read).
    pub overlay: OverlaySource,
}

/// A content source with its variants, applied in order.
#[derive(Clone)]
pub struct Stack {
    /// Where the base game comes from.
    pub source: ContentSource,
    /// The variants, bottom first.
    pub variants: Vec<Variant>,
}

/// A path made absolute (without resolving links) so that it means the same from any folder.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Stack {
    /// Reads the named variants from `source`.
    pub fn new(source: ContentSource, names: &[String]) -> Result<Stack, String> {
        let variants = names
            .iter()
            .map(|n| {
                source.overlay(n).map(|overlay| Variant {
                    name: n.clone(),
                    overlay,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Stack { source, variants })
    }

    /// The overlays to stack, in order.
    pub fn overlays(&self) -> Vec<OverlaySource> {
        self.variants.iter().map(|v| v.overlay.clone()).collect()
    }

    /// Loads the content, returning every problem on failure.
    pub fn load(&self) -> Result<Content, Vec<orrery::diagnostics::Diagnostic>> {
        Content::load(self.source.files().as_ref(), &self.overlays())
    }

    /// One line for stderr: `content: folder /abs/content; variants: boardgamers (file)`.
    pub fn describe(&self) -> String {
        let base = match &self.source {
            ContentSource::Dir(d) => format!("folder {}", absolute(d).display()),
            ContentSource::Embedded => {
                "the built-in copy (no --content DIR, $ORRERY_CONTENT or ./content/base)"
                    .to_string()
            }
        };
        let variants = if self.variants.is_empty() {
            "none".to_string()
        } else {
            self.variants
                .iter()
                .map(|v| format!("{} ({})", v.name, shown_file(&v.overlay.file)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("content: {base}; variants: {variants}")
    }

    /// The stack as data: `{"source": "/abs/content" | "built-in", "variants": [{name, file}]}`.
    pub fn to_json(&self) -> Value {
        let source = match &self.source {
            ContentSource::Dir(d) => absolute(d).display().to_string(),
            ContentSource::Embedded => BUILT_IN.to_string(),
        };
        json!({
            "source": source,
            "variants": self.variants.iter().map(|v| json!({
                "name": v.name,
                "file": shown_file(&v.overlay.file),
            })).collect::<Vec<_>>(),
        })
    }

    /// Reads back a stack saved by [`Stack::to_json`]. `content` (the `--content` flag, if
    /// given) replaces the saved source; every missing piece is named in the error.
    pub fn from_json(saved: &Value, content: Option<&Path>) -> Result<Stack, String> {
        let source = match content {
            Some(dir) => ContentSource::resolve(Some(dir))?,
            None => match saved.get("source").and_then(Value::as_str) {
                Some(BUILT_IN) | None => ContentSource::Embedded,
                Some(dir) => {
                    let dir = PathBuf::from(dir);
                    if !dir.is_dir() {
                        return Err(format!(
                            "the game was saved with the content folder {}, which does not \
                             exist here; pass --content DIR",
                            dir.display()
                        ));
                    }
                    ContentSource::Dir(dir)
                }
            },
        };
        let mut variants = Vec::new();
        for v in saved
            .get("variants")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = v.get("name").and_then(Value::as_str).unwrap_or_default();
            let file = v.get("file").and_then(Value::as_str).unwrap_or_default();
            // The file it was read from, else the same name in the (possibly new) source. A
            // file that is there but cannot be read as an overlay (a FIFO, a pseudo-file, too
            // big) is an error naming it.
            let overlay = if !file.is_empty() && Path::new(file).exists() {
                source.overlay(file).map_err(|e| {
                    format!("the game was saved with the variant \"{name}\" read from {file}: {e}")
                })?
            } else {
                source.overlay(name).map_err(|_| {
                    format!(
                        "the game was saved with the variant \"{name}\" read from {file}, which \
                         cannot be found now; restore it, or pass --content DIR holding variants/{name}"
                    )
                })?
            };
            variants.push(Variant {
                name: name.to_string(),
                overlay,
            });
        }
        Ok(Stack { source, variants })
    }
}

/// How the built-in copy is named in saved games and JSON.
pub const BUILT_IN: &str = "built-in";

/// A variant's file as it is shown and saved: absolute when on disk.
fn shown_file(file: &str) -> String {
    let p = Path::new(file);
    if p.is_file() {
        absolute(p).display().to_string()
    } else {
        file.to_string()
    }
}
