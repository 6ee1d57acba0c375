package transcript

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/sanitize"
)

// maxDocBytes bounds a whole-document transcript, which is held in memory to be parsed; a larger
// one is passed over with a warning.
const maxDocBytes = 64 << 20

// readDoc reads a whole-document file (markdown session, chat .json array, legacy gemini .json).
// Such files are rewritten rather than appended to, so a changed file is re-read whole and its
// cursor's Offset is the size read; an unchanged one yields nothing.
func readDoc(f File, from Cursor, parseDoc func(p *parse, doc string)) (Reading, error) {
	fh, fi, err := safefile.Open(f.open()) // fi: the open file's own stat
	if err != nil {
		return Reading{}, err
	}
	defer fh.Close()
	size := fi.Size()
	if size > 0 && from.Offset == size && from.Size == size && fi.ModTime().Equal(from.ModTime) {
		return Reading{Cursor: from}, nil
	}
	p := newParse(f, Cursor{}, stem(f.Path))
	p.file.ModTime = fi.ModTime()
	if size > maxDocBytes {
		p.warn(0, "%d bytes is over the %d-byte limit for a whole-document transcript, file skipped", size, maxDocBytes)
		c, err := cursorAt(fh, size, size, fi.ModTime())
		return Reading{Cursor: c, Warnings: p.warnings}, err
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(fh, data); err != nil {
		return Reading{}, fmt.Errorf("read %s: %w", f.Path, err)
	}
	parseDoc(p, strings.TrimPrefix(view(data), sanitize.ByteOrderMark))
	p.end()
	c, tail, err := docEnd(data, fi.ModTime())
	if err != nil {
		return Reading{}, err
	}
	c.Session, c.Project = p.session, p.project
	return Reading{Sessions: p.sessions, Cursor: c, Warnings: p.warnings, Tail: tail}, nil
}

// readWhole reads a whole file and its stat. One over maxDocBytes is read not at all: skipped
// is then its reading, a cursor past it and a warning that calls it what ("a memory file").
func readWhole(f File, what string) (data []byte, mtime time.Time, skipped *Reading, err error) {
	fh, fi, err := safefile.Open(f.open()) // fi: the open file's own stat
	if err != nil {
		return nil, time.Time{}, nil, err
	}
	defer fh.Close()
	size := fi.Size()
	if size > maxDocBytes {
		c, err := cursorAt(fh, size, size, fi.ModTime())
		warning := fmt.Sprintf("%s: %d bytes is over the %d-byte limit for %s, file skipped", filepath.Base(f.Path), size, maxDocBytes, what)
		return nil, fi.ModTime(), &Reading{Cursor: c, Warnings: []string{warning}}, err
	}
	data = make([]byte, size)
	if _, err := io.ReadFull(fh, data); err != nil {
		return nil, time.Time{}, nil, fmt.Errorf("read %s: %w", f.Path, err)
	}
	return data, fi.ModTime(), nil, nil
}

// orEmpty is the reading r points at, or none.
func orEmpty(r *Reading) Reading {
	if r == nil {
		return Reading{}
	}
	return *r
}

// docEnd is the cursor of a whole document read to its end, and the hash of its tail.
func docEnd(data []byte, mtime time.Time) (Cursor, string, error) {
	size := int64(len(data))
	c, err := cursorAt(bytes.NewReader(data), size, size, mtime)
	if err != nil {
		return Cursor{}, "", err
	}
	tail, err := TailHash(bytes.NewReader(data), size)
	return c, tail, err
}

// peekDoc parses a whole document for its session id and project; a document that names itself a
// sub-thread gives its error (see parse.subThread).
func peekDoc(f File, parseDoc func(p *parse, doc string)) (string, string, error) {
	fh, _, err := safefile.Open(f.open())
	if err != nil {
		return "", "", err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxDocBytes))
	if err != nil {
		return "", "", fmt.Errorf("peek %s: %w", f.Path, err)
	}
	p := newParse(f, Cursor{}, stem(f.Path))
	parseDoc(p, strings.TrimPrefix(string(data), sanitize.ByteOrderMark))
	return p.id(), p.projectOf(), p.subThread
}
