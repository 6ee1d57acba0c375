package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/google/renameio/v2"
	openai "github.com/sashabaranov/go-openai"
)

// Response formats, from the strictest to none at all.
const (
	FormatJSONSchema = "json_schema"
	FormatJSONObject = "json_object"
	FormatText       = "text"
)

// Shape is how a request is put to one endpoint and model: the response format it accepts and
// the parameters it refuses. Servers differ (Anthropic's OpenAI-compatible endpoint ignores
// response_format, older vLLM and LM Studio builds reject json_schema, reasoning models reject any
// temperature but the default, newer OpenAI models reject max_tokens), and a model's name does not
// say which, so the shape is learnt from the errors the server gives and then remembered.
type Shape struct {
	Format          string `json:"format"`                      // json_schema, json_object or text
	NoTemperature   bool   `json:"no_temperature,omitempty"`    // send no temperature at all
	LegacyMaxTokens bool   `json:"legacy_max_tokens,omitempty"` // max_tokens instead of max_completion_tokens
}

// defaultShape is the first try for a model dreamd has not talked to: structured output, and no
// temperature for the models OpenAI documents as reasoning models (a first guess; the server's
// error corrects it for every other name).
func defaultShape(model string) Shape {
	s := Shape{Format: FormatJSONSchema}
	probe := openai.ChatCompletionRequest{Model: model, Temperature: math.SmallestNonzeroFloat32}
	if openai.NewReasoningValidator().Validate(probe) != nil {
		s.NoTemperature = true
	}
	return s
}

// adjust returns the shape to try after the server rejected one, judging from its error: the
// parameter it names is dropped or renamed, or the response format steps down. ok is false when
// the error names nothing a different shape would fix.
func (s Shape) adjust(err error, maxOutput int) (Shape, bool) {
	code, msg := refusal(err)
	if code != http.StatusBadRequest && code != http.StatusUnprocessableEntity && code != http.StatusNotImplemented {
		return s, false
	}
	msg = strings.ToLower(msg)
	switch {
	case strings.Contains(msg, "temperature") && !s.NoTemperature:
		s.NoTemperature = true
	case maxOutput > 0 && strings.Contains(msg, "max_completion_tokens") && !s.LegacyMaxTokens:
		s.LegacyMaxTokens = true
	case maxOutput > 0 && strings.Contains(msg, "max_tokens") && s.LegacyMaxTokens:
		s.LegacyMaxTokens = false
	case mentionsFormat(msg) && s.Format == FormatJSONSchema:
		s.Format = FormatJSONObject
	case mentionsFormat(msg) && s.Format == FormatJSONObject:
		s.Format = FormatText
	default:
		return s, false
	}
	return s, true
}

// refusal is the status and the text of a server's error, whatever its body looks like: OpenAI's
// {"error": {"message", "param"}}, LM Studio's {"error": "…"}, vLLM's {"message": …} at the top.
func refusal(err error) (int, string) {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	// A RequestError comes first: go-openai wraps an empty APIError in it when the body's "error"
	// is a plain string.
	switch {
	case errors.As(err, &reqErr):
		return reqErr.HTTPStatusCode, string(reqErr.Body)
	case errors.As(err, &apiErr):
		msg := apiErr.Message
		if apiErr.Param != nil {
			msg += " (param " + *apiErr.Param + ")"
		}
		return apiErr.HTTPStatusCode, msg
	}
	return 0, ""
}

// mentionsFormat reports whether an error message is about the response format.
func mentionsFormat(msg string) bool {
	for _, w := range []string{"response_format", "json_schema", "json schema", "structured output", "json_object", "response format", "guided", "strict", "additionalproperties"} {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}

// ShapeMemory remembers, per endpoint and model, the shape that last worked. Its file lives in
// dreamd's state directory; a missing or unreadable file only means starting from the default.
type ShapeMemory struct {
	path     string
	readOnly bool
	mu       sync.Mutex
}

// NewShapeMemory keeps shapes in the file at path ("" keeps nothing); a read-only one uses what
// the file holds and writes nothing (a dry run writes nothing at all).
func NewShapeMemory(path string, readOnly bool) *ShapeMemory {
	return &ShapeMemory{path: path, readOnly: readOnly}
}

func (m *ShapeMemory) load() map[string]Shape {
	out := map[string]Shape{}
	if m == nil || m.path == "" {
		return out
	}
	data, err := os.ReadFile(m.path)
	if err == nil {
		_ = json.Unmarshal(data, &out) // unreadable: every endpoint's shape is probed again
	}
	return out
}

// Get returns the shape remembered for key.
func (m *ShapeMemory) Get(key string) (Shape, bool) {
	if m == nil {
		return Shape{}, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.load()[key]
	return s, ok && s.Format != ""
}

// Put remembers s for key.
func (m *ShapeMemory) Put(key string, s Shape) error {
	if m == nil || m.path == "" || m.readOnly {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	all := m.load()
	if all[key] == s {
		return nil
	}
	all[key] = s
	data, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(m.path), 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return renameio.WriteFile(m.path, append(data, '\n'), 0o600)
}

// probeSchema is the smallest structured answer: {"ok": true}.
const probeSchema = `{"type": "object", "additionalProperties": false, "required": ["ok"], "properties": {"ok": {"type": "boolean"}}}`

// Probe asks the model for a tiny structured answer in the shape that works with this endpoint
// (learning and remembering it as a consolidation would) and returns the response format used.
func (c *Client) Probe(ctx context.Context) (string, error) {
	if c.model == "" {
		return "", errors.New("llm: no model configured")
	}
	if c.noKey {
		return "", fmt.Errorf("llm: no API key for %s and no base_url of a local server", c.host)
	}
	system := "You check that a JSON API works. Reply with exactly this JSON object and nothing else: {\"ok\": true}\nIts schema:\n" + probeSchema
	resp, shape, err := c.completeWith(ctx, system, "Reply now.", json.RawMessage(probeSchema), "probe")
	if err != nil {
		return "", err
	}
	content, err := c.content(resp)
	if err != nil {
		return shape.Format, err
	}
	for _, cand := range append([]string{strings.TrimSpace(unfence(content))}, candidates(content)...) {
		var v struct{ OK *bool }
		if json.Unmarshal([]byte(cand), &v) == nil && v.OK != nil && *v.OK {
			return shape.Format, nil
		}
	}
	return shape.Format, fmt.Errorf("llm: %s answered the probe with %.80q, not {\"ok\": true}", c.host, content)
}
