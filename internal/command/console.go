package command

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mattn/go-isatty"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/render"
)

// runConsole implements "cairn console [-var ...] [-var-file ...]":
// evaluate expressions against the configuration and the current state,
// never changing either. As Terraform 1.5.7: on a terminal it prompts
// "> ", prints each result and reports errors without stopping; with
// piped input it evaluates every line, stops with exit 1 at the first
// error, and prints only the last line's result.
func runConsole(m *Meta, args []string) int {
	var lock bool
	var lockTimeout time.Duration
	fs := newFlagSet("console", m.Stderr)
	m.varOptions(fs)
	fs.BoolVar(&lock, "lock", true, "Lock the state file while the console runs.")
	fs.DurationVar(&lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	noColorFlag(fs, m)
	if !m.parseFlags(fs, args) {
		return 1
	}
	scope, h, ds := m.consoleScope(m.varFlags, lock, lockTimeout)
	if h != nil {
		defer h.release(m)
	}
	if scope == nil {
		return m.fail(ds)
	}
	if ds.HasErrors() {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Due to the problems above, some expressions may produce unexpected results."})
	}
	m.showDiags(ds)
	if f, ok := m.Stdin.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		return m.consoleInteractive(scope)
	}
	return m.consolePiped(scope)
}

// consoleScope loads the configuration, variables and state and builds
// the scope expressions are evaluated in. A nil scope means the console
// cannot start; h (possibly nil) holds the state lock.
func (m *Meta) consoleScope(vars []varFlag, lock bool, timeout time.Duration) (*lang.Scope, *stateHandle, diags.Diagnostics) {
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return nil, nil, ds
	}
	raw, vds := m.collectVariables(vars)
	if ds = ds.Append(vds); vds.HasErrors() {
		return nil, nil, ds
	}
	h, sds := m.openState(cfg, lock, timeout, "OperationTypeInvalid")
	if ds = ds.Append(sds); sds.HasErrors() {
		return nil, nil, ds
	}
	ds = ds.Append(m.encryptionWarnings())
	lib, lds := m.providerLibrary(cfg)
	if ds = ds.Append(lds); lds.HasErrors() {
		return nil, h, ds
	}
	schemas, pds := lib.Schemas(context.Background(), cfg.Providers())
	if ds = ds.Append(pds); pds.HasErrors() {
		return nil, h, ds
	}
	tables, tds := eval.NewFunctionTables(context.Background(), cfg, m.funcTable(false), lib, eval.WithRootTable())
	if ds = ds.Append(tds); tds.HasErrors() {
		return nil, h, ds
	}
	// The root's table is its own (WithRootTable), so adding type does
	// not reach the modules' tables.
	funcs := tables.For(cfg)
	values, fds := eval.FinalizeVariablesAllowUnset(cfg, raw, funcs)
	if ds = ds.Append(fds); fds.HasErrors() {
		return nil, h, ds
	}
	funcs["type"] = typeFunc
	scope, eds := eval.StateScope(eval.StateScopeOptions{
		Config: cfg, State: h.state(), Schemas: schemas, Variables: values, Funcs: funcs, Functions: tables,
		ModuleDir: ".", Workspace: "default",
	})
	if scope != nil {
		// Values are printed as the console evaluates them: a copy of a
		// secret (an id built from a sensitive name) is shown as
		// sensitive, as a marked value is.
		secrets := m.runSecrets()
		for _, v := range values {
			secrets.Add(v)
		}
		m.addStateSecrets(context.Background(), lib, h.state())
		scope.Secrets = secrets
	}
	return scope, h, ds.Append(eds)
}

// consolePiped evaluates stdin line by line as Terraform 1.5.7 does for
// piped input: the first error ends the run (exit 1), "exit" ends it
// (exit 0, nothing printed), and at the end only the last result is shown.
func (m *Meta) consolePiped(scope *lang.Scope) int {
	last := ""
	sc := bufio.NewScanner(m.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		out, exit, ds := consoleLine(scope, strings.TrimSpace(sc.Text()))
		if ds.HasErrors() {
			return m.fail(ds)
		}
		if exit {
			return 0
		}
		last = out
	}
	if err := sc.Err(); err != nil {
		return m.errorf("Failed to read input", "%s", err)
	}
	fmt.Fprintln(m.Stdout, last)
	return 0
}

// consoleInteractive prompts for expressions until "exit" or end of
// input, showing each result or its errors.
func (m *Meta) consoleInteractive(scope *lang.Scope) int {
	r := bufio.NewReader(m.Stdin)
	for {
		fmt.Fprint(m.Stdout, "> ")
		line, err := r.ReadString('\n')
		if err == io.EOF && line == "" {
			fmt.Fprintln(m.Stdout, "exit")
			return 0
		}
		if err != nil && err != io.EOF {
			return m.errorf("Failed to read input", "%s", err)
		}
		out, exit, ds := consoleLine(scope, line)
		if ds.HasErrors() {
			m.showDiags(ds)
		}
		if exit {
			return 0
		}
		fmt.Fprintln(m.Stdout, out)
	}
}

// consoleLine handles one line of console input: blank lines print
// nothing, "exit" ends the session, "help" explains, and anything else is
// an expression whose value is returned formatted as Terraform's console
// prints it.
func consoleLine(scope *lang.Scope, line string) (string, bool, diags.Diagnostics) {
	switch strings.TrimSpace(line) {
	case "":
		return "", false, nil
	case "exit":
		return "", true, nil
	case "help":
		return consoleHelp, false, nil
	}
	expr, hd := hclsyntax.ParseExpression([]byte(line), "<console-input>", hcl.InitialPos)
	if hd.HasErrors() {
		return "", false, diags.Diagnostics{}.Append(hd)
	}
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return "", false, ds
	}
	if v.Type() == typeCapsule {
		return render.ConsoleType(*v.EncapsulatedValue().(*cty.Type)), false, ds
	}
	if containsType(v) {
		return "", false, ds.Append(diags.Errorf("Invalid use of type function",
			"The console-only \"type\" function cannot be used as part of an expression."))
	}
	return render.ConsoleValue(v, scope.Secrets.Secrets()), false, ds
}

// typeCapsule is the result of the console-only type(expr) function: the
// type of its argument, which the console shows in type constraint
// syntax. Any other use of it (an operand, an element) fails, as in
// Terraform.
var typeCapsule = cty.Capsule("type", reflect.TypeOf(cty.Type{}))

var typeFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true}},
	Type:   function.StaticReturnType(typeCapsule),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		ty := args[0].Type()
		return cty.CapsuleVal(typeCapsule, &ty), nil
	},
})

// containsType reports whether a type() result is nested inside v.
func containsType(v cty.Value) bool {
	found := false
	_ = cty.Walk(v, func(_ cty.Path, e cty.Value) (bool, error) {
		if e.Type() == typeCapsule {
			found = true
		}
		return !found, nil
	})
	return found
}

const consoleHelp = `The Cairn console allows you to experiment with Terraform interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D.`
