// Package transcript reads coding-agent transcripts (Claude Code, Codex CLI, …) into normalized
// sessions, incrementally: a Cursor per file records how far it has been consumed.
//
// It knows nothing of memory stores: it turns files into sessions, and that is all.
package transcript

import (
	"cmp"
	"time"
)

// Role says who produced a turn.
type Role string

const (
	User      Role = "user"      // words the person typed
	Assistant Role = "assistant" // the agent's prose (conclusions, answers)
	Tool      Role = "tool"      // tool output or a tool error, already cut down
)

// Turn is one normalized message of a session.
type Turn struct {
	Role    Role
	Text    string
	Time    time.Time // zero when the record carried none
	IsError bool      // a tool result that reported an error
	// Dir is the directory a shell call's command ran in, as the agent recorded it: the call's own
	// working-directory argument (Codex CLI's and OpenCode's workdir, Gemini CLI's dir_path, Qwen
	// Code's directory) or the shell's directory when the record carries one (Claude Code's cwd).
	// Absolute, or relative to the directory the session ran in; "" when the call named none.
	Dir string
	// Call is the tool call's id, on the call and on the error result that answers it, when the
	// format records one (Claude Code's tool_use id and tool_use_id): which of the calls an error
	// belongs to, since successful results are left out. "" when the format gives none.
	Call string
}

// Session is the new material of one transcript session, as read in one pass.
type Session struct {
	Kind    string // adapter kind: claude, codex, gemini, aider, markdown, chat
	ID      string // the agent's session id (file stem when the format has none)
	Project string // absolute project directory, "" when unknown
	Path    string // the transcript file
	Started time.Time
	Ended   time.Time
	Turns   []Turn
	// Cut counts the records left out because, though the format files them as the user's, they are
	// not words the person typed: expanded command templates, injected reminders and context, model
	// output a tool relays back. Those of a session dropped for holding no turn (an aider session
	// of commands only) are counted with the next session of the reading, or the last one.
	Cut int
	// Origin is where the lesson a note carries from another store was learnt (Note.Origin); nil
	// for every other session.
	Origin *Origin
}

// Cursor records how far one transcript file has been consumed.
type Cursor struct {
	Size    int64     `json:"size"`            // file size when last read
	Offset  int64     `json:"offset"`          // byte offset just past the last complete line consumed
	Lines   int64     `json:"lines,omitempty"` // complete lines consumed, so warnings name true line numbers
	Head    string    `json:"head,omitempty"`  // hex SHA-256 of the first HeadLen bytes
	HeadLen int64     `json:"head_len,omitempty"`
	ModTime time.Time `json:"mtime"`
	More    bool      `json:"more,omitempty"`    // the read stopped early: complete lines follow Offset
	Session string    `json:"session,omitempty"` // session id learnt from the head (e.g. codex session_meta)
	Project string    `json:"project,omitempty"` // project learnt from the head
	// Offers counts the passes that kept this cursor where it was because an operation drawn from
	// the material after it could not be repaired (bounded, see phases.MaxOffers).
	Offers int `json:"offers,omitempty"`
	// Seen records what of a file rewritten in place was read: the fingerprints of the entries of
	// another agent's memory file (sorted keys, comma-separated; see AgentMemoryKind), only entries
	// not seen before being new material; or how far a SpecStory export was read (specstorySeen).
	Seen string `json:"seen,omitempty"`
}

// File is one discovered transcript file.
type File struct {
	Kind    string
	Path    string
	Size    int64
	ModTime time.Time
	Project string // known without reading (a source's configured project), else ""
	Store   string // the store every session of the file goes to, whatever its project (Source.Store)
	// Kept is where the file is read from when its agent deleted it: dreamd's hard link to it
	// (see Keep); "" reads Path.
	Kept string
}

// open is the path a file's bytes are read from.
func (f File) open() string { return cmp.Or(f.Kept, f.Path) }

// Skipped is a file discovery passed over, and why.
type Skipped struct {
	Path   string
	Reason string
}

// Source is one configured transcript location.
type Source struct {
	Kind    string
	Path    string
	Project string // required for markdown and chat; optional override otherwise
	// Store, when set, receives every session of the source whatever its project: dreamd's own
	// queue of memories sent to the user store is such a source.
	Store string
	// Kept is dreamd's folder of hard links to the source's transcripts (see Keep), "" for none:
	// a transcript its agent deleted is still listed, and read from there.
	Kept string
}
