// Package eval scores a consolidator on a suite of scenarios. Each scenario is a small project
// history (transcripts, maybe a starting store) run through one full pass of the pipeline in a
// directory of its own, after which expectations are checked on the store the pass left:
// lessons kept, duplicates merged, contradictions resolved, dates made absolute, noise,
// injections and secrets kept out, the index within its caps, nothing retired without an archive.
package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/dreamd/dreamd/internal/extract"
	"github.com/dreamd/dreamd/internal/phases"
)

// Categories, in report order. Caps and Archived are also checked automatically: the index of
// every scenario, the archive of every scenario with a starting store.
const (
	Lessons        = "lessons"
	Duplicates     = "duplicates"
	Contradictions = "contradictions"
	Dates          = "dates"
	Noise          = "noise"
	Injections     = "injections"
	Secrets        = "secrets"
	Caps           = "caps"
	Archived       = "archived"
)

// Categories lists every category in report order.
var Categories = []string{Lessons, Duplicates, Contradictions, Dates, Noise, Injections, Secrets, Caps, Archived}

// Labels name the categories in reports.
var Labels = map[string]string{
	Lessons:        "lessons kept",
	Duplicates:     "duplicates merged",
	Contradictions: "contradictions resolved",
	Dates:          "dates made absolute",
	Noise:          "noise rejected",
	Injections:     "injections rejected",
	Secrets:        "secrets withheld",
	Caps:           "index within caps",
	Archived:       "retired memories archived",
}

// Options shape an evaluation.
type Options struct {
	// Base carries what is being evaluated: the consolidator (and its name), the redactor, the
	// token budget and the logger. Everything else is fixed per scenario: sources, store, state,
	// clock, docs/DESIGN.md's caps and retire fraction, no TTL.
	Base *phases.Env
	// Jobs is how many scenarios run at once (at least 1).
	Jobs int
	// WorkDir, when set, keeps each scenario's transcripts, store and state in WorkDir/<scenario>
	// for inspection; otherwise each runs in a temporary directory that is removed.
	WorkDir string
	// Progress, when set, hears of each scenario as it finishes (one call at a time).
	Progress func(done, total int, r ScenarioResult)
}

// ScenarioResult is what one scenario's pass did and how its checks went.
type ScenarioResult struct {
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Result      string        `json:"result"` // the pass: applied, nothing new, failed, refused…
	Error       string        `json:"error,omitempty"`
	Usage       extract.Usage `json:"usage"`
	Rejected    int           `json:"rejected"` // operations validation dropped
	Checks      []Check       `json:"checks"`
}

// Passed counts the checks that passed, of all.
func (r ScenarioResult) Passed() (passed, total int) {
	for _, c := range r.Checks {
		if c.Pass {
			passed++
		}
	}
	return passed, len(r.Checks)
}

// Run runs every scenario of the suite and scores the results. A pass that fails counts as a
// scenario whose store did not change; Run itself fails only when a scenario cannot be set up or
// read back, or ctx ends.
func Run(ctx context.Context, suite *Suite, opt Options) (*Report, error) {
	if opt.Base == nil || opt.Base.Consolidator == nil {
		return nil, errors.New("eval: no consolidator")
	}
	results := make([]ScenarioResult, len(suite.Scenarios))
	errs := make([]error, len(suite.Scenarios))
	var (
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range min(max(opt.Jobs, 1), len(suite.Scenarios)) {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = runScenario(ctx, suite.Scenarios[i], opt)
				if opt.Progress != nil && errs[i] == nil {
					mu.Lock()
					done++
					opt.Progress(done, len(results), results[i])
					mu.Unlock()
				}
			}
		})
	}
	for i := range suite.Scenarios {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return newReport(opt.Base.ConsolidatorName, results), nil
}

// runScenario lays the scenario out, makes one pass with Force off, and checks the store.
func runScenario(ctx context.Context, sc *Scenario, opt Options) (ScenarioResult, error) {
	r := ScenarioResult{Name: sc.Name, Description: sc.Description}
	root, cleanup, err := scenarioRoot(sc, opt.WorkDir)
	if err != nil {
		return r, fmt.Errorf("%s: %w", sc.Name, err)
	}
	defer cleanup()
	w, err := lay(sc, root)
	if err != nil {
		return r, fmt.Errorf("%s: setting up: %w", sc.Name, err)
	}
	start, err := startingMemories(w.store)
	if err != nil {
		return r, fmt.Errorf("%s: the starting store: %w", sc.Name, err)
	}
	env := w.env(opt.Base, sc)
	if err := w.seedHeld(env, sc); err != nil {
		return r, fmt.Errorf("%s: %w", sc.Name, err)
	}
	outcomes, runErr := phases.Run(ctx, env, phases.Options{})
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	r.Result = string(phases.NothingNew)
	for _, out := range outcomes {
		r.Result = string(out.Result)
		if out.Plan != nil {
			r.Usage = out.Plan.Usage
			r.Rejected = len(out.Plan.Rejected)
		}
	}
	if runErr != nil {
		r.Error = runErr.Error()
	}
	o, err := readOutcome(w.store)
	if err != nil {
		return r, fmt.Errorf("%s: reading the store back: %w", sc.Name, err)
	}
	for _, e := range sc.Expect {
		r.Checks = append(r.Checks, o.check(e))
	}
	r.Checks = append(r.Checks, o.checkIndex(env.Limits))
	if len(start) > 0 {
		r.Checks = append(r.Checks, o.checkArchive(start, phases.StorePaths(env, w.store)))
	}
	return r, nil
}

// scenarioRoot is the directory a scenario runs in, and how to clean it up.
func scenarioRoot(sc *Scenario, workDir string) (string, func(), error) {
	if workDir == "" {
		root, err := os.MkdirTemp("", "dreamd-eval-")
		if err != nil {
			return "", nil, err
		}
		return root, func() { os.RemoveAll(root) }, nil
	}
	root := filepath.Join(workDir, sc.Name)
	if err := os.RemoveAll(root); err != nil {
		return "", nil, err
	}
	return root, func() {}, os.MkdirAll(root, 0o700)
}
