package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/dreamd/dreamd/internal/memory"
	"github.com/dreamd/dreamd/internal/store"
)

// A store of memories as people and agents write them over months: rules with their why and how,
// project facts with paths, commands and the odd code block, links, preferences; bodies from one
// line to a few KB; a few files without front matter, a few pinned, a few with keys of their own.
// corpus.WriteStore writes uniform one-paragraph memories; this is for the large-store benchmarks.

// storeStats describes a written store.
type storeStats struct {
	Dir      string `json:"dir"`
	Memories int    `json:"memories"`
	Bytes    int64  `json:"bytes"`       // topic files and MEMORY.md
	Index    int    `json:"index_lines"` // lines of MEMORY.md
	Similar  bool   `json:"similar"`
}

// clusterSize is how many wordings of one lesson a -similar store holds.
const clusterSize = 5

// writeMemories writes n topic files into dir and the MEMORY.md the store derives from them. With
// similar, the memories come in clusters of clusterSize rewordings of one lesson: every memory has
// near-duplicates, the worst case for the near-duplicate hints.
func writeMemories(dir string, n int, similar bool, seed int64) (storeStats, error) {
	st := storeStats{Dir: dir, Similar: similar}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return st, err
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x68616e64))
	taken := map[string]int{}
	var base note
	for i := range n {
		var m note
		if similar {
			if i%clusterSize == 0 {
				base = newNote(rng)
			}
			m = base.reworded(rng, i%clusterSize)
		} else {
			m = newNote(rng)
		}
		// Names repeat among 10,000 drawn memories: a person adds a number, as here.
		if k := taken[m.name]; k > 0 {
			taken[m.name] = k + 1
			m.name = fmt.Sprintf("%s-%d", m.name, k+1)
		} else {
			taken[m.name] = 1
		}
		data := m.file(rng)
		if err := os.WriteFile(filepath.Join(dir, m.name+".md"), data, 0o644); err != nil {
			return st, err
		}
		st.Bytes += int64(len(data))
	}
	// The index is the one dreamd derives, from the files as dreamd reads them: a hand-written file
	// without front matter is described by its first line of text (as phases.describe does), so
	// a pass finds the index as it would leave it.
	s, err := store.Load(dir)
	if err != nil {
		return st, err
	}
	for _, m := range s.Memories {
		if strings.TrimSpace(m.Description) == "" {
			for line := range strings.Lines(m.Body) {
				if line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#-*> ")); line != "" {
					m.Description = line
					break
				}
			}
		}
	}
	index := store.RenderIndexWithin(s.Memories, memory.DefaultLimits.IndexLineMax)
	if err := os.WriteFile(filepath.Join(dir, store.IndexFile), index, 0o644); err != nil {
		return st, err
	}
	st.Memories = len(s.Memories)
	st.Bytes += int64(len(index))
	st.Index = strings.Count(string(index), "\n")
	return st, nil
}

// note is one memory before it is written.
type note struct {
	name, typ, desc string
	body            []string // paragraphs
}

var (
	tools    = []string{"make", "go test", "pnpm", "docker compose", "kubectl", "terraform", "psql", "gh"}
	places   = []string{"staging", "production", "CI", "the nightly job", "local dev", "the release branch"}
	people   = []string{"Ana", "Bo", "Chen", "Dana", "Eli", "Femi", "Gus", "Hana"}
	reasons  = []string{"it silently drops rows when the batch is larger than the page size", "the vendor rate-limits us at 50 requests a second", "two deploys racing on the same tag broke checkout in March", "the fixtures are shared with the mobile team", "the cache is keyed by tenant and a wrong key leaks data", "the migration locks the table for minutes on production data", "reviewers asked for it after the incident on the 12th"}
	topicsOf = []string{"deploy", "tests", "migrations", "logging", "retries", "timeouts", "config", "release", "oncall", "fixtures", "metrics", "auth"}
)

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// newNote draws one memory of a random kind.
func newNote(rng *rand.Rand) note {
	n, m, topic := pick(rng, nouns), pick(rng, nouns), pick(rng, topicsOf)
	v, tool, place := pick(rng, verbs), pick(rng, tools), pick(rng, places)
	switch k := rng.IntN(20); {
	case k < 7: // feedback: a rule, why, how to apply
		return note{name: fmt.Sprintf("%s-%s-%s", n, topic, v), typ: "feedback",
			desc: fmt.Sprintf("Never %s the %s directly in %s code; go through %s.%s%s", v, n, m, m, title(v), title(n)),
			body: []string{
				fmt.Sprintf("Never call `%s%s` on the %s from the %s package: use `%s.%s%s`, which takes the lock and records the %s metric.", v, title(n), n, m, m, title(v), title(n), topic),
				fmt.Sprintf("**Why:** %s.", pick(rng, reasons)),
				fmt.Sprintf("**How to apply:** when a change touches %s/%s.go, check the %s in review; `%s` in %s catches most of it.", m, n, topic, tool, place),
			}}
	case k < 14: // project: facts, commands and paths, sometimes a list or a code block
		body := []string{fmt.Sprintf("The %s service keeps its %s in `internal/%s/%s`: %s.", n, topic, n, topic, pick(rng, reasons))}
		if rng.IntN(2) == 0 {
			var list []string
			for range 2 + rng.IntN(7) {
				list = append(list, fmt.Sprintf("- `%s %s-%s` — %s the %s before the %s step (%s)", pick(rng, tools), pick(rng, verbs), pick(rng, nouns), pick(rng, verbs), pick(rng, nouns), pick(rng, topicsOf), pick(rng, places)))
			}
			body = append(body, strings.Join(list, "\n"))
		}
		if rng.IntN(4) == 0 {
			body = append(body, fmt.Sprintf("```sh\n%s %s --env %s\n%s status %s\n```", tool, topic, place, tool, n))
		}
		if rng.IntN(3) == 0 {
			body = append(body, fmt.Sprintf("Decided with %s on 2026-%02d-%02d.", pick(rng, people), 1+rng.IntN(10), 1+rng.IntN(28)))
		}
		return note{name: fmt.Sprintf("%s-%s-%s", n, m, topic), typ: "project",
			desc: fmt.Sprintf("%s %s — %s %s with %s in %s", title(n), topic, v, m, tool, place), body: body}
	case k < 17: // reference: where something lives
		return note{name: fmt.Sprintf("%s-%s-dashboard", n, topic), typ: "reference",
			desc: fmt.Sprintf("Grafana dashboard for %s %s latency and errors", n, topic),
			body: []string{fmt.Sprintf("https://grafana.example.com/d/%s-%s/%s — panels for p50/p99 and the %s error rate; alerts page %s.", n, topic, m, v, pick(rng, people))}}
	default: // user: who the person is, how they like to work
		return note{name: fmt.Sprintf("prefers-%s-%s", v, topic), typ: "user",
			desc: fmt.Sprintf("Prefers to %s %s changes in small commits, reviewed by %s", v, topic, pick(rng, people)),
			body: []string{fmt.Sprintf("%s likes %s changes split into small commits that each pass `%s`; a big diff gets sent back.", pick(rng, people), topic, tool)}}
	}
}

// reworded is the variant-th wording of n (0: n itself): another name, its sentences in another
// order and a word or two changed, as when a lesson is written down again weeks later.
func (n note) reworded(rng *rand.Rand, variant int) note {
	if variant == 0 {
		return n
	}
	swaps := [][2]string{{"Never", "Do not"}, {"before", "prior to"}, {"use", "prefer"}, {"the ", "our "}, {"changes", "edits"}, {"keeps", "stores"}}
	out := note{name: n.name + "-" + []string{"", "again", "note", "rule", "v2"}[variant%clusterSize], typ: n.typ,
		desc: n.desc, body: append([]string(nil), n.body...)}
	for _, s := range swaps {
		if rng.IntN(2) == 0 {
			out.desc = strings.Replace(out.desc, s[0], s[1], 1)
			for i := range out.body {
				out.body[i] = strings.Replace(out.body[i], s[0], s[1], 1)
			}
		}
	}
	rng.Shuffle(len(out.body), func(i, j int) { out.body[i], out.body[j] = out.body[j], out.body[i] })
	if rng.IntN(2) == 0 {
		out.body = append(out.body, "(Came up again in review.)")
	}
	return out
}

// file renders n as a topic file: front matter in most, a few written by hand without it, a few
// pinned or with keys dreamd does not know.
func (n note) file(rng *rand.Rand) []byte {
	var b strings.Builder
	if rng.IntN(25) == 0 {
		fmt.Fprintf(&b, "# %s\n\n%s\n\n%s\n", title(strings.ReplaceAll(n.name, "-", " ")), n.desc, strings.Join(n.body, "\n\n"))
		return []byte(b.String())
	}
	created := fmt.Sprintf("2026-%02d-%02d", 1+rng.IntN(8), 1+rng.IntN(28))
	updated := fmt.Sprintf("2026-%02d-%02d", 9+rng.IntN(2), 1+rng.IntN(28))
	fmt.Fprintf(&b, "---\nname: %s\ndescription: %s\ntype: %s\ncreated: %s\nupdated: %s\n", n.name, n.desc, n.typ, created, updated)
	if rng.IntN(3) > 0 {
		fmt.Fprintf(&b, "sources: [claude:%s]\n", uuid(rng))
	}
	if rng.IntN(50) == 0 {
		b.WriteString("pinned: true\n")
	}
	if rng.IntN(20) == 0 {
		fmt.Fprintf(&b, "owner: %s\n", strings.ToLower(pick(rng, people)))
	}
	fmt.Fprintf(&b, "---\n%s\n", strings.Join(n.body, "\n\n"))
	return []byte(b.String())
}
