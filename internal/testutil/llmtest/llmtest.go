// Package llmtest is an OpenAI-compatible chat-completions server for tests: it records every
// request and answers each from a script, so tests run with no network and no key.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Request is one recorded chat-completion request.
type Request struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Raw            []byte          `json:"-"`
}

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Strict reports whether the request asked for the strict json_schema named name.
func (r Request) Strict(name string) bool {
	var f struct {
		Type       string `json:"type"`
		JSONSchema struct {
			Name   string `json:"name"`
			Strict bool   `json:"strict"`
		} `json:"json_schema"`
	}
	return json.Unmarshal(r.ResponseFormat, &f) == nil && f.Type == "json_schema" && f.JSONSchema.Name == name && f.JSONSchema.Strict
}

// User returns the text of the request's user messages.
func (r Request) User() string {
	var b strings.Builder
	for _, m := range r.Messages {
		if m.Role == "user" {
			b.WriteString(m.Content)
		}
	}
	return b.String()
}

// Reply is one scripted answer.
type Reply struct {
	Status  int               // 0 = 200
	Header  map[string]string // e.g. Retry-After
	Content string            // the assistant message content (for 200)
	Body    string            // a raw body instead of a completion (errors, garbage)
}

// Server is a scripted OpenAI-compatible endpoint.
type Server struct {
	*httptest.Server
	mu       sync.Mutex
	requests []Request
	script   []Reply
	// Respond, when set, answers requests the script does not cover.
	Respond func(Request) Reply
}

// New starts a server that answers with the script, in order; past its end, with Respond, else 500.
func New(script ...Reply) *Server {
	s := &Server{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// BaseURL is the base URL to configure (…/v1).
func (s *Server) BaseURL() string { return s.Server.URL + "/v1" }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req Request
	_ = json.Unmarshal(body, &req)
	req.Raw = body

	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, req)
	var reply Reply
	switch {
	case n < len(s.script):
		reply = s.script[n]
	case s.Respond != nil:
		reply = s.Respond(req)
	default:
		reply = Reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"script exhausted","type":"server_error"}}`}
	}
	s.mu.Unlock()

	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if reply.Body != "" || status != http.StatusOK {
		io.WriteString(w, reply.Body)
		return
	}
	completion := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-%d", n),
		"object":  "chat.completion",
		"created": 1763700000,
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": reply.Content},
			"finish_reason": "stop",
		}},
		"usage": map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": len(reply.Content) / 4, "total_tokens": len(body)/4 + len(reply.Content)/4},
	}
	json.NewEncoder(w).Encode(completion)
}

// Ops is a convenience for scripting a consolidation response.
func Ops(summary string, ops ...map[string]any) string {
	for _, op := range ops {
		for _, k := range []string{"merged_from", "supersedes", "evidence"} {
			if _, ok := op[k]; !ok {
				op[k] = []string{}
			}
		}
		for _, k := range []string{"type", "description", "body", "reason"} {
			if _, ok := op[k]; !ok {
				op[k] = ""
			}
		}
	}
	if ops == nil {
		ops = []map[string]any{}
	}
	b, _ := json.Marshal(map[string]any{"summary": summary, "operations": ops})
	return string(b)
}
