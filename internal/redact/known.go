package redact

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Once a value is found to be a secret, every occurrence of it goes, not only the one a rule
// recognised: a database password read from a .env at its first mention is as secret when it is
// typed again in a psql command or repeated in prose. Within one text Find does this itself; Known
// carries the values across the texts of one request (every turn of a digest).

// secretValue is a value found to be a secret, and its kind.
type secretValue struct {
	text, kind string
}

// Known is the set of secret values found in the texts of one request. The zero value is empty
// and ready; it is safe for concurrent use.
type Known struct {
	mu     sync.Mutex
	values map[string]string // value → kind
}

// Remember records the values of the findings fs in s (as Redact returned them) that are worth
// looking for elsewhere.
func (k *Known) Remember(s string, fs []Finding) {
	for _, v := range valuesOf(s, fs) {
		k.mu.Lock()
		if k.values == nil {
			k.values = map[string]string{}
		}
		k.values[v.text] = v.kind
		k.mu.Unlock()
	}
}

// Sweep replaces every occurrence in s of a remembered value with its mark, and returns the text
// and how many it replaced.
func (k *Known) Sweep(s string) (string, int) {
	k.mu.Lock()
	values := make([]secretValue, 0, len(k.values))
	for v, kind := range k.values {
		values = append(values, secretValue{v, kind})
	}
	k.mu.Unlock()
	fs := occurrences(s, values, nil)
	if len(fs) == 0 {
		return s, 0
	}
	return replace(s, fs), len(fs)
}

// sweepable reports whether a secret's value is distinctive enough to redact wherever it
// appears: long enough and made up. "postgres" as a password is redacted where it is assigned,
// but not as every word "postgres" of a request.
func sweepable(v string) bool {
	return len(v) >= 6 && madeUp(v)
}

// madeUp reports whether v reads as an invented secret rather than a word, a placeholder or one
// of dreamd's own marks: it has a digit, mixed case or a symbol.
func madeUp(v string) bool {
	return notPlaceholder(v) && !strings.Contains(v, "[REDACTED") &&
		(randomLooking(v) || strings.ContainsAny(v, "!@#$%^&*+=~?"))
}

// valuesOf returns the sweepable values of the findings in s, and the bodies of those that carry a
// provider's prefix (see keyBody).
func valuesOf(s string, fs []Finding) []secretValue {
	var out []secretValue
	for _, f := range fs {
		v := s[f.Start:f.End]
		if !sweepable(v) {
			continue
		}
		out = append(out, secretValue{v, f.Kind})
		if body := keyBody(v); body != "" {
			out = append(out, secretValue{body, f.Kind})
		}
	}
	return out
}

// keyPrefix is a provider's prefix on a key: lower-case words joined and ended by "_" or "-"
// (sk_test_, sk-proj-, ghp_, xoxb-, glpat-, dop_v1_, github_pat_).
var keyPrefix = regexp.MustCompile(`^[a-z]{1,10}(?:[_-][a-z0-9]{1,10}){0,2}[_-]`)

// minKeyBody is the shortest body of a prefixed key that is swept on its own: random enough that
// it names nothing else.
const minKeyBody = 16

// keyBody returns what follows the provider prefix of the key v, when that is long and random
// enough to be recognised without it ("", otherwise): a key pasted once whole and later without
// its prefix (sk_test_<v>, then <v> alone) is still the key.
func keyBody(v string) string {
	loc := keyPrefix.FindStringIndex(v)
	if loc == nil {
		return ""
	}
	body := v[loc[1]:]
	if len(body) < minKeyBody || !randomLooking(body) || !varied(body) {
		return ""
	}
	return body
}

// occurrences returns a finding for every occurrence in s of one of values that stands alone (no
// letter or digit runs on from its ends) and is not already covered by found (sorted).
func occurrences(s string, values []secretValue, found []Finding) []Finding {
	if len(values) == 0 {
		return nil
	}
	// The longest first, so a value that holds another is taken whole.
	slices.SortFunc(values, func(a, b secretValue) int { return cmp.Compare(len(b.text), len(a.text)) })
	var out []Finding
	covered := func(start, end int) bool {
		overlaps := func(f Finding) bool { return start < f.End && f.Start < end }
		return slices.ContainsFunc(found, overlaps) || slices.ContainsFunc(out, overlaps)
	}
	for _, v := range values {
		for off := 0; ; {
			i := strings.Index(s[off:], v.text)
			if i < 0 {
				break
			}
			start, end := off+i, off+i+len(v.text)
			off = start + 1
			if standsAlone(s, start, end) && !covered(start, end) {
				out = append(out, Finding{v.kind, start, end})
				off = end
			}
		}
	}
	slices.SortFunc(out, func(a, b Finding) int { return cmp.Compare(a.Start, b.Start) })
	return out
}

// standsAlone reports whether s[start:end] is not part of a longer word: a value that begins or
// ends with a letter or digit must not be continued by one.
func standsAlone(s string, start, end int) bool {
	v := s[start:end]
	if start > 0 && isAlnum(v[0]) && isAlnum(s[start-1]) {
		return false
	}
	if end < len(s) && isAlnum(v[len(v)-1]) && isAlnum(s[end]) {
		return false
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
