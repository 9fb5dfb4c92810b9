package command

import (
	"bytes"
	"io"
	"sync"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/render"
)

// jsonView writes the machine-readable UI stream of plan, apply and
// destroy with -json: one JSON message per line on stdout, errors
// included, as Terraform does. Tools read it line by line while the
// command runs; it carries no attribute values, and no text in it reveals
// one of the run's secrets.
//
// Messages are written whole under a lock, so concurrent hooks never
// interleave two lines.
type jsonView struct {
	m  *Meta
	mu sync.Mutex
}

// startJSONView switches the command to the machine-readable UI: progress
// lines stay off stdout, diagnostics become messages, and the version
// message is written at once, before anything else can be.
func (m *Meta) startJSONView() {
	m.machineOutput = true
	m.jsonUI = &jsonView{m: m}
	m.jsonUI.emit(render.UIVersionMessage("Cairn", Version))
}

// encode returns msg as one line, stamped with the command's clock.
func (v *jsonView) encode(msg render.UIMessage) []byte {
	var b bytes.Buffer
	// Every field is a plain Go value or pre-encoded JSON, so encoding
	// cannot fail; a message that did would be left out rather than half
	// written.
	if err := msg.Encode(&b, v.m.Now()); err != nil {
		return nil
	}
	return b.Bytes()
}

// emit writes one message to stdout.
func (v *jsonView) emit(msg render.UIMessage) {
	v.write(v.m.Stdout, v.encode(msg))
}

func (v *jsonView) write(w io.Writer, line []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, _ = w.Write(line)
}

// diagnostics writes one message per diagnostic, in the order given.
func (v *jsonView) diagnostics(ds diags.Diagnostics) {
	sources := render.NewSourceIndex(v.m.sources)
	for _, d := range ds {
		v.emit(render.UIDiagnosticMessage(d, sources, v.m.secrets))
	}
}
