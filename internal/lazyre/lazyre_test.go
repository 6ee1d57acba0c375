package lazyre

import (
	"slices"
	"sync"
	"testing"
)

func TestMatchesLikeRegexp(t *testing.T) {
	re := New(`(?i)\bmigrated\s+(?:from\s+(\w+)\s+)?to\s+(\w+)`)
	s := "We migrated from MySQL to Postgres; later we MIGRATED to Neon."
	if !re.MatchString(s) {
		t.Fatal("no match")
	}
	if got := re.FindStringSubmatch(s); !slices.Equal(got[1:], []string{"MySQL", "Postgres"}) {
		t.Errorf("FindStringSubmatch = %q", got)
	}
	if got := re.FindAllString(s, -1); len(got) != 2 {
		t.Errorf("FindAllString = %q", got)
	}
	if got := re.ReplaceAllString("we migrated to X", "moved"); got != "we moved" {
		t.Errorf("ReplaceAllString = %q", got)
	}
}

// TestConcurrentFirstUse compiles once however many goroutines ask first (run with -race).
func TestConcurrentFirstUse(t *testing.T) {
	re := New(`a+b`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if !re.MatchString("xaab") {
				t.Error("no match")
			}
		})
	}
	wg.Wait()
}

func TestBadPatternPanicsOnUse(t *testing.T) {
	re := New(`(`) // constructing never fails: patterns are constants, checked by their tests
	defer func() {
		if recover() == nil {
			t.Error("a bad pattern did not panic on first use")
		}
	}()
	re.MatchString("x")
}
