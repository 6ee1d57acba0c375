package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// writeStore writes topic files (name → content) and returns the store's directory.
func writeStore(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestCheckKinds(t *testing.T) {
	dir := writeStore(t, map[string]string{
		"database.md": "---\nname: database\ndescription: The orders database is Postgres 16\ntype: project\ncreated: 2026-11-21\nupdated: 2026-11-21\nsources: [claude:abc]\n---\nWe migrated the orders database from MySQL to Postgres 16 on 2026-11-17.\n",
		"lint.md":     "---\nname: lint\ndescription: Run pnpm lint before pushing\ntype: feedback\n---\nRun `pnpm lint` before every push.\n",
		"lint-2.md":   "---\nname: lint-2\ndescription: Lint before pushing\ntype: feedback\n---\nAlways run pnpm lint first.\n",
		"notes.md":    "# Notes\n\nThe legacy MySQL dump script still runs nightly.\n",
		"MEMORY.md":   "# Memory\n\n## Feedback\n- [lint](lint.md) — Run pnpm lint before pushing\n- [lint-2](lint-2.md) — [may be stale] Lint before pushing\n",
	})
	o, err := readOutcome(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		e      Expectation
		pass   bool
		detail string
	}{
		{Expectation{Category: Contradictions, Mentions: "postgres"}, true, ""},
		{Expectation{Category: Lessons, Mentions: "kubernetes | k8s"}, false, "no memory mentions it (4 memories)"},
		{Expectation{Category: Dates, Mentions: "2026-11-17"}, true, ""},
		// Front matter bookkeeping is not what a memory says.
		{Expectation{Category: Dates, Mentions: "2026-11-21"}, false, "no memory mentions it"},
		{Expectation{Category: Duplicates, ExactlyOne: "postgres"}, true, ""},
		{Expectation{Category: Duplicates, ExactlyOne: "pnpm lint"}, false, "2 memories mention it: lint, lint-2"},
		{Expectation{Category: Duplicates, ExactlyOne: "redis"}, false, "0 memories mention it"},
		{Expectation{Category: Secrets, Absent: "hunter2"}, true, ""},
		// Absent looks at whole files, front matter and index included.
		{Expectation{Category: Secrets, Absent: "claude:abc"}, false, "found in database.md"},
		{Expectation{Category: Noise, Absent: "before pushing"}, false, "found in MEMORY.md"},
		{Expectation{Category: Contradictions, NotCurrent: "jenkins"}, true, ""},
		{Expectation{Category: Contradictions, NotCurrent: "mysql"}, true, ""},
		{Expectation{Category: Contradictions, NotCurrent: "postgres"}, false, "database presents it as current"},
		{Expectation{Category: Contradictions, Stale: "lint-2"}, true, ""},
		{Expectation{Category: Contradictions, Stale: "lint"}, false, "not marked [may be stale]"},
		{Expectation{Category: Contradictions, Stale: "nothing | lint-2"}, true, ""},
	} {
		c := o.check(tc.e)
		if c.Pass != tc.pass || !strings.Contains(c.Detail, tc.detail) || (tc.pass && c.Detail != "") {
			t.Errorf("%+v: pass %v detail %q, want %v %q", tc.e, c.Pass, c.Detail, tc.pass, tc.detail)
		}
		if kind, text := tc.e.Kind(); c.Kind != kind || c.Text != text || c.Category != tc.e.Category {
			t.Errorf("check %+v does not name its expectation", c)
		}
	}
}

func TestCheckIndex(t *testing.T) {
	mem := func(name string) string {
		return "---\nname: " + name + "\ndescription: " + name + " lesson\ntype: project\n---\nBody.\n"
	}
	index := string(store.RenderIndex([]*store.Memory{
		{Name: "a", Type: "project", Description: "a lesson"},
		{Name: "b", Type: "project", Description: "b lesson"},
	}))
	for _, tc := range []struct {
		name   string
		files  map[string]string
		limits memory.Limits
		detail string
	}{
		{"fits", map[string]string{"a.md": mem("a"), "b.md": mem("b"), "MEMORY.md": index}, memory.DefaultLimits, ""},
		{"no memories, no index", nil, memory.DefaultLimits, ""},
		{"too many lines", map[string]string{"a.md": mem("a"), "b.md": mem("b"), "MEMORY.md": index},
			memory.Limits{IndexMaxLines: 3, IndexMaxBytes: 25000, IndexLineMax: 150}, "5 lines"},
		{"too many bytes", map[string]string{"a.md": mem("a"), "b.md": mem("b"), "MEMORY.md": index},
			memory.Limits{IndexMaxLines: 200, IndexMaxBytes: 20, IndexLineMax: 150}, "caps 200, 20, 150"},
		{"line too long", map[string]string{"a.md": mem("a"), "b.md": mem("b"), "MEMORY.md": index},
			memory.Limits{IndexMaxLines: 200, IndexMaxBytes: 25000, IndexLineMax: 10}, "longest line"},
		{"memory not listed", map[string]string{"a.md": mem("a"), "b.md": mem("b"), "c.md": mem("c"), "MEMORY.md": index},
			memory.DefaultLimits, "not listed: c"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := readOutcome(writeStore(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			c := o.checkIndex(tc.limits)
			if c.Pass != (tc.detail == "") || !strings.Contains(c.Detail, tc.detail) || c.Category != Caps {
				t.Errorf("check %+v, want detail %q", c, tc.detail)
			}
		})
	}
}

func TestCheckArchive(t *testing.T) {
	p := store.Paths{Store: t.TempDir(), State: t.TempDir()}
	files := map[string]string{
		"kept.md":    "---\nname: kept\ndescription: kept\ntype: project\n---\nKept.\n",
		"retired.md": "---\nname: retired\ndescription: retired\ntype: project\n---\nRetired properly.\n",
		"lost.md":    "---\nname: lost\ndescription: lost\ntype: project\n---\nDeleted behind the store's back.\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(p.Store, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	start, err := startingMemories(p.Store)
	if err != nil || len(start) != 3 {
		t.Fatalf("starting memories %v, %v", start, err)
	}
	txn := store.Txn{
		RunID:   "20261121T120000Z-0001",
		Time:    time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC),
		Changes: []store.Change{{Name: "retired.md", Old: []byte(files["retired.md"])}},
		Retired: []store.Retirement{{Name: "retired", Reason: "superseded", Detail: "test", Content: []byte(files["retired.md"])}},
	}
	if err := store.Apply(p, txn); err != nil {
		t.Fatal(err)
	}
	o, err := readOutcome(p.Store)
	if err != nil {
		t.Fatal(err)
	}
	if c := o.checkArchive(start, p); !c.Pass {
		t.Errorf("a retirement through the archive failed the check: %+v", c)
	}
	if err := os.Remove(filepath.Join(p.Store, "lost.md")); err != nil {
		t.Fatal(err)
	}
	if o, err = readOutcome(p.Store); err != nil {
		t.Fatal(err)
	}
	c := o.checkArchive(start, p)
	if c.Pass || c.Detail != "gone from the store and not in the archive: lost" || c.Category != Archived {
		t.Errorf("a memory deleted without an archive: %+v", c)
	}
}
