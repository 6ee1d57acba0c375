package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// The held-out review: a shop whose store has six hand-written memories, and three sessions from
// which a careful model proposes good and bad operations alike.
const (
	heldOutA = "aaaa1111-0000-4000-8000-00000000000a"
	heldOutB = "bbbb2222-0000-4000-8000-00000000000b"
	heldOutC = "cccc3333-0000-4000-8000-00000000000c"
)

// heldOutSessions are the transcripts: A switches the Postgres driver and asks to remember
// TZ=UTC for the tests, B says two lint memories are one rule, C only wonders about CI's Node
// version and says the staging box is unused this week.
var heldOutSessions = map[string]string{
	heldOutA: `{"type":"user","uuid":"a1","sessionId":"` + heldOutA + `","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:00Z","message":{"role":"user","content":"The orders query is failing under load. From now on use the pgx driver instead of lib/pq, we dropped lib/pq last sprint."}}
{"type":"assistant","uuid":"a2","sessionId":"` + heldOutA + `","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:10Z","message":{"role":"assistant","content":[{"type":"text","text":"Understood, I'll switch internal/db to pgx/v5 and use pgxpool."}]}}
{"type":"user","uuid":"a3","sessionId":"` + heldOutA + `","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:05:00Z","message":{"role":"user","content":"Also remember that the tests need TZ=UTC or the invoice date tests fail."}}
`,
	heldOutB: `{"type":"user","uuid":"b1","sessionId":"` + heldOutB + `","cwd":"/home/ana/shop","timestamp":"2026-11-20T14:00:00Z","message":{"role":"user","content":"make lint failed again. Note run-lint and lint-required are the same rule: make lint before every commit."}}
`,
	heldOutC: `{"type":"user","uuid":"c1","sessionId":"` + heldOutC + `","cwd":"/home/ana/shop","timestamp":"2026-11-21T16:00:00Z","message":{"role":"user","content":"Why is CI slow? Is it still on node 18?"}}
{"type":"assistant","uuid":"c2","sessionId":"` + heldOutC + `","cwd":"/home/ana/shop","timestamp":"2026-11-21T16:00:12Z","message":{"role":"assistant","content":[{"type":"text","text":"The workflow pins Node 18 in setup-node, I think."}]}}
{"type":"user","uuid":"c3","sessionId":"` + heldOutC + `","cwd":"/home/ana/shop","timestamp":"2026-11-21T16:02:00Z","message":{"role":"user","content":"ok whatever. we are not using the staging box this week."}}
`,
}

// heldOutOps is the model's answer: the update to pgx, the TZ=UTC rule and the merge of the two
// lint memories are good; a duplicate of the pgx update, Node 18 (a wrong fact: the assistant's
// guess), the deletion of staging-host (which the person keeps) are not, and a memory holding a
// token the validator drops itself.
func heldOutOps() string {
	return llmtest.Ops("Switch to pgx, fold the lint duplicates, TZ=UTC for tests; CI on Node 18; staging retired.",
		map[string]any{"action": "update", "name": "db-driver", "type": "project", "description": "Use pgx (pgx/v5, pgxpool) for Postgres, not lib/pq",
			"body": "The service talks to Postgres through pgx/v5 with pgxpool; lib/pq was dropped.", "reason": "said from now on", "evidence": []string{heldOutA}},
		map[string]any{"action": "create", "name": "use-pgx-driver", "type": "project", "description": "Use the pgx driver", "body": "Use pgx for Postgres.", "reason": "said", "evidence": []string{heldOutA}},
		map[string]any{"action": "create", "name": "tests-need-tz-utc", "type": "project", "description": "Run the tests with TZ=UTC",
			"body": "Run tests with `TZ=UTC`; the invoice date tests fail otherwise.", "reason": "asked to remember", "evidence": []string{heldOutA}},
		map[string]any{"action": "update", "name": "run-lint", "type": "feedback", "description": "Run make lint before every commit",
			"body": "Run `make lint` before every commit (lint-required folded in).", "merged_from": []string{"lint-required"}, "reason": "the same rule", "evidence": []string{heldOutB}},
		map[string]any{"action": "update", "name": "ci-node-version", "type": "project", "description": "CI runs on Node 18", "body": "CI runs on Node 18.", "reason": "the assistant said so", "evidence": []string{heldOutC}},
		map[string]any{"action": "create", "name": "staging-deploy-token", "type": "reference", "description": "Token for staging deploys",
			"body": "Staging deploy token: ghp_4f8Kd9sLq2Xw7Zr1Tb6Nc3Vm5Hj0Ya8Ue2Po", "reason": "needed", "evidence": []string{heldOutC}},
		map[string]any{"action": "delete", "name": "staging-host", "reason": "not used this week", "evidence": []string{heldOutC}},
	)
}

// heldOutSandbox is the shop with its store and sessions, whose model answers heldOutOps to the
// pass that reads session A, and to a later pass (session C alone) the Node 18 update again.
func heldOutSandbox(t *testing.T) *sandbox {
	t.Helper()
	srv := llmtest.New()
	srv.Respond = func(r llmtest.Request) llmtest.Reply {
		if strings.Contains(r.User(), heldOutA) {
			return llmtest.Reply{Content: heldOutOps()}
		}
		return llmtest.Reply{Content: llmtest.Ops("CI on Node 18.",
			map[string]any{"action": "update", "name": "ci-node-version", "type": "project", "description": "CI runs on Node 18", "body": "CI runs on Node 18.", "reason": "again", "evidence": []string{heldOutC}})}
	}
	t.Cleanup(srv.Close)
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	for name, m := range map[string][3]string{
		"db-driver":             {"project", "Use lib/pq for Postgres", "The service talks to Postgres through database/sql with lib/pq."},
		"run-lint":              {"feedback", "Run make lint before committing", "Run `make lint` before every commit."},
		"lint-required":         {"feedback", "Lint must pass before a commit", "Commits must pass the linter (`make lint`)."},
		"staging-host":          {"reference", "Staging runs on staging.shop.internal", "Staging is at staging.shop.internal."},
		"deploy-with-deploy-sh": {"project", "Deploys go through ./deploy.sh", "Deploys run through ./deploy.sh."},
		"ci-node-version":       {"project", "CI uses Node 20", "CI runs on Node 20 (see .github/workflows/ci.yml)."},
	} {
		s.write(shopStore+"/"+name+".md", "---\nname: "+name+"\ndescription: "+m[1]+"\ntype: "+m[0]+"\n---\n"+m[2]+"\n")
	}
	for id, text := range heldOutSessions {
		s.write(".claude/projects/-home-ana-shop/"+id+".jsonl", text)
	}
	return s
}

// sandboxState is what a review decides in a sandbox: its store's files by their path under the
// home, and each transcript's cursor (without the file's mtime, which differs between sandboxes).
func sandboxState(t *testing.T, s *sandbox) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, content := range memoryFiles(t, s.path(shopStore)) {
		rel, _ := filepath.Rel(s.home, p)
		out[rel] = content
	}
	shards, _ := filepath.Glob(s.path(".local/state/dreamd/stores/*/cursors-*.json"))
	for _, p := range shards {
		var shard struct {
			Cursors map[string]map[string]any `json:"cursors"`
		}
		b, err := os.ReadFile(p)
		if err == nil {
			err = json.Unmarshal(b, &shard)
		}
		if err != nil {
			t.Fatal(err)
		}
		for path, c := range shard.Cursors {
			delete(c, "mtime")
			b, _ := json.Marshal(c)
			rel, _ := filepath.Rel(s.home, path)
			out["cursor of "+rel] = string(b)
		}
	}
	return out
}

// TestReviewKeysAndApplyFlagsAgree is the held-out review a person makes, on the command line and
// at the terminal: accept the pgx update with an edit, the TZ=UTC rule and the lint merge, reject
// the duplicate, the wrong Node version and the deletion of staging-host. `dreamd apply --only
// --edit` and `dreamd review` keys (the edit through $EDITOR) leave the same store and cursors,
// file by file, and that store is what the decisions must give: the rejected memories as they were
// written, the merged one archived, the edited text written, no token anywhere. Session C, which
// fed only rejected operations, is offered to the next pass, whose plan applies; rolling the
// review back restores the store byte for byte.
func TestReviewKeysAndApplyFlagsAgree(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake $EDITOR is a shell script")
	}
	const editDescription = "Use pgx/v5 with pgxpool for Postgres; lib/pq is gone"
	const editBody = "The service talks to Postgres through pgx/v5 and pgxpool (internal/db).\n\n**Why:** lib/pq failed under load on the orders query."
	edit := "---\nname: db-driver\ntype: project\ndescription: " + editDescription + "\n---\n" + editBody + "\n"

	flags, keys := heldOutSandbox(t), heldOutSandbox(t)
	before := memoryFiles(t, flags.path(shopStore))
	for _, s := range []*sandbox{flags, keys} {
		mustRun(t, s, "plan", "-o", s.path("plan.json"))
	}
	flags.write("db-driver.md", edit)
	mustRun(t, flags, "apply", flags.path("plan.json"), "--only", "db-driver,tests-need-tz-utc", "--only", "run-lint", "--edit", "db-driver="+flags.path("db-driver.md"))

	keys.write("edited.md", edit)
	keys.write("editor.sh", "#!/bin/sh\ncp \""+keys.path("edited.md")+"\" \"$1\"\n")
	if err := os.Chmod(keys.path("editor.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	keys.env = append(keys.env, "EDITOR="+keys.path("editor.sh"), "VISUAL=")
	// In name order: ci-node-version, db-driver (edited, then accepted), run-lint, staging-host,
	// tests-need-tz-utc, use-pgx-driver.
	out, errOut, code := keys.runWithInput("r\ne\na\na\nr\na\nr\n", "review", keys.path("plan.json"))
	if code != 0 || !strings.Contains(errOut, "review: 3 of 6 operations accepted (edited: db-driver), rejected: ci-node-version, staging-host, use-pgx-driver; applying") {
		t.Fatalf("review: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "dropped before review: create staging-deploy-token: secret (github-token) in body\n") || strings.Contains(errOut, "ghp_") {
		t.Errorf("the review does not say what dreamd dropped, or shows the token:\n%s", errOut)
	}

	got, want := sandboxState(t, keys), sandboxState(t, flags)
	names := slices.Sorted(maps.Keys(got))
	for name := range want {
		if _, ok := got[name]; !ok {
			names = append(names, name)
		}
	}
	for _, name := range names {
		if got[name] != want[name] {
			t.Errorf("%s after the review's keys:\n%s\nafter apply --only --edit:\n%s", name, got[name], want[name])
		}
	}

	mem := flags.path(shopStore)
	after := memoryFiles(t, mem)
	file := func(name string) string { return after[filepath.Join(mem, name)] }
	for _, kept := range []string{"ci-node-version.md", "staging-host.md", "deploy-with-deploy-sh.md"} {
		if file(kept) != before[filepath.Join(mem, kept)] {
			t.Errorf("%s, which no accepted operation writes, changed:\n%s", kept, file(kept))
		}
	}
	for _, gone := range []string{"lint-required.md", "use-pgx-driver.md", "staging-deploy-token.md"} {
		if _, ok := after[filepath.Join(mem, gone)]; ok {
			t.Errorf("%s is in the store", gone)
		}
	}
	if d := file("db-driver.md"); !strings.Contains(d, "description: "+editDescription+"\n") || !strings.Contains(d, editBody) || !strings.Contains(d, "claude:"+heldOutA) {
		t.Errorf("db-driver.md is not the edit, with its session:\n%s", d)
	}
	if !strings.Contains(file("run-lint.md"), "lint-required folded in") || !strings.Contains(file("tests-need-tz-utc.md"), "TZ=UTC") {
		t.Errorf("the accepted merge and create are not written:\n%s\n%s", file("run-lint.md"), file("tests-need-tz-utc.md"))
	}
	index := file("MEMORY.md")
	for _, line := range []string{"[db-driver](db-driver.md) — " + editDescription, "[staging-host](staging-host.md)", "[ci-node-version](ci-node-version.md) — CI uses Node 20", "[tests-need-tz-utc](tests-need-tz-utc.md)"} {
		if !strings.Contains(index, line) {
			t.Errorf("the index lacks %q:\n%s", line, index)
		}
	}
	for _, name := range []string{"lint-required", "use-pgx-driver", "Node 18"} {
		if strings.Contains(index, name) {
			t.Errorf("the index names %q:\n%s", name, index)
		}
	}
	for p, content := range after {
		if strings.Contains(content, "ghp_") {
			t.Errorf("%s holds the token", p)
		}
	}
	var h struct {
		Runs []struct {
			RunID string `json:"run_id"`
			Meta  struct {
				Summary string   `json:"summary"`
				Edited  []string `json:"edited"`
			} `json:"meta"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, keys, "history", "--json")), &h); err != nil || len(h.Runs) != 1 {
		t.Fatalf("history: %v %+v", err, h)
	}
	if m := h.Runs[0].Meta; !strings.Contains(m.Summary, "3 of 6 operations accepted; rejected: ci-node-version, staging-host, use-pgx-driver; edited in review: db-driver") || !slices.Equal(m.Edited, []string{"db-driver"}) {
		t.Errorf("history meta %+v", m)
	}

	// Session C fed only rejected operations: the next pass reads it alone, and its plan applies.
	plan2 := mustRun(t, flags, "plan", "-o", flags.path("plan2.json"))
	if !strings.Contains(plan2, "sessions read: 1 ") || !strings.Contains(plan2, "ci-node-version") {
		t.Errorf("the next pass:\n%s", plan2)
	}
	mustRun(t, flags, "apply", flags.path("plan2.json"), "--skip", "ci-node-version")

	mustRun(t, keys, "rollback", h.Runs[0].RunID)
	if got, want := byName(memoryFiles(t, keys.path(shopStore))), byName(before); !maps.Equal(got, want) {
		t.Errorf("the rollback did not restore the store: %v, want %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		for name, content := range want {
			if got[name] != content {
				t.Errorf("%s after the rollback:\n%s\nwant\n%s", name, got[name], content)
			}
		}
	}
}

// byName is files by their base name.
func byName(files map[string]string) map[string]string {
	out := make(map[string]string, len(files))
	for p, content := range files {
		out[filepath.Base(p)] = content
	}
	return out
}
