package tokens

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// o200kGz is the o200k_base vocabulary (OpenAI's tiktoken, as shipped by
// github.com/tiktoken-go/tokenizer v0.10.0, MIT licence), written by gen_vocab.go. Its format is
// described there.
//
//go:embed o200k.bin.gz
var o200kGz []byte

// loadVocab decodes the embedded vocabulary into a map from a token's bytes to its rank.
func loadVocab() (map[string]int, error) {
	zr, err := gzip.NewReader(bytes.NewReader(o200kGz))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	return decodeVocab(string(raw))
}

var errCorruptVocab = errors.New("corrupt vocabulary")

// decodeVocab parses the uncompressed format. The map's keys are substrings of blob, so building
// it allocates no string per token.
func decodeVocab(blob string) (map[string]int, error) {
	n, blob, err := uvarint(blob)
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]int, n)
	for rank := range int(n) {
		var size uint64
		if size, blob, err = uvarint(blob); err != nil {
			return nil, err
		}
		if size > uint64(len(blob)) {
			return nil, fmt.Errorf("%w: token %d runs past the end", errCorruptVocab, rank)
		}
		if size > 0 { // 0 marks a rank without a token
			ranks[blob[:size]] = rank
		}
		blob = blob[size:]
	}
	if len(blob) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last token", errCorruptVocab, len(blob))
	}
	return ranks, nil
}

// uvarint reads an unsigned varint from the front of s and returns it with the rest of s.
func uvarint(s string) (uint64, string, error) {
	var v uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		c := s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, s[i+1:], nil
		}
	}
	return 0, "", fmt.Errorf("%w: bad varint", errCorruptVocab)
}
