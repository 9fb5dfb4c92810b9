package crds

import (
	"errors"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// secrets is a SecretResolver over a fixed set of Secret keys.
func secrets(data map[SecretKeySelector]string) SecretResolver {
	return func(sel SecretKeySelector) ([]byte, error) {
		v, ok := data[sel]
		if !ok {
			return nil, errors.New("Secret " + sel.Name + " has no key " + sel.Key)
		}
		return []byte(v), nil
	}
}

func ref(name, key string) map[string]any { return map[string]any{"name": name, "key": key} }

// fullState is a state value of testBlock with every attribute set.
func fullState() cty.Value {
	b := testBlock()
	ty := b.ImpliedType()
	return cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("w"), "namespace": cty.StringVal("ns"),
		"size": cty.NumberFloatVal(1.5), "enabled": cty.True,
		"tags":     cty.MapVal(map[string]cty.Value{"team": cty.StringVal("a")}),
		"zones":    cty.SetVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
		"ports":    cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)}),
		"document": cty.ObjectVal(map[string]cty.Value{"Version": cty.StringVal("2012"), "n": cty.NumberIntVal(3)}),
		"arn":      cty.StringVal("arn:x"), "password": cty.StringVal("hunter2"),
		"keys":        cty.ListVal([]cty.Value{cty.StringVal("k1")}),
		"secret_out":  cty.StringVal("out"),
		"counts":      cty.MapVal(map[string]cty.Value{"a": cty.NumberIntVal(1)}),
		"origin_conf": cty.ObjectVal(map[string]cty.Value{"host_name": cty.StringVal("h"), "port": cty.NumberIntVal(8080)}),
		"rules": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"port": cty.NumberIntVal(22), "protocol": cty.StringVal("tcp"), "rule_id": cty.StringVal("r1"), "token": cty.StringVal("t"),
		})}),
		"logging": cty.NullVal(ty.AttributeType("logging")),
		"filter": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{
			"values": cty.SetVal([]cty.Value{cty.StringVal("v")}),
		})}),
		"labels": cty.MapValEmpty(ty.AttributeType("labels").ElementType()),
	}).Mark("sensitive-marks-are-ignored")
}

func TestEncodeObservation(t *testing.T) {
	at, conn := EncodeObservation(testBlock(), fullState())
	wantAt := map[string]any{
		"name": "w", "namespace": "ns", "size": 1.5, "enabled": true,
		"tags": map[string]any{"team": "a"}, "zones": []any{"a", "b"}, "ports": []any{int64(80), int64(443)},
		"document":   map[string]any{"Version": "2012", "n": int64(3)},
		"arn":        "arn:x",
		"originConf": map[string]any{"hostName": "h", "port": int64(8080)},
		"rules":      []any{map[string]any{"port": int64(22), "protocol": "tcp", "ruleId": "r1"}},
		"filter":     []any{map[string]any{"values": []any{"v"}}},
		"labels":     map[string]any{},
	}
	if diff := cmp.Diff(wantAt, at); diff != "" {
		t.Errorf("atProvider (-want +got):\n%s", diff)
	}
	wantConn := map[string][]byte{
		"attribute.password":   []byte("hunter2"),
		"attribute.keys":       []byte(`["k1"]`),
		"attribute.secret_out": []byte("out"),
		"attribute.counts":     []byte(`{"a":1}`),
	}
	if diff := cmp.Diff(wantConn, conn); diff != "" {
		t.Errorf("connection (-want +got):\n%s", diff)
	}
}

// TestObservationRoundTrip: decoding what EncodeObservation wrote gives
// the state back, with sensitive attributes (at any depth) null.
func TestObservationRoundTrip(t *testing.T) {
	b := testBlock()
	at, _ := EncodeObservation(b, fullState())
	got, err := DecodeObservation(b, at)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := fullState().Unmark()
	ty := b.ImpliedType()
	m := want.AsValueMap()
	for _, n := range []string{"password", "keys", "secret_out", "counts"} {
		m[n] = cty.NullVal(ty.AttributeType(n))
	}
	rule := m["rules"].Index(cty.NumberIntVal(0)).AsValueMap()
	rule["token"] = cty.NullVal(cty.String)
	m["rules"] = cty.ListVal([]cty.Value{cty.ObjectVal(rule)})
	want = cty.ObjectVal(m)
	if !got.RawEquals(want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
	}
}

// TestParametersRoundTrip: EncodeParameters then DecodeParameters gives
// the configurable attributes back: computed-only ones null (nested too),
// sensitive ones from their Secrets.
func TestParametersRoundTrip(t *testing.T) {
	b := testBlock()
	params := EncodeParameters(b, fullState())
	for _, f := range []string{"arn", "password", "keys", "secretOut", "counts"} {
		if _, ok := params[f]; ok {
			t.Errorf("EncodeParameters wrote %s, which is computed or sensitive", f)
		}
	}
	params["passwordSecretRef"] = ref("s", "pw")
	params["keysSecretRef"] = ref("s", "keys")
	got, err := DecodeParameters(b, params, secrets(map[SecretKeySelector]string{
		{Name: "s", Key: "pw"}: "hunter2", {Name: "s", Key: "keys"}: `["k1"]`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := fullState().Unmark()
	ty := b.ImpliedType()
	m := want.AsValueMap()
	for _, n := range []string{"arn", "secret_out", "counts"} {
		m[n] = cty.NullVal(ty.AttributeType(n))
	}
	rule := m["rules"].Index(cty.NumberIntVal(0)).AsValueMap()
	rule["rule_id"] = cty.NullVal(cty.String)
	m["rules"] = cty.ListVal([]cty.Value{cty.ObjectVal(rule)})
	want = cty.ObjectVal(m)
	if !got.RawEquals(want) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, want)
	}
}

// TestDecodeGroupBlock: a NestingGroup block is never null; absent, it
// is an object of nulls, as HCL decoding makes it.
func TestDecodeGroupBlock(t *testing.T) {
	b := &configschema.Block{BlockTypes: map[string]*configschema.NestedBlock{
		"settings": {Nesting: configschema.NestingGroup, Block: configschema.Block{Attributes: map[string]*configschema.Attribute{
			"level": {Type: cty.Number, Optional: true},
		}}},
	}}
	got, err := DecodeParameters(b, map[string]any{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := cty.ObjectVal(map[string]cty.Value{"settings": cty.ObjectVal(map[string]cty.Value{"level": cty.NullVal(cty.Number)})})
	if !got.RawEquals(want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestDecodeParameters(t *testing.T) {
	b := testBlock()
	ty := b.ImpliedType()
	cases := map[string]struct {
		reason  string
		params  map[string]any
		check   func(cty.Value) bool
		wantErr string
	}{
		"empty": {
			reason: "absent fields are null",
			params: nil,
			check: func(v cty.Value) bool {
				for it := v.ElementIterator(); it.Next(); {
					if _, av := it.Element(); !av.IsNull() {
						return false
					}
				}
				return true
			},
		},
		"numbers": {
			reason: "int64, int, float64 are all numbers",
			params: map[string]any{"size": int64(3), "ports": []any{1, 2.5}},
			check: func(v cty.Value) bool {
				return v.GetAttr("size").RawEquals(cty.NumberIntVal(3)) && v.GetAttr("ports").LengthInt() == 2
			},
		},
		"explicit null": {
			reason: "a JSON null is an absent field",
			params: map[string]any{"name": nil},
			check:  func(v cty.Value) bool { return v.GetAttr("name").IsNull() },
		},
		"empty list": {
			reason: "an empty array is an empty list, not null",
			params: map[string]any{"ports": []any{}},
			check:  func(v cty.Value) bool { return v.GetAttr("ports").RawEquals(cty.ListValEmpty(cty.Number)) },
		},
		"wrong type deep": {
			reason:  "the error names the field path",
			params:  map[string]any{"rules": []any{map[string]any{"port": "22"}}},
			wantErr: "spec.forProvider.rules[0].port: want a number",
		},
		"unknown field": {
			reason:  "fields the schema lacks are refused",
			params:  map[string]any{"nme": "x"},
			wantErr: "spec.forProvider.nme: unknown field",
		},
		"computed only": {
			reason:  "computed-only attributes cannot be set",
			params:  map[string]any{"arn": "x"},
			wantErr: "spec.forProvider.arn: unknown field",
		},
		"nested computed only": {
			reason:  "nor inside nested objects",
			params:  map[string]any{"rules": []any{map[string]any{"port": 1, "ruleId": "x"}}},
			wantErr: "spec.forProvider.rules[0].ruleId: unknown field",
		},
		"plain sensitive": {
			reason:  "a sensitive value is never written in the object",
			params:  map[string]any{"password": "x"},
			wantErr: "spec.forProvider.password: sensitive: set passwordSecretRef to a Secret key instead",
		},
		"missing secret": {
			reason:  "the resolver's error is reported at the SecretRef",
			params:  map[string]any{"passwordSecretRef": ref("s", "nope")},
			wantErr: "spec.forProvider.passwordSecretRef: Secret s has no key nope",
		},
		"bad secret JSON": {
			reason:  "non-string secrets are JSON of the attribute's type; the decoder's message, which quotes the secret, is left out",
			params:  map[string]any{"keysSecretRef": ref("s", "pw")},
			wantErr: "spec.forProvider.keysSecretRef: Secret s key pw: want JSON of list of string",
		},
		"bad selector": {
			reason:  "a SecretRef needs name and key",
			params:  map[string]any{"passwordSecretRef": map[string]any{"name": "s"}},
			wantErr: "spec.forProvider.passwordSecretRef.key: want a non-empty string",
		},
		"map entry": {
			reason:  "map entries are named by key",
			params:  map[string]any{"tags": map[string]any{"a b": 1}},
			wantErr: `spec.forProvider.tags["a b"]: want a string`,
		},
		"dynamic mixed list": {
			reason: "a dynamic value takes the type its JSON implies",
			params: map[string]any{"document": []any{"a", 1.0}},
			check: func(v cty.Value) bool {
				return v.GetAttr("document").Type().Equals(cty.Tuple([]cty.Type{cty.String, cty.Number}))
			},
		},
		"not an array": {
			reason:  "collections want arrays",
			params:  map[string]any{"zones": "a"},
			wantErr: "spec.forProvider.zones: want an array",
		},
	}
	resolve := secrets(map[SecretKeySelector]string{{Name: "s", Key: "pw"}: "hunter2"})
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := DecodeParameters(b, tc.params, resolve)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("%s: error %v, want %q", tc.reason, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if errs := got.Type().TestConformance(ty); errs != nil {
				t.Fatalf("%s: type %#v, want the block's implied type", tc.reason, got.Type())
			}
			if !tc.check(got) {
				t.Errorf("%s: got %#v", tc.reason, got)
			}
		})
	}
}
