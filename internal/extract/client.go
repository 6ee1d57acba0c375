package extract

import (
	"context"
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
	BaseURL    string        // "" for OpenAI; e.g. http://localhost:11434/v1 for Ollama
	APIKey     string        // may be empty when BaseURL names a local server
	Model      string        // model name, or the deployment name on Azure
	Timeout    time.Duration // per HTTP attempt; 0 means none
	MaxRetries int           // HTTP retries after the first attempt
	HTTPClient *http.Client  // nil for a default client; its Transport is wrapped, not changed
	Logger     *slog.Logger  // nil discards
}

// Client makes the consolidation call: exactly one chat completion per Consolidate.
type Client struct {
	api   *openai.Client
	retry *retryTransport
	model string
	host  string // endpoint host[:port], for messages
	key   string // only to scrub it from error text
	noKey bool   // OpenAI's own endpoint without a key: refused before any request
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
	hc.Transport = rt
	return &Client{
		api:   openai.NewClientWithConfig(apiConfig(base, cfg.APIKey, hc)),
		retry: rt,
		model: cfg.Model,
		host:  hostOf(base),
		key:   cfg.APIKey,
		noKey: cfg.APIKey == "" && strings.TrimSpace(cfg.BaseURL) == "",
		log:   log,
	}
}

func apiConfig(base, key string, hc *http.Client) openai.ClientConfig {
	if u, err := url.Parse(base); err == nil && isAzure(u) {
		version := u.Query().Get("api-version")
		if version == "" {
			version = azureAPIVersion
		}
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
	resp, err := c.api.CreateChatCompletion(ctx, c.chatRequest(system, user))
	if err != nil {
		return Result{}, c.describe(ctx, err)
	}
	content, err := c.content(resp)
	if err != nil {
		return Result{}, err
	}
	parsed, err := ParseResponse(content)
	if err != nil {
		return Result{}, fmt.Errorf("llm: reply from %s: %w", c.host, err)
	}
	return Result{Response: parsed, Usage: usage(resp.Usage, sel, content), Model: c.modelOf(resp)}, nil
}

// chatRequest is the one request of a consolidation: system and user message, strict JSON schema,
// temperature 0. go-openai omits a zero temperature (the server default is 1), so the smallest
// positive float stands for 0; reasoning models accept no temperature and get none.
func (c *Client) chatRequest(system, user string) openai.ChatCompletionRequest {
	r := openai.ChatCompletionRequest{
		Model: c.model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: system},
			{Role: openai.ChatMessageRoleUser, Content: user},
		},
		ResponseFormat: &openai.ChatCompletionResponseFormat{
			Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{
				Name:   SchemaName,
				Schema: Schema(),
				Strict: true,
			},
		},
		Temperature: math.SmallestNonzeroFloat32,
	}
	if openai.NewReasoningValidator().Validate(r) != nil {
		r.Temperature = 0
	}
	return r
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
		return "", fmt.Errorf("llm: reply from %s cut off at the output token limit", c.host)
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
	case errors.As(err, &apiErr):
		return fmt.Errorf("llm: %s from %s: %.300s", status(apiErr.HTTPStatusCode), c.host, c.scrub(apiErr.Message))
	case errors.As(err, &reqErr):
		return fmt.Errorf("llm: %s from %s", status(reqErr.HTTPStatusCode), c.host)
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
