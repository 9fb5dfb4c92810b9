package explorer

import (
	"bufio"
	"context"
	"embed"
	"html/template"
	"io"

	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

//go:embed assets
var assets embed.FS

// pageTemplate is parsed for each page: parsing takes microseconds, and a
// package-level template would be a global.
func pageTemplate() (*template.Template, error) {
	css, err := assets.ReadFile("assets/page.css")
	if err != nil {
		return nil, err
	}
	js, err := assets.ReadFile("assets/page.js")
	if err != nil {
		return nil, err
	}
	return template.New("page.html.tmpl").Funcs(template.FuncMap{
		// The style sheet, script and drawing are the package's own
		// (embedded, or written by graphsvg, which escapes its text),
		// not data: they are inlined as they are.
		"css": func() template.CSS { return template.CSS(css) },
		"js":  func() template.JS { return template.JS(js) },
		"svg": func(s string) template.HTML { return template.HTML(s) },
		// The graph's node kinds the legend explains.
		"kinds": func() []string {
			return []string{"create", "update", "replace", "delete", "read", "provider", "output"}
		},
		// The filter names of actions, in the summary's order.
		"actions": func() []string {
			return []string{"add", "change", "replace", "destroy", "read", "import", "move", "forget"}
		},
	}).ParseFS(assets, "assets/page.html.tmpl")
}

// WritePlan writes the page of a saved plan to w.
func WritePlan(ctx context.Context, w io.Writer, p *plans.Plan, schemas providers.Schemas, opts Options) error {
	pg, err := planPage(ctx, p, schemas, opts)
	if err != nil {
		return err
	}
	return pg.write(w)
}

// WriteState writes the page of a state to w. Objects that cannot be
// shown are listed on the page as problems and returned as the error,
// after the rest is written, as render.State does.
func WriteState(ctx context.Context, w io.Writer, s *states.State, schemas providers.Schemas, opts Options) error {
	pg, unshown, err := statePage(ctx, s, schemas, opts)
	if err != nil {
		return err
	}
	if err := pg.write(w); err != nil {
		return err
	}
	if unshown != nil {
		return &UnshownError{Err: unshown}
	}
	return nil
}

// UnshownError is WriteState's report of objects the page could not
// show; the page was written, with the rest.
type UnshownError struct{ Err error }

func (e *UnshownError) Error() string { return e.Err.Error() }
func (e *UnshownError) Unwrap() error { return e.Err }

// write executes the template; the model is encoded as JSON by
// html/template, which escapes what could end the script element.
func (pg *page) write(w io.Writer) error {
	t, err := pageTemplate()
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := t.Execute(bw, pg); err != nil {
		return err
	}
	return bw.Flush()
}
