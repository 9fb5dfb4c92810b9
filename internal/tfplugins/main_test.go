package tfplugins

import (
	"bytes"
	"strings"
	"testing"
)

// TestMainRefuses: run by hand (no magic cookie) or with an argument, the
// plugin explains itself on stderr and exits 1 instead of serving.
func TestMainRefuses(t *testing.T) {
	cases := map[string]struct {
		reason string
		args   []string
		env    map[string]string
		want   string
	}{
		"by hand": {
			reason: "Without Terraform's magic cookie the process says what it is.",
			want:   "Error: Not launched by Terraform\n\ncairn provider serve awscc is a Terraform plugin",
		},
		"argument": {
			reason: "The binary takes flags only; Terraform passes none.",
			args:   []string{"awscc"},
			want:   "Error: Unexpected argument\n\nterraform-provider-awscc takes only flags, not \"awscc\".",
		},
		"bad flag": {
			reason: "An unknown flag is reported by the flag package.",
			args:   []string{"-nope"},
			want:   "flag provided but not defined: -nope",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var stderr bytes.Buffer
			getenv := func(k string) string { return tc.env[k] }
			if code := Main(tc.args, getenv, &stderr); code != 1 {
				t.Errorf("%s\nexit code %d, want 1", tc.reason, code)
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("%s\nstderr:\n%s\nwant it to contain %q", tc.reason, stderr.String(), tc.want)
			}
		})
	}
}
