package phases

import (
	"os"
	"path/filepath"
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
		Version: PlanVersion, RunID: "20261121T100000Z-abc123", Created: at,
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
