//! DTD state: entities, attribute defaults and the parser's prolog half.

use super::*;

pub(super) enum EntityKind {
    /// Replacement text (character references already expanded, entity references kept).
    Internal(Rc<str>),
    /// SYSTEM/PUBLIC: never read; ElementTree reports a reference to it as undefined.
    External,
    /// Unparsed (NDATA): referencing it is an error.
    Unparsed,
}

/// One `<!ATTLIST>` attribute definition (first definition per element and name wins).
pub(super) struct AttributeDefault {
    pub(super) name: String,
    /// None for `#IMPLIED` / `#REQUIRED`.
    pub(super) value: Option<String>,
    pub(super) is_cdata: bool,
}

/// The prolog grammar states of xmlrole.c that this parser needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    Prolog0,
    Prolog1,
    Prolog2,
    Doctype0,
    Doctype1,
    Doctype2,
    Doctype3,
    Doctype4,
    Doctype5,
    InternalSubset,
    Entity0,
    Entity1,
    Entity2,
    Entity3,
    Entity4,
    Entity5,
    Entity6,
    Entity7,
    Entity8,
    Entity9,
    Entity10,
    Notation0,
    Notation1,
    Notation2,
    Notation3,
    Notation4,
    Attlist0,
    Attlist1,
    Attlist2,
    Attlist3,
    Attlist4,
    Attlist5,
    Attlist6,
    Attlist7,
    Attlist8,
    Attlist9,
    Element0,
    Element1,
    Element2,
    Element3,
    Element4,
    Element5,
    Element6,
    Element7,
    DeclClose,
}

/// Where the text being tokenized comes from: the document or an entity's replacement text.
#[derive(Clone)]
pub(super) enum Text<'a> {
    Document(&'a str),
    Entity(Rc<str>),
}

impl Text<'_> {
    pub(super) fn as_str(&self) -> &str {
        match self {
            Text::Document(s) => s,
            Text::Entity(s) => s,
        }
    }
}

/// A content entity being expanded: its text, position, name, and the element depth at its
/// start (elements it opens must close inside it).
pub(super) struct Frame<'a> {
    pub(super) text: Text<'a>,
    pub(super) pos: usize,
    pub(super) entity: Option<String>,
    pub(super) start_depth: usize,
}

/// An open element: where its raw qname starts in `Parser::open_names` (end tags must match it
/// byte for byte) and how many namespace bindings it pushed.
#[derive(Clone, Copy)]
pub(super) struct OpenElement {
    pub(super) name_start: usize,
    pub(super) bindings: usize,
}

pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) standalone: bool,
    /// Set by a DOCTYPE external id or a parameter-entity reference: undefined entities in
    /// attribute values are then skipped instead of errors (unless standalone).
    pub(super) has_param_entity_refs: bool,
    /// Cleared at a parameter-entity reference (not standalone): later declarations ignored.
    pub(super) keep_processing: bool,
    pub(super) entities: HashMap<String, EntityKind>,
    pub(super) attribute_defaults: HashMap<String, Vec<AttributeDefault>>,
    /// Entities currently being expanded (recursion is an error).
    pub(super) open_entities: HashSet<String>,
    /// In-scope namespace bindings: prefix ("" = default) to URI ("" = none).
    pub(super) bindings: HashMap<String, String>,
    /// Undo log: prefix and its previous binding, popped when the element closes.
    pub(super) binding_log: Vec<(String, Option<String>)>,
    pub(super) elements: Vec<OpenElement>,
    /// The raw qnames of the open elements, one after the other: one buffer instead of a
    /// String per element.
    pub(super) open_names: String,
    pub(super) summary: Option<DocumentSummary>,
    pub(super) child_index: HashMap<String, usize>,
    /// Index in `summary.children` of the last child tag counted: siblings usually repeat a tag.
    pub(super) last_child: usize,
    /// Bytes produced by entity expansion, for the amplification limit.
    pub(super) expanded_bytes: u64,
}

pub(super) fn is_xmlns_name(name: &str) -> bool {
    match name.as_bytes().strip_prefix(b"xmlns") {
        Some(rest) => rest.is_empty() || rest.first() == Some(&b':'),
        None => false,
    }
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Parser {
            text,
            standalone: false,
            has_param_entity_refs: false,
            keep_processing: true,
            entities: HashMap::new(),
            attribute_defaults: HashMap::new(),
            open_entities: HashSet::new(),
            bindings: HashMap::new(),
            binding_log: Vec::new(),
            elements: Vec::new(),
            open_names: String::new(),
            summary: None,
            child_index: HashMap::new(),
            last_child: 0,
            expanded_bytes: 0,
        }
    }

    pub(super) fn run(&mut self) -> Res<()> {
        let text = self.text;
        // A byte order mark (U+FEFF as the first char) is skipped.
        let mut pos = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
        pos = self.prolog(pos)?;
        pos = self.content(pos)?;
        self.epilog(pos)
    }

    /// Charges `bytes` of entity expansion; `direct` is how far the document has been read.
    pub(super) fn account_expansion(&mut self, bytes: usize, direct: usize) -> Res<()> {
        self.expanded_bytes = self.expanded_bytes.saturating_add(bytes as u64);
        let direct = direct.max(1) as u64;
        let total = direct.saturating_add(self.expanded_bytes);
        if total >= AMPLIFICATION_ACTIVATION_BYTES
            && total as f64 / direct as f64 > AMPLIFICATION_MAX_FACTOR
        {
            return Err(XmlError);
        }
        Ok(())
    }

    // ---- prolog -----------------------------------------------------------------------------

    /// Runs the prolog up to the root's `<`; returns its position.
    pub(super) fn prolog(&mut self, start: usize) -> Res<usize> {
        let s = self.text;
        let mut pos = start;
        let mut role = Role::Prolog0;
        // ATTLIST under construction: element, attribute name, whether CDATA.
        let mut attlist_element = String::new();
        let mut attlist_attribute = String::new();
        let mut attlist_cdata = true;
        // ENTITY under construction: name, whether a parameter entity.
        let mut entity_name = String::new();
        let mut entity_is_param = false;
        let mut element_depth = 0usize;
        // Per group depth: the connector seen (`,` or `|`); mixing them in a group is an error.
        let mut group_connectors: Vec<u8> = Vec::new();
        loop {
            let (tok, end) = prolog_tok(s, pos)?;
            let token = s.get(pos..end).ok_or(XmlError)?;
            if tok == PTok::S && role != Role::Prolog0 {
                pos = end;
                continue;
            }
            role = match (role, tok) {
                (Role::Prolog0, PTok::S) => Role::Prolog1,
                (Role::Prolog0, PTok::XmlDecl) => {
                    self.standalone = parse_xml_decl(token)?;
                    Role::Prolog1
                }
                (Role::Prolog0 | Role::Prolog1 | Role::Prolog2, PTok::Pi | PTok::Comment) => {
                    if role == Role::Prolog0 {
                        Role::Prolog1
                    } else {
                        role
                    }
                }
                (Role::Prolog0 | Role::Prolog1, PTok::DeclOpen) if token == "<!DOCTYPE" => {
                    Role::Doctype0
                }
                (Role::Prolog0 | Role::Prolog1 | Role::Prolog2, PTok::InstanceStart) => {
                    return Ok(pos);
                }
                (Role::Doctype0, PTok::Name | PTok::PrefixedName) => Role::Doctype1,
                (Role::Doctype1, PTok::OpenBracket) | (Role::Doctype4, PTok::OpenBracket) => {
                    Role::InternalSubset
                }
                (Role::Doctype1 | Role::Doctype4 | Role::Doctype5, PTok::DeclClose) => {
                    Role::Prolog2
                }
                (Role::Doctype1, PTok::Name) if token == "SYSTEM" => Role::Doctype3,
                (Role::Doctype1, PTok::Name) if token == "PUBLIC" => Role::Doctype2,
                (Role::Doctype2, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Doctype3
                }
                (Role::Doctype3, PTok::Literal) => {
                    // An external subset exists (never read).
                    self.has_param_entity_refs = true;
                    Role::Doctype4
                }
                (Role::InternalSubset, PTok::DeclOpen) => match token {
                    "<!ENTITY" => Role::Entity0,
                    "<!ATTLIST" => Role::Attlist0,
                    "<!ELEMENT" => Role::Element0,
                    "<!NOTATION" => Role::Notation0,
                    _ => return Err(XmlError),
                },
                (Role::InternalSubset, PTok::Pi | PTok::Comment) => Role::InternalSubset,
                (Role::InternalSubset, PTok::ParamEntityRef) => {
                    // Parameter entities are never expanded (ElementTree leaves parsing off).
                    self.has_param_entity_refs = true;
                    if !self.standalone {
                        self.keep_processing = false;
                    }
                    Role::InternalSubset
                }
                (Role::InternalSubset, PTok::CloseBracket) => Role::Doctype5,
                // <!ENTITY
                (Role::Entity0, PTok::Percent) => Role::Entity1,
                (Role::Entity0, PTok::Name) => {
                    entity_name = token.to_string();
                    entity_is_param = false;
                    Role::Entity2
                }
                (Role::Entity1, PTok::Name) => {
                    entity_name = token.to_string();
                    entity_is_param = true;
                    Role::Entity7
                }
                (Role::Entity2, PTok::Name) if token == "SYSTEM" => Role::Entity4,
                (Role::Entity2, PTok::Name) if token == "PUBLIC" => Role::Entity3,
                (Role::Entity2 | Role::Entity7, PTok::Literal) => {
                    if self.keep_processing {
                        let value = entity_value(token)?;
                        if !entity_is_param && !self.entities.contains_key(&entity_name) {
                            let kind = EntityKind::Internal(Rc::from(value));
                            self.entities.insert(entity_name.clone(), kind);
                        }
                    }
                    Role::Entity10
                }
                (Role::Entity3, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Entity4
                }
                (Role::Entity4, PTok::Literal) => {
                    if self.keep_processing && !self.entities.contains_key(&entity_name) {
                        self.entities
                            .insert(entity_name.clone(), EntityKind::External);
                    }
                    Role::Entity5
                }
                (Role::Entity5, PTok::DeclClose) => Role::InternalSubset,
                (Role::Entity5, PTok::Name) if token == "NDATA" => Role::Entity6,
                (Role::Entity6, PTok::Name) => {
                    if let Some(kind) = self.entities.get_mut(&entity_name) {
                        if matches!(kind, EntityKind::External) {
                            *kind = EntityKind::Unparsed;
                        }
                    }
                    Role::DeclClose
                }
                (Role::Entity7, PTok::Name) if token == "SYSTEM" => Role::Entity9,
                (Role::Entity7, PTok::Name) if token == "PUBLIC" => Role::Entity8,
                (Role::Entity8, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Entity9
                }
                (Role::Entity9, PTok::Literal) => Role::Entity10,
                (Role::Entity10 | Role::DeclClose, PTok::DeclClose) => Role::InternalSubset,
                // <!NOTATION
                (Role::Notation0, PTok::Name) => Role::Notation1,
                (Role::Notation1, PTok::Name) if token == "SYSTEM" => Role::Notation3,
                (Role::Notation1, PTok::Name) if token == "PUBLIC" => Role::Notation2,
                (Role::Notation2, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Notation4
                }
                (Role::Notation3 | Role::Notation4, PTok::Literal) => Role::DeclClose,
                (Role::Notation4, PTok::DeclClose) => Role::InternalSubset,
                // <!ATTLIST
                (Role::Attlist0, PTok::Name | PTok::PrefixedName) => {
                    attlist_element = token.to_string();
                    Role::Attlist1
                }
                (Role::Attlist1, PTok::DeclClose) => Role::InternalSubset,
                (Role::Attlist1, PTok::Name | PTok::PrefixedName) => {
                    attlist_attribute = token.to_string();
                    Role::Attlist2
                }
                (Role::Attlist2, PTok::Name) => match token {
                    "CDATA" => {
                        attlist_cdata = true;
                        Role::Attlist8
                    }
                    "ID" | "IDREF" | "IDREFS" | "ENTITY" | "ENTITIES" | "NMTOKEN" | "NMTOKENS" => {
                        attlist_cdata = false;
                        Role::Attlist8
                    }
                    "NOTATION" => {
                        attlist_cdata = false;
                        Role::Attlist5
                    }
                    _ => return Err(XmlError),
                },
                (Role::Attlist2, PTok::OpenParen) => {
                    attlist_cdata = false;
                    Role::Attlist3
                }
                (Role::Attlist3, PTok::Nmtoken | PTok::Name | PTok::PrefixedName) => Role::Attlist4,
                (Role::Attlist4, PTok::CloseParen(b')')) => Role::Attlist8,
                (Role::Attlist4, PTok::Or) => Role::Attlist3,
                (Role::Attlist5, PTok::OpenParen) => Role::Attlist6,
                (Role::Attlist6, PTok::Name) => Role::Attlist7,
                (Role::Attlist7, PTok::CloseParen(b')')) => Role::Attlist8,
                (Role::Attlist7, PTok::Or) => Role::Attlist6,
                (Role::Attlist8, PTok::PoundName) => match token {
                    "#IMPLIED" | "#REQUIRED" => {
                        self.define_attribute(
                            &attlist_element,
                            &attlist_attribute,
                            None,
                            attlist_cdata,
                        );
                        Role::Attlist1
                    }
                    "#FIXED" => Role::Attlist9,
                    _ => return Err(XmlError),
                },
                (Role::Attlist8 | Role::Attlist9, PTok::Literal) => {
                    if self.keep_processing {
                        let body = token
                            .get(1..token.len().saturating_sub(1))
                            .ok_or(XmlError)?;
                        let value =
                            self.attribute_value(Text::Document(body), attlist_cdata, end)?;
                        self.define_attribute(
                            &attlist_element,
                            &attlist_attribute,
                            Some(value),
                            attlist_cdata,
                        );
                    }
                    Role::Attlist1
                }
                // <!ELEMENT
                (Role::Element0, PTok::Name | PTok::PrefixedName) => Role::Element1,
                (Role::Element1, PTok::Name) if token == "EMPTY" || token == "ANY" => {
                    Role::DeclClose
                }
                (Role::Element1, PTok::OpenParen) => {
                    element_depth = 1;
                    group_connectors.clear();
                    group_connectors.resize(2, 0);
                    Role::Element2
                }
                (Role::Element2, PTok::PoundName) if token == "#PCDATA" => Role::Element3,
                (Role::Element2 | Role::Element6, PTok::OpenParen) => {
                    element_depth += 1;
                    group_connectors.resize(element_depth + 1, 0);
                    if let Some(connector) = group_connectors.get_mut(element_depth) {
                        *connector = 0;
                    }
                    Role::Element6
                }
                (
                    Role::Element2 | Role::Element6,
                    PTok::Name | PTok::PrefixedName | PTok::NameSuffixed,
                ) => Role::Element7,
                (Role::Element3, PTok::CloseParen(b')' | b'*')) => Role::DeclClose,
                (Role::Element3 | Role::Element5, PTok::Or) => Role::Element4,
                (Role::Element4, PTok::Name | PTok::PrefixedName) => Role::Element5,
                (Role::Element5, PTok::CloseParen(b'*')) => Role::DeclClose,
                (Role::Element7, PTok::CloseParen(_)) => {
                    element_depth = element_depth.saturating_sub(1);
                    if element_depth == 0 {
                        Role::DeclClose
                    } else {
                        Role::Element7
                    }
                }
                (Role::Element7, PTok::Comma | PTok::Or) => {
                    let connector = if tok == PTok::Comma { b',' } else { b'|' };
                    let slot = group_connectors.get_mut(element_depth).ok_or(XmlError)?;
                    if *slot != 0 && *slot != connector {
                        return Err(XmlError);
                    }
                    *slot = connector;
                    Role::Element6
                }
                _ => return Err(XmlError),
            };
            pos = end;
        }
    }

    pub(super) fn check_public_id(&self, literal: &str) -> Res<()> {
        let body = literal
            .get(1..literal.len().saturating_sub(1))
            .ok_or(XmlError)?;
        if is_public_id(body) {
            Ok(())
        } else {
            Err(XmlError)
        }
    }

    /// defineAttribute: the first definition of an attribute for an element wins.
    pub(super) fn define_attribute(
        &mut self,
        element: &str,
        name: &str,
        value: Option<String>,
        cdata: bool,
    ) {
        if !self.keep_processing {
            return;
        }
        let defaults = self
            .attribute_defaults
            .entry(element.to_string())
            .or_default();
        if defaults.iter().any(|d| d.name == name) {
            return;
        }
        defaults.push(AttributeDefault {
            name: name.to_string(),
            value,
            is_cdata: cdata,
        });
    }

    // ---- attribute values ------------------------------------------------------------------

    /// appendAttributeValue: expands references in an attribute value (without the quotes),
    /// normalising white space. `in_dtd` selects the rule for undefined entities in ATTLIST
    /// defaults; `direct` is the document position for the amplification check.
    pub(super) fn attribute_value(
        &mut self,
        body: Text<'_>,
        cdata: bool,
        direct: usize,
    ) -> Res<String> {
        let mut out = String::new();
        // (text, resume position, entity opened for it)
        let mut stack: Vec<(Text<'_>, usize, Option<String>)> = vec![(body, 0, None)];
        let result = self.expand_attribute_value(&mut stack, &mut out, cdata, direct);
        // Close whatever entities an error left open.
        for (_, _, name) in stack {
            if let Some(name) = name {
                self.open_entities.remove(&name);
            }
        }
        result?;
        if !cdata && out.ends_with(' ') {
            out.pop();
        }
        Ok(out)
    }

    pub(super) fn expand_attribute_value<'t>(
        &mut self,
        stack: &mut Vec<(Text<'t>, usize, Option<String>)>,
        out: &mut String,
        cdata: bool,
        direct: usize,
    ) -> Res<()> {
        // Undefined entities are errors unless an external subset or a parameter-entity
        // reference may have declared them (and the document is not standalone).
        let check_declared = !self.has_param_entity_refs || self.standalone;
        'frames: while let Some(top) = stack.last() {
            let source = top.0.clone();
            let s = source.as_str();
            let bytes = s.as_bytes();
            let mut p = top.1;
            loop {
                let Some(&b) = bytes.get(p) else {
                    if let Some((_, _, Some(name))) = stack.pop() {
                        self.open_entities.remove(&name);
                    }
                    continue 'frames;
                };
                match b {
                    // Only reachable inside entity text: the tokenizer rejects `<` in values.
                    b'<' => return Err(XmlError),
                    b'&' => {
                        let (reference, next) = scan_ref(s, p + 1)?;
                        p = next;
                        let name = match reference {
                            Reference::Char(code) => {
                                let c = char::from_u32(code).ok_or(XmlError)?;
                                if !cdata && c == ' ' && (out.is_empty() || out.ends_with(' ')) {
                                    continue;
                                }
                                out.push(c);
                                continue;
                            }
                            Reference::Entity(start, stop) => s.get(start..stop).ok_or(XmlError)?,
                        };
                        if let Some(c) = predefined_entity(name) {
                            out.push(c);
                            continue;
                        }
                        let replacement = match self.entities.get(name) {
                            None if check_declared => return Err(XmlError),
                            None => continue,
                            Some(EntityKind::Internal(text)) => text.clone(),
                            Some(_) => return Err(XmlError),
                        };
                        if self.open_entities.contains(name) {
                            return Err(XmlError);
                        }
                        self.account_expansion(replacement.len(), direct)?;
                        let name = name.to_string();
                        self.open_entities.insert(name.clone());
                        if let Some(top) = stack.last_mut() {
                            top.1 = p;
                        }
                        stack.push((Text::Entity(replacement), 0, Some(name)));
                        continue 'frames;
                    }
                    b'\t' | b'\n' | b'\r' | b' ' => {
                        // A CR LF pair is one line break.
                        if b == b'\r' && bytes.get(p + 1) == Some(&b'\n') {
                            p += 1;
                        }
                        p += 1;
                        if !cdata && (out.is_empty() || out.ends_with(' ')) {
                            continue;
                        }
                        out.push(' ');
                    }
                    _ => {
                        let len = utf8_len(b);
                        out.push_str(s.get(p..p + len).ok_or(XmlError)?);
                        p += len;
                    }
                }
            }
        }
        Ok(())
    }
}

pub(super) fn predefined_entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => None,
    }
}

/// storeEntityValue for a literal in the internal subset: character references are replaced,
/// entity references kept, and any `%` is an error (parameter-entity references are not
/// allowed in internal-subset entity values).
pub(super) fn entity_value(literal: &str) -> Res<String> {
    let body = literal
        .get(1..literal.len().saturating_sub(1))
        .ok_or(XmlError)?;
    let mut out = String::with_capacity(body.len());
    let mut p = 0;
    let bytes = body.as_bytes();
    while let Some(&b) = bytes.get(p) {
        match b {
            b'%' => return Err(XmlError),
            b'&' => {
                let (reference, next) = scan_ref(body, p + 1)?;
                match reference {
                    Reference::Char(code) => out.push(char::from_u32(code).ok_or(XmlError)?),
                    Reference::Entity(..) => out.push_str(body.get(p..next).ok_or(XmlError)?),
                }
                p = next;
            }
            b'\r' => {
                // Line breaks are normalised to LF when stored.
                out.push('\n');
                p += if bytes.get(p + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            }
            _ => {
                let len = utf8_len(b);
                out.push_str(body.get(p..p + len).ok_or(XmlError)?);
                p += len;
            }
        }
    }
    Ok(out)
}
