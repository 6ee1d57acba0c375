package phases

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// The decisions a pass makes, each as a table: what the store holds next, which files change,
// where cursors move, and how much room the digest gets.

func mem(name, typ string) *store.Memory {
	return &store.Memory{Name: name, Type: memory.Type(typ), Description: name + " d", Body: name + " b", Created: "2026-11-01", Updated: "2026-11-01", Raw: []byte("raw " + name)}
}

func TestNextMemories(t *testing.T) {
	cur := func() []*store.Memory {
		c := mem("c", "user") // written by a pass: it names its sources
		c.Sources = []string{"claude:s0"}
		return []*store.Memory{mem("a", "project"), mem("b", "project"), c}
	}
	op := func(action extract.Action, name string, edit ...func(*extract.Operation)) extract.Operation {
		o := extract.Operation{Action: action, Name: name, Type: memory.Project, Description: name + " new", Body: name + " new body", Reason: "why", Evidence: []string{"s1"}}
		for _, e := range edit {
			e(&o)
		}
		return o
	}
	tests := []struct {
		name        string
		ops         []extract.Operation
		pruned      []Retire
		wantNames   string // the store afterwards
		wantRetired string // reason:name, in order
		wantRaw     string // memories left byte for byte as they were
	}{
		{"nothing", nil, nil, "a b c", "", "a b c"},
		{"create", []extract.Operation{op(extract.Create, "d")}, nil, "a b c d", "", "a b c"},
		{"update of a memory written by hand keeps that version", []extract.Operation{op(extract.Update, "a")}, nil, "a b c", "rewritten:a", "b c"},
		{"update of a memory a pass wrote", []extract.Operation{op(extract.Update, "c")}, nil, "a b c", "", "a b"},
		{"delete", []extract.Operation{op(extract.Delete, "b")}, nil, "a c", "deleted:b", "a c"},
		{"delete of an unknown memory", []extract.Operation{op(extract.Delete, "zz")}, nil, "a b c", "", "a b c"},
		{"merge", []extract.Operation{op(extract.Create, "ab", func(o *extract.Operation) { o.MergedFrom = []string{"a", "b"} })}, nil,
			"ab c", "merged:a merged:b", "c"},
		{"merged into itself is an update", []extract.Operation{op(extract.Update, "a", func(o *extract.Operation) { o.MergedFrom = []string{"a", "b"} })}, nil,
			"a c", "rewritten:a merged:b", "c"},
		{"supersede", []extract.Operation{op(extract.Create, "a2", func(o *extract.Operation) { o.Supersedes = []string{"a"} })}, nil,
			"a2 b c", "superseded:a", "b c"},
		{"reinforce keeps the text", []extract.Operation{op(extract.Reinforce, "c")}, nil, "a b c", "", "a b"},
		{"pruned", nil, []Retire{{Name: "c", Reason: store.Expired}, {Name: "a", Reason: store.Capped}}, "b", "expired:c capped:a", "b"},
	}
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, retired := nextMemories(cur(), tt.ops, tt.pruned, day, evidence{})
			var names, raw, gone []string
			for _, m := range next {
				names = append(names, m.Name)
				if m.Raw != nil {
					raw = append(raw, m.Name)
				}
			}
			for _, r := range retired {
				gone = append(gone, string(r.Reason)+":"+r.Name)
				if string(r.Content) != "raw "+r.Name {
					t.Errorf("%s retired without its content: %q", r.Name, r.Content)
				}
			}
			if got := strings.Join(names, " "); got != tt.wantNames {
				t.Errorf("store %q, want %q", got, tt.wantNames)
			}
			if got := strings.Join(gone, " "); got != tt.wantRetired {
				t.Errorf("retired %q, want %q", got, tt.wantRetired)
			}
			if got := strings.Join(raw, " "); got != tt.wantRaw {
				t.Errorf("untouched %q, want %q", got, tt.wantRaw)
			}
			for _, m := range next {
				if m.Raw == nil && m.Updated != "2026-11-20" {
					t.Errorf("%s written but dated %s", m.Name, m.Updated)
				}
			}
		})
	}
}

func TestChanges(t *testing.T) {
	loaded := func(index string, mems ...*store.Memory) *store.Store {
		return &store.Store{Memories: mems, Index: []byte(index)}
	}
	written := func(name string) *store.Memory { m := mem(name, "project"); m.Raw = nil; return m }
	a, b := mem("a", "project"), mem("b", "project")
	derived := string(store.RenderIndexWithin([]*store.Memory{a, b}, 150))
	tests := []struct {
		name    string
		s       *store.Store
		next    []*store.Memory
		retired []store.Retirement
		want    string // name:create|update|delete, in order
	}{
		{"nothing changes", loaded(derived, a, b), []*store.Memory{a, b}, nil, ""},
		{"a new memory and the index", loaded(derived, a, b), []*store.Memory{a, b, written("c")}, nil, "MEMORY.md:update c.md:create"},
		{"a rewrite", loaded(derived, a, b), []*store.Memory{written("a"), b}, nil, "a.md:update"},
		{"a retirement", loaded(derived, a, b), []*store.Memory{a}, []store.Retirement{{Name: "b"}}, "MEMORY.md:update b.md:delete"},
		{"a stale index is derived again", loaded("# Memory\n", a, b), []*store.Memory{a, b}, nil, "MEMORY.md:update"},
		{"an empty store gets no index", &store.Store{}, nil, nil, ""},
		{"a hand-written version archived as rewritten", loaded(derived, a, b), []*store.Memory{written("a"), b},
			[]store.Retirement{{Name: "a", Reason: store.Rewritten}}, "a.md:update"},
		{"notes retired while prose is typed go to the next name", loaded(derived+"\nA note.\n", a, b, mem(notesName, "project")), []*store.Memory{a, b},
			[]store.Retirement{{Name: notesName, Reason: store.Capped}}, "MEMORY.md:update " + notesName + "-2.md:create " + notesName + ".md:delete"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range changes(tt.s, tt.next, tt.retired, store.IndexExtras(tt.s.Index), nil, 150) {
				kind := "update"
				switch {
				case c.Old == nil:
					kind = "create"
				case c.New == nil:
					kind = "delete"
				}
				got = append(got, c.Name+":"+kind)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("changes %q, want %q", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestAdvance(t *testing.T) {
	at := func(off int64) transcript.Cursor { return transcript.Cursor{Size: off, Offset: off} }
	cur := Cursors{"/old": at(10), "/a": at(5)}
	read := []FileRead{
		{Path: "/a", Project: "/p", Session: "s1", From: at(5), To: at(50)},
		{Path: "/b", Project: "/p", Session: "s2", From: at(0), To: at(30)},
	}
	tests := []struct {
		name  string
		again map[string]bool
		want  map[string]int64 // offset per file
		offer map[string]int
	}{
		{"everything read moves", nil, map[string]int64{"/old": 10, "/a": 50, "/b": 30}, nil},
		{"offered again stays, counted", map[string]bool{"/b": true}, map[string]int64{"/old": 10, "/a": 50, "/b": 0}, map[string]int{"/b": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next := advance(cur, read, tt.again)
			for path, off := range tt.want {
				if next[path].Offset != off {
					t.Errorf("%s at %d, want %d", path, next[path].Offset, off)
				}
				if next[path].Offers != tt.offer[path] {
					t.Errorf("%s offered %d times, want %d", path, next[path].Offers, tt.offer[path])
				}
			}
			if next["/b"].Project != "/p" || next["/b"].Session != "s2" {
				t.Errorf("the cursor forgot its route: %+v", next["/b"])
			}
			if cur["/a"].Offset != 5 {
				t.Error("advance changed the cursors it was given")
			}
		})
	}
}

func TestOfferAgain(t *testing.T) {
	read := []FileRead{
		{Path: "/a", Sessions: []SessionRef{{ID: "s1"}}},
		{Path: "/b", Sessions: []SessionRef{{ID: "s2"}}, From: transcript.Cursor{Offers: MaxOffers}},
		{Path: "/c", Sessions: []SessionRef{{ID: "s3"}}},
	}
	rejected := []extract.Rejected{{Operation: extract.Operation{Evidence: []string{"claude:s1", "s2"}}}}
	again, gaveUp := offerAgain(read, rejected)
	if !again["/a"] || again["/b"] || again["/c"] || !slices.Equal(gaveUp, []string{"/b"}) {
		t.Errorf("again %v, gave up %v", again, gaveUp)
	}
}

func TestDigestBudget(t *testing.T) {
	many := func(n, body int) *store.Store {
		s := &store.Store{}
		for i := range n {
			s.Memories = append(s.Memories, &store.Memory{Name: "m" + strings.Repeat("x", i%7), Description: "a description of some length", Body: strings.Repeat("b", body)})
		}
		return s
	}
	env := &Env{MaxInputTokens: 100000}
	empty := digestBudget(env, &store.Store{})
	tests := []struct {
		name     string
		s        *store.Store
		min, max int
	}{
		{"an empty store leaves the most room", &store.Store{}, empty, empty},
		{"bodies take at most three tenths of what the listing leaves", many(100, 4000), empty * 6 / 10, empty * 7 / 10},
		{"a huge listing gives up its rest, never the digest's room", many(50000, 10), 500, empty / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := digestBudget(env, tt.s); got < tt.min || got > tt.max {
				t.Errorf("budget %d, want %d..%d", got, tt.min, tt.max)
			}
		})
	}
	if got := digestBudget(&Env{MaxInputTokens: 100}, &store.Store{}); got != 500 {
		t.Errorf("a tiny max_input_tokens gives %d, want the floor of 500", got)
	}
}

// TestPruneLeftOutMergeKeepsItsSources: a create left out for the caps takes its merge with it,
// so the memory it would have merged stays in the store, and the index's overshoot is reported.
func TestPruneLeftOutMergeKeepsItsSources(t *testing.T) {
	f := newFixture(t, nil)
	pinned := mem("pinned-b", "project")
	pinned.Pinned = true
	fits := []*store.Memory{pinned, mem("d", "project")}
	f.env.Limits.IndexMaxLines = memory.StatIndex(store.RenderIndexWithin(indexed(fits, nil), f.env.Limits.IndexLineMax)).Lines

	cur := []*store.Memory{pinned, mem("a", "project")}
	ops := []extract.Operation{
		{Action: extract.Create, Name: "c", Type: memory.Project, Description: "c", Body: "c.", Reason: "merge", Evidence: []string{"s1"}, MergedFrom: []string{"a"}},
		{Action: extract.Create, Name: "d", Type: memory.Project, Description: "d", Body: "d.", Reason: "new", Evidence: []string{"s1"}},
	}
	pr := Decide(f.env, &store.Store{Memories: cur}, ops, nil, []extract.Session{{ID: "s1", Source: "codex"}}, nil, f.env.now(), false)

	if len(pr.LeftOut) != 1 || pr.LeftOut[0].Name != "c" {
		t.Fatalf("left out %+v, want the lowest-value create c", pr.LeftOut)
	}
	var names []string
	for _, m := range pr.Next {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, " "); got != "a d pinned-b" {
		t.Errorf("next store %q, want a to stay (its merge was left out)", got)
	}
	if len(pr.Retired) != 0 || pr.OverCap != 1 {
		t.Errorf("retired %+v, over cap %d; want nothing retired and one entry over", pr.Retired, pr.OverCap)
	}
	for _, m := range pr.Next {
		if m.Name == "d" && !slices.Equal(m.Sources, []string{"codex:s1"}) {
			t.Errorf("d's sources %v, want the session named with its agent", m.Sources)
		}
	}
}

// TestDecideCountsLossesOnce: the guard's verdict is the count the decision made as it retired
// memories (deletes, expiry, caps), the same a saved plan's retirements give when it is applied,
// and cap retirements stop at what is left of the allowance after the deletes.
func TestDecideCountsLossesOnce(t *testing.T) {
	del := func(name string) extract.Operation {
		return extract.Operation{Action: extract.Delete, Name: name, Reason: "wrong", Evidence: []string{"s1"}}
	}
	merge := extract.Operation{Action: extract.Create, Name: "m", Type: memory.Project, Description: "m", Body: "m.", Reason: "merge", Evidence: []string{"s1"}, MergedFrom: []string{"c", "d"}}
	tests := []struct {
		name    string
		ops     []extract.Operation
		force   bool
		lost    int
		refused bool
	}{
		{"one delete is allowed", []extract.Operation{del("a")}, false, 1, false},
		{"two deletes are refused", []extract.Operation{del("a"), del("b")}, false, 2, true},
		{"--force lets them go", []extract.Operation{del("a"), del("b")}, true, 2, false},
		{"a merge loses nothing", []extract.Operation{merge}, false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, nil)
			f.env.MaxRetireFraction = 0.25
			s := &store.Store{Dir: "/s", Memories: []*store.Memory{mem("a", "project"), mem("b", "project"), mem("c", "project"), mem("d", "project")}}
			d := Decide(f.env, s, tt.ops, nil, nil, nil, f.env.now(), tt.force)
			if d.Lost != tt.lost || d.Lost != weighedIn(d.Retired) || (d.Refusal != nil) != tt.refused {
				t.Errorf("lost %d (retirements weigh %d), refusal %v; want %d, refused %v", d.Lost, weighedIn(d.Retired), d.Refusal, tt.lost, tt.refused)
			}
			if d.Refusal != nil && !errors.Is(d.Refusal, ErrRefused) {
				t.Errorf("refusal %v is not ErrRefused", d.Refusal)
			}
		})
	}
}

// BenchmarkCapIndex is the default caps' choice over a store of 10,000 memories: rank them all by
// value, take out the lowest until the index fits.
func BenchmarkCapIndex(b *testing.B) {
	today := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	mems := make([]*store.Memory, 10000)
	existing := map[string]bool{}
	for i := range mems {
		name := fmt.Sprintf("lesson-%05d", i)
		mems[i] = &store.Memory{Name: name, Type: memory.Project, Description: "how the build and the tests run on this machine, " + name,
			Updated: today.AddDate(0, 0, -i%400).Format("2006-01-02")}
		existing[name] = true
	}
	for b.Loop() {
		if retire, _, _ := capIndex(memory.DefaultLimits, mems, nil, existing, today, -1, 0); len(retire) == 0 {
			b.Fatal("a store of 10,000 memories fits the default caps")
		}
	}
}
