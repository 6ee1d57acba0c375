package phases

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// withUserStore gives f's passes a user store and its queue.
func withUserStore(f *fixture) string {
	f.env.UserStore = filepath.Join(f.root, "user")
	f.env.UserNotes = filepath.Join(f.env.StateDir, "user-notes")
	f.env.Sources = append(f.env.Sources, transcript.Source{Kind: transcript.RememberKind, Path: f.env.UserNotes, Store: f.env.UserStore})
	return f.env.UserStore
}

// TestUserScopeAcrossProjects: what the person says about themselves in two projects ends up as
// one memory in the user store, in the same pass, and in neither project's store.
func TestUserScopeAcrossProjects(t *testing.T) {
	f := newFixture(t, nil)
	f.env.Consolidator, f.env.ConsolidatorName = offline.New(), "offline"
	user := withUserStore(f)
	f.session("a1", "/src/shop", "I'm a data engineer new to Go.", "A:Noted.", "Always run make lint before committing.", "A:Will do.")
	f.session("b1", "/src/blog", "I'm a data engineer new to Go.", "A:Noted.")

	out := f.run(Options{})
	results := map[string]Result{}
	for _, o := range out {
		if o.Err != nil {
			t.Fatalf("%s: %v", o.Store, o.Err)
		}
		results[o.Store] = o.Result
	}
	if len(out) != 3 || out[2].Store != user || out[2].Result != Applied {
		t.Fatalf("outcomes %v: want both projects, then the user store applied last", results)
	}
	u, err := store.Load(user)
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Memories) != 1 || u.Memories[0].Type != memory.User || !strings.Contains(u.Memories[0].Body, "data engineer") {
		t.Fatalf("user store holds %d memories, want the one about the person: %+v", len(u.Memories), u.Memories)
	}
	// Moved through a note, it keeps the sessions that taught it and their day, not the note's.
	if m := u.Memories[0]; !slices.Equal(slices.Sorted(slices.Values(m.Sources)), []string{"claude:a1", "claude:b1"}) || m.Learnt == "" || m.Learnt > f.env.now().Format("2006-01-02") {
		t.Errorf("user memory's provenance: sources %v, learnt %q", m.Sources, m.Learnt)
	}
	for _, p := range []string{"-src-shop", "-src-blog"} {
		s, err := store.Load(filepath.Join(f.root, "projects", p, "memory"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Memories {
			if m.Type == memory.User || strings.Contains(m.Body, "data engineer") {
				t.Errorf("%s kept a memory of the user scope: %s", p, m.Name)
			}
		}
	}
	shop, _ := store.Load(filepath.Join(f.root, "projects", "-src-shop", "memory"))
	if len(shop.Memories) != 1 {
		t.Errorf("the shop's own lesson: %d memories, want 1", len(shop.Memories))
	}
	if again := f.run(Options{}); len(again) != 3 || again[2].Result != NothingNew {
		t.Errorf("a second pass: %+v", again)
	}
}

// TestMoveToUserScope: a project memory the model places in the user scope leaves the project
// store as moved (archived, not counted by the retire guard) and reaches the user store.
func TestMoveToUserScope(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		if req.Scope() == memory.ScopeUser {
			return extract.Response{Summary: "kept", Operations: []extract.Operation{{Action: extract.Create, Name: "terse-answers", Type: memory.Feedback,
				Description: "Answer tersely, in every project", Body: "Answer tersely.", Reason: "sent from a project", Evidence: []string{req.Sessions[0].ID}}}}
		}
		return extract.Response{Summary: "move", Operations: []extract.Operation{{Action: extract.Update, Name: "terse", Type: memory.Feedback, Scope: memory.ScopeUser,
			Description: "Answer tersely, in every project", Body: "Answer tersely.", Reason: "holds everywhere", Evidence: []string{req.Sessions[0].ID}}}}
	})
	user := withUserStore(f)
	dir := filepath.Join(f.root, "projects", "-proj", "memory")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "terse.md"), []byte("---\nname: terse\ndescription: Answer tersely\ntype: feedback\n---\n\nAnswer tersely.\n"), 0o644)
	f.session("s1", "/proj", "Answer tersely in every project, not just here.")

	out := f.run(Options{})
	if len(out) != 2 || out[0].Result != Applied || out[1].Result != Applied {
		t.Fatalf("outcomes %+v", out)
	}
	p := out[0].Plan
	if len(p.Retired) != 1 || p.Retired[0].Reason != store.Moved || len(p.Elsewhere) != 1 {
		t.Fatalf("retired %+v, elsewhere %+v", p.Retired, p.Elsewhere)
	}
	if _, err := os.Stat(filepath.Join(dir, "terse.md")); !os.IsNotExist(err) {
		t.Error("the moved memory is still in the project store")
	}
	if _, err := os.Stat(filepath.Join(user, "terse-answers.md")); err != nil {
		t.Errorf("the user store: %v", err)
	}
}

// TestNoteOfNoProjectReachesItsStore: a note queued for the user's store that names no project
// (as an earlier dreamd queued a memory whose evidence named no session) is routed to that store
// all the same; it does not wait as a transcript of no project.
func TestNoteOfNoProjectReachesItsStore(t *testing.T) {
	f := newFixture(t, nil)
	user := withUserStore(f)
	if _, err := transcript.WriteNoteAs(f.env.UserNotes, "old-run-00", transcript.Note{Text: "Indents with tabs.\n\nIndents with tabs.", Time: today}); err != nil {
		t.Fatal(err)
	}
	targets, skipped, err := Discover(f.env)
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range skipped {
		if strings.HasPrefix(sk.Path, f.env.UserNotes) {
			t.Errorf("the note is skipped: %s", sk.Reason)
		}
	}
	if len(targets) != 1 || targets[0].Paths.Store != user {
		t.Fatalf("targets %v, skipped %v: want the note routed to %s", targets, skipped, user)
	}
}

// TestEvidenceProjectWithoutEvidence: a memory sent elsewhere whose evidence names none of the
// plan's sessions carries the project of the sessions the plan read.
func TestEvidenceProjectWithoutEvidence(t *testing.T) {
	p := &Plan{Read: []FileRead{{Sessions: []SessionRef{{ID: "s1", Project: "/src/shop"}}}}}
	for _, evidence := range [][]string{nil, {"made-up"}, {"s1"}} {
		if got := evidenceProject(p, extract.Operation{Evidence: evidence}); got != "/src/shop" {
			t.Errorf("evidence %v: project %q, want /src/shop", evidence, got)
		}
	}
}

// TestScopeStorePassesWhenSentTo: a pass asked for one project's store (--store, remember --now)
// still makes the user store's pass when the project's pass sends it a memory: what was sent is
// consolidated in the same run.
func TestScopeStorePassesWhenSentTo(t *testing.T) {
	f := newFixture(t, nil)
	f.env.Consolidator, f.env.ConsolidatorName = offline.New(), "offline"
	user := withUserStore(f)
	f.session("a1", "/src/shop", "I'm a data engineer new to Go.", "A:Noted.")
	shop := filepath.Join(f.root, "projects", "-src-shop", "memory")

	out := f.run(Options{Store: shop})
	if len(out) != 2 || out[1].Store != user || out[1].Result != Applied {
		t.Fatalf("outcomes %+v: want the shop's pass, then the user store's", out)
	}
}
