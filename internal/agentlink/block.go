// Package agentlink keeps a managed block of memory in the instruction file an agent reads at
// startup (AGENTS.md for Codex CLI, OpenCode and Kilo, GEMINI.md, QWEN.md, Copilot's
// copilot-instructions.md, CRUSH.md, Cline's rules, a conventions file Aider reads), so agents that
// never open a Claude Code memory directory still start each session with what dreamd consolidated.
//
// The block sits between two marker comments. Text outside them is never touched, the file is
// rewritten atomically and only when the block changed, and unlinking leaves the file exactly as
// it was before the link.
package agentlink

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/google/renameio/v2"
)

// Markers are the comment lines around a managed block, in the syntax of the file that holds it.
// The begin marker names the project, so one user-level file can hold the blocks of several.
type Markers struct {
	begin, end string
	markdown   bool // a marker quoted in a code fence is text, not a marker
}

var (
	// Markdown is for instruction files (HTML comments, invisible when rendered).
	Markdown = Markers{"<!-- dreamd:begin %s — managed by `dreamd link`; edits inside are replaced -->\n", "<!-- dreamd:end %s -->\n", true}
	// YAML is for configuration files.
	YAML = Markers{"# dreamd:begin %s — managed by `dreamd link`; edits inside are replaced\n", "# dreamd:end %s\n", false}
)

// maxFile bounds what link reads of an instruction file: they are a few KB, and a file that is
// not one (a log linked in by mistake) must not be read whole.
const maxFile = 16 << 20

// block is the managed block of key holding text. A line of text that would read as a marker (a
// memory quoting one) is indented by a space, so that only the block's own lines are markers.
func (mk Markers) block(key, text string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, mk.begin, key)
	for line := range strings.Lines(text) {
		if mk.isMarker(line) {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, mk.end, key)
	return b.Bytes()
}

// isMarker reports whether line starts like a begin or end marker of any key.
func (mk Markers) isMarker(line string) bool { return mk.isBegin(line) || mk.isEnd(line) }

func (mk Markers) isBegin(line string) bool {
	prefix, _, _ := strings.Cut(mk.begin, "%s")
	return strings.HasPrefix(line, prefix)
}

func (mk Markers) isEnd(line string) bool {
	prefix, _, _ := strings.Cut(mk.end, "%s")
	return strings.HasPrefix(line, prefix)
}

// BrokenBlockError is a block whose begin marker has no end marker after it, most often because
// a person deleted the end line. Where the block ended is then unknown: whatever dreamd wrote
// there could be the person's text, so nothing is written until a person mends it.
type BrokenBlockError struct {
	Path, Key string
	End       string // the end marker line to put back
}

func (e *BrokenBlockError) Error() string {
	return fmt.Sprintf("%s: dreamd's block for %s has its begin marker but no end marker after it (deleted?); "+
		"the file is left as it is so no text of yours is lost: put the line %q back where the block ends, "+
		"or delete the block's begin line and dreamd writes a new block at the end", e.Path, e.Key, strings.TrimSuffix(e.End, "\n"))
}

// find locates key's block in data: [start, end) including both markers, ok false when absent.
// Markers count only as whole lines, and in Markdown only outside code fences, so a file that
// quotes a marker (documentation of dreamd itself) keeps its quote. A begin marker with no end
// after it, or a second begin before the end, is a *BrokenBlockError (Path unset).
func (mk Markers) find(data []byte, key string) (start, end int, ok bool, err error) {
	begin := strings.TrimSuffix(fmt.Sprintf(mk.begin, key), "\n")
	finish := strings.TrimSuffix(fmt.Sprintf(mk.end, key), "\n")
	var f fence
	other := false // in another key's block, whose memory's fences are none of the file's
	start = -1
	for off := 0; off < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			next = off + i + 1
		}
		line := string(bytes.TrimSuffix(bytes.TrimSuffix(data[off:next], []byte("\n")), []byte("\r")))
		switch {
		case start < 0 && other:
			other = !mk.isEnd(line)
		case start < 0 && !f.open() && line == begin:
			start = off
		case start < 0 && !f.open() && mk.isBegin(line):
			other = true
		case start < 0:
			if mk.markdown {
				f.step(line)
			}
		case line == finish:
			return start, next, true, nil
		case line == begin:
			return 0, 0, false, &BrokenBlockError{Key: key, End: fmt.Sprintf(mk.end, key)}
		}
		off = next
	}
	if start >= 0 {
		return 0, 0, false, &BrokenBlockError{Key: key, End: fmt.Sprintf(mk.end, key)}
	}
	return 0, 0, false, nil
}

// findIn is find with the file's path in a BrokenBlockError.
func (mk Markers) findIn(path string, data []byte, key string) (start, end int, ok bool, err error) {
	start, end, ok, err = mk.find(data, key)
	var broken *BrokenBlockError
	if errors.As(err, &broken) {
		broken.Path = path
	}
	return start, end, ok, err
}

// fence is the Markdown code fence a scan is in (CommonMark: a run of at least three backticks
// or tildes after at most three spaces, closed by a run of the same character at least as long
// with nothing after it); n is 0 outside one.
type fence struct {
	ch byte
	n  int
}

func (f *fence) open() bool { return f.n > 0 }

func (f *fence) step(line string) {
	i := 0
	for i < len(line) && i < 3 && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '`' && line[i] != '~' {
		return
	}
	ch, j := line[i], i
	for j < len(line) && line[j] == ch {
		j++
	}
	n, rest := j-i, line[j:]
	switch {
	case n < 3:
	case !f.open():
		if ch == '`' && strings.IndexByte(rest, '`') >= 0 {
			return // inline code, not a fence: an opening fence's info string holds no backtick
		}
		f.ch, f.n = ch, n
	case ch == f.ch && n >= f.n && strings.TrimSpace(rest) == "":
		f.n = 0
	}
}

// Written says what writing a block did to a file, so that removing it can undo exactly that.
type Written struct {
	Created   bool   `json:"created"`   // the file did not exist before
	Separator string `json:"separator"` // what was put between the old end of the file and the block
}

// Put writes key's block holding text into path: in place of the existing block, else appended.
// It writes only when the bytes change, and reports what an append added. A path that is a
// symbolic link (a dotfiles manager's) is written through to its file and stays a link.
func (mk Markers) Put(path, key, text string, perm fs.FileMode) (w Written, changed bool, err error) {
	file, data, mode, err := readTarget(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.Created = true
	case err != nil:
		return w, false, err
	default:
		perm = mode
	}
	blk := mk.block(key, text)
	start, end, ok, err := mk.findIn(path, data, key)
	if err != nil {
		return w, false, err
	}
	var next []byte
	if ok {
		next = append(append(append([]byte{}, data[:start]...), blk...), data[end:]...)
	} else {
		w.Separator = separator(data)
		start = len(data) + len(w.Separator)
		next = append(append(append([]byte{}, data...), w.Separator...), blk...)
	}
	// The block must be found again where it was put: not so when the file ends inside an open
	// code fence, where the next pass would take the block for a quote and add another.
	if s, e, ok, _ := mk.find(next, key); !ok || s != start || e != start+len(blk) {
		return w, false, fmt.Errorf("%s ends inside an open code fence (a ``` line without its closing line): dreamd's block would be part of it; close the fence and link again", path)
	}
	if !w.Created && bytes.Equal(next, data) {
		return w, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return w, false, err
	}
	return w, true, renameio.WriteFile(file, next, perm)
}

// readTarget reads the instruction file at path, following a symbolic link to the file it names
// (file), which must be a regular file of the user's: a link into someone else's file, or to a
// FIFO or device, is refused rather than replaced by a file or read for ever.
func readTarget(path string) (file string, data []byte, perm fs.FileMode, err error) {
	file = path
	fi, err := os.Lstat(path)
	if err != nil {
		return file, nil, 0, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		file, err = filepath.EvalSymlinks(path)
		if err != nil {
			return path, nil, 0, fmt.Errorf("%s is a symbolic link to a file that does not exist (%v): create the file it names, or remove the link", path, err)
		}
		if fi, err = os.Stat(file); err != nil {
			return path, nil, 0, err
		}
		if !fi.Mode().IsRegular() || !ownedByUser(fi) {
			return path, nil, 0, fmt.Errorf("%s links to %s, which is not a regular file of yours: not written", path, file)
		}
	}
	if !fi.Mode().IsRegular() {
		return file, nil, 0, fmt.Errorf("%s is not a regular file: not written", path)
	}
	if fi.Size() > maxFile {
		return file, nil, 0, fmt.Errorf("%s is larger than %d bytes: not an instruction file dreamd writes into", path, maxFile)
	}
	data, err = safefile.ReadFile(file, maxFile) // a FIFO swapped in after the Stat cannot hang it
	return file, data, fi.Mode().Perm(), err
}

// separator keeps the block a paragraph of its own after whatever the file ends with.
func separator(data []byte) string {
	switch {
	case len(data) == 0:
		return ""
	case bytes.HasSuffix(data, []byte("\n\n")):
		return ""
	case bytes.HasSuffix(data, []byte("\n")):
		return "\n"
	}
	return "\n\n"
}

// Remove takes key's block out of path together with the separator Put added, and deletes a file
// Put created once nothing else is left in it. A file without the block is left alone, and so is
// one whose block lost its end marker (an error says so). A symbolic link stays a link.
func (mk Markers) Remove(path, key string, w Written) (changed bool, err error) {
	file, data, perm, err := readTarget(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	start, end, ok, err := mk.findIn(path, data, key)
	if err != nil || !ok {
		return false, err
	}
	if sep := []byte(w.Separator); bytes.HasSuffix(data[:start], sep) {
		start -= len(sep)
	}
	next := append(append([]byte{}, data[:start]...), data[end:]...)
	if w.Created && file == path && len(bytes.TrimSpace(next)) == 0 {
		return true, os.Remove(path)
	}
	return true, renameio.WriteFile(file, next, perm)
}
