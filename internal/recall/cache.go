package recall

import (
	"encoding/gob"
	"os"
	"path/filepath"
	"time"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/safefile"
)

// File is a file that holds one Doc, as a directory listing shows it.
type File struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// cacheEntry is one parsed file, valid while the file keeps its size and modification time.
type cacheEntry struct {
	Size    int64
	ModTime time.Time
	Doc     Doc
}

// Cached returns the Docs of files in their order, parsing only the files that changed since the
// cache at cachePath was written, and rewrites the cache when any did. On a store of thousands of
// memories, parsing front matter is nearly all the cost of a search; a cache that cannot be read
// or written only costs that time again, never a wrong answer.
func Cached(cachePath string, files []File, parse func(path string) (Doc, error)) ([]Doc, error) {
	old := readCache(cachePath)
	next := make(map[string]cacheEntry, len(files))
	docs := make([]Doc, 0, len(files))
	dirty := len(old) != len(files)
	for _, f := range files {
		e, ok := old[f.Path]
		if !ok || e.Size != f.Size || !e.ModTime.Equal(f.ModTime) {
			d, err := parse(f.Path)
			if err != nil {
				return nil, err
			}
			e, dirty = cacheEntry{Size: f.Size, ModTime: f.ModTime, Doc: d}, true
		}
		next[f.Path] = e
		docs = append(docs, e.Doc)
	}
	if dirty {
		writeCache(cachePath, next)
	}
	return docs, nil
}

func readCache(path string) map[string]cacheEntry {
	// safefile: a FIFO in the cache's place must not block recall in open; it is no cache.
	f, _, err := safefile.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var m map[string]cacheEntry
	if gob.NewDecoder(f).Decode(&m) != nil {
		return nil
	}
	return m
}

func writeCache(path string, m map[string]cacheEntry) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	t, err := renameio.TempFile("", path)
	if err != nil {
		return
	}
	defer t.Cleanup()
	if gob.NewEncoder(t).Encode(m) == nil {
		_ = t.CloseAtomicallyReplace() // a cache: the next recall parses the store again
	}
}
