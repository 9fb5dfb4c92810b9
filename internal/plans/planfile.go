package plans

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// planFileMagic starts every plan file, so a state or configuration file
// given by mistake is recognised at once.
const planFileMagic = "cairn-plan-v2"

// planFileV1 is the plan file document: gzip-compressed JSON. Values are
// msgpack (which keeps unknowns) with their type and sensitive paths beside
// them, because JSON cannot carry either.
type planFileV1 struct {
	Magic        string             `json:"magic"`
	Mode         Mode               `json:"mode"`
	Timestamp    time.Time          `json:"timestamp"`
	StateLineage string             `json:"state_lineage"`
	StateSerial  uint64             `json:"state_serial"`
	Variables    map[string]valueV1 `json:"variables"`
	Changes      []changeV1         `json:"changes"`
	Outputs      []outputV1         `json:"outputs"`
	PriorState   json.RawMessage    `json:"prior_state"`
	PrevRunState json.RawMessage    `json:"prev_run_state"`
	Moves        []moveV1           `json:"moves,omitempty"`
	Expansions   []expansionV1      `json:"expansions,omitempty"`
	Modules      []expansionV1      `json:"module_expansions,omitempty"`
	Targets      []string           `json:"targets,omitempty"`
	Excludes     []string           `json:"excludes,omitempty"`
	Relevant     []ResourceAttr     `json:"relevant_attributes,omitempty"`
	Checks       []checkV1          `json:"checks,omitempty"`
	Graph        graphV1            `json:"graph"`
	Config       map[string][]byte  `json:"config"`
	// ApplyTime names the ephemeral root variables, whose values are
	// never saved.
	ApplyTime []string `json:"apply_time_variables,omitempty"`
}

type changeV1 struct {
	Addr                string       `json:"addr"`
	PrevRunAddr         string       `json:"prev_run_addr,omitempty"`
	Deposed             string       `json:"deposed,omitempty"`
	Provider            string       `json:"provider"`
	Action              Action       `json:"action"`
	Reason              ActionReason `json:"reason,omitempty"`
	Before              valueV1      `json:"before"`
	After               valueV1      `json:"after"`
	RequiredReplace     []pathV1     `json:"required_replace,omitempty"`
	Private             []byte       `json:"private,omitempty"`
	SchemaVersion       int64        `json:"schema_version"`
	Dependencies        []string     `json:"dependencies,omitempty"`
	CreateBeforeDestroy bool         `json:"create_before_destroy,omitempty"`
	Importing           *Importing   `json:"importing,omitempty"`
}

type outputV1 struct {
	Name      string  `json:"name"`
	Action    Action  `json:"action"`
	Before    valueV1 `json:"before"`
	After     valueV1 `json:"after"`
	Sensitive bool    `json:"sensitive,omitempty"`
}

// WriteFile writes p as a plan file. Only complete plans can be saved.
func WriteFile(w io.Writer, p *Plan) error {
	if p.Errored || p.Graph == nil {
		return fmt.Errorf("a plan with errors cannot be saved")
	}
	doc, err := encodePlan(p)
	if err != nil {
		return fmt.Errorf("encoding plan: %w", err)
	}
	zw := gzip.NewWriter(w)
	if err := json.NewEncoder(zw).Encode(doc); err != nil {
		return fmt.Errorf("writing plan: %w", err)
	}
	return zw.Close()
}

// MaxPlanFileInflated is the most a plan file may inflate to: 512 MiB of
// JSON, several times what a plan of 100,000 instances takes. gzip
// inflates up to a thousandfold, so a 3 MB file could otherwise fill
// gigabytes before the JSON decoder saw anything wrong.
const MaxPlanFileInflated = 512 << 20

// ErrPlanFileTooLarge is returned by ReadFile for a plan file that
// inflates to more than MaxPlanFileInflated bytes.
var ErrPlanFileTooLarge = fmt.Errorf("plan file inflates to more than %d MiB, the most Cairn reads; it is not a plan file Cairn wrote", MaxPlanFileInflated>>20)

// ReadFile reads a plan file. Any problem (not a plan file, corrupt,
// written by an incompatible version, too large) is an error saying which.
func ReadFile(r io.Reader) (*Plan, error) {
	return readFile(r, MaxPlanFileInflated)
}

func readFile(r io.Reader, maxInflated int64) (*Plan, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a Cairn plan file (it is not gzip-compressed): %w", err)
	}
	var doc planFileV1
	dec := json.NewDecoder(&inflateLimit{r: zr, left: maxInflated})
	if err := dec.Decode(&doc); errors.Is(err, ErrPlanFileTooLarge) {
		return nil, err
	} else if err != nil {
		return nil, fmt.Errorf("plan file is corrupt: %w", err)
	}
	if doc.Magic != planFileMagic {
		return nil, fmt.Errorf("not a Cairn plan file, or one written by an incompatible version (format %q)", doc.Magic)
	}
	p, err := decodePlan(&doc)
	if err != nil {
		return nil, fmt.Errorf("plan file is corrupt: %w", err)
	}
	return p, nil
}

// inflateLimit reads r until left bytes have been read, then fails with
// ErrPlanFileTooLarge if there is more.
type inflateLimit struct {
	r    io.Reader
	left int64
}

func (l *inflateLimit) Read(p []byte) (int, error) {
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.left {
		return 0, ErrPlanFileTooLarge
	}
	l.left -= int64(n)
	return n, err
}

func encodePlan(p *Plan) (*planFileV1, error) {
	doc := &planFileV1{
		Magic: planFileMagic, Mode: p.Mode, Timestamp: p.Timestamp, StateLineage: p.StateLineage, StateSerial: p.StateSerial,
		Variables: map[string]valueV1{}, Config: p.ConfigSources, Relevant: p.RelevantAttributes,
		ApplyTime: p.ApplyTimeVariables,
	}
	for name, v := range p.VariableValues {
		ev, err := encodeValue(v)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", name, err)
		}
		doc.Variables[name] = ev
	}
	for _, c := range p.Changes {
		ec, err := encodeChange(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Addr, err)
		}
		doc.Changes = append(doc.Changes, ec)
	}
	for _, o := range p.Outputs {
		before, err := encodeValue(o.Before)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Name, err)
		}
		after, err := encodeValue(o.After)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", o.Name, err)
		}
		doc.Outputs = append(doc.Outputs, outputV1{Name: o.Name, Action: o.Action, Before: before, After: after, Sensitive: o.Sensitive})
	}
	var err error
	if doc.PriorState, err = encodeState(p.PriorState, p); err != nil {
		return nil, err
	}
	if doc.PrevRunState, err = encodeState(p.PrevRunState, p); err != nil {
		return nil, err
	}
	doc.Targets = p.Targets
	doc.Excludes = p.Excludes
	if doc.Modules, err = encodeModuleExpansions(p.ModuleExpansions); err != nil {
		return nil, err
	}
	if doc.Expansions, err = encodeExpansions(p.Expansions); err != nil {
		return nil, err
	}
	doc.Checks = encodeChecks(p.Checks)
	doc.Moves = encodeMoves(p.Moves)
	doc.Graph = encodeGraph(p.Graph)
	return doc, nil
}

func encodeChange(c *ResourceInstanceChange) (changeV1, error) {
	before, err := encodeValue(c.Before)
	if err != nil {
		return changeV1{}, fmt.Errorf("before: %w", err)
	}
	after, err := encodeValue(c.After)
	if err != nil {
		return changeV1{}, fmt.Errorf("after: %w", err)
	}
	ec := changeV1{
		Addr: c.Addr.String(), Deposed: string(c.DeposedKey), Provider: c.Provider.String(), Action: c.Action, Reason: c.ActionReason,
		Before: before, After: after, Private: c.Private, SchemaVersion: c.SchemaVersion, CreateBeforeDestroy: c.CreateBeforeDestroy,
		Importing: c.Importing,
	}
	if c.Moved() {
		ec.PrevRunAddr = c.PrevRunAddr.String()
	}
	for _, p := range c.RequiredReplace {
		ep, err := encodePath(p)
		if err != nil {
			return changeV1{}, err
		}
		ec.RequiredReplace = append(ec.RequiredReplace, ep)
	}
	for _, d := range c.Dependencies {
		ec.Dependencies = append(ec.Dependencies, d.String())
	}
	return ec, nil
}

func encodeState(s *states.State, p *Plan) (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	src, err := statefile.Marshal(&statefile.File{TerraformVersion: "1.5.7", Serial: p.StateSerial, Lineage: p.StateLineage, State: s})
	if err != nil {
		return nil, fmt.Errorf("encoding state snapshot: %w", err)
	}
	return json.RawMessage(bytes.TrimSpace(src)), nil
}

func decodeState(raw json.RawMessage) (*states.State, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return states.NewState(), nil
	}
	f, err := statefile.Read(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("state snapshot: %w", err)
	}
	return f.State, nil
}

func decodePlan(doc *planFileV1) (*Plan, error) {
	p := &Plan{
		Mode: doc.Mode, Timestamp: doc.Timestamp, StateLineage: doc.StateLineage, StateSerial: doc.StateSerial,
		VariableValues: map[string]ctyValue{}, ConfigSources: doc.Config, RelevantAttributes: doc.Relevant,
		ApplyTimeVariables: doc.ApplyTime,
	}
	dc := newDecodeCache()
	for name, ev := range doc.Variables {
		v, err := ev.decode(dc)
		if err != nil {
			return nil, fmt.Errorf("variable %s: %w", name, err)
		}
		p.VariableValues[name] = v
	}
	var err error
	if p.Changes, err = decodeChanges(doc.Changes); err != nil {
		return nil, err
	}
	for _, eo := range doc.Outputs {
		before, err := eo.Before.decode(dc)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", eo.Name, err)
		}
		after, err := eo.After.decode(dc)
		if err != nil {
			return nil, fmt.Errorf("output %s: %w", eo.Name, err)
		}
		p.Outputs = append(p.Outputs, &OutputChange{Name: eo.Name, Action: eo.Action, Before: before, After: after, Sensitive: eo.Sensitive})
	}
	if p.PriorState, err = decodeState(doc.PriorState); err != nil {
		return nil, err
	}
	if p.PrevRunState, err = decodeState(doc.PrevRunState); err != nil {
		return nil, err
	}
	p.Targets = doc.Targets
	p.Excludes = doc.Excludes
	if p.ModuleExpansions, err = decodeModuleExpansions(doc.Modules, dc); err != nil {
		return nil, err
	}
	if p.Expansions, err = decodeExpansions(doc.Expansions, dc); err != nil {
		return nil, err
	}
	if p.Moves, err = decodeMoves(doc.Moves); err != nil {
		return nil, err
	}
	if p.Checks, err = decodeChecks(doc.Checks); err != nil {
		return nil, err
	}
	if p.Graph, err = decodeGraph(doc.Graph, operandCounts{changes: len(p.Changes), outputs: len(p.Outputs), checks: len(p.Checks), modules: len(p.ModuleExpansions)}); err != nil {
		return nil, err
	}
	return p, nil
}

// minChangesPerWorker keeps small plans on one goroutine: for fewer
// changes than this, starting a worker (with its own decode cache to fill)
// costs more than it saves.
const minChangesPerWorker = 256

// decodeChanges decodes a plan file's resource changes in contiguous runs,
// one per GOMAXPROCS goroutine: once types are cached, decoding values and
// parsing addresses is most of reading a big plan, and every change
// decodes on its own. The changes keep the file's order, and the error is
// the lowest-numbered bad change's, as a sequential read would report.
func decodeChanges(ecs []changeV1) ([]*ResourceInstanceChange, error) {
	if len(ecs) == 0 {
		return nil, nil
	}
	out := make([]*ResourceInstanceChange, len(ecs))
	workers := min(runtime.GOMAXPROCS(0), (len(ecs)+minChangesPerWorker-1)/minChangesPerWorker)
	size := (len(ecs) + workers - 1) / workers
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := min(w*size, len(ecs)), min((w+1)*size, len(ecs))
		wg.Go(func() { errs[w] = decodeChangeRun(ecs[lo:hi], out[lo:hi], lo) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeChangeRun decodes ecs, the changes numbered from first on, into
// out, stopping at the first bad one. Its decode cache is its own, so runs
// share nothing but what they only read.
func decodeChangeRun(ecs []changeV1, out []*ResourceInstanceChange, first int) error {
	dc := newDecodeCache()
	for i := range ecs {
		c, err := decodeChange(&ecs[i], dc)
		if err != nil {
			return fmt.Errorf("change %d: %w", first+i, err)
		}
		out[i] = c
	}
	return nil
}

func decodeChange(ec *changeV1, dc *decodeCache) (*ResourceInstanceChange, error) {
	addr, ok := dc.instanceAddr(ec.Addr)
	if !ok {
		return nil, fmt.Errorf("invalid address %q", ec.Addr)
	}
	prov, pds := addrs.ParseAbsProviderConfig(ec.Provider)
	if pds.HasErrors() {
		return nil, fmt.Errorf("invalid provider %q", ec.Provider)
	}
	dk, err := addrs.ParseDeposedKey(ec.Deposed)
	if err != nil {
		return nil, err
	}
	before, err := ec.Before.decode(dc)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	after, err := ec.After.decode(dc)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	c := &ResourceInstanceChange{
		Addr: addr, DeposedKey: dk, Provider: prov, Action: ec.Action, ActionReason: ec.Reason,
		Before: before, After: after, Private: ec.Private, SchemaVersion: ec.SchemaVersion, CreateBeforeDestroy: ec.CreateBeforeDestroy,
		Importing:   ec.Importing,
		PrevRunAddr: addr,
	}
	if ec.PrevRunAddr != "" {
		prev, ok := dc.instanceAddr(ec.PrevRunAddr)
		if !ok {
			return nil, fmt.Errorf("invalid previous address %q", ec.PrevRunAddr)
		}
		c.PrevRunAddr = prev
	}
	for _, ep := range ec.RequiredReplace {
		path, err := ep.decode(dc)
		if err != nil {
			return nil, err
		}
		c.RequiredReplace = append(c.RequiredReplace, path)
	}
	if len(ec.Dependencies) > 0 {
		c.Dependencies = make([]addrs.AbsResource, len(ec.Dependencies))
	}
	for i, d := range ec.Dependencies {
		ra, ok := dc.resource(d)
		if !ok {
			return nil, fmt.Errorf("invalid dependency %q", d)
		}
		c.Dependencies[i] = ra
	}
	return c, nil
}
