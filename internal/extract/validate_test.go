package extract

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/sanitize"
	"github.com/dreamd/dreamd/internal/slug"
)

func validateRequest() Request {
	return Request{
		Memories: []Memory{
			{Name: "deploy-via-make", Type: "project", Description: "Deploys run through make deploy", Body: "make deploy"},
			{Name: "run-lint", Type: "feedback", Description: "Run make lint before committing", Body: "Run make lint."},
			{Name: "lint-required", Type: "feedback", Description: "CI rejects lint failures", Body: "CI runs lint."},
			{Name: "house-style", Type: "user", Description: "Ana prefers short answers", Body: "Short answers.", Pinned: true},
			{Name: "old-fact", Type: "reference", Description: "Dashboards live in Grafana", Body: "grafana.example.com"},
		},
		Sessions: []Session{{ID: "claude:s1"}, {ID: "codex:s2"}},
	}
}

// op returns a valid operation; edits adjust it.
func op(action Action, name string, edits ...func(*Operation)) Operation {
	o := Operation{
		Action: action, Name: name, Type: "project",
		Description: "Deploys go through ./deploy.sh", Body: "Deploy with `./deploy.sh`.",
		MergedFrom: []string{}, Supersedes: []string{}, Reason: "the user said so", Evidence: []string{"claude:s1"},
	}
	if action == "delete" {
		o.Type, o.Description, o.Body = "", "", ""
	}
	for _, e := range edits {
		e(&o)
	}
	return o
}

func TestValidate(t *testing.T) {
	githubPAT := "ghp_" + "1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"
	tests := []struct {
		name     string
		ops      []Operation
		accepted []string // "action name" of each accepted operation
		rejected []string // a fragment of each rejection reason
	}{
		{"create", []Operation{op("create", "deploy-with-deploy-sh")}, []string{"create deploy-with-deploy-sh"}, nil},
		{"update", []Operation{op("update", "deploy-via-make")}, []string{"update deploy-via-make"}, nil},
		{"delete", []Operation{op("delete", "old-fact")}, []string{"delete old-fact"}, nil},
		{"create of existing becomes update", []Operation{op("create", "run-lint")}, []string{"update run-lint"}, nil},
		{"update of pinned is refused", []Operation{op("update", "house-style", func(o *Operation) { o.Type = "user" })},
			nil, []string{`pinned memory "house-style" is never rewritten`}},
		{"unknown action", []Operation{op("rename", "x")}, nil, []string{`unknown action "rename"`}},
		{"path escape", []Operation{op("create", "../x")}, nil, []string{`invalid name "../x"`}},
		{"slash", []Operation{op("create", "a/b")}, nil, []string{"invalid name"}},
		{"index name", []Operation{op("create", "MEMORY")}, nil, []string{"invalid name"}},
		{"index file", []Operation{op("create", "memory.md")}, nil, []string{"invalid name"}},
		{"index on case-insensitive fs", []Operation{op("create", "memory")}, nil, []string{"invalid name"}},
		{"too long name", []Operation{op("create", strings.Repeat("a", 65))}, nil, []string{"invalid name"}},
		{"loose name is slugged", []Operation{op("create", "Deploy_With Deploy")}, []string{"create deploy-with-deploy"}, nil},
		{"file name is slugged", []Operation{op("create", "deploy-rule.md")}, []string{"create deploy-rule"}, nil},
		{"loose reference finds the memory", []Operation{op("update", "Deploy-Via-Make")}, []string{"update deploy-via-make"}, nil},
		{"backslash stays refused", []Operation{op("create", `a\b`)}, nil, []string{"invalid name"}},
		{"dotfile stays refused", []Operation{op("create", ".hidden")}, nil, []string{"invalid name"}},
		{"empty name", []Operation{op("create", "")}, nil, []string{"invalid name"}},
		{"update of unknown", []Operation{op("update", "nope")}, nil, []string{`update of unknown memory "nope"`}},
		{"delete of unknown", []Operation{op("delete", "nope")}, nil, []string{`delete of unknown memory "nope"`}},
		{"bad type", []Operation{op("create", "x", func(o *Operation) { o.Type = "note" })}, nil, []string{`invalid type "note"`}},
		{"empty type", []Operation{op("create", "x", func(o *Operation) { o.Type = "" })}, nil, []string{"invalid type"}},
		{"empty description", []Operation{op("create", "x", func(o *Operation) { o.Description = " " })}, nil, []string{"empty description"}},
		{"two-line description joined", []Operation{op("create", "x", func(o *Operation) { o.Description = "a\nb" })}, []string{"create x"}, nil},
		{"long description repaired", []Operation{op("create", "x", func(o *Operation) { o.Description = strings.Repeat("é", 151) })},
			[]string{"create x"}, nil},
		{"description at limit", []Operation{op("create", "x", func(o *Operation) { o.Description = strings.Repeat("é", 150) })},
			[]string{"create x"}, nil},
		{"empty body", []Operation{op("create", "x", func(o *Operation) { o.Body = "\n" })}, nil, []string{"empty body"}},
		{"long body", []Operation{op("create", "x", func(o *Operation) { o.Body = strings.Repeat("b", 4097) })},
			nil, []string{"body is 4097 bytes, limit 4096"}},
		{"merge", []Operation{op("update", "run-lint", func(o *Operation) { o.MergedFrom = []string{"lint-required"} })},
			[]string{"update run-lint"}, nil},
		{"merge unknown repaired", []Operation{op("update", "run-lint", func(o *Operation) { o.MergedFrom = []string{"ghost"} })},
			[]string{"update run-lint"}, nil},
		{"supersede unknown repaired", []Operation{op("create", "x", func(o *Operation) { o.Supersedes = []string{"ghost"} })},
			[]string{"create x"}, nil},
		{"merge a path refused", []Operation{op("create", "x", func(o *Operation) { o.MergedFrom = []string{"../etc/passwd"} })},
			nil, []string{`cannot merge unknown memory "../etc/passwd"`}},
		{"delete pinned", []Operation{op("delete", "house-style")}, nil, []string{`pinned memory "house-style" cannot be deleted`}},
		{"reinforce", []Operation{op("reinforce", "run-lint")}, []string{"reinforce run-lint"}, nil},
		{"reinforce pinned", []Operation{op("reinforce", "house-style")}, nil, []string{`pinned memory "house-style" is never rewritten`}},
		{"reinforce without evidence", []Operation{op("reinforce", "run-lint", func(o *Operation) { o.Evidence = []string{"nope"} })},
			nil, []string{"names no session"}},
		{"reinforce unknown", []Operation{op("reinforce", "ghost")}, nil, []string{`reinforce of unknown memory "ghost"`}},
		{"merge pinned", []Operation{op("update", "run-lint", func(o *Operation) { o.MergedFrom = []string{"house-style"} })},
			nil, []string{`cannot merge pinned memory "house-style"`}},
		{"supersede pinned", []Operation{op("create", "x", func(o *Operation) { o.Supersedes = []string{"house-style"} })},
			nil, []string{`cannot supersede pinned memory "house-style"`}},
		{"delete with merge", []Operation{op("delete", "old-fact", func(o *Operation) { o.MergedFrom = []string{"run-lint"} })},
			nil, []string{"delete cannot merge"}},
		{"merged and superseded at once", []Operation{op("create", "x", func(o *Operation) {
			o.MergedFrom = []string{"old-fact"}
			o.Supersedes = []string{"old-fact"}
		})}, nil, []string{`"old-fact" both merged and superseded`}},
		{"retired twice", []Operation{
			op("update", "run-lint", func(o *Operation) { o.MergedFrom = []string{"lint-required"} }),
			op("create", "x", func(o *Operation) { o.Supersedes = []string{"lint-required"} }),
		}, []string{"update run-lint"}, []string{`"lint-required" already retired`}},
		{"retired then updated", []Operation{
			op("delete", "old-fact"),
			op("update", "old-fact", func(o *Operation) { o.Type = "reference" }),
		}, []string{"delete old-fact"}, []string{`"old-fact" already retired`}},
		{"updated then retired", []Operation{
			op("update", "deploy-via-make"),
			op("create", "x", func(o *Operation) { o.MergedFrom = []string{"deploy-via-make"} }),
		}, []string{"update deploy-via-make"}, []string{`"deploy-via-make" updated by an earlier operation`}},
		{"updated then deleted", []Operation{op("update", "old-fact"), op("delete", "old-fact")},
			[]string{"update old-fact"}, []string{"updated by an earlier operation"}},
		{"written twice", []Operation{op("create", "x"), op("create", "x")},
			[]string{"create x"}, []string{`"x" already written`}},
		{"secret in body", []Operation{op("create", "x", func(o *Operation) { o.Body = "use " + githubPAT })},
			nil, []string{"secret (github-token) in body"}},
		{"secret in description", []Operation{op("create", "x", func(o *Operation) { o.Description = "password=hunter2" })},
			nil, []string{"secret (password) in description"}},
		{"rejection does not stop later ops", []Operation{op("update", "nope"), op("create", "x")},
			[]string{"create x"}, []string{"unknown memory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Validate(Response{Operations: tt.ops}, validateRequest(), memory.Limits{}, nil)
			ops, rejected := v.Operations, v.Rejected
			var got []string
			for _, o := range ops {
				got = append(got, string(o.Action)+" "+o.Name)
			}
			if !slices.Equal(got, tt.accepted) {
				t.Errorf("accepted %q, want %q", got, tt.accepted)
			}
			if len(rejected) != len(tt.rejected) {
				t.Fatalf("rejected %+v, want %d", rejected, len(tt.rejected))
			}
			for i, r := range rejected {
				if !strings.Contains(r.Reason, tt.rejected[i]) {
					t.Errorf("reason %q does not contain %q", r.Reason, tt.rejected[i])
				}
				if strings.Contains(r.Reason, githubPAT) || strings.Contains(r.Reason, "hunter2") {
					t.Errorf("reason %q echoes the secret", r.Reason)
				}
			}
		})
	}
}

func TestValidateNormalizes(t *testing.T) {
	in := op("update", "run-lint", func(o *Operation) {
		o.Action, o.Type = " Update", "Feedback "
		o.Description = "  Run make lint  "
		o.Body = "\nRun make lint.\n\n"
		o.MergedFrom = []string{"lint-required", "run-lint", "lint-required", ""}
		o.Evidence = []string{"claude:s1", "claude:invented", "claude:s1", "codex:s2"}
		o.Reason = "user pasted token=abcd1234efgh"
	})
	v := Validate(Response{Operations: []Operation{in}}, validateRequest(), memory.Limits{}, nil)
	ops, rejected := v.Operations, v.Rejected
	if len(rejected) > 0 {
		t.Fatalf("rejected: %+v", rejected)
	}
	got := ops[0]
	if got.Action != "update" || got.Type != "feedback" || got.Description != "Run make lint" || got.Body != "Run make lint." {
		t.Errorf("not normalized: %+v", got)
	}
	if !slices.Equal(got.MergedFrom, []string{"lint-required"}) {
		t.Errorf("merged_from %q", got.MergedFrom)
	}
	if !slices.Equal(got.Evidence, []string{"claude:s1", "codex:s2"}) {
		t.Errorf("evidence %q, want only the digest's sessions", got.Evidence)
	}
	if strings.Contains(got.Reason, "abcd1234efgh") {
		t.Errorf("reason keeps a secret: %q", got.Reason)
	}
}

func TestValidateScrubsRejected(t *testing.T) {
	key := "AKIA" + "IOSFODNN7EXAMPLE"
	in := op("create", "x", func(o *Operation) { o.Body = "the key is " + key })
	rejected := Validate(Response{Operations: []Operation{in}}, validateRequest(), memory.Limits{}, nil).Rejected
	if len(rejected) != 1 {
		t.Fatalf("rejected %+v", rejected)
	}
	if r := rejected[0]; strings.Contains(r.Operation.Body, key) || strings.Contains(r.Reason, key) {
		t.Errorf("rejected operation still holds the secret: %+v", r)
	}
}

func TestValidateLimits(t *testing.T) {
	in := op("create", "x", func(o *Operation) { o.Body = strings.Repeat("b", 101) })
	rejected := Validate(Response{Operations: []Operation{in}}, validateRequest(), memory.Limits{DescriptionMax: 150, MemoryMaxBytes: 100}, nil).Rejected
	if len(rejected) != 1 || !strings.Contains(rejected[0].Reason, "limit 100") {
		t.Errorf("rejected %+v, want the body over a limit of 100", rejected)
	}
}

// TestValidateRepairs: what a careful reader would mend is mended and reported, never dropped.
func TestValidateRepairs(t *testing.T) {
	long := "Deploys go through ./deploy.sh, which refuses to run on a dirty git tree because the script tags the release from HEAD and pushes the tag to origin right away"
	in := op("create", "Deploy_With Deploy.md", func(o *Operation) {
		o.Description = long
		o.MergedFrom = []string{"ghost", "run-lint"}
		o.Evidence = []string{"claude:s1", "codex:nope"}
	})
	req := validateRequest()
	req.Sessions = []Session{{ID: "s1", Source: "claude"}} // the digest shows the bare id, the kind apart
	v := Validate(Response{Operations: []Operation{in}}, req, memory.Limits{}, nil)
	if len(v.Operations) != 1 || len(v.Rejected) != 0 {
		t.Fatalf("accepted %v, rejected %v", v.Operations, v.Rejected)
	}
	got := v.Operations[0]
	line := "- [" + got.Name + "](" + got.Name + ".md) — " + got.Description
	switch {
	case got.Name != "deploy-with-deploy":
		t.Errorf("name = %q", got.Name)
	case utf8.RuneCountInString(line) > 150 || !strings.HasSuffix(got.Description, "…") || strings.Contains(got.Description, "  "):
		t.Errorf("description %q does not fit its index line (%d characters)", got.Description, utf8.RuneCountInString(line))
	case !slices.Equal(got.MergedFrom, []string{"run-lint"}):
		t.Errorf("merged_from = %v", got.MergedFrom)
	case !slices.Equal(got.Evidence, []string{"s1"}):
		t.Errorf("evidence = %v, want the kind:id form accepted", got.Evidence)
	}
	if len(v.Repaired) != 3 {
		t.Errorf("repairs reported: %v", v.Repaired)
	}
}

// FuzzModelAnswer: whatever a model answers, what validation accepts is a memory dreamd can write
// and load again: a valid name, no control byte, within the caps.
func FuzzModelAnswer(f *testing.F) {
	f.Add(validReply)
	f.Add(`{"summary": "", "operations": [{"action": "create", "name": "A b\u0000", "type": "user", "description": "d\u001b[2J", "body": "b\u0007", "merged_from": [], "supersedes": ["ghost"], "reason": "", "evidence": ["claude:s1"]}]}`)
	f.Fuzz(func(t *testing.T, content string) {
		resp, err := ParseResponse(content)
		if err != nil {
			return
		}
		lim := memory.DefaultLimits
		for _, op := range Validate(resp, validateRequest(), lim, nil).Operations {
			if !slug.Valid(op.Name) || !sanitize.Clean(op.Description) || !sanitize.Clean(op.Body) || strings.Contains(op.Description, "\n") {
				t.Fatalf("accepted %+v", op)
			}
			if utf8.RuneCountInString(op.Description) > lim.DescriptionMax || len(op.Body) > lim.MemoryMaxBytes {
				t.Fatalf("accepted over the caps: %+v", op)
			}
		}
	})
}

// TestValidateScope: an operation keeps a scope this pass has a store for, else stays in this
// store, and says why.
func TestValidateScope(t *testing.T) {
	withUser := func(r Request) Request { r.Scopes = []memory.Scope{memory.ScopeProject, memory.ScopeUser}; return r }
	scoped := func(s memory.Scope, typ memory.Type) func(*Operation) {
		return func(o *Operation) { o.Scope, o.Type = s, typ }
	}
	tests := []struct {
		name     string
		req      Request
		op       Operation
		want     memory.Scope
		repaired string // a fragment of the repair, "" for none
	}{
		{"no scope is this store's", withUser(validateRequest()), op(Create, "x"), memory.ScopeProject, ""},
		{"a preference for every project goes to the user", withUser(validateRequest()), op(Create, "terse", scoped(memory.ScopeUser, memory.User)), memory.ScopeUser, ""},
		{"a move of an existing memory", withUser(validateRequest()), op(Update, "run-lint", scoped(memory.ScopeUser, memory.Feedback)), memory.ScopeUser, ""},
		{"no user store in this pass", validateRequest(), op(Create, "terse", scoped(memory.ScopeUser, memory.User)), memory.ScopeProject, "has no store in this pass"},
		{"no team store", withUser(validateRequest()), op(Create, "x", scoped(memory.ScopeTeam, memory.Project)), memory.ScopeProject, "has no store"},
		{"a project fact never goes to the user", withUser(validateRequest()), op(Create, "x", scoped(memory.ScopeUser, memory.Project)), memory.ScopeProject, "one project's facts"},
		{"a delete acts here", withUser(validateRequest()), op(Delete, "old-fact", scoped(memory.ScopeUser, "")), memory.ScopeProject, "acts on this store's memories"},
		{"the user store's own pass", Request{Scopes: []memory.Scope{memory.ScopeUser}, Sessions: []Session{{ID: "claude:s1"}}}, op(Create, "terse", scoped("", memory.User)), memory.ScopeUser, ""},
		{"written loosely", withUser(validateRequest()), op(Create, "terse", scoped(" User ", memory.User)), memory.ScopeUser, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Validate(Response{Operations: []Operation{tt.op}}, tt.req, memory.DefaultLimits, nil)
			if len(v.Operations) != 1 {
				t.Fatalf("rejected: %+v", v.Rejected)
			}
			if got := v.Operations[0].Scope; got != tt.want {
				t.Errorf("scope %q, want %q", got, tt.want)
			}
			var repairs []string
			for _, r := range v.Repaired {
				repairs = append(repairs, r.What)
			}
			if got := strings.Join(repairs, "; "); (tt.repaired == "") != (got == "") || !strings.Contains(got, tt.repaired) {
				t.Errorf("repairs %q, want %q", got, tt.repaired)
			}
		})
	}
}

// TestValidateScopedStores: the user's and the team's stores keep only what they are for; what
// their passes cannot hold is refused, never kept there.
func TestValidateScopedStores(t *testing.T) {
	team := []memory.Type{memory.Project, memory.Reference}
	tests := []struct {
		name   string
		own    memory.Scope
		op     Operation
		reason string // a fragment of the rejection, "" when accepted
	}{
		{"the user store takes a user memory", memory.ScopeUser, op(Create, "terse", func(o *Operation) { o.Type = memory.User }), ""},
		{"the user store takes no project fact", memory.ScopeUser, op(Create, "deploy"), "holds no project memories"},
		{"the user store sends nothing on", memory.ScopeUser, op(Create, "deploy", func(o *Operation) { o.Scope = memory.ScopeTeam }), "writes only user-scope"},
		{"the team store takes a project fact", memory.ScopeTeam, op(Create, "deploy"), ""},
		{"the team store takes nothing personal", memory.ScopeTeam, op(Create, "terse", func(o *Operation) { o.Type = memory.Feedback }), "takes no feedback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := Request{Scopes: []memory.Scope{tt.own}, TeamTypes: team, Sessions: []Session{{ID: "claude:s1"}}}
			v := Validate(Response{Operations: []Operation{tt.op}}, req, memory.DefaultLimits, nil)
			switch {
			case tt.reason == "" && len(v.Operations) != 1:
				t.Errorf("rejected: %+v", v.Rejected)
			case tt.reason != "" && (len(v.Rejected) != 1 || !strings.Contains(v.Rejected[0].Reason, tt.reason)):
				t.Errorf("rejections %+v, want %q", v.Rejected, tt.reason)
			}
		})
	}
}
