package main

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// TestKilledAnywhereLeavesBeforeOrAfter kills a real dreamd process with SIGKILL at many points of
// a pass that rewrites a large store, then lets the next dreamd command start, and checks that
// the store is byte for byte either as before the pass or as after it, with the cursors moved
// exactly when the store moved.
func TestKilledAnywhereLeavesBeforeOrAfter(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real processes; skipped with -short")
	}
	setup, storeOf, srv := bigRewrite(t)
	defer srv.Close()
	killedRuns(t, setup, storeOf, srv)
}

// TestRollbackAfterAKill: `rollback` right after a pass was killed anywhere finishes the
// interrupted apply first and leaves the store exactly as it was before the pass.
func TestRollbackAfterAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills real processes; skipped with -short")
	}
	setup, storeOf, srv := bigRewrite(t)
	defer srv.Close()
	ref := setup()
	before := storeOf(ref)
	start := time.Now()
	if _, errOut, code := ref.run("run", "--once"); code != 0 {
		t.Fatalf("reference pass: exit %d\n%s", code, errOut)
	}
	took := time.Since(start)
	const kills = 8
	for i := range kills {
		s := setup()
		killPass(t, s, took*time.Duration(i)/time.Duration(kills-2))
		_, errOut, code := s.run("rollback")
		if code != 0 && !strings.Contains(errOut, "no applied run") {
			t.Fatalf("kill %d: rollback: exit %d: %s", i, code, errOut)
		}
		if got := storeOf(s); !maps.Equal(got, before) {
			t.Fatalf("kill %d: after rollback the store is not as before the pass (%d files, %d before): %s", i, len(got), len(before), errOut)
		}
	}
}

// killPass starts `dreamd run --once` in s and kills it with SIGKILL after d.
func killPass(t *testing.T, s *sandbox, d time.Duration) {
	t.Helper()
	cmd := exec.Command(binary, "--config", s.config, "run", "--once")
	cmd.Env, cmd.Dir = s.env, s.home
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
}

// bigRewrite is a pass that rewrites a 60-memory store and adds 120 memories: long enough to be
// killed in the middle of its apply.
func bigRewrite(t *testing.T) (setup func() *sandbox, storeOf func(*sandbox) map[string]string, srv *llmtest.Server) {
	const existing, created = 60, 120
	var ops []map[string]any
	for i := range existing {
		ops = append(ops, map[string]any{"action": "update", "name": fmt.Sprintf("memory-%03d", i), "type": "project",
			"description": fmt.Sprintf("Updated fact %d", i), "body": strings.Repeat(fmt.Sprintf("updated body %d. ", i), 40),
			"reason": "newer evidence", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})
	}
	for i := range created {
		ops = append(ops, map[string]any{"action": "create", "name": fmt.Sprintf("new-memory-%03d", i), "type": "feedback",
			"description": fmt.Sprintf("New rule %d", i), "body": strings.Repeat(fmt.Sprintf("new rule %d. ", i), 40),
			"reason": "explicit", "evidence": []string{"aaaa1111-0000-4000-8000-000000000001"}})
	}
	response := llmtest.Ops("Big rewrite.", ops...)
	srv = llmtest.New()
	srv.Respond = func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Content: response} }
	setup = func() *sandbox {
		s := newSandbox(t, llmConfig(srv.BaseURL()))
		s.write(sessionAPath, sessionA)
		for i := range existing {
			name := fmt.Sprintf("memory-%03d", i)
			s.write(shopStore+"/"+name+".md", fmt.Sprintf(
				"---\nname: %s\ndescription: Fact %d\ntype: project\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\nOriginal body %d.\n", name, i, i))
		}
		return s
	}
	storeOf = func(s *sandbox) map[string]string {
		m := map[string]string{}
		for p, c := range snapshot(t, s.path(shopStore)) {
			if filepath.Base(p) != ".consolidate-lock" {
				m[filepath.Base(p)] = c
			}
		}
		return m
	}
	return setup, storeOf, srv
}

// killedRuns kills passes at points spread over a whole pass and checks each leaves the store as
// before or as after.
func killedRuns(t *testing.T, setup func() *sandbox, storeOf func(*sandbox) map[string]string, srv *llmtest.Server) {
	// The reference pass, uninterrupted: what "after" looks like, and how long a pass takes.
	ref := setup()
	before := storeOf(ref)
	start := time.Now()
	if out, errOut, code := ref.run("run", "--once"); code != 0 {
		t.Fatalf("reference pass: exit %d\n%s\n%s", code, out, errOut)
	}
	took := time.Since(start)
	after := storeOf(ref)
	if maps.Equal(before, after) {
		t.Fatal("the reference pass changed nothing")
	}

	kills := 30
	if os.Getenv("CI") != "" {
		kills = 20
	}
	seen := map[string]int{}
	for i := range kills {
		s := setup()
		// Spread the kills over the whole pass, a little past its usual end.
		killPass(t, s, took*time.Duration(i)/time.Duration(kills-5))

		// The next dreamd command finishes whatever the killed one left.
		_, errOut, code := s.run("status")
		if code != 0 {
			t.Fatalf("kill %d: status after the kill: exit %d: %s", i, code, errOut)
		}
		if strings.Contains(errOut, "finished an interrupted apply") {
			seen["journal recovered"]++
		}
		got := storeOf(s)
		calls := len(srv.Requests())
		_, _, code = s.run("run", "--once")
		madeCall := len(srv.Requests()) > calls
		switch {
		case maps.Equal(got, before):
			seen["before"]++
			if code != 0 || !madeCall {
				t.Errorf("kill %d: store as before, yet the next pass did not consolidate again (exit %d)", i, code)
			}
		case maps.Equal(got, after):
			seen["after"]++
			if madeCall {
				t.Errorf("kill %d: store as after, yet the cursors did not move (the next pass called the model)", i)
			}
		default:
			var extra []string
			for name := range got {
				if _, ok := before[name]; !ok {
					extra = append(extra, name)
				}
			}
			t.Fatalf("kill %d after %v: the store is neither as before nor as after the pass (%d files; not there before: %v)", i, took*time.Duration(i)/time.Duration(kills-5), len(got), extra)
		}
	}
	t.Logf("pass took %v; after %d kills: %v", took, kills, seen)
}
