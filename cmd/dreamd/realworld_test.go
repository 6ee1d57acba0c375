package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// Shapes of real transcripts (derived from public Claude Code and Codex CLI sessions): a custom
// slash command logged with its expanded prompt file, a skill expansion (isMeta), a reminder,
// and a Codex review sub-thread.
const (
	claudeCommand = `{"type":"user","uuid":"c1","sessionId":"cccc3333-0000-4000-8000-000000000003","cwd":"/home/ana/shop","timestamp":"2026-11-19T09:00:00Z","message":{"role":"user","content":"<command-message>speckit.plan is running…</command-message>\n<command-name>/speckit.plan</command-name>\n<command-args>add SSO login</command-args>\n\n# Plan\n\nYou are an expert planner. Always write the tests first. Never skip the constitution check."}}
{"type":"user","uuid":"c2","isMeta":true,"sessionId":"cccc3333-0000-4000-8000-000000000003","cwd":"/home/ana/shop","timestamp":"2026-11-19T09:00:01Z","message":{"role":"user","content":[{"type":"text","text":"Base directory for this skill: /home/ana/.claude/skills/plan\n\nRemember that every plan needs a rollback section."}]}}
{"type":"user","uuid":"c3","sessionId":"cccc3333-0000-4000-8000-000000000003","cwd":"/home/ana/shop","timestamp":"2026-11-19T09:01:00Z","message":{"role":"user","content":"From now on keep the SSO secrets in Vault, not in .env files.\n<system-reminder>Remember that the todo list is empty.</system-reminder>"}}
`
	codexReview = `{"timestamp":"2026-11-19T10:00:00.000Z","type":"session_meta","payload":{"id":"019a9100-0000-7000-8000-000000000009","timestamp":"2026-11-19T10:00:00.000Z","cwd":"/home/ana/shop","originator":"codex_cli_rs","cli_version":"0.60.0","source":{"subagent":"review"}}}
{"timestamp":"2026-11-19T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Remember that reviews must flag every TODO."}]}}
`
)

// TestWhoSaidWhat: the request a model gets holds only the person's words as user turns — the
// command they typed, not its template; no skill expansion, no reminder — and a Codex review
// sub-thread is listed as skipped, not read, and creates nothing.
func TestWhoSaidWhat(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Nothing.")} }
	defer srv.Close()
	s := newSandbox(t, strings.Replace(llmConfig(srv.BaseURL()), "sources:\n", "sources:\n  - {kind: codex, path: ~/.codex/sessions}\n", 1))
	s.write(".claude/projects/-home-ana-shop/cccc3333-0000-4000-8000-000000000003.jsonl", claudeCommand)
	s.write(".codex/sessions/2026/11/19/rollout-2026-11-19T10-00-00-019a9100-0000-7000-8000-000000000009.jsonl", codexReview)

	out, errOut, code := s.run("sessions", "--json")
	var rep struct {
		Sessions []struct {
			Kind  string
			Turns struct{ User, Cut int }
		}
		Skipped []struct{ Path, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("sessions: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if len(rep.Sessions) != 1 || rep.Sessions[0].Turns.User != 2 || rep.Sessions[0].Turns.Cut != 1 {
		t.Errorf("sessions = %+v, want one claude session: 2 user turns, 1 record cut", rep.Sessions)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "sub-thread") {
		t.Errorf("skipped = %+v, want the review thread", rep.Skipped)
	}

	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	user := reqs[0].User()
	for _, notTheirs := range []string{"expert planner", "rollback section", "todo list is empty", "flag every TODO"} {
		if strings.Contains(user, notTheirs) {
			t.Errorf("text the person did not type reached the model as theirs: %q", notTheirs)
		}
	}
	for _, theirs := range []string{"user: /speckit.plan add SSO login", "user: From now on keep the SSO secrets in Vault"} {
		if !strings.Contains(user, theirs) {
			t.Errorf("the person's words are missing: %q\n%s", theirs, user)
		}
	}
	if _, err := os.Stat(s.path(".local/state/dreamd/stores")); err == nil {
		entries, _ := os.ReadDir(s.path(".local/state/dreamd/stores"))
		for _, e := range entries {
			if strings.Contains(e.Name(), "019a9100") {
				t.Errorf("the sub-thread got state: %s", e.Name())
			}
		}
	}
}

// TestGeminiProjectFromItsHash: a legacy Gemini CLI session that records only its project's hash
// goes to the store of the project another agent's session names; one whose hash matches no
// known project is listed as skipped with how to fix it.
func TestGeminiProjectFromItsHash(t *testing.T) {
	s := newSandbox(t, `
sources:
  - {kind: claude, path: ~/.claude/projects}
  - {kind: gemini, path: ~/.gemini/tmp}
llm: {offline: true}
`)
	s.write(sessionAPath, sessionA) // cwd /home/ana/shop
	sum := sha256.Sum256([]byte("/home/ana/shop"))
	legacy := `{"sessionId": "gem-1", "projectHash": "` + hex.EncodeToString(sum[:]) + `", "startTime": "2026-11-19T08:00:00.000Z",
  "messages": [{"id": "m1", "timestamp": "2026-11-19T08:00:01.000Z", "type": "user", "content": "Remember that the staging database is read-only on Fridays.` + strings.Repeat(`\n`, 40) + `"}]}`
	s.write(".gemini/tmp/"+hex.EncodeToString(sum[:])+"/chats/session-2026-11-19T08-00-gem1.json", legacy)
	other := sha256.Sum256([]byte("/somewhere/else"))
	s.write(".gemini/tmp/"+hex.EncodeToString(other[:])+"/chats/session-2026-11-19T09-00-gem2.json", strings.Replace(legacy, hex.EncodeToString(sum[:]), hex.EncodeToString(other[:]), 1))

	out, errOut, code := s.run("sessions", "--json")
	var rep struct {
		Sessions []struct{ Kind, Store string }
		Skipped  []struct{ Path, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("sessions: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	routed := false
	for _, r := range rep.Sessions {
		routed = routed || r.Kind == "gemini" && strings.HasSuffix(r.Store, "-home-ana-shop/memory")
	}
	if !routed {
		t.Errorf("the Gemini session was not routed to the shop's store: %+v", rep.Sessions)
	}
	if len(rep.Skipped) != 1 || !strings.Contains(rep.Skipped[0].Reason, "matches no project") {
		t.Errorf("skipped = %+v, want the unknown hash with how to fix it", rep.Skipped)
	}
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	index, _ := os.ReadFile(s.path(shopStore + "/MEMORY.md"))
	if !strings.Contains(string(index), "read-only on Fridays") {
		t.Errorf("the Gemini lesson is not in the shop's memory:\n%s", index)
	}
}
