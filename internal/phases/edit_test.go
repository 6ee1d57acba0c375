package phases

import (
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

func TestParseEdit(t *testing.T) {
	for name, tt := range map[string]struct {
		text, err string
		want      Edit
	}{
		"as written": {text: EditText(extract.Operation{Action: extract.Update, Name: "lint", Type: memory.Feedback, Description: "Run lint", Body: "Run make lint.\n\n# Why\nCI fails.\n"}),
			want: Edit{Name: "lint", Type: memory.Feedback, Description: "Run lint", Body: "Run make lint.\n\n# Why\nCI fails."}},
		"crlf and no name": {text: "---\r\ntype: project\r\ndescription: a: b\r\n---\r\nbody\r\n",
			want: Edit{Type: memory.Project, Description: "a: b", Body: "body"}},
		"empty body":      {text: "---\ndescription: d\n---\n", want: Edit{Description: "d"}},
		"no front matter": {text: "just text\n", err: "expected the front matter's opening ---"},
		"nothing":         {text: "", err: "no front matter"},
		"unclosed":        {text: "---\nname: a\n", err: "no closing ---"},
		"unknown key":     {text: "---\nsources: x\n---\n", err: `unknown key "sources"`},
		"twice":           {text: "---\ntype: user\ntype: project\n---\n", err: "type given twice"},
		"not a key":       {text: "---\njust words\n---\n", err: "expected key: value"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseEdit(tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseEdit: %+v, %v; want an error saying %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseEdit = %+v, %v; want %+v", got, err, tt.want)
			}
		})
	}
}

func FuzzParseEdit(f *testing.F) {
	f.Add("---\nname: a\ntype: user\ndescription: d\n---\nbody\n")
	f.Add("# c\n---\n---\n")
	f.Add("---\n\n#\n---")
	f.Fuzz(func(t *testing.T, text string) {
		e, err := ParseEdit(text)
		if err != nil || strings.ContainsAny(e.Name+e.Description+string(e.Type), "\n") {
			return
		}
		// What parses once parses the same from the text dreamd writes for it.
		op := extract.Operation{Action: extract.Update, Name: e.Name, Type: e.Type, Description: e.Description, Body: e.Body}
		again, err := ParseEdit(EditText(op))
		if strings.TrimSpace(e.Name) != e.Name || strings.HasPrefix(e.Name, "#") {
			return
		}
		if err != nil || again.Type != e.Type || again.Description != e.Description || again.Body != e.Body {
			t.Errorf("ParseEdit(EditText(%+v)) = %+v, %v", e, again, err)
		}
	})
}

// lintEdit is a person's rewrite of mixedPlan's lint-first.
var lintEdit = Edit{Name: "lint-first", Type: memory.Feedback, Description: "Run make lint before every commit", Body: "Run `make lint` before every commit; CI rejects lint errors since yesterday."}

// TestApplyPlanPartWithAnEdit: a plan applied with one operation edited and two rejected leaves
// the store byte for byte as a pass proposing the edited operation and the other accepted one
// leaves it; the applied plan and the history record the edit, the history's plan_mac signs the
// plan with the edited text, and a plan whose edited file is not its edited text is refused.
func TestApplyPlanPartWithAnEdit(t *testing.T) {
	edited := func(req extract.Request) extract.Response {
		r := onlyAccepted(req)
		for i, op := range r.Operations {
			if op.Name == lintEdit.Name {
				r.Operations[i].Type, r.Operations[i].Description, r.Operations[i].Body = lintEdit.Type, lintEdit.Description, lintEdit.Body
			}
		}
		return r
	}
	want := newFixture(t, edited)
	seedMixed(want)
	want.run(Options{})
	wantFiles := storeFiles(t, want.storeDir())

	f := newFixture(t, mixedPlan)
	seedMixed(f)
	p := f.run(Options{DryRun: true})[0].Plan
	if _, err := planKey(filepath.Dir(filepath.Dir(p.State)), true); err != nil {
		t.Fatal(err)
	}
	sel := Selection{Skip: []string{"deploy-steps", "old-notes"}, Edits: []Edit{lintEdit}}
	applied, err := ApplyPlanPart(f.env, p, sel, false, false)
	if err != nil {
		t.Fatal(err)
	}
	got := storeFiles(t, f.storeDir())
	if !maps.Equal(got, wantFiles) {
		for name := range wantFiles {
			if got[name] != wantFiles[name] {
				t.Errorf("%s:\n got %q\nwant %q", name, got[name], wantFiles[name])
			}
		}
		t.Fatalf("files %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(wantFiles)))
	}
	if !strings.Contains(got["lint-first.md"], "CI rejects lint errors since") || strings.Contains(got["lint-first.md"], "yesterday") {
		t.Fatalf("lint-first.md does not hold the edit with its relative date made absolute:\n%s", got["lint-first.md"])
	}
	if !slices.Equal(applied.Edited, []string{"lint-first"}) || !strings.Contains(applied.Summary, "edited in review: lint-first") {
		t.Errorf("applied plan: edited %v, summary %q", applied.Edited, applied.Summary)
	}
	hist, err := store.History(store.Paths{Store: p.Store, State: p.State})
	if err != nil || len(hist) != 1 {
		t.Fatalf("history: %v %v", hist, err)
	}
	var meta HistoryMeta
	if err := json.Unmarshal(hist[0].Meta, &meta); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(meta.Edited, []string{"lint-first"}) || meta.PlanMAC == "" || meta.PlanMAC != signature(applied) {
		t.Errorf("history meta %+v: want lint-first edited and the applied plan's signature", meta)
	}
	// The signature covers the edited text: the same plan with the model's text signs otherwise.
	unedited := *applied
	unedited.Operations = slices.Clone(applied.Operations)
	for i, op := range unedited.Operations {
		if op.Name == lintEdit.Name {
			unedited.Operations[i].Body = "Run make lint first."
		}
	}
	if signature(&unedited) == meta.PlanMAC {
		t.Error("plan_mac does not cover the edited operation's text")
	}

	// A plan recording an edit whose file says something else is refused before anything is
	// written, even signed: what is recorded as edited is what is written.
	g := newFixture(t, mixedPlan)
	seedMixed(g)
	q := g.run(Options{DryRun: true})[0].Plan
	o, err := Orient(StorePaths(g.env, q.Store), false)
	if err != nil {
		t.Fatal(err)
	}
	part, err := Part(g.env, o, q, sel, false)
	releaseLogged(g.env, o)
	if err != nil {
		t.Fatal(err)
	}
	part.Changes = slices.Clone(part.Changes)
	for i, c := range part.Changes {
		if c.Name == "lint-first.md" {
			part.Changes[i].New = []byte(strings.Replace(string(c.New), "CI rejects lint errors", "CI ignores lint errors", 1))
		}
	}
	o, err = Orient(StorePaths(g.env, q.Store), false)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseLogged(g.env, o)
	if err := verifyPlan(g.env, o, part); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "lint-first.md is not the text lint-first was edited to") {
		t.Errorf("a tampered edit: %v, want it refused", err)
	}
}

// TestApplyPlanPartRefusesABadEdit: an edit is checked as the model's operation is: a pasted
// credential, an empty body or one over the cap, a type dreamd does not know are refused saying why, as are an
// edit of a deletion, one of a rejected operation and one of no operation; the store is untouched.
func TestApplyPlanPartRefusesABadEdit(t *testing.T) {
	f := newFixture(t, mixedPlan)
	seedMixed(f)
	before := storeFiles(t, f.storeDir())
	p := f.run(Options{DryRun: true})[0].Plan
	key := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	for name, tt := range map[string]struct {
		sel  Selection
		want string
		is   error
	}{
		"secret":      {Selection{Edits: []Edit{{Name: "lint-first", Type: memory.Feedback, Description: "Run lint", Body: "The token is " + key}}}, "lint-first: ", ErrEditRefused},
		"empty body":  {Selection{Edits: []Edit{{Name: "lint-first", Description: "Run lint"}}}, "empty body", ErrEditRefused},
		"over cap":    {Selection{Edits: []Edit{{Name: "lint-first", Body: strings.Repeat("lint ", memory.DefaultLimits.MemoryMaxBytes)}}}, "body is", ErrEditRefused},
		"type":        {Selection{Edits: []Edit{{Name: "lint-first", Type: "whim", Description: "d", Body: "x"}}}, "invalid type", ErrEditRefused},
		"deletion":    {Selection{Edits: []Edit{{Name: "old-notes", Type: memory.Project, Description: "d", Body: "x"}}}, "writes no text to edit", ErrBadEdit},
		"rejected":    {Selection{Skip: []string{"lint-first"}, Edits: []Edit{lintEdit}}, "both edited and rejected", ErrBadEdit},
		"not in only": {Selection{Only: []string{"db-tests"}, Edits: []Edit{lintEdit}}, "name it in --only too", ErrBadEdit},
		"twice":       {Selection{Edits: []Edit{lintEdit, lintEdit}}, "edited twice", ErrBadEdit},
		"unknown":     {Selection{Edits: []Edit{{Name: "nope", Description: "d"}}}, "the plan has no operation on \"nope\" to edit", ErrNoOperation},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ApplyPlanPart(f.env, p, tt.sel, false, false)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %v saying %q", err, tt.is, tt.want)
			}
			if tt.is != ErrEditRefused && errors.Is(err, ErrRefused) {
				t.Errorf("a selection's mistake is called a safety guard's refusal (exit 4): %v", err)
			}
			if strings.Contains(err.Error(), key) {
				t.Errorf("the refusal quotes the credential: %v", err)
			}
			if got := storeFiles(t, f.storeDir()); !maps.Equal(got, before) {
				t.Error("a refused edit wrote the store")
			}
		})
	}
}

// TestApplyPlanPartEditsAMerge: a merge's merged text is what the person edits; the memories it
// merges are retired as the plan's merge retired them.
func TestApplyPlanPartEditsAMerge(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Summary: "ok", Operations: []extract.Operation{{Action: extract.Update, Name: "style", Type: memory.Project,
			Description: "Style and team rules", Body: "Style and team, merged.", MergedFrom: []string{"team"}, Reason: "duplicates", Evidence: []string{req.Sessions[0].ID}}}}
	})
	seedMixed(f)
	p := f.run(Options{DryRun: true})[0].Plan
	edit := Edit{Name: "style", Description: "Style: gofmt; the team reviews every change", Body: "Code is gofmt'd.\n\nThe team reviews every change."}
	applied, err := ApplyPlanPart(f.env, p, Selection{Edits: []Edit{edit}}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	got := storeFiles(t, f.storeDir())
	if _, ok := got["team.md"]; ok || !slices.ContainsFunc(applied.Retired, func(r store.Retirement) bool { return r.Name == "team" && r.Reason == store.Merged }) {
		t.Errorf("the merged memory is not retired as merged: files %v, retired %+v", slices.Sorted(maps.Keys(got)), applied.Retired)
	}
	style := got["style.md"]
	if !strings.Contains(style, "description: \"Style: gofmt; the team reviews every change\"") && !strings.Contains(style, "description: 'Style: gofmt; the team reviews every change'") ||
		!strings.Contains(style, "type: project") || !strings.HasSuffix(style, "Code is gofmt'd.\n\nThe team reviews every change.\n") {
		t.Errorf("style.md does not hold the edit (the plan's type kept):\n%s", style)
	}
	if !strings.Contains(applied.Summary, "Applied after review: 1 of 1 operations accepted; edited in review: style.") {
		t.Errorf("summary %q", applied.Summary)
	}
}

// TestApplyPlanPartEditsAMemoryForAnotherStore: an operation sent to the user store is edited like
// one of this store's: its note for the user store's pass carries the person's text.
func TestApplyPlanPartEditsAMemoryForAnotherStore(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		if req.Scope() != memory.ScopeProject {
			return extract.Response{Summary: "nothing"}
		}
		op := create("user-role", "user", "The user is a data engineer", req.Sessions[0].ID)
		op.Scope = memory.ScopeUser
		return extract.Response{Summary: "ok", Operations: []extract.Operation{op}}
	})
	withUserStore(f)
	f.session("s1", "/proj", "I'm a data engineer, new to Go.")
	var p *Plan
	for _, o := range f.run(Options{DryRun: true}) {
		if o.Plan != nil && len(o.Plan.Elsewhere) == 1 {
			p = o.Plan
		}
	}
	if p == nil {
		t.Fatal("no plan sends a memory to the user store")
	}
	edit := Edit{Name: "user-role", Body: "The user is a data engineer who is new to Go: explain Go idioms."}
	applied, err := ApplyPlanPart(f.env, p, Selection{Edits: []Edit{edit}}, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(applied.Edited, []string{"user-role"}) {
		t.Errorf("edited: %v", applied.Edited)
	}
	notes, err := filepath.Glob(filepath.Join(f.env.UserNotes, "*"))
	if err != nil || len(notes) != 1 {
		t.Fatalf("notes for the user store: %v %v", notes, err)
	}
	if note := mustRead(t, notes[0]); !strings.Contains(note, "explain Go idioms") {
		t.Errorf("the note for the user store does not carry the edit:\n%s", note)
	}
}

// TestApplyPlanPartSaysWhatItMendedInAnEdit: what the validator mends in an edit, as it mends the
// model's operations (a description over the cap shortened), is listed among the plan's repairs.
func TestApplyPlanPartSaysWhatItMendedInAnEdit(t *testing.T) {
	f := newFixture(t, mixedPlan)
	seedMixed(f)
	p := f.run(Options{DryRun: true})[0].Plan
	long := strings.TrimSpace(strings.Repeat("Run make lint before every commit. ", 20))
	q, err := ApplyPlanPart(f.env, p, Selection{Edits: []Edit{{Name: "lint-first", Description: long, Body: "Run make lint."}}}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(q.Repaired, func(r extract.Repaired) bool {
		return r.Name == "lint-first" && strings.HasPrefix(r.What, "in the edit: ")
	}) {
		t.Errorf("repairs %+v do not say the edit's description was shortened", q.Repaired)
	}
	i := slices.IndexFunc(q.Operations, func(op extract.Operation) bool { return op.Name == "lint-first" })
	if i < 0 || len([]rune(q.Operations[i].Description)) > memory.DefaultLimits.DescriptionMax {
		t.Errorf("the edited operation: %+v", q.Operations)
	}
}
