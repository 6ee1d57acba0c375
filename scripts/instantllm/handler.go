package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/tokens"
)

// reply is the consolidation every request gets: valid under the strict schema, changing nothing.
const reply = `{"summary":"instantllm: benchmark response, no changes.","operations":[]}`

// entry is one line of the request log.
type entry struct {
	Time     time.Time `json:"time"`
	Model    string    `json:"model"`
	Bytes    int       `json:"bytes"`    // the request body
	Tokens   int       `json:"tokens"`   // approximate prompt tokens: messages, schema, chat overhead
	Messages int       `json:"messages"` // chat messages in the request
	Lessons  []string  `json:"lessons"`  // markers of the planted lessons the messages carry
	Verbatim []string  `json:"verbatim"` // of those, the ones whose whole text is there unchanged
}

// chatRequest is the part of an OpenAI chat completion request instantllm reads.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	ResponseFormat json.RawMessage `json:"response_format"`
}

type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string, or an array of {type, text} parts
}

// text returns a message's content as one string.
func (m chatMessage) text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(m.Content, &parts)
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\n")
}

// Chat formats add a few tokens per message and for priming the reply (as dreamd counts them).
const (
	messageOverhead = 4
	replyOverhead   = 3
)

type handler struct {
	mu      sync.Mutex
	log     io.Writer
	lessons []lesson
}

func newHandler(log io.Writer, lessons []lesson) http.Handler {
	h := &handler{log: log, lessons: lessons}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", h.complete)
	mux.HandleFunc("POST /chat/completions", h.complete)
	return mux
}

func (h *handler) complete(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, "request is not a chat completion: "+err.Error(), http.StatusBadRequest)
		return
	}
	e := h.inspect(req, len(body))
	if err := h.record(e); err != nil {
		http.Error(w, "writing the request log: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-instant-%d", e.Time.UnixNano()),
		"object":  "chat.completion",
		"created": e.Time.Unix(),
		"model":   req.Model,
		"choices": []map[string]any{{
			"index":         0,
			"message":       map[string]string{"role": "assistant", "content": reply},
			"finish_reason": "stop",
		}},
		"usage": map[string]int{"prompt_tokens": e.Tokens, "completion_tokens": 20, "total_tokens": e.Tokens + 20},
	})
}

// inspect measures a request and finds the planted lessons in its messages.
func (h *handler) inspect(req chatRequest, size int) entry {
	e := entry{Time: time.Now(), Model: req.Model, Bytes: size, Messages: len(req.Messages), Lessons: []string{}, Verbatim: []string{}}
	var all strings.Builder
	for _, m := range req.Messages {
		t := m.text()
		e.Tokens += tokens.Count(t) + messageOverhead
		all.WriteString(t)
		all.WriteByte('\n')
	}
	if len(req.ResponseFormat) > 0 {
		e.Tokens += tokens.Count(string(req.ResponseFormat))
	}
	e.Tokens += replyOverhead
	prompt := all.String()
	for _, l := range h.lessons {
		if strings.Contains(prompt, l.Marker) {
			e.Lessons = append(e.Lessons, l.Marker)
			if strings.Contains(prompt, l.Text) {
				e.Verbatim = append(e.Verbatim, l.Marker)
			}
		}
	}
	return e
}

func (h *handler) record(e entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	_, err = h.log.Write(append(line, '\n'))
	return err
}
