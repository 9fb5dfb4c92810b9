// Package modulerun runs Terraform modules for Pulumi programs: the
// engine-facing side of serving a module as a Pulumi component.
//
// Inspect reads a module's interface (variables and outputs) without
// running it, so a typed package can be built for the module.
//
// Boundary: it reads module configurations (internal/configs); it knows
// nothing of Pulumi's protocol.
//
// Imports:
//
//	deny google.golang.org/grpc/... github.com/pulumi/... # engine-facing: nothing of Pulumi's protocol
//	allow internal/configs
package modulerun
