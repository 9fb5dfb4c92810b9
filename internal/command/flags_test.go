package command

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoColorFlag: every command's -no-color turns colour off; an explicit
// -no-color=false leaves it on, and a value that is not a boolean is an
// error, as for any boolean flag.
func TestNoColorFlag(t *testing.T) {
	cases := map[string]struct {
		args      []string
		wantColor bool
		wantErr   bool
	}{
		"Absent":   {args: nil, wantColor: true},
		"Set":      {args: []string{"-no-color"}, wantColor: false},
		"True":     {args: []string{"-no-color=true"}, wantColor: false},
		"False":    {args: []string{"-no-color=false"}, wantColor: true},
		"NotABool": {args: []string{"-no-color=maybe"}, wantColor: true, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := &Meta{Streams: Streams{Stderr: io.Discard}}
			m.Color = true
			fs := newFlagSet("test", io.Discard)
			noColorFlag(fs, m)
			err := fs.Parse(tc.args)
			if (err != nil) != tc.wantErr || m.Color != tc.wantColor {
				t.Errorf("Parse(%q): error %v, Color %v; want error %v, Color %v", tc.args, err, m.Color, tc.wantErr, tc.wantColor)
			}
		})
	}
}

// TestVarOptionsOnEveryConfigCommand: as in OpenTofu 1.12, every command
// that reads the configuration takes -var and -var-file (the encryption
// block's passphrase may come from a variable), and reads the files it is
// given; the others refuse them, as OpenTofu's fmt and version do. So the
// error for a passphrase variable without a value, which suggests -var,
// is true on every command that can give it.
func TestVarOptionsOnEveryConfigCommand(t *testing.T) {
	noConfig := map[string]bool{
		"fmt": true, "cfn explain": true, "cfn problems": true, "cfn fetch": true,
		"cloudcontrol serve": true, "provider serve": true, "controller": true, "crd generate": true,
		// They list what exists in an account: no configuration is read.
		"controller observe": true, "pulumi import-file": true,
		// get reads only module calls' sources and versions, literals
		// that no variable can set; Terraform 1.5.7's get has no -var.
		"get": true,
		// The built-in functions' signatures: the language's, not a
		// configuration's.
		"metadata functions": true,
	}
	dir := t.TempDir()
	config := `variable "pass" {
  type = string
}
terraform {
  encryption {
    key_provider "pbkdf2" "k" {
      passphrase = var.pass
    }
    method "aes_gcm" "m" {
      keys = key_provider.pbkdf2.k
    }
    state {
      method = method.aes_gcm.m
    }
  }
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	// import checks its arguments before it reads anything.
	positional := map[string][]string{"import": {"terraform_data.a", "some-id"}}
	for name := range commands() {
		if name == "version" {
			continue // takes no options, and ignores arguments
		}
		t.Run(name, func(t *testing.T) {
			var stderr strings.Builder
			args := append(append(strings.Fields(name), "-var-file=missing.tfvars"), positional[name]...)
			Run(append([]string{"-chdir=" + dir}, args...), Streams{
				Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: &stderr,
				Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
			})
			refused := strings.Contains(stderr.String(), "flag provided but not defined: -var-file")
			read := strings.Contains(stderr.String(), "Given variables file missing.tfvars does not exist.")
			switch {
			case noConfig[name] && !refused:
				t.Errorf("%s takes -var-file; OpenTofu's commands that read no configuration refuse it:\n%s", name, stderr.String())
			case !noConfig[name] && !read:
				t.Errorf("%s does not read its -var-file:\n%s", name, stderr.String())
			}
		})
	}
}
