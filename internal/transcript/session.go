package transcript

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Caps on kept text, so one session's material stays bounded however large the transcript.
const (
	maxUserText      = 16 << 10
	maxAssistantText = 8 << 10
	maxToolLine      = 200
	maxToolError     = 500
	// maxReadText is the text one reading of a line-oriented file keeps before it stops early.
	maxReadText = 8 << 20
)

// parse is what every reading shares: the file, what the records taught about the session (id,
// project), the sessions found so far, warnings, and how much text has been kept.
type parse struct {
	file     File
	name     string // the file's base name, for warnings
	fallback string // session id when the records carry none
	session  string // session id learnt from the records (or the cursor)
	project  string // canonical project learnt from the records (or the cursor)
	cur      *Session
	sessions []Session
	warnings []string
	kept     int
	// subThread, when set, says the records name the file a sub-thread another agent spawned
	// (wrapping ErrSubThread): no session is read from it, and Peek reports it.
	subThread error
	// cut counts the records cut from sessions dropped for holding no turns (an aider session of
	// commands only, a head of aider's own output): they were still cut, so the next session kept
	// counts them, or the last one when none follows.
	cut int
}

func newParse(f File, from Cursor, fallback string) *parse {
	return &parse{
		file:     f,
		name:     filepath.Base(f.Path),
		fallback: fallback,
		session:  from.Session,
		project:  from.Project,
	}
}

func (p *parse) base() *parse { return p }

// finish is the default end of a reading: nothing is left open.
func (p *parse) finish() {}

// warn notes a problem at line no of the file (0: the file as a whole).
func (p *parse) warn(no int64, format string, args ...any) {
	where := p.name
	if no > 0 {
		where = fmt.Sprintf("%s:%d", p.name, no)
	}
	p.warnings = append(p.warnings, where+": "+fmt.Sprintf(format, args...))
}

// learn records the session id and the project directory of the records, unless already known.
// Both may point into the line buffer: they are copied.
func (p *parse) learn(id, dir string) {
	if p.session == "" && id != "" {
		p.session = strings.Clone(id)
	}
	if p.project == "" && dir != "" {
		p.project = CanonicalProject(strings.Clone(dir))
	}
}

// id is the session id to report: the learnt one, else the fallback.
func (p *parse) id() string {
	if p.session != "" {
		return p.session
	}
	return p.fallback
}

// projectOf is the project to report: the source's configured one wins.
func (p *parse) projectOf() string {
	if p.file.Project != "" {
		return p.file.Project
	}
	return p.project
}

// open starts a new session with the given id, closing the current one.
func (p *parse) open(id string, started time.Time) {
	p.close()
	p.cur = &Session{Kind: p.file.Kind, ID: id, Path: p.file.Path, Started: started}
}

// add appends a turn to the current session, cut to its role's cap. Empty turns are dropped.
func (p *parse) add(t Turn) {
	if t.Role == User {
		t.Text = labelPasted(t.Text)
	}
	t.Text = clip(t.Text, textCap(t))
	if t.Text == "" {
		return
	}
	if p.cur == nil {
		p.cur = &Session{Kind: p.file.Kind, Path: p.file.Path}
	}
	s := p.cur
	s.Turns = append(s.Turns, t)
	p.kept += len(t.Text)
	if t.Time.IsZero() {
		return
	}
	if s.Started.IsZero() || t.Time.Before(s.Started) {
		s.Started = t.Time
	}
	if t.Time.After(s.Ended) {
		s.Ended = t.Time
	}
}

// drop counts a record that the format files as the user's but that is not the person's words
// (a template, a reminder, injected context), so `dreamd sessions` can show what was cut.
func (p *parse) drop() {
	if p.cur == nil {
		p.cur = &Session{Kind: p.file.Kind, Path: p.file.Path}
	}
	p.cur.Cut++
}

// close finishes the current session: it gets its id and project, and the file's modification
// time when its records carried no time. A session without turns is dropped; what was cut from it
// is counted with the next session kept (see parse.cut).
func (p *parse) close() {
	s := p.cur
	p.cur = nil
	if s == nil {
		return
	}
	if len(s.Turns) == 0 {
		p.cut += s.Cut
		return
	}
	s.Cut += p.cut
	p.cut = 0
	if s.ID == "" {
		s.ID = p.id()
	}
	s.Project = p.projectOf()
	if s.Started.IsZero() {
		s.Started = p.file.ModTime
	}
	if s.Ended.Before(s.Started) {
		s.Ended = s.Started
	}
	p.sessions = append(p.sessions, *s)
}

// end closes the reading: the current session is closed, and records cut from dropped sessions
// that no later session took are counted with the last session kept.
func (p *parse) end() {
	p.close()
	if n := len(p.sessions); n > 0 {
		p.sessions[n-1].Cut += p.cut
		p.cut = 0
	}
}

func textCap(t Turn) int {
	switch {
	case t.Role == User:
		return maxUserText
	case t.Role == Assistant:
		return maxAssistantText
	case t.IsError:
		return maxToolError
	}
	return maxToolLine
}
