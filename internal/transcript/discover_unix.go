//go:build unix

package transcript

import (
	"io/fs"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// statAt stats files in dir by name relative to the open directory, as os.Lstat would by path:
// the kernel does not walk the directory's path again for each of thousands of files. A failure
// names the file's real path, as os.Lstat's would.
func statAt(dir *os.File, dirReal string, files []found, failed func(int, error)) {
	rc, err := dir.SyscallConn()
	if err != nil {
		statByPath(dirReal, files, failed)
		return
	}
	err = rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		for i := range files {
			var err error = unix.EINTR
			for err == unix.EINTR {
				err = unix.Fstatat(int(fd), files[i].name, &st, unix.AT_SYMLINK_NOFOLLOW)
			}
			if err != nil {
				failed(i, &fs.PathError{Op: "lstat", Path: join(dirReal, files[i].name), Err: err})
				continue
			}
			files[i].size, files[i].mtime = st.Size, time.Unix(st.Mtim.Unix())
		}
	})
	if err != nil {
		statByPath(dirReal, files, failed)
	}
}
