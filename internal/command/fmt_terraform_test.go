package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestFmtMatchesTerraform formats each sample under testdata/fmt with
// Terraform 1.5.7 and with Cairn, through stdin, and requires the same
// bytes, so Cairn's legacy-form rewrites track Terraform's. Skipped when
// Terraform 1.5.7 is not installed (make test installs it).
func TestFmtMatchesTerraform(t *testing.T) {
	tf := terraformBinary()
	if tf == "" {
		t.Skip("Terraform 1.5.7 is not installed (make test installs it)")
	}
	samples, err := filepath.Glob("testdata/fmt/*")
	if err != nil || len(samples) == 0 {
		t.Fatalf("no samples under testdata/fmt: %v", err)
	}
	for _, sample := range samples {
		t.Run(filepath.Base(sample), func(t *testing.T) {
			src, err := os.ReadFile(sample)
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(tf, "fmt", "-no-color", "-")
			cmd.Stdin = bytes.NewReader(src)
			cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
			var tfOut, tfErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &tfOut, &tfErr
			tfCode := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("running terraform: %v", err)
				}
				tfCode = ee.ExitCode()
			}
			var out, errOut bytes.Buffer
			code := Run([]string{"-no-color", "fmt", "-"}, Streams{Stdin: bytes.NewReader(src), Stdout: &out, Stderr: &errOut})
			if code != tfCode {
				t.Errorf("exit code: terraform %d, cairn %d\nterraform stderr:\n%s\ncairn stderr:\n%s", tfCode, code, tfErr.String(), errOut.String())
			}
			if diff := cmp.Diff(tfOut.String(), out.String()); diff != "" {
				t.Errorf("formatted output (-terraform +cairn):\n%s", diff)
			}
		})
	}
}

// TestFormatSource checks the rewrites Terraform's fmt makes beyond
// hclwrite's layout, and that it leaves alone what it must not rewrite.
func TestFormatSource(t *testing.T) {
	tests := map[string]struct {
		reason string
		src    string
		want   string
	}{
		"unwrap": {
			reason: "a lone interpolation becomes the bare expression",
			src:    "a = \"${var.x}\"\n",
			want:   "a = var.x\n",
		},
		"template kept": {
			reason: "literal text around an interpolation keeps the template",
			src:    "a = \"x-${var.x}\"\n",
			want:   "a = \"x-${var.x}\"\n",
		},
		"two interpolations kept": {
			reason: "two interpolations are a string concatenation, not one expression",
			src:    "a = \"${var.x}${var.y}\"\n",
			want:   "a = \"${var.x}${var.y}\"\n",
		},
		"multi-line parenthesised": {
			reason: "an unwrapped multi-line expression needs parentheses to parse",
			src:    "a = \"${var.x ?\n1 : 2}\"\n",
			want:   "a = (var.x ?\n1 : 2)\n",
		},
		"legacy quoted type": {
			reason: "0.11 quoted types become keywords; collections of strings",
			src:    "variable \"v\" {\n  type = \"list\"\n}\n",
			want:   "variable \"v\" {\n  type = list(string)\n}\n",
		},
		"bare collection type": {
			reason: "a bare collection keyword means any elements",
			src:    "variable \"v\" {\n  type = map\n}\n",
			want:   "variable \"v\" {\n  type = map(any)\n}\n",
		},
		"type outside variable": {
			reason: "only a top-level variable block's type is a type expression",
			src:    "resource \"x\" \"y\" {\n  type = \"string\"\n}\n",
			want:   "resource \"x\" \"y\" {\n  type = \"string\"\n}\n",
		},
		"bare labels quoted": {
			reason: "labels are rewritten in the quoted form",
			src:    "resource x y {\n}\n",
			want:   "resource \"x\" \"y\" {\n}\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := string(formatSource([]byte(tc.src), "test.tf"))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// FuzzFormatSource: formatting never panics, and source that parses still
// parses after formatting (unwrapping "${...}" must not break it).
func FuzzFormatSource(f *testing.F) {
	samples, _ := filepath.Glob("testdata/fmt/*")
	for _, s := range samples {
		if src, err := os.ReadFile(s); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("a = \"${x ?\n1 : 2}\"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, ds := hclsyntax.ParseConfig(src, "f.tf", hcl.InitialPos); ds.HasErrors() {
			return
		}
		out := formatSource(src, "f.tf")
		if _, ds := hclsyntax.ParseConfig(out, "f.tf", hcl.InitialPos); ds.HasErrors() {
			t.Errorf("formatted source does not parse: %s\ninput:\n%s\noutput:\n%s", ds.Error(), src, out)
		}
	})
}
