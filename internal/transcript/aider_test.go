package transcript

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestAiderUserText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fix the rounding", "fix the rounding"},
		{"/add src/cart.ts", ""},
		{"/run pnpm test", ""},
		{"/ask is there a rule for money?", "is there a rule for money?"},
		{"/architect split the cart module", "split the cart module"},
		{"  spaced  ", "spaced"},
	}
	for _, tt := range tests {
		if got := aiderUserText(tt.in); got != tt.want {
			t.Errorf("aiderUserText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAiderSessions(t *testing.T) {
	history := "# aider chat started at 2026-05-14 17:20:03\n\n" +
		"> Aider v0.86.1\n\n" +
		"#### first line\n#### second line\n####\n#### after a blank\n\n" +
		"Reply with a quote:\n```\n> not aider output\n#### not input\n```\n\n" +
		"> Applied edit\n\n" +
		"# aider chat started at bad time\n" +
		"# aider chat started at 2026-05-15 08:00:00\n\n#### new session\n"
	f := writeFile(t, "aider", filepath.Join(t.TempDir(), ".aider.chat.history.md"), []byte(history), "")
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 2 || r.Sessions[0].ID != "aider-2026-05-14T17:20:03" || r.Sessions[1].ID != "aider-2026-05-15T08:00:00" {
		t.Fatalf("sessions %+v", r.Sessions)
	}
	want := []string{
		"first line\nsecond line\n\nafter a blank",
		"Reply with a quote:\n```\n> not aider output\n#### not input\n```",
		"new session",
	}
	if got := turnTexts(r); !slices.Equal(got, want) {
		t.Errorf("turns %q, want %q", got, want)
	}
	if len(r.Warnings) != 1 {
		t.Errorf("warnings %q, want one for the unreadable start time", r.Warnings)
	}
	if r.Cursor.Session != "aider-2026-05-15T08:00:00" {
		t.Errorf("cursor session %q, want the open session", r.Cursor.Session)
	}
}
