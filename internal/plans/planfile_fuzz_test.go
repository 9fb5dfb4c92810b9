package plans

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// FuzzReadFile feeds arbitrary bytes (raw, and gzip-wrapped so the JSON
// decoder is reached) to the plan file reader: it must return a plan or
// an error, never panic.
func FuzzReadFile(f *testing.F) {
	f.Add([]byte(`{"magic":"cairn-plan-v2","changes":[{"addr":"terraform_data.a","provider":"provider[\"terraform.io/builtin/terraform\"]","action":43,"before":{"type":"\"dynamic\"","msgpack":"wMA="},"after":{"type":"\"string\"","msgpack":"oXg="}}],"graph":{"nodes":[{"op":67,"ref":0,"deps":[0]},{"op":75,"deposed":"0000abcd"}]}}`))
	f.Add([]byte(`{"magic":"cairn-plan-v2","graph":{"nodes":[{"op":74}],"resources":["data.x.y"],"locals":["module.m[1].local.z"]},"expansions":[{"resource":"a.b","mode":70,"each":{"k":{"type":"\"string\"","msgpack":"oXg="}}}],"prior_state":{"version":4}}`))
	f.Add([]byte(`not a plan`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ReadFile(bytes.NewReader(data))
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		zw.Close()
		p, err := ReadFile(&buf)
		if err == nil && p == nil {
			t.Fatal("nil plan without error")
		}
	})
}

// FuzzValueDecode: on any msgpack the plan file reader accepts, decoding a
// value with the decode cache gives what go-cty's own dynamic decoding
// gives: the same value, or an error.
func FuzzValueDecode(f *testing.F) {
	f.Add(wrapped([]byte{0xc4}, `["object",{"a":"dynamic"}]`, 0x81, 0xa1, 'a', 0xc0))
	f.Add(wrapped([]byte{0xc5}, `["list","string"]`, 0x91, 0xd4, 0, 0))
	f.Add(wrapped([]byte{0xc4}, `"dynamic"`, wrapped([]byte{0xc4}, `"number"`, 0x01)...))
	f.Add([]byte{0xc0})
	f.Fuzz(func(t *testing.T, b []byte) {
		if checkMsgpack(b) != nil {
			return // refused before decoding; go-cty would allocate what lengths claim
		}
		want, wantErr := ctymsgpack.Unmarshal(b, cty.DynamicPseudoType)
		got, err := newDecodeCache().unmarshalDynamic(b)
		if (err != nil) != (wantErr != nil) || (err == nil && !got.RawEquals(want)) {
			t.Fatalf("decoded %#v, %v; go-cty gives %#v, %v", got, err, want, wantErr)
		}
	})
}
