package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// TestPruneArchive removes a run's archived memories only once archive.keep_days allows it and the
// run's journal is gone; a zero age keeps the archive forever.
func TestPruneArchive(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tests := []struct {
		name       string
		keep       Keep
		wantGone   string
		wantListed []string
	}{
		{"forever by default", Keep{Runs: 1}, "[]", []string{"a0", "a1", "a2", "a3", "a4"}},
		{"old and pruned", Keep{Runs: 1, ArchiveAge: 2*day + time.Hour}, "[run0 run1 run2]", []string{"a3", "a4"}},
		{"old but still in the history", Keep{Runs: 10, ArchiveAge: day}, "[]", []string{"a0", "a1", "a2", "a3", "a4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t)
			for i := range 5 {
				name := fmt.Sprintf("a%d", i)
				txn := Txn{RunID: fmt.Sprintf("run%d", i), Time: start.Add(time.Duration(i) * day),
					Changes: []Change{{Name: name + ".md", New: []byte("x\n")}}}
				if err := Apply(p, txn); err != nil {
					t.Fatal(err)
				}
				txn = Txn{RunID: fmt.Sprintf("run%d", i) + "-retire", Time: start.Add(time.Duration(i) * day),
					Changes: []Change{{Name: name + ".md", Old: []byte("x\n")}},
					Retired: []Retirement{{Name: name, Reason: "deleted", Detail: "gone", Content: []byte("x\n")}}}
				if err := Apply(p, txn); err != nil {
					t.Fatal(err)
				}
			}
			now := start.Add(5 * day) // run4 is a day old, run0 five days
			pr, err := PruneHistory(p, tt.keep, now)
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(pr.Archives); got != fmt.Sprint(archiveRuns(tt.wantGone)) {
				t.Errorf("archives pruned %v, want %v (runs pruned %v)", pr.Archives, tt.wantGone, pr.Runs)
			}
			arch, err := Archived(p)
			if err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, a := range arch {
				listed = append(listed, a.Name)
			}
			if fmt.Sprint(listed) != fmt.Sprint(tt.wantListed) {
				t.Errorf("archive lists %v, want %v", listed, tt.wantListed)
			}
		})
	}
}

// archiveRuns turns "[run0 run1]" into the ids of the runs that retired a0 and a1.
func archiveRuns(list string) []string {
	out := []string{}
	for _, f := range strings.Fields(strings.Trim(list, "[]")) {
		out = append(out, f+"-retire")
	}
	return out
}
