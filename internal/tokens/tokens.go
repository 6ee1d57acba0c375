// Package tokens counts tokens with a real BPE vocabulary compiled into the binary (o200k_base,
// the encoding of current OpenAI models); no download at run time.
package tokens

//go:generate go run gen_vocab.go

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
)

var (
	once sync.Once
	// ranks maps each o200k_base token to its rank. It is decoded from a compact embedded copy
	// (vocab.go) rather than taken from the tokenizer library, whose map literal would add
	// 6.7 MB to the binary.
	ranks map[string]int
)

// load decodes the vocabulary, once.
func load() {
	once.Do(func() {
		var err error
		if ranks, err = loadVocab(); err != nil {
			// The vocabulary is fixed at build time and checked by the tests.
			panic(fmt.Sprintf("tokens: embedded vocabulary: %v", err))
		}
	})
}

// parallelAbove is the size from which Count splits its input across cores.
const parallelAbove = 64 << 10

// Count returns the number of tokens in s. The vocabulary loads once, on first use. Large inputs
// are counted in chunks on every core, split where a line starts with a letter, where the
// tokenizer's own pre-split would cut too, so the sum equals the count of the whole.
func Count(s string) int {
	if s == "" {
		return 0
	}
	load()
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

func count(s string) int { return countTokens(ranks, s) }

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
