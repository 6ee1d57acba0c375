package transcript

import (
	"strings"

	"github.com/tidwall/gjson"
)

// Codex CLI 0.171's exec_command returns after its yield time with "Process running with session
// ID 7" when the command has not ended (a test suite longer than ten seconds), and write_stdin
// polls the process until its output says "Process exited with code N". Until then the call has
// neither failed nor worked: its tool line says it was still running, so that no reader takes it
// for a command that worked, and loses that once a poll reports exit code 0.

// stillRunning ends the tool line of a shell call whose process had not ended when it returned.
const stillRunning = " (still running when the call returned)"

// codexCalls follows the shell calls of a reading to their end.
type codexCalls struct {
	at      map[string]int    // call_id of a shell call → its tool turn's index in the session
	polls   map[string]string // call_id of a write_stdin call → the process session id it polls
	running map[string]int    // process session id → the tool turn of the call it runs
}

// track is called after the turns of a response item were said; before is how many turns the
// session held before them.
func (s *codexState) track(it codexItem, before int) {
	if s.cur == nil || it.callID == "" {
		return
	}
	c := &s.calls
	switch it.typ {
	case "function_call":
		switch name := jsonString(it.name); {
		case name == "write_stdin":
			if id := gjson.Get(codexArgs(it.arguments), "session_id").String(); id != "" {
				mapSet(&c.polls, strings.Clone(jsonString(it.callID)), id)
			}
		case len(s.cur.Turns) == before+1 && s.cur.Turns[before].Role == Tool:
			mapSet(&c.at, strings.Clone(jsonString(it.callID)), before)
		}
	case "function_call_output":
		id := jsonString(it.callID)
		head := codexExecHead(it.output)
		if i, ok := c.at[id]; ok {
			delete(c.at, id)
			if pid, running := codexRunningID(head); running && s.turnIs(i) {
				s.cur.Turns[i].Text += stillRunning
				mapSet(&c.running, pid, i)
			}
			return
		}
		pid, ok := c.polls[id]
		if !ok {
			return
		}
		delete(c.polls, id)
		i, ok := c.running[pid]
		if !ok {
			return
		}
		if code, ended := codexExitCode(head); ended {
			delete(c.running, pid)
			if code == 0 && s.turnIs(i) {
				s.cur.Turns[i].Text = strings.TrimSuffix(s.cur.Turns[i].Text, stillRunning)
			}
		}
	}
}

// turnIs reports whether i is a tool turn of the session being read.
func (s *codexState) turnIs(i int) bool {
	return s.cur != nil && i >= 0 && i < len(s.cur.Turns) && s.cur.Turns[i].Role == Tool && !s.cur.Turns[i].IsError
}

// mapSet sets m[k], making m first: most readings call no tool that needs these maps.
func mapSet[V any](m *map[string]V, k string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[k] = v
}

// codexArgs decodes function-call arguments given as a JSON string.
func codexArgs(raw string) string {
	if strings.HasPrefix(raw, `"`) {
		return jsonPrefix(raw, 4096)
	}
	return raw
}

// codexExecHead is the header of an exec output (a raw JSON string, or content items whose first
// holds it), decoded; "" for any other output.
func codexExecHead(out string) string {
	out = strings.TrimSpace(out)
	if strings.HasPrefix(out, "[") {
		out = codexFirstItem(out)
	}
	if !strings.HasPrefix(out, `"`) {
		return ""
	}
	head := jsonPrefix(out, codexExecHeader)
	if i := strings.Index(head, "\nOutput:"); i >= 0 {
		head = head[:i]
	}
	return head
}

// codexFirstItem is the raw text of the first content item of an output given as a list, the
// one that holds an exec output's header: a raw JSON string, "" when there is none.
func codexFirstItem(items string) string {
	var first string
	eachElement(items, func(item string) bool {
		if item[0] == '{' {
			first = member(item, "text")
		} else if item[0] == '"' {
			first = item
		}
		return first == ""
	})
	return first
}

// codexRunningID is the process session id of a header that says its command is still running.
func codexRunningID(head string) (string, bool) {
	for line := range strings.Lines(head) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Process running with session ID "); ok {
			if id := strings.TrimSpace(rest); id != "" {
				return strings.Clone(id), true
			}
		}
	}
	return "", false
}

// codexExitCode is the exit code a header reports, when its command has ended.
func codexExitCode(head string) (int, bool) {
	for line := range strings.Lines(head) {
		line = strings.TrimSpace(line)
		for _, label := range []string{"Exit code: ", "Process exited with code "} {
			if rest, ok := strings.CutPrefix(line, label); ok {
				n := 0
				for _, r := range strings.TrimSuffix(strings.TrimSpace(rest), ".") {
					if r < '0' || r > '9' {
						return 0, false
					}
					n = n*10 + int(r-'0')
				}
				return n, true
			}
		}
	}
	return 0, false
}
