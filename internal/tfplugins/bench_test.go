package tfplugins

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/cfnsources"
)

// BenchmarkLaunchSchema is a plugin launch's work before its first
// answer, in process (allocations counted; the process benchmarks in
// cmd/terraform-provider-awscc add the handshake and the transfer):
// cold, every built-in type translated, the provider built and its
// GetProviderSchema answer encoded and kept; warm, the kept index read
// and the deferred provider built, and the kept answer read.
func BenchmarkLaunchSchema(b *testing.B) {
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			getenv := func(k string) string {
				if k == "CAIRN_PLUGIN_CACHE" {
					return dir
				}
				return ""
			}
			cfg := Config{Sources: cfnsources.Sources{}, Getenv: getenv}
			if warm {
				launchOnce(b, cfg)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !warm {
					dir = b.TempDir()
				}
				launchOnce(b, cfg)
			}
		})
	}
}

// launchOnce does what ServeAWSCC and the first GetProviderSchema do,
// without serving.
func launchOnce(b *testing.B, cfg Config) {
	c := openLaunchCache(cfg)
	p, err := loadProvider(cfg, c)
	if err != nil {
		b.Fatal(err)
	}
	if data, ok := c.cache.Read(c.schemaName()); ok && len(data) > 0 {
		return
	}
	data := encode(b, wireSchema(b, p.Server()))
	if err := c.cache.Write(c.schemaName(), data); err != nil {
		b.Fatal(err)
	}
}
