package eval

import (
	"context"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/eval/suite"
	"github.com/dreamd/dreamd/internal/extract/offline"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
)

// offlineFloors are the lowest scores the offline consolidator may make on the shipped suite.
// Measured on 2026-12-01 (62 scenarios): lessons 89/89, duplicates 8/9, contradictions 16/16,
// dates 12/12, noise 33/33, injections 9/9, secrets 8/8, caps 68/70, archived 12/12, overall
// 257/260 (before the evidence and languages of issue 31: lessons 59/70, noise 22/24; before
// its third round's guards asked again, rules said again, prohibitions said in another shape,
// settings read from the environment and the commands the person ran, scenarios 60-64:
// lessons 70/79; before its fourth round's languages, scenarios 65-66: lessons 79/89). Each floor sits a
// little below, so a regression fails and a one-check wobble does
// not; secrets and the archive have none: a leaked secret or a memory lost without an archive is
// a bug, not a score. The expectations are written for what a good consolidator should do; the
// offline one mines statements and evidence with patterns, and keeps every lesson of the suite,
// which is written in the phrasings it reads: on real transcripts it keeps far fewer.
// Raise a floor when the offline consolidator improves; never lower one to make a change pass.
var offlineFloors = map[string]float64{
	Lessons:        0.98,
	Duplicates:     0.60,
	Contradictions: 0.90,
	Dates:          0.90,
	Noise:          0.96,
	Injections:     0.85,
	Secrets:        1,
	Caps:           0.90,
	Archived:       1,
	"overall":      0.98,
}

func shippedSuite(t *testing.T) *Suite {
	t.Helper()
	s, err := LoadSuite(suite.FS)
	if err != nil {
		t.Fatalf("the shipped suite does not load: %v", err)
	}
	return s
}

func baseEnv(t *testing.T) *phases.Env {
	t.Helper()
	red, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &phases.Env{
		Limits:            memory.DefaultLimits,
		MaxRetireFraction: 0.25,
		MaxInputTokens:    100000,
		Consolidator:      offline.New(),
		ConsolidatorName:  "offline",
		Redactor:          red,
	}
}

// runLogged runs suite with the offline consolidator and logs its report; a pass that failed
// fails the test.
func runLogged(t *testing.T, suite *Suite, jobs int) *Report {
	t.Helper()
	rep, err := Run(context.Background(), suite, Options{Base: baseEnv(t), Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := Write(&b, "text", rep); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if rep.Failed > 0 {
		t.Errorf("%d offline passes failed", rep.Failed)
	}
	return rep
}

func TestSuiteOfflineScore(t *testing.T) {
	suite := shippedSuite(t)
	if n := len(suite.Scenarios); n < 30 {
		t.Fatalf("the shipped suite has %d scenarios, want at least 30", n)
	}
	rep := runLogged(t, suite, runtime.GOMAXPROCS(0))
	for _, name := range append(slices.Clone(Categories), "overall") {
		s := rep.Overall
		if name != "overall" {
			s = rep.Category(name)
		}
		if s.Total == 0 {
			t.Errorf("category %s has no checks in the suite", name)
			continue
		}
		if got, floor := s.Ratio(), offlineFloors[name]; got < floor {
			t.Errorf("%s: offline score %.0f%% (%d/%d) is below its floor %.0f%%", s.Label, got*100, s.Passed, s.Total, floor*100)
		}
	}
}
