package command

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/zclconf/go-cty/cty"
)

// promptVariables asks on the terminal for required root variables that
// have no value from any source, as Terraform does when input is enabled.
// Without a terminal (or with -input=false) it asks nothing, and planning
// reports the missing values.
func (m *Meta) promptVariables(cfg *configs.Module, raw map[string]eval.RawVariable, input bool) {
	if !input || !m.interactive() {
		return
	}
	var names []string
	for name, v := range cfg.Variables {
		if _, given := raw[name]; !given && v.Default == cty.NilVal {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	r := bufio.NewReader(m.Stdin)
	for _, name := range names {
		v := cfg.Variables[name]
		fmt.Fprintf(m.Stdout, "%s\n", m.bold("var."+name))
		if v.Description != "" {
			fmt.Fprintf(m.Stdout, "  %s\n", strings.ReplaceAll(v.Description, "\n", "\n  "))
		}
		fmt.Fprintf(m.Stdout, "\n  %s", m.bold("Enter a value:"))
		fmt.Fprint(m.Stdout, " ")
		line, err := r.ReadString('\n')
		fmt.Fprintln(m.Stdout)
		if err != nil && line == "" {
			return
		}
		raw[name] = eval.RawVariable{Source: eval.FromCLI, Raw: strings.TrimRight(line, "\r\n"), Origin: "interactive input"}
	}
}

// interactive reports whether stdin is a terminal.
func (m *Meta) interactive() bool {
	f, ok := m.Stdin.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
