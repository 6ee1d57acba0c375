// Package store is the memory directory: topic files with front matter, the derived MEMORY.md
// index, diffs, and the transactional apply with its journal, archive, history and rollback.
//
// It knows nothing of LLMs or transcripts.
package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/safefile"
)

// IndexFile is the derived index Claude Code loads.
const IndexFile = memory.IndexFile

// ClaudeLockFile is Claude Code's own consolidation lock inside a store.
const ClaudeLockFile = ".consolidate-lock"

// Change is one file of the store as it was and as it will be. Name is a file name inside the
// store (no directories). A nil Old means the file does not exist yet; a nil New deletes it.
type Change struct {
	Name string `json:"name"`
	Old  []byte `json:"old"` // not omitempty: an empty file ([]byte{}) is not an absent one (nil)
	New  []byte `json:"new"`
}

// ChangeKind is what a change does to its file; reports show it as it is written.
type ChangeKind string

// The kinds of change.
const (
	FileCreated ChangeKind = "create"
	FileUpdated ChangeKind = "update"
	FileDeleted ChangeKind = "delete"
)

// Kind is what c does to its file.
func (c Change) Kind() ChangeKind {
	switch {
	case c.Old == nil:
		return FileCreated
	case c.New == nil:
		return FileDeleted
	}
	return FileUpdated
}

// RetireReason is why a memory left the store.
type RetireReason string

// The reasons a memory is retired.
const (
	Deleted    RetireReason = "deleted"    // the model deleted it
	Merged     RetireReason = "merged"     // merged into another memory
	Superseded RetireReason = "superseded" // a newer memory contradicts it
	Expired    RetireReason = "expired"    // its type's TTL passed without an update
	Capped     RetireReason = "capped"     // the index was over its caps and it was worth the least
	Unused     RetireReason = "unused"     // nobody used it for prune.unused_days
	Moved      RetireReason = "moved"      // it belongs in another scope's store, where it was sent
	// Rewritten keeps the version a person wrote of a memory a pass rewrote: the memory stays, and
	// what they wrote outlives the run history.
	Rewritten RetireReason = "rewritten"
)

// Retirement is a memory leaving the store; its content goes to the archive, never lost.
type Retirement struct {
	Name     string       `json:"name"`
	Reason   RetireReason `json:"reason"`
	Detail   string       `json:"detail"` // why, in one sentence (e.g. "merged into deploy-steps")
	Evidence []string     `json:"evidence,omitempty"`
	Content  []byte       `json:"content"` // the file as it was
}

// MaxFile bounds a file of the store as read: topic files and MEMORY.md are a few kilobytes, and
// one of any size must not exhaust the memory of a pass.
const MaxFile = 4 << 20

// fileError says what to do about a store file that cannot be read.
func fileError(err error) error {
	if _, ok := errors.AsType[*safefile.TooLargeError](err); ok {
		return fmt.Errorf("%w: shorten it or move it out of the memory folder", err)
	}
	return err
}

// Store is a memory directory as read.
type Store struct {
	Dir      string
	Memories []*Memory // every *.md topic file except MEMORY.md, sorted by Name
	Index    []byte    // MEMORY.md as read; nil when absent
	// Outside lists *.md entries that are symbolic links to files outside the store: not read (a
	// link must not carry a file from elsewhere into a prompt), left as they are.
	Outside []string
}

// Load reads the store in dir. A missing dir is an empty store. Only regular *.md files are read
// (dotfiles, subdirectories and other files are left alone); a file whose stem is not a valid
// name is still loaded under that stem, so that it is never lost.
func Load(dir string) (*Store, error) {
	s := &Store{Dir: dir}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, err
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	var files []fs.DirEntry
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") || !isRegular(filepath.Join(dir, name), e) {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 && !linksInside(filepath.Join(dir, name), realDir) {
			s.Outside = append(s.Outside, name)
			continue
		}
		files = append(files, e)
	}
	// Reading and parsing the front matter is most of a large store's load (10,000 memories):
	// every core takes a share.
	loaded := make([]*Memory, len(files))
	errs := make([]error, len(files))
	var index []byte
	cores.Each(len(files), func(i int) {
		e := files[i]
		data, err := safefile.ReadFile(filepath.Join(dir, e.Name()), MaxFile)
		switch {
		case err != nil:
			errs[i] = err
		case e.Name() == IndexFile:
			index = data
		default:
			loaded[i] = ParseMemory(strings.TrimSuffix(e.Name(), ".md"), data)
			loaded[i].Link = e.Type()&fs.ModeSymlink != 0
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, fileError(err)
		}
	}
	s.Index = index
	for _, m := range loaded {
		if m != nil {
			s.Memories = append(s.Memories, m)
		}
	}
	slices.SortFunc(s.Memories, func(a, b *Memory) int { return strings.Compare(a.Name, b.Name) })
	return s, nil
}

// Verbatim lists the files whose front matter dreamd cannot write back as written (see
// Memory.Verbatim).
func (s *Store) Verbatim() []string { return s.files(func(m *Memory) bool { return m.Verbatim }) }

// Unclean lists the files that held NUL or control bytes (loaded sanitised, kept as they are).
func (s *Store) Unclean() []string { return s.files(func(m *Memory) bool { return m.Unclean }) }

// files lists the file names of the memories that match.
func (s *Store) files(match func(*Memory) bool) []string {
	var out []string
	for _, m := range s.Memories {
		if match(m) {
			out = append(out, m.Name+".md")
		}
	}
	return out
}

// linksInside reports whether the symbolic link at path resolves to a file inside dir.
func linksInside(path, dir string) bool {
	target, err := filepath.EvalSymlinks(path)
	if err != nil || dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// LinksInside reports whether the symbolic link at path resolves to a file inside the store in
// dir: the rule Load keeps a linked memory by.
func LinksInside(path, dir string) bool {
	realDir, err := filepath.EvalSymlinks(dir)
	return err == nil && linksInside(path, realDir)
}

// isRegular reports whether a directory entry is a regular file, following a symlink.
func isRegular(path string, e fs.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// Fingerprint identifies the store's files as loaded: a SHA-256 over the name and bytes of every
// .md file, MEMORY.md included. Memories not yet on disk (Raw nil) do not count.
func (s *Store) Fingerprint() string {
	files := map[string][]byte{}
	for _, m := range s.Memories {
		if m.Raw != nil {
			files[m.Name+".md"] = m.Raw
		}
	}
	if s.Index != nil {
		files[IndexFile] = s.Index
	}
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(h, "%d:%s%d:", len(name), name, len(files[name]))
		h.Write(files[name])
	}
	return hex.EncodeToString(h.Sum(nil))
}
