package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	dir := filepath.Join(parts...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	mkdir(t, filepath.Dir(path))
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCanonicalProject lays out, like git does: a repository, a linked worktree with an
// absolute gitdir, one with a relative gitdir, a submodule, a worktree of a bare repository and
// a directory outside any repository.
func TestCanonicalProject(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo := mkdir(t, root, "shop")
	mkdir(t, repo, ".git", "objects")
	mkdir(t, repo, "src", "cart")

	wt := mkdir(t, root, "shop-feature")
	writeText(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(repo, ".git", "worktrees", "shop-feature")+"\n")
	writeText(t, filepath.Join(repo, ".git", "worktrees", "shop-feature", "commondir"), "../..\n")
	mkdir(t, wt, "src")

	rel := mkdir(t, root, "nested", "shop-hotfix")
	writeText(t, filepath.Join(rel, ".git"), "gitdir: ../../shop/.git/worktrees/shop-hotfix\n")
	writeText(t, filepath.Join(repo, ".git", "worktrees", "shop-hotfix", "commondir"), "../..\n")

	sub := mkdir(t, repo, "vendor", "lib")
	writeText(t, filepath.Join(sub, ".git"), "gitdir: ../../.git/modules/lib\n")
	mkdir(t, repo, ".git", "modules", "lib")

	bareWT := mkdir(t, root, "bare-wt")
	writeText(t, filepath.Join(bareWT, ".git"), "gitdir: "+filepath.Join(root, "site.git", "worktrees", "bare-wt")+"\n")
	writeText(t, filepath.Join(root, "site.git", "worktrees", "bare-wt", "commondir"), "../..\n")

	plain := mkdir(t, root, "notes", "drafts")

	tests := []struct{ dir, want string }{
		{repo, repo},
		{filepath.Join(repo, "src", "cart"), repo},
		{filepath.Join(repo, "src", "cart") + "/../cart/", repo},
		{filepath.Join(repo, "not", "created", "yet"), repo},
		{wt, repo},
		{filepath.Join(wt, "src"), repo},
		{rel, repo},
		{sub, sub},
		{bareWT, bareWT},
		{plain, plain},
		{plain + "/", plain},
		{"relative/dir/../x", "relative/x"},
		{`e:\Workspace\src`, `e:\Workspace\src`},
	}
	for _, tt := range tests {
		if got := CanonicalProject(tt.dir); got != tt.want {
			t.Errorf("CanonicalProject(%q) = %q, want %q", tt.dir, got, tt.want)
		}
	}
}
