package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

// mcpEnv is a temporary HOME with a project and its store, and the server's configuration.
type mcpEnv struct {
	t       *testing.T
	home    string
	project string
	store   string // the project's store
	cfg     *config.Config
	o       *mcpOptions
}

func newMCPEnv(t *testing.T) *mcpEnv {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	file := filepath.Join(home, "dreamd.yaml")
	mustWrite(t, file, "sources:\n  - {kind: claude, path: ~/.claude/projects}\nllm: {offline: true}\n")
	cfg, err := config.Load(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(home, "src", "shop")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	o := &mcpOptions{globalOptions: &globalOptions{}}
	e := &mcpEnv{t: t, home: home, project: project, cfg: cfg, o: o}
	e.store = storeOf("", cfg, transcript.CanonicalProject(project)).Store
	mustWrite(t, filepath.Join(e.store, "deploy-steps.md"), "---\nname: deploy-steps\ndescription: how we deploy\ntype: project\n---\nRun make deploy after the tests pass.\n")
	mustWrite(t, filepath.Join(e.store, store.IndexFile), "- [deploy-steps](deploy-steps.md) — how we deploy\n")
	return e
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e *mcpEnv) server(version string) *mcp.Server {
	e.t.Helper()
	s, err := newMCPServer(e.o, e.cfg, "", e.project, version)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// rawMCP drives the server over the stdio line transport with raw JSON-RPC lines.
type rawMCP struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Reader
	done chan error
}

func (e *mcpEnv) raw(version string) *rawMCP {
	e.t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &rawMCP{t: e.t, in: inW, out: bufio.NewReaderSize(outR, 1<<20), done: make(chan error, 1)}
	server := e.server(version)
	go func() {
		err := server.Run(context.Background(), newLineTransport(inR, outW))
		inR.Close() // a server that stopped fails the next send, and the test, instead of blocking it
		outW.Close()
		r.done <- err
	}()
	e.t.Cleanup(func() {
		inW.Close()
		<-r.done
	})
	return r
}

func (r *rawMCP) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("the server stopped reading: %v", err)
	}
}

// answer reads the next line the server writes.
func (r *rawMCP) answer() string {
	r.t.Helper()
	line, err := r.out.ReadString('\n')
	if err != nil {
		r.t.Fatalf("no answer (the server is gone?): %v", err)
	}
	return line
}

// call sends a request and returns its answer's result or error.
func (r *rawMCP) call(line string) (result json.RawMessage, rpcErr *struct {
	Code    int64
	Message string
}) {
	r.t.Helper()
	r.send(line)
	var resp struct {
		ID     json.RawMessage
		Result json.RawMessage
		Error  *struct {
			Code    int64
			Message string
		}
	}
	a := r.answer()
	if err := json.Unmarshal([]byte(a), &resp); err != nil {
		r.t.Fatalf("answer %q: %v", a, err)
	}
	if id := requestID([]byte(line)); !bytes.Equal(resp.ID, id) {
		r.t.Fatalf("the answer to %s is %s: not its answer", line, a)
	}
	return resp.Result, resp.Error
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func (r *rawMCP) initialize() json.RawMessage {
	r.t.Helper()
	res, rpcErr := r.call(initialize)
	if rpcErr != nil {
		r.t.Fatalf("initialize: %+v", rpcErr)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// TestMCPAnswersBadLinesAndServesOn sends what a confused client might, one line at a time: each
// gets the error JSON-RPC prescribes, and the server answers the next request as if nothing
// happened (the SDK's own stdio transport ends the session on the first of them).
func TestMCPAnswersBadLinesAndServesOn(t *testing.T) {
	r := newMCPEnv(t).raw("v1.2.3")
	r.initialize()
	huge := `{"jsonrpc":"2.0","id":99,"method":"tools/list","params":{"x":"` + strings.Repeat("a", maxMCPLine) + `"}}`
	tests := []struct {
		name string
		line string
		want string // the answer, or its beginning
	}{
		{"not json", `{"jsonrpc":"2.0","id":`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{"two values on a line", `{"jsonrpc":"2.0","id":5,"method":"ping"} {}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
		{"a batch", `[{"jsonrpc":"2.0","id":7,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`,
			`[{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"JSON-RPC batches are not supported: send each message on a line of its own"}},{"jsonrpc":"2.0","id":"b","error":{"code":-32600,"message":"JSON-RPC batches are not supported: send each message on a line of its own"}}]`},
		{"an empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}`},
		{"a number", `42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: `},
		{"wrong version", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid Request: invalid message version tag \"1.0\"; expected \"2.0\""}}`},
		{"params not an object", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":5}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32602`},
		{"unknown method", `{"jsonrpc":"2.0","id":10,"method":"nope"}`, `{"jsonrpc":"2.0","id":10,"error":{"code":-32601`},
		{"unknown tool", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"nope"}}`, `{"jsonrpc":"2.0","id":11,"error":{"code":-32602`},
		{"over 16 MB", huge, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"message longer than 16777216 bytes refused"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.t = t
			r.send(tt.line)
			if got := strings.TrimSpace(r.answer()); !strings.HasPrefix(got, tt.want) {
				t.Errorf("answer:\n%s\nwant\n%s", got, tt.want)
			}
			res, rpcErr := r.call(`{"jsonrpc":"2.0","id":"next","method":"ping"}`)
			if rpcErr != nil || string(res) != "{}" {
				t.Errorf("ping after it: %s %+v", res, rpcErr)
			}
		})
	}
	// What JSON-RPC answers with nothing: a response to no request, an unknown notification, a
	// batch of notifications. The next answer is the ping's.
	r.t = t
	r.send(`{"jsonrpc":"2.0","id":12,"result":{}}`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/bogus"}`)
	r.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	if res, rpcErr := r.call(`{"jsonrpc":"2.0","id":"last","method":"ping"}`); rpcErr != nil || string(res) != "{}" {
		t.Errorf("ping after the unanswered lines: %s %+v", res, rpcErr)
	}
}

// TestMCPServerInfoIsDreamdsVersion: a binary built without -ldflags reports the version Go
// recorded (the module's, or the pseudo-version of the commit), never the placeholder "dev".
func TestMCPServerInfoIsDreamdsVersion(t *testing.T) {
	saved := goBuildInfo
	t.Cleanup(func() { goBuildInfo = saved })
	goBuildInfo = func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Path: "github.com/dreamd/dreamd", Version: "v0.9.1"}}, true
	}
	r := newMCPEnv(t).raw(mcpVersion())
	var res struct {
		ServerInfo struct{ Name, Version string }
	}
	if err := json.Unmarshal(r.initialize(), &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Version != "v0.9.1" || res.ServerInfo.Name != "dreamd" {
		t.Errorf("serverInfo = %+v, want dreamd v0.9.1", res.ServerInfo)
	}
}

// TestMCPToolsSayWhatTheyDo: clients decide from the hints what may run without asking (codex
// exec runs read-only tools only), and read the output schemas: a list is never null.
func TestMCPToolsSayWhatTheyDo(t *testing.T) {
	r := newMCPEnv(t).raw("v1")
	r.initialize()
	res, rpcErr := r.call(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if rpcErr != nil {
		t.Fatal(rpcErr)
	}
	var list struct {
		Tools []struct {
			Name         string
			Annotations  map[string]any
			InputSchema  json.RawMessage
			OutputSchema json.RawMessage
		}
	}
	if err := json.Unmarshal(res, &list); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"recall":        {"readOnlyHint": true, "openWorldHint": false},
		"read_memory":   {"readOnlyHint": true, "openWorldHint": false},
		"list_memories": {"readOnlyHint": true, "openWorldHint": false},
		"remember":      {"readOnlyHint": false, "destructiveHint": false, "idempotentHint": false, "openWorldHint": false},
	}
	for _, tool := range list.Tools {
		for k, v := range want[tool.Name] {
			if tool.Annotations[k] != v {
				t.Errorf("%s: %s = %v, want %v (annotations %v)", tool.Name, k, tool.Annotations[k], v, tool.Annotations)
			}
		}
		delete(want, tool.Name)
		if strings.Contains(string(tool.OutputSchema), `"null"`) {
			t.Errorf("%s: the output schema allows null: %s", tool.Name, tool.OutputSchema)
		}
		if tool.Name == "recall" && !strings.Contains(string(tool.InputSchema), `"minimum":1`) {
			t.Errorf("recall's limit has no minimum: %s", tool.InputSchema)
		}
	}
	if len(want) > 0 {
		t.Errorf("tools missing: %v", want)
	}
}

func TestMCPUnknownResourceIsNotFound(t *testing.T) {
	e := newMCPEnv(t)
	outside := filepath.Join(e.home, "secret.md")
	mustWrite(t, outside, "TOP SECRET\n")
	if err := os.Symlink(outside, filepath.Join(e.store, "leak.md")); err != nil {
		t.Fatal(err)
	}
	r := e.raw("v1")
	r.initialize()
	for _, uri := range []string{"dreamd://nothing", "file:///etc/passwd.md", "file://" + filepath.ToSlash(filepath.Join(e.store, "absent.md")), "file://" + filepath.ToSlash(filepath.Join(e.store, "leak.md"))} {
		res, rpcErr := r.call(`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":` + jsonString(uri) + `}}`)
		if rpcErr == nil || rpcErr.Code != -32002 || strings.Contains(string(res), "SECRET") {
			t.Errorf("resources/read %s = %s %+v, want error -32002", uri, res, rpcErr)
		}
	}
	res, rpcErr := r.call(`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":` + jsonString("file://"+filepath.ToSlash(filepath.Join(e.store, "deploy-steps.md"))) + `}}`)
	if rpcErr != nil || !strings.Contains(string(res), "make deploy") {
		t.Errorf("resources/read of a memory = %s %+v", res, rpcErr)
	}
	res, _ = r.call(`{"jsonrpc":"2.0","id":5,"method":"resources/list"}`)
	if strings.Contains(string(res), "leak.md") {
		t.Errorf("a link out of the store is listed: %s", res)
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// client connects the SDK's own client to the server, in process.
func (e *mcpEnv) client() *mcp.ClientSession {
	e.t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := e.server("v1").Connect(ctx, st, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callTool returns the tool's text and whether it answered with an error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return err.Error(), true
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// TestMCPAgreesWithTheCLI: what the CLI refuses the tools refuse, with an error the agent sees,
// instead of an empty answer that reads as "no memories".
func TestMCPAgreesWithTheCLI(t *testing.T) {
	e := newMCPEnv(t)
	cs := e.client()
	tests := []struct {
		tool    string
		args    map[string]any
		wantErr string // "" = no error
	}{
		{"recall", map[string]any{"query": "deploy"}, ""},
		{"recall", map[string]any{"query": "deploy", "limit": 1}, ""},
		{"recall", map[string]any{"query": "deploy", "limit": -1}, "limit"},
		{"recall", map[string]any{"query": "deploy", "limit": 0}, "limit"},
		{"recall", map[string]any{"query": "deploy", "project": filepath.Join(e.home, "nowhere")}, "no such directory"},
		{"recall", map[string]any{"query": "deploy", "project": "."}, "absolute path"},
		{"recall", map[string]any{"query": "deploy", "project": e.home}, "no memory store"}, // a directory whose sessions never reached dreamd
		{"list_memories", map[string]any{"project": e.home}, "no memory store"},
		{"list_memories", map[string]any{"type": "project"}, ""},
		{"list_memories", map[string]any{"type": "bogus"}, `type "bogus"`},
		{"list_memories", map[string]any{"project": filepath.Join(e.home, "nowhere")}, "no such directory"},
		{"read_memory", map[string]any{"name": "deploy-steps"}, ""},
		{"read_memory", map[string]any{"name": "deploy-steps", "project": "sub"}, "absolute path"},
		{"remember", map[string]any{"text": "x", "type": "bogus"}, `type "bogus"`},
	}
	for _, tt := range tests {
		text, isErr := callTool(t, cs, tt.tool, tt.args)
		switch {
		case tt.wantErr == "" && (isErr || strings.Contains(text, "No memor")):
			t.Errorf("%s %v = %q (error %v), want results", tt.tool, tt.args, text, isErr)
		case tt.wantErr != "" && (!isErr || !strings.Contains(text, tt.wantErr)):
			t.Errorf("%s %v = %q (error %v), want an error about %q", tt.tool, tt.args, text, isErr, tt.wantErr)
		}
	}
}

// TestMCPRememberQueuesForTheStoreItNames: the note waits for the pass of the store the answer
// named; a relative project (which the server would resolve against a working directory the
// agent does not know) is refused, not queued for one store while another is named.
func TestMCPRememberQueuesForTheStoreItNames(t *testing.T) {
	e := newMCPEnv(t)
	other := filepath.Join(e.home, "src", "blog")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	cs := e.client()
	for _, project := range []string{".", "sub", "../../etc"} {
		if text, isErr := callTool(t, cs, "remember", map[string]any{"text": "use tabs", "project": project}); !isErr {
			t.Errorf("remember with project %q = %q, want it refused", project, text)
		}
	}
	if entries, _ := os.ReadDir(notesDir(e.cfg)); len(entries) != 0 {
		t.Fatalf("refused notes were queued: %v", entries)
	}
	for _, project := range []string{"", other} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{"text": "use tabs", "project": project}})
		if err != nil || res.IsError {
			t.Fatalf("remember %q: %v %+v", project, err, res)
		}
		var out rememberOut
		raw, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(raw, &out)
		note, err := os.ReadFile(filepath.Join(notesDir(e.cfg), out.Queued))
		if err != nil {
			t.Fatal(err)
		}
		var n transcript.Note
		if err := json.Unmarshal(note, &n); err != nil {
			t.Fatal(err)
		}
		if got := storeOf("", e.cfg, n.Project).Store; got != out.Store {
			t.Errorf("remember %q: answered store %s, queued for project %s whose store is %s", project, out.Store, n.Project, got)
		}
	}
}

// TestMCPReadsOnlyTheStore: read_memory serves what the pass reads and nothing else: not a link
// to a file outside the store, not a FIFO (which would block the read for ever), not a device.
func TestMCPReadsOnlyTheStore(t *testing.T) {
	e := newMCPEnv(t)
	outside := filepath.Join(e.home, "secret.md")
	mustWrite(t, outside, "TOP SECRET\n")
	if err := os.Symlink(outside, filepath.Join(e.store, "leak.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(e.store, "zero.md")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(e.store, "fifo.md"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink("fifo.md", filepath.Join(e.store, "tofifo.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("deploy-steps.md", filepath.Join(e.store, "alias.md")); err != nil {
		t.Fatal(err)
	}
	cs := e.client()
	for _, name := range []string{"leak", "zero", "fifo", "tofifo"} {
		text, isErr := callTool(t, cs, "read_memory", map[string]any{"name": name})
		if !isErr || strings.Contains(text, "SECRET") {
			t.Errorf("read_memory %s = %q, want it refused", name, text)
		}
	}
	if text, isErr := callTool(t, cs, "read_memory", map[string]any{"name": "alias"}); isErr || !strings.Contains(text, "make deploy") {
		t.Errorf("read_memory of a link inside the store = %q (error %v)", text, isErr)
	}
}

// FuzzMCPLine: every line a client sends is either handed to the SDK as one message or answered
// with one JSON-RPC error (or, for a batch, an array of them), never dropped silently or crashed on.
func FuzzMCPLine(f *testing.F) {
	for _, s := range []string{initialize, `{"jsonrpc":"2.0","id":`, `[]`, `[{"jsonrpc":"2.0","id":1,"method":"x"}]`, `42`, `null`, `{"jsonrpc":"2.0","result":{}}`, `{"jsonrpc":"2.0","id":{},"method":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		line = bytes.TrimSpace(line) // as readBoundedLine hands it over
		if len(line) == 0 {
			return
		}
		var out strings.Builder
		c := &lineConn{out: &out}
		msg := c.check(line)
		answer := strings.TrimSuffix(out.String(), "\n")
		switch {
		case msg != nil && answer != "":
			t.Fatalf("%q was both delivered and answered: %s", line, answer)
		case msg == nil && answer == "" && line[0] != '[':
			t.Fatalf("%q was neither delivered nor answered", line)
		case answer != "" && !json.Valid([]byte(answer)):
			t.Fatalf("the answer to %q is not JSON: %s", line, answer)
		}
	})
}

// TestMCPAnswersEverythingBeforeTheInputEnds: a client that writes its requests and closes its
// end (a script piping into dreamd mcp) still gets every answer before the server exits.
func TestMCPAnswersEverythingBeforeTheInputEnds(t *testing.T) {
	e := newMCPEnv(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	server := e.server("v1")
	done := make(chan error, 1)
	go func() {
		done <- server.Run(context.Background(), newLineTransport(inR, outW))
		outW.Close()
	}()
	go func() {
		for _, line := range []string{
			initialize,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recall","arguments":{"query":"deploy"}}}`,
			`{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"dreamd://nothing"}}`,
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"list_memories","arguments":{}}}`,
		} {
			io.WriteString(inW, line+"\n")
		}
		inW.Close()
	}()
	answers, err := io.ReadAll(outR)
	if err != nil {
		t.Fatal(err)
	}
	<-done
	for _, id := range []string{`"id":1,`, `"id":2,`, `"id":3,`, `"id":4,`} {
		if !strings.Contains(string(answers), id) {
			t.Errorf("no answer with %s before the server exited:\n%s", id, answers)
		}
	}
}
