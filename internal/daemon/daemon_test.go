package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robfig/cron/v3"
)

// The scheduler tests run in a synctest bubble: time.Sleep advances a fake
// clock as soon as every goroutine is blocked, so nothing waits for real.

// fakePass counts calls and runs each through an optional behaviour.
type fakePass struct {
	calls atomic.Int32
	do    func(ctx context.Context, call int) error
}

func (p *fakePass) run(ctx context.Context) error {
	n := int(p.calls.Add(1))
	if p.do == nil {
		return nil
	}
	return p.do(ctx, n)
}

// shiftClock is the wall clock plus an offset, to mimic a sleeping machine:
// its wall time jumps while the bubble's monotonic timers stand still.
type shiftClock struct {
	mu  sync.Mutex
	off time.Duration
}

func (c *shiftClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *shiftClock) shift(d time.Duration) {
	c.mu.Lock()
	c.off += d
	c.mu.Unlock()
}

type harness struct {
	t      *testing.T
	d      *Daemon
	path   string
	cancel context.CancelFunc
	done   chan error
}

// checkedAt is a state file whose last check was at.
func checkedAt(t *testing.T, at time.Time) []byte {
	data, err := json.Marshal(State{LastCheck: at})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// start runs a daemon on spec, its state file seeded with seed (none if nil).
func start(t *testing.T, spec string, pass *fakePass, seed []byte, clock Clock) *harness {
	t.Helper()
	path := filepath.Join(t.TempDir(), "daemon.json")
	if seed != nil {
		if err := os.WriteFile(path, seed, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d, err := New(Options{Schedule: spec, Pass: pass.run, StatePath: path, Clock: clock,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	h := &harness{t: t, d: d, path: path, cancel: cancel, done: make(chan error, 1)}
	go func() { h.done <- d.Run(ctx) }()
	synctest.Wait()
	return h
}

// stop cancels Run and requires it to have returned without time passing.
func (h *harness) stop() {
	h.t.Helper()
	before := time.Now()
	h.cancel()
	synctest.Wait()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Fatalf("Run = %v", err)
		}
	default:
		h.t.Fatal("Run did not return after cancel")
	}
	if waited := time.Since(before); waited != 0 {
		h.t.Errorf("stopping took %v of fake time", waited)
	}
}

// advance lets fake time pass and every goroutine settle.
func advance(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func wantCalls(t *testing.T, p *fakePass, want int) {
	t.Helper()
	if got := int(p.calls.Load()); got != want {
		t.Fatalf("pass ran %d times, want %d", got, want)
	}
}

func TestEveryScheduleFires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pass := &fakePass{}
		h := start(t, "@every 2s", pass, checkedAt(t, time.Now()), nil)
		wantCalls(t, pass, 0)
		advance(2 * time.Second)
		wantCalls(t, pass, 1)
		advance(3 * time.Second)
		wantCalls(t, pass, 2)
		st := h.d.Status()
		if st.LastSuccess.IsZero() || st.LastError != "" || !st.Running || st.Checking || st.PID != os.Getpid() {
			t.Errorf("Status = %+v", st)
		}
		if want := time.Now().Add(time.Second); !st.NextCheck.Equal(want) {
			t.Errorf("NextCheck = %v, want %v", st.NextCheck, want)
		}
		if file, err := ReadState(h.path); err != nil || !file.Running || file.PID != os.Getpid() || !file.NextCheck.Equal(st.NextCheck) {
			t.Errorf("state file = %+v, %v", file, err)
		}
		h.stop()
		wantCalls(t, pass, 2)
	})
}

func TestSkipIfStillRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		pass := &fakePass{do: func(ctx context.Context, call int) error {
			if call == 1 {
				<-release
			}
			return nil
		}}
		h := start(t, "@every 2s", pass, checkedAt(t, time.Now()), nil)
		advance(2 * time.Second)
		if !h.d.Status().Checking {
			t.Error("Status().Checking = false while a pass is in flight")
		}
		if st, err := ReadState(h.path); err != nil || !st.Checking {
			t.Errorf("state file: Checking = %v, err = %v; want true", st.Checking, err)
		}
		advance(4 * time.Second) // ticks at 4s and 6s arrive while the first pass runs
		wantCalls(t, pass, 1)
		close(release)
		synctest.Wait()
		advance(2 * time.Second) // tick at 8s
		wantCalls(t, pass, 2)
		h.stop()
	})
}

func TestPanickingPassDoesNotWedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pass := &fakePass{do: func(ctx context.Context, call int) error {
			if call == 1 {
				panic("boom")
			}
			return nil
		}}
		h := start(t, "@every 2s", pass, checkedAt(t, time.Now()), nil)
		advance(2 * time.Second)
		wantCalls(t, pass, 1)
		if st := h.d.Status(); st.Checking || !strings.Contains(st.LastError, "panicked") {
			t.Errorf("after a panic: Status = %+v", st)
		}
		advance(2 * time.Second)
		wantCalls(t, pass, 2)
		if st := h.d.Status(); st.LastError != "" {
			t.Errorf("after a clean pass: LastError = %q", st.LastError)
		}
		h.stop()
	})
}

// TestGuardOrder pins down why Recover sits inside SkipIfStillRunning.
func TestGuardOrder(t *testing.T) {
	tests := []struct {
		name  string
		wrap  func(cron.Job, cron.Logger) cron.Job
		calls int
	}{
		{"guard: recover inside skip", guard, 2},
		{"recover outside skip wedges", func(j cron.Job, l cron.Logger) cron.Job {
			return cron.NewChain(cron.Recover(l), cron.SkipIfStillRunning(l)).Then(j)
		}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			job := tt.wrap(cron.FuncJob(func() {
				calls++
				if calls == 1 {
					panic("boom")
				}
			}), cron.DiscardLogger)
			job.Run()
			job.Run()
			if calls != tt.calls {
				t.Errorf("job ran %d times, want %d", calls, tt.calls)
			}
		})
	}
}

func TestCancelStopsInFlightPass(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lastCheck := time.Now()
		pass := &fakePass{do: func(ctx context.Context, call int) error {
			<-ctx.Done()
			return ctx.Err()
		}}
		h := start(t, "@every 2s", pass, checkedAt(t, lastCheck), nil)
		advance(2 * time.Second)
		wantCalls(t, pass, 1)
		h.stop()
		st, err := ReadState(h.path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Running || st.Checking || !st.NextCheck.IsZero() || !strings.Contains(st.LastError, "interrupted") {
			t.Errorf("state after stop = %+v", st)
		}
		if !st.LastCheck.Equal(lastCheck) {
			t.Errorf("an interrupted pass moved LastCheck to %v; the next start must catch up", st.LastCheck)
		}
	})
}

func TestCatchUpOnStart(t *testing.T) {
	tests := []struct {
		name  string
		seed  func(t *testing.T) []byte
		calls int
	}{
		{"no state: never checked", func(*testing.T) []byte { return nil }, 1},
		{"unreadable state", func(*testing.T) []byte { return []byte("{half") }, 1},
		{"last check older than an interval", func(t *testing.T) []byte {
			return checkedAt(t, time.Now().Add(-2*time.Hour))
		}, 1},
		{"last check within the interval", func(t *testing.T) []byte {
			return checkedAt(t, time.Now().Add(-20*time.Minute))
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				advance(30 * time.Minute) // off the top of the hour
				pass := &fakePass{}
				h := start(t, "@hourly", pass, tt.seed(t), nil)
				wantCalls(t, pass, tt.calls)
				if tt.calls == 1 {
					if st := h.d.Status(); !st.LastCheck.Equal(time.Now()) {
						t.Errorf("LastCheck = %v, want now (%v)", st.LastCheck, time.Now())
					}
				}
				h.stop()
			})
		})
	}
}

func TestCatchUpAfterSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		advance(30 * time.Minute)
		clock := &shiftClock{}
		pass := &fakePass{}
		h := start(t, "@hourly", pass, checkedAt(t, time.Now()), clock)
		wantCalls(t, pass, 0)
		clock.shift(3 * time.Hour) // the lid was closed for three hours
		advance(wakeCheckEvery)
		wantCalls(t, pass, 1)
		advance(5 * wakeCheckEvery) // no second catch-up for the same miss
		wantCalls(t, pass, 1)
		h.stop()
	})
}

func TestReload(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pass := &fakePass{}
		h := start(t, "@every 2s", pass, checkedAt(t, time.Now()), nil)
		next := h.d.Status().NextCheck
		err := h.d.Reload("every two seconds")
		if err == nil || !strings.HasPrefix(err.Error(), "schedule: ") {
			t.Fatalf("Reload(bad) = %v, want an error naming the schedule key", err)
		}
		if got := h.d.Status().NextCheck; !got.Equal(next) {
			t.Errorf("bad Reload moved NextCheck from %v to %v", next, got)
		}
		advance(2 * time.Second)
		wantCalls(t, pass, 1) // the old schedule still fires

		if err := h.d.Reload("@every 10s"); err != nil {
			t.Fatal(err)
		}
		if st, _ := ReadState(h.path); !st.NextCheck.Equal(time.Now().Add(10 * time.Second)) {
			t.Errorf("state file NextCheck = %v after Reload", st.NextCheck)
		}
		advance(9 * time.Second)
		wantCalls(t, pass, 1)
		advance(time.Second)
		wantCalls(t, pass, 2)
		h.stop()
	})
}

func TestPassErrorIsRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pass := &fakePass{do: func(context.Context, int) error { return errors.New("store locked") }}
		h := start(t, "@every 2s", pass, checkedAt(t, time.Now()), nil)
		advance(2 * time.Second)
		st := h.d.Status()
		if st.LastError != "store locked" || !st.LastCheck.Equal(time.Now()) || !st.LastSuccess.IsZero() {
			t.Errorf("Status = %+v", st)
		}
		h.stop()
	})
}

func TestRunTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t, "@every 2s", &fakePass{}, checkedAt(t, time.Now()), nil)
		if err := h.d.Run(t.Context()); err == nil {
			t.Error("a second concurrent Run succeeded")
		}
		h.stop()
	})
}

func TestNewErrors(t *testing.T) {
	pass := func(context.Context) error { return nil }
	tests := []struct {
		name string
		o    Options
		want string
	}{
		{"no pass", Options{Schedule: "@hourly"}, "no pass"},
		{"bad schedule", Options{Schedule: "hourly", Pass: pass}, "schedule: "},
		{"empty schedule", Options{Pass: pass}, "schedule: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
