package command

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/explorer"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
)

// runShow implements "cairn show [-json | -html[=FILE]] [PLANFILE]": the
// state, or a saved plan, for people, for tools (-json) or for a browser
// (-html).
func runShow(m *Meta, args []string) int {
	var jsonOut bool
	var html htmlFlag
	fs := newFlagSet("show", m.Stderr)
	fs.BoolVar(&jsonOut, "json", false, "Print Terraform's JSON representation.")
	fs.Var(&html, "html", "Write a self-contained HTML page to explore the plan or state: to standard output, or with -html=FILE to FILE.")
	noColorFlag(fs, m)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 1 {
		return m.errorf("Too many command line arguments", "show takes at most one argument: the path of a saved plan file.")
	}
	if jsonOut && html.on {
		return m.errorf("Incompatible options", "-json and -html cannot be used together: choose the JSON document for tools or the HTML page for people.")
	}
	ctx := context.Background()
	cfg, _ := m.loadConfig()
	lib, rds := m.providerLibrary(cfg)
	if rds.HasErrors() {
		return m.fail(rds)
	}
	if fs.NArg() == 1 {
		return m.showPlanFile(ctx, lib, fs.Arg(0), jsonOut, html)
	}
	h, ds := m.openState(cfg, false, 0, "OperationTypeShow")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	st := h.state()
	schemas, sds := lib.Schemas(ctx, st.Providers())
	if sds.HasErrors() {
		return m.fail(sds)
	}
	if jsonOut {
		return m.writeJSON(render.StateJSON(st, schemas))
	}
	if html.on {
		return m.writeHTML(html.file, func(w io.Writer) error {
			return explorer.WriteState(ctx, w, st, schemas, explorer.Options{Secrets: m.renderOpts().Secrets})
		})
	}
	if st.Empty() {
		m.Stdout.Write([]byte("No state.\n"))
		return 0
	}
	if err := render.State(m.Stdout, st, schemas, m.renderOpts()); err != nil {
		return m.errorf("Failed to show the state",
			"Cairn printed what it could, but not all of the state: %s. An object that does not match its resource type's schema was written by another version of the provider; the state file is unchanged.", err)
	}
	return 0
}

func (m *Meta) showPlanFile(ctx context.Context, lib *providers.Library, name string, jsonOut bool, html htmlFlag) int {
	p, code := m.loadPlanFile(name, "Failed to read the given file as a state or plan file")
	if p == nil {
		return code
	}
	m.sources = p.ConfigSources
	if jsonOut {
		return m.showPlanJSON(ctx, lib, p)
	}
	schemas := m.schemasFor(ctx, lib, p)
	if html.on {
		return m.writeHTML(html.file, func(w io.Writer) error {
			return explorer.WritePlan(ctx, w, p, schemas, explorer.Options{Secrets: m.renderOpts().Secrets, Title: "Cairn plan: " + filepath.Base(name)})
		})
	}
	if err := render.Plan(m.Stdout, p, schemas, m.renderOpts()); err != nil {
		return m.errorf("Failed to render plan", "%s", err)
	}
	return 0
}

// showPlanJSON writes a saved plan's JSON document. Its configuration
// is the one saved in the plan, loaded as apply loads it, and described
// with the schemas of every provider it uses, changed or not.
func (m *Meta) showPlanJSON(ctx context.Context, lib *providers.Library, p *plans.Plan) int {
	cfg, ds := m.loadConfigSources(p.ConfigSources)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	schemas, sds := lib.Schemas(ctx, append(p.Providers(), cfg.Providers()...))
	if sds.HasErrors() {
		return m.fail(sds)
	}
	return m.writeJSON(render.PlanJSON(p, schemas, cfg))
}

// htmlFlag is show's -html: a bare -html writes the page to standard
// output, -html=FILE to FILE.
type htmlFlag struct {
	on   bool
	file string
}

func (h *htmlFlag) String() string { return h.file }

// IsBoolFlag lets -html stand alone, so "show -html PLANFILE" does not
// take the plan file for the page's name.
func (h *htmlFlag) IsBoolFlag() bool { return true }

func (h *htmlFlag) Set(s string) error {
	switch s {
	case "true":
		h.on, h.file = true, ""
	case "false":
		h.on, h.file = false, ""
	case "":
		return errors.New("-html= needs a file name; -html alone writes to standard output")
	default:
		h.on, h.file = true, s
	}
	return nil
}

// writeHTML writes a page with write: to standard output when file is
// empty, else to file (relative to the working directory) through
// writeFileAtomic, so a failure leaves no partial page. A page written
// but incomplete (objects the state's schemas cannot decode) is kept and
// reported as show reports the text.
func (m *Meta) writeHTML(file string, write func(io.Writer) error) int {
	var err error
	if file == "" {
		err = write(m.Stdout)
	} else {
		// A page is a few megabytes at most (10,000 changes): it is
		// built in memory and written once whole.
		var buf bytes.Buffer
		err = write(&buf)
		var unshown *explorer.UnshownError
		if err == nil || errors.As(err, &unshown) {
			path := file
			if !filepath.IsAbs(path) {
				path = filepath.Join(m.Dir, path)
			}
			if werr := writeFileAtomic(path, buf.Bytes(), 0o644); werr != nil {
				err = werr
			}
		}
	}
	var unshown *explorer.UnshownError
	switch {
	case errors.As(err, &unshown):
		return m.errorf("Failed to show the state",
			"Cairn wrote the page, but not all of the state is on it: %s. An object that does not match its resource type's schema was written by another version of the provider; the state file is unchanged.", unshown.Err)
	case err != nil:
		return m.errorf("Failed to write the HTML page", "%s", err)
	}
	return 0
}
