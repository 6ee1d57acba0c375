package gitstore

import (
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fixture is one shared bare repository and the isolated git environment of a test.
type fixture struct {
	t      *testing.T
	base   string
	env    []string
	remote string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	if err := Available(); err != nil {
		t.Skip(err)
	}
	t.Parallel()
	base := t.TempDir()
	home := filepath.Join(base, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	f := &fixture{
		t:    t,
		base: base,
		env: []string{
			"HOME=" + home, "XDG_CONFIG_HOME=" + home,
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		},
		remote: filepath.Join(base, "team.git"),
	}
	f.git(base, "init", "--quiet", "--bare", "-b", "main", f.remote)
	return f
}

// machine is a Repo for one machine's clone, not yet synced.
func (f *fixture) machine(name string) *Repo {
	return &Repo{Remote: f.remote, Branch: "main", Dir: filepath.Join(f.base, name, "clone"), Env: f.env}
}

// git runs git in dir for the test itself and returns its trimmed output.
func (f *fixture) git(dir string, args ...string) string {
	f.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), f.env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// seed pushes a first commit with files to main through a machine of its own.
func (f *fixture) seed(files map[string]string) {
	f.t.Helper()
	s := f.machine("seed")
	f.sync(s)
	for rel, content := range files {
		write(f.t, s, rel, content)
	}
	f.commit(s, "seed")
	if _, err := s.Push(f.t.Context(), "", isIndex, regenerateIndex(s, nil)); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) sync(r *Repo) {
	f.t.Helper()
	if err := r.Sync(f.t.Context(), isIndex, regenerateIndex(r, nil)); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) commit(r *Repo, message string) string {
	f.t.Helper()
	hash, err := r.Commit(f.t.Context(), "memory", message)
	if err != nil {
		f.t.Fatal(err)
	}
	if hash == "" {
		f.t.Fatalf("commit %q: nothing committed", message)
	}
	return hash
}

// assertIntact checks that a failed operation left the clone on head, clean, with nothing half-done.
func (f *fixture) assertIntact(r *Repo, head string) {
	f.t.Helper()
	if got := f.git(r.Dir, "rev-parse", "HEAD"); got != head {
		f.t.Errorf("HEAD = %s, want %s", got, head)
	}
	if got := f.git(r.Dir, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		f.t.Errorf("HEAD is on %s, want refs/heads/main", got)
	}
	if st := f.git(r.Dir, "status", "--porcelain"); st != "" {
		f.t.Errorf("git status not clean:\n%s", st)
	}
	for _, name := range []string{"rebase-merge", "rebase-apply", "REVERT_HEAD", "sequencer"} {
		if _, err := os.Stat(filepath.Join(r.Dir, ".git", name)); err == nil {
			f.t.Errorf(".git/%s is present", name)
		}
	}
}

func write(t *testing.T, r *Repo, rel, content string) {
	t.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendLine(t *testing.T, r *Repo, rel, line string) {
	t.Helper()
	old, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(rel)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	write(t, r, rel, string(old)+line+"\n")
}

func isIndex(p string) bool { return path.Base(p) == "MEMORY.md" }

// regenerateIndex rebuilds each MEMORY.md as the sorted list of the topic files beside it, the
// way dreamd derives its index from the store; calls counts the calls when not nil.
func regenerateIndex(r *Repo, calls *atomic.Int32) func([]string) error {
	return func(paths []string) error {
		if calls != nil {
			calls.Add(1)
		}
		for _, p := range paths {
			dir := filepath.Join(r.Dir, filepath.FromSlash(path.Dir(p)))
			topics, err := filepath.Glob(filepath.Join(dir, "*.md"))
			if err != nil {
				return err
			}
			var b strings.Builder
			for _, topic := range topics {
				if name := filepath.Base(topic); name != "MEMORY.md" {
					b.WriteString("- " + name + "\n")
				}
			}
			if err := os.WriteFile(filepath.Join(r.Dir, filepath.FromSlash(p)), []byte(b.String()), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

func TestFirstSyncClonesEmptyRemote(t *testing.T) {
	f := newFixture(t)
	a := f.machine("a")
	f.sync(a)
	f.sync(a) // a second Sync of a still-empty remote is fine too
	if _, err := os.Stat(filepath.Join(a.Dir, ".git")); err != nil {
		t.Fatalf("no clone: %v", err)
	}
	write(t, a, "memory/alpha.md", "alpha\n")
	hash := f.commit(a, "add alpha")
	pushed, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil))
	if err != nil {
		t.Fatal(err)
	}
	if pushed != "main" {
		t.Errorf("pushed to %q, want main", pushed)
	}
	if got := f.git(f.remote, "rev-parse", "main"); got != hash {
		t.Errorf("remote main = %s, want %s", got, hash)
	}

	b := f.machine("b")
	f.sync(b)
	got, err := os.ReadFile(filepath.Join(b.Dir, "memory", "alpha.md"))
	if err != nil || string(got) != "alpha\n" {
		t.Errorf("second clone reads %q, %v; want alpha", got, err)
	}
}

func TestConcurrentMachinesMerge(t *testing.T) {
	seed := map[string]string{"memory/alpha.md": "alpha\n", "memory/MEMORY.md": "- alpha.md\n"}
	tests := []struct {
		name       string
		seed       map[string]string
		touchIndex bool   // both machines append to MEMORY.md: a conflict regenerate resolves
		index      string // MEMORY.md expected on the remote at the end
	}{
		{
			name:       "seeded remote",
			seed:       seed,
			touchIndex: true,
			index:      "- alpha.md\n- beta.md\n- gamma.md\n",
		},
		{
			// Both machines start from an empty remote: two root commits, MEMORY.md added by both.
			name:       "empty remote",
			touchIndex: true,
			index:      "- beta.md\n- gamma.md\n",
		},
		{
			// No conflict at all: the rebase commits on its own, which needs the fallback identity.
			name:  "no overlap",
			seed:  seed,
			index: "- alpha.md\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.seed != nil {
				f.seed(tt.seed)
			}
			a, b := f.machine("a"), f.machine("b")
			f.sync(a)
			f.sync(b)

			write(t, a, "memory/beta.md", "beta\n")
			write(t, b, "memory/gamma.md", "gamma\n")
			if tt.touchIndex {
				appendLine(t, a, "memory/MEMORY.md", "- beta.md")
				appendLine(t, b, "memory/MEMORY.md", "- gamma.md")
			}
			f.commit(a, "a: beta")
			f.commit(b, "b: gamma")

			if _, err := a.Push(t.Context(), "main", isIndex, regenerateIndex(a, nil)); err != nil {
				t.Fatal(err)
			}
			var calls atomic.Int32
			pushed, err := b.Push(t.Context(), "main", isIndex, regenerateIndex(b, &calls))
			if err != nil {
				t.Fatal(err)
			}
			if pushed != "main" {
				t.Errorf("pushed to %q, want main", pushed)
			}
			if regenerated := calls.Load() > 0; regenerated != tt.touchIndex {
				t.Errorf("regenerate called: %v, want %v", regenerated, tt.touchIndex)
			}
			if got, want := f.git(f.remote, "log", "-1", "--format=%cn <%ce>", "main"), "dreamd <"+fallbackEmail()+">"; got != want {
				t.Errorf("rebased commit's committer = %q, want %q", got, want)
			}

			subjects := strings.Split(f.git(f.remote, "log", "--format=%s", "main"), "\n")
			for _, want := range []string{"a: beta", "b: gamma"} {
				if !slices.Contains(subjects, want) {
					t.Errorf("remote main lacks commit %q: %q", want, subjects)
				}
			}
			files := f.git(f.remote, "ls-tree", "--name-only", "main", "memory/")
			for _, want := range []string{"memory/beta.md", "memory/gamma.md"} {
				if !strings.Contains(files, want) {
					t.Errorf("remote main lacks %s:\n%s", want, files)
				}
			}
			if got := f.git(f.remote, "show", "main:memory/MEMORY.md") + "\n"; got != tt.index {
				t.Errorf("remote MEMORY.md = %q, want %q", got, tt.index)
			}
			if left, err := b.Unpushed(t.Context()); err != nil || len(left) != 0 {
				t.Errorf("b.Unpushed = %v, %v; want nothing", left, err)
			}
		})
	}
}

func TestRealConflictLeavesCloneIntact(t *testing.T) {
	tests := []struct {
		name       string
		touchIndex bool // both machines also change MEMORY.md, which alone would be resolvable
	}{
		{name: "topic file only"},
		{name: "topic file and index", touchIndex: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.seed(map[string]string{"memory/alpha.md": "alpha\n", "memory/MEMORY.md": "- alpha.md\n"})
			a, b := f.machine("a"), f.machine("b")
			f.sync(a)
			f.sync(b)

			write(t, a, "memory/alpha.md", "alpha, as a knows it\n")
			write(t, b, "memory/alpha.md", "alpha, as b knows it\n")
			if tt.touchIndex {
				appendLine(t, a, "memory/MEMORY.md", "- a.md")
				appendLine(t, b, "memory/MEMORY.md", "- b.md")
			}
			f.commit(a, "a: alpha")
			head := f.commit(b, "b: alpha")
			if _, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil)); err != nil {
				t.Fatal(err)
			}
			remoteMain := f.git(f.remote, "rev-parse", "main")

			var calls atomic.Int32
			err := b.Sync(t.Context(), isIndex, regenerateIndex(b, &calls))
			assertConflict(t, err, "rebase", []string{"memory/alpha.md"})
			f.assertIntact(b, head)
			if calls.Load() != 0 {
				t.Errorf("regenerate called %d times on a real conflict", calls.Load())
			}

			// Push meets the same conflict through its Sync, and leaves the remote alone.
			_, err = b.Push(t.Context(), "", isIndex, regenerateIndex(b, nil))
			assertConflict(t, err, "rebase", []string{"memory/alpha.md"})
			f.assertIntact(b, head)
			if got := f.git(f.remote, "rev-parse", "main"); got != remoteMain {
				t.Errorf("remote main moved to %s", got)
			}
			got, _ := os.ReadFile(filepath.Join(b.Dir, "memory", "alpha.md"))
			if string(got) != "alpha, as b knows it\n" {
				t.Errorf("b's alpha.md = %q", got)
			}
		})
	}
}

func assertConflict(t *testing.T, err error, op string, paths []string) {
	t.Helper()
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v, want ErrConflict", err)
	}
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %T, want *ConflictError", err)
	}
	if ce.Op != op || !slices.Equal(ce.Paths, paths) {
		t.Errorf("conflict = %s %q, want %s %q", ce.Op, ce.Paths, op, paths)
	}
	for _, p := range paths {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not name %s", err, p)
		}
	}
}

func TestSyncFinishesAfterInterruptedRebase(t *testing.T) {
	f := newFixture(t)
	f.seed(map[string]string{"memory/alpha.md": "alpha\n", "memory/MEMORY.md": "- alpha.md\n"})
	a, b := f.machine("a"), f.machine("b")
	f.sync(a)
	f.sync(b)
	write(t, a, "memory/beta.md", "beta\n")
	appendLine(t, a, "memory/MEMORY.md", "- beta.md")
	f.commit(a, "a: beta")
	if _, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil)); err != nil {
		t.Fatal(err)
	}
	write(t, b, "memory/gamma.md", "gamma\n")
	appendLine(t, b, "memory/MEMORY.md", "- gamma.md")
	f.commit(b, "b: gamma")

	// A Sync killed mid-rebase leaves the rebase stopped on the MEMORY.md conflict.
	f.git(b.Dir, "fetch", "--quiet", "origin")
	cmd := exec.Command("git", "-C", b.Dir, "-c", "user.name=t", "-c", "user.email=t@t", "rebase", "--merge", "origin/main")
	cmd.Env = append(os.Environ(), f.env...)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("rebase did not stop:\n%s", out)
	}

	f.sync(b)
	if got := f.git(b.Dir, "show", "HEAD:memory/MEMORY.md") + "\n"; got != "- alpha.md\n- beta.md\n- gamma.md\n" {
		t.Errorf("MEMORY.md = %q", got)
	}
	f.assertIntact(b, f.git(b.Dir, "rev-parse", "HEAD"))
}

func TestCommit(t *testing.T) {
	t.Run("nothing changed", func(t *testing.T) {
		f := newFixture(t)
		a := f.machine("a")
		f.sync(a)
		// Before anything exists under memory/, on a branch without commits.
		if hash, err := a.Commit(t.Context(), "memory", "empty"); err != nil || hash != "" {
			t.Errorf("Commit on an empty clone = %q, %v; want \"\", nil", hash, err)
		}
		write(t, a, "memory/alpha.md", "alpha\n")
		head := f.commit(a, "alpha")
		if hash, err := a.Commit(t.Context(), "memory", "again"); err != nil || hash != "" {
			t.Errorf("Commit with nothing changed = %q, %v; want \"\", nil", hash, err)
		}
		if got := f.git(a.Dir, "rev-parse", "HEAD"); got != head {
			t.Errorf("HEAD moved to %s", got)
		}
	})

	t.Run("only sub, deletions included", func(t *testing.T) {
		f := newFixture(t)
		f.seed(map[string]string{"memory/alpha.md": "alpha\n", "memory/beta.md": "beta\n"})
		a := f.machine("a")
		f.sync(a)
		if err := os.Remove(filepath.Join(a.Dir, "memory", "alpha.md")); err != nil {
			t.Fatal(err)
		}
		write(t, a, "memory/beta.md", "beta, revised\n")
		write(t, a, "memory/gamma.md", "gamma\n")
		write(t, a, "notes.txt", "not part of the store\n")
		hash := f.commit(a, "revise")
		changed := f.git(a.Dir, "show", "--name-status", "--format=", hash)
		want := "D\tmemory/alpha.md\nM\tmemory/beta.md\nA\tmemory/gamma.md"
		if changed != want {
			t.Errorf("commit changes:\n%s\nwant:\n%s", changed, want)
		}
		if st := f.git(a.Dir, "status", "--porcelain"); st != "?? notes.txt" {
			t.Errorf("status = %q, want notes.txt left untracked", st)
		}
	})

	tests := []struct {
		name   string
		config map[string]string // set in the clone before committing
		want   string            // author and committer, "name <email>"
	}{
		{name: "fallback identity", want: "dreamd <" + fallbackEmail() + ">"},
		{
			name:   "configured identity",
			config: map[string]string{"user.name": "Ana Lima", "user.email": "ana@example.com"},
			want:   "Ana Lima <ana@example.com>",
		},
		{
			name:   "only a name configured",
			config: map[string]string{"user.name": "Ana Lima"},
			want:   "Ana Lima <" + fallbackEmail() + ">",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			a := f.machine("a")
			f.sync(a)
			for k, v := range tt.config {
				f.git(a.Dir, "config", k, v)
			}
			write(t, a, "memory/alpha.md", "alpha\n")
			hash := f.commit(a, "alpha")
			if got := f.git(a.Dir, "log", "-1", "--format=%an <%ae>", hash); got != tt.want {
				t.Errorf("author = %q, want %q", got, tt.want)
			}
			if got := f.git(a.Dir, "log", "-1", "--format=%cn <%ce>", hash); got != tt.want {
				t.Errorf("committer = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPushReviewBranch(t *testing.T) {
	f := newFixture(t)
	f.seed(map[string]string{"memory/alpha.md": "alpha\n"})
	seeded := f.git(f.remote, "rev-parse", "main")
	review := ReviewBranch("host", time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC))

	push := func(r *Repo, file, wantBranch string) {
		t.Helper()
		write(t, r, "memory/"+file, file+"\n")
		head := f.commit(r, file)
		pushed, err := r.Push(t.Context(), review, isIndex, regenerateIndex(r, nil))
		if err != nil {
			t.Fatal(err)
		}
		if pushed != wantBranch {
			t.Errorf("pushed %s to %q, want %q", file, pushed, wantBranch)
		}
		if got := f.git(f.remote, "rev-parse", "refs/heads/"+wantBranch); got != head {
			t.Errorf("remote %s = %s, want %s", wantBranch, got, head)
		}
	}
	a, b, c := f.machine("a"), f.machine("b"), f.machine("c")
	f.sync(a)
	f.sync(b)
	f.sync(c)
	push(a, "beta.md", review)
	push(a, "delta.md", review) // a fast-forward of the same review branch keeps its name
	push(b, "gamma.md", review+"-2")
	push(c, "epsilon.md", review+"-3")

	if got := f.git(f.remote, "rev-parse", "main"); got != seeded {
		t.Errorf("review pushes moved main to %s", got)
	}
}

func TestPushRefusedByHookIsNotRetried(t *testing.T) {
	f := newFixture(t)
	log := filepath.Join(f.base, "hook.log")
	hook := "#!/bin/sh\necho run >> '" + log + "'\necho 'no pushes today' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(f.remote, "hooks", "pre-receive"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	a := f.machine("a")
	f.sync(a)
	write(t, a, "memory/alpha.md", "alpha\n")
	f.commit(a, "alpha")
	_, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil))
	if err == nil || errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v, want the hook's refusal", err)
	}
	if !strings.Contains(err.Error(), "no pushes today") {
		t.Errorf("error %q lacks the hook's message", err)
	}
	if runs, _ := os.ReadFile(log); strings.Count(string(runs), "run") != 1 {
		t.Errorf("hook ran %d times, want 1", strings.Count(string(runs), "run"))
	}
}

func TestUnpushed(t *testing.T) {
	f := newFixture(t)
	a := f.machine("a")
	unpushed := func() []string {
		t.Helper()
		hashes, err := a.Unpushed(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		return hashes
	}
	if got := unpushed(); len(got) != 0 {
		t.Errorf("before any clone: %v", got)
	}
	f.sync(a)
	if got := unpushed(); len(got) != 0 {
		t.Errorf("fresh clone: %v", got)
	}
	write(t, a, "memory/alpha.md", "alpha\n")
	first := f.commit(a, "alpha")
	write(t, a, "memory/beta.md", "beta\n")
	second := f.commit(a, "beta")
	if got := unpushed(); !slices.Equal(got, []string{first, second}) {
		t.Errorf("Unpushed = %v, want %v (oldest first)", got, []string{first, second})
	}
	if _, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil)); err != nil {
		t.Fatal(err)
	}
	if got := unpushed(); len(got) != 0 {
		t.Errorf("after push: %v", got)
	}
}

func TestReviewBranch(t *testing.T) {
	if err := Available(); err != nil {
		t.Skip(err)
	}
	day := time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC)
	tests := []struct {
		host string
		want string
	}{
		{"Ana's MacBook.local", "dreamd/ana-s-macbook-local/2026-11-25"},
		{"build-01", "dreamd/build-01/2026-11-25"},
		{"", "dreamd/host/2026-11-25"},
		{"..", "dreamd/host/2026-11-25"},
		{"x.lock", "dreamd/x-lock/2026-11-25"},
		{"a@{1}~^:?*[\\ b", "dreamd/a-1-b/2026-11-25"},
		{"-leading/slash/", "dreamd/leading-slash/2026-11-25"},
		{"ünïcode", "dreamd/n-code/2026-11-25"},
	}
	for _, tt := range tests {
		got := ReviewBranch(tt.host, day)
		if got != tt.want {
			t.Errorf("ReviewBranch(%q) = %q, want %q", tt.host, got, tt.want)
		}
		if out, err := exec.Command("git", "check-ref-format", "--branch", got).CombinedOutput(); err != nil {
			t.Errorf("ReviewBranch(%q) = %q, not a valid branch: %s", tt.host, got, out)
		}
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		out          string
		major, minor int
		ok           bool
	}{
		{"git version 2.39.5\n", 2, 39, true},
		{"git version 2.39.3 (Apple Git-146)\n", 2, 39, true},
		{"git version 2.45.1.windows.1\n", 2, 45, true},
		{"git version 2.28\n", 2, 28, true},
		{"something else\n", 0, 0, false},
	}
	for _, tt := range tests {
		major, minor, ok := parseVersion(tt.out)
		if major != tt.major || minor != tt.minor || ok != tt.ok {
			t.Errorf("parseVersion(%q) = %d, %d, %v", tt.out, major, minor, ok)
		}
	}
}

func TestRedirects(t *testing.T) {
	for kv, want := range map[string]bool{
		"GIT_DIR=/elsewhere/.git": true,
		"GIT_WORK_TREE=/x":        true,
		"GIT_INDEX_FILE=/x":       true,
		"GIT_TERMINAL_PROMPT=0":   false,
		"GIT_DIRX=1":              false,
		"HOME=/home/ana":          false,
	} {
		if got := redirects(kv); got != want {
			t.Errorf("redirects(%q) = %v, want %v", kv, got, want)
		}
	}
}

// TestCommitWith finds a run's commit by the text its message holds, after a rebase changed its
// hash too.
func TestCommitWith(t *testing.T) {
	f := newFixture(t)
	a, b := f.machine("a"), f.machine("b")
	f.sync(a)
	f.sync(b)
	write(t, a, "memory/alpha.md", "alpha\n")
	f.commit(a, "dreamd: 1 created (run r1)")
	write(t, b, "memory/beta.md", "beta\n")
	first := f.commit(b, "dreamd: 1 created (run r2)")
	if _, err := a.Push(t.Context(), "", isIndex, regenerateIndex(a, nil)); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Push(t.Context(), "", isIndex, regenerateIndex(b, nil)); err != nil {
		t.Fatal(err) // rejected, synced (rebased) and pushed again
	}
	got, err := b.CommitWith(t.Context(), "(run r2)")
	if err != nil || got == "" || got == first {
		t.Errorf("CommitWith = %q, %v; want the rebased commit, not %s", got, err, first)
	}
	if got, err := b.CommitWith(t.Context(), "(run r9)"); err != nil || got != "" {
		t.Errorf("CommitWith of no commit = %q, %v", got, err)
	}
}
