package eval

import "github.com/hashicorp/hcl/v2"

// emptyBody is the body of a provider configuration that has no block: it
// decodes like an empty block, so required arguments are still reported.
type emptyBody struct{}

func (emptyBody) Content(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) {
	c, _, d := emptyBody{}.PartialContent(s)
	return c, d
}

func (emptyBody) PartialContent(s *hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	var ds hcl.Diagnostics
	for _, a := range s.Attributes {
		if a.Required {
			ds = append(ds, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Missing required argument",
				Detail: "The argument \"" + a.Name + "\" is required, but no definition was found. Add a provider block that sets it."})
		}
	}
	return &hcl.BodyContent{Attributes: hcl.Attributes{}}, emptyBody{}, ds
}

func (emptyBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) { return hcl.Attributes{}, nil }

func (emptyBody) MissingItemRange() hcl.Range { return hcl.Range{Filename: "<empty>"} }
