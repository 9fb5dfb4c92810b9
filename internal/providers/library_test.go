package providers

import (
	"context"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// counted is a provider instance that records what happens to it, in a log
// shared by every instance of its factory.
type counted struct {
	Interface
	id  int
	log *eventLog
}

type eventLog struct {
	mu     sync.Mutex
	events []string
}

func (l *eventLog) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, sprintf(format, args...))
}

func (l *eventLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.events...)
}

func (c *counted) GetProviderSchema(context.Context) GetProviderSchemaResponse {
	c.log.add("schema %d", c.id)
	return GetProviderSchemaResponse{Provider: Schema{Block: &configschema.Block{
		Attributes: map[string]*configschema.Attribute{"region": {Type: cty.String, Optional: true}},
	}}}
}

func (c *counted) ValidateProviderConfig(_ context.Context, r ValidateProviderConfigRequest) ValidateProviderConfigResponse {
	c.log.add("validate %d", c.id)
	if r.Config.GetAttr("region").IsNull() {
		// Fill in a default, as protocol 5 providers do here.
		return ValidateProviderConfigResponse{PreparedConfig: cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal("default")})}
	}
	if r.Config.GetAttr("region").AsString() == "bad" {
		return ValidateProviderConfigResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Bad region", "no")}}
	}
	return ValidateProviderConfigResponse{PreparedConfig: r.Config}
}

func (c *counted) ConfigureProvider(_ context.Context, r ConfigureProviderRequest) ConfigureProviderResponse {
	c.log.add("configure %d %s", c.id, r.Config.GetAttr("region").AsString())
	return ConfigureProviderResponse{}
}

func (c *counted) StopProvider(context.Context) error {
	c.log.add("stop %d", c.id)
	return nil
}

func (c *counted) Close() error {
	c.log.add("close %d", c.id)
	return nil
}

var testAddr = addrs.NewDefaultProvider("test")

func newTestLibrary() (*Library, *eventLog) {
	log := &eventLog{}
	n := 0
	var mu sync.Mutex
	reg := Registry{testAddr: func() (Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		log.add("start %d", n)
		return &counted{id: n, log: log}, nil
	}}
	return NewLibrary(reg), log
}

func regionConfig(r string) cty.Value {
	if r == "" {
		return cty.ObjectVal(map[string]cty.Value{"region": cty.NullVal(cty.String)})
	}
	return cty.ObjectVal(map[string]cty.Value{"region": cty.StringVal(r)})
}

func TestLibraryLifetimes(t *testing.T) {
	cases := map[string]struct {
		reason string
		run    func(t *testing.T, lib *Library, log *eventLog)
		want   []string
	}{
		"SchemaOnceAndReused": {
			reason: "the schema is read once however often it is asked for, and the instance it came from is the next one configured",
			run: func(t *testing.T, lib *Library, log *eventLog) {
				ctx := context.Background()
				for range 3 {
					if _, ds := lib.Schema(ctx, testAddr); ds.HasErrors() {
						t.Fatal(ds)
					}
				}
				set := lib.NewInstanceSet(ctx)
				if ds := set.Configure(addrs.AbsProviderConfig{Provider: testAddr}, regionConfig("eu"), cty.NilVal, "1.5.7"); ds.HasErrors() {
					t.Fatal(ds)
				}
				set.Close()
			},
			want: []string{"start 1", "schema 1", "validate 1", "configure 1 eu", "close 1"},
		},
		"OnePerConfigurationPreparedConfig": {
			reason: "each provider configuration has its own instance, configured with what validation prepared",
			run: func(t *testing.T, lib *Library, log *eventLog) {
				set := lib.NewInstanceSet(context.Background())
				set.Configure(addrs.AbsProviderConfig{Provider: testAddr}, regionConfig(""), cty.NilVal, "1.5.7")
				set.Configure(addrs.AbsProviderConfig{Provider: testAddr, Alias: "west"}, regionConfig("west"), cty.NilVal, "1.5.7")
				a, _ := set.Get(addrs.AbsProviderConfig{Provider: testAddr})
				b, _ := set.Get(addrs.AbsProviderConfig{Provider: testAddr, Alias: "west"})
				if a == b {
					t.Errorf("two configurations share an instance")
				}
				if _, err := set.Get(addrs.AbsProviderConfig{Provider: testAddr, Alias: "east"}); err == nil {
					t.Errorf("an unconfigured configuration was found")
				}
				set.Close()
			},
			want: []string{"start 1", "validate 1", "configure 1 default", "start 2", "validate 2", "configure 2 west", "close 1", "close 2"},
		},
		"FailedConfigurationReleased": {
			run: func(t *testing.T, lib *Library, log *eventLog) {
				set := lib.NewInstanceSet(context.Background())
				if ds := set.Configure(addrs.AbsProviderConfig{Provider: testAddr}, regionConfig("bad"), cty.NilVal, "1.5.7"); !ds.HasErrors() {
					t.Errorf("no error for a configuration the provider refused")
				}
				if _, err := set.Get(addrs.AbsProviderConfig{Provider: testAddr}); err == nil {
					t.Errorf("a provider that failed validation is available")
				}
			},
			want: []string{"start 1", "validate 1", "close 1"},
		},
		"StoppedWhenCancelled": {
			reason: "an interrupt cancels the walk's context, and every instance it started is asked to stop",
			run: func(t *testing.T, lib *Library, log *eventLog) {
				ctx, cancel := context.WithCancel(context.Background())
				set := lib.NewInstanceSet(ctx)
				set.Configure(addrs.AbsProviderConfig{Provider: testAddr}, regionConfig("eu"), cty.NilVal, "1.5.7")
				cancel()
				waitFor(t, func() bool { return contains(log.list(), "stop 1") })
				set.Close()
			},
			want: []string{"start 1", "validate 1", "configure 1 eu", "stop 1", "close 1"},
		},
		"NotStoppedAfterRelease": {
			reason: "a released instance is no longer watched: the end of a run is not an interrupt",
			run: func(t *testing.T, lib *Library, log *eventLog) {
				ctx, cancel := context.WithCancel(context.Background())
				set := lib.NewInstanceSet(ctx)
				set.Unconfigured(addrs.AbsProviderConfig{Provider: testAddr})
				set.Close()
				cancel()
			},
			want: []string{"start 1", "close 1"},
		},
		"CloseEndsEverything": {
			reason: "instances still in use and idle ones are closed, and nothing starts afterwards",
			run: func(t *testing.T, lib *Library, log *eventLog) {
				lib.Schema(context.Background(), testAddr)
				set := lib.NewInstanceSet(context.Background())
				set.Unconfigured(addrs.AbsProviderConfig{Provider: testAddr, Alias: "a"})
				set.Unconfigured(addrs.AbsProviderConfig{Provider: testAddr, Alias: "b"})
				lib.Close()
				if _, ds := lib.Start(context.Background(), testAddr); !ds.HasErrors() {
					t.Errorf("started an instance after Close")
				}
				set.Close()
			},
			want: []string{"start 1", "schema 1", "start 2", "close 1", "close 2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lib, log := newTestLibrary()
			tc.run(t, lib, log)
			lib.Close()
			got := log.list()
			if name == "CloseEndsEverything" || name == "OnePerConfigurationPreparedConfig" {
				sortTail(got, 2)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nevents: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestLibraryUnavailable(t *testing.T) {
	lib, _ := newTestLibrary()
	other := addrs.NewDefaultProvider("other")
	if ds := lib.Available(other); !ds.HasErrors() {
		t.Fatalf("no error for a provider the registry lacks")
	}
	if _, ds := lib.Schema(context.Background(), other); !ds.HasErrors() || ds[0].Summary != "Provider not available" {
		t.Errorf("schema of an unavailable provider: %v", ds)
	}
	if ds := lib.Available(testAddr); ds.HasErrors() {
		t.Errorf("available provider reported missing: %v", ds)
	}
}

// TestLibraryConfigure: the one configure sequence every front end uses:
// validate, configure with the prepared configuration, and an instance
// that fails either step released rather than leaked.
func TestLibraryConfigure(t *testing.T) {
	lib, log := newTestLibrary()
	ctx := context.Background()
	inst, ds := lib.Configure(ctx, testAddr, regionConfig(""), "1.5.7")
	if ds.HasErrors() || inst == nil {
		t.Fatalf("configure: %v", ds)
	}
	if _, ds := lib.Configure(ctx, testAddr, regionConfig("bad"), "1.5.7"); !ds.HasErrors() {
		t.Fatal("a configuration the provider refuses was accepted")
	}
	want := []string{"start 1", "validate 1", "configure 1 default", "start 2", "validate 2", "close 2"}
	if diff := cmp.Diff(want, log.list()); diff != "" {
		t.Errorf("events: -want +got:\n%s", diff)
	}
	_ = lib.Close()
}
