package plugin

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers/wire"
)

// newMessage returns an empty message of a protocol's named type, such as
// newMessage(t, 5, "Diagnostic").
func newMessage(tb testing.TB, version int, name string) message {
	tb.Helper()
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(fmt.Sprintf("tfplugin%d.%s", version, name)))
	if err != nil {
		tb.Fatal(err)
	}
	return message{dynamicpb.NewMessage(d.(protoreflect.MessageDescriptor))}
}

// step appends one AttributePath step, setting the oneof member named.
func step(tb testing.TB, path message, member string, v protoreflect.Value) {
	tb.Helper()
	steps := path.m.Mutable(path.field("steps")).List()
	s := steps.NewElement()
	s.Message().Set(s.Message().Descriptor().Fields().ByName(protoreflect.Name(member)), v)
	steps.Append(s)
}

func TestDiagnostics(t *testing.T) {
	cases := map[string]struct {
		reason   string
		severity protoreflect.EnumNumber
		steps    func(tb testing.TB, p message)
		want     cty.Path
		warning  bool
	}{
		"error with path": {
			reason: "Names, string keys and int keys, including a zero key, become cty steps.", severity: 1,
			steps: func(tb testing.TB, p message) {
				step(tb, p, "attribute_name", protoreflect.ValueOfString("rules"))
				step(tb, p, "element_key_int", protoreflect.ValueOfInt64(0))
				step(tb, p, "element_key_string", protoreflect.ValueOfString(""))
			},
			want: cty.GetAttrPath("rules").Index(cty.NumberIntVal(0)).Index(cty.StringVal("")),
		},
		"warning": {reason: "A warning stays a warning, with no path.", severity: 2, warning: true},
		"invalid": {reason: "An invalid severity counts as an error.", severity: 0},
	}
	for name, tc := range cases {
		for _, version := range []int{5, 6} {
			t.Run(fmt.Sprintf("%s/v%d", name, version), func(t *testing.T) {
				resp := newMessage(t, version, map[int]string{
					5: "ValidateResourceTypeConfig.Response", 6: "ValidateResourceConfig.Response"}[version])
				l := resp.m.Mutable(resp.field("diagnostics")).List()
				d := l.NewElement()
				dm := message{d.Message()}
				dm.set("severity", protoreflect.ValueOfEnum(tc.severity))
				dm.setStr("summary", "s")
				if tc.steps != nil {
					tc.steps(t, dm.mutable("attribute"))
				}
				l.Append(d)
				got := diagnostics(resp, "diagnostics")
				if len(got) != 1 {
					t.Fatalf("got %d diagnostics", len(got))
				}
				ed := wire.Diagnostic(got[0].Severity == tfprotov6.DiagnosticSeverityWarning, got[0].Summary, got[0].Detail, got[0].Attribute)
				if (ed.Severity == diags.Warning) != tc.warning || !ed.Path.Equals(tc.want) || len(ed.Path) != len(tc.want) {
					t.Errorf("%s\ngot %v at %#v", tc.reason, ed, ed.Path)
				}
			})
		}
	}
}

// TestFieldsAbsentInProtocol5 checks that a field only protocol 6 has
// reads as absent in protocol 5 and ignores writes, so one mapping serves
// both.
func TestFieldsAbsentInProtocol5(t *testing.T) {
	a := newMessage(t, 5, "Schema.Attribute")
	a.mutable("nested_type").setStr("x", "y")
	a.setBytes("type", []byte(`"string"`))
	got, err := attribute(a)
	if err != nil || got.NestedType != nil || !got.Type.Is(tftypes.String) {
		t.Errorf("attribute = %#v, %v; want a plain string attribute", got, err)
	}
}

// FuzzSchemaResponse decodes arbitrary bytes as a protocol 6 schema
// answer, functions included. The property: a schema or an error, never
// a panic.
func FuzzSchemaResponse(f *testing.F) {
	resp := newMessage(f, 6, "GetProviderSchema.Response")
	s := resp.mutable("provider").mutable("block")
	attrs := s.m.Mutable(s.field("attributes")).List()
	el := attrs.NewElement()
	message{el.Message()}.setStr("name", "a")
	message{el.Message()}.setBytes("type", []byte(`["map","string"]`))
	attrs.Append(el)
	// A function, so the fuzzer starts from a functions map too.
	fd := resp.field("functions")
	fn := resp.m.Mutable(fd).Map().NewValue()
	f0 := message{fn.Message()}
	p0 := f0.appendMsg("parameters")
	p0.setStr("name", "x")
	p0.setBytes("type", []byte(`"dynamic"`))
	f0.mutable("return").setBytes("type", []byte(`["list","number"]`))
	resp.m.Mutable(fd).Map().Set(protoreflect.ValueOfString("f").MapKey(), fn)
	seed, err := proto.Marshal(resp.m.Interface())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, b []byte) {
		m := newMessage(t, 6, "GetProviderSchema.Response")
		if err := proto.Unmarshal(b, m.m.Interface()); err != nil {
			return
		}
		_, _ = schemaResponse(m)
	})
}
