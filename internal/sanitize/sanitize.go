// Package sanitize cleans text at the boundaries where it enters dreamd (transcript adapters, model
// output, store load), so that no NUL byte, terminal control character or invisible tag character
// ever reaches a request, a memory file or a terminal. It is a leaf: it imports nothing of dreamd's.
package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Text returns s as valid UTF-8 without NUL, C0/C1 control characters, DEL, the invisible tag
// characters, zero-width spaces and a variation selector that follows another (one selects a
// glyph's form; a run of them encodes hidden bytes), keeping tab and newline. A CR LF pair becomes
// LF and a lone CR a newline, so text pasted from Windows or a progress bar keeps its line breaks.
// Clean input is returned as it is, without copying.
func Text(s string) string {
	if Clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(0)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			// invalid byte: dropped
		case isSelector(r) && isSelector(prev):
			// a second variation selector in a row: dropped
		case r == '\r':
			if i+1 >= len(s) || s[i+1] != '\n' {
				b.WriteByte('\n')
				prev = '\n'
			}
		case r == '\t' || r == '\n':
			b.WriteRune(r)
			prev = r
		case isControl(r):
			// dropped
		default:
			b.WriteString(s[i : i+n])
			prev = r // what was written: a selector after dropped bytes follows the one before them
		}
		i += n
	}
	return b.String()
}

// Line is Text for one-line fields (names, descriptions): every run of white space, newlines and
// tabs included, becomes one space, and the ends are trimmed. The bidirectional embedding,
// override and isolate controls go too: a one-line field never needs them (right-to-left text
// shows right without), and they can make a line in the index or a terminal read as something
// it does not say.
func Line(s string) string {
	s = strings.Join(strings.Fields(Text(s)), " ")
	if strings.ContainsAny(s, bidiControls) {
		s = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
			if strings.ContainsRune(bidiControls, r) {
				return -1
			}
			return r
		}, s)), " ")
	}
	return s
}

// bidiControls are U+202A–U+202E and U+2066–U+2069 (the marks U+200E and U+200F stay).
const bidiControls = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

// ByteOrderMark is what some Windows editors put before UTF-8 text. It is not content: a file's
// front matter, first index entry or first record still starts after it.
const ByteOrderMark = "\ufeff"

// Clean reports whether s is valid UTF-8 holding no character Text would change.
func Clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && c != '\t' && c != '\n' || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			return cleanFrom(s[i:])
		}
	}
	return true
}

// cleanFrom is Clean's slow path, from the first non-ASCII byte on. An invalid byte decodes as
// U+FFFD too, but ValidString rejects it; a U+FFFD written as such is a character like any other,
// which Text keeps.
func cleanFrom(s string) bool {
	prev := rune(0)
	for _, r := range s {
		if isControl(r) && r != '\t' && r != '\n' || isSelector(r) && isSelector(prev) {
			return false
		}
		prev = r
	}
	return utf8.ValidString(s)
}

// isControl is true for C0 controls, DEL, C1 controls (U+0080–U+009F), the tag characters
// (U+E0000–U+E007F) and the zero-width spaces and joiners that join no letters: invisible, they
// spell out text that a model reads and a person does not see ("ASCII smuggling"), so hidden
// instructions would travel through a transcript into the request and through a model's answer
// into a memory. (U+200C and U+200D stay: Persian and emoji need them.)
func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= tagFirst && r <= tagLast ||
		r == 0x200b || r >= 0x2060 && r <= 0x2064 // zero-width space, word joiner, invisible operators
}

// isSelector is true for the variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF).
func isSelector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

// The Unicode tag block.
const (
	tagFirst = 0xE0000
	tagLast  = 0xE007F
)
