package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

const sessionBPath = ".claude/projects/-home-ana-shop/bbbb2222-0000-4000-8000-000000000002.jsonl"

// mixedOps is a plan's answer with three creates and a delete: lint-before-commit and
// deploy-with-deploy-sh are good, laptop-deploys (drawn from session B alone) and the delete of
// old-notes are what a reviewer rejects.
func mixedOps() string {
	a, b := "aaaa1111-0000-4000-8000-000000000001", "bbbb2222-0000-4000-8000-000000000002"
	return llmtest.Ops("Three lessons, one stale note.",
		map[string]any{"action": "create", "name": "deploy-with-deploy-sh", "type": "project", "description": "Deploys go through ./deploy.sh", "body": "Deploys run through ./deploy.sh.", "reason": "said", "evidence": []string{a}},
		map[string]any{"action": "create", "name": "lint-before-commit", "type": "feedback", "description": "Run make lint before every commit", "body": "Run make lint before every commit.", "reason": "said", "evidence": []string{a}},
		map[string]any{"action": "create", "name": "laptop-deploys", "type": "project", "description": "Deploy by hand from a laptop", "body": "Deploy by hand from a laptop.", "reason": "guessed", "evidence": []string{b}},
		map[string]any{"action": "delete", "name": "old-notes", "reason": "looks unused", "evidence": []string{a}},
	)
}

// memoryFiles is snapshot without the store's lock file, which the first pass creates.
func memoryFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := snapshot(t, dir)
	delete(files, filepath.Join(dir, ".consolidate-lock"))
	return files
}

// TestApplyOnlySkipThroughTheBinary: a saved plan of three creates and a delete is applied in
// part with --skip: an unknown name is a usage error listing the plan's operations, --dry-run
// writes nothing, the apply writes exactly the accepted operations' files, the history shows the
// partial run, and rollback restores the store byte for byte.
func TestApplyOnlySkipThroughTheBinary(t *testing.T) {
	srv := llmtest.New(llmtest.Reply{Content: mixedOps()})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	for _, name := range []string{"old-notes", "style", "build", "team"} {
		s.write(shopStore+"/"+name+".md", "---\nname: "+name+"\ndescription: About "+name+"\ntype: project\n---\nSomething about "+name+".\n")
	}
	s.write(sessionAPath, sessionA)
	s.write(sessionBPath, sessionB)
	mem := s.path(shopStore)
	before := memoryFiles(t, mem)
	plan := s.path("plan.json")
	mustRun(t, s, "plan", "-o", plan)

	_, errOut, code := s.run("apply", plan, "--skip", "laptop")
	if code != exitUsage || !strings.Contains(errOut, "deploy-with-deploy-sh, laptop-deploys, lint-before-commit, old-notes") {
		t.Fatalf("unknown operation: exit %d, %s", code, errOut)
	}
	out := mustRun(t, s, "apply", plan, "--skip", "laptop-deploys,old-notes", "--dry-run")
	if !strings.Contains(out, "would apply") || !strings.Contains(out, "lint-before-commit.md") || strings.Contains(out, "laptop-deploys.md") {
		t.Errorf("dry run: %s", out)
	}
	if !reflect.DeepEqual(memoryFiles(t, mem), before) {
		t.Fatal("--dry-run wrote the store")
	}

	mustRun(t, s, "apply", plan, "--skip", "laptop-deploys", "--skip", "old-notes")
	after := memoryFiles(t, mem)
	var names []string
	for p := range after {
		names = append(names, filepath.Base(p))
	}
	slices.Sort(names)
	want := []string{"MEMORY.md", "build.md", "deploy-with-deploy-sh.md", "lint-before-commit.md", "old-notes.md", "style.md", "team.md"}
	if !slices.Equal(names, want) {
		t.Fatalf("store after the partial apply: %v, want %v", names, want)
	}
	for _, name := range []string{"old-notes.md", "style.md"} {
		if after[filepath.Join(mem, name)] != before[filepath.Join(mem, name)] {
			t.Errorf("%s changed", name)
		}
	}
	index := after[filepath.Join(mem, "MEMORY.md")]
	for _, line := range []string{"[lint-before-commit](lint-before-commit.md)", "[deploy-with-deploy-sh](deploy-with-deploy-sh.md)", "[old-notes](old-notes.md)"} {
		if !strings.Contains(index, line) {
			t.Errorf("index lacks %s:\n%s", line, index)
		}
	}
	if strings.Contains(index, "laptop-deploys") {
		t.Errorf("index names the rejected memory:\n%s", index)
	}

	var h struct {
		Runs []struct {
			RunID string `json:"run_id"`
			Meta  struct {
				Summary string `json:"summary"`
				PlanMAC string `json:"plan_mac"`
			} `json:"meta"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, s, "history", "--json")), &h); err != nil || len(h.Runs) != 1 {
		t.Fatalf("history: %v %+v", err, h)
	}
	if m := h.Runs[0].Meta; !strings.Contains(m.Summary, "2 of 4 operations accepted; rejected: laptop-deploys, old-notes") || len(m.PlanMAC) != 64 {
		t.Errorf("history meta %+v does not show the signed partial apply", m)
	}
	if _, _, code := s.run("apply", plan); code == 0 {
		t.Error("a plan applied in part was applied again whole")
	}
	mustRun(t, s, "rollback", h.Runs[0].RunID)
	if got := memoryFiles(t, mem); !maps.Equal(got, before) {
		t.Errorf("rollback did not restore the store:\n got %v\nwant %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)))
	}
}

// runWithInput runs dreamd in the sandbox with stdin from input.
func (s *sandbox) runWithInput(input string, args ...string) (string, string, int) {
	s.t.Helper()
	args = append([]string{"--config", s.config}, args...)
	cmd := exec.Command(binary, args...)
	cmd.Env, cmd.Dir, cmd.Stdin = s.env, s.home, strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), errb.String(), ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), errb.String(), 0
}

// TestReviewKeysFromStdin: `dreamd review` shows each operation (its reason, evidence with the
// session's day, its diff) and applies what the keys accepted, as --skip would: q applies nothing,
// an unknown key is asked again.
func TestReviewKeysFromStdin(t *testing.T) {
	srv := llmtest.New(llmtest.Reply{Content: mixedOps()})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	for _, name := range []string{"old-notes", "style", "build", "team"} {
		s.write(shopStore+"/"+name+".md", "---\nname: "+name+"\ndescription: About "+name+"\ntype: project\n---\nSomething about "+name+".\n")
	}
	s.write(sessionAPath, sessionA)
	s.write(sessionBPath, sessionB)
	mem := s.path(shopStore)
	before := memoryFiles(t, mem)
	plan := s.path("plan.json")
	mustRun(t, s, "plan", "-o", plan)

	// Operations come sorted by name: deploy-with-deploy-sh, laptop-deploys, lint-before-commit, old-notes.
	if _, errOut, code := s.runWithInput("a\nq\n", "review", plan); code != 0 || !strings.Contains(errOut, "nothing applied") {
		t.Fatalf("quit: exit %d\n%s", code, errOut)
	}
	if !reflect.DeepEqual(memoryFiles(t, mem), before) {
		t.Fatal("quitting the review wrote the store")
	}
	out, errOut, code := s.runWithInput("a\nr\nx\na\nr\n", "review", plan)
	if code != 0 {
		t.Fatalf("review: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"[2/4] laptop-deploys", "reason: guessed", "evidence: bbbb2222-0000-4000-8000-000000000002 2026-11-20",
		"+++ b/lint-before-commit.md", "delete old-notes",
		"“Remember that deploys go through ./deploy.sh, which refuses a dirty git tree.” (claude:aaaa1111-0000-4000-8000-000000000001, turn 0, 2026-11-18)", "accept this operation? [a]ccept, [r]eject, [e]dit, [q]uit: accept this operation?",
		"review: 2 of 4 operations accepted, rejected: laptop-deploys, old-notes; applying"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("review shows no %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, "applied plan") {
		t.Errorf("stdout: %s", out)
	}
	after := memoryFiles(t, mem)
	if after[filepath.Join(mem, "laptop-deploys.md")] != "" || after[filepath.Join(mem, "lint-before-commit.md")] == "" ||
		after[filepath.Join(mem, "old-notes.md")] != before[filepath.Join(mem, "old-notes.md")] {
		t.Errorf("store after the review: %v", slices.Sorted(maps.Keys(after)))
	}
}

// TestApplySelectionMistakesAreUsageErrors: a selection the plan cannot take is the command line's
// mistake (exit 2, naming it), never the whole plan applied nor a safety guard's refusal (exit 4):
// --only "" (a script's empty list of accepted operations) must not select everything.
func TestApplySelectionMistakesAreUsageErrors(t *testing.T) {
	srv := llmtest.New(llmtest.Reply{Content: mixedOps()})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(shopStore+"/old-notes.md", "---\nname: old-notes\ndescription: About old notes\ntype: project\n---\nSomething old.\n")
	s.write(sessionAPath, sessionA)
	s.write(sessionBPath, sessionB)
	s.write("lint.md", "---\nname: lint-before-commit\ntype: feedback\ndescription: Run make lint first\n---\nRun make lint before every commit.\n")
	s.write("notes.md", "---\nname: old-notes\ntype: project\ndescription: Old notes\n---\nKept.\n")
	mem := s.path(shopStore)
	before := memoryFiles(t, mem)
	plan := s.path("plan.json")
	mustRun(t, s, "plan", "-o", plan)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"an empty --only", []string{"--only", ""}, "--only names no operation"},
		{"an edit --only leaves out", []string{"--only", "deploy-with-deploy-sh", "--edit", "lint-before-commit=" + s.path("lint.md")}, "lint-before-commit is both edited and rejected"},
		{"an edit of a skipped operation", []string{"--skip", "lint-before-commit", "--edit", "lint-before-commit=" + s.path("lint.md")}, "name it in --only too, not in --skip"},
		{"an edit of a deletion", []string{"--edit", "old-notes=" + s.path("notes.md")}, "delete old-notes writes no text to edit"},
		{"a name no operation has", []string{"--only", "lint"}, "the plan has no operation on \"lint\""},
		{"a name accepted and rejected", []string{"--only", "lint-before-commit,old-notes", "--skip", "old-notes"}, "--only and --skip both name \"old-notes\""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, code := s.run(append([]string{"apply", plan}, c.args...)...)
			if code != exitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, %s; want exit %d saying %q", code, errOut, exitUsage, c.want)
			}
			if strings.Contains(errOut, "safety guard") {
				t.Errorf("a mistake on the command line is called a guard's refusal: %s", errOut)
			}
		})
	}
	if !reflect.DeepEqual(memoryFiles(t, mem), before) {
		t.Fatal("a refused selection wrote the store")
	}
	mustRun(t, s, "apply", plan, "--only", "lint-before-commit", "--edit", "lint-before-commit="+s.path("lint.md"))
}
