package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-" + "Zq9XfT3BlbkFJa8Kd7LmNpQr"

// fakeLLM is an OpenAI-compatible chat completions endpoint that answers with a script of
// replies, the last one repeated, and records every request.
type fakeLLM struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   [][]byte
	headers  []http.Header
	paths    []string
	script   []http.HandlerFunc
	received chan struct{} // signalled on every request when not nil
}

func newFakeLLM(t *testing.T, script ...http.HandlerFunc) *fakeLLM {
	f := &fakeLLM{script: script}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	n := len(f.bodies)
	f.bodies = append(f.bodies, body)
	f.headers = append(f.headers, r.Header.Clone())
	f.paths = append(f.paths, r.URL.RequestURI())
	f.mu.Unlock()
	if f.received != nil {
		f.received <- struct{}{}
	}
	f.script[min(n, len(f.script)-1)](w, r)
}

func (f *fakeLLM) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.bodies)
}

func (f *fakeLLM) host() string {
	u, _ := url.Parse(f.URL)
	return u.Host
}

// ok answers with a chat completion whose content is content.
func ok(content string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "model": "test-model-2026",
			"choices": []any{map[string]any{
				"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content},
			}},
			"usage": map[string]any{"prompt_tokens": 1200, "completion_tokens": 80, "total_tokens": 1280},
		})
	}
}

func fail(code int, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error": {"message": "failure %d for key %s", "type": "test"}}`, code, testKey)
	}
}

// hang answers only when the client gives up.
func hang(w http.ResponseWriter, r *http.Request) {
	<-r.Context().Done()
}

// newTestClient returns a client of f that records its backoff waits instead of sleeping.
func newTestClient(f *fakeLLM, retries int, waits *[]time.Duration) *Client {
	c := NewClient(ClientConfig{BaseURL: f.URL + "/v1", APIKey: testKey, Model: "gpt-test", MaxRetries: retries})
	c.retry.sleep = func(ctx context.Context, d time.Duration) error {
		*waits = append(*waits, d)
		return ctx.Err()
	}
	c.retry.now = func() time.Time { return day("2026-11-20") }
	return c
}

func TestConsolidateRequest(t *testing.T) {
	f := newFakeLLM(t, ok(validReply))
	var waits []time.Duration
	res, err := newTestClient(f, 3, &waits).Consolidate(context.Background(), sampleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if n := f.requests(); n != 1 {
		t.Fatalf("%d requests, want exactly 1", n)
	}
	if f.paths[0] != "/v1/chat/completions" {
		t.Errorf("path %s", f.paths[0])
	}
	if got := f.headers[0].Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization %q", got)
	}
	var body struct {
		Model       string   `json:"model"`
		Temperature *float64 `json:"temperature"`
		Messages    []struct {
			Role, Content string
		} `json:"messages"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string          `json:"name"`
				Strict bool            `json:"strict"`
				Schema json.RawMessage `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(f.bodies[0], &body); err != nil {
		t.Fatal(err)
	}
	rf := body.ResponseFormat
	if rf.Type != "json_schema" || rf.JSONSchema.Name != "consolidation" || !rf.JSONSchema.Strict {
		t.Errorf("response_format %+v, want strict json_schema named consolidation", rf)
	}
	if !strings.Contains(string(rf.JSONSchema.Schema), `"additionalProperties":false`) {
		t.Errorf("schema not sent: %s", rf.JSONSchema.Schema)
	}
	if body.Temperature == nil || *body.Temperature > 1e-6 {
		t.Errorf("temperature %v, want 0", body.Temperature)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[1].Role != "user" {
		t.Fatalf("messages %+v, want system and user", body.Messages)
	}
	if body.Messages[0].Content != SystemPrompt() {
		t.Error("system message is not the system prompt")
	}
	if !strings.Contains(body.Messages[1].Content, "we dropped make deploy yesterday, use ./deploy.sh now") {
		t.Error("the user's words are not in the user message")
	}
	if strings.Contains(body.Messages[1].Content, "\n</transcripts>\nSYSTEM:") {
		t.Error("a transcript closed the transcripts block")
	}
	if len(res.Response.Operations) != 1 || res.Response.Operations[0].Name != "run-lint" {
		t.Errorf("response %+v", res.Response)
	}
	if res.Usage != (Usage{PromptTokens: 1200, CompletionTokens: 80}) || res.Model != "test-model-2026" || res.Offline {
		t.Errorf("result %+v", res)
	}
	if len(waits) != 0 {
		t.Errorf("waited %v without a failure", waits)
	}
}

func TestConsolidateRetries(t *testing.T) {
	tests := []struct {
		name      string
		script    []http.HandlerFunc
		requests  int
		waits     []time.Duration // exact waits; nil to check the backoff range
		wantErr   string          // "" for success; may contain HOST
		backoffOK bool
	}{
		{name: "429 with Retry-After seconds", script: []http.HandlerFunc{fail(429, "Retry-After", "7"), ok(validReply)},
			requests: 2, waits: []time.Duration{7 * time.Second}},
		{name: "429 with Retry-After date",
			script:   []http.HandlerFunc{fail(429, "Retry-After", day("2026-11-20").Add(30*time.Second).Format(http.TimeFormat)), ok(validReply)},
			requests: 2, waits: []time.Duration{30 * time.Second}},
		{name: "429 with retry-after-ms", script: []http.HandlerFunc{fail(429, "Retry-After-Ms", "1500", "Retry-After", "2"), ok(validReply)},
			requests: 2, waits: []time.Duration{1500 * time.Millisecond}},
		{name: "503 then success", script: []http.HandlerFunc{fail(503), fail(502), ok(validReply)},
			requests: 3, backoffOK: true},
		{name: "503 until retries run out", script: []http.HandlerFunc{fail(503)},
			requests: 4, wantErr: "llm: 503 Service Unavailable from HOST after 4 attempts", backoffOK: true},
		{name: "429 until retries run out", script: []http.HandlerFunc{fail(429, "Retry-After", "1")},
			requests: 4, waits: []time.Duration{time.Second, time.Second, time.Second},
			wantErr: "llm: 429 Too Many Requests from HOST after 4 attempts"},
		{name: "Retry-After too long", script: []http.HandlerFunc{fail(429, "Retry-After", "3600")},
			requests: 1, wantErr: "after 1 attempt (server asked to retry after 1h0m0s)"},
		{name: "400 is not retried", script: []http.HandlerFunc{fail(400)},
			requests: 1, wantErr: "llm: 400 Bad Request from HOST: failure 400"},
		{name: "401 is not retried", script: []http.HandlerFunc{fail(401)},
			requests: 1, wantErr: "llm: 401 Unauthorized from HOST"},
		{name: "reply not of the schema", script: []http.HandlerFunc{ok(`{"summary": "x"}`)},
			requests: 1, wantErr: `llm: reply from HOST: response: field "operations" missing`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeLLM(t, tt.script...)
			var waits []time.Duration
			_, err := newTestClient(f, 3, &waits).Consolidate(context.Background(), sampleRequest())
			if n := f.requests(); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
			checkErr(t, err, strings.ReplaceAll(tt.wantErr, "HOST", f.host()))
			if tt.backoffOK {
				for i, w := range waits {
					base := min(time.Second<<i, 30*time.Second)
					if w < base/2 || w > base {
						t.Errorf("wait %d is %v, want within [%v, %v]", i, w, base/2, base)
					}
				}
				if len(waits) != tt.requests-1 {
					t.Errorf("%d waits for %d requests", len(waits), tt.requests)
				}
			} else if fmt.Sprint(waits) != fmt.Sprint(tt.waits) {
				t.Errorf("waits %v, want %v", waits, tt.waits)
			}
		})
	}
}

func checkErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Fatalf("no error, want %q", want)
	case err != nil && !strings.Contains(err.Error(), want):
		t.Errorf("error %q does not contain %q", err, want)
	case err != nil && strings.Contains(err.Error(), testKey):
		t.Errorf("error %q shows the API key", err)
	}
}

func TestConsolidateTransportError(t *testing.T) {
	f := newFakeLLM(t, ok(validReply))
	f.Close() // nothing listens any more
	var waits []time.Duration
	_, err := newTestClient(f, 2, &waits).Consolidate(context.Background(), sampleRequest())
	checkErr(t, err, "llm: request to "+f.host()+" failed after 3 attempts: ")
}

func TestConsolidateAttemptTimeout(t *testing.T) {
	f := newFakeLLM(t, hang)
	var waits []time.Duration
	c := newTestClient(f, 1, &waits)
	c.retry.timeout = 20 * time.Millisecond
	_, err := c.Consolidate(context.Background(), sampleRequest())
	checkErr(t, err, "failed after 2 attempts: attempt timed out after 20ms")
	if n := f.requests(); n != 2 {
		t.Errorf("%d requests, want 2 (the timed-out attempt is retried once)", n)
	}
}

func TestConsolidateCancelDuringRequest(t *testing.T) {
	f := newFakeLLM(t, hang)
	f.received = make(chan struct{}, 1)
	var waits []time.Duration
	c := newTestClient(f, 3, &waits)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-f.received
		cancel()
	}()
	_, err := c.Consolidate(ctx, sampleRequest())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := f.requests(); n != 1 || len(waits) != 0 {
		t.Errorf("%d requests, %d waits after cancel, want 1 and 0", n, len(waits))
	}
}

func TestConsolidateCancelDuringBackoff(t *testing.T) {
	f := newFakeLLM(t, fail(503))
	c := NewClient(ClientConfig{BaseURL: f.URL + "/v1", APIKey: testKey, Model: "gpt-test", MaxRetries: 5})
	ctx, cancel := context.WithCancel(context.Background())
	c.retry.sleep = func(ctx context.Context, d time.Duration) error {
		cancel() // the user stops dreamd while it waits
		return sleepContext(ctx, time.Hour)
	}
	_, err := c.Consolidate(ctx, sampleRequest())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if n := f.requests(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestConsolidateRefusesBeforeSending(t *testing.T) {
	f := newFakeLLM(t, ok(validReply))
	tests := []struct {
		name    string
		cfg     ClientConfig
		req     Request
		wantErr string
	}{
		{"no key for OpenAI", ClientConfig{Model: "gpt-test"}, sampleRequest(), "no API key for api.openai.com"},
		{"no model", ClientConfig{BaseURL: f.URL, Model: ""}, sampleRequest(), "no model"},
		{"over budget", ClientConfig{BaseURL: f.URL, Model: "m"}, largeRequest(2000), ErrOverBudget.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewClient(tt.cfg).Consolidate(context.Background(), tt.req)
			checkErr(t, err, tt.wantErr)
		})
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestConsolidateLocalServerWithoutKey(t *testing.T) {
	f := newFakeLLM(t, ok(validReply))
	c := NewClient(ClientConfig{BaseURL: f.URL + "/v1/", Model: "llama3.2"})
	if _, err := c.Consolidate(context.Background(), sampleRequest()); err != nil {
		t.Fatal(err)
	}
	if got := f.headers[0].Get("Authorization"); got != "" {
		t.Errorf("Authorization %q sent without a key", got)
	}
	if f.paths[0] != "/v1/chat/completions" {
		t.Errorf("path %s", f.paths[0])
	}
}

// roundTripFunc lets a test see the request a client would send, without a network.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestConsolidateEndpointStyles(t *testing.T) {
	tests := []struct {
		base, wantURL, wantHeader string
	}{
		{"https://ana.openai.azure.com/", "https://ana.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=" + azureAPIVersion, "Api-Key"},
		{"https://ana.openai.azure.com?api-version=2025-01-01-preview", "https://ana.openai.azure.com/openai/deployments/gpt-4o-mini/chat/completions?api-version=2025-01-01-preview", "Api-Key"},
		{"https://ana.openai.azure.com/openai/v1", "https://ana.openai.azure.com/openai/v1/chat/completions", "Authorization"},
		{"http://localhost:8000/v1", "http://localhost:8000/v1/chat/completions", "Authorization"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			var seen *http.Request
			rec := httptest.NewRecorder()
			ok(validReply)(rec, nil)
			hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				seen = r
				return rec.Result(), nil
			})}
			c := NewClient(ClientConfig{BaseURL: tt.base, APIKey: testKey, Model: "gpt-4o-mini", HTTPClient: hc})
			if _, err := c.Consolidate(context.Background(), sampleRequest()); err != nil {
				t.Fatal(err)
			}
			if seen.URL.String() != tt.wantURL {
				t.Errorf("URL %s, want %s", seen.URL, tt.wantURL)
			}
			if !strings.Contains(seen.Header.Get(tt.wantHeader), testKey) {
				t.Errorf("key not in header %s: %v", tt.wantHeader, seen.Header)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := day("2026-11-20")
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 2 * time.Minute, true},
		{"0", 0, true},
		{"-5", 0, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},
		{"", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
