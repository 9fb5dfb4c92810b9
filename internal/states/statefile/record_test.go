package statefile_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestObjectRecordRoundTrip(t *testing.T) {
	obj := &states.ObjectSrc{
		SchemaVersion:       2,
		AttrsJSON:           []byte(`{"id":"x","v":{"value":"\u003c","type":"string"}}`),
		AttrSensitivePaths:  []cty.Path{cty.GetAttrPath("v")},
		Private:             []byte("p"),
		Status:              states.ObjectTainted,
		Dependencies:        []addrs.AbsResource{managed("t", "a")},
		CreateBeforeDestroy: true,
	}
	mod := addrs.ModuleInstance{{Name: "m", Key: addrs.IntKey(3)}}
	tests := map[string]struct {
		reason string
		rec    statefile.ObjectRecord
	}{
		"current": {
			reason: "every object field survives",
			rec:    statefile.ObjectRecord{Addr: managed("terraform_data", "a").Instance(addrs.IntKey(7)), Provider: builtinProvider, Object: obj},
		},
		"deposed in module": {
			rec: statefile.ObjectRecord{
				Addr:     addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "aws_vpc", Name: "v"}.Absolute(mod).Instance(addrs.StringKey("k")),
				Deposed:  "0000beef",
				Provider: addrs.AbsProviderConfig{Module: mod.Module(), Provider: addrs.NewDefaultProvider("aws"), Alias: "x"},
				Object:   &states.ObjectSrc{AttrsJSON: []byte(`{}`), Status: states.ObjectReady},
			},
		},
		"keyed provider instance": {
			reason: "an object managed by one instance of a provider configuration with for_each (OpenTofu 1.9) keeps its key through the journal",
			rec: statefile.ObjectRecord{
				Addr:     managed("aws_s3_bucket", "b").Instance(addrs.StringKey("x")),
				Provider: addrs.AbsProviderConfig{Provider: addrs.NewDefaultProvider("aws"), Alias: "by_region", Key: addrs.StringKey("us-east-1")},
				Object:   &states.ObjectSrc{AttrsJSON: []byte(`{}`), Status: states.ObjectReady},
			},
		},
		"removed data": {
			reason: "a removal carries the address and no object",
			rec: statefile.ObjectRecord{
				Addr:     addrs.Resource{Mode: addrs.DataResourceMode, Type: "x", Name: "y"}.Absolute(addrs.RootModuleInstance).Instance(addrs.NoKey),
				Provider: builtinProvider,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := json.Marshal(&tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			var got statefile.ObjectRecord
			if err := json.Unmarshal(src, &got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", src, err)
			}
			if diff := cmp.Diff(tc.rec, got, cmpOpts); diff != "" {
				t.Errorf("round trip (-want +got):\n%s\n%s", diff, src)
			}
		})
	}
}

func TestObjectRecordErrors(t *testing.T) {
	tests := map[string]struct {
		input   string
		wantErr string
	}{
		"mode":     {`{"mode":"x","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instance":{}}`, `invalid mode "x"`},
		"provider": {`{"mode":"managed","type":"t","name":"n","provider":"p","instance":{}}`, "invalid provider address"},
		"key":      {`{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instance":{"index_key":0.5}}`, "invalid index_key"},
		"syntax":   {`{"mode":`, "unexpected end"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var rec statefile.ObjectRecord
			err := json.Unmarshal([]byte(tc.input), &rec)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("Unmarshal error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestOutputRecordRoundTrip(t *testing.T) {
	tests := map[string]struct {
		rec statefile.OutputRecord
	}{
		"value":   {statefile.OutputRecord{Name: "o", Value: &states.OutputValue{Value: cty.ListVal([]cty.Value{cty.StringVal("<")}), Sensitive: true}}},
		"removed": {statefile.OutputRecord{Name: "gone"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := json.Marshal(&tc.rec)
			if err != nil {
				t.Fatal(err)
			}
			var got statefile.OutputRecord
			if err := json.Unmarshal(src, &got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", src, err)
			}
			if diff := cmp.Diff(tc.rec, got, cmpOpts); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
