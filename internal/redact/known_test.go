package redact

import (
	"strings"
	"testing"
)

// TestEveryOccurrenceGoes (issue 23): a database password read from a .env is redacted where a
// rule sees it, and at every later mention in the same text, where no rule would.
func TestEveryOccurrenceGoes(t *testing.T) {
	pw := "Vq7" + "-mK2pL9xR4"
	in := "cat .env\nDB_PASSWORD=" + pw + "\nthen I ran psql -h db -U app and typed " + pw + " at the prompt; " + pw + ".\n" +
		"not part of a longer word: x" + pw + "y"
	out, found := newRedactor(t).Redact(in)
	if n := strings.Count(out, pw); n != 1 || !strings.Contains(out, "x"+pw+"y") {
		t.Errorf("Redact left the value %d times, want only inside the longer word:\n%s", n, out)
	}
	if len(found) != 3 {
		t.Errorf("found %d, want 3: %v", len(found), found)
	}
}

// TestKnownSweepsOtherTexts: a value found in one turn is redacted from the other turns of the
// same request, earlier ones included; a weak value ("postgres") is not swept from prose.
func TestKnownSweepsOtherTexts(t *testing.T) {
	r := newRedactor(t)
	pw := "Vq7" + "-mK2pL9xR4"
	turns := []string{
		"I will paste the password " + pw + " later",      // no rule sees it here
		"here is the .env:\nDB_PASSWORD=" + pw + "\n",     // a rule does
		"POSTGRES_PASSWORD=postgres\nthe postgres server", // too weak to sweep
		"psql with " + pw,
	}
	var known Known
	for i, s := range turns {
		var fs []Finding
		turns[i], fs = r.Redact(s)
		known.Remember(s, fs)
	}
	total := 0
	for i := range turns {
		var n int
		turns[i], n = known.Sweep(turns[i])
		total += n
	}
	joined := strings.Join(turns, "\n")
	if strings.Contains(joined, pw) {
		t.Errorf("the value is still there:\n%s", joined)
	}
	if total != 2 {
		t.Errorf("swept %d, want 2", total)
	}
	if !strings.Contains(joined, "the postgres server") {
		t.Errorf("a weak value was swept from prose:\n%s", joined)
	}
}

// TestKnownSweepsAPrefixedKeysBody: after a key with a provider's prefix is found, its body pasted
// alone in a later text of the request goes too; a short or plain body is not swept.
func TestKnownSweepsAPrefixedKeysBody(t *testing.T) {
	r := newRedactor(t)
	body := "Zq8" + "vT3nW6yB1cK5mR2dF9h"
	turns := []string{
		"STRIPE_API_KEY=sk_" + "test_" + body + "\n",
		"the dashboard shows " + body + " as the key",
	}
	var known Known
	for i, s := range turns {
		var fs []Finding
		turns[i], fs = r.Redact(s)
		known.Remember(s, fs)
	}
	for i := range turns {
		turns[i], _ = known.Sweep(turns[i])
	}
	if joined := strings.Join(turns, "\n"); strings.Contains(joined, body) {
		t.Errorf("the key's body is still there:\n%s", joined)
	}
	// Within one text, Find does the same.
	if out, _ := r.Redact(turns[0] + "\nsk_" + "live_" + body + " and then " + body); strings.Contains(out, body) {
		t.Errorf("the key's body is still there:\n%s", out)
	}
}

func TestKeyBody(t *testing.T) {
	tests := []struct{ key, want string }{
		{"sk_" + "test_" + "Zq8vT3nW6yB1cK5mR2dF9h", "Zq8vT3nW6yB1cK5mR2dF9h"},
		{"sk-" + "proj-" + "Zq8vT3nW6yB1cK5mR2dF9h", "Zq8vT3nW6yB1cK5mR2dF9h"},
		{"dop_" + "v1_" + "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "0a1b2c3d4e5f60718293a4b5c6d7e8f9"},
		{"ghp_" + "short1A", ""},                   // too short to stand alone
		{"Vq7-mK2pL9xR4", ""},                      // no provider prefix
		{"xoxb-" + "aaaaaaaaaaaaaaaaaaaaaaaa", ""}, // not random
	}
	for _, tt := range tests {
		if got := keyBody(tt.key); got != tt.want {
			t.Errorf("keyBody(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}
