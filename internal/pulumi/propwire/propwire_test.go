package propwire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
)

// pulumiWire is how Pulumi's own codec is used by a provider that keeps
// unknowns, secrets and resource references: the form propwire speaks.
var pulumiWire = plugin.MarshalOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true}

// TestSentinels: the unknown sentinels are Pulumi's.
func TestSentinels(t *testing.T) {
	got := []string{unknownBool, unknownNumber, unknownString, unknownArray, unknownAsset, unknownArchive, unknownObject}
	want := []string{plugin.UnknownBoolValue, plugin.UnknownNumberValue, plugin.UnknownStringValue, plugin.UnknownArrayValue,
		plugin.UnknownAssetValue, plugin.UnknownArchiveValue, plugin.UnknownObjectValue}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sentinels %q, want Pulumi's %q", got, want)
	}
}

// wireCases are Structs as the engine sends them, in JSON.
var wireCases = map[string]string{
	"plain":                `{"s":"x","n":1.5,"b":true,"z":null,"l":[1,"a",null],"o":{"k":{"k2":[]}}}`,
	"unknowns":             `{"s":"04da6b54-80e4-46f7-96ec-b56ff0331ba9","b":"1c4a061d-8072-4f0a-a4cb-0ff528b18fe7","n":"3eeb2bf0-c639-47a8-9e75-3b44932eb421","l":["6a19a0b0-7e62-4c92-b797-7f8e31da9cc2"],"o":{"x":"dd056dcd-154b-4c76-9bd3-c8f88648b5ff"}}`,
	"secret":               `{"p":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":"hunter2"},"nested":[{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":{"a":1}}]}`,
	"secret unknown":       `{"p":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":"04da6b54-80e4-46f7-96ec-b56ff0331ba9"}}`,
	"reference":            `{"r":{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg","id":"lg-1"}}`,
	"reference no id":      `{"r":{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"urn:pulumi:dev::p::my:index:Component::c","name":"n","type":"t","packageVersion":"1.0.0"}}`,
	"reference unknown id": `{"r":{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"urn:pulumi:dev::p::awscc:logs/logGroup:LogGroup::lg","id":""}}`,
	"output known":         `{"o":{"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4","value":"v","dependencies":["urn:a"]}}`,
	"output secret":        `{"o":{"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4","value":3,"secret":true}}`,
	"output unknown":       `{"o":{"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4","secret":true}}`,
	"byte string":          `{"b":{"4dabf18193072939515e22adb298388d":"803fd3297a5875dc03ca845dda5d2a98","value":"aGk="}}`,
	"asset":                `{"a":{"4dabf18193072939515e22adb298388d":"c44067f5952c0a294b673a41bacd8c17","text":"hello"}}`,
	"archive":              `{"a":{"4dabf18193072939515e22adb298388d":"0def7320c3a5731c473e5ecbe6d01bc7","path":"x.zip"}}`,
	"bad signature":        `{"x":{"4dabf18193072939515e22adb298388d":"nope"}}`,
	"number signature":     `{"x":{"4dabf18193072939515e22adb298388d":7}}`,
	"secret no value":      `{"x":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270"}}`,
	"reference no urn":     `{"x":{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e"}}`,
	"reference bad id":     `{"x":{"4dabf18193072939515e22adb298388d":"5cf8f73096256a8f31e491e813e4eb8e","urn":"u","id":3}}`,
	"output bad secret":    `{"x":{"4dabf18193072939515e22adb298388d":"d0e6a833031e9bbcd3f4e8bde6ca49a4","secret":"yes"}}`,
}

// TestAgreesWithPulumi: every case reads as Pulumi's codec reads it (the
// same value, or an error from both), and what reads writes back as
// Pulumi's codec writes it.
func TestAgreesWithPulumi(t *testing.T) {
	for name, js := range wireCases {
		t.Run(name, func(t *testing.T) {
			st := structOf(t, js)
			if st == nil {
				t.Fatalf("case is not a JSON object: %s", js)
			}
			agree(t, st)
		})
	}
}

// agree checks propwire against Pulumi's codec on st.
func agree(t *testing.T, st *structpb.Struct) {
	t.Helper()
	want, werr := plugin.UnmarshalProperties(st, pulumiWire)
	got, gerr := Unmarshal(st)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("Unmarshal error %v, Pulumi's %v", gerr, werr)
	}
	if werr != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Unmarshal:\n got %#v\nwant %#v", got, want)
	}
	if hasAsset(resource.NewProperty(got)) {
		// Never sent: Cairn's providers return no assets.
		if _, err := Marshal(got); err == nil {
			t.Fatal("Marshal accepted an asset")
		}
		return
	}
	wantSt, werr := plugin.MarshalProperties(want, pulumiWire)
	gotSt, gerr := Marshal(got)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("Marshal error %v, Pulumi's %v", gerr, werr)
	}
	if werr == nil && !proto.Equal(gotSt, wantSt) {
		t.Fatalf("Marshal:\n got %v\nwant %v", gotSt, wantSt)
	}
}

func hasAsset(v resource.PropertyValue) bool {
	switch {
	case v.IsAsset(), v.IsArchive():
		return true
	case v.IsComputed():
		return hasAsset(v.Input().Element)
	case v.IsSecret():
		return hasAsset(v.SecretValue().Element)
	case v.IsArray():
		for _, e := range v.ArrayValue() {
			if hasAsset(e) {
				return true
			}
		}
	case v.IsObject():
		for _, e := range v.ObjectValue() {
			if hasAsset(e) {
				return true
			}
		}
	}
	return false
}

// structOf decodes a JSON object into a Struct; nil when it is not one.
func structOf(t testing.TB, js string) *structpb.Struct {
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil || m == nil {
		return nil
	}
	st, err := structpb.NewStruct(m)
	if err != nil {
		return nil
	}
	return st
}

// TestMarshalRefuses: values the engine cannot take are errors naming
// the property, never a panic.
func TestMarshalRefuses(t *testing.T) {
	cases := map[string]struct {
		v    resource.PropertyValue
		want string
	}{
		"not UTF-8": {resource.NewProperty("\xff"), `property "k" is a string that contains non-UTF8 bytes`},
		"asset":     {resource.NewProperty(&asset.Asset{Sig: asset.AssetSig, Text: "t"}), `property "k": cannot send`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Marshal(resource.PropertyMap{"k": tc.v})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// FuzzAgreesWithPulumi: any JSON object read as a Struct is read (and
// written back) as Pulumi's codec does it, and never panics.
func FuzzAgreesWithPulumi(f *testing.F) {
	for _, js := range wireCases {
		f.Add(js)
	}
	f.Fuzz(func(t *testing.T, js string) {
		st := structOf(t, js)
		if st == nil {
			return
		}
		agree(t, st)
	})
}
