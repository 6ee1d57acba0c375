package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/recall"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/slug"
	"github.com/dreamd/dreamd/internal/store"
	"github.com/dreamd/dreamd/internal/transcript"
)

type mcpOptions struct {
	*globalOptions
	Project string
}

func newMCPCmd(g *globalOptions, runF func(*mcpOptions) error) *cobra.Command {
	o := &mcpOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the project's memory to agents over the Model Context Protocol (stdio)",
		Long: `Run a Model Context Protocol server on standard input and output, for any agent that speaks MCP.
Tools: recall (search the memories), remember (queue a note for the next pass), read_memory (one
memory file) and list_memories; the store's files are also resources. The read tools are marked
read-only, so clients that run only those unattended (codex exec) can call them. The project is the
server's working directory (agents start MCP servers in the project) unless a tool call names
another by its absolute path. Gemini CLI's headless mode needs --allowed-mcp-server-names dreamd
(or a trusted server) to offer the tools.`,
		Example: `  claude mcp add --scope user dreamd -- dreamd mcp
  codex mcp add dreamd -- dreamd mcp
  gemini mcp add --scope user dreamd dreamd mcp
  gemini -p "how do we deploy?" --allowed-mcp-server-names dreamd`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runMCP(cmd.Context(), o, newLineTransport(os.Stdin, os.Stdout))
		},
	}
	cmd.Flags().StringVar(&o.Project, "project", "", "the default project directory (default: the working directory's)")
	dirFlag(cmd, "project")
	return cmd
}

// memoryServer answers the MCP tools from the stores the configuration routes to.
type memoryServer struct {
	o       *mcpOptions
	cfg     *config.Config
	red     *redact.Redactor
	project string // the default project, canonical
	only    string // the store --store or --project selects, "" for the project's
}

func init() {
	// MCP up to its 2025-11-25 revision, which the agents negotiate today, answers a resource that
	// does not exist with -32002; the SDK moved to -32602 (SEP-2164) ahead of them.
	//lint:ignore SA1019 deprecated for the newer revision only, which no agent speaks yet
	mcp.CodeResourceNotFound = -32002
}

func runMCP(ctx context.Context, o *mcpOptions, t mcp.Transport) error {
	cfg, only, err := o.loadStore()
	if err != nil {
		return err
	}
	dir, err := projectDir(o.Project)
	if err != nil {
		return err
	}
	server, err := newMCPServer(o, cfg, only, dir, mcpVersion())
	if err != nil {
		return err
	}
	return server.Run(ctx, t)
}

// mcpVersion is the version the server reports to clients: dreamd's, as `dreamd version` says it.
func mcpVersion() string { return readBuildInfo().Version }

// newMCPServer is the MCP server of the project in dir (of the store only, when --store or
// --project selects one), reporting version as its own.
func newMCPServer(o *mcpOptions, cfg *config.Config, only, dir, version string) (*mcp.Server, error) {
	red, err := redactor(cfg)
	if err != nil {
		return nil, err
	}
	ms := &memoryServer{o: o, cfg: cfg, only: only, red: red, project: transcript.CanonicalProject(dir)}
	server := mcp.NewServer(&mcp.Implementation{Name: "dreamd", Version: version}, &mcp.ServerOptions{
		Instructions: "Long-term memory of this project, consolidated by dreamd from earlier agent sessions. " +
			"Call recall before answering questions about the project's conventions, decisions or history; " +
			"call remember for a durable lesson the person wants kept (it is consolidated later, not stored verbatim).",
	})
	// The hints let a client that runs only read-only tools unattended (codex exec) call the
	// readers; remember only adds a note to a queue: not destructive, not idempotent (each call
	// queues one more), and nothing outside the machine is touched by any of them.
	closed := new(bool)
	reader := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed}
	writer := &mcp.ToolAnnotations{DestructiveHint: closed, OpenWorldHint: closed}
	recallIn, err := inputSchema[recallIn]()
	if err != nil {
		return nil, err
	}
	recallIn.Properties["limit"].Minimum = new(float64(1))
	mcp.AddTool(server, &mcp.Tool{Name: "recall", Annotations: reader, InputSchema: recallIn, OutputSchema: outputSchema[recallOut](),
		Description: "Search the project's memories (name, description and body; stemmed full text), best match first."}, ms.recall)
	mcp.AddTool(server, &mcp.Tool{Name: "remember", Annotations: writer, OutputSchema: outputSchema[rememberOut](),
		Description: "Queue a note for the project's memory. dreamd's next pass consolidates it with what is already known (merged, deduplicated, checked); it is not written verbatim."}, ms.remember)
	mcp.AddTool(server, &mcp.Tool{Name: "read_memory", Annotations: reader, OutputSchema: outputSchema[readOut](),
		Description: "Read one memory file of the project's store by name (as listed by list_memories or recall)."}, ms.readMemory)
	mcp.AddTool(server, &mcp.Tool{Name: "list_memories", Annotations: reader, OutputSchema: outputSchema[listOut](),
		Description: "List the project's memories: name, type and one-line description."}, ms.listMemories)
	server.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "memory", URITemplate: "file:///{+path}", MIMEType: "text/markdown",
		Description: "A memory file of a dreamd store (topic file or MEMORY.md).",
	}, ms.readResource)
	ms.addResources(server)
	return server, nil
}

// inputSchema is the schema the SDK would infer for a tool's input, for a tool that adds to it.
func inputSchema[T any]() (*jsonschema.Schema, error) {
	return jsonschema.For[T](nil)
}

// outputSchema is the schema of a tool's result as dreamd writes it: the inferred one says every
// list may be null, but dreamd always answers a list, empty when there is nothing.
func outputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // the output types are fixed: a failure is a programming error a test shows
	}
	noNullLists(s)
	return s
}

func noNullLists(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" && s.Types[1] == "array" {
		s.Type, s.Types = "array", nil
	}
	noNullLists(s.Items)
	for _, p := range s.Properties {
		noNullLists(p)
	}
}

// errProject is a tool call's project that names no directory of this machine.
var errProject = errors.New("project")

// projectOf resolves a tool call's project ("" = the server's) to its canonical directory, once
// for everything the call does with it. It must be an absolute path to a directory: a relative
// one would be resolved against the server's working directory, which the agent does not see.
func (ms *memoryServer) projectOf(project string) (string, error) {
	if project == "" {
		return ms.project, nil
	}
	if !filepath.IsAbs(project) {
		return "", fmt.Errorf("%w %q: give the project's absolute path (this server's project is %s)", errProject, project, ms.project)
	}
	if fi, err := os.Stat(project); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%w %q: no such directory", errProject, project)
	}
	return transcript.CanonicalProject(project), nil
}

// store resolves a tool call's project ("" = the server's) to its store.
func (ms *memoryServer) store(project string) (store.Paths, error) {
	dir, err := ms.projectOf(project)
	if err != nil {
		return store.Paths{}, err
	}
	p := storeOf(ms.only, ms.cfg, dir)
	if project != "" {
		return p, storeExists(project, p)
	}
	return p, nil
}

// storeExists refuses a project named explicitly whose store dreamd never made, as `dreamd recall
// --project` does: "no memories" would read as "nothing learnt" when the project is mistyped or
// its sessions never reached dreamd. The server's own project may be new: it just has none yet.
func storeExists(project string, p store.Paths) error {
	if fi, err := os.Stat(p.Store); err != nil || !fi.IsDir() {
		return fmt.Errorf("%w %q: dreamd has no memory store for it (none of its sessions was consolidated yet; it would be %s)", errProject, project, p.Store)
	}
	return nil
}

type recallIn struct {
	Query   string `json:"query" jsonschema:"what to look for, in plain words"`
	Project string `json:"project,omitempty" jsonschema:"the project's absolute path; default: the server's project"`
	Limit   *int   `json:"limit,omitempty" jsonschema:"at most this many results (default 5)"`
	Archive bool   `json:"archive,omitempty" jsonschema:"search retired memories too"`
}

type recallOut struct {
	Store   string       `json:"store"`
	Results []recall.Hit `json:"results"`
}

// defaultRecallLimit is fewer results than the CLI's default: each one lands in the agent's context.
const defaultRecallLimit = 5

func (ms *memoryServer) recall(_ context.Context, _ *mcp.CallToolRequest, in recallIn) (*mcp.CallToolResult, recallOut, error) {
	limit := defaultRecallLimit
	if in.Limit != nil {
		limit = *in.Limit
	}
	if limit < 1 {
		return nil, recallOut{}, errors.New("limit must be at least 1") // as `dreamd recall --limit`
	}
	p, err := ms.store(in.Project)
	if err != nil {
		return nil, recallOut{}, err
	}
	docs, err := recallDocs(p, in.Archive)
	if err != nil {
		return nil, recallOut{}, err
	}
	out := recallOut{Store: p.Store, Results: recall.Search(docs, in.Query, limit)}
	markStale(p, out.Results)
	markUsed(p, out.Results)
	var b strings.Builder
	for i := range out.Results {
		h := &out.Results[i]
		h.Description, _ = ms.red.Redact(h.Description)
		h.Snippet, _ = ms.red.Redact(h.Snippet)
		fmt.Fprintf(&b, "%s (%s, score %.2f): %s\n  %s\n", h.Name, h.Type, h.Score, h.Description, h.Snippet)
	}
	if out.Results == nil {
		out.Results = []recall.Hit{}
		b.WriteString("No memory in " + p.Store + " matches.")
	}
	return textResult(b.String()), out, nil
}

type rememberIn struct {
	Text    string `json:"text" jsonschema:"the lesson to keep, in one or a few sentences"`
	Type    string `json:"type,omitempty" jsonschema:"user, feedback, project or reference; default: decided when consolidating"`
	Project string `json:"project,omitempty" jsonschema:"the project's absolute path; default: the server's project"`
}

type rememberOut struct {
	Store  string `json:"store"`
	Queued string `json:"queued"`
}

func (ms *memoryServer) remember(_ context.Context, _ *mcp.CallToolRequest, in rememberIn) (*mcp.CallToolResult, rememberOut, error) {
	if !memoryTypeOK(in.Type) {
		return nil, rememberOut{}, errType(in.Type)
	}
	if strings.TrimSpace(in.Text) == "" {
		return nil, rememberOut{}, errors.New("text is empty: nothing to remember")
	}
	// One resolution for both the store named in the answer and the project the note is queued
	// for, so that the pass files the note where the answer said.
	project, err := ms.projectOf(in.Project)
	if err != nil {
		return nil, rememberOut{}, err
	}
	p := storeOf(ms.only, ms.cfg, project)
	path, err := queueNote(ms.cfg, ms.red, transcript.Note{Project: project, Type: in.Type, Text: in.Text, Time: time.Now()})
	if err != nil {
		return nil, rememberOut{}, err
	}
	return textResult("Queued; dreamd's next pass consolidates it into " + p.Store + "."), rememberOut{Store: p.Store, Queued: filepath.Base(path)}, nil
}

func errType(typ string) error {
	return fmt.Errorf("type %q: want one of %s", typ, strings.Join(memory.TypeNames(), ", "))
}

type readIn struct {
	Name    string `json:"name" jsonschema:"the memory's name (file stem), or MEMORY for the index"`
	Project string `json:"project,omitempty" jsonschema:"the project's absolute path; default: the server's project"`
}

type readOut struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func (ms *memoryServer) readMemory(_ context.Context, _ *mcp.CallToolRequest, in readIn) (*mcp.CallToolResult, readOut, error) {
	p, err := ms.store(in.Project)
	if err != nil {
		return nil, readOut{}, err
	}
	name := strings.TrimSuffix(in.Name, ".md")
	if name != "MEMORY" && !slug.Valid(name) {
		return nil, readOut{}, fmt.Errorf("%q is not a memory name", in.Name)
	}
	text, err := ms.readFile(p.Store, name+".md")
	if err != nil {
		return nil, readOut{}, err
	}
	if name != "MEMORY" {
		_ = phases.MarkUsed(p, []string{name}, time.Now()) // bookkeeping: never fails the read
	}
	return textResult(text), readOut{Path: filepath.Join(p.Store, name+".md"), Content: text}, nil
}

type listIn struct {
	Project string `json:"project,omitempty" jsonschema:"the project's absolute path; default: the server's project"`
	Type    string `json:"type,omitempty" jsonschema:"only memories of this type: user, feedback, project or reference"`
}

type listedMemory struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Description string `json:"description"`
}

type listOut struct {
	Store    string         `json:"store"`
	Memories []listedMemory `json:"memories"`
}

func (ms *memoryServer) listMemories(_ context.Context, _ *mcp.CallToolRequest, in listIn) (*mcp.CallToolResult, listOut, error) {
	if !memoryTypeOK(in.Type) {
		return nil, listOut{}, errType(in.Type)
	}
	p, err := ms.store(in.Project)
	if err != nil {
		return nil, listOut{}, err
	}
	s, err := store.Load(p.Store)
	if err != nil {
		return nil, listOut{}, err
	}
	out := listOut{Store: p.Store, Memories: []listedMemory{}}
	var b strings.Builder
	for _, m := range s.Memories {
		if in.Type != "" && string(m.Type) != in.Type {
			continue
		}
		desc, _ := ms.red.Redact(m.Description)
		out.Memories = append(out.Memories, listedMemory{Name: m.Name, Type: string(m.Type), Description: desc})
		fmt.Fprintf(&b, "- %s (%s): %s\n", m.Name, m.Type, desc)
	}
	if len(out.Memories) == 0 {
		b.WriteString("No memories yet in " + p.Store + ".")
	}
	return textResult(b.String()), out, nil
}

// addResources lists the default project's store files as resources: those readFile serves.
func (ms *memoryServer) addResources(server *mcp.Server) {
	p, err := ms.store("")
	if err != nil {
		return
	}
	entries, _ := os.ReadDir(p.Store)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".md") {
			continue
		}
		if _, err := storeFile(p.Store, name); err != nil {
			continue
		}
		f := filepath.Join(p.Store, name)
		server.AddResource(&mcp.Resource{Name: name, URI: "file://" + filepath.ToSlash(f), MIMEType: "text/markdown"}, ms.readResource)
	}
}

// readResource reads a store file named by a file:// URI; nothing outside a known store is served.
func (ms *memoryServer) readResource(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	path, ok := strings.CutPrefix(req.Params.URI, "file://")
	if !ok || !strings.HasSuffix(path, ".md") {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	path = filepath.Clean(filepath.FromSlash(path))
	p, err := ms.store("")
	if err != nil || filepath.Dir(path) != p.Store {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	text, err := ms.readFile(p.Store, filepath.Base(path))
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}}, nil
}

// readFile reads the store file name of the store in dir, redacted: it is about to reach an
// agent's model.
func (ms *memoryServer) readFile(dir, name string) (string, error) {
	data, err := readStoreFile(dir, name)
	if err != nil {
		return "", err
	}
	text, _ := ms.red.Redact(string(data))
	return text, nil
}

// storeFile is the path a file of the store in dir is read from, by the rule store.Load follows
// for the pass (and preamble and recall): a regular file, or a symbolic link to one inside the
// store; never a link out of it, a FIFO or a device.
func storeFile(dir, name string) (string, error) {
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	if err != nil {
		return "", fmt.Errorf("no memory at %s", path)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if !store.LinksInside(path, dir) {
			return "", fmt.Errorf("%s links to a file outside the store: not served", path)
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", fmt.Errorf("no memory at %s", path)
		}
		path = target
		fi, err = os.Stat(path)
		if err != nil {
			return "", fmt.Errorf("no memory at %s", path)
		}
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file: not served", filepath.Join(dir, name))
	}
	return path, nil
}

// readStoreFile reads a store file (see storeFile), at most store.MaxFile bytes as Load does, through safefile:
// a FIFO swapped in after the check cannot hang it.
func readStoreFile(dir, name string) ([]byte, error) {
	path, err := storeFile(dir, name)
	if err != nil {
		return nil, err
	}
	data, err := safefile.ReadFile(path, store.MaxFile)
	if err != nil {
		return nil, fmt.Errorf("%s: not served: %w", path, err)
	}
	return data, nil
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
