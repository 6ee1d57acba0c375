// Package tokens counts tokens with a real BPE vocabulary compiled into the binary (o200k_base,
// the encoding of current OpenAI models); no download at run time.
package tokens

//go:generate go run gen_vocab.go

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// vocab holds the ranks of every o200k_base token, nil until the first count and after Release.
// They are decoded from a compact embedded copy (vocab.go) rather than taken from the tokenizer
// library, whose map literal would add 6.7 MB to the binary.
var (
	vocab   atomic.Pointer[map[string]int]
	loading sync.Mutex
)

// vocabulary returns the ranks, decoding them on the first call after start or Release.
func vocabulary() map[string]int {
	if r := vocab.Load(); r != nil {
		return *r
	}
	loading.Lock()
	defer loading.Unlock()
	if r := vocab.Load(); r != nil {
		return *r
	}
	ranks, err := loadVocab()
	if err != nil {
		// The vocabulary is fixed at build time and checked by the tests.
		panic(fmt.Sprintf("tokens: embedded vocabulary: %v", err))
	}
	vocab.Store(&ranks)
	return ranks
}

// Release lets the decoded vocabulary (about 10 MB of heap) go until the next count: the daemon
// sleeps far longer than it counts. A count in flight keeps the ranks it took.
func Release() { vocab.Store(nil) }

// parallelAbove is the size from which Count splits its input across cores.
const parallelAbove = 64 << 10

// Count returns the number of tokens in s. The vocabulary loads on first use. Large inputs
// are counted in chunks on every core, split where a line starts with a letter, where the
// tokenizer's own pre-split would cut too, so the sum equals the count of the whole.
func Count(s string) int {
	if s == "" {
		return 0
	}
	ranks := vocabulary()
	if len(s) < parallelAbove || runtime.GOMAXPROCS(0) == 1 {
		return countTokens(ranks, s)
	}
	chunks := split(s, runtime.GOMAXPROCS(0)*4)
	counts := make([]int, len(chunks))
	var wg sync.WaitGroup
	for i, c := range chunks {
		wg.Go(func() { counts[i] = countTokens(ranks, c) })
	}
	wg.Wait()
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

func count(s string) int { return countTokens(vocabulary(), s) }

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
