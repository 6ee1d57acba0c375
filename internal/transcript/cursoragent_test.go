package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// cursorSample is the session of testdata/cursor-agent, written after the shape public parsers of
// Cursor's agent transcripts describe.
const cursorSample = "3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b"

// TestCursorTyped: the person's words are what Cursor wraps in <user_query>; a block Cursor opens
// with another tag is its own.
func TestCursorTyped(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"a query", "<user_query>\nRun the linter.\n</user_query>", []string{"Run the linter."}},
		{"with the workspace and rules first", "<user_info>\nOS Version: linux\n</user_info>\n<rules>\nbe terse\n</rules>\n<user_query>\nfix it\n</user_query>", []string{"fix it"}},
		{"an attached selection", "<attached_files>\n<code_selection path=\"a.go\">\nx\n</code_selection>\n</attached_files>\n<user_query>why?</user_query>", []string{"why?"}},
		{"a reminder", "<system_reminder>\nThe user changed the open file.\n</system_reminder>", nil},
		{"plain text", "Summarize the failing test.", []string{"Summarize the failing test."}},
		{"an empty query", "<user_query>\n</user_query>", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cursorTyped(tt.text); !slices.Equal(got, tt.want) {
				t.Errorf("cursorTyped = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCursorSlug(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/Users/ana/shop", "Users-ana-shop"},
		{"/Users/ana/my_app", "Users-ana-my-app"},
		{"/Users/ana/dp-2.0", "Users-ana-dp-2-0"},
		{"/Users/ana/.nosync/app", "Users-ana-nosync-app"},
		{`C:\Users\ana\shop`, "C-Users-ana-shop"},
		{"/", ""},
	}
	for _, tt := range tests {
		if got := cursorSlug(tt.path); got != tt.want {
			t.Errorf("cursorSlug(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestCursorFolderProject: the folder's name is placed by a path the records name, else by
// walking the file system part by part (a "-" may be a separator, a "-", a "." or a "_").
func TestCursorFolderProject(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"src/my_app", "src/my", "src/dp-2.0/web"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	transcript := func(dir string) string {
		return filepath.Join("/x/.cursor/projects", cursorSlug(dir), "agent-transcripts", "a", "a.jsonl")
	}
	tests := []struct {
		name, dir string
		hints     []string
		want      string
	}{
		{"a path inside the project", "/home/ana/shop", []string{"/etc/hosts", "/home/ana/shop/internal/a.go"}, "/home/ana/shop"},
		{"the project itself", "/home/ana/shop", []string{"/home/ana/shop"}, "/home/ana/shop"},
		{"found on disk", filepath.Join(root, "src", "my_app"), nil, filepath.Join(root, "src", "my_app")},
		{"a dot and a dash on disk", filepath.Join(root, "src", "dp-2.0", "web"), nil, filepath.Join(root, "src", "dp-2.0", "web")},
		{"nowhere", filepath.Join(root, "gone"), []string{"/elsewhere/a.go"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cursorFolderProject(transcript(tt.dir), tt.hints); got != tt.want {
				t.Errorf("cursorFolderProject = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCursorDiscover: the transcripts of both layouts are listed; sub-agents' and the plain-text
// ones are passed over with a reason.
func TestCursorDiscover(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"p/agent-transcripts/a/a.jsonl", "p/agent-transcripts/a/subagents/s.jsonl", "p/agent-transcripts/b.jsonl",
		"p/agent-transcripts/c.txt", "p/agent-transcripts/a/other.jsonl", "p/mcps/x.json", "p/terminals/1.txt",
	} {
		writeText(t, filepath.Join(root, filepath.FromSlash(rel)), "")
	}
	files, skipped, err := cursorAgent{}.Discover(Source{Kind: cursorAgentKind, Path: root})
	if err != nil {
		t.Fatal(err)
	}
	var got, passed []string
	for _, f := range files {
		got = append(got, filepath.ToSlash(strings.TrimPrefix(f.Path, root+string(filepath.Separator))))
	}
	for _, s := range skipped {
		passed = append(passed, filepath.Base(s.Path))
	}
	if want := []string{"p/agent-transcripts/a/a.jsonl", "p/agent-transcripts/b.jsonl"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	if want := []string{"s.jsonl", "c.txt"}; !slices.Equal(passed, want) {
		t.Errorf("skipped %q, want %q", passed, want)
	}
}

// TestCursorSession: the sample's person's words and only them, its failed command, the
// project a path in a tool call places its folder in, the times its queries' <timestamp> give; Peek agrees; a read in two parts gives the
// same turns as one.
func TestCursorSession(t *testing.T) {
	root := t.TempDir()
	rel := "projects/home-ana-shop/agent-transcripts/" + cursorSample + "/" + cursorSample + ".jsonl"
	f := copyFile(t, cursorAgentKind, filepath.Join("testdata", "cursor-agent", filepath.FromSlash(rel)), root, rel, "")
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 1 {
		t.Fatalf("%d sessions", len(r.Sessions))
	}
	s := r.Sessions[0]
	var users []string
	errs := 0
	for _, turn := range s.Turns {
		if turn.Role == User {
			users = append(users, turn.Text)
		}
		if turn.IsError && strings.Contains(turn.Text, "No rule to make target") {
			errs++
		}
	}
	want := []string{"Our fixtures live in testdata/golden. Please run the linter.", "The integration tests need docker compose up -d db first."}
	if day := s.Started.Format(time.RFC3339); day != "2026-09-03T18:21:00Z" || !s.Ended.Equal(s.Started.Add(19*time.Minute)) {
		t.Errorf("session from %v to %v, want the queries' timestamps", s.Started, s.Ended)
	}
	if !slices.Equal(users, want) || errs != 1 || s.Cut != 1 || s.ID != cursorSample || s.Project != "/home/ana/shop" {
		t.Errorf("session %s in %q, users %q, %d errors, %d cut", s.ID, s.Project, users, errs, s.Cut)
	}
	id, project, err := Peek(cursorAgent{}, f)
	if err != nil || id != cursorSample || project != "/home/ana/shop" {
		t.Errorf("Peek = %q, %q, %v", id, project, err)
	}
}

// TestCursorTimestamp: the <timestamp> Cursor puts before a query dates it, in its zone.
func TestCursorTimestamp(t *testing.T) {
	tests := []struct{ text, want string }{
		{"<timestamp>Friday, Sep 4, 2026, 2:21 AM (UTC+8)</timestamp>\n<user_query>\nq\n</user_query>", "2026-09-03T18:21:00Z"},
		{"<timestamp>Wednesday, Jun 3, 2026, 7:30 PM (UTC-7)</timestamp>", "2026-06-04T02:30:00Z"},
		{"<timestamp>Monday, Mar 2, 2026, 9:05 AM (UTC+5:30)</timestamp>", "2026-03-02T03:35:00Z"},
		{"<timestamp>Sunday, Sep 27, 2026, 9:00 AM</timestamp>", "2026-09-27T09:00:00Z"}, // local, UTC in tests
		{"<timestamp>now</timestamp>", ""},
		{"<user_query>q</user_query>", ""},
	}
	for _, tt := range tests {
		got := ""
		if ts := cursorTimestamp(tt.text); !ts.IsZero() {
			got = ts.Format(time.RFC3339)
		}
		if got != tt.want {
			t.Errorf("cursorTimestamp(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
