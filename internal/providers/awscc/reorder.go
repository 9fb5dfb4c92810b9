package awscc

import (
	"encoding/json"
	"math/big"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// elementPair is one element of an array read from Cloud Control and the
// prior element it stands for (a zero Value when none).
type elementPair struct {
	remote any
	prior  tftypes.Value
}

// pairElements pairs the elements of an array read from Cloud Control with
// the prior elements of collection type t, and orders them.
//
// An ordered list keeps the service's order and pairs by position: its
// order is meaningful, so a reordering is a real change (awscc reorders
// these too, hiding it). A set or a list whose insertionOrder is false
// follows prior's order: each prior element takes the first remote
// element holding every value it holds (read-only and write-only values
// aside, which prior may lack or the service never returns), and failing
// that the first with the same Key (or key), so that a changed tag stays
// in place; remote elements left over follow in the service's order.
func pairElements(t *cfnschema.Type, remote []any, prior []tftypes.Value) []elementPair {
	out := make([]elementPair, 0, len(remote))
	if t.Kind == cfnschema.KindList && t.ListMode != cfnschema.ListMultiset {
		for i, r := range remote {
			p := elementPair{remote: r}
			if i < len(prior) {
				p.prior = prior[i]
			}
			out = append(out, p)
		}
		return out
	}
	match := make([]int, len(prior)) // remote index of each prior element, -1 when none
	used := make([]bool, len(remote))
	priorJSON := make([]any, len(prior))
	for i, p := range prior {
		match[i] = -1
		priorJSON[i], _, _ = valueJSON(t.Elem, p, toOptions{skipWriteOnly: true})
	}
	pick := func(ok func(r, p any) bool) {
		for i := range prior {
			if match[i] >= 0 || priorJSON[i] == nil {
				continue
			}
			for j, r := range remote {
				if !used[j] && ok(r, priorJSON[i]) {
					match[i], used[j] = j, true
					break
				}
			}
		}
	}
	pick(covers)
	pick(sameKey)
	for i, j := range match {
		if j >= 0 {
			out = append(out, elementPair{remote: remote[j], prior: prior[i]})
		}
	}
	for j, r := range remote {
		if !used[j] {
			out = append(out, elementPair{remote: r})
		}
	}
	return out
}

// covers reports whether the JSON value r holds every value p holds:
// members of objects that p has, arrays element by element, numbers by
// value ("1.0" covers 1).
func covers(r, p any) bool {
	switch pv := p.(type) {
	case map[string]any:
		rv, ok := r.(map[string]any)
		if !ok {
			return false
		}
		for k, pe := range pv {
			re, ok := rv[k]
			if !ok || !covers(re, pe) {
				return false
			}
		}
		return true
	case []any:
		rv, ok := r.([]any)
		if !ok || len(rv) != len(pv) {
			return false
		}
		for i := range pv {
			if !covers(rv[i], pv[i]) {
				return false
			}
		}
		return true
	case json.Number:
		rv, ok := r.(json.Number)
		return ok && numbersEqual(rv, pv)
	}
	return r == p
}

// jsonEqual reports whether two decoded JSON values mean the same.
func jsonEqual(a, b any) bool { return covers(a, b) && covers(b, a) }

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, _, errX := big.ParseFloat(string(a), 10, 256, big.ToNearestEven)
	y, _, errY := big.ParseFloat(string(b), 10, 256, big.ToNearestEven)
	return errX == nil && errY == nil && x.Cmp(y) == 0
}

// sameKey reports whether two objects are key-value pairs with the same
// key, as tags are: {"Key": "env", "Value": "prod"}.
func sameKey(r, p any) bool {
	k, ok := kvKey(p)
	if !ok {
		return false
	}
	rk, ok := kvKey(r)
	return ok && rk == k
}

// kvKey returns the Key (or key) string member of an object.
func kvKey(v any) (string, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", false
	}
	for _, name := range [...]string{"Key", "key"} {
		if k, ok := m[name].(string); ok {
			return k, true
		}
	}
	return "", false
}
