package render

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/cairn-iac/cairn/internal/parallel"
)

// TestPlanParallelMatchesSerial: rendering the changes of a large plan on
// every core gives the same text, in the same order, as on one.
func TestPlanParallelMatchesSerial(t *testing.T) {
	p := benchPlan(3 * parallel.MinItems)
	render := func() string {
		var b bytes.Buffer
		if err := Plan(&b, p, builtinSchemas(), Options{Color: true}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	prev := runtime.GOMAXPROCS(1)
	serial := render()
	runtime.GOMAXPROCS(max(prev, 4))
	parallel := render()
	runtime.GOMAXPROCS(prev)
	if serial != parallel {
		t.Errorf("rendering in parallel changed the text")
	}
	if !bytes.Contains([]byte(serial), []byte("terraform_data.x[191]")) {
		t.Errorf("the last change is missing")
	}
}
