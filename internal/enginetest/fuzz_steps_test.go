package enginetest

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// FuzzPlanApplySteps complements FuzzPlanApply, whose random bytes rarely
// get past the parser and only ever plan creates from an empty state. Here
// the bytes choose three configurations from realistic pieces (resources
// of both providers with count or for_each, a data source, locals,
// sensitive variables, lifecycle settings, references between them,
// outputs) and an instance to -replace; each configuration is applied in
// turn against the state the previous one left, the last with the forced
// replacement, then everything is destroyed. That reaches updates, replacements, deletions
// of orphaned instances and create_before_destroy ordering.
//
// The properties are FuzzPlanApply's, for every step: nothing panics or
// hangs, no error blames a provider or Cairn, nothing unknown reaches
// state, a clean apply leaves nothing to change, and destroy leaves an
// empty state.
func FuzzPlanApplySteps(f *testing.F) {
	for _, seed := range []string{
		"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		"\x03\x10\x21\x32\x43\x54\x65\x76\x87\x98\xa9\xba\xcb\xdc\xed\xfe\x0f\x1e\x2d\x3c",
		"\xff\xee\xdd\xcc\xbb\xaa\x99\x88\x77\x66\x55\x44\x33\x22\x11\x00\x01\x02\x03\x04\x05\x06\x07\x08",
		"\x02\x01\x01\x03\x00\x05\x02\x07\x01\x01\x02\x00\x04\x04\x04\x04\x01\x02\x03\x01\x02\x03\x01\x02\x03\x01\x02\x03",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			t.Skip("input too large")
		}
		// Choices are read in a fixed order, new ones only after the old,
		// so the inputs under testdata/fuzz keep meaning what they did.
		g := &configGen{b: data}
		configs, force := g.steps()
		done := make(chan struct{})
		var failure string
		go func() {
			defer close(done)
			failure = fuzzSteps(configs, force)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("steps did not finish in 20s\n%s\n%s", showConfigs(configs), buf[:n])
		}
		if failure != "" {
			t.Fatalf("%s\n%s", failure, showConfigs(configs))
		}
	})
}

// steps returns the configurations to apply in turn and which instance
// the last step replaces. The later configurations may also make an
// apply fail (leaving a tainted object for the next step to replace).
func (g *configGen) steps() ([]string, int) {
	configs := []string{g.config(), g.config()}
	g.extended = true
	configs = append(configs, g.config())
	force := g.pick(8)
	return append(configs, g.config()), force
}

func showConfigs(configs []string) string {
	var b strings.Builder
	for i, c := range configs {
		fmt.Fprintf(&b, "--- step %d\n%s", i, c)
	}
	return b.String()
}

// fuzzSteps applies each configuration in turn, then destroys, checking
// the properties after each step. The last step also forces the
// replacement of the force'th instance in state, if there is one. Plans
// that fail with errors the user caused end the run quietly.
func fuzzSteps(configs []string, force int) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 64<<10)
			n := runtime.Stack(buf, false)
			failure = fmt.Sprintf("panic: %v\n%s", r, buf[:n])
		}
	}()
	tp := &fuzzProvider{TestProvider: &TestProvider{}}
	var h *Harness
	for i, src := range configs {
		nh, ds := New(map[string]string{"main.tf": src})
		if ds.HasErrors() {
			return fmt.Sprintf("step %d: generated configuration does not load: %s", i, ds.Error())
		}
		nh.Providers[TestProviderAddr] = func() (providers.Interface, error) { return tp, nil }
		nh.Parallelism = 4
		if h != nil {
			nh.State = h.State
		}
		h = nh
		var opts []func(*planning.Options)
		if i == len(configs)-1 {
			if addr, ok := nthInstance(h.State, force); ok {
				opts = append(opts, func(o *planning.Options) { o.ForceReplace = []addrs.AbsResourceInstance{addr} })
			}
		}
		planned, msg := fuzzStep(h, fmt.Sprintf("step %d", i), opts...)
		if msg != "" || !planned {
			return msg
		}
	}
	p, ds := h.Plan(plans.DestroyMode)
	if msg := cairnFault("destroy plan", ds); msg != "" {
		return msg
	}
	if ds.HasErrors() {
		return ""
	}
	ads := h.Apply(p)
	if msg := cairnFault("destroy", ads); msg != "" {
		return msg
	}
	if !ads.HasErrors() && len(h.State.Resources) > 0 {
		var left []string
		for _, rs := range h.State.Resources {
			left = append(left, rs.Addr.String())
		}
		return "destroy left resources in state: " + strings.Join(left, ", ")
	}
	if !ads.HasErrors() && len(h.State.Outputs) > 0 {
		return fmt.Sprintf("destroy left %d outputs in state", len(h.State.Outputs))
	}
	return ""
}

// fuzzStep plans and applies the harness's configuration, then plans
// again. planned is false when planning stopped on an error the user
// caused; an apply that fails for the user's reasons (a test_thing told
// to fail) still lets the next step run, against what it left.
func fuzzStep(h *Harness, name string, opts ...func(*planning.Options)) (planned bool, failure string) {
	p, ds := h.Plan(plans.NormalMode, opts...)
	if msg := cairnFault(name+" plan", ds); msg != "" {
		return false, msg
	}
	if ds.HasErrors() {
		return false, ""
	}
	ads := h.Apply(p)
	if msg := cairnFault(name+" apply", ads); msg != "" {
		return false, msg
	}
	if msg := unknownInState(h.State); msg != "" {
		return false, name + ": " + msg
	}
	for _, rs := range h.State.Resources {
		for k, is := range rs.Instances {
			if len(is.Deposed) > 0 && !ads.HasErrors() {
				return false, fmt.Sprintf("%s: %s %v keeps a deposed object after a clean apply", name, rs.Addr, k)
			}
		}
	}
	if ads.HasErrors() {
		return true, ""
	}
	p2, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		return false, fmt.Sprintf("%s: plan after a clean apply failed: %s", name, ds.Error())
	}
	if lines := pendingChanges(p2); len(lines) > 0 {
		return false, name + ": plan after a clean apply has changes:\n" + strings.Join(lines, "\n")
	}
	return true, ""
}

// nthInstance returns the n'th managed instance of state in address
// order, if there are that many.
func nthInstance(s *states.State, n int) (addrs.AbsResourceInstance, bool) {
	var all []addrs.AbsResourceInstance
	for _, rs := range s.SortedResources() {
		if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, k := range rs.SortedInstanceKeys() {
			all = append(all, rs.Addr.Instance(k))
		}
	}
	if n >= len(all) {
		return addrs.AbsResourceInstance{}, false
	}
	return all[n], true
}

// configGen builds a configuration from bytes; once the bytes run out
// every choice is 0.
type configGen struct {
	b []byte
	i int
	// refs are expressions naming attributes of resources declared so
	// far, usable wherever a value is.
	refs []string
	// sensitive is set when an expression generated for the current
	// output used var.s.
	sensitive bool
	// extended enables choices added after the first inputs were kept
	// under testdata/fuzz; they come only in later configurations, so
	// those inputs (which end before them) keep meaning what they did.
	extended bool
}

func (g *configGen) pick(n int) int {
	if g.i >= len(g.b) {
		return 0
	}
	v := int(g.b[g.i]) % n
	g.i++
	return v
}

func (g *configGen) config() string {
	g.refs = nil
	var b strings.Builder
	b.WriteString("variable \"s\" {\n  default   = \"hunter2\"\n  sensitive = true\n}\n")
	b.WriteString("variable \"n\" {\n  default = 2\n}\n")
	b.WriteString("locals {\n  l = " + g.value("") + "\n}\n")
	g.refs = append(g.refs, "local.l")
	for i, n := 0, 1+g.pick(4); i < n; i++ {
		if g.pick(5) == 0 {
			g.data(&b, i)
		} else {
			g.resource(&b, i)
		}
	}
	for i, n := 0, g.pick(3); i < n; i++ {
		g.sensitive = false
		v := g.value("")
		fmt.Fprintf(&b, "output \"o%d\" {\n  value = %s\n", i, v)
		if g.sensitive || g.pick(3) == 0 {
			b.WriteString("  sensitive = true\n")
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// expansion returns a count or for_each line (or none), the way to name
// one instance of the resource, and the way to refer to all of them.
func (g *configGen) expansion() (line, one, all string) {
	switch g.pick(6) {
	case 1:
		n := g.pick(3)
		return fmt.Sprintf("  count = %d\n", n), "[count.index]", "[*]"
	case 2:
		return "  count = var.n\n", "[count.index]", "[*]"
	case 3:
		keys := []string{`toset(["a"])`, `toset(["a", "b"])`, `toset([])`, `toset(["b", "c"])`}[g.pick(4)]
		return "  for_each = " + keys + "\n", "each", "values"
	case 4:
		m := []string{`{ a = 1 }`, `{ a = var.s, b = "x" }`, `{}`, `{ c = [1, 2] }`}[g.pick(4)]
		return "  for_each = " + m + "\n", "each", "values"
	}
	if g.extended && len(g.refs) > 0 && g.pick(3) == 0 {
		// Known keys, values perhaps unknown until apply.
		return "  for_each = { k = " + g.refs[g.pick(len(g.refs))] + " }\n", "each", "values"
	}
	return "", "", ""
}

func (g *configGen) resource(b *strings.Builder, i int) {
	name := fmt.Sprintf("r%d", i)
	exp, one, all := g.expansion()
	typ := "terraform_data"
	if g.pick(2) == 1 {
		typ = "test_thing"
	}
	fmt.Fprintf(b, "resource %q %q {\n%s", typ, name, exp)
	rep := ""
	switch one {
	case "[count.index]":
		rep = "${count.index}"
	case "each":
		rep = "${each.key}"
	}
	if typ == "terraform_data" {
		fmt.Fprintf(b, "  input = %s\n", g.value(one))
		if g.pick(3) == 0 {
			fmt.Fprintf(b, "  triggers_replace = %s\n", g.value(one))
		}
	} else {
		fmt.Fprintf(b, "  name = \"n%s-${%s}\"\n", rep, g.stringish())
		if g.pick(2) == 0 {
			fmt.Fprintf(b, "  size = %d\n", g.pick(3))
		}
		if g.pick(2) == 0 {
			fmt.Fprintf(b, "  replace_key = %q\n", []string{"a", "b"}[g.pick(2)])
		}
		if g.pick(3) == 0 {
			b.WriteString("  secret = var.s\n")
		}
		if g.extended && g.pick(8) == 7 {
			b.WriteString("  fail = true\n")
		}
	}
	var lc []string
	if g.pick(3) == 0 {
		lc = append(lc, "create_before_destroy = true")
	}
	if g.pick(4) == 0 {
		if typ == "terraform_data" {
			lc = append(lc, "ignore_changes = [input]")
		} else {
			lc = append(lc, "ignore_changes = [size]")
		}
	}
	if ref := g.resourceRef(); ref != "" && g.pick(4) == 0 {
		lc = append(lc, "replace_triggered_by = ["+ref+"]")
	}
	if len(lc) > 0 {
		b.WriteString("  lifecycle {\n    " + strings.Join(lc, "\n    ") + "\n  }\n")
	}
	if ref := g.resourceRef(); ref != "" && g.pick(4) == 0 {
		b.WriteString("  depends_on = [" + ref + "]\n")
	}
	b.WriteString("}\n")
	g.addRefs(typ+"."+name, all)
}

func (g *configGen) data(b *strings.Builder, i int) {
	name := fmt.Sprintf("d%d", i)
	fmt.Fprintf(b, "data \"test_info\" %q {\n  input = %s\n", name, g.stringish())
	if ref := g.resourceRef(); ref != "" && g.pick(3) == 0 {
		b.WriteString("  depends_on = [" + ref + "]\n")
	}
	b.WriteString("}\n")
	g.refs = append(g.refs, "data.test_info."+name+".result")
}

// addRefs records expressions for a resource's attributes, in the form
// its expansion allows.
func (g *configGen) addRefs(addr, all string) {
	switch all {
	case "[*]":
		g.refs = append(g.refs, addr+"[*].id", "length("+addr+")")
	case "values":
		g.refs = append(g.refs, "values("+addr+")[*].id", "keys("+addr+")", "[for k, v in "+addr+" : v.id]")
	default:
		g.refs = append(g.refs, addr+".id", addr)
	}
}

// resourceRef returns a whole-resource reference for depends_on and
// replace_triggered_by, or "" when no single-instance resource is declared
// yet. It consumes a choice only when there is one to make.
func (g *configGen) resourceRef() string {
	var res []string
	for _, r := range g.refs {
		if strings.HasPrefix(r, "terraform_data.") || strings.HasPrefix(r, "test_thing.") {
			if j := strings.IndexAny(r, ".["); j >= 0 {
				rest := r[j+1:]
				if k := strings.IndexAny(rest, ".["); k >= 0 {
					res = append(res, r[:j+1+k])
					continue
				}
			}
			res = append(res, r)
		}
	}
	if len(res) == 0 {
		return ""
	}
	return res[g.pick(len(res))]
}

// stringish returns a string-valued expression.
func (g *configGen) stringish() string {
	switch g.pick(5) {
	case 1:
		return `"${local.l == null ? "x" : "y"}"`
	case 2:
		if len(g.refs) > 1 {
			return "jsonencode(" + g.refs[1+g.pick(len(g.refs)-1)] + ")"
		}
	case 3:
		return `upper("v")`
	}
	return `"v"`
}

// value returns an expression of any type; inst is how the current
// resource names its instance ("[count.index]", "each" or "").
func (g *configGen) value(inst string) string {
	switch g.pick(12) {
	case 0:
		return `"text"`
	case 1:
		return fmt.Sprint(g.pick(100))
	case 2:
		return `["a", 1, true]`
	case 3:
		return `{ k = "v", n = [1, 2] }`
	case 4:
		return "null"
	case 5:
		g.sensitive = true
		return "{ plain = 1, secret = var.s }"
	case 6:
		if len(g.refs) > 0 {
			return g.refs[g.pick(len(g.refs))]
		}
	case 7:
		switch inst {
		case "[count.index]":
			return "count.index"
		case "each":
			return "each.value"
		}
	case 8:
		return "[for i in range(3) : i * 2 if i != 1]"
	case 9:
		return "var.n > 1 ? \"big\" : null"
	case 10:
		return "tostring(" + fmt.Sprint(g.pick(9)) + ")"
	case 11:
		g.sensitive = true
		return "sensitive(\"s\")"
	}
	return `"default"`
}
