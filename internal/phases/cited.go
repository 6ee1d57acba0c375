package phases

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/cite"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// cited.go checks, at each pass of a project's store, what its memories name in the project
// (internal/cite) — without a model, each memory once, each manifest read once. A memory whose
// citations no longer hold is marked Stale: its index line says so, the call is asked to verify
// or retire it, and `dreamd memories` lists it. What held is kept in the store's state
// (citations.json), since a path or a variable is stale only once it held.

// citationsFile is the store's record of its memories' citations, in its state directory.
const citationsFile = "citations.json"

// Citations is what the last applied pass found of a store's citations.
type Citations struct {
	Project string            `json:"project"`         // the project they were checked against
	Held    []string          `json:"held"`            // citations the project confirmed, as cite.Citation.String
	Stale   map[string]string `json:"stale,omitempty"` // memory name → what no longer holds
}

// LoadCitations reads a store's citations record; zero when there is none.
func LoadCitations(p store.Paths) (Citations, error) {
	var c Citations
	err := readJSON(filepath.Join(p.State, citationsFile), &c)
	return c, err
}

// SaveCitations records c for the store's next pass (the eval seeds what an earlier pass found);
// nil records nothing (a pass that checked no project).
func SaveCitations(p store.Paths, c *Citations) error {
	if c == nil {
		return nil
	}
	if err := os.MkdirAll(p.State, 0o700); err != nil {
		return err
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return renameio.WriteFile(filepath.Join(p.State, citationsFile), append(b, '\n'), 0o600)
}

// checker checks one store's memories against one project, for one pass.
type checker struct {
	project *cite.Project
	root    string
	held    cite.Held
	checked map[string]*store.Memory // memory name → the version checked
	stale   map[string]string
}

// newChecker is the checker of a project store's pass, nil when the store is not one project's
// (the user's or the team's store, a fixed store the pass's files route from several projects)
// or its project is not a directory here.
func newChecker(env *Env, t Target, paths store.Paths) *checker {
	if env.ScopeOf(paths.Store) != memory.ScopeProject {
		return nil
	}
	root := ""
	for _, f := range t.Files {
		switch {
		case f.Project == "":
		case root == "":
			root = f.Project
		case root != f.Project:
			return nil
		}
	}
	if root == "" || !filepath.IsAbs(root) {
		return nil
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil
	}
	c := &checker{project: cite.NewProject(root), root: root, held: cite.Held{}, checked: map[string]*store.Memory{}, stale: map[string]string{}}
	if prev, err := LoadCitations(paths); err == nil && prev.Project == root {
		for _, h := range prev.Held {
			c.held[h] = true
		}
	}
	return c
}

// mark checks every memory of mems not checked yet in this version and sets its Stale.
func (c *checker) mark(mems []*store.Memory) {
	if c == nil {
		return
	}
	for _, m := range mems {
		if c.checked[m.Name] == m {
			continue
		}
		c.checked[m.Name] = m
		holding, stale := c.project.Check(cite.Find(m.Description+"\n"+m.Body), c.held)
		for _, h := range holding {
			c.held[h.String()] = true
		}
		m.Stale = ""
		delete(c.stale, m.Name)
		if len(stale) > 0 {
			why := make([]string, len(stale))
			for i, s := range stale {
				why[i] = s.Why
			}
			m.Stale = strings.Join(why, "; ")
			c.stale[m.Name] = m.Stale
		}
	}
}

// record is what the pass leaves for the next one, for the memories of next.
func (c *checker) record(next []*store.Memory) *Citations {
	if c == nil {
		return nil
	}
	out := &Citations{Project: c.root, Held: slices.Sorted(maps.Keys(c.held)), Stale: map[string]string{}}
	for _, m := range next {
		if m.Stale != "" {
			out.Stale[m.Name] = m.Stale
		}
	}
	return out
}

// StaleMemory is a memory whose citations no longer hold, with what the project says.
type StaleMemory struct {
	Name string
	Why  string
}

// staleOf lists the stale memories of mems, by name.
func staleOf(mems []*store.Memory) []StaleMemory {
	var out []StaleMemory
	for _, m := range mems {
		if m.Stale != "" {
			out = append(out, StaleMemory{Name: m.Name, Why: m.Stale})
		}
	}
	return out
}
