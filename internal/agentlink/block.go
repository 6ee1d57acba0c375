// Package agentlink keeps a managed block of memory in an agent's own instruction file (AGENTS.md
// for Codex CLI, GEMINI.md for Gemini CLI, a conventions file Aider reads), so agents that never
// open a Claude Code memory directory still start each session with what dreamd consolidated.
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

	"github.com/google/renameio/v2"
)

// Markers are the comment lines around a managed block, in the syntax of the file that holds it.
// The begin marker names the project, so one user-level file can hold the blocks of several.
type Markers struct{ begin, end string }

var (
	// Markdown is for instruction files (HTML comments, invisible when rendered).
	Markdown = Markers{"<!-- dreamd:begin %s — managed by `dreamd link`; edits inside are replaced -->\n", "<!-- dreamd:end %s -->\n"}
	// YAML is for configuration files.
	YAML = Markers{"# dreamd:begin %s — managed by `dreamd link`; edits inside are replaced\n", "# dreamd:end %s\n"}
)

// block is the managed block of key holding text.
func (mk Markers) block(key, text string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, mk.begin, key)
	b.WriteString(text)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, mk.end, key)
	return b.Bytes()
}

// find locates key's block in data: [start, end) including both markers, ok false when absent.
func (mk Markers) find(data []byte, key string) (start, end int, ok bool) {
	begin := []byte(fmt.Sprintf(mk.begin, key))
	finish := []byte(fmt.Sprintf(mk.end, key))
	start = bytes.Index(data, begin)
	if start < 0 {
		return 0, 0, false
	}
	e := bytes.Index(data[start:], finish)
	if e < 0 {
		return 0, 0, false
	}
	return start, start + e + len(finish), true
}

// Written says what writing a block did to a file, so that removing it can undo exactly that.
type Written struct {
	Created   bool   `json:"created"`   // the file did not exist before
	Separator string `json:"separator"` // what was put between the old end of the file and the block
}

// Put writes key's block holding text into path: in place of the existing block, else appended.
// It writes only when the bytes change, and reports what an append added.
func (mk Markers) Put(path, key, text string, perm fs.FileMode) (w Written, changed bool, err error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		w.Created = true
	case err != nil:
		return w, false, err
	}
	blk := mk.block(key, text)
	var next []byte
	if start, end, ok := mk.find(data, key); ok {
		next = append(append(append([]byte{}, data[:start]...), blk...), data[end:]...)
	} else {
		w.Separator = separator(data)
		next = append(append(append([]byte{}, data...), w.Separator...), blk...)
	}
	if !w.Created && bytes.Equal(next, data) {
		return w, false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return w, false, err
	}
	return w, true, renameio.WriteFile(path, next, perm)
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
// Put created once nothing else is left in it. A file without the block is left alone.
func (mk Markers) Remove(path, key string, w Written) (changed bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	start, end, ok := mk.find(data, key)
	if !ok {
		return false, nil
	}
	if sep := []byte(w.Separator); bytes.HasSuffix(data[:start], sep) {
		start -= len(sep)
	}
	next := append(append([]byte{}, data[:start]...), data[end:]...)
	if w.Created && len(bytes.TrimSpace(next)) == 0 {
		return true, os.Remove(path)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return true, renameio.WriteFile(path, next, fi.Mode().Perm())
}
