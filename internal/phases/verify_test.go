package phases

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/dreamd/dreamd/internal/transcript"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/slug"
)

// TestVerifyPlanRefusesWhatAFreshPassWouldNot: even signed with the right key, a plan that writes
// a secret, a control byte, a file that is no memory, an index that is not derived, or into a store
// the configuration does not consolidate is refused before anything is written.
func TestVerifyPlanRefusesWhatAFreshPassWouldNot(t *testing.T) {
	secret := "ghp_" + "4bN7sQ1vX9zK2mT5wE8rY3uI6oP0aS7dF1gH"
	tests := []struct {
		name string
		edit func(p *Plan)
	}{
		{"secret in a new file", func(p *Plan) { p.Changes[0].New = []byte("---\nname: lint-first\n---\ntoken " + secret + "\n") }},
		{"NUL in a new file", func(p *Plan) { p.Changes[0].New = []byte("---\nname: lint-first\n---\nrun\x00 lint\n") }},
		{"not a memory name", func(p *Plan) { p.Changes[0].Name = "../escape.md" }},
		{"index not derived", func(p *Plan) { p.Changes[len(p.Changes)-1].New = []byte("# Memory\n\n- [ghost](ghost.md) — boo\n") }},
		{"another store", func(p *Plan) {
			p.Store = filepath.Join(filepath.Dir(p.Store), "..", "elsewhere", "memory")
			p.State = filepath.Join(filepath.Dir(p.State), slug.Project(p.Store))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(req extract.Request) extract.Response {
				return extract.Response{Summary: "ok", Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
			})
			f.session("s1", "/proj", "from now on run make lint first")
			out := f.run(Options{DryRun: true})
			p := out[0].Plan
			if p == nil || len(p.Changes) < 2 {
				t.Fatalf("no plan: %+v", out[0])
			}
			tt.edit(p)
			path := filepath.Join(t.TempDir(), "plan.json")
			if err := WritePlan(path, p, f.env.StateDir); err != nil {
				t.Fatal(err)
			}
			signed, err := ReadPlan(path, f.env.StateDir)
			if err != nil {
				t.Fatalf("ReadPlan of a re-signed plan: %v", err)
			}
			err = ApplyPlan(f.env, signed, true)
			if !errors.Is(err, ErrRefused) {
				t.Fatalf("ApplyPlan = %v, want a refusal", err)
			}
			if _, err := os.Stat(filepath.Join(f.storeDir(), "lint-first.md")); err == nil {
				t.Error("a refused plan wrote the store")
			}
		})
	}
}

// FuzzReadPlan: no byte string that dreamd did not sign is taken for a plan.
func FuzzReadPlan(f *testing.F) {
	f.Add([]byte(`{"version": 1, "run_id": "x", "store": "/s", "state": "/t", "mac": ""}`))
	f.Add([]byte(`{"version": 1, "run_id": "x", "store": "/s", "state": "/t", "mac": "00"}`))
	f.Add([]byte("not json"))
	stateDir := f.TempDir()
	if _, err := planKey(stateDir, true); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "plan.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		if p, err := ReadPlan(path, stateDir); err == nil {
			t.Fatalf("an unsigned file was read as a plan: %+v", p)
		}
	})
}

// TestRejectedMaterialIsOfferedAgainBounded: a session whose operation cannot be repaired is sent
// to the model again at the next passes, at most MaxOffers more times, then left.
func TestRejectedMaterialIsOfferedAgainBounded(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		op := create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)
		op.Type = "gossip" // not a type: nothing mechanical mends it
		return extract.Response{Summary: "bad", Operations: []extract.Operation{op}}
	})
	f.session("s1", "/proj", "from now on run make lint first")
	for pass := 1; pass <= MaxOffers+2; pass++ {
		out := f.run(Options{})
		want := Applied
		if pass == MaxOffers+2 {
			want = NothingNew
		}
		if out[0].Result != want {
			t.Fatalf("pass %d: %s (%s), want %s", pass, out[0].Result, out[0].Detail, want)
		}
		if p := out[0].Plan; p != nil && pass <= MaxOffers && len(p.OfferedAgain) != 1 {
			t.Errorf("pass %d: offered again %v", pass, p.OfferedAgain)
		}
		if p := out[0].Plan; p != nil && pass == MaxOffers+1 && len(p.GaveUp) != 1 {
			t.Errorf("pass %d: gave up on %v", pass, p.GaveUp)
		}
	}
	if f.llm.calls != MaxOffers+1 {
		t.Errorf("%d calls, want %d", f.llm.calls, MaxOffers+1)
	}
}

// TestCursorImagesJournalOnlyWhatMoved: an apply journals the cursor shards it moves, not every
// cursor of the store; the single file of earlier versions is read, then replaced by shards.
func TestCursorImagesJournalOnlyWhatMoved(t *testing.T) {
	p := StorePaths(&Env{StateDir: t.TempDir()}, "/store")
	cur := Cursors{}
	for i := range 1000 {
		cur[fmt.Sprintf("/t/session-%04d.jsonl", i)] = transcript.Cursor{Size: int64(i), Offset: int64(i)}
	}
	os.MkdirAll(p.State, 0o700)
	os.WriteFile(filepath.Join(p.State, cursorsFile), encodeCursors(cur), 0o600)
	if got, err := LoadCursors(p); err != nil || len(got) != 1000 {
		t.Fatalf("legacy cursors: %d, %v", len(got), err)
	}
	next := maps.Clone(cur)
	next["/t/session-0007.jsonl"] = transcript.Cursor{Size: 99, Offset: 99}
	if err := saveCursors(p, cur, next); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.State, cursorsFile)); !os.IsNotExist(err) {
		t.Error("the legacy cursors file was not replaced by shards")
	}
	got, _ := LoadCursors(p)
	if !maps.Equal(got, next) {
		t.Fatal("cursors changed on the way through shards")
	}
	after := maps.Clone(next)
	after["/t/session-0500.jsonl"] = transcript.Cursor{Size: 1, Offset: 1}
	images := cursorImages(p, next, after)
	size := 0
	for _, b := range images {
		size += len(b)
	}
	if len(images) != 1 || size > 4096 {
		t.Errorf("moving one cursor of 1,000 writes %d shards, %d bytes", len(images), size)
	}
}

// TestCursorShardsOfAnotherCountAreReplaced: shards written with another shard count (an earlier
// version's layout) are read, and the next move rewrites every shard and removes them, so no
// cursor is lost or shadowed by a stale copy.
func TestCursorShardsOfAnotherCountAreReplaced(t *testing.T) {
	p := StorePaths(&Env{StateDir: t.TempDir()}, "/store")
	os.MkdirAll(p.State, 0o700)
	old := Cursors{"/t/a.jsonl": {Size: 1, Offset: 1}, "/t/b.jsonl": {Size: 2, Offset: 2}}
	stale := fmt.Sprintf("cursors-%03d.json", cursorShards+100)
	os.WriteFile(filepath.Join(p.State, stale), encodeCursors(old), 0o600)
	cur, err := LoadCursors(p)
	if err != nil || !maps.Equal(cur, old) {
		t.Fatalf("stale shard read as %v, %v", cur, err)
	}
	next := maps.Clone(cur)
	next["/t/a.jsonl"] = transcript.Cursor{Size: 5, Offset: 5}
	if err := saveCursors(p, cur, next); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.State, stale)); !os.IsNotExist(err) {
		t.Error("the shard of another layout was kept")
	}
	if got, _ := LoadCursors(p); !maps.Equal(got, next) {
		t.Errorf("cursors after the move: %v, want %v", got, next)
	}
}
