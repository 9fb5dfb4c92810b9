package testfiles

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/plans"
)

// File is one parsed test file.
type File struct {
	// Name is the file's path as the user sees it
	// ("tests/a.tftest.hcl").
	Name string
	// Variables are the file-level variables block's values, evaluated
	// when a run needs them (they may refer to run.NAME outputs).
	Variables []*Variable
	Runs      []*Run
	// Overrides and Mocks apply to every run of the file.
	Overrides []*Override
	Mocks     []*MockProvider
	// Providers are the file's provider blocks: they configure the
	// module under test's providers in place of its own blocks.
	Providers []*configs.Provider
	// Parallel is the test block's parallel: the default of the runs'.
	Parallel bool
}

// ProviderRef names a provider configuration: a local name and an
// alias ("" for the default configuration).
type ProviderRef struct {
	Name, Alias string
}

// String is the reference as written: aws, or aws.west.
func (p ProviderRef) String() string {
	if p.Alias == "" {
		return p.Name
	}
	return p.Name + "." + p.Alias
}

// ProviderMapping is one element of a run's providers argument: the
// module under test's configuration InModule gets the test file's
// configuration InFile (a provider or mock_provider block).
type ProviderMapping struct {
	InModule, InFile ProviderRef
	Range            hcl.Range
}

// Variable is one attribute of a variables block.
type Variable struct {
	Name string
	Expr hcl.Expression
}

// Command is what a run does with the module: plan it, or apply it.
type Command byte

const (
	// Apply is the default: the run's state becomes the new state.
	Apply Command = iota
	// Plan plans only; the state is left as it was.
	Plan
)

// Run is one run block.
type Run struct {
	Name      string
	DeclRange hcl.Range
	Command   Command
	Variables []*Variable
	// Asserts are checked after the run, in order.
	Asserts []*configs.CheckRule
	// ExpectFailures name the checkable objects (var.x, output.x,
	// resources, check.x) whose custom conditions must fail.
	ExpectFailures []ExpectedFailure
	// Module, when set, is the module the run applies instead of the
	// root configuration.
	Module *ModuleRef
	// PlanMode, Refresh, Replace and Targets are plan_options.
	PlanMode  plans.Mode
	Refresh   bool
	Replace   []hcl.Traversal
	Targets   []hcl.Traversal
	Overrides []*Override
	// Providers is the providers argument; nil when it is not set, when
	// every provider and mock_provider block of the file is passed under
	// its own name.
	Providers []ProviderMapping
	// StateKey is state_key (Terraform 1.11): runs with the same key
	// share a state, whatever module they run. "" when not set: the
	// key is the module's source ("" for the root configuration).
	StateKey string
	// Parallel is parallel (Terraform 1.12), or the file's test block's
	// when the run does not set it.
	Parallel bool
	// parallelSet records that the run set parallel itself.
	parallelSet bool
}

// ExpectedFailure is one element of expect_failures.
type ExpectedFailure struct {
	Traversal hcl.Traversal
}

// ModuleRef is a run's module block.
type ModuleRef struct {
	Source    string
	Version   string
	DeclRange hcl.Range
}

// OverrideKind says what an override block replaces.
type OverrideKind byte

const (
	// OverrideResource replaces a managed resource's computed values.
	OverrideResource OverrideKind = iota
	// OverrideData replaces a data source's read.
	OverrideData
	// OverrideModule replaces a module call's outputs.
	OverrideModule
)

// Override is an override_resource, override_data or override_module
// block.
type Override struct {
	Kind       OverrideKind
	Target     hcl.Traversal
	Values     cty.Value // values (resources, data) or outputs (modules)
	DuringPlan bool      // override_during = plan
	// duringSet records that the block set override_during; one inside
	// a mock_provider block that does not takes the mock_provider's.
	duringSet bool
	DeclRange hcl.Range
}

// MockProvider is a mock_provider block: the provider's resources and
// data sources are not called; their computed attributes get the
// defaults given, or generated values.
type MockProvider struct {
	Name, Alias string
	Resources   map[string]cty.Value // mock_resource "TYPE" { defaults }
	Data        map[string]cty.Value // mock_data "TYPE" { defaults }
	Overrides   []*Override
	DuringPlan  bool
	DeclRange   hcl.Range
	// Source is the source argument (Terraform 1.7): a directory,
	// relative to the root configuration, of *.tfmock.hcl and
	// *.tfmock.json files whose blocks the mock also takes
	// (LoadMockSources); "" when not set.
	Source      string
	SourceRange hcl.Range
}
