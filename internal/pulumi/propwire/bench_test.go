package propwire

import (
	"testing"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
)

// BenchmarkRoundTrip reads and writes a resource's outputs (a log group
// with a secret tag and an unknown) as the server does for every call,
// beside Pulumi's own codec doing the same.
func BenchmarkRoundTrip(b *testing.B) {
	st := structOf(b, `{"logGroupName":"app","retentionInDays":7,"arn":"04da6b54-80e4-46f7-96ec-b56ff0331ba9",`+
		`"tags":[{"key":"owner","value":{"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","value":"alice"}}],`+
		`"__meta":"{\"schema_version\":1}"}`)
	b.Run("propwire", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			pm, err := Unmarshal(st)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Marshal(pm); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pulumi", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			pm, err := plugin.UnmarshalProperties(st, pulumiWire)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := plugin.MarshalProperties(pm, pulumiWire); err != nil {
				b.Fatal(err)
			}
		}
	})
}
