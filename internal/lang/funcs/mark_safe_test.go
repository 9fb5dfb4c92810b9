package funcs

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// quoting is a stand-in for a library function whose messages quote its
// argument, in both its type check and its implementation.
func quoting(allowMarked bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "flag", Type: cty.Bool},
			{Name: "s", Type: cty.String, AllowMarked: allowMarked},
		},
		Type: func(args []cty.Value) (cty.Type, error) {
			if s, _ := args[1].Unmark(); s.IsKnown() && s.AsString() == "bad type" {
				return cty.NilType, function.NewArgErrorf(1, "type check refuses %q", s.AsString())
			}
			return cty.String, nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, marks := args[1].Unmark()
			if s.AsString() == "bad" || s.AsString() == secretText {
				return cty.NilVal, function.NewArgErrorf(1, "cannot use %q", s.AsString())
			}
			if args[0].False() {
				return cty.NilVal, fmt.Errorf("flag off for %q", s.AsString())
			}
			return s.WithMarks(marks), nil
		},
	})
}

func TestMarkSafe(t *testing.T) {
	secret := sens(cty.StringVal(secretText))
	cases := map[string]struct {
		reason      string
		allowMarked bool
		args        []cty.Value
		want        cty.Value
		wantErr     string
		wantArgIdx  int // for an ArgError; -1 for any other error
	}{
		"plain value": {
			reason: "results are the library's",
			args:   []cty.Value{cty.True, cty.StringVal("x")},
			want:   cty.StringVal("x"),
		},
		"sensitive value": {
			reason: "the machinery's marking is kept",
			args:   []cty.Value{cty.True, sens(cty.StringVal("x"))},
			want:   sens(cty.StringVal("x")),
		},
		"error without secrets": {
			reason:     "messages stay as they are when nothing is sensitive",
			args:       []cty.Value{cty.True, cty.StringVal("bad")},
			wantErr:    `cannot use "bad"`,
			wantArgIdx: 1,
		},
		"error quoting a secret": {
			reason:     "the message is replaced, the argument it blames is kept",
			args:       []cty.Value{cty.True, secret},
			wantErr:    hiddenReason,
			wantArgIdx: 1,
		},
		"error elsewhere with a secret present": {
			reason:     "any sensitive argument hides any message: another argument's message may quote it",
			args:       []cty.Value{cty.False, sens(cty.StringVal("ok"))},
			wantErr:    hiddenReason,
			wantArgIdx: -1,
		},
		"type check error quoting a secret": {
			args:       []cty.Value{cty.True, sens(cty.StringVal("bad type"))},
			wantErr:    hiddenReason,
			wantArgIdx: 1,
		},
		"unknown marked argument, library takes marks": {
			reason:      "the machinery answers unknown without the marks of a marks-taking parameter; markSafe adds them",
			allowMarked: true,
			args:        []cty.Value{cty.True, sens(cty.UnknownVal(cty.String))},
			want:        sens(cty.UnknownVal(cty.String)),
		},
		"unknown other argument, library takes marks": {
			reason:      "an unknown elsewhere also makes the machinery drop the marked argument's marks",
			allowMarked: true,
			args:        []cty.Value{cty.UnknownVal(cty.Bool), sens(cty.StringVal("x"))},
			want:        sens(cty.UnknownVal(cty.String)),
		},
		"unknown argument, library does not take marks": {
			reason: "the machinery keeps these marks itself",
			args:   []cty.Value{cty.True, sens(cty.UnknownVal(cty.String))},
			want:   sens(cty.UnknownVal(cty.String)),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := markSafe(quoting(tc.allowMarked)).Call(tc.args)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("%s: got %#v, want error %q", tc.reason, got, tc.wantErr)
				}
				if diff := cmp.Diff(tc.wantErr, err.Error()); diff != "" {
					t.Errorf("%s\nmessage (-want +got):\n%s", tc.reason, diff)
				}
				idx := -1
				var argErr function.ArgError
				if errors.As(err, &argErr) {
					idx = argErr.Index
				}
				if diff := cmp.Diff(tc.wantArgIdx, idx); diff != "" {
					t.Errorf("%s\nargument index (-want +got):\n%s", tc.reason, diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %s", tc.reason, err)
			}
			if !got.RawEquals(tc.want) {
				t.Errorf("%s\n(-want +got):\n%s", tc.reason, cmp.Diff(tc.want.GoString(), got.GoString()))
			}
		})
	}
}

// TestTableFunctionsAreMarkSafe guards the promise that every function in
// the table either goes through markSafe or handles marks itself: a
// function added after the wrapping loop in Table would fail here.
func TestTableFunctionsAreMarkSafe(t *testing.T) {
	for name, fn := range Table(t.TempDir()) {
		if handlesOwnMarks(strings.TrimPrefix(name, CoreNamespace)) {
			continue
		}
		params := fn.Params()
		if vp := fn.VarParam(); vp != nil {
			params = append(params, *vp)
		}
		for _, p := range params {
			if !p.AllowMarked || !p.AllowUnknown {
				t.Errorf("%s: parameter %q is not wrapped by markSafe", name, p.Name)
			}
		}
	}
}
