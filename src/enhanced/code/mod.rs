//! Source code: its language (from line starts only one language writes), what it imports (the
//! external packages first, by their package name: `go-chi/chi`, `zod`, `@tanstack/query`,
//! `sqlalchemy`, `org.springframework.web`; the standard library counted) and what it defines
//! (one list, most telling first: interfaces, traits, enums and classes, then functions, structs
//! and records in the file's order, then the methods of each class, then type aliases, modules
//! and namespaces, then methods outside a class), and how many tests it holds (by its test framework's marks).
//! Line-based like the reference's `code` kind: no parsing.

use super::document::{joined_of, joined_within};
use super::Input;
use crate::kinds::Synopsis;
use crate::priority_bound::line_priority;
use crate::python::{char_len, is_py_word, py_splitlines};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use crate::fx_hasher::FxHasher;

mod imports;
mod std_names;
use imports::*;
use std_names::*;

/// Methods of a class named in the list of definitions (public ones first).
const SHOWN_METHODS: usize = 4;

const LANGUAGES: usize = 14;
const LANGUAGE_NAMES: [&str; LANGUAGES] = [
    "Go",
    "Rust",
    "Python",
    "TypeScript",
    "JavaScript",
    "Java",
    "Kotlin",
    "C#",
    "Ruby",
    "PHP",
    "C",
    "C++",
    "Swift",
    "Shell",
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
const PHP: usize = 9;
const C: usize = 10;
const CPP: usize = 11;
const SWIFT: usize = 12;
const SHELL: usize = 13;

/// Line starts (after indentation) that only one language writes, with its index. (`end` alone
/// on a line is Ruby's; `def` is Python's unless the file votes Ruby; `#include` is C's unless
/// the file has namespaces.)
const LANGUAGE_MARKS: [(&str, usize); 31] = [
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
    ("<?php", PHP),
    ("#include ", C),
    ("#!/bin/bash", SHELL),
    ("#!/usr/bin/env bash", SHELL),
];

/// Declaration keywords (after modifiers): the rank of what they declare (lower is shown first)
/// and the word the list prints before the name ("" for functions, which print as `name()`).
/// Those with a word other than `type`/`mod` hold members (`class X` then its methods).
const DECLARATIONS: [(&str, u8, &str); 17] = [
    ("interface ", 0, "interface"),
    ("trait ", 0, "trait"),
    ("enum ", 0, "enum"),
    ("class ", 0, "class"),
    ("module ", 0, "module"),
    ("fn ", 1, ""),
    ("def ", 1, ""),
    ("function ", 1, ""),
    ("func ", 1, ""),
    ("fun ", 1, ""),
    ("struct ", 1, "struct"),
    ("type ", 3, "type"),
    ("record ", 1, "record"),
    ("mod ", 3, "mod"),
    ("object ", 1, "object"),
    ("namespace ", 3, "namespace"),
    ("impl ", 3, "impl"),
];

/// Rank of a class's methods in the list (after functions and structs, before type aliases).
const METHODS_RANK: u8 = 2;

/// The first fields (the line starts) of a table of tuples, as an array for `Starts::new`
/// (const: iterators and closures are not).
macro_rules! first_fields {
    ($table:expr) => {{
        let mut firsts = [""; $table.len()];
        let mut i = 0;
        while i < firsts.len() {
            firsts[i] = $table[i].0;
            i += 1;
        }
        firsts
    }};
}

/// The keywords of `DECLARATIONS`, indexed.
const DECLARATION_KEYWORD_LIST: [&str; DECLARATIONS.len()] = first_fields!(DECLARATIONS);
const DECLARATION_KEYWORDS: Starts = Starts::new(&DECLARATION_KEYWORD_LIST);

/// `MODIFIERS`, indexed.
const MODIFIER_STARTS: Starts = Starts::new(&MODIFIERS);

/// Modifiers before a declaration keyword.
const MODIFIERS: [&str; 27] = [
    "pub(crate) ",
    "pub(super) ",
    "pub ",
    "export default ",
    "export ",
    "async ",
    "public ",
    "private ",
    "protected ",
    "internal ",
    "static ",
    "abstract ",
    "declare ",
    "final ",
    "unsafe ",
    "override ",
    "virtual ",
    "sealed ",
    "partial ",
    "readonly ",
    "suspend ",
    "open ",
    "data ",
    "inline ",
    "const ",
    "extern ",
    "default ",
];

/// Where an import comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
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
    let ascii = ascii_word_len(text.as_bytes());
    let end = match text.as_bytes().get(ascii) {
        // A non-ASCII char may go on with the word.
        Some(byte) if !byte.is_ascii() => text[ascii..]
            .find(|c: char| !is_py_word(c))
            .map_or(text.len(), |end| ascii + end),
        _ => ascii,
    };
    &text[..end]
}

/// The length of the run of ASCII word bytes (`[A-Za-z0-9_]`, Python's `\w` in ASCII) at the
/// start of `bytes`.
const fn ascii_word_len(bytes: &[u8]) -> usize {
    let mut len = 0;
    while len < bytes.len() && ASCII_WORD_BYTES[bytes[len] as usize] {
        len += 1;
    }
    len
}

/// `[A-Za-z0-9_]`.
const ASCII_WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = (byte as u8).is_ascii_alphanumeric() || byte == b'_' as usize;
        byte += 1;
    }
    table
};

/// A table of line starts, indexed for the lookups made on every line that may declare
/// something: the starts that begin with each byte (bit `i` for start `i`), and the length of
/// each start's first word, which a line that begins with it has too (at least, when the start
/// is one word).
struct Starts {
    starts: &'static [&'static str],
    by_first_byte: [u32; 256],
    word_len: [usize; 32],
    /// Whether the start's first word ends inside it (the line's is then exactly as long).
    word_ends: [bool; 32],
}

impl Starts {
    const fn new(starts: &'static [&'static str]) -> Self {
        assert!(starts.len() <= 32, "a start is a bit of a u32");
        let mut by_first_byte = [0u32; 256];
        let mut word_len = [0usize; 32];
        let mut word_ends = [false; 32];
        let mut i = 0;
        while i < starts.len() {
            let bytes = starts[i].as_bytes();
            by_first_byte[bytes[0] as usize] |= 1 << i;
            word_len[i] = ascii_word_len(bytes);
            word_ends[i] = word_len[i] < bytes.len();
            i += 1;
        }
        Starts {
            starts,
            by_first_byte,
            word_len,
            word_ends,
        }
    }

    /// The first start (in the table's order) that `line` begins with.
    fn find(&self, line: &str) -> Option<usize> {
        self.find_from(line, None)
    }

    /// `find`, given the length of `line`'s first ASCII word if known.
    fn find_from(&self, line: &str, word: Option<usize>) -> Option<usize> {
        let mut found = None;
        self.each_until(line, word, |i| {
            found = Some(i);
            true
        });
        found
    }

    /// Calls `visit` with each start `line` begins with, in order, until it says it is done.
    /// `word`: the length of `line`'s first ASCII word if known.
    #[inline]
    fn each_until(&self, line: &str, word: Option<usize>, mut visit: impl FnMut(usize) -> bool) {
        let bytes = line.as_bytes();
        let Some(&first) = bytes.first() else {
            return;
        };
        let mut candidates = self.by_first_byte[usize::from(first)];
        if candidates == 0 {
            return;
        }
        let word = word.unwrap_or_else(|| ascii_word_len(bytes));
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let fits = if self.word_ends[i] {
                word == self.word_len[i]
            } else {
                word >= self.word_len[i]
            };
            if fits && starts_with_bytes(bytes, self.starts[i].as_bytes()) && visit(i) {
                return;
            }
        }
    }

    /// `line` past the first start it begins with, and that start's index. `word`: the length of
    /// `line`'s first ASCII word if known.
    fn strip<'l>(&self, line: &'l str, word: Option<usize>) -> Option<(usize, &'l str)> {
        self.find_from(line, word)
            .map(|i| (i, &line[self.starts[i].len()..]))
    }
}

/// A declaration on a line.
struct Declaration<'a> {
    /// 0 abstractions, 1 functions, structs and records, 3 type aliases and modules, 4 public
    /// methods, 5 other methods (outside a class).
    rank: u8,
    /// The word printed before the name (`class`, `struct`; "" for functions).
    word: &'static str,
    name: &'a str,
    /// A function or method indented under something (a member when under a class).
    member: bool,
    public: bool,
}

impl Declaration<'_> {
    /// Whether it holds members (methods) listed with it.
    fn holds_members(&self) -> bool {
        matches!(
            self.word,
            "class" | "interface" | "trait" | "enum" | "struct" | "object" | "record" | "module"
        )
    }
}

/// The name a Rust `impl` line gives its methods to: `impl<T> Name<T> {` is `Name`; a trait's
/// impl (`impl Display for Name`) gives `None` (its methods are the trait's).
fn impl_target(line: &str) -> Option<Option<&str>> {
    let mut rest = strip(line, "impl")?;
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
    Some((!name.is_empty() && ident(name) == name).then_some(name))
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

/// A declaration on a line: `line` is its text from its first non-space char (its first ASCII
/// word `word` bytes long), `indented` whether it starts with a space or tab. `in_class`: the
/// line is in the body of a class of a language whose methods start with their return type
/// (Java, C#).
fn declaration(
    mut line: &str,
    word: usize,
    indented: bool,
    rust: bool,
    in_class: bool,
    language: Option<usize>,
) -> Option<Declaration<'_>> {
    // Every declaration starts with a word (most lines that do not are rejected here).
    if !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        return None;
    }
    let mut public = !rust || line.starts_with("pub");
    // (The first word's length is known until a modifier is stripped.)
    let mut first_word = Some(word);
    while let Some((modifier, rest)) = MODIFIER_STARTS.strip(line, first_word) {
        public &= !matches!(MODIFIERS[modifier], "private " | "protected " | "internal ");
        line = rest;
        first_word = None;
    }
    if let Some((declared, mut rest)) = DECLARATION_KEYWORDS.strip(line, first_word) {
        let (keyword, rank, word) = DECLARATIONS[declared];
        // Go methods: `func (s *Server) Name(`; Ruby's `def self.name`.
        if keyword == "func " && rest.starts_with('(') {
            rest = rest
                .split_once(')')
                .map_or(rest, |(_, after)| after.trim_start());
        }
        rest = rest.strip_prefix("self.").unwrap_or(rest);
        let name = ident(rest);
        if name.is_empty() || name.starts_with("__") {
            return None;
        }
        public &= !name.starts_with('_');
        // Go's `type Name struct` / `type Name interface`.
        let go_type = || rest[name.len()..].trim_start().split(' ').next();
        let word = match keyword {
            "type " if go_type() == Some("struct") => "struct",
            "type " if go_type() == Some("interface") => "interface",
            _ => word,
        };
        let member = rank == 1 && word.is_empty() && indented;
        let rank = match rank {
            1 if member => 5 - u8::from(public),
            3 if word == "interface" => 0,
            rank => rank,
        };
        return Some(Declaration {
            rank,
            word,
            name,
            member,
            public,
        });
    }
    // C and C++ functions start with their return type (`int64_t sum(const int64_t *v) {`); a
    // shell function is `name() {`.
    if !indented && matches!(language, Some(C | CPP)) {
        let name = typed_method(line)?;
        return Some(Declaration {
            rank: 1,
            word: "",
            name,
            member: false,
            public,
        });
    }
    if !indented && language == Some(SHELL) {
        let name = ident(line);
        let rest = line[name.len()..].trim_start();
        return (!name.is_empty() && rest.starts_with("()")).then_some(Declaration {
            rank: 1,
            word: "",
            name,
            member: false,
            public,
        });
    }
    // A function held by a top-level binding: `export const handler = async (event) => {`,
    // `const render = function (`, `let parse = input =>`.
    if !indented {
        if let Some(name) = bound_function(line) {
            public &= !name.starts_with('_');
            return Some(Declaration {
                rank: 1,
                word: "",
                name,
                member: false,
                public,
            });
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
        && line.trim_end().ends_with('{')
        && !NOT_METHODS.contains(&name);
    let name = if untyped {
        name
    } else if indented && in_class {
        typed_method(line)?
    } else {
        return None;
    };
    let public = public && !name.starts_with('_');
    Some(Declaration {
        rank: 5 - u8::from(public),
        word: "",
        name,
        member: true,
        public,
    })
}

/// The name a JavaScript binding (`line` past `export`/`const`, or `let`/`var`) gives a function:
/// `name = (...) =>`, `name = async (`, `name = function`, `name = arg =>`, a type annotation
/// (`name: Handler = (`) allowed.
fn bound_function(line: &str) -> Option<&str> {
    let line = ["let ", "var "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .unwrap_or(line);
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
    (value.starts_with('(') && line.contains("=>")
        || value.starts_with("function")
        || arrow_after_argument())
    .then_some(name)
}

/// A class (or struct, trait, impl target) whose body holds the methods that follow.
struct Holder<'a> {
    /// Its slot in `groups`; `None` for a trait's impl, whose methods are not listed.
    group: Option<usize>,
    indent: usize,
    /// The indentation of its methods (the first one's): deeper functions are nested helpers.
    member_indent: Option<usize>,
    /// Its name (a method of the same name is a constructor).
    name: &'a str,
}

impl Holder<'_> {
    /// Whether `line` (trimmed, `indent` deep) ends the body: a line back at (or left of) the
    /// holder's indentation (brackets, decorators, comments and Ruby's `end` do not).
    fn ends_at(&self, line: &str, indent: usize) -> bool {
        indent <= self.indent
            && !line.starts_with(['{', '}', ')', ']', '@', '#', '/', '*', '"', '\''])
            && line != "end"
    }
}

/// The methods of a class: the first ones of each visibility (public ones are shown first) and
/// how many distinct ones in all.
#[derive(Default)]
struct Methods<'a> {
    public: Vec<&'a str>,
    other: Vec<&'a str>,
    count: usize,
}

impl<'a> Methods<'a> {
    /// A method not seen before in the class.
    fn add(&mut self, name: &'a str, public: bool) {
        let list = if public {
            &mut self.public
        } else {
            &mut self.other
        };
        if list.len() < SHOWN_METHODS {
            list.push(name);
        }
        self.count += 1;
    }

    /// `{a, b, c, d, +5}`.
    fn shown(&self) -> String {
        let mut names: Vec<&str> = self
            .public
            .iter()
            .chain(&self.other)
            .take(SHOWN_METHODS)
            .copied()
            .collect();
        let more = self.count.saturating_sub(SHOWN_METHODS);
        let more_text = format!("+{more}");
        if more > 0 {
            names.push(&more_text);
        }
        format!("{{{}}}", names.join(", "))
    }
}

/// An entry of the list of definitions, kept as its parts: a long file defines tens of
/// thousands, and the stub shows the first few.
struct Definition<'a> {
    rank: u8,
    /// `class`, `struct`, ...; "" for a function (`name()`) and for the methods of a class not
    /// declared in the file (`Name.{a, b}`).
    word: &'static str,
    name: &'a str,
    /// The slot in `groups` of the methods shown with it.
    methods: Option<usize>,
}

impl Definition<'_> {
    /// How the list prints it: `class Name`, `name()`, `class Name{a, b}`, `Name.{a, b}`; without
    /// methods after an entry of the same word, without it (`struct A, B`).
    fn shown(&self, groups: &[(&str, Methods<'_>)], previous_word: &str) -> String {
        let methods = self
            .methods
            .and_then(|slot| groups.get(slot))
            .map(|(_, methods)| methods.shown());
        match (self.word, methods) {
            (word, None) if !word.is_empty() && word == previous_word => self.name.to_string(),
            ("", Some(methods)) => format!("{}.{methods}", self.name),
            ("", None) => format!("{}()", self.name),
            (word, methods) => format!("{word} {}{}", self.name, methods.unwrap_or_default()),
        }
    }
}

/// `LANGUAGE_MARKS`, indexed.
const MARK_LIST: [&str; LANGUAGE_MARKS.len()] = first_fields!(LANGUAGE_MARKS);
const MARKS: Starts = Starts::new(&MARK_LIST);

/// Counts the votes of `line` (trimmed; `word` the length of its first ASCII word if known) in
/// `votes`.
#[inline]
fn vote(line: &str, word: Option<usize>, votes: &mut [usize; LANGUAGES]) {
    MARKS.each_until(line, word, |i| {
        let (mark, language) = LANGUAGE_MARKS[i];
        // `end` only counts alone on its line; the others as line starts.
        if mark != "end" || line == "end" {
            votes[language] += 1;
        }
        false
    });
}

/// The language most line starts vote for.
fn decide(mut votes: [usize; LANGUAGES]) -> Option<usize> {
    // Ruby writes `def` too: its `end` lines decide against Python.
    if votes[RUBY] > 0 && votes[RUBY] >= votes[PYTHON] {
        votes[PYTHON] = 0;
    }
    // C++ includes headers too; its namespaces are what C lacks.
    if votes[C] > 0 && votes[CSHARP] > 0 {
        votes[CPP] += votes[C] + votes[CSHARP];
    }
    (0..LANGUAGES)
        .max_by_key(|&i| (votes[i], LANGUAGES - i))
        .filter(|&i| votes[i] > 0)
}

/// The language the line starts of `text` vote for.
fn language_of(text: &str) -> Option<usize> {
    let mut votes = [0; LANGUAGES];
    for raw in py_splitlines(text) {
        vote(raw.trim(), None, &mut votes);
    }
    decide(votes)
}

/// Bytes at the start of an output whose vote is the language the one pass reads it for (the
/// whole output's vote, counted by that pass, decides; a file whose start votes otherwise is
/// read again).
const GUESS_BYTES: usize = 64 * 1024;

/// The first `GUESS_BYTES` of `output` (at most; cut at a char boundary).
fn head(output: &str) -> &str {
    let mut end = output.len().min(GUESS_BYTES);
    while !output.is_char_boundary(end) {
        end -= 1;
    }
    &output[..end]
}

/// First words of the lines a rule of `scan` may take, other than the end of a class body:
/// imports, the package, entry points, `impl`, modifiers and declaration keywords (a test checks
/// that every entry of the rules' tables starts with one).
const RULE_WORDS: [&str; 53] = [
    "abstract",
    "async",
    "class",
    "const",
    "data",
    "declare",
    "def",
    "default",
    "enum",
    "export",
    "extern",
    "final",
    "fn",
    "from",
    "fun",
    "func",
    "function",
    "global",
    "if",
    "impl",
    "import",
    "inline",
    "interface",
    "internal",
    "let",
    "mod",
    "module",
    "namespace",
    "object",
    "open",
    "override",
    "package",
    "partial",
    "private",
    "protected",
    "pub",
    "public",
    "readonly",
    "record",
    "require",
    "require_relative",
    "sealed",
    "source",
    "static",
    "struct",
    "suspend",
    "trait",
    "type",
    "unsafe",
    "use",
    "using",
    "var",
    "virtual",
];

/// By first byte, the `RULE_WORDS` that start with it (bit `i` for word `i`).
const RULE_WORDS_BY_FIRST_BYTE: [u64; 256] = {
    assert!(RULE_WORDS.len() <= 64, "a word is a bit of a u64");
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < RULE_WORDS.len() {
        table[RULE_WORDS[i].as_bytes()[0] as usize] |= 1 << i;
        i += 1;
    }
    table
};

fn is_rule_word(word: &str) -> bool {
    let Some(&first) = word.as_bytes().first() else {
        return false;
    };
    let mut candidates = RULE_WORDS_BY_FIRST_BYTE[usize::from(first)];
    while candidates != 0 {
        let candidate = RULE_WORDS[candidates.trailing_zeros() as usize];
        if candidate.len() == word.len() && starts_with_bytes(word.as_bytes(), candidate.as_bytes())
        {
            return true;
        }
        candidates &= candidates - 1;
    }
    false
}

/// `raw.trim()` and `indentation(raw)`, by bytes when the line's ends are ASCII (most lines).
fn trimmed(raw: &str) -> (&str, usize) {
    let is_space = |byte: &u8| matches!(byte, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r');
    let indent = raw
        .bytes()
        .position(|byte| byte != b' ' && byte != b'\t')
        .unwrap_or(raw.len());
    let rest = &raw[indent..];
    match (rest.as_bytes().first(), rest.as_bytes().last()) {
        (Some(first), Some(last))
            if first.is_ascii() && last.is_ascii() && !is_space(first) && !is_space(last) =>
        {
            (rest, indent)
        }
        _ => (raw.trim(), indent),
    }
}

/// Whether a rule of `scan` other than the end of a class body may take `line` (trimmed,
/// `indent` deep; not in a Go import block), judged from its first word: a rule word, any line
/// at the top level (a binding may hold a function), a call-like line ending in `{` (a method),
/// and in a Java or C# class body any line with a `(` (a method with its return type first).
/// Lines that start with neither a letter nor `_` are only read for attributes (`#[cfg(test)]`),
/// `#include`, a shell's `. file` and a top-level `}` (`} from`, the end of a C `typedef`). A filter, not a rule: `scan` without it gives the same synopsis (tested).
#[inline]
fn worth_reading(line: &str, word_end: usize, indent: usize, in_typed_class: bool) -> bool {
    let bytes = line.as_bytes();
    let Some(&first) = bytes.first() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return first == b'#' && matches!(bytes.get(1), Some(b'[' | b'i'))
            || first == b'.' && bytes.get(1) == Some(&b' ')
            || first == b'}' && indent == 0;
    }
    let next = bytes.get(word_end).copied();
    // (A word going on in non-ASCII letters is read in full.)
    if indent == 0 || next.is_some_and(|b| !b.is_ascii()) || is_rule_word(&line[..word_end]) {
        return true;
    }
    if in_typed_class {
        return line.contains('(');
    }
    matches!(next, Some(b'(' | b'<')) && line.ends_with('{')
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;
type FxSet<K> = HashSet<K, BuildHasherDefault<FxHasher>>;

/// What one pass over the lines finds.
#[derive(Default)]
struct Scan<'a> {
    lines: usize,
    /// The votes of the line starts for each language (whatever language the pass read for).
    votes: [usize; LANGUAGES],
    /// The distinct imports, in order.
    imports: Vec<(String, Origin)>,
    /// Every declaration, repeated ones too (told apart after the pass: a lookup per
    /// declaration in the pass, between the reads of the lines, was most of its time).
    declarations: Vec<Definition<'a>>,
    /// The methods of each class, by class name.
    groups: Vec<(&'a str, Methods<'a>)>,
    package: &'a str,
    notes: Vec<&'static str>,
    /// Test functions, by their language's mark (`#[test]`, `@Test`, `it(`, `def test_`).
    tests: usize,
    // Lookups per line, so that a long file is not quadratic:
    /// the imports in `imports`,
    seen_imports: FxSet<(String, Origin)>,
    /// the slot of each class in `groups`,
    slots: FxMap<&'a str, usize>,
    /// the methods in `groups` (slot, public, name).
    seen_methods: FxSet<(usize, bool, &'a str)>,
}

impl<'a> Scan<'a> {
    fn add_import(&mut self, import: (String, Origin)) {
        if !self.seen_imports.contains(&import) {
            self.seen_imports.insert(import.clone());
            self.imports.push(import);
        }
    }

    /// The slot of `class`'s methods in `groups` (made when new).
    fn group_slot(&mut self, class: &'a str) -> usize {
        *self.slots.entry(class).or_insert_with(|| {
            self.groups.push((class, Methods::default()));
            self.groups.len() - 1
        })
    }

    fn add_method(&mut self, slot: usize, name: &'a str, public: bool) {
        if self.seen_methods.insert((slot, public, name)) {
            self.groups[slot].1.add(name, public);
        }
    }

    /// A C `typedef`'s name, listed with the data types.
    fn add_typedef(&mut self, name: &'a str) {
        if !name.is_empty() {
            self.declarations.push(Definition {
                rank: 1,
                word: "type",
                name,
                methods: None,
            });
        }
    }

    fn add_definition(&mut self, declared: Declaration<'a>) {
        let Declaration {
            rank, word, name, ..
        } = declared;
        self.declarations.push(Definition {
            rank,
            word,
            name,
            methods: None,
        });
    }
}

/// Where each distinct definition (word and name) is in the list of definitions: its hash and
/// place, sorted, so that a lookup is a binary search (definitions of one hash, rare, are in the
/// order of their text).
struct Defined {
    /// `hash << 32 | index` of each distinct definition, in order of hash, then of text.
    keys: Vec<u64>,
}

impl Defined {
    /// The distinct definitions of `all` (by word and name: the first of each, in order), and
    /// where each is among them. Sorting the hashes and comparing texts only where hashes are
    /// equal is cheaper than a map of tens of thousands of entries.
    fn distinct<'a>(all: Vec<Definition<'a>>) -> (Vec<Definition<'a>>, Self) {
        // (Places are kept in 32 bits: every definition takes a line of the output, so a 32-bit
        // target never has more; elsewhere the list stops there.)
        let mut all = all;
        all.truncate(u32::MAX as usize);
        Self::distinct_by(all, Self::hash)
    }

    /// `distinct`, with `hash` (a test forces collisions with a tiny one).
    fn distinct_by<'a>(
        all: Vec<Definition<'a>>,
        hash: fn(&str, &str) -> u32,
    ) -> (Vec<Definition<'a>>, Self) {
        let mut keys: Vec<u64> = all
            .iter()
            .enumerate()
            .map(|(index, d)| (u64::from(hash(d.word, d.name)) << 32) | index as u64 & 0xFFFF_FFFF)
            .collect();
        // (Ties of hash in the order of the definitions: the first of a run is the earliest.)
        sort_by_high_half(&mut keys);
        let text = |key: u64| {
            let d = &all[(key & 0xFFFF_FFFF) as usize];
            (d.word, d.name)
        };
        let mut first = vec![false; all.len()];
        let mut distinct = 0;
        let mut start = 0;
        while start < keys.len() {
            let run_hash = keys[start] >> 32;
            let mut end = start + 1;
            while end < keys.len() && keys[end] >> 32 == run_hash {
                end += 1;
            }
            let run = &mut keys[start..end];
            if run.len() == 1 || run[1..].iter().all(|&key| text(key) == text(run[0])) {
                first[(run[0] & 0xFFFF_FFFF) as usize] = true;
                distinct += 1;
            } else {
                // Different definitions of one hash: by text, then in order.
                run.sort_unstable_by(|&a, &b| text(a).cmp(&text(b)).then(a.cmp(&b)));
                let mut previous = None;
                for &key in run.iter() {
                    if previous != Some(text(key)) {
                        first[(key & 0xFFFF_FFFF) as usize] = true;
                        distinct += 1;
                        previous = Some(text(key));
                    }
                }
            }
            start = end;
        }
        if distinct == all.len() {
            // (No repeated definition, most often: every one keeps its place.)
            return (all, Defined { keys });
        }
        // Where each first one lands among the kept ones (kept in place: no second list).
        let mut kept_at = vec![0u32; all.len()];
        let mut next = 0;
        for (at, &is_first) in kept_at.iter_mut().zip(&first) {
            *at = next;
            next += u32::from(is_first);
        }
        let mut kept = all;
        let mut index = 0;
        kept.retain(|_| {
            index += 1;
            first[index - 1]
        });
        keys.retain(|&key| first[(key & 0xFFFF_FFFF) as usize]);
        for key in &mut keys {
            *key = (*key & !0xFFFF_FFFF) | u64::from(kept_at[(*key & 0xFFFF_FFFF) as usize]);
        }
        (kept, Defined { keys })
    }

    fn hash(word: &str, name: &str) -> u32 {
        let mut hasher = FxHasher::default();
        hasher.write(word.as_bytes());
        hasher.write_u8(b' ');
        hasher.write(name.as_bytes());
        (hasher.finish() >> 32) as u32
    }

    /// Where `word` `name` is in `defines` (the kept definitions `distinct` gave).
    fn get(&self, word: &str, name: &str, defines: &[Definition<'_>]) -> Option<usize> {
        self.get_by(word, name, defines, Self::hash)
    }

    fn get_by(
        &self,
        word: &str,
        name: &str,
        defines: &[Definition<'_>],
        hash: fn(&str, &str) -> u32,
    ) -> Option<usize> {
        let wanted = u64::from(hash(word, name));
        let start = self.keys.partition_point(|&key| key >> 32 < wanted);
        let end = self.keys.partition_point(|&key| key >> 32 <= wanted);
        let run = &self.keys[start..end];
        let text = |key: u64| {
            let d = &defines[(key & 0xFFFF_FFFF) as usize];
            (d.word, d.name)
        };
        let at = run
            .binary_search_by(|&key| text(key).cmp(&(word, name)))
            .ok()?;
        Some((run[at] & 0xFFFF_FFFF) as usize)
    }
}

/// `keys` sorted by their high 32 bits, keys of equal high halves kept in their order: a radix
/// sort, three passes of 11 bits (a comparison sort of tens of thousands of keys was most of the
/// time spent telling definitions apart).
fn sort_by_high_half(keys: &mut Vec<u64>) {
    const DIGIT_BITS: u32 = 11;
    const DIGITS: usize = 1 << DIGIT_BITS;
    let digit = |key: u64, pass: u32| ((key >> (32 + pass * DIGIT_BITS)) as usize) & (DIGITS - 1);
    let mut sorted = vec![0u64; keys.len()];
    for pass in 0..3 {
        // Where each digit's keys start in `sorted`, then each key to its place, in order.
        let mut starts = [0usize; DIGITS];
        for &key in keys.iter() {
            starts[digit(key, pass)] += 1;
        }
        let mut start = 0;
        for count in starts.iter_mut() {
            (*count, start) = (start, start + *count);
        }
        for &key in keys.iter() {
            let place = &mut starts[digit(key, pass)];
            sorted[*place] = key;
            *place += 1;
        }
        std::mem::swap(keys, &mut sorted);
    }
}

/// Reads every line of `output` as code of `language`: its imports, package, entry points,
/// definitions and the methods of its classes, and every line's language vote. With `skim`,
/// a line `worth_reading` turns down (most of a file: statements, comments, strings) is read
/// only as far as it may end a class body.
fn scan(output: &str, language: Option<usize>, skim: bool) -> Scan<'_> {
    let rust = language == Some(RUST);
    let typed_methods = matches!(language, Some(JAVA | CSHARP));
    let mut found = Scan::default();
    let mut holder: Option<Holder> = None;
    let mut in_import_block = false;
    let mut in_typedef = false;
    for raw in py_splitlines(output) {
        found.lines += 1;
        let (line, indent) = trimmed(raw);
        if line.is_empty() {
            continue;
        }
        // (The length of its first word, read by both.)
        let word = ascii_word_len(line.as_bytes());
        vote(line, Some(word), &mut found.votes);
        if is_test_mark(line) {
            found.tests += 1;
        }
        if skim
            && !in_import_block
            && !worth_reading(line, word, indent, typed_methods && holder.is_some())
        {
            if holder.as_ref().is_some_and(|h| h.ends_at(line, indent)) {
                holder = None;
            }
            continue;
        }
        if in_import_block || line == "import (" {
            in_import_block = line != ")";
            if let Some(import) = import_of(line, language).filter(|_| line != "import (") {
                found.add_import(import);
            }
            continue;
        }
        if let Some(rest) = strip(line, "package ") {
            found.package = ident(rest);
            if found.package.is_empty() || rest.contains('.') {
                // Java's `package com.acme.orders;`
                found.package = rest.trim_end_matches(';').trim();
            }
            continue;
        }
        if indent == 0 && is_import_line(line) {
            if let Some(import) = import_of(line, language) {
                found.add_import(import);
            }
            continue;
        }
        // C++, C# and PHP name their package with `namespace` (`acme::ledger`, `App\Refunds`).
        if matches!(language, Some(CPP | CSHARP | PHP)) && found.package.is_empty() {
            if let Some(rest) = strip(line, "namespace ") {
                found.package = rest.trim_end_matches([';', '{', ' ']).trim();
                continue;
            }
        }
        // A C type: `typedef struct tag {` ... `} name_t;`, or `typedef struct tag name_t;`.
        if indent == 0 && matches!(language, Some(C | CPP)) {
            if let Some(rest) = strip(line, "typedef ") {
                if line.ends_with(';') {
                    found.add_typedef(typedef_name(rest));
                } else {
                    in_typedef = true;
                }
                continue;
            }
            if in_typedef && line.starts_with('}') {
                in_typedef = false;
                found.add_typedef(typedef_name(&line[1..]));
                continue;
            }
        }
        if holder.as_ref().is_some_and(|h| h.ends_at(line, indent)) {
            holder = None;
        }
        if let Some((_, note)) = NOTE_STARTS.find(line).map(|i| NOTES[i]) {
            if !found.notes.contains(&note) {
                found.notes.push(note);
            }
        }
        if rust {
            if let Some(target) = impl_target(line) {
                let group = target.map(|name| found.group_slot(name));
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
        // (`line` from its first char to the end of `raw`.)
        let from_first = &raw[line.as_ptr() as usize - raw.as_ptr() as usize..];
        let Some(declared) = declaration(from_first, word, indent > 0, rust, in_class, language)
        else {
            continue;
        };
        // Test functions are counted, not listed.
        if declared.word.is_empty() && is_test_name(declared.name, language) {
            found.tests += 1;
            continue;
        }
        if declared.member {
            if let Some(h) = holder.as_mut().filter(|h| indent > h.indent) {
                // A class's method (a nested helper, or a constructor, is not listed).
                let constructor = declared.name == h.name || declared.name == "initialize";
                if *h.member_indent.get_or_insert(indent) == indent && !constructor {
                    if let Some(slot) = h.group {
                        found.add_method(slot, declared.name, declared.public);
                    }
                }
                continue;
            }
        }
        if declared.holds_members() && opens_body(from_first) {
            let group = found.group_slot(declared.name);
            holder = Some(Holder {
                group: Some(group),
                indent,
                member_indent: None,
                name: declared.name,
            });
        }
        found.add_definition(declared);
    }
    found
}

/// The name a C `typedef` gives (`rest` past `typedef ` or `}`): the last word before `;`.
fn typedef_name(rest: &str) -> &str {
    let body = rest.trim().trim_end_matches(';').trim_end();
    let body = body.trim_end_matches([')', ' ']);
    let start = body
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |at| at + 1);
    &body[start..]
}

/// Whether a declaration line (from its first char) opens a body the next lines belong to: not
/// when its braces close on the line (`record Order(long id) {}`) or it ends a statement.
fn opens_body(line: &str) -> bool {
    let line = line.trim_end();
    let opens = line.bytes().filter(|&b| b == b'{').count();
    let closes = line.bytes().filter(|&b| b == b'}').count();
    !(line.ends_with(';') || opens > 0 && opens == closes)
}

/// Whether `line` (trimmed) marks a test in its language's test framework: an attribute or
/// annotation (`#[test]`, `#[tokio::test]`, `@Test`, `[Fact]`, `[TestMethod]`) or a spec call
/// (`it("...", ...)`, `it "..." do`, `test("...", ...)`).
fn is_test_mark(line: &str) -> bool {
    match line.as_bytes().first() {
        Some(b'#') => {
            line.starts_with("#[")
                && (line.ends_with("test]") || line.contains("::test]") || line.contains("::test("))
        }
        Some(b'@') => line.starts_with("@Test") || line.starts_with("@ParameterizedTest"),
        Some(b'[') => ["[Fact", "[Theory", "[Test"]
            .iter()
            .any(|mark| line.starts_with(mark)),
        Some(b'i') => ["it(", "it \"", "it '", "it.each"]
            .iter()
            .any(|mark| line.starts_with(mark)),
        Some(b't') => line.starts_with("test(") || line.starts_with("test.each"),
        _ => false,
    }
}

/// Whether a function of `language` is a test by its name: `test_*` in Python and Ruby
/// (pytest, minitest), `TestXxx` in Go, `testXxx` in Swift (XCTest) and PHP (PHPUnit). Languages
/// that mark tests with attributes or calls are counted by `is_test_mark`.
fn is_test_name(name: &str, language: Option<usize>) -> bool {
    let after = |prefix: &str| {
        name.strip_prefix(prefix).is_some_and(|rest| {
            rest.is_empty() || rest.starts_with(|c: char| c == '_' || c.is_ascii_uppercase())
        })
    };
    match language {
        Some(PYTHON | RUBY) => name.starts_with("test_"),
        Some(GO) => after("Test"),
        Some(SWIFT | PHP) => after("test"),
        _ => false,
    }
}

/// The enhanced synopsis of what the reference reads as code.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    let declared = declared_language(input.mime);
    if input.reference_kind != "code" && declared.is_none() {
        return None;
    }
    // The language decides how imports and methods read: one pass reads for the language of the
    // file's start, and a second for the whole file's when it votes otherwise. A MIME type that
    // names a language decides it.
    let guess = match declared {
        Some((_, Some(index))) => Some(index),
        _ => language_of(head(input.output)),
    };
    let mut found = scan(input.output, guess, true);
    let language = match declared {
        Some((_, Some(index))) => Some(index),
        _ => decide(found.votes),
    };
    if language != guess {
        found = scan(input.output, language, true);
    }
    // A MIME type that names a language names it in the stub, read as that language or not.
    let name = declared.map(|(name, _)| name);
    Some(synopsis_of(found, language, name))
}

/// The language a MIME type names (`text/x-csharp`, `application/x-sh`): its name, and its index
/// when this analyzer reads it. `None` for other types.
fn declared_language(mime: &str) -> Option<(&'static str, Option<usize>)> {
    let essence = mime.split(';').next().unwrap_or("").trim();
    let (top, sub) = essence.split_once('/')?;
    if !matches!(top, "text" | "application") {
        return None;
    }
    let language = sub.strip_prefix("x-").unwrap_or(sub);
    let named = match language {
        "go" | "golang" => ("Go", Some(GO)),
        "rust" => ("Rust", Some(RUST)),
        "python" | "script.python" => ("Python", Some(PYTHON)),
        "typescript" | "tsx" => ("TypeScript", Some(TYPESCRIPT)),
        "javascript" | "ecmascript" | "jsx" => ("JavaScript", Some(JAVASCRIPT)),
        "java" => ("Java", Some(JAVA)),
        "kotlin" => ("Kotlin", Some(KOTLIN)),
        "csharp" => ("C#", Some(CSHARP)),
        "ruby" => ("Ruby", Some(RUBY)),
        "c" | "csrc" | "chdr" => ("C", Some(C)),
        "c++" | "c++src" | "c++hdr" | "cpp" => ("C++", Some(CPP)),
        "sh" | "shellscript" | "shellscript-bash" => ("Shell", Some(SHELL)),
        "php" | "httpd-php" => ("PHP", Some(PHP)),
        "swift" => ("Swift", Some(SWIFT)),
        "scala" => ("Scala", None),
        _ => return None,
    };
    Some(named)
}

/// The synopsis of what `scan` found, `language` being what it read for.
fn synopsis_of(found: Scan<'_>, language: Option<usize>, name: Option<&str>) -> Synopsis {
    let Scan {
        lines,
        imports,
        declarations,
        groups,
        package,
        notes,
        tests,
        ..
    } = found;
    let (mut defines, defined) = Defined::distinct(declarations);
    // The file's last definition (in its order), named apart from a long list.
    let last_in_file = defines.len().checked_sub(1);
    // The class with the most methods (the file's main one) shows them in its place; each other
    // class with methods, after the functions.
    let main_class = (0..groups.len())
        .max_by_key(|&slot| (groups[slot].1.count, groups.len() - slot))
        .filter(|&slot| groups[slot].1.count > 0);
    for (slot, (class, methods)) in groups.iter().enumerate() {
        if methods.count == 0 {
            continue;
        }
        // Its first declaration with a word other than `mod` (a function's word is "").
        let declared = DECLARATIONS
            .iter()
            .map(|&(_, _, word)| word)
            .filter(|word| !word.is_empty() && *word != "mod")
            .filter_map(|word| defined.get(word, class, &defines))
            .min();
        if let Some(index) = declared {
            // A data type with methods (a Rust struct and its impl) is a class.
            defines[index].rank = 0;
            if Some(slot) == main_class {
                defines[index].methods = Some(slot);
                continue;
            }
        }
        defines.push(Definition {
            rank: METHODS_RANK,
            word: "",
            name: class,
            methods: Some(slot),
        });
    }
    let mut synopsis = Synopsis::new("code", "Code output");
    let language_name = name.unwrap_or_else(|| language.map_or("Code", |i| LANGUAGE_NAMES[i]));
    let package = if package.is_empty() {
        String::new()
    } else {
        format!(", package {package}")
    };
    synopsis
        .summary
        .push(format!("{language_name} source, {lines} lines{package}."));
    let last = last_in_file
        .filter(|_| defines.len() > LAST_NAMED_OVER)
        .map(|at| defines[at].shown(&groups, ""));
    // (A stable sort: the same rank keeps the file's order.)
    // (Most often in order already: no sort's buffer of tens of thousands of entries then.)
    if !defines.is_sorted_by_key(|definition| definition.rank) {
        defines.sort_by_key(|definition| definition.rank);
    }
    // Only the entries the list can reach are written out; `joined_of` counts the rest.
    let mut names: Vec<String> = Vec::new();
    let mut chars = 0;
    let mut previous_word = "";
    for definition in &defines {
        if chars > DEFINES_WIDTH {
            break;
        }
        let shown = definition.shown(&groups, previous_word);
        previous_word = definition.word;
        chars += char_len(&shown) + 2;
        names.push(shown);
    }
    // The stub's bound keeps the short lines first and gives the list of definitions what is
    // left (`priority_bound`).
    let mut priorities = vec![line_priority::HEADLINE];
    if let Some(line) = imports_line(&imports, language == Some(GO)) {
        synopsis.structure.push(line);
        priorities.push(line_priority::KEY);
    }
    if tests > 0 {
        synopsis.structure.push(format!("tests: {tests}"));
        priorities.push(line_priority::KEY);
    }
    if !names.is_empty() {
        synopsis.structure.push(format!(
            "defines ({}): {}",
            defines.len(),
            joined_of(&names, defines.len(), DEFINES_WIDTH)
        ));
        priorities.push(line_priority::DETAIL);
    }
    if let Some(last) = last {
        synopsis.structure.push(format!("last definition: {last}"));
        priorities.push(line_priority::DETAIL);
    }
    if !notes.is_empty() {
        synopsis.structure.push(format!(
            "entry ({}): {}",
            notes.len(),
            joined_within(&notes, LIST_WIDTH)
        ));
        priorities.push(line_priority::KEY);
    }
    synopsis.priorities = Some(priorities);
    synopsis
}

/// `imports (N): the packages, +K std, +L local`, or the standard library's modules when the
/// file imports no package. `go`: a package of a module already named (`chi/middleware` after
/// `go-chi/chi`, `pgx/pgxpool` after `jackc/pgx`) is counted, not named again.
fn imports_line(imports: &[(String, Origin)], go: bool) -> Option<String> {
    if imports.is_empty() {
        return None;
    }
    let of = |origin| {
        imports
            .iter()
            .filter(move |(_, o)| *o == origin)
            .map(|(name, _)| name.as_str())
    };
    let mut shown: Vec<String> = Vec::new();
    for name in of(Origin::Package) {
        let module = name.split('/').next().unwrap_or(name);
        let named = |earlier: &String| {
            earlier.ends_with(&format!("/{module}")) || earlier.starts_with(&format!("{module}/"))
        };
        if !(go && name.contains('/') && shown.iter().any(named)) {
            shown.push(name.to_string());
        }
    }
    let standard = of(Origin::Standard).count();
    let local = of(Origin::Local).count();
    if shown.is_empty() {
        shown = of(Origin::Standard)
            .chain(of(Origin::Local))
            .map(str::to_string)
            .collect();
    } else {
        if standard > 0 {
            // The standard modules named when they are short (`+2 std (json, net/http)`).
            // (Rust's are all `std`.)
            let names: Vec<&str> = of(Origin::Standard).filter(|n| *n != "std").collect();
            let named = format!("+{standard} std ({})", names.join(", "));
            shown.push(
                if !names.is_empty() && char_len(&named) <= STD_NAMES_WIDTH {
                    named
                } else {
                    format!("+{standard} std")
                },
            );
        }
        if local > 0 {
            shown.push(format!("+{local} local"));
        }
    }
    Some(format!(
        "imports ({}): {}",
        imports.len(),
        joined_within(&shown, LIST_WIDTH)
    ))
}

/// Chars of the list of what the code defines (the stub's bound may clip it further).
const DEFINES_WIDTH: usize = 600;
/// Chars of the other lists.
const LIST_WIDTH: usize = 120;
/// Past this many definitions the file's last one is named on a line of its own, after the list
/// (the list cut short by the width or the stub's bound may not reach it).
const LAST_NAMED_OVER: usize = 10;
/// Chars of the standard library's modules named after a file's packages.
const STD_NAMES_WIDTH: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synopsis;
    use crate::test_support::synopsis_text;

    /// The enhanced synopsis of a source file (the reference must read it as code).
    fn of(source: &str) -> String {
        let reference = synopsis::generate(source, "text/plain", 2_000);
        assert_eq!(
            reference.kind, "code",
            "the reference reads it as code: {source}"
        );
        let input = Input {
            output: source,
            mime: "text/plain",
            reference_kind: "code",
            reference: &reference,
        };
        synopsis_text(&synopsis(&input).expect("a code synopsis"))
    }

    #[test]
    fn imports_name_packages_first_and_count_the_standard_library() {
        let go = "package api\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\n\t\"github.com/labstack/echo/v4\"\n\t\"github.com/labstack/echo/v4/middleware\"\n\t\"go.uber.org/zap\"\n\t\"golang.org/x/sync/errgroup\"\n)\n\nfunc Run() {}\n";
        assert!(
            of(go).contains(
                "imports (6): labstack/echo, zap, sync/errgroup, +2 std (context, net/http)"
            ),
            "{}",
            of(go)
        );
        let ts = "import { useQuery } from \"@tanstack/react-query\";\nimport fp from \"lodash/fp\";\nimport { readFile } from \"node:fs/promises\";\nimport path from \"path\";\nimport { helper } from \"./helper\";\nimport {\n  a,\n} from \"axios\";\nexport function main() {}\n";
        assert!(
            of(ts).contains("imports (6): @tanstack/react-query, lodash, axios, +2 std (fs/promises, path), +1 local"),
            "{}",
            of(ts)
        );
        let python = "import os, sys\nfrom collections import deque\nimport numpy as np\nfrom .models import User\nfrom django.db import models\n\ndef f():\n    pass\n";
        assert!(
            of(python).contains("imports (5): numpy, django, +2 std (os, collections), +1 local"),
            "{}",
            of(python)
        );
        let rust = "use std::fmt;\nuse serde::Deserialize;\nuse crate::error::Error;\nextern crate libc;\n\npub fn f() {}\n";
        assert!(
            of(rust).contains("imports (4): serde, libc, +1 std, +1 local"),
            "{}",
            of(rust)
        );
        // Only the standard library: its modules are named.
        assert!(
            of("import os\nimport json\n\ndef f():\n    pass\n").contains("imports (2): os, json")
        );
    }

    #[test]
    fn java_kotlin_csharp_and_ruby_imports_read_by_their_language() {
        let java = "package com.acme.orders;\n\nimport java.util.List;\nimport org.springframework.web.bind.annotation.GetMapping;\nimport static org.junit.Assert.assertEquals;\n\npublic class OrderController {\n    @GetMapping(\"/orders\")\n    public List<Order> listOrders(int page) {\n        return repo.all();\n    }\n\n    private Order find(String id) throws NotFound {\n        return null;\n    }\n}\n";
        let shown = of(java);
        assert!(
            shown.contains("Java source, 16 lines, package com.acme.orders."),
            "{shown}"
        );
        assert!(
            shown.contains("imports (3): org.springframework.web, org.junit, +1 std"),
            "{shown}"
        );
        assert!(
            shown.contains("class OrderController{listOrders, find}"),
            "{shown}"
        );
        let kotlin = "package shop\n\nimport kotlinx.coroutines.launch\nimport io.ktor.server.routing.Route\n\ndata class Order(val id: String)\n\nclass OrderService(private val repo: Repo) {\n    suspend fun place(order: Order): Order {\n        return order\n    }\n    private fun audit() {}\n}\n\nfun main() {}\n";
        let shown = of(kotlin);
        assert!(shown.contains("Kotlin source"), "{shown}");
        assert!(
            shown.contains("imports (2): kotlinx.coroutines, io.ktor.server"),
            "{shown}"
        );
        assert!(
            shown.contains("class OrderService{place, audit}") && shown.contains("main()"),
            "{shown}"
        );
        let csharp = "using System;\nusing System.Linq;\nusing Microsoft.AspNetCore.Mvc;\n\nnamespace Shop.Api\n{\n    public class OrdersController : ControllerBase\n    {\n        public OrdersController(IRepo repo) { }\n\n        public async Task<IActionResult> GetOrder(int id)\n        {\n            using (var scope = Begin()) { }\n            return Ok();\n        }\n    }\n}\n";
        let shown = of(csharp);
        assert!(shown.contains("C# source"), "{shown}");
        assert!(
            shown.contains("imports (3): Microsoft.AspNetCore.Mvc, +2 std (System, System.Linq)")
                && shown.contains("C# source, 17 lines, package Shop.Api."),
            "{shown}"
        );
        assert!(
            shown.contains("class OrdersController{GetOrder}"),
            "{shown}"
        );
        let ruby = "require 'json'\nrequire 'sinatra/base'\nrequire_relative 'lib/store'\n\nclass App < Sinatra::Base\n  def index\n    'ok'\n  end\n\n  def self.boot\n  end\nend\n";
        let shown = of(ruby);
        assert!(shown.contains("Ruby source"), "{shown}");
        assert!(
            shown.contains("imports (3): sinatra, +1 std (json), +1 local"),
            "{shown}"
        );
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
        assert!(
            of(python).contains("defines (2): class Repo{get, _hidden}, main()"),
            "{}",
            of(python)
        );
        let rust = "pub struct Pool {\n    size: usize,\n}\n\nimpl<T: Send> Pool<T> {\n    pub fn new() -> Self {\n        todo!()\n    }\n    fn grow(&mut self) {}\n}\n\nimpl Drop for Pool {\n    fn drop(&mut self) {}\n}\n\npub fn run() {}\n";
        assert!(
            of(rust).contains("defines (2): struct Pool{new, grow}, run()"),
            "{}",
            of(rust)
        );
    }

    #[test]
    fn functions_held_by_top_level_bindings_are_functions() {
        let js = "import express from \"express\";\n\nexport const handler = async (event) => {\n  const local = (x) => x;\n  return local(event);\n};\nconst render = function (view) {\n  return view;\n};\nlet parse = input => input.trim();\nexport const LIMIT = 10;\nconst same = a == b;\nexport const Button: FC<Props> = ({ label }) => {\n  return label;\n};\n";
        let shown = of(js);
        assert!(
            shown.contains("defines (4): handler(), render(), parse(), Button()"),
            "{shown}"
        );
    }

    #[test]
    fn each_entry_point_is_noted_once() {
        // Concatenated scripts: two guards are one note (was one note per guard).
        let twice = "def main():\n    pass\n\nif __name__ == \"__main__\":\n    main()\n";
        assert!(
            of(&twice.repeat(2)).contains("entry (1): __main__ guard\n")
                || of(&twice.repeat(2)).ends_with("entry (1): __main__ guard")
        );
    }

    #[test]
    fn the_language_is_voted_by_line_starts() {
        // Ruby writes `def` as Python does; its `end` lines decide.
        assert!(of("def a\n  1\nend\n\ndef b\n  2\nend\n").contains("Ruby source"));
        assert!(of("def a():\n    return 1\n").contains("Python source"));
        assert!(of("import x from 'y';\nfunction go() {}\n").contains("JavaScript source"));
    }

    /// Source files of every language the analyzer knows, with the shapes its rules read.
    const SAMPLES: [&str; 9] = [
        "package api\n\nimport (\n\t\"context\"\n\t\"github.com/labstack/echo/v4\"\n)\n\ntype Store interface {\n\tGet()\n}\n\ntype Server struct {\n}\n\nfunc NewServer() *Server {\n\treturn nil\n}\n\nfunc (s *Server) handleGet(w int) {\n}\n",
        "use std::fmt;\nuse serde::Deserialize;\n\n#[derive(Debug)]\npub struct Pool {\n    size: usize,\n}\n\nimpl<T: Send> Pool<T> {\n    pub fn new() -> Self {\n        todo!()\n    }\n    fn grow(&mut self) {}\n}\n\nimpl Drop for Pool {\n    fn drop(&mut self) {}\n}\n\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n",
        "import os, sys\nfrom .models import User\n\nclass Repo:\n    def get(self):\n        def helper():\n            pass\n\n    async def _hidden(self):\n        pass\n\ndef main():\n    if x:\n        pass\n\nif __name__ == \"__main__\":\n    main()\n",
        "import { useQuery } from \"@tanstack/react-query\";\nimport {\n  a,\n} from \"axios\";\nexport interface Options {\n  retries: number;\n}\n\nexport class Client extends Base {\n  constructor(options: Options) {\n    super();\n  }\n  async listUsers(page = 1): Promise<User[]> {\n    if (page) {\n      return [];\n    }\n  }\n  private async request<T>(path: string): Promise<T> {\n    return fetch(path);\n  }\n}\nexport const Button: FC<Props> = ({ label }) => {\n  return label;\n};\n",
        "const express = require(\"express\");\nexport const handler = async (event) => {\n  const local = (x) => x;\n};\nconst render = function (view) {\n  return view;\n};\nlet parse = input => input.trim();\nfunction go() {}\nmodule.exports = go;\n",
        "package com.acme.orders;\n\nimport java.util.List;\nimport static org.junit.Assert.assertEquals;\n\npublic class OrderController {\n    @Override\n    public List<Order> listOrders(int page) {\n        return repo.all();\n    }\n\n    private Order find(String id) throws NotFound {\n        return null;\n    }\n}\n",
        "package shop\n\nimport kotlinx.coroutines.launch\n\ndata class Order(val id: String)\n\nclass OrderService(private val repo: Repo) {\n    suspend fun place(order: Order): Order {\n        return order\n    }\n    private fun audit() {}\n}\n\nfun main() {}\n",
        "using System;\nusing Microsoft.AspNetCore.Mvc;\n\nnamespace Shop.Api\n{\n    public class OrdersController : ControllerBase\n    {\n        public OrdersController(IRepo repo) { }\n\n        public async Task<IActionResult> GetOrder(int id)\n        {\n            using (var scope = Begin()) { }\n            return Ok();\n        }\n    }\n}\n",
        "require 'json'\nrequire_relative 'lib/store'\n\nclass App < Sinatra::Base\n  attr_reader :x\n  def index\n    'ok'\n  end\n\n  def self.boot\n  end\nend\n",
    ];

    /// Lines no sample has: Unicode spaces and words, tabs, odd breaks, very long lines.
    const ODD_LINES: [&str; 14] = [
        "\tfunc héllo() {",
        "def naïve_x():",
        "\u{3000}def wide():",
        "   \t class Ü:",
        "x = (a) => a",
        "  foo<T>(x) {",
        "\u{2028}def sep():",
        "end  ",
        "impl<T> X<T> {",
        "\u{a0}fn nbsp() {}",
        "  é(x) {",
        "  数据 = 1",
        "} from 'zod';",
        "\u{0}\u{1f}def ctl():",
    ];

    /// A deterministic mix of sample lines and odd lines, with CRLF or LF breaks.
    fn generated(seed: u32, lines: usize) -> String {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as usize
        };
        let pool: Vec<&str> = SAMPLES
            .iter()
            .flat_map(|sample| sample.lines())
            .chain(ODD_LINES)
            .collect();
        let mut out = String::new();
        for _ in 0..lines {
            let line = pool[next() % pool.len()];
            match next() % 10 {
                0 => out.push_str(&format!("{line}{}", "x".repeat(3_000))),
                1 => out.push_str(&format!("\t{line}")),
                _ => out.push_str(line),
            }
            out.push_str(if next() % 4 == 0 { "\r\n" } else { "\n" });
        }
        out
    }

    /// Each sample alone, each twice in a row, samples after one another (the start of a file
    /// votes for another language than the whole), and generated mixes.
    fn inputs() -> Vec<String> {
        let mut inputs: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
        inputs.extend(SAMPLES.iter().map(|s| s.repeat(2).replace('\n', "\r\n")));
        for (i, first) in SAMPLES.iter().enumerate() {
            let then = SAMPLES[(i + 1) % SAMPLES.len()];
            inputs.push(format!("{first}{}", then.repeat(4)));
        }
        inputs.extend((0..40).map(|seed| generated(seed, 400)));
        inputs
    }

    #[test]
    fn skimming_lines_changes_no_synopsis() {
        // The filter that skips lines on their first word, and the one pass that reads for the
        // language of the file's start: the same synopses as reading every line in full for
        // the language of the whole file, for every language the pass may read for.
        for input in inputs() {
            for language in std::iter::once(None).chain((0..LANGUAGES).map(Some)) {
                let skimmed =
                    synopsis_text(&synopsis_of(scan(&input, language, true), language, None));
                let full =
                    synopsis_text(&synopsis_of(scan(&input, language, false), language, None));
                assert_eq!(skimmed, full, "{language:?} on {input:?}");
            }
            let reference = synopsis::generate(&input, "text/plain", 2_000);
            let one_pass = synopsis(&Input {
                output: &input,
                mime: "text/plain",
                reference_kind: "code",
                reference: &reference,
            });
            let language = language_of(&input);
            let two_passes = synopsis_of(scan(&input, language, false), language, None);
            assert_eq!(
                one_pass.map(|s| synopsis_text(&s)),
                Some(synopsis_text(&two_passes)),
                "{input:?}"
            );
        }
    }

    /// The enhanced synopsis of `source` whose MIME type is `mime` (the reference may read it as
    /// text: the MIME type names the language).
    fn of_mime(source: &str, mime: &str) -> String {
        let reference = synopsis::generate(source, mime, 2_000);
        let input = Input {
            output: source,
            mime,
            reference_kind: &reference.kind,
            reference: &reference,
        };
        synopsis_text(&synopsis(&input).expect("a code synopsis"))
    }

    #[test]
    fn php_c_cpp_swift_and_shell_are_read_by_their_grammar() {
        let php = "<?php\n\nnamespace App\\Billing;\n\nuse Illuminate\\Support\\Facades\\DB;\nuse function App\\fmt;\n\nfinal class Invoice\n{\n    public function total(): int\n    {\n        return 1;\n    }\n}\n\nfunction applyTax(array $ids): int\n{\n    return 0;\n}\n";
        let shown = of_mime(php, "application/x-httpd-php");
        assert!(
            shown.contains("PHP source, 19 lines, package App\\Billing."),
            "{shown}"
        );
        assert!(
            shown.contains("imports (2): Illuminate\\Support\\Facades\\DB, App\\fmt"),
            "{shown}"
        );
        assert!(
            shown.contains("class Invoice{total}") && shown.contains("applyTax()"),
            "{shown}"
        );
        let c = "#include <stdint.h>\n#include <zlib/zlib.h>\n#include \"ring.h\"\n\ntypedef struct ring {\n    int n;\n} ring_t;\ntypedef int handle_t;\n\nstatic int64_t ring_sum(const int64_t *v, size_t n)\n{\n    return 0;\n}\n\nint main(void) {\n    return ring_sum(0, 0);\n}\n";
        let shown = of_mime(c, "text/x-c");
        assert!(shown.contains("C source, 17 lines."), "{shown}");
        assert!(
            shown.contains("imports (3): zlib/zlib.h, +1 std (stdint.h), +1 local"),
            "{shown}"
        );
        assert!(
            shown.contains("defines (4): type ring_t, handle_t, ring_sum(), main()"),
            "{shown}"
        );
        let cpp = "#include <vector>\n\nnamespace acme::ledger {\n\nclass Book {\n public:\n  int id() const { return 1; }\n};\n\nstd::vector<int> LoadAll(int n) {\n  return {};\n}\n\n}  // namespace\n";
        let shown = of_mime(cpp, "");
        assert!(
            shown.contains("C++ source, 14 lines, package acme::ledger."),
            "{shown}"
        );
        assert!(
            shown.contains("class Book") && shown.contains("LoadAll()"),
            "{shown}"
        );
        let shell = "#!/usr/bin/env bash\nset -euo pipefail\nsource \"$(dirname \"$0\")/lib/common.sh\"\n. ./env.sh\n\nbackup_db() {\n  pg_dump \"$1\"\n}\n\nfunction prune {\n  find . -delete\n}\n\nbackup_db \"$@\"\n";
        let shown = of_mime(shell, "application/x-sh");
        assert!(shown.contains("Shell source, 14 lines."), "{shown}");
        assert!(
            shown.contains("imports (2): lib/common.sh, ./env.sh"),
            "{shown}"
        );
        assert!(
            shown.contains("defines (2): backup_db(), prune()"),
            "{shown}"
        );
        // Swift writes `func` as Go does: its MIME type names it.
        let swift = "import Foundation\n\npublic struct Cart: Codable {\n    public let id: Int64\n}\n\npublic func total(_ ids: [Int64]) -> Int64 {\n    return 0\n}\n\nfunc testTotalIsZero() {\n}\n";
        let shown = of_mime(swift, "text/x-swift");
        assert!(shown.contains("Swift source"), "{shown}");
        assert!(
            shown.contains("tests: 1") && shown.contains("defines (2): struct Cart, total()"),
            "{shown}"
        );
    }

    #[test]
    fn tests_are_counted_by_their_frameworks_marks_and_not_listed() {
        let rust = "pub fn add(a: i32) -> i32 { a }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n    #[tokio::test]\n    async fn adds_later() {}\n    #[test]\n    #[should_panic]\n    fn overflows() {}\n}\n";
        assert!(of(rust).contains("tests: 3"), "{}", of(rust));
        let python = "import pytest\n\ndef total(x):\n    return x\n\ndef test_total():\n    assert total(1) == 1\n\nclass TestTotals:\n    def test_zero(self):\n        pass\n";
        let shown = of(python);
        assert!(
            shown.contains("tests: 2") && !shown.contains("test_total"),
            "{shown}"
        );
        let ts = "import { describe, it } from \"vitest\";\n\nexport function sum(a: number) { return a; }\n\ndescribe(\"sum\", () => {\n  it(\"adds\", () => {\n    expect(sum(1)).toBe(1);\n  });\n  it.each([1, 2])(\"keeps %i\", (n) => {});\n  test(\"zero\", () => {});\n});\n";
        assert!(of(ts).contains("tests: 3"), "{}", of(ts));
        let go = "package calc\n\nimport \"testing\"\n\nfunc TestSum(t *testing.T) {\n}\n\nfunc Testify() {\n}\n";
        let shown = of(go);
        assert!(
            shown.contains("tests: 1") && shown.contains("Testify()"),
            "{shown}"
        );
        let java = "package shop;\n\nimport java.util.List;\nimport org.junit.jupiter.api.Test;\n\nclass CartTest {\n    record Item(long id) {}\n\n    @Test\n    void addsItems() {\n    }\n\n    @ParameterizedTest\n    public void dropsItems(int n) {\n    }\n}\n";
        let shown = of(java);
        assert!(shown.contains("tests: 2"), "{shown}");
        // A record whose body closes on its line holds none of the methods after it.
        assert!(
            shown.contains("class CartTest{addsItems, dropsItems}"),
            "{shown}"
        );
    }

    #[test]
    fn every_line_start_of_a_rule_is_worth_reading() {
        // `worth_reading` lets through every line a rule's table may take.
        let tables = [
            &MODIFIERS[..],
            &IMPORT_STARTS,
            &BINDING_STARTS,
            &["package ", "impl ", "impl<T>", "import ("],
        ];
        let keywords = DECLARATIONS
            .iter()
            .map(|d| d.0)
            .chain(NOTES.iter().map(|n| n.0));
        for start in tables.into_iter().flatten().copied().chain(keywords) {
            let line = format!("{start}name(x) y");
            let word = ascii_word_len(line.as_bytes());
            assert!(worth_reading(&line, word, 0, false), "{line}");
            if !start.starts_with('}') {
                assert!(worth_reading(&line, word, 4, false), "{line}");
            }
        }
    }

    #[test]
    fn indexed_line_starts_find_what_a_scan_of_the_table_finds() {
        let mut lines: Vec<String> = Vec::new();
        for start in MODIFIERS
            .iter()
            .chain(&IMPORT_STARTS)
            .chain(DECLARATIONS.iter().map(|d| &d.0))
        {
            for cut in 0..=start.len() {
                for tail in ["", "x", " x", "(", "é", "\t", "_1"] {
                    lines.push(format!("{}{tail}", &start[..cut]));
                }
            }
        }
        for line in &lines {
            assert_eq!(
                MODIFIER_STARTS.find(line),
                MODIFIERS.iter().position(|m| line.starts_with(m)),
                "{line:?}"
            );
            assert_eq!(
                IMPORTS.find(line),
                IMPORT_STARTS.iter().position(|m| line.starts_with(m)),
                "{line:?}"
            );
            assert_eq!(
                DECLARATION_KEYWORDS.find(line),
                DECLARATIONS.iter().position(|d| line.starts_with(d.0)),
                "{line:?}"
            );
            let mut votes = [0; LANGUAGES];
            vote(line, None, &mut votes);
            let mut expected = [0; LANGUAGES];
            for (mark, language) in LANGUAGE_MARKS {
                if if mark == "end" {
                    line == "end"
                } else {
                    line.starts_with(mark)
                } {
                    expected[language] += 1;
                }
            }
            assert_eq!(votes, expected, "{line:?}");
        }
    }

    #[test]
    fn lines_are_trimmed_and_words_read_by_bytes_as_by_chars() {
        let texts = [
            "",
            " ",
            "\t\tx",
            "  def f():  ",
            "x\u{a0}",
            "\u{3000}y",
            " \u{2003} z \u{2003}",
            "é",
            "a\t",
            "naïve x",
            "数据 y",
            "_a1 b",
            "a\u{301}b",
        ];
        for text in texts {
            let indentation = text.len() - text.trim_start_matches([' ', '\t']).len();
            assert_eq!(trimmed(text), (text.trim(), indentation), "{text:?}");
            let by_chars = &text[..text.find(|c: char| !is_py_word(c)).unwrap_or(text.len())];
            assert_eq!(ident(text), by_chars, "{text:?}");
        }
    }

    #[test]
    fn counts_of_imports_and_methods_are_exact_past_the_first_hundreds() {
        // Were capped at 200 distinct imports, and 200 methods of each visibility per class.
        let mut python = String::new();
        for i in 0..450 {
            python.push_str(&format!("import pkg{i}\n"));
        }
        python.push_str("class Big:\n");
        for i in 0..300 {
            python.push_str(&format!(
                "    def m{i}(self):\n        pass\n    def _p{i}(self):\n        pass\n"
            ));
        }
        let shown = of(&python);
        assert!(shown.contains("imports (450): pkg0, pkg1,"), "{shown}");
        assert!(shown.contains("class Big{m0, m1, m2, m3, +596}"), "{shown}");
    }

    #[test]
    fn a_long_list_of_definitions_is_written_as_if_every_entry_were() {
        // Only the entries the line can show are written out: the line is the one of them all.
        for count in [3, 40, 41, 42, 43, 500] {
            let python: String = (0..count)
                .map(|i| format!("def function_{i}():\n    pass\n"))
                .collect();
            let all: Vec<String> = (0..count).map(|i| format!("function_{i}()")).collect();
            let expected = format!("defines ({count}): {}", joined_within(&all, DEFINES_WIDTH));
            assert!(of(&python).contains(&expected), "{count}: {}", of(&python));
        }
    }

    #[test]
    fn the_radix_sort_sorts_by_the_high_half_and_keeps_ties_in_order() {
        for seed in 0..40u64 {
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut next = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            // High halves from few values (ties) to any (all 32 bits, each radix digit used).
            let spread = [1u64, 3, 1 << 11, 1 << 22, 1 << 32][seed as usize % 5];
            let mut keys: Vec<u64> = (0..(next() % 5_000))
                .map(|low| (next() % spread) << 32 | low)
                .collect();
            let mut expected = keys.clone();
            expected.sort_by_key(|key| key >> 32);
            sort_by_high_half(&mut keys);
            assert_eq!(keys, expected, "seed {seed}");
        }
    }

    #[test]
    fn definitions_told_apart_by_sorted_hashes_as_by_their_text() {
        // The first of each (word, name) in order, and where each is, whatever the hashes: the
        // real one, and tiny ones under which most different definitions collide.
        fn tiny(_: &str, name: &str) -> u32 {
            name.len() as u32 % 3
        }
        fn none(_: &str, _: &str) -> u32 {
            7
        }
        let words = ["", "class", "struct", "interface"];
        let names = [
            "a",
            "b",
            "ab",
            "run",
            "Pool",
            "x1",
            "x2",
            "x10",
            "é",
            "handler_7",
        ];
        // None repeated (every one kept in place), under each hash.
        for hash in [Defined::hash as fn(&str, &str) -> u32, tiny, none] {
            let all = || {
                names
                    .iter()
                    .map(|&name| Definition {
                        rank: 1,
                        word: "class",
                        name,
                        methods: None,
                    })
                    .collect::<Vec<_>>()
            };
            let (kept, defined) = Defined::distinct_by(all(), hash);
            assert_eq!(kept.iter().map(|d| d.name).collect::<Vec<_>>(), names);
            for (at, name) in names.iter().enumerate() {
                assert_eq!(
                    defined.get_by("class", name, &kept, hash),
                    Some(at),
                    "{name}"
                );
                assert_eq!(defined.get_by("", name, &kept, hash), None, "{name}");
            }
        }
        for seed in 0..60u32 {
            let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
            let mut next = || {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 8) as usize
            };
            let count = next() % 120;
            let all: Vec<(&'static str, &'static str)> = (0..count)
                .map(|_| {
                    (
                        words[next() % words.len()],
                        names[next() % (1 + seed as usize % names.len())],
                    )
                })
                .collect();
            let definitions = || {
                all.iter()
                    .map(|&(word, name)| Definition {
                        rank: 1,
                        word,
                        name,
                        methods: None,
                    })
                    .collect::<Vec<_>>()
            };
            let mut expected: Vec<(&str, &str)> = Vec::new();
            for &pair in &all {
                if !expected.contains(&pair) {
                    expected.push(pair);
                }
            }
            for hash in [Defined::hash as fn(&str, &str) -> u32, tiny, none] {
                let (kept, defined) = Defined::distinct_by(definitions(), hash);
                let got: Vec<(&str, &str)> = kept.iter().map(|d| (d.word, d.name)).collect();
                assert_eq!(got, expected, "seed {seed}");
                for word in words {
                    for name in names {
                        let at = expected.iter().position(|&pair| pair == (word, name));
                        assert_eq!(
                            defined.get_by(word, name, &kept, hash),
                            at,
                            "{word} {name} seed {seed}"
                        );
                    }
                }
            }
        }
    }
}
