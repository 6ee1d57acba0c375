package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// oldMemory is a topic file a pass wrote (it names its session) long ago.
func oldMemory(name, description string) string {
	return "---\nname: " + name + "\ndescription: " + description + "\ntype: project\ncreated: 1990-01-02\nupdated: 1990-01-02\n" +
		"learnt: 1990-01-01\nsources: [claude:0000aaaa-0000-4000-8000-000000000000]\n---\n" + description + ".\n"
}

// TestUnusedMemoryAgesOut, through the binary: with prune.unused_days, a memory nobody used for
// that long is retired (archived, reason unused) while the one an agent read (a Read tool call of
// its topic file in a session) and the one recall returned stay; memories shows when each was used.
func TestUnusedMemoryAgesOut(t *testing.T) {
	s := newSandbox(t, offlineConfig+"prune: {unused_days: 3650}\n")
	shop := s.path("src/shop")
	slug := projectSlug(shop)
	dir := ".claude/projects/" + slug + "/memory/"
	s.write(dir+"deploy-steps.md", oldMemory("deploy-steps", "Deploy with make release then tag the commit"))
	s.write(dir+"db-url.md", oldMemory("db-url", "The staging database listens on port 6543"))
	s.write(dir+"old-port.md", oldMemory("old-port", "The legacy admin panel is served on port 8081"))

	// recall returns db-url: used today.
	if out, errOut, code := s.run("recall", "staging database", "--project", shop, "--limit", "1"); code != 0 || !strings.Contains(out, "db-url") {
		t.Fatalf("recall: exit %d\n%s\n%s", code, out, errOut)
	}
	// A session reads deploy-steps' file.
	const id = "bbbb2222-0000-4000-8000-000000000002"
	read := `{"type":"assistant","uuid":"` + id + `r","sessionId":"` + id + `","cwd":"` + shop + `","timestamp":"2026-11-20T10:00:03.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"` + s.path(dir+"deploy-steps.md") + `"}}]}}` + "\n"
	sess := claudeSession(id, shop, "How do we ship this?")
	first, rest, _ := strings.Cut(sess, "\n")
	s.write(".claude/projects/"+slug+"/"+id+".jsonl", first+"\n"+read+rest)

	out, errOut, code := s.run("run", "--once", "--format", "json")
	if code != 0 {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, `"reason": "unused"`) {
		t.Errorf("the run's report names no unused retirement:\n%s", out)
	}
	for name, want := range map[string]bool{"deploy-steps": true, "db-url": true, "old-port": false} {
		if _, err := os.Stat(s.path(dir + name + ".md")); (err == nil) != want {
			t.Errorf("%s kept: %v, want %v", name, err == nil, want)
		}
	}

	out, errOut, code = s.run("memories", "--project", shop, "--format", "json")
	if code != 0 {
		t.Fatalf("memories: exit %d\n%s\n%s", code, out, errOut)
	}
	var mems memoriesReport
	if err := json.Unmarshal([]byte(out), &mems); err != nil || len(mems.Stores) != 1 {
		t.Fatalf("memories JSON: %v\n%s", err, out)
	}
	used := map[string]string{}
	for _, m := range mems.Stores[0].Memories {
		used[m.Name] = m.LastUsed
	}
	if used["deploy-steps"] != "2026-11-20" || used["db-url"] == "" {
		t.Errorf("last used %v: want deploy-steps on its session's day, db-url on recall's", used)
	}
	if out, _, _ := s.run("memories", "--project", shop); !strings.Contains(out, "LAST USED") || !strings.Contains(out, "2026-11-20") {
		t.Errorf("memories text:\n%s", out)
	}
}
