package phases

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
)

// A memory citing a file that is then deleted, or a make target that is then removed, is marked
// stale at the next pass: on its index line, in the call (verify or retire), in the plan. A
// memory naming a path that never existed is not.
func TestCitationsNoLongerHolding(t *testing.T) {
	var sent []extract.Memory
	f := newFixture(t, func(req extract.Request) extract.Response {
		sent = req.Memories
		return extract.Response{Summary: "nothing new"}
	})
	project := filepath.Join(f.root, "shop")
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(project, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Makefile", "lint:\n\tgolangci-lint run\ntest:\n\tgo test ./...\n")
	write("scripts/deploy.sh", "#!/bin/sh\n")
	dir := filepath.Join(f.root, "projects", slug.Project(project), "memory")
	os.MkdirAll(dir, 0o755)
	for name, text := range map[string]string{
		"lint-first":   "---\nname: lint-first\ndescription: Run make lint before committing\ntype: feedback\nsources: [claude:s0]\n---\nRun `make lint` before committing.\n",
		"deploy":       "---\nname: deploy\ndescription: Deploys go through scripts/deploy.sh\ntype: project\nsources: [claude:s0]\n---\nDeploy with `scripts/deploy.sh`.\n",
		"future-tests": "---\nname: future-tests\ndescription: Browser tests will live in e2e/browser.spec.ts\ntype: project\nsources: [claude:s0]\n---\nPut them in `e2e/browser.spec.ts`.\n",
	} {
		os.WriteFile(filepath.Join(dir, name+".md"), []byte(text), 0o644)
	}

	f.session("s1", project, "hello", "A:hi")
	out := f.run(Options{})
	if len(out) != 1 || out[0].Err != nil {
		t.Fatalf("first pass: %+v", out)
	}
	if p := out[0].Plan; p != nil && len(p.Stale) > 0 {
		t.Errorf("stale while everything holds: %+v", p.Stale)
	}
	for _, m := range sent {
		if m.Stale != "" {
			t.Errorf("%s sent as stale: %s", m.Name, m.Stale)
		}
	}

	write("Makefile", "test:\n\tgo test ./...\n")
	os.Remove(filepath.Join(project, "scripts", "deploy.sh"))
	f.session("s2", project, "hello again", "A:hi")
	out = f.run(Options{})
	if len(out) != 1 || out[0].Err != nil || out[0].Plan == nil {
		t.Fatalf("second pass: %+v", out)
	}
	stale := map[string]string{}
	for _, s := range out[0].Plan.Stale {
		stale[s.Name] = s.Why
	}
	if !strings.Contains(stale["lint-first"], `Makefile has no target "lint"`) || !strings.Contains(stale["deploy"], "scripts/deploy.sh is not in the project") || stale["future-tests"] != "" || len(stale) != 2 {
		t.Errorf("stale = %v", stale)
	}
	for _, m := range sent {
		if (m.Stale != "") != (m.Name != "future-tests") {
			t.Errorf("%s sent with stale %q", m.Name, m.Stale)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, store.IndexFile))
	for _, want := range []string{"- [deploy](deploy.md) — " + StaleMark, "- [lint-first](lint-first.md) — " + StaleMark, "- [future-tests](future-tests.md) — Browser"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index lacks %q:\n%s", want, index)
		}
	}
	rec, err := LoadCitations(store.Paths{State: out[0].Plan.State})
	if err != nil || rec.Project != project || rec.Stale["deploy"] == "" {
		t.Errorf("recorded citations %+v (%v)", rec, err)
	}
}
