//! Source code: its language (from line starts only one language writes), what it imports (the
//! external packages first, by their package name: `go-chi/chi`, `zod`, `@tanstack/query`,
//! `sqlalchemy`, `org.springframework.web`; the standard library counted) and what it defines
//! (one list, most telling first: interfaces, traits, enums and classes, then functions, then the
//! methods of each class, then data types, then methods outside a class). Line-based like the
//! reference's `code` kind: no parsing.

use super::document::joined_within;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::{is_py_word, py_splitlines, stable_sort_by};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::kinds::json::FxHasher;

/// What a file defines, by how the list shows it (looked up for every definition line).
type Defined = HashMap<String, usize, BuildHasherDefault<FxHasher>>;

/// Distinct imports kept (a list far longer than a stub shows is not read further).
const MAX_IMPORTS: usize = 200;
/// Methods of a class named in the list of definitions (public ones first).
const SHOWN_METHODS: usize = 4;

const LANGUAGES: usize = 9;
const LANGUAGE_NAMES: [&str; LANGUAGES] = [
    "Go", "Rust", "Python", "TypeScript", "JavaScript", "Java", "Kotlin", "C#", "Ruby",
];
const GO: usize = 0;
const RUST: usize = 1;
const PYTHON: usize = 2;
const TYPESCRIPT: usize = 3;
const JAVASCRIPT: usize = 4;
const JAVA: usize = 5;
const KOTLIN: usize = 6;
const CSHARP: usize = 7;
const RUBY: usize = 8;

/// Line starts (after indentation) that only one language writes, with its index. (`end` alone
/// on a line is Ruby's; `def` is Python's unless the file votes Ruby.)
const LANGUAGE_MARKS: [(&str, usize); 27] = [
    ("func ", GO),
    ("package main", GO),
    ("fn ", RUST),
    ("pub fn ", RUST),
    ("impl ", RUST),
    ("#[derive", RUST),
    ("def ", PYTHON),
    ("async def ", PYTHON),
    ("elif ", PYTHON),
    ("interface ", TYPESCRIPT),
    ("export interface ", TYPESCRIPT),
    ("export type ", TYPESCRIPT),
    ("function ", JAVASCRIPT),
    ("module.exports", JAVASCRIPT),
    ("public class ", JAVA),
    ("import java.", JAVA),
    ("@Override", JAVA),
    ("fun ", KOTLIN),
    ("override fun ", KOTLIN),
    ("data class ", KOTLIN),
    ("using System", CSHARP),
    ("namespace ", CSHARP),
    ("public async Task", CSHARP),
    ("require_relative ", RUBY),
    ("attr_reader ", RUBY),
    ("attr_accessor ", RUBY),
    ("end", RUBY),
];

/// Declaration keywords (after modifiers): the rank of what they declare (lower is shown first)
/// and the word the list prints before the name ("" for functions, which print as `name()`).
/// Those with a word other than `type`/`mod` hold members (`class X` then its methods).
const DECLARATIONS: [(&str, u8, &str); 17] = [
    ("interface ", 0, "interface "),
    ("trait ", 0, "trait "),
    ("enum ", 0, "enum "),
    ("class ", 0, "class "),
    ("module ", 0, "module "),
    ("fn ", 1, ""),
    ("def ", 1, ""),
    ("function ", 1, ""),
    ("func ", 1, ""),
    ("fun ", 1, ""),
    ("struct ", 3, "struct "),
    ("type ", 3, "type "),
    ("record ", 3, "record "),
    ("mod ", 3, "mod "),
    ("object ", 3, "object "),
    ("namespace ", 3, "namespace "),
    ("impl ", 3, "impl "),
];

/// Rank of a class's methods in the list (after functions, before data types).
const METHODS_RANK: u8 = 2;

/// Modifiers before a declaration keyword.
const MODIFIERS: [&str; 27] = [
    "pub(crate) ", "pub(super) ", "pub ", "export default ", "export ", "async ", "public ",
    "private ", "protected ", "internal ", "static ", "abstract ", "declare ", "final ", "unsafe ",
    "override ", "virtual ", "sealed ", "partial ", "readonly ", "suspend ", "open ", "data ",
    "inline ", "const ", "extern ", "default ",
];

/// Words a method-looking line (`name(...) {`, `Type name(...)`) may start with that are not
/// methods.
const NOT_METHODS: [&str; 16] = [
    "if", "for", "foreach", "while", "switch", "return", "catch", "function", "super", "await",
    "new", "else", "constructor", "throw", "using", "lock",
];

/// Python modules of the standard library (the common ones: an import not here is counted as a
/// package, which is the safe side).
const PYTHON_STD: [&str; 72] = [
    "__future__", "abc", "argparse", "array", "ast", "asyncio", "base64", "bisect", "calendar",
    "collections", "concurrent", "configparser", "contextlib", "contextvars", "copy", "csv",
    "ctypes", "dataclasses", "datetime", "decimal", "difflib", "email", "enum", "errno",
    "fnmatch", "fractions", "functools", "gc", "getpass", "glob", "gzip", "hashlib", "heapq",
    "hmac", "html", "http", "importlib", "inspect", "io", "ipaddress", "itertools", "json",
    "logging", "math", "multiprocessing", "operator", "os", "pathlib", "pickle", "platform",
    "pprint", "queue", "random", "re", "secrets", "shutil", "signal", "socket", "sqlite3",
    "ssl", "statistics", "string", "struct", "subprocess", "sys", "tempfile", "textwrap",
    "threading", "time", "traceback", "typing", "unittest",
];
/// More of them, and the rest of the list above (split so neither line of names gets long).
const PYTHON_STD_MORE: [&str; 10] = [
    "urllib", "uuid", "warnings", "weakref", "xml", "zipfile", "zlib", "zoneinfo", "types",
    "shlex",
];
/// Node's built-in modules (imported with or without `node:`).
const NODE_BUILTINS: [&str; 28] = [
    "assert", "async_hooks", "buffer", "child_process", "cluster", "crypto", "dgram", "dns",
    "events", "fs", "http", "http2", "https", "module", "net", "os", "path", "perf_hooks",
    "process", "querystring", "readline", "stream", "timers", "tls", "url", "util", "worker_threads",
    "zlib",
];
/// Ruby's standard library (the common ones).
const RUBY_STD: [&str; 26] = [
    "base64", "benchmark", "bigdecimal", "csv", "date", "digest", "erb", "fileutils", "forwardable",
    "json", "logger", "net", "open3", "openssl", "optparse", "ostruct", "pathname", "securerandom",
    "set", "shellwords", "singleton", "socket", "stringio", "tempfile", "time", "uri",
];

/// Where an import comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A package (a dependency).
    Package,
    /// The language's standard library.
    Standard,
    /// The project itself (a relative path, `crate::`).
    Local,
}

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !is_py_word(c)).unwrap_or(text.len());
    &text[..end]
}

/// The text between the first pair of quotes on `line`.
fn quoted(line: &str) -> Option<&str> {
    let start = line.find(['"', '\''])?;
    let rest = &line[start + 1..];
    Some(&rest[..rest.find(['"', '\''])?])
}

/// A path segment that is a major version (`v5`), which names no package.
fn is_version(segment: &str) -> bool {
    segment.len() > 1 && segment.starts_with('v') && segment[1..].bytes().all(|b| b.is_ascii_digit())
}

/// A Go import path's package: a module on a code host by owner and repository
/// (`github.com/go-chi/chi/v5/middleware` is `go-chi/chi`), on another host by its first
/// segment (`go.uber.org/zap`), the standard library as it is (`net/http`).
fn go_package(path: &str) -> (String, Origin) {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty() && !is_version(s)).collect();
    match segments.first() {
        Some(host) if host.contains('.') => {
            let kept = if matches!(*host, "github.com" | "gitlab.com" | "bitbucket.org" | "golang.org") {
                2
            } else {
                1
            };
            let name = segments[1..].iter().take(kept).copied().collect::<Vec<_>>().join("/");
            (if name.is_empty() { path.to_string() } else { name }, Origin::Package)
        }
        _ => (path.to_string(), Origin::Standard),
    }
}

/// A JavaScript module specifier's package: `@scope/name`, `name` (without its subpath), a
/// Node built-in, or a relative path.
fn js_package(specifier: &str) -> (String, Origin) {
    if specifier.starts_with(['.', '/']) {
        return (specifier.to_string(), Origin::Local);
    }
    if let Some(builtin) = specifier.strip_prefix("node:") {
        return (builtin.to_string(), Origin::Standard);
    }
    let mut segments = specifier.split('/');
    let first = segments.next().unwrap_or(specifier);
    let name = match segments.next() {
        Some(second) if first.starts_with('@') => format!("{first}/{second}"),
        _ => first.to_string(),
    };
    let origin = if NODE_BUILTINS.contains(&name.as_str()) { Origin::Standard } else { Origin::Package };
    (name, origin)
}

/// A dotted import's package (`org.springframework.web.bind.annotation.GetMapping` is
/// `org.springframework.web`): without the member it imports (the last segment), its lower-case
/// segments, at most `depth`.
fn dotted_package(path: &str, depth: usize) -> String {
    let package = path.rsplit_once('.').map_or(path, |(package, _)| package);
    let segments: Vec<&str> = package
        .split('.')
        .take_while(|segment| segment.starts_with(|c: char| c.is_ascii_lowercase()))
        .take(depth)
        .collect();
    if segments.is_empty() {
        package.to_string()
    } else {
        segments.join(".")
    }
}

/// What the import on `line` (trimmed) brings in, by the file's language: its package and origin.
fn import_of(line: &str, language: Option<usize>) -> Option<(String, Origin)> {
    let line = line.trim_end_matches(';');
    let after = |prefixes: &[&str]| prefixes.iter().find_map(|p| line.strip_prefix(p)).map(str::trim_start);
    match language {
        Some(GO) => quoted(line).map(go_package),
        Some(RUST) => {
            let path = after(&["use ", "pub use ", "pub(crate) use ", "extern crate "])?;
            let name = ident(path.trim_start_matches(':'));
            let origin = match name {
                "std" | "core" | "alloc" => Origin::Standard,
                "crate" | "self" | "super" => Origin::Local,
                _ => Origin::Package,
            };
            (!name.is_empty()).then(|| (name.to_string(), origin))
        }
        Some(PYTHON) => {
            let module = after(&["from ", "import "])?;
            if module.starts_with('.') {
                return Some((module.split(' ').next().unwrap_or(module).to_string(), Origin::Local));
            }
            let name = ident(module);
            let origin = if PYTHON_STD.contains(&name) || PYTHON_STD_MORE.contains(&name) {
                Origin::Standard
            } else {
                Origin::Package
            };
            (!name.is_empty()).then(|| (name.to_string(), origin))
        }
        Some(JAVA | KOTLIN) => {
            let path = after(&["import static ", "import "])?;
            let path = path.split(' ').next().unwrap_or(path);
            let origin = if ["java.", "javax.", "jdk.", "kotlin.", "android."].iter().any(|p| path.starts_with(p)) {
                Origin::Standard
            } else {
                Origin::Package
            };
            Some((dotted_package(path, 3), origin))
        }
        Some(CSHARP) => {
            let path = after(&["global using ", "using static ", "using "])?;
            let path = path.rsplit("= ").next().unwrap_or(path).trim();
            if path.contains(['(', ' ']) || path.is_empty() {
                return None; // a `using (...)` statement or `using var x = ...`
            }
            let origin = if path == "System" || path.starts_with("System.") {
                Origin::Standard
            } else {
                Origin::Package
            };
            Some((path.split('.').take(2).collect::<Vec<_>>().join("."), origin))
        }
        Some(RUBY) => {
            if line.starts_with("require_relative") {
                return quoted(line).map(|path| (path.to_string(), Origin::Local));
            }
            let path = quoted(after(&["require "])?)?;
            let name = path.split('/').next().unwrap_or(path);
            let origin = if RUBY_STD.contains(&name) { Origin::Standard } else { Origin::Package };
            Some((name.to_string(), origin))
        }
        // TypeScript, JavaScript (and a file of no known language): a quoted module specifier
        // (`import x from "zod"`, `require("zod")`), else the name after the keyword.
        _ => match quoted(line) {
            Some(specifier) => Some(js_package(specifier)),
            None => {
                let name = ident(after(&["from ", "import ", "use "])?.trim_start_matches(':'));
                (!name.is_empty()).then(|| (name.to_string(), Origin::Package))
            }
        },
    }
}

/// Whether `line` (trimmed, at the file's top level) imports something.
fn is_import_line(line: &str) -> bool {
    const STARTS: [&str; 11] = [
        "import ", "from ", "use ", "pub use ", "pub(crate) use ", "extern crate ", "using ",
        "global using ", "require ", "require_relative ", "} from ",
    ];
    STARTS.iter().any(|start| line.starts_with(start))
        || (line.starts_with("const ") || line.starts_with("var ") || line.starts_with("let "))
            && line.contains("require(")
}

/// A declaration on a line.
struct Declaration<'a> {
    /// 0 abstractions, 1 functions, 3 data types, 4 public methods, 5 other methods (outside
    /// a class).
    rank: u8,
    /// The word printed before the name (`class`, `struct`; "" for functions).
    word: &'static str,
    name: &'a str,
    /// A function or method indented under something (a member when under a class).
    member: bool,
    public: bool,
}

impl Declaration<'_> {
    /// How the list prints it (`class Name`, `name()`), written into `into`.
    fn shown(&self, into: &mut String) {
        into.clear();
        if self.word.is_empty() {
            into.push_str(self.name);
            into.push_str("()");
        } else {
            into.push_str(self.word);
            into.push(' ');
            into.push_str(self.name);
        }
    }

    /// Whether it holds members (methods) listed with it.
    fn holds_members(&self) -> bool {
        matches!(self.word, "class" | "interface" | "trait" | "enum" | "struct" | "object" | "record" | "module")
    }
}

/// The name a Rust `impl` line gives its methods to: `impl<T> Name<T> {` is `Name`; a trait's
/// impl (`impl Display for Name`) gives `None` (its methods are the trait's).
fn impl_target(line: &str) -> Option<Option<String>> {
    let mut rest = line.strip_prefix("impl")?;
    if rest.starts_with('<') {
        // Generic parameters, nested `<>` balanced.
        let mut depth = 0usize;
        let end = rest.char_indices().find(|&(_, c)| {
            depth = match c {
                '<' => depth + 1,
                '>' => depth.saturating_sub(1),
                _ => depth,
            };
            c == '>' && depth == 0
        })?;
        rest = &rest[end.0 + 1..];
    } else if !rest.starts_with(' ') {
        return None;
    }
    if rest.contains(" for ") {
        return Some(None);
    }
    let path = rest.trim_start();
    let path = &path[..path.find(['<', ' ', '{']).unwrap_or(path.len())];
    let name = path.rsplit("::").next().unwrap_or(path);
    Some((!name.is_empty() && ident(name) == name).then(|| name.to_string()))
}

/// A method declared with its return type first (Java, C#: `public Order getOrder(String id) {`),
/// `line` being past its modifiers: the method's name.
fn typed_method(line: &str) -> Option<&str> {
    let head = line[..line.find('(')?].trim_end();
    let (return_type, name) = head.rsplit_once(' ')?;
    let return_type = return_type.trim();
    let first_word = ident(return_type);
    let ends = line.trim_end();
    let signature_end = ends.ends_with(['{', ')', ';']) || ends.contains(") throws ");
    (signature_end
        && !return_type.is_empty()
        && !return_type.contains(['=', '(', '"', '\'', '.'])
        && !NOT_METHODS.contains(&first_word)
        && !name.is_empty()
        && ident(name) == name)
        .then_some(name)
}

/// A declaration on `raw`. `in_class`: `raw` is in the body of a class of a language whose
/// methods start with their return type (Java, C#).
fn declaration(raw: &str, rust: bool, in_class: bool) -> Option<Declaration<'_>> {
    let indented = raw.starts_with([' ', '\t']);
    let mut line = raw.trim_start();
    // Every declaration starts with a word (most lines that do not are rejected here).
    if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let mut public = !rust || line.starts_with("pub");
    while let Some(modifier) = MODIFIERS.iter().find(|m| line.starts_with(**m)) {
        public &= !matches!(*modifier, "private " | "protected " | "internal ");
        line = &line[modifier.len()..];
    }
    for (keyword, rank, word) in DECLARATIONS {
        let Some(mut rest) = line.strip_prefix(keyword) else {
            continue;
        };
        // Go methods: `func (s *Server) Name(`; Ruby's `def self.name`.
        if keyword == "func " && rest.starts_with('(') {
            rest = rest.split_once(')').map_or(rest, |(_, after)| after.trim_start());
        }
        rest = rest.strip_prefix("self.").unwrap_or(rest);
        let name = ident(rest);
        if name.is_empty() || name.starts_with("__") {
            return None;
        }
        public &= !name.starts_with('_');
        // Go's `type Name struct` / `type Name interface`.
        let word = match (keyword, rest[name.len()..].trim_start().split(' ').next()) {
            ("type ", Some("struct")) => "struct",
            ("type ", Some("interface")) => "interface",
            _ => word.trim_end(),
        };
        let member = rank == 1 && indented;
        let rank = match rank {
            1 if member => 5 - u8::from(public),
            3 if word == "interface" => 0,
            rank => rank,
        };
        return Some(Declaration { rank, word, name, member, public });
    }
    // A function held by a top-level binding: `export const handler = async (event) => {`,
    // `const render = function (`, `let parse = input =>`.
    if !indented {
        if let Some(name) = bound_function(line) {
            public &= !name.starts_with('_');
            return Some(Declaration { rank: 1, word: "", name, member: false, public });
        }
    }
    // Methods of a class body: `  async listOrders(...) {`, `  request<T>(...) {`, and in
    // Java or C# `  public Order getOrder(String id) {`.
    let name = ident(line);
    let after_name = &line[name.len()..];
    let after_generics = match after_name.strip_prefix('<') {
        Some(generic) => generic.split_once('>').map_or("", |(_, after)| after),
        None => after_name,
    };
    let untyped = indented
        && !name.is_empty()
        && after_generics.starts_with('(')
        && raw.trim_end().ends_with('{')
        && !NOT_METHODS.contains(&name);
    let name = if untyped {
        name
    } else if indented && in_class {
        typed_method(line)?
    } else {
        return None;
    };
    let public = public && !name.starts_with('_');
    Some(Declaration { rank: 5 - u8::from(public), word: "", name, member: true, public })
}

/// The name a JavaScript binding (`line` past `export`/`const`, or `let`/`var`) gives a function:
/// `name = (...) =>`, `name = async (`, `name = function`, `name = arg =>`, a type annotation
/// (`name: Handler = (`) allowed.
fn bound_function(line: &str) -> Option<&str> {
    let line = ["let ", "var "].iter().find_map(|p| line.strip_prefix(p)).unwrap_or(line);
    let name = ident(line);
    if name.is_empty() {
        return None;
    }
    let (_, value) = line[name.len()..].split_once('=')?;
    let value = value.trim_start();
    if value.starts_with(['=', '>']) {
        return None; // `==`, `=>` right after the name: not a binding
    }
    let value = value.strip_prefix("async").map_or(value, str::trim_start);
    let arrow_after_argument = || {
        let argument = ident(value);
        !argument.is_empty() && value[argument.len()..].trim_start().starts_with("=>")
    };
    (value.starts_with('(') && line.contains("=>") || value.starts_with("function") || arrow_after_argument())
        .then_some(name)
}

/// A class (or struct, trait, impl target) whose body holds the methods that follow.
struct Holder {
    /// Its slot in `groups`; `None` for a trait's impl, whose methods are not listed.
    group: Option<usize>,
    indent: usize,
    /// The indentation of its methods (the first one's): deeper functions are nested helpers.
    member_indent: Option<usize>,
    /// Its name (a method of the same name is a constructor).
    name: String,
}

/// The methods of a class: public ones first (in order), how many in all.
#[derive(Default)]
struct Methods {
    public: Vec<String>,
    other: Vec<String>,
}

impl Methods {
    fn add(&mut self, name: &str, public: bool) {
        let list = if public { &mut self.public } else { &mut self.other };
        if list.len() < MAX_IMPORTS && !list.iter().any(|n| n == name) {
            list.push(name.to_string());
        }
    }

    fn count(&self) -> usize {
        self.public.len() + self.other.len()
    }

    /// `{a, b, c, d, +5}` after `prefix`.
    fn shown(&self, prefix: &str) -> String {
        let all: Vec<&String> = self.public.iter().chain(&self.other).collect();
        let mut names: Vec<&str> = all.iter().take(SHOWN_METHODS).map(|n| n.as_str()).collect();
        let more = all.len().saturating_sub(SHOWN_METHODS);
        let more_text = format!("+{more}");
        if more > 0 {
            names.push(&more_text);
        }
        format!("{prefix}{{{}}}", names.join(", "))
    }
}

fn indentation(raw: &str) -> usize {
    raw.len() - raw.trim_start_matches([' ', '\t']).len()
}

/// The language most of the file's line starts vote for.
/// The first bytes of `LANGUAGE_MARKS`.
const MARK_FIRST_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < LANGUAGE_MARKS.len() {
        table[LANGUAGE_MARKS[i].0.as_bytes()[0] as usize] = true;
        i += 1;
    }
    table
};

fn language_of(output: &str) -> Option<usize> {
    let mut votes = [0usize; LANGUAGES];
    for raw in py_splitlines(output) {
        let line = raw.trim();
        // Most lines start with no mark's first byte: the marks are not compared on them.
        if !line.as_bytes().first().is_some_and(|&byte| MARK_FIRST_BYTES[usize::from(byte)]) {
            continue;
        }
        for (mark, language) in LANGUAGE_MARKS {
            // `end` only counts alone on its line; the others as line starts.
            let voted = if mark == "end" { line == "end" } else { line.starts_with(mark) };
            if voted {
                votes[language] += 1;
            }
        }
    }
    // Ruby writes `def` too: its `end` lines decide against Python.
    if votes[RUBY] > 0 && votes[RUBY] >= votes[PYTHON] {
        votes[PYTHON] = 0;
    }
    (0..LANGUAGES)
        .max_by_key(|&i| (votes[i], LANGUAGES - i))
        .filter(|&i| votes[i] > 0)
}

/// The enhanced synopsis of what the reference reads as code.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    if input.reference_kind != "code" {
        return None;
    }
    // The language decides how imports and methods read, so it is found first.
    let language = language_of(input.output);
    let rust = language == Some(RUST);
    let typed_methods = matches!(language, Some(JAVA | CSHARP));
    let mut lines = 0;
    let mut imports: Vec<(String, Origin)> = Vec::new();
    let mut defines: Vec<(u8, String)> = Vec::new();
    // What is in `defines` and `groups` (a lookup per line: a long file must not make it
    // quadratic).
    let mut defined = Defined::default();
    let mut groups: Vec<(String, Methods)> = Vec::new();
    let mut holder: Option<Holder> = None;
    let mut package = "";
    let mut notes: Vec<&str> = Vec::new();
    let mut in_import_block = false;
    let mut shown = String::new();
    for raw in py_splitlines(input.output) {
        lines += 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let indent = indentation(raw);
        if in_import_block || line == "import (" {
            in_import_block = line != ")";
            if let Some(import) = import_of(line, language).filter(|_| line != "import (") {
                if imports.len() < MAX_IMPORTS && !imports.contains(&import) {
                    imports.push(import);
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("package ") {
            package = ident(rest);
            if package.is_empty() || rest.contains('.') {
                // Java's `package com.acme.orders;`
                package = rest.trim_end_matches(';').trim();
            }
            continue;
        }
        if indent == 0 && is_import_line(line) {
            if let Some(import) = import_of(line, language) {
                if imports.len() < MAX_IMPORTS && !imports.contains(&import) {
                    imports.push(import);
                }
            }
            continue;
        }
        // A line back at (or left of) a class's indentation ends its body (brackets,
        // decorators and comments do not).
        if holder.as_ref().is_some_and(|h| indent <= h.indent)
            && !line.starts_with(['{', '}', ')', ']', '@', '#', '/', '*', '"', '\''])
            && line != "end"
        {
            holder = None;
        }
        let note = if line.starts_with("if __name__") {
            Some("__main__ guard")
        } else if line.starts_with("#[cfg(test)]") {
            Some("test module (#[cfg(test)])")
        } else {
            None
        };
        if let Some(note) = note.filter(|note| !notes.contains(note)) {
            notes.push(note);
        }
        if rust {
            if let Some(target) = impl_target(line) {
                let group = target.as_ref().map(|name| group_slot(&mut groups, &mut defined, name));
                holder = Some(Holder {
                    group,
                    indent,
                    member_indent: None,
                    name: target.unwrap_or_default(),
                });
                continue;
            }
        }
        let in_class = typed_methods && holder.is_some();
        let Some(found) = declaration(raw, rust, in_class) else {
            continue;
        };
        if found.member {
            if let Some(h) = holder.as_mut().filter(|h| indent > h.indent) {
                // A class's method (a nested helper, or a constructor, is not listed).
                if *h.member_indent.get_or_insert(indent) == indent && found.name != h.name {
                    if let Some(slot) = h.group {
                        groups[slot].1.add(found.name, found.public);
                    }
                }
                continue;
            }
        }
        if found.holds_members() {
            let group = group_slot(&mut groups, &mut defined, found.name);
            holder = Some(Holder { group: Some(group), indent, member_indent: None, name: found.name.to_string() });
        }
        // (One buffer for the lookup: a definition seen again allocates nothing.)
        found.shown(&mut shown);
        if !defined.contains_key(shown.as_str()) {
            defined.insert(shown.clone(), 0);
            defines.push((found.rank, shown.clone()));
        }
    }
    // The class with the most methods (the file's main one) shows them in its place; each other
    // class with methods, after the functions.
    let main_class = (0..groups.len())
        .max_by_key(|&slot| (groups[slot].1.count(), groups.len() - slot))
        .filter(|&slot| groups[slot].1.count() > 0);
    for (slot, (class, methods)) in groups.iter().enumerate() {
        if methods.count() == 0 {
            continue;
        }
        let declared = defines.iter_mut().find(|(_, shown)| {
            shown.split_once(' ').is_some_and(|(word, name)| name == class && word != "mod")
        });
        if let Some((rank, shown)) = declared {
            // A data type with methods (a Rust struct and its impl) is a class.
            *rank = 0;
            if Some(slot) == main_class {
                shown.push_str(&methods.shown(""));
                continue;
            }
        }
        defines.push((METHODS_RANK, format!("{class}.{}", methods.shown(""))));
    }
    let mut synopsis = Synopsis::new("code", "Code output");
    let language = language.map_or("Code", |i| LANGUAGE_NAMES[i]);
    let package = if package.is_empty() {
        String::new()
    } else {
        format!(", package {package}")
    };
    synopsis
        .summary
        .push(format!("{language} source, {lines} lines{package}."));
    stable_sort_by(&mut defines, |a, b| a.0.cmp(&b.0));
    let names: Vec<&str> = defines.iter().map(|(_, name)| name.as_str()).collect();
    if let Some(line) = imports_line(&imports) {
        synopsis.structure.push(line);
    }
    for (label, names, width) in [("defines", &names, DEFINES_WIDTH), ("entry", &notes, LIST_WIDTH)] {
        if !names.is_empty() {
            synopsis.structure.push(format!(
                "{label} ({}): {}",
                names.len(),
                joined_within(names, width)
            ));
        }
    }
    Some(synopsis)
}

/// The slot of `class`'s methods in `groups` (made when new; `defined` indexes them by
/// `.{class}`, a key no definition has).
fn group_slot(groups: &mut Vec<(String, Methods)>, defined: &mut Defined, class: &str) -> usize {
    let key = format!(".{class}");
    if let Some(&slot) = defined.get(&key) {
        return slot;
    }
    groups.push((class.to_string(), Methods::default()));
    defined.insert(key, groups.len() - 1);
    groups.len() - 1
}

/// `imports (N): the packages, +K std, +L local`, or the standard library's modules when the
/// file imports no package.
fn imports_line(imports: &[(String, Origin)]) -> Option<String> {
    if imports.is_empty() {
        return None;
    }
    let of = |origin| imports.iter().filter(move |(_, o)| *o == origin).map(|(name, _)| name.as_str());
    let mut shown: Vec<String> = of(Origin::Package).map(str::to_string).collect();
    let standard = of(Origin::Standard).count();
    let local = of(Origin::Local).count();
    if shown.is_empty() {
        shown = of(Origin::Standard).chain(of(Origin::Local)).map(str::to_string).collect();
    } else {
        if standard > 0 {
            shown.push(format!("+{standard} std"));
        }
        if local > 0 {
            shown.push(format!("+{local} local"));
        }
    }
    Some(format!("imports ({}): {}", imports.len(), joined_within(&shown, LIST_WIDTH)))
}

/// Chars of the list of what the code defines (the stub's bound may clip it further).
const DEFINES_WIDTH: usize = 600;
/// Chars of the other lists.
const LIST_WIDTH: usize = 120;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synopsis;
    use crate::test_support::synopsis_text;

    /// The enhanced synopsis of a source file (the reference must read it as code).
    fn of(source: &str) -> String {
        let reference = synopsis::generate(source, "text/plain", 2_000);
        assert_eq!(reference.kind, "code", "the reference reads it as code: {source}");
        let input = Input { output: source, mime: "text/plain", reference_kind: "code", reference: &reference };
        synopsis_text(&synopsis(&input).expect("a code synopsis"))
    }

    #[test]
    fn imports_name_packages_first_and_count_the_standard_library() {
        let go = "package api\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\n\t\"github.com/labstack/echo/v4\"\n\t\"github.com/labstack/echo/v4/middleware\"\n\t\"go.uber.org/zap\"\n\t\"golang.org/x/sync/errgroup\"\n)\n\nfunc Run() {}\n";
        assert!(of(go).contains("imports (5): labstack/echo, zap, x/sync, +2 std"), "{}", of(go));
        let ts = "import { useQuery } from \"@tanstack/react-query\";\nimport fp from \"lodash/fp\";\nimport { readFile } from \"node:fs/promises\";\nimport path from \"path\";\nimport { helper } from \"./helper\";\nimport {\n  a,\n} from \"axios\";\nexport function main() {}\n";
        assert!(of(ts).contains("imports (6): @tanstack/react-query, lodash, axios, +2 std, +1 local"), "{}", of(ts));
        let python = "import os, sys\nfrom collections import deque\nimport numpy as np\nfrom .models import User\nfrom django.db import models\n\ndef f():\n    pass\n";
        assert!(of(python).contains("imports (5): numpy, django, +2 std, +1 local"), "{}", of(python));
        let rust = "use std::fmt;\nuse serde::Deserialize;\nuse crate::error::Error;\nextern crate libc;\n\npub fn f() {}\n";
        assert!(of(rust).contains("imports (4): serde, libc, +1 std, +1 local"), "{}", of(rust));
        // Only the standard library: its modules are named.
        assert!(of("import os\nimport json\n\ndef f():\n    pass\n").contains("imports (2): os, json"));
    }

    #[test]
    fn java_kotlin_csharp_and_ruby_imports_read_by_their_language() {
        let java = "package com.acme.orders;\n\nimport java.util.List;\nimport org.springframework.web.bind.annotation.GetMapping;\nimport static org.junit.Assert.assertEquals;\n\npublic class OrderController {\n    @GetMapping(\"/orders\")\n    public List<Order> listOrders(int page) {\n        return repo.all();\n    }\n\n    private Order find(String id) throws NotFound {\n        return null;\n    }\n}\n";
        let shown = of(java);
        assert!(shown.contains("Java source, 16 lines, package com.acme.orders."), "{shown}");
        assert!(shown.contains("imports (3): org.springframework.web, org.junit, +1 std"), "{shown}");
        assert!(shown.contains("class OrderController{listOrders, find}"), "{shown}");
        let kotlin = "package shop\n\nimport kotlinx.coroutines.launch\nimport io.ktor.server.routing.Route\n\ndata class Order(val id: String)\n\nclass OrderService(private val repo: Repo) {\n    suspend fun place(order: Order): Order {\n        return order\n    }\n    private fun audit() {}\n}\n\nfun main() {}\n";
        let shown = of(kotlin);
        assert!(shown.contains("Kotlin source"), "{shown}");
        assert!(shown.contains("imports (2): kotlinx.coroutines, io.ktor.server"), "{shown}");
        assert!(shown.contains("class OrderService{place, audit}") && shown.contains("main()"), "{shown}");
        let csharp = "using System;\nusing System.Linq;\nusing Microsoft.AspNetCore.Mvc;\n\nnamespace Shop.Api\n{\n    public class OrdersController : ControllerBase\n    {\n        public OrdersController(IRepo repo) { }\n\n        public async Task<IActionResult> GetOrder(int id)\n        {\n            using (var scope = Begin()) { }\n            return Ok();\n        }\n    }\n}\n";
        let shown = of(csharp);
        assert!(shown.contains("C# source"), "{shown}");
        assert!(shown.contains("imports (3): Microsoft.AspNetCore, +2 std"), "{shown}");
        assert!(shown.contains("class OrdersController{GetOrder}"), "{shown}");
        let ruby = "require 'json'\nrequire 'sinatra/base'\nrequire_relative 'lib/store'\n\nclass App < Sinatra::Base\n  def index\n    'ok'\n  end\n\n  def self.boot\n  end\nend\n";
        let shown = of(ruby);
        assert!(shown.contains("Ruby source"), "{shown}");
        assert!(shown.contains("imports (3): sinatra, +1 std, +1 local"), "{shown}");
        assert!(shown.contains("class App{index, boot}"), "{shown}");
    }

    #[test]
    fn a_class_s_methods_are_listed_with_it_the_main_class_in_its_place() {
        let ts = "export interface Options {\n  retries: number;\n}\n\nexport class Cache {\n  get(key: string) {\n    return 1;\n  }\n}\n\nexport class Client extends Base {\n  constructor(options: Options) {\n    super();\n  }\n\n  async listUsers(page = 1): Promise<User[]> {\n    if (page) {\n      return [];\n    }\n  }\n\n  private async request<T>(path: string): Promise<T> {\n    return fetch(path);\n  }\n\n  getUser(id: string) {\n    return this.request(id);\n  }\n}\n\nexport function createClient(options: Options) {\n  return new Client(options);\n}\n";
        let shown = of(ts);
        // The main class (the most methods) holds them in its place, public ones first; the
        // constructor and control flow are not methods; other classes follow the functions.
        assert!(
            shown.contains("defines (5): interface Options, class Cache, class Client{listUsers, getUser, request}, createClient(), Cache.{get}"),
            "{shown}"
        );
        // Python: nested helpers are not methods; a Rust impl gives its struct the methods,
        // a trait's impl does not.
        let python = "class Repo:\n    def get(self):\n        def helper():\n            pass\n\n    def _hidden(self):\n        pass\n\ndef main():\n    pass\n";
        assert!(of(python).contains("defines (2): class Repo{get, _hidden}, main()"), "{}", of(python));
        let rust = "pub struct Pool {\n    size: usize,\n}\n\nimpl<T: Send> Pool<T> {\n    pub fn new() -> Self {\n        todo!()\n    }\n    fn grow(&mut self) {}\n}\n\nimpl Drop for Pool {\n    fn drop(&mut self) {}\n}\n\npub fn run() {}\n";
        assert!(of(rust).contains("defines (2): struct Pool{new, grow}, run()"), "{}", of(rust));
    }

    #[test]
    fn functions_held_by_top_level_bindings_are_functions() {
        let js = "import express from \"express\";\n\nexport const handler = async (event) => {\n  const local = (x) => x;\n  return local(event);\n};\nconst render = function (view) {\n  return view;\n};\nlet parse = input => input.trim();\nexport const LIMIT = 10;\nconst same = a == b;\nexport const Button: FC<Props> = ({ label }) => {\n  return label;\n};\n";
        let shown = of(js);
        assert!(shown.contains("defines (4): handler(), render(), parse(), Button()"), "{shown}");
    }

    #[test]
    fn each_entry_point_is_noted_once() {
        // Concatenated scripts: two guards are one note (was one note per guard).
        let twice = "def main():\n    pass\n\nif __name__ == \"__main__\":\n    main()\n";
        assert!(of(&twice.repeat(2)).contains("entry (1): __main__ guard\n") || of(&twice.repeat(2)).ends_with("entry (1): __main__ guard"));
    }

    #[test]
    fn the_language_is_voted_by_line_starts() {
        // Ruby writes `def` as Python does; its `end` lines decide.
        assert!(of("def a\n  1\nend\n\ndef b\n  2\nend\n").contains("Ruby source"));
        assert!(of("def a():\n    return 1\n").contains("Python source"));
        assert!(of("import x from 'y';\nfunction go() {}\n").contains("JavaScript source"));
    }
}
