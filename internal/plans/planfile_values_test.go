package plans

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// dynamicAttrs is an object whose "input" attribute is dynamic, holding
// v, beside attributes of fixed types, as terraform_data's values are.
func dynamicAttrs(v cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("i"), "input": v, "n": cty.NumberIntVal(1)})
}

// roundTripValues are values a plan file must give back exactly, marks
// and unknowns included.
func roundTripValues() map[string]cty.Value {
	sens := cty.NewValueMarks(configschema.SensitiveMark)
	return map[string]cty.Value{
		"dynamic holding an object": dynamicAttrs(cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.ListValEmpty(cty.Bool)})),
		"dynamic holding a list":    dynamicAttrs(cty.ListVal([]cty.Value{cty.NumberIntVal(1), cty.UnknownVal(cty.Number)})),
		"dynamic holding a map":     dynamicAttrs(cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")})),
		"dynamic holding a tuple":   dynamicAttrs(cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.True})),
		"dynamic null":              dynamicAttrs(cty.NullVal(cty.DynamicPseudoType)),
		"dynamic unknown":           dynamicAttrs(cty.DynamicVal),
		"dynamic typed unknown":     dynamicAttrs(cty.UnknownVal(cty.Map(cty.String))),
		"refined unknown":           cty.UnknownVal(cty.String).RefineNotNull().Refine().StringPrefix("arn:").NewValue(),
		"null object":               cty.NullVal(cty.Object(map[string]cty.Type{"input": cty.DynamicPseudoType})),
		"wholly unknown":            cty.DynamicVal,
		"null dynamic":              cty.NullVal(cty.DynamicPseudoType),
		"set of objects":            cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")})}),
		"sensitive map key and index": cty.ObjectVal(map[string]cty.Value{
			"m": cty.MapVal(map[string]cty.Value{"secret": cty.StringVal("s").WithMarks(sens), "open": cty.StringVal("o")}),
			"l": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b").WithMarks(sens)}),
		}),
		"sensitive map keys": cty.MapVal(map[string]cty.Value{
			"a": cty.StringVal("1").WithMarks(sens), "b": cty.StringVal("2").WithMarks(sens), "c": cty.StringVal("3"),
		}),
		"sensitive dynamic": dynamicAttrs(cty.StringVal("s").WithMarks(sens)),
		"sensitive whole":   cty.StringVal("s").WithMarks(sens),
	}
}

// TestPlanFileRoundTripsValues: every kind of value survives a plan file
// as a change's before and after, an output and a variable, in plans of
// one change and of enough changes to be decoded by several workers.
func TestPlanFileRoundTripsValues(t *testing.T) {
	for name, v := range roundTripValues() {
		for _, n := range []int{1, 3 * minChangesPerWorker} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				p := benchPlan(t, benchShape{resourceType: "terraform_data", action: Update, values: func(i int) (cty.Value, cty.Value) {
					return v, dynamicAttrs(cty.NumberIntVal(int64(i)))
				}}, n)
				p.Outputs = []*OutputChange{{Name: "o", Action: Update, Before: v, After: v}}
				p.VariableValues = map[string]cty.Value{"v": v}
				got := roundTrip(t, p)
				for i, c := range got.Changes {
					if want := dynamicAttrs(cty.NumberIntVal(int64(i))); !c.Before.RawEquals(v) || !c.After.RawEquals(want) {
						t.Fatalf("change %d: %#v, %#v; want %#v, %#v", i, c.Before, c.After, v, want)
					}
				}
				if o := got.Outputs[0]; !o.Before.RawEquals(v) || !o.After.RawEquals(v) {
					t.Errorf("output: %#v, %#v; want %#v", o.Before, o.After, v)
				}
				if !got.VariableValues["v"].RawEquals(v) {
					t.Errorf("variable: %#v; want %#v", got.VariableValues["v"], v)
				}
			})
		}
	}
}

func roundTrip(t *testing.T, p *Plan) *Plan {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteFile(&buf, p); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Changes) != len(p.Changes) {
		t.Fatalf("%d changes read back, %d written", len(got.Changes), len(p.Changes))
	}
	return got
}

// wrapped is ctymsgpack's dynamic wrapper around body, with the type JSON
// as a msgpack bin written with header head (its length is appended).
func wrapped(head []byte, typeJSON string, body ...byte) []byte {
	b := append([]byte{0x92}, head...)
	switch head[0] {
	case 0xc4:
		b = append(b, byte(len(typeJSON)))
	case 0xc5:
		b = binary.BigEndian.AppendUint16(b, uint16(len(typeJSON)))
	case 0xc6:
		b = binary.BigEndian.AppendUint32(b, uint32(len(typeJSON)))
	}
	b = append(b, typeJSON...)
	return append(b, body...)
}

// TestValueDecodeMatchesGoCty: for well-formed and corrupt msgpack alike,
// decoding a value gives what go-cty's own dynamic decoding gives (the
// same value, or an error), and a corrupt value is an error, not a panic.
func TestValueDecodeMatchesGoCty(t *testing.T) {
	bin8, bin16, bin32 := []byte{0xc4}, []byte{0xc5}, []byte{0xc6}
	tests := map[string]struct {
		recorded string
		msgpack  []byte
		wantErr  bool
	}{
		"string, bin 8":                 {recorded: `"string"`, msgpack: wrapped(bin8, `"string"`, 0xa1, 'x')},
		"string, bin 16":                {recorded: `"string"`, msgpack: wrapped(bin16, `"string"`, 0xa1, 'x')},
		"string, bin 32":                {recorded: `"string"`, msgpack: wrapped(bin32, `"string"`, 0xa1, 'x')},
		"type as msgpack str":           {recorded: `"string"`, msgpack: append([]byte{0x92, 0xa8}, append([]byte(`"string"`), 0xa1, 'x')...)},
		"array 16 of two":               {recorded: `"string"`, msgpack: append([]byte{0xdc, 0, 2, 0xc4, 8}, append([]byte(`"string"`), 0xa1, 'x')...)},
		"null in a known type":          {recorded: `"number"`, msgpack: wrapped(bin8, `"number"`, 0xc0)},
		"unknown in a known type":       {recorded: `"number"`, msgpack: wrapped(bin8, `"number"`, 0xd4, 0, 0)},
		"null dynamic":                  {recorded: `"dynamic"`, msgpack: []byte{0xc0}},
		"unknown dynamic":               {recorded: `"dynamic"`, msgpack: []byte{0xd4, 0, 0}},
		"wrapper inside wrapper":        {recorded: `"string"`, msgpack: wrapped(bin8, `"dynamic"`, wrapped(bin8, `"string"`, 0xa1, 'x')...)},
		"dynamic attribute":             {recorded: `["object",{"a":"string"}]`, msgpack: wrapped(bin8, `["object",{"a":"string"}]`, 0x81, 0xa1, 'a', 0xa1, 'x')},
		"recorded type disagrees":       {recorded: `"string"`, msgpack: wrapped(bin8, `"number"`, 0x01), wantErr: true},
		"attribute type disagrees":      {recorded: `["object",{"a":"string"}]`, msgpack: wrapped(bin8, `["object",{"a":"number"}]`, 0x81, 0xa1, 'a', 0x01), wantErr: true},
		"value does not fit its type":   {recorded: `"bool"`, msgpack: wrapped(bin8, `"bool"`, 0xa1, 'x'), wantErr: true},
		"bad type JSON":                 {recorded: `"string"`, msgpack: wrapped(bin8, `"strin`, 0xa1, 'x'), wantErr: true},
		"unknown type name":             {recorded: `"string"`, msgpack: wrapped(bin8, `"text"`, 0xa1, 'x'), wantErr: true},
		"type but no value":             {recorded: `"string"`, msgpack: wrapped(bin8, `"string"`), wantErr: true},
		"header only":                   {recorded: `"string"`, msgpack: []byte{0x92}, wantErr: true},
		"bin length past the end":       {recorded: `"string"`, msgpack: []byte{0x92, 0xc4, 0x40, '"', 's'}, wantErr: true},
		"bin 16 length past the end":    {recorded: `"string"`, msgpack: []byte{0x92, 0xc5, 0xff}, wantErr: true},
		"bin 32 claims four gigabytes":  {recorded: `"string"`, msgpack: []byte{0x92, 0xc6, 0xff, 0xff, 0xff, 0xff, 'x'}, wantErr: true},
		"three elements":                {recorded: `"string"`, msgpack: append(wrapped(bin8, `"string"`, 0xa1, 'x'), 0xc0), wantErr: true},
		"three-element array":           {recorded: `"string"`, msgpack: append([]byte{0x93, 0xc4, 8}, append([]byte(`"string"`), 0xa1, 'x', 0xc0)...), wantErr: true},
		"list claims two billion items": {recorded: `["list","string"]`, msgpack: wrapped(bin8, `["list","string"]`, 0xdd, 0x7f, 0xff, 0xff, 0xff), wantErr: true},
		"empty":                         {recorded: `"string"`, msgpack: nil, wantErr: true},
		"bad recorded type":             {recorded: `["list"`, msgpack: wrapped(bin8, `"string"`, 0xa1, 'x'), wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := valueV1{Type: []byte(tc.recorded), Msgpack: tc.msgpack}.decode(newDecodeCache())
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error %v (value %#v)", err, tc.wantErr, got)
			}
			if checkMsgpack(tc.msgpack) != nil {
				return // go-cty would allocate what the lengths claim
			}
			want, wantErr := ctymsgpack.Unmarshal(tc.msgpack, cty.DynamicPseudoType)
			got, err = newDecodeCache().unmarshalDynamic(tc.msgpack)
			if (err != nil) != (wantErr != nil) || (err == nil && !got.RawEquals(want)) {
				t.Errorf("decoded %#v, %v; go-cty gives %#v, %v", got, err, want, wantErr)
			}
		})
	}
}

// TestValueTypeMismatchWithCachedType: a value whose recorded type
// disagrees with the type inside its msgpack is refused even when both
// types were cached by values read before it.
func TestValueTypeMismatchWithCachedType(t *testing.T) {
	dc := newDecodeCache()
	for _, ev := range []valueV1{
		{Type: []byte(`"string"`), Msgpack: wrapped([]byte{0xc4}, `"string"`, 0xa1, 'x')},
		{Type: []byte(`"number"`), Msgpack: wrapped([]byte{0xc4}, `"number"`, 0x01)},
	} {
		if _, err := ev.decode(dc); err != nil {
			t.Fatal(err)
		}
	}
	bad := valueV1{Type: []byte(`"string"`), Msgpack: wrapped([]byte{0xc4}, `"number"`, 0x01)}
	if v, err := bad.decode(dc); err == nil || !strings.Contains(err.Error(), "recorded as string") {
		t.Fatalf("decoded %#v, error %v; want a type mismatch", v, err)
	}
}

// TestValueBadSensitivePath: a sensitive path whose index key or key type
// is corrupt is an error, whether or not an earlier value cached a key
// under the same type.
func TestValueBadSensitivePath(t *testing.T) {
	str := []byte(`"string"`)
	good := valueV1{Type: str, Msgpack: wrapped([]byte{0xc4}, `"string"`, 0xa1, 'x')}
	tests := map[string]stepV1{
		"unknown key type":       {KeyType: []byte(`"text"`), Key: []byte(`"k"`)},
		"key not JSON":           {KeyType: str, Key: []byte(`"k`)},
		"key of another type":    {KeyType: str, Key: []byte(`{}`)},
		"key type not JSON":      {KeyType: []byte(`["map"`), Key: []byte(`"k"`)},
		"number key as a string": {KeyType: []byte(`"number"`), Key: []byte(`"one"`)},
	}
	for name, step := range tests {
		t.Run(name, func(t *testing.T) {
			dc := newDecodeCache()
			ok := good
			ok.Sensitive = []pathV1{{{KeyType: str, Key: []byte(`"k"`)}}}
			if _, err := ok.decode(dc); err != nil {
				t.Fatal(err)
			}
			bad := good
			bad.Sensitive = []pathV1{{{Attr: "a"}, step}}
			if v, err := bad.decode(dc); err == nil {
				t.Errorf("decoded %#v, want an error", v)
			}
		})
	}
}

// TestPlanFileTypesPerRead: plan files whose values put different types in
// the same places, read at the same time and one after another, each read
// back with their own types. A type cache shared between reads would race
// (under -race) or hand one file's types to the other.
func TestPlanFileTypesPerRead(t *testing.T) {
	inputs := []cty.Value{
		cty.StringVal("s"),
		cty.ObjectVal(map[string]cty.Value{"input": cty.NumberIntVal(1)}),
		cty.ListVal([]cty.Value{cty.True}),
		cty.MapVal(map[string]cty.Value{"input": cty.StringVal("m")}),
	}
	files := make([][]byte, len(inputs))
	for i, in := range inputs {
		var buf bytes.Buffer
		p := benchPlan(t, benchShape{resourceType: "terraform_data", action: Create, values: func(int) (cty.Value, cty.Value) {
			return cty.NullVal(dynamicAttrs(in).Type()), dynamicAttrs(in)
		}}, 2*minChangesPerWorker)
		if err := WriteFile(&buf, p); err != nil {
			t.Fatal(err)
		}
		files[i] = buf.Bytes()
	}
	var wg sync.WaitGroup
	for range 3 {
		for i := range files {
			wg.Go(func() {
				p, err := ReadFile(bytes.NewReader(files[i]))
				if err != nil {
					t.Error(err)
					return
				}
				for _, c := range p.Changes {
					if want := dynamicAttrs(inputs[i]); !c.After.RawEquals(want) || !c.Before.Type().Equals(want.Type()) {
						t.Errorf("file %d: %#v, want %#v", i, c.After, want)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// TestDecodeChangesReportsFirstBadChange: when changes decoded by
// different workers are bad, the error names the first, on every read.
func TestDecodeChangesReportsFirstBadChange(t *testing.T) {
	n := 4 * minChangesPerWorker
	doc, err := encodePlan(benchPlan(t, terraformDataShape, n))
	if err != nil {
		t.Fatal(err)
	}
	first := minChangesPerWorker + 3
	for _, i := range []int{n - 1, 3 * minChangesPerWorker, first} {
		doc.Changes[i].After.Type = []byte(`"text"`)
	}
	for range 10 {
		_, err := decodePlan(doc)
		if want := fmt.Sprintf("change %d: after: invalid type", first); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Fatalf("error %v, want one starting %q", err, want)
		}
	}
}

// TestDecodeChangesKeepsOrder: changes come back in the file's order
// however many workers decode them.
func TestDecodeChangesKeepsOrder(t *testing.T) {
	for _, n := range []int{0, 1, minChangesPerWorker - 1, minChangesPerWorker + 1, 5*minChangesPerWorker + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			p := benchPlan(t, terraformDataShape, n)
			p.Graph = &Graph{}
			got := roundTrip(t, p)
			for i, c := range got.Changes {
				if want := addrs.IntKey(i); c.Addr.Resource.Key != want {
					t.Fatalf("change %d is %s", i, c.Addr)
				}
			}
			if n == 0 && got.Changes != nil {
				t.Errorf("no changes read back as %#v, want nil", got.Changes)
			}
		})
	}
}

// TestPeelDynamic: the wrapper's type JSON and value are split apart for
// each bin size go-cty may write, and anything else, lengths that run past
// the end included, is left to go-cty.
func TestPeelDynamic(t *testing.T) {
	typ := `["list","string"]`
	tests := map[string]struct {
		in       []byte
		wantType string
		wantRest []byte
		wantOK   bool
	}{
		"bin 8":                    {in: wrapped([]byte{0xc4}, typ, 0x90), wantType: typ, wantRest: []byte{0x90}, wantOK: true},
		"bin 16":                   {in: wrapped([]byte{0xc5}, typ, 0x90), wantType: typ, wantRest: []byte{0x90}, wantOK: true},
		"bin 32":                   {in: wrapped([]byte{0xc6}, typ, 0x90), wantType: typ, wantRest: []byte{0x90}, wantOK: true},
		"nothing after the type":   {in: wrapped([]byte{0xc4}, typ), wantType: typ, wantRest: []byte{}, wantOK: true},
		"bin 8 past the end":       {in: []byte{0x92, 0xc4, 3, '"', 'x'}},
		"bin 16 past the end":      {in: []byte{0x92, 0xc5, 0, 3, '"', 'x'}},
		"bin 32 past the end":      {in: []byte{0x92, 0xc6, 0xff, 0xff, 0xff, 0xff, '"'}},
		"bin 16 header cut short":  {in: []byte{0x92, 0xc5, 0}},
		"bin 32 header cut short":  {in: []byte{0x92, 0xc6, 0, 0, 0}},
		"type as msgpack str":      {in: []byte{0x92, 0xa3, '"', 'x', '"', 0xc0}},
		"not a two-element array":  {in: []byte{0x93, 0xc4, 0, 0xc0, 0xc0}},
		"null":                     {in: []byte{0xc0}},
		"unknown":                  {in: []byte{0xd4, 0, 0}},
		"empty":                    {in: nil},
		"array header and bin tag": {in: []byte{0x92, 0xc4}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			typeJSON, rest, ok := peelDynamic(tc.in)
			if ok != tc.wantOK || string(typeJSON) != tc.wantType || !bytes.Equal(rest, tc.wantRest) {
				t.Errorf("got %q, %x, %v; want %q, %x, %v", typeJSON, rest, ok, tc.wantType, tc.wantRest, tc.wantOK)
			}
		})
	}
}
