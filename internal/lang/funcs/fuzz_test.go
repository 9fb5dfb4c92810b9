package funcs

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/hclscan"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// FuzzFunctions evaluates arbitrary expressions with the whole function
// table, the module directory being testdata: file functions on any path
// (devices, directories, the whole file system through fileset), numbers
// far out of float64's range, and functions on their results. The
// properties: evaluation never panics and finishes within 30 s (file functions
// refuse what would not end), and any error is a diagnostic, not a crash.
func FuzzFunctions(f *testing.F) {
	for _, s := range []string{
		`file("hello.txt")`, `length(file("/dev/zero"))`, `filesha256("/dev/urandom")`,
		`filebase64("set")`, `fileset("/proc/self", "*")`, `fileset(".", "{set,tmpl}/*.t*")`,
		`templatefile("tmpl/hello.tmpl", { name = "x" })`, `templatefile("/dev/zero", {})`,
		`pow(10, 400)`, `1e999999999 * 0`, `-1/0`, `floor(1e400)`, `max(1e999999999, 1)`,
		`parseint("1${join("", [for i in range(400): "0"])}", 10)`, `tostring(1e400)`,
		`jsonencode(pow(2, 2000))`, `range(1e9)`, `format("%d", 1e999999999)`,
	} {
		f.Add(s)
	}
	tbl := Table("testdata")
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1024 || hclscan.CheckDepth([]byte(src), "f", hcl.InitialPos, hclscan.Native) != nil {
			t.Skip()
		}
		if strings.Contains(src, "fileset") && strings.Contains(src, "**") {
			// Bounded (TestFileFunctionLimits), but across the whole file
			// system longer than the fuzzer's 10 s per-input limit.
			t.Skip("recursive fileset")
		}
		expr, diags := hclsyntax.ParseExpression([]byte(src), "fuzz.tf", hcl.InitialPos)
		if diags.HasErrors() {
			return
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			expr.Value(&hcl.EvalContext{Variables: testVars(), Functions: tbl})
		}()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s did not finish in 30s", src)
		}
	})
}
