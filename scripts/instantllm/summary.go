package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// summary is what a request log adds up to.
type summary struct {
	Requests, MaxBytes, MaxTokens, TotalTokens int
	MaxInFlight                                int // the most requests served at once
	Found, Verbatim                            int // planted lessons seen in any request
	Missing                                    []string
}

// summarize reads a request log (one entry a line) against the planted lessons.
func summarize(r io.Reader, lessons []lesson) (summary, error) {
	var s summary
	seen := map[string]bool{}
	verbatim := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for no := 1; sc.Scan(); no++ {
		var e entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return s, fmt.Errorf("line %d: %w", no, err)
		}
		s.Requests++
		s.MaxBytes = max(s.MaxBytes, e.Bytes)
		s.MaxTokens = max(s.MaxTokens, e.Tokens)
		s.TotalTokens += e.Tokens
		s.MaxInFlight = max(s.MaxInFlight, e.InFlight)
		for _, m := range e.Lessons {
			seen[m] = true
		}
		for _, m := range e.Verbatim {
			verbatim[m] = true
		}
	}
	if err := sc.Err(); err != nil {
		return s, err
	}
	for _, l := range lessons {
		switch {
		case !seen[l.Marker]:
			s.Missing = append(s.Missing, l.Marker)
		case verbatim[l.Marker]:
			s.Found++
			s.Verbatim++
		default:
			s.Found++
		}
	}
	return s, nil
}

func printSummary(w io.Writer, path string, lessons []lesson) error {
	fh, err := os.Open(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	s, err := summarize(fh, lessons)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(w, "requests=%d\nmax_bytes=%d\nmax_tokens=%d\ntotal_tokens=%d\nlessons_found=%d\nlessons_verbatim=%d\nlessons_total=%d\nlessons_missing=%s\nmax_in_flight=%d\n",
		s.Requests, s.MaxBytes, s.MaxTokens, s.TotalTokens, s.Found, s.Verbatim, len(lessons), strings.Join(s.Missing, ","), s.MaxInFlight)
	return nil
}
