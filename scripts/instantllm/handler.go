package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dreamd/dreamd/internal/tokens"
)

// reply is the consolidation every request gets: valid under the strict schema, changing nothing.
const reply = `{"summary":"instantllm: benchmark response, no changes.","operations":[]}`

// entry is one line of the request log.
type entry struct {
	Time     time.Time `json:"time"`
	Model    string    `json:"model"`
	Bytes    int       `json:"bytes"`     // the request body
	Tokens   int       `json:"tokens"`    // approximate prompt tokens: messages, schema, chat overhead
	Messages int       `json:"messages"`  // chat messages in the request
	InFlight int       `json:"in_flight"` // requests being served when this one arrived, itself included
	Lessons  []string  `json:"lessons"`   // markers of the planted lessons the messages carry
	Verbatim []string  `json:"verbatim"`  // of those, the ones whose whole text is there unchanged
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

// handler answers at once and does its accounting (token counts take a while on a large prompt)
// only in Close, after the benchmark's timed runs: on the same cores, accounting while dreamd runs
// would be measured as dreamd's time.
type handler struct {
	log     io.Writer
	lessons []lesson
	// latency is how long every reply is held back, as a remote model would take; with it, the
	// in-flight count shows how many calls a client keeps open at once.
	latency  time.Duration
	inFlight atomic.Int64
	mu       sync.Mutex
	pending  []request // received, in order, not yet accounted for
	maxSeen  int       // the most requests in flight at once
}

// request is a received chat completion, waiting to be accounted for.
type request struct {
	at       time.Time
	size     int
	inFlight int
	chat     chatRequest
}

func newHandler(log io.Writer, lessons []lesson) *handler {
	return &handler{log: log, lessons: lessons}
}

func (h *handler) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", h.complete)
	mux.HandleFunc("POST /chat/completions", h.complete)
	return mux
}

func (h *handler) complete(w http.ResponseWriter, r *http.Request) {
	// Counted from arrival to the reply, so that a request held by -latency counts as in flight.
	// The count only grows on an arrival, so the largest count seen at arrivals is the maximum.
	inFlight := int(h.inFlight.Add(1))
	defer h.inFlight.Add(-1)
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
	now := time.Now()
	if h.latency > 0 {
		select {
		case <-time.After(h.latency):
		case <-r.Context().Done(): // the client gave up: no one reads the reply
			return
		}
	}
	// Usage is a byte estimate: the exact count is the log's, made after the reply is sent.
	promptTokens := len(body) / 4
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id":      fmt.Sprintf("chatcmpl-instant-%d", now.UnixNano()),
		"object":  "chat.completion",
		"created": now.Unix(),
		"model":   req.Model,
		"choices": []map[string]any{{
			"index":         0,
			"message":       map[string]string{"role": "assistant", "content": reply},
			"finish_reason": "stop",
		}},
		"usage": map[string]int{"prompt_tokens": promptTokens, "completion_tokens": 20, "total_tokens": promptTokens + 20},
	})
	h.mu.Lock()
	h.pending = append(h.pending, request{at: now, size: len(body), inFlight: inFlight, chat: req})
	h.maxSeen = max(h.maxSeen, inFlight)
	h.mu.Unlock()
}

// Close logs every request received, in order. The server must not call complete any more.
func (h *handler) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.pending {
		e := h.inspect(r.chat, r.size, r.at)
		e.InFlight = r.inFlight
		if err := h.record(e); err != nil {
			return err
		}
	}
	h.pending = nil
	return nil
}

// MaxInFlight is the most requests that were being served at once.
func (h *handler) MaxInFlight() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.maxSeen
}

// inspect measures a request and finds the planted lessons in its messages.
func (h *handler) inspect(req chatRequest, size int, at time.Time) entry {
	e := entry{Time: at, Model: req.Model, Bytes: size, Messages: len(req.Messages), Lessons: []string{}, Verbatim: []string{}}
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
	_, err = h.log.Write(append(line, '\n'))
	return err
}
