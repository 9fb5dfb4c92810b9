package awscc

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// thing is the translation tests' type: every shape the runtime converts.
func thing(t testing.TB) (*cfnschema.ResourceType, tftypes.Object) {
	t.Helper()
	c, ds := cfnschema.LoadDir("testdata/translate")
	if ds.HasErrors() || len(c.Types()) != 1 {
		t.Fatalf("loading the test type: %v %v", ds, c.Suppressed())
	}
	rt := c.Types()[0]
	return rt, rt.ResourceSchema().Type().TerraformType(context.Background()).(tftypes.Object)
}

// tfValue reads a value of type ty from Terraform's JSON state notation
// (missing attributes are null), then makes the named top-level
// attributes unknown.
func tfValue(t testing.TB, ty tftypes.Object, src string, unknown ...string) tftypes.Value {
	t.Helper()
	v, err := tftypes.ValueFromJSONWithOpts([]byte(src), ty, tftypes.ValueFromJSONOpts{})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if len(unknown) == 0 {
		return v
	}
	var m map[string]tftypes.Value
	_ = v.As(&m)
	for _, name := range unknown {
		m[name] = tftypes.NewValue(ty.AttributeTypes[name], tftypes.UnknownValue)
	}
	return tftypes.NewValue(ty, m)
}

func mustDecode(t testing.TB, src string) map[string]any {
	t.Helper()
	v, err := decodeJSON([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v.(map[string]any)
}

func TestDesiredState(t *testing.T) {
	rt, ty := thing(t)
	cases := map[string]struct {
		reason  string
		value   string
		unknown []string
		opts    toOptions
		want    string
	}{
		"scalars": {
			reason: "Names map per level to CFN names; nulls are left out.",
			value:  `{"thing_name":"a","quantity":3,"enabled":true,"ratio":0.5,"created":"2024-01-02T03:04:05Z"}`,
			want:   `{"ThingName":"a","Quantity":3,"Enabled":true,"Ratio":0.5,"Created":"2024-01-02T03:04:05Z"}`,
		},
		"unknown and read-only": {
			reason:  "Unknown values are the service's to decide; read-only ones are never sent.",
			value:   `{"thing_name":"a","arn":"arn:x","id":"i-1"}`,
			unknown: []string{"config"},
			want:    `{"ThingName":"a"}`,
		},
		"big integer": {
			reason: "Integers keep every digit.",
			value:  `{"quantity":9007199254740993}`,
			want:   `{"Quantity":9007199254740993}`,
		},
		"json string": {
			reason: "A JSON-string attribute is embedded as JSON, numbers exact.",
			value:  `{"policy":"{\"a\": [1, 12345678901234567890]}"}`,
			want:   `{"Policy":{"a":[1,12345678901234567890]}}`,
		},
		"nested": {
			reason: "Nested objects, lists, sets and maps convert level by level; empty lists are sent.",
			value: `{"config":{"mode":"m"},"tags":[{"key":"k","value":"v"}],"steps":[],` +
				`"zones":["b","a"],"labels":{"x":"y"},"rules":[{"rule_name":"r","secret":"s","rule_arn":"arn:r"}]}`,
			want: `{"Config":{"Mode":"m"},"Tags":[{"Key":"k","Value":"v"}],"Steps":[],"Zones":["b","a"],` +
				`"Labels":{"x":"y"},"Rules":[{"RuleName":"r","Secret":"s"}]}`,
		},
		"write-only skipped": {
			reason: "The prior side of a patch leaves write-only values out, nested ones included.",
			value:  `{"password":"p","rules":[{"rule_name":"r","secret":"s"}]}`,
			opts:   toOptions{skipWriteOnly: true},
			want:   `{"Rules":[{"RuleName":"r"}]}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := desiredState(rt.Attributes, tfValue(t, ty, tc.value, tc.unknown...), tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mustDecode(t, tc.want), got); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestStateFromJSON(t *testing.T) {
	rt, ty := thing(t)
	cases := map[string]struct {
		reason string
		props  string
		prior  string // empty: no prior state
		want   string
	}{
		"missing is null": {
			reason: "Properties the model leaves out are null; unknown properties are skipped; CloudFormation coerces scalars.",
			props:  `{"ThingName":"a","Quantity":"7.0","Enabled":"true","Surprise":1,"Id":"i-1"}`,
			want:   `{"thing_name":"a","quantity":7,"enabled":true,"thing_id":"i-1"}`,
		},
		"multiset follows prior": {
			reason: "An insertionOrder:false list and a set follow prior's order; a changed tag stays in place by key.",
			props:  `{"Tags":[{"Key":"b","Value":"2"},{"Key":"c","Value":"new"},{"Key":"a","Value":"1"}],"Zones":["y","x"]}`,
			prior:  `{"tags":[{"key":"a","value":"1"},{"key":"c","value":"3"},{"key":"b","value":"2"}],"zones":["x","y"]}`,
			want:   `{"tags":[{"key":"a","value":"1"},{"key":"c","value":"new"},{"key":"b","value":"2"}],"zones":["x","y"]}`,
		},
		"ordered list keeps order": {
			reason: "An ordered list's order is meaningful: a reordering is drift.",
			props:  `{"Steps":["2","1"]}`,
			prior:  `{"steps":["1","2"]}`,
			want:   `{"steps":["2","1"]}`,
		},
		"write-only copied": {
			reason: "Write-only values come from prior, through arrays by element, which are matched ignoring them.",
			props:  `{"Rules":[{"RuleName":"b","RuleArn":"arn:b"},{"RuleName":"a","RuleArn":"arn:a"}]}`,
			prior: `{"password":"p","rules":[{"rule_name":"a","secret":"sa","rule_arn":"arn:a"},` +
				`{"rule_name":"b","secret":"sb","rule_arn":"arn:b"}],"id":"i-1"}`,
			want: `{"password":"p","rules":[{"rule_name":"a","secret":"sa","rule_arn":"arn:a"},` +
				`{"rule_name":"b","secret":"sb","rule_arn":"arn:b"}],"id":"i-1"}`,
		},
		"write-only object rebuilt": {
			reason: "An object the service leaves out whose members are write-only is rebuilt from prior, not null (Lambda's Code).",
			props:  `{"ThingName":"a"}`,
			prior:  `{"thing_name":"a","code":{"zip_file":"z"}}`,
			want:   `{"thing_name":"a","code":{"zip_file":"z"}}`,
		},
		"write-only array rebuilt": {
			reason: "So is an array of objects that hold only write-only values.",
			props:  `{}`,
			prior:  `{"secrets":[{"value":"a"},{"value":"b"}]}`,
			want:   `{"secrets":[{"value":"a"},{"value":"b"}]}`,
		},
		"mixed array left out is null": {
			reason: "An array whose elements hold values the service returns is gone when the service leaves it out.",
			props:  `{}`,
			prior:  `{"rules":[{"rule_name":"a","secret":"sa"}]}`,
			want:   `{}`,
		},
		"empty arrays": {
			reason: "An empty array is null unless prior holds an empty one, as awscc reads it.",
			props:  `{"Steps":[],"Tags":[]}`,
			prior:  `{"steps":[]}`,
			want:   `{"steps":[]}`,
		},
		"empty map": {
			reason: "An empty map is an empty map, prior or not, as awscc reads it (awscc_paymentcryptography_key's replication_status).",
			props:  `{"Labels":{}}`,
			want:   `{"labels":{}}`,
		},
		"json keeps spelling": {
			reason: "A JSON string that means the same keeps prior's spelling; numbers stay exact.",
			props:  `{"Policy":{"b":1,"a":[12345678901234567890]}}`,
			prior:  `{"policy":"{ \"a\": [12345678901234567890], \"b\": 1.0 }"}`,
			want:   `{"policy":"{ \"a\": [12345678901234567890], \"b\": 1.0 }"}`,
		},
		"json new": {
			reason: "A changed JSON value is written compactly.",
			props:  `{"Policy":{"a":2}}`,
			prior:  `{"policy":"{\"a\":1}"}`,
			want:   `{"policy":"{\"a\":2}"}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			prior := tftypes.NewValue(ty, nil)
			if tc.prior != "" {
				prior = tfValue(t, ty, tc.prior)
			}
			got, err := stateFromJSON(rt.Attributes, ty, mustDecode(t, tc.props), prior)
			if err != nil {
				t.Fatal(err)
			}
			if want := tfValue(t, ty, tc.want); !want.Equal(got) {
				t.Errorf("%s\ngot  %s\nwant %s", tc.reason, got, want)
			}
		})
	}
}

func TestStateFromJSONErrors(t *testing.T) {
	rt, ty := thing(t)
	cases := map[string]struct {
		reason string
		props  string
		want   string
	}{
		"object for array": {reason: "The error names the property.", props: `{"Steps":{"a":1}}`, want: `Steps: {"a":1} is not an array`},
		"bad number":       {reason: "Numbers must parse.", props: `{"Quantity":"many"}`, want: `Quantity: "many" is not a number`},
		"nested":           {reason: "The path goes through levels.", props: `{"Config":{"Level":true}}`, want: `Config: Level: true is not a number`},
		"fraction":         {reason: "An integer property holds no fraction.", props: `{"Quantity":1.5}`, want: `Quantity: "1.5" is not an integer`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := stateFromJSON(rt.Attributes, ty, mustDecode(t, tc.props), tftypes.NewValue(ty, nil))
			if err == nil || err.Error() != tc.want {
				t.Errorf("%s\nerror %v, want %q", tc.reason, err, tc.want)
			}
		})
	}
}

func TestFillUnknowns(t *testing.T) {
	rt, ty := thing(t)
	planned := tfValue(t, ty, `{"thing_name":"a","tags":[{"key":"k","value":"v"}],"password":"p"}`, "arn", "thing_id", "config", "zones", "id")
	remote, err := stateFromJSON(rt.Attributes, ty, mustDecode(t,
		`{"ThingName":"A","Arn":"arn:1","Id":"i-1","Config":{"Mode":"m"},"Zones":["z"],"Tags":[{"Key":"k","Value":"v"}]}`), planned)
	if err != nil {
		t.Fatal(err)
	}
	got := fillUnknowns(planned, remote)
	want := tfValue(t, ty, `{"thing_name":"a","tags":[{"key":"k","value":"v"}],"password":"p","arn":"arn:1","thing_id":"i-1",`+
		`"config":{"mode":"m"},"zones":["z"]}`)
	if !want.Equal(got) {
		t.Errorf("configured values are kept as planned (thing_name stays \"a\"), unknowns filled, the rest null\ngot  %s\nwant %s", got, want)
	}
}

func TestUpdatePatch(t *testing.T) {
	rt, ty := thing(t)
	cases := map[string]struct {
		reason         string
		prior, planned string
		unknown        []string
		want           string
	}{
		"no change": {reason: "An unchanged object patches nothing.", prior: `{"thing_name":"a","arn":"x"}`, planned: `{"thing_name":"a","arn":"x"}`, want: `[]`},
		"scalar": {reason: "A changed value is replaced; a removed one removed.", prior: `{"quantity":1,"ratio":2}`, planned: `{"quantity":2}`,
			want: `[{"op":"replace","path":"/Quantity","value":2},{"op":"remove","path":"/Ratio"}]`},
		"unknown kept": {reason: "Where planned is unknown the service decides: no remove.", prior: `{"config":{"mode":"m"}}`, planned: `{}`,
			unknown: []string{"config"}, want: `[]`},
		"write-only resent": {reason: "Write-only values are always sent.", prior: `{"password":"p"}`, planned: `{"password":"p"}`,
			want: `[{"op":"add","path":"/Password","value":"p"}]`},
		"tags whole": {reason: "Key-value arrays are replaced whole.",
			prior:   `{"tags":[{"key":"a","value":"1"},{"key":"b","value":"2"}]}`,
			planned: `{"tags":[{"key":"a","value":"1"},{"key":"b","value":"3"}]}`,
			want:    `[{"op":"replace","path":"/Tags","value":[{"Key":"a","Value":"1"},{"Key":"b","Value":"3"}]}]`},
		"multiset element removed": {reason: "Read keeps a multiset in prior's order, not the service's: no index-based remove.",
			prior:   `{"rules":[{"rule_name":"a"},{"rule_name":"b"},{"rule_name":"c"}]}`,
			planned: `{"rules":[{"rule_name":"a"},{"rule_name":"c"}]}`,
			want:    `[{"op":"replace","path":"/Rules","value":[{"RuleName":"a"},{"RuleName":"c"}]}]`},
		"multiset element changed": {reason: "A change inside a multiset's element replaces the whole array.",
			prior:   `{"rules":[{"rule_name":"a","weight":1},{"rule_name":"b","weight":2}]}`,
			planned: `{"rules":[{"rule_name":"a","weight":1},{"rule_name":"b","weight":3}]}`,
			want:    `[{"op":"replace","path":"/Rules","value":[{"RuleName":"a","Weight":1},{"RuleName":"b","Weight":3}]}]`},
		"set element added": {reason: "A set is replaced whole too.",
			prior: `{"zones":["a","b"]}`, planned: `{"zones":["a","b","c"]}`,
			want: `[{"op":"replace","path":"/Zones","value":["a","b","c"]}]`},
		"multiset added": {reason: "An array that was absent is added whole.",
			prior: `{}`, planned: `{"rules":[{"rule_name":"a"}]}`,
			want: `[{"op":"add","path":"/Rules","value":[{"RuleName":"a"}]}]`},
		"nested multiset": {reason: "A multiset inside an ordered list's element is replaced whole; the ordered list keeps indexes.",
			prior:   `{"stages":[{"stage_name":"s","hosts":["a","b","c"]}]}`,
			planned: `{"stages":[{"stage_name":"s","hosts":["a","c"]}]}`,
			want:    `[{"op":"replace","path":"/Stages/0/Hosts","value":["a","c"]}]`},
		"ordered list by index": {reason: "An ordered list keeps index-based operations.",
			prior: `{"steps":["a","b","c"]}`, planned: `{"steps":["a","b"]}`,
			want: `[{"op":"remove","path":"/Steps/2"}]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := updatePatch(rt.Attributes, tfValue(t, ty, tc.prior), tfValue(t, ty, tc.planned, tc.unknown...))
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal([]byte(got), &g); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal([]byte(tc.want), &w)
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
