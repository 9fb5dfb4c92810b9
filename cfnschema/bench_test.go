package cfnschema

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
)

// BenchmarkLoadAll loads and translates every schema of the corpus and
// builds the resource, singular and plural data source schemas of every
// type: what a provider serving all AWS types does at start-up. It reports
// the live heap after loading (the catalog) and the memory the Go runtime
// holds from the operating system at the end, which bounds the peak closely
// because the runtime returns little of it during a run.
func BenchmarkLoadAll(b *testing.B) {
	dir := corpusDir(b)
	b.ReportAllocs()
	var c *Catalog
	for b.Loop() {
		c, _ = LoadDir(dir)
		for _, rt := range c.Types() {
			_ = rt.ResourceSchema()
			_ = rt.DataSourceSchema()
			_, _ = rt.PluralDataSourceSchema()
		}
	}
	b.StopTimer()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-MiB")
	b.ReportMetric(float64(mappedMemory())/(1<<20), "mapped-MiB")
	b.ReportMetric(float64(len(c.Types())), "types")
	runtime.KeepAlive(c)
}

// BenchmarkLoadOne loads and translates one large, common type.
func BenchmarkLoadOne(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(corpusDir(b), "AWS_S3_Bucket.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rt, diags := Load("AWS_S3_Bucket.json", src)
		if rt == nil {
			b.Fatal(diags)
		}
		_ = rt.ResourceSchema()
	}
}

// BenchmarkResourceSchema builds the framework resource schema of the
// largest type from its translation records.
func BenchmarkResourceSchema(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(corpusDir(b), "AWS_WAFv2_WebACL.json"))
	if err != nil {
		b.Fatal(err)
	}
	rt, diags := Load("AWS_WAFv2_WebACL.json", src)
	if rt == nil {
		b.Fatal(diags)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = rt.ResourceSchema()
	}
}

// mappedMemory returns the memory the Go runtime has mapped from the
// operating system (heap, stacks, runtime structures); for the peak resident
// size of the process run the test binary under /usr/bin/time -v.
func mappedMemory() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
