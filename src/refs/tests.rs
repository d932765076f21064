use serde_json::json;

use super::*;

fn with_grants(grants: Value) -> Result<Vec<ReadableSession>> {
    let mut list = vec![json!({"sessionId": "parent"})];
    list.extend(grants.as_array().cloned().unwrap_or_default());
    readable_sessions(&Value::Array(list))
}

fn sessions() -> Vec<ReadableSession> {
    with_grants(json!([
        "child-a",
        {"sessionId": "child-b", "sessionUri": "mem://team/b"}
    ]))
    .unwrap()
}

const OWN_REF: &str = "viking://user/default/sessions/parent/tool-results/tr_page_0123456789abcdef";
const CHILD_A_REF: &str = "viking://user/default/sessions/child-a/tool-results/tr_x_1";
const CHILD_B_REF: &str = "mem://team/b/tool-results/tr_y";
const STRANGER_REF: &str = "viking://user/default/sessions/stranger/tool-results/tr_z";

/// The content a resolution gives, cut from `text` as the host cuts it (by UTF-16 offsets).
fn cut(text: &str, form: Value, max: usize) -> Result<String> {
    let resolved = resolve_spans(text, &form, max)?;
    let units: Vec<u16> = text.encode_utf16().collect();
    let pieces: Vec<String> = resolved
        .spans
        .chunks(2)
        .map(|pair| String::from_utf16(&units[pair[0]..pair[1]]).unwrap())
        .collect();
    let joined = pieces.join(resolved.separator);
    assert_eq!(char_len(&joined), resolved.chars, "chars of {joined:?}");
    Ok(joined)
}

#[test]
fn grants_are_checked_and_own_session_comes_first() {
    let all = sessions();
    assert_eq!(
        all.iter()
            .map(|s| s.session_id.as_str())
            .collect::<Vec<_>>(),
        ["parent", "child-a", "child-b"]
    );
    assert_eq!(all[2].session_uri, "mem://team/b");
    for bad in [
        json!([3]),
        json!([{"sessionId": "x", "extra": 1}]),
        json!(["../up"]),
        json!([{"sessionUri": "a://b"}]),
    ] {
        assert_eq!(
            with_grants(bad.clone()).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{bad}"
        );
    }
    assert_eq!(with_grants(json!(["parent", "a", "a"])).unwrap().len(), 2);
    assert!(readable_sessions(&json!("parent")).is_err());
    assert!(readable_sessions(&json!([])).is_err());
}

#[test]
fn a_ref_names_a_readable_session_or_is_refused() {
    let all = sessions();
    assert_eq!(
        ref_target(OWN_REF, &all).unwrap(),
        RefTarget {
            session: 0,
            tool_result_id: "tr_page_0123456789abcdef".into()
        }
    );
    assert_eq!(ref_target(CHILD_A_REF, &all).unwrap().session, 1);
    assert_eq!(ref_target(CHILD_B_REF, &all).unwrap().session, 2);
    assert_eq!(ref_target("tr_bare", &all).unwrap().session, 0);
    assert_eq!(
        ref_target(STRANGER_REF, &all).unwrap_err().code,
        ErrorCode::Forbidden
    );
    // Granted to nobody: the child's ref is foreign to a ToolStub holding no grant.
    assert_eq!(
        ref_target(CHILD_A_REF, &all[..1]).unwrap_err().code,
        ErrorCode::Forbidden
    );
    for not_a_ref in ["https://example.com/page", "../x", ""] {
        assert_eq!(
            ref_target(not_a_ref, &all).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{not_a_ref}"
        );
    }
}

#[test]
fn plans_whole_strings_and_ref_forms_in_document_order() {
    let all = sessions();
    let args = json!({
        "path": "out.html",
        "content": OWN_REF,
        "parts": [{"ref": CHILD_A_REF, "lines": {"start": 2, "count": 3}}, "plain"],
        "git": {"ref": "main"},
        "mention": "see viking://user/default/sessions/parent/tool-results/tr_a in the log",
    });
    let planned = plan_refs(&args, &all).unwrap();
    assert_eq!(planned.len(), 2);
    assert_eq!(planned[0].path, [PathStep::Key("content".into())]);
    assert_eq!(planned[0].session, 0);
    assert_eq!(planned[0].form, json!(OWN_REF));
    assert_eq!(
        planned[1].path,
        [PathStep::Key("parts".into()), PathStep::Index(0)]
    );
    assert_eq!(planned[1].session, 1);
    assert_eq!(planned[1].tool_result_id, "tr_x_1");
    assert!(plan_refs(&json!({"a": 1, "b": [null, "x"]}), &all)
        .unwrap()
        .is_empty());
}

#[test]
fn foreign_and_malformed_refs_fail_the_call_naming_where() {
    let all = sessions();
    let error = plan_refs(&json!({"files": [{"text": STRANGER_REF}]}), &all).unwrap_err();
    assert_eq!(error.code, ErrorCode::Forbidden);
    assert!(
        error.message.starts_with("arguments.files[0].text: "),
        "{}",
        error.message
    );
    for form in [
        json!({"ref": OWN_REF, "offset": 1, "pointer": "/a"}),
        json!({"ref": OWN_REF, "rows": {"start": 0}}),
        json!({"ref": OWN_REF, "lines": 3}),
        json!({"ref": OWN_REF, "offset": "1"}),
        json!({"ref": OWN_REF, "limit": -2}),
        json!({"ref": OWN_REF, "pointer": "no-slash"}),
        json!({"ref": OWN_REF, "extra": true}),
    ] {
        let error = plan_refs(&json!({ "x": form }), &all).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidArgument, "{form}");
        assert!(
            error.message.starts_with("arguments.x: "),
            "{}",
            error.message
        );
    }
    let bad_id = plan_refs(
        &json!(["viking://user/default/sessions/parent/tool-results/a/../b"]),
        &all,
    );
    assert!(bad_id.is_err());
}

#[test]
fn spans_cut_exactly_what_each_form_asks_for() {
    let text = "line one\nligne deux 🎉\nline three\n";
    assert_eq!(cut(text, json!(OWN_REF), 1000).unwrap(), text);
    assert_eq!(
        cut(
            text,
            json!({"ref": OWN_REF, "offset": 9, "limit": 12}),
            1000
        )
        .unwrap(),
        "ligne deux 🎉"
    );
    assert_eq!(
        cut(text, json!({"ref": OWN_REF, "offset": 21}), 1000).unwrap(),
        "\nline three\n"
    );
    assert_eq!(
        cut(
            text,
            json!({"ref": OWN_REF, "lines": {"start": 2, "count": 1}}),
            1000
        )
        .unwrap(),
        "ligne deux 🎉\n"
    );
    assert_eq!(
        cut(text, json!({"ref": OWN_REF, "lines": {"start": 2}}), 1000).unwrap(),
        "ligne deux 🎉\nline three\n"
    );
    let json_text = "{\"a\": {\"b\": [1,  2, {\"c\": \"d\"}]}, \"e\": null}";
    assert_eq!(
        cut(json_text, json!({"ref": OWN_REF, "pointer": "/a/b"}), 1000).unwrap(),
        "[1,  2, {\"c\": \"d\"}]"
    );
    assert_eq!(
        cut(
            json_text,
            json!({"ref": OWN_REF, "pointer": "/a/b/2/c"}),
            1000
        )
        .unwrap(),
        "\"d\""
    );
    let table = "id,name\r\n1,\"a\nb\"\r\n2,c\r\n\r\n3,d\r\n";
    assert_eq!(
        cut(
            table,
            json!({"ref": OWN_REF, "rows": {"start": 1, "count": 2}}),
            1000
        )
        .unwrap(),
        "id,name\n1,\"a\nb\"\n2,c"
    );
    assert_eq!(
        cut(table, json!({"ref": OWN_REF, "rows": {"start": 3}}), 1000).unwrap(),
        "id,name\n3,d"
    );
}

#[test]
fn parts_past_the_end_and_content_over_the_cap_are_refused() {
    let text = "a\nb\n";
    for form in [
        json!({"ref": OWN_REF, "offset": 5}),
        json!({"ref": OWN_REF, "lines": {"start": 3}}),
        json!({"ref": OWN_REF, "pointer": "/a"}),
        json!({"ref": OWN_REF, "rows": {"start": 1}}),
    ] {
        assert_eq!(
            resolve_spans(text, &form, 100).unwrap_err().code,
            ErrorCode::InvalidArgument,
            "{form}"
        );
    }
    assert_eq!(
        cut(text, json!({"ref": OWN_REF, "offset": 4}), 100).unwrap(),
        ""
    );
    let error = resolve_spans(text, &json!(OWN_REF), 3).unwrap_err();
    assert_eq!(error.code, ErrorCode::TooLarge);
    assert_eq!(cut(text, json!(OWN_REF), 4).unwrap(), text);
}

#[test]
fn marked_schemas_take_the_ref_form_beside_each_property() {
    let schema = json!({
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"]
    });
    let widened = accept_refs(schema.clone());
    assert_eq!(widened["required"], schema["required"]);
    let content = &widened["properties"]["content"]["anyOf"];
    assert_eq!(content[0], json!({"type": "string"}));
    assert_eq!(content[1], ref_form_schema());
    assert_eq!(accept_refs(json!(true)), json!(true));
    assert!(REF_ARGUMENTS_NOTE.contains("\"ref\""));
    let form = ref_form_schema();
    assert_eq!(form["required"], json!(["ref"]));
    assert_eq!(
        form["properties"]["rows"]["properties"]["start"]["minimum"],
        json!(1)
    );
}
