package main

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// Flag parsing in process, as the GitHub CLI tests it: each command is built with a run function
// that records the options it was given, mounted on the real root (so the persistent flags and
// their checks apply), and executed with the arguments a user would type.

// parse runs args against the root with sub in place of the command of the same name, and returns
// the options sub's run function was called with (nil when it was not called) and the error.
func parse[T any](t *testing.T, newCmd func(*globalOptions, func(*T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	g := &globalOptions{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	root := newRootCmd(g)
	var got *T
	sub := newCmd(g, func(o *T) error { got = o; return nil })
	for _, c := range root.Commands() {
		if c.Name() == sub.Name() {
			root.RemoveCommand(c)
		}
	}
	root.AddCommand(sub)
	root.SetArgs(args)
	return got, root.Execute()
}

func TestFlagsReachTheOptions(t *testing.T) {
	type check func(t *testing.T) (got, want any, err error)
	tests := []struct {
		name  string
		check check
	}{
		{"run --once --dry-run --diff, with global flags", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newRunCmd, "run", "--once", "--dry-run", "--diff", "--store", "/s", "--format", "markdown")
			return pick(o, func(o *runOptions) any {
				return []any{o.Once, o.DryRun, o.Diff, o.Gated, o.Force, o.Store, o.Format}
			}), []any{true, true, true, false, false, "/s", "markdown"}, err
		}},
		{"apply PLAN --force", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newApplyCmd, "apply", "p.json", "--force")
			return pick(o, func(o *applyOptions) any { return []any{o.Plan, o.Force} }), []any{"p.json", true}, err
		}},
		{"rollback with no run is the newest", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newRollbackCmd, "rollback")
			return pick(o, func(o *rollbackOptions) any { return []any{o.Run, o.Force} }), []any{"", false}, err
		}},
		{"rollback RUN --force", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newRollbackCmd, "rollback", "20261120T100000Z-a1b2c3", "--force")
			return pick(o, func(o *rollbackOptions) any { return []any{o.Run, o.Force} }), []any{"20261120T100000Z-a1b2c3", true}, err
		}},
		{"recall joins its words", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newRecallCmd, "recall", "how", "we", "deploy", "--limit", "3", "--project", "/p", "--archive")
			return pick(o, func(o *recallOptions) any { return []any{o.Query, o.Limit, o.Project, o.Archive} }), []any{"how we deploy", 3, "/p", true}, err
		}},
		{"history --json is --format json", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newHistoryCmd, "history", "--json")
			return pick(o, func(o *historyOptions) any { return o.Format }), "json", err
		}},
		{"history --limit", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newHistoryCmd, "history", "--limit", "0")
			return pick(o, func(o *historyOptions) any { return o.Limit }), 0, err
		}},
		{"history lists the newest 50 by default", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newHistoryCmd, "history")
			return pick(o, func(o *historyOptions) any { return o.Limit }), 50, err
		}},
		{"sessions --json is --format json", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newSessionsCmd, "sessions", "--json")
			return pick(o, func(o *sessionsOptions) any { return o.Format }), "json", err
		}},
		{"plan -o", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newPlanCmd, "plan", "-o", "plans/")
			return pick(o, func(o *planOptions) any { return o.Output }), "plans/", err
		}},
		{"discard several plans", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newDiscardCmd, "discard", "a.json", "b.json")
			return pick(o, func(o *discardOptions) any { return o.Plans }), []string{"a.json", "b.json"}, err
		}},
		{"remember --type --now", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newRememberCmd, "remember", "--type", "feedback", "answer", "tersely", "--now")
			return pick(o, func(o *rememberOptions) any { return []any{o.Text, o.Type, o.Now} }), []any{"answer tersely", "feedback", true}, err
		}},
		{"preamble --max-bytes", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newPreambleCmd, "preamble", "--max-bytes", "2048", "--project", "/p")
			return pick(o, func(o *preambleOptions) any { return []any{o.MaxBytes, o.Project} }), []any{2048, "/p"}, err
		}},
		{"link AGENT --in-repo", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newLinkCmd, "link", "codex", "--in-repo")
			return pick(o, func(o *linkOptions) any { return []any{o.Agent, o.InRepo} }), []any{"codex", true}, err
		}},
		{"eval --offline --jobs --run", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newEvalCmd, "eval", "--offline", "--jobs", "2", "--run", "codex")
			return pick(o, func(o *evalOptions) any { return []any{o.Offline, o.Jobs, o.Run} }), []any{true, 2, "codex"}, err
		}},
		{"doctor --timeout", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newDoctorCmd, "doctor", "--timeout", "5s")
			return pick(o, func(o *doctorOptions) any { return o.Timeout }), 5 * time.Second, err
		}},
		{"man DIR", func(t *testing.T) (any, any, error) {
			o, err := parse(t, newManCmd, "man", "out")
			return pick(o, func(o *manOptions) any { return o.Dir }), "out", err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want, err := tt.check(t)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("options %v, want %v", got, want)
			}
		})
	}
}

// pick is f(o), or nil when the run function was never called.
func pick[T any](o *T, f func(*T) any) any {
	if o == nil {
		return nil
	}
	return f(o)
}

// TestBadFlagsNeverRun: a usage error stops before the command's run function, with exit code 2.
func TestBadFlagsNeverRun(t *testing.T) {
	tests := []struct {
		name string
		run  func(t *testing.T) (called bool, err error)
	}{
		{"run --dry-run without --once", func(t *testing.T) (bool, error) {
			o, err := parse(t, newRunCmd, "run", "--dry-run")
			return o != nil, err
		}},
		{"an unknown format", func(t *testing.T) (bool, error) {
			o, err := parse(t, newSessionsCmd, "sessions", "--format", "yaml")
			return o != nil, err
		}},
		{"an unknown flag", func(t *testing.T) (bool, error) {
			o, err := parse(t, newHistoryCmd, "history", "--since", "1d")
			return o != nil, err
		}},
		{"apply without a plan", func(t *testing.T) (bool, error) {
			o, err := parse(t, newApplyCmd, "apply")
			return o != nil, err
		}},
		{"a flag value of the wrong kind", func(t *testing.T) (bool, error) {
			o, err := parse(t, newRecallCmd, "recall", "x", "--limit", "many")
			return o != nil, err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			called, err := tt.run(t)
			if called {
				t.Error("the run function was called")
			}
			if exitCode(err) != 2 {
				t.Errorf("exit code %d (%v), want 2", exitCode(err), err)
			}
		})
	}
}
