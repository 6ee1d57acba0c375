package phases

import (
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// StoreOf is the store a project's sessions go to, with its state: the same routing gather uses
// (the git root of dir, worktrees sharing their repository's store).
func StoreOf(env *Env, dir string) store.Paths {
	return StorePaths(env, storeDir(env, transcript.CanonicalProject(dir)))
}
