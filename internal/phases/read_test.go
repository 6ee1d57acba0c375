package phases

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
)

// backlogFixture writes n sessions of one user turn each, session k last modified k hours before
// today, so the oldest is the last written.
func backlogFixture(t *testing.T, n int, text string) *fixture {
	f := newFixture(t, func(extract.Request) extract.Response { return extract.Response{} })
	for k := range n {
		path := f.session(fmt.Sprintf("s%03d", k), "/proj", fmt.Sprintf("%s (%d)", text, k))
		when := today.Add(-time.Duration(k) * time.Hour)
		if err := os.Chtimes(path, when, when); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func pendingOf(t *testing.T, f *fixture) []PendingFile {
	t.Helper()
	targets, _, err := Discover(f.env)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %v, %d targets", err, len(targets))
	}
	pending, err := Pending(targets[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	return pending
}

// TestReadStopsWhenTheBudgetIsFull: a backlog many times the budget is read oldest first only
// until what was read fills the budget; the rest is left unread, for the next pass.
func TestReadStopsWhenTheBudgetIsFull(t *testing.T) {
	f := backlogFixture(t, 100, "please look at the flaky cart test again "+strings.Repeat("and again ", 60))
	m, err := Read(context.Background(), f.env, f.storeDir(), pendingOf(t, f), 2000)
	if err != nil {
		t.Fatal(err)
	}
	files := m.copyFiles()
	if len(files) != readBatch || len(m.unread) != 100-readBatch {
		t.Fatalf("read %d files, left %d unread; want one batch of %d read", len(files), len(m.unread), readBatch)
	}
	for _, df := range files {
		if df.sessions[0].ID < fmt.Sprintf("s%03d", 100-readBatch) {
			t.Errorf("read %s, not one of the oldest", df.sessions[0].ID)
		}
	}
	g := m.Digest(f.env.Redactor, 2000)
	if len(g.Read)+len(g.Deferred) != 100 || len(g.Read) == 0 {
		t.Errorf("digest reads %d and defers %d of 100", len(g.Read), len(g.Deferred))
	}
	if !strings.Contains(strings.Join(g.Cut, "\n"), "unread for the next pass") {
		t.Errorf("the files left unread are not said: %q", g.Cut)
	}
}

// TestReadHonoursCancel: a pass stopped (SIGTERM) while it reads stops reading.
func TestReadHonoursCancel(t *testing.T) {
	f := backlogFixture(t, 5, "hello")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, f.env, f.storeDir(), pendingOf(t, f), 100000); err != context.Canceled {
		t.Errorf("Read after cancel: %v", err)
	}
}

// TestSessionCapOldestFirst: gather.max_sessions_per_pass reads the oldest sessions first and
// leaves the rest, cursors unmoved, to the next passes, until none is left; nothing is lost. The
// daemon's min_hours gate does not make the rest wait a day a pass.
func TestSessionCapOldestFirst(t *testing.T) {
	f := backlogFixture(t, 5, "Remember that the cart service listens on port 8080")
	f.env.MaxSessionsPerPass = 2
	gated := Options{Gates: &Gates{MinHours: 24}}
	var seen []string
	for pass, want := range [][]string{{"s004", "s003"}, {"s002", "s001"}, {"s000"}} {
		out := f.run(gated)
		if out[0].Result == Gated {
			t.Fatalf("pass %d gated: %s", pass, out[0].Detail)
		}
		if len(out) != 1 || out[0].Err != nil {
			t.Fatalf("pass %d: %+v", pass, out)
		}
		req := f.llm.requests[len(f.llm.requests)-1]
		var ids []string
		for _, s := range req.Sessions {
			ids = append(ids, s.ID)
		}
		slices.Sort(ids)
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("pass %d consolidated %v, want %v", pass, ids, want)
		}
		if left := len(out[0].Plan.Deferred); left != 5-len(seen)-len(ids) {
			t.Errorf("pass %d deferred %d", pass, left)
		}
		seen = append(seen, ids...)
	}
	if out := f.run(gated); out[0].Result != NothingNew {
		t.Errorf("after three passes: %s %s", out[0].Result, out[0].Detail)
	}
}

// TestRoutingHonoursCancel: routing a first pass peeks into every transcript; a pass stopped
// (SIGTERM) meanwhile stops there.
func TestRoutingHonoursCancel(t *testing.T) {
	f := backlogFixture(t, 5, "hello")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, _, err := discover(ctx, f.env); err != context.Canceled {
		t.Errorf("discover after cancel: %v", err)
	}
	if out, err := Run(ctx, f.env, Options{DryRun: true}); err != context.Canceled || f.llm.calls != 0 {
		t.Errorf("Run after cancel: %v, %d outcomes, %d calls", err, len(out), f.llm.calls)
	}
}
