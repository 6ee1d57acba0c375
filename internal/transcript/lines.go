package transcript

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/tidwall/gjson"
)

const (
	// lineBufSize bounds the read buffer. Longer lines are assembled in a separate slice, so any
	// line length works while at most one line is held in memory.
	lineBufSize = 64 << 10
	// keepLongLine is the largest long-line buffer kept for the next reading; a larger one, left
	// by a giant line, is dropped so that memory stays flat.
	keepLongLine = 8 << 20
	// maxLine bounds a line held in memory: a longer one (a 3 GB line with no end) is skipped
	// with a warning, and the lines after it are read.
	maxLine = 32 << 20
	// peekMaxBytes and peekMaxLines bound how much of a file Peek reads looking for its head. A
	// head is usually the first line, but that line may be a giant first message.
	peekMaxBytes = 16 << 20
	peekMaxLines = 1000
)

// longLines holds the buffers long lines are assembled in, reused across readings: transcripts
// hold many lines past the read buffer (tool output) and growing a buffer for each file is most
// of the cost of reading them.
var longLines = sync.Pool{New: func() any { return new([]byte) }}

// readers holds the read buffers, reused across files: a machine with many short sessions would
// otherwise allocate (and collect) a whole buffer for every few kilobytes read.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, lineBufSize) }}

// eachLine calls fn with every complete line of r (without its "\n" or "\r\n"), in order, until fn
// returns false. A last line without '\n' is still being written: it is not passed to fn and not
// counted. A line longer than maxLine is not held: skip is called with its length instead (nil:
// passed over silently), which also says whether to go on, and the reading goes on after it —
// at its end, or at the end of r for one still unterminated, so that it is not read again.
// eachLine returns the bytes and lines consumed.
func eachLine(r io.Reader, fn func(line []byte) bool, skip func(length int64) bool) (consumed, lines int64, err error) {
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	held := longLines.Get().(*[]byte)
	long := (*held)[:0]
	defer func() {
		br.Reset(nil) // no reference to the file is kept in the pool
		readers.Put(br)
		if cap(long) <= keepLongLine {
			*held = long
			longLines.Put(held)
		}
	}()
	var over int64 // the length so far of a line past maxLine, 0 when none is being read
	skipped := func(n int64) bool {
		consumed += n
		lines++
		over = 0
		return skip == nil || skip(n)
	}
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			switch {
			case over > 0:
				over += int64(len(chunk))
			case int64(len(long)+len(chunk)) > maxLine:
				over = int64(len(long) + len(chunk))
				long = long[:0]
			default:
				long = append(long, chunk...)
			}
			continue
		case errors.Is(err, io.EOF):
			if over > 0 {
				skipped(over + int64(len(chunk)))
			}
			return consumed, lines, nil
		case err != nil:
			return consumed, lines, err
		}
		if over > 0 {
			if !skipped(over + int64(len(chunk))) {
				return consumed, lines, nil
			}
			continue
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		consumed += int64(len(line))
		lines++
		more := fn(trimEOL(line))
		long = long[:0] // reused: memory stays at the longest line of this reading
		if !more {
			return consumed, lines, nil
		}
	}
}

// lineAt is line no of a file as a parser takes it: the first without a byte order mark.
func lineAt(b []byte, no int64) []byte {
	if no == 1 {
		return bytes.TrimPrefix(b, []byte(sanitize.ByteOrderMark))
	}
	return b
}

func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}

// view returns b as a string without copying, for the skimmer and gjson. b is the reused line
// buffer, so a view and every substring of it must not outlive the line: parse.add (through clip)
// and parse.learn copy what they keep.
func view(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// valid reports whether line is well-formed JSON, warning when it is not. Records are skimmed to
// judge them; one that is kept is validated in full first, so a damaged record never leaks
// fragments into a turn, while discarded ones (tool output, thinking) cost no extra pass.
func (p *parse) valid(no int64, line string) bool {
	if gjson.Valid(line) {
		return true
	}
	p.warn(no, "malformed JSON, line skipped")
	return false
}

// record parses one line of a JSON-lines format read through gjson: ok is false for a blank line,
// and for a line that is not a well-formed JSON object, which is warned about. The result views
// the reused line buffer (see view).
func (p *parse) record(b []byte, no int64) (r gjson.Result, ok bool) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return gjson.Result{}, false
	}
	line := view(b)
	if b[0] != '{' || !gjson.Valid(line) {
		p.warn(no, "malformed JSON, line skipped")
		return gjson.Result{}, false
	}
	return gjson.Parse(line), true
}

// lineState is one reading of a line-oriented format.
type lineState interface {
	// line handles one complete line; no is its 1-based line number in the file.
	line(b []byte, no int64)
	// finish closes what is still open at the end of the reading.
	finish()
	base() *parse
}

// readLines reads f from the cursor's offset to its last complete line through the state newState
// makes. A cursor past the end of the file (it shrank since Resume) restarts from the top.
func readLines(f File, from Cursor, newState func(from Cursor) lineState) (Reading, error) {
	fh, fi, err := safefile.Open(f.open()) // fi: the open file's own stat
	if err != nil {
		return Reading{}, err
	}
	defer fh.Close()
	size := fi.Size()
	if from.Offset > size || from.Offset < 0 {
		from = Cursor{}
	}
	if from.Offset == 0 {
		from.Lines = 0
	}
	st := newState(from)
	p := st.base()
	p.file.ModTime = fi.ModTime()
	no := from.Lines
	stopped := false
	// A file's new material that fits wholeRead is read in one call and its lines taken from
	// memory; the cursor's head and the plan's tail are then hashed from those bytes (at) instead
	// of read again: most transcripts of a long history are a few kilobytes.
	var in io.Reader = io.NewSectionReader(fh, from.Offset, size-from.Offset)
	var at io.ReaderAt = fh
	if n := size - from.Offset; n <= wholeRead && !streamOnly.Load() {
		held := wholeReads.Get().(*[wholeRead]byte)
		defer wholeReads.Put(held)
		got, err := io.ReadFull(in, held[:n])
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return Reading{}, fmt.Errorf("read %s: %w", f.Path, err)
		}
		in = bytes.NewReader(held[:got])
		at = readBack{fh, held[:got], from.Offset}
	}
	consumed, lines, err := eachLine(in, func(b []byte) bool {
		no++
		st.line(lineAt(b, no), no)
		stopped = p.kept >= maxReadText
		return !stopped
	}, func(length int64) bool {
		no++
		p.warn(no, "line of %d bytes is over the %d-byte limit for a line, skipped", length, maxLine)
		return true
	})
	if err != nil {
		return Reading{}, fmt.Errorf("read %s: %w", f.Path, err)
	}
	st.finish()
	p.end()
	c, err := cursorAt(at, size, from.Offset+consumed, fi.ModTime())
	if err != nil {
		return Reading{}, fmt.Errorf("read %s: %w", f.Path, err)
	}
	tail := c.Head // read to at most TailWindow bytes, the head and the tail are the same bytes
	if c.HeadLen != c.Offset || c.Offset == 0 || c.Offset > TailWindow {
		if tail, err = TailHash(at, c.Offset); err != nil {
			return Reading{}, fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
	c.Lines = from.Lines + lines
	c.More = stopped && c.Offset < size
	c.Session, c.Project = p.session, p.project
	return Reading{Sessions: p.sessions, Cursor: c, Warnings: p.warnings, Tail: tail}, nil
}

// wholeRead is the most new material of a file readLines reads in one call (the read buffer's
// size: a larger file is streamed through it anyway).
const wholeRead = lineBufSize

// streamOnly makes readLines stream every file, for tests comparing the two ways of reading.
var streamOnly atomic.Bool

// wholeReads hold the bytes of those readings, reused across files.
var wholeReads = sync.Pool{New: func() any { return new([wholeRead]byte) }}

// readBack serves reads of the bytes a reading took from memory (data, which starts at off in
// the file), and any other range from the file.
type readBack struct {
	file io.ReaderAt
	data []byte
	off  int64
}

func (r readBack) ReadAt(p []byte, at int64) (int, error) {
	if at >= r.off && at+int64(len(p)) <= r.off+int64(len(r.data)) {
		return copy(p, r.data[at-r.off:]), nil
	}
	return r.file.ReadAt(p, at)
}

// firstLine runs st over the first line of f: where a format says what a file is (a sub-agent's
// session) before anything else.
func firstLine(f File, st lineState) error {
	fh, _, err := safefile.Open(f.open())
	if err != nil {
		return err
	}
	defer fh.Close()
	_, _, err = eachLine(io.LimitReader(fh, peekMaxBytes), func(b []byte) bool {
		st.line(lineAt(b, 1), 1)
		return false
	}, func(int64) bool { return false })
	return err
}

// peekLines runs a fresh state over the head of f until it has learnt the session id and
// project, or a bounded amount was read.
func peekLines(f File, st lineState) (id, project string, err error) {
	fh, _, err := safefile.Open(f.open())
	if err != nil {
		return "", "", err
	}
	defer fh.Close()
	p := st.base()
	var no int64
	_, _, err = eachLine(io.LimitReader(fh, peekMaxBytes), func(b []byte) bool {
		no++
		st.line(lineAt(b, no), no)
		return (p.session == "" || p.project == "") && no < peekMaxLines
	}, func(int64) bool {
		no++
		return no < peekMaxLines
	})
	if err != nil {
		return "", "", fmt.Errorf("peek %s: %w", f.Path, err)
	}
	return p.id(), p.projectOf(), nil
}
