package eval

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Use  `pnpm`\tinstall", "use pnpm install"},
		{"**Why:** it  tags\n\n  the release", "why: it tags\nthe release"},
		{"  leading and trailing \n", "leading and trailing"},
		{"it\u2019s \u201cquoted\u201d", `it's "quoted"`},
		{"", ""},
	} {
		if got := normalize(tc.in); got != tc.want {
			t.Errorf("normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		ok         bool
	}{
		{"We use pnpm here.", "pnpm", true},
		{"We use pnpm here.", "npm", false}, // not inside a word
		{"Use npm-run-all for scripts.", "npm", true},
		{"The database is PostgreSQL 16.", "postgres", true}, // may end inside a word
		{"Run `make check`\nbefore pushing.", "make check", true},
		{"Run make\ncheck before pushing.", "make check", true}, // a line break matches a space
		{"Deploy with ./deploy.sh.", "deploy.sh", true},
		{"Deploy with ./deploy.sh.", "./deploy.sh", true},
		{"Staging moved on 2026-11-17.", "2026-11-17", true},
		{"Staging moved on 2026-11-17.", "2026-11-1", true},
		{"Nothing here.", "redis | grpc", false},
		{"Use gRPC internally.", "redis | grpc", true},
		{"password=hunter2", "hunter2", true},
		{"尽量不要去改源代码的文件和格式", "源代码", true}, // no spaces between Chinese words: no word start
		{"测试用 vitest 跑", "test", false},
	} {
		if got := mentions(tc.text, tc.want); got != tc.ok {
			t.Errorf("mentions(%q, %q) = %v, want %v", tc.text, tc.want, got, tc.ok)
		}
	}
}

// TestPresentsAsCurrent is the table of the not_current rule: where a term may appear once it is
// no longer current.
func TestPresentsAsCurrent(t *testing.T) {
	for _, tc := range []struct {
		text, term string
		current    bool
	}{
		// Plainly current.
		{"The orders service uses MySQL 8.", "mysql", true},
		{"CI runs on Jenkins at jenkins.corp.example.", "jenkins", true},
		{"Use npm workspaces; run npm install at the root.", "npm", true},
		{"We use logrus with the JSON formatter.", "logrus", true},
		// Change cues before the term.
		{"We migrated the orders database from MySQL to Postgres 16 on 2026-11-15.", "mysql", false},
		{"Postgres replaced MySQL in November.", "mysql", false},
		{"Formerly Jenkins; CI is GitHub Actions.", "jenkins", false},
		{"Remove the legacy logrus imports.", "logrus", false},
		{"Migrated off poetry in November.", "poetry", false},
		// ... but not when the cue points past the term at something else.
		{"We migrated from MySQL to Postgres 16.", "postgres", true},
		{"We replaced MySQL with Postgres.", "postgres", true},
		{"Formerly Jenkins, now GitHub Actions.", "github actions", true},
		{"MySQL was replaced by Postgres.", "postgres", true},
		// Negation cues before the term.
		{"Use pnpm instead of npm.", "npm", false},
		{"Use pnpm rather than npm.", "npm", false},
		{"We no longer use Jenkins.", "jenkins", false},
		{"Do not fall back to npm.", "npm", false},
		{"Don't use float64 for prices.", "float64", false},
		{"Never run poetry commands; they fail.", "poetry", false},
		{"We no longer deploy to Heroku.", "heroku", false},
		// ... but not when the sentence turns to what is used.
		{"Not MySQL but Postgres.", "postgres", true},
		{"We no longer use MySQL, we now use Postgres.", "postgres", true},
		// Cues after the term.
		{"MySQL was replaced by Postgres on 2026-11-15.", "mysql", false},
		{"Jenkins is no longer used for CI.", "jenkins", false},
		{"Jenkins, which we no longer run, is gone.", "jenkins", false},
		{"Treat mentions of logrus as outdated.", "logrus", false},
		{"Node 18 is deprecated here.", "node 18", false},
		{"MySQL → Postgres (2026-11-15).", "mysql", false},
		{"Database: MySQL (old), Postgres (current).", "mysql", false},
		// A cue only counts within the term's own statement and window.
		{"We migrated from Heroku last year. MySQL is the database.", "mysql", true},
		{"Moved off Heroku.\nMySQL is the database.", "mysql", true},
		{"We migrated from Heroku to Fly.io in 2025, and the orders database is still MySQL 8.", "mysql", true},
		{"Previously MySQL; now Postgres.", "postgres", true},
		// Every mention must be historical.
		{"We migrated from MySQL to Postgres. Keep the MySQL dump script.", "mysql", true},
		// Alternatives: any current one is enough.
		{"Use pnpm instead of npm or yarn; yarn.lock must not exist.", "npm | yarn", true},
		{"Use pnpm instead of npm or yarn.", "npm | yarn", false},
	} {
		current, context := presentsAsCurrent(tc.text, tc.term)
		if current != tc.current {
			t.Errorf("presentsAsCurrent(%q, %q) = %v (%q), want %v", tc.text, tc.term, current, context, tc.current)
		}
	}
}

func TestExcerpt(t *testing.T) {
	text := normalize(strings.Repeat("word ", 30) + "mysql" + strings.Repeat(" tail", 20))
	at := strings.Index(text, "mysql")
	got := excerpt(text, at, at+len("mysql"))
	if !strings.Contains(got, "mysql") || !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") {
		t.Errorf("excerpt = %q", got)
	}
}

// FuzzPresentsAsCurrent checks the matcher on any text: no panic, a current mention is a mention,
// and the excerpt is valid UTF-8 holding the term.
func FuzzPresentsAsCurrent(f *testing.F) {
	f.Add("We migrated from MySQL to Postgres.", "mysql")
	f.Add("Use pnpm instead of npm.", "npm")
	f.Add("é\u00a0`x`**y**\n\n z", "x y")
	f.Add("MySQL → Postgres", "mysql | postgres")
	f.Fuzz(func(t *testing.T, text, term string) {
		current, context := presentsAsCurrent(text, term)
		if current && !mentions(text, term) {
			t.Fatalf("current but not mentioned: %q in %q", term, text)
		}
		if current && !utf8.ValidString(context) && utf8.ValidString(text) {
			t.Fatalf("excerpt %q is not valid UTF-8", context)
		}
	})
}
