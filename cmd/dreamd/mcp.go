package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/recall"
	"github.com/dreamd/dreamd/internal/redact"
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
memory file) and list_memories; the store's files are also resources. The project is the server's
working directory (agents start MCP servers in the project) unless a tool call names another.`,
		Example: `  claude mcp add --scope user dreamd -- dreamd mcp
  codex mcp add dreamd -- dreamd mcp
  gemini mcp add --scope user dreamd dreamd mcp`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(o)
			}
			return runMCP(cmd.Context(), o, &mcp.StdioTransport{})
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
}

func runMCP(ctx context.Context, o *mcpOptions, t mcp.Transport) error {
	cfg, err := o.load()
	if err != nil {
		return err
	}
	red, err := redactor(cfg)
	if err != nil {
		return err
	}
	dir, err := projectDir(o.Project)
	if err != nil {
		return err
	}
	ms := &memoryServer{o: o, cfg: cfg, red: red, project: transcript.CanonicalProject(dir)}
	server := mcp.NewServer(&mcp.Implementation{Name: "dreamd", Version: version}, &mcp.ServerOptions{
		Instructions: "Long-term memory of this project, consolidated by dreamd from earlier agent sessions. " +
			"Call recall before answering questions about the project's conventions, decisions or history; " +
			"call remember for a durable lesson the person wants kept (it is consolidated later, not stored verbatim).",
	})
	mcp.AddTool(server, &mcp.Tool{Name: "recall", Description: "Search the project's memories (name, description and body; stemmed full text), best match first."}, ms.recall)
	mcp.AddTool(server, &mcp.Tool{Name: "remember", Description: "Queue a note for the project's memory. dreamd's next pass consolidates it with what is already known (merged, deduplicated, checked); it is not written verbatim."}, ms.remember)
	mcp.AddTool(server, &mcp.Tool{Name: "read_memory", Description: "Read one memory file of the project's store by name (as listed by list_memories or recall)."}, ms.readMemory)
	mcp.AddTool(server, &mcp.Tool{Name: "list_memories", Description: "List the project's memories: name, type and one-line description."}, ms.listMemories)
	server.AddResourceTemplate(&mcp.ResourceTemplate{
		Name: "memory", URITemplate: "file:///{+path}", MIMEType: "text/markdown",
		Description: "A memory file of a dreamd store (topic file or MEMORY.md).",
	}, ms.readResource)
	ms.addResources(server)
	return server.Run(ctx, t)
}

// store resolves a tool call's project ("" = the server's) to its store.
func (ms *memoryServer) store(project string) (store.Paths, error) {
	dir := ms.project
	if project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return store.Paths{}, err
		}
		dir = transcript.CanonicalProject(abs)
	}
	return storeOf(ms.o.globalOptions, ms.cfg, dir), nil
}

type recallIn struct {
	Query   string `json:"query" jsonschema:"what to look for, in plain words"`
	Project string `json:"project,omitempty" jsonschema:"project directory; default: the server's working directory"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many results (default 5)"`
	Archive bool   `json:"archive,omitempty" jsonschema:"search retired memories too"`
}

type recallOut struct {
	Store   string       `json:"store"`
	Results []recall.Hit `json:"results"`
}

func (ms *memoryServer) recall(_ context.Context, _ *mcp.CallToolRequest, in recallIn) (*mcp.CallToolResult, recallOut, error) {
	p, err := ms.store(in.Project)
	if err != nil {
		return nil, recallOut{}, err
	}
	docs, err := recallDocs(p, in.Archive)
	if err != nil {
		return nil, recallOut{}, err
	}
	out := recallOut{Store: p.Store, Results: recall.Search(docs, in.Query, cmpLimit(in.Limit))}
	var b strings.Builder
	for i := range out.Results {
		h := &out.Results[i]
		h.Description, _ = ms.red.Redact(h.Description)
		h.Snippet, _ = ms.red.Redact(h.Snippet)
		fmt.Fprintf(&b, "%s (%s, score %.2f): %s\n  %s\n", h.Name, h.Type, h.Score, h.Description, h.Snippet)
	}
	if out.Results == nil {
		out.Results = []recall.Hit{}
		b.WriteString("No memory matches.")
	}
	return textResult(b.String()), out, nil
}

type rememberIn struct {
	Text    string `json:"text" jsonschema:"the lesson to keep, in one or a few sentences"`
	Type    string `json:"type,omitempty" jsonschema:"user, feedback, project or reference; default: decided when consolidating"`
	Project string `json:"project,omitempty" jsonschema:"project directory; default: the server's working directory"`
}

type rememberOut struct {
	Store  string `json:"store"`
	Queued string `json:"queued"`
}

func (ms *memoryServer) remember(_ context.Context, _ *mcp.CallToolRequest, in rememberIn) (*mcp.CallToolResult, rememberOut, error) {
	if !memoryTypeOK(in.Type) {
		return nil, rememberOut{}, fmt.Errorf("type %q: want one of %s", in.Type, strings.Join(memory.TypeNames(), ", "))
	}
	p, err := ms.store(in.Project)
	if err != nil {
		return nil, rememberOut{}, err
	}
	project := ms.project
	if in.Project != "" {
		project = transcript.CanonicalProject(in.Project)
	}
	path, err := transcript.WriteNote(notesDir(ms.cfg), transcript.Note{Project: project, Type: in.Type, Text: in.Text, Time: time.Now()})
	if err != nil {
		return nil, rememberOut{}, err
	}
	return textResult("Queued; dreamd's next pass consolidates it into " + p.Store + "."), rememberOut{Store: p.Store, Queued: filepath.Base(path)}, nil
}

type readIn struct {
	Name    string `json:"name" jsonschema:"the memory's name (file stem), or MEMORY for the index"`
	Project string `json:"project,omitempty" jsonschema:"project directory; default: the server's working directory"`
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
	path := filepath.Join(p.Store, name+".md")
	text, err := ms.readFile(path)
	if err != nil {
		return nil, readOut{}, err
	}
	return textResult(text), readOut{Path: path, Content: text}, nil
}

type listIn struct {
	Project string `json:"project,omitempty" jsonschema:"project directory; default: the server's working directory"`
	Type    string `json:"type,omitempty" jsonschema:"only memories of this type"`
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
		b.WriteString("No memories yet.")
	}
	return textResult(b.String()), out, nil
}

// addResources lists the default project's store files as resources.
func (ms *memoryServer) addResources(server *mcp.Server) {
	p, err := ms.store("")
	if err != nil {
		return
	}
	files, _ := filepath.Glob(filepath.Join(p.Store, "*.md"))
	for _, f := range files {
		server.AddResource(&mcp.Resource{Name: filepath.Base(f), URI: "file://" + filepath.ToSlash(f), MIMEType: "text/markdown"}, ms.readResource)
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
	text, err := ms.readFile(path)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown", Text: text}}}, nil
}

// readFile reads a store file, redacted: it is about to reach an agent's model.
func (ms *memoryServer) readFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("no memory at %s", path)
	}
	text, _ := ms.red.Redact(string(data))
	return text, nil
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func cmpLimit(n int) int {
	if n <= 0 {
		return 5
	}
	return n
}
