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
		// How the project is run and which files matter: the person's commands, kept as typed.
		{"/add src/cart.ts", "/add src/cart.ts"},
		{"/run pnpm test", "/run pnpm test"},
		{"!pnpm lint", "!pnpm lint"},
		{"/test go test ./...", "/test go test ./..."},
		{"/read-only docs/api.md", "/read-only docs/api.md"},
		{"/add", ""},
		{"/drop src/cart.ts", ""},
		{"/tokens", ""},
		{"/copy-context", ""},
		{"/ask is there a rule for money?", "is there a rule for money?"},
		{"/architect split the cart module", "split the cart module"},
		{"/help how do I add a file?", "how do I add a file?"},
		{"/help", ""},
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

// aider logs the prompts it builds itself on "####" lines, as if typed: the /help prompt and the
// lint errors it asks the model to fix. They are cut; the person's words around them are kept.
func TestAiderInjectedPrompts(t *testing.T) {
	const header = "# aider chat started at 2026-06-01 10:00:00\n\n"
	help := "#### # Question:  how do I add a file?  \n####   \n#### # Relevant docs:  \n####   \n" +
		"#### <doc from_url=\"https://aider.chat/docs/usage.html\">  \n#### Use /add to add files.  \n#### </doc>  \n####   \n" +
		"#### # Announcement lines from when this session of aider was launched:  \n####   \n#### Aider v0.86.1  \n\n"
	lint := "#### # Fix any errors below, if possible.  \n####   \n#### ## Running: flake8 app.py  \n####   \n" +
		"#### app.py:3:1: F401 'os' imported but unused  \n\n"
	tests := []struct {
		name            string
		history         string
		user, assistant []string
		cut             int
	}{
		{"/help keeps the question, cuts the prompt", "#### /help how do I add a file?  \n\n" + help + "Use `/add <file>`.\n",
			[]string{"how do I add a file?"}, []string{"Use `/add <file>`."}, 1},
		{"/help alone is a command", "#### /help  \n\n> /add Add files to the chat\n", nil, nil, 0},
		{"the reflection of /lint", "#### /lint  \n\n> ## Running: flake8 app.py\n\n" + lint + "I removed the unused import.\n",
			nil, []string{"I removed the unused import."}, 1},
		{"a lint reflection after a request", "#### drop the os import  \n\nDone.\n\n" + lint + "Fixed.\n",
			[]string{"drop the os import"}, []string{"Done.", "Fixed."}, 1},
		// Aider 0.86.2, in a real history of 2026: the question it asked and the answer typed.
		{"a yes/no question answered", "#### find the hotkey bug  \n\nAdd src/hotkey.ts to the chat?\n\n" +
			"#### Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: all  \n\nThe bug is in the handler.\n",
			[]string{"find the hotkey bug"}, []string{"Add src/hotkey.ts to the chat?", "The bug is in the handler."}, 1},
		{"a question the person typed", "#### Should we drop Redis? (Y)es/(N)o, tell me  \n\nYes.\n",
			[]string{"Should we drop Redis? (Y)es/(N)o, tell me"}, []string{"Yes."}, 0},
		{"a heading the person typed", "#### # Question: why is rounding wrong?  \n\nBecause of floats.\n",
			[]string{"# Question: why is rounding wrong?"}, []string{"Because of floats."}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "aider", filepath.Join(t.TempDir(), aiderHistory), []byte(header+tt.history), "")
			r := mustRead(t, f, Cursor{})
			user, assistant := roleTexts(r, User), roleTexts(r, Assistant)
			if !slices.Equal(user, tt.user) || !slices.Equal(assistant, tt.assistant) || cutCount(r) != tt.cut {
				t.Errorf("user %q, assistant %q, cut %d; want %q, %q, %d", user, assistant, cutCount(r), tt.user, tt.assistant, tt.cut)
			}
		})
	}
}

// The lines before the file's first header belong to no header: they are a session of their own,
// with the untimed id and the file's mtime (like a file without headers), never the next header's
// id; a session that holds no turn is dropped, and what was cut from it is counted with the next
// session kept, or the last one. An Emacs mode line on the first line is not a turn.
func TestAiderHead(t *testing.T) {
	const (
		header  = "# aider chat started at 2026-06-01 10:00:00\n\n"
		header2 = "# aider chat started at 2026-06-02 09:00:00\n\n"
		lint    = "#### # Fix any errors below, if possible.  \n####   \n#### x.py:1:1: E402 module level import not at top of file  \n\n"
	)
	type session struct {
		id              string
		day             string // the day it starts
		user, assistant []string
		cut             int
	}
	tests := []struct {
		name, history string
		want          []session
	}{
		{"aider's output and a lint reflection", "-*- mode: fundamental -*-\n> flake8 failed\n\n" + lint + "> ^C KeyboardInterrupt\n\n" +
			header + "#### fix it\n\nFixed.\n",
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"fix it"}, []string{"Fixed."}, 1}}},
		{"a request before the first header", "#### keep the config in toml\n\nNoted.\n\n" + header + "#### fix it\n\nFixed.\n",
			[]session{
				{"aider", "2026-01-01", []string{"keep the config in toml"}, []string{"Noted."}, 0},
				{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"fix it"}, []string{"Fixed."}, 0},
			}},
		{"no header at all", "#### keep the config in toml\n\nNoted.\n",
			[]session{{"aider", "2026-01-01", []string{"keep the config in toml"}, []string{"Noted."}, 0}}},
		{"only a mode line", "-*- mode: fundamental -*-\n", nil},
		{"a mode line inside a reply is the reply's", header + "#### show the mode line\n\n-*- mode: fundamental -*-\n",
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"show the mode line"}, []string{"-*- mode: fundamental -*-"}, 0}}},
		{"a session of commands and a reflection, then another", header + "#### /drop x.py\n\n" + lint + header2 + "#### fix it\n",
			[]session{{"aider-2026-06-02T09:00:00", "2026-06-02", []string{"fix it"}, nil, 1}}},
		{"/add and /run are the person's: the session is kept", header + "#### /add x.py\n\n> Added x.py to the chat\n\n#### /run make test\n\n> make: *** [test] Error 1\n\n" + header2 + "#### fix it\n",
			[]session{
				{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"/add x.py", "/run make test"}, nil, 0},
				{"aider-2026-06-02T09:00:00", "2026-06-02", []string{"fix it"}, nil, 0},
			}},
		{"a command's output logged with one > is aider's", header + "#### /run make test  \n> FAIL: TestCart\n    cart_test.go:9: got 3\n    \nFAIL  \n\nThe test fails because of rounding.\n",
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"/run make test"}, []string{"The test fails because of rounding."}, 0}}},
		{"a > line without the line break is one line in a file that never writes it", header + "#### fix it\n> Applied edit\nFixed the rounding.\n",
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"fix it"}, []string{"Fixed the rounding."}, 0}}},
		{"blank inputs are no turns", header + "#### \u200b\n\nok\n\n#### ```\n#### ```\n\n#### \\\n\n#### fix it\n",
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"fix it"}, []string{"ok"}, 0}}},
		{"a last session without turns", header + "#### fix it\n\n" + header2 + lint,
			[]session{{"aider-2026-06-01T10:00:00", "2026-06-01", []string{"fix it"}, nil, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "aider", filepath.Join(t.TempDir(), aiderHistory), []byte(tt.history), "")
			r := mustRead(t, f, Cursor{})
			var got []session
			for _, s := range r.Sessions {
				one := Reading{Sessions: []Session{s}}
				got = append(got, session{s.ID, s.Started.Format("2006-01-02"), roleTexts(one, User), roleTexts(one, Assistant), s.Cut})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("sessions %+v, want %+v", got, tt.want)
			}
			for i := range got {
				g, w := got[i], tt.want[i]
				if g.id != w.id || g.day != w.day || !slices.Equal(g.user, w.user) || !slices.Equal(g.assistant, w.assistant) || g.cut != w.cut {
					t.Errorf("session %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

// A reading that ends in the head leaves no session id in the cursor: the next one goes on in the
// head's own session, then in the header's.
func TestAiderHeadAcrossReads(t *testing.T) {
	f := writeFile(t, "aider", filepath.Join(t.TempDir(), aiderHistory), []byte("#### keep the config in toml\n\n"), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, "Noted.\n\n# aider chat started at 2026-06-01 10:00:00\n\n#### fix it\n")
	r2 := mustRead(t, f, r.Cursor)
	var ids []string
	for _, s := range slices.Concat(r.Sessions, r2.Sessions) {
		ids = append(ids, s.ID)
	}
	if want := []string{"aider", "aider", "aider-2026-06-01T10:00:00"}; !slices.Equal(ids, want) || r.Cursor.Session != "" {
		t.Errorf("sessions %q (cursor session %q after the head), want %q", ids, r.Cursor.Session, want)
	}
	if got := turnTexts(r2); !slices.Equal(got, []string{"Noted.", "fix it"}) {
		t.Errorf("second reading's turns %q", got)
	}
}
