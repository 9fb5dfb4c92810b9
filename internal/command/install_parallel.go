package command

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/cairn-iac/cairn/internal/diags"
)

// installParallelism bounds the provider queries and downloads init runs
// at once: they wait on the network, not the cores, and a handful in
// flight fills a link without opening dozens of connections to one
// registry.
const installParallelism = 8

// errJobFailed cancels the other jobs of runParallel.
var errJobFailed = errors.New("install job failed")

// runParallel runs job(ctx, i) for every i < n, at most
// installParallelism at once. The first job to fail cancels the context
// of the others and skips those not started; its diagnostics are the
// errors returned (the others' failures would only be the cancellation),
// with the warnings of every job in job order. done(i), when not nil,
// is called after every job i, run or skipped, so that held output can
// be released.
func runParallel(n int, job func(ctx context.Context, i int) diags.Diagnostics, done func(i int)) diags.Diagnostics {
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(installParallelism)
	results := make([]diags.Diagnostics, n)
	first := -1
	var once sync.Once
	for i := 0; i < n; i++ {
		g.Go(func() error {
			if done != nil {
				defer done(i)
			}
			if ctx.Err() != nil {
				return nil
			}
			ds := runJob(ctx, i, job)
			results[i] = ds
			if ds.HasErrors() {
				once.Do(func() { first = i })
				return errJobFailed
			}
			return nil
		})
	}
	_ = g.Wait()
	var out diags.Diagnostics
	for i, ds := range results {
		for _, d := range ds {
			if d.Severity != diags.Error || i == first {
				out = append(out, d)
			}
		}
	}
	return out
}

// runJob runs one job, turning its panic (a bug) into an error
// diagnostic rather than ending init with other downloads half done.
func runJob(ctx context.Context, i int, job func(ctx context.Context, i int) diags.Diagnostics) (ds diags.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			ds = diags.Diagnostics{diags.Errorf("Provider installation failed", "Internal error: %v. This is a bug in Cairn.", r)}
		}
	}()
	return job(ctx, i)
}
