package transcript

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
)

// aider reads aider's .aider.chat.history.md files, found anywhere under the source path. A
// file holds many sessions, each opened by "# aider chat started at <local time>"; "#### " lines
// are the person's input, "> " lines aider's own output (left out), the rest the model's reply.
// The file is only appended to, so offset cursors work; the open session's id travels in the
// Cursor. Lines before the file's first header (a file trimmed or edited by hand) belong to no
// header: they are a session of their own, with the untimed id, dated by the file's mtime like a
// file without any header.
//
// Not every "####" input is the person's: aider logs there the prompts it builds itself, the
// /help prompt and the lint errors it asks the model to fix (see aiderInjected).
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
	aiderLineBreak   = "  " // ends each message aider logs, however many lines it has
	// aiderLintPrefix starts the lint errors aider hands the model (/lint, or after an edit in
	// early versions): linter output, not a request.
	aiderLintPrefix = "# Fix any errors below, if possible."
	// aiderHelpPrefix and aiderHelpDocs frame the prompt /help builds: the question, the retrieved
	// docs, then the session's announcement lines.
	aiderHelpPrefix = "# Question:"
	aiderHelpDocs   = "# Relevant docs:"
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
	input     []string        // consecutive "####" lines: one user turn
	reply     strings.Builder // the model's reply since the last input
	fence     bool            // inside a ``` block of the reply, where "> " and "####" are code
	code      int             // lines of code in the current block, left out of the reply
	lastUser  string          // the last user turn kept, to drop a request logged twice
	lastReply string          // the last reply, to tell the architect's answer relayed as input
	// breaks is set once the file ends logged lines with aider's two-space line break, and
	// output while a message of aider's own runs on: aider puts "> " before the first line of
	// what it prints only, and the line break after the last, so the lines of a /run or /test
	// output, a commit message or a traceback in between are aider's, not the model's reply.
	breaks, output bool
}

func newAiderState(f File, from Cursor) *aiderState {
	s := &aiderState{parse: newParse(f, from, aiderUntimedID)}
	s.learn("", filepath.Dir(f.Path))
	if from.Session != "" {
		// Continue the session the last reading ended in.
		started, _ := time.ParseInLocation(aiderIDTime, strings.TrimPrefix(from.Session, aiderIDPrefix), time.Local)
		s.open(from.Session, started)
	} else {
		// The head of the file, before any header: its own session, never the next header's.
		s.open(aiderUntimedID, time.Time{})
	}
	return s
}

func (s *aiderState) line(b []byte, no int64) {
	line := string(b)
	if no == 1 && emacsModeLine(line) {
		return // "-*- mode: fundamental -*-": a setting for the editor, not part of the chat
	}
	switch {
	case strings.HasPrefix(line, aiderHeader):
		started, err := time.ParseInLocation(aiderHeaderTime, strings.TrimSpace(strings.TrimPrefix(line, aiderHeader)), time.Local)
		if err != nil {
			s.warn(no, "unreadable session start %q", strings.TrimPrefix(line, aiderHeader))
			return
		}
		s.flushInput()
		s.flushReply()
		s.fence, s.output = false, false
		s.session = aiderIDPrefix + started.Format(aiderIDTime)
		s.open(s.session, started)
		s.lastUser, s.lastReply = "", ""
	case s.fence:
		if strings.HasPrefix(line, "```") {
			s.fence = false
			s.write(fmt.Sprintf("[%d lines of code]", s.code))
			return
		}
		s.code++
	case strings.HasPrefix(line, aiderUserPrefix):
		s.flushReply()
		s.output = false
		s.breaks = s.breaks || strings.HasSuffix(line, aiderLineBreak)
		text := strings.TrimPrefix(line, aiderUserPrefix)
		// aider ends each logged line with two spaces, a markdown line break.
		s.input = append(s.input, strings.TrimRight(strings.TrimPrefix(text, " "), " "))
	case line == aiderOutputStart || strings.HasPrefix(line, aiderOutputStart+" "):
		s.flushInput()
		ends := strings.HasSuffix(line, aiderLineBreak)
		s.breaks = s.breaks || ends
		s.output = s.breaks && !ends && strings.TrimSpace(line) != aiderOutputStart
	case s.output:
		s.output = !endsMessage(line)
	default:
		s.flushInput()
		if strings.HasPrefix(line, "```") {
			// Code and SEARCH/REPLACE edits are what aider did, not what the session taught:
			// they stand as one line in the reply.
			s.fence, s.code = true, 0
			return
		}
		s.write(line)
	}
}

// endsMessage reports whether line is the last of a message aider logged: aider trims the
// message's end and adds its line break, so the last line is text then exactly two spaces (a line
// of spaces inside a command's output is not one).
func endsMessage(line string) bool {
	body, ok := strings.CutSuffix(line, aiderLineBreak)
	return ok && body != "" && !strings.HasSuffix(body, " ") && !strings.HasSuffix(body, "\t")
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
}

// open starts a session dated by its header: aider writes no time per message, and the file's
// modification time is when the last session ended, not when this one happened.
func (s *aiderState) open(id string, started time.Time) {
	s.parse.open(id, started)
	s.cur.Ended = started
}

// flushInput adds the person's request. In architect mode aider logs the architect's answer again
// as the editor's input, and a request may be logged twice: a relayed answer is model output and a
// repeat is the same request, so both are cut, as are the prompts aider builds itself.
func (s *aiderState) flushInput() {
	if len(s.input) == 0 {
		return
	}
	text := aiderUserText(strings.Join(s.input, "\n"))
	s.input = s.input[:0]
	switch {
	case !saysAnything(text): // a blank input, or one of marks only (an empty fence)
	case aiderInjected(text), text == s.lastUser, relayed(text, s.lastReply):
		s.drop()
	default:
		s.add(Turn{Role: User, Text: text})
		s.lastUser = text
	}
}

// relayed reports whether input is the model's reply handed on as a request.
func relayed(input, reply string) bool {
	// The head of the input, before any code: the reply's code blocks were folded to one line.
	head, _, _ := strings.Cut(prefix(input, 300), "```")
	head = strings.Join(strings.Fields(head), " ")
	return len(head) >= 40 && strings.Contains(strings.Join(strings.Fields(reply), " "), head)
}

func (s *aiderState) flushReply() {
	if s.reply.Len() == 0 {
		return
	}
	s.lastReply = s.reply.String()
	s.add(Turn{Role: Assistant, Text: s.lastReply})
	s.reply.Reset()
}

// aiderUserText keeps what the person asked. In-chat commands drive aider and most are left out
// (/drop, /clear, /tokens…), except the mode commands whose argument is a request, /help, whose
// argument is a question (the prompt aider builds from it follows, and is cut), and the commands
// that say how the project is run and which files matter: /run (and its "!" form), /test, /lint,
// /add and /read-only, kept as typed.
func aiderUserText(typed string) string {
	s := strings.TrimSpace(typed)
	if strings.HasPrefix(s, "!") && len(strings.TrimSpace(s[1:])) > 0 {
		return s // "!cmd" is /run cmd
	}
	if !strings.HasPrefix(s, "/") {
		return trimBlankLines(typed)
	}
	cmd, rest, _ := strings.Cut(s, " ")
	switch cmd {
	case "/ask", "/code", "/architect", "/help":
		return rest
	case "/run", "/test", "/lint", "/add", "/read-only":
		if strings.TrimSpace(rest) == "" {
			return "" // a bare /lint or /add names nothing
		}
		return s
	}
	return ""
}

// saysAnything reports whether text holds a letter or a digit: an input of blanks and marks only
// (an empty fence, a lone backslash, a zero-width space) is no turn.
func saysAnything(text string) bool {
	return strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// aiderInjected reports whether an input is a prompt aider built and logged as input: the lint
// errors it asks the model to fix, the /help prompt ("# Question: <question>", "# Relevant
// docs:", the docs retrieved, the session's announcement lines), or one of its yes/no questions
// with the answer typed to it ("Add file to the chat? (Y)es/(N)o/(A)ll/… [Yes]: all", aider 0.86).
func aiderInjected(text string) bool {
	switch {
	case strings.HasPrefix(text, aiderLintPrefix):
		return true
	case !strings.Contains(text, "\n") && strings.Contains(text, "? (Y)es/(N)o") &&
		(strings.Contains(text, " [Yes]:") || strings.Contains(text, " [No]:")):
		return true
	case strings.HasPrefix(text, aiderHelpPrefix):
		return strings.Contains(text, "\n"+aiderHelpDocs)
	}
	return false
}

// emacsModeLine reports whether line is an Emacs mode line ("-*- mode: fundamental -*-"), which an
// editor reads from the first line of a file.
func emacsModeLine(line string) bool {
	line = strings.TrimSpace(line)
	return len(line) > 6 && strings.HasPrefix(line, "-*-") && strings.HasSuffix(line, "-*-")
}
