package offline

import (
	"context"
	"strings"
	"testing"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/memory"
)

// TestScopes: what the person says about themselves and rules they give for every project go to
// the user store when the pass has one; project facts go to the team's when it has one; the rest
// stays in the project's store.
func TestScopes(t *testing.T) {
	everyScope := []memory.Scope{memory.ScopeProject, memory.ScopeUser, memory.ScopeTeam}
	tests := []struct {
		say    string
		scopes []memory.Scope
		want   memory.Scope
	}{
		{"I'm a data engineer, new to Go.", everyScope, memory.ScopeUser},
		{"I'm the only author of this blog and I write in British English.", everyScope, memory.ScopeProject},
		{"I prefer terse answers without preamble, in every project.", everyScope, memory.ScopeUser},
		{"Never push to main without asking me first, everywhere.", everyScope, memory.ScopeUser},
		{"帮我写进codex的全局，就是注释要是中文的", everyScope, memory.ScopeUser},
		{"Always run make lint before committing.", everyScope, memory.ScopeProject},
		{"We migrated the payments service to Postgres yesterday.", everyScope, memory.ScopeTeam},
		{"We migrated the payments service to Postgres yesterday.", everyScope[:2], memory.ScopeProject},
		{"I'm a data engineer, new to Go.", everyScope[:1], memory.ScopeProject},
		{"I'm a data engineer, new to Go.", []memory.Scope{memory.ScopeUser}, memory.ScopeUser},
	}
	for _, tt := range tests {
		t.Run(tt.say, func(t *testing.T) {
			req := extract.Request{Today: day(20), Sessions: []extract.Session{userSession("s1", day(18), tt.say)}, Scopes: tt.scopes,
				TeamTypes: []memory.Type{memory.Project, memory.Reference}}
			res, err := New().Consolidate(context.Background(), req)
			if err != nil || len(res.Response.Operations) != 1 {
				t.Fatalf("%v: %+v", err, res.Response.Operations)
			}
			op := res.Response.Operations[0]
			if op.Scope != tt.want {
				t.Errorf("scope %q, want %q (type %s)", op.Scope, tt.want, op.Type)
			}
			if op.Scope == memory.ScopeUser && strings.Contains(op.Body, "working in shop") {
				t.Errorf("a user-scope rule names the project it was said in:\n%s", op.Body)
			}
		})
	}
}

// TestAskedNowIsNoLesson: phrasings found in aider's own public history that ask for an edit now,
// or say what a request brings, are no lessons; standing rules and facts still are.
func TestAskedNowIsNoLesson(t *testing.T) {
	aider := func(text string) extract.Session {
		s := userSession("a1", day(18), text)
		s.Source = "aider"
		return s
	}
	tests := []struct {
		session extract.Session
		lesson  bool
	}{
		{aider("Use the Spinner instead of the inlined custom spinner."), false},
		{aider("Don't mock completion."), false},
		{aider("Always show one line before, even for 1 file."), true},
		{aider("From now on use slog instead of logrus."), true},
		{aider("We migrated the orders database from MySQL to Postgres on 2024-08-01."), true},
		{userSession("c1", day(18), "Use slog instead of logrus."), true}, // in a conversation, a stated preference
		{userSession("c1", day(18), "Wrap the analytics in an object. Then I don't have to do the check everywhere."), false},
		{userSession("c1", day(18), "Use with gpt-4o and --map-tokens 0. mock RepoMap and ensure it is not called."), false},
	}
	for _, tt := range tests {
		t.Run(tt.session.Turns[0].Text, func(t *testing.T) {
			res, err := New().Consolidate(context.Background(), extract.Request{Today: day(20), Sessions: []extract.Session{tt.session}})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Response.Operations) > 0; got != tt.lesson {
				t.Errorf("lesson = %v, want %v: %+v", got, tt.lesson, res.Response.Operations)
			}
		})
	}
}
