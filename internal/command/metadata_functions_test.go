package command

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/google/go-cmp/cmp"
	tfjson "github.com/hashicorp/terraform-json"
)

// functionsDifferences are the signatures of functions Cairn shares with
// a reference tool that differ on purpose, by tool ("terraform",
// "opentofu") and function, with the reason. Descriptions are never
// compared: Cairn's are its own words or its libraries', not copies of
// the tools' prose.
var functionsDifferences = map[string]map[string]string{
	"terraform": {
		// go-cty 1.19's contains accepts a null value to look for;
		// Terraform 1.5.7 and OpenTofu 1.12.6 link older go-cty.
		"contains": "value is nullable",
		// go-cty's format and formatlist now declare their result
		// type; Terraform 1.5.7's older go-cty said dynamic. OpenTofu
		// 1.12.6 writes string and list(string), as Cairn does.
		"format":     "returns string",
		"formatlist": "returns list(string)",
	},
	"opentofu": {
		"contains": "value is nullable",
		// Cairn names templatestring's first parameter "template",
		// in its errors too; OpenTofu names it "data".
		"templatestring": "first parameter named template",
	},
}

// runMetadataFunctionsJSON runs `metadata functions -json` with prog (""
// for Cairn in-process) and decodes it with terraform-json, as editors'
// tools do.
func runMetadataFunctionsJSON(t *testing.T, prog string) *tfjson.MetadataFunctions {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if prog == "" {
		code := Run([]string{"metadata", "functions", "-json"}, Streams{
			Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
		})
		if code != 0 {
			t.Fatalf("cairn metadata functions -json: exit %d\n%s", code, stderr.String())
		}
	} else {
		cmd := exec.Command(prog, "metadata", "functions", "-json")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE=/dev/null", "TOFU_CLI_CONFIG_FILE=/dev/null", "CHECKPOINT_DISABLE=1")
		cmd.Stdout, cmd.Stderr = &stdout, io.Discard
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s metadata functions -json: %v", prog, err)
		}
	}
	var doc tfjson.MetadataFunctions
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("terraform-json cannot read the document: %v\n%s", err, stdout.String())
	}
	return &doc
}

// signatureWithoutProse is a function's signature without its
// descriptions, as JSON.
func signatureWithoutProse(t *testing.T, sig *tfjson.FunctionSignature) string {
	t.Helper()
	s := *sig
	s.Description, s.Summary = "", ""
	strip := func(p *tfjson.FunctionParameter) *tfjson.FunctionParameter {
		if p == nil {
			return nil
		}
		q := *p
		q.Description = ""
		return &q
	}
	s.Parameters = nil
	for _, p := range sig.Parameters {
		s.Parameters = append(s.Parameters, strip(p))
	}
	s.VariadicParameter = strip(sig.VariadicParameter)
	b, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMetadataFunctionsMatchTools compares `metadata functions -json`
// with Terraform 1.5.7's and OpenTofu 1.12.6's (each skipped when not
// installed): the same format version, every function the tool lists
// listed by Cairn, and the same signature (parameter names, types,
// nullability, variadic parameter, return type) for each, but for the
// differences of functionsDifferences, which must still be differences.
func TestMetadataFunctionsMatchTools(t *testing.T) {
	cairn := runMetadataFunctionsJSON(t, "")
	tofu, _ := testproviders.OpenTofu()
	for name, prog := range map[string]string{"terraform": terraformBinary(), "opentofu": tofu} {
		t.Run(name, func(t *testing.T) {
			if prog == "" {
				t.Skipf("%s is not installed (make test installs it)", name)
			}
			ref := runMetadataFunctionsJSON(t, prog)
			if ref.FormatVersion != cairn.FormatVersion {
				t.Errorf("format_version %q, %s writes %q", cairn.FormatVersion, name, ref.FormatVersion)
			}
			for fn, want := range ref.Signatures {
				got, ok := cairn.Signatures[fn]
				if !ok {
					t.Errorf("%s: %s has it, Cairn does not", fn, name)
					continue
				}
				diff := cmp.Diff(signatureWithoutProse(t, want), signatureWithoutProse(t, got))
				_, kept := functionsDifferences[name][strings.TrimPrefix(fn, "core::")]
				switch {
				case diff != "" && !kept:
					t.Errorf("%s: signature differs from %s's (-%s +cairn):\n%s", fn, name, name, diff)
				case diff == "" && kept:
					t.Errorf("%s: signature is %s's now; remove it from functionsDifferences", fn, name)
				}
			}
		})
	}
}

// TestMetadataFunctionsNeedsJSON: like both tools, the command prints
// JSON only.
func TestMetadataFunctionsNeedsJSON(t *testing.T) {
	var stderr bytes.Buffer
	code := Run([]string{"metadata", "functions"}, Streams{
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr,
		Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
	})
	if code != 1 || !strings.Contains(stderr.String(), "The -json flag is required") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
}
