package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexStillRunning: an exec_command whose process outlived its yield time says so in its
// tool line until a write_stdin poll reports exit code 0; a poll reporting a failure keeps it
// (and is the error it was), and a process never polled to its end stays running.
func TestCodexStillRunning(t *testing.T) {
	const head = `{"timestamp":"2026-11-18T09:00:00Z","type":"session_meta","payload":{"id":"019a7c10-1111-7222-8333-444455556667","cwd":"/home/ana/shop"}}
{"timestamp":"2026-11-18T09:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"run the tests"}]}}
`
	call := func(id, name, args string) string {
		return `{"timestamp":"2026-11-18T09:00:02Z","type":"response_item","payload":{"type":"function_call","name":"` + name + `","arguments":"` + strings.ReplaceAll(args, `"`, `\"`) + `","call_id":"` + id + `"}}` + "\n"
	}
	output := func(id, header string) string {
		return `{"timestamp":"2026-11-18T09:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"` + id + `","output":"Chunk ID: 1\nWall time: 10.0 seconds\n` + header + `\nOriginal token count: 4\nOutput:\nrunning 84 tests\n"}}` + "\n"
	}
	say := `{"timestamp":"2026-11-18T09:00:04Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"The tests are still running; waiting."}]}}` + "\n"
	tests := []struct {
		name, body string
		want       []string
	}{
		{"polled to exit 0", head + call("c1", "exec_command", `{"cmd":"npm test"}`) + output("c1", "Process running with session ID 7") + say +
			call("c2", "write_stdin", `{"session_id":7,"chars":""}`) + output("c2", "Process exited with code 0"),
			[]string{"exec_command: npm test", `write_stdin: {"session_id":7,"chars":""}`}},
		{"polled to a failure", head + call("c1", "exec_command", `{"cmd":"npm test"}`) + output("c1", "Process running with session ID 7") + say +
			call("c2", "write_stdin", `{"session_id":7,"chars":""}`) + output("c2", "Process exited with code 1"),
			[]string{"exec_command: npm test" + stillRunning, `write_stdin: {"session_id":7,"chars":""}`, "error: Process exited with code 1\nrunning 84 tests"}},
		{"still running at the end", head + call("c1", "exec_command", `{"cmd":"npm test"}`) + output("c1", "Process running with session ID 7") + say +
			call("c2", "write_stdin", `{"session_id":7,"chars":""}`) + output("c2", "Process running with session ID 7"),
			[]string{"exec_command: npm test" + stillRunning, `write_stdin: {"session_id":7,"chars":""}`}},
		{"another process's poll", head + call("c1", "exec_command", `{"cmd":"npm test"}`) + output("c1", "Process running with session ID 7") +
			call("c2", "write_stdin", `{"session_id":8,"chars":""}`) + output("c2", "Process exited with code 0"),
			[]string{"exec_command: npm test" + stillRunning, `write_stdin: {"session_id":8,"chars":""}`}},
		{"ended in its own call", head + call("c1", "exec_command", `{"cmd":"npm test"}`) + output("c1", "Process exited with code 0"),
			[]string{"exec_command: npm test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rollout-2026-11-18T09-00-00-019a7c10-1111-7222-8333-444455556667.jsonl")
			if err := os.WriteFile(path, []byte(tt.body), 0o644); err != nil {
				t.Fatal(err)
			}
			info, _ := os.Stat(path)
			var got []string
			for _, s := range mustRead(t, File{Kind: "codex", Path: path, Size: info.Size(), ModTime: info.ModTime()}, Cursor{}).Sessions {
				for _, turn := range s.Turns {
					switch {
					case turn.Role == Tool && turn.IsError:
						got = append(got, "error: "+turn.Text)
					case turn.Role == Tool:
						got = append(got, turn.Text)
					}
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("tool turns\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
