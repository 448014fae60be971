//! The content stack a command runs on — which content folder (or the built-in copy) and which
//! variants, in order — stated on stderr or in JSON, and saved with a game so that it can be
//! found again from any folder.

use std::path::{Path, PathBuf};

use orrery_core::game_module::GameModule;
use orrery_gp::content::{Content, OverlaySource};
use serde_json::{json, Value};

use crate::source::{ContentSource, GameFolders};
use orrery_gp::game::Game;

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
    /// Where the game's base files and named variants are inside the source.
    pub folders: GameFolders,
    /// The variants, bottom first.
    pub variants: Vec<Variant>,
}

/// A path made absolute (without resolving links) so that it means the same from any folder.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Stack {
    /// A stack of `source` alone, for the game whose files are in `folders`.
    pub fn new(source: ContentSource, folders: GameFolders) -> Stack {
        Stack {
            source,
            folders,
            variants: Vec::new(),
        }
    }

    /// The same stack for the game `G`: its base files are those of `G`'s folder.
    pub fn for_game<G: GameModule>(mut self) -> Stack {
        self.folders = GameFolders::of::<G>();
        self
    }

    /// The game's base files, compared as they are read with the copy built into the binary
    /// ([`ContentSource::trusted_files`]).
    pub fn base_files(&self) -> Box<dyn orrery_core::files::ContentFiles> {
        self.source.trusted_files(self.folders)
    }

    /// Reads one variant of the stack's game: a file, a folder with `overlay.yaml`, or a
    /// name among the game's variants in the source.
    pub fn overlay(&self, name: &str) -> Result<OverlaySource, String> {
        self.source.overlay(name, self.folders)
    }

    /// The names of the game's variants in the source.
    pub fn variant_names(&self) -> Vec<String> {
        self.source.variant_names(self.folders)
    }

    /// The overlays to stack, in order.
    pub fn overlays(&self) -> Vec<OverlaySource> {
        self.variants.iter().map(|v| v.overlay.clone()).collect()
    }

    /// Loads Gaia Project content, returning every problem on failure.
    pub fn load(&self) -> Result<Content, Vec<orrery_core::diagnostics::Diagnostic>> {
        self.load_as::<Game>()
    }

    /// Loads the content of the game `G`, returning every problem on failure. The built-in
    /// content (read from disk or from the binary) skips the checks that cannot fail on it.
    pub fn load_as<G: GameModule>(
        &self,
    ) -> Result<G::Content, Vec<orrery_core::diagnostics::Diagnostic>> {
        G::load(self.base_files().as_ref(), &self.overlays())
    }

    /// [`Stack::load_as`] with every check, whatever the content (`validate`).
    pub fn load_checked_as<G: GameModule>(
        &self,
    ) -> Result<G::Content, Vec<orrery_core::diagnostics::Diagnostic>> {
        let files = self.source.files_in(self.folders.base);
        G::load(files.as_ref(), &self.overlays())
    }

    /// The identity of what this stack plays: a 128-bit FNV-1a hash (`fnv1a128:<hex>`) of
    /// every file that shapes the content — each base file's name and text, then each
    /// variant's overlay text and its scripts' names and sources, in order. Two stacks with
    /// the same identity load the same content, wherever their files are.
    pub fn identity(&self) -> Result<String, String> {
        let mut h = Fnv128::default();
        let files = self.base_files();
        for rel in files.list() {
            h.field(b"base");
            h.field(rel.as_bytes());
            h.field(files.read(&rel)?.as_bytes());
        }
        for v in &self.variants {
            h.field(b"variant");
            h.field(v.overlay.text.as_bytes());
            for (name, source) in &v.overlay.scripts {
                h.field(name.as_bytes());
                h.field(source.as_bytes());
            }
        }
        Ok(format!("fnv1a128:{:032x}", h.0))
    }

    /// One line for stderr: `content: folder /abs/content; variants: boardgamers (file)`.
    pub fn describe(&self) -> String {
        let base = match &self.source {
            ContentSource::Dir(d) => format!("folder {}", absolute(d).display()),
            ContentSource::Embedded => format!(
                "the built-in copy (no --content DIR, $ORRERY_CONTENT or ./content/{})",
                self.folders.base
            ),
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

    /// The stack as a saved game or log stores it: [`Stack::to_json`], with every path also
    /// relative to `dir` (the folder the file is written to), so that a game moved together
    /// with its content still finds it: `{"source": {"path", "relative"} | "built-in",
    /// "variants": [{name, file, relative}]}`.
    pub fn saved(&self, dir: &Path) -> Value {
        let dir = absolute(dir);
        let source = match &self.source {
            ContentSource::Dir(d) => {
                let path = absolute(d);
                json!({"path": path.display().to_string(), "relative": relative(&path, &dir)})
            }
            ContentSource::Embedded => json!(BUILT_IN),
        };
        json!({
            "source": source,
            "variants": self.variants.iter().map(|v| {
                let file = shown_file(&v.overlay.file);
                let mut saved = json!({"name": v.name, "file": file});
                if Path::new(&file).is_absolute() {
                    saved["relative"] = json!(relative(Path::new(&file), &dir));
                }
                saved
            }).collect::<Vec<_>>(),
        })
    }

    /// Reads back a stack saved by [`Stack::saved`] (or [`Stack::to_json`]) in a file in
    /// folder `dir`. Each path is looked for relative to `dir` first, then where it was when
    /// saved. `content` (the `--content` flag) replaces the saved source. A saved variant that
    /// cannot be found is replaced by the `--variant` in `given` with the same short name (the
    /// file or folder name without `.yaml`), else by the same name in the source; `given`
    /// keeps the `--variant`s not used so. Every missing piece is named in the error.
    pub fn from_saved(
        saved: &Value,
        content: Option<&Path>,
        dir: &Path,
        given: &mut Vec<String>,
        folders: GameFolders,
    ) -> Result<Stack, String> {
        let dir = absolute(dir);
        let near = |rel: Option<&str>| rel.map(|r| dir.join(r));
        let source = match content {
            Some(d) => ContentSource::resolve(Some(d))?,
            None => match saved.get("source") {
                None => ContentSource::Embedded,
                Some(Value::String(s)) if s == BUILT_IN => ContentSource::Embedded,
                Some(v) => {
                    let (path, rel) = match v {
                        Value::String(p) => (p.as_str(), None),
                        _ => (
                            v.get("path").and_then(Value::as_str).unwrap_or_default(),
                            v.get("relative").and_then(Value::as_str),
                        ),
                    };
                    let found = near(rel)
                        .into_iter()
                        .chain([PathBuf::from(path)])
                        .find(|d| d.is_dir())
                        .ok_or_else(|| {
                            format!(
                                "the game was saved with the content folder {path}, which is \
                                 not there{} here; pass --content DIR",
                                rel.map(|r| format!(" (nor at {r} beside the game)"))
                                    .unwrap_or_default()
                            )
                        })?;
                    ContentSource::Dir(found)
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
            let rel = v.get("relative").and_then(Value::as_str);
            // Beside the game, then where it was read from. A file that is there but cannot
            // be read as an overlay (a FIFO, a pseudo-file, too big) is an error naming it.
            let on_disk = near(rel)
                .into_iter()
                .chain((!file.is_empty()).then(|| PathBuf::from(file)))
                .find(|p| p.exists());
            let overlay = if let Some(path) = on_disk {
                let shown = path.display().to_string();
                source.overlay(&shown, folders).map_err(|e| {
                    format!("the game was saved with the variant \"{name}\" read from {shown}: {e}")
                })?
            } else if let Some(i) = given.iter().position(|g| short_name(g) == short_name(name)) {
                let replacement = given.remove(i);
                let overlay = source.overlay(&replacement, folders)?;
                variants.push(Variant {
                    name: replacement,
                    overlay,
                });
                continue;
            } else {
                source.overlay(name, folders).map_err(|_| {
                    format!(
                        "the game was saved with the variant \"{name}\" read from {file}, which \
                         cannot be found now; restore it, pass --variant FILE (a file or folder \
                         named {}) to replace it, or --content DIR holding {}/{}",
                        short_name(name),
                        folders.variants,
                        short_name(name)
                    )
                })?
            };
            variants.push(Variant {
                name: name.to_string(),
                overlay,
            });
        }
        Ok(Stack {
            source,
            folders,
            variants,
        })
    }
}

/// The 128-bit FNV-1a hash, fed length-prefixed fields so that no two sequences of fields
/// feed it the same bytes. Written out because identity needs no cryptographic strength (it
/// tells apart content a user changed, not content an attacker forged) and is a dozen lines.
struct Fnv128(u128);

impl Default for Fnv128 {
    fn default() -> Self {
        Fnv128(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d)
    }
}

impl Fnv128 {
    fn bytes(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u128::from(*b);
            self.0 = self
                .0
                .wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }

    fn field(&mut self, bytes: &[u8]) {
        self.bytes(&(bytes.len() as u64).to_le_bytes());
        self.bytes(bytes);
    }
}

/// A variant's short name: its file or folder name without `.yaml` (`a/b/x.yaml` → `x`).
fn short_name(name: &str) -> &str {
    let base = name
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(name);
    base.strip_suffix(".yaml").unwrap_or(base)
}

/// `path` relative to the folder `dir` (both absolute): `../content`.
fn relative(path: &Path, dir: &Path) -> String {
    let p: Vec<_> = path.components().collect();
    let d: Vec<_> = dir.components().collect();
    let common = p.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..d.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() {
        ".".into()
    } else {
        out.display().to_string()
    }
}

/// The folder of a file, for paths saved relative to it.
pub fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
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

#[cfg(test)]
mod tests {
    use super::{relative, short_name, Fnv128};
    use std::path::Path;

    #[test]
    fn relative_paths_and_short_names() {
        let r = |p: &str, d: &str| relative(Path::new(p), Path::new(d));
        assert_eq!(r("/a/b/content", "/a/b/games"), "../content");
        assert_eq!(r("/a/b/v.yaml", "/a/b"), "v.yaml");
        assert_eq!(r("/x/v.yaml", "/a/b"), "../../x/v.yaml");
        assert_eq!(r("/a/b", "/a/b"), ".");
        assert_eq!(short_name("content/variants/beta-2.yaml"), "beta-2");
        assert_eq!(short_name("examples/cartographers/"), "cartographers");
        assert_eq!(short_name("boardgamers"), "boardgamers");
    }

    #[test]
    fn fnv_matches_its_reference_values() {
        // The published FNV-1a 128 values of "" and "a".
        let h = |s: &str| {
            let mut f = Fnv128::default();
            f.bytes(s.as_bytes());
            format!("{:032x}", f.0)
        };
        assert_eq!(h(""), "6c62272e07bb014262b821756295c58d");
        assert_eq!(h("a"), "d228cb696f1a8caf78912b704e4a8964");
        // Fields are length-prefixed: ("ab", "c") and ("a", "bc") differ.
        let fields = |a: &str, b: &str| {
            let mut f = Fnv128::default();
            f.field(a.as_bytes());
            f.field(b.as_bytes());
            f.0
        };
        assert_ne!(fields("ab", "c"), fields("a", "bc"));
    }
}
