package corpus

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestAppendString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\dir`, `"C:\\dir"`},
		{"a\nb\tc\r", `"a\nb\tc\r"`},
		{"\x00\x1f\b\f", `"\u0000\u001f\b\f"`},
		{"→ café <b>&", `"→ café <b>&"`},
		{"bad \xff byte", "\"bad \ufffd byte\""},
	}
	for _, tt := range tests {
		if got := string(appendString(nil, tt.in)); got != tt.want {
			t.Errorf("appendString(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzAppendString checks the escaper against encoding/json: the output is valid JSON and reads
// back as the input, each invalid UTF-8 byte as U+FFFD.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\n\u2028", "\xff\xfe", "日本語", "\xe2\x82"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := appendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("appendString(%q) = %s: not JSON: %v", s, out, err)
		}
		if want := perByteValid(s); back != want {
			t.Fatalf("appendString(%q) reads back as %q, want %q", s, back, want)
		}
	})
}

func perByteValid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func TestIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := newUUID(rng)
		if !uuid.MatchString(id) || seen[id] {
			t.Fatalf("newUUID = %q: not a fresh version 4 UUID", id)
		}
		seen[id] = true
	}
	if id := randomID(rng, "msg_01", 22); !regexp.MustCompile(`^msg_01[0-9A-Za-z]{22}$`).MatchString(id) {
		t.Errorf("randomID = %q", id)
	}
	at := time.Date(2026, 9, 1, 8, 0, 1, 234567890, time.FixedZone("CEST", 2*3600))
	if got := string(appendTime(nil, at)); got != `"2026-09-01T06:00:01.234Z"` {
		t.Errorf("appendTime = %s", got)
	}
}
