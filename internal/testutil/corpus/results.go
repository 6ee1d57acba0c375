package corpus

import (
	"slices"
	"strconv"
)

// toolResult writes the user record carrying call's output of about size bytes. Claude Code stores
// the output twice: as the tool_result block the model saw, and as the tool's own toolUseResult.
func (s *session) toolResult(c *chain, call toolCall, size int) {
	failed := call.name == "Bash" && s.rng.IntN(12) == 0
	lines := s.fill(call, size, failed)
	start := s.begin(c)
	b := append(s.out, `"message":{"role":"user","content":[{"tool_use_id":"`...)
	b = append(b, call.id...)
	b = append(b, `","type":"tool_result","content":"`...)
	b = append(b, s.text...)
	b = append(b, `","is_error":`...)
	b = strconv.AppendBool(b, failed)
	s.out = append(b, "}]},"...)
	s.stamp(c, "user", newUUID(s.rng))
	s.out = append(s.out, `,"toolUseResult":`...)
	s.out = s.toolUseResult(s.out, call, failed, lines)
	s.finish(start, false)
}

// fill writes the output of call into s.text (as the model saw it) and s.raw (as the tool returned
// it, where that differs), both escaped, and returns its line count.
func (s *session) fill(call toolCall, size int, failed bool) int {
	s.text, s.raw = s.text[:0], s.raw[:0]
	switch call.name {
	case "Read":
		return s.fillCode(size)
	case "Grep":
		return fillLines(&s.text, size, `\n`, func(b []byte) []byte {
			b = append(b, pick(s.rng, s.pool.paths)...)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(1+s.rng.IntN(900)), 10)
			b = append(b, ':')
			return append(b, pick(s.rng, s.pool.code)...)
		})
	case "Glob":
		// The model sees one path a line; the tool's record lists them (s.raw, joined for a JSON array).
		dir := ProjectDir(s.plan.project) + "/"
		return fillLines(&s.text, min(size, 16<<10), `\n`, func(b []byte) []byte {
			path := pick(s.rng, s.pool.paths)
			if len(s.raw) > 0 {
				s.raw = append(s.raw, `","`...)
			}
			s.raw = append(append(s.raw, dir...), path...)
			return append(append(b, dir...), path...)
		})
	case "Edit":
		// The model sees a numbered snippet of the edited file; the tool's record keeps the whole
		// file as it was (s.raw), which is where an edit's bytes are.
		s.text = append(s.text, "The file "...)
		s.text = appendEscaped(s.text, call.file)
		s.text = append(s.text, " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:"...)
		at := 1 + s.rng.IntN(200)
		for i, k := range slices.Concat(call.new, s.codeIndexes(6)) {
			s.text = append(s.text, `\n`...)
			s.text = appendLineNumber(s.text, at+i)
			s.text = append(s.text, s.pool.code[k]...)
		}
		return fillLines(&s.raw, size, `\n`, func(b []byte) []byte { return append(b, pick(s.rng, s.pool.code)...) })
	}
	if failed {
		s.text = append(s.text, `Exit code 1\n`...)
	}
	return fillLines(&s.text, size, `\n`, func(b []byte) []byte { return append(b, pick(s.rng, s.pool.logs)...) })
}

// fillLines appends lines made by line to *dst, separated by sep, until it holds size bytes, and
// returns how many it appended (at least one).
func fillLines(dst *[]byte, size int, sep string, line func([]byte) []byte) int {
	b := *dst
	n := 0
	for len(b) < size || n == 0 {
		if n > 0 {
			b = append(b, sep...)
		}
		b = line(b)
		n++
	}
	*dst = b
	return n
}

// fillCode is a file read: numbered lines ("     1→…") for the model, the plain file for the tool.
func (s *session) fillCode(size int) int {
	n := 0
	for len(s.text) < size || n == 0 {
		line := pick(s.rng, s.pool.code)
		n++
		s.text = appendLineNumber(s.text, n)
		s.text = append(s.text, line...)
		s.text = append(s.text, `\n`...)
		s.raw = append(s.raw, line...)
		s.raw = append(s.raw, `\n`...)
	}
	return n
}

// appendLineNumber appends n right-aligned in six columns and the arrow of Claude Code's Read output.
func appendLineNumber(b []byte, n int) []byte {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	for range 6 - len(d) {
		b = append(b, ' ')
	}
	b = append(b, d...)
	return append(b, "→"...)
}

// toolUseResult appends the tool's own record of call's output.
func (s *session) toolUseResult(b []byte, call toolCall, failed bool, lines int) []byte {
	switch call.name {
	case "Read":
		b = append(b, `{"type":"text","file":{"filePath":`...)
		b = appendString(b, call.file)
		b = append(b, `,"content":"`...)
		b = append(b, s.raw...)
		b = append(b, `","numLines":`...)
		b = strconv.AppendInt(b, int64(lines), 10)
		b = append(b, `,"startLine":1,"totalLines":`...)
		b = strconv.AppendInt(b, int64(lines), 10)
		return append(b, "}}"...)
	case "Grep":
		b = append(b, `{"mode":"content","numFiles":0,"filenames":[],"content":"`...)
		b = append(b, s.text...)
		b = append(b, `","numLines":`...)
		b = strconv.AppendInt(b, int64(lines), 10)
		return append(b, '}')
	case "Glob":
		b = append(b, `{"filenames":["`...)
		b = append(b, s.raw...)
		b = append(b, `"],"durationMs":`...)
		b = strconv.AppendInt(b, int64(3+s.rng.IntN(80)), 10)
		b = append(b, `,"numFiles":`...)
		b = strconv.AppendInt(b, int64(lines), 10)
		return append(b, `,"truncated":false}`...)
	case "Edit":
		b = append(b, `{"filePath":`...)
		b = appendString(b, call.file)
		b = append(b, `,"oldString":"`...)
		b = s.codeLines(b, call.old)
		b = append(b, `","newString":"`...)
		b = s.codeLines(b, call.new)
		b = append(b, `","originalFile":"`...)
		b = append(b, s.raw...)
		b = append(b, `","structuredPatch":[{"oldStart":1,"oldLines":`...)
		b = strconv.AppendInt(b, int64(len(call.old)), 10)
		b = append(b, `,"newStart":1,"newLines":`...)
		b = strconv.AppendInt(b, int64(len(call.new)), 10)
		b = append(b, `,"lines":[`...)
		for i, k := range call.old {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `"-`...)
			b = append(b, s.pool.code[k]...)
			b = append(b, '"')
		}
		for _, k := range call.new {
			b = append(b, `,"+`...)
			b = append(b, s.pool.code[k]...)
			b = append(b, '"')
		}
		return append(b, `]}],"userModified":false,"replaceAll":false}`...)
	}
	if failed {
		b = append(b, `"Error: `...)
		b = append(b, s.text...)
		return append(b, '"')
	}
	b = append(b, `{"stdout":"`...)
	b = append(b, s.text...)
	return append(b, `","stderr":"","interrupted":false,"isImage":false}`...)
}
