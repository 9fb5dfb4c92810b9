package command

import (
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
//
// Lines go through a progressOut; one timer reports every operation still
// running, rather than a timer and a goroutine per operation.
type uiHooks struct {
	m   *Meta
	out *progressOut

	mu      sync.Mutex
	running map[string]*runningOp
}

type runningOp struct {
	start  time.Time
	gerund string
	// next is when the operation next reports it is still running.
	next time.Time
}

func newUIHooks(m *Meta) *uiHooks {
	h := &uiHooks{m: m, running: map[string]*runningOp{}}
	h.out = newProgressOut(m.Stdout, h.still)
	return h
}

// PreApply implements applying.Hooks.
func (h *uiHooks) PreApply(addr addrs.AbsResourceInstanceObject, action plans.Action, prior cty.Value) {
	name := addr.String()
	verb, gerund := verbs(action)
	idText := ""
	if action != plans.Create && action != plans.Read {
		idText = idSuffix(prior)
	}
	now := time.Now()
	h.mu.Lock()
	h.running[name] = &runningOp{start: now, gerund: gerund, next: now.Add(stillInterval)}
	h.mu.Unlock()
	h.out.Printf("%s: %s...%s\n", h.m.bold(name), verb, idText)
}

// still reports every operation that has run another stillInterval.
func (h *uiHooks) still(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, op := range h.running {
		if now.Before(op.next) {
			continue
		}
		op.next = op.next.Add(stillInterval)
		h.out.Printf("%s: Still %s... [%s elapsed]\n", h.m.bold(name), op.gerund, now.Sub(op.start).Truncate(time.Second))
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
	h.out.Printf("%s: %s after %s%s\n", h.m.bold(name), done, elapsed, idText)
}

// stopAll ends progress reporting and writes out what is buffered, before
// anything else is printed.
func (h *uiHooks) stopAll() {
	h.out.Close()
	h.mu.Lock()
	h.running = map[string]*runningOp{}
	h.mu.Unlock()
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
