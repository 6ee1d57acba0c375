package phases

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
)

func TestGatesCheck(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	gates := Gates{MinHours: 24, MinSessions: 5, IdleMinutes: 15}
	tests := []struct {
		name     string
		gates    Gates
		activity Activity
		want     Verdict
		reason   string // substring of Reason
	}{
		{
			name:     "all open",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-30 * time.Hour), PendingSessions: 7, LastWrite: now.Add(-2 * time.Hour)},
			want:     Verdict{Open: true},
			reason:   "7 new sessions, last consolidated 1d6h ago",
		},
		{
			name:     "never consolidated passes min_hours",
			gates:    gates,
			activity: Activity{PendingSessions: 5},
			want:     Verdict{Open: true},
			reason:   "never consolidated",
		},
		{
			name:     "min_hours closed",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-3 * time.Hour), PendingSessions: 9},
			want:     Verdict{Gate: "min_hours", Until: now.Add(21 * time.Hour)},
			reason:   "last consolidated 3h ago; min_hours allows the next in 21h",
		},
		{
			name:     "a backlog the last pass left does not wait for min_hours",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-time.Hour), PendingSessions: 900, Backlog: 880},
			want:     Verdict{Open: true},
			reason:   "900 new sessions, last consolidated 1h ago; the last pass left 880 for the next ones",
		},
		{
			name:     "min_hours exactly elapsed",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-24 * time.Hour), PendingSessions: 5},
			want:     Verdict{Open: true},
		},
		{
			name:     "fractional min_hours",
			gates:    Gates{MinHours: 1.5},
			activity: Activity{LastSuccess: now.Add(-time.Hour)},
			want:     Verdict{Gate: "min_hours", Until: now.Add(30 * time.Minute)},
			reason:   "allows the next in 30m",
		},
		{
			name:     "min_sessions closed",
			gates:    gates,
			activity: Activity{PendingSessions: 2},
			want:     Verdict{Gate: "min_sessions"},
			reason:   "2 new sessions; min_sessions is 5",
		},
		{
			name:     "no sessions at all",
			gates:    gates,
			activity: Activity{},
			want:     Verdict{Gate: "min_sessions"},
			reason:   "no new sessions",
		},
		{
			name:     "min_sessions wins over time gates: time alone cannot open it",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-time.Hour), PendingSessions: 1, LastWrite: now},
			want:     Verdict{Gate: "min_sessions"},
			reason:   "1 new session;",
		},
		{
			name:     "idle_minutes closed",
			gates:    gates,
			activity: Activity{PendingSessions: 6, LastWrite: now.Add(-4 * time.Minute)},
			want:     Verdict{Gate: "idle_minutes", Until: now.Add(11 * time.Minute)},
			reason:   "written 4m ago (an agent is at work); idle_minutes waits 11m more",
		},
		{
			name:     "idle_minutes opens later than min_hours",
			gates:    Gates{MinHours: 1, IdleMinutes: 30},
			activity: Activity{LastSuccess: now.Add(-50 * time.Minute), LastWrite: now.Add(-time.Minute)},
			want:     Verdict{Gate: "idle_minutes", Until: now.Add(29 * time.Minute)},
		},
		{
			name:     "min_hours opens later than idle_minutes",
			gates:    gates,
			activity: Activity{LastSuccess: now.Add(-time.Hour), PendingSessions: 5, LastWrite: now.Add(-time.Minute)},
			want:     Verdict{Gate: "min_hours", Until: now.Add(23 * time.Hour)},
		},
		{
			name:     "unknown last write passes idle_minutes",
			gates:    gates,
			activity: Activity{PendingSessions: 5},
			want:     Verdict{Open: true},
		},
		{
			name:     "zero gates always open",
			gates:    Gates{},
			activity: Activity{LastSuccess: now, LastWrite: now},
			want:     Verdict{Open: true},
			reason:   "0 new sessions",
		},
		{
			name:     "negative gates count as zero",
			gates:    Gates{MinHours: -1, MinSessions: -3, IdleMinutes: -5},
			activity: Activity{LastSuccess: now, LastWrite: now},
			want:     Verdict{Open: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.gates.Check(tt.activity, now)
			if got.Open != tt.want.Open || got.Gate != tt.want.Gate || !got.Until.Equal(tt.want.Until) {
				t.Errorf("Check() = {Open:%v Gate:%q Until:%v}, want {Open:%v Gate:%q Until:%v}",
					got.Open, got.Gate, got.Until, tt.want.Open, tt.want.Gate, tt.want.Until)
			}
			if got.Reason == "" || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, tt.reason)
			}
		})
	}
}

func TestAge(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{45 * time.Second, "45s"},
		{12*time.Minute + 30*time.Second, "12m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 20*time.Minute, "3h20m"},
		{48 * time.Hour, "2d"},
		{52 * time.Hour, "2d4h"},
	}
	for _, tt := range tests {
		if got := age(tt.d); got != tt.want {
			t.Errorf("age(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestRunAppliesTheGates drives the gates through a pass: a closed gate keeps the model uncalled
// and says which gate and when it opens; an open one lets the pass through.
func TestRunAppliesTheGates(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Summary: "ok", Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	f.session("s1", "/proj", "Always run make lint first.", "A:Noted.")
	wrote := today.Add(-5 * time.Minute)
	for _, fi := range mustGlob(t, filepath.Join(f.root, "projects", "-proj", "*.jsonl")) {
		if err := os.Chtimes(fi, wrote, wrote); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name  string
		gates Gates
		want  Result
		gate  string
		opens time.Time
	}{
		{"too few sessions", Gates{MinSessions: 2}, Gated, "min_sessions", time.Time{}},
		{"an agent is at work", Gates{MinSessions: 1, IdleMinutes: 15}, Gated, "idle_minutes", wrote.Add(15 * time.Minute)},
		{"open", Gates{MinSessions: 1, IdleMinutes: 1}, DryRun, "", time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := f.llm.calls
			out := f.run(Options{DryRun: true, Gates: &tt.gates})
			if len(out) != 1 || out[0].Result != tt.want {
				t.Fatalf("outcome %+v, want %s", out, tt.want)
			}
			if tt.want != Gated {
				if out[0].Gate != nil || f.llm.calls != calls+1 {
					t.Errorf("open gates: verdict %+v, %d calls", out[0].Gate, f.llm.calls-calls)
				}
				return
			}
			if f.llm.calls != calls {
				t.Errorf("a closed gate called the model")
			}
			if g := out[0].Gate; g == nil || g.Gate != tt.gate || !g.Until.Equal(tt.opens) || out[0].Detail != g.Reason {
				t.Errorf("verdict %+v (detail %q), want gate %s opening at %v", g, out[0].Detail, tt.gate, tt.opens)
			}
		})
	}
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		t.Fatalf("glob %s: %v %v", pattern, m, err)
	}
	return m
}
