package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
)

// CanonicalProject returns the canonical project directory for a cwd: the git repository root
// when dir is inside one (a worktree resolves to its main repository's root, via the .git file's
// gitdir / commondir, so worktrees share one memory), else filepath.Clean(dir). No exec of git.
//
// A relative dir is only cleaned: it names no place on this machine. Worktrees of a bare
// repository have no main working tree, so each stands as its own root.
func CanonicalProject(dir string) string {
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(dir) {
		return dir
	}
	// Every session of a project asks again (50,000 sessions, 50 projects): the answer is kept a
	// little while, long enough for a pass, short enough for a daemon to see a new `git init`.
	now := time.Now()
	if c, ok := projectRoots.Load(dir); ok && now.Sub(c.(cachedRoot).at) < rootTTL {
		return c.(cachedRoot).root
	}
	root := findRoot(dir)
	projectRoots.Store(dir, cachedRoot{root, now})
	return root
}

// projectRoots caches CanonicalProject by directory.
var projectRoots sync.Map

type cachedRoot struct {
	root string
	at   time.Time
}

const rootTTL = time.Minute

// findRoot is the root of the repository holding dir, or dir when none does.
func findRoot(dir string) string {
	for d := dir; ; {
		if root, ok := gitRoot(d); ok {
			return root
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// gitRoot reports whether d holds a .git entry, and the project root it stands for.
func gitRoot(d string) (string, bool) {
	dotgit := filepath.Join(d, ".git")
	fi, err := os.Stat(dotgit)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return d, true
	}
	if !fi.Mode().IsRegular() {
		return "", false
	}
	gitdir, ok := readGitLink(dotgit, "gitdir:")
	if !ok {
		return d, true
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(d, gitdir)
	}
	// A linked worktree's gitdir names the shared repository in its commondir file; a submodule's
	// or a separated git dir has none and d is the root.
	common, ok := readGitLink(filepath.Join(gitdir, "commondir"), "")
	if !ok {
		return d, true
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitdir, common)
	}
	common = filepath.Clean(common)
	if filepath.Base(common) != ".git" {
		return d, true
	}
	return filepath.Dir(common), true
}

// readGitLink reads the first line of a small git pointer file, after the given prefix.
func readGitLink(path, prefix string) (string, bool) {
	b, err := safefile.ReadFile(path, 4096) // a project's file: anything may stand there
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), prefix)
	rest = strings.TrimSpace(rest)
	return rest, ok && rest != ""
}
