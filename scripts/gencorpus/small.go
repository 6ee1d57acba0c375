package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/dreamd/dreamd/internal/testutil/corpus"
)

// Small transcripts: many short Claude Code sessions of a few exchanges each, the shape of a
// machine where an agent runs many brief tasks (scripted, or one per issue) across many projects.
// Unlike corpus.Generate, whose sessions are sized by share of a total and grow a floor of
// tool output, every file here stays close to the size asked for.

// smallManifest describes a written set of small transcripts.
type smallManifest struct {
	Source    string          `json:"source"` // <dir>/claude: the path of a `kind: claude` source
	Projects  int             `json:"projects"`
	FileCount int             `json:"file_count"`
	Bytes     int64           `json:"bytes"`
	Lines     int64           `json:"lines"`
	Lessons   []corpus.Lesson `json:"lessons"` // none: present so instantllm can read the manifest
}

// smallStart is when the first small session starts; the next ones follow a minute apart.
var smallStart = time.Date(2026, 9, 1, 8, 0, 0, 0, time.UTC)

// appendStart is when appended sessions start: after any small corpus (50,000 sessions a minute
// apart end in early October), before today.
var appendStart = time.Date(2026, 10, 20, 8, 0, 0, 0, time.UTC)

// writeSmall writes n transcripts of about size bytes each under dir/claude, round-robin over
// projects, on every core. Each file draws from its own generator (seed, index), so the result
// does not depend on scheduling.
// With oneLine, every transcript is a single user record instead (a session begun and left).
func writeSmall(dir string, projects, n int, size int64, oneLine bool, seed int64) (smallManifest, error) {
	m := smallManifest{Source: filepath.Join(dir, "claude"), Projects: projects, FileCount: n, Lessons: []corpus.Lesson{}}
	for p := 1; p <= min(projects, n); p++ {
		if err := os.MkdirAll(filepath.Join(m.Source, corpus.ProjectSlug(p)), 0o755); err != nil {
			return m, err
		}
	}
	type result struct {
		bytes, lines int64
		err          error
	}
	results := make([]result, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := range next {
				rng := rand.New(rand.NewPCG(uint64(seed), uint64(i)+1))
				project := i%projects + 1
				id := uuid(rng)
				path := filepath.Join(m.Source, corpus.ProjectSlug(project), id+".jsonl")
				s := newTranscript(rng, corpus.ProjectDir(project), id, smallStart.Add(time.Duration(i)*time.Minute))
				if oneLine {
					s.write("user", map[string]string{"role": "user", "content": corpus.UserRequest(rng)}, nil)
				}
				// Exchanges until the file is within half an exchange of the size asked for.
				for last := int64(0); !oneLine && (s.size() == 0 || size-s.size() > last/2); {
					before := s.size()
					s.exchange("")
					last = s.size() - before
				}
				r := &results[i]
				r.bytes, r.lines = int64(s.buf.Len()), int64(s.lines)
				r.err = os.WriteFile(path, s.buf.Bytes(), 0o644)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, r := range results {
		if r.err != nil {
			return m, r.err
		}
		m.Bytes += r.bytes
		m.Lines += r.lines
	}
	return m, nil
}

// appendSession appends one short exchange to the transcript at path, as when a session is
// resumed: its user turn states lesson k (see lesson), so a consolidation has something to keep.
// The records carry the session id and cwd of the file's first record.
func appendSession(path string, k int, seed int64) error {
	fh, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer fh.Close()
	line, err := bufio.NewReader(fh).ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("%s: no first record: %w", path, err)
	}
	var head struct {
		Cwd       string `json:"cwd"`
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(line, &head); err != nil || head.Cwd == "" || head.SessionID == "" {
		return fmt.Errorf("%s: first record has no cwd and sessionId (%v)", path, err)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(k)+1<<32))
	s := newTranscript(rng, head.Cwd, head.SessionID, appendStart.Add(time.Duration(k)*time.Minute))
	s.exchange(lesson(k))
	if _, err := fh.Write(s.buf.Bytes()); err != nil {
		return err
	}
	return fh.Close()
}

// lesson is the k-th of an endless series of explicit, durable lessons, in the forms the offline
// consolidator recognises, each about its own words so that most runs change the store. Every
// fourth one gives one of 50 services a port: past the 200th, runs revise memories as well as
// create them.
func lesson(k int) string {
	j := k / 4
	a, b := nouns[j%len(nouns)], nouns[(j*11+j/len(nouns)+5)%len(nouns)]
	v, adj := verbs[j%len(verbs)], adjectives[(j*5+1)%len(adjectives)]
	switch k % 4 {
	case 0:
		svc := j % 50
		return fmt.Sprintf("Remember that the %s %s service listens on port %d.", nouns[svc%len(nouns)], nouns[(svc*7+3)%len(nouns)], 8000+k)
	case 1:
		return fmt.Sprintf("From now on, %s the %s %s with `make %s-%s` before every release.", v, adj, a, v, b)
	case 2:
		return fmt.Sprintf("Always keep the %s %s %s behind the %s flag, never enable it by default.", adj, b, a, v)
	}
	return fmt.Sprintf("We decided that %s %s records stay %s for %d days in the %s store.", a, b, adj, 7+j%80, v)
}

// transcript builds the records of one session, in the shape Claude Code writes them.
type transcript struct {
	rng     *rand.Rand
	cwd, id string
	at      time.Time
	parent  string
	buf     bytes.Buffer
	lines   int
}

func newTranscript(rng *rand.Rand, cwd, id string, start time.Time) *transcript {
	return &transcript{rng: rng, cwd: cwd, id: id, at: start}
}

func (t *transcript) size() int64 { return int64(t.buf.Len()) }

// record is the envelope of every Claude Code transcript line.
type record struct {
	ParentUUID    *string `json:"parentUuid"`
	IsSidechain   bool    `json:"isSidechain"`
	UserType      string  `json:"userType"`
	Cwd           string  `json:"cwd"`
	SessionID     string  `json:"sessionId"`
	Version       string  `json:"version"`
	GitBranch     string  `json:"gitBranch"`
	Message       any     `json:"message"`
	Type          string  `json:"type"`
	UUID          string  `json:"uuid"`
	Timestamp     string  `json:"timestamp"`
	ToolUseResult any     `json:"toolUseResult,omitempty"`
}

type block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Content   string         `json:"content,omitempty"`
}

type assistantMessage struct {
	Model      string  `json:"model"`
	ID         string  `json:"id"`
	Type       string  `json:"type"`
	Role       string  `json:"role"`
	Content    []block `json:"content"`
	StopReason *string `json:"stop_reason"`
	Usage      struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// exchange appends a user turn (text, or a request of its own when text is ""), the assistant's
// answer, one tool call with its result (a few hundred bytes of log), and a conclusion.
func (t *transcript) exchange(text string) {
	if text == "" {
		text = corpus.UserRequest(t.rng)
	}
	t.write("user", map[string]string{"role": "user", "content": text}, nil)
	t.assistant(block{Type: "text", Text: prose(t.rng, 1+t.rng.IntN(3))})
	callID := "toolu_" + token(t.rng, 24)
	cmd := fmt.Sprintf("go test ./internal/%s/...", pick(t.rng, nouns))
	t.assistant(block{Type: "tool_use", ID: callID, Name: "Bash", Input: map[string]any{"command": cmd, "description": "Run the tests"}})
	out := testLog(t.rng, 2+t.rng.IntN(6))
	t.write("user", map[string]any{"role": "user", "content": []block{{Type: "tool_result", ToolUseID: callID, Content: out}}},
		map[string]any{"stdout": out, "stderr": "", "interrupted": false, "isImage": false})
	t.assistant(block{Type: "text", Text: prose(t.rng, 1+t.rng.IntN(2))})
}

func (t *transcript) assistant(b block) {
	stop := "tool_use"
	if b.Type == "text" {
		stop = "end_turn"
	}
	m := assistantMessage{Model: "claude-sonnet-4-5-20250929", ID: "msg_" + token(t.rng, 24), Type: "message", Role: "assistant",
		Content: []block{b}, StopReason: &stop}
	m.Usage.InputTokens, m.Usage.OutputTokens = 1000+t.rng.IntN(30000), 20+t.rng.IntN(600)
	t.write("assistant", m, nil)
}

func (t *transcript) write(typ string, msg, result any) {
	t.at = t.at.Add(time.Duration(1+t.rng.IntN(20)) * time.Second)
	r := record{UserType: "external", Cwd: t.cwd, SessionID: t.id, Version: "2.0.28", GitBranch: "main",
		Message: msg, Type: typ, UUID: uuid(t.rng), Timestamp: t.at.Format("2006-01-02T15:04:05.000Z"), ToolUseResult: result}
	if t.parent != "" {
		r.ParentUUID = &t.parent
	}
	t.parent = r.UUID
	line, err := json.Marshal(r)
	if err != nil {
		panic(err) // only plain values: cannot fail
	}
	t.buf.Write(line)
	t.buf.WriteByte('\n')
	t.lines++
}

// Vocabulary of the synthetic projects.
var (
	nouns = []string{"cart", "checkout", "invoice", "session", "token", "cache", "router", "handler", "config",
		"schema", "migration", "worker", "queue", "payment", "account", "order", "report", "index", "parser",
		"client", "server", "ledger", "webhook", "scheduler", "metric", "tenant", "export", "search", "billing"}
	verbs      = []string{"load", "parse", "render", "validate", "fetch", "apply", "merge", "flush", "retry", "sync", "build", "emit", "sort", "filter"}
	adjectives = []string{"stale", "consistent", "idempotent", "cheap", "bounded", "sorted", "valid", "fresh", "atomic", "cached", "lazy", "strict"}
)

func pick[T any](rng *rand.Rand, list []T) T { return list[rng.IntN(len(list))] }

func prose(rng *rand.Rand, sentences int) string {
	var b strings.Builder
	for i := range sentences {
		if i > 0 {
			b.WriteByte(' ')
		}
		n, m, v, a := pick(rng, nouns), pick(rng, nouns), pick(rng, verbs), pick(rng, adjectives)
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "The %s calls %s%s before the %s is %s, so the failure comes from %s.go.", n, v, title(m), m, a, n)
		case 1:
			fmt.Fprintf(&b, "I'll %s the %s first and then look at the %s tests.", v, n, m)
		case 2:
			fmt.Fprintf(&b, "Now the %s package builds and all %d tests pass.", n, 5+rng.IntN(200))
		default:
			fmt.Fprintf(&b, "Maybe the %s cache is %s here; the %s layer never invalidates it.", m, a, n)
		}
	}
	return b.String()
}

func testLog(rng *rand.Rand, lines int) string {
	var b strings.Builder
	for range lines {
		n, v := pick(rng, nouns), pick(rng, verbs)
		if rng.IntN(5) == 0 {
			fmt.Fprintf(&b, "--- FAIL: Test%s%s (0.%02ds)\n    %s_test.go:%d: got %d, want %d\n",
				title(v), title(n), rng.IntN(100), n, 10+rng.IntN(300), rng.IntN(9), rng.IntN(9))
		} else {
			fmt.Fprintf(&b, "ok  \tgithub.com/bench/app/internal/%s\t0.%03ds\n", n, rng.IntN(1000))
		}
	}
	return b.String()
}

func uuid(rng *rand.Rand) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 36)
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
		case 14:
			b[i] = '4'
		default:
			b[i] = hex[rng.IntN(16)]
		}
	}
	return string(b)
}

func token(rng *rand.Rand, n int) string {
	const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = chars[rng.IntN(len(chars))]
	}
	return string(b)
}
