package tokens

import (
	"fmt"
	"strings"
	"testing"
)

func TestCount(t *testing.T) {
	tests := []struct {
		in       string
		min, max int
	}{
		{"", 0, 0},
		{"hello", 1, 1},
		{"always run make lint before committing", 5, 9},
	}
	for _, tt := range tests {
		if got := Count(tt.in); got < tt.min || got > tt.max {
			t.Errorf("Count(%q) = %d, want %d..%d", tt.in, got, tt.min, tt.max)
		}
	}
}

func BenchmarkCount(b *testing.B) {
	s := "We migrated the billing service from MySQL to Postgres yesterday; always run make lint first. "
	for b.Loop() {
		Count(s)
	}
}

// TestCountParallelMatchesWhole checks that counting a large text in chunks gives the count of
// the whole text.
func TestCountParallelMatchesWhole(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 3*parallelAbove; i++ {
		fmt.Fprintf(&b, "user: Remember that run %d of the nightly job writes to /var/log/app-%d.log.\n\nassistant: Noted — logs rotate at %d:00.\n", i, i, i%24)
	}
	s := b.String()
	if got, want := Count(s), count(s); got != want {
		t.Errorf("parallel count %d, whole count %d", got, want)
	}
}

func BenchmarkCountLarge(b *testing.B) {
	s := strings.Repeat("user: Always run make lint before committing; CI rejects unformatted code.\n", 4000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		Count(s)
	}
}
