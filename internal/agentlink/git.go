package agentlink

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"
)

// git runs git in dir and returns its trimmed output; ok is false when git fails or is missing
// (a project outside any repository has nothing to hide from git status).
func git(dir string, args ...string) (string, bool) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0")
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err == nil
}

// inRepo reports whether dir is inside a git work tree.
func inRepo(dir string) bool {
	out, ok := git(dir, "rev-parse", "--is-inside-work-tree")
	return ok && out == "true"
}

// tracked reports whether path (inside root) is in git's index: a change to it shows in git status
// whatever any ignore file says.
func tracked(root, path string) bool {
	_, ok := git(root, "ls-files", "--error-unmatch", "--", path)
	return ok
}

// ignored reports whether git already ignores path.
func ignored(root, path string) bool {
	_, ok := git(root, "check-ignore", "-q", "--", path)
	return ok
}

// excludeFile is the repository's private ignore file (.git/info/exclude, shared by worktrees).
func excludeFile(root string) (string, bool) {
	p, ok := git(root, "rev-parse", "--git-common-dir")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	return filepath.Join(p, "info", "exclude"), true
}

// exclude makes git ignore path through the repository's private exclude file, unless something
// already does, and returns the lines it added ("" when none) so unlink can take them out again.
func exclude(root, path string) (string, error) {
	if !inRepo(root) || ignored(root, path) {
		return "", nil
	}
	file, ok := excludeFile(root)
	if !ok {
		return "", nil
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	added := "# dreamd link: private memory\n/" + filepath.ToSlash(rel) + "\n"
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		added = "\n" + added
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", err
	}
	return added, renameio.WriteFile(file, append(data, added...), 0o644)
}

// unexclude takes out the lines exclude added.
func unexclude(root, added string) error {
	if added == "" {
		return nil
	}
	file, ok := excludeFile(root)
	if !ok {
		return nil
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	i := bytes.LastIndex(data, []byte(added))
	if i < 0 {
		return nil
	}
	return renameio.WriteFile(file, append(data[:i:i], data[i+len(added):]...), 0o644)
}
