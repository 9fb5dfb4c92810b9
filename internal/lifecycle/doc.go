// Package lifecycle holds the provider steps of one resource instance
// object, each a function that takes a provider, a schema and values and
// returns the result plus the diagnostics of any contract violation:
//
//   - UpgradeState: a stored object through UpgradeResourceState;
//   - MoveState: a stored object of another resource type (a cross-type
//     moved block, Target.MovedFrom) through MoveResourceState;
//   - Refresh: ReadResource;
//   - Plan and FinalPlan: proposed new state, PlanResourceChange and the
//     plan checks (FinalPlan adds "inconsistent final plan");
//   - PlanDestroy: PlanResourceChange for a delete, when the provider asks;
//   - Apply and Delete: ApplyResourceChange and the result checks;
//   - ReadData: ReadDataSource and its checks;
//   - ValidateConfig: ValidateResourceConfig or ValidateDataResourceConfig;
//   - Import: ImportResourceState and its checks.
//
// Planning, applying, the reconciler and the Pulumi adapter call these;
// nothing else calls a provider's resource operations, so every
// consumer gets the same contract checks, the same handling of sensitive
// marks (removed before each call, re-applied to the answer from the
// inputs and the schema) and the same wording of errors (ContractError).
//
// Boundary: the package knows providers, schemas, values and state
// objects. It knows nothing of graphs, configuration files, state files or
// which phase calls it; an optional HCL body only locates provider
// diagnostics that carry attribute paths.
//
// Imports:
//
//	deny internal/graph internal/configs internal/states/statefile internal/states/statemgr internal/backends/... internal/plans internal/planning internal/applying internal/eval # one object's provider steps: no graphs, configuration files, state files or phases
package lifecycle
