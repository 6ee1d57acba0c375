//go:build ignore

// gen_vocab writes o200k.bin.gz, the o200k_base vocabulary in compact form, from the vocabulary
// of github.com/tiktoken-go/tokenizer (v0.10.0, MIT licence), which is OpenAI's tiktoken
// o200k_base. That library keeps it as a Go map literal, which costs about 6.7 MB of binary; this
// form costs a fraction of that.
//
// Format, gzip'd: uvarint token count N, then for each rank 0..N-1 in order a uvarint byte
// length and the token's bytes. A rank without a token has length 0 (no token is empty).
//
// Run with: go generate ./internal/tokens (or go run gen_vocab.go in this directory).
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"log"
	"os"

	"github.com/tiktoken-go/tokenizer/codec"
)

// maxRank bounds the ranks probed; o200k_base's ordinary tokens end just below 200,000.
const maxRank = 1 << 18

// minTokens guards against a silently broken probe (an API change making Decode fail).
const minTokens = 199_000

func main() {
	tokens, err := vocabulary()
	if err != nil {
		log.Fatal(err)
	}
	out, err := compress(encode(tokens))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("o200k.bin.gz", out, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("o200k.bin.gz: %d tokens, %d bytes\n", len(tokens), len(out))
}

// vocabulary returns the library's tokens indexed by rank, "" where a rank has none. It asks the
// exported Decode for each rank, so it depends on no internals of the library.
func vocabulary() ([]string, error) {
	c := codec.NewO200kBase()
	var tokens []string
	found := 0
	for rank := range uint(maxRank) {
		token, err := c.Decode([]uint{rank})
		if err != nil {
			token = "" // no token has this rank
		} else {
			found++
		}
		tokens = append(tokens, token)
	}
	if found < minTokens {
		return nil, fmt.Errorf("only %d tokens decoded; did the library change?", found)
	}
	for len(tokens) > 0 && tokens[len(tokens)-1] == "" {
		tokens = tokens[:len(tokens)-1]
	}
	return tokens, nil
}

// encode lays tokens out as described in the file comment.
func encode(tokens []string) []byte {
	var b []byte
	b = binary.AppendUvarint(b, uint64(len(tokens)))
	for _, t := range tokens {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

// compress gzips b without a name or time in the header, so the output depends only on b.
func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
