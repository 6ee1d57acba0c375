package offline

import (
	"strings"
	"testing"
	"time"

	"github.com/dreamd/dreamd/internal/extract"
)

// testSession is said on Wednesday 2026-11-18 in /home/ana/shop.
var testSession = extract.Session{
	ID: "s1", Source: "claude", Project: "/home/ana/shop",
	Date: time.Date(2026, 11, 18, 16, 30, 0, 0, time.UTC),
}

func parseOne(t *testing.T, sentence string) (*lesson, bool) {
	t.Helper()
	s := testSession
	return parse(sentence, &s, s.Date)
}

func TestParseForms(t *testing.T) {
	tests := []struct {
		in, typ, desc, label string
	}{
		// explicit markers
		{"remember that we deploy with ./deploy.sh", "project", "We deploy with ./deploy.sh.", "remember that …"},
		{"Remember: always run make lint first!", "feedback", "Always run make lint first.", "remember …"},
		{"remember to update the changelog for every release", "feedback", "Update the changelog for every release.", "remember to …"},
		{"Add to memory: the staging cluster is eu-west-1", "project", "The staging cluster is eu-west-1.", "add to memory …"},
		{"Note that the API is rate-limited to 100 requests per second.", "project", "The API is rate-limited to 100 requests per second.", "note that …"},
		{"FYI the CI takes 20 minutes on average", "project", "The CI takes 20 minutes on average.", "fyi …"},
		{"Keep in mind that the staging database is reset nightly", "project", "The staging database is reset nightly.", "keep in mind that …"},
		// standing rules
		{"From now on, run make lint before committing.", "feedback", "Run make lint before committing.", "from now on …"},
		{"Going forward, squash commits before merging", "feedback", "Squash commits before merging.", "going forward …"},
		{"always use tabs in Makefiles", "feedback", "Always use tabs in Makefiles.", "always …"},
		{"Never push directly to main.", "feedback", "Never push directly to main.", "never …"},
		{"Don't ever commit generated files", "feedback", "Don't ever commit generated files.", "don't ever …"},
		{"Don't push to main without my approval.", "feedback", "Don't push to main without my approval.", "don't … without my approval"},
		{"Do not remove the env files without explicit permission.", "feedback", "Do not remove the env files without explicit permission.", "don't … without my approval"},
		{"From now, keep the changelog in English.", "feedback", "Keep the changelog in English.", "from now …"},
		{"When I say deploy, I mean run make deploy-prod.", "feedback", "When I say deploy, I mean run make deploy-prod.", "when I say …, I mean …"},
		{"Let's always squash merge.", "feedback", "Always squash merge.", "always …"},
		{"You should never use panic in library code.", "feedback", "Never use panic in library code.", "never …"},
		{"We never deploy on Fridays.", "feedback", "We never deploy on Fridays.", "we never …"},
		{"from now on don't add comments that restate the code", "feedback", "Don't add comments that restate the code.", "from now on …"},
		// preferences
		{"I prefer small, focused pull requests.", "feedback", "The user prefers small, focused pull requests.", "I prefer …"},
		{"I like table-driven tests better", "feedback", "The user likes table-driven tests better.", "I prefer …"},
		{"I'd rather keep functions under 40 lines", "feedback", "The user would rather keep functions under 40 lines.", "I prefer …"},
		{"Please use pnpm, not npm.", "feedback", "Use pnpm, not npm.", "use … instead of …"},
		{"use slog instead of logrus", "feedback", "Use slog instead of logrus.", "use … instead of …"},
		// project facts and decisions
		{"We use Postgres for the billing database.", "project", "We use Postgres for the billing database.", "we use …"},
		{"we're using Go 1.26 everywhere", "project", "We're using Go 1.26 everywhere.", "we're using …"},
		{"We decided to drop Python 2 support.", "project", "We decided to drop Python 2 support.", "we decided …"},
		{"The team agreed that every service exposes /healthz", "project", "The team agreed that every service exposes /healthz.", "the team agreed …"},
		{"We migrated from MySQL to Postgres yesterday.", "project", "We migrated from MySQL to Postgres on 2026-11-17.", "we migrated …"},
		{"we switched to GitHub Actions last week", "project", "We switched to GitHub Actions in the week of 2026-11-09.", "we switched …"},
		{"We no longer use Jenkins.", "project", "We no longer use Jenkins.", "we no longer …"},
		{"we stopped using Heroku two weeks ago", "project", "We stopped using Heroku on 2026-11-04.", "we stopped …"},
		{"We don't use Docker Compose anymore", "project", "We don't use Docker Compose anymore.", "we don't … anymore"},
		{"The v1 API is deprecated", "project", "The v1 API is deprecated.", "… is no longer used"},
		{"We moved the docs to docs/site.", "project", "We moved the docs to docs/site.", "we moved …"},
		{"Our migrations live in db/migrations", "project", "Our migrations live in db/migrations.", "… lives in …"},
		{"Integration tests are in internal/e2e.", "project", "Integration tests are in internal/e2e.", "… lives in …"},
		{"The code which parses dates lives in lib/dates.", "project", "The code which parses dates lives in lib/dates.", "… lives in …"},
		{"The generated clients are kept under gen/", "project", "The generated clients are kept under gen/.", "… lives in …"},
		{"Remember: the database is Postgres.", "project", "The database is Postgres.", "remember …"},
		{"No, the API server lives in cmd/api, not server/.", "project", "The API server lives in cmd/api, not server/.", "… lives in …"},
		{"Actually, the staging cluster is eu-west-1", "project", "The staging cluster is eu-west-1.", "the … is …"},
		{"No, use pnpm", "feedback", "Use pnpm.", "no …"},
		{"You're right, we use pnpm here.", "project", "We use pnpm here.", "we use …"},
		{"Remember: the freeze starts next Monday.", "project", "The freeze starts on 2026-11-23.", "remember …"},
		{"No, don't change the public API", "feedback", "Don't change the public API.", "don't …"},
		{"we moved off Heroku", "project", "We moved off Heroku.", "we moved …"},
		{"no, we don't use Redux, we use Zustand", "project", "We don't use Redux, we use Zustand.", "no …"},
		{"We should always check errors", "feedback", "Always check errors.", "always …"},
		{"From now on, respond only with code.", "feedback", "Respond only with code.", "from now on …"},
		// "remember" as people type it in a hurry, after "just"
		{"Just remeber to check the alguidelines before writing AL code.", "feedback", "Check the alguidelines before writing AL code.", "remember to …"},
		{"rember that the API lives in api/v2", "project", "The API lives in api/v2.", "rember that …"},
		{"My name is Ana and I lead the payments team.", "user", "The user's name is Ana and they lead the payments team.", "my role …"},
		{"Actually, always rebase instead of merging.", "feedback", "Always rebase instead of merging.", "always …"},
		// the person
		{"I am a data scientist, new to Go.", "user", "The user is a data scientist, new to Go.", "I am …"},
		{"I'm the maintainer of the billing service", "user", "The user is the maintainer of the billing service.", "I am …"},
		{"My role is tech lead on the payments team.", "user", "The user's role is tech lead on the payments team.", "my role …"},
		{"I'm an expert in Rust but new to Kubernetes", "user", "The user is an expert in Rust but new to Kubernetes.", "I am …"},
		{"I'm new to ash and its auth, take a look at lib/accounts/user.ex and tell me what it does.", "user", "The user is new to ash and its auth.", "I am …"},
		{"I mostly write Python", "user", "The user mostly writes Python.", "I work …"},
		// pointers
		{"See https://grafana.example.com/d/api for the API latency dashboard.", "reference", "See https://grafana.example.com/d/api for the API latency dashboard.", "see … for …"},
		{"The docs are at https://docs.example.com/shop", "reference", "The docs are at https://docs.example.com/shop.", "… is at …"},
		{"the dashboard is at https://grafana.example.com/d/abc", "reference", "The dashboard is at https://grafana.example.com/d/abc.", "… is at …"},
		{"Bugs are tracked in Linear project SHOP.", "reference", "Bugs are tracked in Linear project SHOP.", "… is at …"},
		{"The runbook lives in Notion under Ops/Runbooks", "reference", "The runbook lives in Notion under Ops/Runbooks.", "… is at …"},
		// markup around the words does not matter
		{"**Remember:** always run `make lint` first", "feedback", "Always run `make lint` first.", "remember …"},
		{"Remember: I prefer `**kwargs` over long signatures", "feedback", "The user prefers `**kwargs` over long signatures.", "remember …"},
		{"never edit __init__.py by hand", "feedback", "Never edit __init__.py by hand.", "never …"},
		{"“Never force-push shared branches.”", "feedback", "Never force-push shared branches.", "never …"},
	}
	for _, tt := range tests {
		n, ok := parseOne(t, tt.in)
		if !ok {
			t.Errorf("parse(%q) rejected, want a %s lesson", tt.in, tt.typ)
			continue
		}
		if string(n.typ) != tt.typ || description(n) != tt.desc || n.label != tt.label {
			t.Errorf("parse(%q) = %s %q (%s), want %s %q (%s)", tt.in, n.typ, description(n), n.label, tt.typ, tt.desc, tt.label)
		}
	}
}

// noise lists realistic things people type that are not lessons.
var noise = []string{
	"remember to also update the @__init__.py", // a step added to the request it ends
	// a sentence cut before it says where (tsc's "The file is in the program because:")
	"The file is in the program because:",
	// questions
	"can you fix the test?",
	"Why does this always fail?",
	"Should we always use pnpm?",
	"do we use Postgres or MySQL here?",
	"is the database Postgres?",
	// small talk
	"thanks!",
	"Thank you so much",
	"great, that works",
	"hello",
	"perfect",
	"lgtm",
	"never mind",
	"Never seen that error before",
	// task chatter and ephemeral status
	"now fix the test",
	"run it again",
	"let's look at the parser",
	"I'm going to lunch",
	"I'm a bit confused by this output",
	"please fix the failing test in foo_test.go",
	"go ahead and commit",
	"no, print the first line",
	"we use this function in two places",
	"The bug is in the parser.",
	"the problem is in main.go",
	"It always fails when I run it with -race.",
	"From now on, use this file for now",
	"Remember that I'll be back in 10 minutes",
	"don't worry about the lint warnings",
	// a typed "remember" that is no cue, a "just" that is no lesson
	"I don't remeber what it was",
	"just run the tests",
	// a tool's error output, pasted
	"See https://learn.microsoft.com/vcpkg/troubleshoot/build-failures for more information.",
	"see docs/errors.md for details",
	"ok let's try again",
	"Continue",
	// secrets
	"remember that the password is hunter22",
	"note: the API key is sk-proj-abcdefghijklmnop1234",
	"remember the token: ghp_abcdefghijklmnopqrstuvwxyz123456",
	"remember that the deploy token is [REDACTED]",
	"from now on use https://admin:s3cret@db.example.com",
	// text that is not prose
	"$ go test ./...",
	"--- FAIL: TestParse (0.00s)",
	"panic: runtime error: index out of range",
	`{"level":"info","msg":"always restart"}`,
	"main.go:12:3: undefined: foo",
	"Error generating delivery note PDF: Error: ENOENT: no such file or directory, open '/app/node_modules/pdfkit/js/data/Helvetica.afm'",
	"",
	"   ",
	"!!!",
	"we use a lot of memory here",
	"we test it manually",
	"we deploy tomorrow",
	"we'll release next week",
	"Always the same error!",
	"Never again.",
	"we switched branches",
	"We decided to try a different approach",
	"No, don't do that",
	"No, not that one",
	"Actually, I think the problem is the cache",
	"I'm a huge fan of this approach",
	"I work on the parser tomorrow",
	"I'm an idiot, that was my fault",
	"I'm the worst at naming",
	"I'm in a meeting, be back soon",
	"FYI I'll be out tomorrow",
	"Remember that you are an expert Go developer.",
	"we switched to the new branch",
	"note to self: check the logs later",
	"The tests are slow",
	"No, the tables are not there",
	"Actually the logs are still missing",
	"My build is failing again",
	"that's not what I asked",
	"we need to migrate to Postgres at some point",
	// sentences the unlabelled transcripts of the eleventh round kept
	"read what is in the repo",
	"check what lives in src/lib",
	"Do not edit files yet.",
	"We changed sleep to 10 minutes but it doesnt seem to be that anymore.",
	"We changed wallpaper and sleep time to 10 minutes it seems short again.",
	"For the record — what this session produced:",
}

func TestParseRejects(t *testing.T) {
	for _, in := range noise {
		if n, ok := parseOne(t, in); ok {
			t.Errorf("parse(%q) = %s %q, want it rejected", in, n.typ, description(n))
		}
	}
}

func TestConsolidateIgnoresNoise(t *testing.T) {
	res := run(t, nil, userSession("s1", day(18), noise...), userSession("s2", day(19), strings.Join(noise, "\n")))
	for _, op := range res.Response.Operations {
		t.Errorf("noise produced %s %q: %q", op.Action, op.Name, op.Description)
	}
}

func TestSplitReason(t *testing.T) {
	tests := []struct{ in, rule, why string }{
		{"always run make lint first because CI rejects unlinted code", "always run make lint first", "CI rejects unlinted code"},
		{"use pnpm, since npm breaks the lockfile", "use pnpm", "npm breaks the lockfile"},
		{"we deploy with ./deploy.sh — it tags the release from HEAD", "we deploy with ./deploy.sh", "it tags the release from HEAD"},
		{"always rebase so that history stays linear", "always rebase", "so that history stays linear"},
		{"run the migrations first, otherwise the tests fail", "run the migrations first", "otherwise the tests fail"},
		{"we use Go since 2024-01-01", "we use Go since 2024-01-01", ""},
		{"we use Postgres since the last release", "we use Postgres since the last release", ""},
		{"never push to main", "never push to main", ""},
		{"because reasons", "because reasons", ""},
	}
	for _, tt := range tests {
		rule, why := splitReason(tt.in)
		if rule != tt.rule || why != tt.why {
			t.Errorf("splitReason(%q) = %q, %q; want %q, %q", tt.in, rule, why, tt.rule, tt.why)
		}
	}
}

func TestNameKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Remember: always run make lint first.", "always-run-make-lint-first"},
		{"remember: the database is Postgres", "database-is-postgres"},
		{"We migrated from MySQL to Postgres yesterday.", "migrated-from-mysql-to-postgres"},
		{"I prefer tabs over spaces", "user-prefers-tabs-over-spaces"},
		{"I'm a data scientist, new to Go", "user-data-scientist-new-to-go"},
		{"My role is tech lead on the payments team.", "user-role-is-tech-lead-payments"},
		{"The docs are at https://www.example.com/handbook", "docs-example-handbook"},
		{"We no longer use Jenkins.", "no-longer-use-jenkins"},
		{"Don't ever commit generated files", "dont-ever-commit-generated-files"},
		// over 32 characters the link words go first, then words from the end: each character of
		// a name is two of its index line
		{"We migrated from Postgres to CockroachDB.", "migrated-postgres-cockroachdb"},
		{"Always run make lint before committing.", "always-run-make-lint-committing"},
		{"Remember: deploys go through ./deploy.sh, which refuses a dirty tree.", "deploys-go-through-deploy-sh"},
		// but not a negation: "staging-deployed-from-main" would say the opposite
		{"Remember: staging is not deployed from the main branch.", "staging-not-deployed-main"},
	}
	for _, tt := range tests {
		n, ok := parseOne(t, tt.in)
		if !ok {
			t.Errorf("parse(%q) rejected", tt.in)
			continue
		}
		if got := nameKey(n); got != tt.want {
			t.Errorf("nameKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestThirdPerson(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I am a data scientist", "The user is a data scientist"},
		{"I'm new to Go and my team uses Rust", "The user is new to Go and their team uses Rust"},
		{"I prefer short names", "The user prefers short names"},
		{"I'd rather you ask me first", "The user would rather you ask them first"},
		{"I usually write Python", "The user usually writes Python"},
		{"My timezone is CET", "The user's timezone is CET"},
		{"My name is Ana, and I am the founder of a toy brand", "The user's name is Ana, and they are the founder of a toy brand"},
		{"My role changed when I was moved to the data team", "The user's role changed when they were moved to the data team"},
	}
	for _, tt := range tests {
		if got := thirdPerson(tt.in); got != tt.want {
			t.Errorf("thirdPerson(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
