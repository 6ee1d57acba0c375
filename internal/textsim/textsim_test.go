package textsim

import (
	"fmt"
	"strings"
	"testing"
)

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b     string
		min, max float64
	}{
		{"Always run make lint before committing", "always run `make lint` before you commit", 0.5, 1},
		{"We use Postgres for the billing database", "Deploys go through deploy.sh", 0, 0.01},
		{"", "", 0, 0},
		{"tests tested testing", "test", 1, 1},
	}
	for _, tt := range tests {
		got := Jaccard(NewSet(tt.a), NewSet(tt.b))
		if got < tt.min || got > tt.max {
			t.Errorf("Jaccard(%q, %q) = %.2f, want %.2f..%.2f", tt.a, tt.b, got, tt.min, tt.max)
		}
	}
}

func TestContainment(t *testing.T) {
	a := NewSet("fixtures live in testdata/golden")
	b := NewSet("Our test fixtures live in testdata/golden and are refreshed with -update")
	if got := Containment(a, b); got != 1 {
		t.Errorf("Containment = %.2f, want 1", got)
	}
}

func TestRelevance(t *testing.T) {
	docs := []Set{NewSet("postgres migration notes"), NewSet("deploy script rules"), NewSet("postgres connection pool")}
	df := NewDocFreq(docs)
	q := Counts("we migrated the billing db to postgres; the pool size is 20")
	if Relevance(docs[1], q, df) >= Relevance(docs[2], q, df) {
		t.Error("an unrelated memory scored at least as high as a related one")
	}
}

// TestRelevanceIsTheSameEveryTime: a score does not depend on the order a map gives its words.
func TestRelevanceIsTheSameEveryTime(t *testing.T) {
	var docs []Set
	var words []string
	for i := range 60 {
		words = append(words, fmt.Sprintf("term%03d", i))
		docs = append(docs, NewSet(strings.Join(words, " ")))
	}
	df := NewDocFreq(docs)
	query := Counts(strings.Join(words, " ") + " " + strings.Join(words[:20], " "))
	doc := docs[len(docs)-1]
	want := Relevance(doc, query, df)
	for range 200 {
		if got := Relevance(doc, query, df); got != want {
			t.Fatalf("Relevance = %v, then %v", want, got)
		}
	}
}

// Two Chinese sentences that say the same thing with a few characters more share most of their
// character pairs; two that say different things share few.
func TestJaccardUnspacedScripts(t *testing.T) {
	same := Jaccard(NewSet("帮我写进codex的全局，就是--后面的注释要是中文的"), NewSet("帮我写进全局，就是--后面的注释要是中文的"))
	other := Jaccard(NewSet("帮我写进全局，就是--后面的注释要是中文的"), NewSet("你写进全局里面，以后的回答优先告诉我解决方法"))
	if same < 0.7 || other > 0.3 {
		t.Errorf("Jaccard: the same rule %.2f (want ≥ 0.7), another rule %.2f (want ≤ 0.3)", same, other)
	}
	if got := Words("用pnpm安装"); strings.Join(got, " ") != "pnpm 安装" {
		t.Errorf(`Words("用pnpm安装") = %q, want [pnpm 安装]`, got)
	}
}
