//go:build unix

package agentlink

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports whether the file is the running user's, so that a link to another user's
// file is not written through.
func ownedByUser(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}
