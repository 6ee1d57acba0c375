package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/renameio/v2"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/gitstore"
	"github.com/dreamd/dreamd/internal/phases"
	"github.com/dreamd/dreamd/internal/redact"
	"github.com/dreamd/dreamd/internal/safefile"
	"github.com/dreamd/dreamd/internal/store"
)

// The team scope around a pass: dreamd's clone of the team repository is brought up to date
// before (fetch, rebase what is not pushed yet), and an applied pass of the team store becomes
// one commit, pushed to the shared branch or to a review branch. The pass itself knows nothing
// of git: to it the team store is a directory like any other.

// team is the configured team repository, nil without a team scope.
func team(cfg *config.Config) *gitstore.Repo {
	if cfg.Store.Team.Repo == "" {
		return nil
	}
	return &gitstore.Repo{Remote: cfg.Store.Team.Repo, Branch: cfg.Store.Team.Branch, Dir: teamClone(cfg)}
}

// isIndex reports whether a path of the repository is a derived index, which a rebase may rebuild
// instead of calling a conflict.
func isIndex(path string) bool { return filepath.Base(path) == store.IndexFile }

// rebuildIndexes rewrites each conflicting index of the clone from the topic files beside it.
func rebuildIndexes(cfg *config.Config) func([]string) error {
	clone, lineMax := teamClone(cfg), cfg.Limits.Limits.OrDefaults().IndexLineMax
	return func(paths []string) error {
		red, err := redactor(cfg)
		if err != nil {
			return err
		}
		for _, p := range paths {
			dir := filepath.Dir(filepath.Join(clone, p))
			s, err := store.Load(dir)
			if err != nil {
				return err
			}
			if err := renameio.WriteFile(filepath.Join(dir, store.IndexFile), phases.DerivedIndex(s.Memories, red, lineMax), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// syncTeam brings the clone up to date before a pass. When the repository cannot be reached and
// there is no clone yet, the pass runs without a team scope (team memories stay in the projects'
// stores this time, nothing is lost); any other failure only leaves the clone as it was.
func syncTeam(ctx context.Context, cfg *config.Config, env *phases.Env, log *slog.Logger) {
	r := team(cfg)
	if r == nil {
		return
	}
	unlock, busy := lockTeam(cfg, log)
	if busy {
		log.Info("team store busy: another dreamd is consolidating it; this pass leaves the clone as it is")
		return
	}
	defer unlock()
	err := r.Sync(ctx, isIndex, rebuildIndexes(cfg))
	if err == nil {
		err = ignoreLockFile(r.Dir)
	}
	if err == nil {
		return
	}
	if _, statErr := os.Stat(filepath.Join(r.Dir, ".git")); statErr != nil {
		env.TeamStore = ""
		log.Error("team repository unreachable: this pass keeps team memories in the projects' stores", "repo", r.Remote, "err", err)
		return
	}
	if errors.Is(err, gitstore.ErrConflict) {
		log.Error("team repository: a conflict needs a person (nothing was dropped; resolve it in the clone, then dreamd pushes on its next pass)", "clone", r.Dir, "err", err)
		return
	}
	log.Warn("team repository: could not fetch; consolidating on the clone as it is", "err", err)
}

// publishTeam commits each plan applied to the team store and pushes every commit not yet
// pushed. A secret found in the store stops the commit; a push that fails waits for the next pass.
func publishTeam(ctx context.Context, cfg *config.Config, applied []*phases.Plan, log *slog.Logger) {
	r := team(cfg)
	if r == nil {
		return
	}
	unlock, busy := lockTeam(cfg, log)
	if busy {
		log.Info("team store busy: another dreamd is consolidating it; it commits and pushes")
		return
	}
	defer unlock()
	for _, p := range applied {
		if hash, err := commitTeam(ctx, cfg, r, teamMessage(p)); err != nil {
			log.Error("team repository: not committed", "err", err)
		} else if hash != "" {
			log.Info("team repository: committed", "commit", hash[:min(len(hash), 12)], "run", p.RunID)
		}
	}
	pushTeam(ctx, cfg, r, log)
}

// commitTeam commits the team store as it is, after looking for secrets once more in every file
// of it: what is committed leaves the machine for everyone with access to the repository.
func commitTeam(ctx context.Context, cfg *config.Config, r *gitstore.Repo, message string) (string, error) {
	red, err := redactor(cfg)
	if err != nil {
		return "", err
	}
	if err := noSecrets(ctx, teamStore(cfg), red); err != nil {
		return "", err
	}
	return r.Commit(ctx, filepath.ToSlash(cfg.Store.Team.Path), message)
}

// pushTeam pushes what waits, to the shared branch or to today's review branch.
func pushTeam(ctx context.Context, cfg *config.Config, r *gitstore.Repo, log *slog.Logger) {
	waiting, err := r.Unpushed(ctx)
	if err != nil || len(waiting) == 0 {
		return
	}
	to := r.Branch
	if cfg.Store.Team.Review {
		host, _ := os.Hostname() // without one, ReviewBranch names the host "host"
		to = gitstore.ReviewBranch(host, time.Now())
	}
	pushed, err := r.Push(ctx, to, isIndex, rebuildIndexes(cfg))
	if err != nil {
		log.Error("team repository: push failed; the commits wait in the clone for the next pass", "commits", len(waiting), "err", err)
		return
	}
	log.Info("team repository: pushed", "branch", pushed, "commits", len(waiting))
}

// lockTeam holds the team store's own lock while git works in the clone, so a rebase or a commit
// never meets another dreamd's pass half-way through writing the store. Before the first clone
// there is nothing to lock.
func lockTeam(cfg *config.Config, log *slog.Logger) (unlock func(), busy bool) {
	if _, err := os.Stat(filepath.Join(teamClone(cfg), ".git")); err != nil {
		return func() {}, false
	}
	lock, err := store.Acquire(routingEnvPaths(cfg, teamStore(cfg)))
	if err != nil {
		return func() {}, errors.Is(err, store.ErrBusy)
	}
	return func() { releaseLock(log, lock) }, false
}

// releaseLock gives a store's lock back and logs what could not be undone (Claude Code's lock
// file not restored: it is taken as stale an hour later; the flock goes with the file anyway).
func releaseLock(log *slog.Logger, lock *store.Lock) {
	if err := lock.Release(); err != nil {
		log.Warn("releasing the store's lock", "err", err)
	}
}

// ignoreLockFile keeps the lock dreamd and Claude Code take in a store (.consolidate-lock) out of
// the team's commits, through the clone's own exclude file.
func ignoreLockFile(clone string) error {
	path := filepath.Join(clone, ".git", "info", "exclude")
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	const line = ".consolidate-lock"
	if slices.Contains(strings.Split(string(data), "\n"), line) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		data = append(data, '\n')
	}
	return renameio.WriteFile(path, append(data, line+"\n"...), 0o644)
}

// noSecrets fails naming the first file of dir that holds a secret. It reads what git commits:
// a regular file's bytes (at most store.MaxFile: a larger one is not committed, as it cannot be
// checked) and a symbolic link's target, never what the link leads to — a teammate may have
// committed a link to /dev/zero, which would never end. ctx stops it.
func noSecrets(ctx context.Context, dir string, red *redact.Redactor) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var text string
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			if text, err = os.Readlink(path); err != nil {
				return err
			}
		case d.Type().IsRegular():
			data, err := safefile.ReadFileContext(ctx, path, store.MaxFile)
			if err != nil {
				return fmt.Errorf("%w: not committed to the team repository", err)
			}
			text = string(data)
		default:
			return nil // git commits neither FIFOs nor devices
		}
		if found := red.Find(text); len(found) > 0 {
			return fmt.Errorf("%s holds a secret (%s): not committed to the team repository; remove it and the next pass commits", path, found[0].Kind)
		}
		return nil
	})
}

// teamMessage is the commit message of a team pass: what it did and on what evidence, by name
// and session id only — never a word of a transcript.
func teamMessage(p *phases.Plan) string {
	var b strings.Builder
	c := p.Counts
	fmt.Fprintf(&b, "dreamd: %d created, %d updated, %d retired (run %s)\n\n", c.Created, c.Updated, c.Retired, p.RunID)
	for _, op := range p.Operations {
		fmt.Fprintf(&b, "%s %s (%s); evidence: %s\n", op.Action, op.Name, cmp.Or(string(op.Type), "-"), strings.Join(op.Evidence, ", "))
	}
	for _, r := range p.Retired {
		fmt.Fprintf(&b, "retire %s (%s)\n", r.Name, r.Reason)
	}
	fmt.Fprintf(&b, "\nConsolidated by dreamd (%s) from %d %s.\n", p.Consolidator, c.Sessions, plural(c.Sessions, "session", "sessions"))
	return b.String()
}

// revertTeam commits a rollback of the team store's run as a revert of that run's commit, and
// pushes it.
func revertTeam(ctx context.Context, cfg *config.Config, runID string, log *slog.Logger) error {
	r := team(cfg)
	message := fmt.Sprintf("Revert \"dreamd run %s\"\n", runID)
	hash, err := r.CommitWith(ctx, "(run "+runID+")") // its message names the run
	if err != nil {
		log.Warn("team repository: cannot find the run's commit; the revert commit names only the run", "run", runID, "err", err)
	}
	if hash != "" {
		message += fmt.Sprintf("\nThis reverts commit %s.\n", hash)
	}
	// The run's pre-image of MEMORY.md predates what teammates pushed since: the index is derived,
	// so it is rebuilt from the topic files the rollback left.
	if err := rebuildIndexes(cfg)([]string{filepath.Join(filepath.FromSlash(cfg.Store.Team.Path), store.IndexFile)}); err != nil {
		return err
	}
	hash, err = commitTeam(ctx, cfg, r, message)
	if err != nil {
		return err
	}
	if hash != "" {
		log.Info("team repository: rollback committed", "commit", hash[:min(len(hash), 12)])
	}
	pushTeam(ctx, cfg, r, log)
	return nil
}

// teamCheck is doctor's look at the team repository: git there, the clone made, nothing stuck.
func teamCheck(ctx context.Context, r *gitstore.Repo) check {
	c := check{Name: "team", Status: "ok", Detail: r.Remote + " (" + r.Branch + "), clone " + r.Dir}
	if err := gitstore.Available(); err != nil {
		c.Status, c.Detail, c.Fix = "fail", err.Error(), "install git: the team scope drives your own git, credentials and hooks"
		return c
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git")); err != nil {
		c.Status, c.Fix = "warn", "the next pass clones it; check that `git ls-remote "+r.Remote+"` works for you"
		c.Detail += ": not cloned yet"
		return c
	}
	switch waiting, err := r.Unpushed(ctx); {
	case err != nil:
		c.Status, c.Detail = "warn", err.Error()
	case len(waiting) > 0:
		c.Status, c.Fix = "warn", "dreamd pushes them on its next pass; `git -C "+r.Dir+" push` says why it cannot"
		c.Detail += fmt.Sprintf(": %d commits not pushed yet", len(waiting))
	}
	return c
}
