package transcript

import (
	"fmt"
	"strings"
)

// Adapter reads one kind of transcript.
type Adapter interface {
	Kind() string
	// Discover lists the transcript files of one configured source and the files it passed over, with why.
	Discover(src Source) ([]File, []Skipped, error)
	// Read reads f from the given cursor (zero Cursor = from the start) up to the last complete line
	// and returns the sessions in that new material plus the cursor after it. f is read as the
	// adapter's kind, whatever f.Kind says.
	Read(f File, from Cursor) (Reading, error)
	// peek learns a file's session id and project from its head (see Peek).
	peek(f File) (id, project string, err error)
}

// Reading is what one Read found in a file.
//
// Only sessions with at least one turn are returned. A reading of a line-oriented file stops early,
// on a line boundary, once it has kept maxReadText bytes of text; its Cursor then points there and
// the rest is read next time, so one pass holds a bounded amount of material per file.
type Reading struct {
	Sessions []Session
	Cursor   Cursor   // where the next read starts; Offset never past the last complete line
	Warnings []string // e.g. "rollout-x.jsonl:7: malformed JSON, line skipped"
	// Tail is the TailHash of the file at Cursor.Offset, taken while the file was open; ""
	// when the read did not take it.
	Tail string
}

// Kinds lists the adapter kinds New accepts.
func Kinds() []string {
	return []string{"claude", "codex", "gemini", "qwen", "copilot", "aider", "markdown", "chat", "cline", cursorAgentKind, opencodeKind, crushKind, SpecStoryKind, AgentMemoryKind}
}

// New returns the adapter of the given kind.
func New(kind string) (Adapter, error) {
	switch kind {
	case "claude":
		return claude{}, nil
	case "codex":
		return codex{}, nil
	case "gemini":
		return gemini{}, nil
	case "qwen":
		return qwen{}, nil
	case "copilot":
		return copilot{}, nil
	case "aider":
		return aider{}, nil
	case "markdown":
		return markdown{}, nil
	case "chat":
		return chat{}, nil
	case "cline":
		return cline{}, nil
	case cursorAgentKind:
		return cursorAgent{}, nil
	case opencodeKind:
		return opencode{}, nil
	case crushKind:
		return crush{}, nil
	case SpecStoryKind:
		return specstory{}, nil
	case RememberKind:
		return remember{}, nil
	case AgentMemoryKind:
		return agentMemory{}, nil
	}
	return nil, fmt.Errorf("unknown transcript kind %q (known: %s)", kind, strings.Join(Kinds(), ", "))
}

// Peek learns a file's session id and project from its head, without a full read (for routing
// files into stores and for `dreamd sessions`). For a file holding several sessions (aider) it
// names the first. The project is f.Project when the source configured one.
func Peek(a Adapter, f File) (id, project string, err error) {
	return a.peek(f)
}
