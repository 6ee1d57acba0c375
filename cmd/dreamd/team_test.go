package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
)

// TestTeamScopeOverGit: two machines (two HOMEs) share a bare repository as team store; each
// consolidates a different lesson, and after a second pass the shared branch holds both commits
// and both lessons, no secret from a session in any commit; a team rollback is a revert commit.
func TestTeamScopeOverGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bare := filepath.Join(t.TempDir(), "team.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	gitLog := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"--git-dir", bare}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	config := offlineConfig + "store:\n  team: {repo: " + bare + ", review: false}\n"
	token := "ghp_" + "9Zy8Xw7Vu6Ts5Rq4Po3Nm2Lk1Ji0HgFeDcBa"
	machines := []struct {
		s      *sandbox
		lesson string
	}{
		{newSandbox(t, config), "We deploy with ./deploy.sh since 2026-11-18, never make deploy. The staging token is " + token + "."},
		{newSandbox(t, config), "We keep our test fixtures in testdata/golden."},
	}
	for i, m := range machines {
		dir := m.s.path("src/shop")
		id := []string{"33333333-3333-4333-8333-333333333333", "44444444-4444-4444-8444-444444444444"}[i]
		m.s.write(".claude/projects/"+projectSlug(dir)+"/"+id+".jsonl", claudeSession(id, dir, m.lesson))
		if out, errOut, code := m.s.run("run", "--once"); code != 0 {
			t.Fatalf("machine %d: run exit %d\n%s%s", i, code, out, errOut)
		}
	}
	if out, errOut, code := machines[0].s.run("run", "--once"); code != 0 {
		t.Fatalf("second pass: exit %d\n%s%s", code, out, errOut)
	}

	commits := strings.Fields(gitLog("log", "--format=%H", "main"))
	if len(commits) != 2 {
		t.Fatalf("main has %d commits, want one per machine:\n%s", len(commits), gitLog("log", "--stat", "main"))
	}
	files := gitLog("ls-tree", "-r", "--name-only", "main")
	if strings.Contains(files, ".consolidate-lock") {
		t.Errorf("the store's lock file was committed:\n%s", files)
	}
	var all strings.Builder
	for _, f := range strings.Fields(files) {
		all.WriteString(gitLog("show", "main:"+f))
	}
	for _, want := range []string{"deploy.sh", "testdata/golden"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the team store on main lacks %q:\n%s", want, all.String())
		}
	}
	index := gitLog("show", "main:memory/MEMORY.md")
	if strings.Count(index, "](") != 2 {
		t.Errorf("the shared index lists %d memories, want both:\n%s", strings.Count(index, "]("), index)
	}
	if history := gitLog("log", "-p", "--all"); strings.Contains(history, token) {
		t.Error("a secret from a session reached a commit")
	}
	if msg := gitLog("log", "-1", "--format=%B", commits[1]); !strings.Contains(msg, "evidence: ") || strings.Contains(msg, "deploy.sh") {
		t.Errorf("a commit message must list operations and evidence, never transcript text:\n%s", msg)
	}

	a := machines[0].s
	teamDir := a.path(".local/state/dreamd/team/" + projectSlug(bare) + "/memory")
	out, _, code := a.run("history", "--store", teamDir, "--format", "json")
	var hist struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &hist); code != 0 || err != nil || len(hist.Runs) == 0 {
		t.Fatalf("history of the team store: exit %d, %v\n%s", code, err, out)
	}
	if out, errOut, code := a.run("rollback", hist.Runs[len(hist.Runs)-1].RunID, "--store", teamDir, "--force"); code != 0 {
		t.Fatalf("team rollback: exit %d\n%s%s", code, out, errOut)
	}
	if msg := gitLog("log", "-1", "--format=%s%n%b", "main"); !strings.HasPrefix(msg, "Revert ") || !strings.Contains(msg, "This reverts commit") {
		t.Errorf("a team rollback must be a revert commit on the branch, got:\n%s", msg)
	}
}

// TestTeamRepositoryUnreachable: with the team's repository out of reach on the first pass,
// nothing is lost: the pass keeps team memories in the project's store and says why.
func TestTeamRepositoryUnreachable(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	s := newSandbox(t, offlineConfig+"store:\n  team: {repo: "+filepath.Join(t.TempDir(), "missing.git")+", review: false}\n")
	id := "55555555-5555-4555-8555-555555555556"
	s.write(".claude/projects/"+projectSlug(s.path("src/shop"))+"/"+id+".jsonl", claudeSession(id, s.path("src/shop"), "We keep our test fixtures in testdata/golden."))
	out, errOut, code := s.run("run", "--once")
	if code != 0 || !strings.Contains(errOut, "team repository unreachable") {
		t.Fatalf("run: exit %d\n%s%s", code, out, errOut)
	}
	project := strings.Join(values(snapshot(t, s.path(".claude/projects/"+projectSlug(s.path("src/shop"))+"/memory"))), "\n")
	if !strings.Contains(project, "testdata/golden") {
		t.Errorf("the lesson is in no store:\n%s", out)
	}
}

// TestTeamMessage: a team commit lists operations by name with their evidence, counts right, and
// holds no text of a memory.
func TestTeamMessage(t *testing.T) {
	p := &phases.Plan{RunID: "20261125T100000Z-abc123", Consolidator: "offline", Counts: phases.Counts{Sessions: 3, Created: 1},
		Operations: []extract.Operation{{Action: extract.Create, Name: "deploy-rule", Type: memory.Project, Description: "Deploy with ./deploy.sh", Body: "secret-ish body", Evidence: []string{"s1", "s2"}}}}
	msg := teamMessage(p)
	for _, want := range []string{"dreamd: 1 created, 0 updated, 0 retired (run 20261125T100000Z-abc123)", "create deploy-rule (project); evidence: s1, s2", "from 3 sessions."} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "deploy.sh") || strings.Contains(msg, "body") {
		t.Errorf("message holds memory text:\n%s", msg)
	}
}
