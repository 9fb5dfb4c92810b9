package command

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
)

// TestConsoleInteractive drives the terminal mode with a scripted reader:
// a prompt before each line, results printed, errors reported without
// ending the session, "exit" or end of input ending it with exit 0.
func TestConsoleInteractive(t *testing.T) {
	tests := map[string]struct {
		reason  string
		input   string
		wantOut string
		wantErr string
	}{
		"results": {
			reason:  "each result follows its prompt; end of input prints exit",
			input:   "1 + 1\nupper(\"a\")\n",
			wantOut: "> 2\n> \"A\"\n> exit\n",
		},
		"error continues": {
			reason:  "an error is shown (then an empty result line, as in Terraform) and the next line still runs",
			input:   "nope.x\n2\nexit\n3\n",
			wantOut: "> \n> 2\n> ",
			wantErr: "Reference to undeclared resource",
		},
		"blank and help": {
			reason:  "a blank line prints an empty line; help explains",
			input:   "\nhelp",
			wantOut: "> \n> " + consoleHelp + "\n> exit\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			m := &Meta{Streams: Streams{Stdin: strings.NewReader(tc.input), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}}
			cfg, ds := configs.LoadFiles(".", map[string][]byte{})
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			scope, ds := eval.StateScope(eval.StateScopeOptions{Config: cfg, Funcs: funcs.Table("."), ModuleDir: ".", Workspace: "default"})
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			if code := m.consoleInteractive(scope); code != 0 {
				t.Errorf("exit code %d, want 0", code)
			}
			if diff := cmp.Diff(tc.wantOut, out.String()); diff != "" {
				t.Errorf("%s: stdout (-want +got):\n%s", tc.reason, diff)
			}
			if tc.wantErr == "" && errOut.Len() > 0 || !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("%s: stderr %q, want it to mention %q", tc.reason, errOut.String(), tc.wantErr)
			}
		})
	}
}
