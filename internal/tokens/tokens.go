// Package tokens counts tokens with a real BPE vocabulary compiled into the binary (o200k_base,
// the encoding of current OpenAI models); no download at run time.
package tokens

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

var (
	once  sync.Once
	codec tokenizer.Codec
)

// Count returns the number of tokens in s. The vocabulary loads once, on first use.
func Count(s string) int {
	if s == "" {
		return 0
	}
	once.Do(func() {
		c, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			panic("tokens: compiled-in vocabulary missing: " + err.Error())
		}
		codec = c
	})
	n, err := codec.Count(s)
	if err != nil {
		// Invalid UTF-8 still costs tokens; a byte-based estimate errs on the safe side.
		return len(s)/3 + 1
	}
	return n
}
