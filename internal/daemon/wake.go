package daemon

import (
	"context"
	"time"
)

// Go timers run on the monotonic clock, which stops while a machine sleeps:
// a check due during a laptop's sleep would fire up to an interval late.
// watchWake compares the wall clock with cron's next time every minute and
// runs the missed check at once.
const (
	wakeCheckEvery = time.Minute
	wakeSlack      = time.Minute // cron itself fires on time; give it this long
)

// watchWake blocks until ctx is done.
func (d *Daemon) watchWake(ctx context.Context) {
	t := time.NewTicker(wakeCheckEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if d.missedCheck() {
				d.log.Info("catching up: the scheduled check was missed (the machine slept?)")
				d.extra.Go(d.job.Run)
			}
		}
	}
}

// missedCheck: cron's next time is well past on the wall clock, and no check
// has started since it was due.
func (d *Daemon) missedCheck() bool {
	next := d.nextCheck()
	d.mu.Lock()
	last, checking := d.state.LastCheck, d.state.Checking
	d.mu.Unlock()
	if checking || next.IsZero() {
		return false
	}
	return wall(d.clock.Now()).After(next.Add(wakeSlack)) && wall(last).Before(next)
}
