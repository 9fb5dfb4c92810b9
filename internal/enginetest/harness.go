package enginetest

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/valjson"

	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// Harness plans and applies one configuration against an in-memory state.
type Harness struct {
	Config    *configs.Module
	State     *states.State
	Providers providers.Registry
	Vars      map[string]eval.RawVariable
	// Parallelism defaults to 10.
	Parallelism int
	Hooks       applying.Hooks
	// Prepared is shared by a plan and the apply that follows, as the
	// CLI does for plan-then-apply in one process.
	Prepared *eval.PreparedCache
}

// New loads files (name → source) as the root module and registers the
// built-in terraform provider with deterministic ids.
func New(files map[string]string) (*Harness, diags.Diagnostics) {
	src := make(map[string][]byte, len(files))
	for k, v := range files {
		src[k] = []byte(v)
	}
	cfg, ds := configs.LoadFiles(".", src)
	if ds.HasErrors() {
		return nil, ds
	}
	var mu sync.Mutex
	n := 0
	tp := &builtin.TerraformProvider{NewID: func() string {
		mu.Lock()
		defer mu.Unlock()
		n++
		return "id-" + itoa(n)
	}}
	reg := providers.Registry{builtin.TerraformProviderAddr: func() (providers.Interface, error) { return tp, nil }}
	return &Harness{Config: cfg, State: states.NewState(), Providers: reg}, ds
}

// Plan plans against the harness state.
func (h *Harness) Plan(mode plans.Mode, opts ...func(*planning.Options)) (*plans.Plan, diags.Diagnostics) {
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	o := planning.Options{
		Mode: mode, Config: h.Config, PrevState: h.State, Variables: h.Vars, Providers: lib,
		Funcs: funcs.Table(h.Config.SourceDir), Parallelism: h.Parallelism, Now: time.Unix(0, 0).UTC(),
		Prepared: h.Prepared,
	}
	for _, f := range opts {
		f(&o)
	}
	return planning.Plan(context.Background(), o)
}

// Apply applies plan and makes the result the harness state.
func (h *Harness) Apply(plan *plans.Plan) diags.Diagnostics {
	w := &MemoryWriter{State: plan.PriorState.DeepCopy()}
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	ds := applying.Apply(context.Background(), applying.Options{
		Plan: plan, Config: h.Config, Providers: lib, Funcs: funcs.Table(h.Config.SourceDir),
		Parallelism: h.Parallelism, State: w, Hooks: h.Hooks, Prepared: h.Prepared,
	})
	h.State = w.State
	return ds
}

// MemoryWriter is a StateWriter keeping state in memory.
type MemoryWriter = applying.MemoryWriter

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func emptyState() *states.State { return states.NewState() }

func ctyjsonUnmarshal(src []byte, ty cty.Type) (cty.Value, error) { return valjson.Unmarshal(src, ty) }
