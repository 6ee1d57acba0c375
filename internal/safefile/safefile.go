// Package safefile reads files dreamd did not write — topic files, transcripts, configs, plans,
// another program's lock — so that none of them can hang or exhaust a process: a file is opened
// without blocking (a FIFO with no writer would block the open itself), refused unless it is a
// regular file once open (a FIFO, /dev/zero or a socket never ends), read at most to a bound,
// and a long read stops when its context is done.
package safefile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the error of a file that is not a regular file: a FIFO, a device, a socket, a
// directory.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is the error of a file longer than the bound it was read with.
type TooLargeError struct {
	Path string
	Max  int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most dreamd reads of it", e.Path, Size(e.Max))
}

// Open opens path for reading if, once open, it is a regular file (a symbolic link is followed;
// what it leads to is checked). It never blocks on a FIFO.
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNonblocking(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
	}
	return f, fi, nil
}

// RegularOrAbsent is nil when path does not exist or is a regular file (a link is followed). It
// guards what another library opens with a blocking open, as a file lock does: a FIFO put in the
// lock file's place would block that open forever.
func RegularOrAbsent(path string) error {
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kind(fi.Mode()))}
}

// ReadFile reads a regular file of at most max bytes whole.
func ReadFile(path string, max int64) ([]byte, error) {
	return ReadFileContext(context.Background(), path, max)
}

// ReadFileContext is ReadFile that stops with ctx's error when ctx is done.
func ReadFileContext(ctx context.Context, path string, max int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	// Read one byte more than max: the file may have grown since the Stat.
	data, err := io.ReadAll(io.LimitReader(Reader(ctx, f), max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > max {
		return nil, &TooLargeError{Path: path, Max: max}
	}
	return data, nil
}

// Reader returns r reading until ctx is done, then failing with ctx's error: a long read in
// pieces can be interrupted between them.
func Reader(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	return ctxReader{ctx, r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Size formats a byte count for messages: "64 MiB", "512 KiB", "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}
