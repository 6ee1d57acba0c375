package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
)

// headMax is how much of a file's head the cursor fingerprints: enough to tell a replaced file
// from an appended one, cheap to re-read on every run.
const headMax = 4096

// Resume checks f against its stored cursor: a file that shrank, or whose first HeadLen bytes no
// longer hash to Head, was truncated or replaced and is read again from the start (zero cursor).
// It returns the cursor to read from and how many bytes are new.
//
// Whole-document formats (markdown sessions, chat .json arrays, legacy gemini .json, Cline's,
// SpecStory's exports, which keep in Seen how far they were read) have no
// appended lines: when their size or modification time changed they are read again whole, and
// pending is their size; otherwise nothing is pending.
func Resume(f File, c Cursor) (from Cursor, pending int64, err error) {
	if isDatabase(f.Kind) {
		return resumeDatabase(f, c) // a session in a database: its cursor counts messages
	}
	if c.Offset == 0 && c.Size == 0 {
		return Cursor{Offers: c.Offers, Seen: c.Seen}, f.Size, nil // kept at the start to be offered again
	}
	if f.Size < c.Size || f.Size < c.Offset {
		return Cursor{Seen: c.Seen}, f.Size, nil // Seen: a memory file that lost an entry keeps the rest known
	}
	if f.Size == c.Size && f.ModTime.Equal(c.ModTime) && !c.More {
		// Untouched since it was read to its end: nothing new, not even the incomplete last line
		// that was left for later. No need to read the head either; a quiet pass is a stat.
		return c, 0, nil
	}
	if wholeDocument(f) {
		// Read whole: any change means reading it all again (the unchanged case returned above),
		// whatever its head says; the entries already read stay known (an agent's memory file).
		return Cursor{Seen: c.Seen}, f.Size, nil
	}
	same, err := headMatches(f.open(), c)
	if err != nil {
		return Cursor{}, 0, err
	}
	if !same {
		return Cursor{}, f.Size, nil
	}
	return c, f.Size - c.Offset, nil
}

// wholeDocument reports whether f is read whole rather than line by line.
func wholeDocument(f File) bool {
	switch f.Kind {
	case "markdown", "cline", SpecStoryKind, AgentMemoryKind:
		return true
	case "chat", "gemini":
		return filepath.Ext(f.Path) == ".json"
	}
	return false
}

// headMatches reports whether the first c.HeadLen bytes of the file still hash to c.Head.
func headMatches(path string, c Cursor) (bool, error) {
	if c.HeadLen <= 0 {
		return true, nil
	}
	fh, _, err := safefile.Open(path)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	sum, err := headHash(fh, c.HeadLen)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("check head of %s: %w", path, err)
	}
	return sum == c.Head, nil
}

// headHash returns the hex SHA-256 of the first n bytes of r.
func headHash(r io.ReaderAt, n int64) (string, error) {
	buf := hashBuffers.Get().(*[hashBuffer]byte)
	defer hashBuffers.Put(buf)
	if got, err := r.ReadAt(buf[:n], 0); got < int(n) {
		return "", err
	}
	sum := sha256.Sum256(buf[:n])
	return hex.EncodeToString(sum[:]), nil
}

// hashBuffers hold the bytes headHash and TailHash fingerprint. A buffer passed to an
// io.ReaderAt escapes, so a pool rather than the stack spares a pass over many small
// transcripts 8 KiB of garbage per file.
var hashBuffers = sync.Pool{New: func() any { return new([hashBuffer]byte) }}

const hashBuffer = max(headMax, TailWindow)

// TailWindow is how much of a transcript before a cursor a plan fingerprints: the bytes a pass
// consolidated last, which a rewrite of the file changes while its size may not.
const TailWindow = 4096

// TailHash is the SHA-256 of the up to TailWindow bytes of r before offset.
func TailHash(r io.ReaderAt, offset int64) (string, error) {
	start := max(offset-TailWindow, 0)
	buf := hashBuffers.Get().(*[hashBuffer]byte)
	defer hashBuffers.Put(buf)
	n, err := r.ReadAt(buf[:offset-start], start)
	if err != nil && !(errors.Is(err, io.EOF) && int64(n) == offset-start) {
		return "", err
	}
	sum := sha256.Sum256(buf[:n])
	return hex.EncodeToString(sum[:]), nil
}

// cursorAt is the cursor of a file of the given size consumed up to offset.
func cursorAt(r io.ReaderAt, size, offset int64, mtime time.Time) (Cursor, error) {
	c := Cursor{Size: size, Offset: offset, ModTime: mtime, HeadLen: min(headMax, offset)}
	if c.HeadLen == 0 {
		return c, nil
	}
	sum, err := headHash(r, c.HeadLen)
	if err != nil {
		return Cursor{}, err
	}
	c.Head = sum
	return c, nil
}
