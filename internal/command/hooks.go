package command

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/applying"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/zclconf/go-cty/cty"
)

// stillInterval is how often a long operation reports it is still running.
const stillInterval = 10 * time.Second

// uiHooks reports apply progress as it happens. In the terminal that is
// the lines Terraform prints:
//
//	terraform_data.a: Creating...
//	terraform_data.a: Still creating... [10s elapsed]
//	terraform_data.a: Creation complete after 12s [id=...]
//
// and with -json the apply_start, apply_progress, apply_complete and
// apply_errored messages of the machine-readable UI. uiHooks keeps the
// bookkeeping (what runs since when); a progressView words the reports.
// Lines go through a progressOut; one timer reports every operation still
// running, rather than a timer and a goroutine per operation.
type uiHooks struct {
	view progressView
	out  *progressOut
	// ephemeral words what happens to ephemeral resources
	// (Meta.ephemeralProgress).
	ephemeral lifecycle.EphemeralHook

	mu      sync.Mutex
	running map[string]*runningOp
}

type runningOp struct {
	addr   addrs.AbsResourceInstanceObject
	action plans.Action
	start  time.Time
	// next is when the operation next reports it is still running.
	next time.Time
}

// progressView words the reports of one operation; its methods return the
// text to write (nothing for ""). start and now are wall-clock times.
type progressView interface {
	started(op *runningOp, prior cty.Value) string
	stillRunning(op *runningOp, now time.Time) string
	finished(op *runningOp, now time.Time, newVal cty.Value, err error) string
}

func newUIHooks(m *Meta) *uiHooks {
	var view progressView = humanProgress{m}
	if m.jsonUI != nil {
		view = jsonProgress{m.jsonUI}
	}
	h := &uiHooks{view: view, running: map[string]*runningOp{}}
	h.out = newProgressOut(m.Stdout, h.still)
	h.ephemeral = m.ephemeralProgress(h.out)
	return h
}

// PreApply implements applying.Hooks.
func (h *uiHooks) PreApply(addr addrs.AbsResourceInstanceObject, action plans.Action, prior cty.Value) {
	now := time.Now()
	op := &runningOp{addr: addr, action: action, start: now, next: now.Add(stillInterval)}
	h.mu.Lock()
	h.running[runningKey(addr, action)] = op
	h.mu.Unlock()
	h.write(h.view.started(op, prior))
}

// still reports every operation that has run another stillInterval.
func (h *uiHooks) still(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, op := range h.running {
		if now.Before(op.next) {
			continue
		}
		op.next = op.next.Add(stillInterval)
		h.write(h.view.stillRunning(op, now))
	}
}

// PostApply implements applying.Hooks.
func (h *uiHooks) PostApply(addr addrs.AbsResourceInstanceObject, action plans.Action, newVal cty.Value, err error) {
	key := runningKey(addr, action)
	h.mu.Lock()
	op := h.running[key]
	delete(h.running, key)
	h.mu.Unlock()
	now := time.Now()
	if op == nil {
		op = &runningOp{addr: addr, action: action, start: now}
	}
	h.write(h.view.finished(op, now, newVal, err))
}

// EndQuietly implements applying.QuietHooks: the operation stops being
// tracked (no "Still reading..." lines) and nothing is printed.
func (h *uiHooks) EndQuietly(addr addrs.AbsResourceInstanceObject, action plans.Action) {
	key := runningKey(addr, action)
	h.mu.Lock()
	delete(h.running, key)
	h.mu.Unlock()
}

var _ applying.QuietHooks = (*uiHooks)(nil)

// PreImport implements applying.ImportHooks. Terraform 1.5.7's
// machine-readable UI has no import messages, so only people see it.
func (h *uiHooks) PreImport(addr addrs.AbsResourceInstance, id string) {
	if v, ok := h.view.(humanProgress); ok {
		h.write(v.m.bold(fmt.Sprintf("%s: Importing... [%s]", addr, id)) + "\n")
	}
}

// PostImport implements applying.ImportHooks.
func (h *uiHooks) PostImport(addr addrs.AbsResourceInstance, id string) {
	if v, ok := h.view.(humanProgress); ok {
		h.write(v.m.bold(fmt.Sprintf("%s: Import complete [%s]", addr, id)) + "\n")
	}
}

var _ applying.ImportHooks = (*uiHooks)(nil)

// Ephemeral implements applying.EphemeralHooks.
func (h *uiHooks) Ephemeral() lifecycle.EphemeralHook { return h.ephemeral }

var _ applying.EphemeralHooks = (*uiHooks)(nil)

// runningKey names an operation: the object and the action, since the two
// steps of a replacement may overlap (the old object's deletion can be
// reported after the new one's creation started).
func runningKey(addr addrs.AbsResourceInstanceObject, action plans.Action) string {
	return addr.String() + "\x00" + action.String()
}

func (h *uiHooks) write(text string) {
	if text != "" {
		h.out.Printf("%s", text)
	}
}

// stopAll ends progress reporting and writes out what is buffered, before
// anything else is printed.
func (h *uiHooks) stopAll() {
	h.out.Close()
	h.mu.Lock()
	h.running = map[string]*runningOp{}
	h.mu.Unlock()
}

// humanProgress words progress for people, as Terraform's terminal does.
type humanProgress struct{ m *Meta }

func (v humanProgress) started(op *runningOp, prior cty.Value) string {
	verb, _ := verbs(op.action)
	idText := ""
	if op.action != plans.Create && op.action != plans.Read {
		if k, id := render.ObjectIDOrName(prior, v.m.secrets); k != "" {
			idText = " [" + k + "=" + id + "]"
		}
	}
	return fmt.Sprintf("%s: %s...%s\n", v.m.bold(op.addr.String()), verb, idText)
}

func (v humanProgress) stillRunning(op *runningOp, now time.Time) string {
	_, gerund := verbs(op.action)
	return fmt.Sprintf("%s: Still %s... [%s elapsed]\n", v.m.bold(op.addr.String()), gerund, now.Sub(op.start).Truncate(time.Second))
}

func (v humanProgress) finished(op *runningOp, now time.Time, newVal cty.Value, err error) string {
	if err != nil {
		return "" // the error is reported as a diagnostic at the end
	}
	done := map[plans.Action]string{plans.Create: "Creation complete", plans.Update: "Modifications complete", plans.Delete: "Destruction complete", plans.Read: "Read complete"}[op.action]
	idText := ""
	if op.action != plans.Delete {
		idText = v.m.idSuffix(newVal)
	}
	return fmt.Sprintf("%s: %s after %s%s\n", v.m.bold(op.addr.String()), done, now.Sub(op.start).Truncate(time.Second), idText)
}

// jsonProgress words progress as machine-readable UI messages. Their
// elapsed times are whole seconds between the start and now, each rounded
// to the second, as Terraform counts them. Messages name the resource
// instance, deposed objects included, as Terraform's do.
type jsonProgress struct{ v *jsonView }

func (j jsonProgress) started(op *runningOp, prior cty.Value) string {
	return string(j.v.encode(render.UIApplyStart(op.addr.ResourceInstance, op.action, prior, j.v.m.secrets)))
}

func (j jsonProgress) stillRunning(op *runningOp, now time.Time) string {
	return string(j.v.encode(render.UIApplyProgress(op.addr.ResourceInstance, op.action, roundedElapsed(op.start, now))))
}

func (j jsonProgress) finished(op *runningOp, now time.Time, newVal cty.Value, err error) string {
	elapsed := roundedElapsed(op.start, now)
	if err != nil {
		return string(j.v.encode(render.UIApplyErrored(op.addr.ResourceInstance, op.action, elapsed)))
	}
	return string(j.v.encode(render.UIApplyComplete(op.addr.ResourceInstance, op.action, newVal, elapsed, j.v.m.secrets)))
}

func roundedElapsed(start, now time.Time) time.Duration {
	return now.Round(time.Second).Sub(start.Round(time.Second))
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

// idSuffix renders " [id=...]" (or " [name=...]") when the object has a
// known, non-sensitive identifying attribute that reveals none of the
// run's secrets.
func (m *Meta) idSuffix(v cty.Value) string {
	k, id := render.ObjectID(v, m.secrets)
	if k == "" {
		return ""
	}
	return " [" + k + "=" + id + "]"
}
