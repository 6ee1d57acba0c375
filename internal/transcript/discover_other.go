//go:build !unix

package transcript

import "os"

// statAt stats files in dir by path.
func statAt(_ *os.File, dirReal string, files []found, failed func(int, error)) {
	statByPath(dirReal, files, failed)
}
