package command

import (
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
)

// commandHelp is what "cairn COMMAND -help" says besides the options: the
// arguments after the options, the one-line synopsis the main help lists,
// and the description. The options come from the command's own flag set,
// so a flag is described where it is defined and cannot be left out.
type commandHelp struct {
	args     string
	synopsis string
	desc     string
}

// helps describes every command in commands(); TestHelp fails on a
// command without an entry.
func helps() map[string]commandHelp {
	return map[string]commandHelp{
		"init":     {"", "Prepare the working directory", "Initialize a working directory: load the configuration, install the modules it calls and check that every provider it needs is available."},
		"get":      {"", "Install or upgrade remote modules", "Download and install the modules the configuration calls into .terraform/modules."},
		"validate": {"", "Check whether the configuration is valid", "Validate the configuration files in the working directory, without reading state or remote services."},
		"plan":     {"", "Show changes required by the current configuration", "Generate an execution plan: compare the configuration with the state and the remote objects, and show the changes needed. With -out, save the plan for apply."},
		"apply":    {"[PLAN]", "Create or update infrastructure", "Create or update infrastructure to match the configuration, after showing the plan and asking for approval; or apply a plan saved by plan -out."},
		"destroy":  {"", "Destroy previously-created infrastructure", "Destroy every object the state manages. An alias of apply -destroy."},
		"refresh":  {"", "Update the state to match remote systems", "Read every managed object and update the state to match it, without changing any remote object."},
		"show":     {"[PATH]", "Show the current state or a saved plan", "Show the current state, or the plan or state file at PATH, in human-readable form or as JSON."},
		"output":   {"[NAME]", "Show output values from your root module", "Show the root module's output values from the state, or the one named NAME."},
		"graph":    {"", "Generate a Graphviz graph of the steps in an operation", "Print the dependency graph of the configuration, or of the operation -type names, in the DOT language."},
		"import":   {"ADDR ID", "Associate existing infrastructure with a Cairn resource", "Import the existing remote object ID into the state at the resource address ADDR, which the configuration must declare."},
		"query":    {"", "Search and list remote infrastructure", "Run the list blocks of the *.tfquery.hcl files (with -all, also one per list resource type of the configured providers), up to -parallelism at once, and print the objects they find, list by list; -json prints JSON messages, -generate-config-out=FILE writes import and resource blocks for them."},
		"fmt":      {"[DIR or FILE...]", "Reformat your configuration in the standard style", "Rewrite configuration files to the canonical format and style. With no argument, the files of the working directory."},
		"console":  {"", "Try Cairn expressions at an interactive command prompt", "Evaluate expressions against the configuration and state, one per line read from standard input."},
		"test":     {"", "Execute integration tests for Cairn modules", "Run the test files (*.tftest.hcl, *.tofutest.hcl) of the configuration's directory and its test directory: each run block plans or applies the configuration in memory, never through its backend, checks its assertions, and everything created is destroyed at the end."},
		"version":  {"", "Show the current Cairn version", "Print Cairn's version, platform and the Terraform language version it implements."},

		"state list":    {"[ADDRESS...]", "List resources in the state", "List the resource instances in the state, or those matching the given addresses."},
		"state show":    {"ADDRESS", "Show a resource in the state", "Show the attributes of one resource instance in the state."},
		"state rm":      {"ADDRESS...", "Remove instances from the state", "Forget the given resource instances: remove them from the state without destroying the remote objects."},
		"state mv":      {"SOURCE DESTINATION", "Move an item in the state", "Move a resource instance or module to another address in the state, without touching the remote object."},
		"state recover": {"", "Recover the state from its journal after a crash", "Replay the state journal a crashed apply left behind, so the state records every object that apply created."},
		"state pull":    {"", "Pull current state and output to stdout", "Print the current state, as stored, on standard output."},
		"state push":    {"PATH", "Update remote state from a local state file", "Replace the current state with the state file at PATH (- for standard input)."},
		"force-unlock":  {"LOCK_ID", "Release a stuck lock on the current workspace", "Remove the lock with the given ID from the current workspace's state. Only for a lock whose holder has died."},
		"taint":         {"ADDRESS", "Mark a resource instance as not fully functional", "Mark a resource instance as tainted, so the next plan replaces it."},
		"untaint":       {"ADDRESS", "Remove the 'tainted' state from a resource instance", "Undo taint: the next plan keeps the object."},

		"workspace new":    {"NAME", "Create a new workspace", "Create a new workspace and select it."},
		"workspace select": {"NAME", "Select a workspace", "Select the workspace NAME for the commands that follow."},
		"workspace list":   {"", "List workspaces", "List the workspaces, marking the current one with an asterisk."},
		"workspace show":   {"", "Show the name of the current workspace", "Print the name of the current workspace."},
		"workspace delete": {"NAME", "Delete a workspace", "Delete the workspace NAME, which must not be the current one and, without -force, must manage no object."},

		"providers":          {"", "Show the providers required for this configuration", "Print the providers the configuration requires, as a tree of its modules with each one's version constraints, then those the state's resources use. The subcommands lock, mirror and schema act on them."},
		"providers lock":     {"[PROVIDER...]", "Write out dependency locks for the configured providers", "Fetch each required provider (or each one named) for every -platform, from its origin registry or the mirror given, and record its version and hashes in .terraform.lock.hcl, so that init on those platforms accepts the same packages."},
		"providers mirror":   {"DIR", "Save local copies of all required provider plugins", "Download the newest allowed version of each required provider, for every -platform, into DIR in the packed layout, with the index.json and VERSION.json files of the network mirror protocol, so DIR can serve as a filesystem mirror or be published as a network mirror."},
		"providers schema":   {"", "Show schemas for the providers used in the configuration", "Print the schemas of the providers the configuration uses, as JSON (-json)."},
		"metadata functions": {"", "Show signatures and descriptions for the available functions", "Print the signatures of the built-in functions as JSON (-json): each one's description, parameters with their types and whether they take null, variadic parameter and return type."},
		"cfn explain":        {"TYPE", "Explain how a CloudFormation type maps to awscc", "Show how the CloudFormation resource type TYPE becomes an awscc resource type: its attributes, and the parts of its schema Cairn cannot express."},
		"cfn problems":       {"", "List the CloudFormation schemas Cairn cannot fully express", "Check every CloudFormation schema and list the problems found, by type."},
		"cfn fetch":          {"", "Download CloudFormation schemas from AWS", "Download the CloudFormation resource schemas of a region into a directory, for -schemas."},

		"cloudcontrol serve": {"", "Run a Cloud Control-compatible endpoint", "Serve a Cloud Control-compatible API emulating every CloudFormation type, with a durable store, until interrupted. Point AWS SDKs, the AWS CLI or the awscc provider at it with AWS_ENDPOINT_URL. Quiet by default; -log shows a line per call."},
		"provider serve":     {"[SOURCE]", "Serve a provider as a Terraform or Pulumi plugin", "Serve the built-in awscc provider (or, with -plugin, a Terraform provider plugin) over Terraform's plugin protocol or Pulumi's resource provider protocol."},
		"pulumi import-file": {"TYPE...", "List awscc resources into a pulumi import file", "List every object of the given awscc resource types (Pulumi type tokens such as awscc:logs/logGroup:LogGroup) where the AWS environment points, and write the bulk file `pulumi import --file` reads, with the IDs Cairn's Pulumi awscc plugin imports by."},
		"controller":         {"", "Run the Kubernetes controller of awscc's resource types", "Reconcile awscc managed resources in a Kubernetes cluster, one controller per kind, until interrupted."},
		"controller observe": {"TYPE...", "Observe what exists of awscc types as managed resources", "List every object of the given awscc resource types where the AWS environment points and create one observe-only managed resource (managementPolicies [\"Observe\"]) per object, named by its external name, for the controller to observe."},
		"crd generate":       {"", "Generate Kubernetes CRDs for awscc's resource types", "Write the CustomResourceDefinitions of the controller's managed resources."},
	}
}

// mainCommands are the commands the main help lists first, as Terraform's
// does.
var mainCommands = []string{"init", "validate", "plan", "apply", "destroy"}

// showHelp writes name's help to w in Terraform's layout: the usage line,
// the description, then each option of fs with its description.
func showHelp(w io.Writer, name string, fs *flag.FlagSet) {
	h := helps()[name]
	usage := "cairn [global options] " + name
	if hasFlags(fs) {
		usage += " [options]"
	}
	if h.args != "" {
		usage += " " + h.args
	}
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", usage, wrap(h.desc, "  ", 76))
	listSubcommands(w, name)
	if !hasFlags(fs) {
		return
	}
	fmt.Fprintf(w, "\nOptions:\n\n")
	fs.VisitAll(func(f *flag.Flag) {
		arg, text := flag.UnquoteUsage(f)
		head := "  -" + f.Name
		if arg != "" && !isBoolFlag(f) {
			head += "=" + strings.ToUpper(arg)
		}
		if d := f.DefValue; d != "" && !isZeroDefault(f) {
			text += fmt.Sprintf(" (default %s)", d)
		}
		fmt.Fprintln(w, head)
		fmt.Fprintln(w, wrap(text, "      ", 76))
		fmt.Fprintln(w)
	})
}

// listSubcommands lists the subcommands of a command that is also a
// group ("providers": "providers lock", ...), as Terraform's help of
// such a command does.
func listSubcommands(w io.Writer, name string) {
	var subs []string
	for n := range commands() {
		if strings.HasPrefix(n, name+" ") {
			subs = append(subs, n)
		}
	}
	if len(subs) == 0 {
		return
	}
	sort.Strings(subs)
	fmt.Fprintf(w, "\nSubcommands:\n")
	for _, s := range subs {
		fmt.Fprintf(w, "    %-14s %s\n", strings.TrimPrefix(s, name+" "), helps()[s].synopsis)
	}
}

// hasFlags reports whether fs defines any option.
func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	if fs != nil {
		fs.VisitAll(func(*flag.Flag) { n++ })
	}
	return n > 0
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isZeroDefault reports whether f's default is nothing worth saying: a
// zero value, or a default its description already gives.
func isZeroDefault(f *flag.Flag) bool {
	switch f.DefValue {
	case "", "false", "0", "0s", "[]":
		return true
	}
	return strings.Contains(f.Usage, "default")
}

// wrap fills text into lines of at most width columns, each starting with
// indent.
func wrap(text, indent string, width int) string {
	var b, line strings.Builder
	for _, word := range strings.Fields(text) {
		if line.Len() > 0 && len(indent)+line.Len()+1+len(word) > width {
			b.WriteString(indent + line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(word)
	}
	if line.Len() > 0 {
		b.WriteString(indent + line.String())
	}
	return strings.TrimRight(b.String(), "\n")
}

// groupHelp writes the help of a command group ("state", "workspace"):
// its subcommands with their synopses. It reports false when group is no
// group.
func groupHelp(w io.Writer, group string) bool {
	var subs []string
	for name := range commands() {
		if strings.HasPrefix(name, group+" ") {
			subs = append(subs, name)
		}
	}
	if len(subs) == 0 {
		return false
	}
	sort.Strings(subs)
	fmt.Fprintf(w, "Usage: cairn [global options] %s <subcommand> [options] [args]\n\n", group)
	fmt.Fprintf(w, "  This command has subcommands for %s operations.\n\nSubcommands:\n", group)
	for _, s := range subs {
		fmt.Fprintf(w, "    %-14s %s\n", strings.TrimPrefix(s, group+" "), helps()[s].synopsis)
	}
	return true
}

// usage writes the main help, as Terraform's: the main commands, then
// every other command (a group once, by its first word), then the global
// options.
func usage(w io.Writer) {
	main := map[string]bool{}
	fmt.Fprintf(w, "Usage: cairn [global options] <subcommand> [args]\n\n")
	fmt.Fprintf(w, "The available commands for execution are listed below.\nThe primary workflow commands are given first, followed by\nless common or more advanced commands.\n\nMain commands:\n")
	for _, n := range mainCommands {
		main[n] = true
		fmt.Fprintf(w, "  %-18s %s\n", n, helps()[n].synopsis)
	}
	others := map[string]string{}
	for n := range commands() {
		if main[n] {
			continue
		}
		if g, _, ok := strings.Cut(n, " "); ok && n != "cloudcontrol serve" && n != "provider serve" && n != "pulumi import-file" && n != "controller observe" && n != "crd generate" {
			others[g] = groupSynopsis(g)
			continue
		}
		others[n] = helps()[n].synopsis
	}
	names := make([]string, 0, len(others))
	for n := range others {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\nAll other commands:\n")
	for _, n := range names {
		fmt.Fprintf(w, "  %-18s %s\n", n, others[n])
	}
	fmt.Fprint(w, `
Global options (use these before the subcommand, if any):
  -chdir=DIR    Switch to a different working directory before executing the
                given subcommand.
  -help         Show this help output, or the help for a specified subcommand.
  -version      An alias for the "version" subcommand.
  -no-color     Disable terminal colors.
  -install-autocomplete    Install shell completion (bash, zsh).
  -uninstall-autocomplete  Remove it.
`)
}

// groupSynopsis is the main help's line for a command group.
func groupSynopsis(g string) string {
	switch g {
	case "state":
		return "Advanced state management"
	case "workspace":
		return "Workspace management"
	case "providers":
		return "Show the providers required for this configuration"
	case "cfn":
		return "Inspect and fetch CloudFormation schemas"
	}
	return ""
}
