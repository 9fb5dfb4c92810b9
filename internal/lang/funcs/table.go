package funcs

import (
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty/function"
)

// Option adjusts the table Table builds for one phase of a run.
type Option func(*options)

type options struct {
	planTimestamp time.Time
	now           func() time.Time
	pureOnly      bool
}

// WithPlanTimestamp sets the instant plantimestamp returns. Planning passes
// the time the plan started; applying passes the time recorded in the plan,
// so that both phases see the same value. Without it (as in validation)
// plantimestamp returns an unknown string, as Terraform does.
func WithPlanTimestamp(t time.Time) Option {
	return func(o *options) { o.planTimestamp = t }
}

// WithClock replaces the clock timestamp reads, which is time.Now by
// default; now must not be nil. Tests use it to get a fixed result.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.now = now }
}

// WithPureOnly makes the impure functions (bcrypt, timestamp, uuid) return
// unknown values of their result type instead of running. Terraform does
// this in every phase but apply, so that a plan does not record a value that
// would differ when the plan is applied; the engine passes it when it
// validates or plans.
func WithPureOnly() Option {
	return func(o *options) { o.pureOnly = true }
}

// Table returns the built-in functions by name, for an hcl.EvalContext:
// Terraform 1.5's, those Terraform (to 1.15) and OpenTofu (to 1.12) added
// since, each also under OpenTofu's core:: namespace ("core::upper"), and
// the built-in provider's functions under provider::terraform::. Whether
// a module may call a provider:: function (it must declare the provider
// in required_providers) is checked with the configuration, before any
// expression is evaluated (see CheckProviderFunctionCalls).
//
// baseDir is the directory of the module whose expressions the table serves:
// file functions resolve relative paths against it, as Terraform resolves
// them against path.module's directory. abspath is the exception: like
// Terraform's, it resolves against the process's working directory.
//
// Every call returns a new map, so the caller may add or remove entries. The
// functions themselves hold no mutable state and are safe for concurrent
// use. Building a table takes about 0.2 ms and 65 KB in 835 allocations
// (BenchmarkTable), most of it wrapping each function in markSafe: cheap
// once per module per phase, which is how the engine should use it, but
// not something to do per expression.
func Table(baseDir string, opts ...Option) map[string]function.Function {
	o := options{now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}

	t := families(baseDir, o)
	for name, fn := range t {
		if o.pureOnly && isImpure(name) {
			fn = function.Unpredictable(fn)
		}
		if !handlesOwnMarks(name) {
			fn = markSafe(fn)
		}
		t[name] = fn
	}
	return withTemplatesAndCore(baseDir, t)
}

// Declared returns the functions of Table as their families declare
// them, without the wrapper Table puts around most of them for sensitive
// values (markSafe), whose parameters accept anything and whose result is
// of any type: for describing the functions' signatures (metadata
// functions -json), never for calling them, which would skip that
// wrapper's protection of secrets.
func Declared(baseDir string) map[string]function.Function {
	return withTemplatesAndCore(baseDir, families(baseDir, options{now: time.Now}))
}

// families returns every family's functions in one new map.
func families(baseDir string, o options) map[string]function.Function {
	t := make(map[string]function.Function, 128)
	for _, family := range []map[string]function.Function{
		numericFunctions(),
		stringFunctions(),
		collectionFunctions(),
		encodingFunctions(),
		filesystemFunctions(baseDir),
		dateTimeFunctions(o.now, o.planTimestamp),
		cryptoFunctions(baseDir),
		ipNetworkFunctions(),
		typeConversionFunctions(),
		laterFunctions(),
		builtinProviderFunctions(),
	} {
		for name, fn := range family {
			t[name] = fn
		}
	}
	return t
}

// withTemplatesAndCore adds templatefile and templatestring to t, then
// every function under the core:: namespace too, and returns t.
func withTemplatesAndCore(baseDir string, t map[string]function.Function) map[string]function.Function {
	// templatefile and templatestring go in last: a template may call
	// every other function in the table, already wrapped as above, but
	// not the one rendering it.
	t["templatefile"] = makeTemplateFileFunc(baseDir, t)
	t["templatestring"] = makeTemplateStringFunc(t)
	for name, fn := range t {
		if !strings.Contains(name, "::") {
			t[CoreNamespace+name] = fn
		}
	}
	return t
}

// CoreNamespace is OpenTofu's namespace for the built-in functions
// (1.7): core::upper is upper, for a name a provider function shadows.
const CoreNamespace = "core::"

// isImpure reports whether the named function can return a different result
// for the same arguments, and so must not run before apply.
func isImpure(name string) bool {
	switch name {
	case "bcrypt", "timestamp", "uuid":
		return true
	}
	return false
}

// handlesOwnMarks reports whether the named function deals with marked
// arguments itself, so that markSafe must not wrap it: try and can
// take unevaluated expressions, sensitive and nonsensitive exist to change
// marks, templatefile and templatestring keep the marks of each template
// variable (see templatefile.go), and issensitive and ephemeralasnull
// read marks (neither can fail, so no error could reveal one).
func handlesOwnMarks(name string) bool {
	switch name {
	case "try", "can", "sensitive", "nonsensitive", "templatefile", "templatestring",
		"issensitive", "ephemeralasnull":
		return true
	}
	return false
}
