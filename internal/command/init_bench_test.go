package command

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/getproviders"
	"github.com/cairn-iac/cairn/internal/testmodsrv"
	"github.com/cairn-iac/cairn/internal/testproviders"
	"github.com/cairn-iac/cairn/internal/testprovsrv"
)

// initBenchProviders are the five providers of BenchmarkInitRemote: the
// three real plugins the tests build, two of them published a second
// time under another namespace (init never runs them).
var initBenchProviders = []struct{ ns, typ string }{
	{"bench", "random"}, {"bench", "time"}, {"bench", "local"}, {"extra", "random"}, {"extra", "time"},
}

// initBenchModules is how many module calls of each kind the benchmark
// configuration makes: registry modules (packages as .tar.gz archives)
// and git repositories over smart HTTP, 20 in all.
const initBenchModules = 10

// initBench is a configuration of 20 remote modules and 5 registry
// providers, with the loopback servers that serve them.
type initBench struct {
	prov  *testprovsrv.Server
	mods  *testmodsrv.Server
	dir   string // the configuration
	env   []string
	cache string // TF_PLUGIN_CACHE_DIR
}

func newInitBench(b *testing.B) *initBench {
	plat := getproviders.CurrentPlatform().String()
	prov := testprovsrv.Start(b)
	for _, p := range initBenchProviders {
		bin, ok := testproviders.Binary(p.typ)
		if !ok {
			b.Skipf("the %s test provider is not built (scripts/build-test-providers.sh)", p.typ)
		}
		prov.Add(b, testprovsrv.Release{Namespace: p.ns, Type: p.typ, Version: testproviders.Versions[p.typ], Binary: bin, Platform: plat})
	}
	mods := testmodsrv.Start(b)
	var main strings.Builder
	main.WriteString("terraform {\n  required_providers {\n")
	for _, p := range initBenchProviders {
		fmt.Fprintf(&main, "    %s-%s = { source = %q, version = %q }\n", p.ns, p.typ, prov.Host+"/"+p.ns+"/"+p.typ, testproviders.Versions[p.typ])
	}
	main.WriteString("  }\n}\n")
	for i := 0; i < initBenchModules; i++ {
		files := map[string]string{"main.tf": fmt.Sprintf("variable \"n\" {\n  default = %d\n}\noutput \"n\" { value = var.n }\n", i)}
		mods.AddArchive(b, fmt.Sprintf("reg%02d", i), files)
		mods.AddRegistryVersion(fmt.Sprintf("bench/reg%02d/aws", i), "1.0.0", mods.URL+fmt.Sprintf("/archive/reg%02d.tar.gz", i))
		fmt.Fprintf(&main, "module \"reg%02d\" {\n  source  = \"%s/bench/reg%02d/aws\"\n  version = \"~> 1.0\"\n}\n", i, mods.Host, i)
		repo := mods.AddGitCommit(b, fmt.Sprintf("git%02d", i), files, "v1")
		fmt.Fprintf(&main, "module \"git%02d\" {\n  source = \"git::%s?ref=v1\"\n}\n", i, repo)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(main.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	home := b.TempDir()
	env := append(os.Environ(), "HOME="+home, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "XDG_CACHE_HOME="+filepath.Join(home, ".cache"))
	env = append(env, mods.Env()...)
	return &initBench{prov: prov, mods: mods, dir: dir, env: env, cache: filepath.Join(home, "plugin-cache")}
}

// served is what both servers have answered so far.
func (ib *initBench) served() (int, int64) {
	pr, pb := ib.prov.Totals.Get()
	mr, mb := ib.mods.Totals.Get()
	return pr + mr, pb + mb
}

// run runs one "init" of tool (a path) in the configuration, after
// resetting it: cold removes .terraform, the lock file and the plugin
// cache; warm only .terraform, keeping the lock file and a filled cache
// (a CI job that restores the cache). It returns the process's peak
// resident memory in bytes and the CPU time (user and system) of it and
// the processes it waited for (git), 0 and 0 without GNU time, and its
// wall time.
func (ib *initBench) run(b *testing.B, tool string, warm bool) (rss int64, cpu, wall time.Duration) {
	b.StopTimer()
	remove := []string{filepath.Join(ib.dir, ".terraform")}
	if !warm {
		remove = append(remove, filepath.Join(ib.dir, ".terraform.lock.hcl"), ib.cache)
	}
	for _, p := range remove {
		if err := os.RemoveAll(p); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.MkdirAll(ib.cache, 0o755); err != nil {
		b.Fatal(err)
	}
	// GNU time reports the tool's own peak: the rusage of a process
	// forked from this (large) test process would carry this process's
	// resident size over its exec.
	report := filepath.Join(b.TempDir(), "rss")
	cmd := exec.Command(tool, "init", "-no-color", "-input=false")
	if timeBin, err := exec.LookPath("time"); err == nil {
		cmd = exec.Command(timeBin, "-f", "%M %U %S", "-o", report, tool, "init", "-no-color", "-input=false")
	}
	cmd.Dir, cmd.Env = ib.dir, append(ib.env, "TF_PLUGIN_CACHE_DIR="+ib.cache)
	b.StartTimer()
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall = time.Since(start)
	b.StopTimer()
	if err != nil {
		b.Fatalf("%s init: %v\n%s", filepath.Base(tool), err, out)
	}
	text, err := os.ReadFile(report)
	if err != nil {
		return 0, 0, wall
	}
	var kb int64
	var user, sys float64
	if _, err := fmt.Sscan(string(text), &kb, &user, &sys); err != nil {
		b.Fatalf("reading GNU time's report %q: %v", text, err)
	}
	return kb << 10, time.Duration((user + sys) * float64(time.Second)), wall // %M is in kilobytes, %U and %S in seconds
}

// BenchmarkInitRemote measures "init" of a configuration calling 20
// remote modules (10 from the module registry, 10 git repositories) and
// requiring 5 providers from a registry, all on loopback HTTPS servers,
// cold and warm (see initBench.run), for Cairn (the test binary run as
// "cairn", as the scripts run it, or the binary $CAIRN_BENCH_CAIRN names)
// and Terraform 1.5.7 ($CAIRN_TERRAFORM)
// side by side. Besides ns/op it reports the requests the servers
// answered and the bytes they sent per init, and the peak resident
// memory of the init process and the CPU time of it and its git
// processes (from GNU time; 0 without it): on a shared machine wall time
// swings with other load, CPU time much less.
//
//	go test -run '^$' -bench InitRemote -benchtime 3x ./internal/command/
func BenchmarkInitRemote(b *testing.B) {
	ib := newInitBench(b)
	tools := map[string]string{}
	if p := os.Getenv("CAIRN_BENCH_CAIRN"); p != "" {
		tools["cairn"] = p // a built cmd/cairn, for a peak memory without the test code
	} else if p, err := exec.LookPath("cairn"); err == nil {
		tools["cairn"] = p
	}
	if tf := terraformBinary(); tf != "" {
		tools["terraform"] = tf
	}
	for _, name := range []string{"cairn", "terraform"} {
		for _, warm := range []bool{false, true} {
			mode := map[bool]string{false: "cold", true: "warm"}[warm]
			b.Run(name+"/"+mode, func(b *testing.B) {
				tool, ok := tools[name]
				if !ok {
					b.Skipf("%s is not installed", name)
				}
				if warm {
					ib.run(b, tool, false) // fill the cache and write the lock file
				}
				req0, bytes0 := ib.served()
				var peak int64
				var cpu time.Duration
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					rss, c, _ := ib.run(b, tool, warm)
					peak, cpu = max(peak, rss), cpu+c
				}
				req, bytes := ib.served()
				b.ReportMetric(float64(req-req0)/float64(b.N), "requests/op")
				b.ReportMetric(float64(bytes-bytes0)/float64(b.N), "bytes/op")
				b.ReportMetric(float64(peak), "peak-rss-bytes")
				b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkInitRemotePaired runs the init of BenchmarkInitRemote with
// Cairn and Terraform alternating, one of each per op, so that both meet
// the same load on a shared machine, and reports each one's mean wall
// time and the median of the per-pair ratio Cairn/Terraform.
//
//	go test -run '^$' -bench InitRemotePaired -benchtime 5x ./internal/command/
func BenchmarkInitRemotePaired(b *testing.B) {
	tf := terraformBinary()
	cairn := os.Getenv("CAIRN_BENCH_CAIRN")
	if cairn == "" {
		cairn, _ = exec.LookPath("cairn")
	}
	if tf == "" || cairn == "" {
		b.Skip("needs both cairn and terraform")
	}
	ib := newInitBench(b)
	for _, warm := range []bool{false, true} {
		b.Run(map[bool]string{false: "cold", true: "warm"}[warm], func(b *testing.B) {
			var sumC, sumT time.Duration
			var ratios []float64
			for i := 0; i < b.N; i++ {
				if warm && i == 0 {
					ib.run(b, tf, false) // the lock file and a filled cache
				}
				_, _, c := ib.run(b, cairn, warm)
				_, _, t := ib.run(b, tf, warm)
				sumC, sumT = sumC+c, sumT+t
				ratios = append(ratios, float64(c)/float64(t))
			}
			slices.Sort(ratios)
			b.ReportMetric(float64(sumC.Nanoseconds())/float64(b.N), "cairn-ns/op")
			b.ReportMetric(float64(sumT.Nanoseconds())/float64(b.N), "terraform-ns/op")
			b.ReportMetric(ratios[len(ratios)/2], "median-cairn/terraform")
		})
	}
}
