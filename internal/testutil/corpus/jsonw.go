package corpus

import (
	"math/rand/v2"
	"time"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string, escaped the way JSON.stringify does (Claude Code is a
// Node program): quotes, backslashes and control characters only; other UTF-8 is written as is.
// Invalid UTF-8 becomes U+FFFD so the record stays valid JSON.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends the body of a JSON string for s, without the quotes.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, s[start:i]...)
				b = append(b, "\ufffd"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	return append(b, s[start:]...)
}

// newUUID returns a random (version 4) UUID drawn from rng, so a corpus is the same for a seed.
func newUUID(rng *rand.Rand) string {
	var raw [16]byte
	hi, lo := rng.Uint64(), rng.Uint64()
	for i := range 8 {
		raw[i] = byte(hi >> (8 * i))
		raw[8+i] = byte(lo >> (8 * i))
	}
	raw[6] = raw[6]&0x0f | 0x40
	raw[8] = raw[8]&0x3f | 0x80
	var out [36]byte
	j := 0
	for i, c := range raw {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hexDigits[c>>4], hexDigits[c&0xf]
		j += 2
	}
	return string(out[:])
}

// randomID returns prefix followed by n characters of the base-62 alphabet Anthropic ids use
// (msg_…, req_…, toolu_…).
func randomID(rng *rand.Rand, prefix string, n int) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	b := make([]byte, 0, len(prefix)+n)
	b = append(b, prefix...)
	for range n {
		b = append(b, alphabet[rng.IntN(len(alphabet))])
	}
	return string(b)
}

// timeLayout is how Claude Code writes timestamps: UTC with milliseconds.
const timeLayout = "2006-01-02T15:04:05.000Z"

func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.UTC().AppendFormat(b, timeLayout)
	return append(b, '"')
}
