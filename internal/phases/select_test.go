package phases

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/store"
)

// mixedPlan answers with three creates and a delete: two creates are good, the third (deploy-steps)
// and the delete are operations a reviewer rejects. Each create is drawn from its own session.
func mixedPlan(req extract.Request) extract.Response {
	id := func(name string) string {
		for _, s := range req.Sessions {
			if strings.Contains(s.Turns[0].Text, name) {
				return s.ID
			}
		}
		return ""
	}
	return extract.Response{Summary: "ok", Operations: []extract.Operation{
		create("lint-first", "feedback", "Run make lint first", id("lint")),
		create("deploy-steps", "project", "Deploy by hand from a laptop", id("deploy")),
		create("db-tests", "project", "The db tests need docker", id("docker")),
		{Action: extract.Delete, Name: "old-notes", Reason: "no longer true", Evidence: []string{id("lint")}},
	}}
}

// onlyAccepted answers with the operations of mixedPlan a reviewer accepted, as a pass that had
// proposed only those would.
func onlyAccepted(req extract.Request) extract.Response {
	r := mixedPlan(req)
	r.Operations = slices.DeleteFunc(r.Operations, func(op extract.Operation) bool { return op.Name == "deploy-steps" || op.Name == "old-notes" })
	return r
}

func seedMixed(f *fixture) {
	f.t.Helper()
	os.MkdirAll(f.storeDir(), 0o755)
	for _, name := range []string{"old-notes", "style", "build", "team"} {
		body := "---\nname: " + name + "\ndescription: About " + name + "\ntype: project\nsources: [claude:s0]\ncreated: 2026-10-01\nupdated: 2026-10-01\n---\nSomething about " + name + ".\n"
		os.WriteFile(filepath.Join(f.storeDir(), name+".md"), []byte(body), 0o644)
	}
	f.session("s1", "/proj", "lint: from now on run make lint first")
	f.session("s2", "/proj", "deploy: we deploy by hand from a laptop")
	f.session("s3", "/proj", "docker: the db tests need docker running")
}

func storeFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			out[e.Name()] = mustRead(t, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestApplyPlanPartIsAPassOfTheAcceptedOperations: a plan of three creates and a delete, applied
// with the second create and the delete rejected (by --skip or by --only), leaves the store byte
// for byte as a pass proposing only the accepted operations leaves it; the session that fed only
// the rejected create is offered again to the next pass, the others are not.
func TestApplyPlanPartIsAPassOfTheAcceptedOperations(t *testing.T) {
	want := newFixture(t, onlyAccepted)
	seedMixed(want)
	want.run(Options{})
	wantFiles := storeFiles(t, want.storeDir())
	if _, ok := wantFiles["old-notes.md"]; !ok || wantFiles["deploy-steps.md"] != "" || wantFiles["lint-first.md"] == "" {
		t.Fatalf("the reference pass: %v", slices.Sorted(maps.Keys(wantFiles)))
	}
	for _, sel := range []Selection{
		{Skip: []string{"deploy-steps", "old-notes"}},
		{Only: []string{"lint-first", "db-tests"}},
	} {
		t.Run(strings.Join(slices.Concat(sel.Only, sel.Skip), ","), func(t *testing.T) {
			f := newFixture(t, mixedPlan)
			seedMixed(f)
			p := f.run(Options{DryRun: true})[0].Plan
			if got := OperationNames(p); !slices.Equal(got, []string{"db-tests", "deploy-steps", "lint-first", "old-notes"}) {
				t.Fatalf("OperationNames = %v", got)
			}
			preview, err := ApplyPlanPart(f.env, p, sel, false, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := storeFiles(t, f.storeDir()); got["lint-first.md"] != "" {
				t.Fatal("a dry run wrote the store")
			}
			applied, err := ApplyPlanPart(f.env, p, sel, false, false)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(preview.Changes, applied.Changes, func(a, b store.Change) bool { return a.Name == b.Name && string(a.New) == string(b.New) }) {
				t.Error("the dry run previewed other changes than the apply made")
			}
			got := storeFiles(t, f.storeDir())
			for name, w := range wantFiles {
				if got[name] != w {
					t.Errorf("%s:\n got %q\nwant %q", name, got[name], w)
				}
			}
			for name := range got {
				if _, ok := wantFiles[name]; !ok {
					t.Errorf("%s written, and no pass of the accepted operations writes it", name)
				}
			}
			if !strings.Contains(applied.Summary, "rejected: deploy-steps, old-notes") {
				t.Errorf("summary %q does not say what was rejected", applied.Summary)
			}
			if len(applied.OfferedAgain) != 1 || !strings.HasSuffix(applied.OfferedAgain[0], "s2.jsonl") {
				t.Errorf("offered again: %v, want the deploy session only", applied.OfferedAgain)
			}
			f.llm.answer = func(req extract.Request) extract.Response {
				if len(req.Sessions) != 1 || !strings.Contains(req.Sessions[0].Turns[0].Text, "deploy") {
					t.Errorf("the next pass was sent %d sessions, want the deploy session alone", len(req.Sessions))
				}
				return extract.Response{Summary: "nothing"}
			}
			f.run(Options{DryRun: true})
		})
	}
}

func TestApplyPlanPartRefusesAnUnknownOperation(t *testing.T) {
	f := newFixture(t, mixedPlan)
	seedMixed(f)
	p := f.run(Options{DryRun: true})[0].Plan
	_, err := ApplyPlanPart(f.env, p, Selection{Skip: []string{"deploy"}}, false, false)
	if !errors.Is(err, ErrNoOperation) || !strings.Contains(err.Error(), "db-tests, deploy-steps, lint-first, old-notes") {
		t.Fatalf("err = %v, want one listing the plan's operations", err)
	}
	if got := storeFiles(t, f.storeDir()); got["lint-first.md"] != "" {
		t.Error("a refused selection wrote the store")
	}
}

// TestApplyPlanPartKeepsTheGuard: accepting fewer operations never lifts the retire guard: a
// selection keeping two deletes of a four-memory store is refused like the whole plan.
func TestApplyPlanPartKeepsTheGuard(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		r := mixedPlan(req)
		r.Operations = append(r.Operations, extract.Operation{Action: extract.Delete, Name: "style", Reason: "gone", Evidence: []string{req.Sessions[0].ID}})
		return r
	})
	seedMixed(f)
	p := f.run(Options{DryRun: true, Force: true})[0].Plan
	_, err := ApplyPlanPart(f.env, p, Selection{Skip: []string{"deploy-steps"}}, false, false)
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want the guard's refusal", err)
	}
	if _, err := ApplyPlanPart(f.env, p, Selection{Skip: []string{"style"}}, false, false); err != nil {
		t.Fatalf("one delete: %v", err)
	}
}

// TestApplyPlanPartRejectingEverything writes no memory (only the index a store without one is
// given by every pass) and consumes only what no operation was drawn from: every session here fed
// a rejected operation, so every one is offered again.
func TestApplyPlanPartRejectingEverything(t *testing.T) {
	f := newFixture(t, mixedPlan)
	seedMixed(f)
	before := storeFiles(t, f.storeDir())
	p := f.run(Options{DryRun: true})[0].Plan
	applied, err := ApplyPlanPart(f.env, p, Selection{Skip: OperationNames(p)}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	got := storeFiles(t, f.storeDir())
	delete(got, "MEMORY.md")
	delete(got, ".consolidate-lock")
	if !maps.Equal(got, before) || len(applied.Changes) != 1 {
		t.Errorf("rejecting every operation changed the store: %v; files %v, want %v", len(applied.Changes), slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)))
	}
	if len(applied.OfferedAgain) != 3 {
		t.Errorf("offered again: %v, want all three sessions", applied.OfferedAgain)
	}
}

// TestNextPlanAppliesAfterACursorWasReset: a transcript whose cursor a pass left at its start
// (its operation rejected in review or by the validator: offered again) or that was replaced by a
// shorter one since it was read is read from its start by the next plan, and that plan applies:
// the cursor it starts from is what the stored one resumes at, not the stored one itself (which
// keeps the session, the project and how often it was offered).
func TestNextPlanAppliesAfterACursorWasReset(t *testing.T) {
	key := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	for name, first := range map[string]func(f *fixture){
		"its operation rejected in review": func(f *fixture) {
			p := f.run(Options{DryRun: true})[0].Plan
			if _, err := ApplyPlanPart(f.env, p, Selection{Skip: []string{"deploy-steps"}}, false, false); err != nil {
				t.Fatal(err)
			}
		},
		"its operation rejected by the validator": func(f *fixture) {
			f.llm.answer = func(req extract.Request) extract.Response {
				r := onlyAccepted(req)
				op := create("deploy-token", "reference", "The deploy token", r.Operations[0].Evidence...)
				op.Body = "The token is " + key
				for _, s := range req.Sessions {
					if strings.Contains(s.Turns[0].Text, "deploy") {
						op.Evidence = []string{s.ID}
					}
				}
				r.Operations = append(r.Operations, op)
				return r
			}
			f.run(Options{})
			f.llm.answer = mixedPlan
		},
		"its transcript replaced by a shorter one": func(f *fixture) {
			f.llm.answer = onlyAccepted
			f.run(Options{})
			path := filepath.Join(f.root, "projects", "-proj", "s2.jsonl")
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			f.session("s2", "/proj", "deploy: by hand")
			f.llm.answer = mixedPlan
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, mixedPlan)
			seedMixed(f)
			first(f)
			p := f.run(Options{DryRun: true})[0].Plan
			if !slices.ContainsFunc(p.Read, func(r FileRead) bool { return strings.HasSuffix(r.Path, "s2.jsonl") && r.From.Offset == 0 }) {
				t.Fatalf("the next plan does not read s2 from its start: %+v", p.Read)
			}
			if _, err := ApplyPlanPart(f.env, p, Selection{Only: []string{"deploy-steps"}}, false, false); err != nil {
				t.Fatalf("the next plan is refused: %v", err)
			}
			if got := storeFiles(t, f.storeDir()); got["deploy-steps.md"] == "" {
				t.Error("the next plan's operation was not written")
			}
		})
	}
}

// TestPlanRefusedOnceAnotherPassMovedItsCursor: what TestNextPlanAppliesAfterACursorWasReset
// allows is only a cursor as the plan read it: a plan is refused once another pass, leaving the
// store's files as they were, consumed a transcript it read, or offered it again once more.
func TestPlanRefusedOnceAnotherPassMovedItsCursor(t *testing.T) {
	for name, other := range map[string]func(f *fixture){
		"consumed": func(f *fixture) {
			f.llm.answer = func(extract.Request) extract.Response { return extract.Response{Summary: "nothing"} }
			f.run(Options{})
		},
		"offered again once more": func(f *fixture) {
			q := f.run(Options{DryRun: true})[0].Plan
			if _, err := ApplyPlanPart(f.env, q, Selection{Skip: OperationNames(q)}, false, false); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, mixedPlan)
			seedMixed(f)
			// Every operation rejected: the store gets its index, every session is offered again.
			first := f.run(Options{DryRun: true})[0].Plan
			if _, err := ApplyPlanPart(f.env, first, Selection{Skip: OperationNames(first)}, false, false); err != nil {
				t.Fatal(err)
			}
			p := f.run(Options{DryRun: true})[0].Plan
			before := storeFiles(t, f.storeDir())
			other(f)
			if got := storeFiles(t, f.storeDir()); !maps.Equal(got, before) {
				t.Fatal("the other pass changed the store's files: the plan would be refused for that instead")
			}
			_, err := ApplyPlanPart(f.env, p, Selection{Only: []string{"lint-first"}}, false, false)
			if !errors.Is(err, store.ErrStale) || !strings.Contains(err.Error(), "consolidated by another pass") {
				t.Fatalf("err = %v, want the plan refused as consolidated by another pass", err)
			}
		})
	}
}
