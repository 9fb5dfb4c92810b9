package cfnschema

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
)

// metaArgumentNames are top-level names Terraform reserves in resource
// blocks. awscc refuses to generate a type that has one (it renames only
// provider); so does Cairn, with the reason listed by Catalog.Suppressed.
// connection and provisioner are in the set because the plugin framework
// rejects them at the root as well.
var metaArgumentNames = map[string]bool{
	"count": true, "depends_on": true, "for_each": true, "lifecycle": true,
	"connection": true, "provisioner": true,
}

// assignedName is the Terraform name chosen for one property and why.
type assignedName struct {
	name    string
	reasons []string
}

// assignNames names the properties of one object. Names are chosen per
// object, not in awscc's single flat map per resource, so properties at
// different levels may share a Terraform name (Cognito UserPool's SmsMessage
// and SMSMessage) and a nested Id stays id beside a renamed top-level one:
// the 12 resources awscc suppresses for that reason generate.
//
// At the top level, id is reserved for the Cloud Control identifier, so a
// property named id becomes <resource>_id, and provider becomes
// provider_name. When two properties of one object still map to the same
// name, the one whose name was not renamed keeps it, else the first in byte
// order; the others get _2, _3, ... (WorkSpaces Workspace: WorkspaceId keeps
// workspace_id, the renamed Id becomes workspace_id_2).
func (w *walker) assignNames(props map[string]*node, top bool) map[string]assignedName {
	type candidate struct {
		cfn     string
		base    string
		renamed bool
		reasons []string
	}
	cands := make([]candidate, 0, len(props))
	for _, cfn := range slices.Sorted(maps.Keys(props)) {
		c := candidate{cfn: cfn, base: AttributeName(cfn)}
		if top {
			switch c.base {
			case "id":
				c.base = w.tn.ResourcePart + "_id"
				c.renamed = true
				c.reasons = append(c.reasons, fmt.Sprintf("renamed from id to %s: the top-level id is the Cloud Control identifier", c.base))
			case "provider":
				c.base = "provider_name"
				c.renamed = true
				c.reasons = append(c.reasons, "renamed from provider to provider_name: provider is a Terraform meta-argument")
			}
			if metaArgumentNames[c.base] {
				w.suppress = append(w.suppress, fmt.Sprintf("top-level property %s maps to %q, a name Terraform reserves in resource blocks", cfn, c.base))
			}
		}
		if c.base == "" || isDigit(c.base[0]) {
			c.reasons = append(c.reasons, fmt.Sprintf("prefixed with _: %q is not a valid Terraform attribute name", c.base))
			c.base = "_" + c.base
		}
		cands = append(cands, c)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].renamed != cands[j].renamed {
			return !cands[i].renamed
		}
		return cands[i].cfn < cands[j].cfn
	})
	used := make(map[string]string, len(cands))
	out := make(map[string]assignedName, len(cands))
	var losers []candidate
	for _, c := range cands {
		if _, taken := used[c.base]; taken {
			losers = append(losers, c)
			continue
		}
		used[c.base] = c.cfn
		out[c.cfn] = assignedName{c.base, c.reasons}
	}
	for _, c := range losers {
		name := c.base
		for i := 2; ; i++ {
			name = c.base + "_" + strconv.Itoa(i)
			if _, taken := used[name]; !taken {
				break
			}
		}
		used[name] = c.cfn
		reasons := append(c.reasons, fmt.Sprintf("named %s because %s already maps to %s at this level", name, c.base, used[c.base]))
		out[c.cfn] = assignedName{name, reasons}
	}
	return out
}
