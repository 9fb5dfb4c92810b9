// Package reconciler reconciles Cairn resource types as Crossplane
// managed resources: one controller per kind, driven by
// crossplane-runtime's managed reconciler, whose external client runs
// the engine's per-instance lifecycle (internal/lifecycle) against the
// provider in process. No CLI is forked and no file is written: each
// managed resource is a workspace in memory, its desired configuration
// read from spec and its state rebuilt from the object.
//
// An observation plans only when something changed: the workspace
// remembers the desired state (generation, desired configuration with
// its Secrets, external name, policies, provider configuration) under
// which the last full observation found the refreshed object up to date,
// and a refresh that returns the same object under the same desired
// state is up to date again without PlanResourceChange or late
// initialisation. Every apply, drift, absence or failure forgets it.
// Managed resources and ProviderConfigs are read from the informer
// cache, not the API server.
//
// How often it acts is crossplane-runtime's and controller-runtime's
// business, not this package's: failures back off through the controller
// rate limiter, only changes to an object's desired state (spec, labels,
// annotations) wake it, and the errors it reports leave out request
// identifiers, so the same failure writes the same Synced condition and
// does not wake it again.
//
// Boundary: the package is for any provider's resource types served as
// Kubernetes objects. It knows Kubernetes and crossplane-runtime, the
// provider contract (internal/providers, internal/configschema), the
// lifecycle steps and the values they pass (internal/lifecycle,
// internal/states, internal/marks), addresses (internal/addrs) and the
// kinds and codec of internal/crds. It must not import or know:
// configuration files or the configuration language, state files or
// backends, plans, graphs, planning or applying (the engine's other
// packages), any one provider (awscc and its CloudFormation schemas are
// the command's to pass in as Kinds and a provider Library), flags, the
// environment or the terminal (internal/command reads those and fills
// Options).
//
// Imports:
//
//	deny internal/... # the reconciler imports of the engine only lifecycle, providers and addrs (and configschema, diags, marks and states, the values those speak in)
//	allow internal/lifecycle internal/providers internal/addrs
//	allow internal/configschema internal/diags internal/marks internal/states
//	allow internal/crds internal/fieldname # the kinds and codec it serves, and their field names
package reconciler
