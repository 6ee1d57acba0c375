package phases

import (
	"slices"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// A memory's days are those of the sessions that taught it, never the run's, and a session that
// teaches it again after it was learnt is recorded as a re-teaching, with its id and day.
func TestLearntAndRetaught(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	today := day("2026-11-26")
	lint := func() *store.Memory {
		return &store.Memory{Name: "run-make-lint", Type: memory.Feedback, Description: "Run make lint before every commit",
			Body: "Run `make lint` before every commit.", Created: "2026-11-03", Updated: "2026-11-03", Learnt: "2026-11-02",
			Confirmed: "2026-11-02", Sources: []string{"claude:s0"}, HasFrontMatter: true, Raw: []byte("x")}
	}
	legacy := func() *store.Memory { // written before learnt was recorded
		m := lint()
		m.Learnt, m.Confirmed = "", ""
		return m
	}
	sessions := []extract.Session{
		{ID: "s0", Source: "claude", Date: day("2026-11-02")},
		{ID: "s1", Source: "codex", Date: day("2026-11-18")},
		{ID: "s2", Source: "claude", Date: day("2026-11-20")},
		{ID: "old", Source: "claude", Date: day("2025-03-02")},
		{ID: "same-day", Source: "claude", Date: day("2026-11-02")},
		{ID: "note-1", Source: "remember", Date: day("2026-11-25"), Origin: &transcript.Origin{
			Sources: []string{"claude:a1", "codex:b2"}, Learnt: "2025-06-01", Confirmed: "2026-10-01",
			Retaught: []string{"codex:b2@2026-10-01"}, RetaughtCount: 3}},
	}
	reinforce := func(ids ...string) extract.Operation {
		return extract.Operation{Action: extract.Reinforce, Name: "run-make-lint", Evidence: ids}
	}
	update := func(desc string, ids ...string) extract.Operation {
		return extract.Operation{Action: extract.Update, Name: "run-make-lint", Type: memory.Feedback, Description: desc, Body: desc + ".", Evidence: ids}
	}
	create := func(ids ...string) extract.Operation {
		return extract.Operation{Action: extract.Create, Name: "use-pnpm", Type: memory.Project, Description: "We use pnpm", Body: "We use pnpm.", Evidence: ids}
	}
	tests := []struct {
		name               string
		cur                *store.Memory
		op                 extract.Operation
		memory             string // the memory to look at afterwards
		learnt, confirmed  string
		retaught           []string // kind:id@day recorded
		count              int
		sources            []string
		reportedAsRetaught bool
	}{
		{"reinforced by a later session", lint(), reinforce("s1"), "run-make-lint", "2026-11-02", "2026-11-18",
			[]string{"codex:s1@2026-11-18"}, 1, []string{"claude:s0", "codex:s1"}, true},
		{"two later sessions", lint(), reinforce("s1", "s2"), "run-make-lint", "2026-11-02", "2026-11-20",
			[]string{"codex:s1@2026-11-18", "claude:s2@2026-11-20"}, 2, []string{"claude:s0", "codex:s1", "claude:s2"}, true},
		{"an earlier session moves learnt back, and is no re-teaching", lint(), reinforce("old"), "run-make-lint", "2025-03-02", "2026-11-02",
			nil, 0, []string{"claude:s0", "claude:old"}, false},
		{"a session of the day it was learnt is no re-teaching", lint(), reinforce("same-day"), "run-make-lint", "2026-11-02", "2026-11-02",
			nil, 0, []string{"claude:s0", "claude:same-day"}, false},
		{"a session it already names is no re-teaching", lint(), reinforce("s0"), "run-make-lint", "2026-11-02", "2026-11-02",
			nil, 0, []string{"claude:s0"}, false},
		{"an update that restates it is a re-teaching", lint(), update("Run make lint before every commit, CI rejects lint failures", "s1"), "run-make-lint",
			"2026-11-02", "2026-11-18", []string{"codex:s1@2026-11-18"}, 1, []string{"claude:s0", "codex:s1"}, true},
		{"an update that changes it is not", lint(), update("Run make check before pushing", "s1"), "run-make-lint",
			"2026-11-02", "2026-11-18", nil, 0, []string{"claude:s0", "codex:s1"}, false},
		{"a memory written before: its created day stands in for learnt", legacy(), reinforce("s1"), "run-make-lint", "2026-11-03", "2026-11-18",
			[]string{"codex:s1@2026-11-18"}, 1, []string{"claude:s0", "codex:s1"}, true},
		{"a new memory is learnt on its earliest session's day", nil, create("s2", "old"), "use-pnpm", "2025-03-02", "2026-11-20",
			nil, 0, []string{"claude:s2", "claude:old"}, false},
		{"a memory moved from another store keeps its sessions and days", nil, create("note-1"), "use-pnpm", "2025-06-01", "2026-10-01",
			[]string{"codex:b2@2026-10-01"}, 3, []string{"claude:a1", "codex:b2"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cur []*store.Memory
			if tt.cur != nil {
				cur = []*store.Memory{tt.cur}
			}
			env := &Env{Limits: memory.DefaultLimits, MaxRetireFraction: 0.25}
			d := Decide(env, &store.Store{Memories: cur}, []extract.Operation{tt.op}, nil, sessions, nil, today, false)
			i := slices.IndexFunc(d.Next, func(m *store.Memory) bool { return m.Name == tt.memory })
			if i < 0 {
				t.Fatalf("%s not in the next store", tt.memory)
			}
			m := d.Next[i]
			var got []string
			for _, r := range m.Retaught {
				got = append(got, r.String())
			}
			if m.Learnt != tt.learnt || m.Confirmed != tt.confirmed || !slices.Equal(got, tt.retaught) || m.RetaughtCount != tt.count || !slices.Equal(m.Sources, tt.sources) {
				t.Errorf("learnt %q confirmed %q retaught %v (%d) sources %v;\nwant %q %q %v (%d) %v", m.Learnt, m.Confirmed, got, m.RetaughtCount, m.Sources,
					tt.learnt, tt.confirmed, tt.retaught, tt.count, tt.sources)
			}
			if m.Created != "" && m.Created != "2026-11-03" && m.Created != today.Format(time.DateOnly) {
				t.Errorf("created %q", m.Created)
			}
			if got := len(d.Retaught) == 1; got != tt.reportedAsRetaught {
				t.Errorf("reported as re-taught: %v (%+v)", got, d.Retaught)
			}
			if tt.reportedAsRetaught && d.Retaught[0].Name != tt.memory {
				t.Errorf("re-taught %+v", d.Retaught)
			}
		})
	}
}
