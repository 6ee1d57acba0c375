package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

func tinySuite(t *testing.T) *Suite {
	t.Helper()
	s, err := LoadSuite(os.DirFS(filepath.Join("testdata", "suite")))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// outcomeOf lists a result's checks as "category kind text pass".
func outcomeOf(r ScenarioResult) []string {
	var out []string
	for _, c := range r.Checks {
		mark := "fail"
		if c.Pass {
			mark = "pass"
		}
		out = append(out, c.Category+" "+c.Kind+" "+c.Text+" "+mark)
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\ngot\n\t%s\nwant\n\t%s", what, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

func TestRunTinySuiteOffline(t *testing.T) {
	work := t.TempDir()
	var seen []string
	rep, err := Run(context.Background(), tinySuite(t), Options{
		Base:     baseEnv(t),
		Jobs:     2,
		WorkDir:  work,
		Progress: func(done, total int, r ScenarioResult) { seen = append(seen, r.Name) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 {
		t.Errorf("progress heard of %v, want both scenarios", seen)
	}
	deploy, chatter := rep.Scenarios[0], rep.Scenarios[1]
	if deploy.Name != "01-deploy" || deploy.Result != "applied" || deploy.Error != "" {
		t.Fatalf("01-deploy: %+v", deploy)
	}
	sameLines(t, "01-deploy checks", outcomeOf(deploy), []string{
		"lessons mentions deploy.sh pass",
		"secrets absent hunter2-Staging-42 pass",
		"contradictions not_current jenkins pass",
		"lessons mentions kubernetes fail",
		"caps index MEMORY.md pass",
		"archived archive 2 starting memories pass",
	})
	sameLines(t, "02-chatter checks", outcomeOf(chatter), []string{
		"noise absent lunch pass",
		"caps index MEMORY.md pass",
	})
	if got := rep.Category(Lessons); got.Passed != 1 || got.Total != 2 {
		t.Errorf("lessons score %+v, want 1 of 2", got)
	}
	if rep.Overall.Passed != 7 || rep.Overall.Total != 8 {
		t.Errorf("overall %+v, want 7 of 8", rep.Overall)
	}
	// WorkDir keeps what each scenario ran on.
	for _, p := range []string{"01-deploy/memory/MEMORY.md", "01-deploy/transcripts/claude/-home-eval-tiny", "02-chatter/state"} {
		if _, err := os.Stat(filepath.Join(work, p)); err != nil {
			t.Errorf("work dir: %v", err)
		}
	}
}

func TestRunWithoutWorkDirLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	if _, err := Run(context.Background(), tinySuite(t), Options{Base: baseEnv(t)}); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(tmp)
	if len(left) != 0 {
		t.Errorf("temporary directories left behind: %v", left)
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, tinySuite(t), Options{Base: baseEnv(t)}); err == nil {
		t.Fatal("a cancelled run returned a report")
	}
}

// TestRunModel covers the model path: one scenario against a scripted OpenAI-compatible server.
func TestRunModel(t *testing.T) {
	suite := tinySuite(t)
	suite.Scenarios = suite.Scenarios[:1]
	srv := llmtest.New(llmtest.Reply{Content: llmtest.Ops("Kept the deploy rule; CI moved to GitHub Actions.",
		map[string]any{
			"action": "create", "name": "deploy-with-deploy-sh", "type": "feedback",
			"description": "Deploys always go through ./deploy.sh",
			"body":        "Deploys always go through `./deploy.sh`.",
			"reason":      "the user said so",
		},
		map[string]any{
			"action": "create", "name": "ci-github-actions", "type": "project",
			"description": "CI runs on GitHub Actions since 2026-11-17",
			"body":        "CI runs on GitHub Actions; it moved from Jenkins on 2026-11-17.",
			"supersedes":  []string{"ci-jenkins"},
			"reason":      "the user said CI moved",
		},
		map[string]any{
			"action": "create", "name": "k8s", "type": "project",
			"description": "Staging runs on Kubernetes", "body": "Staging runs on Kubernetes.", "reason": "deploy output",
		},
	)})
	defer srv.Close()
	base := baseEnv(t)
	base.Consolidator = extract.NewClient(extract.ClientConfig{BaseURL: srv.BaseURL(), APIKey: "test-key", Model: "scripted-model"})
	base.ConsolidatorName = "scripted-model"

	rep, err := Run(context.Background(), suite, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want exactly one per scenario", len(reqs))
	}
	if !reqs[0].Strict("consolidation") {
		t.Error("the request did not ask for the strict consolidation schema")
	}
	if user := reqs[0].User(); !strings.Contains(user, "deploy.sh") || strings.Contains(user, "hunter2-Staging-42") {
		t.Errorf("the prompt should carry the lesson and not the password:\n%s", user)
	}
	r := rep.Scenarios[0]
	if r.Error != "" || r.Usage.PromptTokens == 0 {
		t.Errorf("result %+v", r)
	}
	if rep.Consolidator != "scripted-model" || rep.Overall.Passed != rep.Overall.Total {
		t.Errorf("the scripted answer meets every expectation, got %+v:\n%v", rep.Overall, outcomeOf(r))
	}
}

// TestRunModelFailure: a model whose answer is not the contract's shape fails its pass; the
// scenario is scored on the store as it started, and the evaluation goes on.
func TestRunModelFailure(t *testing.T) {
	suite := tinySuite(t)
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: "I cannot help with that."} }
	defer srv.Close()
	base := baseEnv(t)
	base.Consolidator = extract.NewClient(extract.ClientConfig{BaseURL: srv.BaseURL(), APIKey: "k", Model: "m"})
	base.ConsolidatorName = "m"
	rep, err := Run(context.Background(), suite, Options{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Failed != 2 {
		t.Fatalf("failed passes %d, want 2", rep.Failed)
	}
	r := rep.Scenarios[0]
	if r.Result != "failed" || r.Error == "" {
		t.Errorf("result %q error %q", r.Result, r.Error)
	}
	sameLines(t, "checks on the unchanged store", outcomeOf(r), []string{
		"lessons mentions deploy.sh fail",
		"secrets absent hunter2-Staging-42 pass",
		"contradictions not_current jenkins fail",
		"lessons mentions kubernetes fail",
		"caps index MEMORY.md pass",
		"archived archive 2 starting memories pass",
	})
}
