package command

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Shell completion works as Terraform's does: "cairn
// -install-autocomplete" adds "complete -C /path/to/cairn cairn" to the
// shell's startup file, and bash (or zsh through bashcompinit) then runs
// cairn with COMP_LINE and COMP_POINT set whenever the user presses Tab;
// cairn prints the words that can follow and exits. The startup files are
// found through $HOME (Terraform's library looks the home directory up in
// the user database instead, which a test could not redirect).

// completeLine answers one completion request: the words that may end
// line (the command line typed so far, up to the cursor), one a line.
func completeLine(w io.Writer, line string) {
	words := strings.Fields(line)
	last := ""
	if !strings.HasSuffix(line, " ") && len(words) > 0 {
		last, words = words[len(words)-1], words[:len(words)-1]
	}
	if len(words) > 0 {
		words = words[1:] // the program's name
	}
	for len(words) > 0 && strings.HasPrefix(words[0], "-") {
		words = words[1:] // global options
	}
	var options []string
	switch name := commandOf(words); {
	case name != "" && strings.HasPrefix(last, "-"):
		options = flagsOf(name)
	case name != "":
		return // the command's arguments: left to the shell
	case len(words) == 0 && strings.HasPrefix(last, "-"):
		options = []string{"-chdir=", "-help", "-version", "-no-color", "-install-autocomplete", "-uninstall-autocomplete"}
	case len(words) <= 1:
		options = nextWords(words)
	}
	sort.Strings(options)
	for _, o := range options {
		if strings.HasPrefix(o, last) {
			fmt.Fprintln(w, o)
		}
	}
}

// commandOf returns the command words names ("state list"), or "".
func commandOf(words []string) string {
	for n := len(words); n > 0; n-- {
		name := strings.Join(words[:n], " ")
		if _, ok := commands()[name]; ok {
			return name
		}
	}
	return ""
}

// nextWords are the words that may follow words: every command's first
// word, or a group's subcommands.
func nextWords(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for name := range commands() {
		parts := strings.Fields(name)
		if len(parts) <= len(words) || strings.Join(parts[:len(words)], " ") != strings.Join(words, " ") {
			continue
		}
		if w := parts[len(words)]; !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// flagsOf returns name's options, as "-name" ("-name=" when it takes a
// value), read from the command's own flag set by asking it for help.
func flagsOf(name string) []string {
	m := &Meta{Streams: Streams{Stdout: io.Discard, Stderr: io.Discard}.withDefaults(), Dir: os.TempDir()}
	commands()[name](m, []string{"-help"})
	if m.helpFlags == nil {
		return nil
	}
	var out []string
	m.helpFlags.VisitAll(func(f *flag.Flag) {
		if isBoolFlag(f) {
			out = append(out, "-"+f.Name)
		} else {
			out = append(out, "-"+f.Name+"=")
		}
	})
	return out
}

// completionRequest reports the line to complete when the shell runs
// cairn for completion (COMP_LINE set), cut at the cursor (COMP_POINT).
func completionRequest(getenv func(string) string) (string, bool) {
	line := getenv("COMP_LINE")
	if line == "" {
		return "", false
	}
	if p, err := strconv.Atoi(getenv("COMP_POINT")); err == nil && p >= 0 && p < len(line) {
		line = line[:p]
	}
	return line, true
}

// completionFiles are the startup files completion is installed in: the
// first of bash's that exists, and zsh's if it exists, under home.
func completionFiles(home string) []string {
	var out []string
	for _, rc := range []string{".bashrc", ".bash_profile", ".bash_login", ".profile"} {
		if _, err := os.Stat(filepath.Join(home, rc)); err == nil {
			out = append(out, filepath.Join(home, rc))
			break
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".zshrc")); err == nil {
		out = append(out, filepath.Join(home, ".zshrc"))
	}
	return out
}

// completionLines are the lines installed for the executable exe: zsh
// needs bash's completion loaded first.
func completionLines(rc, exe string) []string {
	lines := []string{"complete -C " + exe + " cairn"}
	if strings.HasSuffix(rc, ".zshrc") {
		lines = append([]string{"autoload -U +X bashcompinit && bashcompinit"}, lines...)
	}
	return lines
}

// runAutocomplete implements -install-autocomplete (install true) and
// -uninstall-autocomplete. Uninstalling removes only the complete line.
func runAutocomplete(s Streams, install bool) int {
	home := s.Getenv("HOME")
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.Abs(exe)
	}
	files := completionFiles(home)
	if err != nil || home == "" || len(files) == 0 {
		fmt.Fprintf(s.Stderr, "Error executing CLI: did not find any shells to install (no .bashrc, .bash_profile, .bash_login, .profile or .zshrc in %q)\n", home)
		return 1
	}
	for _, rc := range files {
		if err := editStartupFile(rc, completionLines(rc, exe), install); err != nil {
			fmt.Fprintf(s.Stderr, "Error executing CLI: %s\n", err)
			return 1
		}
	}
	return 0
}

// editStartupFile appends lines to rc (install) or removes them; it
// refuses to install twice or to remove what is not there, as
// Terraform does.
func editStartupFile(rc string, lines []string, install bool) error {
	data, err := os.ReadFile(rc)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		have[l] = true
	}
	key := lines[len(lines)-1]
	if install {
		if have[key] {
			return fmt.Errorf("already installed in %s", rc)
		}
		text := string(data)
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return os.WriteFile(rc, []byte(text+strings.Join(lines, "\n")+"\n"), 0o644)
	}
	if !have[key] {
		return fmt.Errorf("not installed in %s", rc)
	}
	// Only cairn's own line goes: zsh's bashcompinit may serve others.
	var kept []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != key {
			kept = append(kept, l)
		}
	}
	return os.WriteFile(rc, []byte(strings.Join(kept, "\n")), 0o644)
}
