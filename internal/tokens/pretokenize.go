package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-split below is o200k_base's pattern, as published with tiktoken and copied by
// github.com/tiktoken-go/tokenizer (codec/o200k_base.go, MIT licence):
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n/]*
//	|\s*[\r\n]+
//	|\s+(?!\S)
//	|\s+
//
// written out by hand: a backtracking regexp engine (the pattern needs a lookahead) allocated a
// match per piece, and counting was most of a dry pass's time and garbage. Each branch below is
// the pattern's, in its order, with the backtracking it would do; the tests compare the counts
// with the library's regexp on a corpus, random text and a fuzzer.

// class is a set of the character classes the pattern tells apart.
type class uint8

const (
	upper  class = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	lower                    // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	letter                   // \p{L}
	number                   // \p{N}
	space                    // \s, as regexp2 reads it: unicode.IsSpace
	crlf                     // [\r\n]
	// unmatched marks DEL (U+007F): the ASCII bitmaps regexp2 generated for the pattern's two
	// negated sets leave it out, so the library's regexp matches no piece at a DEL and moves
	// on: it counts no token. Kept, since the counts must equal the library's.
	unmatched
)

// asciiClass holds the classes of the ASCII characters, the common case.
var asciiClass = func() (t [utf8.RuneSelf]class) {
	for r := range rune(utf8.RuneSelf) {
		t[r] = classify(r)
	}
	return t
}()

func classify(r rune) class {
	var c class
	switch {
	case unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r):
		c = upper | letter
	case unicode.Is(unicode.Ll, r):
		c = lower | letter
	case unicode.Is(unicode.Lm, r), unicode.Is(unicode.Lo, r):
		c = upper | lower | letter
	case unicode.Is(unicode.M, r):
		c = upper | lower
	case unicode.Is(unicode.N, r):
		c = number
	}
	if unicode.IsSpace(r) {
		c |= space
	}
	if r == '\r' || r == '\n' {
		c |= crlf
	}
	if r == 0x7f {
		c |= unmatched
	}
	return c
}

// classAt returns the classes of the rune at s[i:] and its width; at the end of s, none and 0.
func classAt(s string, i int) (class, int) {
	if i >= len(s) {
		return 0, 0
	}
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classify(r), w
}

// prefix reports whether c is in [^\r\n\p{L}\p{N}], the optional character before a word.
func (c class) prefix() bool { return c&(crlf|letter|number|unmatched) == 0 }

// symbol reports whether c is in [^\s\p{L}\p{N}].
func (c class) symbol() bool { return c&(space|letter|number|unmatched) == 0 }

// nextPiece returns the end of the piece that starts at s[i:], or -1 when no branch matches
// there (then the regexp would move on by one character, and that character counts nothing).
func nextPiece(s string, i int) int {
	c, w := classAt(s, i)
	if w == 0 {
		return -1
	}
	// Branches 1 and 2 take the optional prefix character first, then retry without it.
	for _, word := range [2]func(string, int) int{lowerWord, upperWord} {
		if c.prefix() {
			if end := word(s, i+w); end >= 0 {
				return end
			}
		}
		if end := word(s, i); end >= 0 {
			return end
		}
	}
	if c&number != 0 { // \p{N}{1,3}
		end := i
		for n := 0; n < 3; n++ {
			cc, ww := classAt(s, end)
			if cc&number == 0 {
				break
			}
			end += ww
		}
		return end
	}
	if end := symbols(s, i); end >= 0 {
		return end
	}
	if c&space == 0 {
		return -1
	}
	// The whitespace branches all start with the run of whitespace at i.
	end, firstBreak, last := i, -1, i
	for {
		cc, ww := classAt(s, end)
		if cc&space == 0 {
			break
		}
		if cc&crlf != 0 && firstBreak < 0 {
			firstBreak = end
		}
		last = end
		end += ww
	}
	switch {
	case firstBreak >= 0:
		// \s*[\r\n]+. A backtracking engine gives \s* back up to the run's last line break;
		// the matcher regexp2 generated for the library gives it back to the first one (it
		// searches with IndexOfAny where it means LastIndexOfAny), so "\n  \n" is two pieces
		// for the library and one for tiktoken. Kept, since the counts must equal the library's.
		end = firstBreak
		for end < len(s) && (s[end] == '\r' || s[end] == '\n') {
			end++
		}
		return end
	case end == len(s): // \s+(?!\S) at the end of the text
		return end
	case last > i: // \s+(?!\S) gives back the space before the next word
		return last
	default: // \s+
		return end
	}
}

// lowerWord matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ and a
// contraction at s[i:]. When the first loop's greedy run leaves no lower character after it, it
// gives back up to its last character that is also lower (Lm, Lo and M are both).
func lowerWord(s string, i int) int {
	end, lastLower, lastLowerEnd := i, -1, -1
	for {
		c, w := classAt(s, end)
		if c&upper == 0 {
			break
		}
		if c&lower != 0 {
			lastLower, lastLowerEnd = end, end+w
		}
		end += w
	}
	if c, _ := classAt(s, end); c&lower == 0 {
		if lastLower < 0 {
			return -1
		}
		// The lower loop takes that one character: the next one, if inside the run, is only
		// upper, and the one after the run is not lower.
		return contraction(s, lastLowerEnd)
	}
	return contraction(s, lowerRun(s, end))
}

// upperWord matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]* and a
// contraction at s[i:].
func upperWord(s string, i int) int {
	end := i
	for {
		c, w := classAt(s, end)
		if c&upper == 0 {
			break
		}
		end += w
	}
	if end == i {
		return -1
	}
	return contraction(s, lowerRun(s, end))
}

// lowerRun returns the end of the run of lower characters at s[i:].
func lowerRun(s string, i int) int {
	for {
		c, w := classAt(s, i)
		if c&lower == 0 {
			return i
		}
		i += w
	}
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d)? at s[i:]. Case-insensitive
// matching folds ſ (U+017F) to s, which regexp2 honours.
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return i
	}
	rest := s[i+1:]
	if len(rest) == 0 {
		return i
	}
	switch rest[0] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if len(rest) > 1 && rest[1]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if len(rest) > 1 && rest[1]|0x20 == 'l' {
			return i + 3
		}
	}
	if len(rest) >= 2 && rest[:2] == "ſ" {
		return i + 3
	}
	return i
}

// symbols matches ` ?[^\s\p{L}\p{N}]+[\r\n/]*` at s[i:], or returns -1.
func symbols(s string, i int) int {
	start := i
	if i < len(s) && s[i] == ' ' {
		start = i + 1
	}
	end := start
	for {
		c, w := classAt(s, end)
		if w == 0 || !c.symbol() {
			break
		}
		end += w
	}
	if end == start {
		return -1
	}
	for end < len(s) && (s[end] == '\r' || s[end] == '\n' || s[end] == '/') {
		end++
	}
	return end
}

// countTokens pre-splits s as o200k_base does and sums the tokens of each piece.
func countTokens(ranks map[string]int, s string) int {
	if !utf8.ValidString(s) {
		// The library matches runes, so it counts each invalid byte as U+FFFD; so do we.
		s = string([]rune(s))
	}
	n := 0
	for i := 0; i < len(s); {
		end := nextPiece(s, i)
		if end < 0 {
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		n += pieceTokens(ranks, s[i:end])
		i = end
	}
	return n
}
