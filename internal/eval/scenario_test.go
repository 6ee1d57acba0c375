package eval

import (
	"cmp"
	"encoding/json"
	"errors"
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/dreamd/dreamd/internal/memory"
)

const minimalScenario = `description: one lesson
today: 2026-11-21
expect:
  - {category: lessons, mentions: "deploy.sh"}
`

func TestParseScenario(t *testing.T) {
	sc, err := ParseScenario("07-lint-thrice", []byte(minimalScenario))
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC); !sc.Today.Equal(want) {
		t.Errorf("today %v, want %v", sc.Today, want)
	}
	if sc.Project != "/home/eval/lint-thrice" {
		t.Errorf("default project %q", sc.Project)
	}
	if len(sc.Sources) != 1 || sc.Sources[0] != (Source{Kind: "claude", Path: "transcripts"}) {
		t.Errorf("default sources %+v", sc.Sources)
	}
	if kind, text := sc.Expect[0].Kind(); kind != "mentions" || text != "deploy.sh" {
		t.Errorf("expectation %s %q", kind, text)
	}

	full := `description: all keys
today: 2026-11-21
project: /home/ana/shop
sources:
  - {kind: codex, path: codex}
  - {kind: markdown, path: notes, project: /home/ana/notes}
limits: {index_max_lines: 24, index_max_bytes: 1400, index_line_max: 100, memory_max_bytes: 2048}
expect:
  - {category: duplicates, exactly_one: "pnpm lint", note: "one memory"}
  - {category: contradictions, not_current: "mysql"}
  - {category: secrets, absent: "hunter2"}
  - {category: caps, mentions: "reindex"}
`
	sc, err = ParseScenario("x", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Project != "/home/ana/shop" || len(sc.Sources) != 2 || sc.Limits != (memory.Limits{IndexMaxLines: 24, IndexMaxBytes: 1400, IndexLineMax: 100, MemoryMaxBytes: 2048}) || len(sc.Expect) != 4 {
		t.Errorf("parsed %+v", sc)
	}
}

func TestParseScenarioErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"empty", "", "empty scenario"},
		{"unknown key", minimalScenario + "extra: 1\n", "field extra not found"},
		{"unknown expectation key", "today: 2026-11-21\nexpect:\n  - {category: lessons, mention: x}\n", "field mention not found"},
		{"no today", "expect:\n  - {category: lessons, mentions: x}\n", "today"},
		{"bad today", "today: 21.11.2026\nexpect:\n  - {category: lessons, mentions: x}\n", "today"},
		{"no expectation", "today: 2026-11-21\n", "at least one expectation"},
		{"unknown category", "today: 2026-11-21\nexpect:\n  - {category: speed, mentions: x}\n", "not one of"},
		{"automatic category", "today: 2026-11-21\nexpect:\n  - {category: archived, mentions: x}\n", "checked automatically"},
		{"two kinds", "today: 2026-11-21\nexpect:\n  - {category: lessons, mentions: x, absent: y}\n", "exactly one of"},
		{"no kind", "today: 2026-11-21\nexpect:\n  - {category: lessons, note: x}\n", "exactly one of"},
		{"empty alternative", "today: 2026-11-21\nexpect:\n  - {category: lessons, mentions: \"a |  | b\"}\n", "empty"},
		{"relative project", "today: 2026-11-21\nproject: shop\nexpect:\n  - {category: lessons, mentions: x}\n", "not an absolute path"},
		{"bad source kind", "today: 2026-11-21\nsources: [{kind: vim, path: t}]\nexpect:\n  - {category: lessons, mentions: x}\n", "unknown transcript kind"},
		{"escaping source", "today: 2026-11-21\nsources: [{kind: claude, path: ../t}]\nexpect:\n  - {category: lessons, mentions: x}\n", "inside the scenario"},
		{"negative limit", "today: 2026-11-21\nlimits: {index_max_lines: -1}\nexpect:\n  - {category: lessons, mentions: x}\n", "limits.index_max_lines"},
		{"two documents", minimalScenario + "---\ntoday: 2026-11-22\n", "more than one"},
		{"negative unused days", "today: 2026-11-21\nprune: {unused_days: -1}\nexpect:\n  - {category: lessons, mentions: x}\n", "prune.unused_days"},
		{"stale and mentions", "today: 2026-11-21\nexpect:\n  - {category: lessons, stale: x, mentions: y}\n", "exactly one of"},
		{"not yaml", "today: [\n", "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseScenario("x", []byte(tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestLoadSuiteErrors(t *testing.T) {
	record := `{"type":"user","sessionId":"s","cwd":"/home/eval/x","message":{"role":"user","content":"hi"}}` + "\n"
	good := fstest.MapFS{
		"01-ok/scenario.yaml":       {Data: []byte(minimalScenario)},
		"01-ok/transcripts/s.jsonl": {Data: []byte(record)},
		"README.md":                 {Data: []byte("not a scenario")},
		"notes/readme.txt":          {Data: []byte("a directory without scenario.yaml is passed over")},
	}
	s, err := LoadSuite(good)
	if err != nil || len(s.Scenarios) != 1 {
		t.Fatalf("LoadSuite = %v, %v", s, err)
	}
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		path  string
		want  string
	}{
		{"no scenario", fstest.MapFS{"README.md": {Data: []byte("x")}}, ".", "no scenario"},
		{"bad yaml", fstest.MapFS{"02-bad/scenario.yaml": {Data: []byte("today: x\n")}}, "02-bad/scenario.yaml", "today"},
		{"no transcripts", fstest.MapFS{"03-empty/scenario.yaml": {Data: []byte(minimalScenario)}}, "03-empty/scenario.yaml", "transcripts"},
		{"broken transcript", fstest.MapFS{
			"04-broken/scenario.yaml":       {Data: []byte(minimalScenario)},
			"04-broken/transcripts/s.jsonl": {Data: []byte(record + "{not json\n")},
		}, "04-broken/scenario.yaml", "transcripts/s.jsonl:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadSuite(tc.files)
			var se *SuiteError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a SuiteError", err)
			}
			if se.Path != tc.path || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (path %q), want path %q and %q", err, se.Path, tc.path, tc.want)
			}
		})
	}
}

// TestShippedSuiteParses checks every shipped scenario on its own terms: it loads, says what it
// is about, and its Claude Code transcripts happen in its project before its today.
func TestShippedSuiteParses(t *testing.T) {
	suite := shippedSuite(t)
	categories := map[string]int{}
	for _, sc := range suite.Scenarios {
		if sc.Description == "" {
			t.Errorf("%s: no description", sc.Name)
		}
		for _, e := range sc.Expect {
			categories[e.Category]++
		}
		checkRecords(t, sc)
	}
	for _, c := range Categories {
		if c != Archived && categories[c] < 3 {
			t.Errorf("category %s has %d expectations in the shipped suite, want at least 3", c, categories[c])
		}
	}
}

// checkRecords checks that the Claude Code records of a scenario happen in its project, before
// its today, with the session id of their file.
func checkRecords(t *testing.T, sc *Scenario) {
	t.Helper()
	for _, src := range sc.Sources {
		if src.Kind != "claude" {
			continue
		}
		files, err := fs.Glob(sc.files, src.Path+"/*.jsonl")
		if err != nil || len(files) == 0 {
			t.Errorf("%s: no transcripts in %s (%v)", sc.Name, src.Path, err)
		}
		for _, file := range files {
			data, _ := fs.ReadFile(sc.files, file)
			id := strings.TrimSuffix(path.Base(file), ".jsonl")
			for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				var r struct {
					Type, SessionID, Cwd string
					Timestamp            time.Time
				}
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Fatalf("%s/%s:%d: %v", sc.Name, file, i+1, err)
				}
				if r.Type != "user" && r.Type != "assistant" {
					continue
				}
				if r.SessionID != id || r.Cwd != cmp.Or(src.Project, sc.Project) || !r.Timestamp.Before(sc.Today) {
					t.Errorf("%s/%s:%d: session %s in %s at %v; want session %s in %s before %v",
						sc.Name, file, i+1, r.SessionID, r.Cwd, r.Timestamp, id, sc.Project, sc.Today)
				}
			}
		}
	}
}

func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(minimalScenario))
	f.Add([]byte("today: 2026-11-21\nsources: [{kind: codex, path: c}]\nlimits: {index_max_lines: 3}\nexpect:\n  - {category: caps, not_current: \"a | b\"}\n"))
	f.Add([]byte("today: 2026-02-30\nexpect: []\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := ParseScenario("01-fuzz", data)
		if err != nil {
			return
		}
		if len(sc.Expect) == 0 || len(sc.Sources) == 0 || sc.Today.IsZero() || !strings.HasPrefix(sc.Project, "/") {
			t.Fatalf("accepted an incomplete scenario: %+v", sc)
		}
		for _, e := range sc.Expect {
			if err := checkExpectation(e); err != nil {
				t.Fatalf("accepted a bad expectation: %v", err)
			}
		}
	})
}
