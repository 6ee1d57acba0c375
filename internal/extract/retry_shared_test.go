package extract

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrencyBound: however many stores call at once, no more requests than llm.concurrency
// are in flight at the endpoint.
func TestConcurrencyBound(t *testing.T) {
	var inflight, most atomic.Int32
	release := make(chan struct{})
	next := roundTripFunc(func(*http.Request) (*http.Response, error) {
		n := inflight.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		<-release
		inflight.Add(-1)
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("{}")), Header: http.Header{}}, nil
	})
	rt := &retryTransport{next: next, sleep: sleepContext, now: time.Now, slots: make(chan struct{}, 3), log: slog.New(slog.DiscardHandler)}
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", "http://llm.test/v1/chat/completions", strings.NewReader("{}"))
			if _, err := rt.RoundTrip(req); err != nil {
				t.Error(err)
			}
		})
	}
	// Let the first requests fill the slots before any is answered.
	for deadline := time.Now().Add(10 * time.Second); inflight.Load() < 3 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	for range 10 {
		release <- struct{}{}
	}
	wg.Wait()
	if m := most.Load(); m != 3 {
		t.Errorf("at most %d requests in flight, want 3", m)
	}
}

// TestRetryAfterPausesEveryRequest: once the endpoint said to wait, a request from another store
// waits too before it is sent.
func TestRetryAfterPausesEveryRequest(t *testing.T) {
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	var slept []time.Duration
	rt := &retryTransport{
		now:   func() time.Time { return now },
		sleep: func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil },
		log:   slog.New(slog.DiscardHandler),
	}
	rt.pauseAll(20 * time.Second)
	if err := rt.acquire(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	if len(slept) != 1 || slept[0] != 20*time.Second {
		t.Errorf("a new request slept %v, want 20s", slept)
	}
	slept = nil
	if err := rt.acquire(context.Background(), true); err != nil || len(slept) != 0 {
		t.Errorf("a retry, which slept its own delay, slept again: %v", slept)
	}
}
