package offline

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// fixtures are third-party transcripts (see testdata/thirdparty/README.md at the repository's root).
var fixtures = filepath.Join("..", "..", "..", "testdata", "thirdparty", "claude-code-log")

// TestFixtureTranscripts runs the consolidator over the turns of real-format Claude Code and
// Codex transcripts written by another project. None of them states a lesson: they hold
// questions, task requests, pasted command output, system reminders and messages relayed from
// other agent sessions, and none of that may become a memory.
func TestFixtureTranscripts(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(fixtures, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".jsonl") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatalf("reading the third-party fixtures at %s: %v", fixtures, err)
	}
	var sessions []extract.Session
	userTurns := 0
	for i, path := range paths {
		s := extract.Session{ID: filepath.Base(path), Source: "fixture", Date: time.Date(2026, 1, 2+i, 0, 0, 0, 0, time.UTC)}
		s.Turns = fixtureTurns(t, path)
		for _, turn := range s.Turns {
			if turn.Role == "user" {
				userTurns++
			}
		}
		sessions = append(sessions, s)
	}
	if userTurns < 20 {
		t.Fatalf("read only %d user turns from %d fixture files; the reader below no longer matches them", userTurns, len(paths))
	}
	res, err := New().Consolidate(context.Background(), extract.Request{Sessions: sessions})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range res.Response.Operations {
		t.Errorf("fixture transcripts produced %s %q: %q", op.Action, op.Name, op.Description)
	}
	// Amid all that noise, one stated lesson still comes through, once.
	sessions = append(sessions, userSession("lesson", time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), "Remember: we use pnpm."))
	res, err = New().Consolidate(context.Background(), extract.Request{Sessions: sessions})
	if err != nil {
		t.Fatal(err)
	}
	if ops := res.Response.Operations; len(ops) != 1 || ops[0].Name != "use-pnpm" {
		t.Errorf("with one lesson added, operations = %+v, want one create of use-pnpm", briefs(ops))
	}
}

// fixtureTurns reads the turns of a Claude Code or Codex JSONL transcript, roughly as the
// transcript package does: user text, tool results, assistant text. Broken lines are skipped.
func fixtureTurns(t *testing.T, path string) []extract.Turn {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var turns []extract.Turn
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Type    string `json:"type"`
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
			Payload struct {
				Type    string          `json:"type"`
				Role    string          `json:"role"`
				Message string          `json:"message"`
				Content json.RawMessage `json:"content"`
			} `json:"payload"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		switch {
		case rec.Type == "user" || rec.Type == "assistant":
			turns = append(turns, contentTurns(transcript.Role(rec.Message.Role), rec.Message.Content)...)
		case rec.Type == "response_item" && rec.Payload.Role != "":
			turns = append(turns, contentTurns(transcript.Role(rec.Payload.Role), rec.Payload.Content)...)
		case rec.Type == "event_msg" && rec.Payload.Type == "user_message":
			turns = append(turns, extract.Turn{Role: "user", Text: rec.Payload.Message})
		}
	}
	return turns
}

func contentTurns(role transcript.Role, raw json.RawMessage) []extract.Turn {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []extract.Turn{{Role: role, Text: text}}
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return nil
	}
	var turns []extract.Turn
	for _, b := range blocks {
		switch b.Type {
		case "text", "input_text", "output_text":
			turns = append(turns, extract.Turn{Role: role, Text: b.Text})
		case "tool_result":
			turns = append(turns, extract.Turn{Role: "tool", Text: string(b.Content)})
		}
	}
	return turns
}
