package extract

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/tokens"
)

// bigRequest is a store of n memories far larger than the budget, and a session about one of them.
func bigRequest(n int) Request {
	mems := make([]Memory, n)
	for i := range mems {
		mems[i] = Memory{Name: fmt.Sprintf("fact-%05d", i), Type: "project",
			Description: fmt.Sprintf("Lesson %d about the build, the reviews and service number %d of the fleet", i, i%97),
			Body:        strings.Repeat(fmt.Sprintf("Details of lesson %d. ", i), 10)}
	}
	mems[4242].Description = "The payments webhook retries three times with exponential backoff"
	return Request{
		Today:          time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC),
		Memories:       mems,
		Sessions:       []Session{{ID: "s1", Source: "claude", Turns: []Turn{{Role: "user", Text: "the payments webhook now retries five times, not three"}}}},
		MaxInputTokens: 100000,
	}
}

// TestAnyStoreFitsTheBudget: a store of 10,000 memories is consolidated in one call within
// llm.max_input_tokens: the most relevant memory goes with its body, the least relevant by name
// or not at all, and what was left out is said.
func TestAnyStoreFitsTheBudget(t *testing.T) {
	req := bigRequest(10000)
	_, user, sel, err := Prompt(req)
	if err != nil {
		t.Fatalf("Prompt: %v", err)
	}
	if sel.PromptTokens > req.MaxInputTokens {
		t.Errorf("prompt of %d tokens, budget %d", sel.PromptTokens, req.MaxInputTokens)
	}
	if !strings.Contains(user, "The payments webhook retries three times") || !strings.Contains(user, "Details of lesson 4242") {
		t.Error("the memory the session is about is not sent in full")
	}
	if len(sel.Notes) == 0 || !strings.Contains(strings.Join(sel.Notes, " "), "llm.max_input_tokens") {
		t.Errorf("what was left out is not said: %v", sel.Notes)
	}
}

func BenchmarkPromptOf10kMemories(b *testing.B) {
	req := bigRequest(10000)
	for b.Loop() {
		if _, _, _, err := Prompt(req); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLargeStoreCountsThePromptFewTimes: fitting a store of 10,000 memories counts the whole
// message only a few times. Cutting the listing stepped over memories already hidden, rendering
// and counting an unchanged prompt of 300 KB again for each step (40 times).
func TestLargeStoreCountsThePromptFewTimes(t *testing.T) {
	counted := 0
	defer func(f func(string) int) { countMessage = f }(countMessage)
	countMessage = func(s string) int {
		counted++
		return tokens.Count(s)
	}
	if _, _, _, err := Prompt(bigRequest(10000)); err != nil {
		t.Fatal(err)
	}
	if counted > 6 {
		t.Errorf("the whole message was counted %d times, want at most 6", counted)
	}
}
