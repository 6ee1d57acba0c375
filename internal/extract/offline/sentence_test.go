package offline

import "testing"

// TestSentenceEnd: trailing punctuation becomes one full stop, except that a text that trails
// off keeps its "…", so that a fragment is never presented as a whole sentence.
func TestSentenceEnd(t *testing.T) {
	tests := []struct{ in, want string }{
		{"run make lint", "run make lint."},
		{"run make lint!!", "run make lint."},
		{"run make lint;  ", "run make lint."},
		{"Whenever you write documentation for me, keep…", "Whenever you write documentation for me, keep…"},
		{"keep the lines short...", "keep the lines short…"},
		{"keep the lines, …", "keep the lines…"},
		{"…", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := sentenceEnd(tt.in); got != tt.want {
			t.Errorf("sentenceEnd(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
