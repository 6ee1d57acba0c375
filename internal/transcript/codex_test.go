package transcript

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

const rolloutName = "rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b.jsonl"

func TestCodexTwins(t *testing.T) {
	tests := []struct {
		name  string
		lines string
		want  []string
	}{
		{"event then item", codexEvent("user_message", "use pnpm") + codexMessage("user", "use pnpm"), []string{"use pnpm"}},
		{"item then event", codexMessage("assistant", "done") + codexEvent("agent_message", "done"), []string{"done"}},
		{"event only (older rollouts, subagent heads)", codexEvent("user_message", "hello"), []string{"hello"}},
		{"a repeated answer is kept", codexEvent("user_message", "yes") + codexMessage("user", "yes") +
			codexEvent("agent_message", "ok") + codexMessage("assistant", "ok") +
			codexEvent("user_message", "yes") + codexMessage("user", "yes"), []string{"yes", "ok", "yes"}},
		{"two items are two turns", codexMessage("user", "again") + codexMessage("user", "again"), []string{"again", "again"}},
		{"injected context left out", codexMessage("user", "<environment_context>\n<cwd>/x</cwd>\n</environment_context>") +
			codexMessage("user", "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>use pnpm</INSTRUCTIONS>") +
			codexMessage("user", "<user_instructions>be brief</user_instructions>"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+tt.lines), "")
			if got := turnTexts(mustRead(t, f, Cursor{})); !slices.Equal(got, tt.want) {
				t.Errorf("turns %q, want %q", got, tt.want)
			}
		})
	}
}

// The context Codex injects as user records (AGENTS.md, the environment, user instructions) is
// no turn, but each record is counted as cut: once when Codex records it twice, as a
// response_item and as an event_msg.
func TestCodexInjectedCut(t *testing.T) {
	env := "<environment_context>\n  <cwd>/x</cwd>\n</environment_context>"
	agents := "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\nuse pnpm\n</INSTRUCTIONS>"
	mixed := jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "message", "role": "user", "content": []any{
			map[string]any{"type": "input_text", "text": env}, map[string]any{"type": "input_text", "text": "fix it"}}}})
	tests := []struct {
		name  string
		lines string
		user  []string
		cut   int
	}{
		{"AGENTS.md and the environment", codexMessage("user", agents) + codexMessage("user", env) + codexMessage("user", "fix it"),
			[]string{"fix it"}, 2},
		{"user instructions", codexMessage("user", "<user_instructions>be brief</user_instructions>") + codexEvent("user_message", "hi"),
			[]string{"hi"}, 1},
		{"a record and its event twin count once", codexMessage("user", env) + codexEvent("user_message", env) +
			codexEvent("user_message", "fix it") + codexMessage("user", "fix it"), []string{"fix it"}, 1},
		{"the same context given again counts again", codexMessage("user", env) + codexMessage("user", "fix it") + codexMessage("user", env),
			[]string{"fix it"}, 2},
		{"typed words beside injected context: kept, nothing cut", mixed, []string{"fix it"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if user := roleTexts(r, User); !slices.Equal(user, tt.user) || cutCount(r) != tt.cut {
				t.Errorf("user turns %q, cut %d; want %q, %d", user, cutCount(r), tt.user, tt.cut)
			}
		})
	}
}

// An early rollout (mid-2025) has a bare head and its items at the top level: the session's
// directory is the one the injected environment names, for Peek, a whole read and one from the
// middle alike, and a shell call that names no workdir ran there.
func TestCodexEarlyRolloutDirectory(t *testing.T) {
	head := `{"id":"536e9fe6-50d2-47d5-8f38-e15a239afcbc","timestamp":"2025-09-24T01:08:12.049Z","instructions":"# Repository Guidelines"}` + "\n" +
		`{"record_type":"state"}` + "\n"
	message := func(role, text string) string {
		return jsonLine(map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": "input_text", "text": text}}})
	}
	lines := head + message("user", "<environment_context>\n  <cwd>E:\\ANPR\\anpr_system</cwd>\n  <shell>powershell.exe</shell>\n</environment_context>") +
		`{"record_type":"state"}` + "\n" + message("user", "Bitte führe die Tests aus.") +
		`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"python\",\"manage.py\",\"test\"]}","call_id":"c1"}` + "\n"
	f := writeFile(t, "codex", filepath.Join(t.TempDir(), "rollout-2025-09-24T03-08-12-536e9fe6-50d2-47d5-8f38-e15a239afcbc.jsonl"), []byte(lines), "")
	id, project, err := Peek(codex{}, f)
	if err != nil || id != "536e9fe6-50d2-47d5-8f38-e15a239afcbc" || project != CanonicalProject(`E:\ANPR\anpr_system`) {
		t.Fatalf("Peek = %q, %q, %v; want the head's id and the environment's directory", id, project, err)
	}
	r := mustRead(t, f, Cursor{})
	if len(r.Sessions) != 1 || r.Sessions[0].Project != project || !slices.Equal(roleTexts(r, User), []string{"Bitte führe die Tests aus."}) {
		t.Fatalf("read %+v; want one session of %q with the person's one message", r.Sessions, project)
	}
	var dirs []string
	for _, turn := range r.Sessions[0].Turns {
		if turn.Role == Tool {
			dirs = append(dirs, turn.Dir)
		}
	}
	if !slices.Equal(dirs, []string{`E:\ANPR\anpr_system`}) {
		t.Errorf("the shell call ran in %q, want the environment's directory", dirs)
	}
	f = appendFile(t, f, message("user", "Und jetzt den Linter."))
	r2 := mustRead(t, f, r.Cursor)
	if len(r2.Sessions) != 1 || r2.Sessions[0].Project != project {
		t.Errorf("read from the middle: %+v; want the session of %q", r2.Sessions, project)
	}
}

// A subagent thread is left out, also when read from the middle, where its head is not read.
func TestCodexSubagent(t *testing.T) {
	meta := `{"timestamp":"2026-01-03T04:05:10.000Z","type":"session_meta","payload":{"id":"sub","cwd":"/x","source":{"subagent":{"thread_spawn":{"parent_thread_id":"p"}}}}}` + "\n"
	first := meta + codexEvent("user_message", "Inspect fixtures.")
	f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(first), "")
	r := mustRead(t, f, Cursor{})
	f = appendFile(t, f, codexEvent("agent_message", "The fixtures are synthetic."))
	r2 := mustRead(t, f, r.Cursor)
	if len(r.Sessions)+len(r2.Sessions) != 0 || r2.Cursor.Offset != f.Size {
		t.Errorf("subagent thread read as %+v then %+v; want nothing, cursor at the end", r.Sessions, r2.Sessions)
	}
	if _, _, err := Peek(codex{}, f); !errors.Is(err, ErrSubThread) {
		t.Errorf("Peek: %v, want ErrSubThread", err)
	}
}

func TestCodexFailure(t *testing.T) {
	tests := []struct {
		output string // the output field, as JSON
		failed bool
	}{
		{`"{\"output\":\"FAIL\",\"metadata\":{\"exit_code\":1}}"`, true},
		{`"{\"output\":\"ok\",\"metadata\":{\"exit_code\":0}}"`, false},
		{`"Exit code: 2\nWall time: 1s\nOutput:\nboom"`, true},
		{`"Exit code: 0\nOutput:\nfine"`, false},
		{`"plain output"`, false},
		{`"{\"output\":\"x\",\"metadata\":{\"exit_code\": 127}}"`, true},
		{`{"content":"fine","success":true}`, false},
		{`{"content":"denied by sandbox","success":false}`, true},
		{`[{"type":"output_text","text":"Done!"}]`, false},
		// exec_command (unified exec), the form of Codex 0.6x to 0.171: the exit code is a header line.
		{`"Chunk ID: 9e8716\nWall time: 0.8740 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\nrg: src: No such file"`, true},
		{`"Chunk ID: a923bb\nWall time: 0.0001 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nok"`, false},
		{`"Command: /bin/bash -lc make\nWall time: 0.0000 seconds\nProcess exited with code 254\nOutput:\nfork failed"`, true},
		{`"Chunk ID: 3fb0\nWall time: 10.0 seconds\nProcess running with session ID 7\nOriginal token count: 0\nOutput:\n"`, false},
		// A line in the command's own output says nothing of how it ended.
		{`"Chunk ID: x\nProcess exited with code 0\nOutput:\nProcess exited with code 1"`, false},
		{`"plain output\nProcess exited with code 3"`, true}, // no Output: line, a header of one line
		{`[{"type":"input_text","text":"Chunk ID: s\nWall time: 2.5 seconds\nProcess exited with code 1\nOriginal token count: 3\nOutput:\nno match"}]`, true},
	}
	for _, tt := range tests {
		_, failed := codexFailure(tt.output)
		if failed != tt.failed {
			t.Errorf("codexFailure(%s) = %v, want %v", tt.output, failed, tt.failed)
		}
	}
}

// A failed command's error keeps its exit code and output, not the chunk id, wall time and
// token count that would take the room of the output.
func TestCodexFailureText(t *testing.T) {
	text, failed := codexFailure(`"Chunk ID: 9e8716\nWall time: 0.8740 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\npython: command not found"`)
	if want := "Process exited with code 2\npython: command not found"; !failed || text != want {
		t.Errorf("codexFailure = %q, %v; want %q, true", text, failed, want)
	}
}

// What a custom prompt, a compaction or an editor client put in a user message is not the
// person's words: the typed question, the command and its arguments are kept.
func TestCodexNotThePerson(t *testing.T) {
	agents := "# AGENTS.md instructions for /x\n\n<INSTRUCTIONS>\n" + strings.Repeat("Use pnpm, never npm.\n", 900) + "</INSTRUCTIONS>"
	env := "<environment_context>\n  <cwd>/x</cwd>\n  <shell>zsh</shell>\n</environment_context>"
	specify := "## User Input\n\n```text\nBuild a photo album app; albums are never nested\n```\n\n" +
		"You **MUST** consider the user input before proceeding (if not empty).\n\n## Outline\n\n" +
		"The text the user typed after `/speckit.specify` in the triggering message **is** the feature description.\n\n" +
		strings.Repeat("1. Run the script and parse its JSON output.\n", 40)
	noArgs := strings.Replace(specify, "Build a photo album app; albums are never nested", "$ARGUMENTS", 1)
	frontMatter := "---\ndescription: Review the diff\nargument-hint: [files]\n---\n\nReview the staged changes for bugs.\n"
	evaluation := "# Task\n\nYou are evaluating a coding agent.\n\n## Repository\n\n" + strings.Repeat("The repository holds a web shop.\n", 40) +
		"\n## Rubric\n\n- Correctness\n- Tests\n\n## Output\n\nAnswer in JSON.\n"
	report := "The checkout breaks since yesterday's deploy.\n\n## Steps\n\n" + strings.Repeat("Add an item to the cart and open checkout.\n", 40) +
		"\n## Expected\n\nThe total in cents.\n\n## Actual\n\nA float total, rounded twice.\n\nCan we fix it today?"
	summary := "Another language model started to solve this problem and produced a summary of its thinking process. " +
		"You also have access to the state of the tools that were used by that language model.\n\nPlan:\n1. fix the cart\n2. ship"
	tests := []struct {
		name  string
		lines string
		user  []string
		cut   int
	}{
		{"17 KB of AGENTS.md and the environment before the question", codexMessage("user", agents+"\n"+env+"\n\nhow do I run the tests here?"),
			[]string{"how do I run the tests here?"}, 0},
		{"the same, as an event and its twin", codexEvent("user_message", agents+"\n"+env+"\nwhy does CI fail?") +
			codexMessage("user", agents+"\n"+env+"\nwhy does CI fail?"), []string{"why does CI fail?"}, 0},
		{"the IDE extension's context before the request", codexMessage("user", "# Context from my IDE setup:\n\n## Active file: src/cart.ts\n\n## Open tabs:\n- cart.ts: src/cart.ts\n- money.ts: src/money.ts\n\n"+
			"## My request for Codex:\nround only the final price"), []string{"round only the final price"}, 0},
		{"files mentioned, the environment, then the request", codexMessage("user", "# Files mentioned by the user:\n\n## image.png\n\n"+env+"\n\n## My request for Codex:\n请按项目分类显示会话"),
			[]string{"请按项目分类显示会话"}, 0},
		{"an aborted turn's note is cut", codexMessage("user", "<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>\nplease continue the parser fix"),
			[]string{"please continue the parser fix"}, 0},
		{"a ! command is the person's, its output is not", codexMessage("user", "<user_shell_command>\n<command>\nnpm run dev\n</command>\n<result>\nExit code: 0\nDuration: 0.03 seconds\nOutput:\nready on :3000\n</result>\n</user_shell_command>"),
			[]string{"!npm run dev"}, 0},
		{"AGENTS.md alone is cut", codexMessage("user", agents) + codexMessage("user", "fix it"), []string{"fix it"}, 1},
		{"a heading quoted in the person's words stays", codexMessage("user", "what does `# AGENTS.md instructions` mean?"),
			[]string{"what does `# AGENTS.md instructions` mean?"}, 0},
		{"a spec-kit prompt: the command and its arguments", codexEvent("user_message", specify) + codexMessage("user", specify),
			[]string{"/speckit.specify Build a photo album app; albums are never nested"}, 0},
		{"an early spec-kit prompt", codexMessage("user", "The user input to you can be provided directly by the agent or as a command argument - you **MUST** consider it before proceeding with the prompt (if not empty).\n\n"+
			"User input:\n\nAdd dark mode; keep the default theme light\n\nThe text the user typed after `/specify` in the triggering message **is** the feature description.\n\n"+
			strings.Repeat("1. Run the script.\n", 60)), []string{"/specify Add dark mode; keep the default theme light"}, 0},
		{"a spec-kit prompt without arguments is cut", codexMessage("user", noArgs) + codexMessage("user", "go on"), []string{"go on"}, 1},
		{"a prompt file with its front matter", codexMessage("user", frontMatter),
			[]string{"[prompt document, 6 lines, starting: Review the staged changes for bugs.]"}, 0},
		{"a generated evaluation prompt", codexMessage("user", evaluation),
			[]string{"[prompt document, 55 lines, starting: # Task]"}, 0},
		{"a report of sections the person pastes stays", codexMessage("user", report), []string{report}, 0},
		{"a compaction's summary is cut", codexMessage("user", summary) + codexMessage("user", "continue"), []string{"continue"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(codexMeta("id", "/x")+tt.lines), "")
			r := mustRead(t, f, Cursor{})
			if user := roleTexts(r, User); !slices.Equal(user, tt.user) || cutCount(r) != tt.cut {
				t.Errorf("user turns %q, cut %d; want %q, %d", user, cutCount(r), tt.user, tt.cut)
			}
		})
	}
}

// The history a compaction keeps, written again after it, does not reach the digest twice; what
// the person types after it does, even when it repeats something they said.
func TestCodexCompactionReplay(t *testing.T) {
	compacted := jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "compacted",
		"payload": map[string]any{"message": "Plan: 1. fix the cart 2. ship", "replacement_history": []any{}}})
	plan := "Plan:\n1. fix the cart rounding\n2. add a test\n3. ship"
	call := jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "function_call", "name": "update_plan", "arguments": `{"plan":[{"step":"fix the cart","status":"in_progress"}]}`}})
	before := codexEvent("user_message", "fix the cart") + codexMessage("user", "fix the cart") +
		codexEvent("agent_message", plan) + codexMessage("assistant", plan) + call
	tests := []struct {
		name, after string
		want        []string
	}{
		{"the kept history written again", codexMessage("user", "fix the cart") + codexMessage("assistant", plan) + call +
			codexEvent("user_message", "ship it") + codexMessage("user", "ship it"), []string{"ship it"}},
		{"the person says it again", codexEvent("user_message", "fix the cart") + codexMessage("user", "fix the cart"), []string{"fix the cart"}},
		{"a new turn ends the replay", codexMessage("assistant", "Done.") + codexMessage("assistant", plan), []string{"Done.", plan}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := codexMeta("id", "/x") + before + compacted + tt.after
			f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(lines), "")
			got := turnTexts(mustRead(t, f, Cursor{}))
			want := append([]string{"fix the cart", plan, "update_plan: {\"plan\":[{\"step\":\"fix the cart\",\"status\":\"in_progress\"}]}"}, tt.want...)
			if !slices.Equal(got, want) {
				t.Errorf("turns\n%q\nwant\n%q", got, want)
			}
		})
	}
}

func TestCodexFallbackID(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/s/2026/05/15/" + rolloutName, "0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8b"},
		{"/s/rollout-44444444-4444-4444-8444-444444444444.jsonl", "44444444-4444-4444-8444-444444444444"},
		{"/s/rollout-short.jsonl", "rollout-short"},
	}
	for _, tt := range tests {
		if got := codexFallbackID(tt.path); got != tt.want {
			t.Errorf("codexFallbackID(%s) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// recordedFailure holds the records of a failed command in a rollout Codex CLI 0.171.0 wrote
// (recorded by scripts/agents, paths shortened): the person's request, the exec_command call, its
// item_completed event, its output with "Process exited with code 2", the answer and its event.
var recordedFailure = []string{
	`{"timestamp":"2026-11-26T18:56:46.085Z","ordinal":7,"type":"response_item","payload":{"type":"message","id":"msg_01a21937-a204-7c81-a2d7-261bacc1270b","role":"user","content":[{"type":"input_text","text":"Always run make lint before committing. Please run the linter now."}],"internal_chat_message_metadata_passthrough":{"turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","create_time":1795719406.0845854,"content_item_kinds":["user.text"],"content_item_metadata":[{"provenance":{"type":"user"}}]}},"metadata":{"history_sequence":3,"sampled_through_sequence":0,"retained_source":{"id":{"message_id":"msg_01a21937-a204-7c81-a2d7-261bacc1270b","turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","role":"user"},"revision":"retained_01a21937-a204-7c81-a2d7-262707eb2a8b","complete":true},"client_authored":false,"user_input_order":0,"mcp_attribution":{"status":"none"},"model_search_state":"unused"}}`,
	`{"timestamp":"2026-11-26T18:56:46.187Z","ordinal":9,"type":"response_item","payload":{"type":"function_call","status":"completed","id":"fc_fake000017","name":"exec_command","arguments":"{\"cmd\":\"make lint\"}","call_id":"call_fake000018","internal_chat_message_metadata_passthrough":{"turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5"}},"metadata":{"history_sequence":4,"sampled_through_sequence":3,"client_authored":false,"user_input_order":1,"model_search_state":"unused"}}`,
	`{"timestamp":"2026-11-26T18:56:46.458Z","ordinal":11,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a21937-9f2b-7822-bab7-6b52d5529b2d","turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","item":{"type":"CommandExecution","id":"call_fake000018","process_id":"31371","command":["/bin/bash","-lc","make lint"],"cwd":"file:///home/user/src/shop","parsed_cmd":[{"type":"unknown","cmd":"make lint"}],"source":"unified_exec_startup","status":"failed","aggregated_output":"make: *** No rule to make target 'lint'.  Stop.\n","exit_code":2,"duration":{"secs":0,"nanos":14727}},"started_at_ms":1795719406457,"completed_at_ms":1795719406458}}`,
	`{"timestamp":"2026-11-26T18:56:46.465Z","ordinal":12,"type":"response_item","payload":{"type":"function_call_output","id":"fco_01a21937-a381-7ad1-9d7a-6379257f3032","call_id":"call_fake000018","output":"Chunk ID: 4253c1\nWall time: 0.0000 seconds\nProcess exited with code 2\nOriginal token count: 12\nOutput:\nmake: *** No rule to make target 'lint'.  Stop.\n","internal_chat_message_metadata_passthrough":{"turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","create_time":1795719406.465226}},"metadata":{"history_sequence":5,"sampled_through_sequence":3,"client_authored":false,"fallback_token_limit_override":3000,"model_search_state":"unused"}}`,
	`{"timestamp":"2026-11-26T18:56:46.585Z","ordinal":14,"type":"event_msg","payload":{"type":"item_completed","thread_id":"01a21937-9f2b-7822-bab7-6b52d5529b2d","turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","item":{"type":"AgentMessage","id":"msg_fake000020","content":[{"type":"Text","text":"Done: the tool has answered."}]},"started_at_ms":1795719406584,"completed_at_ms":1795719406585}}`,
	`{"timestamp":"2026-11-26T18:56:46.607Z","ordinal":15,"type":"response_item","payload":{"type":"message","status":"completed","id":"msg_fake000020","role":"assistant","content":[{"type":"output_text","text":"Done: the tool has answered.","annotations":[]}],"internal_chat_message_metadata_passthrough":{"turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","content_item_kinds":["unknown"]}},"metadata":{"history_sequence":6,"sampled_through_sequence":5,"retained_source":{"id":{"message_id":"msg_fake000020","turn_id":"01a21937-a08a-76b0-b07f-c92e27938ba5","role":"assistant"},"revision":"retained_01a21937-a40f-7633-84bb-ff6dba20d050","complete":true},"client_authored":false,"user_input_order":2,"model_search_state":"unused"}}`,
}

// Codex 0.171 reports a failed command only in the output's header: it is a tool error again.
func TestCodexRecordedFailure(t *testing.T) {
	lines := codexMeta("01a21937-9f2b-7822-bab7-6b52d5529b2d", "/home/user/src/shop") + strings.Join(recordedFailure, "\n") + "\n"
	f := writeFile(t, "codex", filepath.Join(t.TempDir(), rolloutName), []byte(lines), "")
	r := mustRead(t, f, Cursor{})
	var got []string
	for _, s := range r.Sessions {
		for _, turn := range s.Turns {
			got = append(got, fmt.Sprintf("%s error=%v: %s", turn.Role, turn.IsError, turn.Text))
		}
	}
	want := []string{
		"user error=false: Always run make lint before committing. Please run the linter now.",
		"tool error=false: exec_command: make lint",
		"tool error=true: Process exited with code 2\nmake: *** No rule to make target 'lint'.  Stop.",
		"assistant error=false: Done: the tool has answered.",
	}
	if !slices.Equal(got, want) {
		t.Errorf("turns\n%q\nwant\n%q", got, want)
	}
}

// TestCodexCallIDs gives a function call and the failed output that answers it the call_id:
// which of two calls in a row failed is known by it.
func TestCodexCallIDs(t *testing.T) {
	call := func(id, cmd string) string {
		return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
			"payload": map[string]any{"type": "function_call", "name": "exec_command", "call_id": id, "arguments": `{"cmd":"` + cmd + `"}`}})
	}
	output := func(id, out string) string {
		return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
			"payload": map[string]any{"type": "function_call_output", "call_id": id, "output": out}})
	}
	lines := codexMeta("0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8c", "/home/ana/shop") + codexMessage("user", "run the checks") +
		call("call_1", "npm test") + output("call_1", "Process exited with code 0\nOutput:\n12 passed") +
		call("call_2", "npm run lint") + output("call_2", "Process exited with code 1\nOutput:\n3 problems")
	f := writeFile(t, "codex", filepath.Join(t.TempDir(), "2026", "05", "15", "rollout-2026-05-15T09-00-00-0199a7c2-5d2e-7f30-9a1b-3c4d5e6f7a8c.jsonl"), []byte(lines), "")
	var got []string
	for _, s := range mustRead(t, f, Cursor{}).Sessions {
		for _, turn := range s.Turns {
			if turn.Role == Tool {
				got = append(got, fmt.Sprintf("%s %v", turn.Call, turn.IsError))
			}
		}
	}
	if want := []string{"call_1 false", "call_2 false", "call_2 true"}; !slices.Equal(got, want) {
		t.Errorf("tool turns %q, want %q", got, want)
	}
}
