package transcript

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/safefile"
)

// Gemini CLI deletes sessions at its next start (its session cleanup deletes every file of a
// session it judges expired or unreadable, and a resumed session's files among them), often before
// any pass read them. The daemon keeps a hard link to each session file in the source's Kept
// folder as soon as it appears: the link holds every byte the agent appends, costs no space while
// the agent's file exists, and outlives its deletion, so the session is still read.

// Keeps reports whether a source's transcripts are kept: Gemini CLI's, which it deletes itself.
func Keeps(kind string) bool { return kind == "gemini" }

// Keep links one transcript file of src into src.Kept (a file the source does not list, such as
// a temporary file, is left alone) and reports whether it made a new link.
func Keep(src Source, path string) (bool, error) {
	if src.Kept == "" || !Keeps(src.Kind) {
		return false, nil
	}
	rel, err := filepath.Rel(src.Path, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." {
		return false, nil
	}
	if !keptShape(filepath.ToSlash(rel)) {
		return false, nil
	}
	return keepFile(path, filepath.Join(src.Kept, rel))
}

// KeepAll links every transcript src lists that is not yet kept, and returns how many it linked.
func KeepAll(src Source) (int, error) {
	if src.Kept == "" || !Keeps(src.Kind) {
		return 0, nil
	}
	a, err := New(src.Kind)
	if err != nil {
		return 0, err
	}
	files, _, err := a.Discover(Source{Kind: src.Kind, Path: src.Path})
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, f := range files {
		rel, err := filepath.Rel(src.Path, f.Path)
		if err != nil || f.Kept != "" {
			continue
		}
		made, err := keepFile(f.Path, filepath.Join(src.Kept, rel))
		if made {
			n++
		}
		errs = append(errs, err)
	}
	return n, errors.Join(errs...)
}

// keptShape reports whether a path relative to a Gemini CLI source is a main session's file,
// <folder>/chats/session-*.json(l): what the gemini adapter lists.
func keptShape(rel string) bool {
	dirs := strings.Split(rel, "/")
	return len(dirs) == 3 && dirs[1] == "chats" && strings.HasPrefix(dirs[2], "session-")
}

// keepFile makes kept a hard link to path, unless it already is one. A file the agent replaced
// (written anew and renamed over the old one) is linked anew. Where no hard link can be made
// (another file system), kept becomes a copy, refreshed at every change.
func keepFile(path, kept string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, ignoreGone(err)
	}
	if ki, err := os.Stat(kept); err == nil && (os.SameFile(fi, ki) || ki.Size() == fi.Size() && ki.ModTime().Equal(fi.ModTime())) {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(kept), 0o700); err != nil {
		return false, err
	}
	tmp := kept + ".tmp"
	os.Remove(tmp) // a leftover of an interrupted keep
	if err := os.Link(path, tmp); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil // deleted meanwhile
		}
		if err := copyTranscript(path, tmp); err != nil {
			os.Remove(tmp)
			return false, ignoreGone(err)
		}
	}
	if err := os.Rename(tmp, kept); err != nil {
		os.Remove(tmp)
		return false, err
	}
	return true, nil
}

// copyTranscript copies a transcript, keeping its modification time.
func copyTranscript(path, dst string) error {
	in, fi, err := safefile.Open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

func ignoreGone(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// withKept adds to a source's listing the kept transcripts whose file the agent deleted: each
// listed under its own path, read from its link.
func withKept(kind string, src Source, files []File, keep classify) ([]File, error) {
	if src.Kept == "" {
		return files, nil
	}
	if _, err := os.Stat(src.Kept); errors.Is(err, fs.ErrNotExist) {
		return files, nil
	}
	kept, _, err := discover(kind, Source{Kind: kind, Path: src.Kept, Project: src.Project, Store: src.Store}, keep)
	if err != nil {
		return files, err
	}
	listed := make(map[string]bool, len(files))
	for _, f := range files {
		listed[f.Path] = true
	}
	for _, k := range kept {
		rel, err := filepath.Rel(src.Kept, k.Path)
		if err != nil || strings.HasSuffix(k.Path, ".tmp") {
			continue
		}
		orig := filepath.Join(src.Path, rel)
		if listed[orig] {
			continue
		}
		if _, err := os.Lstat(orig); err == nil {
			continue // there, but not listed (passed over): so is its link
		}
		k.Kept, k.Path = k.Path, orig
		files = append(files, k)
	}
	return files, nil
}
