package command

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestHelp runs every registered command with -help, -h and --help: each
// exits 0 with Terraform's layout on stdout (the usage line, the
// description, every option the command defines, described), and nothing
// on stderr. A command without a help entry, or a flag defined without a
// description, fails it.
func TestHelp(t *testing.T) {
	for name, cmd := range commands() {
		t.Run(name, func(t *testing.T) {
			h, ok := helps()[name]
			if !ok || h.synopsis == "" || h.desc == "" {
				t.Fatalf("no help entry (synopsis and description) for %q in helps()", name)
			}
			var out, errOut bytes.Buffer
			m := &Meta{Dir: t.TempDir(), Streams: Streams{Stdout: &out, Stderr: &errOut}.withDefaults()}
			cmd(m, []string{"-help"})
			if m.helpFlags == nil {
				t.Fatalf("-help was not answered; stderr:\n%s", errOut.String())
			}
			want := "Usage: cairn [global options] " + name
			if !strings.HasPrefix(out.String(), want) {
				t.Errorf("help starts %q, want %q", helpHead(out.String()), want)
			}
			m.helpFlags.VisitAll(func(f *flag.Flag) {
				if strings.TrimSpace(f.Usage) == "" {
					t.Errorf("flag -%s has no description", f.Name)
				}
				if !strings.Contains(out.String(), "\n  -"+f.Name+"\n") && !strings.Contains(out.String(), "\n  -"+f.Name+"=") {
					t.Errorf("flag -%s is not listed in the help", f.Name)
				}
			})
			if hasFlags(m.helpFlags) && !strings.Contains(out.String(), "\nOptions:\n") {
				t.Errorf("no Options: section")
			}
			for _, arg := range []string{"-help", "-h", "--help"} {
				var o, e bytes.Buffer
				code := Run(append(append([]string{"-chdir=" + t.TempDir()}, strings.Fields(name)...), arg), Streams{Stdout: &o, Stderr: &e})
				if code != 0 || e.Len() != 0 || !strings.HasPrefix(o.String(), want) {
					t.Errorf("cairn %s %s: exit %d, stdout %q, stderr %q", name, arg, code, helpHead(o.String()), e.String())
				}
			}
		})
	}
}

// TestHelpMain checks the main help and the groups' helps list the
// commands, and exit 0 when asked for.
func TestHelpMain(t *testing.T) {
	var out bytes.Buffer
	if code := Run([]string{"-help"}, Streams{Stdout: &out}); code != 0 {
		t.Fatalf("cairn -help exited %d", code)
	}
	for _, want := range []string{"Usage: cairn [global options] <subcommand> [args]", "Main commands:", "  plan ", "All other commands:", "  state ", "  workspace ", "  cloudcontrol serve ", "Global options"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("main help lacks %q", want)
		}
	}
	// After the arguments too, as Terraform takes it.
	var o bytes.Buffer
	if code := Run([]string{"-chdir=" + t.TempDir(), "workspace", "new", "staging", "-help"}, Streams{Stdout: &o}); code != 0 || !strings.HasPrefix(o.String(), "Usage: cairn [global options] workspace new [options] NAME") {
		t.Errorf("cairn workspace new staging -help: exit %d, %q", code, helpHead(o.String()))
	}
	for _, group := range []string{"state", "workspace", "cfn", "providers"} {
		var o, e bytes.Buffer
		if code := Run([]string{group, "-help"}, Streams{Stdout: &o, Stderr: &e}); code != 0 {
			t.Errorf("cairn %s -help exited %d", group, code)
		}
		for name, h := range helps() {
			if sub, ok := strings.CutPrefix(name, group+" "); ok && !strings.Contains(o.String(), sub+" ") {
				t.Errorf("cairn %s -help does not list %s (%s)", group, sub, h.synopsis)
			}
		}
		// providers is a command too (the requirements tree).
		if code := Run([]string{group}, Streams{Stdout: &o, Stderr: &e}); code != 1 && group != "providers" {
			t.Errorf("cairn %s exited %d, want 1", group, code)
		}
	}
}

func helpHead(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
