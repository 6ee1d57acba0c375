package daemon

import (
	"context"
	"errors"
	"runtime/debug"
	"time"
)

// errPanicked stands in for the result of a pass that panicked; cron.Recover
// logs the panic itself.
var errPanicked = errors.New("pass panicked (see the log)")

// check runs one pass and records it. It is the job cron runs.
func (d *Daemon) check() {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	if ctx == nil || ctx.Err() != nil {
		return // shutting down: a tick that raced the stop
	}
	start := wall(d.clock.Now())
	d.begin()
	var err error
	returned := false
	defer func() {
		if !returned {
			err = errPanicked
		}
		d.end(ctx, start, err)
	}()
	err = d.pass(ctx)
	returned = true
}

func (d *Daemon) begin() {
	d.mu.Lock()
	d.state.Checking = true
	d.mu.Unlock()
	d.save()
	d.log.Debug("check started")
}

// end records a finished check. A pass cut short by shutdown does not count
// as a check, so the next start catches up on it at once.
func (d *Daemon) end(ctx context.Context, start time.Time, err error) {
	took := d.clock.Now().Sub(start).Round(time.Millisecond)
	interrupted := err != nil && ctx.Err() != nil
	d.mu.Lock()
	d.state.Checking = false
	switch {
	case interrupted:
		d.state.LastError = "interrupted by shutdown: " + err.Error()
	case err != nil:
		d.state.LastCheck, d.state.LastError = start, err.Error()
	default:
		d.state.LastCheck, d.state.LastSuccess, d.state.LastError = start, wall(d.clock.Now()), ""
	}
	d.mu.Unlock()
	d.save()
	// The daemon sleeps far longer than it works: give the pass's heap back to the OS now rather
	// than hold it, at the GC's relaxed pace, until the next check.
	debug.FreeOSMemory()
	switch {
	case interrupted:
		d.log.Info("check interrupted by shutdown", "took", took, "err", err)
	case err != nil:
		d.log.Error("check failed", "took", took, "err", err)
	default:
		d.log.Info("check done", "took", took, "next_check", d.nextCheck())
	}
}
