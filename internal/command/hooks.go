package command

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// stillInterval is how often a long operation reports it is still running.
const stillInterval = 10 * time.Second

// uiHooks prints apply progress the way Terraform does:
//
//	terraform_data.a: Creating...
//	terraform_data.a: Still creating... [10s elapsed]
//	terraform_data.a: Creation complete after 12s [id=...]
type uiHooks struct {
	m       *Meta
	mu      sync.Mutex
	running map[string]*runningOp
}

type runningOp struct {
	start time.Time
	stop  chan struct{}
}

func newUIHooks(m *Meta) *uiHooks { return &uiHooks{m: m, running: map[string]*runningOp{}} }

// PreApply implements applying.Hooks.
func (h *uiHooks) PreApply(addr addrs.AbsResourceInstanceObject, action plans.Action, prior cty.Value) {
	name := addr.String()
	verb, gerund := verbs(action)
	idText := ""
	if action != plans.Create && action != plans.Read {
		idText = idSuffix(prior)
	}
	h.printf("%s: %s...%s\n", h.m.bold(name), verb, idText)
	op := &runningOp{start: time.Now(), stop: make(chan struct{})}
	h.mu.Lock()
	h.running[name] = op
	h.mu.Unlock()
	go h.still(name, gerund, op)
}

// still reports a long operation every stillInterval until it ends.
func (h *uiHooks) still(name, gerund string, op *runningOp) {
	t := time.NewTicker(stillInterval)
	defer t.Stop()
	for {
		select {
		case <-op.stop:
			return
		case <-t.C:
			h.printf("%s: Still %s... [%s elapsed]\n", h.m.bold(name), gerund, time.Since(op.start).Truncate(time.Second))
		}
	}
}

// PostApply implements applying.Hooks.
func (h *uiHooks) PostApply(addr addrs.AbsResourceInstanceObject, action plans.Action, newVal cty.Value, err error) {
	name := addr.String()
	h.mu.Lock()
	op := h.running[name]
	delete(h.running, name)
	h.mu.Unlock()
	elapsed := time.Duration(0)
	if op != nil {
		close(op.stop)
		elapsed = time.Since(op.start).Truncate(time.Second)
	}
	if err != nil {
		return // the error is reported as a diagnostic at the end
	}
	done := map[plans.Action]string{plans.Create: "Creation complete", plans.Update: "Modifications complete", plans.Delete: "Destruction complete", plans.Read: "Read complete"}[action]
	idText := ""
	if action != plans.Delete {
		idText = idSuffix(newVal)
	}
	h.printf("%s: %s after %s%s\n", h.m.bold(name), done, elapsed, idText)
}

func (h *uiHooks) printf(format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fmt.Fprintf(h.m.Stdout, format, args...)
}

// stopAll ends every progress ticker (after an interrupted apply).
func (h *uiHooks) stopAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, op := range h.running {
		close(op.stop)
		delete(h.running, name)
	}
}

func verbs(a plans.Action) (verb, gerund string) {
	switch a {
	case plans.Create:
		return "Creating", "creating"
	case plans.Update:
		return "Modifying", "modifying"
	case plans.Delete:
		return "Destroying", "destroying"
	case plans.Read:
		return "Reading", "reading"
	}
	return strings.ToTitle(a.String()), a.String()
}

// idSuffix renders " [id=...]" when the object has a known, non-sensitive
// string id.
func idSuffix(v cty.Value) string {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() || !v.Type().IsObjectType() || !v.Type().HasAttribute("id") {
		return ""
	}
	id := v.GetAttr("id")
	if id.IsMarked() || id.IsNull() || !id.IsKnown() || id.Type() != cty.String {
		return ""
	}
	return " [id=" + id.AsString() + "]"
}
