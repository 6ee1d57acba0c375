package tokens

// The byte-pair merge below is ported from github.com/tiktoken-go/tokenizer v0.10.0,
// codec/codec.go (mergePairs, mergePairsScan, mergePairsHeap, mergeHeap), MIT licence,
// Copyright (c) 2023 tiktoken-go. It is reduced to counting: the number of parts a piece
// merges into is its number of tokens. The merge order is kept exactly (lowest rank first,
// leftmost among equals), since a different order can end in a different count.

import "math"

// heapAbove is the piece length, in bytes, from which mergeCount switches from the quadratic
// scan to the heap; the library switches at the same length.
const heapAbove = 96

// noRank marks a pair that is not a token (or a boundary a merge removed).
const noRank = math.MaxInt32

// pieceTokens returns the number of tokens one pre-split piece encodes to.
func pieceTokens(ranks map[string]int, piece string) int {
	if _, ok := ranks[piece]; ok {
		return 1
	}
	if len(piece) < heapAbove {
		return mergeCountScan(ranks, piece)
	}
	return mergeCountHeap(ranks, piece)
}

// mergeCountScan merges repeatedly the leftmost pair with the lowest rank, finding it by a
// linear scan: O(n²), which beats the heap's bookkeeping on short pieces.
func mergeCountScan(ranks map[string]int, piece string) int {
	// A part's rank is that of the token formed by joining it with the next part.
	type part struct{ start, rank int }
	var short [24]part // most pieces fit: no garbage for them
	parts := short[:0]
	if len(piece) >= len(short) {
		parts = make([]part, 0, len(piece)+1)
	}
	parts = parts[:len(piece)+1]
	for i := range parts {
		parts[i] = part{i, noRank}
	}
	pairRank := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, ok := ranks[piece[parts[i].start:parts[i+skip+2].start]]; ok {
				return r
			}
		}
		return noRank
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = pairRank(i, 0)
	}
	for len(parts) > 1 {
		best, at := noRank, 0
		for i, p := range parts[:len(parts)-1] {
			if p.rank < best {
				best, at = p.rank, i
			}
		}
		if best == noRank {
			break
		}
		parts[at].rank = pairRank(at, 1)
		if at > 0 {
			parts[at-1].rank = pairRank(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return len(parts) - 1
}

// mergeNode is a part boundary in mergeCountHeap's doubly linked list; rank is that of the
// token formed by joining this part with the next.
type mergeNode struct {
	prev, next int32
	rank       int32
}

// mergeCountHeap gives mergeCountScan's count in O(n log n), for long pieces.
func mergeCountHeap(ranks map[string]int, piece string) int {
	n := int32(len(piece))
	nodes := make([]mergeNode, n+1)
	for i := range nodes {
		nodes[i] = mergeNode{prev: int32(i) - 1, next: int32(i) + 1, rank: noRank}
	}
	nodes[n].next = -1

	pairRank := func(i int32) int32 {
		j := nodes[i].next
		if j < 0 {
			return noRank
		}
		k := nodes[j].next
		if k < 0 {
			return noRank
		}
		if r, ok := ranks[piece[i:k]]; ok {
			return int32(r)
		}
		return noRank
	}

	candidates := make(mergeHeap, 0, n)
	for i := int32(0); i+2 <= n; i++ {
		if r := pairRank(i); r != noRank {
			nodes[i].rank = r
			candidates = append(candidates, mergeCandidate{r, i})
		}
	}
	candidates.init()

	parts := int(n)
	for len(candidates) > 0 {
		top := candidates.pop()
		i := top.start
		if nodes[i].rank != top.rank {
			continue // stale: the pair changed since it was pushed
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = noRank
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		parts--
		for _, b := range [2]int32{i, nodes[i].prev} {
			if b < 0 {
				continue
			}
			nodes[b].rank = pairRank(b)
			if nodes[b].rank != noRank {
				candidates.push(mergeCandidate{nodes[b].rank, b})
			}
		}
	}
	return parts
}

type mergeCandidate struct {
	rank  int32
	start int32
}

// mergeHeap is a binary min-heap of candidates by rank, then by start, so that among equal
// ranks the leftmost pair merges first. Typed, unlike container/heap, so pushes don't allocate.
type mergeHeap []mergeCandidate

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].start < h[b].start
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c mergeCandidate) {
	*h = append(*h, c)
	h.up(len(*h) - 1)
}

func (h *mergeHeap) pop() mergeCandidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h mergeHeap) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (h mergeHeap) down(i int) {
	for {
		child := 2*i + 1
		if child >= len(h) {
			return
		}
		if right := child + 1; right < len(h) && h.less(right, child) {
			child = right
		}
		if !h.less(child, i) {
			return
		}
		h[i], h[child] = h[child], h[i]
		i = child
	}
}
