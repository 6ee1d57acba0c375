package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

var planted = []lesson{
	{Marker: "golden-amber-100", Text: "Remember that the p1 fixtures live in testdata/golden-amber-100."},
	{Marker: "ship-onyx-101", Text: "Always deploy p1 with ./scripts/ship-onyx-101.sh, never by hand."},
	{Marker: "logs-fern-102", Text: "I prefer the p2 service logs under /var/log/logs-fern-102, keep them there."},
}

// TestServesGoOpenAI drives the server with the client dreamd uses, in strict json_schema mode.
func TestServesGoOpenAI(t *testing.T) {
	var log bytes.Buffer
	h := newHandler(&log, planted)
	srv := httptest.NewServer(h.routes())
	defer srv.Close() // closing twice is fine
	cfg := openai.DefaultConfig("bench")
	cfg.BaseURL = srv.URL + "/v1"
	client := openai.NewClientWithConfig(cfg)
	resp, err := client.CreateChatCompletion(context.Background(), openai.ChatCompletionRequest{
		Model: "bench",
		Messages: []openai.ChatCompletionMessage{
			{Role: "system", Content: "Consolidate."},
			{Role: "user", Content: "<session>\nuser: " + planted[0].Text + "\nuser: the ship-onyx-101 script, rewritten\n</session>"},
		},
		ResponseFormat: &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "consolidation", Strict: true, Schema: json.RawMessage(`{"type":"object"}`)},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Summary    string `json:"summary"`
		Operations []any  `json:"operations"`
	}
	if err := json.Unmarshal([]byte(resp.Choices[0].Message.Content), &got); err != nil || got.Summary == "" || got.Operations == nil {
		t.Fatalf("reply %q is not an empty consolidation (%v)", resp.Choices[0].Message.Content, err)
	}
	srv.Close()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	var e entry
	if err := json.Unmarshal(log.Bytes(), &e); err != nil {
		t.Fatalf("request log %q: %v", log.String(), err)
	}
	if e.Messages != 2 || e.Bytes == 0 || e.Tokens < 20 || resp.Usage.PromptTokens != e.Bytes/4 {
		t.Errorf("logged %+v, usage %+v", e, resp.Usage)
	}
	if strings.Join(e.Lessons, ",") != "golden-amber-100,ship-onyx-101" || strings.Join(e.Verbatim, ",") != "golden-amber-100" {
		t.Errorf("lessons %v verbatim %v, want both markers and the first verbatim", e.Lessons, e.Verbatim)
	}
}

func TestRejectsBadRequests(t *testing.T) {
	h := newHandler(&bytes.Buffer{}, nil)
	srv := httptest.NewServer(h.routes())
	defer h.Close()
	defer srv.Close()
	tests := []struct {
		method, path, body string
		want               int
	}{
		{"POST", "/v1/chat/completions", "not json", http.StatusBadRequest},
		{"GET", "/v1/chat/completions", "", http.StatusMethodNotAllowed},
		{"POST", "/v1/embeddings", "{}", http.StatusNotFound},
		{"POST", "/chat/completions", `{"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`, http.StatusOK},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, srv.URL+tt.path, strings.NewReader(tt.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s %q: status %d, want %d", tt.method, tt.path, tt.body, resp.StatusCode, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	log := strings.Join([]string{
		`{"bytes":100,"tokens":40,"in_flight":1,"lessons":["golden-amber-100"],"verbatim":["golden-amber-100"]}`,
		`{"bytes":300,"tokens":90,"in_flight":3,"lessons":["ship-onyx-101"],"verbatim":[]}`,
		`{"bytes":200,"tokens":70,"lessons":[],"verbatim":[]}`,
	}, "\n") + "\n"
	s, err := summarize(strings.NewReader(log), planted)
	if err != nil {
		t.Fatal(err)
	}
	want := summary{Requests: 3, MaxBytes: 300, MaxTokens: 90, TotalTokens: 200, MaxInFlight: 3, Found: 2, Verbatim: 1, Missing: []string{"logs-fern-102"}}
	if g, w := jsonOf(s), jsonOf(want); g != w {
		t.Errorf("summarize = %s, want %s", g, w)
	}
	if _, err := summarize(strings.NewReader("{broken\n"), planted); err == nil {
		t.Error("summarize of a broken log succeeded")
	}
}

// TestLatencyCountsInFlight: with -latency, requests sent together are held together, and the log
// says how many were in flight at once.
func TestLatencyCountsInFlight(t *testing.T) {
	var log bytes.Buffer
	h := newHandler(&log, nil)
	h.latency = 200 * time.Millisecond
	srv := httptest.NewServer(h.routes())
	defer srv.Close()
	const n = 3
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			resp, err := http.Post(srv.URL+"/v1/chat/completions", "application/json",
				strings.NewReader(`{"messages":[{"role":"user","content":"hi"}]}`))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		})
	}
	wg.Wait()
	if took := time.Since(start); took < h.latency {
		t.Errorf("%d requests answered in %v, before the latency of %v", n, took, h.latency)
	}
	srv.Close()
	if got := h.MaxInFlight(); got != n {
		t.Errorf("MaxInFlight = %d, want %d", got, n)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := summarize(&log, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Requests != n || s.MaxInFlight != n {
		t.Errorf("summary of %d requests, %d in flight at most; want %d and %d", s.Requests, s.MaxInFlight, n, n)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzMessageText: any content decodes to some text without panicking, and a JSON string content
// is returned exactly.
func FuzzMessageText(f *testing.F) {
	f.Add([]byte(`"plain"`))
	f.Add([]byte(`[{"type":"text","text":"a"},{"type":"text","text":"b"}]`))
	f.Add([]byte(`{"odd":1}`))
	f.Fuzz(func(t *testing.T, content []byte) {
		got := chatMessage{Content: content}.text()
		var s string
		if json.Unmarshal(content, &s) == nil && got != s {
			t.Fatalf("text of %q = %q, want %q", content, got, s)
		}
	})
}
