package corpus

import (
	"strconv"
)

// toolCall is one tool_use of the agent, remembered until its result is written.
type toolCall struct {
	id, name string
	file     string // absolute path the call reads or edits ("" for others)
	input    []byte // the input object, JSON
	old, new []int  // Edit: the pool lines replaced, and their replacement
}

// respond writes one model response in the chain c, streamed as Claude Code stores it: one record
// per content block (thinking, text, tool_use), all with the same message id.
func (s *session) respond(c *chain, thinking bool, sentences int, call *toolCall) {
	msgID := randomID(s.rng, "msg_01", 22)
	reqID := randomID(s.rng, "req_011C", 18)
	s.tick(2, 30)
	if thinking {
		s.assistantRecord(c, msgID, reqID, s.thinkingBlock)
	}
	if sentences > 0 {
		s.assistantRecord(c, msgID, reqID, func(b []byte) []byte {
			b = append(b, `{"type":"text","text":"`...)
			b = s.prose(b, sentences, " ")
			return append(b, `"}`...)
		})
	}
	if call != nil {
		s.assistantRecord(c, msgID, reqID, func(b []byte) []byte {
			b = append(b, `{"type":"tool_use","id":"`...)
			b = append(b, call.id...)
			b = append(b, `","name":"`...)
			b = append(b, call.name...)
			b = append(b, `","input":`...)
			b = append(b, call.input...)
			return append(b, '}')
		})
	}
}

// assistantRecord writes one streamed record of an assistant message holding the block that
// block appends; one in twenty is written twice with the same uuid.
func (s *session) assistantRecord(c *chain, msgID, reqID string, block func([]byte) []byte) {
	start := s.begin(c)
	b := append(s.out, `"message":{"model":"`...)
	b = append(b, s.model...)
	b = append(b, `","id":"`...)
	b = append(b, msgID...)
	b = append(b, `","type":"message","role":"assistant","content":[`...)
	b = block(b)
	b = append(b, `],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":`...)
	b = strconv.AppendInt(b, 1+s.rng.Int64N(12), 10)
	b = append(b, `,"cache_creation_input_tokens":`...)
	creation := s.rng.Int64N(9000)
	b = strconv.AppendInt(b, creation, 10)
	b = append(b, `,"cache_read_input_tokens":`...)
	b = strconv.AppendInt(b, 12000+s.rng.Int64N(140000), 10)
	b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":`...)
	b = strconv.AppendInt(b, creation, 10)
	b = append(b, `,"ephemeral_1h_input_tokens":0},"output_tokens":`...)
	b = strconv.AppendInt(b, 1+s.rng.Int64N(900), 10)
	b = append(b, `,"service_tier":"standard"}},"requestId":"`...)
	b = append(b, reqID...)
	s.out = append(b, `",`...)
	s.stamp(c, "assistant", newUUID(s.rng))
	s.finish(start, s.rng.IntN(20) == 0)
	s.tick(0, 2)
}

func (s *session) thinkingBlock(b []byte) []byte {
	b = append(b, `{"type":"thinking","thinking":"`...)
	b = s.prose(b, 2+s.rng.IntN(18), pick(s.rng, []string{" ", `\n\n`}))
	b = append(b, `","signature":"`...)
	const base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for range 100 + s.rng.IntN(200) {
		v := s.rng.Uint32()
		b = append(b, base64[v&63], base64[v>>6&63], base64[v>>12&63], base64[v>>18&63])
	}
	return append(b, `"}`...)
}

// toolStep is the agent calling one tool in chain c and getting about size bytes back.
func (s *session) toolStep(c *chain, size int) {
	call := s.newCall()
	sentences := 0
	if s.rng.IntN(5) < 3 {
		sentences = 1 + s.rng.IntN(3)
	}
	s.respond(c, s.rng.IntN(2) == 0, sentences, &call)
	s.tick(1, 20)
	s.toolResult(c, call, size)
}

// newCall picks the next tool call: reads and shell commands most often.
func (s *session) newCall() toolCall {
	s.tools++
	c := toolCall{id: randomID(s.rng, "toolu_01", 22)}
	dir := ProjectDir(s.plan.project)
	n, v := pick(s.rng, nouns), pick(s.rng, verbs)
	var in []byte
	switch r := s.rng.IntN(100); {
	case r < 35:
		c.name, c.file = "Read", dir+"/"+pick(s.rng, s.pool.paths)
		in = appendString(append(in, `{"file_path":`...), c.file)
	case r < 65:
		c.name = "Bash"
		cmd := pick(s.rng, []string{"go test ./internal/" + n + "/...", "go build ./...", "go vet ./...", "npm test -- " + n, "git diff --stat", "make lint"})
		in = appendString(append(in, `{"command":`...), cmd)
		in = appendString(append(in, `,"description":`...), "Run "+cmd)
	case r < 77:
		c.name = "Grep"
		in = appendString(append(in, `{"pattern":`...), "func "+v+title(n))
		in = appendString(append(in, `,"path":`...), dir)
		in = append(in, `,"output_mode":"content","-n":true`...)
	case r < 85:
		c.name = "Glob"
		in = appendString(append(in, `{"pattern":`...), "**/*"+n+"*.go")
	default:
		c.name, c.file = "Edit", dir+"/"+pick(s.rng, s.pool.paths)
		c.old, c.new = s.codeIndexes(2+s.rng.IntN(5)), s.codeIndexes(2+s.rng.IntN(6))
		in = appendString(append(in, `{"file_path":`...), c.file)
		in = append(in, `,"old_string":"`...)
		in = s.codeLines(in, c.old)
		in = append(in, `","new_string":"`...)
		in = s.codeLines(in, c.new)
		in = append(in, '"')
	}
	c.input = append(in, '}')
	return c
}

func (s *session) codeIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = s.rng.IntN(len(s.pool.code))
	}
	return out
}

// codeLines appends the pool's code lines at idx, joined by escaped newlines.
func (s *session) codeLines(b []byte, idx []int) []byte {
	for i, k := range idx {
		if i > 0 {
			b = append(b, `\n`...)
		}
		b = append(b, s.pool.code[k]...)
	}
	return b
}

// subagent is a Task call whose subagent runs inline as sidechain records (the older layout),
// ending in the report the main conversation receives.
func (s *session) subagent() {
	prompt := string(s.prose(nil, 2+s.rng.IntN(4), " "))
	call := toolCall{id: randomID(s.rng, "toolu_01", 22), name: "Task"}
	call.input = append(call.input, `{"description":"Research the `...)
	call.input = append(call.input, pick(s.rng, nouns)...)
	call.input = append(call.input, `","prompt":"`...)
	call.input = append(call.input, prompt...)
	call.input = append(call.input, `","subagent_type":"general-purpose"}`...)
	s.respond(&s.main, false, 1, &call)

	side := chain{side: true}
	start := s.begin(&side)
	s.out = append(s.out, `"message":{"role":"user","content":"`...)
	s.out = append(s.out, prompt...)
	s.out = append(s.out, `"},`...)
	s.stamp(&side, "user", newUUID(s.rng))
	s.finish(start, false)
	for range 1 + s.rng.IntN(3) {
		s.toolStep(&side, min(s.resultSize(), 20<<10))
	}
	s.respond(&side, false, 3+s.rng.IntN(5), nil)

	report := string(s.prose(nil, 3+s.rng.IntN(6), " "))
	s.tick(1, 5)
	start = s.begin(&s.main)
	b := append(s.out, `"message":{"role":"user","content":[{"tool_use_id":"`...)
	b = append(b, call.id...)
	b = append(b, `","type":"tool_result","content":[{"type":"text","text":"`...)
	b = append(b, report...)
	s.out = append(b, `"}]}]},`...)
	s.stamp(&s.main, "user", newUUID(s.rng))
	b = append(s.out, `,"toolUseResult":{"status":"completed","prompt":"`...)
	b = append(b, prompt...)
	b = append(b, `","agentId":"`...)
	b = append(b, randomID(s.rng, "", 8)...)
	b = append(b, `","content":[{"type":"text","text":"`...)
	b = append(b, report...)
	b = append(b, `"}],"totalDurationMs":`...)
	b = strconv.AppendInt(b, 5000+s.rng.Int64N(120000), 10)
	b = append(b, `,"totalTokens":`...)
	b = strconv.AppendInt(b, 2000+s.rng.Int64N(60000), 10)
	s.out = append(b, `,"totalToolUseCount":3}`...)
	s.finish(start, false)
}
