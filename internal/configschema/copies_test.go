package configschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestCopyMarks(t *testing.T) {
	str := cty.StringVal
	secret := str("hunter2").Mark(SensitiveMark)
	tag := func(k, v cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"key": k, "value": v}) }
	tags := func(elems ...cty.Value) cty.Value { return cty.ListVal(elems) }
	obj := func(from, to cty.Value) cty.Value { return cty.ObjectVal(map[string]cty.Value{"from": from, "to": to}) }
	engine := &Block{Copies: []Copy{{From: "from", To: "to"}}}
	human := &Block{Copies: []Copy{{From: "from", To: "to", HumanOnly: true}}}
	defaults := &Block{Copies: []Copy{{From: "from", To: "to", FromProvider: "default_tags"}}}
	providerConfig := func(token cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"region":       str("hunter-region").Mark(SensitiveMark),
			"default_tags": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"tags": cty.MapVal(map[string]cty.Value{"token": token, "team": str("core")})})}),
		})
	}
	tests := map[string]struct {
		reason   string
		block    *Block
		human    bool
		provider cty.Value
		v        cty.Value
		want     []string
	}{
		"from the provider": {
			reason:   "a sensitive default tag the provider merges in makes its copy sensitive, though the resource's own tags hold no secret",
			block:    defaults,
			provider: providerConfig(str("hunter2").Mark(SensitiveMark)),
			v:        obj(tags(tag(str("plain"), str("p"))), tags(tag(str("plain"), str("p")), tag(str("team"), str("core")), tag(str("token"), str("hunter2")))),
			want:     []string{".to[2].value: sensitive"},
		},
		"from the provider, elsewhere": {
			reason:   "only the declared part of the provider configuration is a source: a sensitive region is not a tag",
			block:    defaults,
			provider: providerConfig(str("hunter2")),
			v:        obj(tags(tag(str("plain"), str("p"))), tags(tag(str("where"), str("hunter-region")), tag(str("token"), str("hunter2")))),
			want:     nil,
		},
		"from the provider, undeclared": {
			reason:   "a copy not declared FromProvider ignores the provider configuration",
			block:    engine,
			provider: providerConfig(str("hunter2").Mark(SensitiveMark)),
			v:        obj(tags(tag(str("plain"), str("p"))), tags(tag(str("token"), str("hunter2")))),
			want:     nil,
		},
		"whole": {
			reason: "a sensitive source makes the whole copy sensitive",
			block:  engine, v: obj(secret, str("hunter2")),
			want: []string{".from: sensitive", ".to: sensitive"},
		},
		"same path": {
			reason: "a sensitive part makes the same part of the copy sensitive, not the rest",
			block:  engine,
			v:      obj(tags(tag(str("pw"), secret)), tags(tag(str("pw"), str("hunter2")), tag(str("team"), str("core")))),
			want:   []string{".from[0].value: sensitive", ".to[0].value: sensitive"},
		},
		"moved": {
			reason: "a string copied to another place (default tags first) is found by its value; what is at the source's place is not a copy",
			block:  engine,
			v:      obj(tags(tag(str("pw"), secret)), tags(tag(str("team"), str("core")), tag(str("pw"), str("hunter2")))),
			want:   []string{".from[0].value: sensitive", ".to[1].value: sensitive"},
		},
		"into a set": {
			reason: "a copy in a set marks the set",
			block:  engine,
			v: obj(tags(tag(str("pw"), secret)),
				cty.SetVal([]cty.Value{tag(str("pw"), str("hunter2")), tag(str("team"), str("core"))})),
			want: []string{".from[0].value: sensitive", ".to: sensitive"},
		},
		"from a set": {
			reason: "the strings of a wholly sensitive source are all secrets; the copy is not the source, so it is not marked whole",
			block:  engine,
			v: obj(cty.SetVal([]cty.Value{tag(str("pw"), str("hunter2"))}).Mark(SensitiveMark),
				tags(tag(str("pw"), str("hunter2")), tag(str("team"), str("core")))),
			want: []string{".from: sensitive", ".to[0].key: sensitive", ".to[0].value: sensitive"},
		},
		"human only, engine": {
			reason: "the engine keeps Terraform's marks for a copy declared HumanOnly",
			block:  human, v: obj(secret, str("hunter2")),
			want: []string{".from: sensitive"},
		},
		"human only, human": {
			block: human, human: true, v: obj(secret, str("hunter2")),
			want: []string{".from: sensitive", ".to: sensitive"},
		},
		"unknown copy": {
			reason: "an unknown copy is left alone",
			block:  engine, v: obj(secret, cty.UnknownVal(cty.String)),
			want: []string{".from: sensitive"},
		},
		"nothing sensitive": {
			block: engine, v: obj(str("hunter2"), str("hunter2")),
			want: nil,
		},
		"no copies": {
			block: &Block{}, v: obj(secret, str("hunter2")),
			want: []string{".from: sensitive"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			u, pvm := tc.v.UnmarkDeepWithPaths()
			provider := tc.provider
			more := tc.block.CopyMarks(u, pvm, tc.human, provider)
			got := markedPaths(u.MarkWithPaths(append(pvm, more...)))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
			// The marks are stored as they are: each path once, and
			// marking again adds nothing.
			if len(pvm)+len(more) != len(got) {
				t.Errorf("CopyMarks repeated a path: %d marks for %d paths", len(pvm)+len(more), len(got))
			}
			all := append(pvm, more...)
			if again := tc.block.CopyMarks(u, all, tc.human, provider); len(again) > 0 {
				t.Errorf("CopyMarks over its own marks added %d", len(again))
			}
		})
	}
}

func TestSecretPaths(t *testing.T) {
	b := &Block{Attributes: map[string]*Attribute{
		"token":  {Type: cty.String, Optional: true, Masked: true},
		"pass":   {Type: cty.String, Optional: true, Sensitive: true},
		"plain":  {Type: cty.String, Optional: true},
		"nested": {NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{"key": {Type: cty.String, Optional: true, Masked: true}}}},
	}}
	v := cty.ObjectVal(map[string]cty.Value{
		"token": cty.StringVal("t"), "pass": cty.StringVal("p"), "plain": cty.StringVal("x"),
		"nested": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("k")})}),
	})
	if diff := cmp.Diff([]string{".pass"}, pathStrings(b.SensitivePaths(v))); diff != "" {
		t.Errorf("SensitivePaths: masked attributes are not sensitive (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".nested[0].key", ".pass", ".token"}, pathStrings(b.SecretPaths(v))); diff != "" {
		t.Errorf("SecretPaths (-want +got):\n%s", diff)
	}
	if !b.HasSecret() || !b.HasSensitive() {
		t.Errorf("HasSecret, HasSensitive = %v, %v; want true, true", b.HasSecret(), b.HasSensitive())
	}
	masked := &Block{Attributes: map[string]*Attribute{"token": {Type: cty.String, Optional: true, Masked: true}}}
	if masked.HasSensitive() {
		t.Error("a masked attribute made the block HasSensitive")
	}
	// Secrets: the schema's secret attributes, marked or not, and any
	// marked part; nothing else.
	marked := cty.ObjectVal(map[string]cty.Value{
		"token": cty.StringVal("t"), "pass": cty.StringVal("p"), "plain": cty.StringVal("x-from-variable").Mark(SensitiveMark),
		"nested": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("k")})}),
	})
	s := b.Secrets(marked)
	for _, want := range []string{"t", "p", "k", "x-from-variable"} {
		if !s.Is(want) {
			t.Errorf("Secrets does not hold %q", want)
		}
	}
	if s := b.Secrets(v); s.Is("x") || s.Len() != 3 {
		t.Errorf("Secrets of the unmarked value: %d secrets (want 3), plain one held: %v", s.Len(), s.Is("x"))
	}
}

func TestOutsideCopies(t *testing.T) {
	b := &Block{Copies: []Copy{{From: "tags", To: "tags_all"}, {From: "input", To: "output", HumanOnly: true}}}
	m := func(p cty.Path) cty.PathValueMarks {
		return cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)}
	}
	pvm := []cty.PathValueMarks{m(cty.GetAttrPath("tags").IndexInt(0)), m(cty.GetAttrPath("tags_all").IndexInt(1)), m(cty.GetAttrPath("output"))}
	var got []cty.Path
	for _, pm := range b.OutsideCopies(pvm) {
		got = append(got, pm.Path)
	}
	if diff := cmp.Diff([]string{".output", ".tags[0]"}, pathStrings(got)); diff != "" {
		t.Errorf("OutsideCopies drops the engine's copies' marks only (-want +got):\n%s", diff)
	}
}
