package transcript

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// realisticClaude builds a Claude Code transcript of about size bytes shaped like a heavy
// session: short prompts, streamed assistant blocks, thinking, big file reads and command
// outputs as tool results, file-history snapshots, the odd failed command.
func realisticClaude(size int) []byte {
	var b strings.Builder
	fileBody := strings.Repeat("\tif err := run(ctx, \"step\"); err != nil {\n\t\treturn fmt.Errorf(\"step: %w\", err)\n\t}\n", 2000) // ~150 KiB
	output := strings.Repeat("ok  \tgithub.com/ana/shop/internal/cart\t0.412s\tcoverage: 81.2% of statements\n", 400)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(`{"type":"file-history-snapshot","messageId":"m` + fmt.Sprint(i) + `","snapshot":{"messageId":"m","trackedFileBackups":{"src/cart.ts":{"backupFileName":"abc@v2","version":2,"backupTime":"2026-05-15T08:00:00.000Z"}},"timestamp":"2026-05-15T08:00:00.000Z"},"isSnapshotUpdate":false}` + "\n")
		b.WriteString(claudeUser(fmt.Sprintf("u%d", i), fmt.Sprintf("Step %d: run the tests again and fix what fails; remember we use pnpm.", i)))
		b.WriteString(claudeAssistant(fmt.Sprintf("t%d", i), fmt.Sprintf("msg_%d", i), map[string]any{"type": "thinking", "thinking": strings.Repeat("Considering the failing test and the rounding rules. ", 40), "signature": strings.Repeat("S", 400)}))
		b.WriteString(claudeAssistant(fmt.Sprintf("a%d", i), fmt.Sprintf("msg_%d", i), textBlock("Let me read the file and run the tests.")))
		b.WriteString(claudeAssistant(fmt.Sprintf("c%d", i), fmt.Sprintf("msg_%d", i), map[string]any{"type": "tool_use", "id": "toolu_r", "name": "Read", "input": map[string]any{"file_path": "/home/ana/shop/internal/cart/cart.go"}}))
		b.WriteString(claudeToolResult(fmt.Sprintf("r%d", i), fileBody, false))
		b.WriteString(claudeAssistant(fmt.Sprintf("d%d", i), fmt.Sprintf("msg_%d", i), map[string]any{"type": "tool_use", "id": "toolu_b", "name": "Bash", "input": map[string]any{"command": "go test ./...", "description": "Run tests"}}))
		b.WriteString(claudeToolResult(fmt.Sprintf("o%d", i), output, i%5 == 0))
		b.WriteString(claudeAssistant(fmt.Sprintf("e%d", i), fmt.Sprintf("msg_%d", i), textBlock("The tests pass now; the discount is applied before rounding.")))
	}
	return []byte(b.String())
}

// BenchmarkClaudeRead reads a ~20 MB transcript in full; go test -bench reports MB/s.
func BenchmarkClaudeRead(b *testing.B) {
	data := realisticClaude(20 << 20)
	f := writeFile(b, "claude", filepath.Join(b.TempDir(), "p", "s.jsonl"), data, "")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := claude{}.Read(f, Cursor{})
		if err != nil || r.Cursor.Offset != f.Size {
			b.Fatalf("read: %v, cursor %+v", err, r.Cursor)
		}
	}
}

// realisticCodex builds a Codex rollout of about size bytes: turns of commands whose outputs
// (test logs, file dumps) dwarf the conversation, with reasoning and token-count events between.
func realisticCodex(size int) []byte {
	var b strings.Builder
	b.WriteString(codexMeta("0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b", "/home/ana/shop"))
	dump := strings.Repeat("src/cart.ts:12:  return Math.round(price - discount) // \"cents\"\n", 1500)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(codexEvent("user_message", fmt.Sprintf("Step %d: run the tests and fix what fails.", i)))
		b.WriteString(codexMessage("user", fmt.Sprintf("Step %d: run the tests and fix what fails.", i)))
		b.WriteString(jsonLine(map[string]any{"timestamp": "2026-05-15T09:00:00.000Z", "type": "response_item", "payload": map[string]any{
			"type": "reasoning", "summary": []any{map[string]any{"type": "summary_text", "text": "**Running tests**"}}, "encrypted_content": strings.Repeat("gAAAAB", 800)}}))
		b.WriteString(jsonLine(map[string]any{"timestamp": "2026-05-15T09:00:01.000Z", "type": "response_item", "payload": map[string]any{
			"type": "function_call", "name": "shell", "arguments": `{"command":["bash","-lc","pnpm test"]}`, "call_id": "c"}}))
		b.WriteString(jsonLine(map[string]any{"timestamp": "2026-05-15T09:00:02.000Z", "type": "response_item", "payload": map[string]any{
			"type": "function_call_output", "call_id": "c", "output": fmt.Sprintf("Exit code: %d\nWall time: 2.1 seconds\nOutput:\n%s", i%7/6, dump)}}))
		b.WriteString(codexEvent("agent_message", "The tests pass."))
		b.WriteString(codexMessage("assistant", "The tests pass."))
	}
	return []byte(b.String())
}

// BenchmarkCodexRead reads a ~20 MB rollout in full; go test -bench reports MB/s.
func BenchmarkCodexRead(b *testing.B) {
	data := realisticCodex(20 << 20)
	f := writeFile(b, "codex", filepath.Join(b.TempDir(), rolloutName), data, "")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := codex{}.Read(f, Cursor{})
		if err != nil || r.Cursor.Offset != f.Size {
			b.Fatalf("read: %v, cursor %+v", err, r.Cursor)
		}
	}
}

// BenchmarkClaudeReadSmallFiles reads 1,000 transcripts of about 5 KB each, the shape of a
// machine with many short sessions: per-file costs (open, buffers, cursor) dominate, not bytes.
func BenchmarkClaudeReadSmallFiles(b *testing.B) {
	data := realisticClaude(1)[:0:0]
	for i := 0; len(data) < 5<<10; i++ {
		data = append(data, claudeUser(fmt.Sprintf("u%d", i), "Run the tests again; remember we use pnpm.")...)
		data = append(data, claudeAssistant(fmt.Sprintf("a%d", i), fmt.Sprintf("msg_%d", i), textBlock("The tests pass."))...)
	}
	dir := b.TempDir()
	files := make([]File, 1000)
	for i := range files {
		files[i] = writeFile(b, "claude", filepath.Join(dir, "p", fmt.Sprintf("s%d.jsonl", i)), data, "")
	}
	b.SetBytes(int64(len(data) * len(files)))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			if r, err := (claude{}).Read(f, Cursor{}); err != nil || r.Cursor.Offset != f.Size {
				b.Fatalf("read: %v, cursor %+v", err, r.Cursor)
			}
		}
	}
}
