package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// TestEveryWriterPrunesHistory: the history is pruned by the driver after every write, whoever
// writes: with history.keep_runs 1 a plan applied by `dreamd apply` and a rollback each leave
// only their own run's journal.
func TestEveryWriterPrunesHistory(t *testing.T) {
	srv := llmtest.New()
	n := 0
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		n++
		return llmtest.Reply{Content: llmtest.Ops("One more.", map[string]any{"action": "create", "name": "fact-" + strconv.Itoa(n), "type": "project",
			"description": "Fact number " + strconv.Itoa(n), "body": "Body.", "reason": "r", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})}
	}
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL())+"history: {keep_runs: 1, keep_days: 0}\n")
	runs := func() []string {
		t.Helper()
		out, errOut, code := s.run("history", "--json")
		var h struct {
			Runs []struct {
				RunID string `json:"run_id"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &h); err != nil || code != 0 {
			t.Fatalf("history: exit %d, %v\n%s", code, err, errOut)
		}
		var ids []string
		for _, r := range h.Runs {
			ids = append(ids, r.RunID)
		}
		return ids
	}

	s.write(sessionAPath, sessionA)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("first pass: %d %s", code, errOut)
	}
	s.appendTo(sessionAPath, sessionB)
	plan := s.path("plan.json")
	if _, errOut, code := s.run("plan", "-o", plan); code != 0 {
		t.Fatalf("plan: %d %s", code, errOut)
	}
	if _, errOut, code := s.run("apply", plan); code != 0 {
		t.Fatalf("apply: %d %s", code, errOut)
	}
	applied := runs()
	if len(applied) != 1 {
		t.Fatalf("history after apply with keep_runs 1: %v, want the applied run alone", applied)
	}
	if _, errOut, code := s.run("rollback", applied[0]); code != 0 {
		t.Fatalf("rollback: %d %s", code, errOut)
	}
	if after := runs(); len(after) != 1 || !strings.HasPrefix(after[0], "rollback-") {
		t.Errorf("history after rollback with keep_runs 1: %v, want the rollback's run alone", after)
	}
}

// TestStoreModesAgree: the configuration's store modes are the pass's, converted as they are.
func TestStoreModesAgree(t *testing.T) {
	if phases.StoreMode(config.StorePerProject) != phases.PerProject || phases.StoreMode(config.StoreFixed) != phases.Fixed {
		t.Errorf("store modes differ: config %q, %q; phases %q, %q", config.StorePerProject, config.StoreFixed, phases.PerProject, phases.Fixed)
	}
}

// TestRememberNowWithProject: `remember --project DIR --now` consolidates the note into that
// project's store at once; the pass is given the store, not the flags to resolve again.
func TestRememberNowWithProject(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	project := s.path("src/blog")
	s.write("src/blog/index.md", "blog\n")
	storeDir := s.path(".claude/projects/" + slug.Project(project) + "/memory")
	if out, errOut, code := s.run("remember", "--project", project, "--type", "feedback", "--now", "Posts are written in British English."); code != 0 {
		t.Fatalf("remember --now: exit %d\n%s%s", code, out, errOut)
	}
	if files, _ := filepath.Glob(filepath.Join(storeDir, "*.md")); len(files) == 0 {
		t.Errorf("remember --now left %s empty", storeDir)
	}
}

// TestLoadLeavesTheOptions: resolving --store returns the store, absolute, and leaves the
// option as the command line gave it.
func TestLoadLeavesTheOptions(t *testing.T) {
	dir := t.TempDir()
	cfgFile := filepath.Join(dir, "dreamd.yaml")
	if err := os.WriteFile(cfgFile, []byte("store: {mode: fixed, path: "+filepath.Join(dir, "mem")+"}\nstate_dir: "+filepath.Join(dir, "state")+"\nllm: {offline: true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	o, err := parse(t, newRunCmd, "run", "--once", "--config", cfgFile, "--store", "mem")
	if err != nil {
		t.Fatal(err)
	}
	_, only, err := o.loadStore()
	if err != nil || only != filepath.Join(dir, "mem") || o.Store != "mem" {
		t.Errorf("loadStore: %q, %v; --store now %q, want %q as given", only, err, o.Store, "mem")
	}
}
