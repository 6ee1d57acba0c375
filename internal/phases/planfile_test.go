package phases

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/testutil/golden"
	"github.com/dreamd/dreamd/internal/transcript"
)

// fullPlan is a plan with every field of the saved format set, some lists left nil (saved as
// null) and one file empty rather than absent.
func fullPlan() *Plan {
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	from := transcript.Cursor{Size: 100, Offset: 100, Lines: 3, Head: "ab12", HeadLen: 64, ModTime: at.Add(-time.Hour), Session: "s1", Project: "/p/shop", Offers: 1}
	to := transcript.Cursor{Size: 400, Offset: 380, Lines: 9, Head: "ab12", HeadLen: 64, ModTime: at, More: true, Session: "s1", Project: "/p/shop"}
	op := extract.Operation{Action: extract.Create, Name: "deploy-rule", Type: memory.Project, Description: "Deploys go through ./deploy.sh",
		Body: "Run ./deploy.sh.\n", MergedFrom: []string{"deploy-old"}, Supersedes: []string{"deploy-older"}, Reason: "the user said so", Evidence: []string{"s1"}}
	sent := op
	sent.Name, sent.Scope, sent.MergedFrom, sent.Supersedes = "prefer-tabs", memory.ScopeUser, nil, nil
	return &Plan{
		RunID: "20261121T100000Z-abc123", Created: at,
		Store: "/p/shop/memory", State: "/state/stores/-p-shop-memory", StoreFingerprint: "f1f2",
		Consolidator: "gpt-4o-mini", Offline: true, OfflineWhy: "no endpoint", Summary: "Recorded the deploy rule.",
		Usage: extract.Usage{PromptTokens: 5120, CachedTokens: 1024, CompletionTokens: 312}, Cost: 0.0123,
		Read:     []FileRead{{Path: "/t/a.jsonl", Kind: "claude", Project: "/p/shop", Session: "s1", From: from, To: to, Sessions: []SessionRef{{Kind: "claude", ID: "s1", Project: "/p/shop", Date: at, Turns: 4}}}},
		Deferred: []FileRead{{Path: "/t/b.jsonl", Kind: "codex", From: from, To: from}},
		Cut:      []string{"left out 12 tool outputs"}, Warnings: []string{"a warning"}, Redactions: 2, Bytes: 20480,
		Operations: []extract.Operation{op},
		Rejected:   []extract.Rejected{{Operation: extract.Operation{Action: extract.Delete, Name: "gone"}, Reason: "no such memory"}},
		Repaired:   []extract.Repaired{{Name: "deploy-rule", What: "description shortened"}},
		Secrets:    []SecretFinding{{Memory: "MEMORY.md", Kinds: []string{"aws"}}},
		Unclean:    []string{"odd.md"}, Verbatim: nil,
		Retired: []store.Retirement{{Name: "deploy-old", Reason: store.Merged, Detail: "merged into deploy-rule", Evidence: []string{"s1"}, Content: []byte("old\n")},
			{Name: "stale", Reason: store.Expired, Detail: "expired", Content: []byte{}}},
		LeftOut: []extract.Operation{}, Elsewhere: []extract.Operation{sent},
		OfferedAgain: []string{"/t/c.jsonl"}, GaveUp: nil, OverCap: 1,
		Changes: []store.Change{{Name: "MEMORY.md", Old: []byte("# Memory\n"), New: []byte("# Memory\n\n- [deploy-rule](deploy-rule.md) — Deploys\n")},
			{Name: "deploy-old.md", Old: []byte("old\n")}, {Name: "deploy-rule.md", New: []byte("---\nname: deploy-rule\n---\nRun ./deploy.sh.\n")}, {Name: "empty.md", Old: []byte{}, New: []byte("x\n")}},
		Cursors:     Cursors{"/t/a.jsonl": to, "/t/b.jsonl": from},
		Tails:       map[string]string{"/t/a.jsonl": "beef"},
		Edited:      []string{"deploy-rule"},
		Quotes:      map[string][]Quote{"deploy-rule": {{Kind: "claude", Session: "s1", Turn: 2, Date: at, Text: "…we always deploy with ./deploy.sh, never by hand"}}},
		Counts:      Counts{Sessions: 1, Created: 1, Updated: 2, Merged: 1, Superseded: 1, Reinforced: 1, Retired: 2, Rejected: 1},
		Limits:      memory.DefaultLimits,
		IndexBefore: memory.IndexStats{Lines: 1, Bytes: 9, LongestLine: 8},
		IndexAfter:  memory.IndexStats{Lines: 3, Bytes: 60, LongestLine: 50},
	}
}

// testKeyDir is a state directory holding a fixed plan key, so a signed plan's bytes are the same
// on every run.
func testKeyDir(t *testing.T) string {
	dir := t.TempDir()
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i)
	}
	if err := os.WriteFile(filepath.Join(dir, planKeyFile), key, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPlanFileFormat pins the saved plan's bytes: a field renamed anywhere in dreamd must not
// change what `dreamd plan -o` writes, nor stop a plan saved by an earlier dreamd from loading.
func TestPlanFileFormat(t *testing.T) {
	dir := testKeyDir(t)
	path := filepath.Join(dir, "plan.json")
	if err := WritePlan(path, fullPlan(), dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "planfile", "v1.json"), got)
}

// TestPlanFileLoads: a plan saved in format 1 (the golden file, as dreamd wrote it before the
// format had a type of its own) loads as the plan that was saved, nil lists and empty files kept.
func TestPlanFileLoads(t *testing.T) {
	dir := testKeyDir(t)
	path := filepath.Join(dir, "plan.json")
	b, err := os.ReadFile(filepath.Join("testdata", "planfile", "v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPlan(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := fullPlan(); !reflect.DeepEqual(got, want) {
		t.Errorf("loaded plan differs from the saved one:\n got %+v\nwant %+v", got, want)
	}
}

// TestPlanFileWithoutQuotesLoads: a plan saved before plans kept quotes and edits (format 1 all
// the same: the keys are only added) loads, its signature holding, with neither.
func TestPlanFileWithoutQuotesLoads(t *testing.T) {
	dir := testKeyDir(t)
	path := filepath.Join(dir, "plan.json")
	b, err := os.ReadFile(filepath.Join("testdata", "planfile", "v1-without-quotes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"quotes"`) {
		t.Fatal("the fixture must be a plan saved without quotes")
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPlan(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := fullPlan()
	want.Quotes, want.Edited = nil, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("loaded plan differs from the saved one:\n got %+v\nwant %+v", got, want)
	}
}

// TestPlanFileOfAnotherFormat: a plan of a format this dreamd does not read is refused with a
// message naming both formats, before its signature or its keys are looked at.
func TestPlanFileOfAnotherFormat(t *testing.T) {
	dir := testKeyDir(t)
	for name, tt := range map[string]struct{ body, want string }{
		"newer":      {`{"version": 2, "run_id": "r", "something_new": true}`, "a plan of format 2, and this dreamd reads format 1"},
		"no version": {`{"run_id": "r"}`, "is not a dreamd plan: it has no version"},
		"not json":   {`plan`, "is not a dreamd plan"},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name+".json")
			if err := os.WriteFile(path, []byte(tt.body), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadPlan(path, dir); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadPlan: %v, want an error saying %q", err, tt.want)
			}
		})
	}
}

// TestPlanFileKeepsEveryField: every field of a value the plan file copies from another package
// has its place in the file, so a field added there is not dropped from saved plans unseen.
func TestPlanFileKeepsEveryField(t *testing.T) {
	for _, pair := range [][2]any{
		{extract.Operation{}, fileOperation{}},
		{transcript.Cursor{}, fileCursor{}},
		{store.Retirement{}, fileRetirement{}},
		{FileRead{}, fileRead{}},
		{Plan{}, PlanFile{}},
	} {
		from, to := reflect.TypeOf(pair[0]), reflect.TypeOf(pair[1])
		for i := range from.NumField() {
			if f := from.Field(i); f.IsExported() {
				if _, ok := to.FieldByName(f.Name); !ok {
					t.Errorf("%s.%s has no place in the plan file's %s: add it (a new key) to planfile.go", from, f.Name, to)
				}
			}
		}
	}
}

// TestPlanFileRoundTrip: what WritePlan saves, ReadPlan loads as it was.
func TestPlanFileRoundTrip(t *testing.T) {
	dir := testKeyDir(t)
	path := filepath.Join(dir, "plan.json")
	p := fullPlan()
	if err := WritePlan(path, p, dir); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, fullPlan()) {
		t.Error("saving the plan changed it")
	}
	got, err := ReadPlan(path, dir)
	if err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("ReadPlan: %v\n got %+v\nwant %+v", err, got, p)
	}
}
