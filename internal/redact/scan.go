package redact

import "strings"

// matches returns the rule's submatch index slices in s. A rule with literals runs only where
// one of them is (at: their positions, ascending, from literalIndex.hits), and its regular
// expression only on the lines (or words) around them: a transcript is mostly lines without any,
// and a regular expression that cannot start with a fixed string would otherwise walk every byte.
func (ru rule) matches(s string, at []int) [][]int {
	if len(ru.literals) > 0 && len(at) == 0 {
		return nil
	}
	if ru.find != nil {
		return ru.find(s)
	}
	if len(ru.literals) == 0 {
		return ru.re.FindAllStringSubmatchIndex(s, -1)
	}
	var out [][]int
	for i, off := 0, 0; i < len(at); i++ {
		p := at[i]
		if p < off {
			continue
		}
		if ru.near != nil && !ru.near(s, p) {
			continue
		}
		start, end := ru.window(s, off, p)
		for _, m := range ru.re.FindAllStringSubmatchIndex(s[start:end], -1) {
			for i := range m {
				if m[i] >= 0 {
					m[i] += start
				}
			}
			out = append(out, m)
		}
		if ru.word {
			out = append(out, ru.acrossSpaces(s, start, end)...)
		}
		off = max(end, p+1)
	}
	return out
}

// window returns the stretch of s around position p that a match through p can cover: its line,
// or for a word rule the run of non-space characters (never reaching back before off).
func (ru rule) window(s string, off, p int) (start, end int) {
	if !ru.word {
		start = strings.LastIndexByte(s[off:p], '\n') + 1 + off
		end = len(s)
		if i := strings.IndexByte(s[p:], '\n'); i >= 0 {
			end = p + i
		}
		return start, end
	}
	start, end = p, p
	for start > off && !isSpace(s[start-1]) {
		start--
	}
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	return start, end
}

// maxPieces bounds how many pieces a key split by spaces is joined from.
const maxPieces = 8

// acrossSpaces finds the word rule's matches that run on past the word [start, end) once the single
// spaces after it are taken out: a key pasted or wrapped with a space in it ("sk-proj-Ab3d Ef6h…")
// would otherwise keep its tail readable, or, when each piece is too short to match, be missed. Only
// pieces that look like key material are joined, and only matches that reach past the word count.
func (ru rule) acrossSpaces(s string, start, end int) [][]int {
	pieces := [][2]int{{start, end}}
	joined := s[start:end]
	for len(pieces) < maxPieces {
		p := pieces[len(pieces)-1][1]
		q, wrapped := nextPiece(s, p)
		if q < 0 {
			break
		}
		e := q
		for e < len(s) && isKeyByte(s[e]) {
			e++
		}
		if !keyPiece(s[q:e]) || wrapped && !endsLine(s, e) {
			break
		}
		pieces = append(pieces, [2]int{q, e})
		joined += s[q:e]
	}
	if len(pieces) == 1 {
		return nil
	}
	first := end - start
	var out [][]int
	for _, m := range ru.re.FindAllStringSubmatchIndex(joined, -1) {
		if m[0] >= first || m[1] <= first {
			continue // the word alone has it, or it lies wholly in a later piece
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] = original(pieces, m[i], i%2 == 1)
			}
		}
		out = append(out, m)
	}
	return out
}

// nextPiece returns where the piece after the one ending at p starts: past one blank, or, for a
// key wrapped at a line's end, past the line break and the next line's indentation (wrapped).
// It is -1 when nothing follows that could be one.
func nextPiece(s string, p int) (int, bool) {
	switch {
	case p+1 >= len(s):
		return -1, false
	case s[p] == ' ' || s[p] == '\t':
		return p + 1, false
	case s[p] == '\n' || s[p] == '\r' && s[p+1] == '\n':
		q := p + 1
		if s[p] == '\r' {
			q++
		}
		for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
			q++
		}
		return q, true
	}
	return -1, false
}

// endsLine reports whether e is the end of s or of its line: a wrapped key's pieces fill their
// lines, where prose's words do not.
func endsLine(s string, e int) bool {
	return e == len(s) || s[e] == '\n' || s[e] == '\r'
}

// original maps offset k in the joined pieces back to the text; an end offset at a piece's end stays
// there rather than moving past the space to the next piece.
func original(pieces [][2]int, k int, isEnd bool) int {
	for _, pc := range pieces {
		n := pc[1] - pc[0]
		if k < n || isEnd && k == n {
			return pc[0] + k
		}
		k -= n
	}
	last := pieces[len(pieces)-1]
	return last[1]
}

// isKeyByte reports whether c can be part of a token: letters, digits and the few symbols key
// alphabets use.
func isKeyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '_' || c == '-' || c == '+' || c == '/' || c == '='
}

// keyPiece reports whether a piece after a space looks like more of a key rather than a word of
// prose: at least four characters holding a digit, or lower case with two capitals past the first
// letter (so "JavaScript" and "iPhone" stay words).
func keyPiece(p string) bool {
	if len(p) < 4 {
		return false
	}
	var digit, lower bool
	inner := 0 // capitals after the first character
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case '0' <= c && c <= '9':
			digit = true
		case 'A' <= c && c <= 'Z' && i > 0:
			inner++
		case 'a' <= c && c <= 'z':
			lower = true
		}
	}
	return digit || lower && inner >= 2
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// literalIndex finds every rule's literals in a text in one pass. Two hundred literals searched
// for one by one cost two hundred scans of a large transcript, each slowed by the literals whose
// first byte is a common letter; one pass looks up each pair of bytes in a table instead.
type literalIndex struct {
	pairs [1 << 16 / 64]uint64 // the (lower-cased) first two bytes of some literal
	byKey [][]literalRef       // by pair of bytes: 65,536 slots, so a lookup is an index, not a hash
	rules int
}

// literalRef is one literal of one rule.
type literalRef struct {
	rule int
	lit  string // lower-cased when fold
	fold bool
}

func pairKey(a, b byte) uint16 { return uint16(lowerByte(a))<<8 | uint16(lowerByte(b)) }

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func newLiteralIndex(rules []rule) *literalIndex {
	ix := &literalIndex{byKey: make([][]literalRef, 1<<16), rules: len(rules)}
	for i, ru := range rules {
		for _, lit := range ru.literals {
			if ru.fold {
				lit = asciiLower(lit)
			}
			if len(lit) < 2 {
				panic("redact: a literal needs two bytes: " + lit)
			}
			k := pairKey(lit[0], lit[1])
			ix.pairs[k/64] |= 1 << (k % 64)
			ix.byKey[k] = append(ix.byKey[k], literalRef{i, lit, ru.fold})
		}
	}
	return ix
}

// hits returns, for each rule, the positions in s where one of its literals starts, ascending;
// nil when no literal is in s (most turns), so that a text without one costs no allocation. The
// folded literals are compared with s in ASCII lower case (same offsets), made only when a
// literal's first two bytes are met.
func (ix *literalIndex) hits(s string) [][]int {
	var out [][]int
	lower := ""
	for i := 0; i+1 < len(s); i++ {
		k := pairKey(s[i], s[i+1])
		if ix.pairs[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, ref := range ix.byKey[k] {
			text := s
			if ref.fold {
				if lower == "" {
					lower = asciiLower(s)
				}
				text = lower
			}
			if strings.HasPrefix(text[i:], ref.lit) {
				if out == nil {
					out = make([][]int, ix.rules)
				}
				if n := len(out[ref.rule]); n == 0 || out[ref.rule][n-1] != i {
					out[ref.rule] = append(out[ref.rule], i)
				}
			}
		}
	}
	return out
}

// asciiLower lower-cases ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
