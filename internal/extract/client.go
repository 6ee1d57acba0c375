package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/dreamd/dreamd/internal/tokens"
)

const (
	openAIURL = "https://api.openai.com/v1"
	// azureAPIVersion is the first GA version of Azure OpenAI with structured outputs.
	azureAPIVersion = "2024-10-21"
)

// ClientConfig configures the consolidation call against any OpenAI-compatible endpoint.
type ClientConfig struct {
	BaseURL     string        // "" for OpenAI; e.g. http://localhost:11434/v1 for Ollama
	APIKey      string        // may be empty when BaseURL names a local server
	Model       string        // model name, or the deployment name on Azure
	Timeout     time.Duration // per HTTP attempt; 0 means none
	MaxRetries  int           // HTTP retries after the first attempt
	MaxOutput   int           // the reply's token limit; 0 leaves it to the server
	Concurrency int           // requests in flight at once, across every store; 0: no bound
	APIVersion  string        // Azure OpenAI's api-version; "" for the URL's or the default
	Shapes      *ShapeMemory  // where the request shape that worked is remembered; nil: nowhere
	HTTPClient  *http.Client  // nil for a default client; its Transport is wrapped, not changed
	Logger      *slog.Logger  // nil discards
}

// Client makes the consolidation call: exactly one chat completion per Consolidate.
type Client struct {
	api   *openai.Client
	retry *retryTransport
	model string
	host  string // endpoint host[:port], for messages
	key   string // only to scrub it from error text
	noKey bool   // OpenAI's own endpoint without a key: refused before any request
	max   int    // MaxOutput
	shape *ShapeMemory
	log   *slog.Logger
}

// NewClient returns a Client for cfg. Base URLs of Azure OpenAI resources
// (*.openai.azure.com, *.cognitiveservices.azure.com) use Azure's deployment paths and api-key
// header, with the api-version from the URL's query if it has one; Azure's /openai/v1 URLs and
// every other server (OpenAI, Ollama, llama.cpp, vLLM) use the plain OpenAI protocol.
func NewClient(cfg ClientConfig) *Client {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		base = openAIURL
	}
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		copied := *cfg.HTTPClient
		hc = &copied
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	rt := &retryTransport{
		next:       next,
		maxRetries: max(cfg.MaxRetries, 0),
		timeout:    cfg.Timeout,
		log:        log,
		sleep:      sleepContext,
		now:        time.Now,
	}
	if cfg.Concurrency > 0 {
		rt.slots = make(chan struct{}, cfg.Concurrency)
	}
	hc.Transport = rt
	return &Client{
		api:   openai.NewClientWithConfig(apiConfig(base, cfg.APIKey, cfg.APIVersion, hc)),
		retry: rt,
		model: cfg.Model,
		host:  hostOf(base),
		key:   cfg.APIKey,
		noKey: cfg.APIKey == "" && strings.TrimSpace(cfg.BaseURL) == "",
		max:   max(cfg.MaxOutput, 0),
		shape: cfg.Shapes,
		log:   log,
	}
}

func apiConfig(base, key, apiVersion string, hc *http.Client) openai.ClientConfig {
	if u, err := url.Parse(base); err == nil && isAzure(u) {
		version := cmpOr(apiVersion, u.Query().Get("api-version"), azureAPIVersion)
		u.RawQuery = ""
		c := openai.DefaultAzureConfig(key, u.String())
		c.APIVersion = version
		c.HTTPClient = hc
		return c
	}
	c := openai.DefaultConfig(key)
	c.BaseURL = base
	c.HTTPClient = hc
	return c
}

func isAzure(u *url.URL) bool {
	h := strings.ToLower(u.Hostname())
	azure := strings.HasSuffix(h, ".openai.azure.com") || strings.HasSuffix(h, ".cognitiveservices.azure.com")
	return azure && !strings.Contains(u.Path, "/openai/v1")
}

func hostOf(base string) string {
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		return u.Host
	}
	return "the LLM endpoint"
}

// Consolidate renders the prompt, makes the one call and parses the reply. The operations still
// need Validate.
func (c *Client) Consolidate(ctx context.Context, req Request) (Result, error) {
	if c.model == "" {
		return Result{}, errors.New("llm: no model configured")
	}
	if c.noKey {
		return Result{}, fmt.Errorf("llm: no API key for %s and no base_url of a local server", c.host)
	}
	system, user, sel, err := Prompt(req)
	if err != nil {
		return Result{}, err
	}
	c.log.Info("consolidating", "host", c.host, "model", c.model, "prompt_tokens", sel.PromptTokens,
		"sessions", len(req.Sessions), "memories", len(req.Memories), "bodies_omitted", len(sel.BodiesOmitted))
	resp, err := c.complete(ctx, system, user)
	if err != nil {
		return Result{}, err
	}
	content, err := c.content(resp)
	if err != nil {
		return Result{}, err
	}
	parsed, err := ParseResponse(content)
	if err != nil {
		return Result{}, fmt.Errorf("llm: reply from %s: %w", c.host, err)
	}
	return Result{Response: parsed, Usage: usage(resp.Usage, sel, content), Model: c.modelOf(resp), Notes: sel.Notes}, nil
}

// maxReshapes bounds how often one consolidation reshapes its request after a refusal: each
// refusal names one thing, and there are only so many things to change.
const maxReshapes = 4

// complete makes the consolidation's chat completion in the shape remembered for this endpoint and
// model (or the default), reshaping it when the server refuses a parameter or the response format,
// and remembers the shape that worked. Only a refused request is sent again: the server answered
// nothing, so the one consolidation is still one answer.
func (c *Client) complete(ctx context.Context, system, user string) (openai.ChatCompletionResponse, error) {
	resp, _, err := c.completeWith(ctx, system, user, Schema(), SchemaName)
	return resp, err
}

// completeWith is complete for any schema, returning the shape that worked.
func (c *Client) completeWith(ctx context.Context, system, user string, schema json.RawMessage, name string) (openai.ChatCompletionResponse, Shape, error) {
	key := c.host + " " + c.model
	shape, known := c.shape.Get(key)
	if !known {
		shape = defaultShape(c.model)
	}
	for reshapes := 0; ; reshapes++ {
		resp, err := c.api.CreateChatCompletion(ctx, c.chatRequest(system, user, shape, schema, name))
		if err == nil {
			if err := c.shape.Put(key, shape); err != nil {
				c.log.Warn("cannot remember the request shape", "err", err)
			}
			return resp, shape, nil
		}
		next, ok := shape.adjust(err, c.max)
		if !ok || reshapes == maxReshapes || ctx.Err() != nil {
			return resp, shape, c.describe(ctx, err)
		}
		c.log.Info("the server refused the request's shape; sending it again without what it refused",
			"host", c.host, "model", c.model, "format", next.Format, "temperature", !next.NoTemperature,
			"max_tokens_field", maxTokensField(next), "refusal", c.scrub(err.Error()))
		shape = next
	}
}

// chatRequest is the one request of a consolidation in the given shape: system and user message,
// the response format (strict JSON schema, JSON object or plain text), temperature 0 unless the
// server refuses one, and the output limit when one is configured. go-openai omits a zero
// temperature (the server default is 1), so the smallest positive float stands for 0.
func (c *Client) chatRequest(system, user string, shape Shape, schema json.RawMessage, name string) openai.ChatCompletionRequest {
	r := openai.ChatCompletionRequest{
		Model: c.model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		Temperature: math.SmallestNonzeroFloat32,
	}
	switch shape.Format {
	case FormatJSONSchema:
		r.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   name,
				Schema: schema,
				Strict: true,
			},
		}
	case FormatJSONObject:
		r.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	if shape.NoTemperature {
		r.Temperature = 0
	}
	switch {
	case c.max == 0:
	case shape.LegacyMaxTokens:
		// Deprecated by OpenAI, but the only name older servers (and Azure deployments of older
		// models) accept: the shape records that this endpoint refused max_completion_tokens.
		//lint:ignore SA1019 deliberately sent to endpoints that reject max_completion_tokens
		r.MaxTokens = c.max
	default:
		r.MaxCompletionTokens = c.max
	}
	return r
}

func maxTokensField(s Shape) string {
	if s.LegacyMaxTokens {
		return "max_tokens"
	}
	return "max_completion_tokens"
}

func cmpOr(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// content returns the reply text of the first choice, or why there is none.
func (c *Client) content(resp openai.ChatCompletionResponse) (string, error) {
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("llm: reply from %s has no choices", c.host)
	}
	ch := resp.Choices[0]
	switch {
	case ch.Message.Refusal != "":
		return "", fmt.Errorf("llm: the model refused: %.200s", ch.Message.Refusal)
	case ch.FinishReason == openai.FinishReasonLength:
		if c.max > 0 {
			return "", fmt.Errorf("llm: reply from %s cut off at the output token limit: raise llm.max_output_tokens (now %d)", c.host, c.max)
		}
		return "", fmt.Errorf("llm: reply from %s cut off at the server's output token limit: set llm.max_output_tokens above it", c.host)
	case strings.TrimSpace(ch.Message.Content) == "":
		return "", fmt.Errorf("llm: empty reply from %s", c.host)
	}
	return ch.Message.Content, nil
}

// describe turns a failed call into an error that names the status and the host, never the key.
func (c *Client) describe(ctx context.Context, err error) error {
	var (
		retried *attemptsError
		apiErr  *openai.APIError
		reqErr  *openai.RequestError
		urlErr  *url.Error
	)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("llm: request to %s: %w", c.host, ctx.Err())
	case errors.As(err, &retried):
		return retried
	case errors.As(err, &reqErr): // before APIError, which go-openai may wrap in it empty
		return fmt.Errorf("llm: %s from %s: %.300s", status(reqErr.HTTPStatusCode), c.host, c.scrub(strings.TrimSpace(string(reqErr.Body))))
	case errors.As(err, &apiErr):
		return fmt.Errorf("llm: %s from %s: %.300s", status(apiErr.HTTPStatusCode), c.host, c.scrub(apiErr.Message))
	case errors.As(err, &urlErr):
		err = urlErr.Err
	}
	return fmt.Errorf("llm: request to %s: %s", c.host, c.scrub(err.Error()))
}

func (c *Client) scrub(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[REDACTED]")
}

func (c *Client) modelOf(resp openai.ChatCompletionResponse) string {
	if resp.Model != "" {
		return resp.Model
	}
	return c.model
}

// usage is what the server reported, or our own count where a local server reports nothing.
func usage(u openai.Usage, sel Selection, content string) Usage {
	out := Usage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens}
	if u.PromptTokensDetails != nil {
		out.CachedTokens = u.PromptTokensDetails.CachedTokens
	}
	if out.PromptTokens == 0 {
		out.PromptTokens = sel.PromptTokens
	}
	if out.CompletionTokens == 0 {
		out.CompletionTokens = tokens.Count(content)
	}
	return out
}

func status(code int) string {
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}
