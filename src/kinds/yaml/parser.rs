//! Parser (port of PyYAML's parser.py): tokens to events, a state machine without recursion.

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Event<'a> {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(&'a str),
    /// `resolve_implicitly` is PyYAML's `implicit[0]`: plain (or `!`-tagged) scalars get the
    /// implicit resolvers, quoted and block scalars are strings.
    Scalar {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
        resolve_implicitly: bool,
        value: Cow<'a, str>,
    },
    SequenceStart {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
    },
    MappingEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    Finished,
}

pub(super) struct Parser<'a> {
    pub(super) scanner: Scanner<'a>,
    pub(super) state: State,
    pub(super) states: Vec<State>,
    pub(super) tag_handles: HashMap<String, String>,
    pub(super) peeked: Option<Event<'a>>,
}

pub(super) fn default_tag_handles() -> HashMap<String, String> {
    HashMap::from([
        ("!".to_string(), "!".to_string()),
        ("!!".to_string(), "tag:yaml.org,2002:".to_string()),
    ])
}

impl<'a> Parser<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Parser {
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            tag_handles: default_tag_handles(),
            peeked: None,
        }
    }

    pub(super) fn peek_event(&mut self) -> Res<&Event<'a>> {
        if self.peeked.is_none() {
            let event = self.produce()?;
            self.peeked = Some(event);
        }
        self.peeked.as_ref().ok_or(Rejected)
    }

    pub(super) fn next_event(&mut self) -> Res<Event<'a>> {
        match self.peeked.take() {
            Some(event) => Ok(event),
            None => self.produce(),
        }
    }

    pub(super) fn pop_state(&mut self) -> Res<State> {
        self.states.pop().ok_or(Rejected)
    }

    pub(super) fn check(&mut self, kinds: &[Kind]) -> Res<bool> {
        self.scanner.check(kinds)
    }

    pub(super) fn skip_token(&mut self) -> Res<()> {
        self.scanner.next_token().map(|_| ())
    }

    pub(super) fn produce(&mut self) -> Res<Event<'a>> {
        match self.state {
            State::StreamStart => {
                self.skip_token()?;
                self.state = State::ImplicitDocumentStart;
                Ok(Event::StreamStart)
            }
            State::ImplicitDocumentStart => {
                if !self.check(&[Kind::Directive, Kind::DocumentStart, Kind::StreamEnd])? {
                    self.tag_handles = default_tag_handles();
                    self.states.push(State::DocumentEnd);
                    self.state = State::BlockNode;
                    Ok(Event::DocumentStart)
                } else {
                    self.parse_document_start()
                }
            }
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => {
                if self.check(&[Kind::DocumentEnd])? {
                    self.skip_token()?;
                }
                self.state = State::DocumentStart;
                Ok(Event::DocumentEnd)
            }
            State::DocumentContent => {
                if self.check(&[
                    Kind::Directive,
                    Kind::DocumentStart,
                    Kind::DocumentEnd,
                    Kind::StreamEnd,
                ])? {
                    self.state = self.pop_state()?;
                    Ok(empty_scalar())
                } else {
                    self.parse_node(true, false)
                }
            }
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                self.skip_token()?;
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => {
                if self.check(&[Kind::BlockEntry])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::BlockEntry, Kind::Key, Kind::Value, Kind::BlockEnd])? {
                        self.states.push(State::IndentlessSequenceEntry);
                        return self.parse_node(true, false);
                    }
                    self.state = State::IndentlessSequenceEntry;
                    return Ok(empty_scalar());
                }
                self.state = self.pop_state()?;
                Ok(Event::SequenceEnd)
            }
            State::BlockMappingFirstKey => {
                self.skip_token()?;
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::Key, Kind::Value, Kind::BlockEnd])? {
                        self.states.push(State::BlockMappingKey);
                        return self.parse_node(true, true);
                    }
                }
                self.state = State::BlockMappingKey;
                Ok(empty_scalar())
            }
            State::FlowSequenceFirstEntry => {
                self.skip_token()?;
                self.parse_flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => {
                self.skip_token()?;
                if !self.check(&[Kind::Value, Kind::FlowEntry, Kind::FlowSequenceEnd])? {
                    self.states.push(State::FlowSequenceEntryMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowSequenceEntryMappingValue;
                Ok(empty_scalar())
            }
            State::FlowSequenceEntryMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::FlowEntry, Kind::FlowSequenceEnd])? {
                        self.states.push(State::FlowSequenceEntryMappingEnd);
                        return self.parse_node(false, false);
                    }
                }
                self.state = State::FlowSequenceEntryMappingEnd;
                Ok(empty_scalar())
            }
            State::FlowSequenceEntryMappingEnd => {
                self.state = State::FlowSequenceEntry;
                Ok(Event::MappingEnd)
            }
            State::FlowMappingFirstKey => {
                self.skip_token()?;
                self.parse_flow_mapping_key(true)
            }
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::FlowEntry, Kind::FlowMappingEnd])? {
                        self.states.push(State::FlowMappingKey);
                        return self.parse_node(false, false);
                    }
                }
                self.state = State::FlowMappingKey;
                Ok(empty_scalar())
            }
            State::FlowMappingEmptyValue => {
                self.state = State::FlowMappingKey;
                Ok(empty_scalar())
            }
            State::Finished => Err(Rejected),
        }
    }

    pub(super) fn parse_document_start(&mut self) -> Res<Event<'a>> {
        while self.check(&[Kind::DocumentEnd])? {
            self.skip_token()?;
        }
        if self.check(&[Kind::StreamEnd])? {
            self.skip_token()?;
            self.state = State::Finished;
            return Ok(Event::StreamEnd);
        }
        self.process_directives()?;
        if !self.check(&[Kind::DocumentStart])? {
            return Err(Rejected); // "expected '<document start>'"
        }
        self.skip_token()?;
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        Ok(Event::DocumentStart)
    }

    pub(super) fn process_directives(&mut self) -> Res<()> {
        let mut seen_yaml_directive = false;
        self.tag_handles = HashMap::new();
        while self.check(&[Kind::Directive])? {
            match self.scanner.next_token()? {
                Token::Directive(Directive::Yaml { major_is_one }) => {
                    if seen_yaml_directive || !major_is_one {
                        return Err(Rejected);
                    }
                    seen_yaml_directive = true;
                }
                Token::Directive(Directive::Tag { handle, prefix }) => {
                    if self.tag_handles.contains_key(&handle) {
                        return Err(Rejected);
                    }
                    self.tag_handles.insert(handle, prefix);
                }
                _ => {}
            }
        }
        for (handle, prefix) in default_tag_handles() {
            self.tag_handles.entry(handle).or_insert(prefix);
        }
        Ok(())
    }

    pub(super) fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Res<Event<'a>> {
        if self.check(&[Kind::Alias])? {
            let Token::Alias(name) = self.scanner.next_token()? else {
                return Err(Rejected);
            };
            self.state = self.pop_state()?;
            return Ok(Event::Alias(name));
        }
        let mut anchor = None;
        let mut tag_token = None;
        if self.check(&[Kind::Anchor])? {
            anchor = self.take_anchor()?;
            if self.check(&[Kind::Tag])? {
                tag_token = self.take_tag()?;
            }
        } else if self.check(&[Kind::Tag])? {
            tag_token = self.take_tag()?;
            if self.check(&[Kind::Anchor])? {
                anchor = self.take_anchor()?;
            }
        }
        let tag = match tag_token {
            Some((Some(handle), suffix)) => {
                let prefix = self.tag_handles.get(handle).ok_or(Rejected)?; // undefined tag handle
                Some(Cow::Owned(format!("{prefix}{suffix}")))
            }
            Some((None, suffix)) => Some(suffix),
            None => None,
        };
        let non_specific = tag.as_deref().is_none_or(|tag| tag == "!");
        if indentless_sequence && self.check(&[Kind::BlockEntry])? {
            self.state = State::IndentlessSequenceEntry;
            return Ok(Event::SequenceStart { anchor, tag });
        }
        match self.scanner.peek_kind()? {
            Some(Kind::Scalar) => {
                let Token::Scalar { value, plain } = self.scanner.next_token()? else {
                    return Err(Rejected);
                };
                let resolve_implicitly = (plain && tag.is_none()) || tag.as_deref() == Some("!");
                self.state = self.pop_state()?;
                Ok(Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly,
                    value,
                })
            }
            Some(Kind::FlowSequenceStart) => {
                self.state = State::FlowSequenceFirstEntry;
                Ok(Event::SequenceStart { anchor, tag })
            }
            Some(Kind::FlowMappingStart) => {
                self.state = State::FlowMappingFirstKey;
                Ok(Event::MappingStart { anchor, tag })
            }
            Some(Kind::BlockSequenceStart) if block => {
                self.state = State::BlockSequenceFirstEntry;
                Ok(Event::SequenceStart { anchor, tag })
            }
            Some(Kind::BlockMappingStart) if block => {
                self.state = State::BlockMappingFirstKey;
                Ok(Event::MappingStart { anchor, tag })
            }
            _ if anchor.is_some() || tag.is_some() => {
                // An anchor or tag alone: an empty scalar.
                self.state = self.pop_state()?;
                Ok(Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly: non_specific,
                    value: Cow::Borrowed(""),
                })
            }
            _ => Err(Rejected), // "expected the node content"
        }
    }

    pub(super) fn take_anchor(&mut self) -> Res<Option<&'a str>> {
        match self.scanner.next_token()? {
            Token::Anchor(name) => Ok(Some(name)),
            _ => Err(Rejected),
        }
    }

    pub(super) fn take_tag(&mut self) -> Res<Option<(Option<&'a str>, Cow<'a, str>)>> {
        match self.scanner.next_token()? {
            Token::Tag(handle, suffix) => Ok(Some((handle, suffix))),
            _ => Err(Rejected),
        }
    }

    pub(super) fn parse_block_sequence_entry(&mut self) -> Res<Event<'a>> {
        if self.check(&[Kind::BlockEntry])? {
            self.skip_token()?;
            if !self.check(&[Kind::BlockEntry, Kind::BlockEnd])? {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::BlockSequenceEntry;
            return Ok(empty_scalar());
        }
        if !self.check(&[Kind::BlockEnd])? {
            return Err(Rejected); // "expected <block end>"
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::SequenceEnd)
    }

    pub(super) fn parse_block_mapping_key(&mut self) -> Res<Event<'a>> {
        if self.check(&[Kind::Key])? {
            self.skip_token()?;
            if !self.check(&[Kind::Key, Kind::Value, Kind::BlockEnd])? {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingValue;
            return Ok(empty_scalar());
        }
        if !self.check(&[Kind::BlockEnd])? {
            return Err(Rejected); // "expected <block end>"
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::MappingEnd)
    }

    pub(super) fn parse_flow_sequence_entry(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[Kind::FlowSequenceEnd])? {
            if !first {
                if self.check(&[Kind::FlowEntry])? {
                    self.skip_token()?;
                } else {
                    return Err(Rejected); // "expected ',' or ']'"
                }
            }
            if self.check(&[Kind::Key])? {
                // `[a: b]`: a single-pair mapping inside a flow sequence.
                self.state = State::FlowSequenceEntryMappingKey;
                return Ok(Event::MappingStart {
                    anchor: None,
                    tag: None,
                });
            }
            if !self.check(&[Kind::FlowSequenceEnd])? {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::SequenceEnd)
    }

    pub(super) fn parse_flow_mapping_key(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[Kind::FlowMappingEnd])? {
            if !first {
                if self.check(&[Kind::FlowEntry])? {
                    self.skip_token()?;
                } else {
                    return Err(Rejected); // "expected ',' or '}'"
                }
            }
            if self.check(&[Kind::Key])? {
                self.skip_token()?;
                if !self.check(&[Kind::Value, Kind::FlowEntry, Kind::FlowMappingEnd])? {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar());
            }
            if !self.check(&[Kind::FlowMappingEnd])? {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::MappingEnd)
    }
}

pub(super) fn empty_scalar<'a>() -> Event<'a> {
    Event::Scalar {
        anchor: None,
        tag: None,
        resolve_implicitly: true,
        value: Cow::Borrowed(""),
    }
}
