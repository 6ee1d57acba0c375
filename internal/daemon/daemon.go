// Package daemon runs consolidation passes on a cron schedule: it skips a
// tick while a pass is still running, survives a panicking pass, catches up
// at once after a restart or a sleep that missed a check, and keeps its state
// in a small JSON file for `dreamd status`. Whether a store is worth a pass
// is the pass's own decision (phases.Gates).
package daemon

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/robfig/cron/v3"
)

// Options configure a Daemon.
type Options struct {
	Schedule  string                          // cron spec or descriptor, the `schedule` config key
	Pass      func(ctx context.Context) error // one consolidation pass; must honour ctx
	StatePath string                          // daemon.json; "" keeps the state in memory only
	Clock     Clock                           // nil: the system clock
	Logger    *slog.Logger                    // nil: discard
	// Watch lists folders the daemon watches while it runs; every file that appears or is
	// written below them is reported to Changed at once (see watch.go). Nil watches nothing.
	Watch   []string
	Changed func(path string)
}

// Daemon schedules passes. Create it with New, then call Run.
type Daemon struct {
	pass  func(context.Context) error
	path  string
	clock Clock
	log   *slog.Logger
	job   cron.Job // check, wrapped once by guard

	mu    sync.Mutex
	spec  string
	sched cron.Schedule
	cron  *cron.Cron // nil unless Run is scheduling
	entry cron.EntryID
	ctx   context.Context // Run's; every pass inherits its cancellation
	state State

	saveMu sync.Mutex     // orders writes of the state file
	extra  sync.WaitGroup // checks started outside cron (catch-up, wake)

	watchRoots []string
	changed    func(path string)
}

// New validates the options; a bad schedule is an error naming the key.
func New(o Options) (*Daemon, error) {
	if o.Pass == nil {
		return nil, errors.New("daemon: no pass to run")
	}
	d := &Daemon{pass: o.Pass, path: o.StatePath, clock: o.Clock, log: o.Logger, watchRoots: o.Watch, changed: o.Changed}
	if d.clock == nil {
		d.clock = systemClock{}
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	sched, err := parseSchedule(o.Schedule, d.clock.Now())
	if err != nil {
		return nil, err
	}
	d.spec, d.sched = o.Schedule, sched
	d.job = guard(cron.FuncJob(d.check), cronLogger{d.log})
	return d, nil
}

// guard makes a tick that arrives while a check runs a no-op, and turns a
// panicking check into a log line. The order matters: SkipIfStillRunning
// frees its slot only when the job it wraps returns normally, so Recover
// must sit inside it; the other way round one panic would hold the slot for
// good and every later tick would be skipped. The job is wrapped once here,
// not per cron entry (cron.WithChain), so the same slot also covers catch-up
// checks and survives Reload.
func guard(j cron.Job, l cron.Logger) cron.Job {
	return cron.NewChain(cron.SkipIfStillRunning(l), cron.Recover(l)).Then(j)
}

// Run schedules checks until ctx is done. Then it stops scheduling, lets the
// in-flight pass see the cancelled ctx, waits for it to return, and returns
// nil. A check is run at once when the last one (from the state file) is
// older than one schedule interval, or when none is on record.
//
// With a state file, only one daemon runs per state directory: a second Run returns an error
// matching ErrAlreadyRunning that names the first.
func (d *Daemon) Run(ctx context.Context) error {
	if d.path != "" {
		lock, err := claim(d.path)
		if err != nil {
			return err
		}
		defer lock.Unlock()
	}
	c := cron.New(cron.WithLogger(cronLogger{d.log}))
	d.mu.Lock()
	if d.cron != nil {
		d.mu.Unlock()
		return errors.New("daemon: already running")
	}
	d.loadState()
	now := d.clock.Now()
	d.ctx, d.cron = ctx, c
	d.entry = c.Schedule(d.sched, d.job)
	d.state.PID, d.state.Started, d.state.Running = os.Getpid(), wall(now), true
	catchUp := overdue(d.sched, d.state.LastCheck, now)
	spec := d.spec
	d.mu.Unlock()

	c.Start()
	d.save()
	d.log.Info("daemon started", "schedule", spec, "next_check", d.nextCheck())
	if catchUp {
		d.log.Info("catching up: no check within the last schedule interval")
		d.extra.Go(d.job.Run)
	}
	var watching sync.WaitGroup
	watching.Go(func() { d.watch(ctx) })
	d.watchWake(ctx)
	watching.Wait()
	d.shutdown(c)
	return nil
}

// loadState takes the check history from the state file; d.mu is held.
func (d *Daemon) loadState() {
	if d.path == "" {
		return
	}
	s, err := ReadState(d.path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			d.log.Warn("ignoring unreadable daemon state", "err", err)
		}
		return
	}
	d.state.LastCheck, d.state.LastSuccess, d.state.LastError = s.LastCheck, s.LastSuccess, s.LastError
}

func (d *Daemon) shutdown(c *cron.Cron) {
	d.mu.Lock()
	d.cron = nil
	d.mu.Unlock()
	<-c.Stop().Done()
	d.extra.Wait()
	d.mu.Lock()
	d.state.Running = false
	d.mu.Unlock()
	d.save()
	d.log.Info("daemon stopped")
}

// Reload switches to a new schedule (SIGHUP). A bad spec is an error naming
// the `schedule` key, and the old schedule stays in force.
func (d *Daemon) Reload(spec string) error {
	sched, err := parseSchedule(spec, d.clock.Now())
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.spec, d.sched = spec, sched
	if d.cron != nil {
		d.cron.Remove(d.entry)
		d.entry = d.cron.Schedule(sched, d.job)
	}
	d.mu.Unlock()
	d.save()
	d.log.Info("schedule reloaded", "schedule", spec, "next_check", d.nextCheck())
	return nil
}

// Status reports the daemon's state now.
func (d *Daemon) Status() State {
	d.mu.Lock()
	s := d.state
	d.mu.Unlock()
	s.NextCheck = d.nextCheck()
	return s
}

// nextCheck is when cron will next fire, zero unless Run is scheduling.
func (d *Daemon) nextCheck() time.Time {
	d.mu.Lock()
	c, id := d.cron, d.entry
	d.mu.Unlock()
	if c == nil {
		return time.Time{}
	}
	return wall(c.Entry(id).Next)
}

// save writes the current state; failures are logged, never fatal, since
// the state file only serves status and catch-up.
func (d *Daemon) save() {
	if d.path == "" {
		return
	}
	d.saveMu.Lock()
	defer d.saveMu.Unlock()
	if err := writeState(d.path, d.Status()); err != nil {
		d.log.Warn("cannot write daemon state", "path", d.path, "err", err)
	}
}
