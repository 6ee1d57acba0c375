package main

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/agentlink"
	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/preamble"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/store"
)

type linkOptions struct {
	*globalOptions
	Agent   string
	Project string
	InRepo  bool
	User    bool // the user store, into the agent's user-level file (claude)
	Team    bool // the team store, likewise
}

// scope is the scope the link is for, "" for a project's.
func (o *linkOptions) scope() string {
	switch {
	case o.User:
		return "user"
	case o.Team:
		return "team"
	}
	return ""
}

func newLinkCmd(g *globalOptions, runF func(*linkOptions) error) *cobra.Command {
	o := &linkOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "link AGENT",
		Short: "Keep the project's memory in an agent's own instruction file",
		Long: `Put the project's preamble (see ` + "`dreamd preamble`" + `) into the instruction file the agent reads at
startup, in a block between marker comments, and keep it current after every applied pass.
Text outside the markers is never touched; ` + "`dreamd unlink`" + ` leaves the file as it was.

Where it goes, by default privately (nothing appears in the repository's git status): the agent's
file at the project root when git does not track it (created if need be and listed in
.git/info/exclude), else a block under "## Memory of the project <path>" in the agent's own
user-level file, read in every project:
  codex     AGENTS.md                        ~/.codex/AGENTS.md ($CODEX_HOME)
  opencode  AGENTS.md                        ~/.config/opencode/AGENTS.md
  kilo      AGENTS.md                        ~/.config/kilo/AGENTS.md
  gemini    GEMINI.md                        ~/.gemini/GEMINI.md
  qwen      QWEN.md                          ~/.qwen/QWEN.md ($QWEN_HOME)
  copilot   .github/copilot-instructions.md  ~/.copilot/copilot-instructions.md ($COPILOT_HOME)
  crush     CRUSH.md                         ~/.config/crush/CRUSH.md
  cline     .clinerules (a file), else .clinerules/dreamd-memory.md
                                             ~/Documents/Cline/Rules/dreamd-memory.md
  aider     .aider.dreamd.md, read through a block in .aider.conf.yml (when that file already has
            a read: list, dreamd says what line to add)
Links landing in one file (codex, opencode and kilo in AGENTS.md) share one block; unlinking one
leaves it to the others. --in-repo writes into the project's own file even when git tracks it.
Each block carries the user store's memories (who you are, what you want in every project) and the
team store's too. Markers count only on lines of their own outside code fences; a block whose end
marker was deleted is left alone with an error until it is mended; a file that is a symbolic link
(dotfiles) is written through to the file it names and stays a link.

Claude Code loads a project's store by itself. For the user store, ` + "`dreamd link claude --user`" + ` adds a
block to ~/.claude/CLAUDE.md (the file Claude Code loads in every project) that imports the user
store's MEMORY.md; ` + "`--team`" + ` does the same for the team store.`,
		Example: `  dreamd link codex
  dreamd link opencode --project ~/src/shop
  dreamd link copilot --in-repo
  dreamd link claude --user`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: agentlink.Agents,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agent = args[0]
			if runF != nil {
				return runF(o)
			}
			return runLink(o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	dirFlag(cmd, "project")
	f.BoolVar(&o.InRepo, "in-repo", false, "write into the project's own instruction file even when git tracks it")
	f.BoolVar(&o.User, "user", false, "link the user store into the agent's user-level file (claude)")
	f.BoolVar(&o.Team, "team", false, "link the team store into the agent's user-level file (claude)")
	cmd.MarkFlagsMutuallyExclusive("user", "team")
	return cmd
}

func newUnlinkCmd(g *globalOptions, runF func(*linkOptions) error) *cobra.Command {
	o := &linkOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:       "unlink AGENT",
		Short:     "Take the memory block out of an agent's instruction file again",
		Example:   "  dreamd unlink codex\n  dreamd unlink claude --user",
		Args:      cobra.ExactArgs(1),
		ValidArgs: agentlink.Agents,
		RunE: func(_ *cobra.Command, args []string) error {
			o.Agent = args[0]
			if runF != nil {
				return runF(o)
			}
			return runUnlink(o)
		},
	}
	cmd.Flags().StringVar(&o.Project, "project", "", "the project directory (default: the current directory's)")
	dirFlag(cmd, "project")
	cmd.Flags().BoolVar(&o.User, "user", false, "the user store's link (claude)")
	cmd.Flags().BoolVar(&o.Team, "team", false, "the team store's link (claude)")
	cmd.MarkFlagsMutuallyExclusive("user", "team")
	return cmd
}

// linkTarget is the canonical project and its store for a link command.
func (o *linkOptions) target() (*config.Config, string, string, error) {
	if o.scope() != "" {
		return o.scopeTarget()
	}
	if o.Agent == "claude" {
		return nil, "", "", usagef("Claude Code needs no link for a project: it loads the store's MEMORY.md itself (`dreamd link claude --user` links the user store)")
	}
	if !slices.Contains(agentlink.Agents, o.Agent) {
		return nil, "", "", usagef(fmt.Sprintf("unknown agent %q (known: %s)", o.Agent, strings.Join(agentlink.Agents, ", ")))
	}
	pr, err := o.loadProject(o.Project)
	if err != nil {
		return nil, "", "", err
	}
	return pr.cfg, pr.dir, pr.paths.Store, nil
}

// scopeTarget is the user's or the team's store, for `link claude --user` or `--team`: the other
// agents read their memories through each project's link.
func (o *linkOptions) scopeTarget() (*config.Config, string, string, error) {
	scope := o.scope()
	if o.Agent != "claude" {
		return nil, "", "", usagef(fmt.Sprintf("--%s links the %s store into Claude Code's CLAUDE.md; %s reads it through each project's link (dreamd link %s)", scope, scope, o.Agent, o.Agent))
	}
	if o.Project != "" || o.InRepo {
		return nil, "", "", usagef(fmt.Sprintf("--%s goes with no --project or --in-repo: the %s store is every project's", scope, scope))
	}
	cfg, err := o.load()
	if err != nil {
		return nil, "", "", err
	}
	dir, key := userStore(cfg), "store.user.enabled"
	if scope == "team" {
		dir, key = teamStore(cfg), "store.team.repo"
	}
	if dir == "" {
		return nil, "", "", &config.Error{Key: key, Msg: "is not set: there is no " + scope + " store to link"}
	}
	return cfg, "", dir, nil
}

func runLink(o *linkOptions) error {
	cfg, project, storeDir, err := o.target()
	if err != nil {
		return err
	}
	links, err := agentlink.Load(cfg.StateDir)
	if err != nil {
		return err
	}
	l, err := agentlink.New(o.Agent, project, storeDir, agentlink.Options{InRepo: o.InRepo, Home: homeDir()})
	if o.scope() != "" {
		l, err = agentlink.NewScope(o.scope(), storeDir, agentlink.Options{Home: homeDir()}), nil
	}
	if err != nil {
		return err
	}
	key := agentlink.Key(project, o.scope())
	if i := agentlink.Index(links, o.Agent, key); i >= 0 {
		l = links[i] // keep what the first link recorded, so unlink can still undo it exactly
	} else {
		links = append(links, l)
	}
	red, err := redactor(cfg)
	if err != nil {
		return err
	}
	if err := writeLink(cfg, &l, red, store.Load); err != nil {
		return err
	}
	links[agentlink.Index(links, o.Agent, key)] = l
	if err := agentlink.Save(cfg.StateDir, links); err != nil {
		return err
	}
	return o.print(linkResult{Action: "linked", Agent: o.Agent, Project: project, Files: linkFiles(l), Todo: l.Todo})
}

type linkResult struct {
	Action  string   `json:"action"` // linked or unlinked
	Agent   string   `json:"agent"`
	Project string   `json:"project"`
	Files   []string `json:"files"`          // instruction files carrying the memory block
	Todo    string   `json:"todo,omitempty"` // what the user still has to do by hand
}

func (r linkResult) render(w io.Writer, _ bool) error {
	for _, f := range r.Files {
		fmt.Fprintf(w, "%s %s: %s\n", r.Action, r.Agent, f)
	}
	if r.Todo != "" {
		fmt.Fprintf(w, "to finish: %s\n", r.Todo)
	}
	return nil
}

func linkFiles(l agentlink.Link) []string {
	files := []string{}
	for _, f := range l.Files {
		files = append(files, f.Path)
	}
	return files
}

func runUnlink(o *linkOptions) error {
	cfg, project, _, err := o.target()
	if err != nil {
		return err
	}
	links, err := agentlink.Load(cfg.StateDir)
	if err != nil {
		return err
	}
	i := agentlink.Index(links, o.Agent, agentlink.Key(project, o.scope()))
	if i < 0 {
		return usagef(fmt.Sprintf("%s is not linked for %s", o.Agent, cmp.Or(project, "the "+o.scope()+" store")))
	}
	res := linkResult{Action: "unlinked", Agent: o.Agent, Project: project, Files: linkFiles(links[i])}
	links, err = agentlink.Unlink(links, i)
	if err != nil {
		return err
	}
	if err := agentlink.Save(cfg.StateDir, links); err != nil {
		return err
	}
	return o.print(res)
}

// writeLink renders the link's store and writes it into the link's files.
func writeLink(cfg *config.Config, l *agentlink.Link, red *redact.Redactor, load storeLoader) error {
	text, err := renderPreamble(routingEnvPaths(cfg, l.Store), scopeStores(cfg), preamble.DefaultMaxBytes, red, load)
	if err != nil {
		return err
	}
	if text == "" {
		text = "No memories yet for this project; dreamd adds them here after its next pass.\n"
	}
	_, err = l.Write(text)
	return err
}

// refreshLinks rewrites the blocks of every link to one of stores (after an applied pass, an
// apply or a rollback); a block is written only when its text changed.
func refreshLinks(cfg *config.Config, stores []string, log *slog.Logger) {
	if len(stores) == 0 {
		return
	}
	links, err := agentlink.Load(cfg.StateDir)
	if err != nil {
		log.Warn("cannot read the agent links", "err", err)
		return
	}
	red, err := redactor(cfg)
	if err != nil {
		log.Warn("cannot update the agents' memory blocks", "err", err)
		return
	}
	load := loadOnce()
	changed := false
	all := slices.ContainsFunc(stores, func(s string) bool { return slices.Contains(scopeStores(cfg), s) }) // every block carries these
	for i := range links {
		if !all && !slices.Contains(stores, links[i].Store) {
			continue
		}
		if err := writeLink(cfg, &links[i], red, load); err != nil {
			log.Warn("cannot update an agent's memory block", "agent", links[i].Agent, "project", links[i].Project, "err", err)
			continue
		}
		changed = true
	}
	if changed {
		if err := agentlink.Save(cfg.StateDir, links); err != nil {
			log.Warn("cannot record the agent links", "err", err)
		}
	}
}

// linksOf lists the agent links that carry a store, for status.
func linksOf(cfg *config.Config, storeDir string) []linkStatus {
	out := []linkStatus{}
	links, err := agentlink.Load(cfg.StateDir)
	if err != nil {
		return out
	}
	for _, l := range links {
		if l.Store != storeDir {
			continue
		}
		ls := linkStatus{Agent: l.Agent, Todo: l.Todo}
		for _, f := range l.Files {
			ls.Files = append(ls.Files, f.Path)
		}
		out = append(out, ls)
	}
	return out
}

func homeDir() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}
