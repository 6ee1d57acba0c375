package main

import (
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/transcript"
)

// keptDir is dreamd's folder of hard links to a source's transcripts, for the agents that delete
// their own (transcript.Keeps), "" for the others.
func keptDir(cfg *config.Config, s config.Source) string {
	if !transcript.Keeps(s.Kind) {
		return ""
	}
	return filepath.Join(cfg.StateDir, "kept", slug.StateName(s.Path))
}

// keptRoots are the folders the daemon watches: the sources whose transcripts it keeps.
func keptRoots(sources []transcript.Source) []string {
	var roots []string
	for _, s := range sources {
		if s.Kept != "" {
			roots = append(roots, s.Path)
		}
	}
	return roots
}

// keepChanged keeps a transcript the daemon saw appear or grow, before its agent can delete it.
func keepChanged(sources []transcript.Source, path string, log *slog.Logger) {
	for _, s := range sources {
		if s.Kept == "" || !strings.HasPrefix(path, s.Path+string(filepath.Separator)) {
			continue
		}
		if made, err := transcript.Keep(s, path); err != nil {
			log.Warn("cannot keep a transcript", "path", path, "err", err)
		} else if made {
			log.Debug("kept a transcript", "path", path)
		}
	}
}

// keepAll keeps every transcript of the keeping sources not kept yet: at each check, for what
// appeared while the daemon was not watching.
func keepAll(sources []transcript.Source, log *slog.Logger) {
	for _, s := range sources {
		if n, err := transcript.KeepAll(s); err != nil {
			log.Warn("cannot keep transcripts", "source", s.Path, "err", err)
		} else if n > 0 {
			log.Info("kept transcripts before their agent can delete them", "source", s.Path, "files", n)
		}
	}
}

// forgetRead removes the kept links of transcripts their agent deleted once a pass has read them
// to the end (a store's cursor is at the link's size): they would otherwise hold the files the
// agent deleted on disk for good. The stores' cursors are loaded only when such a link exists:
// every pass calls this, and the cursors of a large history are tens of MB of JSON.
func forgetRead(stateDir string, sources []transcript.Source, log *slog.Logger) {
	type orphan struct {
		link, orig string
		size       int64
	}
	var orphans []orphan
	for _, s := range sources {
		if s.Kept == "" {
			continue
		}
		filepath.WalkDir(s.Kept, func(p string, e fs.DirEntry, err error) error {
			if err != nil || !e.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(s.Kept, p)
			if err != nil {
				return nil
			}
			orig := filepath.Join(s.Path, rel)
			if _, err := os.Lstat(orig); err == nil {
				return nil // the agent's file is there: the link costs nothing
			}
			if fi, err := e.Info(); err == nil {
				orphans = append(orphans, orphan{p, orig, fi.Size()})
			}
			return nil
		})
	}
	if len(orphans) == 0 {
		return
	}
	stores, _ := phases.KnownStores(stateDir)
	read := map[string]transcript.Cursor{}
	for _, p := range stores {
		cursors, err := phases.LoadCursors(p)
		if err != nil {
			continue
		}
		maps.Copy(read, cursors)
	}
	for _, o := range orphans {
		c, ok := read[o.orig]
		if !ok || c.More || c.Offset < o.size {
			continue
		}
		if err := os.Remove(o.link); err != nil {
			log.Warn("cannot remove a kept transcript read to its end", "path", o.link, "err", err)
		}
	}
}
