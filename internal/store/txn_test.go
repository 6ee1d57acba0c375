package store

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

var (
	initialStore = map[string]string{"a.md": "A1\n", "b.md": "B1\n", "MEMORY.md": "idx1\n", "keep.md": "K\n"}
	initialState = map[string]string{"state.json": "cursor1"}
	t0           = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
)

// firstTxn updates, retires, creates (an empty file too) and moves cursors.
func firstTxn() Txn {
	return Txn{
		RunID: "run1",
		Time:  t0,
		Changes: []Change{
			{Name: "a.md", Old: []byte("A1\n"), New: []byte("A2\n")},
			{Name: "b.md", Old: []byte("B1\n"), New: nil},
			{Name: "c.md", Old: nil, New: []byte("C1\n")},
			{Name: "MEMORY.md", Old: []byte("idx1\n"), New: []byte("idx2\n")},
			{Name: "empty.md", Old: nil, New: []byte{}},
			{Name: "keep.md", Old: []byte("K\n"), New: []byte("K\n")},
		},
		Retired: []Retirement{{Name: "b", Reason: "merged", Detail: "merged into a", Evidence: []string{"claude:s1"}}},
		State:   map[string][]byte{"state.json": []byte("cursor2"), "extra.json": []byte("x")},
		Meta:    json.RawMessage(`{"summary":"first"}`),
	}
}

var afterFirst = map[string]string{
	"store/a.md": "A2\n", "store/c.md": "C1\n", "store/MEMORY.md": "idx2\n", "store/empty.md": "", "store/keep.md": "K\n",
	"state/state.json": "cursor2", "state/extra.json": "x",
}

// setup makes a store and state directory in their initial form.
func setup(t *testing.T) Paths {
	t.Helper()
	p := testPaths(t)
	writeFiles(t, p.Store, initialStore)
	writeFiles(t, p.State, initialState)
	return p
}

func initial() map[string]string {
	out := map[string]string{}
	for k, v := range initialStore {
		out["store/"+k] = v
	}
	for k, v := range initialState {
		out["state/"+k] = v
	}
	return out
}

// snapshot is every file of the store (dotfiles included) and the State files (not the journal,
// archive or lock), keyed "store/NAME" and "state/NAME".
func snapshot(t *testing.T, p Paths) map[string]string {
	t.Helper()
	out := map[string]string{}
	for prefix, dir := range map[string]string{"store/": p.Store, "state/": p.State} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() || slices.Contains(reserved, e.Name()) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[prefix+e.Name()] = string(data)
		}
	}
	return out
}

func runIDs(t *testing.T, p Paths) []string {
	t.Helper()
	h, err := History(p)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range h {
		ids = append(ids, e.RunID)
	}
	return ids
}

func TestApplyHistoryRollback(t *testing.T) {
	p := setup(t)
	if err := Apply(p, firstTxn()); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, p); !maps.Equal(got, afterFirst) {
		t.Fatalf("after run1:\n%v\nwant\n%v", got, afterFirst)
	}
	hist, err := History(p)
	if err != nil {
		t.Fatal(err)
	}
	want := HistoryEntry{
		RunID: "run1", Time: t0, Meta: json.RawMessage(`{"summary":"first"}`), Kind: "apply",
		Files: []string{"MEMORY.md", "a.md", "b.md", "c.md", "empty.md"}, Retired: []string{"b"},
	}
	if len(hist) != 1 || !sameEntry(hist[0], want) {
		t.Fatalf("History = %+v", hist)
	}
	arch, err := Archived(p)
	if err != nil || len(arch) != 1 {
		t.Fatalf("Archived = %+v, %v", arch, err)
	}
	a := arch[0]
	if a.RunID != "run1" || a.Name != "b" || a.Reason != "merged" || a.Detail != "merged into a" ||
		!slices.Equal(a.Evidence, []string{"claude:s1"}) || !a.Time.Equal(t0) {
		t.Errorf("archive entry = %+v", a)
	}
	if data, _ := os.ReadFile(a.Path); string(data) != "B1\n" {
		t.Errorf("archived content = %q", data)
	}

	second := Txn{RunID: "run2", Time: t0.Add(time.Hour),
		Changes: []Change{{Name: "a.md", Old: []byte("A2\n"), New: []byte("A3\n")}},
		State:   map[string][]byte{"state.json": []byte("cursor3"), "extra.json": nil},
	}
	if err := Apply(p, second); err != nil {
		t.Fatal(err)
	}

	// Roll back the last run.
	rb, err := Rollback(p, "", "rb1", t0.Add(2*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if rb.Kind != "rollback" || !slices.Equal(rb.Undoes, []string{"run2"}) || !slices.Equal(rb.Files, []string{"a.md"}) {
		t.Errorf("rollback entry = %+v", rb)
	}
	if got := snapshot(t, p); !maps.Equal(got, afterFirst) {
		t.Fatalf("after rolling back run2:\n%v\nwant\n%v", got, afterFirst)
	}

	// Roll back run1 explicitly: everything returns to the start, State files included.
	if _, err := Rollback(p, "run1", "rb2", t0.Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, p); !maps.Equal(got, initial()) {
		t.Fatalf("after rolling back run1:\n%v\nwant\n%v", got, initial())
	}
	hist, _ = History(p)
	rolledBack := map[string]string{}
	for _, h := range hist {
		rolledBack[h.RunID] = h.RolledBack
	}
	if want := map[string]string{"run1": "rb2", "run2": "rb1", "rb1": "rb2", "rb2": ""}; !maps.Equal(rolledBack, want) {
		t.Errorf("rolled back by = %v, want %v", rolledBack, want)
	}
	if ids := runIDs(t, p); !slices.Equal(ids, []string{"run1", "run2", "rb1", "rb2"}) {
		t.Errorf("history order = %v", ids)
	}

	// Undoing the last rollback brings run1 back.
	if _, err := Rollback(p, "rb2", "rb3", t0.Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, p); !maps.Equal(got, afterFirst) {
		t.Fatalf("after rolling back rb2:\n%v\nwant\n%v", got, afterFirst)
	}

	errs := []struct{ run, want string }{
		{"nope", `"nope"`},
		{"run1", "already rolled back"},
		{"", "no applied run"},
	}
	for _, e := range errs {
		if _, err := Rollback(p, e.run, "rbx", t0); err == nil || !strings.Contains(err.Error(), e.want) {
			t.Errorf("Rollback(%q) = %v, want an error with %s", e.run, err, e.want)
		}
	}
}

func sameEntry(a, b HistoryEntry) bool {
	return a.RunID == b.RunID && a.Time.Equal(b.Time) && string(a.Meta) == string(b.Meta) && a.Kind == b.Kind &&
		slices.Equal(a.Files, b.Files) && slices.Equal(a.Retired, b.Retired) && a.RolledBack == b.RolledBack
}

func TestApplyStale(t *testing.T) {
	tests := []struct {
		name string
		edit func(t *testing.T, p Paths)
		file string
	}{
		{"hand edit", func(t *testing.T, p Paths) { writeFiles(t, p.Store, map[string]string{"a.md": "A1 edited\n"}) }, "a.md"},
		{"deleted", func(t *testing.T, p Paths) { os.Remove(filepath.Join(p.Store, "MEMORY.md")) }, "MEMORY.md"},
		{"created meanwhile", func(t *testing.T, p Paths) { writeFiles(t, p.Store, map[string]string{"c.md": "C0\n"}) }, "c.md"},
		{"emptied", func(t *testing.T, p Paths) { writeFiles(t, p.Store, map[string]string{"b.md": ""}) }, "b.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t)
			tt.edit(t, p)
			before := snapshot(t, p)
			err := Apply(p, firstTxn())
			if !errors.Is(err, ErrStale) || !strings.Contains(err.Error(), tt.file) {
				t.Fatalf("Apply = %v, want ErrStale naming %s", err, tt.file)
			}
			assertUntouched(t, p, before)
		})
	}
}

func assertUntouched(t *testing.T, p Paths, before map[string]string) {
	t.Helper()
	if got := snapshot(t, p); !maps.Equal(got, before) {
		t.Errorf("files changed:\n%v\nwant\n%v", got, before)
	}
	if _, err := os.Stat(filepath.Join(p.State, runsDir, "run1")); !os.IsNotExist(err) {
		t.Errorf("journal written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.State, archiveDir)); !os.IsNotExist(err) {
		t.Errorf("archive written: %v", err)
	}
}

func TestApplyRefuses(t *testing.T) {
	tests := []struct {
		name string
		edit func(*Txn)
	}{
		{"parent dir", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: "../x.md", New: []byte("x")}) }},
		{"sub dir", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: "a/b.md", New: []byte("x")}) }},
		{"hidden", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: ".hidden", New: []byte("x")}) }},
		{"hidden md", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: ".consolidate-lock.md", New: []byte("x")}) }},
		{"backslash", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: `a\b.md`, New: []byte("x")}) }},
		{"not markdown", func(t *Txn) { t.Changes = append(t.Changes, Change{Name: "x.txt", New: []byte("x")}) }},
		{"twice", func(t *Txn) { t.Changes = append(t.Changes, t.Changes[0]) }},
		{"state escapes", func(t *Txn) { t.State["../s.json"] = []byte("x") }},
		{"state reserved", func(t *Txn) { t.State["runs"] = []byte("x") }},
		{"state lock", func(t *Txn) { t.State["lock"] = []byte("x") }},
		{"run id", func(t *Txn) { t.RunID = "../r" }},
		{"empty run id", func(t *Txn) { t.RunID = "" }},
		{"retired but kept", func(t *Txn) { t.Retired = append(t.Retired, Retirement{Name: "a", Reason: "deleted"}) }},
		{"retired unknown", func(t *Txn) { t.Retired = append(t.Retired, Retirement{Name: "zzz", Reason: "deleted"}) }},
		{"retired other content", func(t *Txn) { t.Retired[0].Content = []byte("other") }},
		{"bad meta", func(t *Txn) { t.Meta = json.RawMessage("{") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t)
			before := snapshot(t, p)
			txn := firstTxn()
			tt.edit(&txn)
			if err := Apply(p, txn); err == nil {
				t.Fatal("Apply accepted it")
			}
			assertUntouched(t, p, before)
			if _, err := os.Stat(filepath.Join(filepath.Dir(p.Store), "x.md")); !os.IsNotExist(err) {
				t.Error("a file was written outside the store")
			}
		})
	}
}

func TestApplyRefusesReusedRunAndUnfinishedRun(t *testing.T) {
	p := setup(t)
	if err := Apply(p, firstTxn()); err != nil {
		t.Fatal(err)
	}
	again := Txn{RunID: "run1", Changes: []Change{{Name: "a.md", Old: []byte("A2\n"), New: []byte("A3\n")}}}
	if err := Apply(p, again); !errors.Is(err, ErrReplayed) {
		t.Errorf("reused run id: %v", err)
	}
	crashHook = crashAt(5) // open, journal, summary, status applying, crash before a.md
	err := Apply(p, Txn{RunID: "run2", Changes: again.Changes})
	crashHook = nil
	if !errors.Is(err, errCrash) {
		t.Fatalf("crash not simulated: %v", err)
	}
	if err := Apply(p, Txn{RunID: "run3", Changes: again.Changes}); err == nil || !strings.Contains(err.Error(), "Recover") {
		t.Errorf("Apply over an unfinished run: %v", err)
	}
	if id, err := Recover(p); err != nil || id != "run2" {
		t.Errorf("Recover = %q, %v", id, err)
	}
}

// crashAt is a crashHook that kills the transaction at its n-th step (from 1).
func crashAt(n int) func(string) error {
	calls := 0
	return func(string) error {
		calls++
		if calls == n {
			return errCrash
		}
		return nil
	}
}

// failThenCrash fails the n-th step like an I/O error, then crashes at the m-th step after it
// (m 0: never).
func failThenCrash(n, m int) func(string) error {
	calls := 0
	return func(string) error {
		calls++
		switch {
		case calls == n:
			return errors.New("disk full")
		case m > 0 && calls == n+m:
			return errCrash
		}
		return nil
	}
}

// checkBeforeOrAfter asserts the store and State are exactly as before or exactly as after the
// run, with a history and archive to match; it reports which.
func checkBeforeOrAfter(t *testing.T, p Paths, before, after map[string]string, runID string) bool {
	t.Helper()
	got := snapshot(t, p)
	ids := runIDs(t, p)
	switch {
	case maps.Equal(got, after):
		if !slices.Contains(ids, runID) {
			t.Fatalf("store is after %s but the history is %v", runID, ids)
		}
		return true
	case maps.Equal(got, before):
		if slices.Contains(ids, runID) {
			t.Fatalf("store is before %s but the history has it", runID)
		}
		if _, err := os.Stat(filepath.Join(p.State, archiveDir, runID)); !os.IsNotExist(err) {
			t.Fatalf("archive of an undone run left: %v", err)
		}
		return false
	}
	t.Fatalf("store is neither before nor after %s:\n%v", runID, got)
	return false
}

// TestCrashAtEveryStep kills Apply at each of its steps, then Recover at each of its own.
func TestCrashAtEveryStep(t *testing.T) {
	t.Cleanup(func() { crashHook = nil })
	for n := 1; ; n++ {
		p := setup(t)
		crashHook = crashAt(n)
		err := Apply(p, firstTxn())
		crashHook = nil
		if err == nil {
			if n < 5 {
				t.Fatalf("Apply has only %d steps", n-1)
			}
			checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
			assertArchivedB(t, p)
			return
		}
		if !errors.Is(err, errCrash) {
			t.Fatalf("step %d: %v", n, err)
		}
		state := copyTree(t, filepath.Dir(p.Store))
		for m := 1; ; m++ {
			restoreTree(t, filepath.Dir(p.Store), state)
			crashHook = crashAt(m)
			_, err := Recover(p)
			crashHook = nil
			if err == nil {
				break
			}
			if !errors.Is(err, errCrash) {
				t.Fatalf("Recover after step %d: %v", n, err)
			}
			if _, err := Recover(p); err != nil {
				t.Fatalf("Recover after crashes at %d and %d: %v", n, m, err)
			}
			checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
		}
		done := checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
		if done {
			assertArchivedB(t, p)
		} else {
			// The run left no trace: it can be applied again.
			if err := Apply(p, firstTxn()); err != nil {
				t.Fatalf("re-apply after crash at step %d: %v", n, err)
			}
			checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
		}
	}
}

// assertArchivedB checks that run1's retirement of b reached the archive.
func assertArchivedB(t *testing.T, p Paths) {
	t.Helper()
	arch, err := Archived(p)
	if err != nil || len(arch) != 1 || arch[0].Name != "b" {
		t.Fatalf("Archived = %+v, %v", arch, err)
	}
	if data, err := os.ReadFile(arch[0].Path); err != nil || string(data) != "B1\n" {
		t.Fatalf("archived b = %q, %v", data, err)
	}
}

// TestFailureUndoes fails each step of Apply like an I/O error: Apply puts everything back itself,
// and a crash while it does so is finished by Recover.
func TestFailureUndoes(t *testing.T) {
	t.Cleanup(func() { crashHook = nil })
	for n := 1; ; n++ {
		p := setup(t)
		crashHook = failThenCrash(n, 0)
		err := Apply(p, firstTxn())
		crashHook = nil
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("step %d: %v", n, err)
		}
		if checkBeforeOrAfter(t, p, initial(), afterFirst, "run1") {
			t.Fatalf("failed at step %d but applied", n)
		}
		if entries, _ := os.ReadDir(filepath.Join(p.State, runsDir)); len(entries) != 0 {
			t.Fatalf("failed at step %d: runs left %v", n, entries)
		}
		for m := 1; ; m++ {
			p := setup(t)
			crashHook = failThenCrash(n, m)
			err := Apply(p, firstTxn())
			crashHook = nil
			if !errors.Is(err, errCrash) {
				break // the undo finished before step m
			}
			if _, err := Recover(p); err != nil {
				t.Fatalf("Recover after failing at %d, crashing at %d: %v", n, m, err)
			}
			checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
		}
	}
}

func TestRollbackCrashAtEveryStep(t *testing.T) {
	t.Cleanup(func() { crashHook = nil })
	for n := 1; ; n++ {
		p := setup(t)
		if err := Apply(p, firstTxn()); err != nil {
			t.Fatal(err)
		}
		crashHook = crashAt(n)
		_, err := Rollback(p, "", "rb1", t0)
		crashHook = nil
		if err == nil {
			checkBeforeOrAfter(t, p, afterFirst, initial(), "rb1")
			return
		}
		if _, err := Recover(p); err != nil {
			t.Fatal(err)
		}
		checkBeforeOrAfter(t, p, afterFirst, initial(), "rb1")
	}
}

func TestRecoverKeepsConflictingWrites(t *testing.T) {
	p := setup(t)
	crashHook = crashAt(5) // journal written, status applying, crash before the store files
	err := Apply(p, firstTxn())
	crashHook = nil
	if !errors.Is(err, errCrash) {
		t.Fatal(err)
	}
	// Someone writes a.md before Recover runs, and a killed atomic write left its temporary file.
	writeFiles(t, p.Store, map[string]string{"a.md": "written by hand\n", ".c.md8123456789": "partial"})
	if id, err := Recover(p); err != nil || id != "run1" {
		t.Fatalf("Recover = %q, %v", id, err)
	}
	checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
	kept, err := os.ReadFile(filepath.Join(p.State, conflictsDir, "run1", "a.md"))
	if err != nil || string(kept) != "written by hand\n" {
		t.Errorf("conflicting write not kept: %q, %v", kept, err)
	}
}

// copyTree and restoreTree save and put back a directory tree, to crash Recover repeatedly from
// the same state.
func copyTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func restoreTree(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for _, sub := range []string{"memory", "state"} {
		if err := os.RemoveAll(filepath.Join(root, sub)); err != nil {
			t.Fatal(err)
		}
	}
	for path, data := range files {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnfinished checks the one-file marker a quiet pass reads: set while a run is under way or
// was killed, cleared by a finished run and by Recover.
func TestUnfinished(t *testing.T) {
	t.Cleanup(func() { crashHook = nil })
	p := setup(t)
	if id, ok := Unfinished(p); ok {
		t.Fatalf("fresh store: Unfinished = %q", id)
	}
	if err := Apply(p, firstTxn()); err != nil {
		t.Fatal(err)
	}
	if id, ok := Unfinished(p); ok {
		t.Fatalf("after a finished run: Unfinished = %q", id)
	}
	crashHook = crashAt(5)
	err := Apply(p, Txn{RunID: "run2", Changes: []Change{{Name: "a.md", Old: []byte("A2\n"), New: []byte("A3\n")}}})
	crashHook = nil
	if !errors.Is(err, errCrash) {
		t.Fatalf("crash not simulated: %v", err)
	}
	if id, ok := Unfinished(p); !ok || id != "run2" {
		t.Fatalf("after a crash: Unfinished = %q, %v", id, ok)
	}
	if _, err := Recover(p); err != nil {
		t.Fatal(err)
	}
	if id, ok := Unfinished(p); ok {
		t.Fatalf("after Recover: Unfinished = %q", id)
	}
}

// TestFailedUndoKeepsTheRunOpen fails a forward step and then every step of the undo: the run is
// neither committed nor undone, so it must stay marked open for Recover, never look settled.
func TestFailedUndoKeepsTheRunOpen(t *testing.T) {
	t.Cleanup(func() { crashHook = nil })
	p := setup(t)
	calls := 0
	crashHook = func(step string) error {
		calls++
		if calls >= 6 && step != "settled" { // a forward step, then the whole undo
			return errors.New("disk full")
		}
		return nil
	}
	if err := Apply(p, firstTxn()); err == nil {
		t.Fatal("Apply succeeded although every step from the 6th failed")
	}
	crashHook = nil
	if _, ok := Unfinished(p); !ok {
		t.Fatal("a run whose undo failed is not marked unfinished")
	}
	if _, err := Recover(p); err != nil {
		t.Fatal(err)
	}
	if _, ok := Unfinished(p); ok {
		t.Error("Recover left the run marked unfinished")
	}
	checkBeforeOrAfter(t, p, initial(), afterFirst, "run1")
}

// TestChangeJSONKeepsEmptyApartFromAbsent round-trips a Change as a saved plan does: an empty
// file must stay an empty file, not become a missing one.
func TestChangeJSONKeepsEmptyApartFromAbsent(t *testing.T) {
	b, err := json.Marshal(Change{Name: "a.md", Old: []byte{}, New: nil})
	if err != nil {
		t.Fatal(err)
	}
	var c Change
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if c.Old == nil || len(c.Old) != 0 || c.New != nil {
		t.Errorf("round trip of %s: Old %#v, New %#v", b, c.Old, c.New)
	}
}

// TestLegacyJournalRollsBack: a run journaled by an earlier version (images.json, uncompressed)
// still rolls back byte for byte.
func TestLegacyJournalRollsBack(t *testing.T) {
	p := setup(t)
	if err := Apply(p, firstTxn()); err != nil {
		t.Fatal(err)
	}
	dir := runPath(p, "run1")
	var img images
	if err := readGzipJSON(filepath.Join(dir, imagesFile), &img); err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(filepath.Join(dir, legacyImages), img); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, imagesFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Rollback(p, "run1", "rb1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, p); !maps.Equal(got, initial()) {
		t.Fatalf("after rolling back a legacy journal:\n%v\nwant\n%v", got, initial())
	}
}

// TestImageJSON: a journaled image comes back byte for byte, absent apart from empty, text or
// not, in this version's form and in the base64 form of earlier versions.
func TestImageJSON(t *testing.T) {
	for _, b := range [][]byte{nil, {}, []byte("# Memory\n- [a](a.md) — <b> & \"c\"\n"), {0xff, 0xfe, 'x'}, []byte("tab\tand\x00nul")} {
		in := image{Name: "f", Old: b, New: b}
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out image
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatal(err)
		}
		if !sameImage(out.Old, b) || !sameImage(out.New, b) {
			t.Errorf("%q: came back as %q (%s)", b, out.Old, data)
		}
	}
	for legacy, want := range map[string][]byte{`{"name":"f","old":null,"new":null}`: nil, `{"name":"f","old":"","new":""}`: {}, `{"name":"f","old":"YQo=","new":"YQo="}`: []byte("a\n")} {
		var out image
		if err := json.Unmarshal([]byte(legacy), &out); err != nil || !sameImage(out.Old, want) || !sameImage(out.New, want) {
			t.Errorf("legacy %s: %q, %v; want %q", legacy, out.Old, err, want)
		}
	}
}

// TestRunIndex: the index of committed runs is a cache — a run it lacks is read from its files, an
// entry whose run was pruned is passed over, and a broken index changes nothing.
func TestRunIndex(t *testing.T) {
	p := setup(t)
	if err := Apply(p, firstTxn()); err != nil {
		t.Fatal(err)
	}
	second := Txn{RunID: "run2", Time: t0.Add(time.Hour), Changes: []Change{{Name: "a.md", Old: []byte("A2\n"), New: []byte("A3\n")}}}
	if err := Apply(p, second); err != nil {
		t.Fatal(err)
	}
	want := runIDs(t, p)
	index := filepath.Join(p.State, runsDir, runIndexFile)
	if got := readRunIndex(p); len(got) != 2 {
		t.Fatalf("index after two runs holds %d", len(got))
	}
	for _, d := range []struct {
		name   string
		damage func()
	}{
		{"missing", func() { os.Remove(index) }},
		{"broken", func() { os.WriteFile(index, []byte("{"), 0o600) }},
		{"a pruned run", func() { writeJSON(index, []runInfo{{RunID: "gone", Seq: 9}}) }},
	} {
		name := d.name
		d.damage()
		if got := runIDs(t, p); !slices.Equal(got, want) {
			t.Errorf("%s index: runs %v, want %v", name, got, want)
		}
		refreshRunIndex(p)
	}
	if hist, err := History(p); err != nil || len(hist) != 2 || hist[1].RunID != "run2" || !slices.Equal(hist[0].Files, []string{"MEMORY.md", "a.md", "b.md", "c.md", "empty.md"}) {
		t.Errorf("History from the index: %+v, %v", hist, err)
	}
}

// fullDiskAfter lets n file writes through and fails every later one as a full disk does.
func fullDiskAfter(n int) func(string) error {
	calls := 0
	return func(string) error {
		calls++
		if calls > n {
			return syscall.ENOSPC
		}
		return nil
	}
}

// checkFullDisk asserts what a transaction that ran out of space must leave: the store exactly
// as before it with no trace of the run, or exactly as after it — with nothing for Recover to
// finish and no temporary file, because a full disk still lets files be removed and renamed.
func checkFullDisk(t *testing.T, p Paths, err error, before, after map[string]string, runID string) (done bool) {
	t.Helper()
	if err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("%s: %v", runID, err)
	}
	if id, open := Unfinished(p); open {
		t.Fatalf("%s on a full disk (%v) left run %s open", runID, err, id)
	}
	applied := checkBeforeOrAfter(t, p, before, after, runID)
	if applied != (err == nil) {
		t.Fatalf("%s: error %v, but the store is applied: %v", runID, err, applied)
	}
	if left := Leftovers(p); len(left) > 0 {
		t.Fatalf("%s: temporary files left: %v", runID, left)
	}
	return applied
}

// TestFullDiskApplyIsAllOrNothing runs out of space at every write of an apply.
func TestFullDiskApplyIsAllOrNothing(t *testing.T) {
	t.Cleanup(func() { writeHook = nil })
	for n := 0; ; n++ {
		p := setup(t)
		writeHook = fullDiskAfter(n)
		err := Apply(p, firstTxn())
		writeHook = nil
		if checkFullDisk(t, p, err, initial(), afterFirst, "run1") {
			return
		}
		if err := Apply(p, firstTxn()); err != nil { // the space is back: it applies as if never tried
			t.Fatalf("apply after running out of space at write %d: %v", n+1, err)
		}
	}
}

// TestFullDiskRollbackIsAllOrNothing runs out of space at every write of a rollback, which before
// left the store half restored.
func TestFullDiskRollbackIsAllOrNothing(t *testing.T) {
	t.Cleanup(func() { writeHook = nil })
	for n := 0; ; n++ {
		p := setup(t)
		if err := Apply(p, firstTxn()); err != nil {
			t.Fatal(err)
		}
		writeHook = fullDiskAfter(n)
		_, err := Rollback(p, "", "rb1", t0)
		writeHook = nil
		if checkFullDisk(t, p, err, afterFirst, initial(), "rb1") {
			return
		}
		if _, err := Rollback(p, "", "rb1", t0); err != nil {
			t.Fatalf("rollback after running out of space at write %d: %v", n+1, err)
		}
		checkBeforeOrAfter(t, p, afterFirst, initial(), "rb1")
	}
}
