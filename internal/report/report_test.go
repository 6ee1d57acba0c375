package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/testutil/golden"
)

func samplePlan() *phases.Plan {
	return &phases.Plan{
		RunID: "20261121T100000Z-abc123", Created: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC),
		Store: "/home/ana/.claude/projects/-home-ana-shop/memory", Consolidator: "gpt-4o-mini",
		Summary: "Recorded the deploy rule and merged two lint notes.",
		Usage:   extract.Usage{PromptTokens: 5120, CompletionTokens: 312},
		Read:    []phases.FileRead{{Path: "/t/a.jsonl", Kind: "claude", Sessions: []phases.SessionRef{{Kind: "claude", ID: "2ff46cd5"}, {Kind: "claude", ID: "7c1e9a44"}}}},
		Cut:     []string{"left out 12 tool output to fit the token budget"},
		Operations: []extract.Operation{
			{Action: "create", Name: "deploy-with-deploy-sh", Type: "project", Description: "Deploys go through ./deploy.sh", Reason: "the user said so", Evidence: []string{"2ff46cd5"}},
			{Action: "update", Name: "lint-first", Type: "feedback", Description: "Run make lint before committing", Reason: "merged duplicates", MergedFrom: []string{"run-lint"}, Evidence: []string{"7c1e9a44"}},
		},
		Rejected: []extract.Rejected{{Operation: extract.Operation{Action: "delete", Name: "../etc/passwd"}, Reason: "name is not a slug"}},
		Retired:  []store.Retirement{{Name: "run-lint", Reason: "merged", Detail: "merged into lint-first: duplicates"}},
		Changes: []store.Change{
			{Name: "MEMORY.md", Old: []byte("# Memory\n\n## Feedback\n- [run-lint](run-lint.md) — Run lint\n"), New: []byte("# Memory\n\n## Feedback\n- [lint-first](lint-first.md) — Run make lint before committing\n\n## Project\n- [deploy-with-deploy-sh](deploy-with-deploy-sh.md) — Deploys go through ./deploy.sh\n")},
			{Name: "deploy-with-deploy-sh.md", New: []byte("---\nname: deploy-with-deploy-sh\n---\nDeploys run through ./deploy.sh.\n")},
			{Name: "run-lint.md", Old: []byte("---\nname: run-lint\n---\nRun lint.\n")},
		},
		Quotes: map[string][]phases.Quote{"deploy-with-deploy-sh": {{Kind: "claude", Session: "2ff46cd5", Turn: 3,
			Date: time.Date(2026, 11, 20, 16, 4, 0, 0, time.UTC), Text: "remember: we always deploy with ./deploy.sh, never by hand"}}},
		Counts:      phases.Counts{Sessions: 2, Created: 1, Updated: 1, Merged: 1, Retired: 1, Rejected: 1},
		Limits:      memory.DefaultLimits,
		IndexBefore: memory.IndexStats{Lines: 4, Bytes: 60},
		IndexAfter:  memory.IndexStats{Lines: 7, Bytes: 170},
		Bytes:       20480,
		Redactions:  1,
	}
}

func sampleOutcomes() []phases.Outcome {
	return []phases.Outcome{
		{Store: "/home/ana/.claude/projects/-home-ana-shop/memory", Result: "dry run", Plan: samplePlan()},
		{Store: "/home/ana/.claude/projects/-home-ana-blog/memory", Result: "nothing new"},
		{Store: "/home/ana/.claude/projects/-home-ana-api/memory", Result: "busy", Err: errors.New("store is busy: held by pid 4242 (claude-lock)")},
	}
}

func TestWriteGolden(t *testing.T) {
	for _, format := range []string{"text", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, format, sampleOutcomes(), Options{}); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "report."+format+".golden"), buf.Bytes())
		})
	}
}

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", sampleOutcomes(), Options{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Stores []struct {
			Store, Result, Error, Diff string
			Plan                       map[string]any
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Stores) != 3 || got.Stores[0].Plan == nil || got.Stores[0].Diff == "" || got.Stores[2].Error == "" {
		t.Errorf("json report: %+v", got)
	}
}

// TestWriteJSONGolden pins the JSON contract of the run report: snake_case keys, [] for empty
// lists, the output version, and none of the plan's internals (contents, cursors, key).
func TestWriteJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", sampleOutcomes(), Options{}); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "report.json.golden"), buf.Bytes())
	for _, internal := range []string{`"mac"`, `"cursors"`, `"tails"`, `"store_fingerprint"`, ": null"} {
		if bytes.Contains(buf.Bytes(), []byte(internal)) {
			t.Errorf("the JSON report holds %s", internal)
		}
	}
}

// TestAppliedRunNamesItsDiff: an applied run's report says where its diff is instead of printing
// it, unless asked to.
func TestAppliedRunNamesItsDiff(t *testing.T) {
	applied := []phases.Outcome{{Store: "/s/memory", Result: "applied", Plan: samplePlan()}}
	for _, tt := range []struct {
		opt      Options
		wantDiff bool
	}{{Options{}, false}, {Options{AppliedDiff: true}, true}} {
		var buf bytes.Buffer
		if err := Write(&buf, "text", applied, tt.opt); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if hasDiff := strings.Contains(out, "\n--- a/"); hasDiff != tt.wantDiff {
			t.Errorf("%+v: diff shown = %v, want %v\n%s", tt.opt, hasDiff, tt.wantDiff, out)
		}
		if !tt.wantDiff && !strings.Contains(out, "dreamd history show "+samplePlan().RunID+" --diff") {
			t.Errorf("%+v: the report does not say where the diff is\n%s", tt.opt, out)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	if err := Write(&bytes.Buffer{}, "yaml", nil, Options{}); err == nil {
		t.Error("want an error for an unknown format")
	}
}

// TestFileListsPrintNamesOnOneLine: the files listed as unclean are the ones whose names may hold
// the control bytes; the report prints them without, for text and markdown alike.
func TestFileListsPrintNamesOnOneLine(t *testing.T) {
	p := samplePlan()
	p.Unclean = []string{"esc\x1b[31mred\n## User.md"}
	p.Verbatim = []string{"rtl\u202egnp.md"}
	for _, format := range []string{"text", "markdown"} {
		var buf bytes.Buffer
		if err := Write(&buf, format, []phases.Outcome{{Store: "/s", Result: "dry run", Plan: p}}, Options{}); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); strings.ContainsAny(got, "\x1b\u202e") || strings.Contains(got, "\n## User") {
			t.Errorf("%s: printed %q", format, got)
		}
	}
}

// TestReportLeavesThePlanAlone: every format renders a view of the plan and leaves the plan as
// it was (its nil lists stay nil).
func TestReportLeavesThePlanAlone(t *testing.T) {
	for _, format := range Formats {
		outcomes := sampleOutcomes()
		if err := Write(&bytes.Buffer{}, format, outcomes, Options{AppliedDiff: true}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(outcomes, sampleOutcomes()) {
			t.Errorf("%s: writing the report changed the plan", format)
		}
	}
}

// TestBrief: a timer's pass logs one line per store that did something, none for the others.
func TestBrief(t *testing.T) {
	p := samplePlan()
	outcomes := []phases.Outcome{
		{Store: "/s/applied", Result: phases.Applied, Plan: p},
		{Store: "/s/quiet", Result: phases.NothingNew},
		{Store: "/s/gated", Result: phases.Gated, Detail: "min_sessions"},
		{Store: "/s/failed", Result: phases.Failed, Err: errors.New("endpoint said 500")},
	}
	var b strings.Builder
	if err := Brief(&b, outcomes, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "store /s/applied: applied run "+p.RunID) ||
		!strings.Contains(lines[0], "`dreamd rollback "+p.RunID+"`") || lines[1] != "store /s/failed: failed: endpoint said 500" {
		t.Errorf("brief:\n%s", b.String())
	}
}
