package offline

import (
	"strings"
	"testing"
)

// TestSwitchedAway forgets the tool a session said it uses once it switched to another without
// naming the one it left, and keeps it when the switch is to something else than a tool.
func TestSwitchedAway(t *testing.T) {
	tests := []struct {
		name  string
		texts []string
		want  string
	}{
		{"switched", []string{"I want to create an expenses tracker. We use Apple Numbers for the DB.", "Would Google Spreadsheet be better option?",
			"OK switch to Google Sheets. Is there any additional price?"}, ""},
		{"the last one of several", []string{"We use pnpm for the monorepo.", "We use Postgres for the main database.", "switch to Supabase"},
			"We use pnpm for the monorepo"},
		{"a branch is no tool", []string{"We use Postgres for the main database.", "switch to the other branch"}, "We use Postgres for the main database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(said(t, tt.texts...), "\n"); got != tt.want {
				t.Errorf("memories %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSwitchTo reads a switch to a named tool in the languages the rules read, and not one to a
// step, a mode or a language.
func TestSwitchTo(t *testing.T) {
	for text, want := range map[string]bool{
		"OK switch to Google Sheets.": true, "let's move to Postgres": true, "Vale, cambia a PostgreSQL.": true,
		"passons à Supabase": true, "Dann wechsle zu Vite": true, "好的，换成Redis": true, "mude para MongoDB": true,
		"switch to the other branch": false, "we should switch to Postgres someday": false, "don't switch to Redis": false,
		"ok let's move to Phase 2": false, "switch to Plan mode": false, "switch to English": false, "move to Step 3 now": false,
		"switch to Python 3.12": true, "change to Option B": false,
	} {
		if got := switchedTool(text); got != want {
			t.Errorf("switchedTool(%q) = %v, want %v", text, got, want)
		}
	}
}
