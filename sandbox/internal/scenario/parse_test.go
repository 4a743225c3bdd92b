package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testVocabulary is a small stand-in for the sandbox's vocabulary.
func testVocabulary() *Vocabulary {
	return &Vocabulary{
		Operations: []Operation{
			{ID: "accountGet", Method: "GET", Path: "/account"},
			{ID: "signatureRequestSend", Method: "POST", Path: "/signature_request/send"},
			{ID: "signatureRequestGet", Method: "GET", Path: "/signature_request/{signature_request_id}"},
			{ID: "templateCreate", Method: "POST", Path: "/template/create"},
		},
		EventTypes:  []string{"signature_request_sent", "template_created", "template_error"},
		ErrorStatus: map[string]int{"bad_request": 400, "unavailable": 503, "deleted": 410, "unknown": 500},
		CheckConfig: func(cfg map[string]any) (string, string) {
			if _, ok := cfg["bogus_delay"]; ok {
				return "bogus_delay", "unknown configuration key bogus_delay"
			}
			return "", ""
		},
	}
}

func TestParseAcceptsTheFormat(t *testing.T) {
	src := `
name: full
description: every construct once
config: {send_processing_delay: 1s}
seed:
  accounts:
    - {ref: signer, email_address: s@example.com, team: true, quotas: {api_signature_requests_left: 5}}
  api_keys: [{account: s@example.com, name: second}]
  api_apps: [{ref: app, name: My app, domains: [example.com], oauth: {callback_url: "https://example.com/cb", scopes: [basic_account_info]}}]
  templates:
    - ref: nda
      body: {title: NDA, signer_roles: [{name: Client}]}
      documents: [{name: nda.txt, text: hello}]
  signature_requests:
    - ref: req
      operation: signatureRequestSendWithTemplate
      templates: [nda]
      body: {signers: [{role: Client, name: A, email_address: a@example.com}]}
      state: sent
      actions: [{signer: 0, do: view}]
rules:
  - {name: r1, match: {operation: [accountGet], method: get, path: /v3/account}, respond: {status: 503}, times: 2, after: 1}
  - {match: {fields: {title: {regex: "^x"}}, signer: "*@b.example"}, bounce: {after: 10m}}
  - {match: {event: template_created}, callback: {fault: reject}, window: {from: 1h, until: 2d}}
  - {exhaust_quota: {quota: templates}}
  - {latency: 2s}
steps:
  - {name: a, call: accountGet, expect: {status: {one_of: [200, 201]}, body: {account.email_address: {glob: "*@*"}}}}
  - {call: signatureRequestGet, params: {signature_request_id: "${seed.req.signature_request_id}"}}
  - {request: "GET /_sandbox/emails", query: {to: "${steps.a.body.account.email_address}"}}
  - {advance: 1d2h}
  - {advance: {to: "2025-01-02T00:00:00Z"}}
  - {sign: {signature_id: "${seed.req.signatures[0].signature_id}", values: {x: "1"}}}
  - {decline: abc}
  - {wait_callbacks: true}
  - {events: {filter: {event_type: signature_request_sent}, types: [signature_request_sent], count: {gte: 1}}}
  - {emails: {kinds: [signature_request], contains: [{to: a@example.com}], absent: [{bounced: true}]}}
`
	doc, err := Parse("full.yaml", []byte(src), testVocabulary())
	require.NoError(t, err)
	assert.Equal(t, "full", doc.Name)
	assert.Len(t, doc.Rules, 5)
	assert.Equal(t, EffectRespond, doc.Rules[0].Effect())
	assert.Equal(t, EffectExhaustQuota, doc.Rules[3].Effect())
	assert.Equal(t, "advance", doc.Steps[3].Action())

	// JSON is a subset of YAML and is accepted as is.
	_, err = Parse("x.json", []byte(`{"name": "j", "steps": [{"call": "accountGet"}]}`), testVocabulary())
	require.NoError(t, err)
}

func TestParseRefusesWithFileLineAndKey(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"unknown top-level key", "name: x\nbogus: 1\n", `f.yaml:2:1: bogus: unknown field "bogus"`},
		{"unknown nested key", "name: x\nrules:\n  - gone: true\n    mach: {}\n", `f.yaml:4:5: rules[0].mach: unknown field "mach"`},
		{"bad type", "name: x\nrules:\n  - respond: {status: high}\n", `f.yaml:3:23: rules[0].respond.status: `},
		{"duplicate key", "name: x\nname: y\n", `f.yaml:2:1: `},
		{"missing name", "steps: []\n", `f.yaml:1:1: name: name is required`},
		{"unknown operation", "name: x\nrules:\n  - match: {operation: signatureRequestSnd}\n    respond: {status: 503}\n",
			`f.yaml:3:13: rules[0].match.operation: unknown operation "signatureRequestSnd"`},
		{"unknown operation in a list", "name: x\nrules:\n  - match:\n      operation: [accountGet, nope]\n    gone: true\n",
			`rules[0].match.operation[1]: unknown operation "nope"`},
		{"unknown event", "name: x\nrules:\n  - match: {event: signature_request_snt}\n    callback: {fault: reject}\n",
			`f.yaml:3:13: rules[0].match.event: unknown event type "signature_request_snt"`},
		{"unknown event in steps", "name: x\nsteps:\n  - events: {types: [nope]}\n", `steps[0].events.types[0]: unknown event type "nope"`},
		{"unknown error name", "name: x\nrules:\n  - respond: {error_name: teapot}\n", `f.yaml:3:15: rules[0].respond.error_name: unknown error_name "teapot"`},
		{"unknown step operation", "name: x\nsteps:\n  - call: accountGot\n", `f.yaml:3:5: steps[0].call: unknown operation "accountGot"`},
		{"unknown config key", "name: x\nconfig: {bogus_delay: 1s}\n", `config.bogus_delay: unknown configuration key`},
		{"two effects", "name: x\nrules:\n  - gone: true\n    latency: 1s\n", `rules[0].gone: a rule has one effect, but this one has latency and gone`},
		{"no effect", "name: x\nrules:\n  - match: {operation: accountGet}\n", `rules[0]: a rule needs one effect`},
		{"times zero", "name: x\nrules:\n  - gone: true\n    times: 0\n", `f.yaml:4:5: rules[0].times: times must be at least 1`},
		{"window backwards", "name: x\nrules:\n  - gone: true\n    window: {from: 2h, until: 1h}\n", `rules[0].window.until: until must be after from`},
		{"method contradicts operation", "name: x\nrules:\n  - match: {operation: accountGet, method: POST}\n    gone: true\n",
			`rules[0].match.method: method POST contradicts operation accountGet, which is GET`},
		{"path contradicts operation", "name: x\nrules:\n  - match: {operation: accountGet, path: /v3/template/*}\n    respond: {status: 500}\n",
			`rules[0].match.path: path /v3/template/* contradicts operation accountGet`},
		{"match key not applicable", "name: x\nrules:\n  - match: {operation: accountGet}\n    fail_file: {}\n",
			`rules[0].match.operation: match.operation does not apply to fail_file`},
		{"load-time effect with match", "name: x\nrules:\n  - match: {signer: a}\n    exhaust_quota: {}\n",
			`rules[0].match: exhaust_quota is applied once when the scenario loads and takes no match`},
		{"fail_template on the wrong call", "name: x\nrules:\n  - match: {operation: accountGet}\n    fail_template: {}\n",
			`fail_template applies to calls that create a template`},
		{"gone on a call without a request", "name: x\nrules:\n  - match: {operation: accountGet}\n    gone: true\n",
			`gone answers 410 for calls that address a signature request`},
		{"2xx respond", "name: x\nrules:\n  - respond: {status: 200}\n", `status 200 is not an error status`},
		{"later step", "name: x\nsteps:\n  - call: accountGet\n    query: {x: '${steps.b.status}'}\n  - {name: b, call: accountGet}\n",
			`steps[0].query.x: ${steps.b.status} refers to step "b", which runs after this one`},
		{"unknown seed ref", "name: x\nsteps:\n  - sign: '${seed.nope.signatures[0].signature_id}'\n", `refers to seed ref "nope"`},
		{"bad expression", "name: x\nsteps:\n  - sign: '${bogus.x}'\n", `unknown name "bogus"`},
		{"two actions in a step", "name: x\nsteps:\n  - {call: accountGet, advance: 1h}\n", `steps[0].advance: a step does one thing`},
		{"missing path param", "name: x\nsteps:\n  - call: signatureRequestGet\n", `signatureRequestGet needs the path parameter signature_request_id`},
		{"bad duration", "name: x\nsteps:\n  - advance: soon\n", `steps[0].advance: "soon" is not a duration`},
		{"bad regex", "name: x\nsteps:\n  - call: accountGet\n    expect: {body: {a: {regex: '('}}}\n", `steps[0].expect.body.a.regex: bad regex`},
		{"seed request state contradicts actions", "name: x\nseed:\n  signature_requests:\n    - ref: r\n      body: {}\n      state: processing\n      actions: [{signer: 0, do: sign}]\n",
			`seed.signature_requests[0].actions: a request in state processing was never sent`},
		{"seed request from an unknown template", "name: x\nseed:\n  signature_requests:\n    - ref: r\n      operation: signatureRequestSendWithTemplate\n      templates: [nda]\n      body: {}\n",
			`seed.signature_requests[0].templates[0]: no seeded template has ref "nda"`},
		{"seed duplicate ref", "name: x\nseed:\n  templates:\n    - {ref: a, body: {}}\n  signature_requests:\n    - {ref: a, body: {}}\n",
			`seed.signature_requests[0].ref: ref "a" is already used by a seeded template`},
		{"seed files in body", "name: x\nseed:\n  signature_requests:\n    - {ref: a, body: {file_urls: [x]}}\n", `seed.signature_requests[0].body.file_urls: seeded objects take their files from documents`},
		{"multiple documents", "name: x\n---\nname: y\n", `holds one document`},
		{"not a mapping", "- a\n- b\n", `a scenario is a mapping`},
		{"empty", "", `the file is empty`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.src), testVocabulary())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			var se *Error
			require.ErrorAs(t, err, &se)
			for _, is := range se.Issues {
				assert.Equal(t, "f.yaml", is.File)
			}
		})
	}
}

func TestParsedIssueLocatesLaterProblems(t *testing.T) {
	src := "name: x\nseed:\n  signature_requests:\n    - ref: r\n      body:\n        signers:\n          - {name: A, email_address: nope}\n"
	p, err := ParseDocument("s.yaml", []byte(src), testVocabulary())
	require.NoError(t, err)
	e := p.Issue([]any{"seed", "signature_requests", 0, "body", "signers", 0, "email_address"}, "bad_request: invalid e-mail")
	assert.Equal(t, "s.yaml:7:23: seed.signature_requests[0].body.signers[0].email_address: bad_request: invalid e-mail", e.Error())
}

func TestMatchers(t *testing.T) {
	got, err := DecodeJSON([]byte(`{"a": {"b": [1, 2.5, "x"], "s": "Hello", "n": null, "t": true}, "e": ""}`))
	require.NoError(t, err)
	cases := []struct {
		name string
		want string
		ok   bool
	}{
		{"equality", `{"a.s": "Hello"}`, true},
		{"inequality", `{"a.s": "Bye"}`, false},
		{"number by value", `{"a.b[1]": 2.50}`, true},
		{"nested object", `{"a": {"t": true, "b[2]": "x"}}`, true},
		{"exists", `{"a.n": {"exists": true}}`, true},
		{"absent", `{"a.zz": {"absent": true}}`, true},
		{"absent but present", `{"a.s": {"absent": true}}`, false},
		{"exists but absent", `{"a.zz": {"exists": true}}`, false},
		{"exists false", `{"a.zz": {"exists": false}}`, true},
		{"exists false but present", `{"a.s": {"exists": false}}`, false},
		{"absent false", `{"a.s": {"absent": false}}`, true},
		{"absent false but absent", `{"a.zz": {"absent": false}}`, false},
		{"regex", `{"a.s": {"regex": "^H.l+o$"}}`, true},
		{"glob", `{"a.s": {"glob": "he*"}}`, true},
		{"numeric comparison", `{"a.b[0]": {"gte": 1, "lt": 2}}`, true},
		{"numeric comparison fails", `{"a.b[0]": {"gt": 1}}`, false},
		{"length", `{"a.b": {"len": 3}}`, true},
		{"length matcher", `{"a.b": {"len": {"lte": 2}}}`, false},
		{"contains element", `{"a.b": {"contains": "x"}}`, true},
		{"contains substring", `{"a.s": {"contains": "ell"}}`, true},
		{"one_of", `{"a.s": {"one_of": ["Hi", "Hello"]}}`, true},
		{"type", `{"a.n": {"type": "null"}, "a.b": {"type": "array"}}`, true},
		{"exact list", `{"a.b": [1, 2.5, "x"]}`, true},
		{"list length differs", `{"a.b": [1, 2.5]}`, false},
		{"eq object is exact", `{"a": {"eq": {"s": "Hello"}}}`, false},
		{"empty string", `{"e": ""}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want, err := DecodeJSON([]byte(tc.want))
			require.NoError(t, err)
			ms := MatchValue("body", want, got, true)
			assert.Equal(t, tc.ok, len(ms) == 0, "%v", ms)
		})
	}
	ms := MatchValue("body", map[string]any{"a.s": "Bye"}, got, true)
	require.Len(t, ms, 1)
	assert.Equal(t, `body.a.s: want "Bye", got "Hello"`, ms[0].String())
}

func TestDiffNamesEveryField(t *testing.T) {
	want, _ := DecodeJSON([]byte(`{"a": 1, "b": {"c": [1, 2]}, "d": "x"}`))
	got, _ := DecodeJSON([]byte(`{"a": 1, "b": {"c": [1, 3]}, "e": true}`))
	var out []string
	for _, m := range Diff("body", want, got) {
		out = append(out, m.String())
	}
	assert.Equal(t, []string{
		`body.b.c[1]: want 2, got 3`,
		`body.d: want "x", but the field is absent`,
		`body.e: want no such field, got true`,
	}, out)
}

func TestExpressions(t *testing.T) {
	ctx := map[string]any{
		"steps": map[string]any{"send": map[string]any{"status": num(200), "body": map[string]any{"id": "abc", "n": num(5)}}},
		"now":   num(1000),
	}
	r := func(e Expr) (any, error) {
		if e.Root == RootNow {
			return ctx["now"], nil
		}
		v, _ := Resolve(ctx[e.Root], e.Path)
		return v, nil
	}
	v, err := Interpolate(map[string]any{
		"whole":  "${steps.send.body.n}",
		"text":   "id=${steps.send.body.id}/${steps.send.status}",
		"offset": "${now + 1h}",
		"minus":  "${now - 10s}",
		"escape": "$${not}",
	}, r)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"whole": num(5), "text": "id=abc/200", "offset": num(4600), "minus": num(990), "escape": "${not}"}, v)

	_, err = Interpolate("${steps.send", r)
	assert.ErrorContains(t, err, "without }")
}

func num(n int) any { return Normalize(n) }

func TestDurationsAndPaths(t *testing.T) {
	d, err := ParseDuration("1d12h")
	require.NoError(t, err)
	assert.Equal(t, 36*time.Hour, d)
	_, err = ParseDuration("2 days")
	assert.Error(t, err)

	assert.True(t, PathMatch("/v3/signature_request/*", "/v3/signature_request/abc"))
	assert.True(t, PathMatch("/v3/signature_request/{id}", "/v3/signature_request/abc"))
	assert.False(t, PathMatch("/v3/signature_request/*", "/v3/signature_request/files/abc"))
	assert.True(t, PathMatch("/v3/**", "/v3/signature_request/files/abc"))
	assert.True(t, Glob("*@Bounce.example", "carol@bounce.EXAMPLE"))
	assert.False(t, Glob("*@bounce.example", "carol@example.com"))

	p, err := ParsePath(`a.b[2]["c.d"]`)
	require.NoError(t, err)
	assert.Equal(t, []Segment{{Key: "a"}, {Key: "b"}, {Index: 2, IsIdx: true}, {Key: "c.d"}}, p)
}

func TestRecordingRoundTrips(t *testing.T) {
	rec := NewRecorder("rec", "test", "example.test", map[string]any{"format": "x"}, time.Unix(100, 0))
	answer := `{"z":1,"a":{"s":"yes","n":null,"f":1.5,"big":12345678901234567890,"t":"123","e":"","m":"a: b\nc","u":"\u00e9"}}`
	rec.Add(Exchange{Method: "POST", Target: "/v3/x?y=1", Auth: "Basic abc", Body: map[string]any{"b": "true"},
		Status: 200, ContentType: "application/json; charset=utf-8", Answer: []byte(answer),
		Before: time.Unix(100, 0), After: time.Unix(100, 0)})
	rec.Add(Exchange{Method: "GET", Target: "/v3/y", Status: 200, ContentType: "application/pdf", Answer: []byte("%PDF"),
		Before: time.Unix(160, 0), After: time.Unix(160, 0)})
	for _, format := range []string{"yaml", "json"} {
		b, err := Marshal(rec.Document(), format)
		require.NoError(t, err)
		doc, err := Parse("rec."+format, b, testVocabulary())
		require.NoError(t, err, "%s", b)
		require.Len(t, doc.Steps, 3, "the clock moved by itself: an advance step comes first")
		assert.Equal(t, map[string]any{"to": "1970-01-01T00:02:40Z"}, doc.Steps[1].Advance)
		want, _ := DecodeJSON([]byte(answer))
		assert.Empty(t, Diff("", want, doc.Steps[0].Expect.JSON), format)
		assert.Equal(t, "none", doc.Steps[2].Auth)
		assert.True(t, strings.HasPrefix(doc.Steps[2].Expect.ContentType, "application/pdf"))
	}
}
