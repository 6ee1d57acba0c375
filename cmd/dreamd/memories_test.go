package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeSessionOn is claudeSession on another day.
func claudeSessionOn(day, id, dir, text string) string {
	return strings.ReplaceAll(claudeSession(id, dir, text), "2026-11-20T", day+"T")
}

// TestMemoriesRetaughtStaleAndPin, through the binary: a rule taught in one session and taught
// again in a later one is reported as re-taught with that session (run report, memories, status of
// the front matter); a make target the memory names that is then removed marks it stale; pin
// pins it as a run of its own, which rollback undoes.
func TestMemoriesRetaughtStaleAndPin(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	shop := s.path("src/shop")
	s.write("src/shop/Makefile", "lint:\n\tgolangci-lint run\n")
	slug := projectSlug(shop)
	s.write(".claude/projects/"+slug+"/aaaa1111-0000-4000-8000-000000000001.jsonl",
		claudeSessionOn("2026-11-02", "aaaa1111-0000-4000-8000-000000000001", shop, "From now on, always run `make lint` before you commit."))
	if out, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}
	s.write(".claude/projects/"+slug+"/cccc3333-0000-4000-8000-000000000003.jsonl",
		claudeSessionOn("2026-11-18", "cccc3333-0000-4000-8000-000000000003", shop, "Always run `make lint` before you commit."))
	s.write("src/shop/Makefile", "test:\n\tgo test ./...\n")
	out, errOut, code := s.run("run", "--once", "--format", "json")
	if code != 0 {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out, errOut)
	}
	var run struct {
		Stores []struct {
			Plan struct {
				Counts   struct{ Retaught int }
				Retaught []struct {
					Name     string
					Sessions []string
					Learnt   string
				}
				Stale []struct{ Name, Why string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &run); err != nil || len(run.Stores) != 1 {
		t.Fatalf("run JSON: %v\n%s", err, out)
	}
	p := run.Stores[0].Plan
	if p.Counts.Retaught != 1 || len(p.Retaught) != 1 || p.Retaught[0].Learnt != "2026-11-02" ||
		strings.Join(p.Retaught[0].Sessions, ",") != "claude:cccc3333-0000-4000-8000-000000000003" {
		t.Errorf("re-taught in the run's report: %+v", p)
	}
	if len(p.Stale) != 1 || !strings.Contains(p.Stale[0].Why, `Makefile has no target "lint"`) {
		t.Errorf("stale in the run's report: %+v", p.Stale)
	}
	name := p.Retaught[0].Name
	// Agents see it where they read memory: the index line, recall (and MCP), the preamble.
	index, _ := os.ReadFile(s.path(".claude/projects/" + slug + "/memory/MEMORY.md"))
	if !strings.Contains(string(index), "("+name+".md) — [may be stale] ") {
		t.Errorf("index line not marked:\n%s", index)
	}
	if out, _, _ := s.run("recall", "lint", "--project", shop, "--format", "json"); !strings.Contains(out, `"description": "[may be stale] `) {
		t.Errorf("recall does not mark it:\n%s", out)
	}
	if out, _, _ := s.run("preamble", "--project", shop); !strings.Contains(out, "[may be stale] ") {
		t.Errorf("preamble does not mark it:\n%s", out)
	}

	out, errOut, code = s.run("memories", "--project", shop, "--format", "json")
	if code != 0 {
		t.Fatalf("memories: exit %d\n%s\n%s", code, out, errOut)
	}
	var mems memoriesReport
	if err := json.Unmarshal([]byte(out), &mems); err != nil || len(mems.Stores) != 1 {
		t.Fatalf("memories JSON: %v\n%s", err, out)
	}
	var got *memoryView
	for i, m := range mems.Stores[0].Memories {
		if m.Name == name {
			got = &mems.Stores[0].Memories[i]
		}
	}
	if got == nil || got.Learnt != "2026-11-02" || got.Confirmed != "2026-11-18" || got.Retaught != 1 ||
		got.LastRetaught != "claude:cccc3333-0000-4000-8000-000000000003@2026-11-18" || !strings.Contains(got.Stale, "lint") {
		t.Errorf("memories shows %+v", got)
	}
	if mems.Stores[0].Summary.Retaught != 1 || mems.Stores[0].Summary.Stale != 1 {
		t.Errorf("summary %+v", mems.Stores[0].Summary)
	}
	if out, _, code := s.run("memories"); code != 0 || !strings.Contains(out, name) || !strings.Contains(out, "1 re-taught") {
		t.Errorf("memories text (exit %d):\n%s", code, out)
	}

	out, errOut, code = s.run("pin", name, "--format", "json")
	if code != 0 {
		t.Fatalf("pin: exit %d\n%s\n%s", code, out, errOut)
	}
	var pinned pinResult
	if err := json.Unmarshal([]byte(out), &pinned); err != nil || !pinned.Pinned || pinned.Run == "" {
		t.Fatalf("pin JSON: %v\n%s", err, out)
	}
	topic := filepath.Join(s.path(".claude/projects/"+slug+"/memory"), name+".md")
	b, _ := os.ReadFile(topic)
	if !strings.Contains(string(b), "\npinned: true\n") || !strings.Contains(string(b), "\nretaught: [claude:cccc3333-0000-4000-8000-000000000003@2026-11-18]\n") {
		t.Errorf("pinned topic file:\n%s", b)
	}
	if out, _, code := s.run("pin", name); code != 0 || !strings.Contains(out, "already") {
		t.Errorf("pinning again (exit %d): %s", code, out)
	}
	if _, errOut, code := s.run("pin", "no-such-memory"); code != 2 || !strings.Contains(errOut, "no memory") {
		t.Errorf("pin of an unknown memory: exit %d, %s", code, errOut)
	}
	if out, errOut, code := s.run("rollback", pinned.Run); code != 0 {
		t.Fatalf("rollback of the pin: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(topic); strings.Contains(string(b), "pinned") {
		t.Errorf("rollback left the pin:\n%s", b)
	}
}
