package redact

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// Base64 runs shorter than this hold too little to be a wrapped key; longer ones are data (an
// image), not a credential someone pasted.
const (
	minEncoded = 16
	maxEncoded = 16 << 10
)

// findWrapped finds credentials that no rule sees as written: wrapped in base64 (a Kubernetes
// manifest, a CI variable, `echo … | base64 -d`), or cut into string literals joined again in
// code ("sk-" + "proj-…"). The unwrapped text is searched with the rules (not again for wrapping).
func (r *Redactor) findWrapped(s string) []ranked {
	prio := len(r.ruleset())
	var out []ranked
	for _, span := range base64Runs(s) {
		decoded, ok := decodeBase64(strings.Join(strings.Fields(s[span[0]:span[1]]), ""))
		if ok && len(r.find(decoded)) > 0 {
			out = append(out, ranked{Finding{"base64-secret", span[0], span[1]}, prio})
		}
	}
	for _, pieces := range literalChains(s) {
		var joined strings.Builder
		starts := make([]int, len(pieces)) // each piece's offset in joined
		for i, p := range pieces {
			starts[i] = joined.Len()
			joined.WriteString(s[p[0]:p[1]])
		}
		for _, f := range r.find(joined.String()) {
			first, last := pieceAt(starts, f.Start), pieceAt(starts, f.End-1)
			if first == last {
				continue // inside one literal: the rules found it there already
			}
			start := pieces[first][0] + f.Start - starts[first]
			end := pieces[last][0] + f.End - starts[last]
			out = append(out, ranked{Finding{f.Kind, start, end}, f.prio})
		}
	}
	return out
}

// pieceAt is the index of the piece holding offset k of the joined text.
func pieceAt(starts []int, k int) int {
	i := len(starts) - 1
	for i > 0 && starts[i] > k {
		i--
	}
	return i
}

// base64Runs returns the runs of base64 text (standard or URL alphabet, padding included) long
// enough to hold a key and looking encoded: mixed case and a digit, which paths and words lack.
func base64Runs(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if !isBase64Byte(s[i]) {
			i++
			continue
		}
		j := i
		upper, lower, digit := false, false, false
		for j < len(s) && isBase64Byte(s[j]) {
			c := s[j]
			upper = upper || 'A' <= c && c <= 'Z'
			lower = lower || 'a' <= c && c <= 'z'
			digit = digit || '0' <= c && c <= '9'
			j++
		}
		for k := 0; k < 2 && j < len(s) && s[j] == '='; k++ {
			j++
		}
		if j-i >= minEncoded {
			j = wrappedLines(s, i, j)
		}
		if n := j - i; n >= minEncoded && n <= maxEncoded && upper && lower && digit {
			out = append(out, [2]int{i, j})
		}
		i = j + 1
	}
	return out
}

// wrappedLines extends the base64 run s[i:j] over the lines that continue it: `base64` wraps its
// output at 76 columns, and each line of a wrapped key alone decodes to nothing readable. A run
// continues when it fills its line to the end and the next line holds nothing but base64.
func wrappedLines(s string, i, j int) int {
	for j < len(s) && j-i < maxEncoded {
		next := j
		if s[next] == '\r' {
			next++
		}
		if next >= len(s) || s[next] != '\n' || s[j-1] == '=' {
			return j
		}
		k := next + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		e := k
		for e < len(s) && (isBase64Byte(s[e]) || s[e] == '=') {
			e++
		}
		if e-k < 4 || e < len(s) && s[e] != '\n' && s[e] != '\r' {
			return j
		}
		j = e
	}
	return j
}

func isBase64Byte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// decodeBase64 decodes s in whichever alphabet and padding it is written, and reports whether
// the result is text (a wrapped credential is; an image or a hash is not).
func decodeBase64(s string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(s)
		if err == nil {
			return string(b), printable(b)
		}
	}
	return "", false
}

// printable reports whether b is UTF-8 text without control characters other than line breaks
// and tabs.
func printable(b []byte) bool {
	if len(b) == 0 || !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// maxGap is how far apart (in bytes of blanks and the joining operator) two joined string
// literals may be.
const maxGap = 24

// literalChains returns the contents of string literals joined into one string: by + (most
// languages), . or .. (PHP, Lua), || (SQL), & (Visual Basic), or by blanks alone across a line
// break (Python and C join adjacent literals). Each chain is two or more [start, end) contents.
func literalChains(s string) [][][2]int {
	var chains [][][2]int
	var cur [][2]int
	for off := 0; off < len(s); {
		i := strings.IndexAny(s[off:], `"'`)
		if i < 0 {
			break
		}
		closeAt := off + i
		openAt, ok := joinedTo(s, closeAt)
		if !ok {
			off = closeAt + 1
			continue
		}
		left, okL := literalBefore(s, closeAt)
		right, okR := literalAfter(s, openAt)
		if !okL || !okR {
			off = closeAt + 1
			continue
		}
		if len(cur) > 0 && cur[len(cur)-1] == left {
			cur = append(cur, right)
		} else {
			if len(cur) > 1 {
				chains = append(chains, cur)
			}
			cur = [][2]int{left, right}
		}
		off = right[1] // the right literal's closing quote may join the next one
	}
	if len(cur) > 1 {
		chains = append(chains, cur)
	}
	return chains
}

// joinedTo reports whether the quote at i is followed, within maxGap bytes, by a joining operator
// (or a line break) and another quote, and where that quote is.
func joinedTo(s string, i int) (int, bool) {
	j := i + 1
	op, newline := false, false
	for j < len(s) && j-i <= maxGap {
		switch c := s[j]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n':
			newline = true
		case !op && (c == '+' || c == '.' || c == '|' || c == '&'):
			op = true
			if j+1 < len(s) && s[j+1] == c {
				j++ // .. and ||
			}
		case c == '"' || c == '\'':
			return j, op || newline
		default:
			return 0, false
		}
		j++
	}
	return 0, false
}

// literalBefore is the content of the literal closed by the quote at i: back to the same quote
// on the same line, not escaped.
func literalBefore(s string, i int) ([2]int, bool) {
	q := s[i]
	for j := i - 1; j >= 0 && i-j <= 512; j-- {
		switch s[j] {
		case '\n':
			return [2]int{}, false
		case q:
			if j > 0 && s[j-1] == '\\' {
				continue
			}
			return [2]int{j + 1, i}, true
		}
	}
	return [2]int{}, false
}

// literalAfter is the content of the literal opened by the quote at i.
func literalAfter(s string, i int) ([2]int, bool) {
	q := s[i]
	for j := i + 1; j < len(s) && j-i <= 512; j++ {
		switch s[j] {
		case '\n':
			return [2]int{}, false
		case '\\':
			j++
		case q:
			return [2]int{i + 1, j}, true
		}
	}
	return [2]int{}, false
}
