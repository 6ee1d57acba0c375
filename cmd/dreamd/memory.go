package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/preamble"
	"github.com/dreamd/dreamd/internal/recall"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// The reader side of memory — recall, remember, preamble, mcp, link — shares what is here: which
// store a project's memories are in, and reading them as recall and the preamble want them.

// notesDir is where `dreamd remember` queues notes: dreamd's own transcript source.
func notesDir(cfg *config.Config) string { return filepath.Join(cfg.StateDir, "notes") }

// userNotesDir is where memories sent to the user store wait for its pass: its own source.
func userNotesDir(cfg *config.Config) string { return filepath.Join(cfg.StateDir, "user-notes") }

// userStore is the user scope's store, "" when the scope is off.
func userStore(cfg *config.Config) string {
	if !cfg.Store.User.Enabled {
		return ""
	}
	return cfg.Store.User.Path
}

// teamClone is dreamd's own clone of the team repository, "" without a team scope.
func teamClone(cfg *config.Config) string {
	if cfg.Store.Team.Repo == "" {
		return ""
	}
	return filepath.Join(cfg.StateDir, "team", slug.StateName(cfg.Store.Team.Repo))
}

// teamStore is the team scope's store (store.team.path in the clone), "" without one.
func teamStore(cfg *config.Config) string {
	if clone := teamClone(cfg); clone != "" {
		return filepath.Join(clone, filepath.FromSlash(cfg.Store.Team.Path))
	}
	return ""
}

// teamNotesDir is where memories sent to the team store wait for its pass.
func teamNotesDir(cfg *config.Config) string { return filepath.Join(cfg.StateDir, "team-notes") }

// scoped fills env with the user's and the team's stores and their queues.
func scoped(env *phases.Env, cfg *config.Config) {
	env.UserStore, env.UserNotes = userStore(cfg), userNotesDir(cfg)
	env.TeamStore, env.TeamNotes, env.TeamTypes = teamStore(cfg), teamNotesDir(cfg), cfg.Store.Team.Types
	for _, p := range cfg.Store.Team.Exclude {
		env.NoTeam = append(env.NoTeam, phases.StoreOf(env, p).Store)
	}
}

// sources are the configured transcript sources plus dreamd's own notes, and the queues of
// memories sent to the user's and the team's stores.
func sources(cfg *config.Config) []transcript.Source {
	var out []transcript.Source
	for _, s := range cfg.Sources {
		out = append(out, transcript.Source{Kind: s.Kind, Path: s.Path, Project: s.Project, Kept: keptDir(cfg, s)})
	}
	if cfg.AgentMemory {
		out = append(out, transcript.AgentMemorySources(homeDir(), userStore(cfg))...)
	}
	out = append(out, transcript.Source{Kind: transcript.RememberKind, Path: notesDir(cfg)})
	if dir := userStore(cfg); dir != "" {
		out = append(out, transcript.Source{Kind: transcript.RememberKind, Path: userNotesDir(cfg), Store: dir})
	}
	if dir := teamStore(cfg); dir != "" {
		out = append(out, transcript.Source{Kind: transcript.RememberKind, Path: teamNotesDir(cfg), Store: dir})
	}
	return out
}

// routingEnv is what routing needs of a configuration: sources, stores, state; no consolidator.
func routingEnv(cfg *config.Config) *phases.Env {
	env := &phases.Env{
		Sources:   sources(cfg),
		StoreMode: phases.StoreMode(cfg.Store.Mode),
		StoreRoot: cfg.Store.Root,
		StorePath: cfg.Store.Path,
		StateDir:  cfg.StateDir,
		SpecStory: cfg.SpecStory,
	}
	scoped(env, cfg)
	return env
}

// routingEnvPaths are the paths of the store in dir, with its state.
func routingEnvPaths(cfg *config.Config, dir string) store.Paths {
	return phases.StorePaths(routingEnv(cfg), dir)
}

// project is what a command about one project's memory starts from: the configuration, the
// project (--project, else the working directory's; its git root) and the store it routes to.
type project struct {
	cfg   *config.Config
	dir   string // canonical project directory
	paths store.Paths
}

// loadProject loads the configuration and resolves a --project flag to its store.
func (g *globalOptions) loadProject(flag string) (project, error) {
	cfg, only, err := g.loadStore()
	if err != nil {
		return project{}, err
	}
	dir, err := projectDir(flag)
	if err != nil {
		return project{}, err
	}
	dir = transcript.CanonicalProject(dir)
	return project{cfg: cfg, dir: dir, paths: storeOf(only, cfg, dir)}, nil
}

// projectDir is --project made absolute, the current directory when it is empty.
func projectDir(flag string) (string, error) {
	if flag == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(flag)
	if err != nil {
		return "", usagef("--project: " + err.Error())
	}
	return abs, nil
}

// storeOf is the store only (the one --store or --project selects), else the one the project's
// sessions go to.
func storeOf(only string, cfg *config.Config, project string) store.Paths {
	env := routingEnv(cfg)
	if only != "" {
		return phases.StorePaths(env, only)
	}
	return phases.StoreOf(env, project)
}

// recallDocs are a store's memories (and its archive's, when asked) as recall ranks them. The
// parsed memories are cached in the store's state, so a search of a large store reads only the
// directory and the files that changed.
func recallDocs(p store.Paths, archive bool) ([]recall.Doc, error) {
	files, err := topicFiles(p.Store)
	if err != nil {
		return nil, err
	}
	docs, err := recall.Cached(filepath.Join(p.State, "recall.cache"), files, func(path string) (recall.Doc, error) {
		data, err := safefile.ReadFile(path, store.MaxFile)
		if err != nil {
			return recall.Doc{}, err
		}
		m := store.ParseMemory(strings.TrimSuffix(filepath.Base(path), ".md"), data)
		return recall.Doc{Name: m.Name, Type: string(m.Type), Description: m.Description, Body: m.Body, Path: path}, nil
	})
	if err != nil {
		return nil, err
	}
	if !archive {
		return docs, nil
	}
	archived, err := store.Archived(p)
	if err != nil {
		return nil, err
	}
	for _, a := range archived {
		data, err := safefile.ReadFile(a.Path, store.MaxFile)
		if err != nil {
			continue // an archive entry whose file is gone cannot be searched, and is not an error here
		}
		m := store.ParseMemory(a.Name, data)
		docs = append(docs, recall.Doc{Name: m.Name, Type: string(m.Type), Description: m.Description, Body: m.Body, Path: a.Path, Archived: true})
	}
	return docs, nil
}

// topicFiles lists a store's topic files as recall reads them: regular *.md files other than the
// index and dotfiles (symbolic links are not followed: they may point out of the store).
func topicFiles(dir string) ([]recall.File, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var files []recall.File
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || name == store.IndexFile || strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed while listing
		}
		files = append(files, recall.File{Path: filepath.Join(dir, name), Size: fi.Size(), ModTime: fi.ModTime()})
	}
	return files, nil
}

// scopeStores are the user's and the team's stores that exist in cfg, whose memories every
// project's preamble carries.
func scopeStores(cfg *config.Config) []string {
	return slices.DeleteFunc([]string{userStore(cfg), teamStore(cfg)}, func(s string) bool { return s == "" })
}

// renderPreamble is a store's preamble within maxBytes, with the memories of the scopes' stores
// that no memory of an earlier store's name shadows, redacted: it is about to be sent to an
// agent's model, and a secret a person typed into a topic file must not go with it.
func renderPreamble(p store.Paths, scopes []string, maxBytes int, red *redact.Redactor, load storeLoader) (string, error) {
	s, err := load(p.Store)
	if err != nil {
		return "", err
	}
	all := slices.Clip(s.Memories)
	for _, dir := range scopes {
		if dir == p.Store {
			continue
		}
		u, err := load(dir)
		if err != nil {
			return "", err
		}
		for _, m := range u.Memories {
			if !slices.ContainsFunc(all, func(o *store.Memory) bool { return o.Name == m.Name }) {
				all = append(all, m)
			}
		}
	}
	mems := make([]preamble.Memory, 0, len(all))
	stale := staleNames(p)
	for i, m := range all {
		desc, body := m.Description, m.Body
		if red != nil {
			desc, _ = red.Redact(desc)
			body, _ = red.Redact(body)
		}
		if i < len(s.Memories) && stale[m.Name] != "" {
			desc = phases.StaleMark + desc // as its index line says
		}
		mems = append(mems, preamble.Memory{Name: m.Name, Type: string(m.Type), Description: desc, Body: body, Updated: m.Updated, Pinned: m.Pinned})
	}
	return preamble.Render(mems, maxBytes), nil
}

// storeLoader loads a memory store: store.Load, or loadOnce's cache of it.
type storeLoader func(dir string) (*store.Store, error)

// loadOnce loads each store once: a link refresh renders a block per linked project, and every
// block carries the user's and the team's stores.
func loadOnce() storeLoader {
	loaded := map[string]*store.Store{}
	return func(dir string) (*store.Store, error) {
		if s, ok := loaded[dir]; ok {
			return s, nil
		}
		s, err := store.Load(dir)
		if err == nil {
			loaded[dir] = s
		}
		return s, err
	}
}

// redactor is the configured redactor.
func redactor(cfg *config.Config) (*redact.Redactor, error) {
	red, err := redact.New(cfg.Redact.Patterns)
	if err != nil {
		return nil, &config.Error{Key: "redact.patterns", Msg: err.Error()}
	}
	return red, nil
}

// joinArgs is the words of a command line as one text ("dreamd recall how to deploy").
func joinArgs(args []string) string { return strings.Join(args, " ") }

// memoryTypeOK reports whether typ is a memory type ("" lets the pass decide).
func memoryTypeOK(typ string) bool { return typ == "" || memory.Type(typ).Valid() }
