package transcript

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const geminiHash = "5e8f0c1d9a7b3e2f4c6d8a0b1c3e5f7a9b2d4f6a8c0e2b4d6f8a1c3e5b7d9f0a"

// TestReadGolden reads each real-shaped transcript under testdata in full and compares the
// normalized sessions, warnings and cursor with its golden file.
func TestReadGolden(t *testing.T) {
	tests := []struct {
		kind, file, project string
	}{
		{"claude", "claude/-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea.jsonl", ""},
		{"codex", "codex/2026/05/15/rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b.jsonl", ""},
		{"gemini", "gemini/" + geminiHash + "/chats/session-2026-05-15T10-00-7c1e9a2b.jsonl", ""},
		{"gemini", "gemini/" + geminiHash + "/chats/session-2026-05-14T09-30-1a2b3c4d.json", ""},
		{"qwen", "qwen/-home-ana-shop/chats/5b1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl", ""},
		{"copilot", "copilot/4c2a9e1b-7d3f-4a5e-9b8c-1d2e3f4a5b6c/events.jsonl", ""},
		{"aider", "aider/shop/.aider.chat.history.md", ""},
		{"markdown", "markdown/.harness/sessions/2026-05-15-08h00.md", "/home/ana/shop"},
		{"markdown", "markdown/.harness/sessions/notes.md", "/home/ana/shop"},
		{"chat", "chat/support.json", "/home/ana/shop"},
		{"chat", "chat/pairing.jsonl", "/home/ana/shop"},
		{"cline", "cline/tasks/1777073160794/api_conversation_history.json", ""},
		{"cursor-agent", "cursor-agent/projects/home-ana-shop/agent-transcripts/" + cursorSample + "/" + cursorSample + ".jsonl", ""},
	}
	for _, tt := range tests {
		name := tt.kind + "-" + strings.TrimPrefix(filepath.Base(tt.file), ".") + ".golden"
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			f := copyFile(t, tt.kind, filepath.Join("testdata", tt.file), root, tt.file, tt.project)
			checkGolden(t, name, render(mustRead(t, f, Cursor{}), root))
		})
	}
}

// TestFixturesGolden reads every third-party transcript sample with the adapter for its kind
// (subagent transcripts too, which discovery passes over): none may fail, and the malformed codex
// rollout yields a warning.
func TestFixturesGolden(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(fixtures, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 10 {
		t.Fatalf("found %d fixture transcripts, want at least 10", len(paths))
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(fixtures, p)
		rel = filepath.ToSlash(rel)
		kind := "claude"
		if strings.HasPrefix(rel, "codex/") {
			kind = "codex"
		}
		name := "fixture-" + strings.ReplaceAll(strings.TrimSuffix(rel, ".jsonl"), "/", "_") + ".golden"
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			f := copyFile(t, kind, p, root, rel, "")
			r := mustRead(t, f, Cursor{})
			if strings.Contains(rel, "malformed") && len(r.Warnings) == 0 {
				t.Error("malformed rollout read without a warning")
			}
			// A last line without its newline may still be being written: it is left for later.
			data, err := os.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			if want := int64(bytes.LastIndexByte(data, '\n') + 1); r.Cursor.Offset != want {
				t.Errorf("cursor offset %d, want %d, just past the last newline", r.Cursor.Offset, want)
			}
			checkGolden(t, name, render(r, root))
		})
	}
}
