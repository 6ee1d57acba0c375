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
