package testfiles

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/plans"
)

func TestParse(t *testing.T) {
	src := `variables {
  b = 2
  a = "x"
}

run "first" {
  command = plan
  variables {
    c = run.zero.out
  }
  plan_options {
    mode    = refresh-only
    refresh = false
    replace = [terraform_data.a]
    target  = [terraform_data.a, module.m]
  }
  expect_failures = [var.a, output.o, check.c]
  assert {
    condition     = var.a == "x"
    error_message = "bad"
  }
}

run "second" {
  module {
    source  = "./m"
  }
  override_resource {
    target          = terraform_data.a
    values          = { output = "o" }
    override_during = plan
  }
}

mock_provider "aws" {
  alias = "mock"
  mock_resource "aws_s3_bucket" {
    defaults = { arn = "arn:x" }
  }
  mock_data "aws_caller_identity" {}
}
`
	f, ds := Parse("a.tftest.hcl", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("diagnostics: %v", ds)
	}
	if len(f.Variables) != 2 || f.Variables[0].Name != "a" {
		t.Errorf("file variables not in name order: %+v", f.Variables)
	}
	r := f.Runs[0]
	if r.Name != "first" || r.Command != Plan || r.PlanMode != plans.RefreshOnlyMode || r.Refresh {
		t.Errorf("first run: %+v", r)
	}
	if len(r.Replace) != 1 || len(r.Targets) != 2 || len(r.ExpectFailures) != 3 || len(r.Asserts) != 1 {
		t.Errorf("first run lists: %+v", r)
	}
	if got := traversalString(r.Targets[1]); got != "module.m" {
		t.Errorf("target = %q", got)
	}
	s := f.Runs[1]
	if s.Command != Apply || s.Module == nil || s.Module.Source != "./m" || !s.Refresh {
		t.Errorf("second run: %+v", s)
	}
	if len(s.Overrides) != 1 || !s.Overrides[0].DuringPlan || s.Overrides[0].Kind != OverrideResource {
		t.Errorf("override: %+v", s.Overrides)
	}
	if len(f.Mocks) != 1 || f.Mocks[0].Alias != "mock" || len(f.Mocks[0].Resources) != 1 || len(f.Mocks[0].Data) != 1 {
		t.Errorf("mock provider: %+v", f.Mocks)
	}
}

// TestParseErrors: each mistake is reported at its line and column in
// the test file, with Terraform's summary.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src, summary, at string
	}{
		{`run "a" {
  command = destroy
}`, `Invalid "command" keyword`, "a.tftest.hcl:2:13"},
		{`run "a" {
  assert {
    condition = true
    error_message = "x"
  }
}`, "Invalid assert expression", "a.tftest.hcl:3:17"},
		{`run "a" {}
run "a" {}`, `Duplicate "run" block names`, "a.tftest.hcl:2:5"},
		{`run "a" {
  bogus = 1
}`, "Unsupported argument", "a.tftest.hcl:2:3"},
		{`run "a" {
  expect_failures = ["var.x"]
}`, "Invalid reference", "a.tftest.hcl:2:22"},
		{`run "a" {
  plan_options {
    mode = destroy
  }
}`, `Invalid "mode" keyword`, "a.tftest.hcl:3:12"},
		{`run "a" {
  assert {
    condition = var.x
  }
}`, "Missing required argument", "a.tftest.hcl:2:10"},
		{`run "a" {`, "Unclosed configuration block", "a.tftest.hcl:1:9"},
		{`override_data {
  target = data.x.y
  override_during = later
}`, `Invalid "override_during" keyword`, "a.tftest.hcl:3:21"},
	} {
		_, ds := Parse("a.tftest.hcl", []byte(tc.src))
		found := false
		for _, d := range ds {
			if d.Summary == tc.summary && d.Subject != nil {
				at := fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
				if at == tc.at {
					found = true
				} else {
					t.Errorf("%q at %s, want %s", tc.summary, at, tc.at)
					found = true
				}
			}
		}
		if !found {
			var got []string
			for _, d := range ds {
				got = append(got, d.Summary)
			}
			t.Errorf("source %q: want %q, got %s", tc.src, tc.summary, strings.Join(got, "; "))
		}
	}
}

// FuzzParse: no input makes the parser panic, and an input it accepts
// has runs with names.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`run "a" { command = plan }`))
	f.Add([]byte("variables {\n a = 1\n}\nrun \"x\" {\n assert {\n condition = var.a == 1\n error_message = \"m\"\n }\n}\n"))
	f.Add([]byte(`mock_provider "p" { mock_resource "t" { defaults = { a = 1 } } }`))
	f.Add([]byte(`run "a" { plan_options { target = [a.b[0]] replace = [module.m["k"].a.b] } expect_failures = [check.c] }`))
	f.Add([]byte("test {\n parallel = true\n}\nprovider \"aws\" { alias = \"w\" }\nrun \"a\" {\n state_key = \"k\"\n providers = { aws = aws.w }\n}\n"))
	f.Add([]byte("override_resource {\n target = a.b[\"k\"]\n}\nrun \"a\" { providers = { aws.x[0] = aws } }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, ds := Parse("f.tftest.hcl", src)
		if file == nil || ds.HasErrors() {
			return
		}
		for _, r := range file.Runs {
			if r.Name == "" {
				t.Fatalf("a run without a name from %q", src)
			}
		}
	})
}

// TestParseJSON: a .tftest.json file says the same as its HCL form.
func TestParseJSON(t *testing.T) {
	src := `{
  "variables": {"a": "x"},
  "run": {
    "first": {
      "command": "plan",
      "expect_failures": ["var.a"],
      "assert": [{"condition": "${var.a == \"x\"}", "error_message": "bad"}]
    }
  }
}`
	f, ds := Parse("a.tftest.json", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("diagnostics: %v", ds)
	}
	if len(f.Variables) != 1 || len(f.Runs) != 1 {
		t.Fatalf("file: %+v", f)
	}
	r := f.Runs[0]
	if r.Command != Plan || len(r.Asserts) != 1 || len(r.ExpectFailures) != 1 || traversalString(r.ExpectFailures[0].Traversal) != "var.a" {
		t.Errorf("run: %+v", r)
	}
}
