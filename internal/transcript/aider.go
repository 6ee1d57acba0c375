package transcript

import (
	"path/filepath"
	"strings"
	"time"
)

// aider reads aider's .aider.chat.history.md files, found anywhere under the source path. A
// file holds many sessions, each opened by "# aider chat started at <local time>"; "#### " lines
// are the person's input, "> " lines aider's own output (left out), the rest the model's reply.
// The file is only appended to, so offset cursors work; the open session's id travels in the
// Cursor.
type aider struct{}

const (
	aiderHistory     = ".aider.chat.history.md"
	aiderHeader      = "# aider chat started at "
	aiderHeaderTime  = "2006-01-02 15:04:05"
	aiderIDTime      = "2006-01-02T15:04:05"
	aiderIDPrefix    = "aider-"
	aiderUntimedID   = "aider"
	aiderUserPrefix  = "####"
	aiderOutputStart = ">"
)

func (aider) Kind() string { return "aider" }

func (aider) Discover(src Source) ([]File, []Skipped, error) {
	return discover("aider", src, func(rel, _ string) (bool, string) {
		return rel == aiderHistory || strings.HasSuffix(rel, "/"+aiderHistory), ""
	})
}

func (aider) Read(f File, from Cursor) (Reading, error) {
	f.Kind = "aider"
	return readLines(f, from, func(from Cursor) lineState { return newAiderState(f, from) })
}

func (aider) peek(f File) (string, string, error) {
	f.Kind = "aider"
	return peekLines(f, newAiderState(f, Cursor{}))
}

type aiderState struct {
	*parse
	input []string        // consecutive "####" lines: one user turn
	reply strings.Builder // the model's reply since the last input
	fence bool            // inside a ``` block of the reply, where "> " and "####" are code
}

func newAiderState(f File, from Cursor) *aiderState {
	s := &aiderState{parse: newParse(f, from, aiderUntimedID)}
	s.learn("", filepath.Dir(f.Path))
	if from.Session != "" {
		// Continue the session the last reading ended in.
		started, _ := time.ParseInLocation(aiderIDTime, strings.TrimPrefix(from.Session, aiderIDPrefix), time.Local)
		s.open(from.Session, started)
	}
	return s
}

func (s *aiderState) line(b []byte, no int64) {
	line := string(b)
	switch {
	case strings.HasPrefix(line, aiderHeader):
		started, err := time.ParseInLocation(aiderHeaderTime, strings.TrimSpace(strings.TrimPrefix(line, aiderHeader)), time.Local)
		if err != nil {
			s.warn(no, "unreadable session start %q", strings.TrimPrefix(line, aiderHeader))
			return
		}
		s.flushInput()
		s.flushReply()
		s.fence = false
		if s.cur != nil {
			s.cur.Ended = started
		}
		s.session = aiderIDPrefix + started.Format(aiderIDTime)
		s.open(s.session, started)
	case s.fence:
		s.fence = !strings.HasPrefix(line, "```")
		s.write(line)
	case strings.HasPrefix(line, aiderUserPrefix):
		s.flushReply()
		text := strings.TrimPrefix(line, aiderUserPrefix)
		s.input = append(s.input, strings.TrimPrefix(text, " "))
	case line == aiderOutputStart || strings.HasPrefix(line, aiderOutputStart+" "):
		s.flushInput()
	default:
		s.flushInput()
		s.fence = strings.HasPrefix(line, "```")
		s.write(line)
	}
}

// write appends a line to the reply, up to what its turn can keep.
func (s *aiderState) write(line string) {
	if s.reply.Len() < 2*maxAssistantText {
		s.reply.WriteString(line)
		s.reply.WriteByte('\n')
	}
}

func (s *aiderState) finish() {
	s.flushInput()
	s.flushReply()
	if s.cur != nil && s.cur.Ended.IsZero() {
		s.cur.Ended = s.file.ModTime
	}
}

func (s *aiderState) flushInput() {
	if len(s.input) == 0 {
		return
	}
	s.add(Turn{Role: User, Text: aiderUserText(strings.Join(s.input, "\n"))})
	s.input = s.input[:0]
}

func (s *aiderState) flushReply() {
	if s.reply.Len() == 0 {
		return
	}
	s.add(Turn{Role: Assistant, Text: s.reply.String()})
	s.reply.Reset()
}

// aiderUserText keeps what the person asked. In-chat commands drive aider (/add, /run, /drop…)
// and are left out, except the mode commands whose argument is a request.
func aiderUserText(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "/") {
		return s
	}
	cmd, rest, _ := strings.Cut(s, " ")
	switch cmd {
	case "/ask", "/code", "/architect":
		return rest
	}
	return ""
}
