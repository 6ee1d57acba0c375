package recall

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var docs = []Doc{
	{Name: "deploy-with-deploy-sh", Type: "project", Description: "Deploys go through ./deploy.sh, which refuses to run on a dirty git tree",
		Body: "Deploys run through `./deploy.sh`; it refuses to run unless `git status` is clean.\n\n**Why:** the script tags the release from HEAD."},
	{Name: "lint-before-commit", Type: "feedback", Description: "Run make lint before every commit",
		Body: "Always run `make lint` before committing; CI rejects unlinted code."},
	{Name: "postgres-migration", Type: "project", Description: "The app moved from MySQL to Postgres on 2026-11-17",
		Body: "We migrated the database to Postgres. Connection settings live in config/db.yaml."},
	{Name: "golden-fixtures", Type: "project", Description: "Test fixtures live in testdata/golden",
		Body: "Golden files are refreshed with `go test -update`."},
	{Name: "terse-answers", Type: "user", Description: "Prefers terse answers without preamble",
		Body: "The user wants short answers."},
}

func TestSearchRanksTheMatchingMemoryFirst(t *testing.T) {
	tests := []struct{ query, want string }{
		{"how do I deploy?", "deploy-with-deploy-sh"},
		{"deploying the release", "deploy-with-deploy-sh"},
		{"linting commits", "lint-before-commit"},
		{"which database do we use", "postgres-migration"},
		{"migrations", "postgres-migration"},
		{"where are the golden test fixtures", "golden-fixtures"},
		{"answer style: terse", "terse-answers"},
		{"POSTGRES", "postgres-migration"},
	}
	for _, tt := range tests {
		hits := Search(docs, tt.query, 3)
		if len(hits) == 0 || hits[0].Name != tt.want {
			t.Errorf("Search(%q) = %v, want %s first", tt.query, names(hits), tt.want)
		}
	}
}

func TestSearchNoMatch(t *testing.T) {
	if hits := Search(docs, "kubernetes helm", 10); len(hits) != 0 {
		t.Errorf("unrelated query matched %v", names(hits))
	}
	if hits := Search(docs, "  ", 10); hits != nil {
		t.Errorf("empty query matched %v", names(hits))
	}
}

func TestNameOutweighsBody(t *testing.T) {
	d := []Doc{
		{Name: "notes", Description: "misc", Body: "we talked about caching once"},
		{Name: "caching", Description: "misc", Body: "nothing else"},
	}
	if hits := Search(d, "cache", 0); len(hits) != 2 || hits[0].Name != "caching" {
		t.Errorf("hits = %v, want caching first", names(hits))
	}
}

func TestSnippetIsTheBestLine(t *testing.T) {
	hits := Search(docs, "connection settings", 1)
	if len(hits) != 1 || hits[0].Snippet != "We migrated the database to Postgres. Connection settings live in config/db.yaml." {
		t.Fatalf("hits = %+v", hits)
	}
	long := Doc{Name: "x", Body: strings.Repeat("filler words here ", 30) + "the needle is here " + strings.Repeat("more filler ", 30)}
	h := Search([]Doc{long}, "needle", 1)
	if len(h) != 1 || !strings.Contains(h[0].Snippet, "needle") || len([]rune(h[0].Snippet)) > snippetMax {
		t.Errorf("snippet = %q", h[0].Snippet)
	}
}

func TestSearchIsStable(t *testing.T) {
	d := []Doc{{Name: "b", Body: "same text"}, {Name: "a", Body: "same text"}, {Name: "c", Body: "same text"}}
	for range 5 {
		if got := names(Search(d, "text", 0)); got != "a b c" {
			t.Fatalf("order = %s", got)
		}
	}
}

func names(hits []Hit) string {
	var n []string
	for _, h := range hits {
		n = append(n, h.Name)
	}
	return strings.Join(n, " ")
}

// BenchmarkSearch10k is a query over 10,000 memories of realistic size.
func BenchmarkSearch10k(b *testing.B) {
	big := make([]Doc, 10000)
	for i := range big {
		big[i] = Doc{
			Name:        fmt.Sprintf("memory-%05d-topic", i),
			Description: fmt.Sprintf("Lesson %d about builds, reviews and the service number %d", i, i%97),
			Body:        strings.Repeat(fmt.Sprintf("Some body text about component %d and its configuration. ", i%131), 8),
		}
	}
	big[7777].Body += " Deploys go through ./deploy.sh."
	b.ResetTimer()
	for b.Loop() {
		if hits := Search(big, "how do we deploy", 5); len(hits) == 0 || hits[0].Name != big[7777].Name {
			b.Fatal("planted memory not first")
		}
	}
}

func TestCachedParsesOnlyChangedFiles(t *testing.T) {
	cache := filepath.Join(t.TempDir(), "state", "recall.cache")
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	files := []File{{Path: "/s/a.md", Size: 10, ModTime: t0}, {Path: "/s/b.md", Size: 20, ModTime: t0}}
	var parsed []string
	parse := func(path string) (Doc, error) {
		parsed = append(parsed, path)
		return Doc{Name: filepath.Base(path), Body: "body of " + path}, nil
	}
	if docs, err := Cached(cache, files, parse); err != nil || len(docs) != 2 || len(parsed) != 2 {
		t.Fatalf("first: %v, %v, parsed %v", docs, err, parsed)
	}
	parsed = nil
	files[1].ModTime = t0.Add(time.Second)
	docs, err := Cached(cache, files, parse)
	if err != nil || len(parsed) != 1 || parsed[0] != "/s/b.md" {
		t.Fatalf("after b changed: parsed %v, %v", parsed, err)
	}
	if docs[0].Body != "body of /s/a.md" {
		t.Errorf("cached doc lost its body: %+v", docs[0])
	}
	parsed = nil
	if docs, _ := Cached(cache, files[:1], parse); len(docs) != 1 || len(parsed) != 0 {
		t.Errorf("after b was removed: %v, parsed %v", docs, parsed)
	}
	// A corrupt cache is only a slower search.
	os.WriteFile(cache, []byte("junk"), 0o600)
	if docs, err := Cached(cache, files, parse); err != nil || len(docs) != 2 {
		t.Errorf("corrupt cache: %v, %v", docs, err)
	}
}
