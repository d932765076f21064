//! Content (doContent / storeAtts): elements, attributes, namespaces, the epilog.

use super::*;

/// A byte range of the text being parsed.
pub(super) type Span = (usize, usize);
/// An attribute as tokenized: raw name and raw value (without quotes).
#[derive(Clone, Copy)]
pub(super) struct RawAttribute {
    pub(super) name: Span,
    pub(super) value: Span,
    /// Whether the value holds a reference (`&`), which must then resolve.
    pub(super) has_reference: bool,
    /// Whether the name has a prefix (a colon).
    pub(super) prefixed: bool,
}

/// A start tag as tokenized: raw qname and raw attribute (name, value without quotes) ranges.
pub(super) struct StartTag<'b> {
    pub(super) name: Span,
    /// Whether the name has a prefix (a colon).
    pub(super) prefixed: bool,
    /// In the caller's buffer, reused from tag to tag.
    pub(super) attributes: &'b [RawAttribute],
    pub(super) empty: bool,
    pub(super) end: usize,
}

/// Scans a qname in a start tag or attribute: name chars with at most one colon, which must be
/// followed by a name-start char (expat's namespace-mode tokenizer). `pos` is past the first
/// char. Returns the end, the char type found there and whether the name has a colon.
#[inline(always)]
pub(super) fn scan_qname_rest(s: &str, mut pos: usize) -> Res<(usize, Bt, bool)> {
    let mut had_colon = false;
    loop {
        // Names are mostly ASCII: their chars skip the general classification.
        pos = skip_ascii_name_chars(s.as_bytes(), pos);
        let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
        if is_name_char(bt) {
            pos += len;
        } else if bt == Bt::Colon {
            if had_colon {
                return Err(XmlError);
            }
            had_colon = true;
            let (next, next_len) = char_at(s, pos + 1).ok_or(XmlError)?;
            if !is_nmstrt(next) {
                return Err(XmlError);
            }
            pos += 1 + next_len;
        } else {
            return Ok((pos, bt, had_colon));
        }
    }
}

/// Whether an ASCII byte is a name char (letters, digits, `.`, `-`, `_`; the colon is not).
pub(super) fn is_ascii_name_byte(byte: u8) -> bool {
    ASCII_NAME_BYTES[usize::from(byte)]
}

/// The position after the ASCII name chars from `pos`.
pub(super) fn skip_ascii_name_chars(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&byte| is_ascii_name_byte(byte)) {
        pos += 1;
    }
    pos
}

/// An attribute value after its opening quote `open`: returns the position of the closing
/// quote and whether the value holds a reference. `<` and chars XML forbids are errors; references must be well formed. Byte by byte:
/// UTF-8 continuation bytes are never special, and of the non-ASCII chars only U+FFFE and
/// U+FFFF (EF BF BE / EF BF BF) are forbidden.
pub(super) fn scan_attribute_value(s: &str, mut pos: usize, open: u8) -> Res<(usize, bool)> {
    let bytes = s.as_bytes();
    let mut has_reference = false;
    loop {
        while bytes
            .get(pos)
            .is_some_and(|&byte| PLAIN_ATTRIBUTE_BYTES[usize::from(byte)])
        {
            pos += 1;
        }
        let byte = *bytes.get(pos).ok_or(XmlError)?;
        match byte {
            _ if byte == open => return Ok((pos, has_reference)),
            b'<' => return Err(XmlError),
            b'&' => {
                has_reference = true;
                pos = scan_ref(s, pos + 1)?.1;
            }
            b'\t' | b'\n' | b'\r' => pos += 1,
            0..=0x1F => return Err(XmlError),
            0xEF if bytes.get(pos + 1) == Some(&0xBF)
                && matches!(bytes.get(pos + 2), Some(0xBE | 0xBF)) =>
            {
                return Err(XmlError)
            }
            _ => pos += 1,
        }
    }
}

pub(super) fn skip_spaces(s: &str, mut pos: usize) -> usize {
    while matches!(byte_at(s, pos), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        pos += 1;
    }
    pos
}

/// scanLt + scanAtts for a start tag; `pos` is just after `<` at a name-start char.
pub(super) fn scan_start_tag<'b>(
    s: &str,
    pos: usize,
    attributes: &'b mut Vec<RawAttribute>,
) -> Res<StartTag<'b>> {
    attributes.clear();
    let (_, first_len) = char_at(s, pos).ok_or(XmlError)?;
    let (name_end, mut bt, prefixed) = scan_qname_rest(s, pos + first_len)?;
    let mut p = name_end;
    loop {
        match bt {
            Bt::Gt => {
                return Ok(StartTag {
                    name: (pos, name_end),
                    prefixed,
                    attributes,
                    empty: false,
                    end: p + 1,
                })
            }
            Bt::Sol => {
                if byte_at(s, p + 1) != Some(b'>') {
                    return Err(XmlError);
                }
                return Ok(StartTag {
                    name: (pos, name_end),
                    prefixed,
                    attributes,
                    empty: true,
                    end: p + 2,
                });
            }
            Bt::S | Bt::Cr | Bt::Lf => {
                p = skip_spaces(s, p);
                let (next, len) = char_at(s, p).ok_or(XmlError)?;
                if matches!(next, Bt::Gt | Bt::Sol) {
                    bt = next;
                    continue;
                }
                if !is_nmstrt(next) {
                    return Err(XmlError);
                }
                let attr_start = p;
                let (attr_end, mut after, prefixed) = scan_qname_rest(s, p + len)?;
                p = attr_end;
                if is_space_bt(after) {
                    p = skip_spaces(s, p);
                    after = char_at(s, p).ok_or(XmlError)?.0;
                }
                if after != Bt::Equals {
                    return Err(XmlError);
                }
                p = skip_spaces(s, p + 1);
                let open = byte_at(s, p).ok_or(XmlError)?;
                if open != b'"' && open != b'\'' {
                    return Err(XmlError);
                }
                p += 1;
                let value_start = p;
                let (value_end, has_reference) = scan_attribute_value(s, p, open)?;
                p = value_end;
                attributes.push(RawAttribute {
                    name: (attr_start, attr_end),
                    value: (value_start, value_end),
                    has_reference,
                    prefixed,
                });
                p += 1;
                bt = char_at(s, p).ok_or(XmlError)?.0;
                // After a value only white space, `/` or `>` may follow.
                if !matches!(bt, Bt::S | Bt::Cr | Bt::Lf | Bt::Sol | Bt::Gt) {
                    return Err(XmlError);
                }
            }
            _ => return Err(XmlError),
        }
    }
}

/// `</name S? >` after `</`: the name is not checked as a qname (it must match the start tag).
pub(super) fn scan_end_tag(s: &str, pos: usize) -> Res<((usize, usize), usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        p = skip_ascii_name_chars(s.as_bytes(), p);
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if is_name_char(bt) || bt == Bt::Colon {
            p += len;
            continue;
        }
        let name_end = p;
        p = skip_spaces(s, p);
        if byte_at(s, p) != Some(b'>') {
            return Err(XmlError);
        }
        return Ok(((pos, name_end), p + 1));
    }
}

/// `<![CDATA[ ... ]]>` after `<![`; returns the position after `]]>`.
pub(super) fn scan_cdata(s: &str, pos: usize) -> Res<usize> {
    let rest = s.get(pos..).ok_or(XmlError)?;
    if !rest.starts_with("CDATA[") {
        return Err(XmlError);
    }
    let mut p = pos + 6;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        match bt {
            Bt::NonXml => return Err(XmlError),
            Bt::Rsqb if s.get(p..).is_some_and(|r| r.starts_with("]]>")) => return Ok(p + 3),
            _ => p += len,
        }
    }
}

/// Start tags with at most this many attributes check names pairwise instead of hashing them.
pub(super) const FEW_ATTRIBUTES: usize = 8;

/// The attribute names a start tag gives, checked to be distinct (a repeated name is an error).
/// A handful are compared pairwise; more go in a hash set, so many attributes stay linear.
pub(super) struct SpecifiedNames<'t> {
    pub(super) text: &'t str,
    pub(super) attributes: &'t [RawAttribute],
    pub(super) many: Option<HashSet<&'t str>>,
}

impl<'t> SpecifiedNames<'t> {
    pub(super) fn new(text: &'t str, attributes: &'t [RawAttribute]) -> Res<Self> {
        let name = |attribute: &RawAttribute| {
            let (start, end) = attribute.name;
            text.get(start..end).ok_or(XmlError)
        };
        let mut many = None;
        if attributes.len() <= FEW_ATTRIBUTES {
            for (index, attribute) in attributes.iter().enumerate() {
                let this = name(attribute)?;
                for earlier in attributes.iter().take(index) {
                    if name(earlier)? == this {
                        return Err(XmlError);
                    }
                }
            }
        } else {
            let mut seen = HashSet::with_capacity(attributes.len());
            for attribute in attributes {
                if !seen.insert(name(attribute)?) {
                    return Err(XmlError);
                }
            }
            many = Some(seen);
        }
        Ok(SpecifiedNames {
            text,
            attributes,
            many,
        })
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        match &self.many {
            Some(seen) => seen.contains(name),
            None => self
                .attributes
                .iter()
                .any(|attribute| self.text.get(attribute.name.0..attribute.name.1) == Some(name)),
        }
    }
}

/// Splits a qname at its colon: (prefix, local). Tokenizing guarantees at most one colon.
pub(super) fn split_qname(name: &str) -> (Option<&str>, &str) {
    // Names are short: a plain loop beats the general substring search.
    let colon = name.bytes().position(|byte| byte == b':');
    match colon.and_then(|at| Some(name.get(..at)?).zip(name.get(at + 1..))) {
        Some((prefix, local)) => (Some(prefix), local),
        None => (None, name),
    }
}

impl<'a> Parser<'a> {
    /// Parses from the root's `<` until the root closes; returns the position after it.
    pub(super) fn content(&mut self, start: usize) -> Res<usize> {
        let mut frames: Vec<Frame<'a>> = vec![Frame {
            text: Text::Document(self.text),
            pos: start,
            entity: None,
            start_depth: 0,
        }];
        let mut attribute_buffer = Vec::new();
        loop {
            let frame_index = frames.len().saturating_sub(1);
            let Some(frame) = frames.last() else {
                return Err(XmlError);
            };
            let source = frame.text.clone();
            let start_depth = frame.start_depth;
            let s = source.as_str();
            let bytes = s.as_bytes();
            let mut p = frame.pos;
            // Document position for the amplification ratio.
            let direct = |frames: &Vec<Frame<'a>>, p: usize| {
                if frame_index == 0 {
                    p
                } else {
                    frames.first().map_or(p, |f| f.pos)
                }
            };
            loop {
                while bytes
                    .get(p)
                    .is_some_and(|&byte| PLAIN_CONTENT_BYTES[usize::from(byte)])
                {
                    p += 1;
                }
                let Some(&b) = bytes.get(p) else {
                    if frame_index == 0 {
                        // The document ended inside the root element.
                        return Err(XmlError);
                    }
                    // An entity must close exactly the elements it opened.
                    if self.elements.len() != start_depth {
                        return Err(XmlError);
                    }
                    if let Some(Frame {
                        entity: Some(name), ..
                    }) = frames.pop()
                    {
                        self.open_entities.remove(&name);
                    }
                    break;
                };
                match b {
                    b'<' => {
                        let (bt, _) = char_at(s, p + 1).ok_or(XmlError)?;
                        match bt {
                            Bt::Excl => match byte_at(s, p + 2) {
                                Some(b'-') => p = scan_comment(s, p + 3)?,
                                Some(b'[') => p = scan_cdata(s, p + 3)?,
                                _ => return Err(XmlError),
                            },
                            Bt::Quest => {
                                let (is_decl, end) = scan_pi(s, p + 2)?;
                                if is_decl {
                                    return Err(XmlError);
                                }
                                p = end;
                            }
                            Bt::Sol => {
                                if self.elements.len() <= start_depth {
                                    return Err(XmlError);
                                }
                                let Some(&open) = self.elements.last() else {
                                    return Err(XmlError);
                                };
                                let open_name =
                                    self.open_names.get(open.name_start..).ok_or(XmlError)?;
                                let name_start = p + 2;
                                let name_end = name_start + open_name.len();
                                // `</name>` spelled as its start tag, whose name was checked
                                // there, needs no scan.
                                let end = if bytes.get(name_start..name_end)
                                    == Some(open_name.as_bytes())
                                    && bytes.get(name_end) == Some(&b'>')
                                {
                                    name_end + 1
                                } else {
                                    let ((start, stop), end) = scan_end_tag(s, name_start)?;
                                    if s.get(start..stop) != Some(open_name) {
                                        return Err(XmlError);
                                    }
                                    end
                                };
                                self.elements.pop();
                                self.open_names.truncate(open.name_start);
                                self.pop_bindings(open.bindings);
                                p = end;
                                if self.elements.is_empty() {
                                    return Ok(p);
                                }
                            }
                            _ if is_nmstrt(bt) => {
                                let tag = scan_start_tag(s, p + 1, &mut attribute_buffer)?;
                                p = tag.end;
                                let at = direct(&frames, p);
                                self.start_element(s, &tag, at)?;
                                if tag.empty && self.elements.is_empty() {
                                    return Ok(p);
                                }
                            }
                            _ => return Err(XmlError),
                        }
                    }
                    b'&' => {
                        let (reference, end) = scan_ref(s, p + 1)?;
                        p = end;
                        let Reference::Entity(name_start, name_end) = reference else {
                            continue;
                        };
                        let name = s.get(name_start..name_end).ok_or(XmlError)?;
                        if predefined_entity(name).is_some() {
                            continue;
                        }
                        // Undefined, external and unparsed entities all fail: ElementTree
                        // reports expat's skipped references as undefined.
                        let Some(EntityKind::Internal(replacement)) = self.entities.get(name)
                        else {
                            return Err(XmlError);
                        };
                        let replacement = replacement.clone();
                        if self.open_entities.contains(name) {
                            return Err(XmlError);
                        }
                        let at = direct(&frames, p);
                        self.account_expansion(replacement.len(), at)?;
                        self.open_entities.insert(name.to_string());
                        let name = name.to_string();
                        if let Some(frame) = frames.last_mut() {
                            frame.pos = p;
                        }
                        frames.push(Frame {
                            text: Text::Entity(replacement),
                            pos: 0,
                            entity: Some(name),
                            start_depth: self.elements.len(),
                        });
                        break;
                    }
                    b']' => {
                        if bytes.get(p + 1) == Some(&b']') && bytes.get(p + 2) == Some(&b'>') {
                            return Err(XmlError);
                        }
                        p += 1;
                    }
                    b'\t' | b'\n' | b'\r' => p += 1,
                    0..=0x1F => return Err(XmlError),
                    0xEF => {
                        // U+FFFE and U+FFFF (EF BF BE / EF BF BF) are not XML characters.
                        if bytes.get(p + 1) == Some(&0xBF)
                            && matches!(bytes.get(p + 2), Some(0xBE | 0xBF))
                        {
                            return Err(XmlError);
                        }
                        p += 3;
                    }
                    _ => p += 1,
                }
            }
        }
    }

    /// Undoes the last `count` bindings; inlined for the usual element, which pushed none.
    #[inline(always)]
    pub(super) fn pop_bindings(&mut self, count: usize) {
        if count > 0 {
            self.undo_bindings(count);
        }
    }

    pub(super) fn undo_bindings(&mut self, count: usize) {
        for _ in 0..count {
            if let Some((prefix, previous)) = self.binding_log.pop() {
                match previous {
                    Some(uri) => self.bindings.insert(prefix, uri),
                    None => self.bindings.remove(&prefix),
                };
            }
        }
    }

    /// addBinding's checks, then binds `prefix` ("" = default namespace) to `uri`.
    pub(super) fn add_binding(&mut self, prefix: &str, uri: &str) -> Res<()> {
        if uri.is_empty() && !prefix.is_empty() {
            return Err(XmlError);
        }
        if prefix == "xmlns" {
            return Err(XmlError);
        }
        let must_be_xml = prefix == "xml";
        let is_xml = uri == XML_NAMESPACE;
        // ElementTree's separator `}` is not a URI character, so URIs holding it are refused.
        if must_be_xml != is_xml || uri == XMLNS_NAMESPACE || uri.contains('}') {
            return Err(XmlError);
        }
        let previous = self.bindings.insert(prefix.to_string(), uri.to_string());
        self.binding_log.push((prefix.to_string(), previous));
        Ok(())
    }

    pub(super) fn namespace_of(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(XML_NAMESPACE);
        }
        self.bindings.get(prefix).map(String::as_str)
    }

    /// storeAtts: attribute values, defaults, namespace bindings, expanded names; records the
    /// root and its children for the summary. Runs for every start tag, so the usual case (no
    /// declared defaults, no namespaces, a few attributes) allocates nothing.
    pub(super) fn start_element(&mut self, s: &str, tag: &StartTag, direct: usize) -> Res<()> {
        let raw_name = s.get(tag.name.0..tag.name.1).ok_or(XmlError)?;
        let attribute_name = |attribute: &RawAttribute| {
            let (start, end) = attribute.name;
            s.get(start..end).ok_or(XmlError)
        };
        let specified = SpecifiedNames::new(s, tag.attributes)?;
        // The usual tag: no declared defaults (so every attribute is CDATA) and no namespace
        // declarations, so no binding changes and nothing to collect.
        if self.attribute_defaults.is_empty()
            && !tag
                .attributes
                .iter()
                .any(|attribute| attribute_name(attribute).map_or(true, is_xmlns_name))
        {
            for attribute in tag.attributes.iter().filter(|a| a.has_reference) {
                let (value_start, value_end) = attribute.value;
                let raw_value = s.get(value_start..value_end).ok_or(XmlError)?;
                self.attribute_value(Text::Document(raw_value), true, direct)?;
            }
            let prefixed = tag.attributes.iter().filter(|a| a.prefixed);
            self.check_attribute_prefixes(prefixed.filter_map(|a| attribute_name(a).ok()))?;
            return self.record_element(raw_name, tag, tag.attributes.len(), 0);
        }
        // Declared defaults of this element: (name, value, is CDATA), cloned so attribute
        // values can be expanded (which needs `&mut self`) while they are consulted.
        let defaults: Vec<(String, Option<String>, bool)> = if self.attribute_defaults.is_empty() {
            Vec::new()
        } else {
            self.attribute_defaults
                .get(raw_name)
                .map(|list| {
                    list.iter()
                        .map(|d| (d.name.clone(), d.value.clone(), d.is_cdata))
                        .collect()
                })
                .unwrap_or_default()
        };
        // (raw name, value) of namespace declarations, specified first, then defaults.
        let mut declarations: Vec<(&str, String)> = Vec::new();
        let mut plain_count = 0usize;
        for attribute in tag.attributes {
            let name = attribute_name(attribute)?;
            let (value_start, value_end) = attribute.value;
            let cdata = defaults.iter().find(|d| d.0 == name).is_none_or(|d| d.2);
            let raw_value = s.get(value_start..value_end).ok_or(XmlError)?;
            if is_xmlns_name(name) {
                let value = self.attribute_value(Text::Document(raw_value), cdata, direct)?;
                declarations.push((name, value));
            } else {
                // The value is only needed for the references it may hold (they must resolve).
                if attribute.has_reference {
                    self.attribute_value(Text::Document(raw_value), cdata, direct)?;
                }
                plain_count += 1;
            }
        }
        // Defaults of attributes the tag does not give.
        let added_defaults = || {
            defaults.iter().filter_map(|(name, value, _)| {
                let value = value.as_ref()?;
                (!specified.contains(name)).then_some((name.as_str(), value))
            })
        };
        for (name, value) in added_defaults() {
            if is_xmlns_name(name) {
                declarations.push((name, value.clone()));
            } else {
                plain_count += 1;
            }
        }
        let mut pushed = 0;
        let mut result = Ok(());
        for (name, uri) in &declarations {
            let prefix = name.strip_prefix("xmlns:").unwrap_or("");
            result = self.add_binding(prefix, uri);
            if result.is_err() {
                break;
            }
            pushed += 1;
        }
        let plain_names = tag
            .attributes
            .iter()
            .filter_map(|attribute| attribute_name(attribute).ok())
            .chain(added_defaults().map(|(name, _)| name))
            .filter(|name| !is_xmlns_name(name));
        let recorded = result
            .and_then(|()| self.check_attribute_prefixes(plain_names))
            .and_then(|()| self.record_element(raw_name, tag, plain_count, pushed));
        if recorded.is_err() {
            self.pop_bindings(pushed);
        }
        recorded
    }

    /// A start tag whose attributes passed every check: its own prefix must be bound; the
    /// root or a child of it goes in the summary (only they need the ElementTree tag); the
    /// element opens (or, empty, closes at once, dropping the `bindings` it pushed).
    pub(super) fn record_element(
        &mut self,
        raw_name: &str,
        tag: &StartTag<'_>,
        attributes: usize,
        bindings: usize,
    ) -> Res<()> {
        match self.elements.len() {
            0 => {
                let tag_name = self.element_tag(raw_name)?;
                self.summary = Some(DocumentSummary {
                    root_tag: tag_name.into_owned(),
                    root_attributes: attributes,
                    children: Vec::new(),
                });
            }
            1 => {
                let tag_name = self.element_tag(raw_name)?;
                self.count_child(&tag_name);
            }
            _ if tag.prefixed => {
                if let (Some(prefix), _) = split_qname(raw_name) {
                    self.namespace_of(prefix).ok_or(XmlError)?;
                }
            }
            _ => {}
        }
        if tag.empty {
            self.pop_bindings(bindings);
        } else {
            self.elements.push(OpenElement {
                name_start: self.open_names.len(),
                bindings,
            });
            self.open_names.push_str(raw_name);
        }
        Ok(())
    }

    /// One more direct child of the root with this tag.
    pub(super) fn count_child(&mut self, tag_name: &str) {
        let Some(summary) = self.summary.as_mut() else {
            return;
        };
        let index = match summary.children.get(self.last_child) {
            Some((last, _)) if last == tag_name => Some(self.last_child),
            _ => self.child_index.get(tag_name).copied(),
        };
        match index.and_then(|i| Some(i).zip(summary.children.get_mut(i))) {
            Some((i, entry)) => {
                entry.1 += 1;
                self.last_child = i;
            }
            None => {
                self.last_child = summary.children.len();
                self.child_index
                    .insert(tag_name.to_string(), self.last_child);
                summary.children.push((tag_name.to_string(), 1));
            }
        }
    }

    /// Every prefixed attribute's prefix is bound, and no two attributes share an expanded name.
    pub(super) fn check_attribute_prefixes<'n>(
        &self,
        names: impl Iterator<Item = &'n str>,
    ) -> Res<()> {
        // Created at the first prefixed name: most tags have none.
        let mut expanded: Option<HashSet<(&str, &str)>> = None;
        for name in names {
            if let (Some(prefix), local) = split_qname(name) {
                let uri = self.namespace_of(prefix).ok_or(XmlError)?;
                if !expanded.get_or_insert_default().insert((uri, local)) {
                    return Err(XmlError);
                }
            }
        }
        Ok(())
    }

    /// The element's ElementTree tag (`{uri}local` when namespaced), after checking its prefix
    /// is bound.
    pub(super) fn element_tag<'n>(&self, raw_name: &'n str) -> Res<Cow<'n, str>> {
        let (prefix, local) = split_qname(raw_name);
        let uri = match prefix {
            Some(prefix) => self.namespace_of(prefix).ok_or(XmlError)?,
            None if self.bindings.is_empty() => "",
            None => self.namespace_of("").unwrap_or(""),
        };
        if uri.is_empty() {
            Ok(Cow::Borrowed(local))
        } else {
            Ok(Cow::Owned(format!("{{{uri}}}{local}")))
        }
    }

    /// After the root: only white space, comments and processing instructions.
    pub(super) fn epilog(&mut self, start: usize) -> Res<()> {
        let s = self.text;
        let mut pos = start;
        while pos < s.len() {
            let (tok, end) = prolog_tok(s, pos)?;
            if !matches!(tok, PTok::S | PTok::Pi | PTok::Comment) {
                return Err(XmlError);
            }
            pos = end;
        }
        Ok(())
    }
}
