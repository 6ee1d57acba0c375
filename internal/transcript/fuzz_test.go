package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"github.com/dreamd/dreamd/internal/sanitize"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzRead reads data as a transcript of the given kind and checks what must hold for any input:
// no panic, a sane cursor, turns within their caps, and, for line formats, the same cursor whether
// the file is read at once or in two parts split anywhere.
func fuzzRead(t *testing.T, kind, name string, data []byte, split int) {
	dir := t.TempDir()
	a, err := New(kind)
	if err != nil {
		t.Fatal(err)
	}
	f := writeFile(t, kind, filepath.Join(dir, "whole", name), data, "/p")
	r, err := a.Read(f, Cursor{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	checkReading(t, f, data, r)
	if !wholeDocument(f) {
		// A small file's new material is read in one call; streamed, it must read the same.
		streamOnly.Store(true)
		streamed, err := a.Read(f, Cursor{})
		streamOnly.Store(false)
		if err != nil || !reflect.DeepEqual(streamed, r) {
			t.Errorf("streamed, the file reads %+v, %v; read whole, %+v", streamed, err, r)
		}
		off := r.Cursor.Offset
		if sum := sha256.Sum256(data[max(off-TailWindow, 0):off]); r.Tail != hex.EncodeToString(sum[:]) {
			t.Errorf("tail %s does not fingerprint the %d bytes before offset %d", r.Tail, min(off, TailWindow), off)
		}
	}
	if _, _, err := Peek(a, f); err != nil && !errors.Is(err, ErrSubThread) {
		t.Fatalf("Peek: %v", err)
	}
	if wholeDocument(f) {
		return
	}
	split %= len(data) + 1
	part := writeFile(t, kind, filepath.Join(dir, "parts", name), data[:split], "/p")
	r1, err := a.Read(part, Cursor{})
	if err != nil {
		t.Fatalf("Read first part: %v", err)
	}
	part = appendFile(t, part, string(data[split:]))
	from, _, err := Resume(part, r1.Cursor)
	if err != nil {
		t.Fatalf("Resume: %v", err)
	}
	r2, err := a.Read(part, from)
	if err != nil {
		t.Fatalf("Read second part: %v", err)
	}
	if r2.Cursor.Offset != r.Cursor.Offset || r2.Cursor.Lines != r.Cursor.Lines || r2.Cursor.Head != r.Cursor.Head {
		t.Errorf("read in parts split at %d ends at %+v; read at once at %+v", split, r2.Cursor, r.Cursor)
	}
}

func checkReading(t *testing.T, f File, data []byte, r Reading) {
	t.Helper()
	c := r.Cursor
	want := int64(len(data))
	if !wholeDocument(f) {
		want = int64(bytes.LastIndexByte(data, '\n') + 1)
		if lines := int64(bytes.Count(data[:want], []byte("\n"))); c.Lines != lines {
			t.Errorf("cursor lines %d, want %d", c.Lines, lines)
		}
	}
	if c.Offset != want || c.Size != int64(len(data)) {
		t.Errorf("cursor offset %d size %d, want %d and %d", c.Offset, c.Size, want, len(data))
	}
	if c.HeadLen != min(headMax, c.Offset) {
		t.Errorf("cursor head_len %d for offset %d", c.HeadLen, c.Offset)
	}
	if sum := sha256.Sum256(data[:c.HeadLen]); c.HeadLen > 0 && c.Head != hex.EncodeToString(sum[:]) {
		t.Errorf("cursor head does not fingerprint the first %d bytes", c.HeadLen)
	}
	for _, s := range r.Sessions {
		if len(s.Turns) == 0 || s.ID == "" || s.Kind != f.Kind || s.Path != f.Path || s.Ended.Before(s.Started) {
			t.Errorf("session %+v", s)
		}
		for _, turn := range s.Turns {
			if turn.Text == "" || len(turn.Text) > textCap(turn) || !utf8.ValidString(turn.Text) || !sanitize.Clean(turn.Text) {
				t.Errorf("turn %+v: empty, over %d bytes, not UTF-8, or holding a control byte", turn, textCap(turn))
			}
		}
	}
}

// seedLines adds each line of a testdata file as a seed, and the whole file.
func seedLines(f *testing.F, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, uint16(len(data)/2))
	for i, line := range strings.SplitAfter(string(data), "\n") {
		if len(line) < 4096 {
			f.Add([]byte(line), uint16(i))
		}
	}
}

func FuzzClaudeLine(f *testing.F) {
	seedLines(f, "testdata/claude/-home-ana-shop/2ff46cd5-f4e7-4724-bb20-579dae7956ea.jsonl")
	f.Add([]byte("\"massive error\"\n42\n[1]\n{\"silly\":\"this\"}\n"), uint16(3))
	f.Add([]byte(`{"type":"user","message":{"content":[1,{"type":"tool_result","is_error":true,"content":[{"type":"text","text":"x"}]}]}}`+"\n"), uint16(9))
	f.Add([]byte(recordedNotification), uint16(30))
	f.Add([]byte(`{"type":"attachment","attachment":{"type":"queued_command","prompt":[{"type":"text","text":"<command-name>/x</command-name>"}],"origin":{"kind":1}}}`+"\n"+
		`{"type":"attachment","attachment":"x"}`+"\n"), uint16(9))
	f.Add([]byte(answeredRecord("a", `User has answered your questions: "Q"="A". You can now continue with`, map[string]any{"Q": []any{"a", 1}, "": ""})), uint16(12))
	f.Add([]byte(`{"type":"user","toolUseResult":{"answers":{"\u0051":["x",{"text":"y"}]}},"message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"Your questions have been answered:"}]}]}}`+"\n"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "claude", "p/s.jsonl", data, int(split))
	})
}

func FuzzCodexLine(f *testing.F) {
	seedLines(f, "testdata/codex/2026/05/15/"+rolloutName)
	f.Add([]byte("{synthetic malformed json\n"), uint16(0))
	f.Add([]byte(`{"id":"x","timestamp":"2026-01-04T05:06:07.000Z"}`+"\n"+`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`+"\n"), uint16(40))
	f.Add([]byte(strings.Join(recordedFailure, "\n")+"\n"), uint16(100))
	f.Add([]byte(`{"type":"response_item","payload":{"type":"function_call_output","output":[{"type":"input_text","text":"Process exited with code 7\nOutput:\n"}]}}`+"\n"+
		`{"type":"compacted","payload":{"message":"x"}}`+"\n"+codexMessage("user", "## User Input\n\n```text\n```\n")+
		codexMessage("user", "# AGENTS.md instructions for /x\n<INSTRUCTIONS>\n<environment_context>\nq")), uint16(7))
	f.Add([]byte(codexCall("c", "request_user_input", map[string]any{"questions": []any{map[string]any{"id": "a.b", "question": "Q?"}, map[string]any{"id": 1}}})+
		codexOutput("c", `{"answers":{"a.b":{"answers":["x","user_note: "]},"1":{"answers":"y"}}}`)+codexOutput("c", `{"answers":[]}`)), uint16(50))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "codex", rolloutName, data, int(split))
	})
}

func FuzzGeminiLine(f *testing.F) {
	seedLines(f, "testdata/gemini/"+geminiHash+"/chats/session-2026-05-15T10-00-7c1e9a2b.jsonl")
	f.Add([]byte(`{"$rewindTo":null}`+"\n"+`{"$set":[]}`+"\n"), uint16(5))
	f.Add([]byte(`{"sessionId":"s","projectHash":"h","kind":"subagent"}`+"\n"+`{"id":"m1","type":"user","content":"q"}`+"\n"), uint16(60))
	f.Add([]byte(`{"id":"m1","type":"user","content":"System: Please continue."}`+"\n"+
		`{"id":"m2","type":"user","content":[{"functionResponse":{"name":"read_file"}},{"text":"--- /p ---"}]}`+"\n"), uint16(70))
	f.Add([]byte(geminiAsk("m3", "success", `{"answers":{"0":["a",1],"-1":"x","1e9":"y","0x1":"z"}}`)), uint16(90))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "gemini", "h/chats/session-x.jsonl", data, int(split))
	})
}

func FuzzGeminiDoc(f *testing.F) {
	seedLines(f, "testdata/gemini/"+geminiHash+"/chats/session-2026-05-14T09-30-1a2b3c4d.json")
	seedLines(f, "testdata/real/synthetic/gemini/9c4e2a7b1d3f5e6a8b0c2d4e6f8a0b1c3d5e7f9a1b3c5d7e9f0a2b4c6d8e0f1a/chats/session-2026-03-02T10-15-4f1a9c2e.json")
	f.Add([]byte(`{"sessionId":"s","kind":"subagent","messages":[{"type":"user","content":"q"}]}`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "gemini", "h/chats/session-x.json", data, int(split))
	})
}

func FuzzGeminiLogs(f *testing.F) {
	seedLines(f, "testdata/gemini/"+geminiHash+"/logs.json")
	f.Add([]byte(`[{"sessionId":"s","type":"user","message":"/chat save x"},{"sessionId":"t","type":"user","message":"q"},{"sessionId":"s","type":"user","message":1},7]`), uint16(0))
	f.Add([]byte(`{"sessionId":"s","type":"user","message":"q"}`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "gemini", "h/logs.json", data, int(split))
	})
}

func FuzzQwenLine(f *testing.F) {
	seedLines(f, "testdata/qwen/-home-ana-shop/chats/5b1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl")
	f.Add([]byte(`{"type":"user","isSidechain":true}`+"\n"+`{"type":"user","message":{"parts":[{"text":1},{"thought":true,"text":"t"}]},"systemPayload":{"displayText":7}}`+"\n"), uint16(20))
	f.Add([]byte(`{"type":"tool_result","toolCallResult":{"status":"error","resultDisplay":{"exitCode":"x"}}}`+"\n"+
		`{"type":"assistant","message":{"parts":[{"functionCall":{"name":[],"args":"s"}}]}}`+"\n"), uint16(30))
	f.Add([]byte(qwenAnswered(map[string]any{"type": "ask_user_question_answers", "answers": []any{map[string]any{"question": 1, "answer": []any{"a", 2}}, "x"}})), uint16(40))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "qwen", "-p/chats/q.jsonl", data, int(split))
	})
}

func FuzzCopilotLine(f *testing.F) {
	seedLines(f, "testdata/copilot/4c2a9e1b-7d3f-4a5e-9b8c-1d2e3f4a5b6c/events.jsonl")
	f.Add([]byte(`{"type":"user.message","data":{"content":["x"],"source":1}}`+"\n"+`{"type":"tool.execution_complete","data":{"success":"no","shellExecution":{"exitCode":-1}}}`+"\n"), uint16(10))
	f.Add([]byte(`{"type":"assistant.message","data":{"toolRequests":{"name":"x"}},"agentId":null}`+"\n"), uint16(5))
	f.Add([]byte(copilotAnswered(map[string]any{"responseKind": "ask_user", "content": map[string]any{"a.b": []any{"x", 1}, "": true}, "requestedSchema": map[string]any{"properties": "x"}})+
		copilotAnswered(map[string]any{"responseKind": "ask_user", "content": "typed", "message": 3})), uint16(30))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "copilot", "c/events.jsonl", data, int(split))
	})
}

func FuzzAiderLine(f *testing.F) {
	seedLines(f, "testdata/aider/shop/.aider.chat.history.md")
	f.Add([]byte("# aider chat started at 9999-99-99 99:99:99\n```\n#### x\n"), uint16(20))
	f.Add([]byte("#### /run make test  \n#### /add a.py  \n####   b.py  \n#### \u200b\n#### !\n#### ```\n"), uint16(10))
	seedLines(f, "testdata/real/aider/aider-ai-aider-test.chat.history.md")
	f.Add([]byte("#### x  \n> out\n    \n```\n####\n>\nend  \nreply\n"), uint16(12))
	f.Add([]byte("-*- mode: fundamental -*-\n#### # Fix any errors below, if possible.\n#### x.py:1:1: E402\n\n"+
		"# aider chat started at 2024-08-10 14:09:30\n#### /help how are you\n\n#### # Question: how are you\n#### # Relevant docs:\n\nFine.\n"), uint16(40))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "aider", aiderHistory, data, int(split))
	})
}

func FuzzMarkdown(f *testing.F) {
	seedLines(f, "testdata/markdown/.harness/sessions/2026-05-15-08h00.md")
	f.Add([]byte("---\n## Decisions\n- \n1)\n"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "markdown", "2026-05-15-08h00.md", data, int(split))
	})
}

func FuzzChatLine(f *testing.F) {
	seedLines(f, "testdata/chat/pairing.jsonl")
	f.Add([]byte(chatLine("user", "<task>\nq\n</task><environment_details>x")+chatLine("user", "---\ndescription: d\n---\n## User Input\n```text\n$ARGUMENTS\n```")), uint16(3))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "chat", "c.jsonl", data, int(split))
	})
}

func FuzzChatDoc(f *testing.F) {
	seedLines(f, "testdata/chat/support.json")
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "chat", "c.json", data, int(split))
	})
}

// FuzzGitLink feeds CanonicalProject arbitrary .git files and commondir pointers.
func FuzzGitLink(f *testing.F) {
	f.Add("gitdir: ../main/.git/worktrees/wt\n", "../..\n")
	f.Add("gitdir:\n", "")
	f.Add("not a pointer", "/abs/.git")
	f.Fuzz(func(t *testing.T, dotgit, commondir string) {
		root := t.TempDir()
		wt := filepath.Join(root, "wt")
		writeText(t, filepath.Join(wt, ".git"), dotgit)
		writeText(t, filepath.Join(root, "main", ".git", "worktrees", "wt", "commondir"), commondir)
		got := CanonicalProject(filepath.Join(wt, "src"))
		if !filepath.IsAbs(got) || filepath.Clean(got) != got {
			t.Errorf("CanonicalProject = %q, want a clean absolute path", got)
		}
	})
}

func FuzzClineDoc(f *testing.F) {
	seedLines(f, "testdata/cline/tasks/1777073160794/api_conversation_history.json")
	recorded, _ := filepath.Glob("testdata/agents/cline-*/.cline/data/sessions/*/*.messages.json")
	for _, path := range recorded {
		seedLines(f, path)
	}
	f.Add([]byte(`{"agent":"subagent","messages":[]}`), uint16(0))
	f.Add([]byte(`[{"role":"user","content":"[ask_followup_question for 'Q?'] Result:\n<answer>\nx\n</answer>"},{"role":"user","content":[{"type":"text","text":"[ask_followup_question for '] Result:<answer><answer>"}]}]`), uint16(0))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"ask_question","input":{"question":["q"]}},{"type":"tool_use","name":"ask_question"}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[{"type":"text","text":"x"}]},{"type":"tool_result","content":"y"}]}]}`), uint16(0))
	f.Add([]byte(`[{"role":"user","content":"[x for '<task>'] Result:\n<answer>"},{"role":"assistant","content":"<execute_command><command>"},`+
		`{"role":"user","content":[{"type":"tool_result","content":[{"success":false,"query":1}]},{"type":"text","text":"<user_input mode=x>"}]}]`), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, "cline", "1777073160794/api_conversation_history.json", data, int(split))
		fuzzRead(t, "cline", "1_a/1_a.messages.json", data, int(split))
	})
}

func FuzzCursorAgentLine(f *testing.F) {
	seedLines(f, "testdata/cursor-agent/projects/home-ana-shop/agent-transcripts/"+cursorSample+"/"+cursorSample+".jsonl")
	f.Add([]byte(`{"role":"user","content":"<user_info>Workspace Path: /a\n</user_info><user_query>"}`+"\n"+
		`{"role":"assistant","message":{"content":[{"type":"tool_use","input":{"p":"/x/y"}},{"type":"text","text":1}]}}`+"\n"), uint16(30))
	f.Fuzz(func(t *testing.T, data []byte, split uint16) {
		fuzzRead(t, cursorAgentKind, "home-ana-shop/agent-transcripts/a/a.jsonl", data, int(split))
	})
}
