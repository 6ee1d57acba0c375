// Package tokens counts tokens with a real BPE vocabulary compiled into the binary (o200k_base,
// the encoding of current OpenAI models); no download at run time.
package tokens

import (
	"runtime"
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer/codec"
)

var (
	once sync.Once
	// o200k is built from its own constructor, not tokenizer.Get, whose switch over every
	// encoding would link all five vocabularies (12 MB of the binary) for the one used.
	o200k *codec.Codec
)

// parallelAbove is the size from which Count splits its input across cores.
const parallelAbove = 64 << 10

// Count returns the number of tokens in s. The vocabulary loads once, on first use. Large inputs
// are counted in chunks on every core, split where a line starts with a letter, where the
// tokenizer's own pre-split would cut too, so the sum equals the count of the whole.
func Count(s string) int {
	if s == "" {
		return 0
	}
	once.Do(func() { o200k = codec.NewO200kBase() })
	if len(s) < parallelAbove || runtime.GOMAXPROCS(0) == 1 {
		return count(s)
	}
	chunks := split(s, runtime.GOMAXPROCS(0)*4)
	counts := make([]int, len(chunks))
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Go(func() { counts[i] = count(c) })
	}
	wg.Wait()
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func count(s string) int {
	n, err := o200k.Count(s)
	if err != nil {
		// Invalid UTF-8 still costs tokens; a byte-based estimate errs on the safe side.
		return len(s)/3 + 1
	}
	return n
}

// split cuts s into about n pieces, each ending with a newline that is followed by a letter.
func split(s string, n int) []string {
	size := len(s)/n + 1
	var out []string
	for len(s) > size {
		cut := -1
		for from := size; from < len(s); {
			i := strings.IndexByte(s[from:], '\n')
			if i < 0 {
				break
			}
			at := from + i + 1
			if at < len(s) && isLetter(s[at]) && (at < 2 || s[at-2] != '\n') {
				cut = at
				break
			}
			from = at
		}
		if cut < 0 {
			break
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
