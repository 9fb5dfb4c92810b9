package command

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
)

// operation is a plan (and possibly apply) in progress: the loaded
// configuration, the locked state and the providers.
type operation struct {
	cfg     *configs.Module
	state   *stateHandle
	library *providers.Library
	schemas providers.Schemas
	// prepared lets apply reuse the bodies planning analysed.
	prepared *eval.PreparedCache
}

// startOperation loads the configuration and locks and reads the state.
func (m *Meta) startOperation(c *commonFlags, name string) (*operation, diags.Diagnostics) {
	// Module sources built from variables are evaluated while loading,
	// with the command's -var and -var-file options.
	m.varFlags = c.vars
	cfg, ds := m.loadConfig()
	if ds.HasErrors() {
		return nil, ds
	}
	lib, rds := m.providerLibrary(cfg)
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return nil, ds
	}
	h, sds := m.openState(cfg, c.lock, c.lockTimeout, name)
	ds = ds.Append(sds)
	if sds.HasErrors() {
		return nil, ds
	}
	return &operation{cfg: cfg, state: h, library: lib, prepared: eval.NewPreparedCache()}, ds
}

// makePlan plans the operation's configuration against its state.
func (m *Meta) makePlan(ctx context.Context, op *operation, c *commonFlags, mode plans.Mode) (*plans.Plan, diags.Diagnostics) {
	vars, ds := m.collectVariables(c.vars)
	if ds.HasErrors() {
		return nil, ds
	}
	if ds = ds.Append(checkReplaceMode(c, mode)); ds.HasErrors() {
		return nil, ds
	}
	m.promptVariables(op.cfg, vars, c.input)
	var replace []addrs.AbsResourceInstance
	for _, r := range c.replace {
		addr, rds := addrs.ParseAbsResourceInstanceStr(r)
		ds = ds.Append(rds)
		if !rds.HasErrors() {
			replace = append(replace, addr)
		}
	}
	targets, excludes, tds := m.parseTargeting(c)
	if ds = ds.Append(tds); ds.HasErrors() {
		return nil, ds
	}
	lineage, serial := op.state.lineageSerial()
	opts := planning.Options{
		Secrets: m.runSecrets(), Mode: mode, Config: op.cfg, PrevState: op.state.state(), StateLineage: lineage, StateSerial: serial,
		Variables: vars, Providers: op.library, Funcs: m.funcTable(true), Parallelism: c.parallelism,
		SkipRefresh: !c.refresh, ForceReplace: replace, Targets: targets, Excludes: excludes, Now: m.Now().UTC(), Prepared: op.prepared, Workspace: op.state.workspace,
	}
	if m.gen != nil && len(m.gen.targets) > 0 && mode == plans.NormalMode {
		gds := m.generateConfig(ctx, op, &opts)
		if ds = ds.Append(gds); gds.HasErrors() {
			return nil, ds
		}
	}
	pp := m.refreshProgress()
	opts.OnRefresh, opts.OnRefreshed, opts.OnImport, opts.OnRead, opts.OnReadComplete = pp.start, pp.complete, pp.importing, pp.read, pp.readComplete
	opts.OnEphemeral = pp.ephemeral
	p, pds := planning.Plan(ctx, opts)
	pp.done()
	ds = ds.Append(pds)
	if p != nil {
		op.schemas = m.schemasFor(ctx, op.library, p)
	}
	return p, ds
}

// schemasFor loads the schemas of the providers a plan involves, for
// rendering.
func (m *Meta) schemasFor(ctx context.Context, lib *providers.Library, p *plans.Plan) providers.Schemas {
	s, _ := lib.Schemas(ctx, p.Providers())
	return s
}

// interruptible returns a context cancelled on the first interrupt, so a
// running apply stops starting new operations, providers are asked to
// stop (plugins get StopProvider), and the ones in flight are finished
// and recorded. A second interrupt is a hard stop (providers.WithHardStop):
// calls still waiting on a plugin are abandoned, as Terraform exits on a
// second interrupt.
func (m *Meta) interruptible() (context.Context, func()) {
	hard, cancelHard := context.WithCancel(context.Background())
	ctx, cancel := context.WithCancel(providers.WithHardStop(context.Background(), hard))
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt)
	go func() {
		notices := []string{
			"\nInterrupt received.\nPlease wait for Cairn to exit or data loss may occur.\nGracefully shutting down...\n",
			"\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.\n",
		}
		stops := []func(){cancel, cancelHard}
		for i := range stops {
			select {
			case <-ch:
				m.notice(notices[i])
				stops[i]()
			case <-hard.Done():
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel()
		cancelHard()
	}
}

// notice prints a message about the run itself: a log message in the
// JSON stream, else a paragraph on stderr.
func (m *Meta) notice(text string) {
	if m.jsonUI != nil {
		m.jsonUI.emit(render.UILogMessage(text))
		return
	}
	m.Stderr.Write([]byte(text + "\n"))
}

// planProgress is what planning reports as it goes.
type planProgress struct {
	start, complete func(addrs.AbsResourceInstanceObject, cty.Value)
	importing       func(addrs.AbsResourceInstance, string)
	read            func(addrs.AbsResourceInstance)
	readComplete    func(addrs.AbsResourceInstance, cty.Value, time.Duration)
	ephemeral       lifecycle.EphemeralHook
	done            func()
}

// refreshProgress reports each existing object as planning reads it: the
// line "addr: Refreshing state... [id=...]" Terraform prints, or with -json
// the refresh_start and refresh_complete messages; before an import
// block's object is read, "addr: Preparing import... [id=ID]" (Terraform
// 1.5.7's JSON UI has no message for that); and each data source read
// while planning, "addr: Reading..." and "addr: Read complete after 0s",
// or with -json apply_start and apply_complete with action read, as
// Terraform reports them. done writes out what is buffered and must be
// called before anything else is printed.
func (m *Meta) refreshProgress() planProgress {
	if m.machineOutput && m.jsonUI == nil {
		return planProgress{done: func() {}}
	}
	out := newProgressOut(m.Stdout, nil)
	pp := planProgress{done: out.Close}
	pp.read, pp.readComplete = m.readProgress(out)
	pp.ephemeral = m.ephemeralProgress(out)
	managed := func(addr addrs.AbsResourceInstanceObject) bool {
		return addr.ResourceInstance.Resource.Resource.Mode != addrs.DataResourceMode
	}
	if v := m.jsonUI; v != nil {
		pp.start = func(addr addrs.AbsResourceInstanceObject, prior cty.Value) {
			if managed(addr) {
				out.Printf("%s", v.encode(render.UIRefreshStart(addr.ResourceInstance, prior, m.secrets)))
			}
		}
		pp.complete = func(addr addrs.AbsResourceInstanceObject, refreshed cty.Value) {
			if managed(addr) {
				out.Printf("%s", v.encode(render.UIRefreshComplete(addr.ResourceInstance, refreshed, m.secrets)))
			}
		}
		return pp
	}
	pp.start = func(addr addrs.AbsResourceInstanceObject, prior cty.Value) {
		if managed(addr) {
			out.Printf("%s: Refreshing state...%s\n", m.bold(addr.String()), m.idSuffix(prior))
		}
	}
	pp.importing = func(addr addrs.AbsResourceInstance, id string) {
		out.Printf("%s\n", m.bold(fmt.Sprintf("%s: Preparing import... [%s]", addr, id)))
	}
	return pp
}

// readProgress words the reads of data sources while planning.
func (m *Meta) readProgress(out *progressOut) (read func(addrs.AbsResourceInstance), complete func(addrs.AbsResourceInstance, cty.Value, time.Duration)) {
	if v := m.jsonUI; v != nil {
		read = func(addr addrs.AbsResourceInstance) {
			out.Printf("%s", v.encode(render.UIApplyStart(addr, plans.Read, cty.NullVal(cty.DynamicPseudoType), m.secrets)))
		}
		complete = func(addr addrs.AbsResourceInstance, val cty.Value, elapsed time.Duration) {
			out.Printf("%s", v.encode(render.UIApplyComplete(addr, plans.Read, val, elapsed.Round(time.Second), m.secrets)))
		}
		return read, complete
	}
	read = func(addr addrs.AbsResourceInstance) {
		out.Printf("%s: Reading...\n", m.bold(addr.String()))
	}
	complete = func(addr addrs.AbsResourceInstance, val cty.Value, elapsed time.Duration) {
		out.Printf("%s: Read complete after %s%s\n", m.bold(addr.String()), elapsed.Truncate(time.Second), m.idSuffix(val))
	}
	return read, complete
}

// ephemeralProgress words what happens to ephemeral resources, as
// OpenTofu 1.12 does: "addr: Opening..." and "addr: Open complete after
// 0s" (Renewing, Closing likewise), or with -json the
// ephemeral_action_started and ephemeral_action_complete messages.
func (m *Meta) ephemeralProgress(out *progressOut) lifecycle.EphemeralHook {
	if v := m.jsonUI; v != nil {
		return func(addr addrs.AbsResourceInstance, op lifecycle.EphemeralOp, done bool, _ time.Duration) {
			out.Printf("%s", v.encode(render.UIEphemeral(addr, byte(op), done)))
		}
	}
	return func(addr addrs.AbsResourceInstance, op lifecycle.EphemeralOp, done bool, elapsed time.Duration) {
		starting, complete := render.EphemeralWords(byte(op))
		if !done {
			out.Printf("%s: %s\n", m.bold(addr.String()), starting)
			return
		}
		out.Printf("%s: %s after %s\n", m.bold(addr.String()), complete, elapsed.Truncate(time.Second))
	}
}
