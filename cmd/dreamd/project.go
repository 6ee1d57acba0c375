package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dreamd/dreamd/internal/config"
	"github.com/dreamd/dreamd/internal/phases"
)

// projectFlag adds --project to a command that takes --store: the store is then the one the
// project's sessions go to, so a user names a store by the directory they work in, not by its path.
func projectFlag(cmd *cobra.Command, g *globalOptions) {
	cmd.Flags().StringVar(&g.Project, "project", "", "only the store of this project directory (instead of --store)")
	dirFlag(cmd, "project")
}

// projectStore resolves --project to the store it selects, as --store would name it.
func (g *globalOptions) projectStore(cfg *config.Config) (string, error) {
	if g.Store != "" {
		return "", usagef("--project and --store both select a store: give one of them")
	}
	dir, err := projectDir(g.Project)
	if err != nil {
		return "", err
	}
	return phases.StoreOf(routingEnv(cfg), dir).Store, nil
}

// projectError refuses a --project whose store dreamd does not know, as checkStore does a --store.
func projectError(project, store, known string) error {
	return usagef(fmt.Sprintf("--project %s: dreamd knows no store of this project (it would be %s; known stores: %s); `dreamd sessions` lists each session's project and store",
		project, store, known))
}
