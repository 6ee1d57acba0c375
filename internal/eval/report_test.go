package eval

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/golden"

	"github.com/dreamd/dreamd/internal/extract"
)

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got)
}

func sampleReport() *Report {
	return newReport("gpt-4o-mini", []ScenarioResult{
		{
			Name: "12-mysql-to-postgres", Description: "MySQL to Postgres", Result: "applied",
			Usage: extract.Usage{PromptTokens: 2400, CompletionTokens: 310},
			Checks: []Check{
				{Category: Contradictions, Kind: "mentions", Text: "postgres", Pass: true},
				{Category: Contradictions, Kind: "not_current", Text: "mysql", Detail: `orders-db presents it as current: "the orders service uses mysql 8."`},
				{Category: Caps, Kind: "index", Text: "MEMORY.md", Pass: true},
			},
		},
		{
			Name: "33-aws-keys", Description: "AWS keys", Result: "failed", Error: "llm: 503 Service Unavailable from 127.0.0.1:8080 after 4 attempts",
			Checks: []Check{
				{Category: Secrets, Kind: "absent", Text: "AKIA4HKQ7Z2XW9PLM3RT", Pass: true},
				{Category: Lessons, Kind: "mentions", Text: "ci-deployer", Note: "the role to use", Detail: "no memory mentions it (0 memories)"},
				{Category: Caps, Kind: "index", Text: "MEMORY.md", Pass: true},
				{Category: Archived, Kind: "archive", Text: "2 starting memories", Pass: true},
			},
		},
	})
}

func TestWrite(t *testing.T) {
	for _, tc := range []struct{ format, file string }{
		{"text", "report.txt"},
		{"markdown", "report.md"},
		{"json", "report.json"},
	} {
		var b bytes.Buffer
		if err := Write(&b, tc.format, sampleReport()); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, tc.file, b.Bytes())
	}
	if err := Write(&bytes.Buffer{}, "yaml", sampleReport()); err == nil {
		t.Error("an unknown format was accepted")
	}
}

func TestScores(t *testing.T) {
	r := sampleReport()
	got := r.Categories
	want := []Score{
		{Lessons, Labels[Lessons], 0, 1},
		{Contradictions, Labels[Contradictions], 1, 2},
		{Secrets, Labels[Secrets], 1, 1},
		{Caps, Labels[Caps], 2, 2},
		{Archived, Labels[Archived], 1, 1},
	}
	if len(got) != len(want) {
		t.Fatalf("categories %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("category %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if r.Overall.Passed != 5 || r.Overall.Total != 7 || r.Failed != 1 || r.Usage.PromptTokens != 2400 {
		t.Errorf("overall %+v, failed %d, usage %+v", r.Overall, r.Failed, r.Usage)
	}
	if s := r.Category(Noise); s.Total != 0 || s.Ratio() != 0 || s.Label != Labels[Noise] {
		t.Errorf("a category without checks: %+v", s)
	}
	if p := (Score{Passed: 199, Total: 200}).Percent(); p != 99 {
		t.Errorf("199/200 shows as %d%%, want 99%%", p)
	}
}
