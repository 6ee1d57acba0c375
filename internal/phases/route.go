package phases

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
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
	// StoreSlug is the Claude Code project directory name a transcript sits in, used to route it
	// when no record names its working directory.
	StoreSlug string
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
	targets, skipped, err := routeListed(ctx, env, sources, known, cursors)
	return targets, skipped, sources, err
}

// listedSource is one source's files as its adapter listed them.
type listedSource struct {
	adapter transcript.Adapter
	files   []transcript.File
	skipped []transcript.Skipped
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
		sources = append(sources, listedSource{a, files, skip})
	}
	return sources, nil
}

// routeListed routes listed files to their stores, with the routes and cursors the stores know.
func routeListed(ctx context.Context, env *Env, sources []listedSource, known map[string]transcript.Cursor, cursors map[string]Cursors) ([]Target, []transcript.Skipped, error) {
	var skipped []transcript.Skipped
	byStore := map[string]*Target{}
	var hashed []Tracked // Gemini sessions known only by their project's hash, routed last
	place := func(t Tracked) {
		dir := storeDir(env, t.Project)
		switch {
		case t.File.Store != "":
			dir = t.File.Store
		case t.StoreSlug != "" && env.StoreMode == "claude":
			dir = filepath.Join(env.StoreRoot, t.StoreSlug, "memory")
		}
		if byStore[dir] == nil {
			byStore[dir] = &Target{Paths: StorePaths(env, dir), Cursors: cursors[dir]}
		}
		byStore[dir].Files = append(byStore[dir].Files, t)
	}
	for _, l := range sources {
		a := l.adapter
		skipped = append(skipped, l.skipped...)
		// A first pass peeks into every file: on every core, and SIGTERM stops it.
		routed := make([]struct {
			t   Tracked
			why string
		}, len(l.files))
		onEveryCore(len(l.files), func(i int) {
			if ctx.Err() == nil {
				routed[i].t, routed[i].why = route(env, a, l.files[i], known[l.files[i].Path])
			}
		})
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		for _, r := range routed {
			t, why := r.t, r.why
			f := t.File
			if why == noProject && geminiHash(f) != "" {
				hashed = append(hashed, t)
				continue
			}
			if why != "" {
				skipped = append(skipped, transcript.Skipped{Path: f.Path, Reason: why})
				continue
			}
			place(t)
		}
	}
	if len(hashed) > 0 {
		byHash := knownProjects(env, byStore, known)
		for _, t := range hashed {
			project, ok := byHash[geminiHash(t.File)]
			if !ok {
				skipped = append(skipped, transcript.Skipped{Path: t.File.Path, Reason: "Gemini session known only by its project's hash, which matches no project dreamd knows: " +
					"run dreamd once after any other agent's session in that project, or set project: on the gemini source"})
				continue
			}
			t.Project = project
			place(t)
		}
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
		return t, ""
	}
	id, project, err := transcript.Peek(a, f)
	if errors.Is(err, transcript.ErrSubThread) {
		return t, err.Error()
	}
	if err != nil {
		return t, "unreadable: " + err.Error()
	}
	t.Session = id
	if t.Project == "" {
		t.Project = project
	}
	if env.StoreMode == "claude" && t.Project == "" && f.Store == "" {
		if dir := claudeProjectDir(a, f); dir != "" {
			// No record names its cwd, but Claude Code named the directory after the project.
			t.StoreSlug = dir
			return t, ""
		}
		return t, noProject
	}
	if t.Project != "" {
		t.Project = transcript.CanonicalProject(t.Project)
	}
	return t, ""
}

// noProject is why a transcript without a working directory is not routed. A file of a source
// with a store of its own (the queues of the user's and the team's stores) needs no project.
const noProject = "no project yet: no record names a working directory"

// geminiHash is the project hash a Gemini CLI session is filed under (~/.gemini/tmp/<sha256 of the
// project's path>/chats/…), "" for any other file.
func geminiHash(f transcript.File) string {
	if f.Kind != "gemini" {
		return ""
	}
	dir := filepath.Base(filepath.Dir(filepath.Dir(f.Path)))
	if len(dir) != 64 || strings.Trim(dir, "0123456789abcdef") != "" {
		return ""
	}
	return dir
}

// knownProjects maps the SHA-256 of every project path dreamd knows — routed in this discovery,
// remembered in any store's cursors, configured on a source — and, where a Gemini hash directory
// holds a .project_root file, the path it names, to that project.
func knownProjects(env *Env, byStore map[string]*Target, known map[string]transcript.Cursor) map[string]string {
	out := map[string]string{}
	add := func(p string) {
		if p != "" {
			sum := sha256.Sum256([]byte(p))
			out[hex.EncodeToString(sum[:])] = transcript.CanonicalProject(p)
		}
	}
	for _, t := range byStore {
		for _, f := range t.Files {
			add(f.Project)
		}
	}
	for _, c := range known {
		add(c.Project)
	}
	for _, s := range env.Sources {
		add(s.Project)
		if s.Kind != "gemini" {
			continue
		}
		roots, _ := filepath.Glob(filepath.Join(s.Path, "*", ".project_root"))
		for _, r := range roots {
			if b, err := safefile.ReadFile(r, 4096); err == nil { // Gemini's, or anything in its place
				add(strings.TrimSpace(string(b)))
			}
		}
	}
	return out
}

// storeDir is where a project's memories live.
func storeDir(env *Env, project string) string {
	if env.StoreMode == "fixed" {
		return env.StorePath
	}
	return filepath.Join(env.StoreRoot, slug.Project(project), "memory")
}

// StorePaths pairs a store with its own directory of dreamd state.
func StorePaths(env *Env, dir string) store.Paths {
	return store.Paths{Store: dir, State: filepath.Join(env.StateDir, "stores", slug.Project(dir))}
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

// claudeProjectDir is the name of the Claude Code project directory (a slug such as
// "-home-ana-shop") that holds a claude transcript, or "".
func claudeProjectDir(a transcript.Adapter, f transcript.File) string {
	if a.Kind() != "claude" {
		return ""
	}
	dir := filepath.Base(filepath.Dir(f.Path))
	if !strings.HasPrefix(dir, "-") || dir != slug.Project(dir) {
		return ""
	}
	return dir
}
