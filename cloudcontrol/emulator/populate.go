package emulator

import (
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// populate fills a new model with what AWS would assign: names for
// identifiers the caller left out, read-only values, and the type's
// server-side defaults. It runs in a fixed order so that the same seed
// gives the same model: identifiers first, because ARNs and host names
// are built from them.
func (g *generator) populate(shapes map[string]shape) {
	s := g.s
	for _, p := range s.primary {
		if len(p) == 1 && !s.isReadOnly(p[0]) && !isARNName(p[0]) {
			if _, ok := g.model[p[0]]; !ok {
				g.model[p[0]] = g.generatedName(p[0])
			}
		}
	}
	g.name = g.knownName()
	for _, p := range s.primary {
		if len(p) == 1 && s.isReadOnly(p[0]) && !isARNName(p[0]) {
			g.setAbsent(p[0], shapes)
			if g.name == "" {
				g.name = g.knownName()
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		if !s.isReadOnly(name) {
			g.setAbsent(name, shapes)
		}
	}
	// Ids before ARNs: an ARN names the resource by its id when it has
	// one (a Connect instance's ARN ends in the instance's UUID).
	for _, arns := range []bool{false, true} {
		for _, p := range s.readOnly {
			if len(p) == 1 && isARNName(p[0]) == arns {
				g.setAbsent(p[0], shapes)
			}
		}
	}
	for _, p := range s.primary {
		// A writable ARN identifier the caller left out.
		if len(p) == 1 {
			g.setAbsent(p[0], shapes)
		}
	}
	g.populateNestedIdentifiers()
	g.populateNested()
}

// populateNestedIdentifiers fills primary identifiers that live inside an
// object (QuickSight's Schedule/ScheduleId), making the objects that hold
// them: without the identifier there is no resource.
func (g *generator) populateNestedIdentifiers() {
	for _, p := range g.s.primary {
		if len(p) < 2 || slices.Contains(p, "*") {
			continue
		}
		if _, ok := getPath(g.model, p); ok {
			continue
		}
		obj := g.model
		for _, seg := range p[:len(p)-1] {
			next, ok := obj[seg].(map[string]any)
			if !ok {
				if _, taken := obj[seg]; taken {
					return
				}
				next = map[string]any{}
				obj[seg] = next
			}
			obj = next
		}
		obj[p[len(p)-1]] = g.value(p[len(p)-1], g.s.property(p), 1)
	}
}

// populateNested fills read-only values inside objects the model holds
// (VpcEncryptionControl/State, Rules/*/Id): only where the parent exists.
func (g *generator) populateNested() {
	for _, p := range g.s.readOnly {
		if len(p) < 2 {
			continue
		}
		node := g.s.property(p)
		name := p[len(p)-1]
		// A nested copy of a top-level identifier (VpcEncryptionControl's
		// VpcId) names the resource itself.
		own, isOwn := g.model[name]
		isOwn = isOwn && g.s.isPrimary(name)
		visitParents(g.model, p, func(parent map[string]any, key string) {
			if _, ok := parent[key]; ok {
				return
			}
			if isOwn {
				parent[key] = deepCopy(own)
			} else {
				parent[key] = g.value(name, node, 1)
			}
		})
	}
}

// setAbsent sets a top-level property the model lacks, from the type's
// shape table or else the generic rules. A shape may decline with nil.
func (g *generator) setAbsent(name string, shapes map[string]shape) {
	if _, ok := g.model[name]; ok {
		return
	}
	var v any
	if f, ok := shapes[name]; ok {
		v = f(g)
	} else if node := g.s.property(propPath{name}); node != nil {
		v = g.value(name, node, 0)
	}
	// A pointer to a property the schema does not describe (a few
	// registry schemas list such read-only names) invents nothing: the
	// model would fail its own additionalProperties.
	if v != nil {
		g.model[name] = v
	}
}

// knownName is the value of the first primary identifier that is not an
// ARN, which ARNs and host names embed; "" when there is none yet.
func (g *generator) knownName() string {
	for _, p := range g.s.primary {
		if isARNName(p[len(p)-1]) {
			continue
		}
		if v, ok := getPath(g.model, p); ok {
			if text, _ := cloudcontrol.ScalarText(v); text != "" {
				return text
			}
		}
	}
	return ""
}

// generatedName invents a name for a writable identifier the caller left
// out, as CloudFormation does: the resource kind and a random suffix,
// lowercased or shortened when the property's pattern or length demand.
func (g *generator) generatedName(name string) any {
	node := g.s.property(propPath{name})
	if node == nil {
		node = map[string]any{}
	}
	if t := schemaType(node); t != "" && t != "string" {
		return g.value(name, node, 0)
	}
	v := g.s.resource + "-" + g.chars(upperAlnum, 12)
	if g.s.typeName == "AWS::S3::Bucket" {
		// Bucket names are DNS labels; the schema says so only in prose.
		v = strings.ToLower(v)
	}
	if n, ok := intOf(node["maxLength"]); ok && n > 0 && len(v) > n {
		v = strings.TrimLeft(v[len(v)-n:], "-")
	}
	return g.fit(v, node)
}

// isARNName reports whether a property name says it holds an ARN.
func isARNName(name string) bool {
	return strings.HasSuffix(name, "Arn") || strings.HasSuffix(name, "ARN")
}
