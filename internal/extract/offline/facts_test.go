package offline

import (
	"testing"

	"github.com/dreamd/dreamd/internal/textsim"
)

// TestDuplicate pins the near-duplicate thresholds: restatements meet, different rules that
// share most of their words do not.
func TestDuplicate(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Always run make lint first", "always run `make lint` first!", true},
		{"Always run make lint before committing", "always run make lint before you commit", true},
		{"never push to main", "Never push directly to main, open a PR", true},
		{"We use Postgres for the billing database", "the billing database runs on Postgres", true},
		{"We use pnpm", "We use pnpm, not npm", true},
		{"The user prefers small, focused pull requests", "I prefer small focused PRs and focused pull requests", true},
		{"Deploys go through ./deploy.sh, which refuses to run on a dirty git tree", "we deploy through ./deploy.sh", true},
		{"Always run make lint first", "Always run make test first", false},
		{"Always run go vet", "Always run go test -race", false},
		{"Always run make lint first", "Always run make lint before committing", false},
		{"We use Postgres", "Postgres connection pool size is 20", false},
		{"The user is the maintainer of billing", "The user is the maintainer of checkout", false},
		{"Always use tabs", "Never use tabs", false},
		{"", "", false},
	}
	for _, tt := range tests {
		a, b := factsOf(tt.a), factsOf(tt.b)
		if got := duplicate(a, b, []textsim.Set{b.words}); got != tt.want {
			t.Errorf("duplicate(%q, %q) = %v, want %v (Jaccard %.2f, containment %.2f)", tt.a, tt.b, got, tt.want,
				textsim.Jaccard(a.words, b.words), textsim.Containment(a.words, b.words))
		}
	}
}

func TestContradiction(t *testing.T) {
	tests := []struct {
		newer, older string
		want         bool
	}{
		{"We migrated from MySQL to Postgres", "The database is MySQL", true},
		{"We migrated from MySQL to Postgres", "We use MySQL for the main database", true},
		{"We no longer use Jenkins for CI", "We use Jenkins for CI", true},
		{"We no longer use Jenkins", "CI runs on Jenkins", true},
		{"we switched from Jenkins to GitHub Actions", "Jenkins builds every branch", true},
		{"Use pnpm instead of npm", "Use npm to install packages", true},
		{"please use pnpm, not npm", "Use npm to install packages", true},
		{"The user prefers tabs over spaces", "Indent with spaces", true},
		{"Never push to main", "Always push to main after a rebase", true},
		{"Always squash merge", "Never squash merge", true},
		{"We moved the migrations to sql/migrations", "Migrations live in db/migrations", true},
		{"The database is Postgres", "The database is MySQL", true},
		{"The staging cluster is eu-west-1", "The staging cluster is us-east-1", true},
		{"MySQL is no longer used", "We use MySQL for analytics", true},
		// not contradictions
		{"We migrated from MySQL to Postgres", "We migrated from MySQL to Postgres", false},
		{"We no longer use Jenkins", "We migrated from Jenkins to GitHub Actions", false},
		{"We migrated from MySQL to Postgres", "We use Redis for caching", false},
		{"we no longer deploy on Fridays", "Deploys go through ./deploy.sh", false},
		{"Never use panic in library code", "Always handle errors in library code", false},
		{"Always run go vet", "Never run go test without -race", false},
		{"The database is Postgres", "The database is Postgres 16 on RDS", false},
		{"We use GitHub Actions for CI", "We use Jenkins for CI", false},
		{"The API is documented in docs/api.md", "The API is rate-limited to 100 requests per second", false},
		{"The API is versioned with a date header", "The API is written in Go", false},
		{"We moved off Heroku", "We host everything on Heroku", true},
		{"Use `python`, not `python3`", "Python + Pillow, the person's answer to the agent's question: which backend stack", false},
		{"We no longer use Jenkins", "Release process: tag the commit, wait for the pipeline, check the changelog, " +
			"announce in the channel, and keep the old Jenkins job config for reference", false},
	}
	for _, tt := range tests {
		if _, got := contradiction(factsOf(tt.newer), factsOf(tt.older)); got != tt.want {
			t.Errorf("contradiction(%q, %q) = %v, want %v", tt.newer, tt.older, got, tt.want)
		}
	}
}

func TestNameFits(t *testing.T) {
	tests := []struct {
		name, newer, older string
		want               bool
	}{
		{"database-engine", "We migrated from MySQL to Postgres", "The database is MySQL", true},
		{"database-is-mysql", "We migrated from MySQL to Postgres", "The database is MySQL", false},
		{"ci-uses-jenkins", "We no longer use Jenkins", "We use Jenkins for CI", false},
		{"always-push-to-main", "Never push to main", "Always push to main", false},
		{"main-branch-policy", "Never push to main", "Always push to main", true},
		{"migrations-dir", "We moved the migrations to sql/migrations", "Migrations live in db/migrations", true},
		{"migrations-in-db", "We moved the migrations to sql/migrations", "Migrations live in db/migrations", false},
	}
	for _, tt := range tests {
		stale, ok := contradiction(factsOf(tt.newer), factsOf(tt.older))
		if !ok {
			t.Errorf("%q does not contradict %q", tt.newer, tt.older)
			continue
		}
		if got := nameFits(tt.name, stale); got != tt.want {
			t.Errorf("nameFits(%q) after %q = %v, want %v (stale %v)", tt.name, tt.newer, got, tt.want, stale)
		}
	}
}
