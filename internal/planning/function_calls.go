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
	"github.com/cairn-iac/cairn/internal/providers"
)

// checkFunctionCalls checks every provider::NAME::FUNC call in the
// module tree against its module's required_providers and the providers'
// schemas, as OpenTofu does before evaluating anything: NAME must be
// declared there, and its provider must offer FUNC. The built-in
// provider's functions (terraform.io/builtin/terraform) are called under
// the local name terraform only. A call that fails here is an error at
// the call rather than a confusing "unknown function" from the evaluator.
func checkFunctionCalls(m *configs.Module, schemas providers.Schemas) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, call := range m.FunctionCalls {
		if !strings.HasPrefix(call.Name, funcs.ProviderFunctionPrefix) {
			continue // core::, and other namespaces hcl reports itself
		}
		ds = ds.Append(checkProviderFunctionCall(m, call, schemas))
	}
	names := make([]string, 0, len(m.ModuleCalls))
	for name := range m.ModuleCalls {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if child := m.ModuleCalls[name].Module; child != nil {
			ds = ds.Append(checkFunctionCalls(child, schemas))
		}
	}
	return ds
}

func checkProviderFunctionCall(m *configs.Module, call configs.FunctionCall, schemas providers.Schemas) diags.Diagnostics {
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
		return checkPluginFunctionCall(call, rp.Source, parts, schemas)
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

// checkPluginFunctionCall checks a call of a plugin provider's function:
// the provider must offer it, and it is called as provider::NAME::FUNC,
// on an unconfigured instance (OpenTofu's provider::NAME::ALIAS::FUNC,
// which calls a configured one, is not supported). A provider whose
// schema is missing was reported when its schema was asked for.
func checkPluginFunctionCall(call configs.FunctionCall, p addrs.Provider, parts []string, schemas providers.Schemas) diags.Diagnostics {
	if len(parts) == 3 {
		return diags.Diagnostics{diags.At(call.Range, "Unsupported provider function name",
			fmt.Sprintf("%q names a provider configuration (%s): Cairn calls provider functions on an unconfigured provider, "+
				"as Terraform does. Call it as provider::%s::%s.", call.Name, parts[1], parts[0], parts[2]))}
	}
	schema := schemas[p]
	if schema == nil {
		return nil
	}
	if _, ok := schema.Functions[parts[1]]; !ok {
		return diags.Diagnostics{diags.At(call.Range, "Function not found in provider",
			fmt.Sprintf("Function %q was not registered by provider", call.Name))}
	}
	return nil
}
