package modulerun

import (
	"context"

	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/providers"
)

// RootFunctions is the function table of expressions evaluated in the
// module's root scope from outside its files ("cairn test"'s asserts):
// base plus provider::LOCAL::NAME for every function of every plugin
// provider the root module declares, whether its own files call them or
// not, as the engine gives each module when it plans. The functions run
// on unconfigured instances started on the first call; the caller calls
// close once it has evaluated what it needed (close is never nil).
func (m *Module) RootFunctions(ctx context.Context, base map[string]function.Function) (map[string]function.Function, func(), diags.Diagnostics) {
	lib := providers.NewLibrary(m.reg)
	tables, ds := eval.NewFunctionTables(ctx, m.cfg, base, lib, eval.WithRootTable())
	return tables.For(nil), func() {
		tables.Close()
		lib.Close()
	}, ds
}
