package tokens

import "testing"

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
