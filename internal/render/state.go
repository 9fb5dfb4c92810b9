package render

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// stateOpts print values as they are: every attribute, no action markers.
var stateOpts = printOpts{showUnchanged: true, noSymbols: true}

// StateShow writes one resource instance object as `terraform state show
// ADDR` prints it: "# ADDR:" (with " (tainted)" for a tainted object) and
// the object as a resource block. Attributes the schema or the object's
// marks call sensitive, and values derived from them (see humanMarks), read
// "(sensitive value)": from the object's own secrets and from those in
// opts.Secrets, which the caller fills with the whole state's
// (StateSecrets).
func StateShow(w io.Writer, addr addrs.AbsResourceInstance, obj *states.Object, schema *configschema.Block, opts Options) error {
	var b strings.Builder
	writeStateObject(&b, newPrinter(opts.painter()), addr, addrs.NotDeposed, obj, schema, opts.Secrets.Secrets())
	_, err := io.WriteString(w, b.String())
	return err
}

// writeStateObject writes the header line and the block of one object.
func writeStateObject(b *strings.Builder, pr *printer, addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *states.Object, schema *configschema.Block, secrets marks.Secrets) {
	switch {
	case key != addrs.NotDeposed:
		fmt.Fprintf(b, "# %s: (deposed object %s)\n", addr, key)
	case obj.Status == states.ObjectTainted:
		fmt.Fprintf(b, "# %s: (tainted)\n", addr)
	default:
		fmt.Fprintf(b, "# %s:\n", addr)
	}
	v := humanMarks(obj.Value, schema, secrets)
	d := diffBlock(newChange(v, v, false, false, pathSet{}, everything), schema)
	b.WriteString(resourceHeader(addr))
	b.WriteString(" ")
	pr.print(b, d, 0, stateOpts)
	b.WriteString("\n")
}

// State writes a whole state as `terraform show` prints it: every resource
// instance object in address order, then the root outputs. Objects are
// decoded with their resource type's schema from schemas; strings that
// reveal a secret of the state, or of opts.Secrets, read as sensitive. An
// object with no
// schema or that does not decode with it is left out and named in the
// returned error, and the rest is still written: a state that no longer
// matches its provider is when people most need to see what it holds.
func State(w io.Writer, s *states.State, schemas providers.Schemas, opts Options) error {
	bw := bufio.NewWriter(w)
	if s.Empty() {
		bw.WriteString("The state file is empty. No resources are represented.\n")
		return bw.Flush()
	}
	pr := newPrinter(opts.painter())
	secrets := opts.Secrets.Secrets()
	secrets.MergeLong(StateSecrets(s, schemas))
	first := true
	errs := eachStateObject(s, schemas, pr, secrets, func(_ addrs.AbsResourceInstance, _ addrs.DeposedKey, _ *states.Resource, _ *states.ObjectSrc, text string) {
		if !first {
			bw.WriteString("\n")
		}
		first = false
		bw.WriteString(text)
	})
	writeStateOutputs(bw, pr, s.Outputs, secrets)
	return errors.Join(append(errs, bw.Flush())...)
}

// eachStateObject writes every object of s in address order (current,
// then deposed) and hands fn its text; objects that cannot be written
// are skipped and their errors returned.
func eachStateObject(s *states.State, schemas providers.Schemas, pr *printer, secrets marks.Secrets, fn func(addrs.AbsResourceInstance, addrs.DeposedKey, *states.Resource, *states.ObjectSrc, string)) []error {
	var b strings.Builder
	var errs []error
	s.AllInstances(func(addr addrs.AbsResourceInstance, rs *states.Resource, is *states.ResourceInstance) {
		keys := append([]addrs.DeposedKey{addrs.NotDeposed}, is.SortedDeposedKeys()...)
		for _, key := range keys {
			src := objectOf(is, key)
			if src == nil {
				continue
			}
			b.Reset()
			if err := writeStateSrc(&b, pr, addr, key, rs.ProviderConfig, src, schemas, secrets); err != nil {
				errs = append(errs, err)
				continue
			}
			fn(addr, key, rs, src, b.String())
		}
	})
	return errs
}

// writeStateSrc decodes a stored object and writes it.
func writeStateSrc(b *strings.Builder, pr *printer, addr addrs.AbsResourceInstance, key addrs.DeposedKey, provider addrs.AbsProviderConfig, src *states.ObjectSrc, schemas providers.Schemas, secrets marks.Secrets) error {
	schema, _, err := resourceSchema(schemas, provider.Provider, addr)
	if err != nil {
		return err
	}
	obj, err := src.Decode(schema.ImpliedType())
	if err != nil {
		return fmt.Errorf("decoding %s: %w", addr, err)
	}
	writeStateObject(b, pr, addr, key, obj, schema, secrets)
	return nil
}

// writeStateOutputs writes the "Outputs:" section of `terraform show`:
// values printed by their type, sensitive ones hidden, and so are those
// that reveal one of secrets.
func writeStateOutputs(w *bufio.Writer, pr *printer, outputs map[string]*states.OutputValue, secrets marks.Secrets) {
	if len(outputs) == 0 {
		return
	}
	w.WriteString("\n\nOutputs:\n\n")
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		b.Reset()
		writeStateOutput(&b, pr, name, outputs[name], secrets)
		w.WriteString(b.String())
		w.WriteString("\n")
	}
}

// writeStateOutput writes "name = value" for one output, without the
// final newline.
func writeStateOutput(b *strings.Builder, pr *printer, name string, o *states.OutputValue, secrets marks.Secrets) {
	v := unmarkDeep(o.Value)
	c := newChange(v, v, false, false, pathSet{}, everything)
	sensitive := o.Sensitive || revealsSecret(v, secrets)
	c.beforeSensitive, c.afterSensitive = sensitive, sensitive
	ty := cty.DynamicPseudoType
	if v != cty.NilVal {
		ty = v.Type()
	}
	b.WriteString(name)
	b.WriteString(" = ")
	pr.print(b, diffType(c, ty), 0, stateOpts)
}
