package command

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/diags"
)

// runCloudControlServe implements "cairn cloudcontrol serve": a Cloud
// Control-compatible endpoint serving every built-in CloudFormation type
// (and the types of -schemas) with the schema-driven emulator, until
// interrupted. AWS SDKs, the AWS CLI, HashiCorp's awscc provider and
// Cairn's reach it with AWS_ENDPOINT_URL=http://ADDR.
func runCloudControlServe(m *Meta, args []string) int {
	fs := newFlagSet("cloudcontrol serve", m.Stderr)
	var addr, data, region, account, logLevel, urlFile string
	var schemas stringList
	var latency, rtt time.Duration
	var rate float64
	fs.StringVar(&addr, "addr", ccendpoint.DefaultAddr, "Address to listen on (loopback by default; port 0 picks one).")
	fs.Var(&schemas, "schemas", "Directory of CloudFormation schemas laid over the built-in ones (repeatable).")
	fs.StringVar(&data, "data", ".cairn-cloudcontrol", "Directory of the endpoint's durable store.")
	fs.StringVar(&region, "region", "us-east-1", "Region the endpoint answers for (in ARNs).")
	fs.StringVar(&account, "account", "123456789012", "Account the endpoint answers for (in ARNs and GetCallerIdentity).")
	fs.DurationVar(&latency, "latency", 0, "Make every create, update and delete take this long, to exercise polling.")
	fs.DurationVar(&rtt, "rtt", 0, "Delay the answer of every Cloud Control call (reads included) by this long, as a network round trip to AWS would.")
	fs.Float64Var(&rate, "rate", 0, "Accept at most this many Cloud Control calls a second (0: no limit); the excess is answered with ThrottlingException, as Cloud Control answers it.")
	fs.StringVar(&urlFile, "url-file", "", "Write the endpoint's URL to this file once it listens (for scripts, with -addr 127.0.0.1:0).")
	logLevel = "off"
	fs.Var(logLevelFlag{&logLevel}, "log", "Log a line per call on stderr: -log alone is info; -log=debug, warn or error choose the level. Quiet (off) by default.")
	if !m.parseFlags(fs, joinLogLevel(args)) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.errorf("Too many command line arguments", "cloudcontrol serve takes no arguments.")
	}
	if latency < 0 || rtt < 0 || rate < 0 {
		return m.errorf("Invalid flag value", "-latency, -rtt and -rate cannot be negative.")
	}
	logger, err := serveLogger(m, logLevel)
	if err != nil {
		return m.errorf("Invalid -log", "%s.", err)
	}
	dirs := make([]string, len(schemas))
	for i, d := range schemas {
		dirs[i] = m.absPath(d)
	}
	// Static credentials turn on signature checks: a shared endpoint then
	// serves only clients that know them.
	e, err := ccendpoint.Start(ccendpoint.Options{
		Addr: addr, DataDir: m.absPath(data), SchemaDirs: dirs, Region: region, Account: account,
		AccessKey: m.Getenv("CAIRN_CLOUDCONTROL_ACCESS_KEY_ID"), SecretKey: m.Getenv("CAIRN_CLOUDCONTROL_SECRET_ACCESS_KEY"),
		Latency: latency, RTT: rtt, Rate: rate, Logger: logger,
	})
	if err != nil {
		return m.errorf("Cannot start the Cloud Control endpoint", "%s.", err)
	}
	if n := e.Notice(); n != "" {
		m.showDiags(diags.Diagnostics{{Severity: diags.Warning, Summary: "Empty Cloud Control store", Detail: n + "."}})
	}
	fmt.Fprintf(m.Stdout, "Cloud Control endpoint listening on %s (data in %s).\nUse it with AWS_ENDPOINT_URL=%s\n", e.URL, m.absPath(data), e.URL)
	if urlFile != "" {
		// Written whole through a rename, so a script polling for the
		// file never reads half a URL.
		tmp := m.absPath(urlFile) + ".tmp"
		if err := os.WriteFile(tmp, []byte(e.URL), 0o600); err == nil {
			err = os.Rename(tmp, m.absPath(urlFile))
		}
		if err != nil {
			e.Close()
			return m.errorf("Cannot write -url-file", "%s.", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	if err := e.Close(); err != nil {
		return m.errorf("Cloud Control endpoint stopped with an error", "%s.", err)
	}
	calls, throttled := e.Calls()
	fmt.Fprintf(m.Stdout, "Cloud Control endpoint stopped after %d calls (%s; %d throttled).\n", calls.Total(), calls, throttled)
	return 0
}

// logLevelFlag is -log: alone it means info (a line per call), with a
// value that level. The endpoint is quiet without it, so running it in
// the background does not flood the terminal.
type logLevelFlag struct{ level *string }

func (f logLevelFlag) String() string {
	if f.level == nil {
		return "off"
	}
	return *f.level
}

func (f logLevelFlag) Set(v string) error {
	if v == "true" {
		v = "info"
	}
	if v == "false" {
		v = "off"
	}
	*f.level = v
	return nil
}

func (logLevelFlag) IsBoolFlag() bool { return true }

// joinLogLevel turns "-log LEVEL" into "-log=LEVEL", so the level may
// follow as its own argument (as it did when -log always took one) while
// -log alone still means info.
func joinLogLevel(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "-log" || a == "--log") && i+1 < len(args) {
			switch strings.ToLower(args[i+1]) {
			case "debug", "info", "warn", "error", "off":
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		if a == "--" {
			return append(out, args[i:]...)
		}
		out = append(out, a)
	}
	return out
}

func serveLogger(m *Meta, level string) (*slog.Logger, error) {
	var l slog.Level
	switch strings.ToLower(level) {
	case "off":
		return nil, nil
	case "debug":
		l = slog.LevelDebug
	case "info":
		l = slog.LevelInfo
	case "warn":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		return nil, fmt.Errorf("%q is not one of debug, info, warn, error, off", level)
	}
	return slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: l})), nil
}
