package extract

import (
	"fmt"
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
		{"windows device", []Operation{op("create", "con")}, nil, []string{`invalid name "con"`}},
		{"windows device, any case", []Operation{op("create", "NUL.md")}, nil, []string{"invalid name"}},
		{"windows device, numbered", []Operation{op("create", "com1"), op("create", "lpt9"), op("create", "aux")}, nil, []string{"invalid name", "invalid name", "invalid name"}},
		{"a device name within a name is fine", []Operation{op("create", "con-config")}, []string{"create con-config"}, nil},
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
// and load again: a valid name (or the name of a memory the store holds), no control byte, within
// the caps.
func FuzzModelAnswer(f *testing.F) {
	f.Add(validReply)
	f.Add(`{"summary": "", "operations": [{"action": "create", "name": "A b\u0000", "type": "user", "description": "d\u001b[2J", "body": "b\u0007", "merged_from": [], "supersedes": ["ghost"], "reason": "", "evidence": ["claude:s1"]}]}`)
	f.Fuzz(func(t *testing.T, content string) {
		resp, err := ParseResponse(content)
		if err != nil {
			return
		}
		lim := memory.DefaultLimits
		req := handWrittenRequest()
		for _, op := range Validate(resp, req, lim, nil).Operations {
			held := slices.ContainsFunc(req.Memories, func(m Memory) bool { return m.Name == op.Name })
			if !slug.Valid(op.Name) && !held || strings.EqualFold(op.Name, "memory") || !sanitize.Clean(op.Description) || !sanitize.Clean(op.Body) || strings.Contains(op.Description, "\n") {
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
		{"written loosely", withUser(validateRequest()), op(Create, "terse", scoped(" User ", memory.User)), memory.ScopeUser, `read as "user"`},
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

// handWrittenRequest is validateRequest with memories a person wrote by hand, whose file names are
// not slugs: the memory's name is the file's stem, whatever it is.
func handWrittenRequest() Request {
	req := validateRequest()
	req.Memories = append(req.Memories,
		Memory{Name: "OrdersDB", Type: "project", Description: "The orders database runs on MySQL", Body: "Use the mysql driver."},
		Memory{Name: "Staging Hosts", Type: "reference", Description: "Staging runs on two hosts", Body: "stage1, stage2"},
		Memory{Name: "Pinned Rule", Type: "feedback", Description: "A rule a person fixed", Body: "Keep it.", Pinned: true},
		Memory{Name: "Foo", Type: "project", Description: "Foo, capitalised", Body: "Foo."},
		Memory{Name: "foo", Type: "project", Description: "foo, in lower case", Body: "foo."},
		Memory{Name: "Deploy Notes", Type: "project", Description: "Notes on deploys", Body: "Notes."},
		Memory{Name: "deploy_notes", Type: "project", Description: "More notes on deploys", Body: "More notes."},
		Memory{Name: "Memory", Type: "project", Description: "A file that is MEMORY.md on a case-insensitive disk", Body: "x"},
		// the request carries a memory's name redacted when its file name holds a secret
		Memory{Name: "notes on [REDACTED:github-token]", Type: "project", Description: "d", Body: "b"},
	)
	return req
}

// TestValidateResolvesExistingNames: an operation that names an existing memory, exactly, in
// another case, by its slug or by its slug without hyphens, acts on that memory under its own
// name (the plan then rewrites its file, not a new slugged one), and the repair is reported. A
// name that matches several memories is not guessed at.
func TestValidateResolvesExistingNames(t *testing.T) {
	merge := func(names ...string) func(*Operation) { return func(o *Operation) { o.MergedFrom = names } }
	supersede := func(names ...string) func(*Operation) { return func(o *Operation) { o.Supersedes = names } }
	tests := []struct {
		name     string
		op       Operation
		accepted string   // "action name [merged_from] [supersedes]" of the accepted operation, "" when rejected
		rejected string   // a fragment of the rejection, "" when accepted
		repaired []string // a fragment of each repair reported
	}{
		// update
		{"update, exact", op(Update, "OrdersDB"), "update OrdersDB [] []", "", nil},
		{"update, file name", op(Update, "OrdersDB.md"), "update OrdersDB [] []", "", nil},
		{"update, other case", op(Update, "ordersdb"), "update OrdersDB [] []", "",
			[]string{`name "ordersdb" refers to the existing memory "OrdersDB"`}},
		{"update, other case as a file name", op(Update, "ORDERSDB.md"), "update OrdersDB [] []", "",
			[]string{`refers to the existing memory "OrdersDB"`}},
		{"update, slug without hyphens", op(Update, "orders-db"), "update OrdersDB [] []", "",
			[]string{`name "orders-db" refers to the existing memory "OrdersDB"`}},
		{"update, spaces exact", op(Update, "Staging Hosts"), "update Staging Hosts [] []", "", nil},
		{"update, spaces other case", op(Update, "staging hosts"), "update Staging Hosts [] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"update, spaces slugged", op(Update, "staging-hosts"), "update Staging Hosts [] []", "",
			[]string{`name "staging-hosts" refers to the existing memory "Staging Hosts"`}},
		{"update, spaces written loosely", op(Update, " Staging_Hosts.md "), "update Staging Hosts [] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"update, slug memory in other case", op(Update, "Run-Lint"), "update run-lint [] []", "",
			[]string{`refers to the existing memory "run-lint"`}},
		{"update, unknown", op(Update, "orders"), "", `update of unknown memory "orders"`, nil},
		{"update, a path never resolves", op(Update, "../OrdersDB"), "", `invalid name "../OrdersDB"`, nil},
		{"update, pinned once resolved", op(Update, "pinned-rule"), "", `pinned memory "Pinned Rule" is never rewritten`, nil},
		{"update, reserved once resolved", op(Update, "memory"), "", `invalid name "Memory"`, nil},
		{"update, a name sent redacted", op(Update, "notes on [REDACTED:github-token]"), "", `invalid name "notes on [REDACTED:github-token]"`, nil},
		// create: of a memory that exists by another spelling, it is an update, not a near-duplicate
		{"create, slug of a hand-written name", op(Create, "staging-hosts"), "update Staging Hosts [] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"create, other case", op(Create, "ordersDB"), "update OrdersDB [] []", "",
			[]string{`refers to the existing memory "OrdersDB"`}},
		{"create, new name is slugged", op(Create, "Orders Archive"), "create orders-archive [] []", "",
			[]string{`written as the slug "orders-archive"`}},
		// delete and reinforce
		{"delete, exact", op(Delete, "Staging Hosts"), "delete Staging Hosts [] []", "", nil},
		{"delete, other case", op(Delete, "STAGING HOSTS"), "delete Staging Hosts [] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"delete, slugged", op(Delete, "ordersdb"), "delete OrdersDB [] []", "", []string{`refers to the existing memory "OrdersDB"`}},
		{"delete, pinned once resolved", op(Delete, "PINNED RULE"), "", `pinned memory "Pinned Rule" cannot be deleted`, nil},
		{"reinforce, slugged", op(Reinforce, "staging-hosts"), "reinforce Staging Hosts [] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		// merged_from
		{"merged_from, exact", op(Update, "run-lint", merge("OrdersDB")), "update run-lint [OrdersDB] []", "", nil},
		{"merged_from, other case", op(Update, "run-lint", merge("ordersdb")), "update run-lint [OrdersDB] []", "",
			[]string{`name "ordersdb" refers to the existing memory "OrdersDB"`}},
		{"merged_from, slugged", op(Update, "run-lint", merge("staging-hosts")), "update run-lint [Staging Hosts] []", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"merged_from, into a hand-written memory", op(Update, "OrdersDB", merge("Staging Hosts")), "update OrdersDB [Staging Hosts] []", "", nil},
		{"merged_from, itself once resolved", op(Update, "OrdersDB", merge("ordersdb", "orders-db")), "update OrdersDB [] []", "",
			[]string{`refers to the existing memory "OrdersDB"`, `refers to the existing memory "OrdersDB"`}},
		{"merged_from, two spellings of one memory", op(Update, "run-lint", merge("OrdersDB", "ordersdb")), "update run-lint [OrdersDB] []", "",
			[]string{`refers to the existing memory "OrdersDB"`}},
		{"merged_from, pinned once resolved", op(Update, "run-lint", merge("pinned-rule")), "", `cannot merge pinned memory "Pinned Rule"`, nil},
		{"merged_from, unknown left out", op(Update, "run-lint", merge("Orders Archive")), "update run-lint [] []", "",
			[]string{`unknown memory "orders-archive" left out`}},
		// supersedes
		{"supersedes, exact", op(Create, "orders-database", supersede("OrdersDB")), "create orders-database [] [OrdersDB]", "", nil},
		{"supersedes, other case", op(Create, "orders-database", supersede("Ordersdb.md")), "create orders-database [] [OrdersDB]", "",
			[]string{`refers to the existing memory "OrdersDB"`}},
		{"supersedes, slugged", op(Create, "staging", supersede("staging-hosts")), "create staging [] [Staging Hosts]", "",
			[]string{`refers to the existing memory "Staging Hosts"`}},
		{"merged and superseded once resolved", op(Create, "x", merge("OrdersDB"), supersede("ordersdb")), "",
			`"OrdersDB" both merged and superseded`, nil},
		// ambiguous: two memories match, neither is guessed
		{"update, exact of one of two", op(Update, "foo"), "update foo [] []", "", nil},
		{"update, exact of the other", op(Update, "Foo"), "update Foo [] []", "", nil},
		{"update, ambiguous case", op(Update, "FOO"), "", `update of "FOO" is ambiguous: it matches the memories "Foo" and "foo"`, nil},
		{"create, ambiguous case", op(Create, "fOO"), "", `create of "fOO" is ambiguous`, nil},
		{"delete, ambiguous case", op(Delete, "FOO"), "", `delete of "FOO" is ambiguous`, nil},
		{"update, ambiguous slug", op(Update, "deploy-notes"), "", `matches the memories "Deploy Notes" and "deploy_notes"`, nil},
		{"update, case wins over slug", op(Update, "DEPLOY NOTES"), "update Deploy Notes [] []", "",
			[]string{`refers to the existing memory "Deploy Notes"`}},
		{"merged_from, ambiguous left out", op(Update, "run-lint", merge("FOO", "OrdersDB")), "update run-lint [OrdersDB] []", "",
			[]string{`"FOO" matches the memories "Foo" and "foo": ambiguous, left out`}},
		{"supersedes, ambiguous left out", op(Create, "x", supersede("deploy-notes")), "create x [] []", "",
			[]string{`ambiguous, left out of merged_from/supersedes`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Validate(Response{Operations: []Operation{tt.op}}, handWrittenRequest(), memory.DefaultLimits, nil)
			var accepted, rejected string
			for _, o := range v.Operations {
				accepted = fmt.Sprintf("%s %s %v %v", o.Action, o.Name, o.MergedFrom, o.Supersedes)
			}
			for _, r := range v.Rejected {
				rejected = r.Reason
			}
			if accepted != tt.accepted {
				t.Errorf("accepted %q, want %q (rejected: %q)", accepted, tt.accepted, rejected)
			}
			if (tt.rejected == "") != (rejected == "") || !strings.Contains(rejected, tt.rejected) {
				t.Errorf("rejected %q, want %q", rejected, tt.rejected)
			}
			var repairs []string
			for _, r := range v.Repaired {
				if strings.Contains(r.What, "description shortened") {
					continue // not what this test is about
				}
				repairs = append(repairs, r.What)
			}
			if len(repairs) != len(tt.repaired) {
				t.Fatalf("repairs %q, want %q", repairs, tt.repaired)
			}
			for i, r := range repairs {
				if !strings.Contains(r, tt.repaired[i]) {
					t.Errorf("repair %q does not contain %q", r, tt.repaired[i])
				}
			}
		})
	}
}

// TestValidateResolvesBeforeConflicts: two spellings of one memory are one memory, so a second
// operation on it is the contradiction it would be under the same name.
func TestValidateResolvesBeforeConflicts(t *testing.T) {
	ops := []Operation{
		op(Update, "OrdersDB"),
		op(Update, "ordersdb"),
		op(Create, "x", func(o *Operation) { o.Supersedes = []string{"orders-db"} }),
	}
	v := Validate(Response{Operations: ops}, handWrittenRequest(), memory.DefaultLimits, nil)
	if len(v.Operations) != 1 || v.Operations[0].Name != "OrdersDB" {
		t.Fatalf("accepted %+v", v.Operations)
	}
	want := []string{`"OrdersDB" already written`, `"OrdersDB" updated by an earlier operation`}
	if len(v.Rejected) != len(want) {
		t.Fatalf("rejected %+v", v.Rejected)
	}
	for i, r := range v.Rejected {
		if !strings.Contains(r.Reason, want[i]) {
			t.Errorf("reason %q, want %q", r.Reason, want[i])
		}
	}
}

// TestValidateLongNamesAreNotCutToMatch: slugs are compared before any cut to slug.MaxLen, so two
// long names alike in their first 64 characters never stand for each other.
func TestValidateLongNamesAreNotCutToMatch(t *testing.T) {
	long := strings.Repeat("word ", 13) // slugs to 64 characters
	req := validateRequest()
	req.Memories = append(req.Memories, Memory{Name: long + "alpha", Type: "project", Description: "d", Body: "b"})
	v := Validate(Response{Operations: []Operation{op(Update, long+"beta")}}, req, memory.DefaultLimits, nil)
	if len(v.Operations) != 0 || len(v.Rejected) != 1 {
		t.Fatalf("accepted %+v, rejected %+v", v.Operations, v.Rejected)
	}
	v = Validate(Response{Operations: []Operation{op(Update, strings.ToUpper(long+"alpha"))}}, req, memory.DefaultLimits, nil)
	if len(v.Operations) != 1 || v.Operations[0].Name != long+"alpha" {
		t.Fatalf("accepted %+v, rejected %+v", v.Operations, v.Rejected)
	}
}

// TestValidateRepairsNeverQuoteASecret: a repair that quotes the name the model wrote does not
// repeat a credential in it.
func TestValidateRepairsNeverQuoteASecret(t *testing.T) {
	const token = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	req := validateRequest()
	v := Validate(Response{Operations: []Operation{op("create", token)}}, req, memory.Limits{}, nil)
	for _, r := range v.Repaired {
		if strings.Contains(r.What, token) {
			t.Errorf("repair quotes the token: %q", r.What)
		}
	}
}

// TestValidateSaysWhatItNormalized: an action or type in capitals is read, and said.
func TestValidateSaysWhatItNormalized(t *testing.T) {
	v := Validate(Response{Operations: []Operation{op("CREATE", "terse", func(o *Operation) { o.Type = " Feedback " })}}, validateRequest(), memory.DefaultLimits, nil)
	if len(v.Operations) != 1 {
		t.Fatalf("rejected: %+v", v.Rejected)
	}
	var repairs []string
	for _, r := range v.Repaired {
		repairs = append(repairs, r.What)
	}
	if got := strings.Join(repairs, "; "); !strings.Contains(got, `action "CREATE" read as "create"`) || !strings.Contains(got, `type " Feedback " read as "feedback"`) {
		t.Errorf("repairs %q", got)
	}
}

func TestShorten(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"Never use float64 for prices.", 40, "Never use float64 for prices."},
		// a whole clause that keeps more than half the budget ends the line
		{"Always run make lint before committing; CI rejects unlinted code.", 51, "Always run make lint before committing."},
		{"Deploys go through make deploy. The staging hosts are in the vault.", 50, "Deploys go through make deploy."},
		{"Tests live in testdata/golden — refresh them with go test -update.", 40, "Tests live in testdata/golden."},
		{"测试用 vitest 跑。命令是 pnpm test，在 web/ 目录下运行，不要用 npm。", 20, "测试用 vitest 跑。"},
		// a clause that keeps too little is no better than a cut at a word
		{"Yes; the webhooks are verified with the signing secret before any order state changes.", 46, "Yes; the webhooks are verified with the…"},
		{"Webhooks are verified with the signing secret before any order state changes.", 46, "Webhooks are verified with the signing secret…"},
		{"Webhooks are verified with the signing secret before any order state changes.", 45, "Webhooks are verified with the signing…"},
		// a decimal point or a file name is no sentence's end
		{"Use Node 22.11 or later for the build, never the system Node of the CI image.", 40, "Use Node 22.11 or later for the build…"},
	}
	for _, tt := range tests {
		got := shorten(tt.s, tt.n)
		if got != tt.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
		if utf8.RuneCountInString(got) > tt.n {
			t.Errorf("shorten(%q, %d) = %q: %d characters", tt.s, tt.n, got, utf8.RuneCountInString(got))
		}
	}
}
