package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// An exampleNeed is what the temporary setup must hold before an Example line can work as written.
type exampleNeed int

const (
	needApplied  exampleNeed = 1 << iota // a pass applied to both projects' stores (run ids exist)
	needRollback                         // the shop's run rolled back (a rollback id exists)
	needPending                          // a plan of the shop waits in dreamd's state for review
	needPlanFile                         // shop.plan.json in the working directory
	needGit                              // ~/src/shop is a git repository with a commit
	needLinked                           // codex linked in ~/src/shop, claude to the user store
)

// exampleCase is how one Example line is run: what it needs, or why the test cannot run it.
type exampleCase struct {
	needs exampleNeed
	skip  string // the line needs what a test has not: the network, root, a running agent
}

const (
	skipNetwork = "needs the network (a real model endpoint or an agent's own login)"
	skipRoot    = "needs root (writes under /usr/local)"
	skipDaemon  = "starts the long-running daemon (TestDaemon* cover it)"
	skipServer  = "serves the web view until stopped (TestUI* drive it in a browser)"
)

// exampleCases holds every Example line of every command's --help: a line missing from it, or one
// it has that no help shows any more, fails TestHelpExamplesWork.
var exampleCases = map[string]exampleCase{
	// dreamd
	"dreamd run --once --dry-run      # what would a pass do with your transcripts?": {},
	"dreamd run --once                # do it":                                       {},
	"dreamd install                   # keep doing it in the background":             {},
	"dreamd status": {},
	// memories, pin
	"dreamd memories": {needs: needApplied},
	"dreamd memories --project ~/src/shop --format json | jq '.stores[].memories[] | select(.retaught >= 2)'": {needs: needApplied},
	"dreamd pin deploy-sh-migrated-to-postgres":                                                               {needs: needApplied},
	"dreamd pin deploy-sh-migrated-to-postgres --unpin --project ~/src/shop":                                  {needs: needApplied},
	// apply
	"dreamd plan --project ~/src/shop -o shop.plan.json && less shop.plan.json": {},
	"dreamd apply shop.plan.json": {needs: needPlanFile},
	"dreamd apply ~/.local/state/dreamd/stores/-home-ana-src-shop/pending/20261120T100000Z-a1b2c3.json --force": {needs: needPending},
	"dreamd apply 20261120T100000Z-a1b2c3   # a pending plan, by its run id":                                    {needs: needPending},
	"dreamd apply shop.plan.json --skip deploy-sh-migrated-to-postgres --dry-run":                               {needs: needPlanFile},
	"dreamd apply shop.plan.json --only deploy-sh-migrated-to-postgres":                                         {needs: needPlanFile},
	"dreamd apply shop.plan.json --edit deploy-sh-migrated-to-postgres=deploy.md --dry-run":                     {needs: needPlanFile},
	// review
	"dreamd review 20261120T100000Z-a1b2c3   # a pending plan, by its run id": {needs: needPending},
	"printf 'a\\n' | dreamd review shop.plan.json":                            {needs: needPlanFile},
	// discard
	"dreamd discard ~/.local/state/dreamd/stores/-home-ana-src-shop/pending/20261120T100000Z-a1b2c3.json": {needs: needPending},
	"dreamd discard --project ~/src/shop": {needs: needPending},
	// doctor
	"dreamd doctor":               {},
	"dreamd doctor --format json": {},
	// eval
	"dreamd eval                          # the built-in suite with the configured consolidator": {},
	"dreamd eval --run 'postgres|pnpm' --format markdown":                                        {},
	"OPENAI_API_KEY=… dreamd eval --format json > eval.json":                                     {skip: skipNetwork},
	// gc
	"dreamd gc":               {needs: needApplied},
	"dreamd gc --format json": {needs: needApplied},
	// history
	"dreamd history": {needs: needApplied},
	"dreamd history --project ~/src/shop --format markdown":              {needs: needApplied},
	"dreamd history --limit 0 --format json | jq '.runs[-1].meta.usage'": {needs: needApplied},
	// history show
	"dreamd history show 20261120T100000Z-a1b2c3 --diff":                    {needs: needApplied},
	"dreamd history show 20261120T100000Z-a1b2c3 --format json | jq .files": {needs: needApplied},
	// install
	"dreamd install                    # the daemon, restarted on failure":  {},
	"dreamd install --timer            # or an hourly oneshot pass instead": {},
	"dreamd install --config ~/dreamd.yaml --no-start":                      {},
	// link
	"dreamd link codex":                         {needs: needGit},
	"dreamd link opencode --project ~/src/shop": {needs: needGit},
	"dreamd link copilot --in-repo":             {needs: needGit},
	"dreamd link claude --user":                 {},
	// man
	"dreamd man ~/.local/share/man/man1 && man dreamd-run": {},
	"sudo dreamd man /usr/local/share/man/man1":            {skip: skipRoot},
	// mcp: each line runs an agent's own program
	"claude mcp add --scope user dreamd -- dreamd mcp":                  {skip: skipNetwork},
	"codex mcp add dreamd -- dreamd mcp":                                {skip: skipNetwork},
	"gemini mcp add --scope user dreamd dreamd mcp":                     {skip: skipNetwork},
	"gemini -p \"how do we deploy?\" --allowed-mcp-server-names dreamd": {skip: skipNetwork},
	// plan
	"dreamd plan                                  # dreamd-plan-<run id>.json here": {},
	"dreamd plan --project ~/src/shop -o shop.plan.json":                            {},
	"dreamd plan -o plans/                        # one plan per store":             {},
	// preamble
	"dreamd preamble --max-bytes 4096":                       {needs: needApplied},
	"codex \"$(dreamd preamble) Now fix the failing test.\"": {skip: skipNetwork},
	// recall
	"dreamd recall \"how do we deploy\"":                                  {needs: needApplied},
	"dreamd recall postgres --project ~/src/shop --limit 3 --format json": {needs: needApplied},
	// remember
	"dreamd remember \"integration tests need docker compose up first\"":                   {},
	"dreamd remember --type feedback \"answer in English even when I write German\" --now": {},
	"git log -1 --format=%B | dreamd remember --project ~/src/shop":                        {needs: needGit},
	// rollback
	"dreamd rollback --project ~/src/shop":                                 {needs: needApplied},
	"dreamd rollback 20261120T100000Z-a1b2c3":                              {needs: needApplied},
	"dreamd rollback rollback-20261120T101500Z-d4e5f6   # undo a rollback": {needs: needRollback},
	// run
	"dreamd run --once --dry-run      # review what a pass would do":            {},
	"dreamd run --once --project ~/src/shop --format json":                      {},
	"dreamd run                       # the daemon, on the configured schedule": {skip: skipDaemon},
	// ui
	"dreamd ui":                         {skip: skipServer},
	"dreamd ui --listen 127.0.0.1:8377": {skip: skipServer},
	// sessions
	"dreamd sessions": {},
	"dreamd sessions --store ~/.claude/projects/-home-ana-src-shop/memory": {},
	"dreamd sessions --format json | jq '.skipped[]'":                      {},
	// status
	"dreamd status --project ~/src/shop":                                            {},
	"dreamd status --format json | jq '.stores[] | {store, memories, state_bytes}'": {},
	// uninstall
	"dreamd uninstall": {},
	// unlink
	"dreamd unlink codex":         {needs: needGit | needLinked},
	"dreamd unlink claude --user": {needs: needLinked},
	// version
	"dreamd version":               {},
	"dreamd version --format json": {},
	// help
	"dreamd help run":          {},
	"dreamd help history show": {},
}

// helpExamples lists every line of every command's Example, with the commands that show it.
func helpExamples() map[string][]string {
	lines := map[string][]string{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		for _, l := range strings.Split(c.Example, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines[l] = append(lines[l], c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRootCmd(&globalOptions{})
	root.InitDefaultHelpCmd() // cobra adds the help command only when it executes
	walk(root)
	return lines
}

// The placeholders of the examples, and what stands for them in the temporary setup.
var (
	placeholderRun      = "20261120T100000Z-a1b2c3"
	placeholderRollback = "rollback-20261120T101500Z-d4e5f6"
	placeholderStore    = "-home-ana-src-shop" // the store of ~/src/shop for a user whose HOME is /home/ana
	placeholderPending  = regexp.MustCompile(`~/\.local/state/dreamd/\S+\.json`)
)

// TestHelpExamplesWork runs every Example line of every command's --help as a user would type it
// (through a shell, dreamd on PATH) in a temporary HOME with two projects' sessions, after the
// setup the line needs, and wants exit 0. Lines that need the network or root are listed with why.
func TestHelpExamplesWork(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	shown := helpExamples()
	for line, cmds := range shown {
		if _, ok := exampleCases[line]; !ok {
			t.Errorf("%s: Example line %q has no case in exampleCases", strings.Join(cmds, ", "), line)
		}
	}
	for line, c := range exampleCases {
		if _, ok := shown[line]; !ok {
			t.Errorf("exampleCases has %q, which no --help shows", line)
			continue
		}
		if c.skip != "" {
			continue
		}
		t.Run(line, func(t *testing.T) {
			t.Parallel()
			s := newExampleSandbox(t, c.needs)
			cmdline := s.expand(line)
			out, errOut, code := s.shell(cmdline)
			if code != 0 {
				t.Errorf("%s\nexit %d\nstdout:\n%s\nstderr:\n%s", cmdline, code, out, errOut)
			}
		})
	}
}

// exampleSandbox is a temporary HOME where the examples run: dreamd on PATH as `dreamd`, the
// default config location, two projects (~/src/shop and ~/src/blog) with a Claude Code session each.
type exampleSandbox struct {
	*sandbox
	run, rollback, pending string // what the placeholders stand for
}

func newExampleSandbox(t *testing.T, needs exampleNeed) *exampleSandbox {
	s := &exampleSandbox{sandbox: newSandbox(t, "")}
	s.write(".config/dreamd/config.yaml", offlineConfig)
	s.write("dreamd.yaml", offlineConfig)
	bin := s.path("bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, filepath.Join(bin, "dreamd")); err != nil {
		t.Fatal(err)
	}
	// The service manager and man are stand-ins: systemctl succeeds (there is no user manager in a
	// test), man finds the page where `dreamd man` wrote it.
	s.write("bin/systemctl", "#!/bin/sh\nexit 0\n")
	s.write("bin/man", "#!/bin/sh\ntest -f \"$HOME/.local/share/man/man1/$1.1\"\n")
	for _, f := range []string{"systemctl", "man"} {
		if err := os.Chmod(filepath.Join(bin, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.env = append(s.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	shop, blog := s.path("src/shop"), s.path("src/blog")
	s.write("src/shop/README.md", "shop\n")
	s.write("src/blog/README.md", "blog\n")
	s.write(".claude/projects/"+projectSlug(shop)+"/aaaa1111-0000-4000-8000-000000000001.jsonl",
		claudeSession("aaaa1111-0000-4000-8000-000000000001", shop, "Remember that we deploy with ./deploy.sh and migrated to Postgres."))
	s.write(".claude/projects/"+projectSlug(blog)+"/bbbb2222-0000-4000-8000-000000000002.jsonl",
		claudeSession("bbbb2222-0000-4000-8000-000000000002", blog, "Always build the site with hugo --minify before you push."))
	if needs&(needGit|needLinked) != 0 {
		for _, args := range [][]string{{"init", "-q"}, {"add", "README.md"}, {"commit", "-qm", "Deploys need a clean tree."}} {
			s.must("git", append([]string{"-C", shop}, args...)...)
		}
	}
	if needs&needLinked != 0 {
		s.must("dreamd", "link", "codex")
		s.must("dreamd", "link", "claude", "--user")
	}
	if needs&(needApplied|needRollback) != 0 {
		s.must("dreamd", "run", "--once")
		s.run = s.lastRun(shop, "")
	}
	if needs&needRollback != 0 {
		s.must("dreamd", "rollback", s.run)
		s.rollback = s.lastRun(shop, "rollback")
	}
	if needs&needPending != 0 {
		s.must("env", "DREAMD_APPLY=review", "dreamd", "run", "--once", "--project", shop)
		s.pending = strings.TrimSpace(s.must("dreamd", "status", "--project", shop, "--format", "json", "--log-level", "error"))
		s.pending = s.jq(s.pending, ".stores[0].pending_plans[0]")
		s.run = strings.TrimSuffix(filepath.Base(s.pending), ".json")
	}
	if needs&needPlanFile != 0 {
		s.must("dreamd", "plan", "--project", shop, "-o", "shop.plan.json")
		s.write("src/shop/deploy.md", "---\ndescription: deploy.sh migrates to Postgres first\n---\nDeploys run ./deploy.sh, which migrates the Postgres schema first.\n")
	}
	return s
}

// lastRun is the newest run of kind ("" any) of the project's store.
func (s *exampleSandbox) lastRun(project, kind string) string {
	out := s.must("dreamd", "history", "--project", project, "--format", "json")
	filter := ".runs[-1].run_id"
	if kind != "" {
		filter = `[.runs[] | select(.kind == "` + kind + `")][-1].run_id`
	}
	return s.jq(out, filter)
}

func (s *exampleSandbox) jq(input, filter string) string {
	s.t.Helper()
	cmd := exec.Command("jq", "-r", filter)
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.Output()
	if err != nil {
		s.t.Fatalf("jq %s: %v\n%s", filter, err, input)
	}
	return strings.TrimSpace(string(out))
}

// expand puts the setup's own values in place of the examples' placeholders.
func (s *exampleSandbox) expand(line string) string {
	if s.pending != "" {
		line = placeholderPending.ReplaceAllString(line, s.pending)
	}
	if s.rollback != "" {
		line = strings.ReplaceAll(line, placeholderRollback, s.rollback)
	}
	if s.run != "" {
		line = strings.ReplaceAll(line, placeholderRun, s.run)
	}
	return strings.ReplaceAll(line, placeholderStore, projectSlug(s.path("src/shop")))
}

// shell runs a command line through bash in ~/src/shop, as typed at a prompt there.
func (s *exampleSandbox) shell(line string) (string, string, int) {
	s.t.Helper()
	cmd := exec.Command("bash", "-o", "pipefail", "-c", line)
	cmd.Env, cmd.Dir = s.env, s.path("src/shop")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// must runs a setup command and fails the test when it fails.
func (s *exampleSandbox) must(name string, args ...string) string {
	s.t.Helper()
	line := name
	for _, a := range args {
		line += " '" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	out, errOut, code := s.shell(line)
	if code != 0 {
		s.t.Fatalf("setup %s: exit %d\n%s%s", line, code, out, errOut)
	}
	return out
}

// TestExampleCasesCoverPlaceholders: a placeholder is only used where the setup provides it.
func TestExampleCasesCoverPlaceholders(t *testing.T) {
	for line, c := range exampleCases {
		if strings.Contains(line, placeholderRollback) && c.needs&needRollback == 0 {
			t.Errorf("%q names a rollback id without needRollback", line)
		}
		if placeholderPending.MatchString(line) && c.needs&needPending == 0 {
			t.Errorf("%q names a pending plan without needPending", line)
		}
		if strings.Contains(strings.ReplaceAll(line, placeholderRollback, ""), placeholderRun) && !slices.ContainsFunc([]exampleNeed{needApplied, needRollback, needPending}, func(n exampleNeed) bool { return c.needs&n != 0 }) {
			t.Errorf("%q names a run id without a setup that makes one", line)
		}
	}
}
