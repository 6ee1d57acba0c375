package offline

import (
	"strings"
	"testing"
)

// TestStatedFacts is the table of layout and environment facts the person states, in the
// languages the rules read, and of sentences that only look like them.
func TestStatedFacts(t *testing.T) {
	tests := []struct {
		text string
		want string // the memory's description, "" for none
	}{
		// where things are
		{"The integration tests are in tests/integration/.", "The integration tests are in tests/integration/"},
		{"Cron jobs are defined at src/cron/name.service.ts", "Cron jobs are defined at src/cron/name.service.ts"},
		{"Los tests deberían estar en una subcarpeta llamada test", "Los tests deberían estar en una subcarpeta llamada test"},
		{"配置文件在 config/ 下", "配置文件在 config/ 下"},
		{"De migraties staan in db/migrations/", "De migraties staan in db/migrations/"},
		{"Die Vorlagen liegen in templates/mail/", "Die Vorlagen liegen in templates/mail/"},
		{"Les traductions se trouvent dans locales/", "Les traductions se trouvent dans locales/"},
		{"テストは tests/ にあります", "テストは tests/ にあります"},
		{"the bug is in src/parser.ts", ""},                            // the task of the moment
		{"Lee la tabla que se encuentra en el archivo @datos.pdf", ""}, // a request about a thing of the moment
		{"the tests are in good shape", ""},                            // no path
		{"where are the tests in src/?", ""},                           // a question
		// renamed or moved
		{"J'ai renommé 'src/content/config.ts' en 'src/content.config.ts' pour Astro 6.", "J'ai renommé 'src/content/config.ts' en 'src/content.config.ts' pour Astro 6"},
		{"I moved `lib/util.go` to `internal/util/util.go`", "I moved `lib/util.go` to `internal/util/util.go`"},
		{"我把 scripts/ 改名为 tools/", "我把 scripts/ 改名为 tools/"},
		// set up
		{"Yo ya he configurado github-work en ~/.ssh/config para usar otra llave", "Yo ya he configurado github-work en ~/.ssh/config para usar otra llave"},
		{"I've configured the proxy in nginx/site.conf", "I've configured the proxy in nginx/site.conf"},
		// the environment
		{"Help me initialize git here, we are in a tpu vm.", "We are in a tpu vm"},
		{"Estoy en Windows 11 con WSL", "Estoy en Windows 11 con WSL"},
		{"Le site est en ligne sur o2switch mais les formulaires sont cassés", "Le site est en ligne sur o2switch"},
		{"This is a NestJS project. Create a cron job.", "This is a NestJS project"},
		{"Dit is een Laravel-project", "Dit is een Laravel-project"},
		{"you are in a loop", ""},
	}
	for _, tt := range tests {
		got := said(t, tt.text)
		want := []string{}
		if tt.want != "" {
			want = []string{tt.want}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: memories %q, want %q", tt.text, got, want)
		}
	}
}

// TestStatedFactProvenance checks that a stated fact says which message of which session, on
// which day, established it.
func TestStatedFactProvenance(t *testing.T) {
	res := run(t, nil, userSession("s7", day(18), "hi", "The fixtures are in testdata/golden/."))
	if len(res.Response.Operations) != 1 {
		t.Fatalf("operations = %+v", briefs(res.Response.Operations))
	}
	op := res.Response.Operations[0]
	if !strings.Contains(op.Body, "2nd message of session s7 on 2026-11-18") {
		t.Errorf("body does not name the message, session and day: %q", op.Body)
	}
}
