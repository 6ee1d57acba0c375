package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneHistory keeps the newest runs and the young ones, whichever keeps more; the archive of
// a pruned run is still listed, a kept run can still be rolled back, and a pruned one says so.
func TestPruneHistory(t *testing.T) {
	p := setup(t)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	content := "v0\n"
	for i := range 6 {
		next := fmt.Sprintf("v%d\n", i+1)
		txn := Txn{RunID: fmt.Sprintf("run%d", i), Time: start.Add(time.Duration(i) * 24 * time.Hour),
			Changes: []Change{{Name: "m.md", Old: optional(i > 0, content), New: []byte(next)}}}
		if i == 2 {
			txn.Changes = append(txn.Changes, Change{Name: "a.md", Old: []byte("A1\n")})
			txn.Retired = []Retirement{{Name: "a", Reason: "deleted", Detail: "gone"}}
		}
		if err := Apply(p, txn); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		content = next
	}
	now := start.Add(6 * 24 * time.Hour) // run5 is a day old, run0 six days
	pr, err := PruneHistory(p, Keep{Runs: 2, Age: 3*24*time.Hour + time.Hour}, now)
	if err != nil {
		t.Fatal(err)
	}
	// run3, run4, run5 are younger than 3 days and an hour: they stay, as the newest two would.
	if fmt.Sprint(pr.Runs) != "[run0 run1 run2]" || pr.Bytes == 0 {
		t.Fatalf("pruned %v (%d bytes)", pr.Runs, pr.Bytes)
	}
	hist, _ := History(p)
	if len(hist) != 3 || hist[0].RunID != "run3" {
		t.Errorf("history after prune: %+v", hist)
	}
	if arch, err := Archived(p); err != nil || len(arch) != 1 || arch[0].Name != "a" {
		t.Errorf("the archive of a pruned run is not listed: %v, %v", arch, err)
	}
	if _, err := Rollback(p, "run2", "rb", now); !errors.Is(err, ErrPruned) {
		t.Errorf("rollback of a pruned run with an archive: %v, want ErrPruned", err)
	}
	if _, err := Rollback(p, "run3", "rb", now); err != nil {
		t.Errorf("rollback of a kept run: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(p.Store, "m.md")); string(got) != "v3\n" {
		t.Errorf("after rolling back run3, m.md = %q, want v3", got)
	}
}

func optional(ok bool, s string) []byte {
	if !ok {
		return nil
	}
	return []byte(s)
}
