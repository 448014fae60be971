//! Sandboxed Rhai scripting for abilities that plain YAML cannot express.
//!
//! Content authors write `content/scripts/*.rhai` files that contain only
//! function definitions. Each file is compiled once at content load into a
//! [`ScriptHost`]; the game later calls a named function with small, plain
//! data (numbers, strings, arrays, maps) and gets plain data back.
//!
//! The sandbox:
//! * starts from [`Engine::new_raw`] and registers only pure packages
//!   (arithmetic, logic, math, strings, arrays, maps, iterators, function
//!   pointers); the language-core package (`sleep`, `exit`, `parse_json`, ...),
//!   time and blob packages are left out, so scripts stay deterministic;
//! * disables the `eval` keyword (a compile error), has no module resolver
//!   (`no_module`), and routes `print` / `debug` to nothing;
//! * uses strict variables, so an undeclared variable is a compile error;
//! * applies [`Limits`] (operations, call depth, expression depth, string,
//!   array and map sizes) to every call, so a runaway script fails with a
//!   [`ScriptError`] instead of hanging or exhausting memory;
//! * calls functions without evaluating top-level statements, and rejects
//!   scripts that have any;
//! * guards the native stack: from the call-depth limit and each script's
//!   deepest function body it estimates the worst-case stack of a call, and
//!   runs calls that might not fit a 2 MiB thread on a short-lived helper
//!   thread with a big enough stack (always so in unoptimised builds, where
//!   Rhai's frames are several times larger; rarely in release builds).

use std::collections::HashMap;
use std::fmt;

use rhai::packages::{
    ArithmeticPackage, BasicArrayPackage, BasicFnPackage, BasicIteratorPackage, BasicMapPackage,
    BasicMathPackage, BasicStringPackage, BitFieldPackage, LogicPackage, MoreStringPackage,
    Package,
};
use rhai::{
    Array, CallFnOptions, Dynamic, Engine, EvalAltResult, FnAccess, Map, OptimizationLevel,
    ParseError, Position, Scope, AST,
};

/// Deepest nesting of arrays/maps accepted when converting to or from JSON.
const MAX_JSON_DEPTH: usize = 64;

// Native stack used by Rhai's tree-walking evaluator, measured on x86-64 with
// Rhai 1.27 and rounded up generously: a fixed base, a cost per script call
// level and a cost per unit of expression depth within a function body.
// Unoptimised builds use several times more stack per frame.
#[cfg(debug_assertions)]
const STACK_BASE: usize = 96 * 1024;
#[cfg(debug_assertions)]
const STACK_PER_CALL: usize = 48 * 1024;
#[cfg(debug_assertions)]
const STACK_PER_DEPTH: usize = 10 * 1024;
#[cfg(not(debug_assertions))]
const STACK_BASE: usize = 16 * 1024;
#[cfg(not(debug_assertions))]
const STACK_PER_CALL: usize = 8 * 1024;
#[cfg(not(debug_assertions))]
const STACK_PER_DEPTH: usize = 1536;

/// Worst-case stack a call may use and still run on the caller's thread
/// (which is assumed to have at least 2 MiB, the Rust default for spawned
/// threads, with a quarter of it free). Scripts whose worst case is larger run
/// on a helper thread with a stack big enough, so hitting a limit is an
/// error, never a crash.
const INLINE_STACK_BUDGET: usize = 1536 * 1024;

/// Operations a game's hooks may run in all, unless a command sets another budget: every
/// call counts, in play, in listing and in bots' lookahead.
pub const DEFAULT_HOOK_BUDGET: u64 = 500_000_000;

/// Largest script source compiled, in bytes: compiling is bounded by the source's size as well
/// as by [`MAX_SCRIPT_FUNCTIONS`], so a hostile script fails at once instead of compiling for
/// minutes.
pub const MAX_SCRIPT_BYTES: usize = 128 * 1024;
/// Most functions one script may define. Rhai's compile time grows faster than the square of
/// the number of functions (20,000 took about 19 s); 256 compile in a few milliseconds.
pub const MAX_SCRIPT_FUNCTIONS: usize = 256;

/// Longest call chain shown in a runtime error before it is abridged.
const MAX_CHAIN_SHOWN: usize = 8;

/// Worst-case native stack for a call, given the call-depth limit and the
/// deepest function body of the script.
fn stack_estimate(max_call_depth: usize, body_depth: usize) -> usize {
    let per_call = STACK_PER_CALL.saturating_add(body_depth.saturating_mul(STACK_PER_DEPTH));
    max_call_depth
        .saturating_add(1)
        .saturating_mul(per_call)
        .saturating_add(STACK_BASE)
}

/// Limits applied to every script call.
///
/// Zero means "unlimited" for the operation count, the expression depth and
/// the size limits, as in Rhai itself; a zero `max_call_depth` forbids calling
/// any function. Size limits apply to a whole value: Rhai adds up the elements
/// of nested arrays, the properties of nested maps and the bytes of every
/// string inside one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Maximum number of operations one call may perform (stops infinite loops).
    pub max_operations: u64,
    /// Maximum depth of nested function calls (stops runaway recursion).
    pub max_call_depth: usize,
    /// Maximum nesting depth of expressions/statements, checked at compile time.
    pub max_expr_depth: usize,
    /// Maximum length of a string, in bytes (all strings in one value, added up).
    pub max_string_len: usize,
    /// Maximum number of elements in an array (nested arrays count in total).
    pub max_array_len: usize,
    /// Maximum number of properties in an object map (nested maps count in total).
    pub max_map_len: usize,
    /// Maximum size of a script's source, in bytes, checked before compiling.
    pub max_source_bytes: usize,
    /// Maximum number of functions one script defines, checked while compiling (zero: no limit).
    pub max_functions: usize,
}

impl Default for Limits {
    /// 100 000 operations, call depth 32, expression depth 64, 4 KiB strings,
    /// 1024-element arrays and maps, sources of [`MAX_SCRIPT_BYTES`] and
    /// [`MAX_SCRIPT_FUNCTIONS`] functions.
    fn default() -> Self {
        Self {
            max_operations: 100_000,
            max_call_depth: 32,
            max_expr_depth: 64,
            max_string_len: 4 * 1024,
            max_array_len: 1024,
            max_map_len: 1024,
            max_source_bytes: MAX_SCRIPT_BYTES,
            max_functions: MAX_SCRIPT_FUNCTIONS,
        }
    }
}

thread_local! {
    /// Operations the call running on this thread has used (Rhai reports them as it goes).
    static OPS_USED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Operations the call running on this thread may use before it is stopped (besides
    /// [`Limits::max_operations`]): what is left of a caller's budget.
    static OPS_ALLOWED: std::cell::Cell<u64> = const { std::cell::Cell::new(u64::MAX) };
}

/// The message of a call stopped because its caller's budget was spent.
pub const BUDGET_SPENT: &str = "the operation budget is spent";

/// A script error with its file and position.
///
/// Displays as `file:line:col: message`, dropping the parts that are unknown.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ScriptError {
    /// Script id (the file name given to [`ScriptHost::compile`]).
    pub file: String,
    /// 1-based line inside the script, if known.
    pub line: Option<usize>,
    /// 1-based column inside the script, if known.
    pub col: Option<usize>,
    /// Human-readable description of the problem.
    pub message: String,
}

impl ScriptError {
    fn new(file: &str, pos: Position, message: impl Into<String>) -> Self {
        Self {
            file: file.to_string(),
            line: pos.line(),
            col: pos.position(),
            message: message.into(),
        }
    }

    fn unpositioned(file: &str, message: impl Into<String>) -> Self {
        Self::new(file, Position::NONE, message)
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(col) = self.col {
                write!(f, ":{col}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

/// The sandboxed Rhai host: one engine, many compiled scripts.
///
/// `Send + Sync`: compile everything up front, then share it (e.g. in an
/// `Arc`) and [`call`](ScriptHost::call) from any thread.
pub struct ScriptHost {
    engine: Engine,
    limits: Limits,
    scripts: HashMap<String, Script>,
}

/// One compiled script.
struct Script {
    ast: AST,
    /// Worst-case native stack a call into this script may need.
    stack: usize,
    /// The line each function's definition starts on, by name.
    fn_lines: Vec<(String, usize)>,
}

/// The line each `fn name` definition starts on (1-based), found in the source text.
fn function_lines(source: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let rest = line.trim_start();
        let rest = rest.strip_prefix("private ").unwrap_or(rest).trim_start();
        if let Some(rest) = rest.strip_prefix("fn ") {
            let name: String = rest
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.push((name, i + 1));
            }
        }
    }
    out
}

/// Each function of a script's source with the line it starts on and its text: from its
/// `fn` line to the next function's, without the blank and comment lines that end it (those
/// stand before the next function).
#[must_use]
pub fn function_texts(source: &str) -> Vec<(String, usize, String)> {
    let lines: Vec<&str> = source.lines().collect();
    let starts = function_lines(source);
    let mut out = Vec::with_capacity(starts.len());
    for (i, (name, start)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(lines.len(), |(_, l)| l - 1);
        let mut body: Vec<&str> = lines[start - 1..end].iter().map(|l| l.trim_end()).collect();
        while body
            .last()
            .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with("//"))
        {
            body.pop();
        }
        out.push((name.clone(), *start, body.join("\n")));
    }
    out
}

impl fmt::Debug for ScriptHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut files: Vec<&str> = self.scripts.keys().map(String::as_str).collect();
        files.sort_unstable();
        f.debug_struct("ScriptHost")
            .field("limits", &self.limits)
            .field("scripts", &files)
            .finish_non_exhaustive()
    }
}

/// The packages every host registers: pure, deterministic ones only (no
/// sleep/exit/time/blob/debugging). Their function tables are built once a process and shared
/// by every host (building them is most of the cost of a new host).
struct Packages {
    arithmetic: ArithmeticPackage,
    logic: LogicPackage,
    math: BasicMathPackage,
    bit_field: BitFieldPackage,
    string: BasicStringPackage,
    more_string: MoreStringPackage,
    iterator: BasicIteratorPackage,
    func: BasicFnPackage,
    array: BasicArrayPackage,
    map: BasicMapPackage,
}

impl Packages {
    fn register(&self, engine: &mut Engine) {
        self.arithmetic.register_into_engine(engine);
        self.logic.register_into_engine(engine);
        self.math.register_into_engine(engine);
        self.bit_field.register_into_engine(engine);
        self.string.register_into_engine(engine);
        self.more_string.register_into_engine(engine);
        self.iterator.register_into_engine(engine);
        self.func.register_into_engine(engine);
        self.array.register_into_engine(engine);
        self.map.register_into_engine(engine);
    }
}

/// The shared [`Packages`].
fn packages() -> &'static Packages {
    static PACKAGES: std::sync::OnceLock<Packages> = std::sync::OnceLock::new();
    PACKAGES.get_or_init(|| Packages {
        arithmetic: ArithmeticPackage::new(),
        logic: LogicPackage::new(),
        math: BasicMathPackage::new(),
        bit_field: BitFieldPackage::new(),
        string: BasicStringPackage::new(),
        more_string: MoreStringPackage::new(),
        iterator: BasicIteratorPackage::new(),
        func: BasicFnPackage::new(),
        array: BasicArrayPackage::new(),
        map: BasicMapPackage::new(),
    })
}

impl Default for ScriptHost {
    /// A host with [`Limits::default`].
    fn default() -> Self {
        Self::new(Limits::default())
    }
}

impl ScriptHost {
    /// Creates a sandboxed host applying `limits` to every compile and call.
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        let mut engine = Engine::new_raw();
        packages().register(&mut engine);

        engine
            .on_progress(|ops| {
                OPS_USED.set(ops);
                (ops > OPS_ALLOWED.get()).then(|| Dynamic::from(BUDGET_SPENT))
            })
            .disable_symbol("eval")
            .on_print(|_| {})
            .on_debug(|_, _, _| {})
            .set_strict_variables(true)
            .set_optimization_level(OptimizationLevel::Simple)
            .set_max_operations(limits.max_operations)
            .set_max_call_levels(limits.max_call_depth)
            .set_max_expr_depths(limits.max_expr_depth, limits.max_expr_depth)
            .set_max_string_size(limits.max_string_len)
            .set_max_array_size(limits.max_array_len)
            .set_max_map_size(limits.max_map_len)
            .set_max_functions(match limits.max_functions {
                0 => usize::MAX,
                n => n,
            });

        Self {
            engine,
            limits,
            scripts: HashMap::new(),
        }
    }

    /// The limits this host applies.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Compiles `source` and stores it under the id `file`, replacing any
    /// script previously stored under that id.
    ///
    /// Scripts may only define functions: any other top-level statement is
    /// rejected with the position of the first one. On error nothing is
    /// stored and a script previously stored under `file` is kept.
    ///
    /// # Errors
    ///
    /// A syntax error, an undeclared variable (strict mode), use of `eval`,
    /// an over-deep expression or a top-level statement, with its position.
    pub fn compile(&mut self, file: &str, source: &str) -> Result<(), ScriptError> {
        let max_bytes = self.limits.max_source_bytes;
        if max_bytes > 0 && source.len() > max_bytes {
            return Err(ScriptError::unpositioned(
                file,
                format!(
                    "the script is {} bytes, more than the limit of {max_bytes} bytes",
                    source.len()
                ),
            ));
        }
        // Parse without optimisation so that no top-level statement can be
        // folded away before it is checked.
        self.engine.set_optimization_level(OptimizationLevel::None);
        let parsed = self.engine.compile(source);
        let body_depth = match &parsed {
            Ok(_) => self.deepest_function_body(source),
            Err(_) => 0,
        };
        self.engine
            .set_optimization_level(OptimizationLevel::Simple);
        let ast = parsed.map_err(|err| match err.err_type() {
            rhai::ParseErrorType::TooManyFunctions => ScriptError::new(
                file,
                err.position(),
                format!(
                    "the script defines more than {} functions, the limit per script",
                    self.limits.max_functions
                ),
            ),
            _ => parse_error(file, &err),
        })?;

        let statements: &[_] = ast.as_ref();
        if let Some(stmt) = statements.iter().find(|stmt| !stmt.is_noop()) {
            return Err(ScriptError::new(
                file,
                stmt.position(),
                "scripts may only define functions (found a top-level statement)",
            ));
        }

        let mut ast = self
            .engine
            .optimize_ast(&Scope::new(), ast, OptimizationLevel::Simple);
        ast.set_source(file);
        let stack = stack_estimate(self.limits.max_call_depth, body_depth);
        let fn_lines = function_lines(source);
        self.scripts.insert(
            file.to_string(),
            Script {
                ast,
                stack,
                fn_lines,
            },
        );
        Ok(())
    }

    /// The expression depth of the deepest function body in `source` (which
    /// is known to compile), found by re-parsing under tighter depth limits.
    fn deepest_function_body(&mut self, source: &str) -> usize {
        let fits = |engine: &mut Engine, depth: usize| {
            engine.set_max_expr_depths(depth, depth);
            engine.compile(source).is_ok()
        };
        // Smallest depth that compiles, in (lo, hi].
        let mut lo = 0;
        let mut hi = match self.limits.max_expr_depth {
            0 => {
                let mut hi = 64;
                while !fits(&mut self.engine, hi) {
                    lo = hi;
                    hi *= 2;
                }
                hi
            }
            limit => limit,
        };
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(&mut self.engine, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        let limit = self.limits.max_expr_depth;
        self.engine.set_max_expr_depths(limit, limit);
        hi
    }

    /// How many scripts are compiled.
    #[must_use]
    pub fn script_count(&self) -> usize {
        self.scripts.len()
    }

    /// Whether script `file` defines a public function called `name` (any arity).
    #[must_use]
    pub fn has_function(&self, file: &str, name: &str) -> bool {
        self.scripts.get(file).is_some_and(|script| {
            script
                .ast
                .iter_functions()
                .any(|f| f.access != FnAccess::Private && f.name == name)
        })
    }

    /// The numbers of parameters the public functions called `name` of script `file` take
    /// (one per overload), sorted; empty when there is none.
    #[must_use]
    pub fn function_arities(&self, file: &str, name: &str) -> Vec<usize> {
        let Some(script) = self.scripts.get(file) else {
            return Vec::new();
        };
        let mut out: Vec<usize> = script
            .ast
            .iter_functions()
            .filter(|f| f.access != FnAccess::Private && f.name == name)
            .map(|f| f.params.len())
            .collect();
        out.sort_unstable();
        out
    }

    /// The line on which function `name` of script `file` is defined (1-based), if known.
    #[must_use]
    pub fn function_line(&self, file: &str, name: &str) -> Option<usize> {
        let script = self.scripts.get(file)?;
        script
            .fn_lines
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, line)| *line)
    }

    /// The public functions of script `file` as `(name, arity)`, sorted.
    /// Empty if no such script is loaded. `private fn` helpers are omitted.
    #[must_use]
    pub fn functions(&self, file: &str) -> Vec<(String, usize)> {
        let Some(script) = self.scripts.get(file) else {
            return Vec::new();
        };
        let mut out: Vec<(String, usize)> = script
            .ast
            .iter_functions()
            .filter(|f| f.access != FnAccess::Private)
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        out.sort();
        out
    }

    /// Calls public function `name` of script `file` with `args`.
    ///
    /// Only the function runs (top-level statements are never evaluated).
    /// Runtime errors carry the position inside the script where they arose.
    ///
    /// # Errors
    ///
    /// An unknown script or function, a wrong number of arguments, any Rhai
    /// runtime error (positioned where it arose, when Rhai knows it) and any
    /// exceeded [`Limits`] (unpositioned: Rhai drops those positions), also
    /// when the returned value itself is too large.
    pub fn call(&self, file: &str, name: &str, args: Vec<Dynamic>) -> Result<Dynamic, ScriptError> {
        self.call_counted(file, name, args, u64::MAX).0
    }

    /// Like [`call`](ScriptHost::call), stopped once it has run more than `allowed` operations
    /// (with the error [`BUDGET_SPENT`]); also returns the operations it ran.
    pub fn call_counted(
        &self,
        file: &str,
        name: &str,
        args: Vec<Dynamic>,
        allowed: u64,
    ) -> (Result<Dynamic, ScriptError>, u64) {
        let used = std::cell::Cell::new(0);
        let r = self.call_checked(file, name, args, allowed, &used);
        (r, used.get())
    }

    fn call_checked(
        &self,
        file: &str,
        name: &str,
        args: Vec<Dynamic>,
        allowed: u64,
        used: &std::cell::Cell<u64>,
    ) -> Result<Dynamic, ScriptError> {
        let script = self
            .scripts
            .get(file)
            .ok_or_else(|| ScriptError::unpositioned(file, "no script with this id is loaded"))?;

        let mut arities: Vec<usize> = script
            .ast
            .iter_functions()
            .filter(|f| f.access != FnAccess::Private && f.name == name)
            .map(|f| f.params.len())
            .collect();
        if arities.is_empty() {
            return Err(ScriptError::unpositioned(
                file,
                format!("script defines no public function `{name}`"),
            ));
        }
        if !arities.contains(&args.len()) {
            arities.sort_unstable();
            let expected = arities
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" or ");
            return Err(ScriptError::unpositioned(
                file,
                format!(
                    "function `{name}` takes {expected} argument(s) but {} were given",
                    args.len()
                ),
            ));
        }

        let run = move || {
            OPS_USED.set(0);
            OPS_ALLOWED.set(allowed);
            let r = self.run(file, &script.ast, name, args);
            (r, OPS_USED.get())
        };
        if script.stack <= INLINE_STACK_BUDGET {
            let (r, ops) = run();
            used.set(ops);
            return r;
        }
        // Too deep for an arbitrary caller's stack: use a helper thread.
        std::thread::scope(|scope| {
            let handle = std::thread::Builder::new()
                .name(format!("script {file}"))
                .stack_size(script.stack.saturating_mul(2))
                .spawn_scoped(scope, run)
                .map_err(|err| {
                    ScriptError::unpositioned(file, format!("cannot start a script thread: {err}"))
                })?;
            let (r, ops) = handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            used.set(ops);
            r
        })
    }

    /// Runs one call on the current thread.
    fn run(
        &self,
        file: &str,
        ast: &AST,
        name: &str,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, ScriptError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        let mut scope = Scope::new();
        let result = self
            .engine
            .call_fn_with_options::<Dynamic>(options, &mut scope, ast, name, args)
            .map_err(|err| self.runtime_error(file, name, *err))?;
        // Rhai does not re-check a map's size after `map[new_key] = value`,
        // so check the whole result once more before handing it out.
        self.engine
            .ensure_data_size_within_limits(&result)
            .map_err(|err| self.runtime_error(file, name, *err))?;
        Ok(result)
    }

    /// Like [`call`](ScriptHost::call), with JSON arguments and result.
    ///
    /// JSON numbers become integers when they fit an `i64`, floats otherwise;
    /// the result may contain only `()`/null, booleans, numbers, strings,
    /// characters, arrays and maps (non-finite floats are rejected).
    ///
    /// # Errors
    ///
    /// As [`call`](ScriptHost::call), plus arguments or results nested deeper
    /// than 64 levels and results that are not plain data.
    pub fn call_json(
        &self,
        file: &str,
        name: &str,
        args: &[serde_json::Value],
    ) -> Result<serde_json::Value, ScriptError> {
        self.call_json_counted(file, name, args, u64::MAX).0
    }

    /// Like [`call_json`](ScriptHost::call_json), within `allowed` operations (see
    /// [`call_counted`](ScriptHost::call_counted)); also returns the operations it ran.
    pub fn call_json_counted(
        &self,
        file: &str,
        name: &str,
        args: &[serde_json::Value],
        allowed: u64,
    ) -> (Result<serde_json::Value, ScriptError>, u64) {
        let args = match args
            .iter()
            .map(|v| json_to_dynamic(v, 0))
            .collect::<Result<Vec<_>, _>>()
        {
            Ok(args) => args,
            Err(msg) => {
                return (
                    Err(ScriptError::unpositioned(
                        file,
                        format!("bad argument: {msg}"),
                    )),
                    0,
                )
            }
        };
        let (result, ops) = self.call_counted(file, name, args, allowed);
        let result = result.and_then(|r| {
            dynamic_to_json(r, 0)
                .map_err(|msg| ScriptError::unpositioned(file, format!("`{name}` returned {msg}")))
        });
        (result, ops)
    }

    /// Turns a runtime error into a [`ScriptError`] positioned where the
    /// innermost failure happened, naming the chain of script calls.
    fn runtime_error(&self, file: &str, entry: &str, err: EvalAltResult) -> ScriptError {
        let mut chain = vec![entry.to_string()];
        let mut fallback_pos = Position::NONE;
        let mut err = err;
        let mut inner = loop {
            match err {
                EvalAltResult::ErrorInFunctionCall(name, _src, inner, pos) => {
                    if !pos.is_none() {
                        fallback_pos = pos;
                    }
                    chain.push(name);
                    err = *inner;
                }
                other => break other,
            }
        };
        let mut pos = inner.take_position();
        if pos.is_none() {
            pos = fallback_pos;
        }
        let limits = &self.limits;
        let what = match &inner {
            EvalAltResult::ErrorTooManyOperations(..) => format!(
                "too many operations (limit {}): infinite loop?",
                limits.max_operations
            ),
            EvalAltResult::ErrorStackOverflow(..) => format!(
                "function calls nested too deeply (limit {}): runaway recursion?",
                limits.max_call_depth
            ),
            EvalAltResult::ErrorDataTooLarge(kind, ..) => format!(
                "{kind} too large (limits: string {} bytes, array {}, map {})",
                limits.max_string_len, limits.max_array_len, limits.max_map_len
            ),
            other => other.to_string(),
        };
        ScriptError::new(file, pos, format!("{what} (in {})", describe_chain(&chain)))
    }
}

/// Renders a call chain like `a > b (x3) > closure`, abridged when long.
fn describe_chain(chain: &[String]) -> String {
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for name in chain {
        let name = if name.starts_with("anon$") {
            "closure"
        } else {
            name.as_str()
        };
        match runs.last_mut() {
            Some((last, count)) if *last == name => *count += 1,
            _ => runs.push((name, 1)),
        }
    }
    let mut parts: Vec<String> = runs
        .into_iter()
        .map(|(name, count)| match count {
            1 => name.to_string(),
            n => format!("{name} (x{n})"),
        })
        .collect();
    if parts.len() > MAX_CHAIN_SHOWN {
        let tail = parts.split_off(parts.len() - MAX_CHAIN_SHOWN / 2);
        parts.truncate(MAX_CHAIN_SHOWN / 2);
        parts.push("...".to_string());
        parts.extend(tail);
    }
    parts.join(" > ")
}

fn parse_error(file: &str, err: &ParseError) -> ScriptError {
    ScriptError::new(file, err.position(), err.err_type().to_string())
}

/// Converts plain JSON into a Rhai value.
fn json_to_dynamic(value: &serde_json::Value, depth: usize) -> Result<Dynamic, String> {
    use serde_json::Value;
    if depth > MAX_JSON_DEPTH {
        return Err(format!("nested deeper than {MAX_JSON_DEPTH} levels"));
    }
    Ok(match value {
        Value::Null => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Dynamic::from_int(i),
            None => Dynamic::from_float(
                n.as_f64()
                    .ok_or_else(|| format!("unrepresentable number {n}"))?,
            ),
        },
        Value::String(s) => Dynamic::from(s.clone()),
        Value::Array(items) => Dynamic::from_array(
            items
                .iter()
                .map(|v| json_to_dynamic(v, depth + 1))
                .collect::<Result<Array, _>>()?,
        ),
        Value::Object(fields) => {
            let mut map = Map::new();
            for (k, v) in fields {
                map.insert(k.as_str().into(), json_to_dynamic(v, depth + 1)?);
            }
            Dynamic::from_map(map)
        }
    })
}

/// Converts a Rhai value made of plain data into JSON.
fn dynamic_to_json(value: Dynamic, depth: usize) -> Result<serde_json::Value, String> {
    use serde_json::Value;
    if depth > MAX_JSON_DEPTH {
        return Err(format!(
            "a value nested deeper than {MAX_JSON_DEPTH} levels"
        ));
    }
    let value = value.flatten();
    if value.is_unit() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.as_bool() {
        return Ok(Value::Bool(b));
    }
    if let Ok(i) = value.as_int() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = value.as_float() {
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| format!("a non-finite number ({f})"));
    }
    if let Ok(c) = value.as_char() {
        return Ok(Value::String(c.to_string()));
    }
    if value.is_string() {
        let s = value
            .into_immutable_string()
            .map_err(|t| format!("an unreadable string ({t})"))?;
        return Ok(Value::String(s.to_string()));
    }
    if value.is_array() {
        let items = value
            .into_array()
            .map_err(|t| format!("an unreadable array ({t})"))?;
        return items
            .into_iter()
            .map(|v| dynamic_to_json(v, depth + 1))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if value.is_map() {
        let type_name = value.type_name();
        let map = value
            .try_cast::<Map>()
            .ok_or_else(|| format!("an unreadable map ({type_name})"))?;
        let mut out = serde_json::Map::new();
        for (k, v) in map {
            out.insert(k.to_string(), dynamic_to_json(v, depth + 1)?);
        }
        return Ok(Value::Object(out));
    }
    Err(format!(
        "a value of type `{}`, which is not plain data",
        value.type_name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    const _: () = {
        const fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<ScriptHost>();
        assert_send_sync::<ScriptError>();
    };

    fn host_with(file: &str, source: &str) -> ScriptHost {
        let mut host = ScriptHost::default();
        host.compile(file, source)
            .unwrap_or_else(|e| panic!("compile failed: {e}"));
        host
    }

    /// Runs `f`, asserting it neither panics nor takes longer than `max`.
    fn quick<T>(max: Duration, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let took = start.elapsed();
        assert!(took < max, "took {took:?}, expected under {max:?}");
        out
    }

    #[test]
    fn syntax_error_reports_file_line_col() {
        let mut host = ScriptHost::default();
        let src = "fn zorg_action(x) {\n    let y = x + 1;\n    let = 5;\n    y\n}\n";
        let err = host.compile("zorg.rhai", src).unwrap_err();
        assert_eq!(err.file, "zorg.rhai");
        assert_eq!(err.line, Some(3));
        assert_eq!(err.col, Some(9));
        assert!(err.to_string().starts_with("zorg.rhai:3:9: "), "{err}");
        assert!(!host.has_function("zorg.rhai", "zorg_action"));
    }

    #[test]
    fn syntax_error_on_line_3_col_5() {
        let mut host = ScriptHost::default();
        let src = "fn zorg_action() {\n    1\n    $\n}\n";
        let err = host.compile("z.rhai", src).unwrap_err();
        assert_eq!((err.line, err.col), (Some(3), Some(5)), "{err}");
        assert!(err.to_string().starts_with("z.rhai:3:5: "), "{err}");
    }

    #[test]
    fn undeclared_variable_is_a_compile_error() {
        let mut host = ScriptHost::default();
        let err = host
            .compile("z.rhai", "fn zorg_action() {\n  blorp + 1\n}")
            .unwrap_err();
        assert_eq!((err.line, err.col), (Some(2), Some(3)), "{err}");
        assert!(err.message.contains("blorp"), "{err}");
    }

    #[test]
    fn top_level_statements_are_rejected_with_position() {
        let mut host = ScriptHost::default();
        let src = "fn zorg_action() { 1 }\n\n  let zz = 42;\nfn other() { 2 }\n";
        let err = host.compile("top.rhai", src).unwrap_err();
        assert_eq!(err.line, Some(3), "{err}");
        assert_eq!(err.col, Some(3), "{err}");
        assert!(err.message.contains("scripts may only define functions"));

        // A constant expression must not be optimised away before the check
        // (Rhai positions a binary expression at its operator).
        let err = host.compile("top.rhai", "1 + 2;\nfn f() {}").unwrap_err();
        assert_eq!((err.line, err.col), (Some(1), Some(3)), "{err}");

        // Comments and stray semicolons are fine.
        host.compile("ok.rhai", "// hi\n/// doc\nfn f() { 1 };\n;\n")
            .unwrap();
        assert_eq!(host.call("ok.rhai", "f", vec![]).unwrap().as_int(), Ok(1));
        assert!(!host.has_function("top.rhai", "zorg_action"));
    }

    #[test]
    fn call_returns_map_and_array() {
        let host = host_with(
            "zorg.rhai",
            r#"
            fn zorg_action(ctx) {
                let gain = ctx.level * 2;
                #{ kind: "gain", amount: gain, tags: ["ore", ctx.name] }
            }
            fn zorg_list(n) {
                let out = [];
                for i in 0..n { out.push(i * i); }
                out
            }
            "#,
        );
        let mut ctx = Map::new();
        ctx.insert("level".into(), Dynamic::from_int(3));
        ctx.insert("name".into(), Dynamic::from("zorg".to_string()));
        let out = host
            .call("zorg.rhai", "zorg_action", vec![Dynamic::from_map(ctx)])
            .unwrap();
        let map = out.try_cast::<Map>().expect("a map");
        assert_eq!(map["amount"].as_int(), Ok(6));
        assert_eq!(map["kind"].clone().into_string().unwrap(), "gain");
        assert_eq!(map["tags"].clone().into_array().unwrap().len(), 2);

        let out = host
            .call("zorg.rhai", "zorg_list", vec![Dynamic::from_int(4)])
            .unwrap();
        let ints: Vec<i64> = out
            .into_array()
            .unwrap()
            .into_iter()
            .map(|d| d.as_int().unwrap())
            .collect();
        assert_eq!(ints, vec![0, 1, 4, 9]);
    }

    #[test]
    fn call_json_round_trip() {
        let host = host_with(
            "zorg.rhai",
            r#"
            fn zorg_effects(input) {
                let out = [];
                for t in input.targets {
                    out.push(#{ effect: "damage", target: t, amount: input.force / 2.0 });
                }
                #{ effects: out, ok: true, none: (), c: 'x', echo: input }
            }
            "#,
        );
        let input = json!({ "targets": ["a", "b"], "force": 5, "nested": { "k": [1, 2.5, null] } });
        let out = host
            .call_json("zorg.rhai", "zorg_effects", std::slice::from_ref(&input))
            .unwrap();
        assert_eq!(
            out,
            json!({
                "effects": [
                    { "effect": "damage", "target": "a", "amount": 2.5 },
                    { "effect": "damage", "target": "b", "amount": 2.5 }
                ],
                "ok": true,
                "none": null,
                "c": "x",
                "echo": input
            })
        );
    }

    #[test]
    fn call_json_rejects_non_plain_results() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_fnptr() { Fn(\"zorg_fnptr\") }\nfn zorg_nan() { 0.0 / 0.0 }",
        );
        let err = host.call_json("zorg.rhai", "zorg_fnptr", &[]).unwrap_err();
        assert!(err.message.contains("not plain data"), "{err}");
        let err = host.call_json("zorg.rhai", "zorg_nan", &[]).unwrap_err();
        assert!(err.message.contains("non-finite"), "{err}");
    }

    #[test]
    fn unknown_function_and_script_errors() {
        let host = host_with("zorg.rhai", "fn zorg_action(a, b) { a + b }");
        let err = host.call("zorg.rhai", "zorg_missing", vec![]).unwrap_err();
        assert_eq!(err.file, "zorg.rhai");
        assert!(
            err.message.contains("no public function `zorg_missing`"),
            "{err}"
        );

        let err = host.call("nope.rhai", "zorg_action", vec![]).unwrap_err();
        assert!(err.message.contains("no script"), "{err}");
        assert!(err.to_string().starts_with("nope.rhai: "), "{err}");
    }

    #[test]
    fn wrong_arity_is_reported() {
        let host = host_with("zorg.rhai", "fn zorg_action(a, b) { a + b }");
        let err = host
            .call("zorg.rhai", "zorg_action", vec![Dynamic::from_int(1)])
            .unwrap_err();
        assert!(
            err.message
                .contains("`zorg_action` takes 2 argument(s) but 1 were given"),
            "{err}"
        );
    }

    #[test]
    fn runtime_error_has_position_inside_script() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_action(x) {\n  zorg_helper(x)\n}\nfn zorg_helper(x) {\n  let y = x;\n  y.no_such_method()\n}\n",
        );
        let err = host
            .call("zorg.rhai", "zorg_action", vec![Dynamic::from_int(1)])
            .unwrap_err();
        assert_eq!(err.line, Some(6), "{err}");
        assert!(err.message.contains("no_such_method"), "{err}");
        assert!(err.message.contains("zorg_action > zorg_helper"), "{err}");

        let host = host_with("z.rhai", "fn zorg_div(a) {\n    a / 0\n}");
        let err = host
            .call("z.rhai", "zorg_div", vec![Dynamic::from_int(1)])
            .unwrap_err();
        assert_eq!((err.line, err.col), (Some(2), Some(7)), "{err}");
    }

    #[test]
    fn infinite_loop_is_stopped() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_spin() {\n  loop {}\n}\nfn zorg_while() { let i = 0; while true { i += 1; } }",
        );
        for name in ["zorg_spin", "zorg_while"] {
            let err = quick(Duration::from_secs(2), || {
                host.call("zorg.rhai", name, vec![]).unwrap_err()
            });
            assert!(err.message.contains("too many operations"), "{err}");
        }
    }

    #[test]
    fn runaway_recursion_is_stopped() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_rec(n) {\n  zorg_rec(n + 1) + 1\n}\nfn zorg_deep(n) { if n == 0 { 0 } else { zorg_deep(n - 1) } }",
        );
        let err = quick(Duration::from_secs(2), || {
            host.call("zorg.rhai", "zorg_rec", vec![Dynamic::from_int(0)])
                .unwrap_err()
        });
        assert!(err.message.contains("nested too deeply"), "{err}");

        // Recursion within the limit works.
        let ok = host
            .call("zorg.rhai", "zorg_deep", vec![Dynamic::from_int(20)])
            .unwrap();
        assert_eq!(ok.as_int(), Ok(0));
    }

    #[test]
    fn deep_bodies_with_deep_recursion_do_not_overflow_the_stack() {
        // ~25 units of expression depth in each of 32 nested calls: more
        // stack than a 2 MiB test thread has in an unoptimised build.
        let nest = 25;
        let src = format!(
            "fn zorg_r(n) {{ if n <= 0 {{ 0 }} else {{ {}zorg_r(n - 1){} }} }}",
            "(1 + ".repeat(nest),
            ")".repeat(nest)
        );
        let host = host_with("deep.rhai", &src);
        let err = quick(Duration::from_secs(5), || {
            host.call("deep.rhai", "zorg_r", vec![Dynamic::from_int(1000)])
                .unwrap_err()
        });
        assert!(err.message.contains("nested too deeply"), "{err}");
        let ok = host
            .call("deep.rhai", "zorg_r", vec![Dynamic::from_int(30)])
            .unwrap();
        assert_eq!(ok.as_int(), Ok(30 * 25));
    }

    #[test]
    fn stack_estimate_tracks_body_depth() {
        let mut host = ScriptHost::default();
        host.compile("flat.rhai", "fn zorg() { 1 }").unwrap();
        host.compile(
            "deep.rhai",
            &format!("fn zorg() {{ {}1{} }}", "(1 + ".repeat(20), ")".repeat(20)),
        )
        .unwrap();
        let flat = host.scripts["flat.rhai"].stack;
        let deep = host.scripts["deep.rhai"].stack;
        assert!(flat < deep, "{flat} vs {deep}");
        assert_eq!(
            host.call("deep.rhai", "zorg", vec![]).unwrap().as_int(),
            Ok(21)
        );
        // The engine's depth limit is restored after measuring.
        let too_deep = format!("fn zorg() {{ {}1{} }}", "(".repeat(100), ")".repeat(100));
        assert!(host.compile("x.rhai", &too_deep).is_err());
    }

    #[test]
    fn huge_string_is_stopped() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_grow() { let s = \"ab\"; loop { s += s; } }\nfn zorg_pad() { \"x\".pad(1000000, 'y') }",
        );
        for name in ["zorg_grow", "zorg_pad"] {
            let err = quick(Duration::from_secs(2), || {
                host.call("zorg.rhai", name, vec![]).unwrap_err()
            });
            assert!(err.message.contains("too large"), "{name}: {err}");
        }
    }

    #[test]
    fn huge_array_and_map_are_stopped() {
        let host = host_with(
            "zorg.rhai",
            r#"
            fn zorg_push() { let a = []; loop { a.push(1); } }
            fn zorg_pad() { let a = []; a.pad(100000000, 0); a }
            fn zorg_nested() { let a = []; for i in 0..40 { a.push([0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]); } a }
            fn zorg_map() { let m = #{}; for i in 0..5000 { m[`k${i}`] = i; } m }
            "#,
        );
        for name in ["zorg_push", "zorg_pad", "zorg_nested", "zorg_map"] {
            let result = quick(Duration::from_secs(2), || {
                host.call("zorg.rhai", name, vec![])
            });
            let Err(err) = result else {
                panic!("{name} succeeded");
            };
            assert!(err.message.contains("too large"), "{name}: {err}");
        }
    }

    #[test]
    fn eval_is_rejected() {
        let mut host = ScriptHost::default();
        let err = host
            .compile("zorg.rhai", "fn zorg_eval() {\n  eval(\"1\")\n}")
            .unwrap_err();
        assert_eq!((err.line, err.col), (Some(2), Some(3)), "{err}");
        assert!(err.message.contains("eval"), "{err}");
    }

    #[test]
    fn sandbox_has_no_side_effects_or_sleep() {
        let mut host = ScriptHost::default();
        host.compile(
            "zorg.rhai",
            "fn zorg_print() { print(\"hi\"); debug(\"x\"); 7 }",
        )
        .unwrap();
        assert_eq!(
            host.call("zorg.rhai", "zorg_print", vec![])
                .unwrap()
                .as_int(),
            Ok(7)
        );

        for (file, src) in [
            ("sleep.rhai", "fn zorg() { sleep(100); 1 }"),
            ("time.rhai", "fn zorg() { timestamp() }"),
            ("exit.rhai", "fn zorg() { exit(1) }"),
        ] {
            host.compile(file, src).unwrap();
            let err = quick(Duration::from_secs(1), || {
                host.call(file, "zorg", vec![]).unwrap_err()
            });
            assert!(err.message.contains("Function not found"), "{err}");
        }
        let err = host
            .compile("imp.rhai", "import \"x\" as y;\nfn f() {}")
            .unwrap_err();
        assert_eq!(err.line, Some(1), "{err}");
    }

    #[test]
    fn deep_expression_is_a_compile_error() {
        let mut host = ScriptHost::default();
        let body = format!("{}1{}", "(".repeat(200), ")".repeat(200));
        let err = host
            .compile("zorg.rhai", &format!("fn zorg_deep() {{ {body} }}"))
            .unwrap_err();
        assert!(err.message.contains("maximum complexity"), "{err}");
    }

    #[test]
    fn has_function_and_functions_listing() {
        let host = host_with(
            "zorg.rhai",
            "fn zorg_b(x, y) { x }\nfn zorg_a() { 1 }\nfn zorg_a(x) { x }\nprivate fn zorg_helper() { 0 }",
        );
        assert!(host.has_function("zorg.rhai", "zorg_a"));
        assert!(host.has_function("zorg.rhai", "zorg_b"));
        assert!(!host.has_function("zorg.rhai", "zorg_helper"));
        assert!(!host.has_function("zorg.rhai", "zorg_c"));
        assert!(!host.has_function("other.rhai", "zorg_a"));
        assert_eq!(
            host.functions("zorg.rhai"),
            vec![
                ("zorg_a".to_string(), 0),
                ("zorg_a".to_string(), 1),
                ("zorg_b".to_string(), 2)
            ]
        );
        assert!(host.functions("other.rhai").is_empty());
        let err = host.call("zorg.rhai", "zorg_helper", vec![]).unwrap_err();
        assert!(err.message.contains("no public function"), "{err}");
    }

    #[test]
    fn recompile_replaces_script() {
        let mut host = host_with("zorg.rhai", "fn zorg_a() { 1 }");
        host.compile("zorg.rhai", "fn zorg_b() { 2 }").unwrap();
        assert!(!host.has_function("zorg.rhai", "zorg_a"));
        assert_eq!(
            host.call("zorg.rhai", "zorg_b", vec![]).unwrap().as_int(),
            Ok(2)
        );
    }

    #[test]
    fn shared_across_threads() {
        let host = Arc::new(host_with(
            "zorg.rhai",
            "fn zorg_sum(n) { let t = 0; for i in 0..n { t += i; } t }",
        ));
        let handles: Vec<_> = (0..4)
            .map(|k| {
                let host = Arc::clone(&host);
                std::thread::spawn(move || {
                    host.call_json("zorg.rhai", "zorg_sum", &[json!(10 + k)])
                        .unwrap()
                })
            })
            .collect();
        let sums: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(sums, vec![json!(45), json!(55), json!(66), json!(78)]);
    }

    #[test]
    fn call_chains_are_abridged() {
        let names = |v: &[&str]| v.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(describe_chain(&names(&["a"])), "a");
        assert_eq!(
            describe_chain(&names(&["a", "b", "b", "b", "anon$12ab"])),
            "a > b (x3) > closure"
        );
        let long: Vec<String> = (0..20).map(|i| format!("f{i}")).collect();
        assert_eq!(
            describe_chain(&long),
            "f0 > f1 > f2 > f3 > ... > f16 > f17 > f18 > f19"
        );

        let host = host_with(
            "zorg.rhai",
            "fn zorg_rec(n) {\n  if n == 0 { throw \"bottom\" }\n  zorg_rec(n - 1)\n}",
        );
        let err = host
            .call("zorg.rhai", "zorg_rec", vec![Dynamic::from_int(5)])
            .unwrap_err();
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err.message.contains("bottom (in zorg_rec (x6))"), "{err}");
    }

    #[test]
    fn display_formats() {
        let e = ScriptError {
            file: "a.rhai".into(),
            line: Some(3),
            col: Some(5),
            message: "boom".into(),
        };
        assert_eq!(e.to_string(), "a.rhai:3:5: boom");
        let e = ScriptError { col: None, ..e };
        assert_eq!(e.to_string(), "a.rhai:3: boom");
        let e = ScriptError { line: None, ..e };
        assert_eq!(e.to_string(), "a.rhai: boom");
    }
}
