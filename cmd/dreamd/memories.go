package main

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/recall"
	"github.com/dreamd/dreamd/internal/store"
)

type memoriesOptions struct {
	*globalOptions
}

func newMemoriesCmd(g *globalOptions) *cobra.Command {
	o := &memoriesOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "memories",
		Short: "Per memory: when it was learnt, how often it was taught again since, whether what it names still holds",
		Long: `List every memory of each store (or of --store / --project's) with when it was first learnt (the day
of the session that taught it), when it was last confirmed, how many sessions taught it again after it
was learnt (the agent did not follow it), when it was last used (an agent read its file, a session
ran a command it names, recall returned it), and whether what it names in the project (files, make
targets, scripts) no longer holds, as the last pass found.

A memory re-taught two or more times is not being followed: pin it (dreamd pin NAME) so no pass
rewrites or retires it, or make it a rule of the agent's own instruction file (dreamd link).`,
		Example: `  dreamd memories
  dreamd memories --project ~/src/shop --format json | jq '.stores[].memories[] | select(.retaught >= 2)'`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return runMemories(o) },
	}
	jsonAlias(cmd, g)
	projectFlag(cmd, g)
	return cmd
}

// memoryView is one memory as `dreamd memories` shows it.
type memoryView struct {
	Name         string      `json:"name"`
	Type         memory.Type `json:"type"`
	Description  string      `json:"description"`
	Pinned       bool        `json:"pinned"`
	Learnt       string      `json:"learnt"`    // YYYY-MM-DD of its earliest session, "" when unknown
	Confirmed    string      `json:"confirmed"` // YYYY-MM-DD of its latest session, "" when unknown
	Retaught     int         `json:"retaught"`  // sessions that taught it again after it was learnt
	LastRetaught string      `json:"last_retaught,omitempty"`
	LastUsed     string      `json:"last_used"`       // YYYY-MM-DD an agent last read its file or recall returned it, "" never seen
	Stale        string      `json:"stale,omitempty"` // what it names that the project no longer has
	Sources      []string    `json:"sources"`
}

// storeMemories are a store's memories and what they add up to.
type storeMemories struct {
	Store    string       `json:"store"`
	Scope    memory.Scope `json:"scope"`
	Memories []memoryView `json:"memories"`
	Summary  followed     `json:"summary"`
}

// followed sums up how a store's memories are followed.
type followed struct {
	Memories    int      `json:"memories"`
	Retaught    int      `json:"retaught"`     // memories taught again at least once after they were learnt
	NotFollowed []string `json:"not_followed"` // memories taught again twice or more: pin them or make them a rule
	Stale       int      `json:"stale"`        // memories whose citations no longer hold
}

// NotFollowedAfter is how many re-teachings make a memory one the agent is not following.
const NotFollowedAfter = 2

type memoriesReport struct {
	Stores []storeMemories `json:"stores"`
}

func runMemories(o *memoriesOptions) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	stores, err := memoryStores(cfg, only)
	if err != nil {
		return err
	}
	rep := memoriesReport{Stores: []storeMemories{}}
	env := routingEnv(cfg)
	for _, p := range stores {
		sm, err := memoriesOf(p)
		if err != nil {
			return err
		}
		sm.Scope = env.ScopeOf(p.Store)
		rep.Stores = append(rep.Stores, sm)
	}
	return o.print(rep)
}

// memoryStores are the store only (the one --store or --project selects), else every store
// dreamd has passed.
func memoryStores(cfg *config.Config, only string) ([]store.Paths, error) {
	if only != "" {
		return []store.Paths{routingEnvPaths(cfg, only)}, nil
	}
	return phases.KnownStores(cfg.StateDir)
}

// memoriesOf reads a store's memories and what its last pass found of their citations.
func memoriesOf(p store.Paths) (storeMemories, error) {
	s, err := store.Load(p.Store)
	if err != nil {
		return storeMemories{}, err
	}
	return viewMemories(p, s)
}

// followedOf is the summary of a loaded store's memories, for status.
func followedOf(p store.Paths, s *store.Store) followed {
	sm, err := viewMemories(p, s)
	if err != nil {
		return followed{Memories: len(s.Memories), NotFollowed: []string{}}
	}
	return sm.Summary
}

func viewMemories(p store.Paths, s *store.Store) (storeMemories, error) {
	cites, err := phases.LoadCitations(p)
	if err != nil {
		return storeMemories{}, err
	}
	used, err := phases.LoadUsed(p)
	if err != nil {
		return storeMemories{}, err
	}
	sm := storeMemories{Store: p.Store, Memories: []memoryView{}, Summary: followed{Memories: len(s.Memories), NotFollowed: []string{}}}
	for _, m := range s.Memories {
		v := memoryView{Name: m.Name, Type: m.Type, Description: m.Description, Pinned: m.Pinned, Learnt: m.Learnt, Confirmed: m.Confirmed,
			Retaught: m.RetaughtCount, LastUsed: used[m.Name], Stale: cites.Stale[m.Name], Sources: append([]string{}, m.Sources...)}
		if n := len(m.Retaught); n > 0 {
			v.LastRetaught = m.Retaught[n-1].String()
		}
		if v.Retaught > 0 {
			sm.Summary.Retaught++
		}
		if v.Retaught >= NotFollowedAfter && !m.Pinned {
			sm.Summary.NotFollowed = append(sm.Summary.NotFollowed, m.Name)
		}
		if v.Stale != "" {
			sm.Summary.Stale++
		}
		sm.Memories = append(sm.Memories, v)
	}
	return sm, nil
}

func (r memoriesReport) render(w io.Writer, markdown bool) error {
	if len(r.Stores) == 0 {
		_, err := fmt.Fprintln(w, "No stores yet: `dreamd run --once` makes them.")
		return err
	}
	for i, s := range r.Stores {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if markdown {
			fmt.Fprintf(w, "## %s\n\n", s.Store)
		} else {
			fmt.Fprintf(w, "%s (%s store)\n", s.Store, s.Scope)
		}
		t := table{header: []string{"NAME", "TYPE", "LEARNT", "CONFIRMED", "RE-TAUGHT", "LAST USED", "STALE"}}
		for _, m := range s.Memories {
			name := m.Name
			if m.Pinned {
				name += " (pinned)"
			}
			t.rows = append(t.rows, []string{name, string(m.Type), cmp.Or(m.Learnt, "-"), cmp.Or(m.Confirmed, "-"), strconv.Itoa(m.Retaught), cmp.Or(m.LastUsed, "-"), cmp.Or(m.Stale, "-")})
		}
		if err := t.render(w, markdown); err != nil {
			return err
		}
		fmt.Fprintln(w, s.Summary.line())
	}
	return nil
}

// line is the summary in words.
func (f followed) line() string {
	b := fmt.Sprintf("%d %s: %d re-taught after they were learnt, %d naming what the project no longer has", f.Memories, plural(f.Memories, "memory", "memories"), f.Retaught, f.Stale)
	if len(f.NotFollowed) > 0 {
		b += fmt.Sprintf("; not followed (re-taught %d+ times): %s — pin them (`dreamd pin NAME`) or make them a rule of the agent's instruction file (`dreamd link AGENT`)",
			NotFollowedAfter, strings.Join(f.NotFollowed, ", "))
	}
	return b
}

// followedChecks are doctor's warnings about a store's memories: those the agent is not following
// (taught again NotFollowedAfter times or more since they were learnt), and those naming what the
// project no longer has.
func followedChecks(p store.Paths, s *store.Store) []check {
	var out []check
	var notFollowed []string
	for _, m := range s.Memories {
		if m.RetaughtCount >= NotFollowedAfter && !m.Pinned {
			notFollowed = append(notFollowed, fmt.Sprintf("%s (re-taught %d times since %s)", m.Name, m.RetaughtCount, cmp.Or(m.Learnt, "it was learnt")))
		}
	}
	if len(notFollowed) > 0 {
		out = append(out, check{Name: "followed", Status: "warn",
			Detail: fmt.Sprintf("%s: the agent is not following %s", p.Store, strings.Join(notFollowed, ", ")),
			Fix:    "pin each (`dreamd pin NAME`: no pass rewrites or retires it), or make it a rule of the agent's own instruction file or a hook of the agent (`dreamd link AGENT` keeps the store's block there)"})
	}
	if cites, err := phases.LoadCitations(p); err == nil && len(cites.Stale) > 0 {
		var stale []string
		for _, m := range s.Memories {
			if why := cites.Stale[m.Name]; why != "" {
				stale = append(stale, m.Name+" ("+why+")")
			}
		}
		if len(stale) > 0 {
			out = append(out, check{Name: "citations", Status: "warn",
				Detail: fmt.Sprintf("%s: memories naming what the project no longer has: %s", p.Store, strings.Join(stale, ", ")),
				Fix:    "the next pass asks the model to verify or retire them; edit or delete the files by hand to settle it now"})
		}
	}
	return out
}

// markStale opens the description of every hit of the store p whose citations no longer hold
// (as its last pass found) with phases.StaleMark, as its index line is: recall and MCP show it.
func markStale(p store.Paths, hits []recall.Hit) {
	cites, err := phases.LoadCitations(p)
	if err != nil || len(cites.Stale) == 0 {
		return
	}
	for i := range hits {
		if !hits[i].Archived && cites.Stale[hits[i].Name] != "" && filepath.Dir(hits[i].Path) == filepath.Clean(p.Store) {
			hits[i].Description = phases.StaleMark + hits[i].Description
		}
	}
}

// markUsed records the live memories of the store p among hits as used today (prune.unused_days
// keeps them). Bookkeeping only: a record that cannot be written costs retention, never the recall.
func markUsed(p store.Paths, hits []recall.Hit) {
	var names []string
	for _, h := range hits {
		if !h.Archived && filepath.Dir(h.Path) == filepath.Clean(p.Store) {
			names = append(names, h.Name)
		}
	}
	_ = phases.MarkUsed(p, names, time.Now())
}

// staleNames are the memories of the store p whose citations no longer hold, as its last pass found.
func staleNames(p store.Paths) map[string]string {
	cites, _ := phases.LoadCitations(p)
	return cites.Stale
}
