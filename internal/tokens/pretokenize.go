package tokens

import (
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	// The library registers code-generated matchers for its split patterns with regexp2
	// (codec/regexp.gen.go), and regexp2.MustCompile returns the one for splitPattern instead of
	// its much slower interpreter. The import links none of the library's vocabularies: those are
	// built only by its constructors, which this package never calls.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

// splitPattern is o200k_base's pre-split pattern, copied verbatim from
// github.com/tiktoken-go/tokenizer v0.10.0, codec/o200k_base.go (MIT licence). It needs a
// lookahead (\s+(?!\S)), hence regexp2 rather than the standard library's regexp.
const splitPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// countTokens pre-splits s as o200k_base does and sums the tokens of each piece.
func countTokens(ranks map[string]int, splitter *regexp2.Regexp, s string) (int, error) {
	runes := []rune(s)
	if !utf8.ValidString(s) {
		// regexp2 matches runes, so the library counts each invalid byte as U+FFFD; so do we.
		s = string(runes)
	}
	m, err := splitter.FindRunesMatch(runes)
	n, runeAt, byteAt := 0, 0, 0
	for m != nil && err == nil {
		start := byteAt + utf8Len(runes[runeAt:m.RuneIndex])
		runeAt = m.RuneIndex + m.RuneLength
		byteAt = start + utf8Len(runes[m.RuneIndex:runeAt])
		n += pieceTokens(ranks, s[start:byteAt])
		m, err = splitter.FindNextMatch(m)
	}
	return n, err
}

// utf8Len returns the length of runes encoded in UTF-8.
func utf8Len(runes []rune) int {
	n := 0
	for _, r := range runes {
		n += utf8.RuneLen(r)
	}
	return n
}
