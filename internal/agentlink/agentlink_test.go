package agentlink

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPutRemoveRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		before *string // nil: no file
	}{
		{"no file", nil},
		{"empty file", ptr("")},
		{"ends with newline", ptr("# Team rules\n\nUse tabs.\n")},
		{"ends with blank line", ptr("# Team rules\n\n")},
		{"no final newline", ptr("# Team rules\nUse tabs.")},
		{"crlf", ptr("# Rules\r\nUse tabs.\r\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "AGENTS.md")
			if tt.before != nil {
				write(t, path, *tt.before)
			}
			w, changed, err := Markdown.Put(path, "/p", "first memory\n", 0o644)
			if err != nil || !changed {
				t.Fatalf("Put: changed %v, %v", changed, err)
			}
			got := read(t, path)
			if tt.before != nil && !strings.HasPrefix(got, *tt.before) {
				t.Fatalf("text before the block changed:\n%q", got)
			}
			if !strings.Contains(got, "first memory\n<!-- dreamd:end /p -->\n") {
				t.Fatalf("no block:\n%q", got)
			}
			// The same text again: nothing written.
			if _, changed, _ := Markdown.Put(path, "/p", "first memory\n", 0o644); changed {
				t.Error("an unchanged block was written again")
			}
			// New text replaces the block in place.
			if _, changed, _ := Markdown.Put(path, "/p", "second memory\n", 0o644); !changed {
				t.Error("a changed block was not written")
			}
			if got := read(t, path); strings.Contains(got, "first memory") || strings.Count(got, "dreamd:begin") != 1 {
				t.Fatalf("block not replaced:\n%q", got)
			}
			if _, err := Markdown.Remove(path, "/p", w); err != nil {
				t.Fatal(err)
			}
			if tt.before == nil {
				if _, err := os.Stat(path); !os.IsNotExist(err) {
					t.Errorf("a file link created is still there: %v", err)
				}
				return
			}
			if got := read(t, path); got != *tt.before {
				t.Errorf("after unlink:\n%q\nwant\n%q", got, *tt.before)
			}
		})
	}
}

func TestBlocksOfTwoProjectsInOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	write(t, path, "mine\n")
	wa, _, _ := Markdown.Put(path, "/a", "A\n", 0o644)
	wb, _, _ := Markdown.Put(path, "/b", "B\n", 0o644)
	Markdown.Put(path, "/a", "A2\n", 0o644)
	if _, err := Markdown.Remove(path, "/a", wa); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); strings.Contains(got, "A2") || !strings.Contains(got, "B\n") {
		t.Fatalf("after removing /a:\n%s", got)
	}
	Markdown.Remove(path, "/b", wb)
	if got := read(t, path); got != "mine\n" {
		t.Errorf("after removing both: %q", got)
	}
}

func TestLinkKeepsGitStatusClean(t *testing.T) {
	repo := gitRepo(t)
	for _, agent := range Agents {
		l, err := New(agent, repo, "/store", Options{Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Write("memory of " + agent + "\n"); err != nil {
			t.Fatal(err)
		}
		if st := gitStatus(t, repo); st != "" {
			t.Errorf("%s: git status after link:\n%s", agent, st)
		}
		if !strings.Contains(read(t, l.Files[0].Path), "memory of "+agent) {
			t.Errorf("%s: the block is not in %s", agent, l.Files[0].Path)
		}
		if err := l.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if got := read(t, filepath.Join(repo, ".git", "info", "exclude")); got != "# original exclude\n" {
		t.Errorf("exclude file after unlink: %q", got)
	}
	if entries, _ := os.ReadDir(repo); len(entries) != 2 { // .git and README.md
		t.Errorf("files left behind: %v", entries)
	}
}

func TestTrackedInstructionFileGoesToTheUserFile(t *testing.T) {
	repo := gitRepo(t)
	write(t, filepath.Join(repo, "AGENTS.md"), "team rules\n")
	run(t, repo, "git", "add", "AGENTS.md")
	run(t, repo, "git", "commit", "-qm", "rules")
	home := t.TempDir()
	t.Setenv("CODEX_HOME", "")
	l, err := New("codex", repo, "/store", Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, ".codex", "AGENTS.md"); l.Files[0].Path != want {
		t.Fatalf("path = %s, want %s", l.Files[0].Path, want)
	}
	if _, err := l.Write("lesson\n"); err != nil {
		t.Fatal(err)
	}
	if st := gitStatus(t, repo); st != "" {
		t.Errorf("git status:\n%s", st)
	}
	if got := read(t, l.Files[0].Path); !strings.Contains(got, "Memory of the project "+repo) {
		t.Errorf("the user-level block does not say which project it is for:\n%s", got)
	}
	// --in-repo writes into the tracked file itself.
	in, _ := New("codex", repo, "/store", Options{Home: home, InRepo: true})
	if in.Files[0].Path != filepath.Join(repo, "AGENTS.md") {
		t.Errorf("--in-repo path = %s", in.Files[0].Path)
	}
}

func TestAiderWithAReadList(t *testing.T) {
	repo := gitRepo(t)
	write(t, filepath.Join(repo, ".aider.conf.yml"), "read: [CONVENTIONS.md]\n")
	l, err := New("aider", repo, "/store", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Files) != 1 || !strings.Contains(l.Todo, "read:") {
		t.Errorf("link = %+v: a config with a read: list must not be rewritten, and the person told what to add", l)
	}
}

func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	run(t, repo, "git", "init", "-q")
	run(t, repo, "git", "config", "user.email", "t@example.com")
	run(t, repo, "git", "config", "user.name", "t")
	write(t, filepath.Join(repo, ".git", "info", "exclude"), "# original exclude\n")
	write(t, filepath.Join(repo, "README.md"), "readme\n")
	run(t, repo, "git", "add", "README.md")
	run(t, repo, "git", "commit", "-qm", "init")
	return repo
}

func gitStatus(t *testing.T, repo string) string {
	return strings.TrimSpace(run(t, repo, "git", "status", "--porcelain", "--untracked-files=all"))
}

func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func ptr(s string) *string { return &s }
