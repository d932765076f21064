//! Import lines of each language read into a package name and where it comes from.

use super::*;

/// `text.starts_with(prefix)` for the short prefixes of the tables here, compared in place: the
/// call of `memcmp` a slice comparison makes (a byte loop of its own in wasm) cost more than the
/// few bytes it compares, on every line that may declare something.
#[inline]
pub(super) fn starts_with_bytes(text: &[u8], prefix: &[u8]) -> bool {
    text.len() >= prefix.len() && text.iter().zip(prefix).all(|(a, b)| a == b)
}

/// The text between the first pair of quotes on `line`.
pub(super) fn quoted(line: &str) -> Option<&str> {
    let start = line.find(['"', '\''])?;
    let rest = &line[start + 1..];
    Some(&rest[..rest.find(['"', '\''])?])
}

/// A path segment that is a major version (`v5`), which names no package.
pub(super) fn is_version(segment: &str) -> bool {
    segment.len() > 1
        && segment.starts_with('v')
        && segment[1..].bytes().all(|b| b.is_ascii_digit())
}

/// A Go import path's package: the last two segments of its path without the host and major
/// versions (`github.com/go-chi/chi/v5` is `go-chi/chi`, `github.com/jackc/pgx/v5/pgxpool` is
/// `pgx/pgxpool`: a file refers to a package by its last segment), the standard library as it
/// is (`net/http`).
pub(super) fn go_package(path: &str) -> (String, Origin) {
    let segments: Vec<&str> = path
        .split('/')
        .filter(|s| !s.is_empty() && !is_version(s))
        .collect();
    match segments.first() {
        Some(host) if host.contains('.') => {
            let name = segments[segments.len().saturating_sub(2).max(1)..].join("/");
            (
                if name.is_empty() {
                    path.to_string()
                } else {
                    name
                },
                Origin::Package,
            )
        }
        _ => (path.to_string(), Origin::Standard),
    }
}

/// A JavaScript module specifier's package: `@scope/name`, `name` (without its subpath), a
/// Node built-in, or a relative path.
pub(super) fn js_package(specifier: &str) -> (String, Origin) {
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
    let origin = if NODE_BUILTINS.contains(&name.as_str()) {
        Origin::Standard
    } else {
        Origin::Package
    };
    (name, origin)
}

/// A dotted import's package (`org.springframework.web.bind.annotation.GetMapping` is
/// `org.springframework.web`): without the member it imports (the last segment), its lower-case
/// segments, at most `depth`.
pub(super) fn dotted_package(path: &str, depth: usize) -> String {
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
pub(super) fn import_of(line: &str, language: Option<usize>) -> Option<(String, Origin)> {
    let line = line.trim_end_matches(';');
    let after = |prefixes: &[&str]| {
        prefixes
            .iter()
            .find_map(|p| line.strip_prefix(p))
            .map(str::trim_start)
    };
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
                return Some((
                    module.split(' ').next().unwrap_or(module).to_string(),
                    Origin::Local,
                ));
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
            let origin = if ["java.", "javax.", "jdk.", "kotlin.", "android."]
                .iter()
                .any(|p| path.starts_with(p))
            {
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
            Some((
                path.split('.').take(3).collect::<Vec<_>>().join("."),
                origin,
            ))
        }
        Some(RUBY) => {
            if line.starts_with("require_relative") {
                return quoted(line).map(|path| (path.to_string(), Origin::Local));
            }
            let path = quoted(after(&["require "])?)?;
            let name = path.split('/').next().unwrap_or(path);
            // A standard library is named by the feature required (`net/http`), a gem by its name.
            if RUBY_STD.contains(&name) {
                Some((path.to_string(), Origin::Standard))
            } else {
                Some((name.to_string(), Origin::Package))
            }
        }
        Some(PHP) => {
            // `use App\Models\User;`, `use function App\helpers\fmt;`: the name imported.
            let name = after(&["use function ", "use const ", "use "])?;
            let name = name.split([' ', '{']).next().unwrap_or(name);
            let name = name.trim_end_matches('\\').trim_start_matches('\\');
            (!name.is_empty()).then(|| (name.to_string(), Origin::Package))
        }
        Some(C | CPP) => {
            // `#include <stdio.h>` (a system or library header), `#include "ring.h"` (the project's).
            let header = after(&["#include"])?;
            if let Some(system) = header.strip_prefix('<') {
                let name = &system[..system.find('>')?];
                let origin = if name.contains('/') {
                    Origin::Package
                } else {
                    Origin::Standard
                };
                return Some((name.to_string(), origin));
            }
            quoted(header).map(|path| (path.to_string(), Origin::Local))
        }
        Some(SHELL) => {
            // `source "$(dirname "$0")/lib/common.sh"`, `. ./env.sh`: the script's path.
            let path = after(&["source ", ". "])?.trim_matches(['"', '\'']);
            let path = path
                .rfind([')', '}'])
                .map_or(path, |at| path[at + 1..].trim_start_matches('/'));
            let path = path.split(' ').next().unwrap_or(path);
            (!path.is_empty()).then(|| (path.to_string(), Origin::Local))
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

/// Line starts (trimmed, at the file's top level) of an import.
pub(super) const IMPORT_STARTS: [&str; 14] = [
    "import ",
    "from ",
    "use ",
    "pub use ",
    "pub(crate) use ",
    "extern crate ",
    "using ",
    "global using ",
    "require ",
    "require_relative ",
    "} from ",
    "#include ",
    "source ",
    ". ",
];
/// Line starts of a binding that imports when it calls `require(`.
pub(super) const BINDING_STARTS: [&str; 3] = ["const ", "var ", "let "];

pub(super) const IMPORTS: Starts = Starts::new(&IMPORT_STARTS);
pub(super) const BINDINGS: Starts = Starts::new(&BINDING_STARTS);

/// Whether `line` (trimmed, at the file's top level) imports something.
pub(super) fn is_import_line(line: &str) -> bool {
    IMPORTS.find(line).is_some() || BINDINGS.find(line).is_some() && line.contains("require(")
}

/// `line.strip_prefix(prefix)`, comparing the first byte before the rest: the tables of line
/// starts are tried on every line that may declare something, and most fail on the first byte.
pub(super) fn strip<'l>(line: &'l str, prefix: &str) -> Option<&'l str> {
    if line.as_bytes().first() != prefix.as_bytes().first() {
        return None;
    }
    line.strip_prefix(prefix)
}

/// Entry points noted by their line start (trimmed).
pub(super) const NOTES: [(&str, &str); 2] = [
    ("if __name__", "__main__ guard"),
    ("#[cfg(test)]", "test module (#[cfg(test)])"),
];
pub(super) const NOTE_STARTS: Starts = Starts::new(&[NOTES[0].0, NOTES[1].0]);
