package transcript

import (
	"encoding/json"
	"time"
)

// Builders of real-shaped records for tests that need many or unusual ones.

var recordTime = time.Date(2026, 5, 15, 8, 0, 0, 0, time.UTC)

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// claudeUser is a Claude Code user record with the given text content.
func claudeUser(uuid, text string) string {
	return jsonLine(map[string]any{
		"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/ana/shop",
		"sessionId": "2ff46cd5-f4e7-4724-bb20-579dae7956ea", "version": "2.0.31", "gitBranch": "main",
		"type": "user", "message": map[string]any{"role": "user", "content": text},
		"uuid": uuid, "timestamp": recordTime.Format(time.RFC3339Nano),
	})
}

// claudeAssistant is a Claude Code assistant record with content blocks.
func claudeAssistant(uuid, msgID string, blocks ...map[string]any) string {
	return jsonLine(map[string]any{
		"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/ana/shop",
		"sessionId": "2ff46cd5-f4e7-4724-bb20-579dae7956ea", "version": "2.0.31", "type": "assistant",
		"uuid": uuid, "timestamp": recordTime.Format(time.RFC3339Nano),
		"message": map[string]any{"id": msgID, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5", "content": blocks},
	})
}

func textBlock(text string) map[string]any {
	return map[string]any{"type": "text", "text": text}
}

// claudeToolResult is a user record carrying one tool result.
func claudeToolResult(uuid, content string, isError bool) string {
	return jsonLine(map[string]any{
		"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/ana/shop",
		"sessionId": "2ff46cd5-f4e7-4724-bb20-579dae7956ea", "version": "2.0.31", "type": "user",
		"message": map[string]any{"role": "user", "content": []any{map[string]any{
			"tool_use_id": "toolu_" + uuid, "type": "tool_result", "content": content, "is_error": isError}}},
		"uuid": uuid, "timestamp": recordTime.Format(time.RFC3339Nano),
		"toolUseResult": map[string]any{"stdout": content, "stderr": "", "interrupted": false, "isImage": false},
	})
}

func codexMeta(id, cwd string) string {
	return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "session_meta",
		"payload": map[string]any{"id": id, "timestamp": recordTime.Format(time.RFC3339Nano), "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.46.0", "source": "cli"}})
}

func codexEvent(kind, message string) string {
	return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "event_msg",
		"payload": map[string]any{"type": kind, "message": message}})
}

func codexMessage(role, text string) string {
	part := "input_text"
	if role == "assistant" {
		part = "output_text"
	}
	return jsonLine(map[string]any{"timestamp": recordTime.Format(time.RFC3339Nano), "type": "response_item",
		"payload": map[string]any{"type": "message", "role": role, "content": []any{map[string]any{"type": part, "text": text}}}})
}

func geminiMeta(id, dir string) string {
	return jsonLine(map[string]any{"sessionId": id, "projectHash": "ab12", "startTime": recordTime.Format(time.RFC3339Nano),
		"lastUpdated": recordTime.Format(time.RFC3339Nano), "directories": []string{dir}})
}

func geminiMsg(id, typ, text string) string {
	return jsonLine(map[string]any{"id": id, "timestamp": recordTime.Format(time.RFC3339Nano), "type": typ, "content": text})
}

func chatLine(role, text string) string {
	return jsonLine(map[string]any{"role": role, "content": text})
}
