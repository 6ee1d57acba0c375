package phases

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/transcript"
)

func TestPickQuotes(t *testing.T) {
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	said := day.Add(30 * time.Minute)
	long := strings.Repeat("filler words here ", 20) + "the orders database migrated to postgres last week " + strings.Repeat("and more words ", 20)
	sessions := []extract.Session{
		{ID: "s1", Source: "claude", Date: day, Turns: []extract.Turn{
			{Role: transcript.User, Text: "hello there", Index: 0},
			{Role: transcript.Assistant, Text: "deploy with ./deploy.sh and postgres", Index: 1},
			{Role: transcript.User, Text: "Remember: we always deploy with ./deploy.sh, never by hand", Index: 3, Time: said},
			{Role: transcript.User, Text: "my token is " + redact.Mark("github-token"), Index: 4},
		}},
		{ID: "s2", Source: "codex", Date: day.Add(24 * time.Hour), Turns: []extract.Turn{
			{Role: transcript.User, Text: long, Index: 7},
			{Role: transcript.User, Text: "deploy? deploy!", Index: 8},
		}},
		{ID: "s3", Source: "claude", Date: day, Turns: []extract.Turn{
			{Role: transcript.User, Text: "deploy with deploy.sh is the rule", Index: 0},
		}},
	}
	ops := []extract.Operation{
		{Action: extract.Create, Name: "deploy-rule", Description: "Deploys go through ./deploy.sh", Body: "Always deploy with ./deploy.sh, never by hand.", Evidence: []string{"claude:s1", "s2"}},
		{Action: extract.Update, Name: "orders-db", Description: "The orders database is Postgres", Body: "Migrated from MySQL to Postgres.", Evidence: []string{"s2"}},
		{Action: extract.Delete, Name: "old-thing", Reason: "nothing matches this", Evidence: []string{"s1"}},
		{Action: extract.Create, Name: "no-evidence", Description: "Deploy", Body: "deploy"},
	}
	got := pickQuotes(ops, sessions, nil, nil)

	deploy := got["deploy-rule"]
	if len(deploy) == 0 || deploy[0].Session != "s1" || deploy[0].Kind != "claude" || deploy[0].Turn != 3 || !deploy[0].Date.Equal(said) ||
		deploy[0].Text != "Remember: we always deploy with ./deploy.sh, never by hand" {
		t.Errorf("deploy-rule's best quote: %+v, want turn 3 of claude:s1 said at %v, whole", deploy, said)
	}
	for _, q := range deploy {
		if q.Session == "s3" {
			t.Errorf("deploy-rule quotes %+v, from a session its evidence does not name", q)
		}
		if strings.Contains(q.Text, "hello") || strings.Contains(q.Text, "postgres") && q.Turn == 1 {
			t.Errorf("deploy-rule quotes %+v: an assistant turn or a turn sharing no word", q)
		}
	}
	if len(deploy) != 1 {
		t.Errorf("deploy-rule has %d quotes %+v, want the one: a turn sharing one word of it (\"deploy? deploy!\") scores under half the best", len(deploy), deploy)
	}
	orders := got["orders-db"]
	if len(orders) != 1 || orders[0].Turn != 7 || !orders[0].Date.Equal(day.Add(24*time.Hour)) {
		t.Fatalf("orders-db quotes: %+v, want turn 7 of s2 on the session's date", orders)
	}
	if q := orders[0].Text; utf8.RuneCountInString(q) > QuoteMaxRunes || !strings.HasPrefix(q, "…") || !strings.HasSuffix(q, "…") || !strings.Contains(q, "orders database migrated to postgres") {
		t.Errorf("orders-db quote %q: want at most %d runes, cut at both ends around what it shares", q, QuoteMaxRunes)
	}
	if _, ok := got["old-thing"]; ok {
		t.Errorf("old-thing quoted %+v though no turn shares a word of its reason", got["old-thing"])
	}
	if _, ok := got["no-evidence"]; ok {
		t.Errorf("an operation naming no evidence session has quotes: %+v", got["no-evidence"])
	}
}

// TestPickQuotesRedacts: a quote is swept of the secret values the pass found elsewhere (a value
// first seen in a memory, say) and redacted again, whatever the digest held.
func TestPickQuotesRedacts(t *testing.T) {
	r, err := redact.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	known := &redact.Known{}
	secret := "hunter2-Xq9vL3mPz7"
	known.Remember("password="+secret, r.Find("password="+secret))
	key := "ghp_" + strings.Repeat("a1B2c3D4e5", 4)[:36]
	sessions := []extract.Session{{ID: "s1", Source: "claude", Turns: []extract.Turn{
		{Role: transcript.User, Text: "deploy with the password " + secret + " and the token " + key},
	}}}
	ops := []extract.Operation{{Action: extract.Create, Name: "deploy", Description: "deploy password token", Evidence: []string{"s1"}}}
	if raw := pickQuotes(ops, sessions, nil, nil)["deploy"]; len(raw) != 1 || !strings.Contains(raw[0].Text, secret) || !strings.Contains(raw[0].Text, key) {
		t.Fatalf("unredacted quotes %+v: the test needs both values quoted as they are", raw)
	}
	q := pickQuotes(ops, sessions, known, r)["deploy"]
	if len(q) != 1 {
		t.Fatalf("quotes: %+v", q)
	}
	if strings.Contains(q[0].Text, secret) || strings.Contains(q[0].Text, key) {
		t.Errorf("quote %q holds a secret", q[0].Text)
	}
}

func FuzzExcerpt(f *testing.F) {
	f.Add("we always deploy with ./deploy.sh", "deploy")
	f.Add(strings.Repeat("x", 500), "x")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, text, query string) {
		got := excerpt(text, map[string]int{query: 1})
		if utf8.ValidString(text) && utf8.RuneCountInString(got) > QuoteMaxRunes {
			t.Errorf("excerpt of %q is %d runes", text, utf8.RuneCountInString(got))
		}
	})
}
