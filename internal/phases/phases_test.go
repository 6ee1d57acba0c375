package phases

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// scripted is a consolidator that answers from a function and counts its calls.
type scripted struct {
	calls    int
	requests []extract.Request
	answer   func(extract.Request) extract.Response
}

func (s *scripted) Consolidate(_ context.Context, req extract.Request) (extract.Result, error) {
	s.calls++
	s.requests = append(s.requests, req)
	return extract.Result{Response: s.answer(req), Model: "scripted"}, nil
}

var today = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// fixture is a temporary Claude Code projects directory, store root and state directory.
type fixture struct {
	t    *testing.T
	root string
	env  *Env
	llm  *scripted
}

func newFixture(t *testing.T, answer func(extract.Request) extract.Response) *fixture {
	t.Helper()
	root := t.TempDir()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	llm := &scripted{answer: answer}
	return &fixture{t: t, root: root, llm: llm, env: &Env{
		Sources:           []transcript.Source{{Kind: "claude", Path: filepath.Join(root, "projects")}},
		StoreMode:         "claude",
		StoreRoot:         filepath.Join(root, "projects"),
		StateDir:          filepath.Join(root, "state"),
		Limits:            memory.DefaultLimits,
		MaxRetireFraction: 0.25,
		MaxInputTokens:    100000,
		Consolidator:      llm,
		ConsolidatorName:  "scripted",
		Redactor:          red,
		Now:               func() time.Time { return today },
	}}
}

func (f *fixture) session(id, project string, lines ...string) string {
	f.t.Helper()
	var b strings.Builder
	for i, text := range lines {
		role := "user"
		if strings.HasPrefix(text, "A:") {
			role, text = "assistant", strings.TrimPrefix(text, "A:")
		}
		content := `"` + text + `"`
		if role == "assistant" {
			content = `[{"type":"text","text":"` + text + `"}]`
		}
		b.WriteString(`{"type":"` + role + `","uuid":"` + id + string(rune('a'+i)) + `","sessionId":"` + id + `","cwd":"` + project +
			`","timestamp":"2026-11-20T10:00:0` + string(rune('0'+i%10)) + `Z","message":{"role":"` + role + `","content":` + content + "}}\n")
	}
	path := filepath.Join(f.root, "projects", slug.Project(project), id+".jsonl") // where Claude Code files it
	os.MkdirAll(filepath.Dir(path), 0o755)
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	fh.WriteString(b.String())
	return path
}

func (f *fixture) storeDir() string { return filepath.Join(f.root, "projects", "-proj", "memory") }

func (f *fixture) run(opt Options) []Outcome {
	f.t.Helper()
	p, err := RunPass(context.Background(), f.env, opt)
	if err != nil {
		f.t.Fatalf("Run: %v", err)
	}
	p.MarkQuiet() // as the driver does
	return p.Outcomes
}

func create(name, typ, desc string, evidence ...string) extract.Operation {
	return extract.Operation{Action: "create", Name: name, Type: memory.Type(typ), Description: desc, Body: desc + ".", Reason: "test", Evidence: evidence}
}

func TestRunAppliesOnceAndOnlyNewMaterial(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Summary: "ok", Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	f.session("s1", "/proj", "Always run make lint first.", "A:Noted.")

	dry := f.run(Options{DryRun: true})
	if len(dry) != 1 || dry[0].Result != "dry run" || dry[0].Plan.Empty() {
		t.Fatalf("dry run outcome: %+v", dry)
	}
	if _, err := os.Stat(f.env.StateDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the dry run wrote the state directory")
	}
	if _, err := os.Stat(f.storeDir()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the dry run wrote the store")
	}

	out := f.run(Options{})
	if out[0].Result != "applied" {
		t.Fatalf("outcome %+v", out[0])
	}
	if f.llm.calls != 2 {
		t.Fatalf("calls = %d, want 2 (dry run + run)", f.llm.calls)
	}
	if _, err := os.Stat(filepath.Join(f.storeDir(), "lint-first.md")); err != nil {
		t.Fatal(err)
	}

	if out = f.run(Options{}); out[0].Result != "nothing new" || f.llm.calls != 2 {
		t.Fatalf("second pass: %+v, %d calls", out[0], f.llm.calls)
	}

	f.session("s1", "/proj", "Never push to main directly.")
	f.run(Options{})
	if f.llm.calls != 3 {
		t.Fatalf("calls = %d after appending", f.llm.calls)
	}
	last := f.llm.requests[2]
	if len(last.Sessions) != 1 || len(last.Sessions[0].Turns) != 1 || !strings.Contains(last.Sessions[0].Turns[0].Text, "Never push") {
		t.Errorf("the third call must carry only the appended turn: %+v", last.Sessions)
	}
	if len(last.Memories) != 1 || last.Memories[0].Name != "lint-first" {
		t.Errorf("the third call must carry the store's memories: %+v", last.Memories)
	}
}

func TestRunFailureChangesNothing(t *testing.T) {
	f := newFixture(t, nil)
	f.env.Consolidator = failing{}
	f.session("s1", "/proj", "Always run make lint first.")
	out, err := Run(context.Background(), f.env, Options{})
	if err == nil || out[0].Result != "failed" {
		t.Fatalf("err %v, outcome %+v", err, out)
	}
	cursors, _ := LoadCursors(StorePaths(f.env, f.storeDir()))
	if len(cursors) != 0 {
		t.Errorf("cursors moved on a failed pass: %v", cursors)
	}
	if _, err := os.Stat(filepath.Join(f.storeDir(), "MEMORY.md")); err == nil {
		t.Error("a failed pass wrote the index")
	}
}

type failing struct{}

func (failing) Consolidate(context.Context, extract.Request) (extract.Result, error) {
	return extract.Result{}, errors.New("llm: 503 Service Unavailable")
}

func TestGuardRefusesMassRetirement(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		var ops []extract.Operation
		for _, m := range req.Memories {
			ops = append(ops, extract.Operation{Action: "delete", Name: m.Name, Reason: "gone"})
		}
		return extract.Response{Operations: ops}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		os.WriteFile(filepath.Join(f.storeDir(), n+".md"), []byte("---\nname: "+n+"\ndescription: memory "+n+"\ntype: project\n---\nbody\n"), 0o644)
	}
	f.session("s1", "/proj", "Forget everything.")
	_, err := Run(context.Background(), f.env, Options{})
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("err = %v, want ErrRefused", err)
	}
	if m, _ := filepath.Glob(filepath.Join(f.storeDir(), "*.md")); len(m) != 5 {
		t.Errorf("files after a refused pass: %v", m)
	}
	if out := f.run(Options{Force: true}); out[0].Result != "applied" || out[0].Plan.Counts.Retired != 5 {
		t.Errorf("--force: %+v", out[0])
	}
}

func TestPruneCapsKeepNewAndPinned(t *testing.T) {
	f := newFixture(t, nil)
	f.env.Limits.IndexMaxLines = 8 // "# Memory", blank, "## Project", 5 entries
	var cur []*store.Memory
	for i, n := range []string{"old-a", "old-b", "old-c", "old-d", "pinned-e"} {
		cur = append(cur, &store.Memory{Name: n, Type: "project", Description: "memory " + n,
			Updated: time.Date(2025, time.Month(i+1), 1, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), Pinned: n == "pinned-e", Raw: []byte("x")})
	}
	ops := []extract.Operation{create("new-one", "project", "A new lesson"), create("new-two", "project", "Another new lesson")}
	retire := Decide(f.env, &store.Store{Memories: cur}, ops, nil, nil, nil, f.env.now(), true).Retire
	if len(retire) != 2 {
		t.Fatalf("retired %+v, want the two oldest", retire)
	}
	for _, r := range retire {
		if r.Reason != "capped" || (r.Name != "old-a" && r.Name != "old-b") {
			t.Errorf("retired %+v", r)
		}
	}
}

// TestPruneCapsWithinTheGuard: a store over its caps loses no more memories in one pass than
// limits.max_retire_fraction allows; what remains over is reported, and new lessons that do not
// fit are left out rather than written and retired.
func TestPruneCapsWithinTheGuard(t *testing.T) {
	old := func(n int) []*store.Memory {
		var cur []*store.Memory
		for i := range n {
			cur = append(cur, &store.Memory{Name: fmt.Sprintf("old-%02d", i), Type: "project", Description: "an old memory",
				Updated: time.Date(2025, 1, i+1, 0, 0, 0, 0, time.UTC).Format("2006-01-02"), Raw: []byte("x")})
		}
		return cur
	}
	var creates []extract.Operation
	for i := range 10 {
		creates = append(creates, create(fmt.Sprintf("new-%02d", i), "project", "A new lesson"))
	}
	tests := []struct {
		name                      string
		cur                       []*store.Memory
		ops                       []extract.Operation
		force                     bool
		retired, leftOut, overCap int
	}{
		{"over the cap: a quarter goes, the rest is reported", old(8), nil, false, 2, 0, 2},
		{"--force lets the rest go", old(8), nil, true, 4, 0, 0},
		{"creates into an empty store beyond the cap", nil, creates, false, 0, 6, 0},
		{"creates into a full store", old(4), creates[:3], false, 1, 2, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.env.Limits.IndexMaxLines = 7 // "# Memory", blank, "## Project", 4 entries
			f.env.MaxRetireFraction = 0.25
			pr := Decide(f.env, &store.Store{Memories: tt.cur}, tt.ops, nil, nil, nil, f.env.now(), tt.force)
			if len(pr.Retire) != tt.retired || len(pr.LeftOut) != tt.leftOut || pr.OverCap != tt.overCap {
				t.Errorf("retired %d, left out %d, over cap %d; want %d, %d, %d", len(pr.Retire), len(pr.LeftOut), pr.OverCap, tt.retired, tt.leftOut, tt.overCap)
			}
			if len(pr.Operations)+len(pr.LeftOut) != len(tt.ops) {
				t.Errorf("operations lost: %d kept + %d left out of %d", len(pr.Operations), len(pr.LeftOut), len(tt.ops))
			}
		})
	}
}

func TestGuardWeighsWhatIsLost(t *testing.T) {
	r := func(reasons ...store.RetireReason) []store.Retirement {
		var out []store.Retirement
		for _, why := range reasons {
			out = append(out, store.Retirement{Reason: why})
		}
		return out
	}
	tests := []struct {
		retired []store.Retirement
		lost    int
	}{
		{r("merged", "superseded", "superseded"), 0},
		{r("deleted", "expired", "capped"), 3},
		{r("merged", "deleted"), 1},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := weighedIn(tt.retired); got != tt.lost {
			t.Errorf("weighedIn(%v) = %d, want %d", tt.retired, got, tt.lost)
		}
	}
}

// A reinforced memory keeps its text; its sources and date move.
func TestNextMemoriesReinforce(t *testing.T) {
	old := &store.Memory{Name: "lint", Type: "feedback", Description: "Run lint", Body: "Run make lint.\n",
		Updated: "2026-01-01", Sources: []string{"claude:s0"}, HasFrontMatter: true, Raw: []byte("x")}
	op := extract.Operation{Action: "reinforce", Name: "lint", Evidence: []string{"s9"}}
	next, retired := nextMemories([]*store.Memory{old}, []extract.Operation{op}, nil, time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), evidence{kinds: map[string]string{"s9": "codex"}})
	if len(next) != 1 || len(retired) != 0 {
		t.Fatalf("next %v, retired %v", next, retired)
	}
	m := next[0]
	if m.Body != old.Body || m.Description != old.Description || m.Updated != "2026-11-20" ||
		!slices.Equal(m.Sources, []string{"claude:s0", "codex:s9"}) || m.Raw != nil {
		t.Errorf("reinforced = %+v", m)
	}
}

func TestPruneTTL(t *testing.T) {
	f := newFixture(t, nil)
	f.env.TTL = map[memory.Type]time.Duration{memory.Project: 180 * 24 * time.Hour}
	cur := []*store.Memory{
		{Name: "stale", Type: "project", Description: "d", Updated: "2026-01-02", Raw: []byte("x")},
		{Name: "fresh", Type: "project", Description: "d", Updated: "2026-11-01", Raw: []byte("x")},
		{Name: "pinned", Type: "project", Description: "d", Updated: "2020-01-01", Pinned: true, Raw: []byte("x")},
		{Name: "rule", Type: "feedback", Description: "d", Updated: "2020-01-01", Raw: []byte("x")},
	}
	retire := Decide(f.env, &store.Store{Memories: cur}, nil, nil, nil, nil, f.env.now(), false).Retire
	if len(retire) != 1 || retire[0].Name != "stale" || retire[0].Reason != "expired" {
		t.Errorf("retired %+v, want only stale", retire)
	}
}

func TestFitCutsLeastValuableFirst(t *testing.T) {
	mk := func(turns ...extract.Turn) []digestFile {
		return []digestFile{{sessions: []extract.Session{{ID: "s", Turns: turns}}}}
	}
	long := strings.Repeat("x", 3000)
	tests := []struct {
		name   string
		budget int
		keep   []string // roles kept
	}{
		{"fits", 100000, []string{"tool", "assistant", "user", "user"}},
		{"tool output goes first", 2200, []string{"assistant", "user", "user"}},
		{"then assistant prose", 1200, []string{"user", "user"}},
		{"then users without a lesson", 200, []string{"user"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := mk(
				extract.Turn{Role: "tool", Text: long},
				extract.Turn{Role: "assistant", Text: long},
				extract.Turn{Role: "user", Text: long},
				extract.Turn{Role: "user", Text: "Remember that fixtures live in testdata."},
			)
			cut, files := fit(files, tt.budget)
			var roles []string
			for _, turn := range files[0].sessions[0].Turns {
				roles = append(roles, string(turn.Role))
			}
			if strings.Join(roles, ",") != strings.Join(tt.keep, ",") {
				t.Errorf("kept %v, want %v (cut: %v)", roles, tt.keep, cut)
			}
			if tt.budget < 100000 && len(cut) == 0 {
				t.Error("cutting was not reported")
			}
		})
	}
}

func TestFitDefersNewestFiles(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }
	lessonText := "Remember " + strings.Repeat("y", 1500)
	files := []digestFile{
		{read: FileRead{Path: "old"}, sessions: []extract.Session{{Date: day(1), Turns: []extract.Turn{{Role: "user", Text: lessonText}}}}},
		{read: FileRead{Path: "new"}, sessions: []extract.Session{{Date: day(9), Turns: []extract.Turn{{Role: "user", Text: lessonText}}}}},
	}
	cut, files := fit(files, 700)
	if files[0].deferred || !files[1].deferred {
		t.Errorf("want the newest file deferred: %+v", files)
	}
	if !strings.Contains(strings.Join(cut, "\n"), "deferred new") {
		t.Errorf("deferral not reported: %v", cut)
	}
}

func TestHandEditedIndexIsRescued(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	hand := "# my notes\nThe staging box is called tern.\n"
	os.WriteFile(filepath.Join(f.storeDir(), "notes.md"), []byte(hand), 0o644)
	os.WriteFile(filepath.Join(f.storeDir(), "MEMORY.md"), []byte("# Memory\n\nDon't forget: the VPN must be on for staging.\n"), 0o644)
	f.session("s1", "/proj", "Always run make lint first.")
	first := f.run(Options{})

	if b, _ := os.ReadFile(filepath.Join(f.storeDir(), "notes.md")); string(b) != hand {
		t.Errorf("a hand-written file changed: %q", b)
	}
	rescued, err := os.ReadFile(filepath.Join(f.storeDir(), notesName+".md"))
	if err != nil || !strings.Contains(string(rescued), "the VPN must be on for staging") {
		t.Fatalf("hand-written index text not moved into a topic file: %v %q", err, rescued)
	}
	index, _ := os.ReadFile(filepath.Join(f.storeDir(), "MEMORY.md"))
	for _, want := range []string{"- [notes](notes.md) — my notes", "- [" + notesName + "](" + notesName + ".md)", "- [lint-first](lint-first.md)"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index lacks %q:\n%s", want, index)
		}
	}

	if len(first) != 1 || first[0].Plan == nil || len(first[0].Plan.Warnings) > 0 {
		t.Errorf("a clean index: %+v", first)
	}

	// More prose typed into the index later joins the same notes, listed once; a control byte in
	// it is dropped and said.
	os.WriteFile(filepath.Join(f.storeDir(), "MEMORY.md"), append(index, "\nSecond note: deploys freeze on Fridays.\x1b[0m\n"...), 0o644)
	f.session("s2", "/proj", "Always run make lint first.")
	if out := f.run(Options{}); len(out) != 1 || out[0].Plan == nil || !strings.Contains(strings.Join(out[0].Plan.Warnings, "\n"), "control bytes") {
		t.Errorf("the control byte in MEMORY.md is not reported: %+v", out)
	}
	rescued, _ = os.ReadFile(filepath.Join(f.storeDir(), notesName+".md"))
	if !strings.Contains(string(rescued), "the VPN must be on for staging") || !strings.Contains(string(rescued), "deploys freeze on Fridays") {
		t.Errorf("notes after a second rescue: %q", rescued)
	}
	index, _ = os.ReadFile(filepath.Join(f.storeDir(), "MEMORY.md"))
	if n := strings.Count(string(index), "("+notesName+".md)"); n != 1 {
		t.Errorf("the notes are listed %d times:\n%s", n, index)
	}
}

func TestApplyPlanRefusesStalePlans(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	path := f.session("s1", "/proj", "Always run make lint first.")
	plan := func() *Plan {
		out := f.run(Options{DryRun: true})
		return out[0].Plan
	}

	p := plan()
	os.MkdirAll(f.storeDir(), 0o755)
	os.WriteFile(filepath.Join(f.storeDir(), "hand.md"), []byte("edited by hand\n"), 0o644)
	if err := ApplyPlan(f.env, p, false); !errors.Is(err, store.ErrStale) {
		t.Fatalf("store edited since the plan: err = %v", err)
	}

	p = plan()
	os.WriteFile(path, []byte(strings.Replace(mustRead(t, path), "make lint", "make vet!", 1)), 0o644)
	if err := ApplyPlan(f.env, p, false); !errors.Is(err, store.ErrStale) {
		t.Fatalf("transcript rewritten since the plan: err = %v", err)
	}

	p = plan()
	if err := ApplyPlan(f.env, p, false); err != nil {
		t.Fatalf("a fresh plan: %v", err)
	}
	if f.llm.calls != 3 {
		t.Errorf("applying a plan called the model: %d calls", f.llm.calls)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestClaudeTranscriptWithoutCwdRoutesByItsDirectory(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	dir := filepath.Join(f.root, "projects", "-home-ana-shop")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(`{"type":"user","uuid":"u1","sessionId":"s1","timestamp":"2026-11-20T10:00:00Z","message":{"role":"user","content":"Always run make lint first."}}`+"\n"), 0o644)
	out := f.run(Options{})
	want := filepath.Join(f.root, "projects", "-home-ana-shop", "memory")
	if len(out) != 1 || out[0].Store != want || out[0].Result != "applied" {
		t.Fatalf("outcomes %+v, want one applied pass into %s", out, want)
	}
}

// TestAbsoluteDatesKeepTheCaps: a rewrite that would take a validated body past its cap is not made.
func TestAbsoluteDatesKeepTheCaps(t *testing.T) {
	full := strings.Repeat("x", 4096-len("yesterday")) + "yesterday"
	ops := []extract.Operation{{Action: "create", Name: "n", Type: "project", Description: "Done yesterday", Body: full}}
	out := absoluteDates(ops, nil, today, memory.DefaultLimits)
	if len(out[0].Body) > 4096 || out[0].Body != full {
		t.Errorf("body grew to %d bytes", len(out[0].Body))
	}
	if out[0].Description != "Done on 2026-11-20" {
		t.Errorf("description = %q", out[0].Description)
	}
}

// TestFrontMatterDreamdCannotWriteBackIsLeftAlone: a topic file whose front matter is not YAML
// dreamd can write back (here a bare ": " in a value) is read whole; a pass may neither rewrite it
// (its pin and note would be lost) nor retire it to meet the caps, and the plan says why.
func TestFrontMatterDreamdCannotWriteBackIsLeftAlone(t *testing.T) {
	const hand = "---\ndescription: The orders database runs on MySQL (note: ask Priya before schema changes)\ntype: project\npinned: true\n---\nUse the mysql driver.\n"
	f := newFixture(t, func(req extract.Request) extract.Response {
		if i := slices.IndexFunc(req.Memories, func(m extract.Memory) bool { return m.Name == "orders-db" }); i < 0 || !req.Memories[i].Pinned {
			t.Errorf("the model is not told orders-db is fixed: %+v", req.Memories)
		}
		up := create("orders-db", "project", "The orders database runs on Postgres", req.Sessions[0].ID)
		up.Action = "update"
		return extract.Response{Operations: []extract.Operation{up, create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	f.env.Limits.IndexMaxLines = 3 // "# Memory", a heading and one entry: something must give
	f.env.MaxRetireFraction = 1
	os.MkdirAll(f.storeDir(), 0o755)
	path := filepath.Join(f.storeDir(), "orders-db.md")
	os.WriteFile(path, []byte(hand), 0o644)
	f.session("s1", "/proj", "We moved the orders database to Postgres; always run make lint first.")
	out := f.run(Options{})
	if b, _ := os.ReadFile(path); string(b) != hand {
		t.Errorf("the file was changed:\n%s", b)
	}
	if len(out) != 1 || out[0].Plan == nil || !slices.Contains(out[0].Plan.Verbatim, "orders-db.md") {
		t.Fatalf("the plan does not name the file kept as written: %+v", out)
	}
	for _, r := range out[0].Plan.Retired {
		if r.Name == "orders-db" {
			t.Errorf("retired: %+v", r)
		}
	}
}

// TestCredentialsTypedIntoTheStoreStayOutOfWhatDreamdWrites: a key in a hand-written description
// is redacted in MEMORY.md, which Claude Code loads into every session, and a key typed into
// MEMORY.md is redacted where its prose moves; the plan says so, and applying the saved plan
// accepts it as the pass would.
func TestCredentialsTypedIntoTheStoreStayOutOfWhatDreamdWrites(t *testing.T) {
	const key = "AKIAIOSFODNN7EXAMPLF"
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	creds := "---\nname: creds\ndescription: Deploy key " + key + " for the bucket\ntype: reference\n---\nx\n"
	os.WriteFile(filepath.Join(f.storeDir(), "creds.md"), []byte(creds), 0o644)
	os.WriteFile(filepath.Join(f.storeDir(), "MEMORY.md"), []byte("# Memory\n\nstaging creds: "+key+"\n"), 0o644)
	f.session("s1", "/proj", "Always run make lint first.")

	p := f.run(Options{DryRun: true})[0].Plan
	if !slices.ContainsFunc(p.Secrets, func(s SecretFinding) bool { return s.Memory == store.IndexFile }) {
		t.Errorf("the plan does not report the key in MEMORY.md: %+v", p.Secrets)
	}
	if err := ApplyPlan(f.env, p, false); err != nil {
		t.Fatalf("applying the plan: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(f.storeDir(), "creds.md")); string(b) != creds {
		t.Errorf("the hand-written file changed: %q", b)
	}
	for _, name := range []string{"MEMORY.md", notesName + ".md"} {
		b, _ := os.ReadFile(filepath.Join(f.storeDir(), name))
		if strings.Contains(string(b), key) || !strings.Contains(string(b), "[REDACTED") {
			t.Errorf("%s:\n%s", name, b)
		}
	}
}

// TestLinksOutsideTheStoreAreLeftAlone: a topic-file name taken by a link to a file elsewhere
// makes a new memory take the next free name (the pass used to plan a write over it and fail as
// "stale" every time), and a linked MEMORY.md fails the pass, before the call, saying why.
func TestLinksOutsideTheStoreAreLeftAlone(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	elsewhere := filepath.Join(t.TempDir(), "shared.md")
	os.WriteFile(elsewhere, []byte("shared notes\n"), 0o644)
	os.MkdirAll(f.storeDir(), 0o755)
	if err := os.Symlink(elsewhere, filepath.Join(f.storeDir(), "lint-first.md")); err != nil {
		t.Skip(err)
	}
	f.session("s1", "/proj", "Always run make lint first.")
	out := f.run(Options{})
	if len(out) != 1 || out[0].Result != Applied {
		t.Fatalf("outcome %+v", out)
	}
	if _, err := os.Stat(filepath.Join(f.storeDir(), "lint-first-2.md")); err != nil {
		t.Errorf("the new memory is not under the next free name: %v", err)
	}
	if b, _ := os.ReadFile(elsewhere); string(b) != "shared notes\n" {
		t.Errorf("the linked file changed: %q", b)
	}

	os.Remove(filepath.Join(f.storeDir(), "MEMORY.md"))
	if err := os.Symlink(elsewhere, filepath.Join(f.storeDir(), "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	calls := f.llm.calls
	f.session("s2", "/proj", "Always run make vet too.")
	out, err := Run(context.Background(), f.env, Options{})
	if err == nil || !strings.Contains(err.Error(), "MEMORY.md is a link to a file outside the store") || f.llm.calls != calls {
		t.Errorf("a linked index: err %v, %d calls (was %d), outcomes %+v", err, f.llm.calls, calls, out)
	}
}

// TestPinnedNotesAreNotRewritten: when the notes memory is pinned (or its front matter cannot be
// written back), what is typed into MEMORY.md goes to the next free name instead.
func TestPinnedNotesAreNotRewritten(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	for _, own := range []string{
		"---\nname: memory-index-notes\ndescription: My notes\ntype: user\npinned: true\n---\nMine.\n",
		"---\nname: memory-index-notes\ndescription: My notes (note: typed)\ntype: user\npinned: true\n---\nMine.\n",
	} {
		os.WriteFile(filepath.Join(f.storeDir(), notesName+".md"), []byte(own), 0o644)
		os.Remove(filepath.Join(f.storeDir(), notesName+"-2.md"))
		os.WriteFile(filepath.Join(f.storeDir(), "MEMORY.md"), []byte("# Memory\n\nProse I typed.\n"), 0o644)
		f.session("s-"+strconv.Itoa(len(own)), "/proj", "Always run make lint first.")
		f.run(Options{})
		if b, _ := os.ReadFile(filepath.Join(f.storeDir(), notesName+".md")); string(b) != own {
			t.Errorf("the pinned notes changed:\n%s", b)
		}
		if b, _ := os.ReadFile(filepath.Join(f.storeDir(), notesName+"-2.md")); !strings.Contains(string(b), "Prose I typed.") {
			t.Errorf("the prose is not in the next notes: %q", b)
		}
	}
}

// TestLinksInsideTheStoreStayLinks: a topic file that links to another file of the store is read
// but never written: writing would replace the link with a file, which rollback cannot undo.
func TestLinksInsideTheStoreStayLinks(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		up := create("alias", "project", "Deploys go through make deploy now", req.Sessions[0].ID)
		up.Action = "update"
		return extract.Response{Operations: []extract.Operation{up}}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	os.WriteFile(filepath.Join(f.storeDir(), "real.md"), []byte("---\nname: real\ndescription: Deploys\ntype: project\n---\nbody\n"), 0o644)
	if err := os.Symlink("real.md", filepath.Join(f.storeDir(), "alias.md")); err != nil {
		t.Skip(err)
	}
	f.session("s1", "/proj", "Deploys go through make deploy now.")
	out := f.run(Options{})
	if fi, err := os.Lstat(filepath.Join(f.storeDir(), "alias.md")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("alias.md is no longer a link: %v %v", fi, err)
	}
	if len(out) != 1 || out[0].Plan == nil || len(out[0].Plan.Rejected) != 1 {
		t.Errorf("the update of a link was not refused: %+v", out)
	}
}

func TestCleanSummary(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Merged two lint rules.", "Merged two lint rules."},
		{"sum\x1b]0;title\x07\x1b[2J\x00 done\nnext line", "sum]0;title[2J done next line"},
		{strings.Repeat("é", maxSummary+5), strings.Repeat("é", maxSummary-1) + "…"},
	}
	for _, tt := range tests {
		if got := cleanSummary(tt.in); got != tt.want {
			t.Errorf("cleanSummary(%.40q) = %.40q, want %.40q", tt.in, got, tt.want)
		}
	}
}

// TestIndexThatIsNoFileStopsThePass: a MEMORY.md that is a link inside the store or a directory
// stops the store's pass before the call, saying why (a link would have been replaced by a file,
// a directory failed only at apply, after a dry run that looked fine).
func TestIndexThatIsNoFileStopsThePass(t *testing.T) {
	for _, tt := range []struct {
		name string
		make func(dir string) error
		want string
	}{
		{"link inside the store", func(dir string) error {
			os.WriteFile(filepath.Join(dir, "index-copy.md"), []byte("# Memory\n"), 0o644)
			return os.Symlink("index-copy.md", filepath.Join(dir, "MEMORY.md"))
		}, "is a link:"},
		{"directory", func(dir string) error { return os.Mkdir(filepath.Join(dir, "MEMORY.md"), 0o755) }, "not a regular file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(req extract.Request) extract.Response {
				return extract.Response{Operations: []extract.Operation{create("lint-first", "feedback", "Run make lint first", req.Sessions[0].ID)}}
			})
			os.MkdirAll(f.storeDir(), 0o755)
			if err := tt.make(f.storeDir()); err != nil {
				t.Skip(err)
			}
			f.session("s1", "/proj", "Always run make lint first.")
			for _, dry := range []bool{true, false} {
				_, err := Run(context.Background(), f.env, Options{DryRun: dry})
				if err == nil || !strings.Contains(err.Error(), tt.want) || f.llm.calls != 0 {
					t.Errorf("dry run %v: err %v, %d calls", dry, err, f.llm.calls)
				}
			}
		})
	}
}

// TestRewrittenHandWrittenMemoryIsArchived: when a pass rewrites a memory a person wrote, the
// version they wrote goes to the archive (it outlives the run history); the memory is not counted
// as retired, and the retire guard does not weigh it.
func TestRewrittenHandWrittenMemoryIsArchived(t *testing.T) {
	const hand = "---\nname: orders-db\ndescription: The orders database runs on MySQL\ntype: project\n---\nUse the mysql driver; ask Priya before schema changes.\n"
	f := newFixture(t, func(req extract.Request) extract.Response {
		up := create("orders-db", "project", "The orders database runs on Postgres", req.Sessions[0].ID)
		up.Action = "update"
		return extract.Response{Operations: []extract.Operation{up}}
	})
	f.env.MaxRetireFraction = 0 // one loss allowed: a rewrite must not count
	os.MkdirAll(f.storeDir(), 0o755)
	os.WriteFile(filepath.Join(f.storeDir(), "orders-db.md"), []byte(hand), 0o644)
	f.session("s1", "/proj", "We moved the orders database to Postgres.")
	out := f.run(Options{})
	if len(out) != 1 || out[0].Result != Applied || out[0].Plan.Counts.Retired != 0 {
		t.Fatalf("outcome %+v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(f.storeDir(), "orders-db.md")); !strings.Contains(string(b), "Postgres") {
		t.Errorf("not rewritten: %s", b)
	}
	arch, err := store.Archived(StorePaths(f.env, f.storeDir()))
	if err != nil || len(arch) != 1 || arch[0].Reason != store.Rewritten {
		t.Fatalf("archive %+v, %v", arch, err)
	}
	if b, _ := os.ReadFile(arch[0].Path); string(b) != hand {
		t.Errorf("archived %q, want the hand-written version", b)
	}
}

// TestRefusedPlanThatCannotBeParkedSaysSo: when the refusal cannot be recorded (the status is
// unwritable), the pass says the model will be asked again instead of claiming the plan is parked.
func TestRefusedPlanThatCannotBeParkedSaysSo(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		var ops []extract.Operation
		for _, m := range req.Memories {
			ops = append(ops, extract.Operation{Action: "delete", Name: m.Name, Reason: "gone"})
		}
		return extract.Response{Operations: ops}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		os.WriteFile(filepath.Join(f.storeDir(), n+".md"), []byte("---\nname: "+n+"\ndescription: memory "+n+"\ntype: project\n---\nbody\n"), 0o644)
	}
	f.session("s1", "/proj", "Forget everything.")
	status := filepath.Join(StorePaths(f.env, f.storeDir()).State, statusFile)
	if err := os.MkdirAll(filepath.Join(status, "in-the-way"), 0o700); err != nil { // a status that cannot be read or replaced
		t.Fatal(err)
	}
	_, err := Run(context.Background(), f.env, Options{})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "not marked parked") {
		t.Fatalf("err = %v, want the refusal saying the plan is not parked", err)
	}
}

// TestIdenticalUpdateOfHandWrittenMemoryIsANoOp: an update that leaves a hand-written memory
// byte for byte as it is changes nothing, in the dry run and in the apply. Before, the plan kept
// archiving the version "rewritten" without a change to it, which every apply refused ("no change
// deletes …"): the store was stuck.
func TestIdenticalUpdateOfHandWrittenMemoryIsANoOp(t *testing.T) {
	date := today.Format("2006-01-02")
	hand := (&store.Memory{Name: "orders-db", Type: "project", Description: "The orders database runs on Postgres",
		Body: "The orders database runs on Postgres.", Created: date, Updated: date, HasFrontMatter: true}).Render()
	f := newFixture(t, func(req extract.Request) extract.Response {
		up := create("orders-db", "project", "The orders database runs on Postgres")
		up.Action = "update"
		return extract.Response{Operations: []extract.Operation{up}}
	})
	os.MkdirAll(f.storeDir(), 0o755)
	os.WriteFile(filepath.Join(f.storeDir(), "orders-db.md"), hand, 0o644)
	f.session("s1", "/proj", "The orders database runs on Postgres.")
	for _, opt := range []Options{{DryRun: true}, {}} {
		out := f.run(opt)
		if len(out) != 1 || out[0].Err != nil || out[0].Plan == nil {
			t.Fatalf("dry run %v: outcome %+v", opt.DryRun, out)
		}
		if p := out[0].Plan; slices.ContainsFunc(p.Changes, func(c store.Change) bool { return c.Name == "orders-db.md" }) || len(p.Retired) != 0 {
			t.Fatalf("dry run %v: changes %v, retired %+v", opt.DryRun, p.Changes, p.Retired)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(f.storeDir(), "orders-db.md")); string(b) != string(hand) {
		t.Errorf("the memory changed:\n%s", b)
	}
}

// TestTranscriptDeletedDuringThePassIsSkipped: a transcript deleted after it was listed (between
// the listing and its reading, or before its head is checked) is skipped with a note; the other
// transcripts of the store are consolidated. Before, the store's pass failed.
func TestTranscriptDeletedDuringThePassIsSkipped(t *testing.T) {
	f := newFixture(t, nil)
	gone := f.session("s1", "/proj", "Remember that fixtures live in testdata/golden.")
	f.session("s2", "/proj", "Remember that deploys go through deploy.sh.")
	targets, _, err := Discover(f.env)
	if err != nil || len(targets) != 1 {
		t.Fatalf("Discover: %v, %d targets", err, len(targets))
	}
	pending, err := Pending(targets[0], nil)
	if err != nil || len(pending) != 2 {
		t.Fatalf("Pending: %d, %v", len(pending), err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	m, err := Read(context.Background(), f.env, f.storeDir(), pending, 100000)
	if err != nil {
		t.Fatalf("Read with a deleted transcript: %v", err)
	}
	g := m.Digest(f.env.Redactor, 100000)
	if len(g.Read) != 1 || g.Read[0].Session != "s2" || len(g.Sessions) != 1 {
		t.Errorf("read %+v, %d sessions; want s2 alone", g.Read, len(g.Sessions))
	}
	if !slices.ContainsFunc(g.Warnings, func(w string) bool { return strings.Contains(w, "deleted or replaced during the pass") }) {
		t.Errorf("no note of the deleted transcript: %q", g.Warnings)
	}
	// Deleted before its head is checked: nothing pending.
	cursors := Cursors{}
	for _, r := range g.Read {
		cursors[r.Path] = r.To
	}
	f.session("s2", "/proj", "And lint before every commit.")
	targets, _, _ = Discover(f.env)
	os.Remove(targets[0].Files[0].File.Path)
	if pending, err := Pending(targets[0], cursors); err != nil || len(pending) != 0 {
		t.Errorf("Pending after the deletion: %d, %v", len(pending), err)
	}
}

// TestOnePassOneClock: a pass reads the clock once: the model's "today" and the plan's time are
// the same instant even when the clock moves on during the pass.
func TestOnePassOneClock(t *testing.T) {
	f := newFixture(t, func(req extract.Request) extract.Response {
		return extract.Response{Operations: []extract.Operation{create("deploy-rule", "project", "Deploys go through ./deploy.sh", "s1")}}
	})
	clock := today
	f.env.Now = func() time.Time { clock = clock.Add(time.Hour); return clock }
	f.session("s1", "/proj", "Deploys go through ./deploy.sh.")
	out := f.run(Options{})
	if len(out) != 1 || out[0].Plan == nil || len(f.llm.requests) != 1 {
		t.Fatalf("outcomes %+v", out)
	}
	if told, planned := f.llm.requests[0].Today, out[0].Plan.Created; !told.Equal(planned) {
		t.Errorf("the model was told %v, the plan is dated %v", told, planned)
	}
}
