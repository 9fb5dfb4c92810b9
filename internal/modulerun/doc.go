// Package modulerun runs one Terraform module directory as a root
// module, with input variable values given as cty values and a state
// held in bytes (state v4 JSON), for front ends that keep the state
// themselves: the Pulumi wing runs a module as one component resource
// and stores its state in Pulumi's.
//
// A run is the engine's own plan and apply (planning.Plan,
// applying.Apply) in this process, so count, for_each, depends_on and
// lifecycle follow the same rules as "cairn apply". The results are
// per resource instance (action, prior and planned or new value, its
// schema) and per output (value and sensitivity), which the caller maps
// onto its own resources.
//
// Sources: a local directory is loaded as it is; any other source
// (registry, git, HTTP) goes through a Resolver, the one seam where the
// engine's module installer plugs in. Providers: the built-in terraform
// provider, whatever factories the caller registers (Options.Providers),
// and plugin providers where "cairn init" in the module's directory
// installed them (internal/localproviders, as the command line finds
// them).
//
// Inspect reads a module's interface (variables and outputs) without
// running it, so a typed component package can be built for the module.
//
// Boundary: it drives the engine but decides nothing itself; it knows no
// front end (pulumi, reconciler, command) and reads no flags,
// environment or terminal.
//
// Imports:
//
//	deny internal/pulumi/... internal/reconciler/... internal/crds/... internal/command/... # a front end calls it; it knows none
//	deny google.golang.org/grpc/... github.com/pulumi/... # engine-facing: nothing of Pulumi's protocol
package modulerun
