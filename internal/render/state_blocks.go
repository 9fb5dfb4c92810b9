package render

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// StateObject is one object of a state as `terraform show` prints it.
type StateObject struct {
	Addr       addrs.AbsResourceInstance
	DeposedKey addrs.DeposedKey
	// Resource is the object's resource in the state (its provider
	// configuration); Object its stored form (dependencies, status).
	Resource *states.Resource
	Object   *states.ObjectSrc
	Lines    []Line
}

// StateBlocks is a state cut into the pieces State prints.
type StateBlocks struct {
	Objects []StateObject
	// Outputs are the root outputs by name, each "name = value".
	Outputs []Block
}

// StateParts returns every object and output of s as State prints them,
// in the same order and with the same masking, line by line. Objects that
// cannot be shown are left out and named in the error, as State does.
func StateParts(s *states.State, schemas providers.Schemas, opts Options) (*StateBlocks, error) {
	pr := newPrinter(painter{})
	secrets := opts.Secrets.Secrets()
	secrets.MergeLong(StateSecrets(s, schemas))
	out := &StateBlocks{}
	errs := eachStateObject(s, schemas, pr, secrets, func(addr addrs.AbsResourceInstance, key addrs.DeposedKey, rs *states.Resource, src *states.ObjectSrc, text string) {
		out.Objects = append(out.Objects, StateObject{Addr: addr, DeposedKey: key, Resource: rs, Object: src, Lines: splitPainted(strings.TrimSuffix(text, "\n"))})
	})
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(s.Outputs)) {
		b.Reset()
		writeStateOutput(&b, pr, name, s.Outputs[name], secrets)
		out.Outputs = append(out.Outputs, Block{Output: name, Lines: splitPainted(b.String())})
	}
	return out, errors.Join(errs...)
}
