package eval

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/transcript"
)

// workspace is a scenario laid out on disk: <root>/memory (the store, in a folder named as Claude
// Code names its own, so a session can read a topic file as memory/<name>.md), <root>/state and
// the transcripts under <root>/transcripts, where Claude Code's are at <slug of the
// project>/<session>.jsonl as in ~/.claude/projects.
type workspace struct {
	store, state string
	project      string // <root>/project, when the scenario has a project tree
	sources      []transcript.Source
}

// lay copies the scenario's transcripts and starting store under root. Every copied file gets
// the scenario's today as its modification time, so a pass reads the same thing on every machine.
func lay(sc *Scenario, root string) (*workspace, error) {
	w := &workspace{store: filepath.Join(root, "memory"), state: filepath.Join(root, "state")}
	for _, dir := range []string{w.store, w.state} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
	}
	if _, err := fs.Stat(sc.files, storeDir); err == nil {
		if err := copyTree(sc.files, storeDir, w.store, sc.Today, strings.NewReplacer()); err != nil {
			return nil, err
		}
	}
	// A scenario with a project tree has it laid out here, and its transcripts, which name the
	// project by the scenario's path, name the laid-out one instead: the pass checks the memories'
	// citations against the tree of the project the sessions happened in.
	moved := strings.NewReplacer()
	if _, err := fs.Stat(sc.files, projectDir); err == nil {
		w.project = filepath.Join(root, projectDir)
		if err := copyTree(sc.files, projectDir, w.project, sc.Today, strings.NewReplacer()); err != nil {
			return nil, err
		}
		moved = strings.NewReplacer(sc.Project, w.project)
	}
	claude := false
	for i, src := range sc.Sources {
		project := moved.Replace(cmp.Or(src.Project, sc.Project))
		dst := filepath.Join(root, "transcripts", fmt.Sprintf("%s-%d", src.Kind, i))
		top := dst // the source's path
		switch src.Kind {
		case "claude":
			dst = filepath.Join(root, "transcripts", "claude", slug.Project(project))
		case transcript.SpecStoryKind:
			// A SpecStory export is known by its place: the tree keeps its path (.specstory/history).
			dst = filepath.Join(dst, filepath.FromSlash(src.Path))
		}
		if err := copyTree(sc.files, src.Path, dst, sc.Today, moved); err != nil {
			return nil, err
		}
		switch {
		case src.Kind != "claude":
			w.sources = append(w.sources, transcript.Source{Kind: src.Kind, Path: top, Project: moved.Replace(sourceProject(src, sc.Project))})
		case !claude:
			claude = true
			w.sources = append(w.sources, transcript.Source{Kind: "claude", Path: filepath.Dir(dst)})
		}
	}
	return w, nil
}

// sourceProject is a source's configured project: the one the scenario names for it; else, for
// kinds whose files do not name their project (markdown, chat, aider, specstory: its place in a
// project does, and a scenario's is not one), the scenario's.
func sourceProject(src Source, project string) string {
	switch src.Kind {
	case "markdown", "chat", "aider", "specstory":
		return cmp.Or(src.Project, project)
	}
	return src.Project
}

// copyTree copies the directory dir of fsys to dst, each file's text through r.
func copyTree(fsys fs.FS, dir, dst string, mtime time.Time, r *strings.Replacer) error {
	return fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, filepath.FromSlash(p))
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, []byte(r.Replace(string(data))), 0o600); err != nil {
			return err
		}
		return os.Chtimes(target, mtime, mtime)
	})
}

// env is the pass's environment: the base's consolidator, redactor, token budget and logger;
// this workspace's sources, store and state; a clock stopped at the scenario's today; and
// docs/DESIGN.md's caps (with the scenario's overrides) and retire fraction, with no TTL and no
// retirement for want of use unless the scenario sets prune.unused_days, whatever the
// configuration says, so that scores compare across setups.
func (w *workspace) env(base *phases.Env, sc *Scenario) *phases.Env {
	today := sc.Today
	return &phases.Env{
		Sources:           w.sources,
		StoreMode:         phases.Fixed,
		StorePath:         w.store,
		StateDir:          w.state,
		Limits:            sc.Limits.OrDefaults(),
		MaxRetireFraction: config.DefaultMaxRetireFraction,
		UnusedDays:        sc.Prune.UnusedDays,
		MaxInputTokens:    cmp.Or(base.MaxInputTokens, config.DefaultMaxInputTokens),
		Consolidator:      base.Consolidator,
		ConsolidatorName:  base.ConsolidatorName,
		Redactor:          base.Redactor,
		Now:               func() time.Time { return today },
		Log:               base.Log,
	}
}

// seedHeld records the scenario's held citations as an earlier pass over the laid-out project
// would have, so that one pass can show a cited file that is gone.
func (w *workspace) seedHeld(env *phases.Env, sc *Scenario) error {
	if len(sc.Held) == 0 {
		return nil
	}
	if w.project == "" {
		return fmt.Errorf("held: the scenario has no %s/ tree to have held in", projectDir)
	}
	return phases.SaveCitations(phases.StorePaths(env, w.store), &phases.Citations{Project: w.project, Held: sc.Held})
}
