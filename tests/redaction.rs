//! Secrets stay out of stubs (`redactSecrets`): a corpus of credential formats, one sample of each
//! format a well-known secret scanner has rules for (written here from the formats' public
//! descriptions, with made-up values), none of which may survive; and near-misses (hashes, UUIDs,
//! base64 blobs, ordinary words) that must be left as they are.

use tool_stub::{
    make_preview, plan_turn, redact_text, PreviewRequest, SynopsisMode, ToolPart, TurnConfig,
    TurnInput, REDACTION_MASK,
};

/// A made-up value of `len` chars from `charset`, different for each `seed`.
fn fake(seed: u64, len: usize, charset: &str) -> String {
    let chars: Vec<char> = charset.chars().collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            chars[((state >> 33) as usize) % chars.len()]
        })
        .collect()
}

const UPPER: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const WORD: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const HEX: &str = "0123456789abcdef";
const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// `(format, line holding it, the secret part that must not survive)`.
fn secrets() -> Vec<(&'static str, String, String)> {
    let mut corpus = Vec::new();
    let mut add = |name: &'static str, line: String, secret: String| {
        corpus.push((name, line, secret));
    };
    let s = fake(1, 16, UPPER);
    add(
        "aws access key id",
        format!("aws_access_key_id = AKIA{s}"),
        s,
    );
    let s = fake(2, 16, UPPER);
    add("aws temporary key id", format!("key: ASIA{s}"), s);
    let s = fake(3, 40, B64);
    add(
        "aws secret access key",
        format!("aws_secret_access_key={s}"),
        s,
    );
    let s = fake(4, 35, WORD);
    add("gcp api key", format!("\"key\": \"AIza{s}\""), s);
    let s = fake(5, 60, WORD);
    add("google oauth token", format!("token ya29.{s}"), s);
    let body = fake(6, 64, B64);
    add(
        "gcp service account private key (JSON-escaped PEM)",
        format!("\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n\""),
        body,
    );
    let body = fake(7, 64, B64);
    add(
        "rsa private key (PEM lines)",
        format!("-----BEGIN RSA PRIVATE KEY-----\n{body}\n{body}\n-----END RSA PRIVATE KEY-----"),
        body,
    );
    let body = fake(8, 64, B64);
    add(
        "openssh private key cut short",
        format!("-----BEGIN OPENSSH PRIVATE KEY-----\n{body}"),
        body,
    );
    let s = fake(9, 88, B64);
    add(
        "azure storage connection string",
        format!("DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={s};EndpointSuffix=core.windows.net"),
        s,
    );
    let s = fake(10, 31, WORD);
    add(
        "azure ad client secret",
        format!("client secret: abc8Q~{s}"),
        s,
    );
    let s = fake(11, 40, WORD);
    add(
        "azure sas signature",
        format!("https://acct.blob.core.windows.net/c?sv=2022-11-02&sig={s}&se=2030"),
        s,
    );
    let s = fake(12, 48, ALNUM);
    add("openai legacy key", format!("OPENAI_API_KEY is sk-{s}"), s);
    let s = fake(13, 120, WORD);
    add("openai project key", format!("using sk-proj-{s} now"), s);
    let s = fake(14, 93, WORD);
    add(
        "anthropic api key",
        format!("x-api-key: sk-ant-api03-{s}"),
        s,
    );
    let s = fake(15, 93, WORD);
    add("anthropic admin key", format!("sk-ant-admin01-{s}"), s);
    let s = fake(16, 36, ALNUM);
    add(
        "github personal access token",
        format!("GITHUB_TOKEN ghp_{s}"),
        s,
    );
    let s = fake(17, 36, ALNUM);
    add("github oauth token", format!("gho_{s}"), s);
    let s = fake(18, 36, ALNUM);
    add("github app token", format!("ghs_{s} and ghu_{s}"), s);
    let s = fake(19, 82, WORD);
    add("github fine-grained token", format!("github_pat_{s}"), s);
    let s = fake(20, 20, WORD);
    add("gitlab personal access token", format!("glpat-{s}"), s);
    let s = fake(21, 20, WORD);
    add("gitlab deploy token", format!("gldt-{s}"), s);
    let s = fake(22, 20, WORD);
    add("gitlab runner token", format!("glrt-{s}"), s);
    let s = format!(
        "{}-{}-{}",
        fake(23, 12, "0123456789"),
        fake(24, 13, "0123456789"),
        fake(25, 24, ALNUM)
    );
    add("slack bot token", format!("xoxb-{s}"), s);
    let s = format!(
        "{}-{}-{}",
        fake(26, 12, "0123456789"),
        fake(27, 12, "0123456789"),
        fake(28, 32, HEX)
    );
    add("slack user token", format!("xoxp-{s}"), s);
    let s = format!(
        "1-{}-{}-{}",
        fake(29, 11, UPPER),
        fake(30, 13, "0123456789"),
        fake(31, 64, HEX)
    );
    add("slack app token", format!("xapp-{s}"), s);
    let s = fake(32, 99, ALNUM);
    add(
        "stripe live secret key",
        format!("Stripe.api_key = 'sk_live_{s}'"),
        s,
    );
    let s = fake(33, 24, ALNUM);
    add("stripe restricted key", format!("rk_live_{s}"), s);
    let s = fake(34, 24, ALNUM);
    add("stripe test key", format!("sk_test_{s}"), s);
    let jwt = format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}",
        fake(35, 60, WORD),
        fake(36, 43, WORD)
    );
    add(
        "jwt",
        format!("Authorization: Bearer {jwt}"),
        jwt["eyJhbGciOi".len()..].to_string(),
    );
    let s = fake(37, 43, WORD);
    add("bare bearer token", format!("authorization: Bearer {s}"), s);
    let s = fake(38, 14, ALNUM);
    add(
        "password in a url",
        format!("DATABASE_URL=postgres://app:{s}@db.internal:5432/main"),
        s,
    );
    let s = fake(39, 10, ALNUM);
    add(
        "password in a redis url",
        format!("redis://:{s}@cache:6379/0"),
        s,
    );
    let s = fake(40, 12, ALNUM);
    add(
        "json password",
        format!("{{\"user\": \"bob\", \"password\": \"{s}\"}}"),
        s,
    );
    let s = fake(41, 12, ALNUM);
    add("yaml password", format!("  db_password: {s}"), s);
    let s = fake(42, 24, ALNUM);
    add("env secret", format!("CLIENT_SECRET={s}"), s);
    let s = fake(43, 32, ALNUM);
    add("camelCase api key", format!("apiKey: '{s}'"), s);
    let s = fake(44, 32, ALNUM);
    add("access token field", format!("\"access_token\":\"{s}\""), s);
    let s = fake(45, 32, ALNUM);
    add("auth token header", format!("X-Auth-Token: {s}"), s);
    let s = fake(46, 36, ALNUM);
    add(
        "npm token",
        format!("//registry.npmjs.org/:_authToken=npm_{s}"),
        s,
    );
    let s = fake(47, 60, WORD);
    add("pypi token", format!("pypi-AgEIcHlwaS5vcmc{s}"), s);
    let s = fake(48, 34, ALNUM);
    add("hugging face token", format!("hf_{s}"), s);
    let s = format!("{}.{}", fake(49, 22, WORD), fake(50, 43, WORD));
    add("sendgrid key", format!("SG.{s}"), s);
    let s = fake(51, 32, HEX);
    add("shopify access token", format!("shpat_{s}"), s);
    let s = fake(52, 64, HEX);
    add("digitalocean token", format!("dop_v1_{s}"), s);
    let s = fake(53, 32, HEX);
    add("databricks token", format!("dapi{s}"), s);
    let s = fake(54, 40, ALNUM);
    add("linear api key", format!("lin_api_{s}"), s);
    let s = format!("{}-{}", fake(55, 24, HEX), fake(56, 34, HEX));
    add("postman key", format!("PMAK-{s}"), s);
    let s = fake(57, 40, HEX);
    add("pulumi token", format!("pul-{s}"), s);
    let s = fake(58, 27, UPPER);
    add("new relic user key", format!("NRAK-{s}"), s);
    let s = fake(59, 58, UPPER);
    add("age secret key", format!("AGE-SECRET-KEY-1{s}"), s);
    let s = fake(60, 32, HEX);
    add("twilio api key", format!("SK{s}"), s);
    let s = fake(61, 32, HEX);
    add("mailgun key", format!("key-{s}"), s);
    let s = fake(62, 40, WORD);
    add("grafana service account token", format!("glsa_{s}"), s);
    let s = fake(63, 20, ALNUM);
    add("passphrase", format!("--passphrase={s}"), s);
    let s = fake(64, 20, ALNUM);
    add("session cookie", format!("Cookie: sessionid={s}"), s);
    corpus
}

/// Text that looks like a secret to a careless rule and is not one.
fn near_misses() -> Vec<String> {
    vec![
        // Hashes, ids and blobs.
        format!("sha256: {}", fake(100, 64, HEX)),
        format!("commit {}", fake(101, 40, HEX)),
        format!("short sha {}", fake(102, 7, HEX)),
        "request id 123e4567-e89b-12d3-a456-426614174000".to_string(),
        format!("data: {}==", fake(103, 86, B64)),
        format!("checksum md5={}", fake(104, 32, HEX)),
        // Words that hold a credential word.
        "token_count: 1234".to_string(),
        "\"max_tokens\": 4096, \"tokenizer\": \"cl100k_base\"".to_string(),
        "prompt_tokens=17 completion_tokens=290".to_string(),
        "secret_name: prod-db".to_string(),
        "password_policy: strict".to_string(),
        "the password must be 12 chars long".to_string(),
        "cwd: /home/user/project".to_string(),
        "PWD=/home/user/project".to_string(),
        "task-1234567890abcdefghijklmnop done".to_string(),
        "risk-assessment-report-final-v2.pdf".to_string(),
        "desk-booking-service-production".to_string(),
        "AKIA is the prefix of an AWS key id".to_string(),
        // A key named like a credential with no secret value.
        "password: null".to_string(),
        "\"token\": true".to_string(),
        "api_key: ${API_KEY}".to_string(),
        "secret: ***".to_string(),
        // URLs without a password.
        "https://user@example.com/path?q=1".to_string(),
        "see https://example.com:8443/a:b@c".to_string(),
        // A PEM public key and a certificate are not private.
        format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----",
            fake(105, 64, B64)
        ),
        format!(
            "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----",
            fake(106, 64, B64)
        ),
    ]
}

#[test]
fn every_secret_format_of_the_corpus_is_masked() {
    let corpus = secrets();
    let mut misses = Vec::new();
    for (name, line, secret) in &corpus {
        let masked = redact_text(line);
        if masked.contains(secret.as_str()) || !masked.contains(REDACTION_MASK) {
            misses.push(format!("{name}: {line:?} -> {masked:?}"));
        }
        // Even a part of the secret longer than the kept prefix must not survive.
        let tail = &secret[secret.len() - 8..];
        if masked.contains(tail) {
            misses.push(format!("{name}: its end {tail:?} survives in {masked:?}"));
        }
    }
    assert!(corpus.len() >= 55, "{} formats", corpus.len());
    assert!(
        misses.is_empty(),
        "{} misses:\n{}",
        misses.len(),
        misses.join("\n")
    );
}

#[test]
fn near_misses_are_left_as_they_are() {
    let wrongly: Vec<String> = near_misses()
        .iter()
        .filter_map(|text| {
            let masked = redact_text(text);
            (masked != *text).then(|| format!("{text:?} -> {masked:?}"))
        })
        .collect();
    assert!(wrongly.is_empty(), "masked:\n{}", wrongly.join("\n"));
}

#[test]
fn a_mask_keeps_a_short_prefix_that_tells_keys_apart() {
    let a = format!("ghp_{}", fake(200, 36, ALNUM));
    let b = format!("ghp_{}", fake(201, 36, ALNUM));
    let (ma, mb) = (redact_text(&a), redact_text(&b));
    assert!(
        ma.starts_with("ghp_") && ma.ends_with(REDACTION_MASK),
        "{ma}"
    );
    assert_ne!(ma, mb, "two keys stay apart");
    assert!(ma.len() <= "ghp_".len() + 4 + REDACTION_MASK.len());
    let password = redact_text("password: hunter2!");
    assert!(!password.contains("hunter2"), "{password}");
    assert!(password.starts_with("password: "), "{password}");
}

#[test]
fn redaction_never_panics_on_odd_text() {
    for text in [
        "password:",
        "password=\"",
        "password: \"\\",
        "-----BEGIN ",
        "-----BEGIN PRIVATE KEY-----",
        "://@",
        "x://a:@b",
        "eyJ.eyJ.",
        "abc8Q~",
        "token: \"é\\é\"",
        "secret=ü漢字ß",
        "AKIA",
    ] {
        let _ = redact_text(text);
    }
}

fn part(output: &str) -> ToolPart {
    ToolPart::from_json(serde_json::json!({
        "toolId": "call", "toolName": "http_get", "output": output
    }))
    .expect("part")
}

fn stub_of(output: &str, config: serde_json::Value) -> (String, String) {
    let config: TurnConfig = serde_json::from_value(config).expect("config");
    let plan = plan_turn(TurnInput {
        session_id: "s".into(),
        session_uri: None,
        message_id: "m".into(),
        config,
        parts: vec![part(output)],
        peer_id: None,
        created_at: "2030-01-01T00:00:00Z".into(),
        user_id: None,
    })
    .expect("plan");
    let write = &plan.writes[0];
    (write.stub.clone(), write.metadata_json.clone())
}

/// A JSON output holding an API key, a JWT and a GitHub token among ordinary records.
fn leaky_json() -> (String, Vec<String>) {
    let key = format!("sk-{}", fake(300, 48, ALNUM));
    let jwt = format!(
        "eyJhbGciOiJIUzI1NiJ9.eyJ{}.{}",
        fake(301, 40, WORD),
        fake(302, 43, WORD)
    );
    let gh = format!("ghp_{}", fake(303, 36, ALNUM));
    let records: Vec<serde_json::Value> = (0..1_000)
        .map(|i| serde_json::json!({"id": i, "name": format!("item {i}"), "status": "ok"}))
        .collect();
    let output = serde_json::json!({
        "api_key": key, "session": jwt, "deploy": {"github_token": gh}, "items": records
    })
    .to_string();
    // What must not show: each secret's chars past the few a mask keeps (an excerpt may clip
    // the rest), for the JWT its payload.
    let secrets = vec![
        key["sk-".len() + 4..][..10].to_string(),
        jwt[jwt.find(".eyJ").unwrap() + 4..][..10].to_string(),
        gh["ghp_".len() + 4..][..10].to_string(),
    ];
    (output, secrets)
}

#[test]
fn stubs_mask_secrets_in_enhanced_mode_by_default_and_in_reference_mode_on_request() {
    let (output, secrets) = leaky_json();
    let leaks = |text: &str| secrets.iter().filter(|s| text.contains(s.as_str())).count();
    let (reference, record) = stub_of(&output, serde_json::json!({}));
    assert!(
        leaks(&reference) > 0,
        "the reference's stub shows them: parity holds"
    );
    assert!(leaks(&record) > 0);
    for config in [
        serde_json::json!({"synopsisMode": "enhanced"}),
        serde_json::json!({"redactSecrets": true}),
        serde_json::json!({"synopsisMode": "enhanced", "redactSecrets": true}),
    ] {
        let (stub, record) = stub_of(&output, config.clone());
        assert_eq!(leaks(&stub), 0, "{config}: {stub}");
        assert_eq!(
            leaks(&record),
            0,
            "{config}: the record's synopsis (list summaries)"
        );
        assert!(stub.contains(REDACTION_MASK), "{config}");
    }
    let (off, _) = stub_of(
        &output,
        serde_json::json!({"synopsisMode": "enhanced", "redactSecrets": false}),
    );
    assert!(leaks(&off) > 0, "opted out: {off}");
}

#[test]
fn previews_follow_the_setting() {
    let (output, secrets) = leaky_json();
    let preview = |mode, redact_secrets| {
        make_preview(
            &output,
            &PreviewRequest {
                preview_chars: 2_000,
                mode,
                redact_secrets,
                ..Default::default()
            },
        )
        .1
    };
    let leaks = |text: &str| secrets.iter().filter(|s| text.contains(s.as_str())).count();
    assert!(leaks(&preview(SynopsisMode::Reference, false)) > 0);
    assert_eq!(leaks(&preview(SynopsisMode::Reference, true)), 0);
    assert_eq!(leaks(&preview(SynopsisMode::Enhanced, true)), 0);
}
