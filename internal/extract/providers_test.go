package extract

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// providerFixture is a recorded exchange with one provider (testdata/providers/README.md says
// where each came from): the requests dreamd must send, in order, and what the server answers.
type providerFixture struct {
	Provider        string `json:"provider"`
	Source          string `json:"source"`
	Model           string `json:"model"`
	Azure           bool   `json:"azure"`
	APIVersion      string `json:"api_version"`
	MaxOutputTokens int    `json:"max_output_tokens"`
	StartFormat     string `json:"start_format"` // a shape remembered from an earlier run
	Exchanges       []struct {
		Want struct {
			Format      string `json:"format"`
			Temperature bool   `json:"temperature"`
			MaxField    string `json:"max_field"`
			Path        string `json:"path"`
			APIVersion  string `json:"api_version"`
		} `json:"want"`
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
	} `json:"exchanges"`
	WantError string `json:"want_error"`
}

// answer is a correct reply of the contract's shape, substituted for __ANSWER__ in fixtures.
const answer = `{"summary": "Merged the lint memories.", "operations": [{"action": "update", "name": "run-lint", "type": "feedback", "description": "Run make lint before every commit", "body": "Run make lint.", "merged_from": ["lint-required"], "supersedes": [], "reason": "duplicates", "evidence": ["s1"]}]}`

// TestProviders replays each provider's recorded behaviour against the real client: the request
// is reshaped on the server's own error, the answer is found however it is wrapped, and the shape
// that worked is remembered, so the next call is right the first time.
func TestProviders(t *testing.T) {
	files, _ := filepath.Glob("testdata/providers/*.json")
	if len(files) < 10 {
		t.Fatalf("%d provider fixtures", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			var fx providerFixture
			data, err := os.ReadFile(file)
			if err != nil || json.Unmarshal(data, &fx) != nil || fx.Source == "" {
				t.Fatalf("fixture %s: %v", file, err)
			}
			var mu sync.Mutex
			var got []map[string]any
			var paths []*http.Request
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				var req map[string]any
				json.Unmarshal(body, &req)
				mu.Lock()
				i := len(got)
				got, paths = append(got, req), append(paths, r)
				mu.Unlock()
				if i >= len(fx.Exchanges) {
					i = len(fx.Exchanges) - 1 // the remembered shape: the last exchange again
				}
				ex := fx.Exchanges[i]
				reply := strings.ReplaceAll(string(ex.Body), "MODEL", fx.Model)
				escaped, _ := json.Marshal(answer)
				reply = strings.ReplaceAll(reply, "__ANSWER__", string(escaped[1:len(escaped)-1]))
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(ex.Status)
				io.WriteString(w, reply)
			}))
			defer srv.Close()

			base := srv.URL + "/v1"
			hc := srv.Client()
			if fx.Azure {
				// An Azure resource URL, pointed at the test server by the transport.
				base = "https://example-resource.openai.azure.com"
				hc = &http.Client{Transport: redirect{to: srv.URL}}
			}
			shapes := NewShapeMemory(filepath.Join(t.TempDir(), "endpoints.json"), false)
			c := NewClient(ClientConfig{BaseURL: base, APIKey: "test-key", Model: fx.Model, MaxOutput: fx.MaxOutputTokens,
				APIVersion: fx.APIVersion, Shapes: shapes, HTTPClient: hc})
			if fx.StartFormat != "" {
				shapes.Put(c.host+" "+c.model, Shape{Format: fx.StartFormat})
			}
			res, err := c.Consolidate(context.Background(), providerRequest())
			if fx.WantError != "" {
				if err == nil || !strings.Contains(err.Error(), fx.WantError) {
					t.Fatalf("err = %v, want %q", err, fx.WantError)
				}
				return
			}
			if err != nil {
				t.Fatalf("Consolidate: %v", err)
			}
			if len(res.Response.Operations) != 1 || res.Response.Operations[0].Name != "run-lint" {
				t.Errorf("response = %+v", res.Response)
			}
			if len(got) != len(fx.Exchanges) {
				t.Fatalf("%d requests, want %d", len(got), len(fx.Exchanges))
			}
			for i, ex := range fx.Exchanges {
				checkShape(t, i, got[i], paths[i], ex.Want.Format, ex.Want.Temperature, ex.Want.MaxField, ex.Want.Path, ex.Want.APIVersion)
			}

			// The shape that worked is remembered: one request next time.
			if _, err := c.Consolidate(context.Background(), providerRequest()); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(fx.Exchanges)+1 {
				t.Errorf("second consolidation sent %d requests, want 1", len(got)-len(fx.Exchanges))
			}
			last := fx.Exchanges[len(fx.Exchanges)-1].Want
			checkShape(t, len(got)-1, got[len(got)-1], paths[len(paths)-1], last.Format, last.Temperature, last.MaxField, "", "")
		})
	}
}

func checkShape(t *testing.T, i int, req map[string]any, r *http.Request, format string, temperature bool, maxField, path, apiVersion string) {
	t.Helper()
	rf, _ := req["response_format"].(map[string]any)
	gotFormat := "text"
	if rf != nil {
		gotFormat, _ = rf["type"].(string)
	}
	_, hasTemp := req["temperature"]
	gotMax := ""
	for _, f := range []string{"max_completion_tokens", "max_tokens"} {
		if _, ok := req[f]; ok {
			gotMax = f
		}
	}
	if gotFormat != format || hasTemp != temperature || gotMax != maxField {
		t.Errorf("request %d: format %s, temperature %v, max field %q; want %s, %v, %q", i+1, gotFormat, hasTemp, gotMax, format, temperature, maxField)
	}
	if path != "" && r.URL.Path != path {
		t.Errorf("request %d: path %s, want %s", i+1, r.URL.Path, path)
	}
	if apiVersion != "" && r.URL.Query().Get("api-version") != apiVersion {
		t.Errorf("request %d: api-version %q, want %q", i+1, r.URL.Query().Get("api-version"), apiVersion)
	}
	msgs, _ := req["messages"].([]any)
	if len(msgs) != 2 || !strings.Contains(msgs[0].(map[string]any)["content"].(string), `"required": ["summary", "operations"]`) {
		t.Errorf("request %d: the schema is not stated in the system prompt", i+1)
	}
}

// redirect sends every request to the test server, keeping its path and query.
type redirect struct{ to string }

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	u := *req.URL
	target, _ := http.NewRequest(req.Method, r.to+u.Path+"?"+u.RawQuery, req.Body)
	target.Header = req.Header
	return http.DefaultTransport.RoundTrip(target.WithContext(req.Context()))
}

func providerRequest() Request {
	return Request{
		Memories: []Memory{{Name: "run-lint", Type: "feedback", Description: "Run make lint", Body: "Run make lint."},
			{Name: "lint-required", Type: "feedback", Description: "CI rejects lint failures", Body: "CI runs lint."}},
		Sessions: []Session{{ID: "s1", Source: "claude", Turns: []Turn{{Role: "user", Text: "always run make lint"}}}},
	}
}

// An error that names nothing a different request shape would fix is not retried.
func TestAdjustOnlyWhatTheServerNames(t *testing.T) {
	s := Shape{Format: FormatJSONSchema}
	for _, body := range []string{
		`{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}`,
		`{"error": {"message": "This model's maximum context length is 8192 tokens", "code": "context_length_exceeded"}}`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, body)
		}))
		c := NewClient(ClientConfig{BaseURL: srv.URL + "/v1", APIKey: "k", Model: "m", HTTPClient: srv.Client()})
		_, err := c.api.CreateChatCompletion(context.Background(), c.chatRequest("s", "u", s, Schema(), SchemaName))
		srv.Close()
		if next, ok := s.adjust(err, 100); ok {
			t.Errorf("%s: reshaped to %+v", body, next)
		}
	}
}
