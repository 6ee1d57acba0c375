package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// deployRuleSandbox is a sandbox holding sessionA, whose model creates one memory, deploy-rule.
func deployRuleSandbox(t *testing.T) (*sandbox, *llmtest.Server) {
	t.Helper()
	answer := llmtest.Ops("Deploy rule.", map[string]any{"action": "create", "name": "deploy-rule", "type": "project",
		"description": "Deploys go through ./deploy.sh", "body": "Use ./deploy.sh.", "reason": "r", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: answer} }
	t.Cleanup(srv.Close)
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	return s, srv
}

func withStore(s *sandbox, names ...string) {
	for _, n := range names {
		s.write(shopStore+"/"+n+".md", "---\nname: "+n+"\ndescription: Existing fact "+n+"\ntype: project\n---\nBody of "+n+".\n")
	}
}

// outside snapshots everything in the sandbox except the store and dreamd's state directory.
func outside(t *testing.T, s *sandbox) map[string]string {
	all := snapshot(t, s.home)
	maps.DeleteFunc(all, func(p, _ string) bool {
		return strings.HasPrefix(p, s.path(shopStore)) || strings.HasPrefix(p, s.path(".local/state/dreamd"))
	})
	return all
}

func TestHostileModelResponses(t *testing.T) {
	fake := "AKIA" + "IOSFODNN7EXAMPLE"
	hostile := llmtest.Ops("Hostile.",
		map[string]any{"action": "create", "name": "../../escape", "type": "project", "description": "escape", "body": "x", "reason": "r"},
		map[string]any{"action": "create", "name": "a/b", "type": "project", "description": "slash", "body": "x", "reason": "r"},
		map[string]any{"action": "create", "name": "gossip", "type": "gossip", "description": "bad type", "body": "x", "reason": "r"},
		map[string]any{"action": "create", "name": "huge", "type": "project", "description": "huge", "body": strings.Repeat("x", 10000), "reason": "r"},
		map[string]any{"action": "create", "name": "leaky", "type": "reference", "description": "the key", "body": "use " + fake, "reason": "r"},
		map[string]any{"action": "update", "name": "no-such-memory", "type": "project", "description": "d", "body": "b", "reason": "r"},
		map[string]any{"action": "create", "name": "fine", "type": "project", "description": "A fine memory", "body": "Fine.", "reason": "r"},
	)
	srv := llmtest.New(llmtest.Reply{Content: hostile})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	withStore(s, "keep-me")
	before := outside(t, s)

	out, errOut, code := s.run("run", "--once")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, name := range []string{"../../escape", "a/b", "gossip", "huge", "leaky", "no-such-memory"} {
		if !strings.Contains(out, strconv.Quote(name)) {
			t.Errorf("rejected operation %q not listed in the report:\n%s", name, out)
		}
	}
	if strings.Contains(out, fake) {
		t.Error("the report echoes a secret")
	}
	if got := outside(t, s); !maps.Equal(before, got) {
		t.Errorf("files outside the store and state directory changed")
	}
	files := snapshot(t, s.path(shopStore))
	delete(files, s.path(shopStore+"/.consolidate-lock"))
	if _, ok := files[s.path(shopStore+"/fine.md")]; !ok || len(files) != 3 { // keep-me, fine, MEMORY.md
		t.Errorf("store files: %v", keys(files))
	}
	for _, c := range snapshot(t, s.home) {
		if strings.Contains(c, fake) {
			t.Fatal("a secret reached the disk")
		}
	}
}

func TestDeleteEverythingIsRefused(t *testing.T) {
	var ops []map[string]any
	for _, n := range []string{"a", "b", "c", "d"} {
		ops = append(ops, map[string]any{"action": "delete", "name": n, "reason": "gone"})
	}
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Delete all.", ops...)} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	withStore(s, "a", "b", "c", "d")
	before := snapshot(t, s.path(shopStore))

	_, errOut, code := s.run("run", "--once")
	if code != 4 || !strings.Contains(errOut, "--force") {
		t.Fatalf("exit %d, want 4 with advice: %s", code, errOut)
	}
	if !maps.Equal(before, snapshot(t, s.path(shopStore))) {
		t.Fatal("a refused pass changed the store")
	}
	if _, _, code = s.run("run", "--once", "--force"); code != 0 { // the person acts: the parked plan gives way
		t.Fatalf("--force: exit %d", code)
	}
	archived := snapshot(t, s.path(".local/state/dreamd"))
	n := 0
	for p := range archived {
		if strings.Contains(p, string(filepath.Separator)+"archive"+string(filepath.Separator)) && strings.HasSuffix(p, ".md") {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d memories archived, want 4", n)
	}
}

func TestSecretsNeverReachTheModel(t *testing.T) {
	secrets := []string{"AKIA" + "IOSFODNN7EXAMPLE", "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", "sk-ant-" + "api03-abcdefghijklmnopqrstuvwxyz0123456789", "s3cr3t-" + "Passw0rd"}
	transcript := `{"type":"user","uuid":"u1","sessionId":"cccc","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:00Z","message":{"role":"user","content":"Remember the deploy creds: aws ` + secrets[0] + `, token ` + secrets[1] + `, claude ` + secrets[2] + `, db at postgres://app:` + secrets[3] + `@db.internal/shop"}}` + "\n"
	srv := llmtest.New(llmtest.Reply{Content: llmtest.Ops("none")})
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(".claude/projects/-home-ana-shop/cccc.jsonl", transcript)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d calls", len(reqs))
	}
	for _, sec := range secrets {
		if strings.Contains(string(reqs[0].Raw), sec) {
			t.Errorf("secret %q went over the wire", sec)
		}
	}
	if !strings.Contains(reqs[0].User(), "Remember the deploy creds") {
		t.Error("redaction dropped the surrounding words")
	}
}

func TestModelFaults(t *testing.T) {
	ok := llmtest.Reply{Content: llmtest.Ops("none")}
	t.Run("429 then success", func(t *testing.T) {
		srv := llmtest.New(llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "0"}, Body: `{"error":{"message":"slow down"}}`}, ok)
		defer srv.Close()
		s := newSandbox(t, llmConfig(srv.BaseURL()))
		s.write(sessionAPath, sessionA)
		if _, errOut, code := s.run("run", "--once"); code != 0 || len(srv.Requests()) != 2 {
			t.Fatalf("exit %d, %d requests: %s", code, len(srv.Requests()), errOut)
		}
	})
	t.Run("5xx until retries run out", func(t *testing.T) {
		down := llmtest.Reply{Status: 503, Header: map[string]string{"Retry-After": "0"}, Body: `{"error":{"message":"down"}}`}
		srv := llmtest.New(down, down, ok)
		defer srv.Close()
		s := newSandbox(t, llmConfig(srv.BaseURL())) // max_retries: 1 → two attempts
		s.write(sessionAPath, sessionA)
		_, errOut, code := s.run("run", "--once")
		if code != 1 || !strings.Contains(errOut, "503") {
			t.Fatalf("exit %d, want 1 naming the status: %s", code, errOut)
		}
		if _, err := os.Stat(s.path(shopStore)); err == nil {
			t.Error("a failed pass created the store")
		}
		if _, _, code = s.run("run", "--once"); code != 0 || !strings.Contains(srv.Requests()[2].User(), "deploy.sh") {
			t.Errorf("the same session must be offered again: exit %d", code)
		}
	})
}

func TestPlanApplyAndRollback(t *testing.T) {
	s, srv := deployRuleSandbox(t)
	withStore(s, "old-fact")
	before := snapshot(t, s.path(shopStore))
	plan := s.path("plan.json")

	if _, errOut, code := s.run("plan", "-o", plan); code != 0 {
		t.Fatalf("plan: exit %d: %s", code, errOut)
	}
	s.write(shopStore+"/old-fact.md", "edited by hand\n")
	if _, errOut, code := s.run("apply", plan); code != 4 || !strings.Contains(errOut, "changed since the plan") {
		t.Fatalf("apply of a stale plan: exit %d: %s", code, errOut)
	}
	withStore(s, "old-fact")

	if _, _, code := s.run("plan", "-o", plan); code != 0 {
		t.Fatal("second plan failed")
	}
	calls := len(srv.Requests())
	if out, errOut, code := s.run("apply", plan); code != 0 {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	if len(srv.Requests()) != calls {
		t.Error("apply called the model")
	}
	if _, err := os.Stat(s.path(shopStore + "/deploy-rule.md")); err != nil {
		t.Fatal("the plan was not applied")
	}
	if out, _, code := s.run("run", "--once"); code != 0 || !strings.Contains(out, "nothing new") {
		t.Fatalf("after apply the cursors must have moved: %s", out)
	}

	out, _, _ := s.run("history", "--json")
	var hist struct {
		Runs []struct {
			RunID string `json:"run_id"`
		}
	}
	if err := json.Unmarshal([]byte(out), &hist); err != nil || len(hist.Runs) != 1 {
		t.Fatalf("history: %v %s", err, out)
	}
	if _, errOut, code := s.run("rollback"); code != 0 {
		t.Fatalf("rollback: exit %d: %s", code, errOut)
	}
	after := snapshot(t, s.path(shopStore))
	delete(after, s.path(shopStore+"/.consolidate-lock"))
	if !maps.Equal(before, after) {
		t.Errorf("rollback is not byte-exact:\nbefore %v\nafter  %v", keys(before), keys(after))
	}
	calls = len(srv.Requests())
	if _, _, code := s.run("run", "--once"); code != 0 || len(srv.Requests()) != calls+1 {
		t.Error("after a rollback the material must be consolidated again")
	}
}

func TestReviewMode(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		return llmtest.Reply{Content: llmtest.Ops("r", map[string]any{"action": "create", "name": "deploy-rule", "type": "project", "description": "d", "body": "b", "reason": "r"})}
	}
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL())+"apply: review\n")
	s.write(sessionAPath, sessionA)
	out, _, code := s.run("run", "--once")
	if code != 0 || !strings.Contains(out, "pending review") {
		t.Fatalf("exit %d: %s", code, out)
	}
	if _, err := os.Stat(s.path(shopStore + "/deploy-rule.md")); err == nil {
		t.Fatal("review mode applied the plan")
	}
	out, _, _ = s.run("status", "--json")
	var st struct {
		Stores []struct {
			PendingPlans []string `json:"pending_plans"`
		}
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil || len(st.Stores) != 1 || len(st.Stores[0].PendingPlans) != 1 {
		t.Fatalf("status does not list the pending plan: %v\n%s", err, out)
	}
	if _, errOut, code := s.run("apply", st.Stores[0].PendingPlans[0]); code != 0 {
		t.Fatalf("apply pending: exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(s.path(shopStore + "/deploy-rule.md")); err != nil {
		t.Fatal("the pending plan was not applied")
	}
}

func TestLocks(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("none")} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	s.write(shopStore+"/.consolidate-lock", strconv.Itoa(os.Getpid()))
	_, errOut, code := s.run("run", "--once")
	if code != 3 || len(srv.Requests()) != 0 {
		t.Fatalf("a live Claude Code lock holder: exit %d, %d calls: %s", code, len(srv.Requests()), errOut)
	}
	s.write(shopStore+"/.consolidate-lock", "999999999")
	if _, errOut, code = s.run("run", "--once"); code != 0 {
		t.Fatalf("a dead holder must be taken over: exit %d: %s", code, errOut)
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, filepath.Base(k))
	}
	return out
}

// TestGuardRound: a correct round that merges one duplicate and supersedes two stale memories of
// a 7-memory store applies (their content lives on); a round that deletes four is refused, parked,
// and not sent to the model again until the person acts.
func TestGuardRound(t *testing.T) {
	merge := llmtest.Ops("Merged a duplicate, replaced two stale facts.",
		map[string]any{"action": "update", "name": "a", "type": "project", "description": "Fact a, with b folded in", "body": "A and B.",
			"merged_from": []string{"b"}, "supersedes": []string{"c", "d"}, "reason": "duplicate and stale", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: merge} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	withStore(s, "a", "b", "c", "d", "e", "f", "g")
	if out, errOut, code := s.run("run", "--once"); code != 0 || !strings.Contains(out, "applied") {
		t.Fatalf("merge+supersede round: exit %d\n%s%s", code, out, errOut)
	}

	var deletes []map[string]any
	for _, n := range []string{"a", "e", "f", "g"} {
		deletes = append(deletes, map[string]any{"action": "delete", "name": n, "reason": "gone"})
	}
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Delete.", deletes...)} }
	s.appendTo(sessionAPath, sessionB)
	_, errOut, code := s.run("run", "--once")
	if code != 4 || !strings.Contains(errOut, "parked") {
		t.Fatalf("deleting 4 of 4: exit %d, want 4 naming the parked plan\n%s", code, errOut)
	}
	calls := len(srv.Requests())
	out, _, code := s.run("run", "--once")
	if code != 0 || !strings.Contains(out, "parked") || len(srv.Requests()) != calls {
		t.Fatalf("second pass over the same material: exit %d, %d new calls\n%s", code, len(srv.Requests())-calls, out)
	}
	st, _, _ := s.run("status", "--json")
	var rep struct {
		Stores []struct {
			PendingPlans []string `json:"pending_plans"`
		}
	}
	if err := json.Unmarshal([]byte(st), &rep); err != nil || len(rep.Stores) != 1 || len(rep.Stores[0].PendingPlans) != 1 {
		t.Fatalf("status does not list the parked plan: %v\n%s", err, st)
	}
	plan := rep.Stores[0].PendingPlans[0]
	if out, errOut, code := s.run("apply", plan, "--force"); code != 0 {
		t.Fatalf("apply --force of the parked plan: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(s.path(shopStore + "/e.md")); !os.IsNotExist(err) {
		t.Errorf("the parked plan was not applied: %v", err)
	}
	if out, _, code := s.run("discard"); code != 0 || !strings.Contains(out, "No pending plans") {
		t.Errorf("discard after apply: exit %d\n%s", code, out)
	}
}

// TestBigHandWrittenStoreShrinksWithinTheGuard: the first pass over 1,000 hand-written memories
// (the index holds 200 lines) archives no more than max_retire_fraction of them, exits 0 and says
// what remains over the caps.
func TestBigHandWrittenStoreShrinksWithinTheGuard(t *testing.T) {
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: llmtest.Ops("Nothing new.")} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, sessionA)
	var names []string
	for i := range 1000 {
		names = append(names, "fact-"+strconv.Itoa(i))
	}
	withStore(s, names...)
	out, errOut, code := s.run("run", "--once")
	if code != 0 || !strings.Contains(out, "over its caps") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	left, _ := filepath.Glob(s.path(shopStore + "/fact-*.md"))
	if gone := 1000 - len(left); gone == 0 || gone > 250 {
		t.Errorf("%d memories retired in one pass, want 1..250 (25%%)", gone)
	}
}

// TestRollbackKeepsHandEditsAndCanBeUndone: rollback refuses to replace a file edited by hand
// since the run unless --force, and a rollback is a run that can be rolled back in turn.
func TestRollbackKeepsHandEditsAndCanBeUndone(t *testing.T) {
	s, _ := deployRuleSandbox(t)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, errOut)
	}
	edited := "---\nname: deploy-rule\ndescription: Deploys go through ./deploy.sh\ntype: project\n---\nUse ./deploy.sh, and tell #ops first.\n"
	s.write(shopStore+"/deploy-rule.md", edited)

	if _, errOut, code := s.run("rollback"); code != 4 || !strings.Contains(errOut, "deploy-rule.md") || !strings.Contains(errOut, "--force") {
		t.Fatalf("rollback over a hand edit: exit %d, want 4 naming the file\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(s.path(shopStore + "/deploy-rule.md")); string(b) != edited {
		t.Fatal("a refused rollback changed the file")
	}
	if _, errOut, code := s.run("rollback", "--force"); code != 0 {
		t.Fatalf("rollback --force: exit %d\n%s", code, errOut)
	}
	if _, err := os.Stat(s.path(shopStore + "/deploy-rule.md")); !os.IsNotExist(err) {
		t.Fatal("rollback --force did not restore the store")
	}

	out, _, _ := s.run("history", "--json")
	var h struct {
		Runs []struct {
			RunID string `json:"run_id"`
			Kind  string `json:"kind"`
		}
	}
	json.Unmarshal([]byte(out), &h)
	var rollbackID string
	for _, r := range h.Runs {
		if r.Kind == "rollback" {
			rollbackID = r.RunID
		}
	}
	if !strings.HasPrefix(rollbackID, "rollback-") || len(rollbackID) < len("rollback-20261120T100000Z-") {
		t.Fatalf("rollback id %q: want rollback-<time>-<random>\n%s", rollbackID, out)
	}
	if _, errOut, code := s.run("rollback", rollbackID); code != 0 {
		t.Fatalf("rolling the rollback back: exit %d\n%s", code, errOut)
	}
	if b, _ := os.ReadFile(s.path(shopStore + "/deploy-rule.md")); string(b) != edited {
		t.Errorf("rolling the rollback back did not bring the hand edit back:\n%s", b)
	}
}

// TestARealisticModelAnswer: an answer as a careful real model gives it — prose around a fenced
// block, evidence as kind:id, a description too long for its index line, a merge naming a memory
// that does not exist, "yesterday" — applies the right memory, dated from the session, losing
// nothing.
func TestARealisticModelAnswer(t *testing.T) {
	session := `{"type":"user","uuid":"u1","sessionId":"aaaa1111-0000-4000-8000-000000000001","cwd":"/home/ana/shop","timestamp":"2026-11-18T09:00:00Z","message":{"role":"user","content":"We moved the payments service from MySQL to Postgres yesterday; the old make db-mysql target is gone."}}` + "\n"
	answer := "I reviewed the session and the memories.\n\n```json\n" + llmtest.Ops("Recorded the Postgres migration.", map[string]any{
		"action": "create", "name": "Payments Postgres", "type": "project",
		"description": "The payments service moved from MySQL to Postgres yesterday and the old make db-mysql target was removed from the Makefile at the same time, so use Postgres tooling",
		"body":        "The payments service runs on Postgres since yesterday; `make db-mysql` is gone.\n\n**Why:** the team migrated off MySQL.\n**How to apply:** use the Postgres tooling for payments.",
		"merged_from": []string{"payments-mysql-notes"}, "reason": "migration stated by the user",
		"evidence": []string{"claude:aaaa1111-0000-4000-8000-000000000001"},
	}) + "\n```\nLet me know if you want more detail."
	srv := llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: answer} }
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL()))
	s.write(sessionAPath, session)
	out, errOut, code := s.run("run", "--once")
	if code != 0 || !strings.Contains(out, "repaired") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	b, err := os.ReadFile(s.path(shopStore + "/payments-postgres.md"))
	if err != nil {
		t.Fatalf("the memory was not written:\n%s", out)
	}
	m := string(b)
	if !strings.Contains(m, "since 2026-11-17") || strings.Contains(m, "yesterday") {
		t.Errorf("dates not made absolute from the session's date (2026-11-18):\n%s", m)
	}
	if !strings.Contains(m, "sources: [claude:aaaa1111-0000-4000-8000-000000000001]") {
		t.Errorf("the kind:id evidence was lost:\n%s", m)
	}
	index, _ := os.ReadFile(s.path(shopStore + "/MEMORY.md"))
	for _, line := range strings.Split(string(index), "\n") {
		if n := len([]rune(line)); n > 150 {
			t.Errorf("index line of %d characters: %s", n, line)
		}
	}
	if out, _, _ := s.run("run", "--once"); !strings.Contains(out, "nothing new") {
		t.Errorf("a repaired answer left its material to be offered again:\n%s", out)
	}
}

// TestHistoryIsBounded: with history.keep_runs 1 and keep_days 0 each apply leaves one run's
// journal; gc and status say how much state a store holds; a pruned run cannot be rolled back.
func TestHistoryIsBounded(t *testing.T) {
	srv := llmtest.New()
	n := 0
	srv.Respond = func(llmtest.Request) llmtest.Reply {
		n++
		return llmtest.Reply{Content: llmtest.Ops("One more.", map[string]any{"action": "create", "name": "fact-" + strconv.Itoa(n), "type": "project",
			"description": "Fact number " + strconv.Itoa(n), "body": "Body.", "reason": "r", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})}
	}
	defer srv.Close()
	s := newSandbox(t, llmConfig(srv.BaseURL())+"history: {keep_runs: 1, keep_days: 0}\n")
	s.write(sessionAPath, sessionA)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("first pass: %d %s", code, errOut)
	}
	first, _, _ := s.run("history", "--json")
	s.appendTo(sessionAPath, sessionB)
	if _, errOut, code := s.run("run", "--once"); code != 0 {
		t.Fatalf("second pass: %d %s", code, errOut)
	}
	var h struct {
		Runs []struct {
			RunID string `json:"run_id"`
		} `json:"runs"`
	}
	json.Unmarshal([]byte(first), &h)
	pruned := h.Runs[0].RunID
	out, _, _ := s.run("history", "--json")
	json.Unmarshal([]byte(out), &h)
	if len(h.Runs) != 1 || h.Runs[0].RunID == pruned {
		t.Errorf("history after two applies with keep_runs 1: %s", out)
	}
	if _, errOut, code := s.run("rollback", pruned); code != 2 || !strings.Contains(errOut, "pruned") {
		t.Errorf("rollback of a pruned run: exit %d\n%s", code, errOut)
	}
	if out, _, code := s.run("gc", "--format", "json"); code != 0 || !strings.Contains(out, `"state_bytes"`) {
		t.Errorf("gc: exit %d\n%s", code, out)
	}
	if out, _, _ := s.run("status"); !strings.Contains(out, "state") {
		t.Errorf("status does not show the state size:\n%s", out)
	}
}
