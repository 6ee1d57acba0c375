package main

import (
	"os"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

const codexMemories = `# Task Group: shop release
scope: releases of the shop
applies_to: cwd=/home/ana/shop; reuse_rule=safe for this repo

## Task 1: cut a release

### rollout_summary_files

- rollout_summaries/2026-11-02-release.md (cwd=/home/ana/shop, updated_at=2026-11-02T10:00:00+00:00, thread_id=019a)

## Reusable knowledge

- Releases are cut with make release, never by pushing a tag by hand.
`

const geminiWithBlock = `Use tabs.

## Gemini Added Memories
- The person's favourite shell is fish.

<!-- dreamd:begin dreamd user scope — managed by ` + "`dreamd link`" + `; edits inside are replaced -->
- dreamd's own block, never material.
<!-- dreamd:end dreamd user scope -->
`

// TestOtherAgentsMemoryIsMaterial runs passes against a scripted model in a temporary HOME where
// Codex and Gemini CLI keep memories of their own: Codex's lesson for the shop reaches the shop's
// pass and Gemini's save_memory fact the user store's, each as an assistant turn naming its
// origin and never as the person's words; dreamd's own linked block is not read back; the files
// are left as they were; a second pass sends nothing again, and a fact Gemini adds later is sent
// alone.
func TestOtherAgentsMemoryIsMaterial(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Nothing durable.")} }
	defer srv.Close()
	s := newSandbox(t, `
sources: []
llm: {base_url: "`+srv.BaseURL()+`", api_key: test-key, model: test-model, max_retries: 1, timeout: 10s}
`)
	s.write(".codex/memories/MEMORY.md", codexMemories)
	s.write(".gemini/GEMINI.md", geminiWithBlock)
	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	var shop, user string
	for _, r := range srv.Requests() {
		u := r.User()
		switch {
		case strings.Contains(u, "make release"):
			shop = u
		case strings.Contains(u, "fish"):
			user = u
		}
	}
	if !strings.Contains(shop, `project="/home/ana/shop"`) || !strings.Contains(shop, "assistant: From Codex's memories") {
		t.Errorf("Codex's lesson did not reach the shop's pass as an assistant turn naming its origin:\n%s", shop)
	}
	if !strings.Contains(user, "assistant: From Gemini CLI's save_memory") {
		t.Errorf("Gemini's fact did not reach the user store's pass as an assistant turn:\n%s", user)
	}
	for _, u := range []string{shop, user} {
		for line := range strings.Lines(u) {
			if strings.HasPrefix(line, "user:") && (strings.Contains(line, "make release") || strings.Contains(line, "fish")) {
				t.Errorf("another agent's memory presented as the person's words: %q", line)
			}
		}
		if strings.Contains(u, "dreamd's own block") || strings.Contains(u, "Use tabs") || strings.Contains(u, "rollout_summaries") {
			t.Errorf("more than the agent's memories was read:\n%s", u)
		}
	}
	if got := readFile(s.path(".gemini/GEMINI.md")); got != geminiWithBlock {
		t.Errorf("GEMINI.md changed:\n%s", got)
	}
	if got := readFile(s.path(".codex/memories/MEMORY.md")); got != codexMemories {
		t.Errorf("Codex's MEMORY.md changed:\n%s", got)
	}

	calls := len(srv.Requests())
	if out, errOut, code := s.run("run", "--once"); code != 0 || len(srv.Requests()) != calls {
		t.Fatalf("a pass with nothing new made calls (exit %d, %d → %d)\n%s%s", code, calls, len(srv.Requests()), out, errOut)
	}
	s.write(".gemini/GEMINI.md", strings.Replace(geminiWithBlock, "is fish.\n", "is fish.\n- Answers in French, always.\n", 1))
	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("third run: exit %d\n%s%s", code, out, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != calls+1 {
		t.Fatalf("%d calls after Gemini added a fact, want %d", len(reqs), calls+1)
	}
	if u := reqs[len(reqs)-1].User(); !strings.Contains(u, "French") || strings.Contains(u, "fish") {
		t.Errorf("the new call must carry only the new fact:\n%s", u)
	}
}

func readFile(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}
