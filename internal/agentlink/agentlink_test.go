package agentlink

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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
	if got := read(t, l.Files[0].Path); !strings.Contains(got, "\n## Memory of the project "+repo+"\n") {
		t.Errorf("the user-level block has no heading naming its project:\n%s", got)
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

// TestADeletedEndMarkerLosesNoText: when the person deleted the end marker, where the block ended
// is unknown; neither a pass nor unlink may then take the person's text for the block's.
func TestADeletedEndMarkerLosesNoText(t *testing.T) {
	end := "<!-- dreamd:end /p -->\n"
	tests := []struct {
		name string
		file string
	}{
		{"end deleted", "mine\n\n<!-- dreamd:begin /p — managed by `dreamd link`; edits inside are replaced -->\nold memory\nmy own notes, written after the block\n"},
		// What the version before this fix left after one more pass: the orphan begin, the
		// person's text, then a whole block appended at the end.
		{"end deleted, then a block appended", "<!-- dreamd:begin /p — managed by `dreamd link`; edits inside are replaced -->\nold\nmy own notes\n\n<!-- dreamd:begin /p — managed by `dreamd link`; edits inside are replaced -->\nnew\n" + end},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "AGENTS.md")
			write(t, path, tt.file)
			var broken *BrokenBlockError
			if _, _, err := Markdown.Put(path, "/p", "next memory\n", 0o644); !errors.As(err, &broken) || !strings.Contains(err.Error(), strings.TrimSpace(end)) {
				t.Errorf("Put: %v, want a BrokenBlockError naming the end line", err)
			}
			if _, err := Markdown.Remove(path, "/p", Written{}); !errors.As(err, &broken) {
				t.Errorf("Remove: %v, want a BrokenBlockError", err)
			}
			if got := read(t, path); got != tt.file {
				t.Errorf("the file changed:\n%q\nwant\n%q", got, tt.file)
			}
		})
	}
}

// TestAQuotedMarkerIsText: a file that quotes dreamd's markers in a code fence (documentation
// of dreamd, an issue pasted into AGENTS.md) keeps the quote through passes and unlink.
func TestAQuotedMarkerIsText(t *testing.T) {
	quote := "# Notes\n\nThe block looks like this:\n\n```markdown\n<!-- dreamd:begin /p — managed by `dreamd link`; edits inside are replaced -->\n(memory)\n```\n\n~~~~\n<!-- dreamd:end /p -->\n```\n~~~~\n\nMore of my notes.\n"
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	write(t, path, quote)
	w, _, err := Markdown.Put(path, "/p", "first\n", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Markdown.Put(path, "/p", "second\n", 0o644); err != nil {
		t.Fatal(err)
	}
	got := read(t, path)
	if !strings.HasPrefix(got, quote) || strings.Contains(got, "first") || !strings.Contains(got, "second") {
		t.Fatalf("after two passes:\n%s", got)
	}
	if _, err := Markdown.Remove(path, "/p", w); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); got != quote {
		t.Errorf("after unlink:\n%q\nwant\n%q", got, quote)
	}
}

// TestAMemoryQuotingAMarker: a memory whose text holds a marker line cannot end its own block.
func TestAMemoryQuotingAMarker(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	write(t, path, "mine\n")
	memory := "- the block ends with\n<!-- dreamd:end /p -->\n<!-- dreamd:begin /q — x -->\nand more\n"
	w, _, err := Markdown.Put(path, "/p", memory, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Markdown.Put(path, "/p", "short\n", 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); strings.Contains(got, "and more") {
		t.Fatalf("the block was cut at the quoted marker:\n%s", got)
	}
	if _, err := Markdown.Remove(path, "/p", w); err != nil || read(t, path) != "mine\n" {
		t.Errorf("after unlink: %q, %v", read(t, path), err)
	}
}

// TestAnotherBlockWithAnOpenFence: in a user-level file shared by several projects, a memory
// with an unclosed code fence in one project's block does not hide the blocks after it.
func TestAnotherBlockWithAnOpenFence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	write(t, path, "mine\n")
	wb, _, err := Markdown.Put(path, "/b", "- a memory\n  ```sh\n  make\n", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	wa, _, err := Markdown.Put(path, "/a", "A\n", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Markdown.Put(path, "/a", "A2\n", 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(t, path); strings.Count(got, "dreamd:begin /a") != 1 || !strings.Contains(got, "A2") {
		t.Fatalf("the block after the open fence was not found again:\n%s", got)
	}
	Markdown.Remove(path, "/a", wa)
	Markdown.Remove(path, "/b", wb)
	if got := read(t, path); got != "mine\n" {
		t.Errorf("after unlinking both: %q", got)
	}
}

// TestAFileEndingInAnOpenFence: a block appended there would be inside the fence, not found by
// the next pass, and appended again on every pass; link says so instead.
func TestAFileEndingInAnOpenFence(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AGENTS.md")
	write(t, path, "```sh\nmake test\n")
	if _, _, err := Markdown.Put(path, "/p", "memory\n", 0o644); err == nil || !strings.Contains(err.Error(), "code fence") {
		t.Errorf("Put: %v, want an error about the open fence", err)
	}
	if got := read(t, path); got != "```sh\nmake test\n" {
		t.Errorf("the file changed: %q", got)
	}
}

// TestASymlinkedFileStaysALink: a dotfiles manager links ~/.claude/CLAUDE.md or AGENTS.md to a
// file in its repository; link writes that file and leaves the link a link, unlink too.
func TestASymlinkedFileStaysALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "CLAUDE.md")
	write(t, real, "# my rules\n")
	home := filepath.Join(dir, "home")
	link := filepath.Join(home, ".claude", "CLAUDE.md")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../dotfiles/CLAUDE.md", link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	l := NewScope("user", "/store", Options{Home: home})
	if l.Files[0].Path != link {
		t.Fatalf("path = %s", l.Files[0].Path)
	}
	if _, err := l.Write(""); err != nil {
		t.Fatal(err)
	}
	isLink := func(when string) {
		t.Helper()
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: %s is no longer a symbolic link (%v)", when, link, err)
		}
	}
	isLink("after link")
	if got := read(t, real); !strings.HasPrefix(got, "# my rules\n") || !strings.Contains(got, "@/store/MEMORY.md") {
		t.Errorf("the linked file after link:\n%s", got)
	}
	if err := l.Undo(); err != nil {
		t.Fatal(err)
	}
	isLink("after unlink")
	if got := read(t, real); got != "# my rules\n" {
		t.Errorf("the linked file after unlink: %q", got)
	}
}

func TestLinksThatCannotBeWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling.md")
	os.Symlink(filepath.Join(dir, "absent.md"), dangling)
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	toFIFO := filepath.Join(dir, "tofifo.md")
	os.Symlink(fifo, toFIFO)
	for _, path := range []string{dangling, fifo, toFIFO} {
		if _, _, err := Markdown.Put(path, "/p", "memory\n", 0o644); err == nil {
			t.Errorf("Put %s: no error", filepath.Base(path))
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s was replaced by a regular file", filepath.Base(path))
		}
	}
}

func TestSharedTextHeadings(t *testing.T) {
	got := sharedText("/src/shop", "# Memory\n\nLessons.\n\n## Feedback\n- **x**: y\n  ```sh\n  # a comment\n  ```\n```\n# not a heading\n```\n")
	want := "## Memory of the project /src/shop\n\nWhat follows applies only when working in /src/shop.\n\n### Memory\n\nLessons.\n\n#### Feedback\n- **x**: y\n  ```sh\n  # a comment\n  ```\n```\n# not a heading\n```\n"
	if got != want {
		t.Errorf("sharedText:\n%s\nwant\n%s", got, want)
	}
}

// FuzzPutRemoveKeepsText: whatever a file holds, linking and unlinking leave it byte for byte as
// it was, or refuse and leave it untouched; never is any of the person's text lost.
func FuzzPutRemoveKeepsText(f *testing.F) {
	begin := "<!-- dreamd:begin /p — managed by `dreamd link`; edits inside are replaced -->\n"
	f.Add("mine\n", "memory\n", "memory 2\n")
	f.Add("```\n"+begin+"```\n", "m\n", "```\n")
	f.Add("~~~\n"+begin+"<!-- dreamd:end /p -->\n", "<!-- dreamd:end /p -->\n", "")
	f.Add("a\r\nb", "x", "y\n```")
	f.Fuzz(func(t *testing.T, before, memory, memory2 string) {
		if _, _, ok, err := Markdown.find([]byte(before), "/p"); ok || err != nil {
			return // a file that already holds the block is another test's
		}
		path := filepath.Join(t.TempDir(), "AGENTS.md")
		write(t, path, before)
		w, _, err := Markdown.Put(path, "/p", memory, 0o644)
		if err != nil {
			if got := read(t, path); got != before {
				t.Fatalf("a refused Put changed the file:\n%q\nwant\n%q", got, before)
			}
			return
		}
		if _, _, err := Markdown.Put(path, "/p", memory2, 0o644); err != nil {
			t.Fatalf("second Put: %v", err)
		}
		if _, err := Markdown.Remove(path, "/p", w); err != nil {
			t.Fatal(err)
		}
		if got := read(t, path); got != before {
			t.Fatalf("after link and unlink:\n%q\nwant\n%q", got, before)
		}
	})
}
