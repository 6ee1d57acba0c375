package phases

import (
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// planfile.go is the saved plan's format (`dreamd plan -o`, the plans pending review or parked):
// a contract of its own, apart from the Plan a pass works with. Every value a plan embeds from
// another package (the consolidator's operations, the store's changes, the transcripts' cursors,
// the caps) has its own type and keys here, so a field renamed there changes no saved plan;
// testdata/planfile holds the format's golden file.

// PlanFileVersion is the format of a saved plan. It changes when a key is renamed or removed or
// changes meaning; ReadPlan refuses a file of another format, naming it.
const PlanFileVersion = 1

// PlanFile is a plan as saved. It is signed (MAC) over its JSON encoding.
type PlanFile struct {
	Version          int       `json:"version"`
	RunID            string    `json:"run_id"`
	Created          time.Time `json:"created"`
	Store            string    `json:"store"`
	State            string    `json:"state"`
	StoreFingerprint string    `json:"store_fingerprint"`

	Consolidator string    `json:"consolidator"`
	Offline      bool      `json:"offline"`
	OfflineWhy   string    `json:"offline_reason,omitempty"`
	Summary      string    `json:"summary"`
	Usage        fileUsage `json:"usage"`
	Cost         float64   `json:"cost_usd"`

	Read         []fileRead             `json:"read"`
	Deferred     []fileRead             `json:"deferred"`
	Cut          []string               `json:"cut"`
	Warnings     []string               `json:"warnings"`
	Redactions   int                    `json:"redactions"`
	Bytes        int64                  `json:"bytes"`
	Operations   []fileOperation        `json:"operations"`
	Rejected     []fileRejected         `json:"rejected"`
	Repaired     []fileRepaired         `json:"repaired"`
	Secrets      []fileSecret           `json:"secrets"`
	Unclean      []string               `json:"unclean"`
	Verbatim     []string               `json:"verbatim"`
	Retired      []fileRetirement       `json:"retired"`
	LeftOut      []fileOperation        `json:"left_out"`
	Elsewhere    []fileOperation        `json:"elsewhere"`
	OfferedAgain []string               `json:"offered_again"`
	GaveUp       []string               `json:"gave_up"`
	OverCap      int                    `json:"over_cap"`
	Retaught     []fileRetaught         `json:"retaught,omitempty"`  // added after format 1's first plans: absent reads as none
	Stale        []fileStale            `json:"stale,omitempty"`     // added after format 1's first plans: absent reads as none
	Citations    *fileCitations         `json:"citations,omitempty"` // added after format 1's first plans: absent records none
	Quotes       map[string][]fileQuote `json:"quotes,omitempty"`    // added after format 1's first plans: absent holds none
	Edited       []string               `json:"edited,omitempty"`    // added after format 1's first plans: absent, none edited
	Changes      []fileChange           `json:"changes"`
	Cursors      map[string]fileCursor  `json:"cursors"`
	Tails        map[string]string      `json:"tails"`

	Counts      fileCounts     `json:"counts"`
	Limits      fileLimits     `json:"limits"`
	IndexBefore fileIndexStats `json:"index_before"`
	IndexAfter  fileIndexStats `json:"index_after"`

	MAC string `json:"mac"` // HMAC of the rest with the state directory's plan key (WritePlan)
}

type fileUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CachedTokens     int `json:"cached_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

type fileRead struct {
	Path     string        `json:"path"`
	Kind     string        `json:"kind"`
	Project  string        `json:"project"`
	Session  string        `json:"session"`
	From     fileCursor    `json:"from"`
	To       fileCursor    `json:"to"`
	Sessions []fileSession `json:"sessions"`
}

type fileSession struct {
	Kind    string    `json:"kind"`
	ID      string    `json:"id"`
	Project string    `json:"project"`
	Date    time.Time `json:"date"`
	Turns   int       `json:"turns"`
}

type fileCursor struct {
	Size    int64     `json:"size"`
	Offset  int64     `json:"offset"`
	Lines   int64     `json:"lines,omitempty"`
	Head    string    `json:"head,omitempty"`
	HeadLen int64     `json:"head_len,omitempty"`
	ModTime time.Time `json:"mtime"`
	More    bool      `json:"more,omitempty"`
	Session string    `json:"session,omitempty"`
	Project string    `json:"project,omitempty"`
	Offers  int       `json:"offers,omitempty"`
	Seen    string    `json:"seen,omitempty"`
}

type fileOperation struct {
	Action      string   `json:"action"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Body        string   `json:"body"`
	MergedFrom  []string `json:"merged_from"`
	Supersedes  []string `json:"supersedes"`
	Reason      string   `json:"reason"`
	Evidence    []string `json:"evidence"`
	Scope       string   `json:"scope"`
}

type fileRejected struct {
	Operation fileOperation `json:"operation"`
	Reason    string        `json:"reason"`
}

type fileRepaired struct {
	Name string `json:"name"`
	What string `json:"what"`
}

type fileSecret struct {
	Memory string   `json:"memory"`
	Kinds  []string `json:"kinds"`
}

type fileRetirement struct {
	Name     string   `json:"name"`
	Reason   string   `json:"reason"`
	Detail   string   `json:"detail"`
	Evidence []string `json:"evidence,omitempty"`
	Content  []byte   `json:"content"`
}

type fileQuote struct {
	Kind    string    `json:"kind"`
	Session string    `json:"session"`
	Turn    int       `json:"turn"`
	Date    time.Time `json:"date"`
	Text    string    `json:"text"`
}

func toFileQuotes(qs []Quote) []fileQuote {
	return mapSlice(qs, func(q Quote) fileQuote { return fileQuote(q) })
}

func fromFileQuotes(qs []fileQuote) []Quote {
	return mapSlice(qs, func(q fileQuote) Quote { return Quote(q) })
}

type fileChange struct {
	Name string `json:"name"`
	Old  []byte `json:"old"` // null: the file is created; "": it was empty
	New  []byte `json:"new"` // null: the file is removed
}

type fileStale struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

type fileCitations struct {
	Project string            `json:"project"`
	Held    []string          `json:"held"`
	Stale   map[string]string `json:"stale,omitempty"`
}

func toFileCitations(c *Citations) *fileCitations {
	if c == nil {
		return nil
	}
	f := fileCitations(*c)
	return &f
}

func fromFileCitations(f *fileCitations) *Citations {
	if f == nil {
		return nil
	}
	c := Citations(*f)
	return &c
}

type fileRetaught struct {
	Name     string   `json:"name"`
	Sessions []string `json:"sessions"`
	Learnt   string   `json:"learnt"`
	Count    int      `json:"count"`
}

type fileCounts struct {
	Sessions   int `json:"sessions"`
	Created    int `json:"created"`
	Updated    int `json:"updated"`
	Merged     int `json:"merged"`
	Superseded int `json:"superseded"`
	Reinforced int `json:"reinforced"`
	Retaught   int `json:"retaught,omitempty"` // added after format 1's first plans: absent reads as 0
	Retired    int `json:"retired"`
	Rejected   int `json:"rejected"`
}

type fileLimits struct {
	IndexMaxLines  int `json:"index_max_lines"`
	IndexMaxBytes  int `json:"index_max_bytes"`
	IndexLineMax   int `json:"index_line_max"`
	MemoryMaxBytes int `json:"memory_max_bytes"`
	DescriptionMax int `json:"description_max"`
}

type fileIndexStats struct {
	Lines       int `json:"lines"`
	Bytes       int `json:"bytes"`
	LongestLine int `json:"longest_line"`
}

// File is p in the saved format, unsigned. It copies what it converts: p is left as it is.
func (p *Plan) File() *PlanFile {
	return &PlanFile{
		Version: PlanFileVersion, RunID: p.RunID, Created: p.Created, Store: p.Store, State: p.State, StoreFingerprint: p.StoreFingerprint,
		Consolidator: p.Consolidator, Offline: p.Offline, OfflineWhy: p.OfflineWhy, Summary: p.Summary,
		Usage: fileUsage(p.Usage), Cost: p.Cost,
		Read: mapSlice(p.Read, toFileRead), Deferred: mapSlice(p.Deferred, toFileRead),
		Cut: p.Cut, Warnings: p.Warnings, Redactions: p.Redactions, Bytes: p.Bytes,
		Operations: mapSlice(p.Operations, toFileOperation),
		Rejected: mapSlice(p.Rejected, func(r extract.Rejected) fileRejected {
			return fileRejected{Operation: toFileOperation(r.Operation), Reason: r.Reason}
		}),
		Repaired: mapSlice(p.Repaired, func(r extract.Repaired) fileRepaired { return fileRepaired(r) }),
		Secrets:  mapSlice(p.Secrets, func(s SecretFinding) fileSecret { return fileSecret(s) }),
		Unclean:  p.Unclean, Verbatim: p.Verbatim,
		Retired: mapSlice(p.Retired, func(r store.Retirement) fileRetirement {
			return fileRetirement{Name: r.Name, Reason: string(r.Reason), Detail: r.Detail, Evidence: r.Evidence, Content: r.Content}
		}),
		LeftOut: mapSlice(p.LeftOut, toFileOperation), Elsewhere: mapSlice(p.Elsewhere, toFileOperation),
		OfferedAgain: p.OfferedAgain, GaveUp: p.GaveUp, OverCap: p.OverCap,
		Retaught:  mapSlice(p.Retaught, func(r Retaught) fileRetaught { return fileRetaught(r) }),
		Stale:     mapSlice(p.Stale, func(s StaleMemory) fileStale { return fileStale(s) }),
		Citations: toFileCitations(p.Citations),
		Quotes:    mapValues(p.Quotes, toFileQuotes), Edited: p.Edited,
		Changes: mapSlice(p.Changes, func(c store.Change) fileChange { return fileChange(c) }),
		Cursors: mapValues(p.Cursors, toFileCursor), Tails: p.Tails,
		Counts: fileCounts(p.Counts), Limits: fileLimits(p.Limits),
		IndexBefore: fileIndexStats(p.IndexBefore), IndexAfter: fileIndexStats(p.IndexAfter),
	}
}

// Plan is the plan f saves.
func (f *PlanFile) Plan() *Plan {
	return &Plan{
		RunID: f.RunID, Created: f.Created, Store: f.Store, State: f.State, StoreFingerprint: f.StoreFingerprint,
		Consolidator: f.Consolidator, Offline: f.Offline, OfflineWhy: f.OfflineWhy, Summary: f.Summary,
		Usage: extract.Usage(f.Usage), Cost: f.Cost,
		Read: mapSlice(f.Read, fromFileRead), Deferred: mapSlice(f.Deferred, fromFileRead),
		Cut: f.Cut, Warnings: f.Warnings, Redactions: f.Redactions, Bytes: f.Bytes,
		Operations: mapSlice(f.Operations, fromFileOperation),
		Rejected: mapSlice(f.Rejected, func(r fileRejected) extract.Rejected {
			return extract.Rejected{Operation: fromFileOperation(r.Operation), Reason: r.Reason}
		}),
		Repaired: mapSlice(f.Repaired, func(r fileRepaired) extract.Repaired { return extract.Repaired(r) }),
		Secrets:  mapSlice(f.Secrets, func(s fileSecret) SecretFinding { return SecretFinding(s) }),
		Unclean:  f.Unclean, Verbatim: f.Verbatim,
		Retired: mapSlice(f.Retired, func(r fileRetirement) store.Retirement {
			return store.Retirement{Name: r.Name, Reason: store.RetireReason(r.Reason), Detail: r.Detail, Evidence: r.Evidence, Content: r.Content}
		}),
		LeftOut: mapSlice(f.LeftOut, fromFileOperation), Elsewhere: mapSlice(f.Elsewhere, fromFileOperation),
		OfferedAgain: f.OfferedAgain, GaveUp: f.GaveUp, OverCap: f.OverCap,
		Retaught:  mapSlice(f.Retaught, func(r fileRetaught) Retaught { return Retaught(r) }),
		Stale:     mapSlice(f.Stale, func(s fileStale) StaleMemory { return StaleMemory(s) }),
		Citations: fromFileCitations(f.Citations),
		Quotes:    mapValues(f.Quotes, fromFileQuotes), Edited: f.Edited,
		Changes: mapSlice(f.Changes, func(c fileChange) store.Change { return store.Change(c) }),
		Cursors: Cursors(mapValues(f.Cursors, fromFileCursor)), Tails: f.Tails,
		Counts: Counts(f.Counts), Limits: memory.Limits(f.Limits),
		IndexBefore: memory.IndexStats(f.IndexBefore), IndexAfter: memory.IndexStats(f.IndexAfter),
	}
}

func toFileOperation(op extract.Operation) fileOperation {
	return fileOperation{Action: string(op.Action), Name: op.Name, Type: string(op.Type), Description: op.Description, Body: op.Body,
		MergedFrom: op.MergedFrom, Supersedes: op.Supersedes, Reason: op.Reason, Evidence: op.Evidence, Scope: string(op.Scope)}
}

func fromFileOperation(op fileOperation) extract.Operation {
	return extract.Operation{Action: extract.Action(op.Action), Name: op.Name, Type: memory.Type(op.Type), Description: op.Description, Body: op.Body,
		MergedFrom: op.MergedFrom, Supersedes: op.Supersedes, Reason: op.Reason, Evidence: op.Evidence, Scope: memory.Scope(op.Scope)}
}

func toFileRead(r FileRead) fileRead {
	return fileRead{Path: r.Path, Kind: r.Kind, Project: r.Project, Session: r.Session, From: toFileCursor(r.From), To: toFileCursor(r.To),
		Sessions: mapSlice(r.Sessions, func(s SessionRef) fileSession { return fileSession(s) })}
}

func fromFileRead(r fileRead) FileRead {
	return FileRead{Path: r.Path, Kind: r.Kind, Project: r.Project, Session: r.Session, From: fromFileCursor(r.From), To: fromFileCursor(r.To),
		Sessions: mapSlice(r.Sessions, func(s fileSession) SessionRef { return SessionRef(s) })}
}

func toFileCursor(c transcript.Cursor) fileCursor {
	return fileCursor{Size: c.Size, Offset: c.Offset, Lines: c.Lines, Head: c.Head, HeadLen: c.HeadLen, ModTime: c.ModTime,
		More: c.More, Session: c.Session, Project: c.Project, Offers: c.Offers, Seen: c.Seen}
}

func fromFileCursor(c fileCursor) transcript.Cursor {
	return transcript.Cursor{Size: c.Size, Offset: c.Offset, Lines: c.Lines, Head: c.Head, HeadLen: c.HeadLen, ModTime: c.ModTime,
		More: c.More, Session: c.Session, Project: c.Project, Offers: c.Offers, Seen: c.Seen}
}

// mapSlice converts every element of in; nil stays nil (saved as null), empty stays empty.
func mapSlice[S, T any](in []S, f func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// mapValues converts every value of in; nil stays nil.
func mapValues[K comparable, S, T any](in map[K]S, f func(S) T) map[K]T {
	if in == nil {
		return nil
	}
	out := make(map[K]T, len(in))
	for k, v := range in {
		out[k] = f(v)
	}
	return out
}
