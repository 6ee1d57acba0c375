package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/renameio/v2"
)

// readOptional returns a file's bytes, nil when it does not exist and a non-nil slice (maybe
// empty) when it does, so that "absent" and "empty" stay different.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// sameImage reports whether two file images are equal, absent (nil) differing from empty.
func sameImage(a, b []byte) bool {
	return (a == nil) == (b == nil) && bytes.Equal(a, b)
}

// putFile makes path hold data atomically and durably; nil data removes it.
func putFile(path string, data []byte, perm os.FileMode) error {
	if data == nil {
		err := os.Remove(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	// The temporary file goes next to the target (a dotfile, which Load ignores) so the rename
	// never crosses file systems.
	return renameio.WriteFile(path, data, perm, renameio.WithTempDir(filepath.Dir(path)))
}

// syncDir makes renames and removals inside dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	return errors.Join(err, d.Close())
}

// plainName reports whether name is a bare file name that cannot leave its directory and is not
// hidden: no separators, not "." or "..", no leading dot, no NUL.
func plainName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\\\x00") && !strings.HasPrefix(name, ".") &&
		filepath.Base(name) == name
}
