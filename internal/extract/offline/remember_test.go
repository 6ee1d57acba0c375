package offline

import (
	"context"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/transcript"
)

// A note queued with `dreamd remember` is kept whatever its phrasing, with the type asked for.
func TestRememberedNotesAreAlwaysKept(t *testing.T) {
	tests := []struct {
		text, wantType string
		wantDesc       string // the memory's description, when the test says
	}{
		{"Remember this: integration tests need docker compose up -d db first.", "", ""},
		{"Remember this (as a feedback memory): Posts are written in British English.", "feedback", ""},
		{"Remember this (as a reference memory): the runbook is in docs/oncall.md.", "reference", ""},
		{"Remember this: the staging database is read-only on Fridays.", "", ""},
		// a rule in another language, sent on from a project's pass: the note's English is not its
		{"Remember this (as a feedback memory): 帮我写进codex的全局，就是注释要是中文的.", "feedback", "帮我写进codex的全局，就是注释要是中文的."},
		// the person's reply language, sent on from a project's pass, is kept as it was written there
		// a trait of the person's sent on from a project's pass
		{"Remember this (as a user memory): The user is new to Elixir.\n\nSource: stated by the user in their 2nd message of session s9 on 2026-11-02.", "user", "The user is new to Elixir."},
		{"Remember this (as a user memory): Answer the person in English (they asked: \"and keep our chat in english\").\n\nSource: stated by the user in their 6th message of session s1 on 2026-11-10.", "user", "Answer the person in English (they asked: \"and keep our chat in english\")."},
	}
	for _, tt := range tests {
		s := userSession("note-1", day(10), tt.text)
		s.Source = rememberSource
		if strings.Contains(tt.text, "Source: ") {
			s.Origin = &transcript.Origin{Sources: []string{"claude:s9"}} // sent on from a project's pass
		}
		res, err := New().Consolidate(context.Background(), extract.Request{Today: day(11), Sessions: []extract.Session{s}})
		if err != nil {
			t.Fatal(err)
		}
		ops := res.Response.Operations
		if len(ops) != 1 {
			t.Errorf("%q: %d operations, want 1: %+v", tt.text, len(ops), ops)
			continue
		}
		if tt.wantDesc != "" && ops[0].Description != tt.wantDesc {
			t.Errorf("%q: description %q, want %q", tt.text, ops[0].Description, tt.wantDesc)
		}
		if tt.wantType != "" && string(ops[0].Type) != tt.wantType {
			t.Errorf("%q: type %q, want %q", tt.text, ops[0].Type, tt.wantType)
		}
		// where the lesson was learnt, as the note carried it, not the note's own session
		if _, source, ok := strings.Cut(tt.text, "Source: "); ok && !strings.Contains(ops[0].Body, "Source: "+source) {
			t.Errorf("%q: body %q, want the source the note carried", tt.text, ops[0].Body)
		}
	}
}
