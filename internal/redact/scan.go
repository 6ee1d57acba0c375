package redact

import "strings"

// matches returns the rule's submatch index slices in s. A rule with literals runs its regular
// expression only on the lines (or words) that contain one of them: a transcript is mostly lines without
// any, and a regular expression that cannot start with a fixed string would otherwise walk every
// byte. lower is s in ASCII lower case, with the same byte offsets, for case-folded literals.
func (ru rule) matches(s, lower string) [][]int {
	if ru.find != nil {
		return ru.find(s)
	}
	if len(ru.literals) == 0 {
		return ru.re.FindAllStringSubmatchIndex(s, -1)
	}
	text := s
	if ru.fold {
		text = lower
	}
	var out [][]int
	next := newLiteralScan(text, ru.literals)
	for off := 0; ; {
		p := next.from(off)
		if p < 0 {
			return out
		}
		if ru.near != nil && !ru.near(s, p) {
			off = p + 1
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
		off = end
	}
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
		if p+1 >= len(s) || s[p] != ' ' && s[p] != '\t' {
			break
		}
		q, e := p+1, p+1
		for e < len(s) && isKeyByte(s[e]) {
			e++
		}
		if !keyPiece(s[q:e]) {
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

// literalScan finds the next occurrence of any of several literals without rescanning: each
// literal's next position is remembered until the search passes it.
type literalScan struct {
	text     string
	literals []string
	next     []int // next position of each literal, -1 when there is none left
}

func newLiteralScan(text string, literals []string) *literalScan {
	next := make([]int, len(literals))
	for i := range next {
		next[i] = -2 // not searched yet
	}
	return &literalScan{text: text, literals: literals, next: next}
}

// from returns the first position >= off where a literal starts, or -1.
func (l *literalScan) from(off int) int {
	best := -1
	for i, lit := range l.literals {
		if l.next[i] == -1 {
			continue
		}
		if l.next[i] < off {
			j := strings.Index(l.text[off:], lit)
			if j < 0 {
				l.next[i] = -1
				continue
			}
			l.next[i] = off + j
		}
		if best < 0 || l.next[i] < best {
			best = l.next[i]
		}
	}
	return best
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
