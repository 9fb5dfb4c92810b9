package awscc

import (
	"fmt"

	"github.com/cairn-iac/cairn/cfnschema"
)

// NewFromCatalog returns the provider serving the types of a catalog the
// caller assembled (built-in schemas with overlays, say). problems are the
// diagnostics of loading it, served as one warning like New's; origin
// names where the schemas came from in that warning. The error says the
// catalog serves nothing at all.
func NewFromCatalog(catalog *cfnschema.Catalog, problems cfnschema.Diagnostics, origin string) (*Provider, error) {
	if len(catalog.Types()) == 0 && len(problems.Errors()) > 0 {
		return nil, fmt.Errorf("no loadable CloudFormation schema in %s: %s", origin, problems.Errors()[0])
	}
	p := newProvider(origin, problems)
	p.catalog = catalog
	return p, nil
}

// CatalogSource is where a run's CloudFormation schemas come from
// (cfnsources.Sources): it loads the types keep accepts and names itself
// in messages.
type CatalogSource interface {
	Load(keep func(typeName string) bool) (*cfnschema.Catalog, cfnschema.Diagnostics, error)
	Describe() string
}

// Load returns the provider serving the types of src that keep accepts
// (every type when keep is nil): the one way every binary assembles it.
func Load(src CatalogSource, keep func(typeName string) bool) (*Provider, error) {
	catalog, problems, err := src.Load(keep)
	if err != nil {
		return nil, err
	}
	return NewFromCatalog(catalog, problems, src.Describe())
}
