// Package extract is the consolidation call: it turns the current memories plus a digest of new
// sessions into validated operations, through one structured LLM call or, with no endpoint
// configured, through the offline consolidator.
//
// It knows nothing of the file layout of a store or of transcript formats.
package extract

import (
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/transcript"

	"context"
	"time"
)

// Memory is what the consolidator sees of an existing memory.
type Memory struct {
	Name        string
	Type        memory.Type
	Description string
	Body        string
	Pinned      bool
	Updated     string // YYYY-MM-DD, "" when unknown
	// Stale says what the memory names that the project no longer has ("Makefile has no target
	// \"lint\""), checked without a model; the model is asked to verify or retire it. "": nothing.
	Stale string
}

// Turn is one message of a digested session.
type Turn struct {
	Role transcript.Role
	Text string
	// IsError marks a tool result that reported an error (transcript.Turn.IsError): the offline
	// consolidator tells a command that failed from one that worked by it. Never sent to the model.
	IsError bool
	// Index is the turn's place in its session as the pass read it (0-based, the reader's turns,
	// empty ones included), and Time when it was said (the session's date when the record carried
	// none): where a quote of it is found again. Never sent to the model.
	Index int
	Time  time.Time
	// Dir is the directory a shell call's command ran in (transcript.Turn.Dir), made absolute
	// against the session's project when the agent gave it relative: the offline
	// consolidator tells a test run in frontend/ from one at the root by it. "" when the call named
	// none. Never sent to the model.
	Dir string
	// Call is the tool call's id on its call and on the error that answers it
	// (transcript.Turn.Call): the offline consolidator tells which of the calls failed by it.
	// Never sent to the model.
	Call string
}

// Session is one digested session: redacted, cut to the budget.
type Session struct {
	ID      string
	Source  string // adapter kind
	Project string
	Date    time.Time // when the session happened (its last turn)
	Turns   []Turn
	// Origin is where a lesson moved here from another store was learnt (transcript.Note.Origin):
	// what the memory's sources and dates say instead of this session's. Never sent to the model.
	Origin *transcript.Origin
}

// Request is everything one consolidation needs.
type Request struct {
	Today          time.Time
	Memories       []Memory
	Sessions       []Session
	MaxInputTokens int
	// Scopes are the scopes an operation may take: this store's own first (none: project),
	// then those of the other stores this pass may send a memory to (the user store, the team's).
	Scopes []memory.Scope
	// TeamTypes are the memory types the team scope takes (store.team.types).
	TeamTypes []memory.Type
}

// Scope is the scope of the store being consolidated.
func (r Request) Scope() memory.Scope {
	if len(r.Scopes) == 0 {
		return memory.ScopeProject
	}
	return r.Scopes[0]
}

// AllScopes are the store's own scope, then those it may send a memory to.
func (r Request) AllScopes() []memory.Scope {
	return append([]memory.Scope{r.Scope()}, r.Elsewhere()...)
}

// Elsewhere are the scopes of the other stores this pass may send a memory to.
func (r Request) Elsewhere() []memory.Scope { return r.Scopes[min(1, len(r.Scopes)):] }

// Operation is one change the consolidator asks for (docs/DESIGN.md "The consolidation call").
type Operation struct {
	Action      Action      `json:"action"`
	Name        string      `json:"name"`
	Type        memory.Type `json:"type"`
	Description string      `json:"description"`
	Body        string      `json:"body"`
	MergedFrom  []string    `json:"merged_from"`
	Supersedes  []string    `json:"supersedes"`
	Reason      string      `json:"reason"`
	Evidence    []string    `json:"evidence"`
	// Scope is the store the memory belongs in; one other than the consolidated store's own sends
	// the memory there (and moves it out of this store when it was here). "": this store's.
	Scope memory.Scope `json:"scope"`
}

// Response is the exact object the model must return.
type Response struct {
	Summary    string      `json:"summary"`
	Operations []Operation `json:"operations"`
}

// Usage counts tokens of one call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CachedTokens     int `json:"cached_tokens"` // of the prompt, served from the provider's cache
	CompletionTokens int `json:"completion_tokens"`
}

// Prices are what a provider charges, in US dollars per million tokens.
type Prices struct {
	Input       float64 `mapstructure:"input" json:"input"`
	CachedInput float64 `mapstructure:"cached_input" json:"cached_input"`
	Output      float64 `mapstructure:"output" json:"output"`
}

// Cost is what u costs at p, in US dollars; cached prompt tokens are billed at CachedInput (at
// Input when that is not set).
func (p Prices) Cost(u Usage) float64 {
	cached := p.CachedInput
	if cached == 0 {
		cached = p.Input
	}
	return (float64(u.PromptTokens-u.CachedTokens)*p.Input + float64(u.CachedTokens)*cached + float64(u.CompletionTokens)*p.Output) / 1e6
}

// Result is a consolidation's outcome before validation.
type Result struct {
	Response Response
	Usage    Usage
	Model    string // model name, or "offline"
	Offline  bool
	Notes    []string // what the prompt left out for space, in words (for the report)
}

// Consolidator turns a Request into operations.
type Consolidator interface {
	Consolidate(ctx context.Context, req Request) (Result, error)
}

// Rejected is an operation validation dropped, with the reason.
type Rejected struct {
	Operation Operation `json:"operation"`
	Reason    string    `json:"reason"`
}
