package plans

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// FuzzReadFile feeds arbitrary bytes (raw, and gzip-wrapped so the JSON
// decoder is reached) to the plan file reader: it must return a plan or
// an error, never panic.
func FuzzReadFile(f *testing.F) {
	f.Add([]byte(`{"magic":"cairn-plan-v1","changes":[{"addr":"terraform_data.a","provider":"provider[\"terraform.io/builtin/terraform\"]","action":43,"before":{"type":"\"dynamic\"","msgpack":"wMA="},"after":{"type":"\"string\"","msgpack":"oXg="}}],"graph":[{"kind":67,"change":0,"deps":[0]}]}`))
	f.Add([]byte(`{"magic":"cairn-plan-v1","graph":[{"kind":82,"resource":"data.x.y"}],"prior_state":{"version":4}}`))
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
