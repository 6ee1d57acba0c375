package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// geminiHome is a Gemini CLI 0.61.0 home as it recorded three sessions in ~/src/shop-app (see its
// README): the short-name folder, its .project_root, ~/.gemini/projects.json.
const geminiHome = "../../internal/transcript/testdata/gemini-0.61/home/.gemini"

// geminiSessions runs `dreamd sessions --json` with the default config in a home holding the
// recorded Gemini CLI files, after prepare, and returns the sessions and skipped files.
func geminiSessions(t *testing.T, prepare func(s *sandbox)) (sessions []sessionRow, skipped []skippedRow) {
	t.Helper()
	s := newSandbox(t, "")
	s.copyDir(geminiHome, ".gemini")
	if prepare != nil {
		prepare(s)
	}
	out, errOut, code := s.run("sessions", "--json")
	var rep struct {
		Sessions []sessionRow `json:"sessions"`
		Skipped  []skippedRow `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("sessions: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for _, r := range rep.Skipped {
		if strings.Contains(r.Path, ".gemini") {
			skipped = append(skipped, r)
		}
	}
	return rep.Sessions, skipped
}

// TestGeminiCurrentLayout: with the default config, every main session Gemini CLI 0.61 wrote is
// read and placed in its project's store — from .project_root, from projects.json when that is
// gone, from the metadata's projectHash when both are — and one that cannot be placed says how.
func TestGeminiCurrentLayout(t *testing.T) {
	const store = "/.claude/projects/-home-ana-src-shop-app/memory"
	const folder = ".gemini/tmp/shop-app"
	tests := []struct {
		name    string
		prepare func(s *sandbox)
		placed  bool
	}{
		{"by .project_root", nil, true},
		{"by projects.json", func(s *sandbox) { os.Remove(s.path(folder + "/.project_root")) }, true},
		{"by the projectHash of a project another agent names", func(s *sandbox) {
			os.Remove(s.path(folder + "/.project_root"))
			os.Remove(s.path(".gemini/projects.json"))
			s.write(".claude/projects/-home-ana-src-shop-app/c1.jsonl", `{"type":"user","sessionId":"c1","cwd":"/home/ana/src/shop-app","timestamp":"2026-11-26T18:00:00Z","message":{"role":"user","content":"hello"}}`+"\n")
		}, true},
		{"nowhere", func(s *sandbox) {
			os.Remove(s.path(folder + "/.project_root"))
			os.Remove(s.path(".gemini/projects.json"))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sessions, skipped := geminiSessions(t, tt.prepare)
			var ids []string
			for _, r := range sessions {
				if r.Kind != "gemini" {
					continue
				}
				ids = append(ids, r.ID)
				if !strings.HasSuffix(r.Store, store) || r.Project != "/home/ana/src/shop-app" {
					t.Errorf("session %s in %s (project %q), want the shop-app store", r.ID, r.Store, r.Project)
				}
			}
			if !tt.placed {
				if len(ids) != 0 || len(skipped) != 3 {
					t.Fatalf("placed %v, skipped %+v: want all three skipped", ids, skipped)
				}
				for _, r := range skipped {
					if !strings.Contains(r.Reason, "{kind: gemini, path: ") || !strings.Contains(r.Reason, filepath.FromSlash("tmp/shop-app")) {
						t.Errorf("skipped %s: %q does not say how to place it", r.Path, r.Reason)
					}
				}
				return
			}
			slices.Sort(ids)
			ids = slices.Compact(ids)
			if len(skipped) != 0 || !slices.Equal(ids, []string{"cd954f07-dbb5-4342-bac1-da5fd5ef917a", "fce35531-03c6-4feb-9e42-9c5e20520d31"}) {
				t.Errorf("sessions %v, skipped %+v: want both recorded sessions placed", ids, skipped)
			}
		})
	}
}

// TestStatusSaysWhatGeminiCleanupLost: a Gemini CLI session read while Gemini CLI was still
// writing its last line, then deleted by Gemini CLI's session cleanup, is not lost while the link
// a run kept of it stands; without one, status reports it as lost.
func TestStatusSaysWhatGeminiCleanupLost(t *testing.T) {
	s := newSandbox(t, "llm: {offline: true}\n")
	s.copyDir(geminiHome, ".gemini")
	chats := ".gemini/tmp/shop-app/chats/"
	resumed := chats + "session-2026-11-26T18-41-fce35531.jsonl"
	s.appendTo(resumed, `{"id":"late","type":"user","content":[{"text":"half writ`) // the line Gemini CLI was writing
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	os.Remove(s.path(resumed)) // Gemini CLI's next start
	if lost := statusLost(t, s); len(lost) != 0 {
		t.Errorf("lost = %q: the run kept the session (a link under state_dir/kept), nothing is lost", lost)
	}
	os.RemoveAll(s.path(".local/state/dreamd/kept")) // as if no run had kept it
	lost := statusLost(t, s)
	if len(lost) != 1 || !strings.HasSuffix(lost[0], filepath.FromSlash(resumed)) {
		t.Errorf("lost = %q, want the deleted session", lost)
	}
	text, _, _ := s.run("status")
	if !strings.Contains(text, "lost") || !strings.Contains(text, "session-2026-11-26T18-41-fce35531.jsonl") {
		t.Errorf("status does not say what was lost:\n%s", text)
	}
}

// statusLost is what `dreamd status --json` lists as lost, over all stores.
func statusLost(t *testing.T, s *sandbox) []string {
	t.Helper()
	out, errOut, code := s.run("status", "--json")
	var rep struct {
		Stores []struct {
			Store string
			Lost  []string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("status: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	var lost []string
	for _, st := range rep.Stores {
		lost = append(lost, st.Lost...)
	}
	return lost
}

// TestKeptLinkForgottenOnceRead: the link kept of a Gemini CLI session its agent deleted is
// removed once a pass has read the session to its end, so deleted sessions do not stay on disk
// for good; one not read to its end stays.
func TestKeptLinkForgottenOnceRead(t *testing.T) {
	s := newSandbox(t, "llm: {offline: true}\n")
	s.copyDir(geminiHome, ".gemini")
	chats := ".gemini/tmp/shop-app/chats/"
	read, partial := "session-2026-11-26T18-44-cd954f07.jsonl", "session-2026-11-26T18-41-fce35531.jsonl"
	s.appendTo(chats+partial, `{"id":"late","type":"user","content":[{"text":"half writ`)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	kept, _ := filepath.Glob(s.path(".local/state/dreamd/kept/*/shop-app/chats/*.jsonl"))
	if len(kept) != 3 {
		t.Fatalf("kept %q, want the 3 session files", kept)
	}
	os.Remove(s.path(chats + read))
	os.Remove(s.path(chats + partial))
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	dir := filepath.Dir(kept[0])
	if _, err := os.Stat(filepath.Join(dir, read)); err == nil {
		t.Errorf("the link of %s, read to its end and deleted, is still kept", read)
	}
	if _, err := os.Stat(filepath.Join(dir, partial)); err != nil {
		t.Errorf("the link of %s, not read to its end, is gone: %v", partial, err)
	}
}

// TestGeminiPromptLog: a Gemini CLI session that has no chats/ file (an older version's, one its
// cleanup deleted) is read from the folder's logs.json, the person's prompts alone and its slash
// commands cut, and consolidated into its project's store; a session that has a chats/ file is
// read from there only.
func TestGeminiPromptLog(t *testing.T) {
	s := newSandbox(t, "llm: {offline: true}\n")
	s.copyDir(geminiHome, ".gemini")
	const old = "0b7c2a4e-5d6f-4a8b-9c0d-1e2f3a4b5c6d"
	s.write(".gemini/tmp/shop-app/logs.json", `[
  {"sessionId": "fce35531-03c6-4feb-9e42-9c5e20520d31", "messageId": 0, "type": "user", "message": "Remember: we deploy with make deploy, never by hand.", "timestamp": "2026-11-26T18:41:10.000Z"},
  {"sessionId": "`+old+`", "messageId": 0, "type": "user", "message": "Remember: our fixtures live in testdata/golden.", "timestamp": "2026-07-16T20:51:58.035Z"},
  {"sessionId": "`+old+`", "messageId": 1, "type": "user", "message": "/chat save fixtures", "timestamp": "2026-07-16T20:52:30.000Z"},
  {"sessionId": "`+old+`", "messageId": 2, "type": "user", "message": "Now add a golden test for the cart.", "timestamp": "2026-07-16T20:53:00.000Z"}
]`)
	out, errOut, code := s.run("sessions", "--json")
	var rep struct {
		Sessions []sessionRow `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("sessions: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	var logged []sessionRow
	for _, r := range rep.Sessions {
		if filepath.Base(r.Path) == "logs.json" {
			logged = append(logged, r)
		}
	}
	if len(logged) != 1 || logged[0].ID != old || logged[0].Project != "/home/ana/src/shop-app" ||
		logged[0].Turns.User != 2 || logged[0].Turns.Assistant != 0 || logged[0].Turns.Cut != 1 {
		t.Fatalf("logs.json reads as %+v, want the old session's two prompts (the slash command cut) in shop-app", logged)
	}
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	memories, _ := filepath.Glob(s.path(".claude/projects/-home-ana-src-shop-app/memory/*.md"))
	found := false
	for _, m := range memories {
		b, _ := os.ReadFile(m)
		found = found || filepath.Base(m) != "MEMORY.md" && strings.Contains(string(b), "testdata/golden") && strings.Contains(string(b), old)
	}
	if !found {
		t.Errorf("no memory of the logged session's lesson in %q", memories)
	}
}
