package extract

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Backoff between attempts: baseDelay doubled per retry up to maxDelay, half of it random. A
// Retry-After longer than maxRetryAfter is not waited for: the run fails and the next one retries.
const (
	baseDelay     = time.Second
	maxDelay      = 30 * time.Second
	maxRetryAfter = 5 * time.Minute
)

// maxReplyBytes bounds how much of a reply is read.
const maxReplyBytes = 32 << 20

// retryTransport retries one HTTP request on 429, 5xx and transport errors. It sits below
// go-openai as an http.RoundTripper because only there the Retry-After header is visible. Each
// attempt runs under its own timeout; the request's context bounds them all.
type retryTransport struct {
	next       http.RoundTripper
	maxRetries int
	timeout    time.Duration // per attempt; 0 means none
	log        *slog.Logger
	sleep      func(ctx context.Context, d time.Duration) error
	now        func() time.Time

	// slots bounds the requests in flight across every store of a pass (llm.concurrency); nil
	// means no bound. One transport serves them all, so a 429's Retry-After pauses them all:
	// resumeAt is when the server said it will take requests again.
	slots    chan struct{}
	mu       sync.Mutex
	resumeAt time.Time
}

// acquire blocks until the server's Retry-After, if one is pending, has passed and a slot is free.
// A retry has already slept its own delay, which is at least the server's: it does not wait twice.
func (t *retryTransport) acquire(ctx context.Context, retry bool) error {
	t.mu.Lock()
	pause := t.resumeAt.Sub(t.now())
	t.mu.Unlock()
	if pause > 0 && !retry {
		if err := t.sleep(ctx, pause); err != nil {
			return err
		}
	}
	if t.slots == nil {
		return nil
	}
	select {
	case t.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (t *retryTransport) release() {
	if t.slots != nil {
		<-t.slots
	}
}

// pauseAll makes every request wait until the server's Retry-After has passed.
func (t *retryTransport) pauseAll(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at := t.now().Add(d); at.After(t.resumeAt) {
		t.resumeAt = at
	}
}

// attemptsError is the final failure of a retried request. It names the status (or the transport
// error) and the host, never the URL's query or any header.
type attemptsError struct {
	host     string
	status   int   // 0 for a transport error
	err      error // the last transport error
	attempts int
	note     string
}

func (e *attemptsError) Error() string {
	tries := fmt.Sprintf("%d %s", e.attempts, plural(e.attempts, "attempt", "attempts"))
	var msg string
	if e.status == 0 {
		msg = fmt.Sprintf("llm: request to %s failed after %s: %v", e.host, tries, e.err)
	} else {
		msg = fmt.Sprintf("llm: %s from %s after %s", status(e.status), e.host, tries)
	}
	if e.note != "" {
		msg += " (" + e.note + ")"
	}
	return msg
}

func (e *attemptsError) Unwrap() error { return e.err }

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	for attempt := 1; ; attempt++ {
		if err := t.acquire(ctx, attempt > 1); err != nil {
			return nil, err
		}
		resp, err := t.try(req, body)
		t.release()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if !retryable(resp, err) {
			return resp, err
		}
		wait, note := t.delay(resp, attempt)
		if attempt > t.maxRetries || note != "" {
			return nil, &attemptsError{host: req.URL.Host, status: statusOf(resp), err: err, attempts: attempt, note: note}
		}
		t.log.Warn("llm request failed, retrying", "host", req.URL.Host, "status", statusOf(resp),
			"err", err, "attempt", attempt, "wait", wait)
		if statusOf(resp) == http.StatusTooManyRequests {
			if d, ok := serverDelay(resp.Header, t.now()); ok {
				t.pauseAll(d) // the endpoint's limit is everybody's: no other store hammers it meanwhile
			}
		}
		if err := t.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// try sends one attempt and reads the whole reply under the attempt's timeout, so a server that
// stalls mid-body is cut off too.
func (t *retryTransport) try(req *http.Request, body []byte) (*http.Response, error) {
	ctx, cancel := req.Context(), context.CancelFunc(func() {})
	if t.timeout > 0 {
		ctx, cancel = context.WithTimeoutCause(ctx, t.timeout,
			fmt.Errorf("attempt timed out after %v", t.timeout))
	}
	defer cancel()
	r := req.Clone(ctx)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.ContentLength = int64(len(body))
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, attemptErr(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxReplyBytes))
	if err != nil {
		return nil, attemptErr(ctx, err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	resp.ContentLength = int64(len(data))
	return resp, nil
}

// attemptErr names a per-attempt timeout as such rather than as a bare deadline error.
func attemptErr(ctx context.Context, err error) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return cause
	}
	return err
}

// retryable holds for transport errors, 408, 429 and server errors other than "not implemented".
func retryable(resp *http.Response, err error) bool {
	if err != nil {
		return true
	}
	switch c := resp.StatusCode; {
	case c == http.StatusRequestTimeout, c == http.StatusTooManyRequests:
		return true
	case c == http.StatusNotImplemented, c == http.StatusHTTPVersionNotSupported:
		return false
	default:
		return c >= 500
	}
}

// delay returns how long to wait before the next attempt: what the server asked for in
// Retry-After, else exponential backoff with jitter. A note explains a wait too long to honour.
func (t *retryTransport) delay(resp *http.Response, attempt int) (time.Duration, string) {
	if resp != nil {
		if d, ok := serverDelay(resp.Header, t.now()); ok {
			if d > maxRetryAfter {
				return 0, fmt.Sprintf("server asked to retry after %v", d.Round(time.Second))
			}
			return d, ""
		}
	}
	d := min(baseDelay<<min(attempt-1, 16), maxDelay)
	return d/2 + rand.N(d/2+1), ""
}

// serverDelay reads the wait a server asks for: OpenAI's retry-after-ms, else Retry-After.
func serverDelay(h http.Header, now time.Time) (time.Duration, bool) {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms >= 0 && ms < 1e9 {
		return time.Duration(ms * float64(time.Millisecond)), true
	}
	return retryAfter(h.Get("Retry-After"), now)
}

// retryAfter parses a Retry-After value: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		return time.Duration(min(max(secs, 0), 1<<30)) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

func statusOf(resp *http.Response) int {
	if resp == nil {
		return 0
	}
	return resp.StatusCode
}

func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// sleepContext waits for d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
