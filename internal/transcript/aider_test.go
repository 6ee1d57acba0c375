package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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
		"Reply with a quote:\n[2 lines of code]",
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

// In architect mode aider logs the architect's answer again as the editor's input, and a /ask
// request twice: neither is a second thing the person said.
func TestAiderArchitectRelayAndRepeats(t *testing.T) {
	history := "# aider chat started at 2026-11-18 09:00:00\n\n" +
		"#### /architect move the retry logic into the client\n\n" +
		"#### move the retry logic into the client\n\n" +
		"Okay, I will instruct the editor engineer to move the retry loop from worker.go into client.go and keep the backoff.\n\n```go\nfunc retry() {}\n```\n\n" +
		"#### Okay, I will instruct the editor engineer to move the retry loop from worker.go into client.go and keep the backoff.  \n#### ```go  \n#### func retry() {}  \n#### ```  \n\n" +
		"Done.\n"
	path := filepath.Join(t.TempDir(), ".aider.chat.history.md")
	if err := os.WriteFile(path, []byte(history), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	r, err := aider{}.Read(File{Kind: "aider", Path: path, Size: fi.Size(), ModTime: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)}, Cursor{})
	if err != nil || len(r.Sessions) != 1 {
		t.Fatalf("read: %v, %d sessions", err, len(r.Sessions))
	}
	s := r.Sessions[0]
	var user []string
	for _, turn := range s.Turns {
		if turn.Role == User {
			user = append(user, turn.Text)
		}
	}
	if len(user) != 1 || user[0] != "move the retry logic into the client" || s.Cut != 2 {
		t.Errorf("user turns %q, cut %d; want the one request, 2 cut", user, s.Cut)
	}
	if !s.Ended.Equal(s.Started) || s.Started.Format("2006-01-02") != "2026-11-18" {
		t.Errorf("dated %v .. %v, want the header's day, not the file's mtime", s.Started, s.Ended)
	}
}
