package transcript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// logsJSON renders prompts as Gemini CLI writes logs.json: an indented array.
func logsJSON(prompts ...[3]string) []byte {
	var b strings.Builder
	b.WriteString("[")
	ids := map[string]int{}
	for i, p := range prompts {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  {\n    \"sessionId\": \"" + p[0] + "\",\n    \"messageId\": " + string(rune('0'+ids[p[0]])) +
			",\n    \"type\": \"user\",\n    \"message\": \"" + p[1] + "\",\n    \"timestamp\": \"" + p[2] + "\"\n  }")
		ids[p[0]]++
	}
	b.WriteString("\n]")
	return []byte(b.String())
}

const (
	logsA = "a1b2c3d4-0000-4000-8000-000000000001"
	logsB = "b1b2c3d4-0000-4000-8000-000000000002"
	logsC = "c1b2c3d4-0000-4000-8000-000000000003" // has a chats/ file
)

// geminiLogsFolder is a Gemini CLI 0.61 project folder whose logs.json holds three sessions, one
// of them (logsC) recorded in chats/ as well.
func geminiLogsFolder(t *testing.T, prompts ...[3]string) (File, string) {
	t.Helper()
	folder := filepath.Join(t.TempDir(), "tmp", "shop")
	if err := os.MkdirAll(filepath.Join(folder, "chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, ".project_root"), []byte("/home/ana/src/shop\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(folder, "chats", "session-2026-07-16T21-00-c1b2c3d4.jsonl"), []byte(`{"sessionId":"`+logsC+`"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "gemini", filepath.Join(folder, "logs.json"), logsJSON(prompts...), ""), folder
}

var logsPrompts = [][3]string{
	{logsA, "Use plain HTML, CSS and JavaScript, no frameworks.", "2025-07-16T20:51:00.000Z"},
	{logsA, "/chat save landing", "2025-07-16T20:52:00.000Z"},
	{logsB, "fale em português", "2025-07-16T21:00:00.000Z"},
	{logsC, "this one is in chats/", "2025-07-16T21:01:00.000Z"},
	{logsA, "/src/app.js throws on load", "2025-07-16T21:02:00.000Z"},
}

// TestGeminiLogs: the sessions of logs.json that have no chats/ file are read, one session each
// (two Gemini CLIs in one folder log in turns), the person's prompts as user turns at their time,
// Gemini CLI's slash commands cut, in the project the folder names.
func TestGeminiLogs(t *testing.T) {
	f, _ := geminiLogsFolder(t, logsPrompts...)
	r := mustRead(t, f, Cursor{})
	type got struct {
		id    string
		users []string
		cut   int
	}
	var sessions []got
	for _, s := range r.Sessions {
		var users []string
		for _, turn := range s.Turns {
			if turn.Role != User || turn.Time.IsZero() {
				t.Errorf("session %s: turn %+v, want the person's, at its time", s.ID, turn)
			}
			users = append(users, turn.Text)
		}
		sessions = append(sessions, got{s.ID, users, s.Cut})
		if s.Project != "/home/ana/src/shop" {
			t.Errorf("session %s in project %q, want the one .project_root names", s.ID, s.Project)
		}
	}
	want := []got{
		{logsA, []string{"Use plain HTML, CSS and JavaScript, no frameworks.", "/src/app.js throws on load"}, 1},
		{logsB, []string{"fale em português"}, 0},
	}
	if !slices.EqualFunc(sessions, want, func(a, b got) bool { return a.id == b.id && slices.Equal(a.users, b.users) && a.cut == b.cut }) {
		t.Errorf("sessions %+v, want %+v", sessions, want)
	}
	if s := r.Sessions[0]; !s.Started.Equal(time.Date(2025, 7, 16, 20, 51, 0, 0, time.UTC)) || !s.Ended.Equal(time.Date(2025, 7, 16, 21, 2, 0, 0, time.UTC)) {
		t.Errorf("session %s from %v to %v", s.ID, s.Started, s.Ended)
	}
	if id, project, err := Peek(gemini{}, f); id != logsA || project != "/home/ana/src/shop" || err != nil {
		t.Errorf("Peek = %q, %q, %v", id, project, err)
	}
}

// TestGeminiLogsResume: Gemini CLI rewrites logs.json whole at each prompt; a later reading takes
// only the prompts added since, and a file whose first entries changed is read again from its start.
func TestGeminiLogsResume(t *testing.T) {
	f, folder := geminiLogsFolder(t, logsPrompts...)
	first := mustRead(t, f, Cursor{})
	more := append(slices.Clone(logsPrompts), [3]string{logsB, "guarde isso: sou leigo", "2025-07-17T09:00:00.000Z"})
	f = writeFile(t, "gemini", filepath.Join(folder, "logs.json"), logsJSON(more...), "")
	from, _, err := Resume(f, first.Cursor)
	if err != nil {
		t.Fatal(err)
	}
	r := mustRead(t, f, from)
	if got := roleTexts(r, User); !slices.Equal(got, []string{"guarde isso: sou leigo"}) || len(r.Sessions) != 1 || r.Sessions[0].ID != logsB {
		t.Errorf("after one more prompt: sessions %+v, want only the new prompt of %s", r.Sessions, logsB)
	}
	again := mustRead(t, f, r.Cursor)
	if len(again.Sessions) != 0 {
		t.Errorf("read at its cursor, an unchanged file gives %+v", again.Sessions)
	}
	rewritten := slices.Clone(more)
	rewritten[0][1] = "Use React."
	f = writeFile(t, "gemini", filepath.Join(folder, "logs.json"), logsJSON(rewritten...), "")
	r = mustRead(t, f, r.Cursor)
	if got := roleTexts(r, User); len(got) != 4 || got[0] != "Use React." {
		t.Errorf("rewritten from its first entry: user turns %q, want all four again", got)
	}
}

// TestGeminiLogsCovered: a logs.json whose every session has a chats/ file gives nothing (the
// fixture's one prompt is also its session-*.jsonl's), and a malformed one a warning.
func TestGeminiLogsCovered(t *testing.T) {
	path := filepath.Join("testdata", "gemini", geminiHash, "logs.json")
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	covered := File{Kind: "gemini", Path: path, Size: fi.Size(), ModTime: fi.ModTime()}
	r := mustRead(t, covered, Cursor{})
	if len(r.Sessions) != 0 || len(r.Warnings) != 0 {
		t.Errorf("covered logs.json: sessions %+v, warnings %q", r.Sessions, r.Warnings)
	}
	if id, _, _ := Peek(gemini{}, covered); id != "logs" {
		t.Errorf("Peek names %q, want the file: no session of its own", id)
	}
	f, _ := geminiLogsFolder(t)
	f = writeFile(t, "gemini", f.Path, []byte(`{"sessionId": "x"`), "")
	if r := mustRead(t, f, Cursor{}); len(r.Sessions) != 0 || len(r.Warnings) != 1 {
		t.Errorf("malformed logs.json: sessions %+v, warnings %q", r.Sessions, r.Warnings)
	}
	f = writeFile(t, "gemini", f.Path, []byte("\n"), "")
	if r := mustRead(t, f, Cursor{}); len(r.Sessions) != 0 || len(r.Warnings) != 0 {
		t.Errorf("empty logs.json: sessions %+v, warnings %q", r.Sessions, r.Warnings)
	}
}

func TestGeminiSlashCommand(t *testing.T) {
	for text, want := range map[string]bool{
		"/chat save landing":         true,
		"/quit":                      true,
		"/memory add use pnpm":       true,
		"/src/app.js throws on load": false,
		"// a comment":               false,
		"/* note */":                 false,
		"/":                          false,
		"use /chat to save":          false,
		`/C:\x is wrong`:             false,
	} {
		if got := geminiSlashCommand(text); got != want {
			t.Errorf("geminiSlashCommand(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestLocateGeminiLogs: logs.json is placed by its folder as a chats/ file is: by .project_root,
// and by a hash folder's name.
func TestLocateGeminiLogs(t *testing.T) {
	f, folder := geminiLogsFolder(t, logsPrompts...)
	if got := Locate(f); got.Project != "/home/ana/src/shop" {
		t.Errorf("Locate = %+v", got)
	}
	hashed := filepath.Join(filepath.Dir(folder), ProjectHash("/home/ana/src/old"), "logs.json")
	g := writeFile(t, "gemini", hashed, logsJSON(logsPrompts[0]), "")
	if got := Locate(g); got != (Placed{ProjectHash: ProjectHash("/home/ana/src/old")}) {
		t.Errorf("Locate in a hash folder = %+v", got)
	}
}
