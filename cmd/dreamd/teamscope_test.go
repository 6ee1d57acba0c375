package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// The team scope end to end, with a model: two machines (two HOMEs, two state directories) share
// one bare repository. The model of a project's pass sends each lesson to the team's store with
// evidence that names no session (empty, or an id that is not in the digest), as models do; the
// team store's pass, in the same run, consolidates the note it finds in its queue.

// lesson is what one machine's person teaches, and the memory the model makes of it.
type lesson struct {
	session, text, name, keyword string
	evidence                     []string // what the project's model cites for it
}

var teamLessons = []lesson{
	{"33333333-3333-4333-8333-333333333333", "We deploy with ./deploy.sh, never make deploy.", "deploy-rule", "deploy.sh", []string{}},
	{"44444444-4444-4444-8444-444444444444", "We keep our test fixtures in testdata/golden.", "fixtures-rule", "testdata/golden", []string{"no-such-session"}},
}

var noteID = regexp.MustCompile(`note-[0-9A-Za-z-]+`)

// teamModel answers a project's pass by sending every lesson it sees to the team's store (and a
// preference to the user's), and a scope store's pass by creating the memory its note holds.
func teamModel(t *testing.T) *llmtest.Server {
	srv := llmtest.New()
	srv.Respond = func(r llmtest.Request) llmtest.Reply {
		prompt := r.User()
		notes := noteID.FindAllString(prompt, -1)
		var ops []map[string]any
		for _, l := range teamLessons {
			if !strings.Contains(prompt, l.keyword) {
				continue
			}
			op := map[string]any{"action": "create", "name": l.name, "type": "project", "description": l.text, "body": l.text, "reason": "stated"}
			if len(notes) == 0 {
				op["scope"], op["evidence"] = "team", l.evidence
			} else {
				op["evidence"] = notes[:1]
			}
			ops = append(ops, op)
		}
		if strings.Contains(prompt, "tabs") {
			op := map[string]any{"action": "create", "name": "indent-with-tabs", "type": "user", "description": "Indents with tabs everywhere", "body": "Indents with tabs everywhere.", "reason": "stated"}
			if len(notes) == 0 {
				op["scope"], op["evidence"] = "user", []string{}
			} else {
				op["evidence"] = notes[:1]
			}
			ops = append(ops, op)
		}
		return llmtest.Reply{Content: llmtest.Ops("Sent what the team shares.", ops...)}
	}
	t.Cleanup(srv.Close)
	return srv
}

// teamRepo is a bare repository shared by the machines, read with git.
type teamRepo struct {
	t    *testing.T
	bare string
}

func newTeamRepo(t *testing.T) *teamRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	r := &teamRepo{t: t, bare: filepath.Join(t.TempDir(), "team.git")}
	r.git("init", "-q", "--bare", "-b", "main", r.bare)
	return r
}

func (r *teamRepo) git(args ...string) string {
	r.t.Helper()
	if args[0] != "init" {
		args = append([]string{"--git-dir", r.bare}, args...)
	}
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// tree is every file on a branch, concatenated.
func (r *teamRepo) tree(branch string) string {
	r.t.Helper()
	var all strings.Builder
	for _, f := range strings.Fields(r.git("ls-tree", "-r", "--name-only", branch)) {
		all.WriteString(r.git("show", branch+":"+f))
	}
	return all.String()
}

// machine is one person's HOME, with its lesson written as a Claude Code session of its project.
func teamMachine(t *testing.T, config string, l lesson) *sandbox {
	s := newSandbox(t, config)
	s.write(".claude/projects/"+projectSlug(s.path("src/shop"))+"/"+l.session+".jsonl", claudeSession(l.session, s.path("src/shop"), l.text))
	return s
}

func mustRun(t *testing.T, s *sandbox, args ...string) string {
	t.Helper()
	out, errOut, code := s.run(args...)
	if code != 0 {
		t.Fatalf("dreamd %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	}
	return out + errOut
}

// TestTeamLessonsArriveWhateverTheirEvidence: each machine's one pass lands its lesson on the
// shared branch, although the model named no session of the digest as its evidence; nothing waits
// in a queue, and the next pass has nothing to do.
func TestTeamLessonsArriveWhateverTheirEvidence(t *testing.T) {
	repo := newTeamRepo(t)
	config := llmConfig(teamModel(t).BaseURL()) + "store:\n  team: {repo: " + repo.bare + ", review: false}\n"
	for i, l := range teamLessons {
		s := teamMachine(t, config, l)
		mustRun(t, s, "run", "--once")
		if main := repo.tree("main"); !strings.Contains(main, l.keyword) {
			t.Fatalf("machine %d: its lesson is not on main after its pass:\n%s", i, main)
		}
		if queued, _ := filepath.Glob(s.path(".local/state/dreamd/team-notes/*")); len(queued) > 0 {
			if out := mustRun(t, s, "run", "--once"); !strings.Contains(out, "nothing new") || strings.Contains(out, "applied") {
				t.Errorf("machine %d: the pass after found work left over:\n%s", i, out)
			}
		}
	}
	main := repo.tree("main")
	for _, l := range teamLessons {
		if !strings.Contains(main, l.keyword) {
			t.Errorf("main lacks %q:\n%s", l.keyword, main)
		}
	}
	if n := len(strings.Fields(repo.git("log", "--format=%H", "main"))); n != 2 {
		t.Errorf("main has %d commits, want one per machine", n)
	}
}

// TestUserLessonWithoutEvidenceArrives: a memory the model sends to the user's store with no
// evidence is consolidated there in the same run, not left waiting as a note of no project.
func TestUserLessonWithoutEvidenceArrives(t *testing.T) {
	s := newSandbox(t, llmConfig(teamModel(t).BaseURL()))
	id := "55555555-5555-4555-8555-555555555555"
	s.write(".claude/projects/"+projectSlug(s.path("src/shop"))+"/"+id+".jsonl", claudeSession(id, s.path("src/shop"), "I indent with tabs everywhere."))
	out := mustRun(t, s, "run", "--once")
	user := strings.Join(values(snapshot(t, s.path(".local/share/dreamd/user"))), "\n")
	if !strings.Contains(user, "tabs") {
		t.Fatalf("the user store lacks the preference the project's pass sent it:\n%s\n%s", user, out)
	}
	if out := mustRun(t, s, "sessions"); strings.Contains(out, "no project yet") {
		t.Errorf("a note waits unrouted:\n%s", out)
	}
}

// TestTeamReviewBranch: with review: true both lessons land on review branches, not on main.
func TestTeamReviewBranch(t *testing.T) {
	repo := newTeamRepo(t)
	config := llmConfig(teamModel(t).BaseURL()) + "store:\n  team: {repo: " + repo.bare + ", review: true}\n"
	for _, l := range teamLessons {
		mustRun(t, teamMachine(t, config, l), "run", "--once")
	}
	var reviewed strings.Builder
	for _, b := range strings.Fields(repo.git("for-each-ref", "--format=%(refname:short)", "refs/heads/dreamd/")) {
		reviewed.WriteString(repo.tree(b))
	}
	for _, l := range teamLessons {
		if !strings.Contains(reviewed.String(), l.keyword) {
			t.Errorf("no review branch holds %q:\n%s", l.keyword, reviewed.String())
		}
	}
	if refs := repo.git("for-each-ref", "--format=%(refname:short)", "refs/heads/main"); strings.TrimSpace(refs) != "" && strings.Contains(repo.tree("main"), "deploy.sh") {
		t.Error("review: true pushed to main")
	}
}

// TestTeamPlanAppliedByHand: with apply: review, the project's plan applied by hand queues the
// lesson, the next pass leaves the team's plan for review, and `dreamd apply` of that plan commits
// and pushes it; rolling it back is a revert commit on the branch.
func TestTeamPlanAppliedByHand(t *testing.T) {
	repo := newTeamRepo(t)
	config := llmConfig(teamModel(t).BaseURL()) + "apply: review\nstore:\n  team: {repo: " + repo.bare + ", review: false}\n"
	s := teamMachine(t, config, teamLessons[0])
	teamDir := s.path(".local/state/dreamd/team/" + projectSlug(repo.bare) + "/memory")

	mustRun(t, s, "run", "--once")
	mustRun(t, s, "apply", pendingPlan(t, s, "project"))
	mustRun(t, s, "run", "--once")
	teamPlan := pendingPlan(t, s, "team")
	out := mustRun(t, s, "apply", teamPlan)
	if main := repo.tree("main"); !strings.Contains(main, "deploy.sh") {
		t.Fatalf("the applied team plan is not on main:\n%s\n%s", main, out)
	}
	if status := gitStatus(t, filepath.Dir(teamDir)); status != "" {
		t.Errorf("the clone has uncommitted changes after apply:\n%s", status)
	}

	var plan struct {
		RunID string `json:"run_id"`
	}
	data, err := os.ReadFile(teamPlan)
	if err == nil {
		err = json.Unmarshal(data, &plan)
	}
	if err != nil || plan.RunID == "" {
		// the plan file is gone once applied: take the run from the history instead
		plan.RunID = lastRun(t, s, teamDir)
	}
	mustRun(t, s, "rollback", plan.RunID, "--store", teamDir, "--force")
	if msg := repo.git("log", "-1", "--format=%s%n%b", "main"); !strings.HasPrefix(msg, "Revert ") {
		t.Errorf("the team rollback is not a revert commit on main:\n%s", msg)
	}
	if strings.Contains(repo.tree("main"), "deploy.sh") {
		t.Error("the rolled-back lesson is still on main")
	}
}

// pendingPlan is the plan waiting for review in the store of scope.
func pendingPlan(t *testing.T, s *sandbox, scope string) string {
	t.Helper()
	out := mustRun(t, s, "status", "--format", "json")
	var st struct {
		Stores []struct {
			Scope   string   `json:"scope"`
			Pending []string `json:"pending_plans"`
		} `json:"stores"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	for _, x := range st.Stores {
		if x.Scope == scope && len(x.Pending) > 0 {
			return x.Pending[len(x.Pending)-1]
		}
	}
	t.Fatalf("no plan waits for the %s store:\n%s", scope, out)
	return ""
}

func lastRun(t *testing.T, s *sandbox, store string) string {
	t.Helper()
	out := mustRun(t, s, "history", "--store", store, "--format", "json")
	var hist struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &hist); err != nil || len(hist.Runs) == 0 {
		t.Fatalf("history: %v\n%s", err, out)
	}
	ids := make([]string, len(hist.Runs))
	for i, r := range hist.Runs {
		ids[i] = r.RunID
	}
	return slices.Max(ids)
}

func gitStatus(t *testing.T, dir string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
	if err != nil {
		t.Fatalf("git status: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestFailureToldOnce: a store's failure is in the report and told once on stderr, not logged by
// the pass as well.
func TestFailureToldOnce(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Status: 400, Body: `{"error":{"message":"model melted"}}`}
	}
	t.Cleanup(srv.Close)
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	out, errOut, code := s.run("run", "--once")
	if code != 1 || !strings.Contains(out, "model melted") {
		t.Fatalf("exit %d, want 1 with the failure in the report\n%s%s", code, out, errOut)
	}
	if n := strings.Count(errOut, "model melted"); n != 1 {
		t.Errorf("stderr tells the failure %d times, want once:\n%s", n, errOut)
	}
}
