package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"sync/atomic"
)

var ids atomic.Int64

func nextID(prefix string) string { return fmt.Sprintf("%s_fake%06d", prefix, ids.Add(1)) }

// anthropic answers POST /v1/messages (Claude Code), streamed or not as the request asks.
func (s *server) anthropic(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var t turn
	for _, tool := range req.Tools {
		t.tools = append(t.tools, tool.Name)
	}
	// Claude Code 2.1 appends a "system" message after the person's; the turn is the last
	// message of the conversation proper.
	msgs := req.Messages
	for len(msgs) > 0 && msgs[len(msgs)-1].Role == "system" {
		msgs = msgs[:len(msgs)-1]
	}
	if n := len(msgs); n > 0 && msgs[n-1].Role == "user" {
		last := msgs[n-1].Content
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(last, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "tool_result" {
					t.toolResult = true
				}
			}
		}
		t.text = textOf(last)
	}
	a := s.decide(t, body)
	log.Printf("anthropic %s tools=%d result=%v → %s", req.Model, len(t.tools), t.toolResult, describe(a))

	block := map[string]any{"type": "text", "text": ""}
	delta := map[string]any{"type": "text_delta", "text": a.text}
	stop := "end_turn"
	if a.tool != "" {
		block = map[string]any{"type": "tool_use", "id": nextID("toolu"), "name": a.tool, "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": mustJSON(a.args)}
		stop = "tool_use"
	}
	usage := map[string]any{"input_tokens": 100, "output_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	id := nextID("msg")
	if !req.Stream {
		content := map[string]any{"type": "text", "text": a.text}
		if a.tool != "" {
			content = map[string]any{"type": "tool_use", "id": block["id"], "name": a.tool, "input": a.args}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content": []any{content}, "stop_reason": stop, "stop_sequence": nil, "usage": usage})
		return
	}
	send := sse(w)
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": req.Model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
	send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// responses answers POST /v1/responses (Codex CLI), always streamed.
func (s *server) responses(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string            `json:"model"`
		Input []json.RawMessage `json:"input"`
		Tools []struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"` // of a namespace: Codex puts each MCP server's tools in one
		} `json:"tools"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var t turn
	namespaceOf := map[string][2]string{} // flat name → namespace, name
	for _, tool := range req.Tools {
		if tool.Type != "namespace" {
			t.tools = append(t.tools, tool.Name)
			continue
		}
		for _, sub := range tool.Tools {
			flat := tool.Name + "__" + sub.Name
			t.tools = append(t.tools, flat)
			namespaceOf[flat] = [2]string{tool.Name, sub.Name}
		}
	}
	if n := len(req.Input); n > 0 {
		var item struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		}
		json.Unmarshal(req.Input[n-1], &item)
		switch {
		case strings.HasSuffix(item.Type, "_call_output"):
			t.toolResult = true
		case item.Role == "user":
			t.text = textOf(item.Content)
		}
	}
	a := s.decide(t, body)
	log.Printf("responses %s tools=%v result=%v → %s", req.Model, t.tools, t.toolResult, describe(a))

	respID := nextID("resp")
	send := sse(w)
	send("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": respID}})
	var item map[string]any
	if a.tool != "" {
		item = map[string]any{"type": "function_call", "id": nextID("fc"), "call_id": nextID("call"), "name": a.tool,
			"arguments": mustJSON(a.args), "status": "completed"}
		if ns, ok := namespaceOf[a.tool]; ok {
			item["namespace"], item["name"] = ns[0], ns[1]
		}
	} else {
		item = map[string]any{"type": "message", "id": nextID("msg"), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": a.text, "annotations": []any{}}}}
		send("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
			"item": map[string]any{"type": "message", "id": item["id"], "role": "assistant", "status": "in_progress", "content": []any{}}})
		send("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": item["id"],
			"output_index": 0, "content_index": 0, "delta": a.text})
	}
	send("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	send("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": respID, "status": "completed",
		"usage": map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}}})
}

// gemini answers POST /v1beta/models/{model}:{generateContent|streamGenerateContent|countTokens}.
func (s *server) gemini(w http.ResponseWriter, r *http.Request) {
	call := r.PathValue("call")
	model, method, _ := strings.Cut(call, ":")
	if method == "countTokens" {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"totalTokens":100}`)
		return
	}
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				Text             string          `json:"text"`
				FunctionResponse json.RawMessage `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
		GenerationConfig struct {
			ResponseMimeType string `json:"responseMimeType"`
		} `json:"generationConfig"`
	}
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var t turn
	for _, tool := range req.Tools {
		for _, fd := range tool.FunctionDeclarations {
			t.tools = append(t.tools, fd.Name)
		}
	}
	t.wantsJSON = req.GenerationConfig.ResponseMimeType == "application/json"
	if n := len(req.Contents); n > 0 && req.Contents[n-1].Role == "user" {
		for _, p := range req.Contents[n-1].Parts {
			if len(p.FunctionResponse) > 0 {
				t.toolResult = true
			}
			t.text += p.Text + "\n"
		}
	}
	a := s.decide(t, body)
	log.Printf("gemini %s %s tools=%v result=%v → %s", model, method, t.tools, t.toolResult, describe(a))

	part := map[string]any{"text": a.text}
	if a.tool != "" {
		part = map[string]any{"functionCall": map[string]any{"name": a.tool, "args": a.args}}
	}
	resp := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110},
		"modelVersion":  model,
	}
	if method == "streamGenerateContent" {
		sse(w)("", resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(resp)
}

func describe(a action) string {
	if a.tool != "" {
		return "tool " + a.tool + " " + mustJSON(a.args)
	}
	return "text " + a.text
}

// chat answers POST /v1/chat/completions and /chat/completions (OpenAI Chat Completions: OpenCode,
// Kilo, Crush and the other agents with an OpenAI-compatible provider), streamed or not as the
// request asks. dreamd's own consolidation call comes to the same path and is answered by
// consolidation instead.
func (s *server) chat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if isDreamd(body) {
		s.consolidation(w, r)
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	t := req.turn()
	a := s.decide(t, body)
	log.Printf("chat %s tools=%v result=%v → %s", req.Model, t.tools, t.toolResult, describe(a))

	id, created := nextID("chatcmpl"), 1767225600
	usage := map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
	finish := "stop"
	var call map[string]any
	if a.tool != "" {
		finish = "tool_calls"
		call = map[string]any{"id": nextID("call"), "type": "function",
			"function": map[string]any{"name": a.tool, "arguments": mustJSON(a.args)}}
	}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": a.text}
		if call != nil {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{call}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "object": "chat.completion", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	send := sse(w)
	send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	if call != nil {
		call["index"] = 0
		send("", chunk(map[string]any{"tool_calls": []any{call}}, nil))
	} else {
		send("", chunk(map[string]any{"content": a.text}, nil))
	}
	last := chunk(map[string]any{}, finish)
	last["usage"] = usage // with stream_options.include_usage, some clients want it on a chunk
	send("", last)
	done(w)
}

// chatRequest is the part of a Chat Completions request the script reads.
type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// turn is the request's last message: a tool result, or the person's text.
func (req chatRequest) turn() turn {
	var t turn
	for _, tool := range req.Tools {
		t.tools = append(t.tools, tool.Function.Name)
	}
	if n := len(req.Messages); n > 0 {
		switch last := req.Messages[n-1]; last.Role {
		case "tool":
			t.toolResult = true
		case "user":
			t.text = textOf(last.Content)
		}
	}
	return t
}

// dreamdPrompts start the system messages of dreamd's own calls: the consolidation and the probe
// of the endpoint's shape.
var dreamdPrompts = []string{
	"You maintain the long-term memory of a coding agent.",
	"You check that a JSON API works.",
}

// isDreamd reports whether a Chat Completions request is dreamd's own call rather than an agent's.
func isDreamd(body []byte) bool {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 || req.Messages[0].Role != "system" {
		return false
	}
	system := textOf(req.Messages[0].Content)
	for _, p := range dreamdPrompts {
		if strings.HasPrefix(system, p) {
			return true
		}
	}
	return false
}
