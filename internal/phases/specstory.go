package phases

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/dreamd/dreamd/internal/transcript"
)

// SpecStory saves its exports in the project, <project>/.specstory/history/, not under the home
// directory, so no default source can name them: with Env.SpecStory the folder of every project
// dreamd knows is listed too. The projects known before routing are those any store's cursors
// remember and those configured; a project first seen in this discovery (the first pass, a new
// project) is known only once its files are routed, and its exports are then listed and
// everything routed again: that second routing happens only in the pass where such a project
// appears.

// projectExports lists the SpecStory exports of the given projects that no configured source
// lists already (listed holds the files of those sources): one entry per project, with its
// exports or none.
func projectExports(projects []string, listed []listedSource) []listedSource {
	seen := map[string]bool{} // only a specstory source lists what this would list again
	for _, l := range listed {
		if l.adapter.Kind() != transcript.SpecStoryKind {
			continue
		}
		for _, f := range l.files {
			seen[f.Path] = true
		}
	}
	a, _ := transcript.New(transcript.SpecStoryKind)
	var out []listedSource
	for _, project := range projects {
		dir := filepath.Join(project, filepath.FromSlash(transcript.SpecStoryHistory))
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			// Most projects have none: nothing to report, but the folder was looked for.
			out = append(out, listedSource{adapter: a, project: project})
			continue
		}
		files, skipped, err := a.Discover(transcript.Source{Kind: transcript.SpecStoryKind, Path: dir, Project: project})
		if err != nil {
			skipped = append(skipped, transcript.Skipped{Path: dir, Reason: err.Error()})
		}
		files = slices.DeleteFunc(files, func(f transcript.File) bool { return seen[f.Path] })
		for _, f := range files {
			seen[f.Path] = true
		}
		out = append(out, listedSource{adapter: a, files: files, skipped: skipped, project: project})
	}
	return out
}

// exportProjects lists the projects whose SpecStory folders a listing looked in.
func exportProjects(listed []listedSource) []string {
	var out []string
	for _, l := range listed {
		if l.project != "" {
			out = append(out, l.project)
		}
	}
	return out
}

// projectsKnown lists the projects dreamd knows before routing: configured on a source (or named
// by its agent's home) and remembered in any store's cursors, in a fixed order.
func projectsKnown(env *Env, known map[string]transcript.Cursor) []string {
	set := map[string]bool{}
	for _, s := range env.Sources {
		for _, p := range transcript.SourceProjects(s) {
			if p != "" {
				set[transcript.CanonicalProject(p)] = true
			}
		}
	}
	for _, c := range known {
		if c.Project != "" {
			set[c.Project] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// projectsRouted lists the projects routed transcripts belong to that are not in before.
func projectsRouted(targets []Target, before []string) []string {
	set := map[string]bool{}
	for _, t := range targets {
		for _, f := range t.Files {
			if f.Project != "" && !slices.Contains(before, f.Project) {
				set[f.Project] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// withExports is routing with the SpecStory exports of every project known: those known before
// are listed with the sources, those first seen in the routing afterwards (see above).
func withExports(ctx context.Context, env *Env, sources []listedSource, known map[string]transcript.Cursor, cursors map[string]Cursors) ([]Target, []transcript.Skipped, []listedSource, error) {
	var before []string
	if env.SpecStory {
		before = projectsKnown(env, known)
		sources = append(sources, projectExports(before, sources)...)
	}
	targets, skipped, err := routeListed(ctx, env, sources, known, cursors)
	if err != nil || !env.SpecStory {
		return targets, skipped, sources, err
	}
	more := projectExports(projectsRouted(targets, before), sources)
	sources = append(sources, more...) // each looked in, for the quiet mark
	if !slices.ContainsFunc(more, func(l listedSource) bool { return len(l.files)+len(l.skipped) > 0 }) {
		// Most new projects have no exports: routing again would peek every transcript twice.
		return targets, skipped, sources, nil
	}
	targets, skipped, err = routeListed(ctx, env, sources, known, cursors)
	return targets, skipped, sources, err
}

// withoutCopies leaves out the SpecStory exports of sessions whose agent's own transcript is
// routed too (SpecStory's CLI exports Claude Code's and Codex CLI's sessions under their ids):
// the session is read once, from the richer record.
func withoutCopies(routed []Tracked, skipped []transcript.Skipped) ([]Tracked, []transcript.Skipped) {
	own := map[string]string{} // session id → the agent's transcript
	for _, t := range routed {
		if t.File.Kind != transcript.SpecStoryKind && t.Session != "" {
			own[t.Session] = t.File.Path
		}
	}
	if len(own) == 0 {
		return routed, skipped
	}
	return slices.DeleteFunc(routed, func(t Tracked) bool {
		path, ok := own[t.Session]
		if ok && t.File.Kind == transcript.SpecStoryKind {
			skipped = append(skipped, transcript.Skipped{Path: t.File.Path, Reason: "SpecStory's copy of a session read from " + path})
		}
		return ok && t.File.Kind == transcript.SpecStoryKind
	}), skipped
}
