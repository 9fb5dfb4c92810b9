package planning

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
)

// checkFunctionCalls checks every provider::NAME::FUNC call in the
// module tree against its module's required_providers, as OpenTofu does
// before evaluating anything: NAME must be declared there, and the only
// provider whose functions Cairn has is the built-in one
// (terraform.io/builtin/terraform, under the local name terraform).
// Plugin providers' functions come with their protocol support; until
// then a call of one is an error at the call rather than a confusing
// "unknown function" from the evaluator.
func checkFunctionCalls(m *configs.Module) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, call := range m.FunctionCalls {
		if !strings.HasPrefix(call.Name, funcs.ProviderFunctionPrefix) {
			continue // core::, and other namespaces hcl reports itself
		}
		ds = ds.Append(checkProviderFunctionCall(m, call))
	}
	names := make([]string, 0, len(m.ModuleCalls))
	for name := range m.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if child := m.ModuleCalls[name].Module; child != nil {
			ds = ds.Append(checkFunctionCalls(child))
		}
	}
	return ds
}

func checkProviderFunctionCall(m *configs.Module, call configs.FunctionCall) diags.Diagnostics {
	parts := strings.Split(strings.TrimPrefix(call.Name, funcs.ProviderFunctionPrefix), "::")
	if len(parts) < 2 || len(parts) > 3 {
		return diags.Diagnostics{diags.At(call.Range, "Invalid provider function",
			fmt.Sprintf("Invalid provider function %q: expected provider::<name>::<function> or provider::<name>::<alias>::<function>.", call.Name))}
	}
	local, fn := parts[0], parts[len(parts)-1]
	rp, ok := m.RequiredProviders[local]
	if !ok {
		return diags.Diagnostics{diags.At(call.Range, "Unknown function provider",
			fmt.Sprintf("Provider %q does not exist within the required_providers of this module", local))}
	}
	if rp.Source != addrs.NewBuiltInProvider("terraform") {
		return diags.Diagnostics{diags.At(call.Range, "Provider functions are not supported yet",
			fmt.Sprintf("%q is a function of the plugin provider %s; Cairn does not call plugin providers' functions yet. "+
				"Only the built-in provider's functions (provider::terraform::%s) are available.",
				call.Name, rp.Source, strings.Join(funcs.BuiltinProviderFunctions, ", ")))}
	}
	if !slices.Contains(funcs.BuiltinProviderFunctions, fn) {
		return diags.Diagnostics{diags.At(call.Range, "Function not found in provider",
			fmt.Sprintf("Function %q was not registered by provider", call.Name))}
	}
	if local != "terraform" || len(parts) == 3 {
		return diags.Diagnostics{diags.At(call.Range, "Unsupported provider function name",
			fmt.Sprintf("Cairn offers the built-in provider's functions as provider::terraform::%s; call it by that name "+
				"(the provider's local name must be \"terraform\", without an alias).", fn))}
	}
	return nil
}
