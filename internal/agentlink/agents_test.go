package agentlink

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clearAgentEnv unsets the variables that move the agents' user-level directories, so the
// defaults are what a test sees.
func clearAgentEnv(t *testing.T) {
	for _, env := range []string{"CODEX_HOME", "XDG_CONFIG_HOME", "QWEN_HOME", "COPILOT_HOME", "CRUSH_GLOBAL_CONFIG"} {
		t.Setenv(env, "")
	}
}

// TestWhereEachAgentReads: each agent's link goes to the file that agent reads, at the project
// root while git does not track it, else the agent's own user-level file (never another agent's).
func TestWhereEachAgentReads(t *testing.T) {
	tests := []struct {
		agent   string
		project string // relative to the project
		user    string // relative to the home directory
	}{
		{Codex, "AGENTS.md", ".codex/AGENTS.md"},
		{OpenCode, "AGENTS.md", ".config/opencode/AGENTS.md"},
		{Kilo, "AGENTS.md", ".config/kilo/AGENTS.md"},
		{Gemini, "GEMINI.md", ".gemini/GEMINI.md"},
		{Qwen, "QWEN.md", ".qwen/QWEN.md"},
		{Copilot, ".github/copilot-instructions.md", ".copilot/copilot-instructions.md"},
		{Crush, "CRUSH.md", ".config/crush/CRUSH.md"},
		{Cline, ".clinerules/dreamd-memory.md", "Documents/Cline/Rules/dreamd-memory.md"},
	}
	if len(tests) != len(Agents)-1 { // aider has its own test
		t.Fatalf("%d agents tested, %d known: every agent needs a row", len(tests), len(Agents)-1)
	}
	clearAgentEnv(t)
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			repo, home := gitRepo(t), t.TempDir()
			l, err := New(tt.agent, repo, "/store", Options{Home: home})
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(repo, tt.project); l.Files[0].Path != want {
				t.Errorf("untracked: %s, want %s", l.Files[0].Path, want)
			}
			write(t, filepath.Join(repo, tt.project), "team rules\n")
			run(t, repo, "git", "add", "--", tt.project)
			run(t, repo, "git", "commit", "-qm", "rules")
			l, err = New(tt.agent, repo, "/store", Options{Home: home})
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(home, tt.user); l.Files[0].Path != want {
				t.Errorf("tracked: %s, want %s", l.Files[0].Path, want)
			}
			if _, err := l.Write("lesson\n"); err != nil {
				t.Fatal(err)
			}
			if got := read(t, l.Files[0].Path); !strings.Contains(got, "## Memory of the project "+repo+"\n") {
				t.Errorf("the user-level block names no project:\n%s", got)
			}
			if st := gitStatus(t, repo); st != "" {
				t.Errorf("git status:\n%s", st)
			}
			in, _ := New(tt.agent, repo, "/store", Options{Home: home, InRepo: true})
			if want := filepath.Join(repo, tt.project); in.Files[0].Path != want {
				t.Errorf("--in-repo: %s, want %s", in.Files[0].Path, want)
			}
		})
	}
}

// TestUserFilesFollowTheAgentsEnvironment: where an agent moves its user-level directory with an
// environment variable, the link follows it.
func TestUserFilesFollowTheAgentsEnvironment(t *testing.T) {
	tests := []struct {
		agent, env, value, want string // want relative to value
	}{
		{Codex, "CODEX_HOME", "codexhome", "AGENTS.md"},
		{OpenCode, "XDG_CONFIG_HOME", "xdg", "opencode/AGENTS.md"},
		{Kilo, "XDG_CONFIG_HOME", "xdg", "kilo/AGENTS.md"},
		{Qwen, "QWEN_HOME", "qwenhome", "QWEN.md"},
		{Copilot, "COPILOT_HOME", "copilothome", "copilot-instructions.md"},
		{Crush, "XDG_CONFIG_HOME", "xdg", "crush/CRUSH.md"},
		{Crush, "CRUSH_GLOBAL_CONFIG", "crushconf", "CRUSH.md"},
	}
	for _, tt := range tests {
		t.Run(tt.agent+" "+tt.env, func(t *testing.T) {
			clearAgentEnv(t)
			dir := filepath.Join(t.TempDir(), tt.value)
			t.Setenv(tt.env, dir)
			if got, want := instructionFiles[tt.agent].user(t.TempDir()), filepath.Join(dir, tt.want); got != want {
				t.Errorf("user file = %s, want %s", got, want)
			}
		})
	}
}

// TestClineRules: Cline reads a .clinerules file, or every Markdown file of a .clinerules folder;
// the link writes into the file, or its own file in the folder, and unlinking removes only what it
// made.
func TestClineRules(t *testing.T) {
	clearAgentEnv(t)
	t.Run("no rules yet", func(t *testing.T) {
		repo := gitRepo(t)
		l := link(t, Cline, repo, t.TempDir())
		if want := filepath.Join(repo, ".clinerules", clineFile); l.Files[0].Path != want {
			t.Fatalf("path = %s, want %s", l.Files[0].Path, want)
		}
		if st := gitStatus(t, repo); st != "" {
			t.Errorf("git status:\n%s", st)
		}
		if err := l.Undo(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(repo, ".clinerules")); !os.IsNotExist(err) {
			t.Errorf("the .clinerules folder link made is still there: %v", err)
		}
	})
	t.Run("a rules folder", func(t *testing.T) {
		repo := gitRepo(t)
		write(t, filepath.Join(repo, ".clinerules", "01-style.md"), "tabs\n")
		run(t, repo, "git", "add", ".clinerules")
		run(t, repo, "git", "commit", "-qm", "rules")
		l := link(t, Cline, repo, t.TempDir())
		if want := filepath.Join(repo, ".clinerules", clineFile); l.Files[0].Path != want {
			t.Fatalf("path = %s, want %s", l.Files[0].Path, want)
		}
		if st := gitStatus(t, repo); st != "" {
			t.Errorf("git status:\n%s", st)
		}
		if err := l.Undo(); err != nil {
			t.Fatal(err)
		}
		if got := read(t, filepath.Join(repo, ".clinerules", "01-style.md")); got != "tabs\n" {
			t.Errorf("the person's rule changed: %q", got)
		}
	})
	t.Run("an untracked rules file", func(t *testing.T) {
		repo := gitRepo(t)
		rules := filepath.Join(repo, ".clinerules")
		write(t, rules, "tabs\n")
		l := link(t, Cline, repo, t.TempDir())
		if l.Files[0].Path != rules || !strings.Contains(read(t, rules), "lesson") {
			t.Fatalf("path = %s, want the block in %s", l.Files[0].Path, rules)
		}
		if err := l.Undo(); err != nil {
			t.Fatal(err)
		}
		if got := read(t, rules); got != "tabs\n" {
			t.Errorf("after unlink: %q", got)
		}
	})
	t.Run("a tracked rules file", func(t *testing.T) {
		repo, home := gitRepo(t), t.TempDir()
		write(t, filepath.Join(repo, ".clinerules"), "tabs\n")
		run(t, repo, "git", "add", ".clinerules")
		run(t, repo, "git", "commit", "-qm", "rules")
		l := link(t, Cline, repo, home)
		if want := filepath.Join(home, "Documents", "Cline", "Rules", clineFile); l.Files[0].Path != want {
			t.Fatalf("path = %s, want %s", l.Files[0].Path, want)
		}
	})
}

// TestCopilotLeavesNoGithubFolder: linking Copilot in a project without .github creates it for
// the instructions file, and unlinking takes both away; a .github folder of the project's stays.
func TestCopilotLeavesNoGithubFolder(t *testing.T) {
	clearAgentEnv(t)
	for _, had := range []bool{false, true} {
		repo := gitRepo(t)
		if had {
			write(t, filepath.Join(repo, ".github", "workflows", "ci.yml"), "on: push\n")
		}
		l := link(t, Copilot, repo, t.TempDir())
		if st := gitStatus(t, repo); st != "" && !had {
			t.Errorf("git status:\n%s", st)
		}
		if err := l.Undo(); err != nil {
			t.Fatal(err)
		}
		_, err := os.Stat(filepath.Join(repo, ".github"))
		if had != (err == nil) {
			t.Errorf(".github there before: %v; after unlink: %v", had, err)
		}
		if _, err := os.Stat(filepath.Join(repo, ".github", "copilot-instructions.md")); !os.IsNotExist(err) {
			t.Errorf("the instructions file is still there: %v", err)
		}
	}
}

// TestLinksSharingAFileWriteOneBlock: codex, opencode and kilo all read the project's AGENTS.md.
// Their links write one block there; unlinking any of them, in any order, leaves the block to the
// others, and the last one out leaves the project as it was.
func TestLinksSharingAFileWriteOneBlock(t *testing.T) {
	clearAgentEnv(t)
	orders := [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}}
	for _, order := range orders {
		repo, home := gitRepo(t), t.TempDir()
		agents := []string{Codex, OpenCode, Kilo}
		var links []Link
		for _, a := range agents {
			links = append(links, link(t, a, repo, home))
		}
		agentsMD := filepath.Join(repo, "AGENTS.md")
		if got := strings.Count(read(t, agentsMD), "<!-- dreamd:begin"); got != 1 {
			t.Fatalf("%d blocks in AGENTS.md for three links, want 1:\n%s", got, read(t, agentsMD))
		}
		for n, i := range order {
			agent := agents[i]
			at := indexOf(links, agent)
			var err error
			if links, err = Unlink(links, at); err != nil {
				t.Fatal(err)
			}
			left := len(order) - n - 1
			data, err := os.ReadFile(agentsMD)
			switch {
			case left > 0 && (err != nil || !strings.Contains(string(data), "lesson")):
				t.Fatalf("order %v: after unlinking %s, %d links are left but the block is gone (%v)", order, agent, left, err)
			case left == 0 && !os.IsNotExist(err):
				t.Fatalf("order %v: the AGENTS.md the links created is still there: %q", order, data)
			}
		}
		if got := read(t, filepath.Join(repo, ".git", "info", "exclude")); got != "# original exclude\n" {
			t.Errorf("order %v: exclude file after the last unlink: %q", order, got)
		}
	}
}

func link(t *testing.T, agent, repo, home string) Link {
	t.Helper()
	l, err := New(agent, repo, "/store", Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Write("lesson\n"); err != nil {
		t.Fatal(err)
	}
	return l
}

func indexOf(links []Link, agent string) int {
	for i, l := range links {
		if l.Agent == agent {
			return i
		}
	}
	return -1
}
