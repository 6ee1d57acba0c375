// Package phases is one dream pass: orient → gather → consolidate → prune → plan, then apply.
// Each phase is a plain function over explicit values, one file each; Run chains them.
// Nothing is written before apply, and a pass that fails anywhere leaves stores, cursors and
// history exactly as they were.
package phases

import (
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/transcript"
)

// Env is everything a pass takes from outside: settings, and the injected consolidator, clock,
// logger and progress sink.
type Env struct {
	Sources   []transcript.Source
	StoreMode StoreMode
	StoreRoot string
	StorePath string
	StateDir  string
	// SpecStory lists the SpecStory exports (.specstory/history/) of every project dreamd knows
	// besides the sources' files (specstory.go).
	SpecStory bool
	// UserStore is the user scope's store, which memories about the person move to from every
	// project's pass; "" when there is none. Memories sent there wait in UserNotes (a source of
	// kind remember whose Store is UserStore) for the user store's own pass. TeamStore and
	// TeamNotes are the same for the team scope, which takes only TeamTypes and nothing from the
	// stores in NoTeam.
	UserStore, UserNotes string
	TeamStore, TeamNotes string
	TeamTypes            []memory.Type
	NoTeam               []string

	Limits            memory.Limits
	MaxRetireFraction float64
	MaxInputTokens    int
	// MaxSessionsPerPass caps the transcript files a store's pass reads (gather.max_sessions_per_pass),
	// oldest first; the rest wait for the next pass. 0: no cap.
	MaxSessionsPerPass int
	Concurrency        int                           // stores consolidated at once with a model (llm.concurrency); 0: by cores
	Prices             extract.Prices                // for the cost of a pass in the report and the history
	TTL                map[memory.Type]time.Duration // per memory type; absent = never expires
	UnusedDays         int                           // prune.unused_days: retire a memory nobody used for this long; 0: never

	Consolidator     extract.Consolidator
	ConsolidatorName string // model name, or "offline"
	OfflineReason    string // why the offline consolidator runs, for the report
	Redactor         *redact.Redactor
	Now              func() time.Time
	Log              *slog.Logger
	Progress         func(Progress) // nil: no progress reports
	// Hint makes the dreamd command lines a message advises, as the user can run them (with their
	// --config); nil: plain `dreamd ARGS`.
	Hint func(args ...string) string
}

// hint is a dreamd command line for a message.
func (e *Env) hint(args ...string) string {
	if e.Hint == nil {
		return "dreamd " + strings.Join(args, " ")
	}
	return e.Hint(args...)
}

// StoreMode is where a project's memories live (store.mode).
type StoreMode string

// The store modes.
const (
	PerProject StoreMode = "claude" // a store per project, where Claude Code keeps it under StoreRoot
	Fixed      StoreMode = "fixed"  // one store at StorePath for every project
)

// Progress is where a store's pass is: gather's running count of the material read, then the
// consolidation call, then done.
type Progress struct {
	Store       string
	Stage       Stage
	Files, Done int   // transcript files this pass reads, and read so far
	Bytes, Read int64 // their new bytes, and read so far
	Left        int   // pending files left for the next passes (the cap, or the budget is full)
}

// Stage is the part of a pass a Progress reports.
type Stage int

const (
	Gathering Stage = iota
	Consolidating
	Finished
)

func (e *Env) progress(p Progress) {
	if e.Progress != nil {
		e.Progress(p)
	}
}

// Scopes are the scopes the operations of store may take: its own first, then the scopes of the
// stores it may send a memory to.
func (e *Env) Scopes(store string) []memory.Scope {
	if own := e.ScopeOf(store); own != memory.ScopeProject {
		return []memory.Scope{own}
	}
	out := []memory.Scope{memory.ScopeProject}
	if e.UserStore != "" {
		out = append(out, memory.ScopeUser)
	}
	if e.TeamStore != "" && !slices.ContainsFunc(e.NoTeam, func(s string) bool { return sameDir(s, store) }) {
		out = append(out, memory.ScopeTeam)
	}
	return out
}

// ScopeOf is the scope of store: the user's or the team's store, else a project's.
func (e *Env) ScopeOf(store string) memory.Scope {
	switch {
	case e.UserStore != "" && sameDir(store, e.UserStore):
		return memory.ScopeUser
	case e.TeamStore != "" && sameDir(store, e.TeamStore):
		return memory.ScopeTeam
	}
	return memory.ScopeProject
}

// queue is where memories sent to the store of scope s wait for its pass, "" when there is none.
func (e *Env) queue(s memory.Scope) string {
	switch {
	case s == memory.ScopeUser && e.UserStore != "":
		return e.UserNotes
	case s == memory.ScopeTeam && e.TeamStore != "":
		return e.TeamNotes
	}
	return ""
}

func sameDir(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

func (e *Env) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// stopped is env with its clock read once and stopped there, for one pass: the "today" the model
// is told, the dates prune makes absolute and stamps, the run id, the gates and the history all
// name the same instant, however long the pass takes.
func (e *Env) stopped() *Env {
	t := e.now()
	c := *e
	c.Now = func() time.Time { return t }
	return &c
}

func (e *Env) log() *slog.Logger {
	if e.Log != nil {
		return e.Log
	}
	return slog.New(slog.DiscardHandler)
}
