package phases

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"
)

// TestQuietMark: after a pass that leaves nothing to do, the next pass with nothing changed ends
// at the listing (the cursors need not be read: here they are unreadable and it does not notice);
// a transcript appended in place, or any store state written since, makes a full pass again.
func TestQuietMark(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Summary: "ok", Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	path := f.session("s1", "/proj", "Always run make lint first.", "A:Noted.")
	if out := f.run(Options{}); out[0].Result != Applied {
		t.Fatalf("first pass: %+v", out)
	}
	// The apply consumed everything: the pass looked again and left the mark for the next one.
	if _, err := os.Stat(quietPath(f.env)); err != nil {
		t.Fatalf("no quiet mark after a pass that left nothing to do: %v", err)
	}

	shards, _ := filepath.Glob(filepath.Join(f.env.StateDir, "stores", "*", "cursors-*.json"))
	if len(shards) == 0 {
		t.Fatal("no cursor shards")
	}
	saved := map[string][]byte{}
	for _, s := range shards {
		saved[s], _ = os.ReadFile(s)
		st, _ := os.Stat(s)
		// Same size and time, unreadable content: only a pass that reads the cursors would fail.
		os.WriteFile(s, make([]byte, len(saved[s])), 0o600)
		os.Chtimes(s, st.ModTime(), st.ModTime())
	}
	out, err := Run(t.Context(), f.env, Options{})
	if err != nil || len(out) != 1 || out[0].Result != NothingNew {
		t.Fatalf("quiet pass: %+v, %v", out, err)
	}
	for s, data := range saved {
		os.WriteFile(s, data, 0o600)
	}

	calls := f.llm.calls
	fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	fh.WriteString(`{"type":"user","uuid":"s1z","sessionId":"s1","cwd":"/proj","timestamp":"2026-11-20T11:00:00Z","message":{"role":"user","content":"Never push on Fridays."}}` + "\n")
	fh.Close()
	later := time.Now().Add(time.Minute)
	os.Chtimes(path, later, later)
	if out := f.run(Options{}); out[0].Result != Applied || f.llm.calls != calls+1 {
		t.Fatalf("a transcript appended in place: %+v (%d calls)", out, f.llm.calls-calls)
	}
}

// TestNoQuietMarkWhileMaterialWaits: a store held back by a gate leaves no mark, so the next pass
// looks at its material again.
func TestNoQuietMarkWhileMaterialWaits(t *testing.T) {
	f := newFixture(t, nil)
	f.session("s1", "/proj", "Always run make lint first.")
	if out := f.run(Options{Gates: &Gates{MinSessions: 2}}); out[0].Result != Gated {
		t.Fatalf("outcome %+v", out)
	}
	if _, err := os.Stat(quietPath(f.env)); err == nil {
		t.Fatal("a gated store's waiting material left a quiet mark")
	}
}

// TestNoNoteWaitsBehindTheQuietMark: a note queued for the user's store after a pass left the
// quiet mark (by a project pass of another run, or `dreamd remember`) is consolidated by the next
// pass: the queue is a listed source, so the mark no longer holds.
func TestNoNoteWaitsBehindTheQuietMark(t *testing.T) {
	f := newFixture(t, nil)
	f.env.Consolidator, f.env.ConsolidatorName = offline.New(), "offline"
	user := withUserStore(f)
	f.session("a1", "/src/shop", "Always run make lint before committing.", "A:Will do.")
	f.run(Options{})
	if again := f.run(Options{}); slices.ContainsFunc(again, func(o Outcome) bool { return o.Result != NothingNew }) {
		t.Fatalf("second pass: %+v", again)
	}
	if _, err := os.Stat(quietPath(f.env)); err != nil {
		t.Fatalf("no quiet mark after a pass with nothing to do: %v", err)
	}
	note := transcript.Note{Project: "/src/shop", Type: string(memory.User), Text: "I'm a data engineer new to Go.", Time: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	if _, err := transcript.WriteNoteAs(f.env.UserNotes, "queued-01", note); err != nil {
		t.Fatal(err)
	}
	out := f.run(Options{})
	i := slices.IndexFunc(out, func(o Outcome) bool { return o.Store == user })
	if i < 0 || out[i].Result != Applied {
		t.Fatalf("the queued note waited behind the quiet mark: %+v", out)
	}
}
