package emulator

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// corpusType is one registry schema and the model the emulator stored
// for a resource created from its synthesised minimal model (nil when
// the create was refused).
type corpusType struct {
	schema *typeSchema
	stored map[string]any
}

// createCorpus creates one resource of every corpus type.
func createCorpus(t *testing.T) map[string]*corpusType {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(corpusDir(), "*.json"))
	if len(files) == 0 {
		t.Skipf("no schemas under %s", corpusDir())
	}
	out := make(map[string]*corpusType, len(files))
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var head struct{ TypeName string }
		if json.Unmarshal(raw, &head) != nil {
			continue
		}
		s, err := parseSchema(head.TypeName, raw)
		if err != nil {
			continue
		}
		ev, stored := createMinimal(t, s, raw)
		if ev.Status != cloudcontrol.StatusSuccess {
			stored = nil
		}
		out[head.TypeName] = &corpusType{schema: s, stored: stored}
	}
	return out
}

// TestCorpusReadOnlyValues holds every read-only value the emulator
// invents, across the whole registry corpus, to the pattern and bounds of
// its own property, and every value another type's relationshipRef says
// it takes to that referrer's pattern and bounds too: an invented ARN or
// id that another schema refuses breaks configurations that pass it on.
func TestCorpusReadOnlyValues(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus: long")
	}
	corpus := createCorpus(t)
	var own, refs []string
	// seen holds the known mismatches that showed.
	seen := map[string]bool{}
	checked := 0
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		ct := corpus[name]
		if ct.stored == nil {
			continue
		}
		for _, p := range ct.schema.readOnly {
			node := ct.schema.property(p)
			if node == nil {
				continue
			}
			for _, v := range valuesAt(ct.stored, p) {
				checked++
				problems := violations(ct.schema, node, v, 0)
				if _, known := knownMismatches[name+" "+p.String()]; known && len(problems) > 0 {
					seen[name+" "+p.String()] = true
					continue
				}
				for _, problem := range problems {
					own = append(own, fmt.Sprintf("%s %s = %s: %s", name, p, jsonText(v), problem))
				}
			}
		}
	}
	refChecked := 0
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		ct := corpus[name]
		for _, ref := range relationshipRefs(ct.schema) {
			target := corpus[ref.typeName]
			if target == nil || target.stored == nil {
				continue
			}
			path, err := cloudcontrol.ParsePropertyPath(ref.propertyPath)
			if err != nil {
				refs = append(refs, fmt.Sprintf("%s %s: relationshipRef %s: %v", name, ref.at, ref.propertyPath, err))
				continue
			}
			for _, v := range valuesAt(target.stored, path) {
				refChecked++
				for _, problem := range violations(ct.schema, ref.node, v, 0) {
					refs = append(refs, fmt.Sprintf("%s %s takes %s %s = %s: %s", name, ref.at, ref.typeName, ref.propertyPath, jsonText(v), problem))
				}
			}
		}
	}
	inferred, named := namedReferrers(corpus, seen)
	t.Logf("%d read-only values checked against their own schema, %d against relationshipRef referrers, %d against referrers by name",
		checked, refChecked, inferred)
	for _, line := range own {
		t.Error("off its own schema: " + line)
	}
	for _, line := range refs {
		t.Error("refused by a referrer: " + line)
	}
	for _, line := range named {
		t.Error("refused by a referrer: " + line)
	}
	for key, reason := range knownMismatches {
		if !seen[key] {
			t.Errorf("%s is listed as a known mismatch (%s) but no longer fails: drop it", key, reason)
		}
	}
}

// knownMismatches are property pairs the check reports where the
// registry, not the emulator, is at fault. The test fails when one no
// longer shows, so the list stays true.
var knownMismatches = map[string]string{
	"AWS::Amplify::Domain /properties/Certificate":    "the registry's CertificateArn pattern is quoted (\"^arn:...$\" with the quotes), which no string matches",
	"AWS::Connect::ApprovedOrigin InstanceId":         "takes the instance's ARN under the name InstanceId (its pattern is an ARN), not the instance's Id",
	"AWS::Connect::IntegrationAssociation InstanceId": "takes the instance's ARN under the name InstanceId, not the instance's Id",
	"AWS::Connect::SecurityKey InstanceId":            "takes the instance's ARN under the name InstanceId, not the instance's Id",
	"AWS::SecurityHub::ConnectorV2 ConnectorArn":      "names a connectorv2, another resource than AWS::SecurityHub::Connector",
}

// namedReferrers checks read-only values against the properties of other
// types of the same service that take them by name, as
// AWS::Connect::TrafficDistributionGroup's InstanceArn takes
// AWS::Connect::Instance's Arn: a top-level property <Resource><Suffix>
// of AWS::S::X refers to AWS::S::<Resource>'s read-only <Suffix> or
// <Resource><Suffix>. It returns how many pairs it checked and the
// failures not in knownMismatches, marking in seen the known ones that
// showed.
func namedReferrers(corpus map[string]*corpusType, seen map[string]bool) (int, []string) {
	byService := map[string][]string{}
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		if parts := strings.Split(name, "::"); len(parts) == 3 {
			byService[parts[0]+"::"+parts[1]] = append(byService[parts[0]+"::"+parts[1]], name)
		}
	}
	checked := 0
	var out []string
	for _, name := range slices.Sorted(maps.Keys(corpus)) {
		referrer := corpus[name]
		parts := strings.Split(name, "::")
		if len(parts) != 3 {
			continue
		}
		props, _ := referrer.schema.doc["properties"].(map[string]any)
		for _, prop := range slices.Sorted(maps.Keys(props)) {
			node, _ := props[prop].(map[string]any)
			for _, other := range byService[parts[0]+"::"+parts[1]] {
				target := corpus[other]
				resource := strings.Split(other, "::")[2]
				suffix, ok := strings.CutPrefix(prop, resource)
				if other == name || !ok || suffix == "" || target.stored == nil {
					continue
				}
				for _, cand := range []string{suffix, resource + suffix} {
					v, ok := target.stored[cand]
					if !ok || !target.schema.isReadOnly(cand) {
						continue
					}
					checked++
					for _, problem := range violations(referrer.schema, node, v, 0) {
						key := name + " " + prop
						seen[key] = true
						if _, known := knownMismatches[key]; !known {
							out = append(out, fmt.Sprintf("%s takes %s %s = %s: %s", key, other, cand, jsonText(v), problem))
						}
					}
				}
			}
		}
	}
	return checked, out
}

// valuesAt returns the values at path in model, through arrays at "*".
func valuesAt(model map[string]any, path cloudcontrol.PropertyPath) []any {
	var out []any
	visitParents(model, path, func(parent map[string]any, key string) {
		if v, ok := parent[key]; ok {
			out = append(out, v)
		}
	})
	return out
}

// violations lists the constraints of node that v fails: type, enum,
// pattern, length, numeric bounds, and the same for the properties and
// items it holds. anyOf/oneOf alternatives are not checked here: the
// relationshipRef inside one is checked with its parent's constraints.
func violations(s *typeSchema, node map[string]any, v any, depth int) []string {
	node = s.deref(node)
	if node == nil || depth > maxGenerateDepth+2 {
		return nil
	}
	var out []string
	if enum, ok := node["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonText(e) == jsonText(v) }) {
		out = append(out, "not one of its enum")
	}
	switch x := v.(type) {
	case string:
		if t := schemaType(node); t != "" && t != "string" {
			out = append(out, "a string where the schema wants "+t)
		}
		if !(&generator{patterns: &patternCache{}}).fits(x, node) {
			out = append(out, fmt.Sprintf("fails pattern %v / length %v..%v", node["pattern"], node["minLength"], node["maxLength"]))
		}
	case json.Number:
		f, _ := x.Float64()
		if min, ok := node["minimum"].(json.Number); ok {
			if m, _ := min.Float64(); f < m {
				out = append(out, "below minimum "+min.String())
			}
		}
		if max, ok := node["maximum"].(json.Number); ok {
			if m, _ := max.Float64(); f > m {
				out = append(out, "above maximum "+max.String())
			}
		}
	case map[string]any:
		props, _ := node["properties"].(map[string]any)
		for _, k := range slices.Sorted(maps.Keys(x)) {
			if sub, ok := props[k].(map[string]any); ok {
				for _, p := range violations(s, sub, x[k], depth+1) {
					out = append(out, k+": "+p)
				}
			}
		}
	case []any:
		if items, ok := node["items"].(map[string]any); ok {
			for i, e := range x {
				for _, p := range violations(s, items, e, depth+1) {
					out = append(out, fmt.Sprintf("[%d]: %s", i, p))
				}
			}
		}
	}
	return out
}

// relationshipRef is one property of a schema documented to take another
// type's property: node holds the constraints the value must meet.
type relationshipRef struct {
	at                     string
	node                   map[string]any
	typeName, propertyPath string
}

// relationshipRefs finds every relationshipRef in a schema's properties
// and definitions. One inside an anyOf or oneOf alternative is held to
// the alternative's constraints merged over its parent's.
func relationshipRefs(s *typeSchema) []relationshipRef {
	var out []relationshipRef
	var walk func(node map[string]any, at string, parent map[string]any)
	walk = func(node map[string]any, at string, parent map[string]any) {
		if r, ok := node["relationshipRef"].(map[string]any); ok {
			typeName, _ := r["typeName"].(string)
			path, _ := r["propertyPath"].(string)
			merged := map[string]any{}
			for k, v := range parent {
				if k != "anyOf" && k != "oneOf" {
					merged[k] = v
				}
			}
			for k, v := range node {
				merged[k] = v
			}
			out = append(out, relationshipRef{at: at, node: merged, typeName: typeName, propertyPath: path})
		}
		for _, key := range []string{"properties", "definitions", "patternProperties"} {
			m, _ := node[key].(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if sub, ok := m[k].(map[string]any); ok {
					walk(sub, at+"/"+key+"/"+cloudcontrol.EscapeToken(k), nil)
				}
			}
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(items, at+"/items", nil)
		}
		for _, alt := range []string{"anyOf", "oneOf", "allOf"} {
			list, _ := node[alt].([]any)
			for i, item := range list {
				if sub, ok := item.(map[string]any); ok {
					walk(sub, fmt.Sprintf("%s/%s/%d", at, alt, i), node)
				}
			}
		}
	}
	walk(s.doc, "", nil)
	return out
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(string(b))
}

// TestConnectReferrers holds the two values issue 21 found breaking
// other Connect types: an instance ARN must end in the UUID that
// AWS::Connect::TrafficDistributionGroup's InstanceArn demands, and a
// module version must be at least the minimum 1 of an alias's
// ContactFlowModuleVersion.
func TestConnectReferrers(t *testing.T) {
	load := func(typeName string) *typeSchema {
		raw, err := os.ReadFile(filepath.Join(corpusDir(), strings.ReplaceAll(typeName, "::", "_")+".json"))
		if err != nil {
			t.Skipf("corpus: %v", err)
		}
		s, err := parseSchema(typeName, raw)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	created := func(s *typeSchema) map[string]any {
		raw, _ := json.Marshal(s.doc)
		ev, stored := createMinimal(t, s, raw)
		mustSucceed(t, "create "+s.typeName, ev)
		return stored
	}
	tdg := load("AWS::Connect::TrafficDistributionGroup")
	alias := load("AWS::Connect::ContactFlowModuleAlias")
	cases := map[string]struct {
		value    any
		referrer *typeSchema
		prop     string
	}{
		"instance ARN in InstanceArn": {created(load("AWS::Connect::Instance"))["Arn"], tdg, "InstanceArn"},
		"module version in an alias":  {created(load("AWS::Connect::ContactFlowModuleVersion"))["Version"], alias, "ContactFlowModuleVersion"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if problems := violations(tc.referrer, tc.referrer.property(propPath{tc.prop}), tc.value, 0); len(problems) > 0 {
				t.Errorf("%s %s refuses %s: %v", tc.referrer.typeName, tc.prop, jsonText(tc.value), problems)
			}
		})
	}
}
