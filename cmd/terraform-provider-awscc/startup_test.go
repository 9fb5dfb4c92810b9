package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestStartupCache launches the plugin process as Terraform does and
// checks what a launch reuses from the ones before it: a warm launch
// sends exactly the bytes a cold one built; a damaged cache is rebuilt,
// never served and never fatal; a changed schema set is never answered
// from the old set's entries.
func TestStartupCache(t *testing.T) {
	bin := buildPlugin(t)
	overlay := t.TempDir()
	lg := filepath.Join(overlay, "loggroup.json")
	writeLogGroup := func(description string) {
		t.Helper()
		schema := `{"typeName":"AWS::Logs::LogGroup","description":"` + description + `","properties":{"LogGroupName":{"type":"string"}},"primaryIdentifier":["/properties/LogGroupName"],"additionalProperties":false}`
		if err := os.WriteFile(lg, []byte(schema), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := map[string]struct {
		reason string
		types  string
		// between runs between the first launch and the second.
		between func(t *testing.T, cache string)
		// same says whether the two launches answer alike.
		same bool
		// want is in the second answer.
		want string
		// kept says the second launch must leave the first one's entries
		// as they are (it replayed them, building nothing).
		kept bool
	}{
		"warm every type": {
			reason: "A warm launch replays the cold launch's answer for every built-in type.",
			same:   true, kept: true,
		},
		"warm one type": {
			reason: "CAIRN_AWSCC_TYPES keys its own entries and replays them.",
			types:  "AWS::Logs::LogGroup", same: true, kept: true,
		},
		"damaged cache": {
			reason: "Damaged entries are rebuilt: the answer is the one built from the schemas.",
			types:  "AWS::Logs::LogGroup,AWS::S3::Bucket", same: true,
			between: func(t *testing.T, cache string) {
				damageAll(t, cache)
			},
		},
		"unwritable cache": {
			reason: "A cache that cannot be written costs the work again, nothing more.",
			types:  "AWS::Logs::LogGroup", same: true,
			between: func(t *testing.T, cache string) {
				if err := os.RemoveAll(cache); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(cache, []byte("a file, not a directory"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
		},
		"changed schema set": {
			reason: "An edited schema in CAIRN_AWSCC_SCHEMAS is another set: the answer has the edit.",
			types:  "AWS::Logs::LogGroup",
			between: func(t *testing.T, _ string) {
				// A later modification time is guaranteed even on file
				// systems with coarse timestamps.
				time.Sleep(10 * time.Millisecond)
				writeLogGroup("FIRST COPY") // the same size: only the modification time tells
			},
			want: "FIRST COPY",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			writeLogGroup("first copy")
			cache := filepath.Join(t.TempDir(), "cache")
			env := []string{"CAIRN_PLUGIN_CACHE=" + cache, "CAIRN_AWSCC_TYPES=" + tc.types, "CAIRN_AWSCC_SCHEMAS="}
			if name == "changed schema set" {
				env[2] = "CAIRN_AWSCC_SCHEMAS=" + overlay
			}
			cold := launch(t, bin, env...)
			if entries, _ := filepath.Glob(filepath.Join(cache, "awscc-*")); len(entries) != 2 {
				t.Fatalf("a cold launch keeps the index and the answer; the cache holds %v", entries)
			}
			if tc.between != nil {
				tc.between(t, cache)
			}
			before := entryTimes(t, cache)
			warm := launch(t, bin, env...)
			if kept := cmp.Equal(before, entryTimes(t, cache)); tc.kept && !kept {
				t.Errorf("%s\nthe second launch rewrote the cache", tc.reason)
			}
			if got := bytes.Equal(cold.schema, warm.schema); got != tc.same {
				t.Errorf("%s\nanswers alike: %v, want %v (%d and %d bytes)", tc.reason, got, tc.same, len(cold.schema), len(warm.schema))
			}
			if tc.want != "" && !bytes.Contains(warm.schema, []byte(tc.want)) {
				t.Errorf("%s\nthe second answer lacks %q", tc.reason, tc.want)
			}
			if third := launch(t, bin, env...); !bytes.Equal(third.schema, warm.schema) {
				t.Errorf("%s\na third launch must replay the second's answer", tc.reason)
			}
		})
	}
}

// entryTimes maps the cache's entries to their modification times.
func entryTimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	entries, _ := filepath.Glob(filepath.Join(dir, "*"))
	out := map[string]time.Time{}
	for _, e := range entries {
		if st, err := os.Stat(e); err == nil {
			out[e] = st.ModTime()
		}
	}
	return out
}

// damageAll overwrites every cache entry with bytes of another kind.
func damageAll(t *testing.T, dir string) {
	t.Helper()
	entries, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no entries to damage: %v", err)
	}
	for _, e := range entries {
		junk := strings.Repeat("not a cache entry ", 100)
		if err := os.WriteFile(e, []byte(junk), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkStartup launches the plugin as Terraform does (go-plugin's
// handshake over mutual TLS) and measures the time to its answer to
// GetProviderSchema, the first call Terraform makes at every launch, as
// the bytes arrive (no client decoding), and the process's peak RSS:
// cold (an empty plugin cache: every schema translated, the answer built
// and kept) and warm (the kept answer replayed), for the one type a
// configuration uses (CAIRN_AWSCC_TYPES) and for every built-in type.
func BenchmarkStartup(b *testing.B) {
	bin := buildPlugin(b)
	for _, types := range []struct{ name, list string }{{"one-type", "AWS::Logs::LogGroup"}, {"every-type", ""}} {
		for _, warm := range []bool{false, true} {
			name := types.name + "/cold"
			if warm {
				name = types.name + "/warm"
			}
			b.Run(name, func(b *testing.B) {
				cache := b.TempDir()
				env := []string{"CAIRN_AWSCC_TYPES=" + types.list, "CAIRN_AWSCC_SCHEMAS=", "CAIRN_PLUGIN_CACHE=" + cache}
				if warm {
					launch(b, bin, env...)
				}
				var total time.Duration
				var rss uint64
				var size int
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if !warm {
						b.StopTimer()
						if err := os.RemoveAll(cache); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
					r := launch(b, bin, env...)
					total += r.toSchema
					rss, size = max(rss, r.peakRSS), len(r.schema)
				}
				b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-schema")
				b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
				b.ReportMetric(float64(size)/(1<<20), "schema-MiB")
			})
		}
	}
}
