package reldate

// proseRanges returns the [start, end) byte ranges of text outside code: fenced blocks and
// inline spans delimited by equal runs of backticks. An unclosed fence protects the rest of the
// text; an unclosed single backtick is literal, as in Markdown.
func proseRanges(text string) [][2]int {
	var prose [][2]int
	from := 0 // start of the current prose range
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := backticks(text, i)
		closing := closingRun(text, i+n, n)
		switch {
		case closing >= 0:
			prose = appendRange(prose, from, i)
			i = closing + n
			from = i
		case n >= 3:
			return appendRange(prose, from, i)
		default:
			i += n
		}
	}
	return appendRange(prose, from, len(text))
}

func appendRange(ranges [][2]int, start, end int) [][2]int {
	if start < end {
		ranges = append(ranges, [2]int{start, end})
	}
	return ranges
}

// backticks is the length of the run of backticks at text[i].
func backticks(text string, i int) int {
	n := 0
	for i+n < len(text) && text[i+n] == '`' {
		n++
	}
	return n
}

// closingRun is the index of the next run of exactly n backticks at or after i, or -1.
func closingRun(text string, i, n int) int {
	for i < len(text) {
		if text[i] != '`' {
			i++
			continue
		}
		m := backticks(text, i)
		if m == n {
			return i
		}
		i += m
	}
	return -1
}
