package statefile_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/zclconf/go-cty/cty"
)

// largeFile returns a state of n terraform_data instances spread over
// the given number of resources (count-expanded when fewer than n), with
// attributes shaped like the ones Terraform writes for them; every tenth
// one has a sensitive input and a dependency.
func largeFile(n, resources int) *statefile.File {
	s := states.NewState()
	for i := range n {
		key := addrs.InstanceKey(addrs.NoKey)
		if resources < n {
			key = addrs.IntKey(i / resources)
		}
		addr := managed("terraform_data", fmt.Sprintf("r%d", i%resources)).Instance(key)
		obj := &states.ObjectSrc{
			AttrsJSON: fmt.Appendf(nil, `{"id":"8d5e9a34-0c1f-4b7e-9a6d-%012d","input":{"value":{"name":"instance-%d","tags":{"env":"prod","team":"infra"}},"type":["object",{"name":"string","tags":["object",{"env":"string","team":"string"}]}]},"output":{"value":{"name":"instance-%d","tags":{"env":"prod","team":"infra"}},"type":["object",{"name":"string","tags":["object",{"env":"string","team":"string"}]}]},"triggers_replace":null}`, i, i, i),
			Status:    states.ObjectReady,
		}
		if i%10 == 0 {
			obj.AttrSensitivePaths = []cty.Path{cty.GetAttrPath("input").GetAttr("name")}
			obj.Dependencies = []addrs.AbsResource{managed("terraform_data", "base")}
		}
		s.SetResourceInstanceCurrent(addr, obj, builtinProvider)
	}
	s.Outputs["count"] = &states.OutputValue{Value: cty.NumberIntVal(int64(n))}
	return &statefile.File{TerraformVersion: "1.5.7", Serial: 7, Lineage: "9b0c2a4e-1111-4222-8333-444455556666", State: s}
}

// largeShapes are the two shapes of a 10,000-instance state: a few
// count-expanded resources, and as many resources as instances.
var largeShapes = []struct {
	name      string
	resources int
}{{"count", 10}, {"independent", 10000}}

func BenchmarkWrite10000(b *testing.B) {
	for _, shape := range largeShapes {
		b.Run(shape.name, func(b *testing.B) {
			f := largeFile(10000, shape.resources)
			var buf bytes.Buffer
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				if err := statefile.Write(f, &buf); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Len()), "bytes/file")
		})
	}
}

func BenchmarkRead10000(b *testing.B) {
	for _, shape := range largeShapes {
		b.Run(shape.name, func(b *testing.B) {
			var buf bytes.Buffer
			if err := statefile.Write(largeFile(10000, shape.resources), &buf); err != nil {
				b.Fatal(err)
			}
			src := buf.Bytes()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := statefile.Read(bytes.NewReader(src)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
