package command

import (
	"regexp"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/testscript"
)

// cairnLocation is how Cairn's diagnostics locate a range (on main.tf:5:27),
// where Terraform writes "on main.tf line 5"; it is the one wording the two
// are known to differ in.
var cairnLocation = regexp.MustCompile(`(?m)^(\s+on \S+?):(\d+):\d+([,:])`)

// cmdCmpTerraform compares Terraform's output with Cairn's golden file, in
// which locations are written as Cairn writes them:
//
//	cmpterraform stderr validate.stderr
func cmdCmpTerraform(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: cmpterraform TERRAFORM_OUTPUT CAIRN_GOLDEN")
	}
	got := ts.ReadFile(args[0])
	want := cairnLocation.ReplaceAllString(ts.ReadFile(args[1]), "$1 line $2$3")
	if got != want {
		ts.Fatalf("Terraform's %s differs from %s (-cairn +terraform):\n%s", args[0], args[1],
			cmp.Diff(strings.Split(want, "\n"), strings.Split(got, "\n")))
	}
}
