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
	DeclRange  hcl.Range
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
}
