package plugin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// schemaCalls counts the GetProviderSchema calls the test provider logged.
func schemaCalls(t *testing.T, log string) int {
	t.Helper()
	raw, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(raw), "GetProviderSchema")
}

// launchWith starts exe as the test provider with a fresh in-memory
// schema cache, so only the store can spare the call, and checks the
// schema it ends up with.
func launchWith(t *testing.T, exe, dir string) {
	t.Helper()
	c, err := Launch(context.Background(), exe, Options{SchemaDir: dir, SchemaCache: &tfproto6.SchemaCache{}})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	defer c.Close()
	resp := c.GetProviderSchema(context.Background())
	noErrors(t, "GetProviderSchema", resp.Diagnostics)
	if _, ok := resp.ResourceTypes["cairntest_thing"]; !ok {
		t.Fatalf("schema without cairntest_thing: %v", resp.ResourceTypes)
	}
}

func storedSchemas(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.pb"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSchemaStore runs the real test plugin several times against one
// store and counts the schema calls the plugin saw.
func TestSchemaStore(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serveEnv, "1")
	dir := t.TempDir()
	log := filepath.Join(t.TempDir(), "calls")
	t.Setenv(schemaLogEnv, log)

	launchWith(t, exe, dir)
	if got := schemaCalls(t, log); got != 1 {
		t.Fatalf("first launch: %d schema calls, want 1", got)
	}
	stored := storedSchemas(t, dir)
	if len(stored) != 1 {
		t.Fatalf("store holds %v, want one schema", stored)
	}

	launchWith(t, exe, dir)
	if got := schemaCalls(t, log); got != 1 {
		t.Errorf("a launch of the same binary asked for the schema again (%d calls): the store was not used", got)
	}

	// A store entry that does not decode is asked for again and replaced.
	if err := os.WriteFile(stored[0], []byte("\xff\xff not protobuf"), 0o644); err != nil {
		t.Fatal(err)
	}
	launchWith(t, exe, dir)
	if got := schemaCalls(t, log); got != 2 {
		t.Errorf("a corrupt entry: %d calls, want 2", got)
	}
	launchWith(t, exe, dir)
	if got := schemaCalls(t, log); got != 2 {
		t.Errorf("the corrupt entry was not replaced: %d calls, want 2", got)
	}

	// A changed binary is a different key.
	changed := filepath.Join(t.TempDir(), "terraform-provider-cairntest")
	if err := copyWithExtraByte(exe, changed); err != nil {
		t.Fatal(err)
	}
	launchWith(t, changed, dir)
	if got := schemaCalls(t, log); got != 3 {
		t.Errorf("a changed binary used the old binary's schema: %d calls, want 3", got)
	}
	if n := len(storedSchemas(t, dir)); n != 2 {
		t.Errorf("store holds %d schemas, want one per binary (2)", n)
	}
}

// TestSchemaStoreNeededCall: a provider that does not declare the schema
// call optional is asked in every process, store or not.
func TestSchemaStoreNeededCall(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(serveEnv, "1")
	t.Setenv(schemaNeededEnv, "1")
	log := filepath.Join(t.TempDir(), "calls")
	t.Setenv(schemaLogEnv, log)
	dir := t.TempDir()
	launchWith(t, exe, dir)
	launchWith(t, exe, dir)
	if got := schemaCalls(t, log); got != 2 {
		t.Errorf("%d schema calls in two processes, want 2", got)
	}
}

func copyWithExtraByte(from, to string) error {
	raw, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, append(raw, 0), 0o755)
}
