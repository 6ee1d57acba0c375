package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/testutil/llmtest"
)

// editSandbox is the sandbox of TestReviewKeysFromStdin with a plan saved, its store's files as
// they were before it, and a temporary folder of its own.
func editSandbox(t *testing.T) (s *sandbox, plan, mem string, before map[string]string) {
	t.Helper()
	srv := llmtest.New(llmtest.Reply{Content: mixedOps()})
	t.Cleanup(srv.Close)
	s = newSandbox(t, llmConfig(srv.BaseURL()))
	for _, name := range []string{"old-notes", "style", "build", "team"} {
		s.write(shopStore+"/"+name+".md", "---\nname: "+name+"\ndescription: About "+name+"\ntype: project\n---\nSomething about "+name+".\n")
	}
	s.write(sessionAPath, sessionA)
	s.write(sessionBPath, sessionB)
	if err := os.MkdirAll(s.path("tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	s.env = append(s.env, "TMPDIR="+s.path("tmp"))
	mem = s.path(shopStore)
	before = memoryFiles(t, mem)
	plan = s.path("plan.json")
	mustRun(t, s, "plan", "-o", plan)
	return s, plan, mem, before
}

// fakeToken is shaped like a GitHub token, made up; built here so no fixture holds one.
var fakeToken = "ghp_" + strings.Repeat("Zq8Rt5Wm3K", 4)[:36]

// TestReviewEditsInTheEditor drives `dreamd review`'s e with $EDITOR a script: the first edit
// pastes a credential and is refused, saying why, and the operation is edited again; the second
// is shown as a diff, accepted, and written. The editor saw the operation's text in a file only
// the user may read, removed afterwards; the history records the edit; the same decisions given
// to `dreamd apply --skip --edit` in a fresh sandbox leave the same files; rollback restores the
// store byte for byte.
func TestReviewEditsInTheEditor(t *testing.T) {
	s, plan, mem, before := editSandbox(t)
	editor := s.path("editor.sh")
	s.write("editor.sh", `#!/bin/sh
n=$(cat "$HOME/calls" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$HOME/calls"
ls -l "$1" | cut -c1-10 > "$HOME/mode-$n"
echo "$1" > "$HOME/path-$n"
cp "$1" "$HOME/saw-$n"
if [ $n = 1 ]; then
  echo "The deploy token is `+fakeToken+`." >> "$1"
else
  sed 's/^description: .*/description: Deploys go through .\/deploy.sh on a clean tree/' "$1" > "$1.new"
  echo "Commit or stash first." >> "$1.new"
  cat "$1.new" > "$1"; rm "$1.new"
  cp "$1" "$HOME/edited"
fi
`)
	if err := os.Chmod(editor, 0o755); err != nil {
		t.Fatal(err)
	}
	s.env = append(s.env, "EDITOR="+editor, "VISUAL=")

	// deploy-with-deploy-sh: e (refused), e, a; laptop-deploys: r; lint-before-commit: a; old-notes: r.
	out, errOut, code := s.runWithInput("e\ne\na\nr\na\nr\n", "review", plan)
	if code != 0 {
		t.Fatalf("review: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"for " + mem + ": 4 operations\nsummary: Three lessons, one stale note.\n",
		"accept this operation? [a]ccept, [r]eject, [e]dit, [q]uit: ",
		"the edit is refused: deploy-with-deploy-sh: secret (github-token) in body; edit it again or reject it",
		"edited: deploy-with-deploy-sh now writes",
		"+description: Deploys go through ./deploy.sh on a clean tree",
		"+Commit or stash first.",
		"review: 2 of 4 operations accepted (edited: deploy-with-deploy-sh), rejected: laptop-deploys, old-notes; applying",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("review shows no %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut+out, fakeToken) {
		t.Error("the review shows the pasted credential")
	}
	if !strings.Contains(out, "edited: deploy-with-deploy-sh") {
		t.Errorf("stdout: %s", out)
	}
	saw := s.read("saw-1")
	for _, want := range []string{"name: deploy-with-deploy-sh\n", "type: project\n", "description: Deploys go through ./deploy.sh\n", "---\nDeploys run through ./deploy.sh.\n"} {
		if !strings.Contains(saw, want) {
			t.Errorf("the editor was given no %q:\n%s", want, saw)
		}
	}
	for _, n := range []string{"1", "2"} {
		if mode := strings.TrimSpace(s.read("mode-" + n)); mode != "-rw-------" {
			t.Errorf("edit %s: the file was %s, want -rw------- (only the user reads it)", n, mode)
		}
		if _, err := os.Stat(strings.TrimSpace(s.read("path-" + n))); !os.IsNotExist(err) {
			t.Errorf("edit %s: the temporary file is left: %v", n, err)
		}
	}
	after := memoryFiles(t, mem)
	deploy := after[filepath.Join(mem, "deploy-with-deploy-sh.md")]
	if !strings.Contains(deploy, "description: Deploys go through ./deploy.sh on a clean tree\n") || !strings.Contains(deploy, "Commit or stash first.") {
		t.Errorf("deploy-with-deploy-sh.md does not hold the edit:\n%s", deploy)
	}
	if after[filepath.Join(mem, "laptop-deploys.md")] != "" || after[filepath.Join(mem, "lint-before-commit.md")] == "" {
		t.Errorf("store after the review: %v", slices.Sorted(maps.Keys(after)))
	}

	var h struct {
		Runs []struct {
			RunID string `json:"run_id"`
			Meta  struct {
				Summary string   `json:"summary"`
				PlanMAC string   `json:"plan_mac"`
				Edited  []string `json:"edited"`
			} `json:"meta"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, s, "history", "--json")), &h); err != nil || len(h.Runs) != 1 {
		t.Fatalf("history: %v %+v", err, h)
	}
	if m := h.Runs[0].Meta; !slices.Equal(m.Edited, []string{"deploy-with-deploy-sh"}) || len(m.PlanMAC) != 64 ||
		!strings.Contains(m.Summary, "rejected: laptop-deploys, old-notes; edited in review: deploy-with-deploy-sh.") {
		t.Errorf("history meta %+v does not record the edit", m)
	}
	if show := mustRun(t, s, "history", "show", h.Runs[0].RunID); !strings.Contains(show, "deploy-with-deploy-sh (a person's text, in review)") {
		t.Errorf("history show:\n%s", show)
	}

	// The same decisions through `dreamd apply`, in a sandbox of their own: the same files.
	s2, plan2, mem2, _ := editSandbox(t)
	s2.write("deploy.md", s.read("edited"))
	mustRun(t, s2, "apply", plan2, "--skip", "laptop-deploys,old-notes", "--edit", "deploy-with-deploy-sh="+s2.path("deploy.md"))
	again := memoryFiles(t, mem2)
	for p, content := range after {
		if rel, _ := filepath.Rel(mem, p); again[filepath.Join(mem2, rel)] != content {
			t.Errorf("%s differs between review and apply --edit:\n review %q\n  apply %q", rel, content, again[filepath.Join(mem2, rel)])
		}
	}
	if len(again) != len(after) {
		t.Errorf("apply --edit wrote %d files, review %d", len(again), len(after))
	}

	mustRun(t, s, "rollback", h.Runs[0].RunID)
	if got := memoryFiles(t, mem); !maps.Equal(got, before) {
		t.Errorf("rollback did not restore the store:\n got %v\nwant %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(before)))
	}
}

// TestApplyEditRefusals: an --edit naming another memory or not NAME=FILE is a usage error, one
// pasting a credential is refused (exit 4) without quoting it; none writes the store.
func TestApplyEditRefusals(t *testing.T) {
	s, plan, mem, before := editSandbox(t)
	s.write("renamed.md", "---\nname: something-else\n---\nbody\n")
	s.write("secret.md", "---\ndescription: Run make lint\n---\nThe token is "+fakeToken+".\n")
	s.write("broken.md", "no front matter\n")
	for _, tt := range []struct {
		edit string
		code int
		want string
	}{
		{"lint-before-commit=" + s.path("renamed.md"), exitUsage, `names the memory "something-else": an edit keeps the operation's name`},
		{"lint-before-commit", exitUsage, "want NAME=FILE"},
		{"lint-before-commit=" + s.path("broken.md"), exitUsage, "expected the front matter's opening ---"},
		{"nope=" + s.path("secret.md"), exitUsage, `no operation on "nope" to edit`},
		{"lint-before-commit=" + s.path("secret.md"), exitRefused, "lint-before-commit: secret (github-token) in body"},
	} {
		_, errOut, code := s.run("apply", plan, "--edit", tt.edit)
		if code != tt.code || !strings.Contains(errOut, tt.want) {
			t.Errorf("--edit %s: exit %d, %s; want exit %d saying %q", tt.edit, code, errOut, tt.code, tt.want)
		}
		if strings.Contains(errOut, fakeToken) {
			t.Errorf("--edit %s: the message quotes the credential", tt.edit)
		}
	}
	if !maps.Equal(memoryFiles(t, mem), before) {
		t.Error("a refused edit wrote the store")
	}
}

// read is a file of the sandbox's HOME.
func (s *sandbox) read(rel string) string {
	s.t.Helper()
	b, err := os.ReadFile(s.path(rel))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}
