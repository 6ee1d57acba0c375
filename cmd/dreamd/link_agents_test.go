package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// linkTargets is where each agent's link goes in a project that tracks none of its instruction
// files, and where it goes when the project tracks them (relative to HOME).
var linkTargets = []struct {
	agent, project, user string
}{
	{"codex", "AGENTS.md", ".codex/AGENTS.md"},
	{"opencode", "AGENTS.md", ".config/opencode/AGENTS.md"},
	{"kilo", "AGENTS.md", ".config/kilo/AGENTS.md"},
	{"gemini", "GEMINI.md", ".gemini/GEMINI.md"},
	{"qwen", "QWEN.md", ".qwen/QWEN.md"},
	{"copilot", ".github/copilot-instructions.md", ".copilot/copilot-instructions.md"},
	{"crush", "CRUSH.md", ".config/crush/CRUSH.md"},
	{"cline", ".clinerules/dreamd-memory.md", "Documents/Cline/Rules/dreamd-memory.md"},
}

// gitProject makes a git repository at rel in the sandbox with files committed (path → text).
func gitProject(t *testing.T, s *sandbox, rel string, files map[string]string) (string, func(...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := s.path(rel)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(s.env, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	s.write(rel+"/README.md", "readme\n")
	for path, text := range files {
		s.write(rel+"/"+path, text)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-qm", "init")
	return dir, git
}

// TestLinkEveryAgent drives `dreamd link` and `unlink` through the binary for every agent, in a
// temporary HOME: in a project that tracks none of the instruction files each link lands in the
// project's file (the three reading AGENTS.md sharing one block), and in one that tracks them all
// each lands in that agent's own user-level file; git status stays clean, and unlinking leaves
// every file as it was.
func TestLinkEveryAgent(t *testing.T) {
	s := newSandbox(t, offlineConfig)
	t.Run("untracked", func(t *testing.T) {
		project, git := gitProject(t, s, "src/shop", nil)
		for _, tt := range linkTargets {
			out, errOut, code := s.run("link", tt.agent, "--project", project)
			if want := filepath.Join(project, filepath.FromSlash(tt.project)); code != 0 || !strings.Contains(out, want) {
				t.Fatalf("link %s: exit %d, want %s\n%s%s", tt.agent, code, want, out, errOut)
			}
		}
		if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("git status after linking every agent:\n%s", st)
		}
		agentsMD := filepath.Join(project, "AGENTS.md")
		if data, _ := os.ReadFile(agentsMD); strings.Count(string(data), "<!-- dreamd:begin") != 1 {
			t.Errorf("AGENTS.md, read by codex, opencode and kilo, holds other than one block:\n%s", data)
		}
		for _, tt := range linkTargets {
			if out, errOut, code := s.run("unlink", tt.agent, "--project", project); code != 0 {
				t.Fatalf("unlink %s: exit %d\n%s%s", tt.agent, code, out, errOut)
			}
			if tt.agent == "codex" {
				if data, err := os.ReadFile(agentsMD); err != nil || !strings.Contains(string(data), "<!-- dreamd:begin") {
					t.Errorf("unlinking codex took the block opencode and kilo still read (%v):\n%s", err, data)
				}
			}
		}
		entries, _ := os.ReadDir(project)
		if len(entries) != 2 { // .git and README.md
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Errorf("left in the project after unlinking every agent: %v", names)
		}
		if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("git status after unlinking:\n%s", st)
		}
	})
	t.Run("tracked", func(t *testing.T) {
		files := map[string]string{}
		for _, tt := range linkTargets {
			files[tt.project] = "team rules for " + tt.agent + "\n"
		}
		files[".clinerules/dreamd-memory.md"] = "" // a rules folder whose file of dreamd's is tracked: unlikely, but the rule is the same
		project, git := gitProject(t, s, "src/team", files)
		for _, tt := range linkTargets {
			out, errOut, code := s.run("link", tt.agent, "--project", project)
			user := s.path(tt.user)
			if code != 0 || !strings.Contains(out, user) {
				t.Fatalf("link %s: exit %d, want %s\n%s%s", tt.agent, code, user, out, errOut)
			}
			if data, _ := os.ReadFile(user); !strings.Contains(string(data), "## Memory of the project "+project+"\n") {
				t.Errorf("%s: %s has no block under a heading naming the project:\n%s", tt.agent, user, data)
			}
		}
		if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
			t.Errorf("git status after linking every agent:\n%s", st)
		}
		for _, tt := range linkTargets {
			if out, errOut, code := s.run("unlink", tt.agent, "--project", project); code != 0 {
				t.Fatalf("unlink %s: exit %d\n%s%s", tt.agent, code, out, errOut)
			}
			if _, err := os.Stat(s.path(tt.user)); !os.IsNotExist(err) {
				t.Errorf("%s: the user-level file the link created is still there: %v", tt.agent, err)
			}
		}
	})
}
