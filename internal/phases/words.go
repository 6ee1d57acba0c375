package phases

import "strings"

// wordSet finds any of a few words or phrases in text as whole words, ASCII case folded, in one
// pass over the text: at each word start it compares only the entries that begin with that
// letter. It is what `(?i)\b(a|b|…)\b` matched, without a regular expression's backtracking and
// case folding over every byte of a long turn.
type wordSet struct {
	byFirst [256][]wordEntry // by the entry's first byte, lower case
}

type wordEntry struct {
	text string // lower case
	stem bool   // matches as a word's beginning ("migrat*": migrate, migration)
}

// newWordSet builds the set; an entry ending in * is a stem.
func newWordSet(words []string) *wordSet {
	w := &wordSet{}
	for _, word := range words {
		word = strings.ToLower(word)
		e := wordEntry{text: word}
		if stem, ok := strings.CutSuffix(word, "*"); ok {
			e = wordEntry{text: stem, stem: true}
		}
		w.byFirst[e.text[0]] = append(w.byFirst[e.text[0]], e)
	}
	return w
}

// in reports whether text holds an entry, starting and (unless a stem) ending at a word boundary.
func (w *wordSet) in(text string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if i > 0 && isWordByte(text[i-1]) {
			continue
		}
		for _, e := range w.byFirst[lowerASCII(c)] {
			end := i + len(e.text)
			if end <= len(text) && equalFoldASCII(text[i:end], e.text) && (e.stem || end == len(text) || !isWordByte(text[end])) {
				return true
			}
		}
	}
	return false
}

// isWordByte is \w of a regular expression: an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII reports whether s equals lower, a lower-case string, with ASCII letters of s in
// either case; other bytes (the ’ of "don’t") must be equal.
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		if lowerASCII(s[i]) != lower[i] {
			return false
		}
	}
	return true
}
