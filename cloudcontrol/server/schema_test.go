package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

func mustModel(t *testing.T, s string) map[string]any {
	t.Helper()
	m, err := decodeModel(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestPublicStripsWriteOnly uses S3 Bucket's real writeOnlyProperties,
// which reach through arrays (/properties/LifecycleConfiguration/Rules/*/Transition).
func TestPublicStripsWriteOnly(t *testing.T) {
	ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: bucketType, Schema: realSchema(t, bucketType)})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		model, want string
	}{
		"top level": {
			model: `{"BucketName":"b","AccessControl":"Private"}`,
			want:  `{"BucketName":"b"}`,
		},
		"through an array": {
			model: `{"LifecycleConfiguration":{"Rules":[{"Id":"1","Transition":{"StorageClass":"GLACIER"},"ExpiredObjectDeleteMarker":true},{"Id":"2"}]}}`,
			want:  `{"LifecycleConfiguration":{"Rules":[{"Id":"1"},{"Id":"2"}]}}`,
		},
		"absent parents": {
			model: `{"LifecycleConfiguration":{},"ReplicationConfiguration":{"Rules":"not an array"}}`,
			want:  `{"LifecycleConfiguration":{},"ReplicationConfiguration":{"Rules":"not an array"}}`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			in := mustModel(t, tc.model)
			got := encodeModel(ti.public(in))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("public model (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(mustModel(t, tc.model), in); diff != "" {
				t.Errorf("public changed its input (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPublicDropsEmptiedObjects: an object whose every property is
// write-only is left out once they are, as AWS leaves out a Lambda
// function's Code; an object that was empty to begin with stays.
func TestPublicDropsEmptiedObjects(t *testing.T) {
	schema := []byte(`{"primaryIdentifier":["/properties/Name"],
		"writeOnlyProperties":["/properties/Code/ZipFile","/properties/Code/S3Key","/properties/Layers/*/Secret"]}`)
	ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: "T::T::T", Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct{ model, want string }{
		"all write-only":      {`{"Name":"f","Code":{"ZipFile":"x","S3Key":"k"}}`, `{"Name":"f"}`},
		"some left":           {`{"Name":"f","Code":{"ZipFile":"x","Image":"i"}}`, `{"Code":{"Image":"i"},"Name":"f"}`},
		"empty to begin":      {`{"Name":"f","Code":{}}`, `{"Code":{},"Name":"f"}`},
		"array elements stay": {`{"Layers":[{"Secret":"s"},{"Secret":"t","Arn":"a"}]}`, `{"Layers":[{},{"Arn":"a"}]}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := encodeModel(ti.public(mustModel(t, tc.model))); got != tc.want {
				t.Errorf("public(%s) = %s, want %s", tc.model, got, tc.want)
			}
		})
	}
}

func TestIdentifier(t *testing.T) {
	cases := map[string]struct {
		pointers []string
		model    string
		want     string
		wantErr  bool
	}{
		"one part":           {pointers: []string{"/properties/Name"}, model: `{"Name":"n"}`, want: "n"},
		"parts in order":     {pointers: []string{"/properties/B", "/properties/A"}, model: `{"A":"a","B":"b"}`, want: "b|a"},
		"number":             {pointers: []string{"/properties/Port"}, model: `{"Port":8080}`, want: "8080"},
		"nested":             {pointers: []string{"/properties/S/Id"}, model: `{"S":{"Id":"x"}}`, want: "x"},
		"missing part fails": {pointers: []string{"/properties/A", "/properties/B"}, model: `{"A":"a"}`, wantErr: true},
		"boolean":            {pointers: []string{"/properties/On"}, model: `{"On":true}`, want: "true"},
		"null part fails":    {pointers: []string{"/properties/A"}, model: `{"A":null}`, wantErr: true},
		// Was the object's JSON text; the emulator and cfnschema have no
		// text for an object either (cloudcontrol.ScalarText).
		"object part fails": {pointers: []string{"/properties/A"}, model: `{"A":{"x":1}}`, wantErr: true},
		"array part fails":  {pointers: []string{"/properties/A"}, model: `{"A":["x"]}`, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			schema, _ := json.Marshal(map[string]any{"primaryIdentifier": tc.pointers})
			ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: "T::T::T", Schema: schema})
			if err != nil {
				t.Fatal(err)
			}
			got, err := ti.identifier(mustModel(t, tc.model))
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("identifier = %q, %v; want %q (error %v)", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestChangedCreateOnly uses IAM Role's createOnly Path and RoleName.
func TestChangedCreateOnly(t *testing.T) {
	ti, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: "AWS::IAM::Role", Schema: realSchema(t, "AWS::IAM::Role")})
	if err != nil {
		t.Fatal(err)
	}
	prev := `{"RoleName":"r","Path":"/","Description":"d"}`
	cases := map[string]struct {
		desired, want string
	}{
		"other property":   {desired: `{"RoleName":"r","Path":"/","Description":"e"}`},
		"renamed":          {desired: `{"RoleName":"s","Path":"/","Description":"d"}`, want: "/properties/RoleName"},
		"removed":          {desired: `{"RoleName":"r","Description":"d"}`, want: "/properties/Path"},
		"number unchanged": {desired: `{"RoleName":"r","Path":"/","Description":"d","MaxSessionDuration":3600}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ti.changedCreateOnly(mustModel(t, prev), mustModel(t, tc.desired))
			if got != tc.want {
				t.Errorf("changedCreateOnly = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseTypeInfoRefusesBadSchemas(t *testing.T) {
	cases := map[string]string{
		"no primary identifier": `{"properties":{}}`,
		"pointer outside":       `{"primaryIdentifier":["/definitions/X"]}`,
		"not JSON":              `{`,
	}
	for name, schema := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := parseTypeInfo(&cloudcontrol.ResourceType{Name: "T::T::T", Schema: []byte(schema)})
			if err == nil || !strings.Contains(err.Error(), "T::T::T") {
				t.Errorf("error = %v, want one naming the type", err)
			}
		})
	}
}
