package phases

import (
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
)

// TestNoteText: a memory sent to another store carries its whole body; a description goes with
// it only when whole and not already said by the body.
func TestNoteText(t *testing.T) {
	const body = "Keep the lines short: the person reads on a phone."
	tests := []struct {
		name, desc, body, want string
	}{
		{"cut description left out", "Keep the lines…", body, body},
		{"description the body says", "Keep the lines short: the person reads on a phone.", body, body},
		{"description the body opens with", "Keep the lines short", body, body},
		{"description that adds", "Writing for the person", body, "Writing for the person\n\n" + body},
		{"no description", "", body, body},
		{"no body", "Writing for the person", "", "Writing for the person"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := noteText(extract.Operation{Description: tt.desc, Body: tt.body}); got != tt.want {
				t.Errorf("noteText(%q, %q) = %q, want %q", tt.desc, tt.body, got, tt.want)
			}
		})
	}
}
