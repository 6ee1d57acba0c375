package phases

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
)

// TestDigestLeavesTheMaterialAsRead: the material is read once and each digest is cut from it
// as read, so a second, smaller budget and then the first again give what the first gave.
func TestDigestLeavesTheMaterialAsRead(t *testing.T) {
	f := newFixture(t, nil)
	long := strings.Repeat("the build log says nothing new ", 100)
	f.session("s1", "/proj", "Remember that fixtures live in testdata/golden.", "A:"+long, long,
		"our token is ghp_"+strings.Repeat("a1B2", 9))
	m, err := Read(context.Background(), f.env, f.storeDir(), pendingOf(t, f), 100000)
	if err != nil {
		t.Fatal(err)
	}
	turns := func(g Gathered) []string {
		var out []string
		for _, s := range g.Sessions {
			for _, t := range s.Turns {
				out = append(out, string(t.Role)+": "+t.Text)
			}
		}
		return out
	}
	full := m.Digest(f.env.Redactor, 100000)
	small := m.Digest(f.env.Redactor, 60)
	again := m.Digest(f.env.Redactor, 100000)
	if len(turns(small)) >= len(turns(full)) || len(small.Cut) == 0 {
		t.Errorf("the smaller budget cut nothing: %d turns of %d, cut %v", len(turns(small)), len(turns(full)), small.Cut)
	}
	if !slices.Equal(turns(again), turns(full)) || again.Redactions != full.Redactions || full.Redactions != 1 {
		t.Errorf("the material changed under the digest: %d redactions then %d (want 1)\n%q\n%q", full.Redactions, again.Redactions, turns(full), turns(again))
	}
	for _, turn := range turns(full) {
		if strings.Contains(turn, "ghp_") {
			t.Errorf("the token survived: %q", turn)
		}
	}
}

// overBudgetOnce refuses the first prompt as over budget, as the client does before calling a
// model, then answers.
type overBudgetOnce struct{ scripted }

func (o *overBudgetOnce) Consolidate(ctx context.Context, req extract.Request) (extract.Result, error) {
	if o.calls == 0 {
		o.calls++
		o.requests = append(o.requests, req)
		return extract.Result{}, extract.ErrOverBudget
	}
	return o.scripted.Consolidate(ctx, req)
}

// TestOverBudgetPromptIsCutAgain: when the exact count finds the prompt over budget, the pass
// cuts the digest harder and asks again, and applies once.
func TestOverBudgetPromptIsCutAgain(t *testing.T) {
	f := newFixture(t, nil)
	llm := &overBudgetOnce{scripted{answer: func(extract.Request) extract.Response {
		return extract.Response{Summary: "ok", Operations: []extract.Operation{create("fixtures-in-golden", "project", "Fixtures live in testdata/golden", "s1")}}
	}}}
	f.env.Consolidator = llm
	// A budget the digest (about 4,000 estimated tokens) fits, and that two thirds of does not.
	f.env.MaxInputTokens = extract.FixedCost() + 1000 + 4500
	long := strings.Repeat("x", 6000)
	f.session("s1", "/proj", "Remember that fixtures live in testdata/golden.", "A:"+long, long)
	out := f.run(Options{})
	if len(out) != 1 || out[0].Result != Applied {
		t.Fatalf("outcome %+v", out)
	}
	if len(llm.requests) != 2 {
		t.Fatalf("%d requests, want 2", len(llm.requests))
	}
	size := func(r extract.Request) int {
		n := 0
		for _, s := range r.Sessions {
			for _, t := range s.Turns {
				n += len(t.Text)
			}
		}
		return n
	}
	if size(llm.requests[1]) >= size(llm.requests[0]) {
		t.Errorf("the second digest is not smaller: %d then %d bytes", size(llm.requests[0]), size(llm.requests[1]))
	}
}

// TestDigestSweepsEveryOccurrence (issue 23): a database password a rule finds in one turn (a
// pasted .env) is redacted from every other turn of the request too, earlier ones included, where
// no rule would have seen it.
func TestDigestSweepsEveryOccurrence(t *testing.T) {
	f := newFixture(t, nil)
	pw := "Vq7" + "-mK2pL9xR4"
	f.session("s1", "/proj", "Remember: connect as app, the password is in the .env ("+pw+" until rotated).",
		"A: I read it.", "here is the .env:\\nDB_PASSWORD="+pw+"\\nPORT=5432", "A: ok", "psql worked when I typed "+pw+" again")
	m, err := Read(context.Background(), f.env, f.storeDir(), pendingOf(t, f), 100000)
	if err != nil {
		t.Fatal(err)
	}
	g := m.Digest(f.env.Redactor, 100000)
	for _, s := range g.Sessions {
		for _, turn := range s.Turns {
			if strings.Contains(turn.Text, pw) {
				t.Errorf("the password survived: %q", turn.Text)
			}
		}
	}
	if g.Redactions != 3 {
		t.Errorf("%d redactions, want 3", g.Redactions)
	}
}

// TestRequestSweepsAMemorysSecret: a password typed into a topic file is redacted there and from
// every session of the request where it is repeated without a rule seeing it; a value the digest's
// redaction found is swept from the memories.
func TestRequestSweepsAMemorysSecret(t *testing.T) {
	f := newFixture(t, nil)
	pw := "Vq7" + "-mK2pL9xR4"
	s := &store.Store{Memories: []*store.Memory{{Name: "db", Type: memory.Project, Description: "the database",
		Body: "DB_PASSWORD=" + pw + "\nthe same " + pw + " works for the replica\n"}}}
	sessions := []extract.Session{{ID: "s1", Turns: []extract.Turn{{Role: "user", Text: "psql asked and I typed " + pw}}}}
	fromDigest := "Xw4" + "-pT8qN2vB6"
	var known redact.Known
	known.Remember(fromDigest, []redact.Finding{{Kind: "password", Start: 0, End: len(fromDigest)}})
	s.Memories[0].Body += "the staging one is " + fromDigest + "\n"
	req, secrets := Request(f.env, s, sessions, &known)
	if len(secrets) != 1 {
		t.Errorf("secrets = %v, want the db memory", secrets)
	}
	if strings.Contains(req.Memories[0].Body, pw) || strings.Contains(req.Memories[0].Body, fromDigest) || strings.Contains(req.Sessions[0].Turns[0].Text, pw) {
		t.Errorf("the password survived:\n%s\n%s", req.Memories[0].Body, req.Sessions[0].Turns[0].Text)
	}
	if !strings.Contains(sessions[0].Turns[0].Text, pw) {
		t.Errorf("the digest's own sessions were changed in place")
	}
}
