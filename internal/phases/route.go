package phases

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/cores"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
	"os"
)

// Target is one memory store and the transcript files whose sessions belong to it.
type Target struct {
	Paths store.Paths
	Files []Tracked
	// Cursors are the store's cursors as Discover read them (nil: it had none to read); the
	// pass reads them again under the lock before it consolidates anything.
	Cursors Cursors
}

// Tracked is one transcript file, routed.
type Tracked struct {
	File    transcript.File
	Adapter transcript.Adapter
	Session string // session id learnt from the head
	Project string // canonical project directory
	// Hash is the hex SHA-256 of the project path the agent filed the transcript under, when
	// nothing else names its project (Gemini CLI): it belongs to the known project of that hash.
	Hash string
	// Folder is the Claude Code project folder the transcript sits in when its store is that
	// folder's rather than the one its project names: no record names its working directory, or
	// Claude Code filed it under another project's folder (a project that moved).
	Folder string
}

// Discover lists every transcript of every source and routes each file to its store by project.
// Files it cannot route (no project) come back as skipped, with why.
func Discover(env *Env) ([]Target, []transcript.Skipped, error) {
	targets, skipped, _, err := discover(context.Background(), env)
	return targets, skipped, err
}

// discover is Discover, with the listing it routed; it stops routing when ctx is done.
func discover(ctx context.Context, env *Env) ([]Target, []transcript.Skipped, []listedSource, error) {
	// The stores' cursors are read while the sources are listed: together they are a quiet pass.
	var known map[string]transcript.Cursor
	var cursors map[string]Cursors
	routes := make(chan struct{})
	go func() {
		known, cursors = knownRoutes(env.StateDir)
		close(routes)
	}()
	sources, err := listSources(env)
	<-routes
	if err != nil {
		return nil, nil, nil, err
	}
	return withExports(ctx, env, sources, known, cursors)
}

// listedSource is one source's files as its adapter listed them.
type listedSource struct {
	adapter transcript.Adapter
	files   []transcript.File
	skipped []transcript.Skipped
	// project, for the SpecStory exports of a project dreamd knows (see specstory.go), is the
	// project whose folder was looked in, files or none; "" for a configured source.
	project string
}

// listSources lists the files of every source.
func listSources(env *Env) ([]listedSource, error) {
	var sources []listedSource
	for _, src := range env.Sources {
		a, err := transcript.New(src.Kind)
		if err != nil {
			return nil, err
		}
		files, skip, err := a.Discover(src)
		if err != nil {
			return nil, fmt.Errorf("%s source %s: %w", src.Kind, src.Path, err)
		}
		sources = append(sources, listedSource{adapter: a, files: files, skipped: skip})
	}
	return sources, nil
}

// routeListed routes listed files to their stores, with the routes and cursors the stores know.
func routeListed(ctx context.Context, env *Env, sources []listedSource, known map[string]transcript.Cursor, cursors map[string]Cursors) ([]Target, []transcript.Skipped, error) {
	var skipped []transcript.Skipped
	listed := 0
	for _, l := range sources {
		listed += len(l.files)
	}
	routed := make([]Tracked, 0, listed)
	var hashed []Tracked // sessions known only by their project's hash, placed once all others are
	for _, l := range sources {
		skipped = append(skipped, l.skipped...)
		// A first pass peeks into every file: on every core, and SIGTERM stops it.
		peeked := make([]struct {
			t   Tracked
			why string
		}, len(l.files))
		cores.Each(len(l.files), func(i int) {
			if ctx.Err() == nil {
				peeked[i].t, peeked[i].why = route(env, l.adapter, l.files[i], known[l.files[i].Path])
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		for _, p := range peeked {
			t, why, f := p.t, p.why, p.t.File
			switch {
			case why == "" && t.Project == "" && t.Folder == "" && t.Hash != "":
				hashed = append(hashed, t)
			case why != "":
				skipped = append(skipped, transcript.Skipped{Path: f.Path, Reason: why})
			default:
				routed = append(routed, t)
			}
		}
	}
	if len(hashed) > 0 {
		byHash := knownProjects(env, routed, known)
		for _, t := range hashed {
			project, ok := byHash[t.Hash]
			if !ok {
				skipped = append(skipped, transcript.Skipped{Path: t.File.Path, Reason: transcript.Unplaced(t.File)})
				continue
			}
			t.Project = project
			routed = append(routed, t)
		}
	}
	routed, skipped = withoutCopies(routed, skipped)
	stores := newStoreFolders(env, routed)
	// Each store's list is made at its size: grown by appends, a first pass over 100,000 files
	// held several copies of it at once.
	dirs := make([]string, len(routed))
	sizes := map[string]int{}
	for i, t := range routed {
		dirs[i] = stores.dir(t)
		sizes[dirs[i]]++
	}
	byStore := map[string]*Target{}
	for i, t := range routed {
		dir := dirs[i]
		if byStore[dir] == nil {
			byStore[dir] = &Target{Paths: StorePaths(env, dir), Cursors: cursors[dir], Files: make([]Tracked, 0, sizes[dir])}
		}
		byStore[dir].Files = append(byStore[dir].Files, t)
	}
	targets := make([]Target, 0, len(byStore))
	for _, t := range byStore {
		slices.SortFunc(t.Files, func(a, b Tracked) int { return cmp.Compare(a.File.Path, b.File.Path) })
		targets = append(targets, *t)
	}
	slices.SortFunc(targets, func(a, b Target) int { return cmp.Compare(a.Paths.Store, b.Paths.Store) })
	return targets, skipped, nil
}

func route(env *Env, a transcript.Adapter, f transcript.File, known transcript.Cursor) (Tracked, string) {
	t := Tracked{File: f, Adapter: a, Project: f.Project}
	if f.Project == "" && known.Project != "" && known.Session != "" {
		// Routed by an earlier pass: a transcript does not change project.
		t.Project, t.Session = known.Project, known.Session
	} else {
		id, project, err := transcript.Peek(a, f)
		if errors.Is(err, transcript.ErrSubThread) {
			return t, err.Error()
		}
		if err != nil {
			return t, "unreadable: " + err.Error()
		}
		t.Session = id
		t.Project = cmp.Or(t.Project, project)
	}
	// Locate may read the file's folder and its first line: asked only when its answer is used.
	var placed transcript.Placed
	if t.Project == "" || env.StoreMode == PerProject && f.Store == "" {
		placed = transcript.Locate(f)
	}
	if t.Project == "" {
		t.Project, t.Hash = placed.Project, placed.ProjectHash
	}
	if t.Project != "" {
		t.Project = transcript.CanonicalProject(t.Project)
	}
	if env.StoreMode == PerProject && placed.Folder != "" && f.Store == "" {
		t.Folder = transcript.FiledElsewhere(f, placed.Folder, t.Project, env.StoreRoot)
	}
	if t.Project == "" && t.Folder == "" && t.Hash == "" && f.Store == "" {
		return t, noProject
	}
	return t, ""
}

// noProject is why a transcript without a working directory is not routed. A file of a source
// with a store of its own (the queues of the user's and the team's stores) needs no project.
const noProject = "no project yet: no record names a working directory"

// knownProjects maps the project hash of every project path dreamd knows — routed in this
// discovery, remembered in any store's cursors, configured on a source or named by
// its agent's home (transcript.SourceProjects) — to that project.
func knownProjects(env *Env, routed []Tracked, known map[string]transcript.Cursor) map[string]string {
	out := map[string]string{}
	add := func(p string) {
		if p != "" {
			out[transcript.ProjectHash(p)] = transcript.CanonicalProject(p)
		}
	}
	for _, t := range routed {
		add(t.Project)
	}
	for _, c := range known {
		add(c.Project)
	}
	for _, s := range env.Sources {
		for _, p := range transcript.SourceProjects(s) {
			add(p)
		}
	}
	return out
}

// storeFolders decides each routed transcript's store.
type storeFolders struct {
	env *Env
	// moved maps a project to the Claude Code folder its sessions were filed under when that is
	// not the project's own (a project that moved): all its sessions go there, from every agent.
	moved map[string]string
	// existing lists the folders under the store root, read once when first needed.
	existing []string
	listed   bool
}

func newStoreFolders(env *Env, routed []Tracked) *storeFolders {
	s := &storeFolders{env: env, moved: map[string]string{}}
	for _, t := range routed {
		if t.Folder != "" && t.Project != "" {
			if prev, ok := s.moved[t.Project]; !ok || t.Folder < prev {
				s.moved[t.Project] = t.Folder
			}
		}
	}
	return s
}

// dir is the store a routed transcript's sessions go to.
func (s *storeFolders) dir(t Tracked) string {
	env := s.env
	switch {
	case t.File.Store != "":
		return t.File.Store
	case env.StoreMode == Fixed:
		return env.StorePath
	case t.Folder != "":
		return filepath.Join(env.StoreRoot, t.Folder, "memory")
	case s.moved[t.Project] != "":
		return filepath.Join(env.StoreRoot, s.moved[t.Project], "memory")
	}
	return filepath.Join(env.StoreRoot, s.folder(t.Project), "memory")
}

// folder is the Claude Code folder of a project: the one Claude Code already keeps it in when
// that differs from the computed name only as Claude Code's own lookup allows (the case of the
// name, the hash of a long one), else the computed name.
func (s *storeFolders) folder(project string) string {
	name := transcript.ClaudeFolder(project)
	if _, err := os.Stat(filepath.Join(s.env.StoreRoot, name)); err == nil {
		return name
	}
	if !s.listed {
		s.listed = true
		entries, _ := os.ReadDir(s.env.StoreRoot)
		for _, e := range entries {
			if e.IsDir() {
				s.existing = append(s.existing, e.Name())
			}
		}
	}
	var found []string
	for _, e := range s.existing {
		if transcript.SameClaudeFolder(e, name) {
			found = append(found, e)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return name
}

// storeDir is where a project's memories live.
func storeDir(env *Env, project string) string {
	return newStoreFolders(env, nil).dir(Tracked{Project: project})
}

// StorePaths pairs a store with its own directory of dreamd state.
func StorePaths(env *Env, dir string) store.Paths {
	return store.Paths{Store: dir, State: filepath.Join(env.StateDir, "stores", slug.StateName(dir))}
}

// ReadCursors returns the store's cursors: those Discover read, else read now.
func (t Target) ReadCursors() (Cursors, error) {
	if t.Cursors != nil {
		return t.Cursors, nil
	}
	return LoadCursors(t.Paths)
}

// LastWrite is the newest modification time among a target's transcripts.
func (t Target) LastWrite() time.Time {
	var last time.Time
	for _, f := range t.Files {
		if f.File.ModTime.After(last) {
			last = f.File.ModTime
		}
	}
	return last
}

// knownRoutes maps every transcript a store has consolidated to its cursor there, and every known
// store to its cursors.
func knownRoutes(stateDir string) (map[string]transcript.Cursor, map[string]Cursors) {
	known := map[string]transcript.Cursor{}
	byStore := map[string]Cursors{}
	stores, _ := KnownStores(stateDir)
	// Reading every store's cursors is most of a quiet pass, so the stores are read side by side;
	// they are merged in order, as a sequential read would.
	loaded := make([]Cursors, len(stores))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(stores)) {
		wg.Go(func() {
			for i := range next {
				loaded[i], _ = LoadCursors(stores[i]) // unreadable: left out, as before
			}
		})
	}
	for i := range stores {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, p := range stores {
		if loaded[i] == nil {
			continue
		}
		byStore[p.Store] = loaded[i]
		for path, c := range loaded[i] {
			known[path] = c
		}
	}
	return known, byStore
}
