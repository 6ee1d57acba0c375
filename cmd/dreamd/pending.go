package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
)

// pendingPlans are the plans waiting in dreamd's state (for review, or parked after a guard
// refused them), of --store's store or of every store dreamd knows.
func pendingPlans(only string, cfg *config.Config) ([]string, error) {
	known, err := phases.KnownStores(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	var pending []string
	for _, p := range known {
		if only == "" || p.Store == only {
			pending = append(pending, phases.PendingPlans(p)...)
		}
	}
	return pending, nil
}

// planArg is the plan file an argument of apply or discard names: a file, or a pending plan by its
// run id (as `dreamd status` shows it), so a user need not copy a long path from dreamd's state.
func planArg(only string, cfg *config.Config, arg string) (string, error) {
	if _, err := os.Stat(arg); err == nil || strings.ContainsRune(arg, filepath.Separator) {
		return arg, nil
	}
	pending, err := pendingPlans(only, cfg)
	if err != nil {
		return "", err
	}
	if i := slices.IndexFunc(pending, func(p string) bool { return filepath.Base(p) == arg+".json" }); i >= 0 {
		return pending[i], nil
	}
	if rows, err := storeRuns(only, cfg.StateDir); err == nil && slices.ContainsFunc(rows, func(r historyRow) bool { return r.RunID == arg }) {
		return "", usagef(fmt.Sprintf("run %s is already applied (`dreamd history show %s` shows it); apply takes a plan file or the run id of a pending plan", arg, arg))
	}
	return "", usagef(fmt.Sprintf("%s: no such plan file, and no pending plan has that run id (`dreamd status` lists the plans waiting for review)", arg))
}
