// Package gitstore keeps a memory store inside a git repository shared by a team. dreamd works in
// its own local clone: it syncs the clone, writes the store there, commits and pushes. It drives
// the system's git, so the user's own credentials, configuration and hooks apply; it never stores
// credentials itself.
package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dreamd/dreamd/internal/slug"
)

// ErrConflict reports changes git could not merge without dropping someone's text. The errors
// returned are *ConflictError values, which name the paths and match ErrConflict with errors.Is.
var ErrConflict = errors.New("gitstore: conflicting changes")

// ConflictError names the paths a rebase could not reconcile. The operation was aborted,
// so the clone is as it was before.
type ConflictError struct {
	Op    string   // the git operation that stopped: "rebase"
	Paths []string // conflicting paths, relative to the clone, slash-separated
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("gitstore: %s stopped on conflicting changes to %s", e.Op, strings.Join(e.Paths, ", "))
}

// Unwrap lets errors.Is(err, ErrConflict) match.
func (e *ConflictError) Unwrap() error { return ErrConflict }

// Repo is a local clone of a team's memory repository.
type Repo struct {
	Remote string   // URL or path of the shared repository (a bare repo works)
	Branch string   // the shared branch, e.g. "main"
	Dir    string   // the local clone, dreamd's own
	Env    []string // extra environment for git (tests set HOME, GIT_CONFIG_GLOBAL, etc.)
}

const (
	remote = "origin" // the clone's name for Remote, set explicitly at clone time

	pushAttempts   = 3    // pushes to the shared branch before giving up on a busy remote
	reviewSuffixes = 20   // suffixed review branch names tried before giving up
	rebaseRounds   = 1000 // guard against a rebase that never ends

	// cleanupTimeout bounds the abort that restores the clone, which runs even when ctx is done:
	// leaving a rebase half-way would be worse than finishing late.
	cleanupTimeout = 30 * time.Second
	// waitDelay stops a cancelled git from hanging us on pipes held open by its children (ssh).
	waitDelay = 5 * time.Second
)

// minVersion is the oldest git this package is written for: `git switch --orphan`, the merge
// backend of rebase dropping commits that became empty, and `init -b` in the tests.
var minVersion = [2]int{2, 28}

// Available reports whether a usable git is on PATH, with an error that says what is missing.
func Available() error {
	path, err := exec.LookPath("git")
	if err != nil {
		return fmt.Errorf("gitstore: git is not installed or not on PATH: %w", err)
	}
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return fmt.Errorf("gitstore: %s --version failed: %w", path, err)
	}
	major, minor, ok := parseVersion(string(out))
	if ok && (major < minVersion[0] || major == minVersion[0] && minor < minVersion[1]) {
		return fmt.Errorf("gitstore: git %d.%d is too old, the team scope needs git %d.%d or newer",
			major, minor, minVersion[0], minVersion[1])
	}
	return nil
}

// parseVersion reads "git version 2.39.5" (and vendor variants such as "2.39.3 (Apple Git-146)").
// An unrecognised form is not an error: a git that runs is given the benefit of the doubt.
func parseVersion(out string) (major, minor int, ok bool) {
	fields := strings.Fields(out)
	if len(fields) < 3 {
		return 0, 0, false
	}
	parts := strings.SplitN(fields[2], ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	return major, minor, err1 == nil && err2 == nil
}

// Sync makes the clone current: clones Remote into Dir when Dir is missing (an empty remote, or one
// without Branch yet, is fine: the first commit creates it); fetches; checks out Branch; rebases
// local commits not yet on origin/Branch onto it. When a rebase stops on conflicts and every
// conflicting path is derived (derived(path) reports true for it, e.g. MEMORY.md files), it calls
// regenerate(paths), which rewrites those files from the rest of the working tree, stages them and
// continues, repeating until the rebase ends. Any other conflict aborts the rebase (the clone is
// left as before Sync, local commits intact) and returns a *ConflictError naming the paths that are
// not derived. Paths are relative to Dir, slash-separated.
func (r *Repo) Sync(ctx context.Context, derived func(path string) bool, regenerate func(paths []string) error) error {
	if err := r.ensureClone(ctx); err != nil {
		return err
	}
	if err := r.validBranch(ctx, r.Branch); err != nil {
		return err
	}
	if err := r.abortStaleRebase(ctx); err != nil {
		return err
	}
	if _, err := r.git(ctx, nil, "fetch", "--quiet", "--prune", remote); err != nil {
		return err
	}
	if err := r.checkoutBranch(ctx); err != nil {
		return err
	}
	return r.rebase(ctx, derived, regenerate)
}

// ensureClone clones Remote into Dir unless Dir already holds a clone. It looks for Dir/.git
// itself rather than asking git, which would happily find an enclosing repository.
func (r *Repo) ensureClone(ctx context.Context) error {
	if r.Dir == "" || r.Remote == "" {
		return errors.New("gitstore: Repo needs Remote and Dir")
	}
	cloned, err := r.cloned()
	if err != nil || cloned {
		return err
	}
	entries, err := os.ReadDir(r.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gitstore: %w", err)
	}
	if len(entries) > 0 {
		return fmt.Errorf("gitstore: %s exists and is not a git clone", r.Dir)
	}
	parent := filepath.Dir(r.Dir)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return fmt.Errorf("gitstore: %w", err)
	}
	// Clone from the parent so Dir need not exist; name the remote so a user's
	// clone.defaultRemoteName cannot rename it.
	_, err = r.run(ctx, parent, nil, "clone", "--quiet", "--origin", remote, "--", r.remoteURL(), filepath.Base(r.Dir))
	return err
}

func (r *Repo) cloned() (bool, error) {
	_, err := os.Stat(filepath.Join(r.Dir, ".git"))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("gitstore: %w", err)
	}
	return true, nil
}

// remoteURL makes a relative local path absolute: the clone runs from Dir's parent, later fetches
// from Dir, and both must reach the same repository.
func (r *Repo) remoteURL() string {
	if filepath.IsAbs(r.Remote) || strings.Contains(r.Remote, ":") {
		return r.Remote
	}
	if _, err := os.Stat(r.Remote); err != nil {
		return r.Remote
	}
	if abs, err := filepath.Abs(r.Remote); err == nil {
		return abs
	}
	return r.Remote
}

// validBranch rejects names git would misread as options or refuse as refs.
func (r *Repo) validBranch(ctx context.Context, name string) error {
	if name == "" || strings.HasPrefix(name, "-") {
		return fmt.Errorf("gitstore: invalid branch name %q", name)
	}
	if _, err := r.git(ctx, nil, "check-ref-format", "refs/heads/"+name); err != nil {
		return fmt.Errorf("gitstore: invalid branch name %q", name)
	}
	return nil
}

// abortStaleRebase undoes a rebase left behind by a Sync that was killed half-way, which would
// otherwise block every later Sync. Aborting restores the local commits as they were.
func (r *Repo) abortStaleRebase(ctx context.Context) error {
	stale, err := r.rebasing(ctx)
	if err != nil || !stale {
		return err
	}
	_, err = r.git(ctx, nil, "rebase", "--abort")
	return err
}

// checkoutBranch puts HEAD on Branch, creating it from origin/Branch, or as a branch without
// commits yet when the remote does not have it either.
func (r *Repo) checkoutBranch(ctx context.Context) error {
	local := "refs/heads/" + r.Branch
	head, err := r.headRef(ctx)
	if err != nil {
		return err
	}
	hasLocal, err := r.refExists(ctx, local)
	if err != nil {
		return err
	}
	hasRemote, err := r.refExists(ctx, r.upstream())
	if err != nil {
		return err
	}
	switch {
	case hasLocal && head == local:
		return nil
	case hasLocal:
		_, err = r.git(ctx, nil, "checkout", "--quiet", r.Branch, "--")
	case hasRemote:
		_, err = r.git(ctx, nil, "checkout", "--quiet", "--no-track", "-b", r.Branch, r.upstream(), "--")
	case head == local:
		return nil // Branch is HEAD already, without commits: the first Commit creates it
	default:
		err = r.startBranch(ctx)
	}
	return err
}

// startBranch begins Branch without commits. On a clone whose HEAD has no commits yet it just
// renames HEAD; otherwise it starts an orphan branch with an empty tree, so files of another
// branch are not carried into the team's history.
func (r *Repo) startBranch(ctx context.Context) error {
	born, err := r.refExists(ctx, "HEAD")
	if err != nil {
		return err
	}
	if !born {
		_, err = r.git(ctx, nil, "symbolic-ref", "HEAD", "refs/heads/"+r.Branch)
		return err
	}
	_, err = r.git(ctx, nil, "switch", "--quiet", "--orphan", r.Branch)
	return err
}

// rebase replays local commits onto origin/Branch, resolving conflicts in derived files by
// regenerating them, and aborting on any other conflict.
func (r *Repo) rebase(ctx context.Context, derived func(string) bool, regenerate func([]string) error) error {
	hasRemote, err := r.refExists(ctx, r.upstream())
	if err != nil || !hasRemote {
		return err
	}
	behind, err := r.git(ctx, nil, "rev-list", "--count", "HEAD.."+r.upstream(), "--")
	if err != nil || strings.TrimSpace(behind) == "0" {
		return err
	}
	ident, err := r.identity(ctx)
	if err != nil {
		return err
	}
	// --merge and --no-autostash pin the behaviour against user configuration (rebase.backend,
	// rebase.autoStash): a dirty tree makes git refuse, rather than being stashed away.
	args := slices.Concat(ident, []string{"rebase", "--quiet", "--merge", "--no-autostash", r.upstream()})
	editor := []string{"GIT_EDITOR=true"}
	for round := 0; ; round++ {
		_, err := r.git(ctx, editor, args...)
		if err == nil {
			return nil
		}
		if round == rebaseRounds {
			return r.abortRebase(ctx, fmt.Errorf("gitstore: rebase did not finish after %d rounds: %w", round, err))
		}
		stopped, serr := r.rebasing(ctx)
		if serr != nil {
			return errors.Join(err, serr)
		}
		if !stopped {
			return err // git refused to start (e.g. uncommitted changes); nothing was touched
		}
		if err := r.resolveDerived(ctx, err, derived, regenerate); err != nil {
			return r.abortRebase(ctx, err)
		}
		args = slices.Concat(ident, []string{"rebase", "--continue"})
	}
}

// resolveDerived handles a stopped rebase: when every conflicting path is derived, it regenerates
// and stages them; otherwise it returns the error that explains the stop.
func (r *Repo) resolveDerived(ctx context.Context, stop error, derived func(string) bool, regenerate func([]string) error) error {
	paths, err := r.unmerged(ctx)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return stop // stopped for another reason, e.g. no committer identity
	}
	var conflicts []string
	for _, p := range paths {
		if derived == nil || regenerate == nil || !derived(p) {
			conflicts = append(conflicts, p)
		}
	}
	if len(conflicts) > 0 {
		return &ConflictError{Op: "rebase", Paths: conflicts}
	}
	if err := regenerate(paths); err != nil {
		return fmt.Errorf("gitstore: regenerating %s: %w", strings.Join(paths, ", "), err)
	}
	// -A also stages a derived file that regenerate removed.
	_, err = r.git(ctx, nil, append([]string{"add", "-A", "--"}, literal(paths...)...)...)
	return err
}

// abortRebase restores the clone as it was before the rebase and returns cause.
func (r *Repo) abortRebase(ctx context.Context, cause error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	if _, err := r.git(ctx, nil, "rebase", "--abort"); err != nil {
		return errors.Join(cause, fmt.Errorf("gitstore: the clone %s is left mid-rebase: %w", r.Dir, err))
	}
	return cause
}

// rebasing reports whether a rebase is in progress in the clone, with either backend.
func (r *Repo) rebasing(ctx context.Context) (bool, error) {
	for _, name := range []string{"rebase-merge", "rebase-apply"} {
		found, err := r.gitPathExists(ctx, name)
		if err != nil || found {
			return found, err
		}
	}
	return false, nil
}

// gitPathExists reports whether a file exists in the clone's git directory.
func (r *Repo) gitPathExists(ctx context.Context, name string) (bool, error) {
	out, err := r.git(ctx, nil, "rev-parse", "--git-path", name)
	if err != nil {
		return false, err
	}
	p := strings.TrimSpace(out)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.Dir, p)
	}
	_, err = os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// unmerged lists the paths with conflicts in the index.
func (r *Repo) unmerged(ctx context.Context) ([]string, error) {
	out, err := r.git(ctx, nil, "diff", "--name-only", "--diff-filter=U", "-z")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// Commit stages every change under sub (a directory relative to Dir; "" means the whole clone:
// added, modified and deleted files) and commits it with message. Changes outside sub stay out of
// the commit. Author and committer are the user's own git identity when configured; when not,
// "dreamd <dreamd@HOST>" fills in, so a fresh machine can still commit. Hooks run. It returns the
// new commit's hash, or "" when nothing under sub changed.
func (r *Repo) Commit(ctx context.Context, sub, message string) (string, error) {
	sub, err := cleanSub(sub)
	if err != nil {
		return "", err
	}
	present, err := r.present(ctx, sub)
	if err != nil || !present {
		return "", err
	}
	spec := literal(sub)
	if _, err := r.git(ctx, nil, append([]string{"add", "-A", "--"}, spec...)...); err != nil {
		return "", err
	}
	staged, err := r.git(ctx, nil, append([]string{"diff", "--cached", "--name-only", "-z", "--"}, spec...)...)
	if err != nil || staged == "" {
		return "", err
	}
	ident, err := r.identity(ctx)
	if err != nil {
		return "", err
	}
	// The pathspec makes this a partial commit: whatever else sits in the index stays out.
	args := slices.Concat(ident, []string{"commit", "--quiet", "-m", message, "--"}, spec)
	if _, err := r.git(ctx, nil, args...); err != nil {
		return "", err
	}
	return r.revParse(ctx, "HEAD")
}

// cleanSub checks that sub stays inside the clone and turns it into a git path.
func cleanSub(sub string) (string, error) {
	if sub == "" {
		return ".", nil
	}
	if !filepath.IsLocal(sub) {
		return "", fmt.Errorf("gitstore: %q is not a directory inside the clone", sub)
	}
	return filepath.ToSlash(filepath.Clean(sub)), nil
}

// present reports whether sub exists on disk or has tracked files: `git add` fails on a pathspec
// that matches nothing, which is just "no changes" here.
func (r *Repo) present(ctx context.Context, sub string) (bool, error) {
	if _, err := os.Lstat(filepath.Join(r.Dir, filepath.FromSlash(sub))); err == nil {
		return true, nil
	}
	out, err := r.git(ctx, nil, append([]string{"ls-files", "-z", "--"}, literal(sub)...)...)
	return out != "", err
}

// identity returns -c options that supply dreamd's fallback identity for whatever of
// user.name/user.email the clone's configuration lacks. Git's own guess from the host would fail on
// many machines ("unable to auto-detect email address") or produce an address nobody owns.
func (r *Repo) identity(ctx context.Context) ([]string, error) {
	var args []string
	name, err := r.config(ctx, "user.name")
	if err != nil {
		return nil, err
	}
	if name == "" {
		args = append(args, "-c", "user.name=dreamd")
	}
	email, err := r.config(ctx, "user.email")
	if err != nil {
		return nil, err
	}
	if email == "" {
		args = append(args, "-c", "user.email="+fallbackEmail())
	}
	return args, nil
}

// config returns a git configuration value as seen from the clone, "" when unset.
func (r *Repo) config(ctx context.Context, key string) (string, error) {
	out, err := r.git(ctx, nil, "config", "--get", key)
	if exitCode(err) == 1 {
		return "", nil
	}
	return strings.TrimSpace(out), err
}

// fallbackEmail is dreamd@HOST, with the host reduced to characters valid in a domain.
func fallbackEmail() string {
	host, _ := os.Hostname()
	host = strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-':
			return c
		default:
			return -1
		}
	}, strings.ToLower(host))
	host = strings.Trim(host, ".-")
	if host == "" {
		host = "localhost"
	}
	return "dreamd@" + host
}

// Push pushes the local Branch to the remote branch to (Branch itself when to is "", or a review
// branch such as "dreamd/HOST/2026-11-25") and returns the branch actually pushed.
//
// Pushing to Branch when the remote moved on (a non-fast-forward rejection): Sync, then push
// again, up to 3 attempts; then the error. Pushing to a review branch never forces: when the review
// branch exists remotely and has diverged, it pushes to a suffixed name (…-2, …-3) instead.
func (r *Repo) Push(ctx context.Context, to string, derived func(string) bool, regenerate func([]string) error) (pushed string, err error) {
	if to == "" {
		to = r.Branch
	}
	for _, name := range []string{r.Branch, to} {
		if err := r.validBranch(ctx, name); err != nil {
			return "", err
		}
	}
	hasLocal, err := r.refExists(ctx, "refs/heads/"+r.Branch)
	if err != nil {
		return "", err
	}
	if !hasLocal {
		return "", fmt.Errorf("gitstore: nothing to push: %s has no commits", r.Branch)
	}
	if to == r.Branch {
		return to, r.pushShared(ctx, derived, regenerate)
	}
	return r.pushReview(ctx, to)
}

// pushShared pushes Branch to itself, syncing and retrying while other machines win the race.
func (r *Repo) pushShared(ctx context.Context, derived func(string) bool, regenerate func([]string) error) error {
	for attempt := 1; ; attempt++ {
		rejected, err := r.pushOnce(ctx, r.Branch)
		if err == nil || !rejected || attempt == pushAttempts {
			return err
		}
		if err := r.Sync(ctx, derived, regenerate); err != nil {
			return err
		}
	}
}

// pushReview pushes Branch to the review branch to, or to the first suffixed name that accepts
// it as new or as a fast-forward: another machine's review work is never overwritten.
func (r *Repo) pushReview(ctx context.Context, to string) (string, error) {
	for n := 1; n <= reviewSuffixes; n++ {
		name := to
		if n > 1 {
			name = fmt.Sprintf("%s-%d", to, n)
		}
		rejected, err := r.pushOnce(ctx, name)
		if err == nil {
			return name, nil
		}
		if !rejected {
			return "", err
		}
	}
	return "", fmt.Errorf("gitstore: review branches %s to %s-%d have all diverged", to, to, reviewSuffixes)
}

// pushOnce pushes Branch to the remote branch to. rejected reports the one refusal that syncing
// or renaming can fix: the remote branch is not an ancestor of ours. Other refusals (hooks,
// permissions) are errors to report as they are.
func (r *Repo) pushOnce(ctx context.Context, to string) (rejected bool, err error) {
	// --porcelain prints a stable status line per ref on stdout: "!\t<src>:<dst>\t[rejected] (fetch first)".
	out, err := r.git(ctx, nil, "push", "--porcelain", remote, "refs/heads/"+r.Branch+":refs/heads/"+to)
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "!") {
			continue
		}
		status := line
		if i := strings.LastIndex(line, "\t"); i >= 0 {
			status = line[i+1:]
		}
		rejected = strings.HasPrefix(status, "[rejected]") &&
			(strings.Contains(status, "non-fast-forward") || strings.Contains(status, "fetch first"))
		if err == nil {
			err = errors.New("git push: refused")
		}
		err = fmt.Errorf("gitstore: push of %s to %s refused: %s: %w", r.Branch, to, status, err)
	}
	return rejected, err
}

// CommitWith returns the newest commit on the local branch whose message holds text, "" when
// none does. A commit's hash changes when a sync rebases it; its message does not.
func (r *Repo) CommitWith(ctx context.Context, text string) (string, error) {
	out, err := r.git(ctx, nil, "log", "-1", "--format=%H", "--fixed-strings", "--grep="+text, "HEAD")
	return strings.TrimSpace(out), err
}

// Unpushed lists local commits on Branch not on origin/Branch (hashes, oldest first), so status
// can say what waits to be pushed. It reads the last fetched state of the remote, without fetching.
func (r *Repo) Unpushed(ctx context.Context) ([]string, error) {
	cloned, err := r.cloned()
	if err != nil || !cloned {
		return nil, err
	}
	local := "refs/heads/" + r.Branch
	hasLocal, err := r.refExists(ctx, local)
	if err != nil || !hasLocal {
		return nil, err
	}
	hasRemote, err := r.refExists(ctx, r.upstream())
	if err != nil {
		return nil, err
	}
	revs := local
	if hasRemote {
		revs = r.upstream() + ".." + local
	}
	out, err := r.git(ctx, nil, "rev-list", "--reverse", revs, "--")
	return strings.Fields(out), err
}

// ReviewBranch is the default review branch name for host and day: "dreamd/<host>/<YYYY-MM-DD>",
// the host reduced to a slug so the name is a valid ref on every filesystem.
func ReviewBranch(host string, day time.Time) string {
	h := slug.Make(host)
	if h == "" {
		h = "host"
	}
	return "dreamd/" + h + "/" + day.Format(time.DateOnly)
}

func (r *Repo) upstream() string { return "refs/remotes/" + remote + "/" + r.Branch }

// headRef is the branch HEAD points at ("refs/heads/x"), "" when HEAD is detached.
func (r *Repo) headRef(ctx context.Context) (string, error) {
	out, err := r.git(ctx, nil, "symbolic-ref", "--quiet", "HEAD")
	if exitCode(err) == 1 {
		return "", nil
	}
	return strings.TrimSpace(out), err
}

// refExists reports whether ref (a full ref name or HEAD) names a commit.
func (r *Repo) refExists(ctx context.Context, ref string) (bool, error) {
	_, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", ref+"^{commit}")
	if exitCode(err) == 1 {
		return false, nil
	}
	return err == nil, err
}

func (r *Repo) revParse(ctx context.Context, rev string) (string, error) {
	out, err := r.git(ctx, nil, "rev-parse", "--verify", "--quiet", rev)
	return strings.TrimSpace(out), err
}

// git runs git in the clone.
func (r *Repo) git(ctx context.Context, env []string, args ...string) (string, error) {
	return r.run(ctx, r.Dir, env, args...)
}

// run runs `git -C dir args...` and returns its standard output. Errors carry git's standard
// error, where git says what went wrong, and ctx's error when ctx ended the run.
func (r *Repo) run(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	cmd.Env = r.environ(env)
	cmd.WaitDelay = waitDelay
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.String(), nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = fmt.Errorf("%w (%v)", ctxErr, err)
	}
	msg := strings.TrimSpace(stderr.String())
	if msg == "" {
		return stdout.String(), fmt.Errorf("git %s: %w", subcommand(args), err)
	}
	return stdout.String(), fmt.Errorf("git %s: %w: %s", subcommand(args), err, msg)
}

// environ is the process environment without variables that would point git at another
// repository (set, e.g., when dreamd runs from a git hook), then Env, then git's settings.
// GIT_TERMINAL_PROMPT=0 comes after Env so a credential prompt can never hang dreamd.
func (r *Repo) environ(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !redirects(kv) {
			env = append(env, kv)
		}
	}
	env = append(env, r.Env...)
	env = append(env, "GIT_TERMINAL_PROMPT=0")
	return append(env, extra...)
}

var redirecting = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
}

func redirects(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	for _, v := range redirecting {
		if name == v {
			return true
		}
	}
	return false
}

// subcommand names the git command in args for error messages, skipping "-c key=value" options.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		if args[i] == "-c" {
			i++
			continue
		}
		return args[i]
	}
	return ""
}

// literal turns paths into pathspecs git matches literally, so names with *, ? or a leading ':'
// mean themselves.
func literal(paths ...string) []string {
	specs := make([]string, len(paths))
	for i, p := range paths {
		specs[i] = ":(literal)" + p
	}
	return specs
}

func splitNUL(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// exitCode is the exit status of a git that ran and failed, or -1.
func exitCode(err error) int {
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode()
	}
	return -1
}
