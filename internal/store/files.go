package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/google/renameio/v2"
)

// maxOptional bounds readOptional: store files (MaxFile, with room for one that grew since Load)
// and the state's own files.
const maxOptional = 64 << 20

// readOptional returns a file's bytes, nil when it does not exist and a non-nil slice (maybe
// empty) when it does, so that "absent" and "empty" stay different. Something else than a regular
// file in its place (a FIFO, a device) is an error, never read.
func readOptional(path string) ([]byte, error) {
	data, err := safefile.ReadFile(path, maxOptional)
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
	if err := written(path); err != nil {
		return err
	}
	// The temporary file goes next to the target (a dotfile, which Load ignores) so the rename
	// never crosses file systems.
	return renameio.WriteFile(path, data, perm, renameio.WithTempDir(filepath.Dir(path)))
}

// writeTemp writes data durably under a temporary name beside path, with path's permissions if it
// exists (perm otherwise), for a later rename over path; it returns the temporary file's name.
func writeTemp(path string, data []byte, perm os.FileMode) (string, error) {
	if err := written(path); err != nil {
		return "", err
	}
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithPermissions(perm), renameio.WithExistingPermissions())
	if err != nil {
		return "", err
	}
	_, err = t.Write(data)
	if err == nil {
		err = t.Sync()
	}
	if err != nil {
		t.Cleanup()
		return "", err
	}
	if err := t.File.Close(); err != nil {
		os.Remove(t.Name())
		return "", err
	}
	return t.Name(), nil
}

// writeHook, set only by tests, is called before every file write; an error fails the write, as a
// full disk does (removals and renames still work then).
var writeHook func(path string) error

func written(path string) error {
	if writeHook == nil {
		return nil
	}
	return writeHook(path)
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
