package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/slug"
)

// claudeSession is a Claude Code transcript of project dir in which the person says text.
func claudeSession(id, dir, text string) string {
	return `{"type":"user","uuid":"` + id + `u","sessionId":"` + id + `","cwd":"` + dir + `","timestamp":"2026-11-20T10:00:00.000Z","message":{"role":"user","content":"` + text + `"}}
{"type":"assistant","uuid":"` + id + `a","sessionId":"` + id + `","cwd":"` + dir + `","timestamp":"2026-11-20T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Noted."}]}}
`
}

// TestUserScopeEndToEnd: a preference the person states for every project, taught in two
// projects, becomes one memory of the user store, in neither project's store; Claude Code loads
// it through ~/.claude/CLAUDE.md once linked, Codex through its project link; unlink puts
// CLAUDE.md back byte for byte; history and rollback work for the user store like any other.
func TestUserScopeEndToEnd(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	shop, blog := s.path("src/shop"), s.path("src/blog")
	s.write(".claude/CLAUDE.md", "# My own notes\n\nBe kind.\n")
	before, _ := os.ReadFile(s.path(".claude/CLAUDE.md"))
	// Each transcript sits in the folder Claude Code files it in, named after its project.
	s.write(".claude/projects/"+projectSlug(shop)+"/11111111-1111-4111-8111-111111111111.jsonl",
		claudeSession("11111111-1111-4111-8111-111111111111", shop, "I'm a data engineer and new to Go. Always run make lint before committing in this repo."))
	s.write(".claude/projects/"+projectSlug(blog)+"/22222222-2222-4222-8222-222222222222.jsonl",
		claudeSession("22222222-2222-4222-8222-222222222222", blog, "I'm a data engineer and new to Go."))

	out, errOut, code := s.run("run", "--once")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	userStore := s.path(".local/share/dreamd/user")
	user := snapshot(t, userStore)
	var topics []string
	for path, content := range user {
		if base := filepath.Base(path); base != "MEMORY.md" && !strings.HasPrefix(base, ".") {
			topics = append(topics, content)
		}
	}
	if len(topics) != 1 || !strings.Contains(strings.ToLower(topics[0]), "new to go") {
		t.Fatalf("user store: %d memories, want the one about the person:\n%v\n%s", len(topics), user, out)
	}
	for _, p := range []string{shop, blog} {
		for path, content := range snapshot(t, s.path(".claude/projects/"+projectSlug(p)+"/memory")) {
			if strings.Contains(strings.ToLower(content), "new to go") {
				t.Errorf("%s keeps the user-scope memory", path)
			}
		}
	}
	shopAll := strings.Join(values(snapshot(t, s.path(".claude/projects/"+projectSlug(shop)+"/memory"))), "\n")
	if !strings.Contains(shopAll, "make lint") {
		t.Errorf("the shop's own lesson is not in its store:\n%s", shopAll)
	}
	if !strings.Contains(out, "sent to the user store") {
		t.Errorf("the report does not say what went to the user store:\n%s", out)
	}

	if out, errOut, code := s.run("link", "claude", "--user"); code != 0 {
		t.Fatalf("link claude --user: exit %d\n%s%s", code, out, errOut)
	}
	claudeMD, _ := os.ReadFile(s.path(".claude/CLAUDE.md"))
	if !strings.Contains(string(claudeMD), "@"+filepath.Join(userStore, "MEMORY.md")) || !strings.HasPrefix(string(claudeMD), string(before)) {
		t.Errorf("CLAUDE.md does not import the user store after the person's own text:\n%s", claudeMD)
	}
	if out, errOut, code := s.run("link", "codex", "--project", shop); code != 0 {
		t.Fatalf("link codex: exit %d\n%s%s", code, out, errOut)
	}
	if agents, _ := os.ReadFile(filepath.Join(shop, "AGENTS.md")); !strings.Contains(strings.ToLower(string(agents)), "new to go") || !strings.Contains(string(agents), "make lint") {
		t.Errorf("Codex's block lacks the user store's or the project's memories:\n%s", agents)
	}

	out, _, code = s.run("history", "--store", userStore, "--format", "json")
	var hist struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &hist); code != 0 || err != nil || len(hist.Runs) != 1 {
		t.Fatalf("history of the user store: exit %d, %v\n%s", code, err, out)
	}
	if out, errOut, code := s.run("rollback", hist.Runs[0].RunID, "--store", userStore); code != 0 {
		t.Fatalf("rollback of the user store: exit %d\n%s%s", code, out, errOut)
	}
	for path := range snapshot(t, userStore) {
		if !strings.HasPrefix(filepath.Base(path), ".") {
			t.Errorf("the user store after rolling back its only run holds %s", path)
		}
	}

	if out, errOut, code := s.run("unlink", "claude", "--user"); code != 0 {
		t.Fatalf("unlink: exit %d\n%s%s", code, out, errOut)
	}
	if after, _ := os.ReadFile(s.path(".claude/CLAUDE.md")); string(after) != string(before) {
		t.Errorf("CLAUDE.md after unlink:\n%q\nwant\n%q", after, before)
	}
}

// projectSlug is Claude Code's directory name for a project path.
func projectSlug(dir string) string { return slug.Project(dir) }

// TestHistoryLimit: history lists the newest runs and says how many older ones it left out.
func TestHistoryLimit(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	for i, text := range []string{"Always run make lint before committing.", "Never push to main on Fridays."} {
		id := []string{"66666666-6666-4666-8666-666666666661", "66666666-6666-4666-8666-666666666662"}[i]
		s.write(".claude/projects/"+projectSlug(s.path("src/shop"))+"/"+id+".jsonl", claudeSession(id, s.path("src/shop"), text))
		if out, errOut, code := s.run("run", "--once"); code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", i, code, out, errOut)
		}
	}
	out, _, code := s.run("history", "--limit", "1", "--format", "json")
	var h struct {
		Runs    []struct{ RunID string } `json:"runs"`
		Omitted int                      `json:"omitted"`
	}
	if err := json.Unmarshal([]byte(out), &h); code != 0 || err != nil || len(h.Runs) != 1 || h.Omitted != 1 {
		t.Fatalf("history --limit 1: exit %d, %v: %+v\n%s", code, err, h, out)
	}
	if text, _, _ := s.run("history", "--limit", "1"); !strings.Contains(text, "\n1 older run not listed") {
		t.Errorf("the text does not say a run was left out:\n%s", text)
	}
	if text, _, _ := s.run("history", "--limit", "1", "--store", "nowhere"); strings.Contains(text, "not listed") {
		t.Errorf("an unknown store lists runs:\n%s", text)
	}
}

// TestUserNoteKeepsTheWholeLesson: a note remembered as the user's is sent to the user store by
// the project's pass and arrives whole. The project's pass shortens the memory's description to
// fit its index line ("…, keep…"); the note it sends must carry the body, not that fragment,
// which the user store's pass would keep as the lesson ("…, keep.") in place of the sentence.
func TestUserNoteKeepsTheWholeLesson(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	shop := s.path("src/shop")
	if err := os.MkdirAll(shop, 0o755); err != nil {
		t.Fatal(err)
	}
	const lesson = "Whenever you write documentation for me, keep the lines short and the paragraphs small: the person reads on a phone."
	if out, errOut, code := s.run("remember", "--type", "user", "--project", shop, "--now", lesson); code != 0 {
		t.Fatalf("remember --now: exit %d\n%s%s", code, out, errOut)
	}
	var topics []string
	for path, content := range snapshot(t, s.path(".local/share/dreamd/user")) {
		if base := filepath.Base(path); base != "MEMORY.md" && !strings.HasPrefix(base, ".") {
			topics = append(topics, content)
		}
	}
	if len(topics) != 1 || !strings.Contains(topics[0], lesson) {
		t.Fatalf("the user store does not hold the whole lesson %q:\n%s", lesson, strings.Join(topics, "\n---\n"))
	}
	if strings.Contains(topics[0], "keep.") {
		t.Errorf("the user store presents a cut description as a whole sentence:\n%s", topics[0])
	}
}
