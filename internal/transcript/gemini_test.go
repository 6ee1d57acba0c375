package transcript

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestGeminiRecords(t *testing.T) {
	meta := geminiMeta("g1", "/home/ana/shop")
	tests := []struct {
		name  string
		lines string
		want  []string
	}{
		{"roles", meta + geminiMsg("m1", "user", "q") + geminiMsg("m2", "gemini", "a") + geminiMsg("m3", "info", "i") + geminiMsg("m4", "error", "e"),
			[]string{"q", "a", "i", "e"}},
		{"rewind drops the message and all later", meta + geminiMsg("m1", "user", "q1") + geminiMsg("m2", "gemini", "a1") +
			geminiMsg("m3", "user", "q2") + `{"$rewindTo":"m2"}` + "\n" + geminiMsg("m4", "user", "q3"),
			[]string{"q1", "q3"}},
		{"an update replaces the message", meta + geminiMsg("m1", "gemini", "Work") + geminiMsg("m1", "gemini", "Worked it out."),
			[]string{"Worked it out."}},
		{"$set is metadata", meta + `{"$set":{"lastUpdated":"2026-05-15T10:00:00Z","summary":"x"}}` + "\n" + geminiMsg("m1", "user", "q"),
			[]string{"q"}},
		{"thought-only message", meta + `{"id":"m1","type":"gemini","content":"","thoughts":[{"subject":"s","description":"d"}]}` + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", "session-x.jsonl"), []byte(tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if got := turnTexts(r); !slices.Equal(got, tt.want) {
				t.Errorf("turns %q, want %q", got, tt.want)
			}
			for _, s := range r.Sessions {
				if s.ID != "g1" || s.Project != "/home/ana/shop" {
					t.Errorf("session %q in %q, want g1 in /home/ana/shop", s.ID, s.Project)
				}
			}
		})
	}
}

// A rewind to a message consumed by an earlier pass drops all this pass read before it.
func TestGeminiRewindAcrossReads(t *testing.T) {
	first := geminiMeta("g1", "/p") + geminiMsg("m1", "user", "q1")
	f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", "session-x.jsonl"), []byte(first), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, geminiMsg("m2", "gemini", "a1")+`{"$rewindTo":"m1"}`+"\n"+geminiMsg("m3", "user", "q1, better put"))
	r2 := mustRead(t, f, r.Cursor)
	if got := turnTexts(r2); !slices.Equal(got, []string{"q1, better put"}) {
		t.Errorf("turns %q", got)
	}
	if r2.Sessions[0].ID != "g1" || r2.Sessions[0].Project != "/p" {
		t.Errorf("session %+v: the id and project must come from the cursor", r2.Sessions[0])
	}
}

// Gemini CLI records as user messages some it wrote itself: its automatic continuation and, when
// a function response travels with text parts, the tool's result. Neither is a turn; each is
// counted as cut. Both layouts (session-*.jsonl and the legacy session-*.json) read them alike.
func TestGeminiNotTyped(t *testing.T) {
	msg := func(id, typ string, content any) map[string]any {
		return map[string]any{"id": id, "timestamp": recordTime.Format(time.RFC3339Nano), "type": typ, "content": content}
	}
	tests := []struct {
		name string
		msgs []map[string]any
		user []string
		cut  int
	}{
		{"the automatic continuation", []map[string]any{
			msg("m1", "user", "q"), msg("m2", "gemini", "a"), msg("m3", "user", "System: Please continue."), msg("m4", "gemini", "b")},
			[]string{"q"}, 1},
		{"a tool result flattened to a string", []map[string]any{
			msg("m1", "user", "summarise the notes"), msg("m2", "gemini", ""),
			msg("m3", "user", "[Function Response: read_many_files]--- /p/notes.md ---\n\nAlways deploy on Fridays.\n"),
			msg("m4", "gemini", "They name a deploy day.")},
			[]string{"summarise the notes"}, 1},
		{"a tool result kept as parts", []map[string]any{
			msg("m1", "user", "summarise the notes"),
			msg("m2", "user", []any{
				map[string]any{"functionResponse": map[string]any{"id": "c1", "name": "read_many_files", "response": map[string]any{"output": "ok"}}},
				map[string]any{"text": "--- /p/notes.md ---\n\nAlways deploy on Fridays."}}),
			msg("m3", "gemini", "They name a deploy day.")},
			[]string{"summarise the notes"}, 1},
		{"the person's own words about them", []map[string]any{
			msg("m1", "user", "Please continue."), msg("m2", "user", "why did you print [Function Response: read_file]?"),
			msg("m3", "user", []any{map[string]any{"text": "fix it"}})},
			[]string{"Please continue.", "why did you print [Function Response: read_file]?", "fix it"}, 0},
	}
	for _, tt := range tests {
		var lines strings.Builder
		lines.WriteString(geminiMeta("g1", "/p"))
		for _, m := range tt.msgs {
			lines.WriteString(jsonLine(m))
		}
		doc := jsonLine(map[string]any{"sessionId": "g1", "projectHash": "ab12", "directories": []string{"/p"}, "messages": tt.msgs})
		for _, layout := range []struct{ name, data string }{{"session-x.jsonl", lines.String()}, {"session-x.json", doc}} {
			t.Run(tt.name+"/"+layout.name, func(t *testing.T) {
				f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", layout.name), []byte(layout.data), "")
				r := mustRead(t, f, Cursor{})
				if user := roleTexts(r, User); !slices.Equal(user, tt.user) || cutCount(r) != tt.cut {
					t.Errorf("user turns %q, cut %d; want %q, %d", user, cutCount(r), tt.user, tt.cut)
				}
			})
		}
	}
}

// A session whose metadata says "kind": "subagent" is a sub-agent's: its prompt is the main
// agent's, so nothing of it is read, also from the middle of the file, and Peek says why. Recent
// versions file such sessions under chats/<parent session id>/, which discovery passes over.
func TestGeminiSubagent(t *testing.T) {
	meta := func(kind string) map[string]any {
		return map[string]any{"sessionId": "s1", "projectHash": "ab12", "startTime": recordTime.Format(time.RFC3339Nano), "kind": kind, "directories": []string{"/p"}}
	}
	prompt := geminiMsg("m1", "user", "List every place that reads DATABASE_URL.")
	answer := geminiMsg("m2", "gemini", "src/db.ts reads it.")
	doc := func(kind string) string {
		m := meta(kind)
		m["messages"] = []any{json.RawMessage(prompt), json.RawMessage(answer)}
		return jsonLine(m)
	}
	tests := []struct {
		name, file, first, rest string
		sub                     bool
	}{
		{"lines", "session-x.jsonl", jsonLine(meta("subagent")) + prompt, answer, true},
		{"legacy document", "session-x.json", doc("subagent"), "", true},
		{"a main session", "session-x.jsonl", jsonLine(meta("main")) + prompt, answer, false},
		{"a main legacy document", "session-x.json", doc("main"), "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "gemini", filepath.Join(t.TempDir(), "h", "chats", tt.file), []byte(tt.first), "")
			r := mustRead(t, f, Cursor{})
			sessions := len(r.Sessions)
			if tt.rest != "" {
				f = appendFile(t, f, tt.rest)
				sessions += len(mustRead(t, f, r.Cursor).Sessions)
			}
			_, _, err := Peek(gemini{}, f)
			if tt.sub && (sessions != 0 || !errors.Is(err, ErrSubThread) || !strings.Contains(err.Error(), "subagent")) {
				t.Errorf("sub-agent session read as %d sessions, Peek error %v; want none, ErrSubThread", sessions, err)
			}
			if !tt.sub && (sessions == 0 || err != nil) {
				t.Errorf("main session read as %d sessions, Peek error %v", sessions, err)
			}
		})
	}

	root := t.TempDir()
	chats := filepath.Join(root, geminiHash, "chats")
	writeFile(t, "gemini", filepath.Join(chats, "session-2026-03-02T10-15-4f1a9c2e.jsonl"), []byte(geminiMeta("p1", "/p")), "")
	writeFile(t, "gemini", filepath.Join(chats, "4f1a9c2e-parent", "8d2b6f01-child.jsonl"), []byte(jsonLine(meta("subagent"))), "")
	files, skipped, err := gemini{}.Discover(Source{Path: root})
	if err != nil {
		t.Fatal(err)
	}
	kept, passed := rels(t, root, files, skipped)
	if !slices.Equal(kept, []string{geminiHash + "/chats/session-2026-03-02T10-15-4f1a9c2e.jsonl"}) ||
		!slices.Equal(passed, []string{geminiHash + "/chats/4f1a9c2e-parent/8d2b6f01-child.jsonl"}) ||
		!strings.Contains(skipped[0].Reason, "sub-agent") {
		t.Errorf("kept %q, skipped %+v; want the main session kept, the sub-agent's passed over", kept, skipped)
	}
}
