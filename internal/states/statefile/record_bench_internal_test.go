package statefile

import (
	"encoding/json"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

func benchRecord() *ObjectRecord {
	return &ObjectRecord{
		Addr:     addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "r1"}.Absolute(addrs.RootModuleInstance).Instance(addrs.IntKey(42)),
		Provider: addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")},
		Object: &states.ObjectSrc{
			AttrsJSON: []byte(`{"id":"id-42","input":{"value":"v42","type":"string"},"output":{"value":"v42","type":"string"},"triggers_replace":null}`),
			Status:    states.ObjectReady,
		},
	}
}

// BenchmarkObjectRecordMarshal is the per-instance encoding cost of the
// apply journal.
func BenchmarkObjectRecordMarshal(b *testing.B) {
	r := benchRecord()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkObjectRecordMarshalReference is the same through encoding/json,
// for comparison.
func BenchmarkObjectRecordMarshalReference(b *testing.B) {
	r := benchRecord()
	b.ReportAllocs()
	for b.Loop() {
		v4, err := r.toV4()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(v4); err != nil {
			b.Fatal(err)
		}
	}
}
